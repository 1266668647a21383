/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's side of bench (agent/io/lst_bench_fio): lockstep's histogram buckets are fio's (every
 * value below fio's last bucket gets fio's index, computed here as fio's plat_val_to_idx does),
 * so json+'s bins carry fio's keys (plat_idx_to_val) with exact counts; the per-interval
 * statistics leave the ramp out; fio's flags are taken, mapped or refused as the table says.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_bench_fio.h"
#include "lst_hist.h"
#include "lst_test.h"

/* fio's plat scheme (stat.h: FIO_IO_U_PLAT_BITS 6, 29 groups), written from its definition. */
#define FIO_BITS 6
#define FIO_VAL (1u << FIO_BITS)
#define FIO_NR (29 * FIO_VAL)

static unsigned s_fio_idx(unsigned long long val)
{
	unsigned msb = val ? 63u - (unsigned)__builtin_clzll(val) : 0, err, base, off;

	if (msb <= FIO_BITS)
		return (unsigned)val;
	err = msb - FIO_BITS;
	base = (err + 1) << FIO_BITS;
	off = (FIO_VAL - 1) & (unsigned)(val >> err);
	return base + off < FIO_NR - 1 ? base + off : FIO_NR - 1;
}

static unsigned long long s_fio_val(unsigned idx)
{
	unsigned err;
	unsigned long long base, k;

	if (idx < (FIO_VAL << 1))
		return idx;
	err = (idx >> FIO_BITS) - 1;
	base = 1ull << (err + FIO_BITS);
	k = idx % FIO_VAL;
	return (unsigned long long)((double)base + ((double)k + 0.5) * (double)(1ull << err));
}

static void test_buckets_are_fios(void)
{
	unsigned long long top = 1ull << (FIO_NR / FIO_VAL + FIO_BITS - 1); /* fio's last group */

	for (unsigned long long v = 0; v < 70000; v++)
		T_EQ_INT(lst_hist_index(v), s_fio_idx(v));
	for (unsigned long long p = 1ull << 16; p < top; p <<= 1)
		for (long long d = -3; d <= 3; d++) {
			unsigned long long v = p + (unsigned long long)d + p / 3;

			T_EQ_INT(lst_hist_index(v), s_fio_idx(v));
		}
	for (unsigned i = 0; i < FIO_NR - 1; i++) /* fio's key of a bucket falls in that bucket */
		T_EQ_INT(lst_hist_index(s_fio_val(i)), i);
}

/* A run of two measured intervals and one ramp interval, reads only. */
static json_t *s_json(const struct lst_bench_fio *f, const struct lst_dir_stats *tot,
		      const struct lst_job_depths *depths)
{
	struct rusage ru = { 0 };
	struct lst_bench_disk disk = { 0 };
	json_t *iv =
		json_pack("[{s:b, s:{s:f, s:f}}, {s:b, s:{s:f, s:f}}, {s:b, s:{s:f, s:f}}]", "ramp",
			  1, "read", "iops", 9000.0, "mibps", 1.0, "ramp", 0, "read", "iops", 100.0,
			  "mibps", 2.0, "ramp", 0, "read", "iops", 300.0, "mibps", 4.0);
	struct lst_bench_fio_run r = { .tot = tot,
				       .depths = depths,
				       .secs = 2,
				       .intervals = iv,
				       .ru0 = &ru,
				       .ru1 = &ru,
				       .disk = &disk,
				       .options = json_object() };
	json_t *o = lst_bench_fio_json(f, &r);

	json_decref(iv);
	return o;
}

static void test_json(void)
{
	static struct lst_dir_stats tot[LST_DIR_N];
	static const unsigned long long vals[] = { 100, 5000, 123456, 9999999, 9999999 };
	static struct lst_job_depths depths;
	struct lst_bench_fio f = { .format = LST_BENCH_FIO_JSONPLUS, .name = "j" };
	json_t *o, *rd, *bins, *job, *m;

	/* three I/Os submitted at depth 1, one at depth 5 (fio's bin "4"); one submit of one
	 * I/O, one of three (both "4"); the read's slat 1000 and 3000 ns */
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&depths.slat[d]);
	depths.level[0] = 3;
	depths.level[2] = 1;
	depths.submit[1] = 2;
	depths.complete[1] = 4;
	lst_hist_record(&depths.slat[LST_DIR_READ], 1000);
	lst_hist_record(&depths.slat[LST_DIR_READ], 3000);

	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&tot[d].lat);
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		lst_hist_record(&tot[LST_DIR_READ].lat, vals[i]);
	tot[LST_DIR_READ].ios = 5;
	tot[LST_DIR_READ].bytes = 5 * 4096;
	o = s_json(&f, tot, &depths);
	T_EQ_STR(json_string_value(
			 json_object_get(json_array_get(json_object_get(o, "jobs"), 0), "jobname")),
		 "j");
	rd = json_object_get(json_array_get(json_object_get(o, "jobs"), 0), "read");
	bins = json_object_get(json_object_get(rd, "clat_ns"), "bins");
	T_EQ_INT(json_object_size(bins), 4);
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		char key[32];

		snprintf(key, sizeof(key), "%llu", s_fio_val(s_fio_idx(vals[i])));
		T_EQ_INT(json_integer_value(json_object_get(bins, key)), i >= 3 ? 2 : 1);
	}
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(rd, "clat_ns"), "N")), 5);
	T_ASSERT(json_object_get(json_object_get(rd, "clat_ns"), "percentile"));
	T_ASSERT(!json_object_get(json_object_get(rd, "lat_ns"), "percentile"));
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(rd, "slat_ns"), "N")), 2);
	T_NEAR(json_real_value(json_object_get(json_object_get(rd, "slat_ns"), "mean")), 2000.0,
	       1e-9);
	job = json_array_get(json_object_get(o, "jobs"), 0);
	m = json_object_get(job, "iodepth_level");
	T_NEAR(json_real_value(json_object_get(m, "1")), 75.0, 1e-9);
	T_NEAR(json_real_value(json_object_get(m, "4")), 25.0, 1e-9);
	T_NEAR(json_real_value(json_object_get(m, ">=64")), 0.0, 1e-9);
	T_NEAR(json_real_value(json_object_get(json_object_get(job, "iodepth_submit"), "4")), 100.0,
	       1e-9);
	T_NEAR(json_real_value(json_object_get(json_object_get(job, "iodepth_complete"), "4")),
	       100.0, 1e-9);
	/* the ramp's 9000 IOPS left out; bw in KiB/s */
	T_EQ_INT(json_integer_value(json_object_get(rd, "iops_min")), 100);
	T_EQ_INT(json_integer_value(json_object_get(rd, "iops_max")), 300);
	T_NEAR(json_real_value(json_object_get(rd, "iops_mean")), 200.0, 1e-9);
	T_EQ_INT(json_integer_value(json_object_get(rd, "iops_samples")), 2);
	T_EQ_INT(json_integer_value(json_object_get(rd, "bw_max")), 4096);
	T_EQ_INT(json_integer_value(json_object_get(rd, "runtime")), 2000);
	T_EQ_INT(json_integer_value(json_object_get(rd, "io_bytes")), 5 * 4096);
	T_EQ_INT(json_array_size(json_object_get(o, "disk_util")), 0);
	json_decref(o);

	f.format = LST_BENCH_FIO_JSON; /* json: no bins */
	o = s_json(&f, tot, &depths);
	rd = json_object_get(json_array_get(json_object_get(o, "jobs"), 0), "read");
	T_ASSERT(!json_object_get(json_object_get(rd, "clat_ns"), "bins"));
	json_decref(o);
}

static void test_flags(void)
{
	struct lst_bench_fio f = { 0 };
	const char *opt, *val;
	bool wants;
	lst_err err;

	T_EQ_INT(lst_bench_fio_flag(&f, "output_format", "json+", &wants, &opt, &val, &err), 1);
	T_EQ_INT(f.format, LST_BENCH_FIO_JSONPLUS);
	T_ASSERT(!opt);
	T_EQ_INT(lst_bench_fio_flag(&f, "output_format", "terse", &wants, &opt, &val, &err),
		 -EINVAL);
	T_CONTAINS(err.msg, "terse");
	T_EQ_INT(lst_bench_fio_flag(&f, "name", NULL, &wants, &opt, &val, &err), 1);
	T_ASSERT(wants); /* the value is the next argument */
	T_EQ_INT(lst_bench_fio_flag(&f, "readwrite", "randread", &wants, &opt, &val, &err), 1);
	T_EQ_STR(opt, "rw");
	T_EQ_STR(val, "randread");
	T_EQ_INT(lst_bench_fio_flag(&f, "percentile_list", "99.9:50", &wants, &opt, &val, &err), 1);
	T_EQ_INT(f.npcts, 2);
	T_NEAR(f.pcts[0], 50.0, 0);
	T_EQ_INT(lst_bench_fio_flag(&f, "percentile_list", "0:50", &wants, &opt, &val, &err),
		 -EINVAL);
	T_EQ_INT(lst_bench_fio_flag(&f, "time_based", "2", &wants, &opt, &val, &err), -EINVAL);
	T_EQ_INT(lst_bench_fio_flag(&f, "write_lat_log", "x", &wants, &opt, &val, &err), -EINVAL);
	T_CONTAINS(err.msg, "it is fio's;");
	T_EQ_INT(lst_bench_fio_flag(&f, "clat_percentiles", "1", &wants, &opt, &val, &err), 1);
	T_EQ_INT(lst_bench_fio_flag(&f, "description", "a b", &wants, &opt, &val, &err), 1);
	T_ASSERT(!opt);
	T_EQ_INT(lst_bench_fio_flag(&f, "iodepth", "4", &wants, &opt, &val, &err), 0);
	T_EQ_STR(lst_bench_fio_engine("libaio"), "io_uring");
	T_EQ_STR(lst_bench_fio_engine("pvsync2"), "psync");
	T_EQ_STR(lst_bench_fio_engine("null"), "null");
}

int main(void)
{
	test_buckets_are_fios();
	test_json();
	test_flags();
	printf("ok: bench_fio\n");
	return 0;
}
