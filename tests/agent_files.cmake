# SPDX-License-Identifier: Apache-2.0
# The files the agent creates and reads, and the workers that can be cancelled: a trace folder's
# symlinks, FIFOs, strangers' folders and oversized traces; a plan's key: naming a FIFO or a
# missing file; a damaged write journal refused or its replay cancelled by BYE; the agent's log and
# pid file.
lst_add_unit_test(file unit/test_file.c lockstep::common)
lst_add_script_test(agent_files_trace ${CMAKE_CURRENT_SOURCE_DIR}/integration/agent_files_trace.sh TIMEOUT 90)
lst_add_script_test(agent_files_key ${CMAKE_CURRENT_SOURCE_DIR}/integration/agent_files_key.sh TIMEOUT 60)
lst_add_script_test(agent_files_journal ${CMAKE_CURRENT_SOURCE_DIR}/integration/agent_files_journal.sh TIMEOUT 90)
lst_add_script_test(agent_files_log ${CMAKE_CURRENT_SOURCE_DIR}/integration/agent_files_log.sh TIMEOUT 60)
