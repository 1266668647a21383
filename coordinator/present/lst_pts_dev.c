/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A PTS page's "deviations from the spec": every setting of the test as the plan ran it that is
 * not the spec's, one sentence each, so that a page read without the plan cannot pass a
 * shortened or reshaped test for the spec's. The spec's values are written here once (PTS
 * 2.0.x as docs/suites.md gives them); the plan's come from plan.yaml parsed again, the devices'
 * paths and the data pattern from run.json, as the test ran.
 */
#include "lst_pts_int.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lst_time.h"
#include "lst_assert.h"
#include "lst_util.h"
#include "lst_workload.h"

#define S_MIN (60 * LST_NS_PER_S)
#define S_HOUR (60 * S_MIN)

/* The spec's grid of each test that has one, and where lockstep's default grid differs from it
 * (NULL: it is the spec's). */
static const struct {
	const char *suite, *spec, *ours;
} s_grids[] = {
	{ "snia-iops",
	  "block sizes 0.5, 4, 8, 16, 32, 64, 128 and 1024 KiB x read/write mixes 100/0, 95/5, "
	  "65/35, 50/50, 35/65, 5/95 and 0/100",
	  "the 0.5 KiB block size is not run (lockstep's default grid, as the labs run it)" },
	{ "snia-throughput", "sequential 128 KiB and 1024 KiB, write then read", NULL },
	{ "snia-latency",
	  "block sizes 0.5, 4 and 8 KiB x read/write mixes 100/0, 65/35 and 0/100, 1 thread at "
	  "queue depth 1",
	  "mixes 100/0, 70/30 and 0/100 and block sizes 4 and 8 KiB (lockstep's default, as the "
	  "labs run it) instead of 65/35 and 0.5, 4 and 8 KiB" },
	{ "snia-ecw", "threads 32, 16, 8, 6, 4, 2, 1 x queue depths 32, 16, 8, 6, 4, 2, 1", NULL },
	{ "snia-dirth", "threads 32, 16, 8, 6, 4, 2, 1 x queue depths 32, 16, 8, 6, 4, 2, 1",
	  NULL },
};

static void s_dev(struct lst_pts__ctx *c, char *text)
{
	struct lst_pts_page *pg = c->pg;

	pg->dev = lst_realloc(pg->dev, (pg->ndev + 1) * sizeof(*pg->dev));
	pg->dev[pg->ndev++] = text;
}

static bool s_suite(const struct lst_pts__ctx *c, const char *name)
{
	return !strcmp(c->pg->suite, name);
}

/* "d (spec: s)" for a duration that is not the spec's. */
static void s_duration(struct lst_pts__ctx *c, const char *what, int64_t got, int64_t spec,
		       const char *spec_text)
{
	char buf[32];

	if (got && got != spec)
		s_dev(c, lst_asprintf("%s %s (spec: %s)", what,
				      lst_fmt_duration(got, buf, sizeof(buf)), spec_text));
}

/* Paths: the spec tests a device through one host; a target driven through several paths is
 * the dual-port case. */
static void s_paths(struct lst_pts__ctx *c)
{
	json_t *targets = json_object_get(c->r->run, "targets"), *t;
	size_t i;

	json_array_foreach (targets, i, t) {
		size_t n = json_array_size(json_object_get(t, "paths"));

		if (n > 1)
			s_dev(c,
			      lst_asprintf("target %s is driven through %zu paths at once (every "
					   "port of a dual-port drive, each from its agent) and "
					   "its figures are their sum; the spec drives a device "
					   "from one host",
					   json_string_value(json_object_get(t, "name")), n));
	}
}

/* The rounds and their steady state. */
static void s_rounds(struct lst_pts__ctx *c)
{
	const struct lst_plan_phase *pp = c->pp;

	if (!s_suite(c, "snia-hir"))
		s_duration(c, s_suite(c, "snia-xsr") ? "intervals of" : "rounds of",
			   pp->round_duration, S_MIN, "1 minute");
	if (!pp->steady)
		return;
	if (pp->window != 5)
		s_dev(c, lst_asprintf("steady-state window of %" PRId64 " rounds (spec: 5)",
				      pp->window));
	if (pp->max_rounds != 25 && !s_suite(c, "snia-wsat"))
		s_dev(c, lst_asprintf("at most %" PRId64 " rounds (spec: 25)", pp->max_rounds));
	if (pp->data_excursion_pct != 20)
		s_dev(c, lst_asprintf("data excursion limit %g%% (spec: 20%%)",
				      pp->data_excursion_pct));
	if (pp->slope_excursion_pct != 10)
		s_dev(c, lst_asprintf("slope excursion limit %g%% (spec: 10%%)",
				      pp->slope_excursion_pct));
}

/* Whether axis ax is a value axis of the phase (the suite runs its whole grid once per value)
 * rather than one of its grid: its NAME= is in the label of the phase's first value. */
static bool s_value_axis(const struct lst_sweep_axis *ax, const char *label)
{
	size_t n;

	if (!ax->opt)
		return false;
	n = strlen(ax->opt->name);
	for (const char *p = label; (p = strstr(p, ax->opt->name)); p += n)
		if ((p == label || p[-1] == ' ') && p[n] == '=')
			return true;
	return false;
}

/* "a, b" of the phase's axes that are (value) or are not value axes. */
static void s_axes(const struct lst_plan_phase *pp, const char *label, bool value, char *buf,
		   size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < pp->naxes && n < size; k++)
		if (s_value_axis(&pp->axes[k], label) == value)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
					      pp->axes[k].opt ? pp->axes[k].opt->name : "ports");
}

/* The grid: the plan's sweep, or lockstep's default where it is not the spec's; and a test run
 * once per value of an axis its grid does not build from. */
static void s_grid(struct lst_pts__ctx *c)
{
	const struct lst_plan_phase *pp = c->pp;
	size_t nvalues = lst_plan_phase_values(pp);
	char label[256] = "", grid[160], values[160];
	struct lst_workload w;

	lst_plan_phase_value(pp, 0, &w, NULL, label, sizeof(label));
	s_axes(pp, label, false, grid, sizeof(grid));
	s_axes(pp, label, true, values, sizeof(values));
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_grids); i++) {
		if (!s_suite(c, s_grids[i].suite))
			continue;
		if (*grid)
			s_dev(c,
			      lst_asprintf("the grid is the plan's sweep over %s (the values the "
					   "header's parameters list); spec: %s",
					   grid, s_grids[i].spec));
		else if (s_grids[i].ours)
			s_dev(c, lst_strdup(s_grids[i].ours));
	}
	if (*values)
		s_dev(c,
		      lst_asprintf("the test runs %zu times, once per value of %s, each with its "
				   "own verdict and files; the spec runs it once",
				   nvalues, values));
}

/* The tests' own lengths: WSAT's stop, HIR's bursts and gaps, XSR's segments, DIRTH's runs. */
static void s_lengths(struct lst_pts__ctx *c)
{
	static const int64_t gaps[] = { 5, 10, 15, 25, 50 }, segs[] = { 8, 6, 6 };
	const struct lst_plan_phase *pp = c->pp;
	char buf[32];

	if (s_suite(c, "snia-wsat")) {
		if (pp->stop_capacity && pp->stop_capacity != 4)
			s_dev(c, lst_asprintf("stops at %gx the capacity written (spec: 4x)",
					      pp->stop_capacity));
		if (pp->stop_bytes)
			s_dev(c, lst_asprintf(
					 "stops after %s written (spec: 4x the capacity)",
					 lst_fmt_size((uint64_t)pp->stop_bytes, buf, sizeof(buf))));
		s_duration(c, "stops after", pp->stop_runtime, 0, "4x the capacity written");
	}
	if (s_suite(c, "snia-hir")) {
		bool same = pp->nhir_gaps == LST_ARRAY_SIZE(gaps);

		for (size_t i = 0; same && i < pp->nhir_gaps; i++)
			same = pp->hir_gaps[i] == gaps[i] * LST_NS_PER_S;
		if (!same)
			s_dev(c,
			      lst_asprintf("%zu wait states, not the spec's 5, 10, 15, 25 and 50 s",
					   pp->nhir_gaps));
		s_duration(c, "bursts of", pp->hir_burst, 5 * LST_NS_PER_S, "5 s");
		if (pp->hir_repeats != 360)
			s_dev(c, lst_asprintf("%" PRId64 " bursts per wait state (spec: 360)",
					      pp->hir_repeats));
		s_duration(c, "continuous writes between wait states of", pp->hir_continuous,
			   1800 * LST_NS_PER_S, "1800 s");
	}
	if (s_suite(c, "snia-xsr")) {
		for (size_t i = 0; i < pp->nxsr_segments && i < LST_ARRAY_SIZE(segs); i++) {
			char what[32], spec[16];

			snprintf(what, sizeof(what), "segment %zu of", i + 1);
			snprintf(spec, sizeof(spec), "%" PRId64 " h", segs[i]);
			s_duration(c, what, pp->xsr_segments[i], segs[i] * S_HOUR, spec);
		}
	}
	if (s_suite(c, "snia-dirth"))
		s_duration(c, "histogram runs of", pp->dirth_histogram, 10 * S_MIN, "10 minutes");
}

/* Workload keys the plan gave the phase: the suite's stimulus changed. */
static void s_workload(struct lst_pts__ctx *c)
{
	const struct lst_plan_phase *pp = c->pp;

	for (size_t i = 0; i < LST_ARRAY_SIZE(pp->w_set) && lst_workload_opts[i].name; i++) {
		char buf[256];

		if (!pp->w_set[i] || !strcmp(lst_workload_opts[i].name, "pattern"))
			continue; /* the pattern as run: s_pattern */
		s_dev(c, lst_asprintf(
				 "workload %s: %s, set by the plan (the spec's stimulus has "
				 "the suite's own)",
				 lst_workload_opts[i].name,
				 lst_opt_format(&lst_workload_opts[i], &pp->w, buf, sizeof(buf))));
	}
}

/* A data pattern other than random, however the plan set it (`defaults:` too). */
static void s_pattern(struct lst_pts__ctx *c)
{
	json_t *phases = json_object_get(c->r->run, "phases"), *ph;
	size_t i;

	json_array_foreach (phases, i, ph) {
		const char *name = json_string_value(json_object_get(ph, "phase"));
		const char *pat = json_string_value(
			json_object_get(json_object_get(ph, "workload"), "pattern"));

		if (!name || strcmp(name, c->pg->phase) || !pat || !strcmp(pat, "random"))
			continue;
		s_dev(c, lst_asprintf("data pattern %s (spec: random, incompressible data)", pat));
		return;
	}
}

void lst_pts__deviations(struct lst_pts__ctx *c)
{
	s_paths(c);
	s_pattern(c);
	if (!c->pp) {
		s_dev(c, lst_strdup("plan.yaml could not be read again: the settings it changed "
				    "from the spec are not known"));
		return;
	}
	s_rounds(c);
	s_grid(c);
	s_lengths(c);
	s_workload(c);
}
