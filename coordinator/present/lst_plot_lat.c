/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency-vs-IOPS family (plots/lat.gp, plots/cmp.gp): per phase, the curves of
 * lst_report_curves.h with their headline crossings marked, the curves of each path, and the curves of
 * several runs overlaid (lst_plot_compare).
 */
#include "lst_plot.h"
#include "lst_report_curves.h"
#include "lst_figures.h"
#include "lst_plot_int.h"

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

#define S_TITLE_LINE 100 /* characters in a line of a title before it breaks */

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

void lst_plot__lat_vs_iops(struct lst_plot__ctx *c, const lst_report *r,
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
void lst_plot__lat_paths(struct lst_plot__ctx *c, const lst_report *r,
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

/* --- several runs: latency against IOPS overlaid ---------------------------------------------- */

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
