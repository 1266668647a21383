/* SPDX-License-Identifier: Apache-2.0 */
/* `lockstep agents ADDR... | PLAN.yaml`: who is listening, and how their clocks compare. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_probe.h"
#include "lst_plan.h"
#include "lst_util.h"

void lst_cmd_agents_usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep agents [--json] [--key FILE] [--insecure] ADDRESS[=KEY]... |\n"
		"                       PLAN.yaml\n"
		"\n"
		"Connect to each agent, and show its name, version, host, cores, usable engines,\n"
		"clock offset from this machine (the agent's monotonic clock minus ours) and the\n"
		"round-trip time, measured by a burst of clock exchanges. An address is\n"
		"tcp://HOST:PORT or HOST[:PORT] (port 7270 by default). With a plan, its agents\n"
		"and their keys. An agent whose config names hooks or collectors (what a plan\n"
		"may run there: docs/agent.md) gets a second line listing them.\n"
		"\n"
		"  ADDRESS=KEY      reach this agent over CURVE; KEY is its public key: a file\n"
		"                   (its NAME.pub) or the 40-character Z85 text\n"
		"  --key FILE       our CURVE secret key (default\n"
		"                   $XDG_CONFIG_HOME/lockstep/coordinator.key)\n"
		"  --insecure       allow plain text to addresses beyond loopback\n"
		"  --json           JSON instead of a table\n"
		"\n"
		"An agent that refuses our key, or whose key is not the one given, is shown as\n"
		"'refused' with the reason (see docs/security.md).\n"
		"\n"
		"Exit status: 0 every agent answered, 1 some did not, 2 usage or keys.\n");
}

int lst_cmd_agents(int argc, char **argv)
{
	struct lst_coord_agent *agents;
	char **owned;
	size_t n = 0;
	bool json = false;
	struct lst_coord_opts sec = { 0 };
	lst_plan *plan = NULL;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			lst_cmd_agents_usage(stdout);
			return 0;
		}
		json |= !strcmp(argv[i], "--json");
	}
	agents = lst_calloc((size_t)argc, sizeof(*agents));
	owned = lst_calloc((size_t)argc, sizeof(*owned));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t len = strlen(a);

		if (!strcmp(a, "--json"))
			continue;
		if (!strcmp(a, "--insecure")) {
			sec.insecure = true;
			continue;
		}
		if (!strcmp(a, "--key")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "lockstep agents: --key needs a file\n");
				rc = 2;
				goto out;
			}
			sec.key_file = argv[++i];
			continue;
		}
		if (a[0] == '-') {
			fprintf(stderr,
				"lockstep agents: unknown option '%s' (see 'lockstep agents "
				"--help')\n",
				a);
			rc = 2;
			goto out;
		}
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
	rc = lst_probe_agents(agents, n, &sec, json, stdout);
out:
	for (int i = 0; i < argc; i++)
		free(owned[i]);
	free(owned);
	free(agents);
	lst_plan_destroy(&plan);
	return rc;
}
