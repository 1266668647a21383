# SPDX-License-Identifier: Apache-2.0
# The agent's settings tables (agent/daemon/lst_config, lst_config_cli) and what is made from
# them: every entry --list-settings names appears in --help, docs/agent.md, lockstep-agent(8)
# and the bash completion, so a new setting is one table entry.
lst_add_script_test(agent_settings_docs
    ${CMAKE_CURRENT_SOURCE_DIR}/integration/agent_settings_docs.sh TIMEOUT 60)
