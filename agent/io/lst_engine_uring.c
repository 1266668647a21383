/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The io_uring engine (liburing 2.3): one ring per job, sized to the job's queue depth. queue()
 * fills an SQE; submit() sends every queued SQE and waits for completions; reap() takes a batch
 * of CQEs without a system call.
 *
 * Waiting: sleeping in io_uring_enter until a completion arrives costs a wakeup per completion
 * batch, and on a fast device those wakeups leave it idle between them (measured on a loop
 * device: a third of the machine idle, 10% of it spent waking this thread). So submit() first
 * polls for the workload's `poll` time (3 us by default), running the ring's deferred completions
 * with io_uring_get_events(), and only then sleeps. The poll adapts: when recent polls mostly came back empty (a slow device), it
 * stops polling for a while. Latency is unaffected: completions are stamped when reaped either
 * way, and polling reaps them sooner.
 *
 * Features are probed at run time: the ring asks for SINGLE_ISSUER with DEFER_TASKRUN
 * (completions run in this thread when it asks, never in a softirq that must wake it), then
 * COOP_TASKRUN, then plain flags on older kernels; the file and the buffers are registered when
 * the kernel lets us (fixed files skip a file-table lookup per I/O, fixed buffers skip pinning
 * pages per I/O), and plain read/write are used otherwise.
 */
#include "lst_job.h"

#include <fcntl.h>
#include <linux/falloc.h>

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_POLL_WINDOW 64    /* polls judged together */
#define S_POLL_BACKOFF 1024 /* waits without polling after a mostly empty window */

struct s_uring {
	struct io_uring ring;
	bool fixed_file;
	bool fixed_bufs;
	struct io_uring_cqe **cqes;
	unsigned polls, hits; /* in the current window */
	unsigned backoff;     /* waits left without polling */
};

static int s_ring_init(struct io_uring *ring, unsigned entries)
{
	static const unsigned flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, /* 6.1 */
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,	 /* 6.0 */
		0,
	};
	struct io_uring_params p;
	int rc = -EINVAL;

	for (size_t i = 0; i < LST_ARRAY_SIZE(flags) && rc == -EINVAL; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags[i];
		rc = io_uring_queue_init_params(entries, ring, &p);
	}
	return rc;
}

int lst_engine_uring_probe(lst_err *err)
{
	struct io_uring_probe *probe;
	struct io_uring ring;
	int rc = s_ring_init(&ring, 4);

	if (rc)
		return lst_err_sys(err, rc, "io_uring_setup");
	probe = io_uring_get_probe_ring(&ring);
	if (probe && (!io_uring_opcode_supported(probe, IORING_OP_READ) ||
		      !io_uring_opcode_supported(probe, IORING_OP_WRITE)))
		rc = lst_err_set(err, -ENOTSUP,
				 "io_uring lacks IORING_OP_READ/WRITE (kernel < 5.6)");
	io_uring_free_probe(probe);
	io_uring_queue_exit(&ring);
	return rc;
}

static int s_init(struct lst_job *job, lst_err *err)
{
	/* On the job's thread: a failed allocation is an error, not an abort (lst_job.h). */
	struct s_uring *e = calloc(1, sizeof(*e));
	struct iovec *iov;
	int rc;

	if (!e || !(e->cqes = calloc(job->depth, sizeof(*e->cqes)))) {
		free(e);
		return lst_err_set(err, -ENOMEM, "job %u: out of memory", job->id);
	}
	rc = s_ring_init(&e->ring, job->depth);
	if (rc) {
		free(e->cqes);
		free(e);
		return lst_err_sys(err, rc, "job %u: io_uring_queue_init(%u)", job->id, job->depth);
	}
	if (job->fd >= 0 && !io_uring_register_files(&e->ring, &job->fd, 1))
		e->fixed_file = true;
	iov = calloc(job->depth, sizeof(*iov));
	for (unsigned i = 0; iov && i < job->depth; i++) {
		iov[i].iov_base = job->ios[i].buf;
		iov[i].iov_len = job->ios[i].len;
	}
	rc = iov ? io_uring_register_buffers(&e->ring, iov, job->depth) : -ENOMEM;
	e->fixed_bufs = rc == 0;
	if (rc)
		lst_log_debug(LST_DBG_IO,
			      "job %u: registered buffers refused (%d), using plain I/O", job->id,
			      rc);
	free(iov);
	job->engine = e;
	return 0;
}

static void s_exit(struct lst_job *job)
{
	struct s_uring *e = job->engine;

	/*
	 * Drop the registrations first: they are released synchronously here, while a ring's own
	 * teardown runs later in a kernel worker. Without this the device stays claimed for a few
	 * milliseconds after close, and the next O_EXCL open of it fails with EBUSY. A job that
	 * gave up on stuck I/O (job->stuck) skips them: unregistering may wait for that I/O.
	 */
	if (e->fixed_file && !job->stuck)
		io_uring_unregister_files(&e->ring);
	if (e->fixed_bufs && !job->stuck)
		io_uring_unregister_buffers(&e->ring);
	io_uring_queue_exit(&e->ring);
	free(e->cqes);
	free(e);
	job->engine = NULL;
}

static void s_queue(struct lst_job *job, struct lst_io *io)
{
	struct s_uring *e = job->engine;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
	int fd = e->fixed_file ? 0 : job->fd;

	/* The ring has at least depth entries and never more than depth I/Os queued or in
	 * flight, so an SQE is always free. */
	if (io->trim) {
		/* a discard; on a block device the kernel turns a punched hole into
		 * write-zeroes that may unmap (the device counts it as a write) */
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)io->offset, (off_t)io->len);
	} else if (io->dir == LST_DIR_READ) {
		if (e->fixed_bufs)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset,
						 (int)io->idx);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
	} else {
		if (e->fixed_bufs)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset,
						  (int)io->idx);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
	}
	if (e->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
}

/*
 * Submit (stamping job->submitted_ns when that returns), then poll up to poll_ns for wait_nr
 * completions. True when they arrived. Each round of
 * S_POLL_WINDOW polls is judged: if fewer than half found their completions, polling pauses for
 * S_POLL_BACKOFF waits (the device is slower than a poll is worth).
 */
static bool s_poll(struct lst_job *job, struct s_uring *e, unsigned wait_nr, int64_t poll_ns,
		   int64_t timeout_ns)
{
	int64_t until;
	bool hit;

	if (!poll_ns)
		return false;
	if (e->backoff) {
		e->backoff--;
		return false;
	}
	if (io_uring_submit(&e->ring) < 0)
		return false;
	job->submitted_ns = lst_mono_ns();
	until = job->submitted_ns + LST_MIN(poll_ns, timeout_ns);
	while (!(hit = io_uring_cq_ready(&e->ring) >= wait_nr) && lst_mono_ns() < until)
		io_uring_get_events(&e->ring);
	e->hits += hit;
	if (++e->polls == S_POLL_WINDOW) {
		if (e->hits < S_POLL_WINDOW / 2)
			e->backoff = S_POLL_BACKOFF;
		e->polls = e->hits = 0;
	}
	return hit;
}

static int s_submit(struct lst_job *job, unsigned wait_nr, int64_t timeout_ns)
{
	struct s_uring *e = job->engine;
	int rc;

	if (wait_nr && s_poll(job, e, wait_nr, job->w.poll, timeout_ns))
		return 0;
	if (!wait_nr) {
		rc = io_uring_submit(&e->ring);
		if (job->count_depths)
			job->submitted_ns = lst_mono_ns();
	} else {
		struct __kernel_timespec ts = { .tv_sec = timeout_ns / 1000000000,
						.tv_nsec = timeout_ns % 1000000000 };
		struct io_uring_cqe *cqe;

		rc = io_uring_submit_and_wait_timeout(&e->ring, &cqe, wait_nr, &ts, NULL);
	}
	if (rc == -ETIME || rc == -EINTR || rc == -EAGAIN || rc == -EBUSY)
		return 0;
	return rc < 0 ? rc : 0;
}

static unsigned s_reap(struct lst_job *job, struct lst_io **out, unsigned max)
{
	struct s_uring *e = job->engine;
	unsigned n = io_uring_peek_batch_cqe(&e->ring, e->cqes, max);

	for (unsigned i = 0; i < n; i++) {
		struct lst_io *io = io_uring_cqe_get_data(e->cqes[i]);

		io->res = e->cqes[i]->res;
		if (io->trim && io->res == 0) /* fallocate returns 0: the whole range */
			io->res = (int32_t)io->len;
		out[i] = io;
	}
	io_uring_cq_advance(&e->ring, n);
	return n;
}

const struct lst_engine_ops lst_engine_uring = {
	.name = "io_uring",
	.init = s_init,
	.exit = s_exit,
	.queue = s_queue,
	.submit = s_submit,
	.reap = s_reap,
};
