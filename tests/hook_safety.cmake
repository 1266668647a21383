# SPDX-License-Identifier: Apache-2.0
# What a hook can do to the agent and the run: output with NUL bytes still reports (HOOK_DONE,
# EVENT), nothing a hook starts outlives it or the agent, and a hook file others may change is
# refused when the config is read.
lst_add_script_test(hook_output_nul ${CMAKE_CURRENT_SOURCE_DIR}/integration/hook_output_nul.sh TIMEOUT 60)
lst_add_script_test(hook_owner ${CMAKE_CURRENT_SOURCE_DIR}/integration/hook_owner.sh TIMEOUT 60)
lst_add_script_test(hook_tree ${CMAKE_CURRENT_SOURCE_DIR}/integration/hook_tree.sh TIMEOUT 60)
