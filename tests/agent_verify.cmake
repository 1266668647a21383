# Data integrity on the agent (issue 14): verified writes and verifying reads in the job loop,
# in-process over a file under /tmp (psync, and io_uring where allowed).
lst_add_unit_test(agent_verify unit/test_agent_verify.c lockstep::agent_io)
