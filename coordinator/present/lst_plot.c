/*
 * Plots: the plot families (latency vs IOPS, timeseries, steady state, WSAT, HIR, two runs
 * compared), gnuplot scripts with their data inline; the bar charts (IOPS matrix, port scaling)
 * are in lst_plot_bars.c.
 *
 * Each plot is made in three steps: gather its series from the lst_report (grouping, sorting,
 * thinning long timeseries), write NAME.gp (datablocks first, then one pass per output format
 * that sets the terminal and draws), and run gnuplot on it in the output folder. A plot that
 * fails is reported and the others are still drawn; plots never decide a run's outcome.
 *
 * The fixed text of each family is a template in plots/ (lst_plot_tpl.h); the scripts' common
 * parts and the gnuplot process are in lst_plot_script.c.
 */
#include "lst_plot.h"
#include "lst_curves.h"
#include "lst_figures.h"
#include "lst_plot_int.h"
#include "lst_report_show.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_plot_tpl.h"
#include "lst_steady.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_TS_MAX_ROWS 4000   /* rows per timeseries line before thinning */
#define S_MIN_RUN 5	     /* rows between gaps for a timeseries line to break there */
#define S_MARK_MAX_POINTS 12 /* label the points of a timeseries up to this many */
#define S_TITLE_LINE 100     /* characters in a line of a title before it breaks */
#define S_SPLIT_POINTS 60    /* a suite test with more points gets a time series per round */
#define S_TS_COLS 8	     /* values of a timeseries row (s_bucket) */
#define S_TS_P99 5	     /* from here on they are p99s: a bucket keeps the highest */

/* --- curves: latency against IOPS ------------------------------------------------------------ */

/*
 * The percentile of the headline in a latency-vs-IOPS plot's title and of the crossing it
 * marks: one, so the figure a reader finds in the title is the one circled on the curve.
 */
#define S_HL_STAT LST_HL_P99

/* The statistics drawn (mean, p99, p99.99), their datablock columns and lst_curves indexes. */
static const char *const s_stat_names[] = { "mean", "p99", "p99.99" };
static const int s_stat_cols[] = { 2, 3, 5 };
static const enum lst_curve_stat s_stat_cv[] = { LST_CV_MEAN, LST_CV_P99, LST_CV_P99_99 };

/* Latency extent over curves (drawn statistic stat, or all three with -1), for the limit line. */
static void s_lat_extent(const struct lst_curves *cs, int stat, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < cs->n; i++)
		for (size_t k = 0; k < cs->c[i].n; k++)
			for (int s = 0; s < 3; s++) {
				double v = cs->c[i].p[k].lat[s_stat_cv[s]];

				if (stat >= 0 && s != stat)
					continue;
				if (v > 0 && v < *lo)
					*lo = v;
				if (v > *hi)
					*hi = v;
			}
}

static void s_curve_block(FILE *f, const char *var, const struct lst_curve *c, const char *name)
{
	fprintf(f, "%s << EOD\n", var);
	lst_plot__comment(f,
			  "%s: IOPS, then latency mean, p99, p99.9, p99.99 (us), point label, "
			  "read p99, write p99 (us)",
			  name);
	for (size_t k = 0; k < c->n; k++) {
		lst_plot__num(f, c->p[k].iops);
		for (int s = 0; s < LST_CV_N; s++)
			lst_plot__num(f, lst_plot__pos(c->p[k].lat[s]));
		fputc(' ', f);
		lst_plot__q(f, c->p[k].label);
		lst_plot__num(f, lst_plot__pos(c->p[k].lat_dir[0]));
		lst_plot__num(f, lst_plot__pos(c->p[k].lat_dir[1]));
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

/* Some point of c did both reads and writes (a 70/30 mix): its read and write p99 are drawn
 * as lines of their own, since the combined p99 hides which direction is slow. */
static bool s_curve_rw(const struct lst_curve *c)
{
	for (size_t k = 0; k < c->n; k++)
		if (c->p[k].lat_dir[0] > 0 && c->p[k].lat_dir[1] > 0)
			return true;
	return false;
}

/* A line at the latency limit when it is inside the latencies drawn (drawn statistic stat, or
 * all with -1). */
static void s_limit_line(FILE *f, const struct lst_curves *a, const struct lst_curves *b, int stat,
			 double limit)
{
	double lo, hi, lo2, hi2;
	char y[32], text[32], *label;

	lst_plot_tpl(f, "lat", "ms_reset", NULL);
	s_lat_extent(a, stat, &lo, &hi);
	if (b) {
		s_lat_extent(b, stat, &lo2, &hi2);
		lo = LST_MIN(lo, lo2);
		hi = LST_MAX(hi, hi2);
	}
	if (!(lo < limit && hi > limit))
		return;
	snprintf(y, sizeof(y), "%.7g", limit);
	label = lst_plot__qstr("%s", lst_headline_limit_text(limit, text, sizeof(text)));
	lst_plot_tpl(
		f, "lat", "ms_line",
		(const struct lst_tpl_arg[]){ { "y", y }, { "label", label }, { NULL, NULL } });
	free(label);
}

static void s_lat_axes(FILE *f)
{
	lst_plot_tpl(f, "lat", "axes", NULL);
}

/*
 * The interpolated crossing of the title's percentile (S_HL_STAT) of a curve with the limit, as
 * datablock var: IOPS, the limit, "p99 182k". Returns false (no block) when there is none.
 */
static bool s_cross_block(FILE *f, const char *var, const struct lst_headline *h)
{
	char v[32], *label;

	if (!h->interpolated[S_HL_STAT])
		return false;
	fprintf(f, "%s << EOD\n", var);
	lst_plot__comment(f,
			  "where the curve's %s crosses the limit (interpolated): IOPS, limit "
			  "(us), label",
			  lst_headline_stat_names[S_HL_STAT]);
	lst_plot__num(f, h->iops[S_HL_STAT]);
	lst_plot__num(f, h->limit_us);
	label = lst_asprintf("%s %s", lst_headline_stat_names[S_HL_STAT],
			     lst_plot__short_iops(h->iops[S_HL_STAT], v, sizeof(v)));
	fputc(' ', f);
	lst_plot__q(f, label);
	fputs("\nEOD\n", f);
	free(label);
	return true;
}

/* The latency-vs-IOPS plot of a run after its data blocks (plots/lat.gp); cross[i]: curve i
 * has a crossings block. */
static void s_lat_body(FILE *f, const struct lst_curves *cs, const bool *cross, double limit,
		       const char *title)
{
	char *qtitle = lst_plot__qstr("%s", title), *q;
	bool any = false, rw = false;

	lst_plot_tpl(f, "lat", "run_title",
		     (const struct lst_tpl_arg[]){ { "title", qtitle }, { NULL, NULL } });
	free(qtitle);
	s_lat_axes(f);
	s_limit_line(f, cs, NULL, -1, limit);
	q = lst_plot__qstr("%s", cs->n && !isnan(cs->c[0].jobs) ? "curve, its queue depths labelled"
								: "block size, mix");
	lst_plot_tpl(f, "lat", "run_key",
		     (const struct lst_tpl_arg[]){ { "keytitle", q }, { NULL, NULL } });
	free(q);
	for (size_t i = 0; i < cs->n; i++) {
		char idx[32], *qname = lst_plot__qstr("%s", cs->c[i].name);
		const struct lst_tpl_arg args[] = {
			{ "i", idx },
			{ "color", lst_plot__colors[i % lst_plot__ncolors] },
			{ "name", qname },
			{ NULL, NULL },
		};

		snprintf(idx, sizeof(idx), "%zu", i);
		lst_plot_tpl(f, "lat", "run_group", args);
		if (cs->c[i].n && *cs->c[i].p[0].label)
			lst_plot_tpl(f, "lat", "run_qd", args);
		if (s_curve_rw(&cs->c[i]))
			lst_plot_tpl(f, "lat", "run_rw", args);
		if (cross[i])
			lst_plot_tpl(f, "lat", "run_cross", args);
		any |= cross[i];
		rw |= s_curve_rw(&cs->c[i]);
		free(qname);
	}
	lst_plot_tpl(f, "lat", "run_stats", NULL);
	if (rw)
		lst_plot_tpl(f, "lat", "run_rw_key", NULL);
	if (any) {
		char text[32];

		q = lst_plot__qstr("%s crosses %s (interpolated)",
				   lst_headline_stat_names[S_HL_STAT],
				   lst_headline_limit_text(limit, text, sizeof(text)));
		lst_plot_tpl(f, "lat", "run_cross_key",
			     (const struct lst_tpl_arg[]){ { "cross", q }, { NULL, NULL } });
		free(q);
	} else {
		fputc('\n', f);
	}
}

/* The data blocks of the run plot: a curve each, and its crossings of the limit (cross[i];
 * hl: the curves' headlines, nhl of them, in the same order). */
static void s_lat_blocks(FILE *f, const struct lst_curves *cs, const struct lst_headline *hl,
			 size_t nhl, bool *cross)
{
	for (size_t i = 0; i < cs->n; i++) {
		char var[32];

		snprintf(var, sizeof(var), "$g%zu", i);
		s_curve_block(f, var, &cs->c[i], cs->c[i].name);
		snprintf(var, sizeof(var), "$x%zu", i);
		cross[i] = nhl == cs->n && s_cross_block(f, var, &hl[i]);
	}
}

/*
 * The title: the phase, the run, and the headline figure of each curve (up to 4) at the
 * percentile whose crossing the plot marks, "IOPS at p99 < 1 ms: 216k (jobs=1), 198k
 * (jobs=2)"; "none" when over from the first point, "> 245k" when never over; a bandwidth
 * curve's "MB/s max 7928".
 */
static void s_lat_title(const lst_report *r, const struct lst_rpt_phase *ph,
			const struct lst_headline *hl, size_t nhl, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "Latency vs IOPS — phase %s%s%s%s\n%s, run %s",
				      ph->name, *ph->suite ? " (" : "", ph->suite,
				      *ph->suite ? ")" : "", r->title, r->run_id);
	size_t line = len; /* where the current line starts */
	char lim[32], v[32], item[192];

	for (size_t i = 0; i < nhl && i < 4 && len < size; i++) {
		const struct lst_headline *h = &hl[i];
		double x = h->iops[S_HL_STAT];

		if (!i) {
			line = len + 1;
			len += (size_t)snprintf(
				buf + len, size - len,
				"\nIOPS at %s < %s:", lst_headline_stat_names[S_HL_STAT],
				lst_headline_limit_text(h->limit_us, lim, sizeof(lim)));
		}
		if (h->bandwidth)
			snprintf(v, sizeof(v), "MB/s max %.0f", h->mbps);
		snprintf(item, sizeof(item), "%s%s%s%s%s", h->all_under[S_HL_STAT] ? "> " : "",
			 h->bandwidth ? v
			 : isnan(x)   ? "none"
				      : lst_plot__short_iops(x, v, sizeof(v)),
			 *h->curve ? " (" : "", h->curve, *h->curve ? ")" : "");
		if (i && len - line + strlen(item) > S_TITLE_LINE) {
			line = len + 2;
			len += (size_t)snprintf(buf + len, size - len, ",\n%s", item);
		} else if (len < size) {
			len += (size_t)snprintf(buf + len, size - len, "%s %s", i ? "," : "", item);
		}
	}
	if (nhl > 4 && len < size)
		snprintf(buf + len, size - len, ", ... (lockstep report)");
}

static void s_plot_lat_vs_iops(struct lst_plot__ctx *c, const lst_report *r,
			       const struct lst_rpt_phase *ph)
{
	struct lst_curves cs = { 0 };
	size_t n = lst_curves_phase(r, ph->name, false, &cs);
	double limit = lst_headline_limit(r, ph->name, NULL);
	struct lst_headline *hl;
	const char *name;
	char title[768];
	bool *cross;
	size_t nhl;
	FILE *f;

	if (!n || (cs.from_summary && n < 2))
		goto free_curves;
	name = lst_plot__name(c, "lat_vs_iops", ph->name, NULL);
	f = lst_plot__script(c, name,
			     "latency against IOPS, one curve per thread count (or block size x "
			     "mix) and statistic");
	if (!f)
		goto free_curves;
	lst_plot__comment(f, "Points from %s, in order of demand (jobs x iodepth).",
			  cs.from_summary ? "summary.csv (agent all, last round of each point)"
					  : "curves.csv");
	cross = lst_calloc(cs.n + 1, sizeof(*cross));
	nhl = lst_figures_headlines(r, ph->name, limit, &hl);
	s_lat_blocks(f, &cs, hl, nhl, cross);
	lst_plot__begin(f, name, 1200, 750);
	s_lat_title(r, ph, hl, nhl, title, sizeof(title));
	s_lat_body(f, &cs, cross, limit, title);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
	free(cross);
	free(hl);
free_curves:
	lst_curves_free(&cs);
}

/* Index of s among the first n strings of v (n when absent). */
static size_t s_str_index(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return i;
	return n;
}

/* The per-path plot after its data blocks: p99 of every path's curve, a colour per path, a
 * dash per thread count. */
static void s_paths_body(FILE *f, const struct lst_curves *cs, double limit, const char *title)
{
	const char **parts = lst_calloc(cs->n + 1, sizeof(*parts));
	double *jobs = lst_calloc(cs->n + 1, sizeof(*jobs));
	size_t nparts = 0, njobs = 0;
	char *q = lst_plot__qstr("%s", title);

	lst_plot_tpl(f, "lat", "run_title",
		     (const struct lst_tpl_arg[]){ { "title", q }, { NULL, NULL } });
	free(q);
	s_lat_axes(f);
	lst_plot_tpl(f, "lat", "paths_xlabel", NULL);
	s_limit_line(f, cs, NULL, 1, limit);
	lst_plot_tpl(f, "lat", "paths_key", NULL);
	for (size_t i = 0; i < cs->n; i++) {
		const struct lst_curve *c = &cs->c[i];
		size_t pi = s_str_index(parts, nparts, c->part), ji = 0;
		char idx[32], dt[16], *qname = lst_plot__qstr("%s", c->name);

		if (pi == nparts)
			parts[nparts++] = c->part;
		while (ji < njobs && !(jobs[ji] == c->jobs || (isnan(c->jobs) && isnan(jobs[ji]))))
			ji++;
		if (ji == njobs)
			jobs[njobs++] = c->jobs;
		snprintf(idx, sizeof(idx), "%zu", i);
		snprintf(dt, sizeof(dt), "%zu", ji % 5 + 1);
		lst_plot_tpl(f, "lat", "paths_group",
			     (const struct lst_tpl_arg[]){
				     { "i", idx },
				     { "color", lst_plot__colors[pi % lst_plot__ncolors] },
				     { "dt", dt },
				     { "name", qname },
				     { NULL, NULL },
			     });
		if (c->n && *c->p[0].label)
			lst_plot_tpl(f, "lat", "run_qd",
				     (const struct lst_tpl_arg[]){
					     { "i", idx },
					     { "color", lst_plot__colors[pi % lst_plot__ncolors] },
					     { NULL, NULL },
				     });
		free(qname);
	}
	lst_plot_tpl(f, "lat", "paths_tail", NULL);
	free(parts);
	free(jobs);
}

/* A phase with curves.csv rows per path: p99 against each path's own IOPS, a curve per path. */
static void s_plot_lat_paths(struct lst_plot__ctx *c, const lst_report *r,
			     const struct lst_rpt_phase *ph)
{
	struct lst_curves cs = { 0 };
	size_t n = lst_curves_phase(r, ph->name, true, &cs);
	const char *name;
	char title[512];
	FILE *f;

	if (n < 2)
		goto free_curves;
	name = lst_plot__name(c, "lat_vs_iops_paths", ph->name, NULL);
	f = lst_plot__script(c, name, "p99 latency against IOPS of every path, a curve per path");
	if (!f)
		goto free_curves;
	lst_plot__comment(f, "Points from curves.csv (scope path), in order of demand.");
	for (size_t i = 0; i < cs.n; i++) {
		char var[32];

		snprintf(var, sizeof(var), "$g%zu", i);
		s_curve_block(f, var, &cs.c[i], cs.c[i].name);
	}
	lst_plot__begin(f, name, 1200, 750);
	snprintf(title, sizeof(title), "p99 latency vs IOPS per path — phase %s\n%s, run %s",
		 ph->name, r->title, r->run_id);
	s_paths_body(f, &cs, lst_headline_limit(r, ph->name, NULL), title);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
free_curves:
	lst_curves_free(&cs);
}

/* --- timeseries ------------------------------------------------------------------------------ */

/* Time axis: seconds since the phase's first row in s, min or h; divisor and label. */
static double s_time_unit(double span, const char **unit)
{
	if (span <= 600) {
		*unit = "s";
		return 1;
	}
	if (span <= 10 * 3600) {
		*unit = "min";
		return 60;
	}
	*unit = "h";
	return 3600;
}

/* Accumulates rows of one line into buckets of k rows (means; the p99s the bucket's highest). */
struct s_bucket {
	size_t n;
	double t, v[S_TS_COLS]; /* iops, read, write, mbps, mean, p99, read p99, write p99 */
};

static void s_bucket_flush(FILE *f, struct s_bucket *b, double t0, double div, bool full)
{
	if (!b->n)
		return;
	lst_plot__num(f, (b->t - t0) / div);
	for (int i = 0; i < (full ? S_TS_COLS : 4); i++) {
		double v = i >= S_TS_P99 ? b->v[i] : b->v[i] / (double)b->n;

		lst_plot__num(f, i >= 4 ? lst_plot__pos(v) : v);
	}
	fputc('\n', f);
	b->n = 0;
}

/*
 * The times of a phase's combined rows, sorted: where the phase did I/O. A single agent's or
 * path's line breaks where it skips one of them (it took no part in that point: a port set
 * without it), whatever the gap rule says, so no line is drawn through a stretch where that
 * path did no I/O.
 */
struct s_ts_grid {
	double *t;
	size_t n;
	double eps; /* a quarter of the median step: agents' rows of one interval differ by us */
};

static int s_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void s_ts_grid_init(struct s_ts_grid *g, const lst_report *r, const char *phase)
{
	double *d;

	g->t = lst_calloc(r->nts + 1, sizeof(*g->t));
	g->n = 0;
	for (size_t i = 0; i < r->nts; i++)
		if (!strcmp(r->ts[i].phase, phase) && !strcmp(r->ts[i].agent, "all"))
			g->t[g->n++] = r->ts[i].t_s;
	qsort(g->t, g->n, sizeof(*g->t), s_dbl_cmp);
	d = lst_calloc(g->n + 1, sizeof(*d));
	for (size_t i = 1; i < g->n; i++)
		d[i - 1] = g->t[i] - g->t[i - 1];
	qsort(d, g->n ? g->n - 1 : 0, sizeof(*d), s_dbl_cmp);
	g->eps = g->n > 1 ? d[(g->n - 1) / 2] / 4 : 0;
	free(d);
}

static void s_ts_grid_exit(struct s_ts_grid *g)
{
	free(g->t);
	memset(g, 0, sizeof(*g));
}

/* The phase did I/O strictly between a and b (a < b), beyond the grid's tolerance. */
static bool s_ts_grid_between(const struct s_ts_grid *g, double a, double b)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) { /* the first time > a + eps */
		size_t mid = lo + (hi - lo) / 2;

		if (g->t[mid] <= a + g->eps)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->t[lo] < b - g->eps;
}

/*
 * Rows of phase and agent (path NULL), or of the agent's path (r->ts_parts), as a datablock: t,
 * IOPS, read IOPS, write IOPS, MB/s, then (full) mean and p99 latency, read and write p99. A
 * blank line where more than `gap` seconds pass between rows (ramps excluded from the
 * results, idle gaps), and (grid, for a single agent's or path's line) where the line skips
 * rows the phase has, so lines break where there is no data. Thinned to about S_TS_MAX_ROWS
 * rows.
 */
static void s_ts_block(FILE *f, const lst_report *r, const char *var, const char *phase,
		       const char *agent, const char *path, size_t nrows, double t0, double div,
		       double gap, const struct s_ts_grid *grid, bool full)
{
	size_t k = nrows > S_TS_MAX_ROWS ? (nrows + S_TS_MAX_ROWS - 1) / S_TS_MAX_ROWS : 1;
	const struct lst_rpt_ts *rows = path ? r->ts_parts : r->ts;
	size_t n = path ? r->nts_parts : r->nts;
	struct s_bucket b = { .n = 0 };
	double last = NAN;

	fprintf(f, "%s << EOD\n", var);
	lst_plot__comment(
		f, "%s %s%s%s: t (since the phase start), IOPS, read IOPS, write IOPS, MB/s%s%s",
		path ? "path" : "agent", agent, path ? ":" : "", path ? path : "",
		full ? ", mean latency, p99, read p99, write p99 (us)" : "",
		k > 1 ? "; rows averaged in groups (p99s: the highest of the group)" : "");
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_ts *t = &rows[i];
		double v[S_TS_COLS] = { t->iops[0] + t->iops[1], t->iops[0],	   t->iops[1],
					t->mbps[0] + t->mbps[1], t->lat_mean,	   t->lat_p99,
					t->lat_p99_dir[0],	 t->lat_p99_dir[1] };
		bool broken;

		if (strcmp(t->phase, phase) || strcmp(t->agent, agent) ||
		    (path && (strcmp(t->scope, "path") || strcmp(t->path, path))))
			continue;
		broken = isfinite(last) &&
			 (t->t_s - last > gap || (grid && s_ts_grid_between(grid, last, t->t_s)));
		if (b.n && (broken || b.n == k))
			s_bucket_flush(f, &b, t0, div, full);
		if (broken)
			fputc('\n', f);
		if (!b.n) {
			b.t = t->t_s;
			memset(b.v, 0, sizeof(b.v));
		}
		for (int j = 0; j < S_TS_COLS; j++)
			b.v[j] = j < S_TS_P99  ? b.v[j] + v[j]
				 : isnan(v[j]) ? b.v[j]
					       : LST_MAX(b.v[j], v[j]);
		b.n++;
		last = t->t_s;
	}
	s_bucket_flush(f, &b, t0, div, full);
	fputs("EOD\n", f);
}

/*
 * 1.5 x the median step between a phase's combined rows: longer steps are gaps in the data
 * (ramps, idle time) where lines break. When breaking would leave pieces shorter than
 * S_MIN_RUN rows (many short points), lines are drawn through the gaps instead: a plot of
 * dashes says less than one with a few bridged gaps.
 */
static double s_ts_gap(const lst_report *r, const char *phase, size_t nrows)
{
	double *d = lst_calloc(nrows + 1, sizeof(*d)), last = NAN, gap;
	size_t n = 0, gaps = 0;

	for (size_t i = 0; i < r->nts; i++) {
		const struct lst_rpt_ts *t = &r->ts[i];

		if (strcmp(t->phase, phase) || strcmp(t->agent, "all"))
			continue;
		if (isfinite(last) && t->t_s > last && n < nrows)
			d[n++] = t->t_s - last;
		last = t->t_s;
	}
	qsort(d, n, sizeof(*d), s_dbl_cmp);
	gap = n ? 1.5 * d[n / 2] : INFINITY;
	for (size_t i = 0; i < n; i++)
		gaps += d[i] > gap;
	if (nrows < S_MIN_RUN * (gaps + 1))
		gap = INFINITY;
	free(d);
	return gap;
}

static const char *s_point_label(const lst_report *r, const char *phase, long point)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (r->points[i].point == point && !strcmp(r->points[i].phase, phase) &&
		    !strcmp(r->points[i].agent, "all"))
			return r->points[i].label;
	return "";
}

/* What a phase's timeseries holds: its agents, paths, combined rows, time span, points. */
struct s_ts_scan {
	const char *agents[64];
	const char *path_agents[64], *paths[64]; /* the agent and path of each path's rows */
	size_t nagents, npaths, nrows, npoints;
	double t0, t1, rd, wr, latmax;
};

/* The paths of a phase's path rows (r->ts_parts), in the order they first appear. */
static void s_ts_scan_paths(const lst_report *r, const char *phase, struct s_ts_scan *o)
{
	for (size_t i = 0; i < r->nts_parts; i++) {
		const struct lst_rpt_ts *t = &r->ts_parts[i];
		bool known = false;

		if (strcmp(t->phase, phase) || strcmp(t->scope, "path"))
			continue;
		for (size_t k = 0; k < o->npaths; k++)
			known |= !strcmp(o->paths[k], t->path) &&
				 !strcmp(o->path_agents[k], t->agent);
		if (!known && o->npaths < LST_ARRAY_SIZE(o->paths)) {
			o->path_agents[o->npaths] = t->agent;
			o->paths[o->npaths++] = t->path;
		}
	}
}

/*
 * The thin lines under the combined one: each path's when the phase has path rows of 2+ paths,
 * else each agent's when there are 2+; 0 when neither.
 */
static size_t s_ts_nlines(const struct s_ts_scan *sc)
{
	if (sc->npaths > 1)
		return sc->npaths;
	return sc->nagents > 1 ? sc->nagents : 0;
}

/* "agent a" or "path a:/dev/sdb": what thin line k is, for its key entry. */
static void s_ts_line_name(const struct s_ts_scan *sc, size_t k, char *buf, size_t size)
{
	if (sc->npaths > 1)
		snprintf(buf, size, "path %s:%s", sc->path_agents[k], sc->paths[k]);
	else
		snprintf(buf, size, "agent %s", sc->agents[k]);
}

static void s_ts_scan(const lst_report *r, const char *phase, struct s_ts_scan *o)
{
	long last_point = -1;

	memset(o, 0, sizeof(*o));
	o->t0 = INFINITY;
	o->t1 = -INFINITY;
	for (size_t i = 0; i < r->nts; i++) {
		const struct lst_rpt_ts *t = &r->ts[i];
		bool known = false;

		if (strcmp(t->phase, phase))
			continue;
		if (strcmp(t->agent, "all")) {
			for (size_t k = 0; k < o->nagents; k++)
				known |= !strcmp(o->agents[k], t->agent);
			if (!known && o->nagents < LST_ARRAY_SIZE(o->agents))
				o->agents[o->nagents++] = t->agent;
			continue;
		}
		o->nrows++;
		o->t0 = LST_MIN(o->t0, t->t_s);
		o->t1 = LST_MAX(o->t1, t->t_s);
		o->rd += t->iops[0];
		o->wr += t->iops[1];
		o->latmax = LST_MAX(o->latmax, t->lat_p99);
		if (t->point != last_point)
			o->npoints++;
		last_point = t->point;
	}
	s_ts_scan_paths(r, phase, o);
}

static const char *s_agent_color(size_t k)
{
	return lst_plot__agent_colors[k % lst_plot__nagent_colors];
}

/* Point boundaries, when there are few enough to read. */
static void s_ts_marks(FILE *f, const lst_report *r, const char *phase, const struct s_ts_scan *sc,
		       double div)
{
	long last_point = -1;

	if (sc->npoints <= 1 || sc->npoints > S_MARK_MAX_POINTS)
		return;
	for (size_t i = 0; i < r->nts; i++) {
		const struct lst_rpt_ts *t = &r->ts[i];
		const char *label;
		char x[32], *q;

		if (strcmp(t->phase, phase) || strcmp(t->agent, "all") || t->point == last_point)
			continue;
		last_point = t->point;
		label = s_point_label(r, phase, t->point);
		q = lst_plot__qstr("%s", *label ? label : "-");
		snprintf(x, sizeof(x), "%.7g", (t->t_s - sc->t0) / div);
		lst_plot_tpl(
			f, "timeseries", "point_mark",
			(const struct lst_tpl_arg[]){ { "x", x }, { "label", q }, { NULL, NULL } });
		free(q);
	}
}

/* Where a point of a suite phase belongs: its test, round and name (its summary row). */
struct s_ts_where {
	const char *test, *name;
	long round;
};

/*
 * The test, round and name of every point of phase, by point index (*n of them; those without a
 * summary row have test NULL); *rounds: some point has a round; *ntests: distinct tests.
 */
static struct s_ts_where *s_ts_where(const lst_report *r, const char *phase, size_t *n,
				     bool *rounds, size_t *ntests)
{
	struct s_ts_where *w;
	const char *last = NULL;

	*n = 0;
	*rounds = false;
	*ntests = 0;
	for (size_t i = 0; i < r->npoints; i++)
		if (!strcmp(r->points[i].phase, phase) && r->points[i].point >= 0)
			*n = LST_MAX(*n, (size_t)r->points[i].point + 1);
	w = lst_calloc(*n + 1, sizeof(*w));
	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *p = &r->points[i];

		if (strcmp(p->phase, phase) || strcmp(p->agent, "all") || p->point < 0)
			continue;
		w[p->point] = (struct s_ts_where){ p->test, p->name, p->round };
		*rounds |= p->round > 0;
		if (!last || strcmp(last, p->test))
			(*ntests)++;
		last = p->test;
	}
	return w;
}

/*
 * A boundary at x: a solid line where a test starts, dotted for a round or a point (fainter
 * when they are dense: more than 2 x S_MARK_MAX_POINTS, such as WSAT's rounds).
 */
static void s_ts_mark(FILE *f, bool test, bool dense, double x)
{
	char xs[32];

	snprintf(xs, sizeof(xs), "%.7g", x);
	lst_plot_tpl(f, "timeseries",
		     test    ? "test_mark"
		     : dense ? "round_mark_dense"
			     : "round_mark",
		     (const struct lst_tpl_arg[]){ { "x", xs }, { NULL, NULL } });
}

/* A boundary's label, at x and at y (a fraction of the graph's height). */
static void s_ts_mark_label(FILE *f, double x, const char *label, const char *y)
{
	char xs[32], *q = lst_plot__qstr("%s", label);

	snprintf(xs, sizeof(xs), "%.7g", x);
	lst_plot_tpl(f, "timeseries", "mark_label",
		     (const struct lst_tpl_arg[]){
			     { "x", xs }, { "y", y }, { "label", q }, { NULL, NULL } });
	free(q);
}

/* One boundary of a suite phase's timeseries. */
struct s_ts_bound {
	double x;
	const char *test; /* a test starts here: its name (solid line, name on the top row) */
	bool labelled;	  /* its label is drawn */
	char label[160];  /* "round 3", or the point's name */
};

/*
 * The boundaries of a suite phase into b (room for the phase's points): where each test starts
 * (when the phase has several) and each round; in tests without rounds (HIR's bursts), each
 * point. Returns how many.
 */
static size_t s_ts_bound_list(const lst_report *r, const char *phase, const struct s_ts_scan *sc,
			      double div, const struct s_ts_where *w, size_t n, bool rounds,
			      size_t ntests, struct s_ts_bound *b)
{
	const struct s_ts_where *prev = NULL;
	long last_point = -1;
	size_t m = 0;

	for (size_t i = 0; i < r->nts && m < n; i++) {
		const struct lst_rpt_ts *t = &r->ts[i];
		const struct s_ts_where *h;
		bool new_test;

		if (strcmp(t->phase, phase) || strcmp(t->agent, "all") || t->point == last_point ||
		    t->point < 0 || (size_t)t->point >= n || !w[t->point].test)
			continue;
		last_point = t->point;
		h = &w[t->point];
		new_test = !prev || strcmp(prev->test, h->test);
		if (rounds && !new_test && prev->round == h->round)
			continue;
		prev = h;
		b[m] = (struct s_ts_bound){ .x = (t->t_s - sc->t0) / div,
					    .test = new_test && ntests > 1 ? h->test : NULL };
		if (rounds)
			snprintf(b[m].label, sizeof(b[m].label), "round %ld", h->round);
		else
			snprintf(b[m].label, sizeof(b[m].label), "%s", *h->name ? h->name : "-");
		m++;
	}
	return m;
}

/*
 * Which boundaries get a label: never two closer than 1/S_MARK_MAX_POINTS of the span (they
 * would overlap), the first round of each test first, then the others left to right.
 */
static void s_ts_bound_labels(struct s_ts_bound *b, size_t m, double span)
{
	double min = span / S_MARK_MAX_POINTS;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < m; k++) {
			bool room = true;

			if (b[k].labelled || (!pass && !b[k].test && k))
				continue;
			for (size_t j = 0; j < m; j++)
				room &= !b[j].labelled || fabs(b[j].x - b[k].x) >= min;
			b[k].labelled = room;
		}
	}
}

/*
 * The boundaries of a suite phase: where each test starts (solid, with its name, when the phase
 * has several), and each round (dotted, "round N"); in tests without rounds (HIR's bursts),
 * each point (dotted, its name). Labels thinned so they never overlap. A phase with one test
 * and no rounds gets the plain points' marks (s_ts_marks).
 */
static void s_ts_bounds(FILE *f, const lst_report *r, const char *phase, const struct s_ts_scan *sc,
			double div)
{
	size_t n, ntests, m;
	bool rounds;
	struct s_ts_where *w = s_ts_where(r, phase, &n, &rounds, &ntests);
	struct s_ts_bound *b;
	const char *y = ntests > 1 ? "0.92" : "0.97";

	if (!rounds && ntests < 2) {
		free(w);
		s_ts_marks(f, r, phase, sc, div);
		return;
	}
	b = lst_calloc(n + 1, sizeof(*b));
	m = s_ts_bound_list(r, phase, sc, div, w, n, rounds, ntests, b);
	s_ts_bound_labels(b, m, (sc->t1 - sc->t0) / div);
	for (size_t k = 0; k < m; k++) {
		s_ts_mark(f, b[k].test, m > 2 * S_MARK_MAX_POINTS, b[k].x);
		if (b[k].test)
			s_ts_mark_label(f, b[k].x, b[k].test, "0.97");
		if (b[k].labelled)
			s_ts_mark_label(f, b[k].x, b[k].label, y);
	}
	free(b);
	free(w);
}

/*
 * The phase's events (events.csv, issue 13): a dashed line at each hook's start, labelled with
 * the hook, placed by its point's start (summary.csv's t_s) plus its t_start. Nothing is
 * written for a phase without events, so such plots stay as they were.
 */
static void s_ts_events(FILE *f, const lst_report *r, const char *phase, const struct s_ts_scan *sc,
			double div)
{
	struct lst_report_event_mark *m;
	size_t n = lst_report_event_marks(r, phase, &m);

	for (size_t k = 0; k < n; k++) {
		double t0 = NAN;
		char x[32], *q;

		for (size_t i = 0; i < r->npoints && isnan(t0); i++)
			if (r->points[i].point == m[k].point &&
			    !strcmp(r->points[i].phase, phase) &&
			    !strcmp(r->points[i].agent, "all"))
				t0 = r->points[i].t_s;
		if (isnan(t0))
			continue;
		snprintf(x, sizeof(x), "%.7g", (t0 + m[k].t_start - sc->t0) / div);
		q = lst_plot__qstr("%s", m[k].label);
		lst_plot_tpl(
			f, "timeseries", "event_mark",
			(const struct lst_tpl_arg[]){ { "x", x }, { "label", q }, { NULL, NULL } });
		free(q);
	}
	free(m);
}

/* The IOPS panel's plot line: the key first, in reading order; then the lines, the combined
 * IOPS drawn last (on top). */
static void s_ts_iops_plot(FILE *f, const struct s_ts_scan *sc)
{
	const struct lst_tpl_arg rw[] = { { "read_color", lst_plot__colors[7] },
					  { "write_color", lst_plot__colors[4] },
					  { NULL, NULL } };
	const struct lst_tpl_arg all[] = { { "all_color", lst_plot__colors[0] }, { NULL, NULL } };
	bool both = sc->rd > 0 && sc->wr > 0;
	size_t nlines = s_ts_nlines(sc);

	lst_plot_tpl(f, "timeseries", "plot", all);
	if (both)
		lst_plot_tpl(f, "timeseries", "key_rw", rw);
	for (size_t k = 0; k < nlines; k++) {
		char who[256], *q;

		s_ts_line_name(sc, k, who, sizeof(who));
		q = lst_plot__qstr("IOPS, %s", who);

		lst_plot_tpl(f, "timeseries", "key_agent",
			     (const struct lst_tpl_arg[]){ { "color", s_agent_color(k) },
							   { "title", q },
							   { NULL, NULL } });
		free(q);
	}
	if (sc->latmax > 0)
		lst_plot_tpl(f, "timeseries", "lat_lines",
			     (const struct lst_tpl_arg[]){ { "mean_color", lst_plot__colors[1] },
							   { "p99_color", lst_plot__colors[3] },
							   { NULL, NULL } });
	if (sc->latmax > 0 && both) /* a mix: which direction is slow */
		lst_plot_tpl(f, "timeseries", "rw_lat_lines", rw);
	for (size_t k = 0; k < nlines; k++) {
		char idx[32];

		snprintf(idx, sizeof(idx), "%zu", k);
		lst_plot_tpl(f, "timeseries", "agent_line",
			     (const struct lst_tpl_arg[]){
				     { "k", idx }, { "color", s_agent_color(k) }, { NULL, NULL } });
	}
	if (both)
		lst_plot_tpl(f, "timeseries", "rw_lines", rw);
	lst_plot_tpl(f, "timeseries", "all_line", all);
}

/* The MB/s panel of sequential phases. */
static void s_ts_mbps_plot(FILE *f, const struct s_ts_scan *sc)
{
	lst_plot_tpl(
		f, "timeseries", "mbps",
		(const struct lst_tpl_arg[]){ { "color", lst_plot__colors[2] }, { NULL, NULL } });
	for (size_t k = 0; k < s_ts_nlines(sc); k++) {
		char idx[32], who[256], *q;

		s_ts_line_name(sc, k, who, sizeof(who));
		q = lst_plot__qstr("MB/s, %s", who);
		snprintf(idx, sizeof(idx), "%zu", k);
		lst_plot_tpl(f, "timeseries", "mbps_agent",
			     (const struct lst_tpl_arg[]){ { "k", idx },
							   { "color", s_agent_color(k) },
							   { "title", q },
							   { NULL, NULL } });
		free(q);
	}
	lst_plot_tpl(f, "timeseries", "eol", NULL);
}

/* The timeseries plot after its data blocks (plots/timeseries.gp); part: the test (and round)
 * it shows, NULL for the whole phase. */
static void s_ts_body(FILE *f, const lst_report *r, const struct lst_rpt_phase *ph,
		      const char *part, const struct s_ts_scan *sc, double div, const char *unit)
{
	char title[768], *q, *since;

	snprintf(title, sizeof(title),
		 "IOPS and latency over time — phase %s%s%s%s%s%s\n%s, run %s", ph->name,
		 *ph->suite ? " (" : "", ph->suite, *ph->suite ? ")" : "", part ? ", test " : "",
		 part ? part : "", r->title, r->run_id);
	q = lst_plot__qstr("%s", title);
	lst_plot_tpl(f, "timeseries", ph->sequential ? "multiplot" : "title",
		     (const struct lst_tpl_arg[]){ { "title", q }, { NULL, NULL } });
	free(q);
	since = part ? lst_asprintf("test %s started", part) : lst_strdup("the phase started");
	q = lst_plot__qstr("time since %s (%s)", since, unit);
	lst_plot_tpl(f, "timeseries", "axes",
		     (const struct lst_tpl_arg[]){ { "xlabel", q }, { NULL, NULL } });
	free(q);
	free(since);
	if (sc->latmax > 0)
		lst_plot_tpl(f, "timeseries", "lat_axis", NULL);
	s_ts_bounds(f, r, ph->name, sc, div);
	s_ts_events(f, r, ph->name, sc, div);
	s_ts_iops_plot(f, sc);
	if (ph->sequential)
		s_ts_mbps_plot(f, sc);
}

/*
 * timeseries_PHASE, or of one part of a suite phase (part: "TEST" or "TEST round N", r holding
 * only its points: s_ts_parts) timeseries_PHASE_PART.
 */
static void s_plot_timeseries(struct lst_plot__ctx *c, const lst_report *r,
			      const struct lst_rpt_phase *ph, const char *part)
{
	struct s_ts_scan sc;
	struct s_ts_grid grid;
	const char *unit, *name;
	double div, gap;
	FILE *f;

	s_ts_scan(r, ph->name, &sc);
	if (!sc.nrows)
		return;
	div = s_time_unit(sc.t1 - sc.t0, &unit);
	name = lst_plot__name(c, "timeseries", ph->name, part);
	f = lst_plot__script(c, name,
			     sc.npaths > 1 ? "IOPS and latency over time, combined and per path"
					   : "IOPS and latency over time, combined and per agent");
	if (!f)
		return;
	gap = s_ts_gap(r, ph->name, sc.nrows);
	s_ts_grid_init(&grid, r, ph->name);
	s_ts_block(f, r, "$all", ph->name, "all", NULL, sc.nrows, sc.t0, div, gap, NULL, true);
	for (size_t k = 0; k < s_ts_nlines(&sc); k++) {
		char var[32];

		snprintf(var, sizeof(var), "$a%zu", k);
		if (sc.npaths > 1)
			s_ts_block(f, r, var, ph->name, sc.path_agents[k], sc.paths[k], sc.nrows,
				   sc.t0, div, gap, &grid, false);
		else
			s_ts_block(f, r, var, ph->name, sc.agents[k], NULL, sc.nrows, sc.t0, div,
				   gap, &grid, false);
	}
	s_ts_grid_exit(&grid);
	lst_plot__begin(f, name, 1200, ph->sequential ? 950 : 700);
	s_ts_body(f, r, ph, part, &sc, div, unit);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}

/* Rows of phase whose point is kept (point < n and keep[point]), as a new array. */
static void *s_ts_keep_rows(const void *rows, size_t nrows, size_t size, size_t off_phase,
			    size_t off_point, const char *phase, const bool *keep, size_t n,
			    size_t *out_n)
{
	char *out = lst_calloc(nrows + 1, size);

	*out_n = 0;
	for (size_t i = 0; i < nrows; i++) {
		const char *row = (const char *)rows + i * size;
		long point = *(const long *)(row + off_point);

		if (strcmp(*(const char *const *)(row + off_phase), phase) || point < 0 ||
		    (size_t)point >= n || !keep[point])
			continue;
		memcpy(out + (*out_n)++ * size, row, size);
	}
	return out;
}

/* sub's rows of one table (field, counted by nfield, of struct type): r's kept ones. */
#define S_KEEP(sub, r, field, nfield, type, name, keep, n)                                         \
	(sub)->field =                                                                             \
		s_ts_keep_rows((r)->field, (r)->nfield, sizeof(type), offsetof(type, phase),       \
			       offsetof(type, point), name, keep, n, &(sub)->nfield)

/* The time series of the kept points of phase: r with only their rows. */
static void s_plot_ts_part(struct lst_plot__ctx *c, const lst_report *r,
			   const struct lst_rpt_phase *ph, const bool *keep, size_t n,
			   const char *part)
{
	lst_report sub = *r; /* shares r's strings and tables; only the row arrays are its own */

	S_KEEP(&sub, r, ts, nts, struct lst_rpt_ts, ph->name, keep, n);
	S_KEEP(&sub, r, ts_parts, nts_parts, struct lst_rpt_ts, ph->name, keep, n);
	S_KEEP(&sub, r, points, npoints, struct lst_rpt_point, ph->name, keep, n);
	s_plot_timeseries(c, &sub, ph, part);
	free(sub.ts);
	free(sub.ts_parts);
	free(sub.points);
}

/* Point j is the first of its test's round (w: the phase's points). */
static bool s_ts_round_first(const struct s_ts_where *w, size_t j)
{
	for (size_t k = 0; k < j; k++)
		if (w[k].test && !strcmp(w[k].test, w[j].test) && w[k].round == w[j].round)
			return false;
	return true;
}

/* keep[j] for the n points of w: those of test. Returns keep. */
static bool *s_ts_keep_test(const struct s_ts_where *w, size_t n, const char *test, bool *keep)
{
	for (size_t j = 0; j < n; j++)
		keep[j] = w[j].test && !strcmp(w[j].test, test);
	return keep;
}

/* A time series per round of test (w: the phase's points, n of them; keep: room for n). */
static void s_plot_ts_rounds(struct lst_plot__ctx *c, const lst_report *r,
			     const struct lst_rpt_phase *ph, const struct s_ts_where *w, size_t n,
			     const char *test, bool *keep)
{
	for (size_t i = 0; i < n; i++) {
		char part[192];

		if (!w[i].test || strcmp(w[i].test, test) || !s_ts_round_first(w, i))
			continue;
		for (size_t j = 0; j < n; j++)
			keep[j] = w[j].test && !strcmp(w[j].test, test) && w[j].round == w[i].round;
		snprintf(part, sizeof(part), "%s round %ld", test, w[i].round);
		s_plot_ts_part(c, r, ph, keep, n, part);
	}
}

/*
 * A suite phase of several tests also gets a time series per test, and a test of more than
 * S_SPLIT_POINTS points in rounds of several points one per round (a snia-iops round is 49
 * points), so that each point's stretch is wide enough to read; the whole phase's plot stays
 * as the overview.
 */
static void s_plot_ts_parts(struct lst_plot__ctx *c, const lst_report *r,
			    const struct lst_rpt_phase *ph)
{
	size_t n, ntests;
	bool rounds, *keep;
	struct s_ts_where *w = s_ts_where(r, ph->name, &n, &rounds, &ntests);

	if (!*ph->suite || (ntests < 2 && n <= S_SPLIT_POINTS)) {
		free(w);
		return;
	}
	keep = lst_calloc(n + 1, sizeof(*keep));
	for (size_t i = 0; i < n; i++) {
		size_t npoints = 0, nrounds = 0;
		bool seen = false;

		if (!w[i].test)
			continue;
		for (size_t j = 0; j < n; j++) {
			bool same = w[j].test && !strcmp(w[j].test, w[i].test);

			seen |= j < i && same;
			npoints += same;
			nrounds += same && s_ts_round_first(w, j);
		}
		if (seen)
			continue;
		/* A round per plot only when rounds hold several points: a WSAT of 300 rounds of
		 * one point each would be 300 plots of one point. */
		if (npoints > S_SPLIT_POINTS && rounds && nrounds < npoints)
			s_plot_ts_rounds(c, r, ph, w, n, w[i].test, keep);
		else if (ntests > 1)
			s_plot_ts_part(c, r, ph, s_ts_keep_test(w, n, w[i].test, keep), n,
				       w[i].test);
	}
	free(keep);
	free(w);
}

/* --- steady state ---------------------------------------------------------------------------- */

/* The steady-state plot after its data blocks (plots/steady.gp). */
static void s_steady_body(FILE *f, const struct lst_rpt_test *t, double slope, size_t n,
			  size_t first, size_t last, double avg, const char *title,
			  const char *what, const char *unit)
{
	char *qtitle = lst_plot__qstr("%s", title), *qwhat = lst_plot__qstr("%s", what);
	char *avg_title = lst_plot__qstr("window average %.6g", avg);
	char *fit_title =
		lst_plot__qstr("least-squares fit over the window (%+.4g per round)", slope);
	char xmax[32], x0[32], x1[32], sf[32], sl[32], sa[32];

	(void)t;
	snprintf(xmax, sizeof(xmax), "%.1f", (double)n + 0.5);
	snprintf(x0, sizeof(x0), "%.1f", (double)first - 0.5);
	snprintf(x1, sizeof(x1), "%.1f", (double)last + 0.5);
	snprintf(sf, sizeof(sf), "%zu", first);
	snprintf(sl, sizeof(sl), "%zu", last);
	snprintf(sa, sizeof(sa), "%.7g", avg);
	lst_plot_tpl(
		f, "steady", "head",
		(const struct lst_tpl_arg[]){
			{ "title", qtitle }, { "what", qwhat }, { "xmax", xmax }, { NULL, NULL } });
	if (n <= 40)
		lst_plot_tpl(f, "steady", "xtics", NULL);
	lst_plot_tpl(f, "steady", "yrange", NULL);
	if (strcmp(unit, "IOPS") == 0)
		lst_plot_tpl(f, "steady", "iops_format", NULL);
	lst_plot_tpl(f, "steady", "plot",
		     (const struct lst_tpl_arg[]){
			     { "x0", x0 },
			     { "x1", x1 },
			     { "first", sf },
			     { "last", sl },
			     { "avg", sa },
			     { "avg_title", avg_title },
			     { "fit_title", fit_title },
			     { "color", lst_plot__colors[0] },
			     { NULL, NULL },
		     });
	free(qtitle);
	free(qwhat);
	free(avg_title);
	free(fit_title);
}

static void s_plot_steady(struct lst_plot__ctx *c, const lst_report *r,
			  const struct lst_rpt_test *t)
{
	size_t n = t->nvalues, first, last, window;
	const char *unit = lst_report_unit(t->tracked), *name;
	struct lst_steady st;
	double avg, data_pct, slope_pct;
	char title[768], verdict[160], what[128];
	FILE *f;

	if (!n)
		return;
	window = t->window >= 2 ? (size_t)t->window : LST_STEADY_WINDOW;
	last = t->window_last >= 1 && (size_t)t->window_last <= n ? (size_t)t->window_last : n;
	/* The fit over the window, from the values (the same maths as the run's verdict). */
	lst_steady_eval(t->values, last, LST_MIN(window, LST_MAX(last, 2)), t->data_limit,
			t->slope_limit, &st);
	/*
	 * The window the verdict used. A test that only reports steady state (WSAT) gives the
	 * rounds it averaged instead, while its excursions are over the last `window` rounds.
	 */
	first = t->required && t->window_first >= 1 && (size_t)t->window_first <= last
			? (size_t)t->window_first
			: st.first + 1;
	avg = isnan(t->average) ? st.average : t->average;
	data_pct = isnan(t->data_pct) ? st.data_excursion_pct : t->data_pct;
	slope_pct = isnan(t->slope_pct) ? st.slope_excursion_pct : t->slope_pct;

	name = lst_plot__name(c, "steady", t->phase, *t->test ? t->test : NULL);
	f = lst_plot__script(c, name, "SNIA steady-state window of one test");
	if (!f)
		return;
	fputs("$v << EOD\n", f);
	lst_plot__comment(f, "round, %s", *t->tracked ? t->tracked : "tracked value");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%zu", i + 1);
		lst_plot__num(f, t->values[i]);
		fputc('\n', f);
	}
	fputs("EOD\n$band << EOD\n", f);
	lst_plot__comment(f, "the measurement window: round, 90%% and 110%% of its average");
	fprintf(f, "%.1f %.7g %.7g\n%.1f %.7g %.7g\nEOD\n", (double)first - 0.5, 0.9 * avg,
		1.1 * avg, (double)last + 0.5, 0.9 * avg, 1.1 * avg);
	fputs("$fit << EOD\n", f);
	lst_plot__comment(f, "least-squares line over the window: round, value");
	if (last - first >= 1)
		fprintf(f, "%zu %.7g\n%zu %.7g\n", first, st.intercept, last,
			st.intercept + st.slope * (double)(last - first));
	fputs("EOD\n", f);

	if (!t->required)
		snprintf(verdict, sizeof(verdict), "%ld rounds (steady state not required)",
			 t->rounds);
	else if (t->steady)
		snprintf(verdict, sizeof(verdict), "steady state reached at round %zu", last);
	else
		snprintf(verdict, sizeof(verdict), "NOT steady after %ld rounds%s", t->rounds,
			 t->max_rounds_hit ? " (round limit reached)" : "");
	snprintf(what, sizeof(what), "%s%s%s%s", *t->tracked ? t->tracked : "value",
		 *unit ? " (" : "", unit, *unit ? ")" : "");
	snprintf(title, sizeof(title),
		 "Steady state — test %s, phase %s%s%s%s: %s\n"
		 "window rounds %zu–%zu: average %.6g, data excursion %.2f%% (limit %g%%), "
		 "slope excursion %.2f%% (limit %g%%)\n%s, run %s",
		 *t->test ? t->test : "-", t->phase, *t->suite ? " (" : "", t->suite,
		 *t->suite ? ")" : "", verdict, first, last, avg, data_pct, t->data_limit,
		 slope_pct, t->slope_limit, r->title, r->run_id);
	lst_plot__begin(f, name, 1200, 700);
	s_steady_body(f, t, st.slope, n, first, last, avg, title, what, unit);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}

/* --- WSAT ------------------------------------------------------------------------------------ */

/* The WSAT plot after its data block (plots/wsat.gp): against time, and bytes written. */
static void s_wsat_body(FILE *f, const char *title, bool bytes, const char *unit, const char *bunit,
			double bdiv)
{
	char *qtitle = lst_plot__qstr("%s", title);

	lst_plot_tpl(f, "wsat", bytes ? "multiplot" : "title",
		     (const struct lst_tpl_arg[]){ { "title", qtitle }, { NULL, NULL } });
	free(qtitle);
	lst_plot_tpl(f, "wsat", "axes", NULL);
	for (int panel = 0; panel < (bytes ? 2 : 1); panel++) {
		if (panel)
			lst_plot_tpl(f, "wsat", "xlabel_bytes",
				     (const struct lst_tpl_arg[]){
					     { "unit", bunit },
					     { "exp", bdiv == 1e12 ? "12" : "9" },
					     { NULL, NULL },
				     });
		else
			lst_plot_tpl(
				f, "wsat", "xlabel_time",
				(const struct lst_tpl_arg[]){ { "unit", unit }, { NULL, NULL } });
		lst_plot_tpl(f, "wsat", "panel",
			     (const struct lst_tpl_arg[]){
				     { "x", panel ? "3" : "2" },
				     { "iops_color", lst_plot__colors[0] },
				     { "mean_color", lst_plot__colors[1] },
				     { "max_color", lst_plot__colors[3] },
				     { NULL, NULL },
			     });
	}
}

static void s_plot_wsat(struct lst_plot__ctx *c, const lst_report *r,
			const struct lst_rpt_phase *ph)
{
	double t0 = INFINITY, t1 = -INFINITY, bmax = 0, div, bdiv;
	const char *unit, *bunit, *name;
	size_t n = 0;
	char title[512];
	bool bytes = false;
	FILE *f;

	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];

		if (strcmp(o->phase, ph->name))
			continue;
		n++;
		t0 = LST_MIN(t0, o->t_s);
		t1 = LST_MAX(t1, o->t_s);
		if (isfinite(o->bytes_written)) {
			bytes = true;
			bmax = LST_MAX(bmax, o->bytes_written);
		}
	}
	if (!n)
		return;
	div = s_time_unit(t1 - t0, &unit);
	bdiv = bmax >= 1e12 ? 1e12 : 1e9;
	bunit = bmax >= 1e12 ? "TB" : "GB";
	name = lst_plot__name(c, "wsat", ph->name, NULL);
	f = lst_plot__script(c, name,
			     "write saturation: IOPS and latency per round, against time and "
			     "bytes written");
	if (!f)
		return;
	fputs("$w << EOD\n", f);
	lst_plot__comment(f,
			  "round, t (since the first round), %s written, IOPS, mean latency (us), "
			  "max latency (us)",
			  bunit);
	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];

		if (strcmp(o->phase, ph->name))
			continue;
		fprintf(f, "%ld", o->round);
		lst_plot__num(f, (o->t_s - t0) / div);
		lst_plot__num(f, o->bytes_written / bdiv);
		lst_plot__num(f, o->iops);
		lst_plot__num(f, lst_plot__pos(o->lat_mean));
		lst_plot__num(f, lst_plot__pos(o->lat_max));
		fputc('\n', f);
	}
	fputs("EOD\n", f);
	lst_plot__begin(f, name, 1200, bytes ? 1000 : 650);
	snprintf(title, sizeof(title),
		 "Write saturation — phase %s: IOPS and latency per round\n"
		 "%s, run %s",
		 ph->name, r->title, r->run_id);
	s_wsat_body(f, title, bytes, unit, bunit, bdiv);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}

/* --- HIR ------------------------------------------------------------------------------------- */

/* The distinct tests (gaps) of a HIR phase's rounds.csv rows, in file order, into tests[max]. */
static size_t s_hir_tests(const lst_report *r, const char *phase, const char **tests, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];
		bool known = false;

		if (strcmp(o->phase, phase))
			continue;
		for (size_t k = 0; k < n; k++)
			known |= !strcmp(tests[k], o->test);
		if (!known && n < max)
			tests[n++] = o->test;
	}
	return n;
}

/* A test's bursts as a datablock: burst, t (since t0, in div), IOPS, mean latency (us). */
static void s_hir_block(FILE *f, const lst_report *r, const char *phase, const char *test, size_t k,
			double t0, double div)
{
	fprintf(f, "$b%zu << EOD\n", k);
	lst_plot__comment(f, "test %s: burst, t (since the phase start), IOPS, mean latency (us)",
			  test);
	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];

		if (strcmp(o->phase, phase) || strcmp(o->test, test))
			continue;
		fprintf(f, "%ld", o->round);
		lst_plot__num(f, (o->t_s - t0) / div);
		lst_plot__num(f, o->iops);
		lst_plot__num(f, lst_plot__pos(o->lat_mean));
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

/*
 * hir_PHASE: one point per burst (its IOPS, and its mean latency on the right axis) against
 * time, a colour per test (gap length), over the combined IOPS of every interval in grey,
 * whose breaks are the idle gaps between bursts.
 */
static void s_plot_hir(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph)
{
	const char *tests[16], *unit, *name;
	size_t ntests = s_hir_tests(r, ph->name, tests, LST_ARRAY_SIZE(tests));
	struct s_ts_scan sc;
	double t0 = INFINITY, t1 = -INFINITY, div;
	char title[512], *q;
	FILE *f;

	if (!ntests)
		return;
	s_ts_scan(r, ph->name, &sc);
	for (size_t i = 0; i < r->nrounds; i++)
		if (!strcmp(r->rounds[i].phase, ph->name)) {
			t0 = LST_MIN(t0, r->rounds[i].t_s);
			t1 = LST_MAX(t1, r->rounds[i].t_s);
		}
	if (sc.nrows) {
		t0 = LST_MIN(t0, sc.t0);
		t1 = LST_MAX(t1, sc.t1);
	}
	div = s_time_unit(t1 - t0, &unit);
	name = lst_plot__name(c, "hir", ph->name, NULL);
	f = lst_plot__script(c, name, "host idle recovery: IOPS and mean latency per burst");
	if (!f)
		return;
	if (sc.nrows)
		s_ts_block(f, r, "$ts", ph->name, "all", NULL, sc.nrows, t0, div,
			   s_ts_gap(r, ph->name, sc.nrows), NULL, false);
	for (size_t k = 0; k < ntests; k++)
		s_hir_block(f, r, ph->name, tests[k], k, t0, div);
	lst_plot__begin(f, name, 1200, 700);
	snprintf(title, sizeof(title),
		 "Host idle recovery — phase %s: IOPS and mean latency per burst\n%s, run %s",
		 ph->name, r->title, r->run_id);
	q = lst_plot__qstr("%s", title);
	lst_plot_tpl(
		f, "hir", "axes",
		(const struct lst_tpl_arg[]){ { "title", q }, { "unit", unit }, { NULL, NULL } });
	free(q);
	lst_plot_tpl(f, "hir", "plot", NULL);
	if (sc.nrows)
		lst_plot_tpl(f, "hir", "ts_line", NULL);
	for (size_t k = 0; k < ntests; k++) {
		char idx[32], *qt = lst_plot__qstr("IOPS per burst, %s", tests[k]);
		char *ql = lst_plot__qstr("mean latency per burst, %s (right axis)", tests[k]);

		if (k || sc.nrows)
			lst_plot_tpl(f, "hir", "sep", NULL);
		snprintf(idx, sizeof(idx), "%zu", k);
		lst_plot_tpl(f, "hir", "test",
			     (const struct lst_tpl_arg[]){
				     { "k", idx },
				     { "color", lst_plot__colors[k % lst_plot__ncolors] },
				     { "title", qt },
				     { "lat_title", ql },
				     { NULL, NULL } });
		free(qt);
		free(ql);
	}
	lst_plot_tpl(f, "hir", "eol", NULL);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}

int lst_plot_report(const lst_report *r, const char *outdir, struct lst_plot_list *made,
		    lst_err *err)
{
	struct lst_plot__ctx c;
	int rc = lst_plot__ctx_init(&c, outdir, r->dir, made, err);

	if (rc)
		return rc;
	for (size_t i = 0; i < r->nphases; i++)
		s_plot_lat_vs_iops(&c, r, &r->phases[i]);
	for (size_t i = 0; i < r->nphases; i++)
		s_plot_lat_paths(&c, r, &r->phases[i]);
	for (size_t i = 0; i < r->nphases; i++)
		s_plot_timeseries(&c, r, &r->phases[i], NULL);
	for (size_t i = 0; i < r->nphases; i++)
		s_plot_ts_parts(&c, r, &r->phases[i]);
	for (size_t i = 0; i < r->ntests; i++)
		s_plot_steady(&c, r, &r->tests[i]);
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->phases[i].suite, "snia-wsat"))
			s_plot_wsat(&c, r, &r->phases[i]);
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->phases[i].suite, "snia-hir"))
			s_plot_hir(&c, r, &r->phases[i]);
	for (size_t i = 0; i < r->nmatrices; i++)
		lst_plot__matrix(&c, r, &r->matrices[i]);
	for (size_t i = 0; i < r->nphases; i++)
		lst_plot__ports(&c, r, &r->phases[i]);
	return lst_plot__ctx_exit(&c);
}

/* --- two runs -------------------------------------------------------------------------------- */

/* Every run's curves: curves.csv phases if the run has any, else its plain phases. */
static void s_run_curves(const lst_report *r, struct lst_curves *cs)
{
	for (size_t i = 0; i < r->nphases; i++) {
		struct lst_curves one = { 0 };

		lst_curves_phase(r, r->phases[i].name, false, &one);
		if (one.from_summary && r->ncurves)
			lst_curves_free(&one); /* the run has real curves: use only those */
		if (!one.n)
			continue;
		cs->c = lst_realloc(cs->c, (cs->n + one.n + 1) * sizeof(*cs->c));
		memcpy(cs->c + cs->n, one.c, one.n * sizeof(*one.c));
		cs->n += one.n;
		free(one.c);
	}
}

static bool s_has_curve(const struct lst_curves *cs, const struct lst_curve *c)
{
	for (size_t i = 0; i < cs->n; i++)
		if (lst_curves_same(&cs->c[i], c))
			return true;
	return false;
}

static void s_compare_name(const struct lst_curve *c, bool with_phase, char *buf, size_t size)
{
	if (with_phase && strcmp(c->name, c->phase))
		snprintf(buf, size, "%s: %s", c->phase, c->name);
	else
		snprintf(buf, size, "%s", c->name);
}

/* A run's line style in the comparison: the first solid with filled points, the next ones
 * dashed, dotted, ... with open points (gnuplot's dash types and point types by number). */
static void s_run_style(size_t run, char *dt, char *pt, char *lw, size_t size)
{
	static const int pts[] = { 7, 6, 4, 8, 12, 2, 3, 1 };

	snprintf(dt, size, "%zu", run % 5 + 1);
	snprintf(pt, size, "%d", pts[run % LST_ARRAY_SIZE(pts)]);
	snprintf(lw, size, "%s", run ? "1.5" : "2");
}

/* One curve of the comparison: run, curve i, statistic s. */
static void s_compare_curve(FILE *f, const struct lst_curves *runs, size_t run, size_t i, int s,
			    size_t ci, bool phases, bool first)
{
	char var[32], col[16], gname[256], dt[8], pt[8], lw[8], rv[8], *q, *title;
	bool named = false;

	s_compare_name(&runs[run].c[i], phases, gname, sizeof(gname));
	/* Name each color once: on the first run's curve that has it. */
	for (size_t k = 0; k < run && !named; k++)
		named = s_has_curve(&runs[k], &runs[run].c[i]);
	if (!named) {
		q = lst_plot__qstr("%s", gname);
		title = lst_asprintf("t %s", q);
		free(q);
	} else {
		title = lst_strdup("notitle");
	}
	snprintf(var, sizeof(var), "%zu", i);
	snprintf(col, sizeof(col), "%d", s_stat_cols[s]);
	snprintf(rv, sizeof(rv), "r%zu_", run);
	s_run_style(run, dt, pt, lw, sizeof(dt));
	lst_plot_tpl(f, "lat", "compare_curve",
		     (const struct lst_tpl_arg[]){
			     { "sep", first ? "" : ", \\\n" },
			     { "run", rv },
			     { "i", var },
			     { "col", col },
			     { "color", lst_plot__colors[ci % lst_plot__ncolors] },
			     { "lw", lw },
			     { "dt", dt },
			     { "pt", pt },
			     { "title", title },
			     { NULL, NULL },
		     });
	free(title);
}

/* The key entries naming the runs by their line style. */
static void s_compare_runs_key(FILE *f, const char *const *names, size_t n)
{
	for (size_t run = 0; run < n; run++) {
		char dt[8], pt[8], lw[8],
			*q = lst_plot__qstr("%c: %s", (char)('A' + run), names[run]);

		s_run_style(run, dt, pt, lw, sizeof(dt));
		lst_plot_tpl(f, "lat", "compare_run",
			     (const struct lst_tpl_arg[]){ { "lw", lw },
							   { "dt", dt },
							   { "pt", pt },
							   { "name", q },
							   { NULL, NULL } });
		free(q);
	}
	fputc('\n', f);
}

/* The comparison after its data blocks (plots/lat.gp): one panel per latency statistic. */
static void s_compare_body(FILE *f, const struct lst_curves *runs, size_t n, size_t *const *color,
			   bool phases, double limit, const char *title, const char *const *names)
{
	char *qtitle = lst_plot__qstr("%s", title);

	lst_plot_tpl(f, "lat", "compare_title",
		     (const struct lst_tpl_arg[]){ { "title", qtitle }, { NULL, NULL } });
	s_lat_axes(f);
	lst_plot_tpl(f, "lat", "compare_key", NULL);
	for (int s = 0; s < 3; s++) {
		bool first = true;

		lst_plot_tpl(f, "lat", "compare_panel",
			     (const struct lst_tpl_arg[]){ { "stat", s_stat_names[s] },
							   { NULL, NULL } });
		s_limit_line(f, &runs[0], n > 1 ? &runs[1] : NULL, s, limit);
		if (s == 1)
			lst_plot_tpl(f, "lat", "compare_nokey", NULL);
		lst_plot_tpl(f, "lat", "compare_plot", NULL);
		for (size_t run = 0; run < n; run++)
			for (size_t i = 0; i < runs[run].n; i++) {
				s_compare_curve(f, runs, run, i, s, color[run][i], phases, first);
				first = false;
			}
		s_compare_runs_key(f, names, n);
	}
	free(qtitle);
}

/* One color per (phase, curve), the same in every run: color[run][i]. */
static size_t **s_compare_colors(const struct lst_curves *runs, size_t n, bool *phases)
{
	size_t **color = lst_calloc(n + 1, sizeof(*color)), ncolor = 0;
	const char *phase0 = NULL;

	for (size_t run = 0; run < n; run++) {
		color[run] = lst_calloc(runs[run].n + 1, sizeof(**color));
		for (size_t i = 0; i < runs[run].n; i++) {
			const struct lst_curve *g = &runs[run].c[i];

			color[run][i] = SIZE_MAX;
			for (size_t k = 0; k <= run && color[run][i] == SIZE_MAX; k++)
				for (size_t j = 0; j < (k < run ? runs[k].n : i); j++)
					if (lst_curves_same(g, &runs[k].c[j])) {
						color[run][i] = color[k][j];
						break;
					}
			if (color[run][i] == SIZE_MAX)
				color[run][i] = ncolor++;
			if (!phase0)
				phase0 = g->phase;
			else if (strcmp(g->phase, phase0))
				*phases = true;
		}
	}
	return color;
}

/* The plot's title: the runs, one line each when their plans or targets differ. */
static void s_compare_title(const lst_report *const *r, const char *const *names, size_t n,
			    char *buf, size_t size)
{
	bool same = true;
	size_t len;

	for (size_t k = 1; k < n; k++)
		same &= !strcmp(r[k]->title, r[0]->title);
	len = (size_t)snprintf(buf, size, "Latency vs IOPS of %zu runs%s%s", n, same ? ": " : "",
			       same ? r[0]->title : "");
	for (size_t k = 0; k < n && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%c %s%s%s, run %s",
					same ? (k ? "; " : "\n") : "\n", (char)('A' + k), names[k],
					same ? "" : ": ", same ? "" : r[k]->title, r[k]->run_id);
}

int lst_plot_compare(const lst_report *const *r, const char *const *names, size_t n,
		     const char *outdir, struct lst_plot_list *made, lst_err *err)
{
	struct lst_curves *runs = lst_calloc(n + 1, sizeof(*runs));
	const char *name = "compare_lat_vs_iops";
	bool phases = false, any = false;
	char source[1024], title[1024];
	struct lst_plot__ctx c;
	size_t **color, len = 0;
	double limit = 0;
	FILE *f;
	int rc;

	for (size_t k = 0; k < n; k++) {
		s_run_curves(r[k], &runs[k]);
		if (runs[k].n && !any)
			limit = lst_headline_limit(r[k], runs[k].c[0].phase, NULL);
		any |= runs[k].n > 0;
		len += (size_t)snprintf(source + LST_MIN(len, sizeof(source) - 1),
					sizeof(source) - LST_MIN(len, sizeof(source) - 1), "%s%s",
					k ? (k + 1 < n ? ", " : " and ") : "", r[k]->dir);
	}
	if (!any) {
		rc = 1;
		if (made)
			memset(made, 0, sizeof(*made));
		goto free_curves;
	}
	rc = lst_plot__ctx_init(&c, outdir, source, made, err);
	if (rc)
		goto free_curves;
	color = s_compare_colors(runs, n, &phases);
	f = lst_plot__script(&c, name,
			     "latency against IOPS of several runs: the first solid, the others "
			     "dashed or dotted");
	if (!f)
		goto free_color;
	for (size_t run = 0; run < n; run++)
		for (size_t i = 0; i < runs[run].n; i++) {
			char var[32], gname[256];

			snprintf(var, sizeof(var), "$r%zu_%zu", run, i);
			s_compare_name(&runs[run].c[i], true, gname, sizeof(gname));
			s_curve_block(f, var, &runs[run].c[i], gname);
		}
	lst_plot__begin(f, name, 1800, 680 + 20 * (int)n);
	s_compare_title(r, names, n, title, sizeof(title));
	s_compare_body(f, runs, n, color, phases, limit, title, names);
	lst_plot__end(f);
	lst_plot__draw(&c, f, name);
free_color:
	for (size_t k = 0; k < n; k++)
		free(color[k]);
	free(color);
	rc = lst_plot__ctx_exit(&c);
free_curves:
	for (size_t k = 0; k < n; k++)
		lst_curves_free(&runs[k]);
	free(runs);
	return rc;
}

int lst_plot_all(const char *dir, lst_report_plan_fn plan, lst_err *err)
{
	lst_report *r = lst_report_load(dir, plan, err);
	char *out;
	int rc;

	if (!r)
		return err ? err->code : -EINVAL;
	out = lst_asprintf("%s/plots", dir);
	rc = lst_plot_report(r, out, NULL, err);
	free(out);
	lst_report_destroy(&r);
	return rc;
}
