# Issue 13, errors and stalls: the coordinator's failover window on hand-made rows.
lst_add_unit_test(failover unit/test_failover.c lockstep::results)
