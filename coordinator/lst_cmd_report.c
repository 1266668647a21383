/*
 * `lockstep report`: read a results folder back, redraw its plots, print what it says; or
 * compare two runs of a plan (before and after a resize, two firmware versions).
 *
 * One folder: the run (id, plan, status, versions), agents with clock offset and RTT, targets
 * with their identities, errors, then per phase the points (IOPS, MB/s, mean / p99 / p99.99
 * latency; for suites the last round of each point), the steady-state verdicts, and the IOPS
 * matrix. --json prints the same as one object.
 *
 * Two folders: points are matched by (phase, test, label) and the change from the first run to
 * the second is given in percent, printed and written as OUT/compare.csv and OUT/compare.md;
 * their latency-vs-IOPS curves are overlaid in OUT/compare_lat_vs_iops.{svg,png}; when both
 * have an IOPS matrix, the ratio of every cell is added.
 *
 * Exit status: 0, also when plots could not be drawn (a warning says why); 2 for bad usage or a
 * folder that cannot be read (the error names the file and line).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_cli.h"
#include "lst_err.h"
#include "lst_log.h"
#include "lst_plot.h"
#include "lst_report.h"
#include "lst_report_plan.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_LABEL_MAX 48 /* label column width in text tables */
#define S_ROWS_MAX 64  /* points printed per phase (HIR has thousands); --json has all */
#define S_AGENT_ROWS 8 /* show per-agent rows under points up to this many points */

struct s_args {
	const char *dirs[2];
	int ndirs;
	const char *out;
	bool json, plots;
};

static void s_usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep report [-o OUT] [--json] [--no-plots] DIR\n"
		"       lockstep report [-o OUT] [--json] [--no-plots] DIR1 DIR2\n"
		"\n"
		"Read a results folder written by 'lockstep run', redraw every plot and print the\n"
		"report: the run, its agents (clock offset, rtt), targets, status and errors, and\n"
		"per phase the points (IOPS, MB/s, mean, p99 and p99.99 latency), the\n"
		"steady-state verdicts and the IOPS matrix. Plots go to DIR/plots (or OUT) as\n"
		"NAME.svg and NAME.png, with the gnuplot script NAME.gp that drew them.\n"
		"\n"
		"With two folders, compare the runs: points matched by phase and label, IOPS and\n"
		"latency of each and the change in %%, written to OUT/compare.csv and\n"
		"OUT/compare.md and printed; both runs' latency-vs-IOPS curves overlaid in\n"
		"OUT/compare_lat_vs_iops.svg/.png; the ratio of the IOPS matrices when both have\n"
		"one. OUT defaults to DIR2/compare-<name of DIR1>.\n"
		"\n"
		"options:\n"
		"  -o, --output OUT   where plots (one folder) or the comparison (two) go\n"
		"  --json             print the report as one JSON object\n"
		"  --no-plots         do not draw plots\n"
		"  -h, --help         print this help\n"
		"\n"
		"Plots need gnuplot (Debian: gnuplot-nox); without it the report is still printed\n"
		"and a warning says the plots were skipped. docs/results.md describes every file.\n"
		"\n"
		"exit status: 0 done (even when plots could not be drawn), 2 bad usage or a folder\n"
		"that cannot be read.\n");
}

static int s_parse_args(int argc, char **argv, struct s_args *a)
{
	enum { O_JSON = 256, O_NO_PLOTS };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, O_JSON },
		{ "no-plots", no_argument, NULL, O_NO_PLOTS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->plots = true;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			s_usage(stdout);
			return 1;
		case 'o':
			a->out = optarg;
			break;
		case O_JSON:
			a->json = true;
			break;
		case O_NO_PLOTS:
			a->plots = false;
			break;
		case ':':
			lst_log_error("report: %s needs a value (see 'lockstep report --help')",
				      argv[optind - 1]);
			return -EINVAL;
		default:
			lst_log_error("report: unknown option '%s' (see 'lockstep report --help')",
				      argv[optind - 1]);
			return -EINVAL;
		}
	}
	a->ndirs = argc - optind;
	if (a->ndirs < 1 || a->ndirs > 2) {
		lst_log_error("report: give one results folder, or two to compare (see 'lockstep "
			      "report --help')");
		return -EINVAL;
	}
	for (int i = 0; i < a->ndirs; i++)
		a->dirs[i] = argv[optind + i];
	return 0;
}

/* --- small formatting helpers ---------------------------------------------------------------- */

static const char *s_fmt(double v, const char *fmt, char *buf, size_t size)
{
	if (isfinite(v))
		snprintf(buf, size, fmt, v);
	else
		snprintf(buf, size, "-");
	return buf;
}

static json_t *s_jstr(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static const char *s_or(const char *s)
{
	return s ? s : "?";
}

/* A borrowed value for json_object_set (which takes its own reference), null when absent. */
static json_t *s_jor(json_t *v)
{
	return v ? v : json_null();
}

/* Change from a to b in percent, NAN when there is no base. */
static double s_change(double a, double b)
{
	if (!isfinite(a) || !isfinite(b) || a == 0)
		return NAN;
	return (b - a) / a * 100;
}

/* The last path component of dir, without trailing slashes ("." resolved). */
static char *s_basename(const char *dir)
{
	char real[PATH_MAX], *copy;
	size_t n;
	const char *b;

	if (realpath(dir, real))
		dir = real;
	copy = lst_strdup(dir);
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	b = strrchr(copy, '/');
	b = b && b[1] ? b + 1 : copy;
	memmove(copy, b, strlen(b) + 1);
	return copy;
}

/* --- the points shown ------------------------------------------------------------------------ */

/* Whether the points ran in rounds; *several: they come from more than one test. */
static bool s_has_rounds(const lst_report *r, const size_t *idx, size_t n, bool *several)
{
	bool rounds = false;

	*several = false;
	for (size_t k = 0; k < n; k++) {
		const struct lst_rpt_point *p = &r->points[idx[k]];

		rounds |= p->round > 0;
		*several |= strcmp(p->test, r->points[idx[0]].test) != 0;
	}
	return rounds;
}

/* How a point is named in tables: its name, after its test when the phase has several. */
static const char *s_point_text(const struct lst_rpt_point *p, bool several, char *buf, size_t size)
{
	if (several && *p->name)
		snprintf(buf, size, "%s / %s", p->test, p->name);
	else if (several)
		snprintf(buf, size, "%s", p->test);
	else
		snprintf(buf, size, "%s", *p->name ? p->name : "-");
	return buf;
}

/* One line of text saying what a steady-state verdict is. */
static void s_verdict(const struct lst_rpt_test *t, char *buf, size_t size)
{
	char avg[32], dp[32], sp[32];
	const char *unit = lst_report_unit(t->tracked);

	s_fmt(t->average, "%.6g", avg, sizeof(avg));
	s_fmt(t->data_pct, "%.2f%%", dp, sizeof(dp));
	s_fmt(t->slope_pct, "%.2f%%", sp, sizeof(sp));
	if (!t->required)
		snprintf(buf, size, "%ld rounds (steady state reported, not required)", t->rounds);
	else if (t->steady)
		snprintf(buf, size, "steady at round %ld",
			 t->window_last ? t->window_last : t->rounds);
	else
		snprintf(buf, size, "not steady after %ld rounds%s", t->rounds,
			 t->max_rounds_hit ? " (round limit reached)" : "");
	if (!t->required && t->window > 0)
		snprintf(buf + strlen(buf), size - strlen(buf), "; the last %ld rounds", t->window);
	else if (t->window_first && t->window_last >= t->window_first)
		snprintf(buf + strlen(buf), size - strlen(buf), "; window rounds %ld-%ld",
			 t->window_first, t->window_last);
	snprintf(
		buf + strlen(buf), size - strlen(buf),
		": average %s%s%s, data excursion %s (limit %g%%), slope excursion %s (limit %g%%)",
		avg, *unit ? " " : "", unit, dp, t->data_limit, sp, t->slope_limit);
}

/* --- text ------------------------------------------------------------------------------------ */

/* One row of a points table; round < 0 leaves the ROUND column out, 0 leaves it blank. */
static void s_print_point(const struct lst_rpt_point *p, const char *label, long round, int width)
{
	char iops[32], mbps[32], mean[32], p99[32], p9999[32], rnd[24] = "";

	printf("  %-*.*s", width, width, label);
	if (round > 0)
		snprintf(rnd, sizeof(rnd), "%ld", round);
	if (round >= 0)
		printf(" %6s", rnd);
	printf(" %10s %9s %9s %10s %10s%s%s\n",
	       s_fmt(p->iops[0] + p->iops[1], "%.0f", iops, sizeof(iops)),
	       s_fmt(p->mbps[0] + p->mbps[1], "%.1f", mbps, sizeof(mbps)),
	       s_fmt(p->lat_mean, "%.1f", mean, sizeof(mean)),
	       s_fmt(p->lat_p99, "%.1f", p99, sizeof(p99)),
	       s_fmt(p->lat_p99_99, "%.1f", p9999, sizeof(p9999)), p->partial ? "  partial" : "",
	       p->errors > 0 ? "  I/O errors" : "");
}

static void s_print_phase(const lst_report *r, const struct lst_rpt_phase *ph, size_t *idx)
{
	size_t rows_all, n = lst_report_shown(r, ph->name, idx, &rows_all);
	bool several, rounds = s_has_rounds(r, idx, n, &several);
	bool agents = r->nagents > 1 && n <= S_AGENT_ROWS;
	char label[256];
	int width = 5;
	size_t ntests = 0;

	for (size_t k = 0; k < n; k++)
		width = LST_MAX(width, LST_MIN((int)strlen(s_point_text(&r->points[idx[k]], several,
									label, sizeof(label))),
					       S_LABEL_MAX));
	for (size_t i = 0; agents && i < r->nagents; i++)
		width = LST_MAX(width, LST_MIN((int)strlen(r->agents[i].name) + 8, S_LABEL_MAX));
	printf("\nphase %s", ph->name);
	if (*ph->suite)
		printf(" (%s)", ph->suite);
	printf(": %zu point%s", n, n == 1 ? "" : "s");
	if (rows_all > n)
		printf(" at %s last round (%zu rows in summary.csv)", n == 1 ? "its" : "their",
		       rows_all);
	if (ph->partial)
		printf(", partial (an agent was lost)");
	printf("\n");
	if (n) {
		printf("  %-*s", width, several ? "TEST / POINT" : "POINT");
		if (rounds)
			printf(" %6s", "ROUND");
		printf(" %10s %9s %9s %10s %10s\n", "IOPS", "MB/s", "MEAN us", "P99 us",
		       "P99.99 us");
	}
	for (size_t k = 0; k < n; k++) {
		const struct lst_rpt_point *p = &r->points[idx[k]];

		if (k == S_ROWS_MAX) {
			printf("  ... %zu more points (all of them: summary.csv, or --json)\n",
			       n - k);
			break;
		}
		s_point_text(p, several, label, sizeof(label));
		s_print_point(p, label, rounds ? p->round : -1, width);
		for (size_t i = 0; agents && i < r->npoints; i++) {
			const struct lst_rpt_point *q = &r->points[i];

			if (q->point != p->point || strcmp(q->phase, p->phase) ||
			    !strcmp(q->agent, "all"))
				continue;
			snprintf(label, sizeof(label), "  agent %s", q->agent);
			s_print_point(q, label, rounds ? 0 : -1, width);
		}
	}
	for (size_t i = 0; i < r->ntests; i++) {
		const struct lst_rpt_test *t = &r->tests[i];
		char v[512];

		if (strcmp(t->phase, ph->name))
			continue;
		if (!ntests++)
			printf("  steady state:\n");
		s_verdict(t, v, sizeof(v));
		printf("    %s%s%s%s%s: %s\n", *t->test ? "test " : "", t->test,
		       *t->tracked ? (*t->test ? " (" : "") : "", t->tracked,
		       *t->tracked && *t->test ? ")" : "", v);
	}
}

static void s_print_matrix(const struct lst_rpt_matrix *m)
{
	printf("\nIOPS matrix, phase %s (%s; rows block size, columns read/write %%)\n",
	       *m->phase ? m->phase : "?", m->file);
	printf("  %-9s", "BS");
	for (size_t k = 0; k < m->nmix; k++)
		printf(" %9s", m->mix[k]);
	printf("\n");
	for (size_t i = 0; i < m->nbs; i++) {
		char bs[32], v[32];

		printf("  %-9s", lst_report_bs(m->bs[i], bs, sizeof(bs)));
		for (size_t k = 0; k < m->nmix; k++)
			printf(" %9s", s_fmt(m->iops[i * m->nmix + k], "%.0f", v, sizeof(v)));
		printf("\n");
	}
}

static void s_print_run(const lst_report *r)
{
	json_t *versions = json_object_get(r->run, "versions");
	json_t *targets = json_object_get(r->run, "targets"), *t;
	json_t *errors = json_object_get(r->run, "errors"), *e;
	const char *key;
	json_t *v;
	size_t i;
	bool first = true;

	printf("run          %s\n", r->run_id);
	printf("folder       %s\n", r->dir);
	printf("plan         %s%s%s%s\n", *r->plan_name ? r->plan_name : "?",
	       *r->plan_file ? " (" : "", r->plan_file, *r->plan_file ? ")" : "");
	printf("status       %s%s%s%s%s\n", *r->status ? r->status : "running or stopped",
	       *r->started ? ", started " : "", r->started, *r->finished ? ", finished " : "",
	       r->finished);
	printf("coordinator  %s", *r->coordinator ? r->coordinator : "?");
	json_object_foreach (versions, key, v) {
		char *text = json_dumps(v, JSON_ENCODE_ANY);

		printf("%s %s %s", first ? ";" : ",", key,
		       json_is_string(v) ? json_string_value(v)
		       : text		 ? text
					 : "?");
		free(text);
		first = false;
	}
	printf("\n\nagents\n  %-12s %-20s %-9s %5s %16s %10s  %s\n", "NAME", "HOST", "VERSION",
	       "CORES", "CLOCK_OFFSET_US", "RTT_US", "ADDRESS");
	for (i = 0; i < r->nagents; i++) {
		const struct lst_rpt_agent *a = &r->agents[i];
		char off[32], rtt[32], cores[16];

		printf("  %-12s %-20s %-9s %5s %16s %10s  %s%s%s%s\n", a->name,
		       *a->host ? a->host : "-", *a->version ? a->version : "-",
		       a->cores >= 0 ? (snprintf(cores, sizeof(cores), "%ld", a->cores), cores)
				     : "-",
		       s_fmt(a->clock_offset_us, "%+.3f", off, sizeof(off)),
		       s_fmt(a->rtt_us, "%.1f", rtt, sizeof(rtt)), a->address,
		       a->lost ? "  LOST" : "", a->lost && *a->lost_why ? ": " : "",
		       a->lost ? a->lost_why : "");
	}
	printf("\ntargets\n");
	json_array_foreach (targets, i, t) {
		json_t *paths = json_object_get(t, "paths"), *p,
		       *ids = json_object_get(t, "identities");
		const char *share = json_string_value(json_object_get(t, "share"));
		json_t *size = json_object_get(t, "size");
		char sz[32];
		size_t k;

		printf("  %s (%s%s%s):", s_or(json_string_value(json_object_get(t, "name"))),
		       share ? share : "?", json_is_integer(size) ? ", " : "",
		       json_is_integer(size)
			       ? lst_fmt_size((uint64_t)json_integer_value(size), sz, sizeof(sz))
			       : "");
		json_array_foreach (paths, k, p)
			printf("%s %s %s", k ? "," : "",
			       s_or(json_string_value(json_object_get(p, "agent"))),
			       s_or(json_string_value(json_object_get(p, "path"))));
		printf("\n");
		json_array_foreach (ids, k, p) {
			static const char *const keys[] = { "model", "serial", "firmware", "wwn",
							    "vendor" };
			bool any = false;

			for (size_t j = 0; j < LST_ARRAY_SIZE(keys); j++) {
				const char *s = json_string_value(json_object_get(p, keys[j]));

				if (!s || !*s)
					continue;
				printf("%s%s %s", any ? ", " : "    ", keys[j], s);
				if (!any)
					any = true;
			}
			if (any)
				printf(" (%s)\n",
				       s_or(json_string_value(json_object_get(p, "path"))));
		}
	}
	if (json_array_size(errors)) {
		printf("\nerrors (%zu)\n", json_array_size(errors));
		json_array_foreach (errors, i, e) {
			char *text = json_is_string(e) ? NULL : json_dumps(e, JSON_COMPACT);

			printf("  - %s\n", json_is_string(e) ? json_string_value(e) : text);
			free(text);
		}
	}
}

static void s_print_plots(const char *outdir, const struct lst_plot_list *l, int rc,
			  const lst_err *err)
{
	size_t drawn = 0;

	for (size_t i = 0; i < l->n; i++)
		drawn += l->drawn[i];
	printf("\nplots: %zu drawn in %s", drawn, outdir);
	if (rc == -ENOENT)
		printf(" (skipped: gnuplot not found; %zu scripts written)", l->n);
	else if (rc && l->n > drawn)
		printf(" (%zu failed: %s)", l->n - drawn, err->msg);
	else if (rc)
		printf(" (%s)", err->msg);
	printf("\n");
	for (size_t i = 0; i < l->n; i++)
		printf("  %s.%s\n", l->names[i], l->drawn[i] ? "svg .png .gp" : "gp");
}

/* --- JSON ------------------------------------------------------------------------------------ */

static json_t *s_point_json(const struct lst_rpt_point *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "point", json_integer(p->point));
	json_object_set_new(o, "label", json_string(p->label));
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "agent", json_string(p->agent));
	json_object_set_new(o, "test", s_jstr(p->test));
	json_object_set_new(o, "round", p->round ? json_integer(p->round) : json_null());
	json_object_set_new(o, "t_s", lst_report_json_num(p->t_s));
	json_object_set_new(o, "duration_s", lst_report_json_num(p->duration_s));
	json_object_set_new(o, "iops", lst_report_json_num(p->iops[0] + p->iops[1]));
	json_object_set_new(o, "read_iops", lst_report_json_num(p->iops[0]));
	json_object_set_new(o, "write_iops", lst_report_json_num(p->iops[1]));
	json_object_set_new(o, "mbps", lst_report_json_num(p->mbps[0] + p->mbps[1]));
	json_object_set_new(o, "lat_mean_us", lst_report_json_num(p->lat_mean));
	json_object_set_new(o, "lat_p50_us", lst_report_json_num(p->lat_p50));
	json_object_set_new(o, "lat_p99_us", lst_report_json_num(p->lat_p99));
	json_object_set_new(o, "lat_p99_9_us", lst_report_json_num(p->lat_p99_9));
	json_object_set_new(o, "lat_p99_99_us", lst_report_json_num(p->lat_p99_99));
	json_object_set_new(o, "lat_max_us", lst_report_json_num(p->lat_max));
	json_object_set_new(o, "errors", lst_report_json_num(p->errors));
	json_object_set_new(o, "partial", json_boolean(p->partial));
	return o;
}

static json_t *s_test_json(const struct lst_rpt_test *t)
{
	json_t *o = json_object();
	char v[512];

	s_verdict(t, v, sizeof(v));
	json_object_set_new(o, "test", json_string(t->test));
	json_object_set_new(o, "suite", s_jstr(t->suite));
	json_object_set_new(o, "tracked", s_jstr(t->tracked));
	json_object_set_new(o, "steady", json_boolean(t->steady));
	json_object_set_new(o, "steady_required", json_boolean(t->required));
	json_object_set_new(o, "max_rounds_hit", json_boolean(t->max_rounds_hit));
	json_object_set_new(o, "rounds", json_integer(t->rounds));
	json_object_set_new(o, "window", json_integer(t->window));
	json_object_set_new(o, "window_first",
			    t->window_first ? json_integer(t->window_first) : json_null());
	json_object_set_new(o, "window_last",
			    t->window_last ? json_integer(t->window_last) : json_null());
	json_object_set_new(o, "average", lst_report_json_num(t->average));
	json_object_set_new(o, "min", lst_report_json_num(t->min));
	json_object_set_new(o, "max", lst_report_json_num(t->max));
	json_object_set_new(o, "data_excursion_pct", lst_report_json_num(t->data_pct));
	json_object_set_new(o, "data_excursion_limit_pct", lst_report_json_num(t->data_limit));
	json_object_set_new(o, "slope_excursion_pct", lst_report_json_num(t->slope_pct));
	json_object_set_new(o, "slope_excursion_limit_pct", lst_report_json_num(t->slope_limit));
	json_object_set_new(o, "slope", lst_report_json_num(t->slope));
	json_object_set_new(o, "verdict", json_string(v));
	return o;
}

static json_t *s_matrix_json(const struct lst_rpt_matrix *m)
{
	json_t *o = json_object(), *mixes = json_array(), *rows = json_array();

	for (size_t k = 0; k < m->nmix; k++)
		json_array_append_new(mixes, json_string(m->mix[k]));
	for (size_t i = 0; i < m->nbs; i++) {
		json_t *v = json_array();

		for (size_t k = 0; k < m->nmix; k++)
			json_array_append_new(v, lst_report_json_num(m->iops[i * m->nmix + k]));
		json_array_append_new(rows, json_pack("{s:f, s:o}", "bs", m->bs[i], "iops", v));
	}
	json_object_set_new(o, "phase", s_jstr(m->phase));
	json_object_set_new(o, "file", json_string(m->file));
	json_object_set_new(o, "mixes", mixes);
	json_object_set_new(o, "rows", rows);
	return o;
}

static json_t *s_plots_json(const char *outdir, const struct lst_plot_list *l, int rc,
			    const lst_err *err, bool asked)
{
	json_t *o = json_object(), *drawn = json_array(), *scripts = json_array();

	for (size_t i = 0; l && i < l->n; i++)
		json_array_append_new(l->drawn[i] ? drawn : scripts, json_string(l->names[i]));
	json_object_set_new(o, "dir", outdir ? json_string(outdir) : json_null());
	json_object_set_new(o, "drawn", drawn);
	json_object_set_new(o, "scripts_only", scripts);
	json_object_set_new(o, "problem",
			    !asked ? json_string("--no-plots")
			    : rc   ? json_string(err->msg)
				   : json_null());
	return o;
}

static json_t *s_report_json(const lst_report *r, size_t *idx)
{
	json_t *o = json_object(), *agents = json_array(), *phases = json_array();

	json_object_set_new(o, "dir", json_string(r->dir));
	json_object_set_new(o, "run_id", json_string(r->run_id));
	json_object_set_new(o, "plan_name", s_jstr(r->plan_name));
	json_object_set_new(o, "plan_file", s_jstr(r->plan_file));
	json_object_set_new(o, "status", s_jstr(r->status));
	json_object_set_new(o, "started", s_jstr(r->started));
	json_object_set_new(o, "finished", s_jstr(r->finished));
	json_object_set_new(o, "coordinator", s_jstr(r->coordinator));
	json_object_set(o, "versions", s_jor(json_object_get(r->run, "versions")));
	for (size_t i = 0; i < r->nagents; i++) {
		const struct lst_rpt_agent *a = &r->agents[i];

		json_array_append_new(
			agents,
			json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "name", a->name,
				  "address", s_jstr(a->address), "host", s_jstr(a->host), "version",
				  s_jstr(a->version), "cores",
				  a->cores >= 0 ? json_integer(a->cores) : json_null(),
				  "clock_offset_us", lst_report_json_num(a->clock_offset_us),
				  "rtt_us", lst_report_json_num(a->rtt_us), "lost", a->lost,
				  "lost_why", s_jstr(a->lost_why)));
	}
	json_object_set_new(o, "agents", agents);
	json_object_set(o, "targets", s_jor(json_object_get(r->run, "targets")));
	json_object_set(o, "errors", s_jor(json_object_get(r->run, "errors")));
	for (size_t i = 0; i < r->nphases; i++) {
		const struct lst_rpt_phase *ph = &r->phases[i];
		json_t *p = json_object(), *points = json_array(), *tests = json_array();
		size_t rows_all, n = lst_report_shown(r, ph->name, idx, &rows_all);

		for (size_t k = 0; k < n; k++) {
			const struct lst_rpt_point *pt = &r->points[idx[k]];
			json_t *pj = s_point_json(pt), *per = json_array();

			for (size_t j = 0; j < r->npoints; j++) {
				const struct lst_rpt_point *q = &r->points[j];

				if (q->point == pt->point && !strcmp(q->phase, pt->phase) &&
				    strcmp(q->agent, "all"))
					json_array_append_new(per, s_point_json(q));
			}
			json_object_set_new(pj, "agents", per);
			json_array_append_new(points, pj);
		}
		for (size_t k = 0; k < r->ntests; k++)
			if (!strcmp(r->tests[k].phase, ph->name))
				json_array_append_new(tests, s_test_json(&r->tests[k]));
		json_object_set_new(p, "phase", json_string(ph->name));
		json_object_set_new(p, "suite", s_jstr(ph->suite));
		json_object_set_new(p, "partial", json_boolean(ph->partial));
		json_object_set_new(p, "rows", json_integer((json_int_t)rows_all));
		json_object_set_new(p, "points", points);
		json_object_set_new(p, "tests", tests);
		json_array_append_new(phases, p);
	}
	json_object_set_new(o, "phases", phases);
	{
		json_t *mx = json_array();

		for (size_t i = 0; i < r->nmatrices; i++)
			json_array_append_new(mx, s_matrix_json(&r->matrices[i]));
		json_object_set_new(o, "matrices", mx);
	}
	return o;
}

static int s_print_json(json_t *o)
{
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));

	if (!text)
		return -ENOMEM;
	printf("%s\n", text);
	free(text);
	return 0;
}

/* --- one folder ------------------------------------------------------------------------------ */

static int s_report_one(const struct s_args *a)
{
	struct lst_plot_list made = { 0 };
	lst_report *r;
	char *outdir = NULL;
	size_t *idx;
	lst_err err, perr = { 0 };
	int prc = 0, rc = 0;

	r = lst_report_load(a->dirs[0], lst_report_plan_read, &err);
	if (!r) {
		lst_log_error("report: %s", err.msg);
		return 2;
	}
	idx = lst_calloc(r->npoints + 1, sizeof(*idx));
	if (a->plots) {
		outdir = a->out ? lst_strdup(a->out) : lst_asprintf("%s/plots", r->dir);
		prc = lst_plot_report(r, outdir, &made, &perr);
		if (prc == -ENOENT)
			lst_log_warn("plots skipped: %s", perr.msg);
		else if (prc)
			lst_log_warn("some plots were not drawn: %s", perr.msg);
	}
	if (a->json) {
		json_t *o = s_report_json(r, idx);

		json_object_set_new(o, "plots", s_plots_json(outdir, &made, prc, &perr, a->plots));
		rc = s_print_json(o);
		json_decref(o);
	} else {
		s_print_run(r);
		for (size_t i = 0; i < r->nphases; i++)
			s_print_phase(r, &r->phases[i], idx);
		for (size_t i = 0; i < r->nmatrices; i++)
			s_print_matrix(&r->matrices[i]);
		if (a->plots)
			s_print_plots(outdir, &made, prc, &perr);
	}
	if (fflush(stdout) && !rc)
		rc = -EIO;
	if (rc)
		lst_log_error("report: writing the report failed");
	lst_plot_list_free(&made);
	free(outdir);
	free(idx);
	lst_report_destroy(&r);
	return rc ? 2 : 0;
}

/* --- two folders ----------------------------------------------------------------------------- */

struct s_pair {
	const struct lst_rpt_point *a, *b; /* either may be NULL */
};

static const char *const s_stats[] = { "iops", "mbps", "lat_mean_us", "lat_p99_us",
				       "lat_p99_99_us" };
#define S_NSTATS LST_ARRAY_SIZE(s_stats)

static double s_stat(const struct lst_rpt_point *p, size_t s)
{
	if (!p)
		return NAN;
	switch (s) {
	case 0:
		return p->iops[0] + p->iops[1];
	case 1:
		return p->mbps[0] + p->mbps[1];
	case 2:
		return p->lat_mean;
	case 3:
		return p->lat_p99;
	default:
		return p->lat_p99_99;
	}
}

/* Points of both runs matched by (phase, test, label): the first run's order, then the rest. */
static struct s_pair *s_pairs(const lst_report *a, const lst_report *b, size_t *n)
{
	size_t *ia = lst_calloc(a->npoints + 1, sizeof(*ia));
	size_t *ib = lst_calloc(b->npoints + 1, sizeof(*ib));
	struct s_pair *pairs = lst_calloc(a->npoints + b->npoints + 1, sizeof(*pairs));
	size_t na = 0, nb = 0, rows;
	bool *used;

	for (size_t i = 0; i < a->nphases; i++)
		na += lst_report_shown(a, a->phases[i].name, ia + na, &rows);
	for (size_t i = 0; i < b->nphases; i++)
		nb += lst_report_shown(b, b->phases[i].name, ib + nb, &rows);
	used = lst_calloc(nb + 1, sizeof(*used));
	*n = 0;
	for (size_t i = 0; i < na; i++) {
		const struct lst_rpt_point *p = &a->points[ia[i]];
		struct s_pair *pr = &pairs[(*n)++];

		pr->a = p;
		for (size_t k = 0; k < nb && !pr->b; k++) {
			const struct lst_rpt_point *q = &b->points[ib[k]];

			if (!used[k] && !strcmp(p->phase, q->phase) && !strcmp(p->test, q->test) &&
			    !strcmp(p->name, q->name)) {
				pr->b = q;
				used[k] = true;
			}
		}
	}
	for (size_t k = 0; k < nb; k++)
		if (!used[k])
			pairs[(*n)++].b = &b->points[ib[k]];
	free(used);
	free(ia);
	free(ib);
	return pairs;
}

static const char *s_match(const struct s_pair *p)
{
	return p->a && p->b ? "both" : p->a ? "a_only" : "b_only";
}

/* A row's name: [phase / ] the point as s_point_text names it, and which run lacks it. */
static void s_pair_label(const struct s_pair *pairs, size_t n, size_t i, bool phase, char *buf,
			 size_t size)
{
	const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;
	bool several = false;
	char text[256];

	for (size_t k = 0; k < n && !several; k++) {
		const struct lst_rpt_point *q = pairs[k].a ? pairs[k].a : pairs[k].b;

		several = !strcmp(q->phase, p->phase) && strcmp(q->test, p->test);
	}
	snprintf(buf, size, "%s%s%s%s", phase ? p->phase : "", phase ? " / " : "",
		 s_point_text(p, several, text, sizeof(text)),
		 pairs[i].a && pairs[i].b ? ""
		 : pairs[i].a		  ? " (only A)"
					  : " (only B)");
}

static void s_csv_num(FILE *f, double v, const char *fmt)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, fmt, v);
}

static int s_write_csv(const char *path, const struct s_pair *pairs, size_t n, lst_err *err)
{
	FILE *f = fopen(path, "w");
	bool bad;

	if (!f)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	fputs("phase,test,label,match", f);
	for (size_t s = 0; s < S_NSTATS; s++)
		fprintf(f, ",%s_a,%s_b,%s_change_pct", s_stats[s], s_stats[s], s_stats[s]);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;

		lst_csv_put(f, p->phase);
		fputc(',', f);
		lst_csv_put(f, p->test);
		fputc(',', f);
		lst_csv_put(f, p->name);
		fprintf(f, ",%s", s_match(&pairs[i]));
		for (size_t s = 0; s < S_NSTATS; s++) {
			double va = s_stat(pairs[i].a, s), vb = s_stat(pairs[i].b, s);

			s_csv_num(f, va, "%.3f");
			s_csv_num(f, vb, "%.3f");
			s_csv_num(f, s_change(va, vb), "%.2f");
		}
		fputc('\n', f);
	}
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

static const char *s_pct(double v, char *buf, size_t size)
{
	return s_fmt(v, "%+.1f%%", buf, size);
}

/* Matrix cell ratio b/a for the same block size and mix; NAN when either lacks it. */
static double s_matrix_ratio(const struct lst_rpt_matrix *ma, const struct lst_rpt_matrix *mb,
			     size_t i, size_t k)
{
	for (size_t j = 0; j < mb->nbs; j++) {
		if (mb->bs[j] != ma->bs[i])
			continue;
		for (size_t c = 0; c < mb->nmix; c++)
			if (!strcmp(mb->mix[c], ma->mix[k])) {
				double va = ma->iops[i * ma->nmix + k],
				       vb = mb->iops[j * mb->nmix + c];

				return va > 0 && isfinite(vb) ? vb / va : NAN;
			}
	}
	return NAN;
}

static int s_write_md(const char *path, const lst_report *a, const lst_report *b, const char *na,
		      const char *nb, const struct s_pair *pairs, size_t n, lst_err *err)
{
	FILE *f = fopen(path, "w");
	bool bad;

	if (!f)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	fprintf(f, "# %s compared with %s\n\n", nb, na);
	fprintf(f, "- A: `%s`, run %s, plan %s, %s\n", a->dir, a->run_id, a->plan_name,
		*a->status ? a->status : "not finished");
	fprintf(f, "- B: `%s`, run %s, plan %s, %s\n\n", b->dir, b->run_id, b->plan_name,
		*b->status ? b->status : "not finished");
	fputs("Change = (B - A) / A. Points are matched by phase, test and label; suite points "
	      "show their last round. Latency in µs.\n\n",
	      f);
	fputs("| phase | point | IOPS A | IOPS B | change | mean A | mean B | change | p99 A | p99 B "
	      "| change | p99.99 A | p99.99 B | change |\n",
	      f);
	fputs("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;
		static const size_t cols[] = { 0, 2, 3, 4 };
		char label[256];

		s_pair_label(pairs, n, i, false, label, sizeof(label));
		fputc('|', f);
		lst_md_cell(f, p->phase);
		lst_md_cell(f, label);
		for (size_t c = 0; c < LST_ARRAY_SIZE(cols); c++) {
			double va = s_stat(pairs[i].a, cols[c]), vb = s_stat(pairs[i].b, cols[c]);
			char x[32], y[32], z[32];

			fprintf(f, " %s | %s | %s |", s_fmt(va, c ? "%.1f" : "%.0f", x, sizeof(x)),
				s_fmt(vb, c ? "%.1f" : "%.0f", y, sizeof(y)),
				s_pct(s_change(va, vb), z, sizeof(z)));
		}
		fputc('\n', f);
	}
	for (size_t j = 0; j < a->nmatrices; j++) {
		const struct lst_rpt_matrix *m = &a->matrices[j];
		const struct lst_rpt_matrix *mb = lst_report_matrix(b, m->phase);

		if (!mb)
			continue;
		fprintf(f, "\n## IOPS matrix of phase %s, B / A\n\n| block size |",
			*m->phase ? m->phase : "?");
		for (size_t k = 0; k < m->nmix; k++)
			fprintf(f, " %s |", m->mix[k]);
		fputs("\n|---|", f);
		for (size_t k = 0; k < m->nmix; k++)
			fputs("--:|", f);
		fputc('\n', f);
		for (size_t i = 0; i < m->nbs; i++) {
			char bs[32], v[32];

			fprintf(f, "| %s |", lst_report_bs(m->bs[i], bs, sizeof(bs)));
			for (size_t k = 0; k < m->nmix; k++)
				fprintf(f, " %s |",
					s_fmt(s_matrix_ratio(m, mb, i, k), "%.2f", v, sizeof(v)));
			fputc('\n', f);
		}
	}
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

static int s_write_matrix_csv(const char *path, const struct lst_rpt_matrix *m,
			      const struct lst_rpt_matrix *mb, lst_err *err)
{
	FILE *f = fopen(path, "w");
	bool bad;

	if (!f)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	fputs("bs", f);
	for (size_t k = 0; k < m->nmix; k++) {
		fputc(',', f);
		lst_csv_put(f, m->mix[k]);
	}
	fputc('\n', f);
	for (size_t i = 0; i < m->nbs; i++) {
		fprintf(f, "%.0f", m->bs[i]);
		for (size_t k = 0; k < m->nmix; k++)
			s_csv_num(f, s_matrix_ratio(m, mb, i, k), "%.4f");
		fputc('\n', f);
	}
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

static void s_print_compare(const lst_report *a, const lst_report *b, const char *na,
			    const char *nb, const struct s_pair *pairs, size_t n)
{
	int width = 12;

	printf("A  %s: run %s, plan %s\n", na, a->run_id, *a->plan_name ? a->plan_name : "?");
	printf("B  %s: run %s, plan %s\n", nb, b->run_id, *b->plan_name ? b->plan_name : "?");
	printf("change = (B - A) / A; latency in us\n\n");
	for (size_t i = 0; i < n; i++) {
		char label[320];

		s_pair_label(pairs, n, i, true, label, sizeof(label));
		width = LST_MAX(width, LST_MIN((int)strlen(label), S_LABEL_MAX + 16));
	}
	printf("%-*s %9s %9s %7s %8s %8s %7s %8s %8s %7s %9s %9s %7s\n", width, "PHASE / POINT",
	       "IOPS A", "IOPS B", "CHANGE", "MEAN A", "MEAN B", "CHANGE", "P99 A", "P99 B",
	       "CHANGE", "P99.99 A", "P99.99 B", "CHANGE");
	for (size_t i = 0; i < n; i++) {
		static const size_t cols[] = { 0, 2, 3, 4 };
		static const int w[] = { 9, 8, 8, 9 };
		char label[320];

		s_pair_label(pairs, n, i, true, label, sizeof(label));
		printf("%-*.*s", width, width, label);
		for (size_t c = 0; c < LST_ARRAY_SIZE(cols); c++) {
			double va = s_stat(pairs[i].a, cols[c]), vb = s_stat(pairs[i].b, cols[c]);
			char x[32], y[32], z[32];

			printf(" %*s %*s %7s", w[c], s_fmt(va, c ? "%.1f" : "%.0f", x, sizeof(x)),
			       w[c], s_fmt(vb, c ? "%.1f" : "%.0f", y, sizeof(y)),
			       s_pct(s_change(va, vb), z, sizeof(z)));
		}
		printf("\n");
	}
	for (size_t j = 0; j < a->nmatrices; j++) {
		const struct lst_rpt_matrix *m = &a->matrices[j];
		const struct lst_rpt_matrix *mb = lst_report_matrix(b, m->phase);

		if (!mb)
			continue;
		printf("\nIOPS matrix of phase %s, B / A (rows block size, columns read/write %%)\n"
		       "  %-9s",
		       *m->phase ? m->phase : "?", "BS");
		for (size_t k = 0; k < m->nmix; k++)
			printf(" %7s", m->mix[k]);
		printf("\n");
		for (size_t i = 0; i < m->nbs; i++) {
			char bs[32], v[32];

			printf("  %-9s", lst_report_bs(m->bs[i], bs, sizeof(bs)));
			for (size_t k = 0; k < m->nmix; k++)
				printf(" %7s",
				       s_fmt(s_matrix_ratio(m, mb, i, k), "%.2f", v, sizeof(v)));
			printf("\n");
		}
	}
}

static json_t *s_compare_json(const lst_report *a, const lst_report *b, const char *na,
			      const char *nb, const struct s_pair *pairs, size_t n)
{
	json_t *o = json_object(), *rows = json_array();

	json_object_set_new(
		o, "a",
		json_pack("{s:s, s:s, s:s}", "name", na, "dir", a->dir, "run_id", a->run_id));
	json_object_set_new(
		o, "b",
		json_pack("{s:s, s:s, s:s}", "name", nb, "dir", b->dir, "run_id", b->run_id));
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;
		json_t *row =
			json_pack("{s:s, s:o, s:s, s:s}", "phase", p->phase, "test",
				  s_jstr(p->test), "label", p->label, "match", s_match(&pairs[i]));

		for (size_t s = 0; s < S_NSTATS; s++) {
			double va = s_stat(pairs[i].a, s), vb = s_stat(pairs[i].b, s);
			char key[64];

			snprintf(key, sizeof(key), "%s_a", s_stats[s]);
			json_object_set_new(row, key, lst_report_json_num(va));
			snprintf(key, sizeof(key), "%s_b", s_stats[s]);
			json_object_set_new(row, key, lst_report_json_num(vb));
			snprintf(key, sizeof(key), "%s_change_pct", s_stats[s]);
			json_object_set_new(row, key, lst_report_json_num(s_change(va, vb)));
		}
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "points", rows);
	json_object_set_new(o, "matrix_ratios", json_array());
	for (size_t j = 0; j < a->nmatrices; j++) {
		const struct lst_rpt_matrix *m = &a->matrices[j];
		const struct lst_rpt_matrix *mb = lst_report_matrix(b, m->phase);
		json_t *mx, *mixes, *mrows;

		if (!mb)
			continue;
		mx = json_object();
		mixes = json_array();
		mrows = json_array();
		for (size_t k = 0; k < m->nmix; k++)
			json_array_append_new(mixes, json_string(m->mix[k]));
		for (size_t i = 0; i < m->nbs; i++) {
			json_t *v = json_array();

			for (size_t k = 0; k < m->nmix; k++)
				json_array_append_new(
					v, lst_report_json_num(s_matrix_ratio(m, mb, i, k)));
			json_array_append_new(mrows,
					      json_pack("{s:f, s:o}", "bs", m->bs[i], "ratio", v));
		}
		json_object_set_new(mx, "phase", s_jstr(m->phase));
		json_object_set_new(mx, "mixes", mixes);
		json_object_set_new(mx, "rows", mrows);
		json_array_append_new(json_object_get(o, "matrix_ratios"), mx);
	}
	return o;
}

static int s_compare(const struct s_args *a)
{
	struct lst_plot_list made = { 0 };
	lst_report *ra, *rb = NULL;
	char *na = NULL, *nb = NULL, *out = NULL, *path;
	struct s_pair *pairs = NULL;
	lst_err err, perr = { 0 };
	size_t n = 0, nmatrix = 0;
	int rc = 2, prc = 0;

	ra = lst_report_load(a->dirs[0], lst_report_plan_read, &err);
	if (ra)
		rb = lst_report_load(a->dirs[1], lst_report_plan_read, &err);
	if (!ra || !rb) {
		lst_log_error("report: %s", err.msg);
		goto free_reports;
	}
	na = s_basename(ra->dir);
	nb = s_basename(rb->dir);
	out = a->out ? lst_strdup(a->out) : lst_asprintf("%s/compare-%s", rb->dir, na);
	if (!strcmp(na, nb)) {
		char *x = lst_asprintf("A %s", na), *y = lst_asprintf("B %s", nb);

		free(na);
		free(nb);
		na = x;
		nb = y;
	}
	if ((prc = lst_mkdir_p(out))) {
		lst_err_sys(&err, prc, "cannot create %s", out);
		lst_log_error("report: %s", err.msg);
		goto free_reports;
	}
	pairs = s_pairs(ra, rb, &n);
	path = lst_asprintf("%s/compare.csv", out);
	prc = s_write_csv(path, pairs, n, &err);
	free(path);
	if (!prc) {
		path = lst_asprintf("%s/compare.md", out);
		prc = s_write_md(path, ra, rb, na, nb, pairs, n, &err);
		free(path);
	}
	for (size_t j = 0; !prc && j < ra->nmatrices; j++) {
		const struct lst_rpt_matrix *m = &ra->matrices[j];
		const struct lst_rpt_matrix *mb = lst_report_matrix(rb, m->phase);
		char slug[128];

		if (!mb)
			continue;
		lst_plot_slug(m->phase, slug, sizeof(slug));
		path = lst_asprintf("%s/compare_matrix-%s.csv", out, slug);
		prc = s_write_matrix_csv(path, m, mb, &err);
		free(path);
		nmatrix++;
	}
	if (prc) {
		lst_log_error("report: %s", err.msg);
		goto free_reports;
	}
	prc = 0;
	if (a->plots) {
		prc = lst_plot_compare(ra, rb, na, nb, out, &made, &perr);
		if (prc == 1)
			lst_log_warn("no latency-vs-IOPS points in either run: no overlay plot");
		else if (prc == -ENOENT)
			lst_log_warn("plots skipped: %s", perr.msg);
		else if (prc)
			lst_log_warn("the overlay plot was not drawn: %s", perr.msg);
	}
	if (a->json) {
		json_t *o = s_compare_json(ra, rb, na, nb, pairs, n);

		json_object_set_new(o, "dir", json_string(out));
		json_object_set_new(o, "plots",
				    s_plots_json(out, &made, prc < 0 ? prc : 0, &perr, a->plots));
		rc = s_print_json(o) ? 2 : 0;
		json_decref(o);
	} else {
		s_print_compare(ra, rb, na, nb, pairs, n);
		printf("\nwritten: %s/compare.csv, %s/compare.md%s\n", out, out,
		       nmatrix ? ", compare_matrix-PHASE.csv" : "");
		if (a->plots && prc != 1)
			s_print_plots(out, &made, prc, &perr);
		rc = 0;
	}
	if (fflush(stdout)) {
		lst_log_error("report: writing the report failed");
		rc = 2;
	}
free_reports:
	lst_plot_list_free(&made);
	free(pairs);
	free(out);
	free(na);
	free(nb);
	lst_report_destroy(&ra);
	lst_report_destroy(&rb);
	return rc;
}

int lst_cmd_report(int argc, char **argv)
{
	struct s_args a;
	int rc = s_parse_args(argc, argv, &a);

	if (rc)
		return rc > 0 ? 0 : 2;
	return a.ndirs == 2 ? s_compare(&a) : s_report_one(&a);
}
