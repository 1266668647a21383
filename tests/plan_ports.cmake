# SPDX-License-Identifier: Apache-2.0
# Plans with paths, roles and port sets: `lockstep validate` on real files, good and
# bad, every error with its FILE:LINE:COL. The parser's own cases are in unit/test_plan.c.
lst_add_script_test(validate_ports ${CMAKE_CURRENT_SOURCE_DIR}/integration/validate_ports.sh)
