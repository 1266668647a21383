/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synchronous engines, which complete every I/O inside queue() and hand it back at the next
 * reap():
 *
 * - psync: pread/pwrite on the job's thread, one I/O at a time, each timed around its own system
 *   call. It is the fallback where io_uring is blocked (containers, seccomp profiles,
 *   kernel.io_uring_disabled) and a reference for the io_uring engine's counts.
 * - null: completes at once with no system call. It measures lockstep's own cost per I/O
 *   (offsets, slots, batching, histograms), the ceiling any real device is measured under.
 */
#include "lst_job.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_time.h"
#include "lst_util.h"

struct s_sync {
	unsigned n;
	struct lst_io **done;
};

static int s_init(struct lst_job *job, lst_err *err)
{
	/* On the job's thread: a failed allocation is an error, not an abort (lst_job.h). */
	struct s_sync *e = calloc(1, sizeof(*e));

	if (!e || !(e->done = calloc(job->depth, sizeof(*e->done)))) {
		free(e);
		return lst_err_set(err, -ENOMEM, "job %u: out of memory", job->id);
	}
	job->engine = e;
	return 0;
}

static void s_exit(struct lst_job *job)
{
	struct s_sync *e = job->engine;

	free(e->done);
	free(e);
	job->engine = NULL;
}

static void s_queue_null(struct lst_job *job, struct lst_io *io)
{
	struct s_sync *e = job->engine;

	io->res = (int32_t)io->len;
	e->done[e->n++] = io;
}

/* A trim, on the job's thread: BLKDISCARD on a block device (the device counts a
 * discard), a punched hole in a regular file. Returns len or -errno. */
static ssize_t s_trim(struct lst_job *job, struct lst_io *io)
{
	struct stat st;

	if (fstat(job->fd, &st) == 0 && S_ISBLK(st.st_mode)) {
		uint64_t range[2] = { io->offset, io->len };

		return ioctl(job->fd, BLKDISCARD, range) < 0 ? -1 : (ssize_t)io->len;
	}
	return fallocate(job->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)io->offset,
			 (off_t)io->len) < 0
		       ? -1
		       : (ssize_t)io->len;
}

static void s_queue_psync(struct lst_job *job, struct lst_io *io)
{
	struct s_sync *e = job->engine;
	ssize_t r;

	io->submit_ns = lst_mono_ns();
	if (!io->issue_ns)
		io->issue_ns = io->submit_ns;
	do {
		if (io->trim)
			r = s_trim(job, io);
		else if (io->dir == LST_DIR_READ)
			r = pread(job->fd, io->buf, io->len, (off_t)io->offset);
		else
			r = pwrite(job->fd, io->buf, io->len, (off_t)io->offset);
	} while (r < 0 && errno == EINTR);
	io->res = r < 0 ? -errno : (int32_t)r;
	io->done_ns = lst_mono_ns();
	e->done[e->n++] = io;
}

/* Everything queued has already completed: nothing to send, nothing to wait for. */
static int s_submit(struct lst_job *job, unsigned wait_nr, int64_t timeout_ns)
{
	(void)job;
	(void)wait_nr;
	(void)timeout_ns;
	return 0;
}

static unsigned s_reap(struct lst_job *job, struct lst_io **out, unsigned max)
{
	struct s_sync *e = job->engine;
	unsigned n = e->n < max ? e->n : max;

	for (unsigned i = 0; i < n; i++)
		out[i] = e->done[i];
	for (unsigned i = n; i < e->n; i++)
		e->done[i - n] = e->done[i];
	e->n -= n;
	return n;
}

const struct lst_engine_ops lst_engine_psync = {
	.name = "psync",
	.init = s_init,
	.exit = s_exit,
	.queue = s_queue_psync,
	.submit = s_submit,
	.reap = s_reap,
};

const struct lst_engine_ops lst_engine_null = {
	.name = "null",
	.init = s_init,
	.exit = s_exit,
	.queue = s_queue_null,
	.submit = s_submit,
	.reap = s_reap,
};
