# SPDX-License-Identifier: Apache-2.0
# lst_run (agent/io/lst_run.c) in-process with the null engine: samples on the grid, and job threads
# that cannot all be made (pthread_create is wrapped to fail on a chosen call).
lst_add_unit_test(jobrun unit/test_jobrun.c lockstep::agent_io)
target_link_options(test_jobrun PRIVATE -Wl,--wrap=pthread_create)
