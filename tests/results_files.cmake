# SPDX-License-Identifier: Apache-2.0
# The results folder's machine-readable files: summary.csv's workload and combined latency
# columns against the plan and the raw samples, run.json's typed workloads, and a folder written
# by an older lockstep (text workloads, fewer columns) that still reports, resumes and verifies.
lst_add_script_test(results_files_columns ${CMAKE_CURRENT_SOURCE_DIR}/integration/results_files_columns.sh TIMEOUT 120)
lst_add_script_test(results_files_old ${CMAKE_CURRENT_SOURCE_DIR}/integration/results_files_old.sh TIMEOUT 120)
