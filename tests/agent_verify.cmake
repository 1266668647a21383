# SPDX-License-Identifier: Apache-2.0
# Data integrity on the agent: verified writes and verifying reads in the job loop,
# in-process over a file under /tmp (psync, and io_uring where allowed).
lst_add_unit_test(agent_verify unit/test_agent_verify.c lockstep::agent_io)

# A real lockstep-agent driven over loopback by a C client with the codec: a verified write
# (streams, marks), JOURNAL, a verifying read (counts), a flipped byte (INTEGRITY before DONE).
add_executable(daemon_verify integration/daemon_verify.c integration/agent_client.c)
target_compile_options(daemon_verify PRIVATE ${LST_WARNINGS})
target_include_directories(daemon_verify PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)
target_link_libraries(daemon_verify PRIVATE lockstep::proto)
set_target_properties(daemon_verify PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
add_dependencies(daemon_verify lockstep-agent)
add_test(NAME integration.daemon_verify COMMAND daemon_verify)
set_tests_properties(integration.daemon_verify PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
    LABELS integration RUN_SERIAL TRUE ENVIRONMENT "LST_BIN=${CMAKE_BINARY_DIR}/bin")

# bench --verify: write, read back all ok, a flipped byte found (the CPU-cost benchmark's tool).
lst_add_script_test(bench_verify ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench_verify.sh TIMEOUT 120)
