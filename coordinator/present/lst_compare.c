/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Several runs of a plan compared with the first (before and after a resize, firmware versions,
 * drive models): points are matched by (phase, test, label) and each later run's change from
 * the first is given in percent, printed and written as compare.csv and compare.md; where the
 * first run and a later one have an IOPS matrix for a phase, the ratio of every cell goes to
 * compare_matrix-PHASE.csv.
 *
 * The table and the matrix must not contradict each other: the matrix holds the average of
 * each cell over the steady-state window, so a suite point whose test has a window is compared
 * by the average of its window rounds too (rates averaged as the writer averages them;
 * latencies as the plain average of the rounds' figures), and every row says its basis. A
 * repeated point is compared by its repeats' mean, and their spread decides "within noise" or
 * "changed" (lst_noise.h). Each side's figures are computed once, in lst_compare_new, and every
 * output reads them.
 */
#include "lst_compare.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_plot.h"
#include "lst_repeats.h"
#include "lst_report_text.h"
#include "lst_text.h"
#include "lst_util.h"

const char *const lst_compare_stats[LST_COMPARE_NSTATS] = {
	"iops",
	"mbps",
	"lat_mean_us",
	"lat_p99_us",
	"lat_p99_99_us",
	"read_lat_p99_us",
	"write_lat_p99_us",
};
#define S_NSTATS LST_COMPARE_NSTATS

/* Figure s of the comparison read from a row, as it is. */
static double s_row_stat(const struct lst_rpt_point *p, size_t s)
{
	return lst_point_stats[lst_point_stat_index(lst_compare_stats[s])].get(p);
}

/* Figure s of a side, NAN when the run lacks the point. */
static double s_val(const struct lst_compare_side *sd, size_t s)
{
	return sd->basis ? sd->v[s] : NAN;
}

char lst_compare_letter(size_t k)
{
	return (char)('A' + k);
}

/*
 * The steady-state window of p's test, as 1-based rounds [*first, *last]: the rounds its verdict
 * averaged (summary.json window_first and window_last), the window the IOPS matrix and
 * curves.csv average over. False when the test has none (a plain phase, no verdict).
 */
static bool s_window(const lst_report *r, const struct lst_rpt_point *p, long *first, long *last)
{
	for (size_t i = 0; i < r->ntests; i++) {
		const struct lst_rpt_test *t = &r->tests[i];

		if (strcmp(t->phase, p->phase) || strcmp(t->test, p->test))
			continue;
		if (t->window_first <= 0 || t->window_last < t->window_first)
			return false;
		*first = t->window_first;
		*last = t->window_last;
		return true;
	}
	return false;
}

/* A repeated point: the mean of its repeats, with their noise. */
static void s_side_repeats(const lst_report *r, const struct lst_rpt_point *p,
			   struct lst_compare_side *sd)
{
	size_t n = 0;

	for (size_t s = 0; s < S_NSTATS; s++) {
		lst_repeats_noise(r, p, lst_point_stat_index(lst_compare_stats[s]), &sd->noise[s]);
		sd->v[s] = sd->noise[s].mean;
		n = LST_MAX(n, sd->noise[s].n);
	}
	snprintf(sd->basis_buf, sizeof(sd->basis_buf), "mean of %zu repeats", n);
	sd->basis = sd->basis_buf;
}

/* The figures of point p (a row lst_report_shown picked) on its basis, into *sd. */
static void s_side(const lst_report *r, const struct lst_rpt_point *p, struct lst_compare_side *sd)
{
	long first, last;
	size_t n = 0;

	sd->p = p;
	if (p->repeat > 0)
		return s_side_repeats(r, p, sd);
	for (size_t s = 0; s < S_NSTATS; s++)
		sd->v[s] = s_row_stat(p, s);
	sd->basis = p->round > 0 ? "last round" : "point";
	if (p->round <= 0 || !s_window(r, p, &first, &last))
		return;
	for (size_t s = 0; s < S_NSTATS; s++)
		sd->v[s] = 0;
	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *q = &r->points[i];

		if (q->round < first || q->round > last || strcmp(q->agent, p->agent) ||
		    strcmp(q->scope, p->scope) || strcmp(q->phase, p->phase) ||
		    strcmp(q->test, p->test) || strcmp(q->name, p->name))
			continue;
		for (size_t s = 0; s < S_NSTATS; s++)
			sd->v[s] += s_row_stat(q, s);
		n++;
	}
	for (size_t s = 0; s < S_NSTATS; s++)
		sd->v[s] = n ? sd->v[s] / (double)n : s_row_stat(p, s);
	if (n)
		sd->basis = "window";
}

bool lst_compare_unfinished(const lst_report *r)
{
	return !*r->finished || strcmp(r->status, "complete");
}

const char *lst_compare_matrix_file(const char *phase, char *buf, size_t size)
{
	char slug[128];

	lst_plot_slug(phase, slug, sizeof(slug));
	snprintf(buf, size, "compare_matrix-%s.csv", slug);
	return buf;
}

/* The row of c for p (same phase, test and name) that run k has no side in yet, or NULL. */
static struct lst_compare_row *s_find(lst_compare *c, size_t k, const struct lst_rpt_point *p)
{
	for (size_t i = 0; i < c->nrows; i++) {
		struct lst_compare_row *row = &c->rows[i];

		if (!row->side[k].p && !strcmp(row->p->phase, p->phase) &&
		    !strcmp(row->p->test, p->test) && !strcmp(row->p->name, p->name))
			return row;
	}
	return NULL;
}

/* A new row of c for p (rows has room: every shown point of every run). */
static struct lst_compare_row *s_add(lst_compare *c, const struct lst_rpt_point *p)
{
	struct lst_compare_row *row = &c->rows[c->nrows++];

	row->p = p;
	row->side = lst_calloc(c->nruns, sizeof(*row->side));
	row->change = lst_calloc(c->nruns * S_NSTATS, sizeof(*row->change));
	row->verdict = lst_calloc(c->nruns * S_NSTATS, sizeof(*row->verdict));
	return row;
}

/* Each run's change and verdict against the first, per figure. */
static void s_changes(lst_compare *c, struct lst_compare_row *row)
{
	for (size_t k = 0; k < c->nruns; k++)
		for (size_t s = 0; s < S_NSTATS; s++) {
			const struct lst_compare_side *a = &row->side[0], *b = &row->side[k];

			row->change[k * S_NSTATS + s] =
				k && a->basis && b->basis ? lst_report_change(a->v[s], b->v[s])
							  : NAN;
			row->verdict[k * S_NSTATS + s] =
				k && a->basis && b->basis
					? lst_noise_welch(&a->noise[s], &b->noise[s], NULL)
					: LST_NOISE_CANNOT_TELL;
		}
}

lst_compare *lst_compare_new(const lst_report *const *runs, const char *const *names, size_t n)
{
	lst_compare *c = lst_calloc(1, sizeof(*c));
	size_t total = 0, *idx, rows;

	LST_ASSERT(n >= 2 && n <= LST_COMPARE_MAX_RUNS);
	c->nruns = n;
	c->runs = runs;
	c->names = names;
	for (size_t k = 0; k < n; k++)
		total += runs[k]->npoints;
	c->rows = lst_calloc(total + 1, sizeof(*c->rows));
	idx = lst_calloc(total + 1, sizeof(*idx));
	for (size_t k = 0; k < n; k++) {
		const lst_report *r = runs[k];

		for (size_t ph = 0; ph < r->nphases; ph++) {
			size_t m = lst_report_shown(r, r->phases[ph].name, idx, &rows);

			for (size_t i = 0; i < m; i++) {
				const struct lst_rpt_point *p = &r->points[idx[i]];
				struct lst_compare_row *row = s_find(c, k, p);

				s_side(r, p, &(row ? row : s_add(c, p))->side[k]);
			}
		}
	}
	for (size_t i = 0; i < c->nrows; i++)
		s_changes(c, &c->rows[i]);
	free(idx);
	return c;
}

void lst_compare_destroy(lst_compare **p)
{
	lst_compare *c = *p;

	if (!c)
		return;
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].side);
		free(c->rows[i].change);
		free(c->rows[i].verdict);
	}
	free(c->rows);
	free(c);
	*p = NULL;
}

const char *lst_compare_basis(const lst_compare *c, size_t i, char *buf, size_t size)
{
	const struct lst_compare_side *sd = c->rows[i].side;
	const char *one = NULL;
	size_t len = 0;

	for (size_t k = 0; k < c->nruns; k++) {
		if (!sd[k].basis)
			continue;
		if (one && strcmp(one, sd[k].basis))
			one = "";
		else if (!one)
			one = sd[k].basis;
	}
	if (one && *one)
		return one;
	buf[0] = '\0';
	for (size_t k = 0; k < c->nruns && len < size; k++)
		if (sd[k].basis)
			len += (size_t)snprintf(buf + len, size - len, "%s%c %s", len ? ", " : "",
						lst_compare_letter(k), sd[k].basis);
	return buf;
}

const char *lst_compare_match(const lst_compare *c, size_t i, char *buf, size_t size)
{
	size_t n = 0;

	for (size_t k = 0; k < c->nruns && n + 1 < size; k++)
		if (c->rows[i].side[k].p)
			buf[n++] = lst_compare_letter(k);
	buf[n] = '\0';
	return buf;
}

/* Row i's verdict for run k: its IOPS figure's (see lst_compare.h). */
static enum lst_noise_verdict s_verdict(const lst_compare *c, size_t i, size_t k)
{
	return c->rows[i].verdict[k * S_NSTATS];
}

/* A row's name: [phase / ] the point as lst_report_point_text names it, and which runs lack
 * it. */
static void s_row_label(const lst_compare *c, size_t i, bool phase, char *buf, size_t size)
{
	const struct lst_rpt_point *p = c->rows[i].p;
	bool several = false;
	char text[256], m[LST_COMPARE_MAX_RUNS + 1];

	for (size_t k = 0; k < c->nrows && !several; k++) {
		const struct lst_rpt_point *q = c->rows[k].p;

		several = !strcmp(q->phase, p->phase) && strcmp(q->test, p->test);
	}
	lst_compare_match(c, i, m, sizeof(m));
	snprintf(buf, size, "%s%s%s%s%s%s", phase ? p->phase : "", phase ? " / " : "",
		 lst_report_point_text(p, several, text, sizeof(text)),
		 strlen(m) < c->nruns ? " (only " : "", strlen(m) < c->nruns ? m : "",
		 strlen(m) < c->nruns ? ")" : "");
}

static void s_csv_num(FILE *f, double v, const char *fmt)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, fmt, v);
}

static void s_csv_head(FILE *f, const lst_compare *c)
{
	fputs("phase,test,label,match", f);
	for (size_t s = 0; s < S_NSTATS; s++) {
		for (size_t k = 0; k < c->nruns; k++)
			fprintf(f, ",%s_%c", lst_compare_stats[s], lst_compare_letter(k) + 32);
		for (size_t k = 1; k < c->nruns; k++)
			fprintf(f, ",%s_%c_change_pct", lst_compare_stats[s],
				lst_compare_letter(k) + 32);
	}
	for (size_t k = 1; k < c->nruns; k++)
		fprintf(f, ",noise_%c", lst_compare_letter(k) + 32);
	fputs(",basis\n", f);
}

int lst_compare_write_csv(const lst_compare *c, const char *path, lst_err *err)
{
	FILE *f = fopen(path, "w");
	bool bad;

	if (!f)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	s_csv_head(f, c);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct lst_compare_row *row = &c->rows[i];
		char basis[256], m[LST_COMPARE_MAX_RUNS + 1];

		lst_csv_put(f, row->p->phase);
		fputc(',', f);
		lst_csv_put(f, row->p->test);
		fputc(',', f);
		lst_csv_put(f, row->p->name);
		fprintf(f, ",%s", lst_compare_match(c, i, m, sizeof(m)));
		for (size_t s = 0; s < S_NSTATS; s++) {
			for (size_t k = 0; k < c->nruns; k++)
				s_csv_num(f, s_val(&row->side[k], s), "%.3f");
			for (size_t k = 1; k < c->nruns; k++)
				s_csv_num(f, row->change[k * S_NSTATS + s], "%.2f");
		}
		for (size_t k = 1; k < c->nruns; k++)
			fprintf(f, ",%s", lst_noise_verdict_name(s_verdict(c, i, k)));
		fputc(',', f);
		lst_csv_put(f, lst_compare_basis(c, i, basis, sizeof(basis)));
		fputc('\n', f);
	}
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

static const char *s_pct(double v, char *buf, size_t size)
{
	return lst_report_fmt(v, "%+.1f%%", buf, size);
}

/* Matrix cell ratio mb/ma for the same block size and mix; NAN when either lacks it. */
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

/* The runs of c, one line each, prefix before each ("- " in Markdown). */
static void s_runs(FILE *f, const lst_compare *c, const char *prefix, const char *quote)
{
	for (size_t k = 0; k < c->nruns; k++) {
		const lst_report *r = c->runs[k];

		fprintf(f, "%s%c  %s: %s%s%s, run %s, plan %s, %s\n", prefix, lst_compare_letter(k),
			c->names[k], quote, r->dir, quote, r->run_id,
			*r->plan_name ? r->plan_name : "?",
			*r->status ? r->status : "not finished");
	}
}

/* How the comparison reads, for the text and compare.md. */
static void s_legend(FILE *f)
{
	fprintf(f,
		"change = (X - A) / A for each run X; latency in us. BASIS: window = the "
		"average over the test's\nsteady-state window (as in the IOPS matrix), last "
		"round = a suite point's last round,\nmean of N repeats = a repeated point "
		"(repeat:), point = a plain point. NOISE (on IOPS):\n%s; "
		"cannot tell without repeats in both runs.\n\n",
		LST_NOISE_TEST);
}

/* The columns of the per-run lines: figure, width, format. */
static const struct {
	size_t stat;
	int w;
	const char *head, *fmt;
	bool change;
} s_cols[] = {
	{ 0, 9, "IOPS", "%.0f", true },	      { 1, 8, "MB/s", "%.1f", true },
	{ 2, 8, "MEAN", "%.1f", true },	      { 3, 8, "P99", "%.1f", true },
	{ 4, 9, "P99.99", "%.1f", false },    { 5, 9, "READ P99", "%.1f", false },
	{ 6, 9, "WRITE P99", "%.1f", false },
};

/* One run's line of row i (text when md is false, else a Markdown table row). */
static void s_run_line(FILE *f, const lst_compare *c, size_t i, size_t k, int width,
		       const char *label, bool md)
{
	const struct lst_compare_row *row = &c->rows[i];
	const struct lst_compare_side *sd = &row->side[k];
	char basis[64];

	if (md) {
		fputc('|', f);
		lst_md_cell(f, k ? "" : row->p->phase);
		lst_md_cell(f, k ? "" : label);
		fprintf(f, " %c |", lst_compare_letter(k));
	} else {
		fprintf(f, "%-*.*s %c ", width, width, k ? "" : label, lst_compare_letter(k));
	}
	for (size_t j = 0; j < LST_ARRAY_SIZE(s_cols); j++) {
		double v = s_val(sd, s_cols[j].stat);
		char x[32], z[32];

		lst_report_fmt(v, s_cols[j].fmt, x, sizeof(x));
		if (md)
			fprintf(f, " %s |", x);
		else
			fprintf(f, " %*s", s_cols[j].w, x);
		if (!s_cols[j].change)
			continue;
		s_pct(row->change[k * S_NSTATS + s_cols[j].stat], z, sizeof(z));
		if (md)
			fprintf(f, " %s |", k ? z : "");
		else
			fprintf(f, " %7s", k ? z : "");
	}
	snprintf(basis, sizeof(basis), "%s", sd->basis ? sd->basis : "(no such point)");
	if (md) {
		lst_md_cell(f, k ? lst_noise_verdict_name(s_verdict(c, i, k)) : "");
		lst_md_cell(f, basis);
		fputc('\n', f);
	} else {
		fprintf(f, "  %-12s  %s\n", k ? lst_noise_verdict_name(s_verdict(c, i, k)) : "",
			basis);
	}
}

/* The IOPS matrices of every later run against the first's, per phase. */
static void s_matrices(FILE *f, const lst_compare *c, bool md)
{
	const lst_report *a = c->runs[0];

	for (size_t j = 0; j < a->nmatrices; j++) {
		const struct lst_rpt_matrix *m = &a->matrices[j];

		for (size_t k = 1; k < c->nruns; k++) {
			const struct lst_rpt_matrix *mb = lst_report_matrix(c->runs[k], m->phase);
			char letter = lst_compare_letter(k);

			if (!mb)
				continue;
			if (md)
				fprintf(f, "\n## IOPS matrix of phase %s, %c / A\n\n| block size |",
					*m->phase ? m->phase : "?", letter);
			else
				fprintf(f,
					"\nIOPS matrix of phase %s, %c / A (rows block size, "
					"columns read/write %%)\n  %-9s",
					*m->phase ? m->phase : "?", letter, "BS");
			for (size_t x = 0; x < m->nmix; x++)
				fprintf(f, md ? " %s |" : " %7s", m->mix[x]);
			if (md) {
				fputs("\n|---|", f);
				for (size_t x = 0; x < m->nmix; x++)
					fputs("--:|", f);
			}
			fputc('\n', f);
			for (size_t i = 0; i < m->nbs; i++) {
				char bs[32], v[32];

				fprintf(f, md ? "| %s |" : "  %-9s",
					lst_report_bs(m->bs[i], bs, sizeof(bs)));
				for (size_t x = 0; x < m->nmix; x++)
					fprintf(f, md ? " %s |" : " %7s",
						lst_report_fmt(s_matrix_ratio(m, mb, i, x), "%.2f",
							       v, sizeof(v)));
				fputc('\n', f);
			}
		}
	}
}

int lst_compare_write_md(const lst_compare *c, const char *path, lst_err *err)
{
	FILE *f = fopen(path, "w");
	bool bad;

	if (!f)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	fprintf(f, "# %zu runs compared with run A\n\n", c->nruns);
	s_runs(f, c, "- ", "`");
	fputc('\n', f);
	for (size_t k = 0; k < c->nruns; k++)
		if (lst_compare_unfinished(c->runs[k]))
			fprintf(f,
				"> **Warning:** run %c (`%s`) did not finish (%s): its points may "
				"be missing or partial.\n\n",
				lst_compare_letter(k), c->runs[k]->dir,
				*c->runs[k]->status ? c->runs[k]->status : "no status");
	fputs("Points are matched by phase, test and label. ", f);
	s_legend(f);
	fputs("| phase | point | run | IOPS | change | MB/s | change | mean | change | p99 | change "
	      "| p99.99 | read p99 | write p99 | noise | basis |\n"
	      "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|\n",
	      f);
	for (size_t i = 0; i < c->nrows; i++) {
		char label[256];

		s_row_label(c, i, false, label, sizeof(label));
		for (size_t k = 0; k < c->nruns; k++)
			s_run_line(f, c, i, k, 0, label, true);
	}
	s_matrices(f, c, true);
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

int lst_compare_write_matrix_csv(const lst_compare *c, const char *phase, const char *path,
				 lst_err *err)
{
	const struct lst_rpt_matrix *m = lst_report_matrix(c->runs[0], phase);
	FILE *f;
	bool bad, any = false;

	for (size_t k = 1; m && k < c->nruns; k++)
		any |= lst_report_matrix(c->runs[k], phase) != NULL;
	if (!any)
		return 1;
	if (!(f = fopen(path, "w")))
		return lst_err_sys(err, -errno, "cannot create %s", path);
	fputs("run,bs", f);
	for (size_t x = 0; x < m->nmix; x++) {
		fputc(',', f);
		lst_csv_put(f, m->mix[x]);
	}
	fputc('\n', f);
	for (size_t k = 1; k < c->nruns; k++) {
		const struct lst_rpt_matrix *mb = lst_report_matrix(c->runs[k], phase);

		for (size_t i = 0; mb && i < m->nbs; i++) {
			fprintf(f, "%c,%.0f", lst_compare_letter(k), m->bs[i]);
			for (size_t x = 0; x < m->nmix; x++)
				s_csv_num(f, s_matrix_ratio(m, mb, i, x), "%.4f");
			fputc('\n', f);
		}
	}
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

void lst_compare_print(const lst_compare *c)
{
	int width = 12;

	s_runs(stdout, c, "", "");
	putchar('\n');
	s_legend(stdout);
	for (size_t i = 0; i < c->nrows; i++) {
		char label[320];

		s_row_label(c, i, true, label, sizeof(label));
		width = LST_MAX(width, LST_MIN((int)strlen(label), LST_REPORT_LABEL_MAX + 16));
	}
	printf("%-*s %s  %8s %7s %8s %7s %8s %7s %8s %7s %9s %9s %9s  %-12s  %s\n", width,
	       "PHASE / POINT", "RUN", "IOPS", "CHANGE", "MB/s", "CHANGE", "MEAN", "CHANGE", "P99",
	       "CHANGE", "P99.99", "READ P99", "WRITE P99", "NOISE", "BASIS");
	for (size_t i = 0; i < c->nrows; i++) {
		char label[320];

		s_row_label(c, i, true, label, sizeof(label));
		for (size_t k = 0; k < c->nruns; k++)
			s_run_line(stdout, c, i, k, width, label, false);
	}
	s_matrices(stdout, c, false);
}

/* One run's side of a row as JSON: its figures, their interval, change and verdict. */
static json_t *s_side_json(const lst_compare *c, size_t i, size_t k)
{
	const struct lst_compare_row *row = &c->rows[i];
	const struct lst_compare_side *sd = &row->side[k];
	json_t *o =
		json_pack("{s:s#, s:o, s:I}", "run", (char[]){ lst_compare_letter(k) }, 1, "basis",
			  lst_report_json_str(sd->basis), "repeats", (json_int_t)sd->noise[0].n);

	for (size_t s = 0; s < S_NSTATS; s++) {
		const char *key = lst_compare_stats[s];
		char name[64];

		json_object_set_new(o, key, lst_report_json_num(s_val(sd, s)));
		snprintf(name, sizeof(name), "%s_ci95", key);
		json_object_set_new(o, name,
				    sd->noise[s].n >= 2
					    ? json_pack("[o, o]",
							lst_report_json_num(sd->noise[s].ci_low),
							lst_report_json_num(sd->noise[s].ci_high))
					    : json_null());
		if (!k)
			continue;
		snprintf(name, sizeof(name), "%s_change_pct", key);
		json_object_set_new(o, name, lst_report_json_num(row->change[k * S_NSTATS + s]));
		snprintf(name, sizeof(name), "%s_noise", key);
		json_object_set_new(
			o, name,
			json_string(lst_noise_verdict_name(row->verdict[k * S_NSTATS + s])));
	}
	if (k)
		json_object_set_new(o, "noise",
				    json_string(lst_noise_verdict_name(s_verdict(c, i, k))));
	return o;
}

static json_t *s_matrices_json(const lst_compare *c)
{
	const lst_report *a = c->runs[0];
	json_t *out = json_array();

	for (size_t j = 0; j < a->nmatrices; j++) {
		const struct lst_rpt_matrix *m = &a->matrices[j];

		for (size_t k = 1; k < c->nruns; k++) {
			const struct lst_rpt_matrix *mb = lst_report_matrix(c->runs[k], m->phase);
			json_t *mixes = json_array(), *rows = json_array();

			if (!mb) {
				json_decref(mixes);
				json_decref(rows);
				continue;
			}
			for (size_t x = 0; x < m->nmix; x++)
				json_array_append_new(mixes, json_string(m->mix[x]));
			for (size_t i = 0; i < m->nbs; i++) {
				json_t *v = json_array();

				for (size_t x = 0; x < m->nmix; x++)
					json_array_append_new(v, lst_report_json_num(s_matrix_ratio(
									 m, mb, i, x)));
				json_array_append_new(
					rows, json_pack("{s:f, s:o}", "bs", m->bs[i], "ratio", v));
			}
			json_array_append_new(out, json_pack("{s:o, s:s#, s:o, s:o}", "phase",
							     lst_report_json_str(m->phase), "run",
							     (char[]){ lst_compare_letter(k) }, 1,
							     "mixes", mixes, "rows", rows));
		}
	}
	return out;
}

json_t *lst_compare_json(const lst_compare *c)
{
	json_t *o = json_object(), *runs = json_array(), *rows = json_array();

	for (size_t k = 0; k < c->nruns; k++) {
		const lst_report *r = c->runs[k];

		json_array_append_new(runs,
				      json_pack("{s:s#, s:s, s:s, s:s, s:o, s:b}", "run",
						(char[]){ lst_compare_letter(k) }, 1, "name",
						c->names[k], "dir", r->dir, "run_id", r->run_id,
						"plan", lst_report_json_str(r->plan_name),
						"finished", !lst_compare_unfinished(r)));
	}
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "noise_test", json_string(LST_NOISE_TEST));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct lst_rpt_point *p = c->rows[i].p;
		char basis[256], m[LST_COMPARE_MAX_RUNS + 1];
		json_t *sides = json_array();

		for (size_t k = 0; k < c->nruns; k++)
			json_array_append_new(sides, s_side_json(c, i, k));
		json_array_append_new(
			rows,
			json_pack("{s:s, s:o, s:s, s:s, s:s, s:o}", "phase", p->phase, "test",
				  lst_report_json_str(p->test), "label", p->name, "match",
				  lst_compare_match(c, i, m, sizeof(m)), "basis",
				  lst_compare_basis(c, i, basis, sizeof(basis)), "runs", sides));
	}
	json_object_set_new(o, "points", rows);
	json_object_set_new(o, "matrix_ratios", s_matrices_json(c));
	return o;
}
