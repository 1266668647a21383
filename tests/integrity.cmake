# SPDX-License-Identifier: Apache-2.0
# Data integrity across ports through lockstep run and lockstep verify.
lst_add_script_test(integrity ${CMAKE_CURRENT_SOURCE_DIR}/integration/integrity.sh TIMEOUT 180)
lst_add_script_test(integrity_earlier_journal ${CMAKE_CURRENT_SOURCE_DIR}/integration/integrity_earlier_journal.sh TIMEOUT 60)
