# Failover under test (issue 13): a port stall through `lockstep run`, measured on both agents.
lst_add_script_test(failover ${CMAKE_CURRENT_SOURCE_DIR}/integration/failover.sh TIMEOUT 120)
