# SPDX-License-Identifier: Apache-2.0
# lockstep report --html: the page checked against summary.csv, nothing in it from outside,
# rendered offline by headless Chromium to PNG and PDF without a console message or request.
lst_add_script_test(report_html ${CMAKE_CURRENT_SOURCE_DIR}/integration/report_html.sh TIMEOUT 400)
