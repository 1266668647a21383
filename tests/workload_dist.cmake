# Access distributions (issue 17): the parser and the agent's generator in-process; bench's
# offset log, plans end to end and bad input in the script.
lst_add_unit_test(dist unit/test_dist.c lockstep::agent_io)
