/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the subcommands share: the options every coordinating command takes, and the agents a
 * plan or a list of addresses names (`lockstep agents`, `lockstep inventory`).
 */
#include "lst_cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "lst_coord.h"
#include "lst_errlist.h"
#include "lst_log.h"
#include "lst_util.h"

int lst_cli_common_opt(const char *cmd, int opt, char **argv, void (*usage)(FILE *))
{
	const char *bad = NULL;

	switch (opt) {
	case 'd':
		if (lst_log_set_debug(optarg, &bad)) {
			fprintf(stderr, "lockstep %s: unknown debug category in '%s' (known: %s)\n",
				cmd, bad, lst_log_debug_names());
			return 2;
		}
		return -1;
	case 'v':
		lst_log_set_level(LST_LOG_DEBUG);
		return -1;
	case 'h':
		usage(stdout);
		return 0;
	case ':':
		fprintf(stderr, "lockstep %s: %s needs a value (see 'lockstep %s --help')\n", cmd,
			argv[optind - 1], cmd);
		return 2;
	default:
		fprintf(stderr, "lockstep %s: unknown option '%s' (see 'lockstep %s --help')\n",
			cmd, argv[optind - 1], cmd);
		return 2;
	}
}

int lst_cli_add_plan_agents(const char *cmd, const char *path, lst_plan **plan,
			    struct lst_coord_agent **agents, size_t *n, size_t room)
{
	lst_errlist errs = { 0 };

	if (*plan) {
		fprintf(stderr, "lockstep %s: one plan at a time\n", cmd);
		return 2;
	}
	*plan = lst_plan_load(path, &errs);
	if (!*plan) {
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		return 2;
	}
	*agents = lst_realloc(*agents, (*n + (*plan)->nagents + room) * sizeof(**agents));
	for (size_t k = 0; k < (*plan)->nagents; k++) {
		(*agents)[*n].name = (*plan)->agents[k].name;
		(*agents)[*n].key = (*plan)->agents[k].key;
		(*agents)[(*n)++].address = (*plan)->agents[k].address;
	}
	return 0;
}

char *lst_cli_agent_from_address(const char *a, struct lst_coord_agent *ag)
{
	/* ADDRESS=KEY: an address has no '=', a Z85 key may. */
	const char *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	char *addr = strncmp(a, "tcp://", 6)
			     ? (memchr(a, ':', len) ? lst_asprintf("tcp://%.*s", (int)len, a)
						    : lst_asprintf("tcp://%.*s:7270", (int)len, a))
			     : lst_asprintf("%.*s", (int)len, a);

	ag->name = addr + 6;
	ag->key = eq && eq[1] ? eq + 1 : NULL;
	ag->address = addr;
	return addr;
}

struct lst_coord *lst_cli_coord_new(const struct lst_plan *plan, const struct lst_coord_opts *opts)
{
	lst_coord *c;
	lst_err err;

	lst_coord_handle_signals();
	c = lst_coord_new(plan, opts, &err);
	if (!c)
		fprintf(stderr, "lockstep: %s\n", err.msg);
	return c;
}
