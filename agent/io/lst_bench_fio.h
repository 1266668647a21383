/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's side of `lockstep-agent bench`: the fio flags a pasted fio command line carries that
 * change nothing here or map onto one of ours (each taken with one note line on stderr), the fio
 * flags still refused with what does their job here, and fio's JSON output shape
 * (--output-format=json or json+) for the run's one job group.
 *
 * fio's JSON is built from what bench measured: the totals' histograms (lockstep's buckets are
 * fio's plat buckets, 64 per power of two with the same indexes, so json+'s bins are exact),
 * the per-interval samples (iops_ and bw_ min/max/mean/stddev), the process's rusage, and the
 * block layer's counters of the device under the target (disk_util). lockstep stamps an I/O
 * once, when it is queued, so its one latency is fio's clat and lat both, and slat is zero.
 */
#ifndef LST_BENCH_FIO_H
#define LST_BENCH_FIO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "lst_err.h"
#include "lst_job.h"
#include "lst_sample.h"

enum lst_bench_format {
	LST_BENCH_SUMMARY,     /* lockstep's summary (fio's --output-format=normal) */
	LST_BENCH_JSON,	       /* lockstep's own JSON (--json) */
	LST_BENCH_FIO_JSON,    /* fio's JSON shape */
	LST_BENCH_FIO_JSONPLUS /* fio's json+: clat_ns gains its bins */
};

#define LST_BENCH_FIO_PCTS_MAX 20 /* fio's FIO_IO_U_LIST_MAX_LEN */

/* What the fio flags set; zero it, then lst_bench_fio_flag() for each. */
struct lst_bench_fio {
	enum lst_bench_format format;	     /* set by --output-format; --json sets it in bench */
	const char *name;		     /* --name: the job name (borrowed from argv) */
	double pcts[LST_BENCH_FIO_PCTS_MAX]; /* --percentile_list, ascending; none: fio's */
	size_t npcts;
	bool lat_percentiles; /* --lat_percentiles: lat_ns gets the percentile map too */
};

/* The block layer's counters of one device (/sys/block/NAME/stat), at one instant. */
struct lst_bench_disk {
	char name[64];	/* "" when the target has no block device behind it */
	char stat[128]; /* /sys/dev/block/MAJ:MIN/stat */
	uint64_t v[11]; /* the first eleven fields, the start values */
	int64_t t_ns;
};

/*
 * A flag of fio's given as --NAME[=VALUE] (NAME with '_' for '-'), value NULL when none was
 * given with '='. Returns 1 when it is one of fio's harmless flags: taken (into f, or name and
 * value rewritten to the lockstep option that means the same, *opt and *val, left NULL when
 * nothing is to be parsed), with one note line on stderr. Returns 0 when it is not one of fio's
 * flags, and -EINVAL with err saying why when it is refused (a flag lockstep has no meaning for,
 * naming what does its job) or its value is bad. *wants_value is set when the flag takes a value
 * and none came with '=': the caller passes the next argument and calls again.
 */
int lst_bench_fio_flag(struct lst_bench_fio *f, const char *name, const char *value,
		       bool *wants_value, const char **opt, const char **val, lst_err *err);

/* The fio flags bench takes and what each does here, for --help (one line each). */
void lst_bench_fio_usage(FILE *f);

/*
 * fio's value of an engine (libaio, posixaio, sync, pvsync, pvsync2) as the lockstep engine that
 * does the same, with a note on stderr; any other text is returned unchanged. Borrowed strings.
 */
const char *lst_bench_fio_engine(const char *text);

/*
 * Find the block device under fd (the device itself, or the one holding the file) and read its
 * counters into d; d->name stays "" when there is none (null engine, tmpfs). Never fails: disk
 * util is left out when the counters cannot be read.
 */
void lst_bench_disk_start(struct lst_bench_disk *d, int fd);

/* The inputs of fio's JSON: bench's measured totals and run facts. */
struct lst_bench_fio_run {
	const struct lst_dir_stats *tot;     /* [LST_DIR_N], measured intervals only */
	const struct lst_job_depths *depths; /* the jobs' depth maps and slat, ramp included */
	double secs;			     /* measured time */
	const json_t *intervals;	     /* bench's interval array (read/write iops, mibps) */
	const struct rusage *ru0, *ru1;
	const struct lst_bench_disk *disk;
	json_t *options; /* the job options, taken (a JSON object of strings) */
	int error;	 /* 0, or the run's -errno */
};

/* fio's JSON object for the run (caller's reference). */
json_t *lst_bench_fio_json(const struct lst_bench_fio *f, const struct lst_bench_fio_run *r);

/*
 * fio's lines the summary lacks, from fio's JSON of the run (lst_bench_fio_json): per-interval
 * iops and bw statistics, latency steps, cpu and disk stats, in fio's wording, to out.
 */
void lst_bench_fio_print(FILE *out, const json_t *fio);

#endif
