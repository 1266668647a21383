# Live metrics (issue 15): `lockstep run --metrics` scraped by a real Prometheus, whose stored
# values must equal timeseries.csv; the endpoint's contract (content type, 404, loopback, bad
# addresses refused before any agent is contacted).
lst_add_script_test(metrics ${CMAKE_CURRENT_SOURCE_DIR}/integration/metrics.sh TIMEOUT 90)
