# Plans with issue 13's events, before/after hooks and telemetry: the parser's structs, the
# phase's agents and point length (unit), and `lockstep validate` on the fixtures in
# tests/fixtures/hooks, every error with its FILE:LINE:COL (integration).
lst_add_unit_test(plan_hooks unit/test_plan_hooks.c lockstep::plan)
# LST_MAX_HOOKS, as the plan library does: the wire header for its constants, nothing linked
target_include_directories(test_plan_hooks PRIVATE ${CMAKE_SOURCE_DIR}/proto)
lst_add_script_test(validate_hooks ${CMAKE_CURRENT_SOURCE_DIR}/integration/validate_hooks.sh)
