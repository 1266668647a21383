/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The job loop: issue up to iodepth I/Os, submit them in one call, reap what completed in one
 * call, record latencies per batch, close intervals on the grid, stop by time, bytes or request.
 * See lst_job.h for the timing model. Everything here runs on the job's own thread except
 * lst_job_init/exit.
 */
#include "lst_job.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_offset.h"
#include "lst_tracedir.h"
#include "lst_time.h"
#include "lst_util.h"

#define LST_JOB_MAX_BUFFERS (2ull << 30) /* iodepth x bs per job */
#define SECTOR 512
#define S_FILL_CHUNK ((uint64_t)64 << 20) /* the fill looks at job->cancel this often */
#define S_DRAIN_MIN (5 * LST_NS_PER_S)	  /* a stopping job waits this long for its I/O at least */
#define S_DRAIN_MAX (600 * LST_NS_PER_S)  /* ... and, without io_timeout, at most */

/* Per-thread state that stays on the job's stack: the hot loop touches nothing shared. */
struct s_loop {
	struct lst_job *job;
	struct lst_ioseq seq; /* offsets and directions (lst_verify.h) */
	uint64_t gap_rng;     /* Poisson gaps: apart, so the sequence never depends on timing */
	uint64_t data_rng;    /* write stamps */
	uint64_t issued;      /* bytes issued */
	uint64_t stamp;	      /* write stamp counter: blocks never repeat */
	uint64_t werr;	      /* verified writes completed with an error */
	uint64_t mix_rng;     /* block sizes drawn from the bssplit mix */
	uint64_t mix_pos;     /* a sequential mix's next offset (advances by the size drawn) */
	uint64_t dedup_rng;   /* which units repeat, and which earlier one */
	uint64_t dedup_n;     /* unique 4 KiB units written so far (their keys are 1..dedup_n) */
	uint64_t trim_rng;    /* which I/Os of a rwmixtrim mix are trims */
	int64_t trim_pct;     /* % of I/Os that are trims: 100 for trim/randtrim, rwmixtrim for
			       * randrw/rw, else 0 (set once: s_is_trim runs per I/O) */
	unsigned nfree, inflight;
	unsigned nqueued; /* I/Os queued since the last submit (l->queued[0..nqueued)) */
	struct lst_io **free;
	struct lst_io **queued;
	struct lst_io **done;
	int64_t k;     /* current interval */
	uint64_t head; /* local copy of ring.head */
	lst_sample *cur;
	double next_arrival; /* ns after t0 */
	bool stopping;
	int64_t drain_end; /* once stopping: give up on what is still in flight at this instant */
	bool boosted;	   /* SCHED_FIFO until the first submit, see s_boost */
	bool paced;	   /* I/Os go out at their arrival times: rate-limited, or a replay */
	size_t rnext;	   /* a replay's next record */
	bool rlate;	   /* ... found no free slot at its time */

	/* the stop: its instant on the grid (the end, or when the job saw it), and the drain */
	int64_t stop_at;
	int64_t drain_ns; /* how long after the stop it gives up on its I/O (s_drain_ns) */
	uint64_t ndone;	  /* I/Os completed, and the slowest of them: the drain bound's measure */
	uint64_t max_lat;

	/* random_distribution, drawn from seq's random stream */
	struct lst_offset off;
	/* skew: which entry each I/O takes, and the entries' sequences (NULL: none) */
	uint64_t skew_rng;
	struct lst_job_skew_state *skew;
};

/* One skew entry's sequence: offsets and directions over its region, its distribution. */
struct lst_job_skew_state {
	struct lst_ioseq seq;
	struct lst_offset off;
};

/* The size of each slot's buffer: the largest I/O, a replay's from its trace (whole pages). */
static uint64_t s_slot_bytes(const struct lst_job *job)
{
	if (job->replay)
		return lst_tracedir_slot_bytes(job->replay);
	return (uint64_t)lst_workload_bs_max(&job->w);
}

/* Does the job write data (its buffers get the pattern)? */
static bool s_writes_data(const struct lst_job *job)
{
	return job->replay || lst_workload_writes(&job->w);
}

int lst_job_init(struct lst_job *job, lst_err *err)
{
	uint64_t bs = s_slot_bytes(job), total; /* slots fit the largest */
	uint64_t seed = (uint64_t)job->w.seed * 0x9e3779b97f4a7c15ull + job->id + 1;
	unsigned sector_rand;

	job->depth = (unsigned)job->w.iodepth;
	lst_job_depths_init(&job->depths);
	total = bs * job->depth;
	if (total > LST_JOB_MAX_BUFFERS)
		return lst_err_set(
			err, -EINVAL,
			"iodepth %u x bs %llu needs %llu MiB of buffers per job; the limit "
			"is %llu MiB",
			job->depth, (unsigned long long)bs, (unsigned long long)(total >> 20),
			(unsigned long long)(LST_JOB_MAX_BUFFERS >> 20));
	job->ios = lst_calloc(job->depth, sizeof(*job->ios));
	job->lists = lst_calloc(3 * (size_t)job->depth, sizeof(*job->lists));
	job->bufs = lst_aligned_alloc(4096, total);
	/*
	 * Write data: pattern is the percentage of each 512-byte sector that is random; the rest is
	 * zeros, so the data compresses to about pattern% of its size. Every sector of a write also
	 * gets a 16-byte stamp (see s_stamp), unless the pattern is zeros.
	 */
	sector_rand = (unsigned)((SECTOR * job->w.pattern + 99) / 100);
	for (uint64_t at = 0; at < total; at += S_FILL_CHUNK) {
		uint64_t end = LST_MIN(total, at + S_FILL_CHUNK);

		if (job->cancel && atomic_load_explicit(job->cancel, memory_order_relaxed)) {
			lst_job_exit(job);
			return lst_err_set(err, -ECANCELED,
					   "job %u: cancelled while filling its buffers", job->id);
		}
		memset(job->bufs + at, 0, end - at);
		if (job->w.pattern <= 0 || !s_writes_data(job))
			continue;
		for (uint64_t s = at; s < end; s += SECTOR) {
			uint64_t *p = (uint64_t *)(job->bufs + s);

			for (unsigned i = 0; i < sector_rand / 8; i++)
				p[i] = lst_rand64(&seed);
			for (unsigned i = sector_rand & ~7u; i < sector_rand; i++)
				job->bufs[s + i] = (uint8_t)lst_rand64(&seed);
		}
	}
	for (unsigned i = 0; i < job->depth; i++) {
		job->ios[i].idx = i;
		job->ios[i].buf = job->bufs + (uint64_t)i * bs;
		job->ios[i].len = (uint32_t)bs;
	}
	if (job->nskew)
		job->skew_state = lst_calloc(job->nskew, sizeof(*job->skew_state));
	if (job->verify_read)
		job->bad = lst_calloc(LST_JOB_BAD_MAX, sizeof(*job->bad));
	job->nbad = 0;
	job->nrec = 0;
	job->rec_dropped = 0;
	job->replay_late = 0;
	if (job->rec_cap) { /* calloc: pages are taken as records fill them */
		job->rec = calloc(job->rec_cap, sizeof(*job->rec));
		if (!job->rec) {
			lst_job_exit(job);
			return lst_err_set(err, -ENOMEM,
					   "job %u: no memory for a trace of %zu records", job->id,
					   job->rec_cap);
		}
	}
	job->ring.head = 0;
	job->ring.tail = 0;
	lst_sample_init(&job->ring.slot[0], 0);
	return 0;
}

void lst_job_exit(struct lst_job *job)
{
	/* I/O the job gave up on may still land in its slots and buffers: leak them */
	if (!job->stuck) {
		free(job->ios);
		free(job->lists);
		free(job->bufs);
	}
	free(job->bad);
	free(job->rec);
	job->rec = NULL;
	free(job->skew_state);
	job->bad = NULL;
	job->skew_state = NULL;
	job->ios = NULL;
	job->lists = NULL;
	job->bufs = NULL;
}

/* Make every 512-byte sector of a write unique: job id, a counter and a random word. */
static void s_stamp(struct s_loop *l, struct lst_io *io)
{
	uint64_t tag = (uint64_t)l->job->id << 48;
	uint64_t n = l->stamp, rng = l->data_rng; /* locals: the buffer's stores cannot alias */

	for (uint32_t s = 0; s < io->len; s += SECTOR) {
		uint64_t *p = (uint64_t *)((uint8_t *)io->buf + s);

		p[0] = tag | (n++ & 0xffffffffffffull);
		p[1] = lst_rand64(&rng);
	}
	l->stamp = n;
	l->data_rng = rng;
}

/*
 * A verified write: every 4 KiB unit of the buffer gets its stamp (lst_stamp_put: the job's
 * target, writer and generation, the unit's LBA, the intended issue instant since t0, the I/O's
 * index); the rest of the unit keeps the pattern's data.
 */
static __attribute__((noinline)) void s_stamp_verify(struct s_loop *l, struct lst_io *io,
						     int64_t t_ns)
{
	struct lst_stamp st = l->job->stamp;

	st.lba = io->offset / LST_VERIFY_UNIT;
	st.t_ns = t_ns;
	st.seq = io->seq;
	for (uint32_t k = 0; k < io->len; k += LST_VERIFY_UNIT, st.lba++)
		lst_stamp_put((uint8_t *)io->buf + k, &st);
}

/* bench --offset-log: the offset as a little-endian u64 (debug; stdio buffers it). */
static void s_log_offset(const struct lst_job *job, uint64_t offset)
{
	uint8_t le[8];

	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(offset >> (8 * i));
	fwrite(le, sizeof(le), 1, job->offset_log);
}

/* splitmix64's finaliser: a unit key to the seed of its bytes. */
static inline uint64_t s_mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * dedupe_percentage: a write's data in 4 KiB units, each made whole from a key (the
 * pattern's random share of every sector from a generator seeded by the key and the job's data
 * seed, the rest zeros), so two units with the same key are the same bytes. With probability
 * dedupe_percentage / 100 a unit reuses the key of an earlier unique unit of the job, picked
 * uniformly; otherwise it takes a new key. No 16-byte sector stamp is added (it would make
 * every unit unique): the key's bytes are the uniqueness. Costs one generator step per 8
 * random bytes written, only when dedupe_percentage > 0.
 */
static __attribute__((noinline)) void s_dedup_fill(struct s_loop *l, struct lst_io *io)
{
	const struct lst_job *job = l->job;
	unsigned sector_rand = (unsigned)((SECTOR * job->w.pattern + 99) / 100);

	for (uint32_t k = 0; k < io->len; k += 4096) {
		uint64_t key;

		if (l->dedup_n &&
		    (int64_t)(lst_rand64(&l->dedup_rng) % 100) < job->w.dedupe_percentage)
			key = 1 + lst_rand64(&l->dedup_rng) % l->dedup_n;
		else
			key = ++l->dedup_n;
		for (uint32_t s = 0; s < 4096; s += SECTOR) {
			uint64_t rng = s_mix64(job->data_seed ^ (key * 8 + s / SECTOR)) | 1;
			uint64_t *p = (uint64_t *)((uint8_t *)io->buf + k + s);

			for (unsigned i = 0; i < sector_rand / 8; i++)
				p[i] = lst_rand64(&rng);
		}
	}
}

/*
 * The I/O's size from its direction's bssplit mix (a direction without one uses bs),
 * drawn from the job's own mix stream, so the sizes are the same for the same seed. A random
 * I/O keeps the sequence's place (and so its distribution) rounded down to a multiple of the
 * size drawn from the region's start, the last whole slot when it would pass the region's end;
 * a sequential one takes the next len bytes, back to the region's start when they do not fit.
 */
static void s_mix(struct s_loop *l, struct lst_io *io)
{
	const struct lst_job *job = l->job;
	const struct lst_bssplit *b = &job->w.bssplit;
	uint64_t len = (uint64_t)job->w.bs;

	if (b->n[io->dir]) {
		int64_t r = (int64_t)(lst_rand64(&l->mix_rng) % 100), i = 0;

		while (i + 1 < b->n[io->dir] && r >= b->e[io->dir][i].pct)
			r -= b->e[io->dir][i++].pct;
		len = (uint64_t)b->e[io->dir][i].bs;
	}
	io->len = (uint32_t)len;
	if (lst_rw_is_random(job->w.rw)) {
		uint64_t slot = (io->offset - job->lo) / len, nslots = (job->hi - job->lo) / len;

		io->offset = job->lo + LST_MIN(slot, nslots - 1) * len;
		return;
	}
	if (l->mix_pos + len > job->hi)
		l->mix_pos = job->lo;
	io->offset = l->mix_pos;
	l->mix_pos += len;
}

/* A prepared slot before it is queued: no instants yet, no result, counted as issued. */
static inline void s_prep_slot(struct s_loop *l, struct lst_io *io)
{
	io->issue_ns = 0;
	io->done_ns = 0;
	io->submit_ns = 0;
	io->timed_out = false;
	io->res = 0;
	l->issued += io->len;
}

/* Is the I/O a trim? All of rw trim/randtrim; rwmixtrim % of randrw and rw. */
static bool s_is_trim(struct s_loop *l)
{
	if (l->trim_pct == 100)
		return true;
	return l->trim_pct > 0 && (int64_t)(lst_rand64(&l->trim_rng) % 100) < l->trim_pct;
}

/*
 * Skew: the entry by share, from the job's own skew stream (so the choice does not
 * depend on timing and is the same for the same seed), then the entry's next I/O from its own
 * sequence: its region, block size, direction (or trim) and distribution. Kept apart from the
 * job's own path so a job without a skew pays one predictable branch for it.
 */
static __attribute__((noinline)) void s_skew_next(struct s_loop *l, struct lst_io *io)
{
	const struct lst_job *job = l->job;
	uint32_t r = (uint32_t)(lst_rand64(&l->skew_rng) % 100);
	struct lst_job_skew_state *st;
	unsigned i = 0;
	uint8_t dir;

	while (i + 1 < job->nskew && r >= job->skew[i].share_end)
		i++;
	st = &l->skew[i];
	lst_ioseq_next(&st->seq, &io->offset, &dir);
	if (lst_offset_active(&st->off))
		io->offset = lst_offset_at(&st->off, &st->seq.rng);
	io->trim = job->skew[i].trim;
	io->dir = dir || io->trim ? LST_DIR_WRITE : LST_DIR_READ;
	io->len = job->skew[i].stream.bs;
	l->seq.index++;
}

/* The slot's next I/O from the sequence, to be issued now (or at its arrival, rate-limited). */
static void s_prep(struct s_loop *l, struct lst_io *io, int64_t now)
{
	struct lst_job *job = l->job;
	uint8_t dir;

	io->seq = l->seq.index;
	if (__builtin_expect(l->skew != NULL, 0)) {
		s_skew_next(l, io);
	} else {
		lst_ioseq_next(&l->seq, &io->offset, &dir);
		if (lst_offset_active(&l->off))
			io->offset = lst_offset_at(&l->off, &l->seq.rng);
		io->dir = dir ? LST_DIR_WRITE : LST_DIR_READ;
		io->trim = s_is_trim(l);
		if (io->trim)
			io->dir = LST_DIR_WRITE;
		if (job->w.bssplit.n[0] || job->w.bssplit.n[1])
			s_mix(l, io);
	}
	if (job->offset_log)
		s_log_offset(job, io->offset);
	if (io->dir == LST_DIR_WRITE && !io->trim) {
		if (job->verify_write)
			s_stamp_verify(l, io,
				       job->rate > 0 ? (int64_t)l->next_arrival : now - job->t0);
		else if (job->w.dedupe_percentage > 0 && job->w.pattern > 0)
			s_dedup_fill(l, io);
		else if (job->w.pattern > 0)
			s_stamp(l, io);
	}
	s_prep_slot(l, io);
}

/*
 * A replay: the slot's next I/O is the trace's next record (offset, length, op); its
 * write data is the pattern's, stamped as any write.
 */
static void s_prep_replay(struct s_loop *l, struct lst_io *io)
{
	const struct lst_trace_rec *r = &l->job->replay->rec[l->rnext];

	io->seq = l->rnext;
	io->offset = r->offset;
	io->len = r->len;
	io->trim = r->op == LST_TRACE_TRIM;
	io->dir = r->op == LST_TRACE_READ ? LST_DIR_READ : LST_DIR_WRITE;
	if (io->dir == LST_DIR_WRITE && !io->trim && l->job->w.pattern > 0)
		s_stamp(l, io);
	s_prep_slot(l, io);
}

/* A replay's record i is due this long after t0: its time scaled by replay_time_scale. */
static double s_replay_at(const struct lst_job *job, size_t i)
{
	return (double)job->replay->rec[i].t_ns * 100.0 / (double)job->w.replay_time_scale;
}

/* A recording job: one record for an I/O just handed to the engine. */
static void s_record(struct lst_job *job, const struct lst_io *io)
{
	struct lst_trace_rec *r;

	if (job->nrec == job->rec_cap) {
		job->rec_dropped++;
		return;
	}
	r = &job->rec[job->nrec++];
	r->t_ns = LST_MAX(io->submit_ns - job->t0, (int64_t)0);
	r->offset = io->offset;
	r->len = io->len;
	r->op = io->trim		   ? LST_TRACE_TRIM
		: io->dir == LST_DIR_WRITE ? LST_TRACE_WRITE
					   : LST_TRACE_READ;
}

static double s_gap_ns(struct s_loop *l)
{
	double mean = 1e9 / l->job->rate;

	if (l->job->w.arrivals == LST_ARRIVAL_UNIFORM)
		return mean;
	/* Poisson arrivals: exponential gaps; u in (0, 1]. */
	return -log(((double)(lst_rand64(&l->gap_rng) >> 11) + 1.0) / 9007199254740992.0) * mean;
}

/* Count an I/O past io_timeout, once, in the current interval. */
static void s_timeout(struct s_loop *l, struct lst_io *io, int64_t now)
{
	int64_t limit = l->job->w.io_timeout;

	if (limit > 0 && !io->timed_out && now - io->submit_ns > limit) {
		io->timed_out = true;
		l->cur->health.timeouts++;
	}
}

/*
 * What is in flight at instant at (an interval's end): a scan of the iodepth slots, cheap once
 * per interval. I/Os submitted after it do not count; those past io_timeout are counted once.
 */
static void s_inflight(struct s_loop *l, int64_t at)
{
	struct lst_job *job = l->job;
	struct lst_sample_health *h = &l->cur->health;

	h->inflight = 0;
	h->oldest_inflight_ns = 0;
	if (!l->inflight)
		return;
	for (unsigned i = 0; i < job->depth; i++) {
		struct lst_io *io = &job->ios[i];

		if (!io->busy || io->submit_ns >= at)
			continue;
		s_timeout(l, io, at);
		h->inflight++;
		if (at - io->submit_ns > h->oldest_inflight_ns)
			h->oldest_inflight_ns = at - io->submit_ns;
	}
}

/* A verified write's watermarks now: low is the lowest index in flight, or issued if none. */
static void s_marks(struct s_loop *l, struct lst_job_mark *m)
{
	struct lst_job *job = l->job;
	uint64_t low = l->seq.index;

	for (unsigned i = 0; l->inflight && i < job->depth; i++)
		if (job->ios[i].busy && job->ios[i].seq < low)
			low = job->ios[i].seq;
	m->low = low;
	m->issued = l->seq.index;
	m->werr = l->werr;
}

/*
 * The ring's read position, once the consumer has room for one more sample or 100 ms have
 * passed. Only for intervals the job closes long after their end (it slept through them): the
 * time is lost already, and each of them keeps its own sample instead of being folded into a
 * late one while the consumer, woken with the job, catches up.
 */
static uint64_t s_room(struct lst_job *job, uint64_t head)
{
	uint64_t tail = atomic_load_explicit(&job->ring.tail, memory_order_acquire);

	for (int i = 0; i < 1000 && head + 1 - tail >= LST_JOB_RING_SLOTS; i++) {
		lst_sleep_ns(100 * LST_NS_PER_US);
		tail = atomic_load_explicit(&job->ring.tail, memory_order_acquire);
	}
	return tail;
}

/* Publish the current sample and move to interval k + 1, unless the consumer has fallen
 * LST_JOB_RING_SLOTS behind: then keep accumulating in the same sample (marked late). */
static void s_close_interval(struct s_loop *l, int64_t end_ns, bool last)
{
	struct lst_job *job = l->job;
	uint64_t tail = atomic_load_explicit(&job->ring.tail, memory_order_acquire);

	if (!last && lst_mono_ns() - end_ns > job->interval)
		tail = s_room(job, l->head);

	s_inflight(l, end_ns);
	if (job->verify_write)
		s_marks(l, &job->ring.mark[l->head % LST_JOB_RING_SLOTS]);
	l->cur->end_ns = end_ns;
	l->k++;
	if (last) {
		l->cur->flags |= LST_SAMPLE_LAST;
		job->last_k = l->k - 1;
	} else if (l->head + 1 - tail >= LST_JOB_RING_SLOTS) {
		l->cur->flags |= LST_SAMPLE_LATE;
		return;
	}
	atomic_store_explicit(&job->ring.head, l->head + 1, memory_order_release);
	l->head++;
	eventfd_write(job->efd, 1);
	if (last)
		return;
	l->cur = &job->ring.slot[l->head % LST_JOB_RING_SLOTS];
	lst_sample_init(l->cur, l->k);
	l->cur->start_ns = end_ns;
	if (l->k < job->nramp)
		l->cur->flags |= LST_SAMPLE_RAMP;
}

/*
 * An I/O completed with an error: count it by class (a short transfer is "other"); with
 * on_io_error stop, the first one ends the job and its text names path, direction, offset and
 * errno; with continue the slot just goes back to the free list.
 */
static void s_failed(struct s_loop *l, const struct lst_io *io, struct lst_dir_stats *d)
{
	struct lst_job *job = l->job;
	int code = io->res < 0 ? io->res : -EIO;

	d->errors++;
	if (io->dir == LST_DIR_WRITE)
		l->werr++;
	l->cur->health.err_class[io->res < 0 ? lst_err_class_of(io->res) : LST_ERRC_OTHER]++;
	if (job->w.on_io_error == LST_ON_IO_ERROR_CONTINUE)
		return;
	if (!job->error) {
		job->error = code;
		lst_err_sys(&job->err, code,
			    "%s: %s of %u bytes at offset %llu failed (errno %d%s)", job->name,
			    io->trim ? "trim" : lst_dir_names[io->dir], io->len,
			    (unsigned long long)io->offset, io->res < 0 ? -io->res : 0,
			    io->res >= 0 ? ", short transfer" : "");
	}
	l->stopping = true; /* an I/O error ends the job, as in fio */
}

/* Keep a bad unit for the daemon (the first LST_JOB_BAD_MAX; all are counted). */
static void s_bad(struct lst_job *job, uint64_t lba, enum lst_verify_kind kind,
		  const struct lst_stamp *found, const void *unit)
{
	struct lst_job_bad *b;
	struct lst_stamp junk;

	if (job->nbad++ >= LST_JOB_BAD_MAX)
		return;
	b = &job->bad[job->nbad - 1];
	b->offset = lba * LST_VERIFY_UNIT;
	b->kind = (uint32_t)kind;
	b->expected = job->map ? job->map->exp[lba - job->map->first_lba] : 0;
	b->stamp_kind = (uint32_t)lst_stamp_get(unit, lba, job->stamp.target, &junk);
	b->found = *found;
}

/* A verifying read completed whole: check each of its units, count them in the sample. */
static void s_check(struct s_loop *l, const struct lst_io *io)
{
	struct lst_job *job = l->job;
	struct lst_sample_verify *v = &l->cur->verify;
	uint64_t lba = io->offset / LST_VERIFY_UNIT;

	for (uint32_t k = 0; k < io->len; k += LST_VERIFY_UNIT, lba++) {
		const uint8_t *unit = (const uint8_t *)io->buf + k;
		enum lst_verify_kind kind;
		struct lst_stamp found;

		switch (lst_verify_check(job->map, lba, unit, job->stamp.target, &found, &kind)) {
		case LST_VERIFY_OK:
			v->ok++;
			break;
		case LST_VERIFY_PENDING:
			v->pending++;
			break;
		case LST_VERIFY_UNWRITTEN:
			v->unwritten++;
			break;
		default:
			v->bad++;
			s_bad(job, lba, kind, &found, unit);
			break;
		}
	}
}

/* A trim completed: counted apart (no histogram); a failed one as a write error. */
static void s_complete_trim(struct s_loop *l, struct lst_io *io, int64_t t)
{
	struct lst_dir_stats junk = { 0 };

	l->cur->trim.ios++;
	io->busy = false;
	s_timeout(l, io, t);
	if (io->res == (int32_t)io->len) {
		l->cur->trim.bytes += io->len;
	} else {
		l->cur->trim.errors++;
		s_failed(l, io, &junk);
	}
	l->free[l->nfree++] = io;
}

/*
 * Account completions. Consecutive I/Os with the same direction and latency (a batch) are
 * recorded with one histogram update.
 */
static void s_complete(struct s_loop *l, unsigned n, int64_t now)
{
	lst_sample *cur = l->cur;
	uint64_t run_lat = 0, run_n = 0;
	int run_dir = -1;

	for (unsigned i = 0; i < n; i++) {
		struct lst_io *io = l->done[i];
		struct lst_dir_stats *d = &cur->dir[io->dir];
		int64_t t = io->done_ns ? io->done_ns : now;
		uint64_t lat = t > io->issue_ns ? (uint64_t)(t - io->issue_ns) : 0;

		if (lat > l->max_lat)
			l->max_lat = lat;

		if (io->trim) {
			s_complete_trim(l, io, t);
			continue;
		}
		d->ios++;
		io->busy = false;
		s_timeout(l, io, t);
		if (io->res == (int32_t)io->len)
			d->bytes += io->len;
		else
			s_failed(l, io, d);
		if ((int)io->dir == run_dir && lat == run_lat) {
			run_n++;
		} else {
			if (run_n)
				lst_hist_record_n(&cur->dir[run_dir].lat, run_lat, run_n);
			run_dir = io->dir;
			run_lat = lat;
			run_n = 1;
		}
		l->free[l->nfree++] = io;
	}
	if (run_n)
		lst_hist_record_n(&cur->dir[run_dir].lat, run_lat, run_n);
	l->inflight -= n;
	l->ndone += n;
	if (!l->job->verify_read)
		return;
	/* after the batch's latency was taken; a failed read checks nothing */
	for (unsigned i = 0; i < n; i++)
		if (l->done[i]->dir == LST_DIR_READ && l->done[i]->res == (int32_t)l->done[i]->len)
			s_check(l, l->done[i]);
}

/*
 * How long a stopping job waits for its I/O in flight (now: the instant it stops). The plan's
 * io_timeout, when set, is the bound (at least S_DRAIN_MIN). Otherwise the bound follows the
 * device as measured: twice the slowest completion seen plus the time what is in flight takes
 * at the completion rate seen, at least S_DRAIN_MIN and at most S_DRAIN_MAX; so a deep queue
 * on a slow healthy device (an HDD array, a throttled port) drains, and a device that
 * completed nothing is given up on after S_DRAIN_MIN.
 */
static int64_t s_drain_ns(const struct s_loop *l, int64_t now)
{
	const struct lst_job *job = l->job;
	int64_t ran = now - job->t0;
	double queue;

	if (job->w.io_timeout > 0)
		return LST_MAX(job->w.io_timeout, S_DRAIN_MIN);
	if (!l->ndone || ran <= 0)
		return S_DRAIN_MIN;
	queue = (double)l->inflight * (double)ran / (double)l->ndone;
	return LST_MAX(S_DRAIN_MIN,
		       (int64_t)LST_MIN(2 * ((double)l->max_lat + queue), (double)S_DRAIN_MAX));
}

/* Skew: each entry's sequence over its region, with its distribution when random. */
static void s_skew_init(struct s_loop *l, struct lst_job *job)
{
	if (!job->nskew || !job->skew_state)
		return;
	l->skew = job->skew_state;
	l->skew_rng = (job->stream.seed ^ 0x2545f4914f6cdd1dull) | 1;
	for (unsigned i = 0; i < job->nskew; i++) {
		struct lst_job_skew_state *st = &l->skew[i];
		const struct lst_stream *s = &job->skew[i].stream;

		lst_ioseq_init(&st->seq, s);
		memset(&st->off, 0, sizeof(st->off)); /* uniform, unless the entry says otherwise */
		if (s->random)
			lst_offset_init(&st->off, &job->w.skew.e[i].dist, st->seq.nblocks, s->lo,
					s->bs);
	}
}

static void s_loop_init(struct s_loop *l, struct lst_job *job)
{
	memset(l, 0, sizeof(*l));
	l->job = job;
	lst_ioseq_init(&l->seq, &job->stream);
	/* Sequential streams ignore the distribution; random ones draw it over the job's region
	 * (its path's region: a split share's slice). */
	if (job->stream.random)
		lst_offset_init(&l->off, &job->w.dist, l->seq.nblocks, job->stream.lo,
				job->stream.bs);
	l->gap_rng = job->gap_seed | 1;
	l->data_rng = job->data_seed | 1;
	l->mix_rng = (job->stream.seed ^ 0xbf58476d1ce4e5b9ull) | 1;
	l->mix_pos = job->lo;
	l->dedup_rng = (job->data_seed ^ 0x94d049bb133111ebull) | 1;
	l->trim_rng = (job->stream.seed ^ 0xd6e8feb86659fd93ull) | 1;
	if (job->w.rw == LST_RW_TRIM || job->w.rw == LST_RW_RANDTRIM)
		l->trim_pct = 100;
	else if (job->w.rw == LST_RW_RANDRW || job->w.rw == LST_RW_RW)
		l->trim_pct = job->w.rwmixtrim;
	s_skew_init(l, job);
	l->free = job->lists;
	l->queued = job->lists + job->depth;
	l->done = job->lists + 2 * job->depth;
	for (unsigned i = 0; i < job->depth; i++)
		l->free[i] = &job->ios[job->depth - 1 - i];
	l->nfree = job->depth;
	/* Uniform arrivals are staggered across jobs so they do not fire together. */
	if (job->rate > 0 && job->w.arrivals == LST_ARRIVAL_UNIFORM)
		l->next_arrival = 1e9 / job->rate * job->id / (double)job->w.jobs;
	l->cur = &job->ring.slot[0];
	l->paced = job->rate > 0 || job->replay;
	if (job->replay && job->replay->nrec)
		l->next_arrival = s_replay_at(job, 0);
}

/*
 * A job waiting for t0 competes for the CPU with everything else on the host: other agents'
 * busy job threads on a test machine, a compile on a shared one. At normal priority, its last
 * sched_yield() or its wake-up can hand the CPU to such a thread for a whole time slice, which
 * makes it start milliseconds late. So, where allowed (root, or RLIMIT_RTPRIO), the job waits
 * at SCHED_FIFO 1 and returns to normal priority right after its first submit: the real-time
 * window is the wait's spin (S_START_SPIN) plus one batch. SCHED_RESET_ON_FORK keeps threads the
 * kernel creates for the job during that batch (io_uring's io-wq workers) at normal priority;
 * it stays set on the way down, since clearing it needs CAP_SYS_NICE. Returns the new state.
 */
static bool s_boost(bool on)
{
	struct sched_param sp = { .sched_priority = on ? 1 : 0 };
	int policy = (on ? SCHED_FIFO : SCHED_OTHER) | SCHED_RESET_ON_FORK;

	if (sched_setscheduler(0, policy, &sp) == 0)
		return on;
	if (!on)
		lst_log_warn("job: could not return to normal priority: %s", strerror(errno));
	return !on;
}

/*
 * Anchor the sample grid at t0. A start instant already past still anchors it there: the
 * intervals missed are closed empty, each covering its own window (the first one starts at t0,
 * not at the "nothing yet" INT64_MAX of a fresh sample). Returns the next boundary ahead of now.
 */
static int64_t s_grid_start(struct s_loop *l, int64_t now)
{
	struct lst_job *job = l->job;
	int64_t next_boundary = job->t0 + job->interval;

	l->cur->start_ns = job->t0;
	while (now >= next_boundary) {
		s_close_interval(l, next_boundary, false);
		next_boundary += job->interval;
	}
	l->cur->start_ns = LST_MAX(now, job->t0);
	return next_boundary;
}

/* fio's bin of depth d (io_u_map: 1, 2, 4, ... >=64). */
static unsigned s_level_bin(unsigned d)
{
	unsigned b = 0;

	while (b < LST_JOB_DEPTH_BINS - 1 && d >= 2u << b)
		b++;
	return b;
}

/* fio's bin of a batch of n I/Os (io_u_submit, io_u_complete: 0, 1-4, 5-8, ... >64). */
static unsigned s_batch_bin(unsigned n)
{
	unsigned b = 0;

	while (b < LST_JOB_DEPTH_BINS - 1 && n > 2u << b)
		b++;
	return n ? LST_MAX(b, 1u) : 0;
}

void lst_job_depths_init(struct lst_job_depths *d)
{
	memset(d, 0, sizeof(*d));
	for (int dir = 0; dir < LST_DIR_N; dir++)
		lst_hist_init(&d->slat[dir]);
}

void lst_job_depths_add(struct lst_job_depths *a, const struct lst_job_depths *b)
{
	for (int i = 0; i < LST_JOB_DEPTH_BINS; i++) {
		a->level[i] += b->level[i];
		a->submit[i] += b->submit[i];
		a->complete[i] += b->complete[i];
	}
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_add(&a->slat[d], &b->slat[d]);
}

/*
 * Queue every I/O that may go now: free slots, within the budget, and (rate-limited) whose
 * arrival time has come; *arrival_pending says the rate held the next one back. Stamps their
 * issue time (a rate-limited one keeps its scheduled arrival) and counts them in flight.
 */
static void s_issue(struct s_loop *l, int64_t now, bool *arrival_pending)
{
	struct lst_job *job = l->job;
	unsigned nq = 0;

	*arrival_pending = false;
	while (!l->stopping && l->nfree) {
		struct lst_io *io;

		if (job->budget && l->issued >= job->budget)
			break;
		if (job->replay && l->rnext >= job->replay->nrec)
			break;
		if (l->paced && job->t0 + (int64_t)l->next_arrival > now) {
			*arrival_pending = true;
			break;
		}
		io = l->free[--l->nfree];
		if (job->replay) {
			s_prep_replay(l, io);
			io->issue_ns = job->t0 + (int64_t)l->next_arrival;
			job->replay_late += l->rlate;
			l->rlate = false;
			if (++l->rnext < job->replay->nrec)
				l->next_arrival = s_replay_at(job, l->rnext);
		} else {
			s_prep(l, io, now);
			if (job->rate > 0) {
				io->issue_ns = job->t0 + (int64_t)l->next_arrival;
				l->next_arrival += s_gap_ns(l);
			}
		}
		job->ops->queue(job, io);
		l->queued[nq++] = io;
	}
	/* a replay's next record is due and every slot is busy: it goes out late */
	if (job->replay && !l->nfree && l->rnext < job->replay->nrec &&
	    job->t0 + (int64_t)l->next_arrival <= now)
		l->rlate = true;
	if (nq) {
		int64_t t = lst_mono_ns();

		for (unsigned i = 0; i < nq; i++) {
			struct lst_io *io = l->queued[i];

			if (!io->issue_ns)
				io->issue_ns = t;
			if (!io->submit_ns) /* psync stamps its own, before its pread/pwrite */
				io->submit_ns = t;
			io->busy = true;
			if (job->rec)
				s_record(job, io);
		}
		l->inflight += nq;
		if (job->count_depths)
			job->depths.level[s_level_bin(l->inflight)] += nq;
	}
	l->nqueued = nq;
}

/* The submit that carried the I/Os queued last: its batch, and their slat when the engine
 * returned from handing them over without waiting (a call that also waited ends when a
 * completion arrives, which is no submission latency). */
static void s_submitted(struct s_loop *l)
{
	struct lst_job *job = l->job;

	if (!l->nqueued || !job->count_depths) /* a wait only, or nothing counted */
		return;
	job->depths.submit[s_batch_bin(l->nqueued)]++;
	for (unsigned i = 0; job->submitted_ns && i < l->nqueued; i++) {
		const struct lst_io *io = l->queued[i];
		int64_t slat = job->submitted_ns - io->submit_ns;

		if (!io->trim)
			lst_hist_record(&job->depths.slat[io->dir], slat > 0 ? (uint64_t)slat : 0);
	}
	l->nqueued = 0;
}

/*
 * Submit what was queued and, when nothing more can be issued now, wait for a completion until
 * deadline; with nothing in flight (rate-limited and early), sleep to deadline. Returns 0 or the
 * engine's -errno.
 */
static int s_wait(struct s_loop *l, int64_t now, int64_t deadline, bool arrival_pending)
{
	struct lst_job *job = l->job;
	unsigned wait_nr = 0;
	int rc;

	if (!l->inflight) {
		lst_sleep_until_ns(deadline, 0);
		return 0;
	}
	if (!l->nfree || l->stopping || arrival_pending ||
	    (job->budget && l->issued >= job->budget))
		wait_nr = 1;
	job->submitted_ns = 0;
	rc = job->ops->submit(job, wait_nr, wait_nr ? LST_MAX(deadline - now, 1000) : 0);
	s_submitted(l);
	if (l->boosted)
		l->boosted = s_boost(false);
	return rc;
}

/*
 * The job stopped and waited its bound for what is in flight: end without it, naming the stuck
 * slots (how many, the oldest age) in the job's error, after the first I/O error if any.
 */
static void s_give_up(struct s_loop *l, int64_t now)
{
	struct lst_job *job = l->job;
	int64_t oldest = 0;
	unsigned n = 0;
	char first[LST_ERR_MAX];

	for (unsigned i = 0; i < job->depth; i++) {
		if (!job->ios[i].busy)
			continue;
		n++;
		oldest = LST_MAX(oldest, now - job->ios[i].submit_ns);
	}
	job->stuck = true;
	snprintf(first, sizeof(first), "%s%s", job->error ? job->err.msg : "",
		 job->error ? "; " : "");
	if (!job->error)
		job->error = -ETIMEDOUT;
	lst_err_set(&job->err, job->error,
		    "%s%s: %u I/Os still in flight after waiting %lld ms for them at the end, the "
		    "oldest for %lld ms (%s)",
		    first, job->name, n, (long long)(l->drain_ns / LST_NS_PER_MS),
		    (long long)(oldest / LST_NS_PER_MS),
		    job->w.io_timeout > 0 ? "the workload's io_timeout"
					  : "twice the latency and queue seen, at least 5 s; the "
					    "workload's io_timeout sets this wait");
}

/*
 * The job stops at now: at its end when it ran past it, so the intervals up to the end are
 * closed on the grid whatever the time it noticed; and from now it waits at most its drain
 * bound for what is in flight.
 */
static void s_stop(struct s_loop *l, int64_t now)
{
	struct lst_job *job = l->job;

	l->stopping = true;
	l->stop_at = job->end && now >= job->end ? job->end : now;
	l->drain_ns = s_drain_ns(l, now);
	l->drain_end = now + l->drain_ns;
}

static void s_run(struct s_loop *l)
{
	struct lst_job *job = l->job;
	const struct lst_engine_ops *ops = job->ops;
	int64_t next_boundary, now;

	now = lst_mono_ns();
	atomic_store_explicit(&job->started_ns, now, memory_order_release);
	next_boundary = s_grid_start(l, now);
	for (;;) {
		int64_t deadline = next_boundary;
		bool arrival_pending;
		unsigned n;
		int rc;

		if (!l->stopping &&
		    (atomic_load_explicit(&job->stop, memory_order_relaxed) ||
		     (job->end && now >= job->end) || (job->budget && l->issued >= job->budget) ||
		     (job->replay && l->rnext >= job->replay->nrec)))
			s_stop(l, now);
		s_issue(l, now, &arrival_pending);
		if (l->stopping && !l->inflight)
			break;
		if (l->stopping && now >= l->drain_end) {
			s_give_up(l, now);
			break;
		}
		if (arrival_pending)
			deadline = LST_MIN(deadline, job->t0 + (int64_t)l->next_arrival);
		if (job->end && !l->stopping)
			deadline = LST_MIN(deadline, job->end);
		if (l->stopping)
			deadline = l->drain_end;
		rc = s_wait(l, now, deadline, arrival_pending);
		if (rc < 0) {
			job->error = rc;
			lst_err_sys(&job->err, rc, "%s: submit failed", ops->name);
			break;
		}
		n = l->inflight ? ops->reap(job, l->done, l->inflight) : 0;
		now = lst_mono_ns();
		if (n) {
			if (job->count_depths)
				job->depths.complete[s_batch_bin(n)]++;
			s_complete(l, n, now);
		}
		if (job->end && now >= job->end && !l->stopping)
			s_stop(l, now);
		/*
		 * Every interval that ended before the stop is closed on its own, also when the
		 * thread woke long after it (a frozen process, a stalled VM): those intervals
		 * saw no completion, and say so, instead of vanishing into one final sample.
		 * What is still in flight at the stop drains into the final sample, so the last
		 * interval is not a sliver holding only the drain.
		 */
		while (now >= next_boundary && (!l->stopping || next_boundary < l->stop_at)) {
			s_close_interval(l, next_boundary, false);
			next_boundary += job->interval;
		}
	}
	s_close_interval(l, LST_MAX(now, l->cur->start_ns), true);
}

/*
 * How long before t0 a job stops sleeping and spins on the clock. A timer wake-up on a VM comes
 * late by up to 1.5-2.5 ms now and then (measured here: about 1 in 1,000 sleeps over 1 ms, with
 * the vCPU descheduled or the host busy); a spin on a running CPU sees t0 within microseconds.
 * The price is this much CPU per job per point, spent at SCHED_FIFO where allowed (s_boost).
 */
#define S_START_SPIN (3 * LST_NS_PER_MS)

/*
 * Sleep until t0 in slices, so a stop before t0 (STOP, a lease, a signal) takes effect at once:
 * the job then runs no I/O and finishes with an empty sample. The last S_START_SPIN is a spin.
 */
static void s_wait_start(struct lst_job *job)
{
	for (;;) {
		int64_t left = job->t0 - lst_mono_ns();

		if (atomic_load_explicit(&job->stop, memory_order_relaxed))
			return;
		if (left <= 50 * LST_NS_PER_MS)
			break;
		lst_sleep_ns(LST_MIN(left - 50 * LST_NS_PER_MS, 50 * LST_NS_PER_MS));
	}
	lst_sleep_until_ns(job->t0, S_START_SPIN);
}

void *lst_job_main(void *arg)
{
	struct lst_job *job = arg;
	struct s_loop l;
	int rc;

	/* Wake at t0, not up to 50 us later (the default timer slack). */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	s_loop_init(&l, job);
	rc = job->ops->init(job, &job->err);
	if (rc) {
		int64_t now = lst_mono_ns();

		job->error = rc;
		atomic_store_explicit(&job->started_ns, now, memory_order_release);
		l.cur->start_ns = l.cur->end_ns = now;
		s_close_interval(&l, now, true);
	} else {
		if (job->nramp > 0)
			l.cur->flags |= LST_SAMPLE_RAMP;
		l.boosted = s_boost(true);
		s_wait_start(job);
		s_run(&l);
		if (l.boosted)
			s_boost(false);
		job->ops->exit(job);
	}
	atomic_store_explicit(&job->finished, 1, memory_order_release);
	eventfd_write(job->efd, 1);
	return NULL;
}
