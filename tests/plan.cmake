# SPDX-License-Identifier: Apache-2.0
# Plans: the parser and its schema (unit), `lockstep validate` on real files (integration).
lst_add_unit_test(plan unit/test_plan.c lockstep::plan)
# The test compares docs/plan.md with the generated reference and validates examples/.
target_compile_definitions(test_plan PRIVATE LST_SRC_DIR="${CMAKE_SOURCE_DIR}")
lst_add_script_test(validate_cli ${CMAKE_CURRENT_SOURCE_DIR}/integration/validate_cli.sh)
