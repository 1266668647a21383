# SPDX-License-Identifier: Apache-2.0
# Events and telemetry in the results folder: events.csv, telemetry/ and
# telemetry.csv written (unit), and `lockstep report` showing them as text, JSON, HTML and in
# the timeseries plot (integration, from a fixture folder).
lst_add_unit_test(events unit/test_events.c lockstep::folder)
lst_add_script_test(report_events ${CMAKE_CURRENT_SOURCE_DIR}/integration/report_events.sh TIMEOUT 300)
