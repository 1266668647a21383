/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hooks, events and telemetry in `lockstep report`: events.csv and telemetry.csv as the report
 * model loaded them, once for every output (lst_report_file; their columns found by the names
 * lst_columns.c gives them) and, per phase, the
 * hooks that ran (before, at instants of its points, after) with how late they started and how
 * they ended, the collectors' changed counters ("b smart: log.errors +1,204 (5 -> 1,209)", at
 * most S_DELTAS_MAX lines per agent and collector in text and HTML; all of them in JSON), and
 * the kernel log excerpt of each agent (telemetry/AGENT/STEM-kmsg.txt) when it has lines. The
 * timeseries plot takes its event lines from lst_report_event_marks. Folders without these
 * files show nothing, so their reports stay as they were.
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

#define S_DELTAS_MAX 20 /* telemetry lines per agent and collector in text and HTML */

/* The two files of a folder, as the model loaded them; a missing file is NULL, as is a malformed
 * one (warned). */
struct s_files {
	const lst_csv *ev, *tm;
	const int *ec, *tc;
};

/* Has this problem of t's file been said already? (The sections are shown once per phase.) */
static bool s_warned(const struct lst_col_table *t, const char *msg)
{
	static char said[2][LST_ERR_MAX];
	char *last = said[t == &lst_telemetry_table];
	bool same = !strcmp(last, msg);

	snprintf(last, LST_ERR_MAX, "%s", msg);
	return same;
}

static const lst_csv *s_load(const lst_report *r, const struct lst_col_table *t, const int **cols)
{
	const struct lst_rpt_file *f = lst_report_file(r, t);

	if (f->rc && f->rc != -ENOENT && !s_warned(t, f->err.msg))
		lst_log_warn("%s; its rows are not shown", f->err.msg);
	*cols = f->col;
	return f->csv;
}

static void s_files_load(const lst_report *r, struct s_files *f)
{
	f->ev = s_load(r, &lst_events_table, &f->ec);
	f->tm = s_load(r, &lst_telemetry_table, &f->tc);
}

static const char *s_ev(const struct s_files *f, size_t row, enum lst_ev_col c)
{
	return lst_csv_field(f->ev, row, f->ec[c]);
}

static const char *s_tm(const struct s_files *f, size_t row, enum lst_tm_col c)
{
	return lst_csv_field(f->tm, row, f->tc[c]);
}

/* A field as a number, NAN when empty or not one. */
static double s_num(const char *s)
{
	char *end;
	double v;

	if (!*s)
		return NAN;
	v = strtod(s, &end);
	return *end ? NAN : v;
}

/* events.csv's text and output columns back as they were ("\n" a newline again). Caller frees. */
static char *s_unescape(const char *s)
{
	char *out = lst_malloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*o++ = *s;
			continue;
		}
		s++;
		if (*s == 'n')
			*o++ = '\n';
		else if (*s == 'r')
			*o++ = '\r';
		else if (*s == 'x' && s[1] && s[2]) {
			char hex[3] = { s[1], s[2], 0 };

			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
		} else
			*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* The last line of an output that is not blank, into buf ("" when none). */
static void s_last_line(const char *escaped, char *buf, size_t size)
{
	char *out = s_unescape(escaped), *end = out + strlen(out), *start;

	while (end > out && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	*end = '\0';
	start = strrchr(out, '\n');
	start = start ? start + 1 : out;
	snprintf(buf, size, "%s", start);
	lst_str_sanitize(buf);
	free(out);
}

/* One events.csv row as a line: "point 0 (iodepth=8): b port_down requested 3.000 s -> ...". */
static void s_event_text(const struct s_files *f, size_t row, char *buf, size_t size)
{
	const char *kind = s_ev(f, row, LST_EV_KIND), *result = s_ev(f, row, LST_EV_RESULT);
	const char *label = s_ev(f, row, LST_EV_LABEL), *text = s_ev(f, row, LST_EV_TEXT);
	double dur = s_num(s_ev(f, row, LST_EV_DURATION));
	char last[256], *t = s_unescape(text);
	size_t n;

	if (!strcmp(kind, "event"))
		n = (size_t)snprintf(buf, size, "point %s%s%s%s: %s %s requested %s s",
				     s_ev(f, row, LST_EV_POINT), *label ? " (" : "", label,
				     *label ? ")" : "", s_ev(f, row, LST_EV_AGENT),
				     s_ev(f, row, LST_EV_HOOK), s_ev(f, row, LST_EV_T_REQUESTED));
	else
		n = (size_t)snprintf(buf, size, "%-6s %s %s", kind, s_ev(f, row, LST_EV_AGENT),
				     s_ev(f, row, LST_EV_HOOK));
	if (n < size && !strcmp(kind, "event") && *s_ev(f, row, LST_EV_T_START))
		n += (size_t)snprintf(buf + n, size - n, " -> started %s s (late %s ms)",
				      s_ev(f, row, LST_EV_T_START), s_ev(f, row, LST_EV_LATE_MS));
	if (n < size && isfinite(dur))
		n += (size_t)snprintf(buf + n, size - n, ", %.3f s", dur);
	if (n < size)
		n += (size_t)snprintf(buf + n, size - n, ": %s", result);
	lst_str_sanitize(t);
	if (n < size && strcmp(result, "ok") && *t)
		n += (size_t)snprintf(buf + n, size - n, ": %s", t);
	s_last_line(s_ev(f, row, LST_EV_OUTPUT), last, sizeof(last));
	if (n < size && strcmp(result, "ok") && *last)
		snprintf(buf + n, size - n, "; last output: %s", last);
	lst_str_sanitize(buf);
	free(t);
}

/* An integer's text with its thousands separated: "1209" is "1,209"; other text as it is. */
static void s_grouped(const char *v, bool sign, char *buf, size_t size)
{
	const char *d = v + (*v == '-');
	size_t n = strlen(d), o = 0;
	bool integer = n > 0 && strspn(d, "0123456789") == n;

	if (sign && *v != '-' && o + 1 < size)
		buf[o++] = '+';
	if (!integer) {
		snprintf(buf + o, size - o, "%s", v);
		return;
	}
	if (*v == '-' && o + 1 < size)
		buf[o++] = '-';
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
}

/* "log.errors +1,204 (5 -> 1,209)" */
static void s_delta_text(const struct s_files *f, size_t row, char *buf, size_t size)
{
	char b[64], a[64], d[64];

	s_grouped(s_tm(f, row, LST_TM_BEFORE), false, b, sizeof(b));
	s_grouped(s_tm(f, row, LST_TM_AFTER), false, a, sizeof(a));
	s_grouped(s_tm(f, row, LST_TM_DELTA), true, d, sizeof(d));
	snprintf(buf, size, "%s %s (%s -> %s)", s_tm(f, row, LST_TM_FIELD), d, b, a);
	lst_str_sanitize(buf);
}

/* "b smart" or "b smart (point 2)": whose counters a telemetry row are. */
static void s_delta_who(const struct s_files *f, size_t row, char *buf, size_t size)
{
	const char *point = s_tm(f, row, LST_TM_POINT);

	snprintf(buf, size, "%s %s%s%s%s", s_tm(f, row, LST_TM_AGENT),
		 s_tm(f, row, LST_TM_COLLECTOR), strcmp(point, "-1") ? " (point " : "",
		 strcmp(point, "-1") ? point : "", strcmp(point, "-1") ? ")" : "");
}

static bool s_same_group(const struct s_files *f, size_t a, size_t b)
{
	return !strcmp(s_tm(f, a, LST_TM_POINT), s_tm(f, b, LST_TM_POINT)) &&
	       !strcmp(s_tm(f, a, LST_TM_AGENT), s_tm(f, b, LST_TM_AGENT)) &&
	       !strcmp(s_tm(f, a, LST_TM_COLLECTOR), s_tm(f, b, LST_TM_COLLECTOR));
}

/*
 * Where telemetry row i of phase stands in its group (agent, collector, point): the rows of a
 * group are written together (one lst_telemetry_deltas call), so a group is a run of rows.
 * *prev is the last row of phase seen (SIZE_MAX at first); *total the size of i's group.
 */
static void s_rank(const struct s_files *f, const char *phase, size_t i, size_t *prev, size_t *rank,
		   size_t *total)
{
	if (*prev != SIZE_MAX && s_same_group(f, *prev, i)) {
		(*rank)++;
	} else {
		*rank = 0;
		*total = 0;
		for (size_t k = i;
		     k < lst_csv_nrows(f->tm) && !strcmp(s_tm(f, k, LST_TM_PHASE), phase) &&
		     s_same_group(f, k, i);
		     k++)
			(*total)++;
	}
	*prev = i;
}

/* --- kernel log excerpts --------------------------------------------------------------------- */

/* Kernel lines of telemetry/AGENT/STEM-kmsg.txt (lockstep's own notes left out); -1: no file. */
static long s_kmsg_lines(const lst_report *r, const char *name)
{
	char *path = lst_asprintf("%s/%s", r->dir, name);
	FILE *in = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	long n = 0;

	free(path);
	if (!in)
		return -1;
	while (getline(&line, &cap, in) > 0)
		n += strncmp(line, "lockstep: ", 10) != 0;
	free(line);
	fclose(in);
	return n;
}

/*
 * Calls fn for each kernel log excerpt of phase that has lines: per agent, the phase's
 * (telemetry/AGENT/PHASE-kmsg.txt), then its points' (PHASE-pN-kmsg.txt).
 */
static void s_kmsg_each(const lst_report *r, const char *phase,
			void (*fn)(void *ctx, const char *agent, const char *name, long lines),
			void *ctx)
{
	for (size_t a = 0; a < r->nagents; a++) {
		const char *agent = r->agents[a].name;
		char *name = lst_asprintf("telemetry/%s/%s-kmsg.txt", agent, phase);
		long n = s_kmsg_lines(r, name);

		if (n > 0)
			fn(ctx, agent, name, n);
		free(name);
		for (size_t i = 0; i < r->npoints; i++) {
			const struct lst_rpt_point *p = &r->points[i];

			if (strcmp(p->phase, phase) || strcmp(p->agent, "all"))
				continue;
			name = lst_asprintf("telemetry/%s/%s-p%ld-kmsg.txt", agent, phase,
					    p->point);
			n = s_kmsg_lines(r, name);
			if (n > 0)
				fn(ctx, agent, name, n);
			free(name);
		}
	}
}

static void s_kmsg_print(void *ctx, const char *agent, const char *name, long lines)
{
	fprintf(ctx, "    %s kernel log: %s (%ld line%s)\n", agent, name, lines,
		lines == 1 ? "" : "s");
}

/* --- text ------------------------------------------------------------------------------------ */

void lst_report_events_print(FILE *out, const struct lst_report_view *v)
{
	const lst_report *r = v->r;
	const char *phase = v->phase;
	struct s_files f;
	size_t shown = 0;
	char line[1024], who[256];

	s_files_load(r, &f);
	for (size_t i = 0; f.ev && i < lst_csv_nrows(f.ev); i++) {
		if (strcmp(s_ev(&f, i, LST_EV_PHASE), phase))
			continue;
		if (!shown++)
			fprintf(out, "  hooks and events:\n");
		s_event_text(&f, i, line, sizeof(line));
		fprintf(out, "    %s\n", line);
	}
	shown = 0;
	for (size_t i = 0, prev = SIZE_MAX, rank = 0, total = 0; f.tm && i < lst_csv_nrows(f.tm);
	     i++) {
		if (strcmp(s_tm(&f, i, LST_TM_PHASE), phase))
			continue;
		s_rank(&f, phase, i, &prev, &rank, &total);
		if (!shown++)
			fprintf(out, "  telemetry (what changed):\n");
		s_delta_who(&f, i, who, sizeof(who));
		if (rank < S_DELTAS_MAX) {
			s_delta_text(&f, i, line, sizeof(line));
			fprintf(out, "    %s: %s\n", who, line);
		} else if (rank == S_DELTAS_MAX) {
			fprintf(out, "    %s: ... and %zu more (telemetry.csv)\n", who,
				total - rank);
		}
	}
	s_kmsg_each(r, phase, s_kmsg_print, out);
}

/* --- JSON ------------------------------------------------------------------------------------ */

/* A number field as JSON: an integer when it is one, else a real, null when empty. */
static json_t *s_jnum(const char *s)
{
	char *end;
	long long i;

	if (!*s)
		return json_null();
	errno = 0;
	i = strtoll(s, &end, 10);
	if (!*end && !errno)
		return json_integer(i);
	return lst_report_json_num(s_num(s));
}

static json_t *s_event_json(const struct s_files *f, size_t i)
{
	static const enum lst_ev_col nums[] = { LST_EV_POINT,	     LST_EV_T_REQUESTED,
						LST_EV_T_START,	     LST_EV_T_END,
						LST_EV_LATE_MS,	     LST_EV_DURATION,
						LST_EV_REQUESTED_NS, LST_EV_START_NS,
						LST_EV_END_NS,	     LST_EV_STATUS };
	static const enum lst_ev_col strs[] = { LST_EV_LABEL, LST_EV_KIND,   LST_EV_AGENT,
						LST_EV_HOOK,  LST_EV_RESULT, LST_EV_ON_ERROR };
	json_t *o = json_object();
	char *text = s_unescape(s_ev(f, i, LST_EV_TEXT));
	char *out = s_unescape(s_ev(f, i, LST_EV_OUTPUT));
	char last[256];

	for (size_t k = 0; k < LST_ARRAY_SIZE(nums); k++)
		json_object_set_new(o, lst_events_table.cols[nums[k]].name,
				    s_jnum(s_ev(f, i, nums[k])));
	for (size_t k = 0; k < LST_ARRAY_SIZE(strs); k++)
		json_object_set_new(o, lst_events_table.cols[strs[k]].name,
				    json_string(s_ev(f, i, strs[k])));
	s_last_line(s_ev(f, i, LST_EV_OUTPUT), last, sizeof(last));
	json_object_set_new(o, "text", json_string(text) ?: json_string("?"));
	json_object_set_new(o, "output", json_string(out) ?: json_string("?"));
	json_object_set_new(o, "last_output_line", json_string(last) ?: json_string("?"));
	free(text);
	free(out);
	return o;
}

static void s_kmsg_json(void *ctx, const char *agent, const char *name, long lines)
{
	json_array_append_new(ctx, json_pack("{s:s, s:s, s:i}", "agent", agent, "file", name,
					     "lines", (int)lines));
}

void lst_report_events_json(const struct lst_report_view *v, json_t *p)
{
	const lst_report *r = v->r;
	const char *phase = v->phase;
	json_t *ev = json_array(), *tm = json_array(), *km = json_array();
	struct s_files f;

	s_files_load(r, &f);
	for (size_t i = 0; f.ev && i < lst_csv_nrows(f.ev); i++)
		if (!strcmp(s_ev(&f, i, LST_EV_PHASE), phase))
			json_array_append_new(ev, s_event_json(&f, i));
	for (size_t i = 0; f.tm && i < lst_csv_nrows(f.tm); i++) {
		if (strcmp(s_tm(&f, i, LST_TM_PHASE), phase))
			continue;
		json_array_append_new(tm, json_pack("{s:o, s:s, s:s, s:s, s:o, s:o, s:o}", "point",
						    s_jnum(s_tm(&f, i, LST_TM_POINT)), "agent",
						    s_tm(&f, i, LST_TM_AGENT), "collector",
						    s_tm(&f, i, LST_TM_COLLECTOR), "field",
						    s_tm(&f, i, LST_TM_FIELD), "before",
						    s_jnum(s_tm(&f, i, LST_TM_BEFORE)), "after",
						    s_jnum(s_tm(&f, i, LST_TM_AFTER)), "delta",
						    s_jnum(s_tm(&f, i, LST_TM_DELTA))));
	}
	s_kmsg_each(r, phase, s_kmsg_json, km);
	if (json_array_size(ev))
		json_object_set(p, "events", ev);
	if (json_array_size(tm))
		json_object_set(p, "telemetry", tm);
	if (json_array_size(km))
		json_object_set(p, "kmsg", km);
	json_decref(ev);
	json_decref(tm);
	json_decref(km);
}

/* --- HTML ------------------------------------------------------------------------------------ */

/* <td class="n" data-col="col">v</td>, or a text cell when col is NULL. */
static void s_td(FILE *out, const char *col, const char *v)
{
	if (col)
		fprintf(out, "<td class=\"n\" data-col=\"%s\">", col);
	else
		fputs("<td>", out);
	lst_html_esc(out, v);
	fputs("</td>", out);
}

static void s_event_row(FILE *out, const struct s_files *f, size_t i)
{
	static const enum lst_ev_col keys[] = { LST_EV_POINT, LST_EV_KIND, LST_EV_AGENT,
						LST_EV_HOOK };
	static const enum lst_ev_col nums[] = { LST_EV_T_REQUESTED, LST_EV_T_START, LST_EV_LATE_MS,
						LST_EV_DURATION };
	const char *result = s_ev(f, i, LST_EV_RESULT);
	char last[256], *text = s_unescape(s_ev(f, i, LST_EV_TEXT));

	fputs("<tr data-event=\"", out);
	lst_html_esc(out, s_ev(f, i, LST_EV_PHASE));
	for (size_t k = 0; k < LST_ARRAY_SIZE(keys); k++) {
		fprintf(out, "\" data-%s=\"", lst_events_table.cols[keys[k]].name);
		lst_html_esc(out, s_ev(f, i, keys[k]));
	}
	fputs("\">", out);
	s_td(out, NULL,
	     !strcmp(s_ev(f, i, LST_EV_KIND), "event") ? s_ev(f, i, LST_EV_LABEL)
						       : s_ev(f, i, LST_EV_KIND));
	s_td(out, NULL, s_ev(f, i, LST_EV_AGENT));
	s_td(out, NULL, s_ev(f, i, LST_EV_HOOK));
	for (size_t k = 0; k < LST_ARRAY_SIZE(nums); k++)
		s_td(out, lst_events_table.cols[nums[k]].name, s_ev(f, i, nums[k]));
	fprintf(out, "<td data-col=\"result\" class=\"%s\">", strcmp(result, "ok") ? "bad" : "ok");
	lst_html_esc(out, result);
	fputs("</td><td>", out);
	s_last_line(s_ev(f, i, LST_EV_OUTPUT), last, sizeof(last));
	lst_str_sanitize(text);
	if (strcmp(result, "ok")) {
		lst_html_esc(out, text);
		if (*last) {
			fputs(*text ? "; last output: " : "last output: ", out);
			lst_html_esc(out, last);
		}
	}
	fputs("</td></tr>\n", out);
	free(text);
}

static void s_delta_row(FILE *out, const struct s_files *f, size_t i)
{
	static const enum lst_tm_col keys[] = { LST_TM_POINT, LST_TM_AGENT, LST_TM_COLLECTOR,
						LST_TM_FIELD };
	static const enum lst_tm_col nums[] = { LST_TM_BEFORE, LST_TM_AFTER, LST_TM_DELTA };
	char who[256];

	fputs("<tr data-delta=\"", out);
	lst_html_esc(out, s_tm(f, i, LST_TM_PHASE));
	for (size_t k = 0; k < LST_ARRAY_SIZE(keys); k++) {
		fprintf(out, "\" data-%s=\"", lst_telemetry_table.cols[keys[k]].name);
		lst_html_esc(out, s_tm(f, i, keys[k]));
	}
	fputs("\">", out);
	s_delta_who(f, i, who, sizeof(who));
	s_td(out, NULL, who);
	s_td(out, NULL, s_tm(f, i, LST_TM_FIELD));
	for (size_t k = 0; k < LST_ARRAY_SIZE(nums); k++)
		s_td(out, lst_telemetry_table.cols[nums[k]].name, s_tm(f, i, nums[k]));
	fputs("</tr>\n", out);
}

static void s_kmsg_html(void *ctx, const char *agent, const char *name, long lines)
{
	FILE *out = ctx;

	fputs("<li>", out);
	lst_html_esc(out, agent);
	fputs(": <code>", out);
	lst_html_esc(out, name);
	fprintf(out, "</code> (%ld line%s)</li>\n", lines, lines == 1 ? "" : "s");
}

static void s_events_table(FILE *out, const struct s_files *f, const char *phase)
{
	size_t shown = 0;

	for (size_t i = 0; f->ev && i < lst_csv_nrows(f->ev); i++) {
		if (strcmp(s_ev(f, i, LST_EV_PHASE), phase))
			continue;
		if (!shown++)
			fputs("<h3>Hooks and events</h3>\n<p class=\"note\">The hooks the plan ran: "
			      "before the phase, at instants of its points (seconds from the "
			      "point's start, as requested and as started, on the coordinator's "
			      "clock) and after it (events.csv).</p>\n<table class=\"events\">\n"
			      "<thead><tr><th>Point</th><th>Agent</th><th>Hook</th>"
			      "<th class=\"n\">Requested <span class=\"u\">s</span></th>"
			      "<th class=\"n\">Started <span class=\"u\">s</span></th>"
			      "<th class=\"n\">Late <span class=\"u\">ms</span></th>"
			      "<th class=\"n\">Took <span class=\"u\">s</span></th>"
			      "<th>Result</th><th>Why</th></tr></thead>\n<tbody>\n",
			      out);
		s_event_row(out, f, i);
	}
	if (shown)
		fputs("</tbody>\n</table>\n", out);
}

static void s_deltas_table(FILE *out, const struct s_files *f, const char *phase)
{
	size_t shown = 0;

	for (size_t i = 0, prev = SIZE_MAX, rank = 0, total = 0; f->tm && i < lst_csv_nrows(f->tm);
	     i++) {
		if (strcmp(s_tm(f, i, LST_TM_PHASE), phase))
			continue;
		if (!shown++)
			fputs("<h3>Telemetry</h3>\n<p class=\"note\">The numeric fields of the "
			      "collectors' output that changed between before and after "
			      "(telemetry.csv).</p>\n<table class=\"telemetry\">\n<thead><tr>"
			      "<th>Collector</th><th>Field</th><th class=\"n\">Before</th>"
			      "<th class=\"n\">After</th><th class=\"n\">Change</th></tr></thead>\n"
			      "<tbody>\n",
			      out);
		s_rank(f, phase, i, &prev, &rank, &total);
		if (rank < S_DELTAS_MAX)
			s_delta_row(out, f, i);
		else if (rank == S_DELTAS_MAX)
			fprintf(out,
				"<tr><td colspan=\"5\" class=\"note\">&hellip; and %zu more: "
				"see telemetry.csv</td></tr>\n",
				total - rank);
	}
	if (shown)
		fputs("</tbody>\n</table>\n", out);
}

static void s_kmsg_count(void *ctx, const char *agent, const char *name, long lines)
{
	(void)agent;
	(void)name;
	(void)lines;
	(*(size_t *)ctx)++;
}

void lst_report_events_html(FILE *out, const struct lst_report_view *v)
{
	const lst_report *r = v->r;
	const char *phase = v->phase;
	struct s_files f;
	size_t nkmsg = 0;

	s_files_load(r, &f);
	s_events_table(out, &f, phase);
	s_deltas_table(out, &f, phase);
	s_kmsg_each(r, phase, s_kmsg_count, &nkmsg);
	if (!nkmsg)
		return;
	fputs("<p class=\"note\">The kernel log of the phase's window, per agent:</p>\n"
	      "<ul class=\"kmsg\">\n",
	      out);
	s_kmsg_each(r, phase, s_kmsg_html, out);
	fputs("</ul>\n", out);
}

/* --- plot marks ------------------------------------------------------------------------------ */

size_t lst_report_event_marks(const lst_report *r, const char *phase,
			      struct lst_report_event_mark **out)
{
	struct s_files f;
	size_t n = 0;

	*out = NULL;
	s_files_load(r, &f);
	for (size_t i = 0; f.ev && i < lst_csv_nrows(f.ev); i++) {
		double t = s_num(s_ev(&f, i, LST_EV_T_START)), p = s_num(s_ev(&f, i, LST_EV_POINT));
		struct lst_report_event_mark *m;

		if (strcmp(s_ev(&f, i, LST_EV_PHASE), phase) ||
		    strcmp(s_ev(&f, i, LST_EV_KIND), "event") || !isfinite(t) || !isfinite(p))
			continue;
		*out = lst_realloc(*out, (n + 1) * sizeof(**out));
		m = &(*out)[n++];
		m->point = (long)p;
		m->t_start = t;
		snprintf(m->label, sizeof(m->label), "%s", s_ev(&f, i, LST_EV_HOOK));
		lst_str_sanitize(m->label);
	}
	return n;
}
