# Issue 17 (W2): block-size mixes, dedup and trim.
lst_add_unit_test(bssplit unit/test_bssplit.c lockstep::common)
lst_add_script_test(workload_mix ${CMAKE_CURRENT_SOURCE_DIR}/integration/workload_mix.sh TIMEOUT 120)
