/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tail attribution in the report (lst_report_tail.h): run.json's points, each agent's samples
 * read twice into each point's lst_tail, then one line per threshold in the text and HTML, an
 * object per threshold in JSON and rows in tail.csv, all from the same lst_tail results.
 */
#include "lst_report_tail.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_columns.h"
#include "lst_html.h"
#include "lst_plan.h"
#include "lst_report_plan.h"
#include "lst_report_text.h"
#include "lst_util.h"

#define S_PATHS_SHOWN 4 /* paths named in a line, then "and N more" */

/* A point of run.json; its strings and agents are borrowed from r->run. */
struct s_pt {
	const char *phase, *label;
	long point;
	json_t *agents;
	lst_tail *t;
};

struct lst_report_tail {
	size_t n;
	struct s_pt *pts;
};

/* How many paths the point's entry e of run.json has over its agents (one per agent without
 * a path list). */
static size_t s_npaths(json_t *e)
{
	const char *name;
	json_t *a;
	size_t n = 0;

	json_object_foreach (json_object_get(e, "agents"), name, a) {
		size_t k = json_array_size(json_object_get(a, "paths"));

		n += k ? k : 1;
	}
	return n;
}

/* The points of run.json with two paths or more (a retried point once, as last run). */
static void s_points(lst_report_tail *rt, const lst_report *r, uint64_t limit_ns)
{
	json_t *e;
	size_t i;

	json_array_foreach (json_object_get(r->run, "phases"), i, e) {
		const char *phase = json_string_value(json_object_get(e, "phase"));
		json_t *pt = json_object_get(e, "point");
		size_t k;

		if (!phase || !json_is_integer(pt) || s_npaths(e) < 2)
			continue;
		for (k = 0; k < rt->n; k++)
			if (rt->pts[k].point == json_integer_value(pt) &&
			    !strcmp(rt->pts[k].phase, phase))
				break;
		if (k == rt->n) {
			rt->pts = lst_realloc(rt->pts, (rt->n + 1) * sizeof(*rt->pts));
			rt->pts[rt->n++] = (struct s_pt){ .phase = phase,
							  .point = (long)json_integer_value(pt),
							  .t = lst_tail_new(limit_ns) };
		}
		rt->pts[k].agents = json_object_get(e, "agents");
		rt->pts[k].label = json_string_value(json_object_get(e, "label")) ?: "";
	}
}

static struct s_pt *s_find(const lst_report_tail *rt, const char *phase, long point)
{
	for (size_t k = 0; k < rt->n; k++)
		if (rt->pts[k].point == point && !strcmp(rt->pts[k].phase, phase))
			return &rt->pts[k];
	return NULL;
}

/* One pass over the samples: the merged histograms (pass 0) or each path's intervals. */
struct s_read {
	lst_report_tail *rt;
	const lst_report *r;
	lst_plan *plan; /* loaded at the first sample: a folder without samples needs none */
	const char *agent;
	int pass;
};

/* The path of job spec k of agent rd->agent in point pt, as run.json names it, into buf. */
static const char *s_path_name(const struct s_read *rd, const struct s_pt *pt, uint32_t k,
			       char *buf, size_t size)
{
	json_t *paths = json_object_get(json_object_get(pt->agents, rd->agent), "paths");
	const char *path = json_string_value(json_object_get(json_array_get(paths, k), "path"));

	if (path)
		return path;
	snprintf(buf, size, "#%u", k); /* run.json names none: the job spec's index */
	return buf;
}

/* A whole sample (or part) s of path into pt's attribution. */
static int s_add(const struct s_read *rd, struct s_pt *pt, const char *path, const lst_sample *s,
		 lst_err *err)
{
	int rc;

	for (int d = 0; d < LST_DIR_N; d++) {
		if (!rd->pass) {
			lst_tail_add_total(pt->t, &s->dir[d].lat);
		} else if ((rc = lst_tail_add(pt->t, rd->agent, path, d, (long)s->interval,
					      &s->dir[d].lat, err))) {
			lst_err_prefix(err, "phase %s point %ld: ", pt->phase, pt->point);
			return rc;
		}
	}
	return 0;
}

/* lst_export_sample_fn: a measured sample of a point with an attribution, by path. */
static int s_sample(void *arg, const struct lst_export_sample *m, lst_err *err)
{
	struct s_read *rd = arg;
	struct s_pt *pt;
	char buf[32];
	int rc = 0;

	if (!rd->plan && !(rd->plan = lst_report_plan_load(rd->r, err)))
		return -EINVAL;
	if (m->s->flags & LST_SAMPLE_RAMP || m->phase >= rd->plan->nphases ||
	    !(pt = s_find(rd->rt, rd->plan->phases[m->phase].name, (long)m->point)))
		return 0;
	if (!rd->pass || !m->nparts)
		return s_add(rd, pt, s_path_name(rd, pt, 0, buf, sizeof(buf)), m->s, err);
	for (uint32_t i = 0; i < m->nparts && !rc; i++)
		rc = s_add(rd, pt, s_path_name(rd, pt, m->parts[i].path, buf, sizeof(buf)),
			   &m->parts[i].s, err);
	return rc;
}

lst_report_tail *lst_report_tail_load(const lst_report *r, lst_export_samples_fn samples,
				      uint64_t limit_ns, lst_err *err)
{
	lst_report_tail *rt = lst_calloc(1, sizeof(*rt));
	struct s_read rd = { .rt = rt, .r = r };
	int rc = 0;

	s_points(rt, r, limit_ns);
	for (rd.pass = 0; rd.pass < 2 && rt->n; rd.pass++)
		for (size_t a = 0; a < r->nagents; a++) {
			rd.agent = r->agents[a].name;
			rc = samples(r->dir, rd.agent, s_sample, &rd, err);
			if (rc == -ENOENT) /* an agent without samples adds nothing */
				continue;
			if (rc) {
				lst_err_prefix(err, "agent %s: ", rd.agent);
				goto fail;
			}
		}
	for (size_t k = 0; k < rt->n; k++)
		lst_tail_finish(rt->pts[k].t);
	lst_plan_destroy(&rd.plan);
	return rt;
fail:
	lst_plan_destroy(&rd.plan);
	lst_report_tail_destroy(&rt);
	return NULL;
}

void lst_report_tail_destroy(lst_report_tail **p)
{
	lst_report_tail *rt = *p;

	if (!rt)
		return;
	for (size_t k = 0; k < rt->n; k++)
		lst_tail_destroy(&rt->pts[k].t);
	free(rt->pts);
	free(rt);
	*p = NULL;
}

const lst_tail *lst_report_tail_point(const lst_report_tail *rt, const char *phase, long point)
{
	const struct s_pt *pt = rt ? s_find(rt, phase, point) : NULL;

	return pt && lst_tail_nth(pt->t) ? pt->t : NULL;
}

size_t lst_report_tail_count(const lst_report_tail *rt)
{
	size_t n = 0;

	for (size_t k = 0; rt && k < rt->n; k++)
		n += lst_tail_nth(rt->pts[k].t) > 0;
	return n;
}

/* --- text and HTML: one line per threshold ---------------------------------------------- */

/* A latency in ns as "41.9 ms" (1 ms and more) or "850 us". */
static void s_lat(uint64_t ns, char *buf, size_t size)
{
	if (ns >= 1000000)
		snprintf(buf, size, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.0f us", (double)ns / 1e3);
}

/* The verdict of th in words; `alone` says whether one path or several had hot intervals. */
static const char *s_verdict_text(const struct lst_tail_th *th)
{
	size_t hot = 0;

	for (size_t i = 0; i < th->npaths; i++)
		hot += th->paths[i].pct >= LST_TAIL_MAJOR_PCT && th->paths[i].nranges;
	switch (th->verdict) {
	case LST_TAIL_SHARED:
		return "shared: several paths at once (a common cause, such as the drive)";
	case LST_TAIL_ALONE:
		return hot > 1 ? "alone: each path at its own time (its host, HBA or port)"
			       : "alone: no other path at the same time (its host, HBA or port)";
	case LST_TAIL_SPREAD:
		return "spread: no interval stands out";
	default:
		return "none";
	}
}

/* "b 100%, a 0%" of shares sh[n]. */
static void s_shares_text(const struct lst_tail_share *sh, size_t n, char *buf, size_t size)
{
	for (size_t i = 0; i < n; i++)
		lst_report_addf(buf, size, "%s%s %.0f%%", i ? ", " : "", sh[i].who, sh[i].pct);
}

/* "p99.9 exceedances (over 41.9 ms, 16 I/Os): b:/dev/sdc 83% (intervals 410-415, also on
 * a:/dev/sdb), a:/dev/sdb 17%; agents b 83%, a 17%; write 100%, read 0%; shared: ..." */
static void s_line(const struct lst_tail_th *th, char *buf, size_t size)
{
	char lat[32], ranges[128];
	size_t shown = 0;

	s_lat(th->cut.ns, lat, sizeof(lat));
	snprintf(buf, size, "%s exceedances (over %s, %.0f I/Os): ", th->name, lat, th->ios);
	if (th->verdict == LST_TAIL_NONE) {
		lst_report_addf(buf, size, "none");
		return;
	}
	for (size_t i = 0; i < th->npaths; i++) {
		const struct lst_tail_share *s = &th->paths[i];

		if (s->pct < 0.5 && shown)
			continue;
		if (shown++ == S_PATHS_SHOWN) {
			lst_report_addf(buf, size, ", and %zu more", th->npaths - i);
			break;
		}
		lst_report_addf(buf, size, "%s%s %.0f%%", shown > 1 ? ", " : "", s->who, s->pct);
		if (!s->nranges)
			continue;
		lst_tail_ranges_text(s, ranges, sizeof(ranges));
		lst_report_addf(buf, size, " (interval%s %s%s%s)",
				s->nranges > 1 || s->ranges[0].first != s->ranges[0].last ? "s"
											  : "",
				ranges, *s->also ? ", also on " : "", s->also);
	}
	lst_report_addf(buf, size, "; agents ");
	s_shares_text(th->agents, th->nagents, buf, size);
	lst_report_addf(buf, size, "; ");
	s_shares_text(th->dirs, LST_DIR_N, buf, size);
	lst_report_addf(buf, size, "; %s", s_verdict_text(th));
}

void lst_report_tail_print(FILE *f, const struct lst_report_view *v)
{
	const lst_tail *t = lst_report_tail_point(v->r->tail, v->point->phase, v->point->point);
	char line[2048];

	for (size_t i = 0; t && i < lst_tail_nth(t); i++) {
		s_line(lst_tail_th(t, i), line, sizeof(line));
		fprintf(f, "    %s\n", line);
	}
}

void lst_report_tail_html(FILE *f, const struct lst_report_view *v)
{
	size_t shown = 0;
	char line[2048];

	for (size_t k = 0; k < v->n; k++) {
		const struct lst_rpt_point *p = &v->r->points[v->idx[k]];
		const lst_tail *t = lst_report_tail_point(v->r->tail, p->phase, p->point);

		for (size_t i = 0; t && i < lst_tail_nth(t); i++) {
			const struct lst_tail_th *th = lst_tail_th(t, i);

			if (!shown++)
				fputs("<h3>Tail attribution</h3>\n<ul class=\"tail\">\n", f);
			s_line(th, line, sizeof(line));
			fputs("<li data-tail=\"", f);
			lst_html_esc(f, p->phase);
			fprintf(f,
				"\" data-point=\"%ld\" data-threshold=\"%s\" data-verdict=\"%s\">",
				p->point, th->name, lst_tail_verdict_name(th->verdict));
			fprintf(f, "point %ld: ", p->point);
			lst_html_esc(f, line);
			fputs("</li>\n", f);
		}
	}
	if (shown)
		fputs("</ul>\n", f);
}

/* --- JSON ------------------------------------------------------------------------------------ */

static json_t *s_shares_json(const struct lst_tail_share *sh, size_t n, bool paths)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_pack("{s:s, s:f, s:f}", "who", sh[i].who, "ios", sh[i].ios,
				      "share_pct", sh[i].pct);

		if (paths) {
			json_t *ranges = json_array(), *also = json_array();
			char *list = lst_strdup(sh[i].also), *save = NULL;

			for (size_t g = 0; g < sh[i].nranges && g < LST_TAIL_RANGES; g++)
				json_array_append_new(ranges,
						      json_pack("[I, I]",
								(json_int_t)sh[i].ranges[g].first,
								(json_int_t)sh[i].ranges[g].last));
			for (char *w = strtok_r(list, ", ", &save); w;
			     w = strtok_r(NULL, ", ", &save))
				json_array_append_new(also, json_string(w));
			free(list);
			json_object_set_new(o, "intervals", ranges);
			json_object_set_new(o, "more_intervals",
					    json_boolean(sh[i].nranges > LST_TAIL_RANGES));
			json_object_set_new(o, "hot_pct", json_real(sh[i].hot_pct));
			json_object_set_new(o, "also_on", also);
		}
		json_array_append_new(a, o);
	}
	return a;
}

void lst_report_tail_json(const struct lst_report_view *v, json_t *o)
{
	const lst_tail *t = lst_report_tail_point(v->r->tail, v->point->phase, v->point->point);
	json_t *a;

	if (!t)
		return;
	a = json_array();
	for (size_t i = 0; i < lst_tail_nth(t); i++) {
		const struct lst_tail_th *th = lst_tail_th(t, i);
		json_t *x = json_pack("{s:s, s:f, s:f, s:s}", "threshold", th->name, "threshold_us",
				      (double)th->cut.ns / 1e3, "ios", th->ios, "verdict",
				      lst_tail_verdict_name(th->verdict));

		json_object_set_new(x, "paths", s_shares_json(th->paths, th->npaths, true));
		json_object_set_new(x, "agents", s_shares_json(th->agents, th->nagents, false));
		json_object_set_new(x, "directions", s_shares_json(th->dirs, LST_DIR_N, false));
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "tail", a);
}

/* --- tail.csv ------------------------------------------------------------------------------ */

/* A row of point pt's threshold th: its key set in c, the rest the caller's. */
static void s_csv_key(union lst_cell *c, const struct s_pt *pt, const struct lst_tail_th *th)
{
	c[LST_TC_PHASE].s = pt->phase;
	c[LST_TC_POINT].i = pt->point;
	c[LST_TC_LABEL].s = pt->label;
	c[LST_TC_THRESHOLD].s = th->name;
	c[LST_TC_THRESHOLD_US].d = (double)th->cut.ns / 1e3;
	c[LST_TC_VERDICT].s = lst_tail_verdict_name(th->verdict);
}

static void s_csv_shares(FILE *f, const struct s_pt *pt, const struct lst_tail_th *th,
			 const char *by, const struct lst_tail_share *sh, size_t n)
{
	bool path = !strcmp(by, "path");
	union lst_cell c[LST_TC_N];
	char ranges[128];

	for (size_t i = 0; i < n; i++) {
		s_csv_key(c, pt, th);
		lst_tail_ranges_text(&sh[i], ranges, sizeof(ranges));
		c[LST_TC_BY].s = by;
		c[LST_TC_WHO].s = sh[i].who;
		c[LST_TC_INTERVAL].i = -1;
		c[LST_TC_IOS].d = sh[i].ios;
		c[LST_TC_SHARE_PCT].d = sh[i].pct;
		c[LST_TC_HOT_INTERVALS].s = path ? ranges : "";
		c[LST_TC_HOT_PCT].d = path ? sh[i].hot_pct : NAN;
		c[LST_TC_ALSO_ON].s = path ? sh[i].also : "";
		lst_columns_write(f, &lst_tail_table, c);
	}
}

/* A row per path and interval of threshold i with exceedances. */
static void s_csv_intervals(FILE *f, const struct s_pt *pt, size_t i)
{
	const struct lst_tail_th *th = lst_tail_th(pt->t, i);
	union lst_cell c[LST_TC_N];
	long first, last;

	if (!lst_tail_span(pt->t, &first, &last))
		return;
	s_csv_key(c, pt, th);
	c[LST_TC_BY].s = "path";
	c[LST_TC_HOT_INTERVALS].s = c[LST_TC_ALSO_ON].s = "";
	c[LST_TC_HOT_PCT].d = NAN;
	for (size_t p = 0; p < lst_tail_npaths(pt->t); p++)
		for (long k = first; k <= last; k++) {
			double e = lst_tail_at(pt->t, i, p, k);

			if (e <= 0)
				continue;
			c[LST_TC_WHO].s = lst_tail_path_name(pt->t, p);
			c[LST_TC_INTERVAL].i = k;
			c[LST_TC_IOS].d = e;
			c[LST_TC_SHARE_PCT].d = th->ios > 0 ? 100 * e / th->ios : 0;
			lst_columns_write(f, &lst_tail_table, c);
		}
}

int lst_report_tail_write_csv(const lst_report_tail *rt, const char *path, lst_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return lst_err_sys(err, -errno, "cannot write %s", path);
	lst_columns_header(f, &lst_tail_table);
	for (size_t k = 0; k < rt->n; k++) {
		const struct s_pt *pt = &rt->pts[k];

		for (size_t i = 0; i < lst_tail_nth(pt->t); i++) {
			const struct lst_tail_th *th = lst_tail_th(pt->t, i);

			s_csv_shares(f, pt, th, "path", th->paths, th->npaths);
			s_csv_shares(f, pt, th, "agent", th->agents, th->nagents);
			s_csv_shares(f, pt, th, "direction", th->dirs, LST_DIR_N);
			s_csv_intervals(f, pt, i);
		}
	}
	if (ferror(f) | fclose(f))
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}
