# SPDX-License-Identifier: Apache-2.0
# Steady state: the SNIA verdict (coordinator/measure/lst_steady.c) and the `lockstep steady` command.
lst_add_unit_test(steady unit/test_steady.c lockstep::measure)
lst_add_script_test(steady_cli ${CMAKE_CURRENT_SOURCE_DIR}/integration/steady_cli.sh)
