/* SPDX-License-Identifier: Apache-2.0 */
/* `lockstep agents ADDR... | PLAN.yaml`: who is listening, and how their clocks compare. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_probe.h"
#include "lst_plan.h"
#include "lst_util.h"

struct s_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	int64_t json;
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "json",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct s_flags, json),
		   .help = "JSON instead of a table" } },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, lst_cli_key_flags, NULL };

const struct lst_flag_cmd lst_cmd_agents_flags = {
	.name = "lockstep agents",
	.operands = "ADDRESS[=KEY]... | PLAN.yaml",
	.operand = LST_FLAG_PLAN,
	.groups = s_groups,
	.about = "Connect to each agent, and show its name, version, host, cores, usable engines,\n"
		 "clock offset from this machine (the agent's monotonic clock minus ours) and the\n"
		 "round-trip time, measured by a burst of clock exchanges. An address is\n"
		 "tcp://HOST:PORT or HOST[:PORT] (port 7270 by default). With a plan, its agents\n"
		 "and their keys. An agent whose config names hooks or collectors (what a plan\n"
		 "may run there: docs/agent.md) gets a second line listing them. ADDRESS=KEY\n"
		 "reaches that agent over CURVE; KEY is its public key: a file (its NAME.pub) or\n"
		 "the 40-character Z85 text.\n",
	.more = "An agent that refuses our key, or whose key is not the one given, is shown as\n"
		"'refused' with the reason (see docs/security.md).\n"
		"\n"
		"Exit status: 0 every agent answered, 1 some did not, 2 usage or keys.\n"
		"\n"
		"Example:\n"
		"  lockstep agents plan.yaml\n",
};

int lst_cmd_agents(int argc, char **argv)
{
	struct lst_coord_agent *agents;
	char **owned;
	size_t n = 0;
	struct s_flags fl = { 0 };
	struct lst_coord_opts sec = { 0 };
	lst_plan *plan = NULL;
	int first, rc;

	if ((rc = lst_cli_parse(&lst_cmd_agents_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	lst_cli_coord_opts(&fl.c, &sec);
	agents = lst_calloc((size_t)argc, sizeof(*agents));
	owned = lst_calloc((size_t)argc, sizeof(*owned));
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		size_t len = strlen(a);

		if (len > 5 && (!strcmp(a + len - 5, ".yaml") || !strcmp(a + len - 4, ".yml"))) {
			if ((rc = lst_cli_add_plan_agents("agents", a, &plan, &agents, &n,
							  (size_t)argc)))
				goto out;
			continue;
		}
		owned[i] = lst_cli_agent_from_address(a, &agents[n++]);
	}
	if (!n) {
		fprintf(stderr, "lockstep agents: which agents? give addresses (HOST[:PORT]) or a "
				"PLAN.yaml (see 'lockstep agents --help')\n");
		rc = 2;
		goto out;
	}
	lst_coord_handle_signals();
	rc = lst_probe_agents(agents, n, &sec, fl.json, stdout);
out:
	for (int i = 0; i < argc; i++)
		free(owned[i]);
	free(owned);
	free(agents);
	lst_plan_destroy(&plan);
	return rc;
}
