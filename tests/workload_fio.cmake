# SPDX-License-Identifier: Apache-2.0
# fio's names: aliases, "did you mean", and `lockstep-agent bench` / plans with fio's
# spelling.
lst_add_unit_test(suggest unit/test_suggest.c lockstep::common)
lst_add_script_test(workload_fio ${CMAKE_CURRENT_SOURCE_DIR}/integration/workload_fio.sh TIMEOUT 60)
