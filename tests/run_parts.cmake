# SPDX-License-Identifier: Apache-2.0
# lst_run splits each interval's sample by path (lst_run_parts): null-engine runs in-process.
lst_add_unit_test(run_parts unit/test_run_parts.c lockstep::agent_io)
