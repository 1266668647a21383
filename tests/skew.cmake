# SPDX-License-Identifier: Apache-2.0
# Several weighted workloads in one point (skew): the text form and the checks.
lst_add_unit_test(skew unit/test_skew.c lockstep::common)
lst_add_script_test(workload_skew ${CMAKE_CURRENT_SOURCE_DIR}/integration/workload_skew.sh TIMEOUT 60)
