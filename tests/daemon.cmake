# The agent daemon (agent/daemon): a real lockstep-agent process driven over
# loopback by a C client with the real codec, and shell tests of its command line and config.
lst_add_unit_test(daemon unit/test_daemon.c lockstep::proto)
target_sources(test_daemon PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/msg_examples.c)
target_include_directories(test_daemon PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
add_dependencies(test_daemon lockstep-agent noiouring)
set_tests_properties(unit.daemon PROPERTIES RUN_SERIAL TRUE TIMEOUT 180
    ENVIRONMENT "LST_BIN=${CMAKE_BINARY_DIR}/bin")

lst_add_script_test(daemon_config ${CMAKE_CURRENT_SOURCE_DIR}/integration/daemon_config.sh
    TIMEOUT 120)
