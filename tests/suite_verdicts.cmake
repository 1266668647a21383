# SPDX-License-Identifier: Apache-2.0
# What a suite's outputs say: verdicts, windows, stop reasons, purge and precondition work.
lst_add_script_test(suite_verdicts ${CMAKE_CURRENT_SOURCE_DIR}/integration/suite_verdicts.sh TIMEOUT 120)
