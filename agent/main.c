/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lockstep-agent: `lockstep-agent bench ...` runs one workload here (agent/io/lst_bench);
 * `lockstep-agent keygen ...` makes this host's key pair (proto/lst_keygen, the body of
 * `lockstep keygen` too, for hosts that have only the agent package); with no subcommand it is
 * the daemon a coordinator drives (agent/daemon/lst_agent). The hidden `__complete CWORD
 * WORDS...` answers the shell's Tab from the daemon's flag tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_agent.h"
#include "lst_bench.h"
#include "lst_config.h"
#include "lst_keygen.h"
#include "lst_log.h"
#include "lst_util.h"

/* The key the shipped /etc/lockstep/agent.yaml names, without its ".key". */
static char *s_agent_key(void)
{
	return lst_strdup(LST_CONFIG_DEFAULT_KEY_BASE);
}

static const struct lst_keygen_cmd s_keygen = {
	.prog = "lockstep-agent keygen",
	.def_doc = "Without PATH/NAME, this\n"
		   "agent's key is made: " LST_CONFIG_DEFAULT_KEY_BASE " (the key: of the shipped\n"
		   "/etc/lockstep/agent.yaml).\n",
	.def_base = s_agent_key,
};

/* keygen's flags as the shell completes them (its operands are files). */
static const struct lst_flag_cmd s_keygen_flags = {
	.name = "lockstep-agent keygen",
	.operand = LST_FLAG_FILE,
	.groups = lst_keygen_groups,
};

/*
 * `lockstep-agent __complete CWORD WORDS...`: what the shell offers for word CWORD
 * (completion/lockstep.bash, in lst_flag_complete's form), from keygen's table or the daemon's.
 * Exits 1 without an answer for bench, whose flags the completion reads from its --help.
 */
static int s_complete(int argc, char **argv)
{
	int cword = atoi(argv[2]), n = argc - 3;
	char **words = argv + 3;

	if (n > 1 && cword > 1 && !strcmp(words[1], "keygen")) {
		lst_flag_complete(&s_keygen_flags, n - 1, words + 1, cword - 1, stdout);
		return 0;
	}
	return lst_config_complete(n, words, cword, stdout);
}

int main(int argc, char **argv)
{
	lst_log_set_ident("lockstep-agent");
	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return lst_bench_main(argc - 1, argv + 1, lst_agent_config_policy);
	if (argc >= 2 && !strcmp(argv[1], "keygen"))
		return lst_keygen_main(&s_keygen, argc - 1, argv + 1);
	if (argc >= 3 && !strcmp(argv[1], "__complete"))
		return s_complete(argc, argv);
	return lst_agent_main(argc, argv);
}
