# SPDX-License-Identifier: Apache-2.0
# Trace record and replay on the agent. replay: end to end through two agents and
# blktrace; replay_bad: bad traces refused before any I/O (bench and daemon).
lst_add_script_test(replay ${CMAKE_CURRENT_SOURCE_DIR}/integration/replay.sh TIMEOUT 120)
lst_add_script_test(replay_bad ${CMAKE_CURRENT_SOURCE_DIR}/integration/replay_bad.sh TIMEOUT 120)
