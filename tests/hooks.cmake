# SPDX-License-Identifier: Apache-2.0
# Hooks on the agent: the config's hooks and collectors and the runner
# (agent/daemon/lst_hook), in-process; and a real lockstep-agent driven over loopback by a C
# client with the codec: START's events, HOOK, KMSG.
lst_add_unit_test(hook unit/test_hook.c lockstep::agent_daemon)

add_executable(hook_stamp tools/hook_stamp.c)
target_compile_options(hook_stamp PRIVATE ${LST_WARNINGS})
set_target_properties(hook_stamp PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)

add_executable(daemon_hooks integration/daemon_hooks.c integration/agent_client.c)
target_compile_options(daemon_hooks PRIVATE ${LST_WARNINGS})
target_include_directories(daemon_hooks PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)
target_link_libraries(daemon_hooks PRIVATE lockstep::proto)
set_target_properties(daemon_hooks PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
add_dependencies(daemon_hooks lockstep-agent hook_stamp)
add_test(NAME integration.daemon_hooks COMMAND daemon_hooks)
set_tests_properties(integration.daemon_hooks PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
    LABELS integration RUN_SERIAL TRUE
    ENVIRONMENT "LST_BIN=${CMAKE_BINARY_DIR}/bin;LST_HOOK_STAMP=$<TARGET_FILE:hook_stamp>")

# Hooks, events and telemetry through `lockstep run`.
lst_add_script_test(hooks_telemetry ${CMAKE_CURRENT_SOURCE_DIR}/integration/hooks_telemetry.sh TIMEOUT 150)
lst_add_script_test(hooks_partition ${CMAKE_CURRENT_SOURCE_DIR}/integration/hooks_partition.sh TIMEOUT 120)
# Write errors through `lockstep run`: continue counts them per interval, stop ends with the first.
lst_add_script_test(enospc_run ${CMAKE_CURRENT_SOURCE_DIR}/integration/enospc_run.sh TIMEOUT 60)
