/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the subcommands share: the options every coordinating command takes, and the agents a
 * plan or a list of addresses names (`lockstep agents`, `lockstep inventory`).
 */
#include "lst_cli.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lst_coord.h"
#include "lst_errlist.h"
#include "lst_log.h"
#include "lst_util.h"

#define S_OFF(field) offsetof(struct lst_cli_flags, field)

const struct lst_flag lst_cli_key_flags[] = {
	{ .opt = { .name = "key",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(key_file),
		   .help = "our CURVE secret key, used with every agent given a key (default "
			   "$XDG_CONFIG_HOME/lockstep/coordinator.key, i.e. "
			   "~/.config/lockstep/coordinator.key)" },
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = "insecure",
		   .type = LST_OPT_BOOL,
		   .offset = S_OFF(insecure),
		   .help = "allow plain text to agents without a key beyond loopback (warned for "
			   "each)" } },
	{ .opt = { .name = NULL } },
};

const struct lst_flag lst_cli_quiet_flags[] = {
	{ .opt = { .name = "quiet",
		   .type = LST_OPT_BOOL,
		   .offset = S_OFF(quiet),
		   .help = "no progress lines and no summary: errors and the exit code tell" },
	  .letter = 'q' },
	{ .opt = { .name = NULL } },
};

const struct lst_flag lst_cli_metrics_flags[] = {
	{ .opt = { .name = "metrics",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(metrics),
		   .help = "serve live metrics for Prometheus on http://ADDR:PORT/metrics while it "
			   "runs; :PORT alone listens on 127.0.0.1 only, any other address only "
			   "when given (0.0.0.0 for every interface). See docs/results.md" },
	  .arg = "ADDR:PORT" },
	{ .opt = { .name = NULL } },
};

static int s_debug(const struct lst_flag *f, void *base, const char *value, lst_err *err)
{
	const char *bad = NULL;

	(void)f, (void)base;
	if (lst_log_set_debug(value, &bad))
		return lst_err_set(err, -EINVAL, "unknown debug category in '%s' (known: %s)", bad,
				   lst_log_debug_names());
	return 0;
}

static int s_verbose(const struct lst_flag *f, void *base, const char *value, lst_err *err)
{
	(void)f, (void)base, (void)value, (void)err;
	lst_log_set_level(LST_LOG_DEBUG);
	return 0;
}

const struct lst_flag lst_cli_log_flags[] = {
	{ .opt = { .name = "debug", .help = "debug categories, comma-separated" },
	  .arg = "LIST",
	  .words = lst_log_debug_names,
	  .set = s_debug },
	{ .opt = { .name = "verbose", .help = "more detail" }, .letter = 'v', .set = s_verbose },
	{ .opt = { .name = NULL } },
};

int lst_cli_parse(const struct lst_flag_cmd *cmd, int argc, char **argv, void *base, int *first)
{
	const char *name = cmd->name + strlen("lockstep ");
	lst_err err;
	int rc = lst_flag_parse(cmd, argc, argv, base, &err);

	if (rc > 0) {
		*first = rc;
		return -1;
	}
	if (rc == 0) {
		lst_flag_help(cmd, stdout);
		return 0;
	}
	fprintf(stderr, "lockstep %s: %s (see 'lockstep %s --help')\n", name, err.msg, name);
	return 2;
}

void lst_cli_coord_opts(const struct lst_cli_flags *fl, struct lst_coord_opts *opts)
{
	opts->outdir = fl->out;
	opts->key_file = fl->key_file;
	opts->metrics = fl->metrics;
	opts->insecure = fl->insecure;
	opts->quiet = fl->quiet;
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
