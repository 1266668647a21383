# SPDX-License-Identifier: Apache-2.0
# A suite's memory stays flat over thousands of rounds (results kept for the window
# only), and curves.csv still averages the window's rounds.
lst_add_unit_test(suite_memory unit/test_suite_memory.c lockstep::suite)
