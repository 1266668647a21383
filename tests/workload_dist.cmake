# SPDX-License-Identifier: Apache-2.0
# Access distributions: the parser and the agent's generator in-process; bench's
# offset log, plans end to end and bad input in the script.
lst_add_unit_test(dist unit/test_dist.c lockstep::agent_io)
lst_add_script_test(workload_dist ${CMAKE_CURRENT_SOURCE_DIR}/integration/workload_dist.sh TIMEOUT 60)
