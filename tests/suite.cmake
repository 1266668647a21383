# SPDX-License-Identifier: Apache-2.0
# SNIA suites: the state machines on synthetic results, and every suite end to end.
lst_add_unit_test(suite unit/test_suite.c lockstep::suite)
lst_add_script_test(suites ${CMAKE_CURRENT_SOURCE_DIR}/integration/suites.sh TIMEOUT 300)
