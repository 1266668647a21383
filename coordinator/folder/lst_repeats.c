/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Repeated points read back (see lst_repeats.h): the figures' table, the gathering of a point's
 * repeats, and their mean and interval as repeats.csv (the report's JSON and text are
 * present/lst_report_repeats.c). One table of figures serves every output and the comparison,
 * so they cannot name or read a figure differently.
 */
#include "lst_repeats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_text.h"
#include "lst_util.h"

static double s_iops(const struct lst_rpt_point *p)
{
	return p->iops[0] + p->iops[1];
}
static double s_riops(const struct lst_rpt_point *p)
{
	return p->iops[0];
}
static double s_wiops(const struct lst_rpt_point *p)
{
	return p->iops[1];
}
static double s_mbps(const struct lst_rpt_point *p)
{
	return p->mbps[0] + p->mbps[1];
}
static double s_mean(const struct lst_rpt_point *p)
{
	return p->lat_mean;
}
static double s_p50(const struct lst_rpt_point *p)
{
	return p->lat_p50;
}
static double s_p99(const struct lst_rpt_point *p)
{
	return p->lat_p99;
}
static double s_p99_9(const struct lst_rpt_point *p)
{
	return p->lat_p99_9;
}
static double s_p99_99(const struct lst_rpt_point *p)
{
	return p->lat_p99_99;
}
static double s_max(const struct lst_rpt_point *p)
{
	return p->lat_max;
}
static double s_rp99(const struct lst_rpt_point *p)
{
	return p->lat_p99_dir[0];
}
static double s_wp99(const struct lst_rpt_point *p)
{
	return p->lat_p99_dir[1];
}

const struct lst_point_stat lst_point_stats[] = {
	{ "iops", "IOPS", s_iops },
	{ "read_iops", "read IOPS", s_riops },
	{ "write_iops", "write IOPS", s_wiops },
	{ "mbps", "MB/s", s_mbps },
	{ "lat_mean_us", "mean us", s_mean },
	{ "lat_p50_us", "p50 us", s_p50 },
	{ "lat_p99_us", "p99 us", s_p99 },
	{ "lat_p99_9_us", "p99.9 us", s_p99_9 },
	{ "lat_p99_99_us", "p99.99 us", s_p99_99 },
	{ "lat_max_us", "max us", s_max },
	{ "read_lat_p99_us", "read p99 us", s_rp99 },
	{ "write_lat_p99_us", "write p99 us", s_wp99 },
};
const size_t lst_point_nstats = LST_ARRAY_SIZE(lst_point_stats);

size_t lst_point_stat_index(const char *key)
{
	for (size_t s = 0; s < lst_point_nstats; s++)
		if (!strcmp(lst_point_stats[s].key, key))
			return s;
	LST_ASSERT(!"no such figure");
	return 0;
}

size_t lst_repeats_rows(const lst_report *r, const struct lst_rpt_point *p,
			const struct lst_rpt_point **rows, size_t max)
{
	size_t n = 0;

	if (p->repeat <= 0)
		return 0;
	for (size_t i = 0; i < r->npoints && n < max; i++) {
		const struct lst_rpt_point *q = &r->points[i];

		if (q->repeat > 0 && !strcmp(q->agent, "all") && !strcmp(q->phase, p->phase) &&
		    !strcmp(q->test, p->test) && !strcmp(q->name, p->name))
			rows[n++] = q;
	}
	return n;
}

void lst_repeats_noise(const lst_report *r, const struct lst_rpt_point *p, size_t s,
		       struct lst_noise *out)
{
	size_t max = (size_t)LST_MAX(p->repeats, 1), n;
	const struct lst_rpt_point **rows = lst_calloc(max + 1, sizeof(*rows));
	double *v = lst_calloc(max + 1, sizeof(*v));

	n = lst_repeats_rows(r, p, rows, max);
	for (size_t i = 0; i < n; i++)
		v[i] = lst_point_stats[s].get(rows[i]);
	lst_noise_of(v, n, out);
	free(rows);
	free(v);
}

bool lst_repeats_any(const lst_report *r)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (r->points[i].repeat > 0)
			return true;
	return false;
}

void lst_repeats_each(const lst_report *r, lst_repeats_fn fn, void *arg)
{
	size_t *idx = lst_calloc(r->npoints + 1, sizeof(*idx)), rows;

	for (size_t i = 0; i < r->nphases; i++) {
		size_t n = lst_report_shown(r, r->phases[i].name, idx, &rows);

		for (size_t k = 0; k < n; k++)
			if (r->points[idx[k]].repeat > 0)
				fn(r, &r->points[idx[k]], arg);
	}
	free(idx);
}

static void s_csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.3f", v);
}

static void s_csv_point(const lst_report *r, const struct lst_rpt_point *p, void *arg)
{
	FILE *f = arg;

	for (size_t s = 0; s < lst_point_nstats; s++) {
		struct lst_noise n;

		lst_repeats_noise(r, p, s, &n);
		lst_csv_put(f, p->phase);
		fputc(',', f);
		lst_csv_put(f, p->test);
		fputc(',', f);
		lst_csv_put(f, p->name);
		fprintf(f, ",%zu,%s", n.n, lst_point_stats[s].key);
		s_csv_num(f, n.mean);
		s_csv_num(f, n.sd);
		s_csv_num(f, n.ci_low);
		s_csv_num(f, n.ci_high);
		fputc('\n', f);
	}
}

int lst_repeats_write_csv(const lst_report *r, const char *path, lst_err *err)
{
	FILE *f = fopen(path, "w");
	bool bad;

	if (!f)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	fputs("phase,test,label,repeats,figure,mean,sd,ci95_low,ci95_high\n", f);
	lst_repeats_each(r, s_csv_point, f);
	bad = ferror(f);
	if (fclose(f) || bad)
		return lst_err_sys(err, -EIO, "writing %s failed", path);
	return 0;
}

int lst_repeats_write_dir(const char *dir, lst_report_plan_fn plan, lst_err *err)
{
	lst_report *r = lst_report_load(dir, plan, err);
	char *path;
	int rc = 0;

	if (!r)
		return err->code ? err->code : -EINVAL;
	if (lst_repeats_any(r)) {
		path = lst_asprintf("%s/repeats.csv", dir);
		rc = lst_repeats_write_csv(r, path, err);
		free(path);
	}
	lst_report_destroy(&r);
	return rc;
}
