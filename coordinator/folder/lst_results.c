/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results folder writer: CSV rows flushed as they come, JSON documents replaced atomically.
 *
 * Writes that fail (a full disk, a removed folder) are not reported one by one: the first
 * failure is kept (lst_results_failed) and the run loop ends the run with it, once. Reading the
 * journal back and cutting a folder back for a resume are lst_results_journal.c, which calls the
 * writer (never the other way): the writer owns its files, their headers included.
 */
#include "lst_results.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "lst_assert.h"
#include "lst_columns.h"
#include "lst_folder_lock.h"
#include "lst_log.h"
#include "lst_opt.h"
#include "lst_results_int.h"
#include "lst_text.h"
#include "lst_util.h"

struct s_raw {
	char *agent;
	FILE *f;
	off_t mark; /* its size at lst_results_mark, or 0 when made after it */
};

struct lst_results {
	char *dir;
	FILE *journal; /* points.jsonl, opened on the first entry */
	bool reserved; /* .reserve holds room for the final run.json */
	FILE *ts;
	FILE *sum;
	FILE *rounds;
	FILE *curves;
	FILE *dev; /* devstats.csv, opened on its first row */
	FILE *clock;
	json_t *summary;
	json_t *tests;
	size_t nmatrix;
	size_t nraw;
	struct s_raw *raw;
	off_t ts_mark;	  /* timeseries.csv's size at lst_results_mark */
	off_t dev_mark;	  /* devstats.csv's at lst_results_mark; -1: made after it (or never) */
	off_t dev_header; /* the size of devstats.csv's header line */
	lst_err failed;	  /* the first write that failed; code 0 while none has */
	bool unflushed;	  /* the per-sample files hold records not yet flushed (s_flush_streams) */
	lst_hist both;	  /* s_lat's scratch: kept valid, so reusing it is sparse (lst_hist_copy) */
	/* The columns of each file's rows: its table's, or fewer in a file an older lockstep
	 * began that a resume appends to (lst_columns_count) */
	size_t ts_ncols, sum_ncols, rounds_ncols, curves_ncols, dev_ncols;
};

/* Every file's rows with all of its table's columns (a new folder, or a file begun now). */
static void s_all_columns(lst_results *r)
{
	r->ts_ncols = lst_timeseries_table.ncols;
	r->sum_ncols = lst_summary_table.ncols;
	r->rounds_ncols = lst_rounds_table.ncols;
	r->curves_ncols = lst_curves_table.ncols;
	r->dev_ncols = lst_devstats_table.ncols;
}

/* Keep the first failure: what was being written and why. */
static void s_failed(lst_results *r, int code, const char *name)
{
	if (r->failed.code)
		return;
	lst_err_sys(&r->failed, code ? code : -EIO, "results folder %s: writing %s failed", r->dir,
		    name);
}

void lst_results__fail(lst_results *r, int code, const char *name)
{
	s_failed(r, code, name);
}

/* Flush f; a failed write, now or earlier, is kept as the folder's failure. */
static void s_flush_one(lst_results *r, FILE *f, const char *name)
{
	errno = 0;
	if (fflush(f) || ferror(f))
		s_failed(r, -errno, name);
}

/*
 * The files written per sample (samples/AGENT.msgpack, timeseries.csv, devstats.csv,
 * clock.csv) are not flushed per record but together, here: the samples files first, so a row
 * never reaches the disk before the frames it counts (docs/results.md).
 */
static void s_flush_streams(lst_results *r)
{
	if (!r->unflushed)
		return;
	r->unflushed = false;
	for (size_t i = 0; i < r->nraw; i++) {
		errno = 0;
		if (fflush(r->raw[i].f) || ferror(r->raw[i].f)) {
			char *name = lst_asprintf("samples/%s.msgpack", r->raw[i].agent);

			s_failed(r, -errno, name);
			free(name);
		}
	}
	if (r->ts)
		s_flush_one(r, r->ts, "timeseries.csv");
	if (r->dev)
		s_flush_one(r, r->dev, "devstats.csv");
	if (r->clock)
		s_flush_one(r, r->clock, "clock.csv");
}

/* Flush f after what the per-sample files hold: nothing on disk counts what is not there. */
static void s_flush(lst_results *r, FILE *f, const char *name)
{
	s_flush_streams(r);
	s_flush_one(r, f, name);
}

void lst_results_flush(lst_results *r)
{
	if (r)
		s_flush_streams(r);
}

static bool s_dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    !lst_folder_lock_is_file(e->d_name)) /* our own writer's lock */
			empty = false;
	closedir(d);
	return empty;
}

/*
 * .reserve: S_RESERVE bytes set aside when the folder is made and given back for the final
 * run.json, so a run that filled the disk still says how it ended.
 */
#define S_RESERVE (64 * 1024)

static void s_reserve(lst_results *r)
{
	char *path = lst_asprintf("%s/.reserve", r->dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc;

	if (fd < 0) {
		s_failed(r, -errno, ".reserve");
	} else {
		rc = posix_fallocate(fd, 0, S_RESERVE);
		if (rc)
			s_failed(r, -rc, ".reserve");
		close(fd);
		r->reserved = !rc;
	}
	free(path);
}

static void s_release(lst_results *r)
{
	char *path = lst_asprintf("%s/.reserve", r->dir);

	unlink(path);
	free(path);
	r->reserved = false;
}

static FILE *s_open(lst_results *r, const char *name, const char *mode, lst_err *err)
{
	char *path = lst_asprintf("%s/%s", r->dir, name);
	FILE *f = fopen(path, mode);

	if (!f) {
		int code = -errno;

		lst_err_sys(err, code, "cannot create %s", path);
		s_failed(r, code, name);
	}
	free(path);
	return f;
}

lst_results *lst_results_new(const char *dir, lst_err *err)
{
	lst_results *r;
	struct stat st;
	char *samples;
	int rc;

	if (!stat(dir, &st) && !(S_ISDIR(st.st_mode) && s_dir_empty(dir)))
		return lst_err_set(
			       err, -EEXIST,
			       "results folder %s already exists and is not empty; pick another "
			       "with -o",
			       dir),
		       NULL;
	samples = lst_asprintf("%s/samples", dir);
	rc = lst_mkdir_p(samples);
	free(samples);
	if (rc)
		return lst_err_sys(err, rc, "cannot create results folder %s", dir), NULL;
	r = lst_calloc(1, sizeof(*r));
	r->dir = lst_strdup(dir);
	r->dev_mark = -1;
	s_all_columns(r);
	r->summary = json_array();
	r->tests = json_array();
	r->ts = s_open(r, "timeseries.csv", "w", err);
	r->sum = r->ts ? s_open(r, "summary.csv", "w", err) : NULL;
	r->clock = r->sum ? s_open(r, "clock.csv", "w", err) : NULL;
	if (!r->clock) {
		lst_results_destroy(&r);
		return NULL;
	}
	s_reserve(r);
	lst_columns_header(r->ts, &lst_timeseries_table);
	lst_columns_header(r->sum, &lst_summary_table);
	lst_columns_header(r->clock, &lst_clock_table);
	s_flush(r, r->ts, "timeseries.csv");
	s_flush(r, r->sum, "summary.csv");
	s_flush(r, r->clock, "clock.csv");
	if (r->failed.code) {
		if (err)
			*err = r->failed;
		lst_results_destroy(&r);
		return NULL;
	}
	return r;
}

void lst_results_destroy(lst_results **p)
{
	lst_results *r = *p;

	if (!r)
		return;
	s_flush_streams(r); /* in their order, before any file is closed */
	if (r->sum)
		lst_results_flush_summary(r, NULL);
	if (r->ts)
		fclose(r->ts);
	if (r->sum)
		fclose(r->sum);
	if (r->rounds)
		fclose(r->rounds);
	if (r->dev)
		fclose(r->dev);
	if (r->curves)
		fclose(r->curves);
	if (r->clock)
		fclose(r->clock);
	if (r->journal)
		fclose(r->journal);
	for (size_t i = 0; i < r->nraw; i++) {
		fclose(r->raw[i].f);
		free(r->raw[i].agent);
	}
	free(r->raw);
	json_decref(r->summary);
	json_decref(r->tests);
	free(r->dir);
	free(r);
	*p = NULL;
}

const char *lst_results_dir(const lst_results *r)
{
	return r->dir;
}

const lst_err *lst_results_failed(const lst_results *r)
{
	return r->failed.code ? &r->failed : NULL;
}

int lst_results_write_file(lst_results *r, const char *name, const char *text, size_t len,
			   lst_err *err)
{
	FILE *f = s_open(r, name, "w", err);
	int rc = 0;

	if (!f)
		return err ? err->code : -EIO;
	if (fwrite(text, 1, len, f) != len)
		rc = lst_err_sys(err, -errno, "writing %s/%s", r->dir, name);
	if (fclose(f) && !rc)
		rc = lst_err_sys(err, -errno, "writing %s/%s", r->dir, name);
	if (rc)
		s_failed(r, rc, name);
	return rc;
}

int lst_results_raw(lst_results *r, const char *agent, const uint8_t *frame, size_t len,
		    lst_err *err)
{
	struct s_raw *raw = NULL;

	if (!r)
		return 0; /* lockstep agents, or resume's first contact: nothing is recorded */
	for (size_t i = 0; i < r->nraw; i++)
		if (!strcmp(r->raw[i].agent, agent))
			raw = &r->raw[i];
	if (!raw) {
		char *name = lst_asprintf("samples/%s.msgpack", agent);
		FILE *f = s_open(r, name, "ab", err);

		free(name);
		if (!f)
			return err ? err->code : -EIO;
		r->raw = lst_realloc(r->raw, (r->nraw + 1) * sizeof(*r->raw));
		raw = &r->raw[r->nraw++];
		raw->agent = lst_strdup(agent);
		raw->f = f;
		raw->mark = 0;
	}
	errno = 0;
	r->unflushed = true;
	if (fwrite(frame, 1, len, raw->f) != len) {
		int code = errno ? -errno : -EIO;
		char *name = lst_asprintf("samples/%s.msgpack", agent);

		s_failed(r, code, name);
		free(name);
		return lst_err_sys(err, code, "writing %s/samples/%s.msgpack", r->dir, agent);
	}
	return 0;
}

void lst_results_mark(lst_results *r)
{
	r->ts_mark = ftello(r->ts);
	r->dev_mark = r->dev ? ftello(r->dev) : -1;
	for (size_t i = 0; i < r->nraw; i++)
		r->raw[i].mark = ftello(r->raw[i].f);
}

/* Cut f (name in the folder) back to size and go on writing at its end. */
static void s_cut(lst_results *r, FILE *f, off_t size, const char *name)
{
	s_flush(r, f, name);
	if (size < 0 || ftruncate(fileno(f), size) || fseeko(f, 0, SEEK_END))
		s_failed(r, -errno, name);
}

void lst_results_rewind(lst_results *r)
{
	s_cut(r, r->ts, r->ts_mark, "timeseries.csv");
	if (r->dev) /* begun since the mark: back to its header */
		s_cut(r, r->dev, r->dev_mark >= 0 ? r->dev_mark : r->dev_header, "devstats.csv");
	for (size_t i = 0; i < r->nraw; i++) {
		char *name = lst_asprintf("samples/%s.msgpack", r->raw[i].agent);

		s_cut(r, r->raw[i].f, r->raw[i].mark, name);
		free(name);
	}
}

void lst_results_clock(lst_results *r, const char *agent, int64_t t1, int64_t t2, int64_t t3,
		       int64_t t4)
{
	union lst_cell row[LST_CLOCK_N] = {
		[LST_CLOCK_AGENT] = { .s = agent }, [LST_CLOCK_T1] = { .i = t1 },
		[LST_CLOCK_T2] = { .i = t2 },	    [LST_CLOCK_T3] = { .i = t3 },
		[LST_CLOCK_T4] = { .i = t4 },
	};

	lst_columns_write(r->clock, &lst_clock_table, row);
	r->unflushed = true; /* lst_results_flush */
}

/* Latency over both directions of a sample or totals. */
static void s_lat(lst_results *r, const struct lst_dir_stats *dir, struct lst_hist_stats *st)
{
	lst_hist_copy(&r->both, &dir[LST_DIR_READ].lat);
	lst_hist_add(&r->both, &dir[LST_DIR_WRITE].lat);
	lst_hist_stats(&r->both, st);
}

/* The six latency columns (mean, p50, p99, p99.9, p99.99, max) in us, from cells[0] on. */
static void s_lat_cells(union lst_cell *cells, const struct lst_hist_stats *st)
{
	cells[0].d = st->mean / 1e3;
	cells[1].d = (double)st->p50 / 1e3;
	cells[2].d = (double)st->p99 / 1e3;
	cells[3].d = (double)st->p99_9 / 1e3;
	cells[4].d = (double)st->p99_99 / 1e3;
	cells[5].d = (double)st->max / 1e3;
}

/*
 * The per-direction block (LST_DIR_LAT_NCOLS cells from cells[0] on): for reads, then writes,
 * mean, p50, p99, p99.9, p99.99, p99.999 and max in us of that direction's histogram; NAN (an
 * empty field) for a direction with no latency recorded.
 */
static void s_dir_lat_cells(union lst_cell *cells, const lst_hist *const lat[LST_DIR_N])
{
	for (int d = 0; d < LST_DIR_N; d++) {
		union lst_cell *c = &cells[d * LST_DIR_LAT_STATS];
		struct lst_hist_stats st;

		lst_hist_stats(lat[d], &st);
		c[0].d = st.mean / 1e3;
		c[1].d = (double)st.p50 / 1e3;
		c[2].d = (double)st.p99 / 1e3;
		c[3].d = (double)st.p99_9 / 1e3;
		c[4].d = (double)st.p99_99 / 1e3;
		c[5].d = (double)st.p99_999 / 1e3;
		c[6].d = (double)st.max / 1e3;
		for (int k = 0; !st.count && k < LST_DIR_LAT_STATS; k++)
			c[k].d = NAN;
	}
}

/* The same from a sample's or totals' dir[]. */
static void s_dir_stats_cells(union lst_cell *cells, const struct lst_dir_stats *dir)
{
	const lst_hist *lat[LST_DIR_N] = { &dir[LST_DIR_READ].lat, &dir[LST_DIR_WRITE].lat };

	s_dir_lat_cells(cells, lat);
}

_Static_assert(LST_ERRC_N + 3 == LST_TS_HEALTH_NCOLS, "timeseries.csv: health block and classes");
_Static_assert(LST_ERRC_N + 2 == LST_SUM_HEALTH_NCOLS, "summary.csv: health block and classes");

/* The error classes and timeouts of the health block (lst_columns.h), the same in both files. */
static void s_health_cells(union lst_cell *cells, const struct lst_sample_health *h)
{
	for (int c = 0; c < LST_ERRC_N; c++)
		cells[c].u = h->err_class[c];
	cells[LST_ERRC_N].u = h->timeouts;
}

_Static_assert(LST_VERIFY_NCOLS == 4, "the verify block: ok, pending, unwritten, bad");

/* The verify block (lst_columns.h), the same in both files; v NULL: nothing verified. */
static void s_verify_cells(union lst_cell *cells, const struct lst_sample_verify *v)
{
	static const struct lst_sample_verify none;

	if (!v)
		v = &none;
	cells[0].u = v->ok;
	cells[1].u = v->pending;
	cells[2].u = v->unwritten;
	cells[3].u = v->bad;
}

/* summary.json's "verify": the same four counts. New reference. */
static json_t *s_verify_json(const struct lst_sample_verify *v)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "ok", (json_int_t)v->ok, "pending",
			 (json_int_t)v->pending, "unwritten", (json_int_t)v->unwritten, "bad",
			 (json_int_t)v->bad);
}

void lst_rates_of(const lst_sample *s, struct lst_rates *out)
{
	double secs = s->end_ns > s->start_ns ? (double)(s->end_ns - s->start_ns) / 1e9 : 0;

	for (int d = 0; d < LST_DIR_N; d++) {
		out->iops[d] = secs > 0 ? (double)s->dir[d].ios / secs : 0;
		out->mbps[d] = secs > 0 ? (double)s->dir[d].bytes / secs / 1e6 : 0;
	}
	out->trim_iops = secs > 0 ? (double)s->trim.ios / secs : 0;
	out->trim_mbps = secs > 0 ? (double)s->trim.bytes / secs / 1e6 : 0;
}

/* Whose row an agent name makes: the combined one ("all") or that agent's. */
static struct lst_row_who s_who(const char *agent)
{
	return (struct lst_row_who){ strcmp(agent, "all") ? "agent" : "all", agent, "", "" };
}

void lst_results_row(lst_results *r, const char *phase, size_t point, int64_t k, double t_s,
		     const char *agent, const struct lst_rates *rates,
		     const struct lst_dir_stats dir[LST_DIR_N], const struct lst_sample_health *h,
		     const struct lst_sample_verify *v)
{
	struct lst_row_who who = s_who(agent);

	lst_results_row_of(r, phase, point, k, t_s, &who, rates, dir, h, v);
}

void lst_results_row_of(lst_results *r, const char *phase, size_t point, int64_t k, double t_s,
			const struct lst_row_who *who, const struct lst_rates *rates,
			const struct lst_dir_stats dir[LST_DIR_N],
			const struct lst_sample_health *h, const struct lst_sample_verify *v)
{
	union lst_cell row[LST_TS_N] = {
		[LST_TS_PHASE] = { .s = phase },
		[LST_TS_POINT] = { .u = point },
		[LST_TS_INTERVAL] = { .i = k },
		[LST_TS_T_S] = { .d = t_s },
		[LST_TS_AGENT] = { .s = who->agent },
		[LST_TS_READ_IOPS] = { .d = rates->iops[LST_DIR_READ] },
		[LST_TS_WRITE_IOPS] = { .d = rates->iops[LST_DIR_WRITE] },
		[LST_TS_READ_MBPS] = { .d = rates->mbps[LST_DIR_READ] },
		[LST_TS_WRITE_MBPS] = { .d = rates->mbps[LST_DIR_WRITE] },
		[LST_TS_SCOPE] = { .s = who->scope },
		[LST_TS_TARGET] = { .s = who->target },
		[LST_TS_PATH] = { .s = who->path },
	};
	struct lst_hist_stats st;

	s_lat(r, dir, &st);
	s_lat_cells(&row[LST_TS_LAT_MEAN], &st);
	s_dir_stats_cells(&row[LST_TS_READ_LAT], dir);
	s_health_cells(&row[LST_TS_HEALTH], h);
	row[LST_TS_HEALTH + LST_TS_HEALTH_NCOLS - 2].u = h->inflight;
	row[LST_TS_HEALTH + LST_TS_HEALTH_NCOLS - 1].d = (double)h->oldest_inflight_ns / 1e3;
	s_verify_cells(&row[LST_TS_VERIFY], v);
	row[LST_TS_TRIM].d = rates->trim_iops;
	row[LST_TS_TRIM + 1].d = rates->trim_mbps;
	lst_columns_write_n(r->ts, &lst_timeseries_table, row, r->ts_ncols);
	r->unflushed = true; /* lst_results_flush */
}

void lst_results_devstat(lst_results *r, const struct lst_devstat_row *row)
{
	const struct lst_devstat *d = row->d;
	union lst_cell c[LST_DEV_N] = {
		[LST_DEV_PHASE] = { .s = row->phase },
		[LST_DEV_POINT] = { .u = row->point },
		[LST_DEV_LABEL] = { .s = row->label },
		[LST_DEV_AGENT] = { .s = row->agent },
		[LST_DEV_TARGET] = { .s = row->target },
		[LST_DEV_PATH] = { .s = row->path },
		[LST_DEV_DEVICE] = { .s = row->device },
		[LST_DEV_INTERVAL] = { .i = row->k },
		[LST_DEV_T_S] = { .d = row->t_s },
		[LST_DEV_READS] = { .u = d->reads },
		[LST_DEV_READ_MERGES] = { .u = d->read_merges },
		[LST_DEV_READ_SECTORS] = { .u = d->read_sectors },
		[LST_DEV_READ_MS] = { .u = d->read_ms },
		[LST_DEV_WRITES] = { .u = d->writes },
		[LST_DEV_WRITE_MERGES] = { .u = d->write_merges },
		[LST_DEV_WRITE_SECTORS] = { .u = d->write_sectors },
		[LST_DEV_WRITE_MS] = { .u = d->write_ms },
		[LST_DEV_IN_FLIGHT] = { .u = d->in_flight },
		[LST_DEV_IO_MS] = { .u = d->io_ms },
		[LST_DEV_QUEUE_MS] = { .u = d->queue_ms },
	};

	if (!r->dev) {
		r->dev = s_open(r, "devstats.csv", "w", NULL);
		if (!r->dev)
			return;
		lst_columns_header(r->dev, &lst_devstats_table);
		r->dev_header = ftello(r->dev);
	}
	lst_columns_write_n(r->dev, &lst_devstats_table, c, r->dev_ncols);
	r->unflushed = true; /* lst_results_flush */
}

json_t *lst_results_lat_json(const lst_hist *h)
{
	struct lst_hist_stats st;

	lst_hist_stats(h, &st);
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "count",
			 (json_int_t)st.count, "min_us", (double)st.min / 1e3, "mean_us",
			 st.mean / 1e3, "stdev_us", st.stdev / 1e3, "p50_us", (double)st.p50 / 1e3,
			 "p90_us", (double)st.p90 / 1e3, "p99_us", (double)st.p99 / 1e3, "p99_9_us",
			 (double)st.p99_9 / 1e3, "p99_99_us", (double)st.p99_99 / 1e3, "p99_999_us",
			 (double)st.p99_999 / 1e3, "max_us", (double)st.max / 1e3);
}

static json_t *s_dir_json(const struct lst_merge_totals *t, int d)
{
	return json_pack("{s:I, s:I, s:I, s:f, s:f, s:o}", "ios", (json_int_t)t->dir[d].ios,
			 "bytes", (json_int_t)t->dir[d].bytes, "errors",
			 (json_int_t)t->dir[d].errors, "iops", t->iops[d], "mbps", t->mbps[d],
			 "lat", lst_results_lat_json(&t->dir[d].lat));
}

_Static_assert(LST_SUM_WORKLOAD_NCOLS == 5, "the workload block: rw, bs, iodepth, jobs, rwmixread");

void lst_row_workload_of(struct lst_row_workload *o, const struct lst_workload *w)
{
	bool skew, mix;

	if (!w) {
		*o = (struct lst_row_workload){ 1, "", -1, -1, -1, -1 };
		return;
	}
	skew = w->skew.n;
	mix = w->rw == LST_RW_RANDRW || w->rw == LST_RW_RW;
	*o = (struct lst_row_workload){
		.n = 1,
		.rw = skew ? "" : lst_rw_names[w->rw],
		.bs = skew || w->bssplit.n[LST_DIR_READ] || w->bssplit.n[LST_DIR_WRITE] ? -1
											: w->bs,
		.iodepth = w->iodepth,
		.jobs = w->jobs,
		.rwmixread = mix && !skew ? w->rwmixread : -1,
	};
}

/* a if b is the same, else none (-1) */
static int64_t s_shared(int64_t a, int64_t b)
{
	return a == b ? a : -1;
}

void lst_row_workload_add(struct lst_row_workload *o, const struct lst_row_workload *x)
{
	if (!x->n)
		return;
	if (!o->n) {
		*o = *x;
		return;
	}
	o->n += x->n;
	o->rw = strcmp(o->rw, x->rw) ? "" : o->rw;
	o->bs = s_shared(o->bs, x->bs);
	o->iodepth = s_shared(o->iodepth, x->iodepth);
	o->jobs = s_shared(o->jobs, x->jobs);
	o->rwmixread = s_shared(o->rwmixread, x->rwmixread);
}

/* The workload block of summary.csv (lst_columns.h); w NULL or without paths: every field empty. */
static void s_workload_cells(union lst_cell *cells, const struct lst_row_workload *w)
{
	static const struct lst_row_workload none = { 0, "", -1, -1, -1, -1 };

	if (!w || !w->n)
		w = &none;
	cells[0].s = w->rw;
	cells[1].i = w->bs;
	cells[2].i = w->iodepth;
	cells[3].i = w->jobs;
	cells[4].i = w->rwmixread;
}

/* lat_min_us, lat_p90_us, lat_p95_us, lat_p99_999_us of the histogram both directions make. */
static void s_lat_more_cells(union lst_cell *cells, const lst_hist *both,
			     const struct lst_hist_stats *st)
{
	cells[0].d = (double)st->min / 1e3;
	cells[1].d = (double)st->p90 / 1e3;
	cells[2].d = (double)lst_hist_percentile(both, 95) / 1e3;
	cells[3].d = (double)st->p99_999 / 1e3;
}

static void s_summary_row(lst_results *r, const char *phase, size_t point, const char *label,
			  const struct lst_row_who *who, double t_s,
			  const struct lst_merge_totals *t, const char *test, size_t round,
			  const struct lst_row_workload *w)
{
	union lst_cell row[LST_SUM_N] = {
		[LST_SUM_PHASE] = { .s = phase },
		[LST_SUM_POINT] = { .u = point },
		[LST_SUM_LABEL] = { .s = label },
		[LST_SUM_AGENT] = { .s = who->agent },
		[LST_SUM_SCOPE] = { .s = who->scope },
		[LST_SUM_TARGET] = { .s = who->target },
		[LST_SUM_PATH] = { .s = who->path },
		[LST_SUM_T_S] = { .d = t_s },
		[LST_SUM_DURATION] = { .d = t->seconds },
		[LST_SUM_READ_IOPS] = { .d = t->iops[LST_DIR_READ] },
		[LST_SUM_WRITE_IOPS] = { .d = t->iops[LST_DIR_WRITE] },
		[LST_SUM_READ_MBPS] = { .d = t->mbps[LST_DIR_READ] },
		[LST_SUM_WRITE_MBPS] = { .d = t->mbps[LST_DIR_WRITE] },
		[LST_SUM_READ_IOS] = { .u = t->dir[0].ios },
		[LST_SUM_WRITE_IOS] = { .u = t->dir[1].ios },
		[LST_SUM_READ_BYTES] = { .u = t->dir[0].bytes },
		[LST_SUM_WRITE_BYTES] = { .u = t->dir[1].bytes },
		[LST_SUM_ERRORS] = { .u = t->dir[0].errors + t->dir[1].errors },
		[LST_SUM_TEST] = { .s = test ? test : "" },
		[LST_SUM_ROUND] = { .u = round },
		[LST_SUM_READ_LAT_COUNT] = { .u = t->dir[LST_DIR_READ].lat.count },
		[LST_SUM_WRITE_LAT_COUNT] = { .u = t->dir[LST_DIR_WRITE].lat.count },
	};
	struct lst_hist_stats st;

	s_lat(r, t->dir, &st);
	s_lat_cells(&row[LST_SUM_LAT_MEAN], &st);
	s_dir_stats_cells(&row[LST_SUM_READ_LAT], t->dir);
	s_health_cells(&row[LST_SUM_HEALTH], &t->health);
	row[LST_SUM_HEALTH + LST_SUM_HEALTH_NCOLS - 1].d =
		(double)t->health.oldest_inflight_ns / 1e3;
	s_verify_cells(&row[LST_SUM_VERIFY], &t->verify);
	row[LST_SUM_TRIM].d = t->trim_iops;
	row[LST_SUM_TRIM + 1].d = t->trim_mbps;
	s_workload_cells(&row[LST_SUM_WORKLOAD], w);
	s_lat_more_cells(&row[LST_SUM_LAT_MORE], &r->both, &st);
	lst_columns_write_n(r->sum, &lst_summary_table, row, r->sum_ncols);
	s_flush(r, r->sum, "summary.csv");
}

void lst_results_summary(lst_results *r, const char *phase, size_t point, const char *label,
			 const char *agent, double t_s, const struct lst_merge_totals *t,
			 const char *test, size_t round, const struct lst_row_workload *w,
			 json_t *extra)
{
	struct lst_row_who who = s_who(agent);

	lst_results_summary_of(r, phase, point, label, &who, t_s, t, test, round, w, extra);
}

void lst_results_summary_of(lst_results *r, const char *phase, size_t point, const char *label,
			    const struct lst_row_who *who, double t_s,
			    const struct lst_merge_totals *t, const char *test, size_t round,
			    const struct lst_row_workload *w, json_t *extra)
{
	const char *agent = who->agent;
	lst_hist both;
	json_t *o;

	s_summary_row(r, phase, point, label, who, t_s, t, test, round, w);
	both = t->dir[LST_DIR_READ].lat;
	lst_hist_add(&both, &t->dir[LST_DIR_WRITE].lat);
	o = json_pack("{s:s, s:I, s:s, s:s, s:f, s:f, s:f, s:f, s:o, s:o, s:o}", "phase", phase,
		      "point", (json_int_t)point, "label", label, "agent", agent, "t_s", t_s,
		      "duration_s", t->seconds, "iops", t->iops[0] + t->iops[1], "mbps",
		      t->mbps[0] + t->mbps[1], "read", s_dir_json(t, LST_DIR_READ), "write",
		      s_dir_json(t, LST_DIR_WRITE), "lat", lst_results_lat_json(&both));
	json_object_set_new(o, "scope", json_string(who->scope));
	json_object_set_new(o, "verify", s_verify_json(&t->verify));
	if (who->target[0])
		json_object_set_new(o, "target", json_string(who->target));
	if (who->path[0])
		json_object_set_new(o, "path", json_string(who->path));
	if (extra) {
		json_object_update(o, extra);
		json_decref(extra);
	}
	json_array_append_new(r->summary, o);
}

/* Write doc aside, then rename it over name: readers see the old file or the new one. */
static int s_write_json(lst_results *r, const char *name, json_t *doc, lst_err *err)
{
	char *tmp = lst_asprintf("%s/.%s.tmp", r->dir, name);
	char *path = lst_asprintf("%s/%s", r->dir, name);
	FILE *f = fopen(tmp, "w");
	int rc = 0;

	errno = 0;
	if (!f || json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) ||
	    fputc('\n', f) == EOF || fflush(f) || ferror(f)) {
		rc = lst_err_sys(err, errno ? -errno : -EIO, "cannot write %s", path);
	}
	if (f && fclose(f) && !rc)
		rc = lst_err_sys(err, errno ? -errno : -EIO, "cannot write %s", path);
	if (!rc && rename(tmp, path))
		rc = lst_err_sys(err, -errno, "cannot rename %s to %s", tmp, path);
	if (rc) {
		s_failed(r, rc, name);
		unlink(tmp);
	}
	free(tmp);
	free(path);
	return rc;
}

/* One item of a streamed array (s_write_streamed), at the array's depth in the document. */
static void s_stream_item(FILE *f, json_t *item, size_t *n)
{
	char *text = json_dumps(item, JSON_INDENT(2) | JSON_REAL_PRECISION(12));

	fputs((*n)++ ? ",\n    " : "\n    ", f);
	for (const char *q = text ? text : "null"; *q; q++)
		if (*q == '\n')
			fputs("\n    ", f);
		else
			fputc(*q, f);
	free(text);
}

/*
 * Write doc (borrowed) to name like s_write_json, but with doc[key] (a top-level array, holding
 * what is not journaled yet) after the items points.jsonl already holds: each "point" entry's
 * field, an object or an array of them. The journal is read one line at a time, so the memory
 * this takes is flat in the run's length; the points themselves live in the journal only.
 */
static int s_write_streamed(lst_results *r, const char *name, json_t *doc, const char *key,
			    const char *field, lst_err *err)
{
	static const char mark[] = "\"\\u0001lst-stream\\u0001\"";
	json_t *tail = json_incref(json_object_get(doc, key));
	char *tmp = lst_asprintf("%s/.%s.tmp", r->dir, name);
	char *path = lst_asprintf("%s/%s", r->dir, name);
	char *jpath = lst_asprintf("%s/points.jsonl", r->dir);
	char *text, *at, *line = NULL;
	size_t n = 0, cap = 0, i;
	FILE *f = NULL, *j;
	json_t *item;
	int rc = 0;

	json_object_set_new(doc, key, json_string("\001lst-stream\001"));
	text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	json_object_set_new(doc, key, tail ? tail : json_array());
	at = text ? strstr(text, mark) : NULL;
	if (!at) {
		rc = lst_err_set(err, -ENOMEM, "cannot encode %s", path);
		goto out;
	}
	f = fopen(tmp, "w");
	if (!f) {
		rc = lst_err_sys(err, -errno, "cannot write %s", path);
		goto out;
	}
	errno = 0;
	fwrite(text, 1, (size_t)(at - text), f);
	fputc('[', f);
	if ((j = fopen(jpath, "r"))) {
		while (getline(&line, &cap, j) > 0) {
			json_t *e = json_loads(line, 0, NULL), *v;

			/* A line cut short (a crash mid-write) does not parse: it is no point. */
			if (e &&
			    !strcmp(json_string_value(json_object_get(e, "type")) ?: "", "point")) {
				v = json_object_get(e, field);
				if (json_is_array(v))
					json_array_foreach (v, i, item)
						s_stream_item(f, item, &n);
				else if (v)
					s_stream_item(f, v, &n);
			}
			json_decref(e);
		}
		fclose(j);
	}
	json_array_foreach (json_object_get(doc, key), i, item)
		s_stream_item(f, item, &n);
	fputs(n ? "\n  ]" : "]", f);
	fputs(at + strlen(mark), f);
	if (fputc('\n', f) == EOF || fflush(f) || ferror(f))
		rc = lst_err_sys(err, errno ? -errno : -EIO, "cannot write %s", path);
	if (fclose(f) && !rc)
		rc = lst_err_sys(err, errno ? -errno : -EIO, "cannot write %s", path);
	if (!rc && rename(tmp, path))
		rc = lst_err_sys(err, -errno, "cannot rename %s to %s", tmp, path);
out:
	if (rc) {
		s_failed(r, rc, name);
		unlink(tmp);
	}
	free(line);
	free(text);
	free(tmp);
	free(path);
	free(jpath);
	return rc;
}

int lst_results_write_run(lst_results *r, json_t *doc, bool final, lst_err *err)
{
	json_t *compact;
	int rc;

	if (final && r->reserved && r->failed.code)
		s_release(r); /* the disk filled: the room kept for this */
	rc = s_write_streamed(r, "run.json", doc, "phases", "run", err);
	if (!rc || !final)
		return rc;
	if (r->reserved) {
		s_release(r);
		rc = s_write_streamed(r, "run.json", doc, "phases", "run", err);
		if (!rc)
			return 0;
	}
	/* Still no room for every point: they are in points.jsonl; say how the run ended. */
	compact = json_copy(doc);
	json_object_set_new(compact, "phases", json_array());
	json_object_set_new(compact, "phases_in", json_string("points.jsonl"));
	rc = s_write_json(r, "run.json", compact, err);
	json_decref(compact);
	return rc;
}

int lst_results_flush_summary(lst_results *r, lst_err *err)
{
	json_t *doc = json_pack("{s:O, s:O}", "points", r->summary, "tests", r->tests);
	int rc = s_write_streamed(r, "summary.json", doc, "points", "summary", err);

	json_decref(doc);
	return rc;
}

void lst_results_round(lst_results *r, const struct lst_round_row *o)
{
	union lst_cell row[LST_ROUNDS_N] = {
		[LST_ROUNDS_PHASE] = { .s = o->phase },
		[LST_ROUNDS_TEST] = { .s = o->test },
		[LST_ROUNDS_ROUND] = { .u = o->round },
		[LST_ROUNDS_T_S] = { .d = o->t_s },
		[LST_ROUNDS_VALUE] = { .d = o->value },
		[LST_ROUNDS_TRACKED] = { .s = o->tracked },
		[LST_ROUNDS_IOPS] = { .d = o->iops },
		[LST_ROUNDS_MBPS] = { .d = o->mbps },
		[LST_ROUNDS_LAT_MEAN] = { .d = o->lat_mean_us },
		[LST_ROUNDS_LAT_MAX] = { .d = o->lat_max_us },
		[LST_ROUNDS_BYTES_WRITTEN] = { .u = o->bytes_written },
		[LST_ROUNDS_SUITE] = { .s = o->suite },
	};

	if (!r)
		return;
	if (!r->rounds) {
		r->rounds = s_open(r, "rounds.csv", "w", NULL);
		if (!r->rounds)
			return;
		lst_columns_header(r->rounds, &lst_rounds_table);
	}
	lst_columns_write_n(r->rounds, &lst_rounds_table, row, r->rounds_ncols);
	s_flush(r, r->rounds, "rounds.csv");
}

void lst_results_test(lst_results *r, json_t *test)
{
	json_array_append_new(r->tests, test);
}

struct lst_step_part *lst_step_parts_dup(const struct lst_step_part *parts, size_t n)
{
	struct lst_step_part *copy = n ? lst_malloc(n * sizeof(*parts)) : NULL;

	if (n)
		memcpy(copy, parts, n * sizeof(*parts));
	return copy;
}

/* One row of curves.csv: the workload w, what was measured, and whose row it is. */
static void s_curve_row(lst_results *r, const char *phase, size_t point,
			const struct lst_workload *w, const double iops[LST_DIR_N],
			const double mbps[LST_DIR_N], const lst_hist *lat,
			const lst_hist *const lat_dir[LST_DIR_N], int64_t rate_iops,
			double target_pct, const struct lst_row_who *who)
{
	union lst_cell row[LST_CURVES_N] = {
		[LST_CURVES_PHASE] = { .s = phase },
		[LST_CURVES_POINT] = { .u = point },
		[LST_CURVES_JOBS] = { .i = w->jobs },
		[LST_CURVES_IODEPTH] = { .i = w->iodepth },
		[LST_CURVES_BS] = { .i = w->bs },
		[LST_CURVES_RWMIXREAD] = { .i = lst_workload_read_pct(w) },
		[LST_CURVES_IOPS] = { .d = iops[0] + iops[1] },
		[LST_CURVES_MBPS] = { .d = mbps[0] + mbps[1] },
		[LST_CURVES_RATE_IOPS] = { .i = rate_iops },
		[LST_CURVES_TARGET_PCT] = { .d = target_pct },
		[LST_CURVES_SCOPE] = { .s = who->scope },
		[LST_CURVES_AGENT] = { .s = who->agent },
		[LST_CURVES_TARGET] = { .s = who->target },
		[LST_CURVES_PATH] = { .s = who->path },
	};
	struct lst_hist_stats st;

	lst_hist_stats(lat, &st);
	row[LST_CURVES_LAT_MEAN].d = st.mean / 1e3;
	row[LST_CURVES_LAT_P99].d = (double)st.p99 / 1e3;
	row[LST_CURVES_LAT_P99_9].d = (double)st.p99_9 / 1e3;
	row[LST_CURVES_LAT_P99_99].d = (double)st.p99_99 / 1e3;
	s_dir_lat_cells(&row[LST_CURVES_READ_LAT], lat_dir);
	lst_columns_write_n(r->curves, &lst_curves_table, row, r->curves_ncols);
}

void lst_results_curve(lst_results *r, const char *phase, size_t point,
		       const struct lst_workload *w, const struct lst_step_result *res,
		       int64_t rate_iops, double target_pct)
{
	static const struct lst_row_who all = { "all", "all", "", "" };

	if (!r->curves) {
		r->curves = s_open(r, "curves.csv", "w", NULL);
		if (!r->curves)
			return;
		lst_columns_header(r->curves, &lst_curves_table);
	}
	s_curve_row(r, phase, point, w, res->iops, res->mbps, &res->lat,
		    (const lst_hist *const[LST_DIR_N]){ &res->lat_dir[0], &res->lat_dir[1] },
		    rate_iops, target_pct, &all);
	for (size_t k = 0; k < res->nparts; k++) {
		const struct lst_step_part *pt = &res->parts[k];

		s_curve_row(r, phase, point, w, pt->iops, pt->mbps, &pt->lat,
			    (const lst_hist *const[LST_DIR_N]){ &pt->lat_dir[0], &pt->lat_dir[1] },
			    rate_iops, target_pct, &pt->who);
	}
	s_flush(r, r->curves, "curves.csv");
}

void lst_results_matrix(lst_results *r, const char *phase, const int64_t *bs, size_t nbs,
			const int64_t *mix, size_t nmix, const double *iops,
			const struct lst_matrix_window *win)
{
	const struct lst_opt *bso = lst_opt_find(lst_workload_opts, "bs");
	char *name = r->nmatrix ? lst_asprintf("matrix-%s.csv", phase) : lst_strdup("matrix.csv");
	FILE *csv = s_open(r, name, "w", NULL);
	FILE *md = s_open(r, "matrix.md", r->nmatrix ? "a" : "w", NULL);

	r->nmatrix++;
	if (csv) {
		fprintf(csv, "bs");
		for (size_t m = 0; m < nmix; m++)
			fprintf(csv, ",%lld/%lld", (long long)mix[m], (long long)(100 - mix[m]));
		fputs(",steady,window\n", csv);
		for (size_t b = 0; b < nbs; b++) {
			fprintf(csv, "%lld", (long long)bs[b]);
			for (size_t m = 0; m < nmix; m++)
				fprintf(csv, ",%.1f", iops[b * nmix + m]);
			fprintf(csv, ",%s,%zu-%zu\n", win->steady ? "true" : "false", win->first,
				win->last);
		}
		s_flush(r, csv, name);
		fclose(csv);
	}
	free(name);
	if (md) {
		fprintf(md,
			"## %s: IOPS by block size and read/write mix\n\nEach cell is the window "
			"average of rounds %zu-%zu: %s.\n\n| bs |",
			phase, win->first, win->last, win->verdict);
		for (size_t m = 0; m < nmix; m++)
			fprintf(md, " %lld/%lld |", (long long)mix[m], (long long)(100 - mix[m]));
		fprintf(md, "\n|---|");
		for (size_t m = 0; m < nmix; m++)
			fprintf(md, "---:|");
		fputc('\n', md);
		for (size_t b = 0; b < nbs; b++) {
			struct lst_workload w;
			char v[32];

			w.bs = bs[b];
			fprintf(md, "| %s |", lst_opt_format(bso, &w, v, sizeof(v)));
			for (size_t m = 0; m < nmix; m++)
				fprintf(md, " %.0f |", iops[b * nmix + m]);
			fputc('\n', md);
		}
		fputc('\n', md);
		s_flush(r, md, "matrix.md");
		fclose(md);
	}
}

/* --- points.jsonl ------------------------------------------------------------------------- */

/* Size of name in the folder, or -1 when it does not exist. */
static long long s_size(const lst_results *r, const char *name)
{
	char *path = lst_asprintf("%s/%s", r->dir, name);
	struct stat st;
	int rc = stat(path, &st);

	free(path);
	return rc ? -1 : (long long)st.st_size;
}

json_t *lst_results_sizes(lst_results *r)
{
	static const char *const names[] = { "timeseries.csv", "summary.csv", "clock.csv",
					     "rounds.csv",     "curves.csv",  "matrix.md",
					     "devstats.csv",   "events.csv",  "telemetry.csv",
					     "integrity.csv" };
	FILE *open[] = { r->ts, r->sum, r->clock, r->rounds, r->curves,
			 NULL,	r->dev, NULL,	  NULL,	     NULL };
	json_t *o = json_object();

	for (size_t i = 0; i < LST_ARRAY_SIZE(names); i++) {
		long long n;

		if (open[i])
			s_flush(r, open[i], names[i]);
		n = s_size(r, names[i]);
		if (n >= 0)
			json_object_set_new(o, names[i], json_integer(n));
	}
	/* Every samples file, also those of agents that sent nothing since a resume. */
	{
		char *sdir = lst_asprintf("%s/samples", r->dir);
		DIR *d = opendir(sdir);
		struct dirent *e;

		free(sdir);
		while (d && (e = readdir(d))) {
			size_t len = strlen(e->d_name);
			char *name;
			long long n;

			if (len <= 8 || strcmp(e->d_name + len - 8, ".msgpack"))
				continue;
			name = lst_asprintf("samples/%s", e->d_name);
			n = s_size(r, name);
			if (n >= 0)
				json_object_set_new(o, name, json_integer(n));
			free(name);
		}
		if (d)
			closedir(d);
	}
	return o;
}

int lst_results_journal(lst_results *r, json_t *entry, lst_err *err)
{
	char *line;
	size_t len;
	int rc = 0;

	if (!r->journal) {
		r->journal = s_open(r, "points.jsonl", "a", err);
		if (!r->journal)
			return err ? err->code : -EIO;
	}
	json_object_set_new(entry, "sizes", lst_results_sizes(r));
	line = json_dumps(entry, JSON_COMPACT | JSON_REAL_PRECISION(17));
	if (!line)
		return lst_err_set(err, -ENOMEM, "points.jsonl: cannot encode an entry");
	len = strlen(line);
	errno = 0;
	if (fwrite(line, 1, len, r->journal) != len || fputc('\n', r->journal) == EOF ||
	    fflush(r->journal) || fdatasync(fileno(r->journal))) {
		rc = errno ? -errno : -EIO;
		s_failed(r, rc, "points.jsonl");
		lst_err_sys(err, rc, "writing %s/points.jsonl", r->dir);
	}
	free(line);
	return rc;
}

json_t *lst_results_points(const lst_results *r)
{
	return r->summary;
}

void lst_results_journaled(lst_results *r)
{
	json_array_clear(r->summary);
}

json_t *lst_results_tests(const lst_results *r)
{
	return r->tests;
}

/* --- reopening for a resume ----------------------------------------------------------------- */

long long lst_results__header_size(const char *dir, const char *name)
{
	char *path = lst_asprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	long long n = 0;
	int ch;

	free(path);
	if (!f)
		return -1;
	while ((ch = fgetc(f)) != EOF) {
		n++;
		if (ch == '\n')
			break;
	}
	fclose(f);
	return ch == '\n' ? n : -1;
}

lst_results *lst_results__reopen(const char *dir, const size_t cols[5], json_t *sizes,
				 json_t *tests, lst_err *err)
{
	lst_results *r;

	r = lst_calloc(1, sizeof(*r));
	r->dir = lst_strdup(dir);
	r->dev_mark = -1;
	r->ts_ncols = cols[0];
	r->sum_ncols = cols[1];
	r->rounds_ncols = cols[2];
	r->curves_ncols = cols[3];
	r->dev_ncols = cols[4];
	r->summary = json_array();
	r->tests = tests ? json_copy(tests) : json_array();
	r->ts = s_open(r, "timeseries.csv", "a", err);
	r->sum = r->ts ? s_open(r, "summary.csv", "a", err) : NULL;
	r->clock = r->sum ? s_open(r, "clock.csv", "a", err) : NULL;
	if (r->clock && json_object_get(sizes, "rounds.csv"))
		r->rounds = s_open(r, "rounds.csv", "a", err);
	if (r->clock && json_object_get(sizes, "curves.csv"))
		r->curves = s_open(r, "curves.csv", "a", err);
	if (r->clock && json_object_get(sizes, "devstats.csv")) {
		r->dev = s_open(r, "devstats.csv", "a", err);
		r->dev_header = (off_t)lst_results__header_size(dir, "devstats.csv");
	}
	if (r->clock && json_object_get(sizes, "matrix.md"))
		r->nmatrix = 1; /* the next matrix is a later phase's: matrix-PHASE.csv */
	if (!r->clock || r->failed.code) {
		if (err && r->failed.code)
			*err = r->failed;
		lst_results_destroy(&r);
		return NULL;
	}
	s_reserve(r);
	return r;
}
