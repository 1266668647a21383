/*
 * Failover windows in `lockstep report` (issue 13): summary.json's path and agent points carry
 * `failover` (lst_failover.h), null or the window where that path's completions fell below a
 * fraction of its own pre-fault rate. Here they become one line under their point in the text
 * report, an array in its JSON and a sentence in the HTML page. Folders that predate them, and
 * points where nothing dropped, show nothing.
 */
#include <stdio.h>
#include <string.h>

#include "lst_report_show.h"

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

void lst_report_failover_text(json_t *point, char *buf, size_t size)
{
	json_t *fo = json_object_get(point, "failover");
	const char *agent = json_string_value(json_object_get(point, "agent"));
	const char *path = json_string_value(json_object_get(point, "path"));
	char p99[64];

	s_grouped(s_num(json_object_get(fo, "lat"), "p99_us") / 1e3, p99, sizeof(p99));
	snprintf(buf, size,
		 "%s%s%s %.1f s .. %.1f s (%.1f s), %lld I/Os, p99 %s ms, oldest in flight %.1f s",
		 agent ? agent : "?", path ? ":" : "", path ? path : "", s_num(fo, "start_t_s"),
		 s_num(fo, "end_t_s"), s_num(fo, "duration_s"),
		 (long long)json_integer_value(json_object_get(fo, "ios")), p99,
		 s_num(fo, "oldest_inflight_us") / 1e6);
}

json_t *lst_report_failovers(const lst_report *r, const char *phase, long point)
{
	json_t *points = r->summary ? json_object_get(r->summary, "points") : NULL;
	json_t *a = json_array(), *o;
	size_t i;

	json_array_foreach (points, i, o) {
		const char *ph = json_string_value(json_object_get(o, "phase"));

		if (!ph || strcmp(ph, phase) ||
		    json_integer_value(json_object_get(o, "point")) != point ||
		    !json_is_object(json_object_get(o, "failover")))
			continue;
		json_array_append(a, o);
	}
	return a;
}

void lst_report_print_failover(const lst_report *r, const struct lst_rpt_point *p)
{
	json_t *a = lst_report_failovers(r, p->phase, p->point), *o;
	char line[512];
	size_t i;

	json_array_foreach (a, i, o) {
		lst_report_failover_text(o, line, sizeof(line));
		printf("    failover: %s\n", line);
	}
	json_decref(a);
}

json_t *lst_report_failover_json(const lst_report *r, const struct lst_rpt_point *p)
{
	json_t *a = lst_report_failovers(r, p->phase, p->point), *out = json_array(), *o;
	size_t i;

	json_array_foreach (a, i, o) {
		json_t *w = json_deep_copy(json_object_get(o, "failover"));

		json_object_set(w, "agent", json_object_get(o, "agent"));
		if (json_object_get(o, "path"))
			json_object_set(w, "path", json_object_get(o, "path"));
		json_array_append_new(out, w);
	}
	json_decref(a);
	return out;
}
