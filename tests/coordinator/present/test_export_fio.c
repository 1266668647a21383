/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_export_fio's bins against fio's own bucket arithmetic, written here from fio's stat.c
 * (plat_val_to_idx, plat_idx_to_val with FIO_IO_U_PLAT_BITS 6 and FIO_IO_U_PLAT_GROUP_NR 29):
 * every value lands in the bucket of the same index in both schemes, every bin key is fio's
 * value of that index, the last key is the one fio_jsonplus_clat2csv knows as its largest
 * (17112760320 ns), and what lies past fio's buckets (lockstep's longer range and overflow) is
 * counted in fio's last bin, as fio counts such a value. The job object holds the counts, and a
 * direction without I/O has no "bins" (fio_jsonplus_clat2csv fails on an empty one).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_export_fio.h"
#include "lst_test.h"

#define S_PLAT_BITS 6
#define S_PLAT_VAL (1u << S_PLAT_BITS)
#define S_PLAT_NR (29 * S_PLAT_VAL)

/* fio's plat_val_to_idx() */
static unsigned s_fio_idx(unsigned long long val)
{
	unsigned msb = val ? 63u - (unsigned)__builtin_clzll(val) : 0, error_bits, base, offset,
		 idx;

	if (msb <= S_PLAT_BITS)
		return (unsigned)val;
	error_bits = msb - S_PLAT_BITS;
	base = (error_bits + 1) << S_PLAT_BITS;
	offset = (S_PLAT_VAL - 1) & (unsigned)(val >> error_bits);
	idx = base + offset;
	return idx < S_PLAT_NR ? idx : S_PLAT_NR - 1;
}

/* fio's plat_idx_to_val() */
static unsigned long long s_fio_val(unsigned idx)
{
	unsigned error_bits, k;
	unsigned long long base;

	if (idx < (S_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> S_PLAT_BITS) - 1;
	base = 1ull << (error_bits + S_PLAT_BITS);
	k = idx % S_PLAT_VAL;
	return base + (unsigned long long)((k + 0.5) * (double)(1ull << error_bits));
}

static json_int_t s_bin(json_t *bins, unsigned long long val)
{
	char key[32];

	snprintf(key, sizeof(key), "%llu", val);
	return json_integer_value(json_object_get(bins, key));
}

int main(void)
{
	static lst_hist h;
	static struct lst_export_job j;
	struct lst_export_point pt = {
		.phase = "p", .point = 3, .rw = "randrw", .bs = 4096, .iodepth = 8, .jobs = 1
	};
	json_t *bins, *job;

	T_EQ_INT(LST_FIO_PLAT_NR, S_PLAT_NR);
	/* the same bucket for every value up to fio's range */
	for (unsigned long long v = 0; v < (1ull << 34); v = v < 4096 ? v + 1 : v + v / 97 + 1)
		T_EQ_INT(lst_hist_index(v), s_fio_idx(v));
	for (unsigned i = 0; i < S_PLAT_NR; i++)
		T_EQ_U64(lst_export_fio_bin_value(i), s_fio_val(i));
	T_EQ_U64(lst_export_fio_bin_value(S_PLAT_NR - 1), 17112760320ull);

	/* values across the range, one past fio's buckets, one past lockstep's */
	lst_hist_init(&h);
	lst_hist_record_n(&h, 5, 3);
	lst_hist_record_n(&h, 200, 2);
	lst_hist_record(&h, 1234567);
	lst_hist_record(&h, 30ull * 1000 * 1000 * 1000); /* 30 s: past fio's 17.2 s */
	lst_hist_record(&h, 80ull * 1000 * 1000 * 1000); /* 80 s: lockstep's overflow */
	bins = lst_export_fio_bins(&h);
	T_EQ_INT(json_object_size(bins), 4);
	T_EQ_INT(s_bin(bins, 5), 3);
	T_EQ_INT(s_bin(bins, s_fio_val(s_fio_idx(200))), 2);
	T_EQ_INT(s_bin(bins, s_fio_val(s_fio_idx(1234567))), 1);
	T_EQ_INT(s_bin(bins, 17112760320ull), 2);
	json_decref(bins);

	/* a job: write with I/O, read without */
	snprintf(j.name, sizeof(j.name), "a");
	j.seconds = 2;
	lst_hist_init(&j.dir[LST_DIR_READ].lat);
	lst_hist_copy(&j.dir[LST_DIR_WRITE].lat, &h);
	j.dir[LST_DIR_WRITE].ios = h.count;
	j.dir[LST_DIR_WRITE].bytes = h.count * 4096;
	job = lst_export_fio_job(&pt, &j);
	T_EQ_STR(json_string_value(json_object_get(job, "jobname")), "p:3");
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(job, "write"), "total_ios")),
		 (json_int_t)h.count);
	T_NEAR(json_real_value(json_object_get(json_object_get(job, "write"), "iops")),
	       h.count / 2.0, 1e-9);
	T_ASSERT(
		json_object_get(json_object_get(json_object_get(job, "write"), "clat_ns"), "bins"));
	T_ASSERT(
		!json_object_get(json_object_get(json_object_get(job, "read"), "clat_ns"), "bins"));
	T_EQ_STR(json_string_value(json_object_get(json_object_get(job, "job options"), "iodepth")),
		 "8");
	json_decref(job);
	printf("export_fio: ok\n");
	return 0;
}
