/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The charts of a comparison of several runs beyond the latency-vs-IOPS overlay (lst_plot_lat.c):
 * every run on each chart, in one colour each, named as the comparison names it ("A: name").
 *
 *   compare_iops_PHASE     IOPS over the phase's time, a line per run (x: seconds since the
 *                          phase's first point in that run; no line across the idle time
 *                          between points)
 *   compare_wsat_PHASE     snia-wsat: IOPS per round against the data written, a line per run
 *   compare_matrix_PHASE   the IOPS matrix: a panel per read/write mix, a bar per run for each
 *                          block size
 *
 * A chart is drawn for a phase that run A and at least one later run have.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_plot.h"
#include "lst_plot_int.h"
#include "lst_plot_tpl.h"
#include "lst_assert.h"
#include "lst_compare.h"
#include "lst_log.h"
#include "lst_report_text.h"
#include "lst_util.h"

/* Where the charts of one comparison go. */
struct s_cmp {
	struct lst_plot__ctx *c;
	const lst_report *const *runs;
	const char *const *names;
	size_t n;
};

/* Run k's name as the key shows it, quoted for gnuplot (the caller frees). */
static char *s_qname(const struct s_cmp *m, size_t k)
{
	return lst_plot__qstr("%c: %s", (char)('A' + k), m->names[k]);
}

/* Run k's line: its colour, and the first run solid and thicker. */
static void s_style(size_t k, const char **color, char *dt, char *lw, char *pt, size_t size)
{
	*color = lst_plot__colors[k % lst_plot__ncolors];
	snprintf(dt, size, "%zu", k % 5 + 1);
	snprintf(lw, size, "%s", k ? "1.5" : "2");
	snprintf(pt, size, "%zu", (k * 2) % 12 + 5);
}

/* Whether run r has rows of phase in its time series. */
static bool s_has_ts(const lst_report *r, const char *phase)
{
	for (size_t i = 0; i < r->nts; i++)
		if (!strcmp(r->ts[i].phase, phase) && !strcmp(r->ts[i].agent, "all"))
			return true;
	return false;
}

/* The time series of phase in run r as datablock $rK: seconds since the phase's first row,
 * IOPS; a blank line between points, so no line is drawn across the time without I/O. */
static void s_ts_block(FILE *f, const lst_report *r, size_t k, const char *phase)
{
	double t0 = NAN;
	long point = -1;

	fprintf(f, "$r%zu << EOD\n", k);
	lst_plot__comment(f, "run %c: seconds since the phase's first row, IOPS", (char)('A' + k));
	for (size_t i = 0; i < r->nts; i++) {
		const struct lst_rpt_ts *t = &r->ts[i];

		if (strcmp(t->phase, phase) || strcmp(t->agent, "all") ||
		    (*t->scope && strcmp(t->scope, "all")))
			continue;
		if (isnan(t0))
			t0 = t->t_s;
		if (point >= 0 && t->point != point)
			fputc('\n', f);
		point = t->point;
		lst_plot__num(f, t->t_s - t0);
		lst_plot__num(f, t->iops[0] + t->iops[1]);
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

/* The WSAT rounds of phase in run r as datablock $rK: GB written, IOPS. */
static void s_wsat_block(FILE *f, const lst_report *r, size_t k, const char *phase)
{
	fprintf(f, "$r%zu << EOD\n", k);
	lst_plot__comment(f, "run %c: GB written in the phase, IOPS of the round", (char)('A' + k));
	for (size_t i = 0; i < r->nrounds; i++) {
		if (strcmp(r->rounds[i].phase, phase))
			continue;
		lst_plot__num(f, r->rounds[i].bytes_written / 1e9);
		lst_plot__num(f, r->rounds[i].iops);
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

/* One line chart of phase over the runs that have it (has), from their datablocks (block). */
static void s_lines(struct s_cmp *m, const char *prefix, const char *phase, const char *what,
		    bool (*has)(const lst_report *, const char *),
		    void (*block)(FILE *, const lst_report *, size_t, const char *))
{
	bool wsat = !strcmp(prefix, "compare_wsat");
	const char *name = lst_plot__name(m->c, prefix, phase, NULL);
	char *title;
	bool first = true;
	FILE *f = lst_plot__script(m->c, name, what);

	if (!f)
		return;
	for (size_t k = 0; k < m->n; k++)
		if (has(m->runs[k], phase))
			block(f, m->runs[k], k, phase);
	lst_plot__begin(f, name, 1400, 640);
	title = lst_plot__qstr("%s, phase %s: %s", wsat ? "WSAT IOPS per round" : "IOPS over time",
			       phase, m->runs[0]->title);
	lst_plot_tpl(f, "cmp", wsat ? "wsat_head" : "ts_head",
		     (const struct lst_tpl_arg[]){ { "title", title }, { NULL, NULL } });
	free(title);
	for (size_t k = 0; k < m->n; k++) {
		char dt[8], lw[8], pt[8], idx[16], *q;
		const char *color;

		if (!has(m->runs[k], phase))
			continue;
		s_style(k, &color, dt, lw, pt, sizeof(dt));
		snprintf(idx, sizeof(idx), "%zu", k);
		q = s_qname(m, k);
		lst_plot_tpl(f, "cmp", wsat ? "wsat_line" : "ts_line",
			     (const struct lst_tpl_arg[]){ { "sep", first ? "" : ", \\\n" },
							   { "i", idx },
							   { "lw", lw },
							   { "dt", dt },
							   { "pt", pt },
							   { "color", color },
							   { "name", q },
							   { NULL, NULL } });
		free(q);
		first = false;
	}
	lst_plot_tpl(f, "cmp", "eol", NULL);
	lst_plot__end(f);
	lst_plot__draw(m->c, f, name);
}

static bool s_has_wsat(const lst_report *r, const char *phase)
{
	for (size_t i = 0; i < r->nrounds; i++)
		if (!strcmp(r->rounds[i].phase, phase))
			return true;
	return false;
}

/* Cell (bs, mix) of run r's matrix of phase, NAN when it has none. */
static double s_cell(const lst_report *r, const char *phase, double bs, const char *mix)
{
	const struct lst_rpt_matrix *m = lst_report_matrix(r, phase);

	for (size_t i = 0; m && i < m->nbs; i++)
		for (size_t x = 0; m->bs[i] == bs && x < m->nmix; x++)
			if (!strcmp(m->mix[x], mix))
				return m->iops[i * m->nmix + x];
	return NAN;
}

/* The matrix of phase: per mix of run A's matrix a panel, per block size a bar per run. */
static void s_matrix(struct s_cmp *m, const struct lst_rpt_matrix *ma)
{
	const char *name = lst_plot__name(m->c, "compare_matrix", ma->phase, NULL);
	FILE *f = lst_plot__script(m->c, name, "the IOPS matrix of several runs, a bar per run");
	char rows[16], cols[16], *title;
	size_t ncols, nrows;

	if (!f)
		return;
	for (size_t x = 0; x < ma->nmix; x++) {
		fprintf(f, "$m%zu << EOD\n", x);
		lst_plot__comment(f, "mix %s: block size, then the IOPS of each run", ma->mix[x]);
		for (size_t i = 0; i < ma->nbs; i++) {
			char bs[32];

			lst_plot__q(f, lst_report_bs(ma->bs[i], bs, sizeof(bs)));
			for (size_t k = 0; k < m->n; k++)
				lst_plot__num(f, lst_plot__pos(s_cell(m->runs[k], ma->phase,
								      ma->bs[i], ma->mix[x])));
			fputc('\n', f);
		}
		fputs("EOD\n", f);
	}
	/* up to 3 panels a row: SNIA's 7 mixes in 3 rows keep the picture under 1200 px high */
	ncols = LST_MIN(ma->nmix, ma->nmix > 4 ? 3 : 2);
	nrows = (ma->nmix + ncols - 1) / ncols;
	lst_plot__begin(f, name, 1800, 360 * (int)nrows + 80);
	snprintf(rows, sizeof(rows), "%zu", nrows);
	snprintf(cols, sizeof(cols), "%zu", ncols);
	title = lst_plot__qstr("IOPS matrix, phase %s: every run, a bar each", ma->phase);
	lst_plot_tpl(
		f, "cmp", "matrix_multiplot",
		(const struct lst_tpl_arg[]){
			{ "rows", rows }, { "cols", cols }, { "title", title }, { NULL, NULL } });
	free(title);
	for (size_t x = 0; x < ma->nmix; x++) {
		char *pt = lst_plot__qstr("read/write %s", ma->mix[x]);

		lst_plot_tpl(f, "cmp", "matrix_panel",
			     (const struct lst_tpl_arg[]){ { "title", pt }, { NULL, NULL } });
		free(pt);
		for (size_t k = 0; k < m->n; k++) {
			char p[16], col[16], *q = s_qname(m, k);

			snprintf(p, sizeof(p), "%zu", x);
			snprintf(col, sizeof(col), "%zu", k + 2);
			lst_plot_tpl(f, "cmp", "matrix_bar",
				     (const struct lst_tpl_arg[]){
					     { "p", p },
					     { "col", col },
					     { "xtic", k ? "" : ":xtic(1)" },
					     { "color", lst_plot__colors[k % lst_plot__ncolors] },
					     { "name", q },
					     { "sep", k + 1 < m->n ? ", \\" : "" },
					     { NULL, NULL } });
			free(q);
		}
	}
	lst_plot__end(f);
	lst_plot__draw(m->c, f, name);
}

/* Whether a later run than A has phase in its results (has). */
static bool s_shared(const struct s_cmp *m, const char *phase,
		     bool (*has)(const lst_report *, const char *))
{
	if (!has(m->runs[0], phase))
		return false;
	for (size_t k = 1; k < m->n; k++)
		if (has(m->runs[k], phase))
			return true;
	return false;
}

static bool s_has_matrix(const lst_report *r, const char *phase)
{
	return lst_report_matrix(r, phase) != NULL;
}

/* Append src's plots to dst's, emptying src. */
static void s_list_append(struct lst_plot_list *dst, struct lst_plot_list *src)
{
	dst->names = lst_realloc(dst->names, (dst->n + src->n + 1) * sizeof(*dst->names));
	dst->drawn = lst_realloc(dst->drawn, (dst->n + src->n + 1) * sizeof(*dst->drawn));
	for (size_t i = 0; i < src->n; i++) {
		dst->names[dst->n] = src->names[i];
		dst->drawn[dst->n++] = src->drawn[i];
	}
	free(src->names);
	free(src->drawn);
	memset(src, 0, sizeof(*src));
}

/*
 * The IOPS over time of phase in every run: each run seen through a view holding the phase's
 * timeseries rows (lst_report_ts_view), read for this chart alone.
 */
static void s_ts_lines(const struct s_cmp *m, const char *phase)
{
	lst_report views[LST_COMPARE_MAX_RUNS];
	const lst_report *runs[LST_COMPARE_MAX_RUNS];
	struct s_cmp mv = *m;
	size_t k;
	lst_err err;

	LST_ASSERT(m->n <= LST_COMPARE_MAX_RUNS);
	for (k = 0; k < m->n; k++) {
		if (lst_report_ts_view(m->runs[k], phase, &views[k], &err)) {
			lst_log_warn("plots of phase %s: %s", phase, err.msg);
			break;
		}
		runs[k] = &views[k];
	}
	mv.runs = runs;
	if (k == m->n && s_shared(&mv, phase, s_has_ts))
		s_lines(&mv, "compare_iops", phase, "IOPS over time of several runs, a line each",
			s_has_ts, s_ts_block);
	while (k-- > 0)
		lst_report_ts_view_exit(&views[k]);
}

int lst_plot_compare_all(const lst_report *const *runs, const char *const *names, size_t n,
			 const char *outdir, struct lst_plot_list *made, lst_err *err)
{
	struct lst_plot_list more = { 0 };
	struct lst_plot__ctx c;
	struct s_cmp m = { &c, runs, names, n };
	const lst_report *a = runs[0];
	size_t nmore;
	lst_err e2;
	int rc = lst_plot_compare(runs, names, n, outdir, made, err), rc2;

	rc2 = lst_plot__ctx_init(&c, outdir, a->dir, made ? &more : NULL, &e2);
	if (rc2)
		goto out;
	for (size_t i = 0; i < a->nphases; i++) {
		const char *ph = a->phases[i].name;

		if (!strcmp(a->phases[i].suite, "snia-wsat") && s_shared(&m, ph, s_has_wsat))
			s_lines(&m, "compare_wsat", ph,
				"snia-wsat of several runs: IOPS per round against data written",
				s_has_wsat, s_wsat_block);
		s_ts_lines(&m, ph);
	}
	for (size_t j = 0; j < a->nmatrices; j++)
		if (s_shared(&m, a->matrices[j].phase, s_has_matrix))
			s_matrix(&m, &a->matrices[j]);
	nmore = c.nused;
	rc2 = lst_plot__ctx_exit(&c);
	if (made)
		s_list_append(made, &more);
	if (rc == 1 && !nmore)
		return 1;
out:
	if (rc < 0) /* the overlay's failure came first */
		return rc;
	if (rc2)
		*err = e2;
	return rc2;
}
