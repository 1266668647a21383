/*
 * Two runs of a plan compared (before and after a resize, two firmware versions): points are
 * matched by (phase, test, label) and the change from the first run to the second is given in
 * percent, printed and written as compare.csv and compare.md; when both runs have an IOPS
 * matrix for a phase, the ratio of every cell goes to compare_matrix-PHASE.csv.
 *
 * The table and the matrix must not contradict each other: the matrix holds the average of
 * each cell over the steady-state window, so a suite point whose test has a window is compared
 * by the average of its window rounds too (rates averaged as the writer averages them;
 * latencies as the plain average of the rounds' figures), and every row says its basis. Each
 * side's figures are computed once, in lst_compare_pairs, and every output reads them.
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
#include "lst_text.h"
#include "lst_util.h"

static const char *const s_stats[] = { "iops", "mbps", "lat_mean_us", "lat_p99_us",
				       "lat_p99_99_us" };
#define S_NSTATS LST_ARRAY_SIZE(s_stats)

/* Statistic s of a point row, as it is. */
static double s_row_stat(const struct lst_rpt_point *p, size_t s)
{
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

static double s_stat(const struct lst_compare_side *sd, size_t s)
{
	return sd->basis ? sd->v[s] : NAN;
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

/* The figures of point p (a row s_report_shown picked) on its basis, into *sd. */
static void s_side(const lst_report *r, const struct lst_rpt_point *p, struct lst_compare_side *sd)
{
	long first, last;
	size_t n = 0;

	for (size_t s = 0; s < LST_COMPARE_NSTATS; s++)
		sd->v[s] = s_row_stat(p, s);
	sd->basis = p->round > 0 ? "last round" : "point";
	if (p->round <= 0 || !s_window(r, p, &first, &last))
		return;
	for (size_t s = 0; s < LST_COMPARE_NSTATS; s++)
		sd->v[s] = 0;
	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *q = &r->points[i];

		if (q->round < first || q->round > last || strcmp(q->agent, p->agent) ||
		    strcmp(q->scope, p->scope) || strcmp(q->phase, p->phase) ||
		    strcmp(q->test, p->test) || strcmp(q->name, p->name))
			continue;
		for (size_t s = 0; s < LST_COMPARE_NSTATS; s++)
			sd->v[s] += s_row_stat(q, s);
		n++;
	}
	for (size_t s = 0; s < LST_COMPARE_NSTATS; s++)
		sd->v[s] = n ? sd->v[s] / (double)n : s_row_stat(p, s);
	if (n)
		sd->basis = "window";
}

/* The basis of a pair: the one both sides share, else each side's ("A window, B last round"). */
static const char *s_basis(const struct lst_compare_pair *p, char *buf, size_t size)
{
	const char *a = p->sa.basis, *b = p->sb.basis;

	if (!a || !b || !strcmp(a, b))
		return a ? a : b;
	snprintf(buf, size, "A %s, B %s", a, b);
	return buf;
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

/* Points of both runs matched by (phase, test, label): the first run's order, then the rest. */
struct lst_compare_pair *lst_compare_pairs(const lst_report *a, const lst_report *b, size_t *n)
{
	size_t *ia = lst_calloc(a->npoints + 1, sizeof(*ia));
	size_t *ib = lst_calloc(b->npoints + 1, sizeof(*ib));
	struct lst_compare_pair *pairs = lst_calloc(a->npoints + b->npoints + 1, sizeof(*pairs));
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
		struct lst_compare_pair *pr = &pairs[(*n)++];

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
	for (size_t i = 0; i < *n; i++) {
		if (pairs[i].a)
			s_side(a, pairs[i].a, &pairs[i].sa);
		if (pairs[i].b)
			s_side(b, pairs[i].b, &pairs[i].sb);
	}
	free(used);
	free(ia);
	free(ib);
	return pairs;
}

static const char *s_match(const struct lst_compare_pair *p)
{
	return p->a && p->b ? "both" : p->a ? "a_only" : "b_only";
}

/* A row's name: [phase / ] the point as s_point_text names it, and which run lacks it. */
static void s_pair_label(const struct lst_compare_pair *pairs, size_t n, size_t i, bool phase,
			 char *buf, size_t size)
{
	const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;
	bool several = false;
	char text[256];

	for (size_t k = 0; k < n && !several; k++) {
		const struct lst_rpt_point *q = pairs[k].a ? pairs[k].a : pairs[k].b;

		several = !strcmp(q->phase, p->phase) && strcmp(q->test, p->test);
	}
	snprintf(buf, size, "%s%s%s%s", phase ? p->phase : "", phase ? " / " : "",
		 lst_report_point_text(p, several, text, sizeof(text)),
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

int lst_compare_write_csv(const char *path, const struct lst_compare_pair *pairs, size_t n,
			  lst_err *err)
{
	FILE *f = fopen(path, "w");
	bool bad;

	if (!f)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	fputs("phase,test,label,match", f);
	for (size_t s = 0; s < S_NSTATS; s++)
		fprintf(f, ",%s_a,%s_b,%s_change_pct", s_stats[s], s_stats[s], s_stats[s]);
	fputs(",basis\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;
		char basis[64];

		lst_csv_put(f, p->phase);
		fputc(',', f);
		lst_csv_put(f, p->test);
		fputc(',', f);
		lst_csv_put(f, p->name);
		fprintf(f, ",%s", s_match(&pairs[i]));
		for (size_t s = 0; s < S_NSTATS; s++) {
			double va = s_stat(&pairs[i].sa, s), vb = s_stat(&pairs[i].sb, s);

			s_csv_num(f, va, "%.3f");
			s_csv_num(f, vb, "%.3f");
			s_csv_num(f, lst_report_change(va, vb), "%.2f");
		}
		fputc(',', f);
		lst_csv_put(f, s_basis(&pairs[i], basis, sizeof(basis)));
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

/* A warning line in compare.md when run r (called which) did not finish. */
static void s_md_unfinished(FILE *f, const char *which, const lst_report *r)
{
	if (lst_compare_unfinished(r))
		fprintf(f,
			"> **Warning:** run %s (`%s`) did not finish (%s): its points may be missing "
			"or partial.\n\n",
			which, r->dir, *r->status ? r->status : "no status");
}

int lst_compare_write_md(const char *path, const lst_report *a, const lst_report *b, const char *na,
			 const char *nb, const struct lst_compare_pair *pairs, size_t n,
			 lst_err *err)
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
	s_md_unfinished(f, "A", a);
	s_md_unfinished(f, "B", b);
	fputs("Change = (B - A) / A. Points are matched by phase, test and label. Basis: *window* "
	      "is the average of the point's rounds in its test's steady-state window (the "
	      "figure the IOPS matrix holds), *last round* a suite point's last round, *point* "
	      "a plain phase's point. Latency in µs.\n\n",
	      f);
	fputs("| phase | point | IOPS A | IOPS B | change | mean A | mean B | change | p99 A | p99 B "
	      "| change | p99.99 A | p99.99 B | change | basis |\n",
	      f);
	fputs("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;
		static const size_t cols[] = { 0, 2, 3, 4 };
		char label[256], basis[64];

		s_pair_label(pairs, n, i, false, label, sizeof(label));
		fputc('|', f);
		lst_md_cell(f, p->phase);
		lst_md_cell(f, label);
		for (size_t c = 0; c < LST_ARRAY_SIZE(cols); c++) {
			double va = s_stat(&pairs[i].sa, cols[c]),
			       vb = s_stat(&pairs[i].sb, cols[c]);
			char x[32], y[32], z[32];

			fprintf(f, " %s | %s | %s |",
				lst_report_fmt(va, c ? "%.1f" : "%.0f", x, sizeof(x)),
				lst_report_fmt(vb, c ? "%.1f" : "%.0f", y, sizeof(y)),
				s_pct(lst_report_change(va, vb), z, sizeof(z)));
		}
		lst_md_cell(f, s_basis(&pairs[i], basis, sizeof(basis)));
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
					lst_report_fmt(s_matrix_ratio(m, mb, i, k), "%.2f", v,
						       sizeof(v)));
			fputc('\n', f);
		}
	}
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

int lst_compare_write_matrix_csv(const char *path, const struct lst_rpt_matrix *m,
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

void lst_compare_print(const lst_report *a, const lst_report *b, const char *na, const char *nb,
		       const struct lst_compare_pair *pairs, size_t n)
{
	int width = 12;

	printf("A  %s: run %s, plan %s\n", na, a->run_id, *a->plan_name ? a->plan_name : "?");
	printf("B  %s: run %s, plan %s\n", nb, b->run_id, *b->plan_name ? b->plan_name : "?");
	printf("change = (B - A) / A; latency in us; BASIS: window = the average over the test's "
	       "steady-state\nwindow (as in the IOPS matrix), last round = a suite point's last "
	       "round, point = a plain point\n\n");
	for (size_t i = 0; i < n; i++) {
		char label[320];

		s_pair_label(pairs, n, i, true, label, sizeof(label));
		width = LST_MAX(width, LST_MIN((int)strlen(label), LST_REPORT_LABEL_MAX + 16));
	}
	printf("%-*s %9s %9s %7s %8s %8s %7s %8s %8s %7s %9s %9s %7s  %s\n", width, "PHASE / POINT",
	       "IOPS A", "IOPS B", "CHANGE", "MEAN A", "MEAN B", "CHANGE", "P99 A", "P99 B",
	       "CHANGE", "P99.99 A", "P99.99 B", "CHANGE", "BASIS");
	for (size_t i = 0; i < n; i++) {
		static const size_t cols[] = { 0, 2, 3, 4 };
		static const int w[] = { 9, 8, 8, 9 };
		char label[320], basis[64];

		s_pair_label(pairs, n, i, true, label, sizeof(label));
		printf("%-*.*s", width, width, label);
		for (size_t c = 0; c < LST_ARRAY_SIZE(cols); c++) {
			double va = s_stat(&pairs[i].sa, cols[c]),
			       vb = s_stat(&pairs[i].sb, cols[c]);
			char x[32], y[32], z[32];

			printf(" %*s %*s %7s", w[c],
			       lst_report_fmt(va, c ? "%.1f" : "%.0f", x, sizeof(x)), w[c],
			       lst_report_fmt(vb, c ? "%.1f" : "%.0f", y, sizeof(y)),
			       s_pct(lst_report_change(va, vb), z, sizeof(z)));
		}
		printf("  %s\n", s_basis(&pairs[i], basis, sizeof(basis)));
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
				printf(" %7s", lst_report_fmt(s_matrix_ratio(m, mb, i, k), "%.2f",
							      v, sizeof(v)));
			printf("\n");
		}
	}
}

json_t *lst_compare_json(const lst_report *a, const lst_report *b, const char *na, const char *nb,
			 const struct lst_compare_pair *pairs, size_t n)
{
	json_t *o = json_object(), *rows = json_array();

	json_object_set_new(o, "a",
			    json_pack("{s:s, s:s, s:s, s:b}", "name", na, "dir", a->dir, "run_id",
				      a->run_id, "finished", !lst_compare_unfinished(a)));
	json_object_set_new(o, "b",
			    json_pack("{s:s, s:s, s:s, s:b}", "name", nb, "dir", b->dir, "run_id",
				      b->run_id, "finished", !lst_compare_unfinished(b)));
	for (size_t i = 0; i < n; i++) {
		const struct lst_rpt_point *p = pairs[i].a ? pairs[i].a : pairs[i].b;
		json_t *row = json_pack("{s:s, s:o, s:s, s:s}", "phase", p->phase, "test",
					lst_report_json_str(p->test), "label", p->label, "match",
					s_match(&pairs[i]));

		for (size_t s = 0; s < S_NSTATS; s++) {
			double va = s_stat(&pairs[i].sa, s), vb = s_stat(&pairs[i].sb, s);
			char key[64];

			snprintf(key, sizeof(key), "%s_a", s_stats[s]);
			json_object_set_new(row, key, lst_report_json_num(va));
			snprintf(key, sizeof(key), "%s_b", s_stats[s]);
			json_object_set_new(row, key, lst_report_json_num(vb));
			snprintf(key, sizeof(key), "%s_change_pct", s_stats[s]);
			json_object_set_new(row, key,
					    lst_report_json_num(lst_report_change(va, vb)));
		}
		{
			char basis[64];

			json_object_set_new(row, "basis",
					    json_string(s_basis(&pairs[i], basis, sizeof(basis))));
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
		json_object_set_new(mx, "phase", lst_report_json_str(m->phase));
		json_object_set_new(mx, "mixes", mixes);
		json_object_set_new(mx, "rows", mrows);
		json_array_append_new(json_object_get(o, "matrix_ratios"), mx);
	}
	return o;
}
