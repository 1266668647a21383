# SPDX-License-Identifier: Apache-2.0
# Plans with verify: the checks' boundaries and which phases write or read under
# verify (unit), and `lockstep validate` on real files, good and bad, each refusal with its
# FILE:LINE:COL and the lines it prints for verifying phases (integration).
lst_add_unit_test(plan_verify unit/test_plan_verify.c lockstep::plan)
lst_add_script_test(validate_verify ${CMAKE_CURRENT_SOURCE_DIR}/integration/validate_verify.sh)
