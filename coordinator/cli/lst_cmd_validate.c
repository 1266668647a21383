/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep validate PLAN.yaml`: read a plan, print every problem, or say what would run.
 *
 * Nothing is contacted: this is the check to run before a long test, and in CI on the plans a
 * lab keeps. The description is what the run will do as far as the plan alone tells: agents,
 * targets with their paths, and each phase with its points and, where the plan fixes it, how
 * long it takes (a phase that stops by bytes or capacity depends on the device; a suite's
 * length is the suite's), and the hooks it runs and the telemetry it takes when the plan gives
 * them. The hidden --write-doc FILE writes docs/plan.md from the schema.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lst_cli.h"
#include "lst_plan.h"
#include "lst_suite.h"
#include "lst_time.h"
#include "lst_util.h"

struct s_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	const char *write_doc;
};

static const struct lst_flag s_own[] = {
	/* the build's: docs/plan.md from the schema */
	{ .opt = { .name = "write-doc",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_flags, write_doc),
		   .help = "write the plan reference (Markdown) to FILE" },
	  .arg = "FILE",
	  .flags = LST_FLAG_HIDDEN },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, lst_cli_quiet_flags, NULL };

const struct lst_flag_cmd lst_cmd_validate_flags = {
	.name = "lockstep validate",
	.operands = "PLAN.yaml",
	.operand = LST_FLAG_PLAN,
	.groups = s_groups,
	.about = "Check a plan without contacting any agent. Every problem is printed to\n"
		 "stderr as PLAN.yaml:LINE:COL: message (past 20, the first 20 in file\n"
		 "order and \"... and N more\"), and the exit code is 2. A good plan prints\n"
		 "what would run (agents, targets and their paths, phases with their points\n"
		 "and estimated time) and exits 0; with --quiet, nothing.\n",
	.more = "The plan format is described in docs/plan.md and lockstep-plan(5).\n"
		"\n"
		"Example, in CI over a lab's plans:\n"
		"  for p in plans/*.yaml; do lockstep validate --quiet \"$p\" || exit 1; done\n",
};

/*
 * Time a plain phase takes when the plan fixes it, from the points the run would build (every
 * round of each, when steady); -1 for a suite or a point without a runtime. *at_most when
 * steady, bytes or capacity may end it sooner.
 */
static int64_t s_phase_ns(const lst_plan *p, size_t i, bool *at_most)
{
	const struct lst_plan_phase *ph = &p->phases[i];
	lst_suite_run *s;
	lst_err err;
	int64_t t;

	*at_most = ph->steady || ph->w.bytes || ph->stop_bytes || ph->stop_capacity;
	if (ph->suite != LST_SUITE_NONE || !(s = lst_suite_new(p, i, 0, &err)))
		return -1;
	t = lst_suite_estimate(s);
	lst_suite_destroy(&s);
	if (!t)
		return -1;
	return ph->steady ? t * ph->max_rounds : t;
}

/* A phase's roles, one line each: "a: idle", "a:/dev/sdb: rw=randwrite iodepth=1". */
static void s_describe_roles(const lst_plan *p, const struct lst_plan_phase *ph)
{
	for (size_t r = 0; r < ph->nroles; r++) {
		const struct lst_plan_role *role = &ph->roles[r];

		printf("     role of %s%s%s:", p->agents[role->sel.agent].name,
		       role->sel.path ? ":" : "", role->sel.path ? role->sel.path : "");
		if (role->idle)
			printf(" idle");
		for (size_t k = 0; !role->idle && lst_workload_opts[k].name; k++) {
			char v[64];

			if (role->w_set[k])
				printf(" %s=%s", lst_workload_opts[k].name,
				       lst_opt_format(&lst_workload_opts[k], &role->w, v,
						      sizeof(v)));
		}
		printf("\n");
	}
}

/* One hook line: "     before: b runs resize" or "     at 3s: b runs port_down, on error continue". */
static void s_describe_hook(const lst_plan *p, const char *when, const struct lst_plan_hook *h)
{
	printf("     %s: %s runs %s%s\n", when, p->agents[h->agent].name, h->hook,
	       h->on_error == LST_HOOK_ON_ERROR_CONTINUE ? ", on error continue" : "");
}

/*
 * A phase's hooks (before, the events of each point, after) and its telemetry when the plan
 * chose it; nothing for a phase with neither, so older plans describe as they did.
 */
static void s_describe_hooks(const lst_plan *p, const struct lst_plan_phase *ph)
{
	static const struct lst_opt at_opt = { .name = "at", .type = LST_OPT_DURATION };

	for (size_t k = 0; k < ph->nbefore; k++)
		s_describe_hook(p, "before", &ph->before[k]);
	for (size_t k = 0; k < ph->nevents; k++) {
		char at[32], when[48];

		snprintf(when, sizeof(when), "at %s of each point",
			 lst_opt_format(&at_opt, &ph->events[k].at, at, sizeof(at)));
		s_describe_hook(p, when, &ph->events[k]);
	}
	for (size_t k = 0; k < ph->nafter; k++)
		s_describe_hook(p, "after", &ph->after[k]);
	if (ph->telemetry_every == LST_TELEMETRY_OFF) {
		printf("     telemetry: off\n");
		return;
	}
	if (ph->telemetry_every == LST_TELEMETRY_PHASE && !ph->ncollect)
		return; /* the default */
	printf("     telemetry: ");
	if (!ph->ncollect)
		printf("every collector");
	for (size_t k = 0; k < ph->ncollect; k++)
		printf("%s%s", k ? ", " : "", ph->collect[k]);
	printf(", before and after each %s\n",
	       ph->telemetry_every == LST_TELEMETRY_POINT ? "point" : "phase");
}

/* A skewed random_distribution (a hotband shows as its zoned form). */
static void s_describe_dist(const struct lst_plan_phase *ph)
{
	char text[256];

	if (ph->suite != LST_SUITE_NONE || ph->w.dist.kind == LST_DIST_RANDOM ||
	    !lst_rw_is_random(ph->w.rw) || ph->w.skew.n)
		return;
	printf("     access: %s over each path's region, hot blocks at its start\n",
	       lst_dist_format(&ph->w.dist, text, sizeof(text)));
}

/* A workload mix (skew), one entry per line: share, rw, bs, region, access. */
static void s_describe_skew(const struct lst_workload *w)
{
	const struct lst_opt *bs_opt = lst_opt_find(lst_workload_opts, "bs");
	const struct lst_opt *sz_opt = lst_opt_find(lst_workload_opts, "size");
	const struct lst_opt *off_opt = lst_opt_find(lst_workload_opts, "offset");

	printf("     mix of %" PRId64 " workloads, iodepth %" PRId64 ", jobs %" PRId64 "\n",
	       w->skew.n, w->iodepth, w->jobs);
	for (int64_t i = 0; i < w->skew.n; i++) {
		const struct lst_skew_entry *e = &w->skew.e[i];
		struct lst_workload ew = *w;
		char bs[32], off[32], size[32], dist[256];

		ew.bs = e->bs;
		ew.offset = e->offset;
		ew.size = e->size;
		printf("       %3" PRId64 "%%: %s", e->share, lst_rw_names[e->rw]);
		if (e->rw == LST_RW_RANDRW || e->rw == LST_RW_RW)
			printf(" %" PRId64 "%% reads", e->rwmixread);
		printf(", bs %s", lst_opt_format(bs_opt, &ew, bs, sizeof(bs)));
		if (e->offset || e->size) {
			printf(", region from %s, %s",
			       lst_opt_format(off_opt, &ew, off, sizeof(off)),
			       e->size ? lst_opt_format(sz_opt, &ew, size, sizeof(size))
				       : "to the end");
		}
		if (lst_rw_is_random(e->rw) && e->dist.kind != LST_DIST_RANDOM)
			printf(", access %s", lst_dist_format(&e->dist, dist, sizeof(dist)));
		if (e->rw == LST_RW_TRIM || e->rw == LST_RW_RANDTRIM)
			printf(" (discards)");
		printf("\n");
	}
}

/* A block-size mix, dedup and trims, each when set. */
static void s_describe_mix(const struct lst_plan_phase *ph)
{
	const struct lst_workload *w = &ph->w;
	char text[512];

	if (ph->suite != LST_SUITE_NONE)
		return;
	if (w->bssplit.n[0] || w->bssplit.n[1])
		printf("     block sizes: bssplit %s (share of the I/Os by size)\n",
		       lst_bssplit_format(&w->bssplit, text, sizeof(text)));
	if (w->dedupe_percentage)
		printf("     dedup: dedupe_percentage %" PRId64 ", %" PRId64
		       "%% of the 4 KiB units written repeat earlier ones\n",
		       w->dedupe_percentage, w->dedupe_percentage);
	if (w->skew.n)
		return; /* each entry says its own (s_describe_skew) */
	if (w->rw == LST_RW_TRIM || w->rw == LST_RW_RANDTRIM)
		printf("     trims: every I/O is a discard\n");
	else if (w->rwmixtrim)
		printf("     trims: rwmixtrim %" PRId64 ", %" PRId64
		       "%% of the I/Os are discards\n",
		       w->rwmixtrim, w->rwmixtrim);
}

/*
 * what verify does in the phase, nothing when it does not verify (older plans describe
 * as they did). *gen is the last generation the phases before it wrote (generation g is the
 * run's g-th verified write point, a retry aside), -1 once a steady phase made the count a
 * run-time matter.
 */
static void s_describe_verify(const struct lst_plan_phase *ph, int64_t *gen)
{
	int64_t n = (int64_t)lst_plan_phase_points(ph);

	if (lst_plan_phase_verify_reads(ph)) {
		printf("     verify: checks every unit read against the journal\n");
		return;
	}
	if (!lst_plan_phase_verify_writes(ph))
		return;
	printf("     verify: stamps every 4 KiB unit written (");
	if (*gen < 0)
		printf("generation set at run time");
	else if (ph->steady)
		printf("generation %" PRId64 " and up, one per round", *gen + 1);
	else if (n == 1)
		printf("generation %" PRId64, *gen + 1);
	else
		printf("generations %" PRId64 " to %" PRId64 ", one per point", *gen + 1, *gen + n);
	printf(")\n");
	*gen = *gen >= 0 && !ph->steady ? *gen + n : -1;
}

/* A replay phase's workload is its trace. */
static void s_describe_replay(const struct lst_plan_phase *ph)
{
	printf("     replays trace %s at %" PRId64 "%% (offsets, sizes, directions and times from "
	       "the trace, starting together on every agent), iodepth %" PRId64 "\n",
	       ph->w.read_iolog, ph->w.replay_time_scale, ph->w.iodepth);
}

/* Where a recording phase's traces go, one file per agent and job spec. */
static void s_describe_record(const struct lst_plan_phase *ph)
{
	if (!ph->w.write_iolog[0])
		return;
	printf("     records every I/O to trace %s%s.AGENT.K.lstrace in each agent's trace folder",
	       ph->w.write_iolog, lst_plan_phase_one_point(ph) ? "" : "-pP");
	printf(lst_plan_phase_one_point(ph) ? "\n" : " (P: the point, from 0)\n");
}

static void s_describe_phase(const lst_plan *p, size_t i, int64_t *total, bool *unknown,
			     bool *at_most_total, int64_t *gen)
{
	const struct lst_plan_phase *ph = &p->phases[i];
	size_t points = lst_plan_phase_points(ph);
	char buf[64], bs[32], label[256];
	struct lst_workload w;
	bool at_most;
	int64_t t = s_phase_ns(p, i, &at_most);

	printf("  %zu. %s: %s", i + 1, ph->name,
	       ph->suite ? lst_suite_names[ph->suite] : "workload");
	if (ph->ntargets == p->ntargets) {
		printf(", all targets");
	} else {
		printf(", targets");
		for (size_t j = 0; j < ph->ntargets; j++)
			printf("%s%s", j ? ", " : " ", p->targets[ph->targets[j]].name);
	}
	printf("\n");
	lst_plan_phase_point(ph, 0, &w, label, sizeof(label));
	if (ph->w.read_iolog[0]) {
		s_describe_replay(ph);
	} else if (ph->suite == LST_SUITE_NONE && ph->w.skew.n) {
		s_describe_skew(&ph->w);
	} else if (ph->suite == LST_SUITE_NONE) {
		const struct lst_opt *bs_opt = lst_opt_find(lst_workload_opts, "bs");

		printf("     %s", lst_rw_names[ph->w.rw]);
		if (ph->w.rw == LST_RW_RANDRW || ph->w.rw == LST_RW_RW)
			printf(" %" PRId64 "%% reads", ph->w.rwmixread);
		printf(", bs %s, iodepth %" PRId64 ", jobs %" PRId64 "\n",
		       lst_opt_format(bs_opt, &ph->w, bs, sizeof(bs)), ph->w.iodepth, ph->w.jobs);
	}
	s_describe_record(ph);
	s_describe_roles(p, ph);
	s_describe_dist(ph);
	s_describe_mix(ph);
	s_describe_verify(ph, gen);
	/* a suite phase whose axes are all values has no points of its own to list */
	if (ph->naxes && !(ph->suite && lst_plan_phase_values(ph) == points)) {
		printf("     %zu points (", points);
		for (size_t a = 0; a < ph->naxes; a++)
			printf("%s%s", a ? " x " : "",
			       ph->axes[a].opt ? ph->axes[a].opt->name : "ports");
		printf("), first %s", label);
		lst_plan_phase_point(ph, points - 1, &w, label, sizeof(label));
		printf(", last %s\n", label);
	}
	if (lst_plan_phase_values(ph) > 1) {
		size_t n = lst_plan_phase_values(ph);

		lst_plan_phase_value(ph, 0, &w, NULL, label, sizeof(label));
		printf("     the suite's whole grid once per value: %zu values, first %s", n,
		       label);
		lst_plan_phase_value(ph, n - 1, &w, NULL, label, sizeof(label));
		printf(", last %s\n", label);
	}
	if (ph->round_duration) {
		printf("     rounds of %s", lst_fmt_duration(ph->round_duration, buf, sizeof(buf)));
		if (ph->round_ramp)
			printf(" after a %s ramp",
			       lst_fmt_duration(ph->round_ramp, buf, sizeof(buf)));
		if (ph->steady)
			printf(", until steady (%s over %" PRId64 " of at most %" PRId64 " rounds)",
			       lst_track_names[ph->track], ph->window, ph->max_rounds);
		printf("\n");
	}
	if (ph->stop_capacity)
		printf("     stops after %gx the capacity\n", ph->stop_capacity);
	s_describe_hooks(p, ph);
	if (t < 0) {
		printf("     time: %s\n", ph->suite ? "set by the suite"
					  : ph->w.read_iolog[0]
						  ? "as long as the trace, at the scale"
						  : "depends on the device");
		*unknown = true;
		return;
	}
	printf("     time: %s%s\n", at_most ? "at most " : "about ",
	       lst_fmt_duration(t, buf, sizeof(buf)));
	*total += t;
	*at_most_total = *at_most_total || at_most;
}

static void s_describe(const lst_plan *p)
{
	bool unknown = false, at_most = false;
	int64_t total = 0;
	int64_t gen = 0;
	char buf[64];

	printf("plan %s (%s): %zu agent%s, %zu target%s, %zu phase%s\n", p->name, p->file,
	       p->nagents, p->nagents == 1 ? "" : "s", p->ntargets, p->ntargets == 1 ? "" : "s",
	       p->nphases, p->nphases == 1 ? "" : "s");
	if (p->description)
		printf("  %s\n", p->description);
	printf("  lease %s, on agent loss: %s\n", lst_fmt_duration(p->lease, buf, sizeof(buf)),
	       p->on_agent_loss == LST_ON_LOSS_ABORT   ? "abort"
	       : p->on_agent_loss == LST_ON_LOSS_RETRY ? "retry"
						       : "continue");
	printf("agents:\n");
	for (size_t i = 0; i < p->nagents; i++) {
		const struct lst_plan_agent *a = &p->agents[i];
		struct stat st;

		printf("  %s  %s  ", a->name, a->address);
		if (!a->key)
			printf("plain text (no key)\n");
		else if (a->key[0] != '/')
			printf("key (Z85 text)\n");
		else
			printf("key %s%s\n", a->key, stat(a->key, &st) ? " (not found here)" : "");
	}
	printf("targets:\n");
	for (size_t i = 0; i < p->ntargets; i++) {
		const struct lst_plan_target *t = &p->targets[i];

		printf("  %s  share %s%s%s\n", t->name,
		       t->share == LST_SHARE_SPLIT ? "split" : "shared",
		       t->identity ? ", identity " : "", t->identity ? t->identity : "");
		for (size_t j = 0; j < t->npaths; j++)
			printf("    %s: %s\n", p->agents[t->paths[j].agent].name, t->paths[j].path);
	}
	printf("phases:\n");
	for (size_t i = 0; i < p->nphases; i++)
		s_describe_phase(p, i, &total, &unknown, &at_most, &gen);
	printf("estimated time: %s%s%s\n",
	       unknown	 ? "at least "
	       : at_most ? "at most "
			 : "about ",
	       lst_fmt_duration(total, buf, sizeof(buf)),
	       unknown ? " (plus phases whose time depends on the device or the suite)" : "");
}

static int s_write_doc(const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "w") : stdout;

	if (!f) {
		fprintf(stderr, "lockstep: cannot write %s: %s\n", file, strerror(errno));
		return 1;
	}
	lst_plan_write_doc(f);
	/* cppcheck-suppress useClosedFile ; fflush runs only when f is stdout, never closed */
	if (f != stdout ? fclose(f) : fflush(f)) {
		fprintf(stderr, "lockstep: cannot write %s: %s\n", file, strerror(errno));
		return 1;
	}
	return 0;
}

int lst_cmd_validate(int argc, char **argv)
{
	struct s_flags fl = { 0 };
	lst_errlist errs = { 0 };
	lst_plan *p;
	int first, rc;

	if ((rc = lst_cli_parse(&lst_cmd_validate_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	if (fl.write_doc)
		return s_write_doc(fl.write_doc);
	if (first != argc - 1) {
		fprintf(stderr, "lockstep validate: %s (see 'lockstep validate --help')\n",
			first == argc ? "which plan? give one PLAN.yaml" : "give one plan only");
		lst_flag_help(&lst_cmd_validate_flags, stderr);
		return 2;
	}
	p = lst_plan_load(argv[first], &errs);
	if (!p) {
		lst_errlist_print(&errs, stderr);
		fprintf(stderr, "lockstep: %s: %zu problem%s; nothing would run\n", argv[first],
			lst_errlist_count(&errs), lst_errlist_count(&errs) == 1 ? "" : "s");
		lst_errlist_free(&errs);
		return 2;
	}
	if (!fl.c.quiet)
		s_describe(p);
	lst_plan_destroy(&p);
	return 0;
}
