# SPDX-License-Identifier: Apache-2.0
# Live metrics: `lockstep run --metrics` scraped by a real Prometheus, whose stored
# values must equal timeseries.csv; the endpoint's contract (content type, 404, loopback, bad
# addresses refused before any agent is contacted).
lst_add_script_test(metrics ${CMAKE_CURRENT_SOURCE_DIR}/integration/metrics.sh TIMEOUT 90)
# The store and the endpoint in-process: addresses, escaping, the exposition, and a poll loop
# serving a slow client, 404/405/431 and connections beyond the limit.
lst_add_unit_test(metrics unit/test_metrics.c lockstep::run)
# A connection that sends nothing is closed at its limit during a run, with no other request.
lst_add_script_test(metrics_idle ${CMAKE_CURRENT_SOURCE_DIR}/integration/metrics_idle.sh TIMEOUT 60)
