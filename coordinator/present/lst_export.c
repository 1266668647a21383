/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep export`'s reading of a results folder (lst_export.h): run.json's points, their
 * samples added up per agent, per path and for all agents, timeseries.csv's rows as each
 * job's per-interval rates, then the fio or HdrHistogram writer. Each pass over the samples is
 * a reader (struct s_reader) given every measured sample of one agent in file order, so that
 * no samples file is ever held whole: the sums, the hdr logs and the fio histogram logs each
 * take one pass.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lst_errlist.h"
#include "lst_export.h"
#include "lst_export_fio.h"
#include "lst_export_hdr.h"
#include "lst_plan.h"
#include "lst_report_plan.h"
#include "lst_report.h"
#include "lst_util.h"

#define S_INTERVALS_MAX (1 << 24) /* intervals of a point: 194 days at 1 s */

/* The points of run.json, each with its workload; an entry run again (a retry) counts once. */
static int s_points(const lst_report *r, struct lst_export_point **out, size_t *n, lst_err *err)
{
	json_t *phases = json_object_get(r->run, "phases"), *e;
	struct lst_export_point *pts = NULL;
	size_t i, k;

	*n = 0;
	json_array_foreach (phases, i, e) {
		json_t *w = json_object_get(e, "workload");
		const char *phase = json_string_value(json_object_get(e, "phase"));
		const char *rw = json_string_value(json_object_get(w, "rw"));
		long point = (long)json_integer_value(json_object_get(e, "point"));

		if (!phase || !json_is_integer(json_object_get(e, "point")))
			return lst_err_set(err, -EINVAL,
					   "%s/run.json: phases[%zu] has no phase or "
					   "point",
					   r->dir, i);
		for (k = 0; k < *n; k++)
			if (!strcmp(pts[k].phase, phase) && pts[k].point == point)
				break;
		if (k == *n) {
			pts = lst_realloc(pts, (*n + 1) * sizeof(*pts));
			memset(&pts[k], 0, sizeof(pts[k]));
			(*n)++;
		}
		snprintf(pts[k].phase, sizeof(pts[k].phase), "%s", phase);
		pts[k].point = point;
		snprintf(pts[k].label, sizeof(pts[k].label), "%s",
			 json_string_value(json_object_get(e, "label")) ?: "");
		snprintf(pts[k].rw, sizeof(pts[k].rw), "%s", rw ? rw : "mixed");
		pts[k].bs = json_integer_value(json_object_get(w, "bs"));
		pts[k].iodepth = json_integer_value(json_object_get(w, "iodepth"));
		pts[k].jobs = json_integer_value(json_object_get(w, "jobs"));
		pts[k].rwmixread = json_integer_value(json_object_get(w, "rwmixread"));
		pts[k].start_t_s = json_number_value(json_object_get(e, "start_t_s"));
		pts[k].interval_s =
			(double)json_integer_value(json_object_get(w, "interval")) / 1e9;
		snprintf(pts[k].all.name, sizeof(pts[k].all.name), "All clients");
		for (int d = 0; d < LST_DIR_N; d++)
			lst_hist_init(&pts[k].all.dir[d].lat);
	}
	*out = pts;
	return 0;
}

/* The job named name in (*jobs, *n), added when new. */
static struct lst_export_job *s_job(struct lst_export_job **jobs, size_t *n, const char *name)
{
	struct lst_export_job *j;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*jobs)[i].name, name))
			return &(*jobs)[i];
	*jobs = lst_realloc(*jobs, (*n + 1) * sizeof(**jobs));
	j = &(*jobs)[(*n)++];
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", name);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&j->dir[d].lat);
	return j;
}

/* A measured interval's counts and buckets into job j; span tracks its first start and last
 * end (agent clock), for its measured time. */
static void s_add(struct lst_export_job *j, const lst_sample *s)
{
	for (int d = 0; d < LST_DIR_N; d++) {
		j->dir[d].ios += s->dir[d].ios;
		j->dir[d].bytes += s->dir[d].bytes;
		j->dir[d].errors += s->dir[d].errors;
		lst_hist_add(&j->dir[d].lat, &s->dir[d].lat);
	}
}

struct s_span {
	int64_t start, end;
};

/* The point of sample m, NULL when run.json has none (a point stopped before it was recorded). */
static struct lst_export_point *s_point_of(struct lst_export_point *pts, size_t n,
					   const lst_plan *plan, const struct lst_export_sample *m)
{
	if (m->phase >= plan->nphases)
		return NULL;
	for (size_t k = 0; k < n; k++)
		if (pts[k].point == (long)m->point &&
		    !strcmp(pts[k].phase, plan->phases[m->phase].name))
			return &pts[k];
	return NULL;
}

/* What a reader of the samples does with one measured sample of point pt (agent a's). */
struct s_reader {
	int (*fn)(struct s_reader *rd, size_t a, struct lst_export_point *pt,
		  const struct lst_export_sample *m, lst_err *err);
	const lst_plan *plan;
	struct lst_export_point *pts;
	size_t n;
	size_t agent; /* the agent whose file is being read */
};

/* The caller's reader gives every sample: the measured ones of a known point go to rd->fn. */
static int s_one_sample(void *arg, const struct lst_export_sample *m, lst_err *err)
{
	struct s_reader *rd = arg;
	struct lst_export_point *pt;

	if (m->s->flags & LST_SAMPLE_RAMP || !(pt = s_point_of(rd->pts, rd->n, rd->plan, m)))
		return 0;
	return rd->fn(rd, rd->agent, pt, m, err);
}

/* rd->fn for every measured sample of agent a whose point is one of rd->pts. */
static int s_each_sample(const lst_report *r, size_t a, lst_export_samples_fn samples,
			 struct s_reader *rd, lst_err *err)
{
	rd->agent = a;
	return samples(r->dir, r->agents[a].name, s_one_sample, rd, err);
}

/* The fio reader: each point's sums per agent and in all, and each agent's span. */
struct s_sums {
	struct s_reader rd;
	size_t nagents;
	struct s_span *spans; /* [point * nagents + agent] */
	const lst_report *r;
};

static int s_sum(struct s_reader *rd, size_t a, struct lst_export_point *pt,
		 const struct lst_export_sample *m, lst_err *err)
{
	struct s_sums *sm = (struct s_sums *)rd;
	struct s_span *sp = &sm->spans[(size_t)(pt - rd->pts) * sm->nagents + a];
	const lst_sample *s = m->s;
	const char *agent = sm->r->agents[a].name;

	(void)err;
	s_add(s_job(&pt->agents, &pt->nagents, agent), s);
	s_add(&pt->all, s);
	for (uint32_t i = 0; i < m->nparts; i++) { /* "AGENT:K" until s_path_names */
		char name[256];

		snprintf(name, sizeof(name), "%s:%" PRIu32, agent, m->parts[i].path);
		s_add(s_job(&pt->paths, &pt->npaths, name), &m->parts[i].s);
	}
	if (!sp->end || s->start_ns < sp->start)
		sp->start = s->start_ns;
	if (s->end_ns > sp->end)
		sp->end = s->end_ns;
	return 0;
}

/* Each job's measured time from the spans; all agents' is the longest. */
static void s_seconds(struct lst_export_point *pts, size_t n, const lst_report *r,
		      const struct s_span *spans)
{
	for (size_t k = 0; k < n; k++) {
		for (size_t a = 0; a < r->nagents; a++) {
			const struct s_span *sp = &spans[k * r->nagents + a];
			double secs = (double)(sp->end - sp->start) / 1e9;

			size_t len = strlen(r->agents[a].name);

			for (size_t i = 0; i < pts[k].nagents; i++)
				if (!strcmp(pts[k].agents[i].name, r->agents[a].name))
					pts[k].agents[i].seconds = secs;
			for (size_t i = 0; i < pts[k].npaths; i++) /* "AGENT:..." */
				if (!strncmp(pts[k].paths[i].name, r->agents[a].name, len) &&
				    pts[k].paths[i].name[len] == ':')
					pts[k].paths[i].seconds = secs;
			if (secs > pts[k].all.seconds)
				pts[k].all.seconds = secs;
		}
	}
}

/* Does summary.csv have path rows for pt (the run's choice: lst_report's parts)? */
static bool s_has_path_rows(const lst_report *r, const struct lst_export_point *pt)
{
	for (size_t i = 0; i < r->nparts; i++)
		if (!strcmp(r->parts[i].scope, "path") && r->parts[i].point == pt->point &&
		    !strcmp(r->parts[i].phase, pt->phase))
			return true;
	return false;
}

/* An agent of pt that ran one path only sends no parts: its path is all of it, as its path row
 * in summary.csv says, where the point has path rows. */
static void s_single_paths(const lst_report *r, struct lst_export_point *pt, json_t *entry)
{
	bool rows = s_has_path_rows(r, pt);

	for (size_t i = 0; rows && i < pt->nagents; i++) {
		struct lst_export_job *a = &pt->agents[i], *j;
		json_t *paths = json_object_get(
			json_object_get(json_object_get(entry, "agents"), a->name), "paths");
		const char *path =
			json_string_value(json_object_get(json_array_get(paths, 0), "path"));
		char name[256];

		if (json_array_size(paths) != 1 || !path)
			continue;
		snprintf(name, sizeof(name), "%s:%s", a->name, path);
		j = s_job(&pt->paths, &pt->npaths, name);
		if (!j->dir[LST_DIR_READ].ios && !j->dir[LST_DIR_WRITE].ios) {
			*j = *a; /* s_job grew pt->paths, never pt->agents: a still holds */
			snprintf(j->name, sizeof(j->name), "%s", name);
		}
	}
}

/* The paths' names: "AGENT:K" (job spec K of the point) becomes "AGENT:PATH", the path run.json
 * gives the agent's K-th job spec of the point (kept as is when run.json has none). */
static void s_path_names(const lst_report *r, struct lst_export_point *pts, size_t n)
{
	json_t *phases = json_object_get(r->run, "phases"), *e;
	size_t i;

	json_array_foreach (phases, i, e) {
		const char *phase = json_string_value(json_object_get(e, "phase"));
		long point = (long)json_integer_value(json_object_get(e, "point"));

		for (size_t k = 0; phase && k < n; k++) {
			if (strcmp(pts[k].phase, phase) || pts[k].point != point)
				continue;
			for (size_t p = 0; p < pts[k].npaths; p++) {
				struct lst_export_job *j = &pts[k].paths[p];
				char *colon = strrchr(j->name, ':'), agent[256];
				json_t *paths;
				const char *path;

				snprintf(agent, sizeof(agent), "%.*s", (int)(colon - j->name),
					 j->name);
				paths = json_object_get(
					json_object_get(json_object_get(e, "agents"), agent),
					"paths");
				path = json_string_value(json_object_get(
					json_array_get(paths, strtoul(colon + 1, NULL, 10)),
					"path"));
				if (path)
					snprintf(j->name, sizeof(j->name), "%s:%s", agent, path);
			}
			s_single_paths(r, &pts[k], e);
		}
	}
}

/* The folder's points with their agents' samples added up into *pts (*n). */
static int s_load(const lst_report *r, const lst_plan *plan, lst_export_samples_fn samples,
		  struct lst_export_point **pts, size_t *n, lst_err *err)
{
	struct s_sums sm = { .rd = { .fn = s_sum, .plan = plan }, .nagents = r->nagents, .r = r };
	int rc;

	if ((rc = s_points(r, pts, n, err)))
		return rc;
	sm.rd.pts = *pts;
	sm.rd.n = *n;
	sm.spans = lst_calloc(*n * r->nagents + 1, sizeof(*sm.spans));
	for (size_t a = 0; a < r->nagents && !rc; a++)
		rc = s_each_sample(r, a, samples, &sm.rd, err);
	if (!rc) {
		s_seconds(*pts, *n, r, sm.spans);
		s_path_names(r, *pts, *n);
	}
	free(sm.spans);
	return rc;
}

static void s_free_points(struct lst_export_point *pts, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		free(pts[k].agents);
		free(pts[k].paths);
	}
	free(pts);
}

/*
 * The hdr reader: each agent's intervals as log lines as they come (one file per agent), and
 * every point's intervals added up over the agents for all.hlog, written at the end.
 */
struct s_hdr {
	struct s_reader rd;
	FILE *f;		/* the agent's log */
	struct s_interval **iv; /* [point][k] all agents' interval k */
	size_t *niv;		/* [point] */
};

struct s_interval {
	lst_hist lat[LST_DIR_N];
	double length_s;
	bool seen;
};

static const char *const s_dir_names[LST_DIR_N] = { "read", "write" };

/* One line per direction the point did I/O in: "Tag=PHASE:POINT:read,...". */
static int s_hdr_lines(FILE *f, const struct lst_export_point *pt, int64_t k, double length_s,
		       const lst_hist *const lat[LST_DIR_N], lst_err *err)
{
	for (int d = 0; d < LST_DIR_N; d++) {
		char tag[300];

		if (!pt->all.dir[d].ios)
			continue;
		snprintf(tag, sizeof(tag), "%s:%ld:%s", pt->phase, pt->point, s_dir_names[d]);
		if (lst_export_hdr_line(f, tag, pt->start_t_s + (double)k * pt->interval_s,
					length_s, lat[d]))
			return lst_err_set(err, -EIO, "writing a histogram log failed");
	}
	return 0;
}

/* Interval k of point p in h's sums, made when new. */
static struct s_interval *s_interval(struct s_hdr *h, size_t p, size_t k)
{
	struct s_interval *iv;

	if (k >= h->niv[p]) {
		h->iv[p] = lst_realloc(h->iv[p], (k + 1) * sizeof(*h->iv[p]));
		memset(&h->iv[p][h->niv[p]], 0, (k + 1 - h->niv[p]) * sizeof(*h->iv[p]));
		h->niv[p] = k + 1;
	}
	iv = &h->iv[p][k];
	if (!iv->seen) {
		for (int d = 0; d < LST_DIR_N; d++)
			lst_hist_init(&iv->lat[d]);
		iv->seen = true;
	}
	return iv;
}

static int s_hdr_sample(struct s_reader *rd, size_t a, struct lst_export_point *pt,
			const struct lst_export_sample *m, lst_err *err)
{
	struct s_hdr *h = (struct s_hdr *)rd;
	const lst_sample *s = m->s;
	double length_s = (double)(s->end_ns - s->start_ns) / 1e9;
	const lst_hist *lat[LST_DIR_N] = { &s->dir[0].lat, &s->dir[1].lat };
	struct s_interval *iv;

	(void)a;
	if (s->interval < 0 || s->interval >= S_INTERVALS_MAX)
		return lst_err_set(err, -EINVAL, "point %s:%ld: interval %lld out of range",
				   pt->phase, pt->point, (long long)s->interval);
	iv = s_interval(h, (size_t)(pt - rd->pts), (size_t)s->interval);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_add(&iv->lat[d], &s->dir[d].lat);
	if (length_s > iv->length_s)
		iv->length_s = length_s;
	return s_hdr_lines(h->f, pt, s->interval, length_s, lat, err);
}

/* A new log file OUT/NAME.hlog with its header, or NULL with err. */
static FILE *s_hdr_open(const char *out, const char *name, double base_s, lst_err *err)
{
	char *path = lst_asprintf("%s/%s.hlog", out, name);
	FILE *f = fopen(path, "w");

	if (!f || lst_export_hdr_header(f, base_s)) {
		lst_err_sys(err, -errno ?: -EIO, "cannot write %s", path);
		if (f)
			fclose(f);
		f = NULL;
	}
	free(path);
	return f;
}

/* all.hlog: every point's intervals in order, the agents' added up. */
static int s_hdr_all(struct s_hdr *h, const char *out, double base_s, lst_err *err)
{
	FILE *f = s_hdr_open(out, "all", base_s, err);
	int rc = 0;

	if (!f)
		return -EIO;
	for (size_t p = 0; p < h->rd.n && !rc; p++) {
		for (size_t k = 0; k < h->niv[p] && !rc; k++) {
			const struct s_interval *iv = &h->iv[p][k];
			const lst_hist *lat[LST_DIR_N] = { &iv->lat[0], &iv->lat[1] };

			if (iv->seen)
				rc = s_hdr_lines(f, &h->rd.pts[p], (int64_t)k, iv->length_s, lat,
						 err);
		}
	}
	if (fclose(f) && !rc)
		rc = lst_err_set(err, -EIO, "cannot write %s/all.hlog", out);
	return rc;
}

/* The run's first start instant in seconds since the epoch: run.json's first point's start
 * less its start_t_s (the shared clock's zero), 0 when unknown. */
static double s_base_s(const lst_report *r)
{
	json_t *e = json_array_get(json_object_get(r->run, "phases"), 0);
	const char *iso = json_string_value(json_object_get(e, "start"));
	struct tm tm = { 0 };
	double sec;

	if (!iso || sscanf(iso, "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			   &tm.tm_hour, &tm.tm_min, &sec) != 6)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + sec - json_number_value(json_object_get(e, "start_t_s"));
}

/* OUT/AGENT.hlog for each agent, then OUT/all.hlog. */
static int s_write_hdr(const lst_report *r, const lst_plan *plan, lst_export_samples_fn samples,
		       struct lst_export_point *pts, size_t n, const char *out, lst_err *err)
{
	struct s_hdr h = { .rd = { .fn = s_hdr_sample, .plan = plan, .pts = pts, .n = n } };
	double base_s = s_base_s(r);
	int rc = lst_mkdir_p(out);

	if (rc)
		return lst_err_sys(err, rc, "cannot make %s", out);
	h.iv = lst_calloc(n + 1, sizeof(*h.iv));
	h.niv = lst_calloc(n + 1, sizeof(*h.niv));
	for (size_t a = 0; a < r->nagents && !rc; a++) {
		if (!(h.f = s_hdr_open(out, r->agents[a].name, base_s, err))) {
			rc = -EIO;
			break;
		}
		rc = s_each_sample(r, a, samples, &h.rd, err);
		if (fclose(h.f) && !rc)
			rc = lst_err_set(err, -EIO, "cannot write %s/%s.hlog", out,
					 r->agents[a].name);
	}
	if (!rc)
		rc = s_hdr_all(&h, out, base_s, err);
	for (size_t p = 0; p < n; p++)
		free(h.iv[p]);
	free(h.iv);
	free(h.niv);
	return rc;
}

/*
 * The fio histogram log reader: agent a's intervals of each point, as they come, into the point's
 * log of that agent (OUT/PHASE/BS/hist/STEM_clat_hist.N.log, N the agent's number from 1, as fio
 * numbers its jobs' logs), opened on first use.
 */
struct s_clat {
	struct s_reader rd;
	const char *out;
	FILE **f; /* [point]: the current agent's logs */
};

static FILE *s_clat_open(const char *out, const struct lst_export_point *pts, size_t p, size_t a,
			 lst_err *err)
{
	char stem[256];
	char *dir = lst_export_fio_stem(out, pts, p, stem, sizeof(stem));
	char *hist = lst_asprintf("%s/hist", dir);
	char *path = lst_asprintf("%s/%s_clat_hist.%zu.log", hist, stem, a + 1);
	int rc = lst_mkdir_p(hist);
	FILE *f = rc ? NULL : fopen(path, "w");

	if (!f)
		lst_err_sys(err, rc ?: -errno, "cannot write %s", path);
	free(path);
	free(hist);
	free(dir);
	return f;
}

static int s_clat_sample(struct s_reader *rd, size_t a, struct lst_export_point *pt,
			 const struct lst_export_sample *m, lst_err *err)
{
	struct s_clat *c = (struct s_clat *)rd;
	const lst_sample *s = m->s;
	size_t p = (size_t)(pt - rd->pts);
	/* fio stamps a record when its interval ends: here the interval's end on the run's
	 * grid, not the sample's own end: a sample that closed late (its thread woke after the
	 * boundary) would end after the next one, and a short last one in the same ms as the
	 * one before, where fio-histo-log-pctiles.py wants each direction's times to rise */
	double end_s = pt->start_t_s + (double)(s->interval + 1) * pt->interval_s;
	uint64_t ms = end_s > 0 ? (uint64_t)llround(end_s * 1000) : 0;

	if (!c->f[p] && !(c->f[p] = s_clat_open(c->out, rd->pts, p, a, err)))
		return -EIO;
	for (int d = 0; d < LST_DIR_N; d++)
		if (pt->all.dir[d].ios &&
		    lst_export_fio_hist_line(c->f[p], ms, d, pt->bs, &s->dir[d].lat))
			return lst_err_set(err, -EIO, "writing a histogram log of %s:%ld failed",
					   pt->phase, pt->point);
	return 0;
}

/* Each agent's fio histogram logs, one per point it took part in. */
static int s_write_clat(const lst_report *r, const lst_plan *plan, lst_export_samples_fn samples,
			struct lst_export_point *pts, size_t n, const char *out, lst_err *err)
{
	struct s_clat c = { .rd = { .fn = s_clat_sample, .plan = plan, .pts = pts, .n = n },
			    .out = out };
	int rc = 0;

	c.f = lst_calloc(n + 1, sizeof(*c.f));
	for (size_t a = 0; a < r->nagents && !rc; a++) {
		rc = s_each_sample(r, a, samples, &c.rd, err);
		for (size_t p = 0; p < n; p++) {
			if (c.f[p] && fclose(c.f[p]) && !rc)
				rc = lst_err_set(err, -EIO, "cannot write a histogram log in %s",
						 out);
			c.f[p] = NULL;
		}
	}
	free(c.f);
	return rc;
}

/* The job of pt a timeseries.csv row belongs to (by its scope), NULL when none. */
static struct lst_export_job *s_row_job(struct lst_export_point *pt, const struct lst_rpt_ts *row)
{
	char name[256];

	if (!strcmp(row->agent, "all") && (!row->scope[0] || !strcmp(row->scope, "all")))
		return &pt->all;
	if (!strcmp(row->scope, "path"))
		snprintf(name, sizeof(name), "%s:%s", row->agent, row->path);
	else if (!row->scope[0] || !strcmp(row->scope, "agent"))
		snprintf(name, sizeof(name), "%s", row->agent);
	else
		return NULL; /* a target row: fio has no such entry */
	for (size_t i = 0; i < pt->nagents; i++)
		if (!strcmp(pt->agents[i].name, name))
			return &pt->agents[i];
	for (size_t i = 0; i < pt->npaths; i++)
		if (!strcmp(pt->paths[i].name, name))
			return &pt->paths[i];
	return NULL;
}

/* The rows of one phase's view into its points' jobs. */
static void s_rates_rows(struct lst_export_point *pts, size_t n, const struct lst_rpt_ts *rows,
			 size_t nrows)
{
	for (size_t i = 0; i < nrows; i++) {
		const struct lst_rpt_ts *row = &rows[i];
		struct lst_export_job *j = NULL;

		for (size_t k = 0; k < n && !j; k++)
			if (pts[k].point == row->point && !strcmp(pts[k].phase, row->phase))
				j = s_row_job(&pts[k], row);
		for (int d = 0; j && d < LST_DIR_N; d++) {
			lst_export_stat_add(&j->dir[d].iops, row->iops[d]);
			lst_export_stat_add(&j->dir[d].bw, row->mbps[d] * 1e6);
		}
	}
}

/* Each job's per-interval rates from timeseries.csv (measured intervals only, as its rows
 * are), read one phase at a time. */
static int s_rates(const lst_report *r, struct lst_export_point *pts, size_t n, lst_err *err)
{
	for (size_t p = 0; p < r->nphases; p++) {
		lst_report view;
		int rc = lst_report_ts_view(r, r->phases[p].name, &view, err);

		if (rc)
			return rc;
		s_rates_rows(pts, n, view.ts, view.nts);
		s_rates_rows(pts, n, view.ts_parts, view.nts_parts);
		lst_report_ts_view_exit(&view);
	}
	return 0;
}

int lst_export_write(enum lst_export_format format, const char *dir, const char *out,
		     lst_export_samples_fn samples, size_t *npoints, lst_err *err)
{
	struct lst_export_point *pts = NULL;
	lst_plan *plan = NULL;
	lst_report *r;
	size_t n = 0;
	int rc = -EINVAL;

	*npoints = 0;
	if (!(r = lst_report_load(dir, NULL, err)))
		return err->code ?: -EINVAL;
	if ((plan = lst_report_plan_load(r, err)))
		rc = s_load(r, plan, samples, &pts, &n, err);
	if (!rc && format == LST_EXPORT_HDR)
		rc = s_write_hdr(r, plan, samples, pts, n, out, err);
	if (!rc && format == LST_EXPORT_FIO && !(rc = s_rates(r, pts, n, err)) &&
	    !(rc = lst_export_fio_write(out, pts, n, err)))
		rc = s_write_clat(r, plan, samples, pts, n, out, err);
	if (!rc)
		*npoints = n;
	s_free_points(pts, n);
	lst_plan_destroy(&plan);
	lst_report_destroy(&r);
	return rc;
}
