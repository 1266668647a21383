# Data integrity on the agent (issue 14): verified writes and verifying reads in the job loop,
# in-process over a file under /tmp (psync, and io_uring where allowed).
lst_add_unit_test(agent_verify unit/test_agent_verify.c lockstep::agent_io)

# bench --verify: write, read back all ok, a flipped byte found (the CPU-cost benchmark's tool).
lst_add_script_test(bench_verify ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench_verify.sh TIMEOUT 120)
