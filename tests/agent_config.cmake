# SPDX-License-Identifier: Apache-2.0
# The agent's settings (agent/daemon/lst_config, lst_config_cli): the config reader, flags from
# the one settings table, and the docs splice, in-process.
lst_add_unit_test(config unit/test_config.c lockstep::agent_daemon)
