/* `lockstep agents ADDR... | PLAN.yaml`: who is listening, and how their clocks compare. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_coord.h"
#include "lst_plan.h"
#include "lst_util.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: lockstep agents [--json] ADDRESS... | PLAN.yaml\n"
		   "\n"
		   "Connect to each agent, and show its name, version, host, cores, usable engines,\n"
		   "clock offset from this machine (the agent's monotonic clock minus ours) and the\n"
		   "round-trip time, measured by a burst of clock exchanges. An address is\n"
		   "tcp://HOST:PORT or HOST[:PORT] (port 7270 by default). With a plan, its agents.\n"
		   "\n"
		   "Exit status: 0 every agent answered, 1 some did not, 2 usage.\n");
}

int lst_cmd_agents(int argc, char **argv)
{
	const char **names, **addrs;
	char **owned;
	size_t n = 0;
	bool json = false;
	lst_plan *plan = NULL;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			s_usage(stdout);
			return 0;
		}
		json |= !strcmp(argv[i], "--json");
	}
	names = lst_calloc((size_t)argc, sizeof(*names));
	addrs = lst_calloc((size_t)argc, sizeof(*addrs));
	owned = lst_calloc((size_t)argc, sizeof(*owned));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t len = strlen(a);

		if (!strcmp(a, "--json"))
			continue;
		if (a[0] == '-') {
			fprintf(stderr, "lockstep agents: unknown option '%s'\n", a);
			s_usage(stderr);
			rc = 2;
			goto out;
		}
		if (len > 5 && (!strcmp(a + len - 5, ".yaml") || !strcmp(a + len - 4, ".yml"))) {
			lst_errlist errs = { 0 };

			if (plan) {
				fprintf(stderr, "lockstep agents: one plan at a time\n");
				rc = 2;
				goto out;
			}
			plan = lst_plan_load(a, &errs);
			if (!plan) {
				lst_errlist_print(&errs, stderr);
				lst_errlist_free(&errs);
				rc = 2;
				goto out;
			}
			for (size_t k = 0; k < plan->nagents; k++) {
				names = lst_realloc(names, (n + plan->nagents + (size_t)argc) *
								   sizeof(*names));
				addrs = lst_realloc(addrs, (n + plan->nagents + (size_t)argc) *
								   sizeof(*addrs));
				names[n] = plan->agents[k].name;
				addrs[n++] = plan->agents[k].address;
			}
			continue;
		}
		owned[i] = strncmp(a, "tcp://", 6) ? (strchr(a, ':') ? lst_asprintf("tcp://%s", a)
								     : lst_asprintf("tcp://%s:7270", a))
						   : lst_strdup(a);
		names[n] = owned[i] + 6;
		addrs[n++] = owned[i];
	}
	if (!n) {
		s_usage(stderr);
		rc = 2;
		goto out;
	}
	lst_coord_handle_signals();
	rc = lst_coord_probe(names, addrs, n, json, stdout);
out:
	for (int i = 0; i < argc; i++)
		free(owned[i]);
	free(owned);
	free(names);
	free(addrs);
	lst_plan_destroy(&plan);
	return rc;
}
