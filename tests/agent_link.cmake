# SPDX-License-Identifier: Apache-2.0
# Link rules of the agent's layers (docs/ARCHITECTURE.md: the link enforces the layers). Each
# tiny program links ONE library, whole (every object), plus what that library itself declares; a
# reference to a forbidden API inside the library then fails the build, and agent_check.sh fails
# the test when the forbidden library shows up in the link line, ldd or nm (someone added it to
# the library's DEPS).
foreach(lib agent_dev agent_io)
  add_executable(link_${lib} link/${lib}.c)
  target_compile_options(link_${lib} PRIVATE ${LST_WARNINGS})
  target_link_libraries(link_${lib} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,lockstep::${lib}>")
  set_target_properties(link_${lib} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
endforeach()

# Disk safety: no protocol, no ZeroMQ, no msgpack.
add_test(NAME link.agent_dev COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/link/agent_check.sh
    $<TARGET_FILE:link_agent_dev>
    ${CMAKE_BINARY_DIR}/tests/CMakeFiles/link_agent_dev.dir/link.txt
    lst_proto zmq czmq msgpack)
# The I/O engine: no ZeroMQ (nor the protocol, which would bring it).
add_test(NAME link.agent_io COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/link/agent_check.sh
    $<TARGET_FILE:link_agent_io>
    ${CMAKE_BINARY_DIR}/tests/CMakeFiles/link_agent_io.dir/link.txt
    lst_proto zmq czmq msgpack)
set_tests_properties(link.agent_dev link.agent_io PROPERTIES LABELS unit TIMEOUT 30)
