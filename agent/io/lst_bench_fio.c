/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's flags and fio's JSON for `lockstep-agent bench` (lst_bench_fio.h). The flag tables hold
 * what each fio flag means here, so the note a pasted fio command line prints and the refusal of
 * a flag lockstep has no meaning for come from one place.
 */
#include "lst_bench_fio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_fiohist.h"
#include "lst_hist.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

enum { S_BOOL, S_TEXT };

/* fio's flags taken as they are: each changes nothing here, or sets what its note says. */
static const struct {
	const char *fio;
	int kind; /* S_BOOL: no value, or =0/=1; S_TEXT: a value */
	const char *note;
} s_taken[] = {
	{ "name", S_TEXT, "the job's name in the output" },
	{ "time_based", S_BOOL, "with --runtime the run lasts that long anyway" },
	{ "group_reporting", S_BOOL, "the jobs are always reported together" },
	{ "norandommap", S_BOOL, "random offsets are always drawn independently, with no map" },
	{ "thread", S_BOOL, "jobs are always threads" },
	{ "eta", S_TEXT, "the progress line shows on a terminal only (--quiet hides it)" },
	{ "eta_newline", S_TEXT, "the progress line shows on a terminal only (--quiet hides it)" },
	{ "eta_interval", S_TEXT, "the progress line updates every --interval" },
	{ "readwrite", S_TEXT, "fio's other name of --rw" },
	{ "output_format", S_TEXT, "json and json+ print fio's JSON shape, normal the summary" },
	{ "percentile_list", S_TEXT, "the percentiles of fio's JSON clat_ns map" },
	{ "lat_percentiles", S_BOOL, "lat_ns gets the percentile map too (lat is clat here)" },
	{ "clat_percentiles", S_BOOL, "clat_ns always has the percentile map" },
	{ "description", S_TEXT, "a job's description has no place in the output" },
};

/* fio's flags lockstep has no meaning for, and what does their job here. */
static const struct {
	const char *fio, *instead;
} s_refused[] = {
	{ "write_lat_log", "--json's intervals carry each interval's latency percentiles" },
	{ "write_bw_log", "--json's intervals carry each interval's bandwidth" },
	{ "write_iops_log", "--json's intervals carry each interval's IOPS" },
	{ "write_hist_log", "`lockstep run` keeps each interval's histogram in its results" },
	{ "client", "`lockstep run` drives many agents from one plan, on one clock" },
	{ "output", "redirect the standard output" },
	{ "ioscheduler", "set /sys/block/DEV/queue/scheduler before the run" },
	{ "iodepth_batch", "each I/O is submitted as a slot frees; --iodepth sets the depth" },
};

/* fio's engines that lockstep's do the same as. */
static const struct {
	const char *fio, *ours, *why;
} s_engines[] = {
	{ "libaio", "io_uring", "the same asynchronous I/O at the same iodepth" },
	{ "posixaio", "io_uring", "the same asynchronous I/O at the same iodepth" },
	{ "sync", "psync", "the same blocking I/O (pread/pwrite)" },
	{ "pvsync", "psync", "the same blocking I/O (pread/pwrite)" },
	{ "pvsync2", "psync", "the same blocking I/O (pread/pwrite)" },
};

/* fio's default percentile list. */
static const double s_def_pcts[] = { 1,	 5,  10, 20, 30,   40,	 50,	60,   70,
				     80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

static void s_note(const char *name, const char *value, const char *note)
{
	fprintf(stderr, "lockstep-agent: bench: note: --%s%s%s: %s\n", name, value ? "=" : "",
		value ? value : "", note);
}

static int s_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* --percentile_list=P[:P...]: fio's colon list, each in (0, 100], kept ascending. */
static int s_parse_pcts(struct lst_bench_fio *f, const char *text, lst_err *err)
{
	const char *p = text;

	f->npcts = 0;
	while (*p) {
		char *end;
		double v = strtod(p, &end);

		if (end == p || (*end && *end != ':') || !(v > 0 && v <= 100))
			return lst_err_set(err, -EINVAL,
					   "--percentile_list: '%s' is not a list of percentiles "
					   "in (0, 100] joined by ':'",
					   text);
		if (f->npcts == LST_BENCH_FIO_PCTS_MAX)
			return lst_err_set(err, -EINVAL, "--percentile_list: more than %d values",
					   LST_BENCH_FIO_PCTS_MAX);
		f->pcts[f->npcts++] = v;
		p = *end ? end + 1 : end;
	}
	if (!f->npcts)
		return lst_err_set(err, -EINVAL, "--percentile_list: no value");
	qsort(f->pcts, f->npcts, sizeof(f->pcts[0]), s_cmp_double);
	return 0;
}

static int s_output_format(struct lst_bench_fio *f, const char *v, lst_err *err)
{
	if (!strcmp(v, "json"))
		f->format = LST_BENCH_FIO_JSON;
	else if (!strcmp(v, "json+"))
		f->format = LST_BENCH_FIO_JSONPLUS;
	else if (!strcmp(v, "normal"))
		f->format = LST_BENCH_SUMMARY;
	else
		return lst_err_set(err, -EINVAL,
				   "--output-format: '%s' is not json, json+ or normal (one of "
				   "them: fio's terse and lists have no counterpart here)",
				   v);
	return 0;
}

/* The taken flag's effect; *opt and *val name the lockstep option to parse, when there is one. */
static int s_take(struct lst_bench_fio *f, const char *name, const char *value, const char **opt,
		  const char **val, lst_err *err)
{
	if (!strcmp(name, "output_format"))
		return s_output_format(f, value, err);
	if (!strcmp(name, "percentile_list"))
		return s_parse_pcts(f, value, err);
	if (!strcmp(name, "name"))
		f->name = value;
	if (!strcmp(name, "lat_percentiles"))
		f->lat_percentiles = !value || strcmp(value, "0");
	if (!strcmp(name, "readwrite")) {
		*opt = "rw";
		*val = value;
	}
	return 0;
}

int lst_bench_fio_flag(struct lst_bench_fio *f, const char *name, const char *value,
		       bool *wants_value, const char **opt, const char **val, lst_err *err)
{
	*wants_value = false;
	*opt = *val = NULL;
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_refused); i++)
		if (!strcmp(name, s_refused[i].fio))
			return lst_err_set(err, -EINVAL, "unknown option '--%s': it is fio's; %s",
					   name, s_refused[i].instead);
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_taken); i++) {
		if (strcmp(name, s_taken[i].fio))
			continue;
		if (s_taken[i].kind == S_TEXT && !value) {
			*wants_value = true;
			return 1;
		}
		if (s_taken[i].kind == S_BOOL && value && strcmp(value, "0") && strcmp(value, "1"))
			return lst_err_set(err, -EINVAL,
					   "--%s takes no value, or 0 or 1 (fio's spelling); not "
					   "'%s'",
					   name, value);
		if (s_take(f, name, value, opt, val, err))
			return -EINVAL;
		s_note(name, value, s_taken[i].note);
		return 1;
	}
	return 0;
}

void lst_bench_fio_usage(FILE *f)
{
	fprintf(f,
		"\nfio's flags, taken with a note line each (a pasted fio command line runs):\n");
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_taken); i++) {
		char flag[64];

		snprintf(flag, sizeof(flag), "--%s%s", s_taken[i].fio,
			 s_taken[i].kind == S_TEXT ? " VALUE" : "");
		fprintf(f, "  %-24s %s\n", flag, s_taken[i].note);
	}
	fprintf(f, "  %-24s ", "--ioengine");
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_engines); i++)
		fprintf(f, "%s%s=%s", i ? ", " : "", s_engines[i].fio, s_engines[i].ours);
	fprintf(f, "\n");
}

const char *lst_bench_fio_engine(const char *text)
{
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_engines); i++) {
		if (strcmp(text, s_engines[i].fio))
			continue;
		char note[160];

		snprintf(note, sizeof(note), "%s does %s", s_engines[i].ours, s_engines[i].why);
		s_note("ioengine", text, note);
		return s_engines[i].ours;
	}
	return text;
}

static bool s_read_disk(const char *stat, uint64_t v[11])
{
	FILE *fp = fopen(stat, "re");
	int n = 0;

	if (!fp)
		return false;
	for (; n < 11; n++) {
		unsigned long long x;

		if (fscanf(fp, "%llu", &x) != 1)
			break;
		v[n] = x;
	}
	fclose(fp);
	return n == 11;
}

void lst_bench_disk_start(struct lst_bench_disk *d, int fd)
{
	char link[256], target[256];
	struct stat st;
	dev_t dev;
	ssize_t n;

	memset(d, 0, sizeof(*d));
	if (fd < 0 || fstat(fd, &st))
		return;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	snprintf(d->stat, sizeof(d->stat), "%s/stat", link);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0 || !s_read_disk(d->stat, d->v))
		return;
	target[n] = '\0';
	lst_copy(d->name, sizeof(d->name),
		 strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	d->t_ns = lst_mono_ns();
}

/* fio's disk_util array: the device's counters over the run, util from its busy time. */
static json_t *s_disk_json(const struct lst_bench_disk *d)
{
	uint64_t v[11], x[11];
	double ms = (double)(lst_mono_ns() - d->t_ns) / 1e6;

	if (!d->name[0] || !s_read_disk(d->stat, v))
		return json_array();
	for (int i = 0; i < 11; i++)
		x[i] = v[i] - d->v[i];
	return json_pack("[{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f}]", "name", d->name,
			 "read_ios", (json_int_t)x[0], "write_ios", (json_int_t)x[4], "read_merges",
			 (json_int_t)x[1], "write_merges", (json_int_t)x[5], "read_ticks",
			 (json_int_t)x[3], "write_ticks", (json_int_t)x[7], "in_queue",
			 (json_int_t)x[10], "util",
			 ms > 0 ? LST_MIN(100.0, (double)x[9] / ms * 100) : 0.0);
}

/* fio's {min, max, mean, stddev, N} of h, with the percentile map and the bins when asked. */
static json_t *s_lat_json(const lst_hist *h, const struct lst_bench_fio *f, bool pct, bool bins)
{
	struct lst_hist_stats st;
	json_t *o;

	lst_hist_stats(h, &st);
	o = json_pack("{s:I, s:I, s:f, s:f, s:I}", "min", (json_int_t)st.min, "max",
		      (json_int_t)st.max, "mean", st.mean, "stddev", st.stdev, "N",
		      (json_int_t)h->count);
	if (pct && h->count) {
		const double *p = f->npcts ? f->pcts : s_def_pcts;
		size_t n = f->npcts ? f->npcts : LST_ARRAY_SIZE(s_def_pcts);
		uint64_t out[LST_BENCH_FIO_PCTS_MAX];
		json_t *m = json_object();

		lst_hist_percentiles(h, p, n, out);
		for (size_t i = 0; i < n; i++) {
			char key[32];

			snprintf(key, sizeof(key), "%f", p[i]);
			json_object_set_new(m, key, json_integer((json_int_t)out[i]));
		}
		json_object_set_new(o, "percentile", m);
	}
	if (bins && h->count) {
		json_t *m = json_object();

		for (unsigned i = 0; i < LST_HIST_NBUCKETS; i++) {
			char key[32];

			if (!h->buckets[i])
				continue;
			snprintf(key, sizeof(key), "%llu",
				 (unsigned long long)lst_fiohist_bin_value(i));
			json_object_set_new(m, key, json_integer((json_int_t)h->buckets[i]));
		}
		json_object_set_new(o, "bins", m);
	}
	return o;
}

/* min, max, mean and sample stddev of one direction's per-interval figure (ramp left out). */
struct s_stat {
	double min, max, mean, dev;
	int n;
};

static struct s_stat s_series(const json_t *intervals, const char *dir, const char *key,
			      double scale)
{
	struct s_stat s = { 0 };
	double sum = 0, sumsq = 0;
	size_t i;
	json_t *iv;

	json_array_foreach (intervals, i, iv) {
		double v;

		if (json_is_true(json_object_get(iv, "ramp")))
			continue;
		v = json_number_value(json_object_get(json_object_get(iv, dir), key)) * scale;
		s.min = s.n ? LST_MIN(s.min, v) : v;
		s.max = s.n ? LST_MAX(s.max, v) : v;
		sum += v;
		sumsq += v * v;
		s.n++;
	}
	if (s.n)
		s.mean = sum / s.n;
	if (s.n > 1)
		s.dev = sqrt(LST_MAX(0.0, (sumsq - sum * sum / s.n) / (s.n - 1)));
	return s;
}

/* fio's object of one direction (read, write, or trim with no latency). */
static json_t *s_dir_json(const struct lst_bench_fio *f, const struct lst_bench_fio_run *r,
			  const struct lst_dir_stats *d, const lst_hist *slat, const char *dir)
{
	static const struct s_stat none;
	double secs = r->secs > 0 ? r->secs : 1e-9;
	bool any = d->ios > 0;
	struct s_stat bw = any ? s_series(r->intervals, dir, "mibps", 1024.0) : none;
	struct s_stat io = any ? s_series(r->intervals, dir, "iops", 1.0) : none;

	return json_pack(
		"{s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:i, s:i, s:o, s:o, s:o, s:I, s:I, "
		"s:f, s:f, s:f, s:i, s:I, s:I, s:f, s:f, s:i}",
		"io_bytes", (json_int_t)d->bytes, "io_kbytes", (json_int_t)(d->bytes >> 10),
		"bw_bytes", (json_int_t)((double)d->bytes / secs), "bw",
		(json_int_t)((double)d->bytes / secs / 1024), "iops", (double)d->ios / secs,
		"runtime", (json_int_t)(any ? r->secs * 1000 + 0.5 : 0), "total_ios",
		(json_int_t)d->ios, "short_ios", 0, "drop_ios", 0, "slat_ns",
		s_lat_json(slat, f, false, false), "clat_ns",
		s_lat_json(&d->lat, f, true, f->format == LST_BENCH_FIO_JSONPLUS), "lat_ns",
		s_lat_json(&d->lat, f, f->lat_percentiles, false), "bw_min", (json_int_t)bw.min,
		"bw_max", (json_int_t)bw.max, "bw_agg", any ? 100.0 : 0.0, "bw_mean", bw.mean,
		"bw_dev", bw.dev, "bw_samples", bw.n, "iops_min", (json_int_t)io.min, "iops_max",
		(json_int_t)io.max, "iops_mean", io.mean, "iops_stddev", io.dev, "iops_samples",
		io.n);
}

/* fio's latency_ns/us/ms: the percent of I/Os (reads and writes) at or under each step. */
static void s_lat_buckets(json_t *job, const struct lst_dir_stats *tot)
{
	double pct[LST_FIOHIST_UNITS][LST_FIOHIST_STEPS];

	lst_fiohist_steps(&tot[0].lat, &tot[1].lat, pct);
	for (int u = 0; u < LST_FIOHIST_UNITS; u++) {
		json_t *m = json_object();

		for (int i = 0; lst_fiohist_step_keys[u][i]; i++)
			json_object_set_new(m, lst_fiohist_step_keys[u][i], json_real(pct[u][i]));
		json_object_set_new(job, lst_fiohist_unit_keys[u], m);
	}
}

/* One of fio's depth maps: each bin's share of the total, in percent, under fio's keys. */
static json_t *s_depth_map(const uint64_t *bins, const char *const *keys)
{
	json_t *m = json_object();
	uint64_t n = 0;

	for (int i = 0; i < LST_JOB_DEPTH_BINS; i++)
		n += bins[i];
	for (int i = 0; i < LST_JOB_DEPTH_BINS; i++)
		json_object_set_new(m, keys[i],
				    json_real(n ? 100.0 * (double)bins[i] / (double)n : 0));
	return m;
}

/* fio's iodepth_level, iodepth_submit and iodepth_complete (struct lst_job_depths). */
static void s_depth_maps(json_t *job, const struct lst_job_depths *d)
{
	static const char *const level[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch[] = { "0", "4", "8", "16", "32", "64", ">=64" };

	json_object_set_new(job, "iodepth_level", s_depth_map(d->level, level));
	json_object_set_new(job, "iodepth_submit", s_depth_map(d->submit, batch));
	json_object_set_new(job, "iodepth_complete", s_depth_map(d->complete, batch));
}

static double s_secs(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_usec - a->tv_usec) / 1e6;
}

json_t *lst_bench_fio_json(const struct lst_bench_fio *f, const struct lst_bench_fio_run *r)
{
	struct lst_dir_stats trim = { 0 }; /* trims have no histogram: fio's zeros */
	double wall = r->secs > 0 ? r->secs : 1e-9;
	time_t now = time(NULL);
	char when[64];
	json_t *job;

	lst_hist_init(&trim.lat);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&now));
	job = json_pack(
		"{s:s, s:i, s:i, s:i, s:I, s:o, s:o, s:o, s:o, s:{s:i, s:{s:i, s:i, s:f, s:f, s:i}},"
		" s:I, s:f, s:f, s:I, s:I, s:I}",
		"jobname", f->name ? f->name : "bench", "groupid", 0, "error", -r->error, "eta", 0,
		"elapsed", (json_int_t)(r->secs + 0.999), "job options", r->options, "read",
		s_dir_json(f, r, &r->tot[LST_DIR_READ], &r->depths->slat[LST_DIR_READ], "read"),
		"write",
		s_dir_json(f, r, &r->tot[LST_DIR_WRITE], &r->depths->slat[LST_DIR_WRITE], "write"),
		"trim", s_dir_json(f, r, &trim, &trim.lat, "trim"), "sync", "total_ios", 0,
		"lat_ns", "min", 0, "max", 0, "mean", 0.0, "stddev", 0.0, "N", 0, "job_runtime",
		(json_int_t)(r->secs * 1000 + 0.5), "usr_cpu",
		100.0 * s_secs(&r->ru0->ru_utime, &r->ru1->ru_utime) / wall, "sys_cpu",
		100.0 * s_secs(&r->ru0->ru_stime, &r->ru1->ru_stime) / wall, "ctx",
		(json_int_t)(r->ru1->ru_nvcsw + r->ru1->ru_nivcsw - r->ru0->ru_nvcsw -
			     r->ru0->ru_nivcsw),
		"majf", (json_int_t)(r->ru1->ru_majflt - r->ru0->ru_majflt), "minf",
		(json_int_t)(r->ru1->ru_minflt - r->ru0->ru_minflt));
	s_lat_buckets(job, r->tot);
	s_depth_maps(job, r->depths);
	return json_pack("{s:s, s:I, s:I, s:s, s:[o], s:o}", "fio version", "lockstep-" LST_VERSION,
			 "timestamp", (json_int_t)now, "timestamp_ms", (json_int_t)now * 1000,
			 "time", when, "jobs", job, "disk_util", s_disk_json(r->disk));
}

/* fio's "lat (usec) : N=P%, ..." line of one latency_* map: the steps of 0.01% and over. */
static void s_print_lat(FILE *out, const json_t *m, const char *unit)
{
	static const char *const keys[] = { "2",   "4",	  "10",	 "20",	 "50",	 "100",
					    "250", "500", "750", "1000", "2000", ">=2000" };
	bool any = false;

	for (size_t i = 0; i < LST_ARRAY_SIZE(keys); i++) {
		double v = json_real_value(json_object_get(m, keys[i]));

		if (v < 0.01)
			continue;
		if (!any)
			fprintf(out, "  lat (%s)   : ", unit);
		fprintf(out, "%s%s=%.2f%%", any ? ", " : "", keys[i], v);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

/* fio's "IO depths", "submit" and "complete" lines, from the JSON's maps. */
static void s_print_depths(FILE *out, const json_t *job)
{
	static const char *const maps[][2] = { { "iodepth_level", "IO depths    :" },
					       { "iodepth_submit", "   submit    :" },
					       { "iodepth_complete", "   complete  :" } };

	for (size_t i = 0; i < LST_ARRAY_SIZE(maps); i++) {
		const json_t *m = json_object_get(job, maps[i][0]), *v;
		const char *key, *sep = " ";

		if (!m)
			continue;
		fprintf(out, "  %s", maps[i][1]);
		json_object_foreach ((json_t *)m, key, v) {
			fprintf(out, "%s%s=%.1f%%", sep, key, json_real_value(v));
			sep = ", ";
		}
		fputc('\n', out);
	}
}

void lst_bench_fio_print(FILE *out, const json_t *fio)
{
	static const char *const units[][2] = { { "latency_ns", "nsec" },
						{ "latency_us", "usec" },
						{ "latency_ms", "msec" } };
	const json_t *job = json_array_get(json_object_get(fio, "jobs"), 0);
	const json_t *u = json_array_get(json_object_get(fio, "disk_util"), 0);

	for (int d = 0; d < LST_DIR_N; d++) {
		const json_t *r = json_object_get(job, lst_dir_names[d]);

		if (!json_integer_value(json_object_get(r, "total_ios")))
			continue;
		fprintf(out,
			"  %-6s iops        : min=%lld, max=%lld, avg=%.2f, stdev=%.2f, samples=%lld\n"
			"         bw (  KiB/s): min=%lld, max=%lld, avg=%.2f, stdev=%.2f, samples=%lld\n",
			lst_dir_names[d], json_integer_value(json_object_get(r, "iops_min")),
			json_integer_value(json_object_get(r, "iops_max")),
			json_real_value(json_object_get(r, "iops_mean")),
			json_real_value(json_object_get(r, "iops_stddev")),
			json_integer_value(json_object_get(r, "iops_samples")),
			json_integer_value(json_object_get(r, "bw_min")),
			json_integer_value(json_object_get(r, "bw_max")),
			json_real_value(json_object_get(r, "bw_mean")),
			json_real_value(json_object_get(r, "bw_dev")),
			json_integer_value(json_object_get(r, "bw_samples")));
	}
	for (size_t i = 0; i < LST_ARRAY_SIZE(units); i++)
		s_print_lat(out, json_object_get(job, units[i][0]), units[i][1]);
	s_print_depths(out, job);
	fprintf(out, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%lld, majf=%lld, minf=%lld\n",
		json_real_value(json_object_get(job, "usr_cpu")),
		json_real_value(json_object_get(job, "sys_cpu")),
		json_integer_value(json_object_get(job, "ctx")),
		json_integer_value(json_object_get(job, "majf")),
		json_integer_value(json_object_get(job, "minf")));
	if (u)
		fprintf(out,
			"  disk stats (read/write): %s: ios=%lld/%lld, merge=%lld/%lld, "
			"ticks=%lld/%lld, in_queue=%lld, util=%.2f%%\n",
			json_string_value(json_object_get(u, "name")),
			json_integer_value(json_object_get(u, "read_ios")),
			json_integer_value(json_object_get(u, "write_ios")),
			json_integer_value(json_object_get(u, "read_merges")),
			json_integer_value(json_object_get(u, "write_merges")),
			json_integer_value(json_object_get(u, "read_ticks")),
			json_integer_value(json_object_get(u, "write_ticks")),
			json_integer_value(json_object_get(u, "in_queue")),
			json_real_value(json_object_get(u, "util")));
}
