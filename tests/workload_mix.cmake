# Issue 17 (W2): block-size mixes, dedup and trim.
lst_add_unit_test(bssplit unit/test_bssplit.c lockstep::common)
