/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run: every job of one phase point on this agent, over one or more paths, started together at
 * one instant and reported as one stream of samples, interval by interval.
 *
 * The caller opens the paths (the daemon through the disk-safety checks, the bench directly),
 * builds a run, starts it at t0 on this host's monotonic clock, and calls lst_run_collect()
 * whenever lst_run_eventfd() is readable: collect merges the jobs' samples of each interval and
 * hands each complete interval to a callback, in order. Merging happens on the caller's thread;
 * jobs never wait for it.
 *
 * For every path on a block device the run also reads the device's own counters
 * (/sys/class/block/NAME/stat) when it starts and when it hands over each interval, on the
 * collecting thread, so the jobs never touch sysfs: lst_run_devstats() gives the deltas that go
 * with the interval being handed over. Their sum over a point is what the device counted from
 * the start to the last interval, which is handed over once every job has drained.
 */
#ifndef LST_RUN_H
#define LST_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_job.h"
#include "lst_sample.h"
#include "lst_trace.h"
#include "lst_verify.h"
#include "lst_workload.h"

struct lst_run_path {
	int fd;		       /* open, borrowed: the run never closes it; -1 for null */
	uint64_t size;	       /* bytes addressable on the path */
	struct lst_workload w; /* the workload, its region within the path */
	const char *name;      /* for messages */
	/* with w.verify: a write's stamps carry target, agent, path and gen (the LBA,
	 * time and index are the job's); a read checks against map (borrowed until the run is
	 * destroyed; NULL = no journal, as bench --verify) with target */
	struct lst_stamp stamp;
	const struct lst_verify_map *map;
	/* bench --offset-log: each issued I/O's offset as a little-endian u64
	 * (borrowed, shared by the path's jobs; NULL = none) */
	FILE *offset_log;
	/* w.write_iolog set: keep at most rec_max records of the path's I/Os (split
	 * evenly over its jobs; lst_run_record_max is the usual bound); 0 = do not record */
	size_t rec_max;
	/* w.read_iolog set: the trace to replay (borrowed until the run is destroyed;
	 * checked by the caller with lst_trace_fits); NULL = generate I/Os as usual */
	const struct lst_trace *replay;
	/* count fio's depth maps and slat in each job (bench's fio JSON, lst_run_depths); false:
	 * nothing is spent on them per I/O, as a plan's run reports neither */
	bool depths;
};

typedef struct lst_run lst_run;

/*
 * Validate the workloads against their paths, pick the engine (falling back from io_uring to
 * psync, with a warning, when io_uring is blocked), and prepare every job's slots and buffers.
 * All paths must share interval, ramp and runtime (one timeline). Returns NULL with err on a
 * problem; nothing has been read or written then.
 */
lst_run *lst_run_new(const struct lst_run_path *paths, size_t n, lst_err *err);

/*
 * The same, giving up with -ECANCELED (NULL, err set, everything freed) soon after *cancel
 * becomes non-zero: it is read between jobs and between chunks of each job's buffer fill. For
 * a caller that prepares a run on a worker thread and may stop wanting it. cancel may be NULL.
 */
lst_run *lst_run_new_cancellable(const struct lst_run_path *paths, size_t n,
				 const _Atomic int *cancel, lst_err *err);

/* Stop (if running), wait for every job, free. Safe on NULL and twice. */
void lst_run_destroy(lst_run **p);

/* A warning for the user ("" when none), e.g. the psync fallback. Borrowed. */
const char *lst_run_warning(const lst_run *run);

/* The engine in use (enum lst_engine_kind). */
int lst_run_engine(const lst_run *run);

/* Start every job; they sleep until t0, then run. Returns 0 or -errno (a thread could not be
 * made: the jobs already started are stopped, and lst_run_destroy joins them). */
int lst_run_start(lst_run *run, int64_t t0, lst_err *err);

/* Readable when a job has published a sample or finished. */
int lst_run_eventfd(const lst_run *run);

typedef void (*lst_run_sample_fn)(const lst_sample *s, void *arg);

/*
 * Drain the jobs' sample rings and call fn for every interval all jobs have completed, in order;
 * the final one carries LST_SAMPLE_LAST. Returns true once the last sample has been handed over
 * (the run is over), false otherwise. The sample passed to fn is borrowed for the call.
 */
bool lst_run_collect(lst_run *run, lst_run_sample_fn fn, void *arg);

/*
 * The device counters of the interval being handed over, for use inside the lst_run_collect
 * callback: one entry per path on a block device (path: its index in the paths given to
 * lst_run_new), *n of them. Borrowed, valid until the callback returns. A path whose counters
 * could not be read at that boundary is left out of that interval, and its next delta spans
 * from the last boundary it was read.
 */
const struct lst_devstat *lst_run_devstats(const lst_run *run, uint32_t *n);

/*
 * The interval being handed over split by path, for use inside the lst_run_collect callback:
 * with more than one path, one part per path given to lst_run_new (index = path, part.path =
 * index), *n = that number; with one path, *n = 0 (the whole sample is that path's) and NULL.
 * A part's interval and flags are the whole sample's (LST_SAMPLE_LAST included); its start and
 * end are the union of its own jobs' samples, 0/0 when its jobs had none for the interval (as
 * the whole sample's are when none had). The parts' counts and histograms add up exactly to
 * the whole sample's. Borrowed, valid until the callback returns.
 */
const struct lst_sample_part *lst_run_parts(const lst_run *run, uint32_t *n);

/* Ask every job to stop issuing, drain what is in flight and finish. Returns at once. */
void lst_run_stop(lst_run *run);

/* Earliest and latest instant a job was released; both 0 while some job still waits for t0.
 * Safe to call while the run is going. */
void lst_run_started(const lst_run *run, int64_t *first, int64_t *last);

/* The first job error, if any: returns 0 or -errno and fills err. */
int lst_run_error(const lst_run *run, lst_err *err);

/* ---- streams, watermarks and bad units (lst_verify.h) */

/* Jobs in the run (laid out path after path, in the order of the paths given). */
size_t lst_run_njobs(const lst_run *run);

/* Job i's path (its index in the paths given to lst_run_new) and its I/O sequence: what a
 * replay of it needs (the seed is fixed when the run is made). Borrowed. */
uint32_t lst_run_job_path(const lst_run *run, size_t i);
const struct lst_stream *lst_run_stream(const lst_run *run, size_t i);

/* Does job i write stamps (a verified write)? */
bool lst_run_job_verify_write(const lst_run *run, size_t i);

/*
 * Job i's watermarks as of the interval lst_run_collect is handing over (use inside its
 * callback; the last interval's are final: low == issued unless I/O was given up on). All zero
 * before its first sample, and for jobs that do not stamp.
 */
const struct lst_job_mark *lst_run_mark(const lst_run *run, size_t i);

/*
 * The bad units job i kept (*n of them, at most LST_JOB_BAD_MAX) and how many it found in all
 * (*total). Only once lst_run_collect has returned true (every job has finished). Borrowed.
 */
const struct lst_job_bad *lst_run_bad(const lst_run *run, size_t i, size_t *n, uint64_t *total);

/* ---- trace record and replay (lst_trace.h) */

/*
 * How many records a recording of w (write_iolog set) may need, at most LST_TRACE_MAX_RECORDS:
 * a rate-limited timed point's I/Os with a quarter to spare, a byte budget's I/Os at 512 bytes
 * each, else LST_TRACE_MAX_RECORDS. 0 when w does not record. The caller counts
 * LST_TRACE_RECORD bytes each against its memory cap and may give lst_run_path less.
 */
size_t lst_run_record_max(const struct lst_workload *w);

/*
 * Once the run is over (lst_run_collect returned true): merge the records of path's jobs by
 * time (a tie keeps job order) and write them to file with lst_trace_write, lbs and path_size
 * in its header. *nrec gets the records written, *dropped those the jobs could not keep
 * (their buffers were full). Returns 0 or -errno with err naming the file.
 */
int lst_run_trace_write(const lst_run *run, uint32_t path, const char *file, uint32_t lbs,
			uint64_t path_size, size_t *nrec, uint64_t *dropped, lst_err *err);

/* Every job's depth maps and slat added up (struct lst_job_depths, for bench's fio JSON);
 * call once the run has finished. */
void lst_run_depths(const lst_run *run, struct lst_job_depths *out);

/* A replay's records issued late (no free slot at their time) over path's jobs. */
uint64_t lst_run_replay_late(const lst_run *run, uint32_t path);

#endif
