# SPDX-License-Identifier: Apache-2.0
# Block-size mixes, dedup and trim.
lst_add_unit_test(bssplit unit/test_bssplit.c lockstep::common)
lst_add_script_test(workload_mix ${CMAKE_CURRENT_SOURCE_DIR}/integration/workload_mix.sh TIMEOUT 120)
lst_add_unit_test(trim_sample unit/test_trim_sample.c lockstep::proto)
target_sources(test_trim_sample PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/msg_examples.c)
target_include_directories(test_trim_sample PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
