# SPDX-License-Identifier: Apache-2.0
# Plans with events, before/after hooks and telemetry: the parser's structs, the
# phase's agents and point length (unit), and `lockstep validate` on the fixtures in
# tests/fixtures/hooks, every error with its FILE:LINE:COL (integration).
lst_add_unit_test(plan_hooks unit/test_plan_hooks.c lockstep::plan)
lst_add_script_test(validate_hooks ${CMAKE_CURRENT_SOURCE_DIR}/integration/validate_hooks.sh)
