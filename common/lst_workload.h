/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What one agent runs on one path: the workload, described by one option table.
 *
 * The same table reads `lockstep-agent bench` flags, the `workload:` and `defaults:` maps of a
 * plan, and the job specs on the wire, so a setting means the same thing everywhere and its
 * default, range and help are written once (docs/plan.md is generated from it).
 */
#ifndef LST_WORKLOAD_H
#define LST_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_mix.h"
#include "lst_opt.h"

enum lst_rw {
	LST_RW_READ,  /* sequential read */
	LST_RW_WRITE, /* sequential write */
	LST_RW_RANDREAD,
	LST_RW_RANDWRITE,
	LST_RW_RANDRW,	 /* random, rwmixread % reads */
	LST_RW_RW,	 /* sequential, rwmixread % reads */
	LST_RW_TRIM,	 /* sequential discards */
	LST_RW_RANDTRIM, /* random discards */
};

enum lst_engine_kind {
	LST_ENGINE_IO_URING,
	LST_ENGINE_PSYNC,
	LST_ENGINE_NULL,
};

enum lst_arrival {
	LST_ARRIVAL_POISSON,
	LST_ARRIVAL_UNIFORM,
};

/* What a job does when an I/O completes with an error (on_io_error). */
enum lst_on_io_error {
	LST_ON_IO_ERROR_STOP,	  /* end the job at the first error (fio's default) */
	LST_ON_IO_ERROR_CONTINUE, /* count it by class and reuse the slot for the next I/O */
};

enum lst_dir {
	LST_DIR_READ,
	LST_DIR_WRITE,
	LST_DIR_N,
};

#define LST_BS_MIN 512
#define LST_BS_MAX (16 * 1024 * 1024)

struct lst_workload {
	int64_t rw;	     /* enum lst_rw */
	int64_t rwmixread;   /* % reads for randrw and rw */
	int64_t bs;	     /* bytes per I/O */
	int64_t iodepth;     /* I/Os in flight per job */
	int64_t jobs;	     /* threads, one ring each */
	int64_t offset;	     /* start of the region on the path, bytes */
	int64_t size;	     /* length of the region; 0 = to the end of the path */
	int64_t runtime;     /* ns of measured time after the ramp; 0 = not time-limited */
	int64_t ramp;	     /* ns before measurement starts (excluded from results) */
	int64_t bytes;	     /* stop after this many bytes in all (all jobs); 0 = no limit */
	int64_t rate_iops;   /* total IOPS across the jobs; 0 = as fast as possible */
	int64_t arrivals;    /* enum lst_arrival, for rate_iops */
	int64_t interval;    /* ns between samples */
	int64_t direct;	     /* O_DIRECT */
	int64_t engine;	     /* enum lst_engine_kind */
	int64_t pattern;     /* write data compresses to this % of its size; 100 = random */
	int64_t seed;	     /* random stream seed; 0 = derived from the clock */
	int64_t poll;	     /* ns a job polls for completions before sleeping (io_uring) */
	int64_t on_io_error; /* enum lst_on_io_error */
	int64_t io_timeout; /* ns an I/O may be in flight before it counts as a timeout; 0 = none */
	int64_t verify;	    /* writes stamp every 4 KiB unit (lst_verify.h), reads check
			     * each unit against the run's journal */
	/* array workloads */
	struct lst_dist dist;	    /* random_distribution: where random I/Os land */
	struct lst_bssplit bssplit; /* block-size mix by share of I/Os (n == 0: bs) */
	int64_t dedupe_percentage;  /* % of written blocks that repeat an earlier one */
	int64_t rwmixtrim;	    /* % of the I/Os of randrw and rw that are trims */
	struct lst_skew skew;	    /* several weighted workloads in the job (lst_mix.h) */
	/* Trace record and replay (lst_trace.h): names of trace files in the agent's trace
	 * folder ("" = none); a replay takes offsets, sizes, directions and times from the trace,
	 * scaled by replay_time_scale (percent of the recorded rate, fio's meaning). */
	char write_iolog[LST_OPT_TEXT_MAX];
	char read_iolog[LST_OPT_TEXT_MAX];
	int64_t replay_time_scale;
};

/* The table, terminated by an entry with a NULL name. */
extern const struct lst_opt lst_workload_opts[];

extern const char *const lst_rw_names[];
extern const char *const lst_engine_names[];
extern const char *const lst_dir_names[];	  /* "read", "write" */
extern const char *const lst_on_io_error_names[]; /* "stop", "continue" */

/* Fill w with the table's defaults. */
void lst_workload_init(struct lst_workload *w);

/*
 * lst_opt_parse for a workload option, taking fio's spelling of a value where it names the same
 * thing (rw=readwrite is rw) and, for a value of fio's that lockstep does not have
 * (ioengine=libaio), failing with a message that says so and what to use instead. Returns 0 or
 * -EINVAL with err set (the field is left as it was).
 */
int lst_workload_parse(const struct lst_opt *o, struct lst_workload *w, const char *text,
		       lst_err *err);

/*
 * Cross-field checks the table cannot express (bs a multiple of 512, offset aligned for direct
 * I/O, size at least one block, ramp 0 or at least one interval, rate_iops at least one per job,
 * and with a known path size: the region inside the path and at least one block per sequential
 * job). No stop condition is needed: without runtime and bytes a run makes one pass over its
 * region. Returns 0 or -EINVAL with err naming the setting. path_size is the path's size in
 * bytes, or 0 when not known yet (the null engine never checks it).
 */
int lst_workload_check(const struct lst_workload *w, uint64_t path_size, lst_err *err);

/* The largest I/O the workload issues (bs, the largest size of its bssplit mix, or
 * the largest bs of its skew entries): what each slot's buffer holds. */
int64_t lst_workload_bs_max(const struct lst_workload *w);

static inline bool lst_rw_is_random(int64_t rw)
{
	return rw == LST_RW_RANDREAD || rw == LST_RW_RANDWRITE || rw == LST_RW_RANDRW ||
	       rw == LST_RW_RANDTRIM;
}

/* Whether the workload changes data (a trim discards it: it is a write for disk safety). */
static inline bool lst_rw_writes(int64_t rw, int64_t rwmixread)
{
	return rw == LST_RW_WRITE || rw == LST_RW_RANDWRITE || rw == LST_RW_TRIM ||
	       rw == LST_RW_RANDTRIM ||
	       ((rw == LST_RW_RANDRW || rw == LST_RW_RW) && rwmixread < 100);
}

/* Percentage of reads the workload issues (100 for read, 0 for write and trim; with a skew,
 * the entries' weighted by their shares, rounded). */
int lst_workload_read_pct(const struct lst_workload *w);

/* Whether the workload changes data: lst_rw_writes of its rw, or with a skew, of any entry.
 * Every disk-safety decision (may this job run on this path?) asks this. */
bool lst_workload_writes(const struct lst_workload *w);

#endif
