# SPDX-License-Identifier: Apache-2.0
# The end of a run as flat as the run: `lockstep report` (text, JSON, HTML) peaks no higher for
# a run 10 times longer, and its plots by under 2.5 times the added timeseries bytes (about 10 s).
lst_add_script_test(report_flat ${CMAKE_CURRENT_SOURCE_DIR}/integration/report_flat.sh TIMEOUT 120)
