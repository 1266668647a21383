/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Jobs: one I/O worker thread each, with its own engine state (one io_uring ring), its own slots
 * and buffers, its own random streams, and its own sample ring. Nothing is shared with other jobs
 * in the hot path; the only cross-thread traffic is the sample ring (single producer: the job,
 * single consumer: the agent's main thread) and the stop flag.
 *
 * Time: the job sleeps until the run's start instant t0, then closes interval k at
 * t0 + (k + 1) * interval on its own clock, so interval k means the same window on every job and,
 * once the coordinator has picked t0 per agent, on every agent.
 *
 * Latency: taken per batch, not per I/O. The submit instant is read once for everything a submit
 * call sends, the completion instant once for everything a reap returns; I/Os that share both
 * share their latency and are recorded with one histogram update. A rate-limited job measures from
 * the intended issue time instead, so a stalled device is not hidden (coordinated omission).
 *
 * Health: every error completion is counted by class (lst_err_class_of) in the
 * interval's sample; on_io_error says whether the first one ends the job or the slot is simply
 * reused. At each interval boundary the job thread scans its iodepth slots for what is still in
 * flight (count, oldest age at the boundary) and counts, once per I/O, those past io_timeout.
 * A job that stops waits for what is in flight at most max(io_timeout, 5 s), then ends with an
 * error naming the stuck slots rather than hanging. The psync engine does its I/O inside
 * queue(), on the job thread: nothing is ever seen in flight at a boundary, and a pread/pwrite
 * that never returns blocks the job (and its boundaries) until it does. Stalls are measured
 * with io_uring.
 *
 * I/O sequence and data integrity: every job takes its offsets and directions from
 * lst_ioseq (lst_verify.h) over its struct lst_stream, whose seed the run fixes before the job
 * starts, so the stream is reproducible; Poisson gaps draw from their own generator, so the
 * sequence never depends on timing. A verified write stamps every 4 KiB unit of its buffer just
 * before it is queued (lst_stamp_put) and publishes its watermarks (issued, low, werr) with each
 * interval's sample. A verifying read checks every unit of every completed read
 * (lst_verify_check) on the job thread after the completion's latency was taken, counts the
 * results in the sample and keeps the first LST_JOB_BAD_MAX bad units for the daemon.
 *
 * Trace record and replay (lst_trace.h). A recording job (rec set) appends one record
 * per issued I/O (its submit instant since t0, offset, length, op) to its own buffer, sized at
 * lst_job_init and never grown: once full it counts what it could not keep and the I/O goes
 * on. A job that does not record pays one predictable branch per I/O. A replaying job (replay
 * set) takes each I/O from the trace instead of its sequence: record i is due at
 * t0 + t_i * 100 / replay_time_scale, paced as a rate-limited job is (its latency measured
 * from that instant); a record that finds no free slot at its time goes out when one frees
 * and is counted late. The job ends once the last record has completed (or at runtime).
 */
#ifndef LST_JOB_H
#define LST_JOB_H

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_sample.h"
#include "lst_trace.h"
#include "lst_verify.h"
#include "lst_workload.h"

struct lst_job;

/* One I/O slot. The job owns it; an engine holds it between queue() and reap(). */
struct lst_io {
	uint64_t offset;
	void *buf;
	uint64_t seq; /* its index in the job's I/O sequence (lst_ioseq) */
	uint32_t len;
	uint32_t idx;	   /* slot index, also the registered-buffer index */
	int32_t res;	   /* bytes transferred or -errno, set by the engine */
	uint8_t dir;	   /* enum lst_dir */
	bool busy;	   /* handed to the engine and not reaped yet */
	bool timed_out;	   /* already counted once as passing io_timeout */
	bool trim;	   /* a discard of [offset, offset + len) (dir is write) */
	int64_t issue_ns;  /* set by the job (batch stamp or intended time); an engine that
				 * stamps per I/O may set it when it is still 0 */
	int64_t done_ns;   /* 0: the job stamps the reap instant; engines that complete
				 * synchronously stamp it themselves */
	int64_t submit_ns; /* when the job handed it to the engine (ages in flight) */
};

/* A slot is one cache line: the hot loop walks them. */
_Static_assert(sizeof(struct lst_io) <= 64, "struct lst_io fits a cache line");

/*
 * An engine is an ops table. init/exit run on the job's thread. queue() prepares one I/O (an
 * engine may also complete it at once); submit() sends what was queued and waits until at least
 * wait_nr completions are ready or timeout_ns passes (0 = do not wait), returning 0 or -errno
 * (a timeout is not an error); reap() hands back up to max completed I/Os without waiting.
 */
struct lst_engine_ops {
	const char *name;
	int (*init)(struct lst_job *job, lst_err *err);
	void (*exit)(struct lst_job *job);
	void (*queue)(struct lst_job *job, struct lst_io *io);
	int (*submit)(struct lst_job *job, unsigned wait_nr, int64_t timeout_ns);
	unsigned (*reap)(struct lst_job *job, struct lst_io **out, unsigned max);
};

extern const struct lst_engine_ops lst_engine_uring;
extern const struct lst_engine_ops lst_engine_psync;
extern const struct lst_engine_ops lst_engine_null;

/* Probe whether io_uring can be used in this process (containers and seccomp often block it).
 * Returns 0, or -errno with err saying why. */
int lst_engine_uring_probe(lst_err *err);

#define LST_JOB_RING_SLOTS 8

#define LST_JOB_DEPTH_BINS 7 /* fio's: 1, 2, 4, 8, 16, 32, >=64 (and 0, 4, ... 64, >64) */

/*
 * What fio reports as its I/O depth maps and submission latency, counted by the job thread
 * for bench's fio JSON (nothing of it travels in samples):
 * - level[b]: I/Os handed to the engine while the depth they made (I/Os in flight, them
 *   included) was in bin b: 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64 and more (fio's io_u_map);
 * - submit[b]: submit calls by the I/Os each carried: 0, 1-4, 5-8, 9-16, 17-32, 33-64, more;
 * - complete[b]: reaps that found completions, by how many: the same bins (0 never counted);
 * - slat[dir]: ns from a read's or write's stamp to the return of the engine call that handed
 *   it to the kernel, for I/Os whose call did not also wait for completions
 *   (lst_job.submitted_ns); trims are left out, as they have no latency histogram.
 */
struct lst_job_depths {
	uint64_t level[LST_JOB_DEPTH_BINS];
	uint64_t submit[LST_JOB_DEPTH_BINS];
	uint64_t complete[LST_JOB_DEPTH_BINS];
	lst_hist slat[LST_DIR_N];
};

/* Empty counts and histograms. */
void lst_job_depths_init(struct lst_job_depths *d);

/* Add b's counts and histogram to a. */
void lst_job_depths_add(struct lst_job_depths *a, const struct lst_job_depths *b);

/* Single-producer single-consumer ring of samples: the job fills slot[head % N] in place and
 * publishes it by advancing head; the consumer reads slots below head and advances tail. */
/* A verified write job's watermarks (lst_verify.h): I/Os 0..low-1 completed, 0..issued-1
 * issued, werr of its writes completed with an error. */
struct lst_job_mark {
	uint64_t low, issued, werr;
};

/* Single-producer single-consumer ring of samples: the job fills slot[head % N] in place (and
 * mark[head % N], the watermarks at the sample's end) and publishes it by advancing head; the
 * consumer reads slots below head and advances tail. */
struct lst_sample_ring {
	_Atomic uint64_t head;
	_Atomic uint64_t tail;
	lst_sample slot[LST_JOB_RING_SLOTS];
	struct lst_job_mark mark[LST_JOB_RING_SLOTS];
};

#define LST_JOB_BAD_MAX 1024 /* bad units a verifying job keeps (= LST_BAD_PER_POINT) */

/* One bad unit a verifying read found (the daemon turns it into a struct lst_bad_unit). */
struct lst_job_bad {
	uint64_t offset;	/* bytes, on the path */
	uint32_t kind;		/* enum lst_verify_kind */
	uint32_t expected;	/* the generation the journal expects (0 = none) */
	uint32_t stamp_kind;	/* enum lst_stamp_kind of what was read */
	struct lst_stamp found; /* the stamp as read */
};

/* Skew: one entry of the job's workload mix as the run laid it out (lst_run.c). */
struct lst_job_skew {
	struct lst_stream stream; /* the entry's region (a sequential entry's slice for this job),
				   * bs, read share and its own seed */
	uint32_t share_end;	  /* entries 0..i take the draws (of 100) below this */
	bool trim;		  /* rw trim or randtrim */
};

struct lst_job_skew_state; /* the loop's per-entry sequences (lst_job.c) */

struct lst_job {
	/* Set by the run before the thread starts; read-only afterwards. */
	unsigned id;
	int fd;
	char name[128]; /* the path, for error messages */
	struct lst_workload w;
	const struct lst_engine_ops *ops;
	uint64_t lo, hi; /* region [lo, hi) this job addresses, bs-aligned */
	uint64_t budget; /* bytes to issue before stopping; 0 = no limit */
	double rate;	 /* this job's IOPS, 0 = unlimited */
	int64_t t0;	 /* start instant, monotonic ns */
	int64_t interval;
	int64_t nramp; /* intervals that are ramp */
	int64_t end;   /* stop issuing at this instant; 0 = no time limit */
	int efd;       /* eventfd the job pokes after publishing a sample */
	/* Read by lst_job_init between chunks of the buffer fill: non-zero = give up (the
	 * daemon's PREPARE worker was cancelled). NULL = never. */
	const _Atomic int *cancel;
	/* Set by the run: the I/O sequence (seed fixed at layout), the seed of the
	 * Poisson gaps and of the data, and verify: what stamps carry, or the map reads check
	 * against (borrowed, NULL = no journal: a good stamp of this target and LBA is ok). */
	struct lst_stream stream;
	uint64_t gap_seed, data_seed;
	bool verify_write, verify_read;
	struct lst_stamp stamp; /* target, agent, path, gen */
	const struct lst_verify_map *map;
	/* bench --offset-log: every issued I/O's offset goes here (borrowed; NULL =
	 * none). A debug aid: it costs a buffered write per I/O. */
	FILE *offset_log;
	/* Trace record and replay: rec holds this job's records (rec_cap of them; NULL =
	 * not recording), written by the job thread, read once `finished` is set; rec_dropped
	 * counts those that did not fit. replay is the trace this job issues (borrowed; NULL =
	 * none); replay_late counts records issued after their time for want of a free slot. */
	struct lst_trace_rec *rec;
	size_t rec_cap, nrec;
	uint64_t rec_dropped;
	const struct lst_trace *replay;
	uint64_t replay_late;
	/* Skew (w.skew.n > 0): the entries' streams, and their sequence state
	 * (allocated by lst_job_init). nskew == 0: the job's own stream. */
	unsigned nskew;
	struct lst_job_skew skew[LST_SKEW_MAX];
	struct lst_job_skew_state *skew_state;

	/* Engine state, owned by the engine. */
	void *engine;
	/* Set by the engine's submit when count_depths: when the call that handed the queued I/Os
	 * to the kernel returned (monotonic ns), left 0 when that call also waited for
	 * completions, which leaves no instant of the submission's own (the job clears it before
	 * each submit). */
	int64_t submitted_ns;
	/* fio's depth maps and slat (struct lst_job_depths), counted only when count_depths (the
	 * path's `depths`): written by the job thread only, read once `finished` is set. */
	bool count_depths;
	struct lst_job_depths depths;

	/* Slots and buffers. */
	unsigned depth;
	struct lst_io *ios;
	uint8_t *bufs;	       /* depth * bs, aligned */
	struct lst_io **lists; /* 3 * depth: the job loop's free, queued and done lists */

	/* Cross-thread. */
	_Atomic int stop;	    /* set by the main thread: stop issuing, drain, finish */
	_Atomic int finished;	    /* set by the job after its last sample is published */
	_Atomic int64_t started_ns; /* when the job was released; 0 until then */
	int error;		    /* 0 or -errno when the job failed; err says why */
	/* The last interval the job closed, written before its LAST sample is published (read
	 * after that sample): a LAST sample that also holds later intervals (marked late) has
	 * an earlier interval number of its own. */
	int64_t last_k;
	bool stuck; /* ended with I/O still in flight: its buffers are never freed */
	lst_err err;
	struct lst_sample_ring ring;
	pthread_t thread;
	/* A verifying read's bad units: the first LST_JOB_BAD_MAX in bad[], all counted in nbad;
	 * written by the job thread only, read once `finished` is set. */
	struct lst_job_bad *bad;
	uint64_t nbad;
};

/*
 * Prepare a job's slots and buffers (allocates and fills them; slow for large buffers, so the
 * daemon calls it from a worker thread, never its reactor). Returns 0, -ECANCELED when
 * job->cancel was set during the fill (the buffers are freed again), or -errno.
 * Everything the job loop needs is allocated here: a job thread allocates nothing but what its
 * engine's init asks for, and an engine's init reports a failed allocation as -ENOMEM. So a
 * host short of memory (many jobs under an address-space limit) fails the start cleanly rather
 * than aborting the agent from a job thread.
 */
int lst_job_init(struct lst_job *job, lst_err *err);
void lst_job_exit(struct lst_job *job);

/* Thread entry: runs the job to completion. */
void *lst_job_main(void *arg);

#endif
