# SPDX-License-Identifier: Apache-2.0
# What `lockstep run` prints at its end (its agents' and paths' rows, the port scaling, columns
# that hold long labels) and the HTML page's read and write latency, from a real two-agent run.
lst_add_script_test(run_tables ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_tables.sh TIMEOUT 120)
