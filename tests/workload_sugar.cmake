# SPDX-License-Identifier: Apache-2.0
# The plan's `bs:` map and `dedup:` shorthands, and a trim mix in a real plan run.
lst_add_script_test(workload_sugar ${CMAKE_CURRENT_SOURCE_DIR}/integration/workload_sugar.sh TIMEOUT 60)
