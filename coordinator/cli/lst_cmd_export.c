/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep export fio DIR [-o OUT]`: a results folder in the file shapes other tools read.
 *
 * The latency buckets of a point are in its samples only (samples/AGENT.msgpack: the CSV files
 * keep percentiles, not buckets), so this command reads them: every frame through the wire
 * codec, the measured (not ramp) intervals of each point added up per agent and for all agents,
 * exactly as the coordinator merged them for summary.csv. Which phase a sample's index names
 * comes from the folder's plan.yaml; each point's workload from run.json, read through the
 * report model. The fio writer (lst_export_fio.h) turns the sums into fio's json+ files.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_export_fio.h"
#include "lst_file.h"
#include "lst_log.h"
#include "lst_msg.h"
#include "lst_plan.h"
#include "lst_report.h"
#include "lst_util.h"

#define S_SAMPLES_MAX (16ull << 30) /* a samples file read whole: far beyond a day's run */

struct s_args {
	struct lst_cli_flags c; /* first, as every command's: -o stores into c.out */
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_args, c.out),
		   .help = "the folder the files go to (default DIR/fio)" },
	  .letter = 'o',
	  .arg = "OUT",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, NULL };

const struct lst_flag_cmd lst_cmd_export_flags = {
	.name = "lockstep export",
	.operands = "fio DIR",
	.operand = LST_FLAG_RESULTS,
	.groups = s_groups,
	.about = "Write results folder DIR in the shape other tools read. 'fio' writes each\n"
		 "point as fio json+ output, its latency buckets mapped one to one onto fio's:\n"
		 "OUT/PHASE/BS/RW-iodepth-D-numjobs-N.json in fio's client/server shape (one\n"
		 "entry per agent, then \"All clients\"), the layout fio-plot reads, and beside\n"
		 "it in jobs/ the standalone shape (\"jobs\") of all agents (.all.json) and of\n"
		 "each agent (.AGENT.json), which fio's own scripts read.\n",
	.more = "docs/fio.md says what each fio key holds. Exit status 2 when DIR cannot be\n"
		"read or OUT cannot be written.\n"
		"\n"
		"Example:\n"
		"  lockstep export fio results/today -o today-fio\n"
		"  fio_jsonplus_clat2csv today-fio/randread/4k/jobs/randread-iodepth-16-numjobs-1.all.json"
		" lat.csv\n",
};

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
		snprintf(pts[k].all.name, sizeof(pts[k].all.name), "All clients");
		for (int d = 0; d < LST_DIR_N; d++)
			lst_hist_init(&pts[k].all.dir[d].lat);
	}
	*out = pts;
	return 0;
}

/* Agent name's job in pt, added when new. */
static struct lst_export_job *s_job(struct lst_export_point *pt, const char *name)
{
	struct lst_export_job *j;

	for (size_t i = 0; i < pt->nagents; i++)
		if (!strcmp(pt->agents[i].name, name))
			return &pt->agents[i];
	pt->agents = lst_realloc(pt->agents, (pt->nagents + 1) * sizeof(*pt->agents));
	j = &pt->agents[pt->nagents++];
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
					   const lst_plan *plan, const struct lst_msg_sample *m)
{
	if (m->phase >= plan->nphases)
		return NULL;
	for (size_t k = 0; k < n; k++)
		if (pts[k].point == (long)m->point &&
		    !strcmp(pts[k].phase, plan->phases[m->phase].name))
			return &pts[k];
	return NULL;
}

/*
 * Add every measured SAMPLE of agent's samples file to pts; spans[k * nagents + a] is agent a's
 * span in point k. A frame cut short at the end of the file is absent (docs/results.md).
 */
static int s_read_samples(const char *dir, const char *agent, size_t a, size_t nagents,
			  const lst_plan *plan, struct lst_export_point *pts, size_t n,
			  struct s_span *spans, lst_err *err)
{
	char *path = lst_asprintf("%s/samples/%s.msgpack", dir, agent), *buf;
	lst_msg *m = lst_msg_new(LST_MSG_SAMPLE);
	size_t len, at = 0, flen;
	int rc = lst_read_file(path, S_SAMPLES_MAX, &buf, &len);

	if (rc) {
		rc = lst_err_sys(err, rc, "%s", path);
		goto out_msg;
	}
	while (at < len && !(rc = lst_msg_frame_len((uint8_t *)buf + at, len - at, &flen, err))) {
		struct lst_export_point *pt;
		struct s_span *sp;

		if ((rc = lst_msg_decode_into(m, (uint8_t *)buf + at, flen, err))) {
			lst_err_prefix(err, "%s: frame at byte %zu: ", path, at);
			goto out;
		}
		at += flen;
		if (m->type != LST_MSG_SAMPLE || m->u.sample.s.flags & LST_SAMPLE_RAMP ||
		    !(pt = s_point_of(pts, n, plan, &m->u.sample)))
			continue;
		s_add(s_job(pt, agent), &m->u.sample.s);
		s_add(&pt->all, &m->u.sample.s);
		sp = &spans[(size_t)(pt - pts) * nagents + a];
		if (!sp->end || m->u.sample.s.start_ns < sp->start)
			sp->start = m->u.sample.s.start_ns;
		if (m->u.sample.s.end_ns > sp->end)
			sp->end = m->u.sample.s.end_ns;
	}
	rc = 0; /* a frame cut short can only be the last: it is absent */
out:
	free(buf);
out_msg:
	lst_msg_destroy(&m);
	free(path);
	return rc;
}

/* Each job's measured time from the spans; all agents' is the longest. */
static void s_seconds(struct lst_export_point *pts, size_t n, const lst_report *r,
		      const struct s_span *spans)
{
	for (size_t k = 0; k < n; k++) {
		for (size_t a = 0; a < r->nagents; a++) {
			const struct s_span *sp = &spans[k * r->nagents + a];
			double secs = (double)(sp->end - sp->start) / 1e9;

			for (size_t i = 0; i < pts[k].nagents; i++)
				if (!strcmp(pts[k].agents[i].name, r->agents[a].name))
					pts[k].agents[i].seconds = secs;
			if (secs > pts[k].all.seconds)
				pts[k].all.seconds = secs;
		}
	}
}

/* The folder's points with their agents' samples added up into *pts (*n). */
static int s_load(const lst_report *r, struct lst_export_point **pts, size_t *n, lst_err *err)
{
	char *plan_path = lst_asprintf("%s/plan.yaml", r->dir);
	lst_errlist errs = { 0 };
	lst_plan *plan = lst_plan_load(plan_path, &errs);
	struct s_span *spans = NULL;
	int rc;

	if (!plan) {
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		rc = lst_err_set(err, -EINVAL,
				 "%s: the plan does not load: which phase a sample "
				 "belongs to is unknown",
				 plan_path);
		goto out;
	}
	if ((rc = s_points(r, pts, n, err)))
		goto out;
	spans = lst_calloc(*n * r->nagents + 1, sizeof(*spans));
	for (size_t a = 0; a < r->nagents && !rc; a++)
		rc = s_read_samples(r->dir, r->agents[a].name, a, r->nagents, plan, *pts, *n, spans,
				    err);
	if (!rc)
		s_seconds(*pts, *n, r, spans);
out:
	free(spans);
	lst_plan_destroy(&plan);
	free(plan_path);
	return rc;
}

static void s_free_points(struct lst_export_point *pts, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(pts[k].agents);
	free(pts);
}

static int s_export_fio(const char *dir, const char *out)
{
	struct lst_export_point *pts = NULL;
	lst_report *r;
	lst_err err;
	size_t n = 0;
	char *def = NULL;
	int rc;

	if (!(r = lst_report_load(dir, NULL, &err))) {
		lst_log_error("export: %s", err.msg);
		return 2;
	}
	if (!out)
		out = def = lst_asprintf("%s/fio", dir);
	rc = s_load(r, &pts, &n, &err);
	if (!rc)
		rc = lst_export_fio_write(out, pts, n, &err);
	if (rc)
		lst_log_error("export: %s", err.msg);
	else
		printf("%zu point%s written to %s\n", n, n == 1 ? "" : "s", out);
	s_free_points(pts, n);
	free(def);
	lst_report_destroy(&r);
	return rc ? 2 : 0;
}

int lst_cmd_export(int argc, char **argv)
{
	struct s_args a = { 0 };
	int first, rc;

	if ((rc = lst_cli_parse(&lst_cmd_export_flags, argc, argv, &a, &first)) >= 0)
		return rc;
	if (argc - first != 2 || strcmp(argv[first], "fio")) {
		fprintf(stderr, "lockstep export: give a format (fio) and one results folder (see "
				"'lockstep export --help')\n");
		return 2;
	}
	return s_export_fio(argv[first + 1], a.c.out);
}
