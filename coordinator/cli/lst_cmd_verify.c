/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep verify DIR`: read back every target of a finished or crashed run and check each
 * 4 KiB unit against the run's write journal (DIR/integrity/journal.jsonl), through its own
 * agents and paths, or through one agent's ports only (--through).
 *
 * It is a run of its own: a plan made from DIR/plan.yaml (its agents, targets and paths) with
 * one phase that reads each target once, sequentially, with verify, and `journal: DIR`, so the
 * agents check against the earlier run's writes. The plan is built as the tree a plan file reads
 * to and read by lst_plan_build, so it is checked as a written plan is, with no YAML text made
 * to be parsed again. Its results go to a folder of their own
 * (DIR/verify-DATE-TIME by default): integrity.csv lists the bad units, summary.csv the counts.
 */
#include <errno.h>
#include <stddef.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lst_cli.h"
#include "lst_cli_results.h"
#include "lst_coord.h"
#include "lst_identity.h"
#include "lst_integrity.h"
#include "lst_log.h"
#include "lst_plan.h"
#include "lst_util.h"
#include "lst_yaml.h"

struct s_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	const char *through;
	int64_t bs, iodepth;
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "through",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_flags, through),
		   .help = "read through AGENT's paths only (the other agents are not contacted: "
			   "one of them may be the host that died)" },
	  .arg = "AGENT" },
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_flags, c.out),
		   .help = "results folder (default DIR/verify-YYYYmmdd-HHMMSS)" },
	  .letter = 'o',
	  .arg = "OUT",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = "bs",
		   .type = LST_OPT_SIZE,
		   .offset = offsetof(struct s_flags, bs),
		   .def = "128k",
		   .min = 4096,
		   .max = 64 << 20,
		   .help = "read size, a multiple of 4k" },
	  .arg = "SIZE" },
	{ .opt = { .name = "iodepth",
		   .type = LST_OPT_INT,
		   .offset = offsetof(struct s_flags, iodepth),
		   .def = "16",
		   .min = 1,
		   .max = 4096,
		   .help = "reads in flight per path" },
	  .arg = "N" },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, lst_cli_quiet_flags, lst_cli_key_flags,
						   lst_cli_log_flags, NULL };

const struct lst_flag_cmd lst_cmd_verify_flags = {
	.name = "lockstep verify",
	.operands = "DIR",
	.operand = LST_FLAG_RESULTS,
	.groups = s_groups,
	.about =
		"Read back every target of the run in DIR (finished, interrupted or crashed) and\n"
		"check every 4 KiB unit against the run's write journal (DIR/integrity/journal.jsonl,\n"
		"written by phases with verify: true): the right generation, the right LBA, an\n"
		"intact checksum. Each target is read once, split over its paths (the other port's\n"
		"too: written through a, read through b), or through one agent's paths only.\n",
	.more = "A unit is ok (the generation last written, intact), pending (a write that was in\n"
		"flight when an agent died or a port failed: it may hold the old or the new data;\n"
		"never an error), unwritten (no verified write of the run touched it) or bad:\n"
		"OUT/integrity.csv has a row for each bad unit (offset, who read it, what was\n"
		"expected and what was found: no stamp, wrong lba, stale, checksum, future).\n"
		"See docs/results.md.\n"
		"\n"
		"Exit status: 0 every unit checked is ok, pending or unwritten; 1 bad units, or the\n"
		"run could not read everything; 2 usage, or DIR has no plan or no journal, or the\n"
		"journal does not match the plan's targets (nothing is read then).\n"
		"\n"
		"Example: after host a died mid-run, check what b reads of every target:\n"
		"  lockstep verify --through b results/dualport-20260101-120000\n",
};

/* A scalar node of text. */
static struct lst_yaml_node *s_text(const char *text)
{
	return lst_yaml_new(LST_YAML_SCALAR, text);
}

/* agent: [path, ...] in a target's paths map, for the paths of p's target pt on agent i. */
static void s_agent_paths(struct lst_yaml_node *paths, const lst_plan *p,
			  const struct lst_plan_target *pt, size_t i)
{
	struct lst_yaml_node *list = NULL;

	for (size_t j = 0; j < pt->npaths; j++) {
		if (pt->paths[j].agent != i)
			continue;
		if (!list)
			list = lst_yaml_put(paths, p->agents[i].name,
					    lst_yaml_new(LST_YAML_LIST, NULL));
		lst_yaml_append(list, s_text(pt->paths[j].path));
	}
}

/* The verify plan, as the tree a plan file would read to, from the run's plan p. */
static struct lst_yaml_node *s_plan_tree(const lst_plan *p, const char *dir, const char *through,
					 const char *bs, const char *iodepth)
{
	struct lst_yaml_node *root = lst_yaml_new(LST_YAML_MAP, NULL), *agents, *targets, *ph, *w;
	char name[LST_NAME_MAX + 16];

	snprintf(name, sizeof(name), "%.40s-verify", p->name);
	lst_yaml_put(root, "lockstep", s_text("1"));
	lst_yaml_put(root, "name", s_text(name));
	lst_yaml_put(root, "journal", s_text(dir));
	agents = lst_yaml_put(root, "agents", lst_yaml_new(LST_YAML_LIST, NULL));
	for (size_t i = 0; i < p->nagents; i++) {
		struct lst_yaml_node *a;

		if (through && strcmp(p->agents[i].name, through))
			continue; /* not contacted at all: it may be the one that died */
		a = lst_yaml_append(agents, lst_yaml_new(LST_YAML_MAP, NULL));
		lst_yaml_put(a, "name", s_text(p->agents[i].name));
		lst_yaml_put(a, "address", s_text(p->agents[i].address));
		if (p->agents[i].key)
			lst_yaml_put(a, "key", s_text(p->agents[i].key));
	}
	targets = lst_yaml_put(root, "targets", lst_yaml_new(LST_YAML_LIST, NULL));
	for (size_t t = 0; t < p->ntargets; t++) {
		const struct lst_plan_target *pt = &p->targets[t];
		struct lst_yaml_node *tn, *paths;
		bool reachable = !through;

		for (size_t j = 0; j < pt->npaths && !reachable; j++)
			reachable = !strcmp(p->agents[pt->paths[j].agent].name, through);
		if (!reachable) {
			fprintf(stderr, "lockstep verify: target %s has no path on %s: not read\n",
				pt->name, through);
			continue;
		}
		tn = lst_yaml_append(targets, lst_yaml_new(LST_YAML_MAP, NULL));
		lst_yaml_put(tn, "name", s_text(pt->name));
		if (pt->identity)
			lst_yaml_put(tn, "identity", s_text(pt->identity));
		lst_yaml_put(tn, "share", s_text("split"));
		paths = lst_yaml_put(tn, "paths", lst_yaml_new(LST_YAML_MAP, NULL));
		for (size_t i = 0; i < p->nagents; i++)
			if (!through || !strcmp(p->agents[i].name, through))
				s_agent_paths(paths, p, pt, i);
	}
	lst_yaml_put(lst_yaml_put(root, "defaults", lst_yaml_new(LST_YAML_MAP, NULL)), "interval",
		     s_text("1s"));
	ph = lst_yaml_append(lst_yaml_put(root, "phases", lst_yaml_new(LST_YAML_LIST, NULL)),
			     lst_yaml_new(LST_YAML_MAP, NULL));
	lst_yaml_put(ph, "name", s_text("verify"));
	w = lst_yaml_put(ph, "workload", lst_yaml_new(LST_YAML_MAP, NULL));
	lst_yaml_put(w, "rw", s_text("read"));
	lst_yaml_put(w, "bs", s_text(bs));
	lst_yaml_put(w, "iodepth", s_text(iodepth));
	lst_yaml_put(w, "verify", s_text("true"));
	lst_yaml_put(lst_yaml_put(ph, "stop", lst_yaml_new(LST_YAML_MAP, NULL)), "capacity",
		     s_text("1x"));
	return root;
}

/* Sum of summary.json's all-agent verify counts, and integrity.csv's rows: the verdict line. */
static int s_verdict(const char *out, bool quiet)
{
	char *path = lst_asprintf("%s/summary.json", out);
	json_t *doc = json_load_file(path, 0, NULL), *pts, *p;
	json_int_t n[4] = { 0, 0, 0, 0 };
	static const char *const keys[4] = { "ok", "pending", "unwritten", "bad" };
	size_t k;

	free(path);
	pts = json_object_get(doc, "points");
	json_array_foreach (pts, k, p) {
		const char *agent = json_string_value(json_object_get(p, "agent"));

		if (!agent || strcmp(agent, "all"))
			continue;
		for (int x = 0; x < 4; x++)
			n[x] += json_integer_value(
				json_object_get(json_object_get(p, "verify"), keys[x]));
	}
	json_decref(doc);
	if (!quiet)
		printf("lockstep verify: %lld units ok, %lld pending, %lld unwritten, %lld bad%s\n",
		       (long long)n[0], (long long)n[1], (long long)n[2], (long long)n[3],
		       n[3] ? " (see integrity.csv)" : "");
	return n[3] ? 1 : 0;
}

/* Before contacting anyone: the journal reads back whole and has every target of the plan.
 * (Sizes are checked by the run, once the agents say what the paths hold.) 0 or -1, said. */
static int s_journal_ok(const lst_plan *p, const char *dir)
{
	lst_journal_read jr = { 0 };
	lst_err err;
	int rc = 0;

	if (lst_journal_load(dir, &jr, &err)) {
		fprintf(stderr, "lockstep verify: %s\n", err.msg);
		return -1;
	}
	for (size_t t = 0; t < p->ntargets; t++)
		if (!lst_journal_find_target(&jr, p->targets[t].name)) {
			fprintf(stderr,
				"lockstep verify: %s/integrity/journal.jsonl has no target %s: it "
				"is the journal of another run's targets; nothing was read\n",
				dir, p->targets[t].name);
			rc = -1;
		}
	lst_journal_read_free(&jr);
	return rc;
}

int lst_cmd_verify(int argc, char **argv)
{
	struct lst_coord_opts opts = { 0 };
	struct s_flags fl = { 0 };
	const char *through;
	char dir[PATH_MAX], *file, outbuf[PATH_MAX + 64], bs[32], iodepth[32];
	struct lst_yaml_node *tree;
	lst_errlist errs = { 0 };
	lst_plan *run_plan, *plan;
	lst_folder_lock *run_lock = NULL, *lock = NULL;
	lst_coord *c = NULL;
	bool unstarted;
	int first, rc;

	lst_cli_line_buffered();
	if ((rc = lst_cli_parse(&lst_cmd_verify_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	lst_cli_coord_opts(&fl.c, &opts);
	through = fl.through;
	if (first != argc - 1) {
		fprintf(stderr, "lockstep verify: %s (see 'lockstep verify --help')\n",
			first == argc ? "which run? give its results folder" : "give one folder");
		return 2;
	}
	if (!realpath(argv[first], dir)) {
		fprintf(stderr, "lockstep verify: %s: %s\n", argv[first], strerror(errno));
		return 2;
	}
	file = lst_asprintf("%s/plan.yaml", dir);
	run_plan = lst_plan_load(file, &errs);
	free(file);
	if (!run_plan) {
		fprintf(stderr,
			"lockstep verify: %s is not a lockstep results folder with its plan:\n",
			dir);
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		return 2;
	}
	if (s_journal_ok(run_plan, dir)) {
		lst_plan_destroy(&run_plan);
		return 2;
	}
	if (through && lst_plan_agent_index(run_plan, through) < 0) {
		fprintf(stderr, "lockstep verify: --through %s: the run has no such agent\n",
			through);
		lst_plan_destroy(&run_plan);
		return 2;
	}
	lst_opt_format(&lst_flag_find(&lst_cmd_verify_flags, "bs")->opt, &fl, bs, sizeof(bs));
	snprintf(iodepth, sizeof(iodepth), "%lld", (long long)fl.iodepth);
	tree = s_plan_tree(run_plan, dir, through, bs, iodepth);
	lst_plan_destroy(&run_plan);
	plan = lst_plan_build(tree, "verify.yaml", &errs);
	lst_yaml_free(tree);
	if (!plan) {
		fprintf(stderr, "lockstep verify: cannot make the verifying plan:\n");
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		return 2;
	}
	if (!opts.outdir) {
		time_t now = time(NULL);
		struct tm tm;
		char stamp[32];

		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(outbuf, sizeof(outbuf), "%s/verify-%s", dir, stamp);
		opts.outdir = outbuf;
	}
	/* The run's folder is written too when the results go into it (by default): its lock
	 * keeps a resume or an --overwrite of that run away meanwhile. */
	if (!strncmp(opts.outdir, dir, strlen(dir)) && opts.outdir[strlen(dir)] == '/' &&
	    !(run_lock = lst_cli_lock_dir("verify", dir))) {
		lst_plan_destroy(&plan);
		return 2;
	}
	if (!(c = lst_cli_coord_new(plan, &opts)) ||
	    !(lock = lst_cli_lock_dir("verify", opts.outdir)) ||
	    (rc = lst_cli_results_dir("verify", opts.outdir, false))) {
		lst_coord_destroy(&c);
		lst_cli_unlock_dir(&lock, opts.outdir);
		lst_folder_lock_release(&run_lock);
		lst_plan_destroy(&plan);
		return 2;
	}
	rc = lst_coord_run(c);
	unstarted = rc != LST_RUN_OK && rc != LST_RUN_USAGE && !lst_coord_started(c);
	if (!unstarted && rc != LST_RUN_USAGE && rc != LST_RUN_INTERRUPTED) {
		int v = s_verdict(lst_coord_results_dir(c), opts.quiet);

		if (rc == LST_RUN_OK)
			rc = v;
		if (!opts.quiet)
			fprintf(stderr, "lockstep: verify %s; results in %s\n",
				rc == LST_RUN_OK ? "clean" : "found problems",
				lst_coord_results_dir(c));
	}
	lst_coord_destroy(&c); /* its files closed before they can be taken back */
	if (unstarted)
		lst_cli_unmake_dir("verify", opts.outdir, lock);
	lst_plan_destroy(&plan);
	lst_cli_unlock_dir(&lock, opts.outdir);
	lst_folder_lock_release(&run_lock);
	return rc;
}
