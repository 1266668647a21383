# Hooks, events and telemetry through `lockstep run` (issue 13).
lst_add_script_test(hooks_telemetry ${CMAKE_CURRENT_SOURCE_DIR}/integration/hooks_telemetry.sh TIMEOUT 150)
lst_add_script_test(hooks_partition ${CMAKE_CURRENT_SOURCE_DIR}/integration/hooks_partition.sh TIMEOUT 120)
# Write errors through `lockstep run`: continue counts them per interval, stop ends with the first.
lst_add_script_test(enospc_run ${CMAKE_CURRENT_SOURCE_DIR}/integration/enospc_run.sh TIMEOUT 60)
