/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The timeseries family (plots/timeseries.gp): per phase, IOPS, MB/s and latency against time,
 * the combined line with each agent's or path's under it, point and round boundaries and the
 * plan's events marked, thinned to about S_TS_MAX_ROWS rows a line; a suite test of many
 * points also gets a plot per round or per test. Its data blocks and scan serve the HIR family
 * too (lst_plot_int.h).
 */
#include "lst_plot.h"
#include "lst_report_curves.h"
#include "lst_figures.h"
#include "lst_plot_int.h"
#include "lst_report_sections.h"

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
#define S_SPLIT_POINTS 60    /* a suite test with more points gets a time series per round */
#define S_TS_COLS 8	     /* values of a timeseries row (s_bucket) */
#define S_TS_P99 5	     /* from here on they are p99s: a bucket keeps the highest */

/* Time axis: seconds since the phase's first row in s, min or h; divisor and label. */
double lst_plot__time_unit(double span, const char **unit)
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
 * Where a plot's rows come from: the row arrays of r (a view, or a part's copy of one), or
 * timeseries.csv itself, read as the plot goes (file: r holds no rows). A whole phase's plot
 * reads the file, twice (a scan, then its lines), so that a phase of any length is never in
 * memory: only its combined rows' times and each line's bucket are.
 */
struct s_src {
	const lst_report *r;
	bool file;
};

typedef int (*s_row_fn)(const struct lst_rpt_ts *t, bool part, void *arg);

/* fn for each row of phase: r's combined and agents' rows, then its parts (file order in each),
 * or the file's rows in its order. Returns 0, or -errno after a warning (the file went bad). */
static int s_src_each(const struct s_src *src, const char *phase, s_row_fn fn, void *arg)
{
	const lst_report *r = src->r;
	lst_err err;
	int rc;

	if (!src->file) {
		for (size_t i = 0; i < r->nts; i++)
			if (!strcmp(r->ts[i].phase, phase))
				fn(&r->ts[i], false, arg);
		for (size_t i = 0; i < r->nts_parts; i++)
			if (!strcmp(r->ts_parts[i].phase, phase))
				fn(&r->ts_parts[i], true, arg);
		return 0;
	}
	if ((rc = lst_report_ts_rows(r, phase, fn, arg, &err)))
		lst_log_warn("plots of phase %s: %s", phase, err.msg);
	return rc;
}

/* A point's first combined row: where its boundary is drawn. */
struct s_ts_start {
	long point;
	double t_s;
};

/*
 * A phase's scan (lst_plot__ts_scan) with what its plot needs of the combined rows: their times
 * in file order (the gap and the grid) and where the point changes (the marks). The names are
 * copies, as a file's rows do not outlive their call.
 */
struct s_scan {
	struct lst_plot__ts_scan o;
	double *t;
	size_t nt, tcap;
	struct s_ts_start *start;
	size_t nstart, startcap;
	long last_point;
	bool copy; /* the rows are the file's: names are copied */
	char *names[3 * 64];
	size_t nnames;
};

static const char *s_scan_name(struct s_scan *s, const char *name)
{
	if (!s->copy)
		return name;
	LST_ASSERT(s->nnames < LST_ARRAY_SIZE(s->names));
	return s->names[s->nnames++] = lst_strdup(name);
}

static int s_scan_row(const struct lst_rpt_ts *t, bool part, void *arg)
{
	struct s_scan *s = arg;
	struct lst_plot__ts_scan *o = &s->o;
	bool known = false;

	if (part) { /* the paths of its path rows, in the order they first appear */
		if (strcmp(t->scope, "path"))
			return 0;
		for (size_t k = 0; k < o->npaths; k++)
			known |= !strcmp(o->paths[k], t->path) &&
				 !strcmp(o->path_agents[k], t->agent);
		if (!known && o->npaths < LST_ARRAY_SIZE(o->paths)) {
			o->path_agents[o->npaths] = s_scan_name(s, t->agent);
			o->paths[o->npaths++] = s_scan_name(s, t->path);
		}
		return 0;
	}
	if (strcmp(t->agent, "all")) {
		for (size_t k = 0; k < o->nagents; k++)
			known |= !strcmp(o->agents[k], t->agent);
		if (!known && o->nagents < LST_ARRAY_SIZE(o->agents))
			o->agents[o->nagents++] = s_scan_name(s, t->agent);
		return 0;
	}
	o->nrows++;
	o->t0 = LST_MIN(o->t0, t->t_s);
	o->t1 = LST_MAX(o->t1, t->t_s);
	o->rd += t->iops[0];
	o->wr += t->iops[1];
	o->latmax = LST_MAX(o->latmax, t->lat_p99);
	if (t->point != s->last_point) {
		o->npoints++;
		if (s->nstart == s->startcap) {
			s->startcap = s->startcap ? 2 * s->startcap : 64;
			s->start = lst_realloc(s->start, s->startcap * sizeof(*s->start));
		}
		s->start[s->nstart++] = (struct s_ts_start){ t->point, t->t_s };
	}
	s->last_point = t->point;
	if (s->nt == s->tcap) {
		s->tcap = s->tcap ? 2 * s->tcap : 256;
		s->t = lst_realloc(s->t, s->tcap * sizeof(*s->t));
	}
	s->t[s->nt++] = t->t_s;
	return 0;
}

static void s_scan_exit(struct s_scan *s)
{
	for (size_t i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->t);
	free(s->start);
	memset(s, 0, sizeof(*s));
}

/* Scan a phase's rows into s. Returns 0, or -errno (warned; s is then empty). */
static int s_scan(const struct s_src *src, const char *phase, struct s_scan *s)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->o.t0 = INFINITY;
	s->o.t1 = -INFINITY;
	s->last_point = -1;
	s->copy = src->file;
	if ((rc = s_src_each(src, phase, s_scan_row, s)))
		s_scan_exit(s);
	return rc;
}

void lst_plot__ts_scan(const lst_report *r, const char *phase, struct lst_plot__ts_scan *o)
{
	struct s_scan s;
	struct s_src src = { r, false };

	s_scan(&src, phase, &s);
	*o = s.o; /* its names are r's own: nothing copied */
	s_scan_exit(&s);
}

/*
 * The times of a phase's combined rows, sorted: where the phase did I/O. A single agent's or
 * path's line breaks where it skips one of them (it took no part in that point: a port set
 * without it), whatever the gap rule says, so no line is drawn through a stretch where that
 * path did no I/O.
 */
struct lst_plot__ts_grid {
	double *t;
	size_t n;
	double eps; /* a quarter of the median step: agents' rows of one interval differ by us */
};

static int s_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The grid of the n combined rows' times t (file order). */
static void s_ts_grid_init(struct lst_plot__ts_grid *g, const double *t, size_t n)
{
	double *d;

	g->t = lst_calloc(n + 1, sizeof(*g->t));
	g->n = n;
	memcpy(g->t, t, n * sizeof(*t));
	qsort(g->t, g->n, sizeof(*g->t), s_dbl_cmp);
	d = lst_calloc(g->n + 1, sizeof(*d));
	for (size_t i = 1; i < g->n; i++)
		d[i - 1] = g->t[i] - g->t[i - 1];
	qsort(d, g->n ? g->n - 1 : 0, sizeof(*d), s_dbl_cmp);
	g->eps = g->n > 1 ? d[(g->n - 1) / 2] / 4 : 0;
	free(d);
}

static void s_ts_grid_exit(struct lst_plot__ts_grid *g)
{
	free(g->t);
	memset(g, 0, sizeof(*g));
}

/* The phase did I/O strictly between a and b (a < b), beyond the grid's tolerance. */
static bool s_ts_grid_between(const struct lst_plot__ts_grid *g, double a, double b)
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

/* One line's datablock being written: its rows summed into buckets of k. */
struct s_line {
	FILE *f;
	const char *agent, *path; /* path NULL: the agent's (or the combined) rows */
	const struct lst_plot__ts_grid *grid;
	bool full;
	size_t k;
	struct s_bucket b;
	double last;
};

static void s_line_start(struct s_line *l, FILE *f, const char *var, const char *agent,
			 const char *path, size_t nrows, const struct lst_plot__ts_grid *grid,
			 bool full)
{
	*l = (struct s_line){ f, agent, path, grid, full, 1, { .n = 0 }, NAN };
	l->k = nrows > S_TS_MAX_ROWS ? (nrows + S_TS_MAX_ROWS - 1) / S_TS_MAX_ROWS : 1;
	fprintf(f, "%s << EOD\n", var);
	lst_plot__comment(
		f, "%s %s%s%s: t (since the phase start), IOPS, read IOPS, write IOPS, MB/s%s%s",
		path ? "path" : "agent", agent, path ? ":" : "", path ? path : "",
		full ? ", mean latency, p99, read p99, write p99 (us)" : "",
		l->k > 1 ? "; rows averaged in groups (p99s: the highest of the group)" : "");
}

/* A row of the line (its phase, agent and path checked by the caller). */
static void s_line_row(struct s_line *l, const struct lst_rpt_ts *t, double t0, double div,
		       double gap)
{
	double v[S_TS_COLS] = { t->iops[0] + t->iops[1], t->iops[0],	   t->iops[1],
				t->mbps[0] + t->mbps[1], t->lat_mean,	   t->lat_p99,
				t->lat_p99_dir[0],	 t->lat_p99_dir[1] };
	bool broken =
		isfinite(l->last) && (t->t_s - l->last > gap ||
				      (l->grid && s_ts_grid_between(l->grid, l->last, t->t_s)));

	if (l->b.n && (broken || l->b.n == l->k))
		s_bucket_flush(l->f, &l->b, t0, div, l->full);
	if (broken)
		fputc('\n', l->f);
	if (!l->b.n) {
		l->b.t = t->t_s;
		memset(l->b.v, 0, sizeof(l->b.v));
	}
	for (int j = 0; j < S_TS_COLS; j++)
		l->b.v[j] = j < S_TS_P99  ? l->b.v[j] + v[j]
			    : isnan(v[j]) ? l->b.v[j]
					  : LST_MAX(l->b.v[j], v[j]);
	l->b.n++;
	l->last = t->t_s;
}

static void s_line_end(struct s_line *l, double t0, double div)
{
	s_bucket_flush(l->f, &l->b, t0, div, l->full);
	fputs("EOD\n", l->f);
}

/*
 * Rows of phase and agent (path NULL), or of the agent's path (r->ts_parts), as a datablock: t,
 * IOPS, read IOPS, write IOPS, MB/s, then (full) mean and p99 latency, read and write p99. A
 * blank line where more than `gap` seconds pass between rows (ramps excluded from the
 * results, idle gaps), and (grid, for a single agent's or path's line) where the line skips
 * rows the phase has, so lines break where there is no data. Thinned to about S_TS_MAX_ROWS
 * rows.
 */
void lst_plot__ts_block(FILE *f, const lst_report *r, const char *var, const char *phase,
			const char *agent, const char *path, size_t nrows, double t0, double div,
			double gap, const struct lst_plot__ts_grid *grid, bool full)
{
	const struct lst_rpt_ts *rows = path ? r->ts_parts : r->ts;
	size_t n = path ? r->nts_parts : r->nts;
	struct s_line l;

	s_line_start(&l, f, var, agent, path, nrows, grid, full);
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_ts *t = &rows[i];

		if (!strcmp(t->phase, phase) && !strcmp(t->agent, agent) &&
		    (!path || (!strcmp(t->scope, "path") && !strcmp(t->path, path))))
			s_line_row(&l, t, t0, div, gap);
	}
	s_line_end(&l, t0, div);
}

/*
 * 1.5 x the median step between a phase's combined rows (times t, n of them in file order):
 * longer steps are gaps in the data (ramps, idle time) where lines break. When breaking would
 * leave pieces shorter than S_MIN_RUN rows (many short points), lines are drawn through the
 * gaps instead: a plot of dashes says less than one with a few bridged gaps.
 */
static double s_ts_gap(const double *t, size_t n)
{
	double *d = lst_calloc(n + 1, sizeof(*d)), gap;
	size_t nd = 0, gaps = 0;

	for (size_t i = 1; i < n; i++)
		if (t[i] > t[i - 1])
			d[nd++] = t[i] - t[i - 1];
	qsort(d, nd, sizeof(*d), s_dbl_cmp);
	gap = nd ? 1.5 * d[nd / 2] : INFINITY;
	for (size_t i = 0; i < nd; i++)
		gaps += d[i] > gap;
	if (n < S_MIN_RUN * (gaps + 1))
		gap = INFINITY;
	free(d);
	return gap;
}

double lst_plot__ts_gap(const lst_report *r, const char *phase)
{
	struct s_scan s;
	struct s_src src = { r, false };
	double gap;

	s_scan(&src, phase, &s);
	gap = s_ts_gap(s.t, s.nt);
	s_scan_exit(&s);
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

/*
 * The thin lines under the combined one: each path's when the phase has path rows of 2+ paths,
 * else each agent's when there are 2+; 0 when neither.
 */
static size_t s_ts_nlines(const struct lst_plot__ts_scan *sc)
{
	if (sc->npaths > 1)
		return sc->npaths;
	return sc->nagents > 1 ? sc->nagents : 0;
}

/* "agent a" or "path a:/dev/sdb": what thin line k is, for its key entry. */
static void s_ts_line_name(const struct lst_plot__ts_scan *sc, size_t k, char *buf, size_t size)
{
	if (sc->npaths > 1)
		snprintf(buf, size, "path %s:%s", sc->path_agents[k], sc->paths[k]);
	else
		snprintf(buf, size, "agent %s", sc->agents[k]);
}

static const char *s_agent_color(size_t k)
{
	return lst_plot__agent_colors[k % lst_plot__nagent_colors];
}

/* Point boundaries, when there are few enough to read. */
static void s_ts_marks(FILE *f, const lst_report *r, const char *phase, const struct s_scan *sc,
		       double div)
{
	if (sc->o.npoints <= 1 || sc->o.npoints > S_MARK_MAX_POINTS)
		return;
	for (size_t i = 0; i < sc->nstart; i++) {
		const struct s_ts_start *t = &sc->start[i];
		const char *label;
		char x[32], *q;

		label = s_point_label(r, phase, t->point);
		q = lst_plot__qstr("%s", *label ? label : "-");
		snprintf(x, sizeof(x), "%.7g", (t->t_s - sc->o.t0) / div);
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
static size_t s_ts_bound_list(const struct s_scan *sc, double div, const struct s_ts_where *w,
			      size_t n, bool rounds, size_t ntests, struct s_ts_bound *b)
{
	const struct s_ts_where *prev = NULL;
	long last_point = -1;
	size_t m = 0;

	for (size_t i = 0; i < sc->nstart && m < n; i++) {
		const struct s_ts_start *t = &sc->start[i];
		const struct s_ts_where *h;
		bool new_test;

		if (t->point == last_point || t->point < 0 || (size_t)t->point >= n ||
		    !w[t->point].test)
			continue;
		last_point = t->point;
		h = &w[t->point];
		new_test = !prev || strcmp(prev->test, h->test);
		if (rounds && !new_test && prev->round == h->round)
			continue;
		prev = h;
		b[m] = (struct s_ts_bound){ .x = (t->t_s - sc->o.t0) / div,
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
static void s_ts_bounds(FILE *f, const lst_report *r, const char *phase, const struct s_scan *sc,
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
	m = s_ts_bound_list(sc, div, w, n, rounds, ntests, b);
	s_ts_bound_labels(b, m, (sc->o.t1 - sc->o.t0) / div);
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
 * The phase's events (events.csv): a dashed line at each hook's start, labelled with
 * the hook, placed by its point's start (summary.csv's t_s) plus its t_start. Nothing is
 * written for a phase without events, so such plots stay as they were.
 */
static void s_ts_events(FILE *f, const lst_report *r, const char *phase,
			const struct lst_plot__ts_scan *sc, double div)
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
static void s_ts_iops_plot(FILE *f, const struct lst_plot__ts_scan *sc)
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
static void s_ts_mbps_plot(FILE *f, const struct lst_plot__ts_scan *sc)
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
		      const char *part, const struct s_scan *scan, double div, const char *unit)
{
	const struct lst_plot__ts_scan *sc = &scan->o;
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
	s_ts_bounds(f, r, ph->name, scan, div);
	s_ts_events(f, r, ph->name, sc, div);
	s_ts_iops_plot(f, sc);
	if (ph->sequential)
		s_ts_mbps_plot(f, sc);
}

/* The lines of a phase's plot as the rows come: the combined one, then the thin ones. */
struct s_feed {
	struct s_line *line; /* [0]: the combined rows; then each path's or agent's */
	size_t nlines;
	bool paths; /* the thin lines are paths' */
	double t0, div, gap;
};

/* The line a row belongs to, fd->nlines for none. */
static size_t s_feed_line(const struct s_feed *fd, const struct lst_rpt_ts *t, bool part)
{
	if (!part && !strcmp(t->agent, "all"))
		return 0;
	if (part != fd->paths || (part && strcmp(t->scope, "path")))
		return fd->nlines;
	for (size_t k = 1; k < fd->nlines; k++)
		if (!strcmp(fd->line[k].agent, t->agent) &&
		    (!part || !strcmp(fd->line[k].path, t->path)))
			return k;
	return fd->nlines;
}

static int s_feed_row(const struct lst_rpt_ts *t, bool part, void *arg)
{
	struct s_feed *fd = arg;
	size_t k = s_feed_line(fd, t, part);

	if (k < fd->nlines)
		s_line_row(&fd->line[k], t, fd->t0, fd->div, fd->gap);
	return 0;
}

/*
 * The datablocks of a phase's plot into f, $all then $a0, $a1...: one pass over the rows, the
 * combined line written to f as it goes and each thin one to a file of its own (in the plots'
 * folder, unlinked at once), copied after it: a line's rows are thinned to S_TS_MAX_ROWS, but
 * 64 of them held in memory would be more than the rows' own buckets. Returns 0 or -errno.
 */
static int s_ts_blocks(struct lst_plot__ctx *c, FILE *f, const struct s_src *src, const char *phase,
		       const struct s_scan *scan, double div, double gap,
		       const struct lst_plot__ts_grid *grid)
{
	const struct lst_plot__ts_scan *sc = &scan->o;
	struct s_line line[1 + LST_ARRAY_SIZE(sc->agents)];
	struct s_feed fd = { line, 1 + s_ts_nlines(sc), sc->npaths > 1, sc->t0, div, gap };
	int rc = 0;

	s_line_start(&line[0], f, "$all", "all", NULL, sc->nrows, NULL, true);
	for (size_t k = 1; k < fd.nlines; k++) {
		char var[32], *tmp = lst_asprintf("%s/.timeseries.XXXXXX", c->outdir);
		int fdn = mkstemp(tmp);
		FILE *lf = fdn >= 0 ? fdopen(fdn, "w+") : NULL;

		if (fdn >= 0)
			unlink(tmp);
		free(tmp);
		if (!lf) {
			rc = -errno;
			if (fdn >= 0)
				close(fdn);
			fd.nlines = k;
			break;
		}
		snprintf(var, sizeof(var), "$a%zu", k - 1);
		s_line_start(&line[k], lf, var,
			     fd.paths ? sc->path_agents[k - 1] : sc->agents[k - 1],
			     fd.paths ? sc->paths[k - 1] : NULL, sc->nrows, grid, false);
	}
	if (!rc)
		rc = s_src_each(src, phase, s_feed_row, &fd);
	s_line_end(&line[0], sc->t0, div);
	for (size_t k = 1; k < fd.nlines; k++) {
		char buf[65536];
		size_t n;

		s_line_end(&line[k], sc->t0, div);
		rewind(line[k].f);
		while ((n = fread(buf, 1, sizeof(buf), line[k].f)))
			fwrite(buf, 1, n, f);
		if (ferror(line[k].f) && !rc)
			rc = -EIO;
		fclose(line[k].f);
	}
	return rc;
}

/*
 * timeseries_PHASE, or of one part of a suite phase (part: "TEST" or "TEST round N", src's
 * report holding only its points: s_ts_parts) timeseries_PHASE_PART.
 */
static void s_plot_timeseries(struct lst_plot__ctx *c, const struct s_src *src,
			      const struct lst_rpt_phase *ph, const char *part)
{
	const lst_report *r = src->r;
	struct s_scan sc;
	struct lst_plot__ts_grid grid;
	const char *unit, *name;
	double div, gap;
	FILE *f;

	if (s_scan(src, ph->name, &sc))
		return;
	if (!sc.o.nrows)
		goto out;
	div = lst_plot__time_unit(sc.o.t1 - sc.o.t0, &unit);
	name = lst_plot__name(c, "timeseries", ph->name, part);
	f = lst_plot__script(c, name,
			     sc.o.npaths > 1
				     ? "IOPS and latency over time, combined and per path"
				     : "IOPS and latency over time, combined and per agent");
	if (!f)
		goto out;
	gap = s_ts_gap(sc.t, sc.nt);
	s_ts_grid_init(&grid, sc.t, sc.nt);
	if (s_ts_blocks(c, f, src, ph->name, &sc, div, gap, &grid))
		lst_log_warn("plot %s: its rows were not all written", name);
	s_ts_grid_exit(&grid);
	lst_plot__begin(f, name, 1200, ph->sequential ? 950 : 700);
	s_ts_body(f, r, ph, part, &sc, div, unit);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
out:
	s_scan_exit(&sc);
}

/* A whole phase's, its rows read from timeseries.csv as the plot is written (r holds none). */
void lst_plot__timeseries(struct lst_plot__ctx *c, const lst_report *r,
			  const struct lst_rpt_phase *ph)
{
	struct s_src src = { r, true };

	s_plot_timeseries(c, &src, ph, NULL);
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
	s_plot_timeseries(c, &(struct s_src){ &sub, false }, ph, part);
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
void lst_plot__ts_parts(struct lst_plot__ctx *c, const lst_report *r,
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
