# Hooks on the agent (issue 13): the config's hooks and collectors and the runner
# (agent/daemon/lst_hook), in-process; and a real lockstep-agent driven over loopback by a C
# client with the codec: START's events, HOOK, KMSG.
lst_add_unit_test(hook unit/test_hook.c lockstep::agent_daemon)
