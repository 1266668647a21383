# Failover under test (issue 13): a port stall through `lockstep run`, measured on both agents.
lst_add_script_test(failover ${CMAKE_CURRENT_SOURCE_DIR}/integration/failover.sh TIMEOUT 120)
# The detector on hand-made rows: windows, their evidence, dips; the report's lines for them.
lst_add_unit_test(failover unit/test_failover.c lockstep::results)
