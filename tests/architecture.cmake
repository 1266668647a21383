# SPDX-License-Identifier: Apache-2.0
# The architecture check (docs/ARCHITECTURE.md; the table is cmake/architecture.txt):
# integration.architecture           nm of every built library against the table: uses between
#                                    libraries and circles of files inside one.
# integration.architecture_fixtures  the check itself: tiny objects built in the test with a
#                                    back-call (a circle of two and of three files, a use the table
#                                    forbids added to a copy of lst_common, a library-internal
#                                    name used from another library) make it fail, naming
#                                    the files and symbols; allowed and known circles pass.

# Every static library lst_* that this tree defines, found by walking its folders (not by
# listing build/lib, where a library that a change removed may linger in a reused build).
function(lst_static_libraries dir out)
  set(found "")
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "STATIC_LIBRARY" AND t MATCHES "^lst_")
      list(APPEND found "$<TARGET_FILE:${t}>")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    lst_static_libraries(${sub} more)
    list(APPEND found ${more})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
lst_static_libraries(${PROJECT_SOURCE_DIR} LST_ARCH_LIBS)
list(JOIN LST_ARCH_LIBS "\n" LST_ARCH_LINES)
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/tests/architecture.libs CONTENT "${LST_ARCH_LINES}\n")

lst_add_script_test(architecture ${CMAKE_CURRENT_SOURCE_DIR}/integration/architecture.sh TIMEOUT 60)
lst_add_script_test(architecture_fixtures
    ${CMAKE_CURRENT_SOURCE_DIR}/integration/architecture_fixtures.sh TIMEOUT 60)
