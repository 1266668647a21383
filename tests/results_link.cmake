# Link rules of the results library (coordinator/results): a tiny program linked against
# lockstep::results alone, built with every build, and a check that neither its libraries
# (ldd) nor its link line name ZeroMQ, czmq or msgpack.
add_executable(link_results link/results_link.c)
target_compile_options(link_results PRIVATE ${LST_WARNINGS})
target_link_libraries(link_results PRIVATE lockstep::results)
set_target_properties(link_results PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
# What the library declares it links (any generator; link.txt exists only with Makefiles).
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/tests/link_results.deps
  CONTENT "$<TARGET_PROPERTY:lst_results,LINK_LIBRARIES>\n$<TARGET_PROPERTY:lst_results,INTERFACE_LINK_LIBRARIES>\n")
lst_add_script_test(link_results ${CMAKE_CURRENT_SOURCE_DIR}/integration/link_results.sh)
