# SPDX-License-Identifier: Apache-2.0
# The agent's settings tables (agent/daemon/lst_config, lst_config_cli) and what is made from
# them. lockstep-agent-extra-setting is lockstep-agent built with one entry more in
# lst_config_settings (LST_TEST_EXTRA_SETTING) and nothing else; agent_settings_docs checks that
# every entry --list-settings names appears in --help, docs/agent.md, lockstep-agent(8) and the
# bash completion, and that the extra build gains its setting in all of them, in --write-doc's
# tables, and as a flag and a config key that parse, while lockstep-agent has none of it.
add_executable(lockstep-agent-extra-setting ${CMAKE_SOURCE_DIR}/agent/main.c
  ${CMAKE_SOURCE_DIR}/agent/daemon/lst_config.c)
target_compile_definitions(lockstep-agent-extra-setting PRIVATE LST_TEST_EXTRA_SETTING)
target_compile_options(lockstep-agent-extra-setting PRIVATE ${LST_WARNINGS})
target_include_directories(lockstep-agent-extra-setting PRIVATE ${CMAKE_SOURCE_DIR}/agent/daemon)
target_link_libraries(lockstep-agent-extra-setting PRIVATE lockstep::agent_daemon
  lockstep::agent_io)
lst_add_script_test(agent_settings_docs
    ${CMAKE_CURRENT_SOURCE_DIR}/integration/agent_settings_docs.sh TIMEOUT 60)
