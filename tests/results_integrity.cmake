# SPDX-License-Identifier: Apache-2.0
# Data integrity in the results folder: the write journal written, resumed and read
# back strictly, integrity.csv (unit); `lockstep report` showing a phase's verify counts and
# its bad units as text, JSON and HTML, and staying the same for folders without verify
# (integration, from a folder made by make_results.py --integrity).
lst_add_unit_test(integrity unit/test_integrity.c lockstep::folder)
lst_add_script_test(report_integrity ${CMAKE_CURRENT_SOURCE_DIR}/integration/report_integrity.sh TIMEOUT 300)
