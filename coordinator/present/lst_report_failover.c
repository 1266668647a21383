/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Failover windows and throughput dips in `lockstep report`: summary.json's path and agent
 * points carry `failover` (lst_failover.h), null or the window where that path's completions
 * fell below a fraction of its own rate with evidence of a path fault (errors, timeouts, a
 * stalled I/O, an event of the plan), and `dips`, the windows without such evidence. A failover
 * window becomes one line under its point in the text report, an array in its JSON and a list
 * in the HTML page; dips have a section of their own, named for what they are and for the
 * threshold that found them, so that a drive slowing down on its own never reads as a failover.
 * A `failover` without `evidence` comes from a folder that predates it: what it shows is a drop,
 * not a fault, so it is shown as a dip. Points where nothing dropped show nothing.
 */
#include "lst_report_failover.h"

#include <stdio.h>
#include <string.h>

#include "lst_html.h"
#include "lst_report_sections.h"
#include "lst_report_text.h"
#include "lst_util.h"

/* v rounded, with thousands separated by commas: 2041.4 is "2,041". */
static void s_grouped(double v, char *buf, size_t size)
{
	char digits[64];
	size_t n, o = 0;
	const char *d = digits;

	snprintf(digits, sizeof(digits), "%.0f", v);
	if (*d == '-' && o + 1 < size)
		buf[o++] = *d++;
	n = strlen(d);
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
}

static double s_num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* The I/O figures of a window: "1,412 I/Os, p99 2,041 ms" (us under 1 ms), or "no I/O
 * completed" when nothing did (a window without latency has no p99, not a p99 of 0). */
static void s_ios_text(json_t *w, char *buf, size_t size)
{
	json_t *lat = json_object_get(w, "lat");
	long long ios = (long long)json_integer_value(json_object_get(w, "ios"));
	double p99 = s_num(lat, "p99_us");
	char v[64], n[64];

	if (!ios || !json_is_object(lat)) {
		snprintf(buf, size, "%s", ios ? "no latency recorded" : "no I/O completed");
		return;
	}
	if (p99 >= 1e3)
		s_grouped(p99 / 1e3, v, sizeof(v));
	else
		snprintf(v, sizeof(v), "%.0f", p99);
	s_grouped((double)ios, n, sizeof(n));
	snprintf(buf, size, "%s I/Os, p99 %s %s", n, v, p99 >= 1e3 ? "ms" : "us");
}

/* "b:/dev/loop3 3.0 s .. 6.0 s (3.0 s), 412 I/Os, p99 2,041 ms, oldest in flight 2.9 s". */
static void s_window_text(json_t *who, json_t *w, char *buf, size_t size)
{
	const char *agent = json_string_value(json_object_get(who, "agent"));
	const char *path = json_string_value(json_object_get(who, "path"));
	char ios[128];

	s_ios_text(w, ios, sizeof(ios));
	snprintf(buf, size, "%s%s%s %.1f s .. %.1f s (%.1f s), %s, oldest in flight %.1f s",
		 agent ? agent : "?", path ? ":" : "", path ? path : "", s_num(w, "start_t_s"),
		 s_num(w, "end_t_s"), s_num(w, "duration_s"), ios,
		 s_num(w, "oldest_inflight_us") / 1e6);
}

/* Append what the evidence object ev says to buf: "; evidence: event b port_down at 3.0 s,
 * 12 timeouts, an I/O in flight 2.9 s". */
static void s_evidence_text(json_t *ev, char *buf, size_t size)
{
	const char *sep = "; evidence: ", *name;
	json_t *e, *v;
	long long errors = (long long)json_integer_value(json_object_get(ev, "errors"));
	long long timeouts = (long long)json_integer_value(json_object_get(ev, "timeouts"));
	size_t i;

	json_array_foreach (json_object_get(ev, "events"), i, e) {
		lst_report_addf(buf, size, "%sevent %s at %.1f s", sep,
				json_string_value(json_object_get(e, "event")),
				s_num(e, "start_t_s"));
		sep = ", ";
	}
	if (errors) {
		const char *csep = " (";

		lst_report_addf(buf, size, "%s%lld I/O errors", sep, errors);
		json_object_foreach (json_object_get(ev, "error_classes"), name, v) {
			lst_report_addf(buf, size, "%s%s %lld", csep, name,
					(long long)json_integer_value(v));
			csep = ", ";
		}
		if (strcmp(csep, " ("))
			lst_report_addf(buf, size, ")");
		sep = ", ";
	}
	if (timeouts) {
		lst_report_addf(buf, size, "%s%lld timeouts", sep, timeouts);
		sep = ", ";
	}
	if (json_is_number(json_object_get(ev, "stalled_us")))
		lst_report_addf(buf, size, "%san I/O in flight %.1f s", sep,
				s_num(ev, "stalled_us") / 1e6);
}

void lst_report_failover_text(json_t *point, char *buf, size_t size)
{
	json_t *fo = json_object_get(point, "failover");

	s_window_text(point, fo, buf, size);
	s_evidence_text(json_object_get(fo, "evidence"), buf, size);
}

void lst_report_dip_text(json_t *dip, char *buf, size_t size)
{
	char base[64];

	s_window_text(dip, dip, buf, size);
	if (json_is_number(json_object_get(dip, "baseline_iops"))) {
		s_grouped(s_num(dip, "baseline_iops"), base, sizeof(base));
		lst_report_addf(buf, size, ", median before %s IOPS", base);
	}
}

/* Is o a point of phase and point? */
static bool s_of(json_t *o, const char *phase, long point)
{
	const char *ph = json_string_value(json_object_get(o, "phase"));

	return ph && !strcmp(ph, phase) && json_integer_value(json_object_get(o, "point")) == point;
}

/* A failover window with its evidence (a folder's `failover` without one predates it). */
static bool s_has_evidence(json_t *o)
{
	return json_is_object(json_object_get(json_object_get(o, "failover"), "evidence"));
}

json_t *lst_report_failovers(const lst_report *r, const char *phase, long point)
{
	json_t *points = r->summary ? json_object_get(r->summary, "points") : NULL;
	json_t *a = json_array(), *o;
	size_t i;

	json_array_foreach (points, i, o)
		if (s_of(o, phase, point) && s_has_evidence(o))
			json_array_append(a, o);
	return a;
}

/* A copy of window w with its point's agent (and path). New reference. */
static json_t *s_with_who(json_t *o, json_t *w)
{
	json_t *c = json_deep_copy(w);

	json_object_set(c, "agent", json_object_get(o, "agent"));
	if (json_object_get(o, "path"))
		json_object_set(c, "path", json_object_get(o, "path"));
	return c;
}

json_t *lst_report_dips(const lst_report *r, const char *phase, long point)
{
	json_t *points = r->summary ? json_object_get(r->summary, "points") : NULL;
	json_t *a = json_array(), *o, *d;
	size_t i, j;

	json_array_foreach (points, i, o) {
		if (!s_of(o, phase, point))
			continue;
		if (json_is_object(json_object_get(o, "failover")) && !s_has_evidence(o))
			json_array_append_new(a, s_with_who(o, json_object_get(o, "failover")));
		json_array_foreach (json_object_get(o, "dips"), j, d)
			json_array_append_new(a, s_with_who(o, d));
	}
	return a;
}

void lst_report_dip_threshold(json_t *dip, char *buf, size_t size)
{
	char below[64] = "the phase's failover: {below:}";

	if (json_is_number(json_object_get(dip, "below_pct")))
		snprintf(below, sizeof(below), "%g%%", s_num(dip, "below_pct"));
	snprintf(buf, size, "below %s of the path's median IOPS before it, for 1 interval or more",
		 below);
}

void lst_report_failover_print(FILE *f, const struct lst_report_view *v)
{
	json_t *a = lst_report_failovers(v->r, v->point->phase, v->point->point), *o;
	char line[1024];
	size_t i;

	json_array_foreach (a, i, o) {
		lst_report_failover_text(o, line, sizeof(line));
		fprintf(f, "    failover: %s\n", line);
	}
	json_decref(a);
}

void lst_report_dips_print(FILE *f, const struct lst_report_view *v)
{
	size_t shown = 0;
	char line[1024], label[256];

	for (size_t k = 0; k < v->n; k++) {
		const struct lst_rpt_point *p = &v->r->points[v->idx[k]];
		json_t *a = lst_report_dips(v->r, p->phase, p->point), *d;
		size_t i;

		json_array_foreach (a, i, d) {
			bool named;

			if (!shown++) {
				lst_report_dip_threshold(d, line, sizeof(line));
				fprintf(f, "  throughput dips (no evidence of a path fault; %s):\n",
					line);
			}
			lst_report_point_text(p, false, label, sizeof(label));
			named = *label && strcmp(label, "-");
			lst_report_dip_text(d, line, sizeof(line));
			fprintf(f, "    point %ld%s%s%s: %s\n", p->point, named ? " (" : "",
				named ? label : "", named ? ")" : "", line);
		}
		json_decref(a);
	}
}

void lst_report_failover_json(const struct lst_report_view *v, json_t *o)
{
	json_t *a = lst_report_failovers(v->r, v->point->phase, v->point->point),
	       *out = json_array();
	json_t *w;
	size_t i;

	json_array_foreach (a, i, w)
		json_array_append_new(out, s_with_who(w, json_object_get(w, "failover")));
	json_decref(a);
	if (json_array_size(out))
		json_object_set(o, "failover", out);
	json_decref(out);
}

void lst_report_dips_json(const struct lst_report_view *v, json_t *o)
{
	json_t *dips = lst_report_dips(v->r, v->point->phase, v->point->point);

	if (json_array_size(dips))
		json_object_set(o, "dips", dips);
	json_decref(dips);
}

/* --- HTML ------------------------------------------------------------------------------------ */

/* One list item: "point label: line", label left out for a phase of one unnamed point. */
static void s_window_item(FILE *f, const struct lst_rpt_point *p, const char *line)
{
	char label[256];

	lst_report_point_text(p, false, label, sizeof(label));
	fputs("<li>", f);
	if (*label && strcmp(label, "-")) {
		lst_html_esc(f, label);
		fputs(": ", f);
	}
	lst_html_esc(f, line);
	fputs("</li>\n", f);
}

/* The heading, the note that says what found the windows, and the list's opening tag: of the
 * failover windows, or (dips) of the throughput dips, whose note names the threshold of first,
 * the phase's first dip (a phase's dips share it). */
static void s_html_head(FILE *f, json_t *first, bool dips)
{
	char line[1024];

	if (!dips) {
		fputs("<h3>Failover windows</h3>\n<p class=\"note\">Where a path's completions fell "
		      "below a fraction of its own rate before the drop (the phase's "
		      "<code>failover: {below:}</code>) with evidence of a path fault in or next to "
		      "it: start .. end, I/Os, p99, the oldest I/O in flight, and the evidence.</p>\n"
		      "<ul class=\"failover\">\n",
		      f);
		return;
	}
	lst_report_dip_threshold(first, line, sizeof(line));
	fputs("<h3>Throughput dips</h3>\n<p class=\"note\">Found ", f);
	lst_html_esc(f, line);
	fputs(", with no I/O error, timeout, stalled I/O or event of the plan in or next to it: a "
	      "slowdown, not a failover (the phase's <code>failover: {dips: false}</code> leaves "
	      "them out).</p>\n<ul class=\"dips\">\n",
	      f);
}

/* The failover windows, or (dips) the throughput dips, of the view's points as one list, an
 * item per window ("point: a:/dev/loop3 3.0 s .. 6.0 s (3.0 s), 412 I/Os, ..."); none, nothing.
 * The one walker of both, so the two sections cannot drift apart. */
static void s_html_list(FILE *f, const struct lst_report_view *v, bool dips)
{
	size_t shown = 0;
	char line[1024];

	for (size_t k = 0; k < v->n; k++) {
		const struct lst_rpt_point *p = &v->r->points[v->idx[k]];
		json_t *a = dips ? lst_report_dips(v->r, p->phase, p->point)
				 : lst_report_failovers(v->r, p->phase, p->point);
		json_t *w;
		size_t i;

		json_array_foreach (a, i, w) {
			if (!shown++)
				s_html_head(f, w, dips);
			if (dips)
				lst_report_dip_text(w, line, sizeof(line));
			else
				lst_report_failover_text(w, line, sizeof(line));
			s_window_item(f, p, line);
		}
		json_decref(a);
	}
	if (shown)
		fputs("</ul>\n", f);
}

void lst_report_failover_html(FILE *f, const struct lst_report_view *v)
{
	s_html_list(f, v, false);
}

void lst_report_dips_html(FILE *f, const struct lst_report_view *v)
{
	s_html_list(f, v, true);
}
