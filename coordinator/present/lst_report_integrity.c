/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity in `lockstep report`: per phase, what its verifying reads found, in
 * 4 KiB units (ok, pending, unwritten, bad: summary.csv's verify block, summed over the phase's
 * agent=all rows), the bad units by kind and the first LST_REPORT_BAD_ROWS of them (integrity.csv,
 * as the report model loaded it once for every output, with the columns lst_columns.c names). integrity.csv holds at most
 * LST_BAD_PER_POINT rows per agent and point, so the kinds count its rows while `bad` counts
 * every bad unit. A phase that verified nothing (every count 0 or absent, no row) shows
 * nothing: reports of folders without verify stay byte for byte as they were.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_columns.h"
#include "lst_csv.h"
#include "lst_html.h"
#include "lst_log.h"
#include "lst_report_sections.h"
#include "lst_report_text.h"
#include "lst_util.h"

#define S_KINDS_MAX 16 /* distinct kinds counted; more (a hand-edited file) share "other" */

static const char *const s_count_names[4] = { "ok", "pending", "unwritten", "bad" };

/* What the report says of one phase. */
struct s_phase {
	double units[4]; /* ok, pending, unwritten, bad */
	const lst_csv
		*csv; /* integrity.csv as the model loaded it, NULL when absent or malformed */
	const int *col;
	size_t nrows; /* its rows of this phase */
	size_t nkinds;
	struct {
		const char *kind;
		size_t n;
	} kinds[S_KINDS_MAX + 1];
};

static bool s_of_phase(const struct s_phase *s, size_t row, const char *phase)
{
	return !strcmp(lst_csv_field(s->csv, row, s->col[LST_INT_PHASE]), phase);
}

static const char *s_f(const struct s_phase *s, size_t row, enum lst_int_col c)
{
	return lst_csv_field(s->csv, row, s->col[c]);
}

static void s_count_kind(struct s_phase *s, const char *kind)
{
	size_t i;

	for (i = 0; i < s->nkinds; i++)
		if (!strcmp(s->kinds[i].kind, kind))
			break;
	if (i == s->nkinds) {
		if (s->nkinds == S_KINDS_MAX)
			i = S_KINDS_MAX, kind = "other";
		else
			s->nkinds++;
		s->kinds[i].kind = kind;
	}
	s->kinds[i].n++;
}

/* Has this problem been said already? (The section is shown once per phase.) */
static bool s_warned(const char *msg)
{
	static char said[LST_ERR_MAX];
	bool same = !strcmp(said, msg);

	snprintf(said, sizeof(said), "%s", msg);
	return same;
}

/* What phase verified; false when it verified nothing. */
static bool s_load(const lst_report *r, const char *phase, struct s_phase *s)
{
	const struct lst_rpt_file *f = lst_report_file(r, &lst_integrity_table);

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *p = &r->points[i];

		if (strcmp(p->phase, phase) || strcmp(p->agent, "all"))
			continue;
		for (int k = 0; k < 4; k++)
			if (isfinite(p->verify[k]))
				s->units[k] += p->verify[k];
	}
	if (f->rc && f->rc != -ENOENT && !s_warned(f->err.msg))
		lst_log_warn("%s; its rows are not shown", f->err.msg);
	s->csv = f->csv;
	s->col = f->col;
	for (size_t i = 0; s->csv && i < lst_csv_nrows(s->csv); i++) {
		if (!s_of_phase(s, i, phase))
			continue;
		s->nrows++;
		s_count_kind(s, s_f(s, i, LST_INT_KIND));
	}
	return s->nrows || s->units[0] || s->units[1] || s->units[2] || s->units[3];
}

/* One integrity.csv row as a line: "point 1, b:/dev/loop1 offset 8192: stale; expected gen 2
 * by a:/dev/loop0 (at 12.500 s), found stamp gen 1 by a:/dev/loop0 lba 2 (at 3.000 s)". */
static void s_row_text(const struct s_phase *s, size_t i, char *buf, size_t size)
{
	const char *et = s_f(s, i, LST_INT_EXP_T_S), *ft = s_f(s, i, LST_INT_FOUND_T_S);
	const char *fa = s_f(s, i, LST_INT_FOUND_AGENT);
	char found[384] = "", exp_t[64] = "", found_t[64] = "";

	if (*et)
		snprintf(exp_t, sizeof(exp_t), " (at %s s)", et);
	if (*ft)
		snprintf(found_t, sizeof(found_t), " (at %s s)", ft);
	if (*fa)
		snprintf(found, sizeof(found), " gen %s by %s:%s lba %s%s",
			 s_f(s, i, LST_INT_FOUND_GEN), fa, s_f(s, i, LST_INT_FOUND_PATH),
			 s_f(s, i, LST_INT_FOUND_LBA), found_t);
	snprintf(buf, size, "point %s, %s:%s offset %s: %s; expected gen %s by %s:%s%s, found %s%s",
		 s_f(s, i, LST_INT_POINT), s_f(s, i, LST_INT_AGENT), s_f(s, i, LST_INT_PATH),
		 s_f(s, i, LST_INT_OFFSET), s_f(s, i, LST_INT_KIND), s_f(s, i, LST_INT_EXP_GEN),
		 s_f(s, i, LST_INT_EXP_AGENT), s_f(s, i, LST_INT_EXP_PATH), exp_t,
		 s_f(s, i, LST_INT_FOUND), found);
	lst_str_sanitize(buf);
}

/* The counts as one line: "1,024 units: 1,000 ok, 20 pending, 2 unwritten, 2 bad". */
static void s_counts_text(const struct s_phase *s, char *buf, size_t size)
{
	char a[32], b[4][32];

	snprintf(buf, size, "%s units: %s ok, %s pending, %s unwritten, %s bad",
		 lst_report_thousands(s->units[0] + s->units[1] + s->units[2] + s->units[3], a,
				      sizeof(a)),
		 lst_report_thousands(s->units[0], b[0], sizeof(b[0])),
		 lst_report_thousands(s->units[1], b[1], sizeof(b[1])),
		 lst_report_thousands(s->units[2], b[2], sizeof(b[2])),
		 lst_report_thousands(s->units[3], b[3], sizeof(b[3])));
}

static void s_kinds_text(const struct s_phase *s, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < s->nkinds + (s->kinds[S_KINDS_MAX].n > 0) && o < size; k++) {
		size_t i = k < s->nkinds ? k : S_KINDS_MAX;

		o += (size_t)snprintf(buf + o, size - o, "%s%s %zu", k ? ", " : "",
				      s->kinds[i].kind, s->kinds[i].n);
	}
	lst_str_sanitize(buf);
}

void lst_report_integrity_print(FILE *out, const struct lst_report_view *v)
{
	const lst_report *r = v->r;
	const char *phase = v->phase;
	struct s_phase s;
	char line[1024];
	size_t shown = 0;

	if (!s_load(r, phase, &s))
		return;
	s_counts_text(&s, line, sizeof(line));
	fprintf(out, "  integrity: %s\n", line);
	if (s.nrows) {
		s_kinds_text(&s, line, sizeof(line));
		fprintf(out, "    bad by kind (integrity.csv): %s\n", line);
	}
	for (size_t i = 0; s.csv && i < lst_csv_nrows(s.csv); i++) {
		if (!s_of_phase(&s, i, phase))
			continue;
		if (shown++ == LST_REPORT_BAD_ROWS)
			break;
		s_row_text(&s, i, line, sizeof(line));
		fprintf(out, "    %s\n", line);
	}
	if (s.nrows > LST_REPORT_BAD_ROWS)
		fprintf(out, "    ... and %zu more (integrity.csv)\n",
			s.nrows - LST_REPORT_BAD_ROWS);
}

/* A field as a JSON integer when it is one, else as a string; null when empty. */
static json_t *s_json_field(const char *v, bool num)
{
	char *end;
	long long n;

	if (!*v)
		return json_null();
	if (!num)
		return json_string(v);
	n = strtoll(v, &end, 10);
	if (!*end)
		return json_integer(n);
	return lst_report_json_num(strtod(v, &end));
}

static json_t *s_row_json(const struct s_phase *s, size_t i)
{
	json_t *o = json_object();

	for (size_t c = 0; c < LST_INT_N; c++) {
		enum lst_col_type t = lst_integrity_table.cols[c].type;
		bool num = t != LST_COL_WORD && t != LST_COL_QUOTED;

		if (c == LST_INT_PHASE)
			continue;
		json_object_set_new(o, lst_integrity_table.cols[c].name,
				    s_json_field(s_f(s, i, (enum lst_int_col)c), num));
	}
	return o;
}

void lst_report_integrity_json(const struct lst_report_view *v, json_t *p)
{
	const lst_report *r = v->r;
	const char *phase = v->phase;
	struct s_phase s;
	json_t *o, *kinds, *rows;
	size_t shown = 0;

	if (!s_load(r, phase, &s))
		return;
	o = json_object();
	for (int k = 0; k < 4; k++)
		json_object_set_new(o, s_count_names[k], json_integer((json_int_t)s.units[k]));
	kinds = json_object();
	for (size_t k = 0; k <= S_KINDS_MAX; k++)
		if (s.kinds[k].n)
			json_object_set_new(kinds, s.kinds[k].kind,
					    json_integer((json_int_t)s.kinds[k].n));
	json_object_set_new(o, "bad_by_kind", kinds);
	rows = json_array();
	for (size_t i = 0; s.csv && i < lst_csv_nrows(s.csv) && shown < LST_REPORT_BAD_ROWS; i++)
		if (s_of_phase(&s, i, phase)) {
			json_array_append_new(rows, s_row_json(&s, i));
			shown++;
		}
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "more", json_integer((json_int_t)(s.nrows - shown)));
	json_object_set_new(p, "integrity", o);
}

/* --- HTML ------------------------------------------------------------------------------------ */

static void s_html_counts(FILE *out, const struct s_phase *s)
{
	char n[32], kinds[1024];

	fputs("<p class=\"note\">Data integrity: the 4 KiB units the phase's verifying reads "
	      "checked against the write journal (summary.csv's verify columns).</p>\n"
	      "<table class=\"integrity\">\n<thead><tr>",
	      out);
	for (int k = 0; k < 4; k++)
		fprintf(out, "<th class=\"n\">%s</th>", s_count_names[k]);
	fputs("<th>Bad by kind</th></tr></thead>\n<tbody>\n<tr>", out);
	for (int k = 0; k < 4; k++)
		fprintf(out, "<td class=\"n\" data-verify=\"%s\">%s</td>", s_count_names[k],
			lst_report_thousands(s->units[k], n, sizeof(n)));
	s_kinds_text(s, kinds, sizeof(kinds));
	fputs("<td>", out);
	lst_html_esc(out, kinds);
	fputs("</td></tr>\n</tbody>\n</table>\n", out);
}

void lst_report_integrity_html(FILE *out, const struct lst_report_view *v)
{
	const lst_report *r = v->r;
	const char *phase = v->phase;
	static const enum lst_int_col cols[] = {
		LST_INT_POINT, LST_INT_AGENT,	  LST_INT_PATH,	       LST_INT_OFFSET,
		LST_INT_KIND,  LST_INT_EXP_GEN,	  LST_INT_EXP_AGENT,   LST_INT_EXP_T_S,
		LST_INT_FOUND, LST_INT_FOUND_GEN, LST_INT_FOUND_AGENT, LST_INT_FOUND_LBA,
	};
	struct s_phase s;
	size_t shown = 0;

	if (!s_load(r, phase, &s))
		return;
	s_html_counts(out, &s);
	if (!s.nrows)
		return;
	fputs("<p class=\"note\">Bad units (integrity.csv):</p>\n<table class=\"integrity-bad\">\n"
	      "<thead><tr>",
	      out);
	for (size_t c = 0; c < LST_ARRAY_SIZE(cols); c++)
		fprintf(out, "<th>%s</th>", lst_integrity_table.cols[cols[c]].name);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < lst_csv_nrows(s.csv) && shown < LST_REPORT_BAD_ROWS; i++) {
		if (!s_of_phase(&s, i, phase))
			continue;
		shown++;
		fprintf(out, "<tr data-offset=\"");
		lst_html_esc(out, s_f(&s, i, LST_INT_OFFSET));
		fputs("\">", out);
		for (size_t c = 0; c < LST_ARRAY_SIZE(cols); c++) {
			fputs("<td>", out);
			lst_html_esc(out, s_f(&s, i, cols[c]));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	if (s.nrows > shown)
		fprintf(out,
			"<tr><td colspan=\"%zu\" class=\"note\">&hellip; and %zu more: see "
			"integrity.csv</td></tr>\n",
			LST_ARRAY_SIZE(cols), s.nrows - shown);
	fputs("</tbody>\n</table>\n", out);
}
