# SPDX-License-Identifier: Apache-2.0
# Per-direction latency: read and write latency kept apart in timeseries.csv,
# summary.csv and curves.csv, checked against a loop device's counters and an independent merge
# of the raw samples, with a real agent.
lst_add_script_test(directions ${CMAKE_CURRENT_SOURCE_DIR}/integration/directions.sh TIMEOUT 120)
