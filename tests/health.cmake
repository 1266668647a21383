# SPDX-License-Identifier: Apache-2.0
# Errors and stalls: a sample's health (classes, codec, checks) and the agent's jobs
# under ENOSPC and a stalled device.
lst_add_unit_test(health unit/test_health.c lockstep::proto)
target_sources(test_health PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/msg_examples.c)
target_include_directories(test_health PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
lst_add_script_test(health ${CMAKE_CURRENT_SOURCE_DIR}/integration/health.sh TIMEOUT 120)
