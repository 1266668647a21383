# SPDX-License-Identifier: Apache-2.0
# Trace record and replay on a phase: `record:` and `replay:` as workload options,
# each refusal at its LINE:COL (unit), and `lockstep validate`'s words and errors (script).
lst_add_unit_test(plan_trace unit/test_plan_trace.c lockstep::plan)
lst_add_script_test(plan_trace ${CMAKE_CURRENT_SOURCE_DIR}/integration/plan_trace.sh TIMEOUT 60)
