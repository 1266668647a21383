/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep run PLAN.yaml [-o DIR]`: run a plan on its agents, write a results folder and print
 * its summary table. A results folder that holds an earlier run is refused with what to do
 * (resume it, --overwrite it, another -o); progress goes to stderr as text or, with --progress
 * json, to stdout as JSON Lines.
 */
#include <stddef.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_cli_catalog.h"
#include "lst_cli_results.h"
#include "lst_coord.h"
#include "lst_log.h"
#include "lst_plan.h"
#include "lst_time.h"
#include "lst_util.h"

struct s_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	int64_t overwrite, progress, lead_ms;
	const char *catalog; /* --catalog[=URL]: "" the default catalog */
#ifdef LST_TEST_EXTRA_FLAG
	int64_t probe;
#endif
};

static const char *const s_progress[] = { "text", "json", NULL };

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_flags, c.out),
		   .help = "results folder (default results/NAME-DATE-TIME); must not exist or be "
			   "empty. One that holds an earlier run is refused, saying what to do: "
			   "'lockstep resume DIR' for an interrupted run, or --overwrite" },
	  .letter = 'o',
	  .arg = "DIR",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = "overwrite",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct s_flags, overwrite),
		   .help = "empty DIR first when it is a lockstep results folder (holds a "
			   "run.json); any other folder is refused and left alone" } },
	{ .opt = { .name = "progress",
		   .type = LST_OPT_ENUM,
		   .offset = offsetof(struct s_flags, progress),
		   .def = "text",
		   .choices = s_progress,
		   .help = "text: a line per interval on stderr (rewritten in place on a terminal; "
			   "one line per interval of every point in a log or a pipe); json: JSON "
			   "Lines on stdout instead, one object per interval and per point (keys "
			   "below)" },
	  .arg = "FMT" },
	{ .opt = { .name = "lead",
		   .type = LST_OPT_INT,
		   .offset = offsetof(struct s_flags, lead_ms),
		   .def = "250",
		   .min = 1,
		   .max = 60000,
		   .help = "milliseconds between picking a start instant and it" },
	  .arg = "MS" },
#ifdef LST_TEST_EXTRA_FLAG
	/* the build of tests/integration/docs/CMakeLists.txt: one entry more, which --help, lockstep(1) and the
	 * completion must show with nothing else written */
	{ .opt = { .name = "extra-probe",
		   .type = LST_OPT_ENUM,
		   .offset = offsetof(struct s_flags, probe),
		   .def = "slow",
		   .choices = (const char *const[]){ "slow", "fast", NULL },
		   .help = "a flag only the flags test's build has" },
	  .arg = "MODE" },
#endif
	{ .opt = { .name = "catalog",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_flags, catalog),
		   .help = "add the run to the run catalog when it ends (docs/catalog.md): the "
			   "default one, or the one at URL (sqlite:PATH, postgresql://...)" },
	  .arg = "URL",
	  .flags = LST_FLAG_OPTIONAL },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = {
	s_own, lst_cli_quiet_flags, lst_cli_metrics_flags, lst_cli_key_flags, lst_cli_log_flags,
	NULL
};

const struct lst_flag_cmd lst_cmd_run_flags = {
	.name = "lockstep run",
	.operands = "PLAN.yaml",
	.operand = LST_FLAG_PLAN,
	.groups = s_groups,
	.about =
		"Run every phase of PLAN on its agents, each phase point started at the same instant on\n"
		"all of them, and write the merged results to DIR (default results/NAME-DATE-TIME).\n"
		"The plan is checked first ('lockstep validate'); nothing runs if it has an error.\n",
	.more = "While it runs, a status line shows the phase and point, the time, and the combined\n"
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
		"contacted), 130 interrupted.\n"
		"\n"
		"Examples:\n"
		"  lockstep validate plan.yaml && lockstep run plan.yaml -o results/today\n"
		"  lockstep run --progress json plan.yaml | jq -c 'select(.type == \"point\")'\n",
};

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
static int s_run(lst_coord **cp, const struct lst_coord_opts *opts, bool overwrite,
		 const char *catalog)
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
	/* a run that ended (complete, failed, partial); an interrupted one is for resume first.
	 * The run's own verdict stays the exit status: a catalog that fails only says so. */
	if (catalog && kept && rc != LST_RUN_USAGE && rc != LST_RUN_INTERRUPTED)
		lst_cli_cat_add("run", catalog, dir, opts->quiet);
out:
	lst_coord_destroy(cp);
	lst_cli_unlock_dir(&lock, dir);
	free(dir);
	return rc;
}

int lst_cmd_run(int argc, char **argv)
{
	struct lst_coord_opts opts = { 0 };
	struct s_flags fl = { 0 };
	lst_errlist errs = { 0 };
	lst_plan *plan;
	lst_coord *c;
	int first, rc;

	lst_cli_line_buffered();
	if ((rc = lst_cli_parse(&lst_cmd_run_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	lst_cli_coord_opts(&fl.c, &opts);
	opts.progress_json = fl.progress ? stdout : NULL;
	opts.lead_ns = fl.lead_ms * LST_NS_PER_MS;
	if (first != argc - 1) {
		fprintf(stderr, "lockstep run: %s (see 'lockstep run --help')\n",
			first == argc ? "which plan? give one PLAN.yaml" : "give one plan only");
		return 2;
	}
	plan = lst_plan_load(argv[first], &errs);
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
	rc = s_run(&c, &opts, fl.overwrite, fl.catalog);
	lst_plan_destroy(&plan);
	return rc;
}
