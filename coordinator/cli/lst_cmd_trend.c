/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep trend METRIC [--where ...] [--by firmware|kernel|version|date] [--phase P]
 * [--point NAME] [--json] [--plot FILE]`: one figure of every run a query chooses, grouped,
 * each group's spread as a band, and each run outside the band of its group's other runs
 * flagged as a regression or an improvement (lst_cattrend.h; docs/catalog.md, "Trends").
 */
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_catalog.h"
#include "lst_cattrend.h"
#include "lst_catwhere.h"
#include "lst_cli_catalog.h"
#include "lst_util.h"

#define S_OFF(f) offsetof(struct lst_cli_cat_flags, f)

/* The keys --by groups by (lst_catwhere_value's names). */
static const char *const s_by[] = { "firmware", "kernel", "version", "date", "model", NULL };

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "by",
		   .type = LST_OPT_ENUM,
		   .offset = S_OFF(by),
		   .def = "firmware",
		   .choices = s_by,
		   .help = "group the runs by their first device's firmware or model, their "
			   "first agent's kernel, their lockstep version or the day they started" },
	  .arg = "KEY" },
	{ .opt = { .name = "phase",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(phase),
		   .help = "the figure of this phase's points only (default: every phase's)" },
	  .arg = "PHASE" },
	{ .opt = { .name = "test",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(test),
		   .help = "the figure of this suite test's points or verdicts only ('bs=1m "
			   "write'; default: every test's)" },
	  .arg = "TEST" },
	{ .opt = { .name = "point",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(point),
		   .help = "the figure of the points of this name only, as the report names "
			   "them ('iodepth=16', 'bs=4k rwmixread=0'; default: every point's)" },
	  .arg = "NAME" },
	{ .opt = { .name = "suite",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(suite),
		   .help = "the figure of this suite's points or verdicts only, whatever their "
			   "phase is named ('snia-iops'; runs recorded at schema version 1 have "
			   "have none until added again)" },
	  .arg = "SUITE" },
	{ .opt = { .name = "plot",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(plot),
		   .help = "also write a gnuplot script drawing the runs and their groups' "
			   "bands to FILE (gnuplot FILE makes FILE.svg)" },
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, lst_cli_cat_flags, NULL };

const struct lst_flag_cmd lst_cmd_trend_flags = {
	.name = "lockstep trend",
	.operands = "METRIC",
	.groups = s_groups,
	.about = "One figure of every run of the catalog a query chooses, across firmware,\n"
		 "kernels, versions or dates. METRIC is a point's figure: iops, read_iops,\n"
		 "write_iops, mbps, read_mbps, write_mbps, lat_mean, lat_p50, lat_p99,\n"
		 "lat_p99_9, lat_p99_99, read_p99 or write_p99 (us), averaged over the run's\n"
		 "points that --phase, --test, --point and --suite choose; steady.FIGURE, the\n"
		 "steady-state average of the verdicts tracking FIGURE (steady.write_iops)\n"
		 "that --phase, --test and --suite choose; or cell:BS:MIX, the IOPS of a suite\n"
		 "matrix cell (cell:4k:70/30) of --phase. The runs are grouped by --by; each\n"
		 "group's band is its mean +/- 3 standard deviations, and a run is judged\n"
		 "against the band of the other runs of its group (at least 3 of them): below\n"
		 "it is a regression for IOPS and MB/s, an improvement for latency, and the\n"
		 "reverse above it. Runs added unfinished (db add --partial) are left out.\n",
	.more = "Exit status: 0 no run flagged as a regression; 1 at least one; 2 bad usage,\n"
		"an unknown METRIC, a bad --where or a catalog that cannot be opened.\n"
		"\n"
		"Examples:\n"
		"  lockstep trend write_iops --where 'model=PX05SRB040' --phase randrw \\\n"
		"      --point iodepth=16 --by firmware\n"
		"  lockstep trend steady.write_iops --suite snia-iops --by kernel\n"
		"  lockstep trend cell:4k:70/30 --phase iops\n",
};

static const char *s_key_of(const struct lst_cat_run *r, const char *by, char *buf)
{
	const char *v = lst_catwhere_value(r, by, 0, buf);

	return v ? v : "";
}

/* The group order: by's own (version strings for firmware, kernel and version). */
static const char *s_by_key;

static int s_cmp(const char *a, const char *b)
{
	return lst_catwhere_cmp(s_by_key, a, b);
}

/* Which rows the figure is taken from, as text follows the metric's name: " in phase randrw
 * at point iodepth=16". The caller frees it. */
static char *s_chosen(const struct lst_cli_cat_flags *fl)
{
	const char *const what[][2] = { { " in phase ", fl->phase },
					{ " in test ", fl->test },
					{ " at point ", fl->point },
					{ " of suite ", fl->suite } };
	char *s = lst_strdup(""), *more;

	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		if (!what[i][1])
			continue;
		more = lst_asprintf("%s%s%s", s, what[i][0], what[i][1]);
		free(s);
		s = more;
	}
	return s;
}

static json_t *s_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void s_json(const struct lst_cli_cat_flags *fl, const char *metric,
		   const struct lst_cat_run *runs, size_t n, const struct lst_trend *t)
{
	json_t *o = json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:s, s:s}", "metric", metric, "phase",
			      fl->phase, "test", fl->test, "point", fl->point, "suite", fl->suite,
			      "by", s_by[fl->by], "band",
			      "mean +/- 3 sd; a run is judged by its group's other runs");
	json_t *groups = json_array(), *ra = json_array();
	char *text;

	for (size_t g = 0; g < t->ngroups; g++) {
		const struct lst_trend_group *tg = &t->groups[g];

		json_array_append_new(groups,
				      json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "key",
						tg->key, "runs", (json_int_t)tg->n, "mean",
						s_num(tg->mean), "sd", s_num(tg->sd), "min",
						s_num(tg->min), "max", s_num(tg->max), "lo",
						s_num(tg->lo), "hi", s_num(tg->hi)));
	}
	for (size_t i = 0; i < n; i++) {
		const struct lst_trend_run *tr = &t->runs[i];

		json_array_append_new(
			ra,
			json_pack("{s:s, s:s, s:s?, s:b, s:s?, s:o, s:o, s:o, s:s}", "run_id",
				  runs[i].run_id, "group", t->groups[tr->group].key, "path",
				  runs[i].path, "missing", runs[i].missing, "started",
				  runs[i].started, "value", s_num(tr->value), "lo", s_num(tr->lo),
				  "hi", s_num(tr->hi), "flag", lst_trend_flag_name(tr->flag)));
	}
	json_object_set_new(o, "groups", groups);
	json_object_set_new(o, "runs", ra);
	text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	printf("%s\n", text);
	free(text);
	json_decref(o);
}

static void s_text(const struct lst_cli_cat_flags *fl, const char *metric,
		   const struct lst_cat_run *runs, size_t n, const struct lst_trend *t)
{
	char *chosen = s_chosen(fl);

	printf("%s%s by %s: %zu runs in %zu groups; band: mean +/- 3 sd, a run judged by its "
	       "group's other runs\n\n",
	       metric, chosen, s_by[fl->by], n, t->ngroups);
	free(chosen);
	printf("%-20s %5s %14s %12s %14s %14s\n", s_by[fl->by], "runs", "mean", "sd", "band lo",
	       "band hi");
	for (size_t g = 0; g < t->ngroups; g++) {
		const struct lst_trend_group *tg = &t->groups[g];

		printf("%-20s %5zu %14.6g %12.6g %14.6g %14.6g\n", *tg->key ? tg->key : "-", tg->n,
		       tg->mean, tg->sd, tg->lo, tg->hi);
	}
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		const struct lst_trend_run *tr = &t->runs[i];

		if (tr->flag != LST_TREND_REGRESSION && tr->flag != LST_TREND_IMPROVEMENT)
			continue;
		printf("%s: %s %s %.6g outside %.6g .. %.6g (%s)%s\n",
		       lst_trend_flag_name(tr->flag), runs[i].run_id, t->groups[tr->group].key,
		       tr->value, tr->lo, tr->hi, runs[i].path,
		       runs[i].missing ? " (missing)" : "");
	}
}

/* A gnuplot script: each run's value at its index, its group's band as a shaded box. */
static int s_plot(const struct lst_cli_cat_flags *fl, const char *metric,
		  const struct lst_cat_run *runs, size_t n, const struct lst_trend *t)
{
	FILE *f = fopen(fl->plot, "w");

	if (!f) {
		fprintf(stderr, "lockstep trend: %s: cannot write it\n", fl->plot);
		return 2;
	}
	fprintf(f, "# lockstep trend %s by %s: runs in catalog order, each group's band shaded\n",
		metric, s_by[fl->by]);
	fprintf(f, "set terminal svg size 1000,500 dynamic\nset output '%s.svg'\n", fl->plot);
	fprintf(f, "set title \"%s by %s\" noenhanced\nset ylabel \"%s\" noenhanced\n", metric,
		s_by[fl->by], metric);
	fprintf(f, "set xlabel 'run'\nset key outside right noenhanced\nset grid ytics\n");
	for (size_t g = 0, k = 0; g < t->ngroups; g++) {
		double first = -1, last = -1;

		for (size_t i = 0; i < n; i++)
			if (t->runs[i].group == g)
				last = (double)i, first = first < 0 ? (double)i : first;
		if (isfinite(t->groups[g].lo) && first >= 0)
			fprintf(f,
				"set object %zu rect from %g,%.17g to %g,%.17g fc rgb '#cfe3f7' "
				"fs solid 0.5 noborder behind\n",
				++k, first - 0.4, t->groups[g].lo, last + 0.4, t->groups[g].hi);
	}
	fprintf(f, "$runs << EOD\n");
	for (size_t i = 0; i < n; i++)
		if (isfinite(t->runs[i].value))
			fprintf(f, "%zu %.17g %d \"%s\"\n", i, t->runs[i].value,
				(int)t->runs[i].flag, runs[i].run_id);
	fprintf(f,
		"EOD\nplot $runs using 1:($3 == %d || $3 == %d ? $2 : 1/0) with points pt 7 "
		"ps 1.2 lc rgb '#d62728' title 'outside its band', \\\n"
		"     $runs using 1:($3 == %d || $3 == %d ? 1/0 : $2) with points pt 7 lc rgb "
		"'#1f77b4' title 'run'\n",
		LST_TREND_REGRESSION, LST_TREND_IMPROVEMENT, LST_TREND_REGRESSION,
		LST_TREND_IMPROVEMENT);
	if (fclose(f)) {
		fprintf(stderr, "lockstep trend: %s: cannot write it\n", fl->plot);
		return 2;
	}
	return 0;
}

static bool s_any_value(const double *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(vals[i]))
			return true;
	return false;
}

static int s_trend(const struct lst_cli_cat_flags *fl, const char *metric,
		   const struct lst_cat_metric *m, lst_catalog *cat, const struct lst_cat_run *runs,
		   size_t n)
{
	const struct lst_cat_pick pick = { fl->phase, fl->test, fl->point, fl->suite };
	const char **keys = lst_calloc(n + 1, sizeof(*keys));
	char(*bufs)[11] = lst_calloc(n + 1, sizeof(*bufs));
	double *vals = lst_calloc(n + 1, sizeof(*vals));
	struct lst_trend t;
	lst_err err = { 0 };
	int rc = 0;

	if (lst_catalog_values(cat, runs, n, m, &pick, vals, &err)) {
		fprintf(stderr, "lockstep trend: %s\n", err.msg);
		rc = 2;
		goto free;
	}
	if (n && !s_any_value(vals, n)) {
		char *chosen = s_chosen(fl);

		fprintf(stderr,
			"lockstep trend: none of the %zu runs chosen has %s%s ('lockstep db show "
			"RUN' lists a run's phases, points, verdicts and cells)\n",
			n, metric, chosen);
		free(chosen);
		rc = 2;
		goto free;
	}
	for (size_t i = 0; i < n; i++)
		keys[i] = s_key_of(&runs[i], s_by[fl->by], bufs[i]);
	s_by_key = s_by[fl->by];
	lst_trend_init(&t, keys, vals, n, m->higher_is_better, s_cmp);
	if (fl->json)
		s_json(fl, metric, runs, n, &t);
	else
		s_text(fl, metric, runs, n, &t);
	if (fl->plot)
		rc = s_plot(fl, metric, runs, n, &t);
	for (size_t i = 0; !rc && i < n; i++)
		if (t.runs[i].flag == LST_TREND_REGRESSION)
			rc = 1;
	lst_trend_exit(&t);
free:
	free(keys);
	free(bufs);
	free(vals);
	return rc;
}

/* A run added unfinished (--partial) has figures of the points it reached only: a trend leaves
 * it out rather than let it judge or be judged. Returns the runs kept, in their order. */
static size_t s_finished_only(struct lst_cat_run *runs, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (runs[i].partial) {
			lst_cat_runs_free(&runs[i], 1);
			continue;
		}
		runs[kept++] = runs[i];
	}
	return kept;
}

int lst_cmd_trend(int argc, char **argv)
{
	struct lst_cli_cat_flags fl = { 0 };
	struct lst_cat_metric m;
	struct lst_cat_run *runs;
	lst_err err = { 0 };
	lst_catalog *cat;
	int first, rc;
	size_t n;

	if ((rc = lst_cli_parse(&lst_cmd_trend_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	if (argc - first != 1) {
		fprintf(stderr, "lockstep trend: which METRIC? (see 'lockstep trend --help')\n");
		return 2;
	}
	if (lst_cat_metric_parse(argv[first], &m, &err)) {
		fprintf(stderr, "lockstep trend: %s (see 'lockstep trend --help')\n", err.msg);
		return 2;
	}
	if ((rc = lst_cli_cat_open("trend", &fl, NULL, &cat, &runs, &n)))
		return rc;
	n = s_finished_only(runs, n);
	rc = s_trend(&fl, argv[first], &m, cat, runs, n);
	lst_cat_runs_free(runs, n);
	free(runs);
	lst_catalog_destroy(&cat);
	return rc;
}
