# SPDX-License-Identifier: Apache-2.0
# The coordinator with real agents: lockstep run / agents against lockstep-agent processes;
# run_results: a full results disk, WSAT over two targets, an agent that cannot start, flat
# memory over 10 ms intervals, and a coordinator killed mid-point.
lst_add_script_test(run_dual_port ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_dual_port.sh TIMEOUT 120)
lst_add_script_test(run_clock ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_clock.sh TIMEOUT 120)
lst_add_script_test(run_merge ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_merge.sh TIMEOUT 120)
lst_add_script_test(run_loss ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_loss.sh TIMEOUT 120)
lst_add_script_test(run_cli ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_cli.sh TIMEOUT 120)
lst_add_script_test(run_results ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_results.sh TIMEOUT 120)
# lockstep demo (what `make demo` runs), as root on loop devices and as a user on a file.
lst_add_script_test(demo ${CMAKE_CURRENT_SOURCE_DIR}/integration/demo.sh TIMEOUT 180)
# The per-point merge on synthetic samples: order, sums, late samples, a bounded window.
lst_add_unit_test(merge unit/test_merge.c lockstep::measure)
# Agent connections: polling any number of them at once.
lst_add_unit_test(conn unit/test_conn.c lockstep::run)
# Alone: its waits for a refused CURVE handshake and for the send that follows are timed, and
# beside another test under ASan (make check's sanitizer step runs two at a time) they ran out.
set_tests_properties(unit.conn PROPERTIES RUN_SERIAL TRUE)
# lockstep resume: kill -9 of the coordinator mid-round, resume to complete with the kept points
# byte-identical; refusals (a finished run, another plan, agents serving another coordinator).
lst_add_script_test(run_resume ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_resume.sh TIMEOUT 240)
