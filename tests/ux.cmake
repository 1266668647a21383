# SPDX-License-Identifier: Apache-2.0
# What a user and a script see of `lockstep run` and `lockstep report A B`: progress
# lines never dropped, --progress json, the final table, --overwrite (ux_run); the comparison's
# table and matrix agreeing, and its unfinished-run warning (ux_compare).
lst_add_script_test(ux_run ${CMAKE_CURRENT_SOURCE_DIR}/integration/ux_run.sh TIMEOUT 120)
lst_add_script_test(ux_compare ${CMAKE_CURRENT_SOURCE_DIR}/integration/ux_compare.sh TIMEOUT 120)
