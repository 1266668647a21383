# SPDX-License-Identifier: Apache-2.0
# The agent daemon (agent/daemon): a real lockstep-agent process driven over loopback by a C
# client with the real codec (an integration test: it starts a process and binds a port), and
# shell tests of its command line and config.
add_executable(daemon_c integration/daemon_c.c ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/msg_examples.c)
target_compile_options(daemon_c PRIVATE ${LST_WARNINGS})
target_include_directories(daemon_c PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit
    ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
target_link_libraries(daemon_c PRIVATE lockstep::proto)
set_target_properties(daemon_c PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
add_dependencies(daemon_c lockstep-agent noiouring)
add_test(NAME integration.daemon COMMAND daemon_c)
set_tests_properties(integration.daemon PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180
    LABELS integration RUN_SERIAL TRUE ENVIRONMENT "LST_BIN=${CMAKE_BINARY_DIR}/bin")

lst_add_script_test(daemon_config ${CMAKE_CURRENT_SOURCE_DIR}/integration/daemon_config.sh
    TIMEOUT 120)
