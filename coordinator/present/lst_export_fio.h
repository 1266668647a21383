/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A results folder's points in fio's JSON shapes, for the tools that read fio's output
 * (`lockstep export fio`, docs/fio.md "Exporting to fio's JSON").
 *
 * Each point becomes fio json+ output of one job group: the standalone shape ("jobs", one job)
 * for all agents together and for each agent, which fio's own scripts read
 * (fio_jsonplus_clat2csv), and the client/server shape ("client_stats": one entry per agent,
 * then "All clients"), which fio-plot reads. The files are laid out as fio-plot expects a
 * benchmark folder: OUT/PHASE/BS/RW-iodepth-D-numjobs-N.json (client/server), with the
 * standalone files beside them in OUT/PHASE/BS/jobs/ (so that fio-plot's glob of BS/ sees one
 * file per point).
 *
 * Latency buckets map exactly: lst_hist is fio's "plat" scheme (a bucket per ns below 128, then
 * 64 per power of two, with the same index arithmetic), and a bin's key is fio's
 * plat_idx_to_val(), the bucket's midpoint. fio's buckets end at index 1856 (2^34 ns, 17.2 s)
 * where lockstep's go on to 2^36 ns; as fio itself does with a value past its last bucket,
 * lockstep's buckets beyond it and its overflow are counted in fio's last bin.
 *
 * The writer takes plain figures (struct lst_export_point), so it needs no samples reader and
 * nothing networked; the caller adds the agents' histograms up from the folder's samples.
 */
#ifndef LST_EXPORT_FIO_H
#define LST_EXPORT_FIO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lst_err.h"
#include "lst_hist.h"
#include "lst_workload.h"

#define LST_FIO_PLAT_NR 1856 /* fio's FIO_IO_U_PLAT_NR: 29 groups of 64 buckets */

/* A rate's statistics over a job's measured intervals (fio's bw_* and iops_* keys). */
struct lst_export_stat {
	uint64_t n; /* intervals */
	double min, max, sum, sumsq;
};

/* One direction of one job: what its measured (not ramp) intervals add up to. */
struct lst_export_io {
	uint64_t ios;			 /* completed I/Os, errors included */
	uint64_t bytes;			 /* of I/Os without error */
	uint64_t errors;		 /* I/Os that completed with an error */
	lst_hist lat;			 /* completion latency, ns */
	struct lst_export_stat iops, bw; /* per interval, from timeseries.csv: I/O/s, bytes/s */
};

/* Add value v (one interval's rate) to st. */
void lst_export_stat_add(struct lst_export_stat *st, double v);

/* What one agent (or all of them) did in a point. */
struct lst_export_job {
	char name[256]; /* the agent's name, "AGENT:PATH" for a path, or "All clients" */
	double seconds; /* the measured time: first interval's start to last one's end */
	struct lst_export_io dir[LST_DIR_N];
};

/* One point of a phase, with its workload as run.json records it. */
struct lst_export_point {
	char phase[128];
	long point;
	char label[256];
	char rw[16];
	int64_t bs, iodepth, jobs, rwmixread;
	double start_t_s;  /* its start on the run's shared clock (run.json start_t_s) */
	double interval_s; /* its sampling interval */
	size_t nagents;
	struct lst_export_job *agents; /* lst_realloc'ed, the caller's */
	size_t npaths;
	struct lst_export_job *paths; /* each agent's paths where they have their own rows: the
				       * same, "AGENT:PATH" */
	struct lst_export_job all;    /* every agent's added up */
};

/* fio's bin key of lst_hist bucket idx (plat_idx_to_val: the midpoint), for idx below
 * LST_FIO_PLAT_NR. */
uint64_t lst_export_fio_bin_value(unsigned idx);

/*
 * h's buckets as fio's json+ "bins" object ({"VALUE": count}, non-empty buckets only), lockstep's
 * buckets past fio's last and the overflow counted in fio's last bin. A new reference.
 */
json_t *lst_export_fio_bins(const lst_hist *h);

/* One fio job object (json+: clat_ns with percentile and bins) of job j of point pt. A new
 * reference. */
json_t *lst_export_fio_job(const struct lst_export_point *pt, const struct lst_export_job *j);

/* The standalone document of job j ({"fio version", ..., "jobs": [job]}). A new reference. */
json_t *lst_export_fio_standalone(const struct lst_export_point *pt,
				  const struct lst_export_job *j);

/* The client/server document of pt: "client_stats" with one entry per agent ("hostname" its
 * name), one per path ("AGENT:PATH"), then "All clients". A new reference. */
json_t *lst_export_fio_clients(const struct lst_export_point *pt);

/*
 * One line of fio's latency histogram log (log_hist_msec; `NAME_clat_hist.N.log`): "MS, DIR, BS,"
 * then fio's LST_FIO_PLAT_NR bucket counts of h (log_hist_coarseness 0), as
 * lst_export_fio_bins folds them. ms is when the interval ended, dir 0 read, 1 write. Returns 0
 * or -EIO.
 */
int lst_export_fio_hist_line(FILE *f, uint64_t ms, int dir, int64_t bs, const lst_hist *h);

/*
 * Where point k of pts goes under out: returns the folder "OUT/PHASE/BS" (the caller frees it)
 * and puts the file name's stem in stem ("RW-iodepth-D-numjobs-N", "-pPOINT" added for the same
 * workload again in a phase).
 */
char *lst_export_fio_stem(const char *out, const struct lst_export_point *pts, size_t k, char *stem,
			  size_t size);

/*
 * Write every point of pts into folder out (made when missing) as the header describes. Returns
 * 0, or -errno with err naming the file that could not be written. Two points that would take
 * the same file name (a phase that runs the same workload twice) get "-pPOINT" before ".json".
 */
int lst_export_fio_write(const char *out, const struct lst_export_point *pts, size_t n,
			 lst_err *err);

#endif
