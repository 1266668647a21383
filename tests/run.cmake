# The coordinator with real agents: lockstep run / agents against lockstep-agent processes.
lst_add_script_test(run_dual_port ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_dual_port.sh TIMEOUT 120)
lst_add_script_test(run_clock ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_clock.sh TIMEOUT 120)
lst_add_script_test(run_merge ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_merge.sh TIMEOUT 120)
lst_add_script_test(run_loss ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_loss.sh TIMEOUT 120)
lst_add_script_test(run_cli ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_cli.sh TIMEOUT 120)
