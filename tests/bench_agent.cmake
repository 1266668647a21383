# SPDX-License-Identifier: Apache-2.0
# The agent's engine: `lockstep-agent bench` against real loop devices and fio.
add_executable(noiouring tools/noiouring.c)
set_target_properties(noiouring PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)

lst_add_script_test(bench_counts ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench_counts.sh TIMEOUT 180)
lst_add_script_test(bench_layout ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench_layout.sh TIMEOUT 180)
lst_add_script_test(bench_rate ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench_rate.sh TIMEOUT 180)
lst_add_script_test(bench_cli ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench_cli.sh TIMEOUT 120)
