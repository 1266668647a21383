# SPDX-License-Identifier: Apache-2.0
# lockstep report: results folders read back (synthetic ones from make_results.py), every plot
# drawn by gnuplot and checked as SVG and PNG, two runs compared, bad input refused.
lst_add_script_test(report ${CMAKE_CURRENT_SOURCE_DIR}/integration/report.sh TIMEOUT 300)
# Byte-identical output of validate and report (text, JSON, plots) against a manifest made
# before the architecture refactor.
lst_add_script_test(golden ${CMAKE_CURRENT_SOURCE_DIR}/integration/golden.sh TIMEOUT 300)
