# SPDX-License-Identifier: Apache-2.0
# Flat memory at the end of a run: `lockstep report` on a folder of 1,000 points keeps
# a finished run's journal out of memory and peaks under 3x the results' bytes (about 15 s).
lst_add_script_test(report_memory ${CMAKE_CURRENT_SOURCE_DIR}/integration/report_memory.sh TIMEOUT 120)
