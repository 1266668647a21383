/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Verified writes and verifying reads in the job loop (agent/io), in-process over a
 * file under /tmp with the psync engine and, where this host allows it, io_uring:
 * - a verified random write stamps every unit it writes: a replay of the stream reported by the
 *   run (lst_ioseq over lst_run_stream) gives, for every unit, the I/Os that wrote it, and the
 *   unit's stamp names one of them (the last one, with psync's one I/O at a time), its LBA,
 *   target, writer and generation; units no I/O wrote hold no stamp;
 * - the watermarks of every interval never go back, low <= issued, and the last ones say
 *   everything issued completed without a write error;
 * - a verifying read of the region (no journal) finds every written unit ok, the rest
 *   unwritten, nothing bad; one byte flipped in one unit: exactly that unit is bad (checksum);
 * - a verified job spec that mixes reads and writes is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "lst_run.h"
#include "lst_test.h"
#include "lst_time.h"

#define S_SIZE (8u << 20)
#define S_BS (16u << 10)
#define S_UNITS (S_SIZE / LST_VERIFY_UNIT)
#define S_TARGET 0xabcd1234u

struct s_seen {
	const lst_run *run;
	struct lst_job_mark last[4];
	unsigned samples;
	struct lst_sample_verify v;
};

static void s_on_sample(const lst_sample *s, void *arg)
{
	struct s_seen *seen = arg;

	for (size_t i = 0; i < lst_run_njobs(seen->run); i++) {
		const struct lst_job_mark *m = lst_run_mark(seen->run, i);

		if (!lst_run_job_verify_write(seen->run, i))
			continue;
		T_ASSERT(m->low <= m->issued);
		T_ASSERT(m->low >= seen->last[i].low);
		T_ASSERT(m->issued >= seen->last[i].issued);
		seen->last[i] = *m;
	}
	seen->v.ok += s->verify.ok;
	seen->v.pending += s->verify.pending;
	seen->v.unwritten += s->verify.unwritten;
	seen->v.bad += s->verify.bad;
	seen->samples++;
}

static void s_workload(struct lst_run_path *p, int fd, int engine, int rw, uint64_t bytes)
{
	*p = (struct lst_run_path){ .fd = fd, .size = S_SIZE, .name = "verify-file" };
	lst_workload_init(&p->w);
	p->w.engine = engine;
	p->w.rw = rw;
	p->w.bs = S_BS;
	p->w.size = S_SIZE;
	p->w.iodepth = engine == LST_ENGINE_PSYNC ? 1 : 8;
	p->w.bytes = (int64_t)bytes;
	p->w.seed = 42;
	p->w.verify = 1;
	p->w.interval = 20 * LST_NS_PER_MS;
	p->stamp = (struct lst_stamp){ .target = S_TARGET, .agent = 3, .path = 1, .gen = 2 };
}

/* Run to the end; returns the run (for its streams, marks and bad units). */
static lst_run *s_run(struct lst_run_path *p, struct s_seen *seen)
{
	lst_err err;
	lst_run *run = lst_run_new(p, 1, &err);

	if (!run)
		T_FAIL("lst_run_new: %s", err.msg);
	memset(seen, 0, sizeof(*seen));
	seen->run = run;
	T_EQ_INT(lst_run_start(run, lst_mono_ns() + 5 * LST_NS_PER_MS, &err), 0);
	while (!lst_run_collect(run, s_on_sample, seen)) {
		struct pollfd pfd = { .fd = lst_run_eventfd(run), .events = POLLIN };

		poll(&pfd, 1, 100);
	}
	if (lst_run_error(run, &err))
		T_FAIL("run error: %s", err.msg);
	return run;
}

/* Replay the write's stream: per unit, the highest I/O index that wrote it, +1 (0 = none);
 * *any_seq[u] bit: it was written by more than one I/O. */
static uint64_t s_replay(const struct lst_stream *st, uint64_t issued, uint64_t *last)
{
	struct lst_ioseq q;
	uint64_t units = 0;

	lst_ioseq_init(&q, st);
	for (uint64_t k = 0; k < issued; k++) {
		uint64_t off;
		uint8_t dir;

		lst_ioseq_next(&q, &off, &dir);
		T_EQ_INT(dir, 1);
		for (uint64_t u = off / LST_VERIFY_UNIT; u < (off + st->bs) / LST_VERIFY_UNIT;
		     u++) {
			units += !last[u];
			last[u] = k + 1;
		}
	}
	return units;
}

/* Every unit of the file against the replay. */
static void s_check_file(int fd, const uint64_t *last, bool exact)
{
	uint8_t *buf = malloc(S_SIZE);

	T_EQ_INT(pread(fd, buf, S_SIZE, 0), S_SIZE);
	for (uint64_t u = 0; u < S_UNITS; u++) {
		struct lst_stamp s;
		enum lst_stamp_kind k = lst_stamp_get(buf + u * LST_VERIFY_UNIT, u, S_TARGET, &s);

		if (!last[u]) {
			T_EQ_INT(k, LST_STAMP_NONE);
			continue;
		}
		T_EQ_INT(k, LST_STAMP_OK);
		T_EQ_U64(s.lba, u);
		T_EQ_INT(s.agent, 3);
		T_EQ_INT(s.path, 1);
		T_EQ_INT(s.gen, 2);
		T_ASSERT(s.seq < last[u]);
		if (exact)
			T_EQ_U64(s.seq, last[u] - 1);
		T_ASSERT(s.t_ns >= 0 && s.t_ns < 60 * LST_NS_PER_S);
	}
	free(buf);
}

static void s_engine(int engine, const char *name)
{
	char path[] = "/tmp/lst-verify-XXXXXX";
	struct lst_run_path p;
	struct s_seen seen;
	uint64_t *last = calloc(S_UNITS, sizeof(*last)), written, nbad;
	const struct lst_job_bad *bad;
	size_t n;
	uint8_t byte;
	lst_run *run;
	int fd = mkstemp(path);

	T_ASSERT(fd >= 0);
	unlink(path);
	T_EQ_INT(ftruncate(fd, S_SIZE), 0);

	/* verified random write of half the region's size in bytes */
	s_workload(&p, fd, engine, LST_RW_RANDWRITE, S_SIZE / 2);
	run = s_run(&p, &seen);
	T_EQ_U64(seen.last[0].issued, S_SIZE / 2 / S_BS);
	T_EQ_U64(seen.last[0].low, seen.last[0].issued);
	T_EQ_U64(seen.last[0].werr, 0);
	T_EQ_U64(lst_run_stream(run, 0)->bs, S_BS);
	T_EQ_INT(lst_run_stream(run, 0)->random, 1);
	written = s_replay(lst_run_stream(run, 0), seen.last[0].issued, last);
	lst_run_destroy(&run);
	s_check_file(fd, last, engine == LST_ENGINE_PSYNC);

	/* verifying read of the whole region: written units ok, the rest unwritten */
	s_workload(&p, fd, engine, LST_RW_READ, 0);
	run = s_run(&p, &seen);
	T_EQ_U64(seen.v.ok, written);
	T_EQ_U64(seen.v.unwritten, S_UNITS - written);
	T_EQ_U64(seen.v.bad, 0);
	lst_run_destroy(&run);

	/* one byte flipped in the middle of a written unit: exactly that one is bad */
	for (n = 0; !last[n]; n++)
		;
	T_EQ_INT(pread(fd, &byte, 1, (off_t)(n * LST_VERIFY_UNIT + 1000)), 1);
	byte ^= 0x5a;
	T_EQ_INT(pwrite(fd, &byte, 1, (off_t)(n * LST_VERIFY_UNIT + 1000)), 1);
	run = s_run(&p, &seen);
	T_EQ_U64(seen.v.bad, 1);
	T_EQ_U64(seen.v.ok, written - 1);
	bad = lst_run_bad(run, 0, &(size_t){ 0 }, &nbad);
	T_EQ_U64(nbad, 1);
	T_EQ_U64(bad[0].offset, n * LST_VERIFY_UNIT);
	T_EQ_INT(bad[0].kind, LST_VK_CHECKSUM);
	T_EQ_INT(bad[0].stamp_kind, LST_STAMP_CRC);
	lst_run_destroy(&run);
	close(fd);
	free(last);
	printf("%s: %llu units written and verified, the flipped one found\n", name,
	       (unsigned long long)written);
}

/* A verified job spec must either write or read. */
static void s_mixed_refused(void)
{
	struct lst_run_path p;
	lst_err err;

	s_workload(&p, -1, LST_ENGINE_NULL, LST_RW_RANDRW, 0);
	p.w.rwmixread = 50;
	T_ASSERT(lst_run_new(&p, 1, &err) == NULL);
	T_CONTAINS(err.msg, "either writes or reads");
}

int main(void)
{
	lst_err err;

	s_mixed_refused();
	s_engine(LST_ENGINE_PSYNC, "psync");
	if (lst_engine_uring_probe(&err) == 0)
		s_engine(LST_ENGINE_IO_URING, "io_uring");
	else
		printf("io_uring not available here (%s): psync only\n", err.msg);
	return 0;
}
