# lockstep report: results folders read back (synthetic ones from make_results.py), every plot
# drawn by gnuplot and checked as SVG and PNG, two runs compared, bad input refused.
lst_add_script_test(report ${CMAKE_CURRENT_SOURCE_DIR}/integration/report.sh TIMEOUT 300)
