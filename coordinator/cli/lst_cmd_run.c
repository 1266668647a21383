/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep run PLAN.yaml [-o DIR]`: run a plan on its agents, write a results folder and print
 * its summary table. A results folder that holds an earlier run is refused with what to do
 * (resume it, --overwrite it, another -o); progress goes to stderr as text or, with --progress
 * json, to stdout as JSON Lines.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_cli_results.h"
#include "lst_coord.h"
#include "lst_log.h"
#include "lst_plan.h"
#include "lst_time.h"
#include "lst_util.h"

void lst_cmd_run_usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep run PLAN.yaml [-o DIR] [--overwrite] [--quiet] [--progress text|json]\n"
		"                    [--key FILE] [--insecure] [--metrics ADDR:PORT] [--debug LIST]\n"
		"                    [-v]\n"
		"\n"
		"Run every phase of PLAN on its agents, each phase point started at the same instant on\n"
		"all of them, and write the merged results to DIR (default results/NAME-DATE-TIME).\n"
		"The plan is checked first ('lockstep validate'); nothing runs if it has an error.\n"
		"\n"
		"  -o, --output DIR   results folder; must not exist or be empty. One that holds\n"
		"                     an earlier run is refused, saying what to do: 'lockstep\n"
		"                     resume DIR' for an interrupted run, or --overwrite\n"
		"      --overwrite    empty DIR first when it is a lockstep results folder (holds\n"
		"                     a run.json); any other folder is refused and left alone\n"
		"  -q, --quiet        no progress lines and no summary table\n"
		"      --progress FMT text (default): a line per interval on stderr (rewritten in\n"
		"                     place on a terminal; one line per interval of every point in\n"
		"                     a log or a pipe); json: JSON Lines on stdout instead, one\n"
		"                     object per interval and per point (keys below)\n"
		"      --lead MS      time between picking a start instant and it (default 250)\n"
		"      --metrics ADDR:PORT  serve live metrics for Prometheus on\n"
		"                     http://ADDR:PORT/metrics while the run goes; :PORT alone\n"
		"                     listens on 127.0.0.1 only, any other address only when given\n"
		"                     (0.0.0.0 for every interface). See docs/results.md\n"
		"      --key FILE     our CURVE secret key, used with every agent the plan gives a\n"
		"                     key: (default $XDG_CONFIG_HOME/lockstep/coordinator.key,\n"
		"                     i.e. ~/.config/lockstep/coordinator.key)\n"
		"      --insecure     allow plain text to agents without a key: beyond loopback\n"
		"                     (warned for each such agent)\n"
		"      --debug LIST   debug categories: %s\n"
		"  -v, --verbose      more detail\n"
		"\n"
		"While it runs, a status line shows the phase and point, the time, and the combined\n"
		"IOPS and p99 latency of the last interval; at the end, the summary (per phase, a row\n"
		"per point with its agents' and paths' rows under it, and the port scaling of a\n"
		"ports sweep, as 'lockstep report' prints them). Ctrl-C stops every agent cleanly and\n"
		"keeps what was measured; a second Ctrl-C leaves at once.\n"
		"\n"
		"--progress json: {\"type\":\"interval\"} objects with phase, phase_index, point,\n"
		"label, interval, t_s, ramp, iops, read_iops, write_iops, mbps, lat_mean_us,\n"
		"lat_p99_us (point, interval and t_s as in timeseries.csv's rows of agent all);\n"
		"{\"type\":\"point\"} objects with phase, phase_index, point, label, t_s, seconds,\n"
		"iops, read_iops, write_iops, mbps, lat_mean_us, lat_p99_us, lat_p99_99_us,\n"
		"start_skew_us, partial; and a last {\"type\":\"end\"} with status, exit and dir.\n"
		"The summary table then goes to stderr. See docs/results.md.\n"
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
		"A run that fails before its first point starts removes the results folder it\n"
		"made (saying so); one that started a point keeps it, for resume. A results\n"
		"folder has one writer: while another lockstep writes DIR (its DIR/.lock), the\n"
		"run is refused, naming that one's pid and host. See docs/results.md.\n"
		"\n"
		"Exit status: 0 complete, 1 an agent was lost or refused or reported errors (or\n"
		"the results folder could not be written), 2 bad plan, keys, usage or a results\n"
		"folder that exists and is not empty or another lockstep writes (nothing was\n"
		"contacted), 130 interrupted.\n",
		lst_log_debug_names());
}

/* How a run ended, for the user: the summary table and where the results are (unless the run
 * takes its folder back, kept false: that says the last word); with --progress json, the table
 * goes to stderr and the end is a last JSON line. */
static void s_finish(lst_coord *c, const struct lst_coord_opts *opts, int rc, bool kept)
{
	const char *how = rc == LST_RUN_OK	      ? "complete"
			  : rc == LST_RUN_INTERRUPTED ? "interrupted"
						      : "failed";

	if (rc == LST_RUN_USAGE)
		return;
	if (!opts->quiet)
		lst_cli_print_summary(opts->progress_json ? stderr : stdout,
				      lst_coord_results_dir(c));
	if (opts->progress_json) {
		json_t *o = json_pack("{s:s, s:s, s:i, s:s}", "type", "end", "status", how, "exit",
				      rc, "dir", lst_coord_results_dir(c));

		json_dumpf(o, opts->progress_json,
			   JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
		fputc('\n', opts->progress_json);
		fflush(opts->progress_json);
		json_decref(o);
	}
	if (!opts->quiet && kept)
		fprintf(stderr, "lockstep: run %s; results in %s\n", how, lst_coord_results_dir(c));
}

/*
 * Run *cp into its results folder, holding the folder's lock from before it is looked at (and,
 * with overwrite, emptied) to the end, and destroy it. A run that started no point takes back
 * its folder, once the run has closed its files.
 */
static int s_run(lst_coord **cp, const struct lst_coord_opts *opts, bool overwrite)
{
	char *dir = lst_strdup(lst_coord_results_dir(*cp));
	lst_folder_lock *lock = lst_cli_lock_dir("run", dir);
	bool kept;
	int rc = 2;

	if (!lock || (rc = lst_cli_results_dir("run", dir, overwrite)))
		goto out;
	rc = lst_coord_run(*cp);
	/* LST_RUN_USAGE: the folder could not be set up, nothing of ours may be in it */
	kept = rc == LST_RUN_OK || rc == LST_RUN_USAGE || lst_coord_started(*cp);
	s_finish(*cp, opts, rc, kept);
	lst_coord_destroy(cp);
	if (!kept)
		lst_cli_unmake_dir("run", dir, lock);
out:
	lst_coord_destroy(cp);
	lst_cli_unlock_dir(&lock, dir);
	free(dir);
	return rc;
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
		{ "overwrite", no_argument, NULL, 'W' },
		{ "progress", required_argument, NULL, 'P' },
		{ "metrics", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct lst_coord_opts opts = { 0 };
	lst_errlist errs = { 0 };
	lst_plan *plan;
	lst_coord *c;
	bool overwrite = false;
	lst_err err;
	int opt, rc;

	lst_cli_line_buffered();
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
		case 'W':
			overwrite = true;
			break;
		case 'M':
			opts.metrics = optarg;
			break;
		case 'P':
			if (!strcmp(optarg, "json")) {
				opts.progress_json = stdout;
			} else if (strcmp(optarg, "text")) {
				fprintf(stderr,
					"lockstep run: --progress %s: text or json (see 'lockstep run "
					"--help')\n",
					optarg);
				return 2;
			}
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
			if ((rc = lst_cli_common_opt("run", opt, argv, lst_cmd_run_usage)) >= 0)
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
	c = lst_cli_coord_new(plan, &opts);
	if (!c) {
		lst_plan_destroy(&plan);
		return 2;
	}
	rc = s_run(&c, &opts, overwrite);
	lst_plan_destroy(&plan);
	return rc;
}
