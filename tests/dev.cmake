# SPDX-License-Identifier: Apache-2.0
# Disk safety and identity (agent/dev): unit tests, the lst-devcheck driver (built into
# build/tests, never installed) and the loop-device integration script that uses it.
lst_add_unit_test(dev_identity unit/test_dev_identity.c lockstep::agent_dev)

add_executable(lst-devcheck devcheck_tool.c)
target_compile_options(lst-devcheck PRIVATE ${LST_WARNINGS})
target_link_libraries(lst-devcheck PRIVATE lockstep::agent_dev)
set_target_properties(lst-devcheck PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)

lst_add_script_test(dev_safety ${CMAKE_CURRENT_SOURCE_DIR}/integration/dev_safety.sh TIMEOUT 180)
# Paths that name no device, through `lockstep run`: a missing by-id name, an unbound loop device.
lst_add_script_test(dev_unknown ${CMAKE_CURRENT_SOURCE_DIR}/integration/dev_unknown.sh TIMEOUT 60)
