# SPDX-License-Identifier: Apache-2.0
# Link rules of the results' three libraries (coordinator/measure, folder, present), which
# point present -> folder -> measure and never back:
# integration.link_results  tests/link/results_link.c, built once against each library alone
#                           (a call up a layer is an undefined symbol there); none of them
#                           loads or names ZeroMQ, czmq or msgpack, and measure no jansson or
#                           libyaml either (ldd and the libraries each declares).
# link.results_layers       nm over the three archives: measure references no symbol of folder
#                           or present and no file or JSON call, folder none of present and no
#                           plan parser; the same look finds present's calls into folder, so
#                           the check is known to be able to fail.
foreach(layer measure folder present)
  add_executable(link_${layer} link/results_link.c)
  string(TOUPPER ${layer} LAYER)
  target_compile_definitions(link_${layer} PRIVATE LST_LINK_${LAYER})
  target_compile_options(link_${layer} PRIVATE ${LST_WARNINGS})
  target_link_libraries(link_${layer} PRIVATE lockstep::${layer})
  set_target_properties(link_${layer} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  # What the library declares it links, its own and through its dependencies (any generator;
  # link.txt exists only with Makefiles).
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/tests/link_${layer}.deps
    CONTENT "$<TARGET_PROPERTY:lst_${layer},LINK_LIBRARIES>\n$<TARGET_PROPERTY:lst_${layer},INTERFACE_LINK_LIBRARIES>\n")
endforeach()
lst_add_script_test(link_results ${CMAKE_CURRENT_SOURCE_DIR}/integration/link_results.sh)
add_test(NAME link.results_layers
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/link/results_layers.sh $<TARGET_FILE:lst_measure>
          $<TARGET_FILE:lst_folder> $<TARGET_FILE:lst_present>)
set_tests_properties(link.results_layers PROPERTIES TIMEOUT 60 LABELS unit)
