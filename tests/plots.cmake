# SPDX-License-Identifier: Apache-2.0
# Plots that cannot mislead: the gnuplot scripts of a real two-agent run on loop devices (and of
# a synthetic snia-iops folder) read as text, drawn by the real gnuplot: MB/s headlines for large
# blocks, read and write latency lines, the title's percentile the one circled, port sets as
# labelled bars, breaks where a path did no I/O, SVG text size, the matrix's values and axis,
# and suite time series per test and round.
lst_add_script_test(plots_honest ${CMAKE_CURRENT_SOURCE_DIR}/integration/plots_honest.sh TIMEOUT 120)
