/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep export fio`'s writer: points in fio's json+ shapes (lst_export_fio.h says which
 * and where). The keys and their units are fio 3.x's (stat.c, show_thread_status_json): bw in
 * KiB/s, runtime in ms, latencies in ns, percentiles keyed "%f". The per-interval bw and iops
 * statistics are the job's timeseries.csv rows' (fio's are its bw and iops log samples). What a
 * results folder does not hold (submission latency apart, the agents' CPU use) is written as fio
 * writes a quantity it has no sample of, zeros, so that readers find every key they look up.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_export_fio.h"
#include "lst_fiohist.h"
#include "lst_util.h"

/* fio's default percentile list (--percentile_list). */
static const double s_pcts[] = { 1,  5,	 10, 20, 30,   40,   50,    60,	  70,
				 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

static const char *const s_dir_keys[LST_DIR_N] = { "read", "write" };

uint64_t lst_export_fio_bin_value(unsigned idx)
{
	return lst_fiohist_bin_value(idx);
}

/* fio's count of bucket i (< LST_FIO_PLAT_NR) of h: the last one takes what lies past it. */
static uint64_t s_plat_count(const lst_hist *h, unsigned i)
{
	uint64_t last = h->overflow; /* what fio's last bucket holds: see the header */

	if (i < LST_FIO_PLAT_NR - 1)
		return h->buckets[i];
	for (unsigned k = LST_FIO_PLAT_NR - 1; k < LST_HIST_NBUCKETS; k++)
		last += h->buckets[k];
	return last;
}

json_t *lst_export_fio_bins(const lst_hist *h)
{
	json_t *bins = json_object();
	char key[32];

	for (unsigned i = 0; i < LST_FIO_PLAT_NR; i++) {
		uint64_t n = s_plat_count(h, i);

		if (!n)
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, lst_export_fio_bin_value(i));
		json_object_set_new(bins, key, json_integer((json_int_t)n));
	}
	return bins;
}

int lst_export_fio_hist_line(FILE *f, uint64_t ms, int dir, int64_t bs, const lst_hist *h)
{
	fprintf(f, "%" PRIu64 ", %d, %" PRId64, ms, dir, bs);
	for (unsigned i = 0; i < LST_FIO_PLAT_NR; i++)
		fprintf(f, ", %" PRIu64, s_plat_count(h, i));
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* {min, max, mean, stddev, N}: fio's latency statistics of h (all zero when empty). */
static json_t *s_lat_stats(const lst_hist *h)
{
	struct lst_hist_stats st;

	lst_hist_stats(h, &st);
	return json_pack("{s:I, s:I, s:f, s:f, s:I}", "min", (json_int_t)st.min, "max",
			 (json_int_t)st.max, "mean", st.mean, "stddev", st.stdev, "N",
			 (json_int_t)st.count);
}

/* clat_ns: the statistics, fio's default percentiles and, for a direction with I/O, the bins
 * (fio_jsonplus_clat2csv fails on an empty "bins"). */
static json_t *s_clat(const lst_hist *h)
{
	json_t *o = s_lat_stats(h), *pct = json_object();
	uint64_t v[LST_ARRAY_SIZE(s_pcts)];
	char key[32];

	lst_hist_percentiles(h, s_pcts, LST_ARRAY_SIZE(s_pcts), v);
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_pcts); i++) {
		snprintf(key, sizeof(key), "%f", s_pcts[i]);
		json_object_set_new(pct, key, json_integer((json_int_t)v[i]));
	}
	json_object_set_new(o, "percentile", pct);
	if (h->count)
		json_object_set_new(o, "bins", lst_export_fio_bins(h));
	return o;
}

void lst_export_stat_add(struct lst_export_stat *st, double v)
{
	if (!st->n || v < st->min)
		st->min = v;
	if (!st->n || v > st->max)
		st->max = v;
	st->n++;
	st->sum += v;
	st->sumsq += v * v;
}

/* st's mean, and its standard deviation with fio's n - 1 (0 below two intervals). */
static double s_mean(const struct lst_export_stat *st)
{
	return st->n ? st->sum / (double)st->n : 0;
}

static double s_stdev(const struct lst_export_stat *st)
{
	double n = (double)st->n, var;

	if (st->n < 2)
		return 0;
	var = (st->sumsq - st->sum * st->sum / n) / (n - 1);
	return var > 0 ? sqrt(var) : 0;
}

/* fio's per-interval keys of one direction: bw in KiB/s, iops in I/O/s. */
static json_t *s_rate_stats(const struct lst_export_io *io)
{
	const struct lst_export_stat *bw = &io->bw, *iops = &io->iops;

	return json_pack("{s:I, s:I, s:f, s:f, s:f, s:I, s:I, s:I, s:f, s:f, s:I}", "bw_min",
			 (json_int_t)llround(bw->min / 1024), "bw_max",
			 (json_int_t)llround(bw->max / 1024), "bw_agg", io->ios ? 100.0 : 0.0,
			 "bw_mean", s_mean(bw) / 1024, "bw_dev", s_stdev(bw) / 1024, "bw_samples",
			 (json_int_t)bw->n, "iops_min", (json_int_t)llround(iops->min), "iops_max",
			 (json_int_t)llround(iops->max), "iops_mean", s_mean(iops), "iops_stddev",
			 s_stdev(iops), "iops_samples", (json_int_t)iops->n);
}

/* One direction's object ("read", "write"; "trim" with io all zero). */
static json_t *s_dir(const struct lst_export_io *io, double seconds)
{
	double secs = seconds > 0 ? seconds : 0;
	double iops = secs ? (double)io->ios / secs : 0, bw = secs ? (double)io->bytes / secs : 0;
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:I, s:I}", "io_bytes",
			      (json_int_t)io->bytes, "io_kbytes", (json_int_t)(io->bytes >> 10),
			      "bw_bytes", (json_int_t)llround(bw), "bw",
			      (json_int_t)llround(bw / 1024), "iops", iops, "runtime",
			      (json_int_t)llround(secs * 1000), "total_ios", (json_int_t)io->ios,
			      "short_ios", (json_int_t)0, "drop_ios", (json_int_t)0);
	lst_hist empty;

	lst_hist_init(&empty);
	json_object_set_new(o, "slat_ns", s_lat_stats(&empty)); /* not measured apart */
	json_object_set_new(o, "clat_ns", s_clat(&io->lat));
	json_object_set_new(o, "lat_ns", s_lat_stats(&io->lat));
	json_object_update_new(o, s_rate_stats(io));
	return o;
}

/* fio's "job options" of the point: what fio-plot and readers of a job's settings look up. */
static json_t *s_options(const struct lst_export_point *pt)
{
	char bs[32], d[32], n[32], mix[32];

	snprintf(bs, sizeof(bs), "%" PRId64, pt->bs);
	snprintf(d, sizeof(d), "%" PRId64, pt->iodepth);
	snprintf(n, sizeof(n), "%" PRId64, pt->jobs);
	snprintf(mix, sizeof(mix), "%" PRId64, pt->rwmixread);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "name", pt->label[0] ? pt->label : "-",
			 "rw", pt->rw, "bs", bs, "iodepth", d, "numjobs", n, "rwmixread", mix);
}

/* fio's latency_ns, latency_us and latency_ms maps of job j (fio-plot reads them). */
static void s_lat_steps(json_t *o, const struct lst_export_job *j)
{
	double pct[LST_FIOHIST_UNITS][LST_FIOHIST_STEPS];

	lst_fiohist_steps(&j->dir[LST_DIR_READ].lat, &j->dir[LST_DIR_WRITE].lat, pct);
	for (int u = 0; u < LST_FIOHIST_UNITS; u++) {
		json_t *m = json_object();

		for (int i = 0; lst_fiohist_step_keys[u][i]; i++)
			json_object_set_new(m, lst_fiohist_step_keys[u][i], json_real(pct[u][i]));
		json_object_set_new(o, lst_fiohist_unit_keys[u], m);
	}
}

json_t *lst_export_fio_job(const struct lst_export_point *pt, const struct lst_export_job *j)
{
	static const struct lst_export_io none;
	char name[512];
	json_t *o;

	snprintf(name, sizeof(name), "%s:%ld%s%s", pt->phase, pt->point, pt->label[0] ? ":" : "",
		 pt->label);
	o = json_pack("{s:s, s:i, s:i, s:i, s:I, s:o}", "jobname", name, "groupid", 0, "error", 0,
		      "eta", 0, "elapsed", (json_int_t)llround(j->seconds), "job options",
		      s_options(pt));
	for (int d = 0; d < LST_DIR_N; d++)
		json_object_set_new(o, s_dir_keys[d], s_dir(&j->dir[d], j->seconds));
	json_object_set_new(o, "trim", s_dir(&none, j->seconds));
	s_lat_steps(o, j);
	json_object_update_new(o, json_pack("{s:I, s:f, s:f, s:i, s:i, s:i}", "job_runtime",
					    (json_int_t)llround(j->seconds * 1000), "usr_cpu", 0.0,
					    "sys_cpu", 0.0, "ctx", 0, "majf", 0, "minf", 0));
	return o;
}

/* What every document starts with. */
static json_t *s_doc(const struct lst_export_point *pt)
{
	return json_pack("{s:s, s:i, s:o}", "fio version", "lockstep-" LST_VERSION, "timestamp", 0,
			 "global options", json_pack("{s:s}", "rw", pt->rw));
}

json_t *lst_export_fio_standalone(const struct lst_export_point *pt, const struct lst_export_job *j)
{
	json_t *doc = s_doc(pt);

	json_object_set_new(doc, "jobs", json_pack("[o]", lst_export_fio_job(pt, j)));
	return doc;
}

json_t *lst_export_fio_clients(const struct lst_export_point *pt)
{
	json_t *doc = s_doc(pt), *stats = json_array();

	for (size_t i = 0; i <= pt->nagents + pt->npaths; i++) {
		const struct lst_export_job *j = i < pt->nagents ? &pt->agents[i]
						 : i < pt->nagents + pt->npaths
							 ? &pt->paths[i - pt->nagents]
							 : &pt->all;
		json_t *o = lst_export_fio_job(pt, j);

		/* fio names each client by its host; "All clients" is the group's sum */
		json_object_set_new(o, "hostname", json_string(j->name));
		json_object_set_new(o, "port", json_integer(0));
		if (j == &pt->all)
			json_object_set_new(o, "jobname", json_string("All clients"));
		json_array_append_new(stats, o);
	}
	json_object_set_new(doc, "client_stats", stats);
	return doc;
}

/* fio-plot's block size folder: "4k", "128k", "1m", else the bytes. */
static void s_bs_text(int64_t bs, char *buf, size_t size)
{
	if (bs >= (1 << 20) && bs % (1 << 20) == 0)
		snprintf(buf, size, "%" PRId64 "m", bs >> 20);
	else if (bs >= 1024 && bs % 1024 == 0)
		snprintf(buf, size, "%" PRId64 "k", bs >> 10);
	else
		snprintf(buf, size, "%" PRId64, bs);
}

/* Do points a and b take the same file name? */
static bool s_same_name(const struct lst_export_point *a, const struct lst_export_point *b)
{
	return !strcmp(a->phase, b->phase) && !strcmp(a->rw, b->rw) && a->bs == b->bs &&
	       a->iodepth == b->iodepth && a->jobs == b->jobs;
}

/* A phase or agent name as one path component ('/' and a leading '.' replaced). */
static void s_component(const char *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s", s);
	for (char *c = buf; *c; c++)
		if (*c == '/' || (c == buf && *c == '.'))
			*c = '_';
}

static int s_write_json(json_t *doc, const char *path, lst_err *err)
{
	int rc = json_dump_file(doc, path, JSON_INDENT(2) | JSON_REAL_PRECISION(17));

	json_decref(doc);
	if (rc)
		return lst_err_set(err, -EIO, "cannot write %s", path);
	return 0;
}

char *lst_export_fio_stem(const char *out, const struct lst_export_point *pts, size_t k, char *stem,
			  size_t size)
{
	const struct lst_export_point *pt = &pts[k];
	char phase[128], bs[32];
	bool twice = false;

	for (size_t i = 0; i < k && !twice; i++)
		twice = s_same_name(&pts[i], pt);
	s_component(pt->phase, phase, sizeof(phase));
	s_bs_text(pt->bs, bs, sizeof(bs));
	snprintf(stem, size, "%s-iodepth-%" PRId64 "-numjobs-%" PRId64, pt->rw, pt->iodepth,
		 pt->jobs);
	if (twice) /* the same workload again in the phase: the point tells them apart */
		snprintf(stem + strlen(stem), size - strlen(stem), "-p%ld", pt->point);
	return lst_asprintf("%s/%s/%s", out, phase, bs);
}

/* Point k of pts: its client/server file, then its standalone files. */
static int s_write_point(const char *out, const struct lst_export_point *pts, size_t k,
			 lst_err *err)
{
	const struct lst_export_point *pt = &pts[k];
	char stem[256], agent[64];
	char *dir, *jobs, *path;
	int rc;

	dir = lst_export_fio_stem(out, pts, k, stem, sizeof(stem));
	jobs = lst_asprintf("%s/jobs", dir);
	if ((rc = lst_mkdir_p(jobs))) {
		rc = lst_err_set(err, rc, "cannot make %s: %s", jobs, strerror(-rc));
		goto out;
	}
	path = lst_asprintf("%s/%s.json", dir, stem);
	rc = s_write_json(lst_export_fio_clients(pt), path, err);
	free(path);
	for (size_t i = 0; !rc && i <= pt->nagents; i++) {
		const struct lst_export_job *j = i < pt->nagents ? &pt->agents[i] : &pt->all;

		s_component(i < pt->nagents ? j->name : "all", agent, sizeof(agent));
		path = lst_asprintf("%s/%s.%s.json", jobs, stem, agent);
		rc = s_write_json(lst_export_fio_standalone(pt, j), path, err);
		free(path);
	}
out:
	free(jobs);
	free(dir);
	return rc;
}

int lst_export_fio_write(const char *out, const struct lst_export_point *pts, size_t n,
			 lst_err *err)
{
	int rc;

	for (size_t k = 0; k < n; k++)
		if ((rc = s_write_point(out, pts, k, err)))
			return rc;
	return 0;
}
