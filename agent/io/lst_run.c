/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs: job layout (regions, budgets, rates per job), engine choice, thread start, and the merge
 * of the jobs' per-interval samples into one agent sample per interval, and the device counters
 * (sysfs stat of each block device path) read at each interval boundary by the collecting thread.
 *
 * With more than one path, the merge also adds each job's sample into its path's own part
 * (jobs are laid out path after path, job_path says whose each is), so the parts of an interval
 * sum exactly to the whole sample: the same job samples, added once to each.
 *
 * A recording path's jobs each get an even share of its record bound; at the end the
 * caller has them merged by time into one trace file. A replaying path has one job that takes
 * its I/Os from the trace (no region, budget or rate of its own).
 */
#include "lst_run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_job.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

struct s_reader {
	uint64_t tail;	/* consumer's copy of the ring tail */
	int64_t next_k; /* smallest interval this job may still deliver */
	bool done;	/* its last sample has been merged */
};

/* The sysfs stat fields lockstep keeps, in the file's order. */
enum { S_DEV_FIELDS = 11 };

/* A path on a block device: its sysfs stat file and the counters at the last boundary. */
struct s_devpath {
	uint32_t path; /* index in the paths given to lst_run_new */
	int fd;	       /* /sys/dev/block/MAJ:MIN/stat */
	bool have;     /* last holds a reading */
	uint64_t last[S_DEV_FIELDS];
};

struct lst_run {
	size_t njobs;
	struct lst_job *jobs;
	struct s_reader *readers;
	int engine;
	int efd;
	bool started;	 /* lst_run_start was called */
	size_t nthreads; /* job threads created (the first nthreads jobs), joined by destroy */
	char warning[LST_ERR_MAX];
	int64_t emit_next; /* next interval to hand over */
	int64_t max_k;	   /* highest interval seen */
	bool over;
	lst_sample out;
	size_t npaths;
	uint32_t *job_path;	       /* njobs: index of each job's path */
	struct lst_sample_part *parts; /* npaths, NULL for one path: out split by path */
	bool *part_any;		       /* npaths: the path had a sample in the interval */
	size_t ndev;
	struct s_devpath dev[LST_DEVSTATS_MAX];
	uint32_t nout_dev;
	struct lst_devstat out_dev[LST_DEVSTATS_MAX];
	struct lst_job_mark
		*marks; /* njobs: each job's watermarks as of the interval handed over */
};

static const struct lst_engine_ops *s_ops(int engine)
{
	switch (engine) {
	case LST_ENGINE_PSYNC:
		return &lst_engine_psync;
	case LST_ENGINE_NULL:
		return &lst_engine_null;
	default:
		return &lst_engine_uring;
	}
}

/*
 * Fix job's I/O sequence and its other seeds: the job's rng seed as it always was (w.seed, or
 * the clock, mixed with the job id), now taken when the run is made so a replay knows it.
 */
static void s_seed(struct lst_job *job)
{
	const struct lst_workload *w = &job->w;
	uint64_t seed = w->seed ? (uint64_t)w->seed : (uint64_t)lst_mono_ns();
	int pct = lst_workload_read_pct(w);

	job->stream = (struct lst_stream){
		.seed = (seed ^ 0x9e3779b97f4a7c15ull) * (job->id + 1) | 1,
		.lo = job->lo,
		.hi = job->hi,
		.bs = (uint32_t)w->bs,
		.random = lst_rw_is_random(w->rw) ? 1 : 0,
		.read_pct = (uint32_t)pct,
		.job = job->id,
	};
	job->data_seed = (seed + 0x632be59bd9b4e019ull) * (2 * job->id + 3) | 1;
	job->gap_seed = (seed + 0xd1b54a32d192ed03ull) * (2 * job->id + 5) | 1;
}

/* --debug io: a job's access distribution as received, when it is not uniform. */
static void s_log_dist(const struct lst_job *job)
{
	char text[256];

	if (!job->stream.random || job->w.dist.kind == LST_DIST_RANDOM)
		return;
	lst_log_debug(LST_DBG_IO, "%s: job %u random_distribution %s over %llu blocks of %u bytes",
		      job->name, job->id, lst_dist_format(&job->w.dist, text, sizeof(text)),
		      (unsigned long long)((job->hi - job->lo) / job->stream.bs), job->stream.bs);
}

/*
 * Skew: each entry's stream over its own region of the path (offset, and size or to
 * the path's end): a random entry's whole region, a sequential one's slice j of the jobs, as
 * the job's own region is split. Its seed is the job's, mixed with the entry's index.
 */
static int s_skew_layout(struct lst_job *job, const struct lst_run_path *p, uint64_t j,
			 lst_err *err)
{
	const struct lst_skew *sk = &job->w.skew;
	uint64_t jobs = (uint64_t)job->w.jobs;
	/* the null engine has no path: its end is the job's own region's */
	uint64_t path_end = p->size ? p->size : (uint64_t)(job->w.offset + job->w.size);
	uint32_t end = 0;

	job->nskew = (unsigned)sk->n;
	for (int64_t i = 0; i < sk->n; i++) {
		const struct lst_skew_entry *e = &sk->e[i];
		struct lst_job_skew *k = &job->skew[i];
		uint64_t bs = (uint64_t)e->bs, lo = (uint64_t)e->offset;
		uint64_t region = e->size ? (uint64_t)e->size : (path_end > lo ? path_end - lo : 0);
		uint64_t blocks = region / bs, slice = blocks / jobs * bs;
		bool random = lst_rw_is_random(e->rw);
		struct lst_workload ew;

		lst_workload_init(&ew);
		ew.rw = e->rw;
		ew.rwmixread = e->rwmixread;
		k->stream = (struct lst_stream){
			.seed = (job->stream.seed + 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1)) *
					0xbf58476d1ce4e5b9ull |
				1,
			.lo = random ? lo : lo + j * slice,
			.hi = random ? lo + blocks * bs : lo + (j + 1) * slice,
			.bs = (uint32_t)bs,
			.random = random ? 1 : 0,
			.read_pct = (uint32_t)lst_workload_read_pct(&ew),
			.job = job->id,
		};
		if (k->stream.hi - k->stream.lo < bs)
			return lst_err_set(err, -EINVAL,
					   "%s: skew entry %lld: a job's region of %llu bytes is "
					   "smaller than bs %llu",
					   p->name, (long long)i + 1,
					   (unsigned long long)(k->stream.hi - k->stream.lo),
					   (unsigned long long)bs);
		end += (uint32_t)e->share;
		k->share_end = end;
		k->trim = e->rw == LST_RW_TRIM || e->rw == LST_RW_RANDTRIM;
		lst_log_debug(LST_DBG_IO,
			      "%s: job %u skew entry %lld: %lld%% %s bs %u over [%llu, %llu)",
			      job->name, job->id, (long long)i + 1, (long long)e->share,
			      lst_rw_names[e->rw], k->stream.bs, (unsigned long long)k->stream.lo,
			      (unsigned long long)k->stream.hi);
	}
	return 0;
}

/* Lay out one path's jobs: regions, byte budgets and rates. */
static int s_layout(lst_run *run, const struct lst_run_path *p, size_t first,
		    const _Atomic int *cancel, lst_err *err)
{
	const struct lst_workload *w = &p->w;
	uint64_t bs = (uint64_t)w->bs, jobs = (uint64_t)w->jobs;
	uint64_t lo = (uint64_t)w->offset;
	uint64_t region = w->size ? (uint64_t)w->size : p->size - lo;
	uint64_t blocks = region / bs, slice = blocks / jobs * bs;
	uint64_t total = (uint64_t)w->bytes;

	if (!w->runtime && !w->bytes)
		total = blocks * bs; /* one pass over the region */
	for (uint64_t j = 0; j < jobs; j++) {
		struct lst_job *job = &run->jobs[first + j];

		job->id = (unsigned)(first + j);
		job->fd = p->fd;
		snprintf(job->name, sizeof(job->name), "%s", p->name ? p->name : "?");
		job->w = *w;
		job->efd = run->efd;
		job->ops = s_ops(run->engine);
		if (lst_rw_is_random(w->rw)) {
			job->lo = lo;
			job->hi = lo + blocks * bs;
		} else {
			job->lo = lo + j * slice;
			job->hi = job->lo + slice;
		}
		if (p->replay) { /* the trace says where and when: the path is the region */
			job->lo = 0;
			job->hi = p->size;
			job->replay = p->replay;
		} else if (!w->skew.n && job->hi - job->lo < (uint64_t)lst_workload_bs_max(w))
			return lst_err_set(err, -EINVAL,
					   "%s: bssplit size %lld is larger than a job's region of "
					   "%llu bytes",
					   p->name, (long long)lst_workload_bs_max(w),
					   (unsigned long long)(job->hi - job->lo));
		if (total) {
			/* Whole blocks, the remainder to the first jobs. */
			uint64_t nb = total / bs, share = nb / jobs + (j < nb % jobs);

			job->budget = share * bs;
			if (!job->budget)
				return lst_err_set(err, -EINVAL,
						   "%s: bytes %llu is less than one block per job",
						   p->name, (unsigned long long)total);
		}
		job->rate = w->rate_iops ? (double)w->rate_iops / (double)jobs : 0;
		if (p->replay)
			job->budget = 0, job->rate = 0;
		job->rec_cap = p->rec_max ? LST_MAX(p->rec_max / jobs, (uint64_t)1) : 0;
		s_seed(job);
		s_log_dist(job);
		if (s_skew_layout(job, p, j, err))
			return err->code;
		job->verify_write = w->verify && lst_workload_writes(w);
		job->verify_read = w->verify && !job->verify_write;
		job->stamp = p->stamp;
		job->map = p->map;
		job->offset_log = p->offset_log;
		job->count_depths = p->depths;
		job->cancel = cancel;
		if (cancel && atomic_load_explicit(cancel, memory_order_relaxed))
			return lst_err_set(err, -ECANCELED, "%s: cancelled", p->name);
		if (lst_job_init(job, err)) {
			lst_err_prefix(err, "%s: ", p->name);
			return err->code;
		}
		job->cancel = NULL; /* the caller's flag may not outlive the run */
	}
	return 0;
}

/* --- device counters -------------------------------------------------------------------------- */

/* Open the sysfs stat file of every path on a block device (partitions have their own). */
static void s_dev_open(lst_run *run, const struct lst_run_path *paths, size_t n)
{
	for (size_t i = 0; i < n && run->ndev < LST_DEVSTATS_MAX; i++) {
		struct stat st;
		char name[64];
		int fd;

		if (paths[i].fd < 0 || fstat(paths[i].fd, &st) || !S_ISBLK(st.st_mode))
			continue;
		snprintf(name, sizeof(name), "/sys/dev/block/%u:%u/stat", major(st.st_rdev),
			 minor(st.st_rdev));
		fd = open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			lst_log_debug(LST_DBG_IO, "%s: no device counters (%s: %s)", paths[i].name,
				      name, strerror(errno));
			continue;
		}
		run->dev[run->ndev++] = (struct s_devpath){ .path = (uint32_t)i, .fd = fd };
	}
}

/* Read a stat file's first S_DEV_FIELDS counters. Returns false when it cannot be read. */
static bool s_dev_read(int fd, uint64_t v[S_DEV_FIELDS])
{
	char buf[512];
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);
	char *p = buf;

	if (len <= 0)
		return false;
	buf[len] = 0;
	for (int f = 0; f < S_DEV_FIELDS; f++) {
		char *end;

		v[f] = strtoull(p, &end, 10);
		if (end == p)
			return false;
		p = end;
	}
	return true;
}

/* Read every device at an interval boundary; with deltas, fill out_dev with them. */
static void s_dev_boundary(lst_run *run, bool deltas)
{
	run->nout_dev = 0;
	for (size_t i = 0; i < run->ndev; i++) {
		struct s_devpath *dp = &run->dev[i];
		struct lst_devstat *o = &run->out_dev[run->nout_dev];
		uint64_t v[S_DEV_FIELDS], d[S_DEV_FIELDS];

		if (!s_dev_read(dp->fd, v))
			continue;
		for (int f = 0; f < S_DEV_FIELDS; f++)
			d[f] = v[f] - dp->last[f];
		if (deltas && dp->have) {
			*o = (struct lst_devstat){
				.path = dp->path,
				.reads = d[0],
				.read_merges = d[1],
				.read_sectors = d[2],
				.read_ms = d[3],
				.writes = d[4],
				.write_merges = d[5],
				.write_sectors = d[6],
				.write_ms = d[7],
				.in_flight = v[8],
				.io_ms = d[9],
				.queue_ms = d[10],
			};
			run->nout_dev++;
		}
		memcpy(dp->last, v, sizeof(v));
		dp->have = true;
	}
}

const struct lst_devstat *lst_run_devstats(const lst_run *run, uint32_t *n)
{
	*n = run->nout_dev;
	return run->out_dev;
}

/* --- the sample split by path ---------------------------------------------------------------- */

/* Which path each job belongs to (jobs are laid out path after path), and with more than one
 * path, a part per path (each an lst_sample of ~32 KB: on the heap). */
static void s_parts_new(lst_run *run, const struct lst_run_path *paths, size_t n)
{
	size_t at = 0;

	run->npaths = n;
	run->job_path = lst_calloc(run->njobs, sizeof(*run->job_path));
	for (size_t i = 0; i < n; i++)
		for (int64_t j = 0; j < paths[i].w.jobs; j++)
			run->job_path[at++] = (uint32_t)i;
	if (n < 2)
		return;
	run->parts = lst_calloc(n, sizeof(*run->parts));
	run->part_any = lst_calloc(n, sizeof(*run->part_any));
}

/* Clear the parts for interval k. */
static void s_parts_begin(lst_run *run, int64_t k)
{
	for (size_t i = 0; run->parts && i < run->npaths; i++) {
		run->parts[i].path = (uint32_t)i;
		lst_sample_init(&run->parts[i].s, k);
		run->part_any[i] = false;
	}
}

/* Job i's sample s goes into its path's part too. */
static void s_parts_add(lst_run *run, size_t i, const lst_sample *s)
{
	uint32_t p = run->job_path[i];

	if (!run->parts)
		return;
	lst_sample_add(&run->parts[p].s, s);
	run->part_any[p] = true;
}

/* The parts take the whole sample's flags; a path without a sample has the span 0/0. */
static void s_parts_end(lst_run *run, const lst_sample *out)
{
	for (size_t i = 0; run->parts && i < run->npaths; i++) {
		lst_sample *s = &run->parts[i].s;

		s->flags = out->flags;
		if (!run->part_any[i])
			s->start_ns = s->end_ns = 0;
	}
}

const struct lst_sample_part *lst_run_parts(const lst_run *run, uint32_t *n)
{
	*n = run->parts ? (uint32_t)run->npaths : 0;
	return run->parts;
}

/* --- runs ------------------------------------------------------------------------------------ */

lst_run *lst_run_new(const struct lst_run_path *paths, size_t n, lst_err *err)
{
	return lst_run_new_cancellable(paths, n, NULL, err);
}

lst_run *lst_run_new_cancellable(const struct lst_run_path *paths, size_t n,
				 const _Atomic int *cancel, lst_err *err)
{
	lst_run *run;
	size_t njobs = 0, at = 0;
	int engine;
	lst_err perr;

	if (!n)
		return lst_err_set(err, -EINVAL, "a run needs at least one path"), NULL;
	engine = (int)paths[0].w.engine;
	for (size_t i = 0; i < n; i++) {
		const struct lst_workload *w = &paths[i].w;

		if (lst_workload_check(w, paths[i].size, err)) {
			lst_err_prefix(err, "%s: ", paths[i].name);
			return NULL;
		}
		if (w->engine == LST_ENGINE_NULL && !paths[i].size && !w->size)
			return lst_err_set(err, -EINVAL, "%s: the null engine needs a size",
					   paths[i].name),
			       NULL;
		if (w->verify && lst_workload_read_pct(w) > 0 && lst_workload_read_pct(w) < 100)
			return lst_err_set(
				       err, -EINVAL,
				       "%s: verify with rwmixread %lld mixes reads and writes; a "
				       "verified phase either writes or reads",
				       paths[i].name, (long long)w->rwmixread),
			       NULL;
		if (paths[i].replay && (w->jobs != 1 || w->verify))
			return lst_err_set(err, -EINVAL,
					   "%s: read_iolog replays its trace in one job without "
					   "verify: set jobs to 1 (it is %lld) and verify off",
					   paths[i].name, (long long)w->jobs),
			       NULL;
		if (w->interval != paths[0].w.interval || w->ramp != paths[0].w.ramp ||
		    w->runtime != paths[0].w.runtime || w->engine != engine)
			return lst_err_set(
				       err, -EINVAL,
				       "%s: interval, ramp, runtime and engine must be the same "
				       "on every path of a run",
				       paths[i].name),
			       NULL;
		njobs += (size_t)w->jobs;
	}
	run = lst_calloc(1, sizeof(*run));
	run->engine = engine;
	if (engine == LST_ENGINE_IO_URING && lst_engine_uring_probe(&perr)) {
		run->engine = LST_ENGINE_PSYNC;
		snprintf(run->warning, sizeof(run->warning),
			 "io_uring is not available here (%s); falling back to psync, one I/O at a "
			 "time per job",
			 perr.msg);
	} else if (engine == LST_ENGINE_PSYNC && paths[0].w.iodepth > 1) {
		snprintf(run->warning, sizeof(run->warning),
			 "psync does one I/O at a time per job; iodepth %lld acts as 1",
			 (long long)paths[0].w.iodepth);
	}
	run->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (run->efd < 0) {
		lst_err_sys(err, -errno, "eventfd");
		free(run);
		return NULL;
	}
	run->njobs = njobs;
	run->jobs = lst_calloc(njobs, sizeof(*run->jobs));
	run->readers = lst_calloc(njobs, sizeof(*run->readers));
	run->marks = lst_calloc(njobs, sizeof(*run->marks));
	s_parts_new(run, paths, n);
	for (size_t i = 0; i < n; i++) {
		if (s_layout(run, &paths[i], at, cancel, err)) {
			lst_run_destroy(&run);
			return NULL;
		}
		at += (size_t)paths[i].w.jobs;
	}
	s_dev_open(run, paths, n);
	return run;
}

int lst_run_start(lst_run *run, int64_t t0, lst_err *err)
{
	const struct lst_workload *w = &run->jobs[0].w;
	int64_t nramp = (w->ramp + w->interval - 1) / w->interval;

	LST_ASSERT(!run->started);
	run->started = true;
	s_dev_boundary(run, false); /* the baseline, before any job is released */
	for (size_t i = 0; i < run->njobs; i++) {
		struct lst_job *job = &run->jobs[i];
		int rc;

		job->t0 = t0;
		job->interval = w->interval;
		job->nramp = nramp;
		job->end = w->runtime ? t0 + nramp * w->interval + w->runtime : 0;
		rc = pthread_create(&job->thread, NULL, lst_job_main, job);
		if (rc) {
			/* Jobs already created stop at once and are joined by destroy. */
			lst_run_stop(run);
			return lst_err_sys(err, -rc, "pthread_create for job %zu", i);
		}
		run->nthreads++;
	}
	return 0;
}

void lst_run_stop(lst_run *run)
{
	for (size_t i = 0; i < run->njobs; i++)
		atomic_store_explicit(&run->jobs[i].stop, 1, memory_order_relaxed);
}

void lst_run_destroy(lst_run **p)
{
	lst_run *run = *p;

	if (!run)
		return;
	lst_run_stop(run);
	for (size_t i = 0; i < run->nthreads; i++)
		pthread_join(run->jobs[i].thread, NULL);
	for (size_t i = 0; i < run->njobs; i++)
		lst_job_exit(&run->jobs[i]);
	for (size_t i = 0; i < run->ndev; i++)
		close(run->dev[i].fd);
	free(run->jobs);
	free(run->readers);
	free(run->marks);
	free(run->job_path);
	free(run->parts);
	free(run->part_any);
	if (run->efd >= 0)
		close(run->efd);
	free(run);
	*p = NULL;
}

const char *lst_run_warning(const lst_run *run)
{
	return run->warning;
}

int lst_run_engine(const lst_run *run)
{
	return run->engine;
}

int lst_run_eventfd(const lst_run *run)
{
	return run->efd;
}

/*
 * The highest interval every job has delivered completely: a job has finished every interval
 * up to its newest published sample; a job with nothing unread may still deliver next_k.
 */
static int64_t s_ready(lst_run *run, bool *all_done)
{
	int64_t ready = INT64_MAX;

	*all_done = true;
	for (size_t i = 0; i < run->njobs; i++) {
		struct lst_job *job = &run->jobs[i];
		struct s_reader *r = &run->readers[i];
		uint64_t head = atomic_load_explicit(&job->ring.head, memory_order_acquire);
		int64_t rk;

		if (r->done)
			continue;
		if (head == r->tail) {
			rk = r->next_k - 1;
		} else {
			const lst_sample *newest = &job->ring.slot[(head - 1) % LST_JOB_RING_SLOTS];

			bool last = newest->flags & LST_SAMPLE_LAST;
			/* a late LAST sample holds every interval up to the job's last */
			int64_t k =
				last ? LST_MAX(newest->interval, job->last_k) : newest->interval;

			rk = last ? INT64_MAX : k;
			if (k > run->max_k)
				run->max_k = k;
		}
		*all_done = *all_done && rk == INT64_MAX;
		ready = LST_MIN(ready, rk);
	}
	return ready == INT64_MAX ? run->max_k : ready;
}

bool lst_run_collect(lst_run *run, lst_run_sample_fn fn, void *arg)
{
	uint64_t junk;
	bool all_done;
	int64_t ready;

	if (run->over)
		return true;
	while (read(run->efd, &junk, sizeof(junk)) > 0)
		;
	ready = s_ready(run, &all_done);
	for (int64_t k = run->emit_next; k <= ready; k++) {
		lst_sample *out = &run->out;
		bool any = false;

		lst_sample_init(out, k);
		s_parts_begin(run, k);
		for (size_t i = 0; i < run->njobs; i++) {
			struct lst_job *job = &run->jobs[i];
			struct s_reader *r = &run->readers[i];
			uint64_t head = atomic_load_explicit(&job->ring.head, memory_order_acquire);

			while (!r->done && r->tail != head) {
				const lst_sample *s = &job->ring.slot[r->tail % LST_JOB_RING_SLOTS];

				if (s->interval > k)
					break;
				lst_sample_add(out, s);
				s_parts_add(run, i, s);
				run->marks[i] = job->ring.mark[r->tail % LST_JOB_RING_SLOTS];
				any = true;
				r->next_k = s->interval + 1;
				r->done = s->flags & LST_SAMPLE_LAST;
				atomic_store_explicit(&job->ring.tail, ++r->tail,
						      memory_order_release);
			}
		}
		out->flags &= ~(uint32_t)LST_SAMPLE_LAST;
		if (all_done && k == ready)
			out->flags |= LST_SAMPLE_LAST;
		if (!any) {
			/* Every job's sample for k was merged into an earlier late one. */
			out->start_ns = out->end_ns = 0;
		}
		s_parts_end(run, out);
		run->emit_next = k + 1;
		s_dev_boundary(run, true);
		fn(out, arg);
	}
	if (all_done && run->emit_next > ready)
		run->over = true;
	return run->over;
}

void lst_run_started(const lst_run *run, int64_t *first, int64_t *last)
{
	*first = INT64_MAX;
	*last = INT64_MIN;
	for (size_t i = 0; i < run->njobs; i++) {
		int64_t t = atomic_load_explicit(&run->jobs[i].started_ns, memory_order_acquire);

		if (!t) {
			*first = *last = 0; /* not every job has been released yet */
			return;
		}
		*first = LST_MIN(*first, t);
		*last = LST_MAX(*last, t);
	}
}

int lst_run_error(const lst_run *run, lst_err *err)
{
	for (size_t i = 0; i < run->njobs; i++) {
		if (run->jobs[i].error) {
			if (err)
				*err = run->jobs[i].err;
			return run->jobs[i].error;
		}
	}
	return 0;
}

size_t lst_run_njobs(const lst_run *run)
{
	return run->njobs;
}

uint32_t lst_run_job_path(const lst_run *run, size_t i)
{
	LST_ASSERT(i < run->njobs);
	return run->job_path[i];
}

const struct lst_stream *lst_run_stream(const lst_run *run, size_t i)
{
	LST_ASSERT(i < run->njobs);
	return &run->jobs[i].stream;
}

bool lst_run_job_verify_write(const lst_run *run, size_t i)
{
	LST_ASSERT(i < run->njobs);
	return run->jobs[i].verify_write;
}

const struct lst_job_mark *lst_run_mark(const lst_run *run, size_t i)
{
	LST_ASSERT(i < run->njobs);
	return &run->marks[i];
}

const struct lst_job_bad *lst_run_bad(const lst_run *run, size_t i, size_t *n, uint64_t *total)
{
	const struct lst_job *job;

	LST_ASSERT(i < run->njobs && run->over);
	job = &run->jobs[i];
	*total = job->nbad;
	*n = (size_t)LST_MIN(job->nbad, (uint64_t)LST_JOB_BAD_MAX);
	return job->bad;
}

/* ---- trace record and replay */

size_t lst_run_record_max(const struct lst_workload *w)
{
	double n = (double)LST_TRACE_MAX_RECORDS;

	if (!w->write_iolog[0])
		return 0;
	if (w->rate_iops && w->runtime)
		n = (double)w->rate_iops * (double)(w->ramp + w->interval + w->runtime) / 1e9 *
			    1.25 +
		    1024;
	else if (w->bytes)
		n = (double)w->bytes / 512 + 1024;
	return n < (double)LST_TRACE_MAX_RECORDS ? (size_t)n : LST_TRACE_MAX_RECORDS;
}

/* Merge two runs of records sorted by time into out (a tie takes a's first). */
static void s_merge2(const struct lst_trace_rec *a, size_t na, const struct lst_trace_rec *b,
		     size_t nb, struct lst_trace_rec *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb)
		out[k++] = b[j].t_ns < a[i].t_ns ? b[j++] : a[i++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

/*
 * The records of jobs [first, first + n) merged by time into a new array (*out, *nout): the
 * jobs' runs are concatenated, then merged pairwise, log2(n) passes over the records.
 */
static int s_trace_merge(const lst_run *run, size_t first, size_t n, struct lst_trace_rec **out,
			 size_t *nout)
{
	size_t total = 0, nruns = n, *len = calloc(n + 1, sizeof(*len));
	struct lst_trace_rec *a, *b;

	for (size_t i = 0; i < n; i++)
		total += run->jobs[first + i].nrec;
	a = calloc(total ? total : 1, sizeof(*a));
	b = calloc(total ? total : 1, sizeof(*b));
	if (!len || !a || !b) {
		free(len), free(a), free(b);
		return -ENOMEM;
	}
	for (size_t i = 0, at = 0; i < n; i++) {
		const struct lst_job *job = &run->jobs[first + i];

		memcpy(a + at, job->rec, job->nrec * sizeof(*a));
		at += job->nrec;
		len[i] = job->nrec;
	}
	while (nruns > 1) {
		size_t at = 0, r = 0, w = 0;

		for (; r + 1 < nruns; r += 2) {
			s_merge2(a + at, len[r], a + at + len[r], len[r + 1], b + at);
			at += len[r] + len[r + 1];
			len[w++] = len[r] + len[r + 1];
		}
		if (r < nruns) {
			memcpy(b + at, a + at, len[r] * sizeof(*a));
			len[w++] = len[r];
		}
		struct lst_trace_rec *t = a;

		nruns = w;
		a = b;
		b = t;
	}
	free(b);
	free(len);
	*out = a;
	*nout = total;
	return 0;
}

int lst_run_trace_write(const lst_run *run, uint32_t path, const char *file, uint32_t lbs,
			uint64_t path_size, size_t *nrec, uint64_t *dropped, lst_err *err)
{
	size_t first = 0, n = 0;
	struct lst_trace_rec *rec;
	int rc;

	LST_ASSERT(run->over);
	*nrec = 0;
	*dropped = 0;
	for (size_t i = 0; i < run->njobs; i++) {
		if (run->job_path[i] != path)
			continue;
		if (!n)
			first = i;
		n++;
		*dropped += run->jobs[i].rec_dropped;
	}
	if ((rc = s_trace_merge(run, first, n, &rec, nrec)))
		return lst_err_set(err, rc, "%s: no memory to merge the jobs' records", file);
	rc = lst_trace_write(file, rec, *nrec, lbs, path_size, err);
	free(rec);
	return rc;
}

void lst_run_depths(const lst_run *run, struct lst_job_depths *out)
{
	lst_job_depths_init(out);
	for (size_t i = 0; i < run->njobs; i++)
		lst_job_depths_add(out, &run->jobs[i].depths);
}

uint64_t lst_run_replay_late(const lst_run *run, uint32_t path)
{
	uint64_t late = 0;

	for (size_t i = 0; i < run->njobs; i++)
		if (run->job_path[i] == path)
			late += run->jobs[i].replay_late;
	return late;
}
