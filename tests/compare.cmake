# SPDX-License-Identifier: Apache-2.0
# Several runs compared and run-to-run noise: the t interval and Welch's test against published
# tables (unit.noise).
lst_add_unit_test(noise unit/test_noise.c lockstep::measure)
# Three real runs on a loop device compared cell by cell against their own files, repeat: 3
# intervals, within noise against changed, the input folders untouched, bad input refused.
lst_add_script_test(compare_runs ${CMAKE_CURRENT_SOURCE_DIR}/integration/compare_runs.sh TIMEOUT 120)
