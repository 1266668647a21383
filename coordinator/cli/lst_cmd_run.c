/* `lockstep run PLAN.yaml [-o DIR]`: run a plan on its agents and write a results folder. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_coord.h"
#include "lst_log.h"
#include "lst_plan.h"
#include "lst_time.h"
#include "lst_util.h"

static void s_usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep run PLAN.yaml [-o DIR] [--quiet] [--key FILE] [--insecure]\n"
		"                    [--debug LIST] [-v]\n"
		"\n"
		"Run every phase of PLAN on its agents, each phase point started at the same instant on\n"
		"all of them, and write the merged results to DIR (default results/NAME-DATE-TIME).\n"
		"The plan is checked first ('lockstep validate'); nothing runs if it has an error.\n"
		"\n"
		"  -o, --output DIR   results folder; must not exist or be empty\n"
		"  -q, --quiet        no progress lines\n"
		"      --lead MS      time between picking a start instant and it (default 250)\n"
		"      --key FILE     our CURVE secret key, used with every agent the plan gives a\n"
		"                     key: (default $XDG_CONFIG_HOME/lockstep/coordinator.key,\n"
		"                     i.e. ~/.config/lockstep/coordinator.key)\n"
		"      --insecure     allow plain text to agents without a key: beyond loopback\n"
		"                     (warned for each such agent)\n"
		"      --debug LIST   debug categories: %s\n"
		"  -v, --verbose      more detail\n"
		"\n"
		"While it runs, a status line shows the phase and point, the time, and the combined\n"
		"IOPS and p99 latency of the last interval. Ctrl-C stops every agent cleanly and keeps\n"
		"what was measured; a second Ctrl-C leaves at once.\n"
		"\n"
		"Results: run.json, plan.yaml, samples/AGENT.msgpack, timeseries.csv, summary.csv,\n"
		"summary.json (see docs/results.md).\n"
		"\n"
		"Security: an agent with key: in the plan is reached over CURVE (encrypted, and\n"
		"both sides authenticated); one without, in plain text, which only a loopback\n"
		"address or --insecure allows. A refused key, a wrong agent key or plain text\n"
		"against CURVE ends the run within seconds, naming the key and the agent. Before\n"
		"any I/O every agent checks every path for everything the run will do to it\n"
		"(allow_write, read-only, mounts, swap, holders, identity). See docs/security.md.\n"
		"\n"
		"Exit status: 0 complete, 1 an agent was lost or refused or reported errors (or\n"
		"the results folder could not be written), 2 bad plan, keys, usage or a results\n"
		"folder that exists (nothing was contacted), 130 interrupted.\n",
		lst_log_debug_names());
}

int lst_cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "lead", required_argument, NULL, 'L' },
		{ "debug", required_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "key", required_argument, NULL, 'K' },
		{ "insecure", no_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	struct lst_coord_opts opts = { 0 };
	lst_errlist errs = { 0 };
	lst_plan *plan;
	lst_coord *c;
	lst_err err;
	int opt, rc;

	optind = 1;
	opterr = 0; /* one line of our own for a usage error, not getopt's and the usage */
	while ((opt = getopt_long(argc, argv, ":o:qvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			opts.outdir = optarg;
			break;
		case 'q':
			opts.quiet = true;
			break;
		case 'K':
			opts.key_file = optarg;
			break;
		case 'I':
			opts.insecure = true;
			break;
		case 'L': {
			int64_t ms;

			if (lst_parse_int(optarg, 1, 60000, &ms, &err)) {
				fprintf(stderr, "lockstep run: --lead: %s\n", err.msg);
				return 2;
			}
			opts.lead_ns = ms * LST_NS_PER_MS;
			break;
		}
		default:
			if ((rc = lst_cli_common_opt("run", opt, argv, s_usage)) >= 0)
				return rc;
			break;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "lockstep run: %s (see 'lockstep run --help')\n",
			optind == argc ? "which plan? give one PLAN.yaml" : "give one plan only");
		return 2;
	}
	plan = lst_plan_load(argv[optind], &errs);
	if (!plan) {
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		return 2;
	}
	lst_coord_handle_signals();
	c = lst_coord_new(plan, &opts, &err);
	if (!c) {
		fprintf(stderr, "lockstep: %s\n", err.msg);
		lst_plan_destroy(&plan);
		return 2;
	}
	rc = lst_coord_run(c);
	if (!opts.quiet && rc != LST_RUN_USAGE)
		fprintf(stderr, "lockstep: %s; results in %s\n",
			rc == LST_RUN_OK	    ? "run complete"
			: rc == LST_RUN_INTERRUPTED ? "interrupted"
						    : "run failed",
			lst_coord_results_dir(c));
	lst_coord_destroy(&c);
	lst_plan_destroy(&plan);
	return rc;
}
