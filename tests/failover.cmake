# SPDX-License-Identifier: Apache-2.0
# Failover under test: a port stall through `lockstep run`, measured on both agents.
lst_add_script_test(failover ${CMAKE_CURRENT_SOURCE_DIR}/integration/failover.sh TIMEOUT 120)
# The detector on hand-made rows: windows, their evidence, dips; the report's lines for them.
lst_add_unit_test(failover unit/test_failover.c lockstep::present)
# A port slowed down without a fault (a blkio throttle set by the test, not the plan): a
# throughput dip in its own section, never a failover window; `dips: false` leaves it out.
lst_add_script_test(dips ${CMAKE_CURRENT_SOURCE_DIR}/integration/dips.sh TIMEOUT 120)
