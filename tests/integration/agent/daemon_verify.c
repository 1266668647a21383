/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity on a real agent: a lockstep-agent process driven over loopback by a
 * DEALER with the real codec, as a coordinator would, over a file under /tmp.
 *
 *   - WELCOME lists verify.v1; a PREPARE with a stamp in a session whose HELLO lacked it, and a
 *     verified spec mixing reads and writes, are refused;
 *   - a verified random write (2 jobs): PREPARED reports both streams, every SAMPLE their
 *     marks, the last ones with low == issued and no write error, and the issued I/Os add up
 *     to the byte budget;
 *   - a verifying read before any JOURNAL of its target: refused, naming the target; a JOURNAL
 *     page out of order: ERROR STATE; a journal of over 65536 streams: REFUSED;
 *   - JOURNAL of the two streams, then a verifying read of the whole file: every unit the
 *     replay of the streams says was written is ok, the rest unwritten, nothing bad; the
 *     SAMPLEs' counts add up to the file's units;
 *   - one byte of one written unit flipped: the same read sends one INTEGRITY before DONE with
 *     that unit's offset and kind checksum; DONE's integrity is 1;
 *   - the file zeroed: every written unit is bad (no stamp), LST_BAD_PER_POINT of them come in
 *     full INTEGRITY frames, DONE counts those frames and the rest as unreported.
 */
#include <czmq.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "agent_client.h"
#include "lst_assert.h"
#include "lst_msg.h"
#include "lst_test.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"
#include "lst_verify.h"

#define MiB (1024 * 1024)
#define S_SIZE (16 * MiB)
#define S_UNITS (S_SIZE / LST_VERIFY_UNIT)
#define S_WBS (16 * 1024)

static char s_disk[PATH_MAX + 16];
static const char *s_run = "verify-1";

/* What a point sent, start to DONE. */
struct s_point {
	lst_msg *done;
	uint64_t samples;
	struct lst_sample_verify v;
	struct lst_stream_mark last[LST_MAX_STREAMS];
	uint32_t nmarks;
	bool marks_ok; /* every SAMPLE had nmarks marks, never going back */
	struct lst_bad_unit bad[LST_BAD_PER_MSG];
	uint32_t nbad, integrity;
	bool integrity_before_done;
};

/* ---------------------------------------------------------------- the wire */

/* The ERROR answering command re: its code, and its text containing want. */
static void s_expect_error(struct lst_ac_peer *p, int code, uint64_t re, const char *want)
{
	lst_msg *m = lst_ac_expect_error(p, code, re, 5000);

	T_CONTAINS(m->u.error.text, want);
	lst_msg_destroy(&m);
}

static lst_msg *s_hello(struct lst_ac_peer *a, bool verify)
{
	return lst_ac_hello(a, s_run, verify ? LST_CAP_VERIFY : NULL);
}

static lst_msg *s_prepare_msg(uint32_t point, int rw, const char *target, uint32_t gen)
{
	lst_msg *m = lst_msg_new(LST_MSG_PREPARE);
	struct lst_jobspec *j = &m->u.prepare.jobs[0];

	lst_copy(m->u.prepare.run, sizeof(m->u.prepare.run), s_run);
	lst_copy(m->u.prepare.name, sizeof(m->u.prepare.name), "verify");
	m->u.prepare.phase = 1;
	m->u.prepare.point = point;
	m->u.prepare.njobs = 1;
	lst_copy(j->target, sizeof(j->target), target);
	lst_copy(j->path, sizeof(j->path), s_disk);
	j->action = LST_ACTION_IO;
	lst_workload_init(&j->w);
	j->w.rw = rw;
	j->w.size = S_SIZE;
	j->w.iodepth = 4;
	j->w.interval = 50 * LST_NS_PER_MS;
	j->w.direct = 1;
	j->w.verify = 1;
	j->w.seed = 11;
	if (rw == LST_RW_RANDWRITE) {
		j->w.bs = S_WBS;
		j->w.jobs = 2;
		j->w.bytes = S_SIZE / 2;
		j->w.rate_iops = 2000; /* 512 I/Os over about 0.25 s: several SAMPLEs */
	} else {
		j->w.bs = 64 * 1024; /* one pass over the region */
	}
	j->has_stamp = 1;
	j->stamp = (struct lst_stamp_spec){
		.target = lst_verify_target_id(target), .agent = 1, .path = 0, .gen = gen
	};
	return m;
}

/* START the prepared point and take everything it sends until DONE. */
static void s_run_point(struct lst_ac_peer *a, uint32_t point, struct s_point *pt)
{
	lst_msg *m = lst_msg_new(LST_MSG_START);
	uint64_t id;

	memset(pt, 0, sizeof(*pt));
	pt->marks_ok = true;
	m->u.start.phase = 1;
	m->u.start.point = point;
	m->u.start.t0 = lst_mono_ns() + 100 * LST_NS_PER_MS;
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	m = lst_ac_expect(a, LST_MSG_STARTED, id, 3000);
	lst_msg_destroy(&m);
	while (!pt->done) {
		m = lst_ac_recv(a, 20000);
		if (!m)
			T_FAIL("no DONE within 20 s (%llu samples)",
			       (unsigned long long)pt->samples);
		if (m->type == LST_MSG_SAMPLE) {
			const struct lst_msg_sample *s = &m->u.sample;

			pt->samples++;
			pt->v.ok += s->s.verify.ok;
			pt->v.pending += s->s.verify.pending;
			pt->v.unwritten += s->s.verify.unwritten;
			pt->v.bad += s->s.verify.bad;
			if (pt->samples > 1 && s->nmarks != pt->nmarks)
				pt->marks_ok = false;
			for (uint32_t i = 0; i < s->nmarks; i++) {
				const struct lst_stream_mark *k = &s->marks[i];

				if (k->stream != i || k->low > k->issued ||
				    k->low < pt->last[i].low || k->issued < pt->last[i].issued)
					pt->marks_ok = false;
				pt->last[i] = *k;
			}
			pt->nmarks = s->nmarks;
			lst_msg_destroy(&m);
		} else if (m->type == LST_MSG_INTEGRITY) {
			const struct lst_msg_integrity *in = &m->u.integrity;

			T_EQ_INT(in->phase, 1);
			T_EQ_INT(in->point, point);
			for (uint32_t i = 0; i < in->nbad && pt->nbad < LST_BAD_PER_MSG; i++)
				pt->bad[pt->nbad++] = in->bad[i];
			pt->integrity++;
			lst_msg_destroy(&m);
		} else if (m->type == LST_MSG_DONE) {
			pt->done = m;
		} else {
			T_FAIL("unexpected %s during the point", lst_msg_type_name(m->type));
		}
	}
	lst_ac_ack(a, 0);
}

/* ---------------------------------------------------------------- tests */

static void test_caps(struct lst_ac_peer *a)
{
	lst_msg *m = s_hello(a, false);
	bool cap = false;
	uint64_t id;

	for (uint32_t i = 0; i < m->u.welcome.ncaps; i++)
		cap |= !strcmp(m->u.welcome.caps[i], LST_CAP_VERIFY);
	T_ASSERT(cap);
	lst_msg_destroy(&m);
	m = s_prepare_msg(0, LST_RW_RANDWRITE, "disk0", 1);
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, LST_CAP_VERIFY);

	m = s_hello(a, true); /* the same run: the session resumes, now with verify.v1 */
	lst_msg_destroy(&m);
	m = s_prepare_msg(0, LST_RW_RANDRW, "disk0", 1);
	m->u.prepare.jobs[0].w.rwmixread = 50;
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, "either writes or reads");
	printf("ok: WELCOME lists verify.v1; a stamp without it and a mixed verify are refused\n");
}

/* The verified write; fills streams[] (PREPARED) and the final marks. */
static void test_write(struct lst_ac_peer *a, struct lst_journal_stream *js, uint32_t *njs)
{
	lst_msg *m = s_prepare_msg(1, LST_RW_RANDWRITE, "disk0", 1), *r;
	struct s_point pt;
	uint64_t id = lst_ac_send(a, m, true), issued = 0;

	lst_msg_destroy(&m);
	r = lst_ac_expect(a, LST_MSG_PREPARED, id, 5000);
	T_EQ_INT(r->u.prepared.nstreams, 2);
	for (uint32_t i = 0; i < 2; i++) {
		const struct lst_stream_info *si = &r->u.prepared.streams[i];

		T_EQ_INT(si->spec, 0);
		T_EQ_INT(si->s.bs, S_WBS);
		T_EQ_INT(si->s.random, 1);
		T_EQ_INT(si->s.read_pct, 0);
		T_EQ_U64(si->s.hi, S_SIZE);
		js[i] = (struct lst_journal_stream){ .s = si->s, .gen = 1, .agent = 1 };
	}
	*njs = 2;
	lst_msg_destroy(&r);
	s_run_point(a, 1, &pt);
	T_EQ_INT(pt.done->u.done.reason, LST_DONE_COMPLETE);
	T_EQ_INT(pt.done->u.done.integrity, 0);
	T_ASSERT(pt.marks_ok);
	T_ASSERT(pt.samples >= 3);
	T_EQ_INT(pt.nmarks, 2);
	for (uint32_t i = 0; i < 2; i++) {
		T_EQ_U64(pt.last[i].low, pt.last[i].issued);
		T_EQ_U64(pt.last[i].werr, 0);
		issued += pt.last[i].issued;
		js[i].low = js[i].issued = pt.last[i].issued;
		js[i].complete = 1;
	}
	T_EQ_U64(issued * S_WBS, S_SIZE / 2);
	lst_msg_destroy(&pt.done);
	printf("ok: verified write: 2 streams in PREPARED, marks in %llu SAMPLEs, final low == "
	       "issued (%llu I/Os)\n",
	       (unsigned long long)pt.samples, (unsigned long long)issued);
}

static void test_no_journal(struct lst_ac_peer *a, const struct lst_journal_stream *js)
{
	lst_msg *m = s_prepare_msg(2, LST_RW_READ, "disk0", 0);
	uint64_t id = lst_ac_send(a, m, true);

	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, "no journal for target disk0");
	m = lst_msg_new(LST_MSG_JOURNAL);
	m->u.journal.target = lst_verify_target_id("disk0");
	m->u.journal.from = 5;
	m->u.journal.total = 6;
	m->u.journal.nstreams = 1;
	m->u.journal.streams[0] = js[0];
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_STATE, id, "in order");
	m = lst_msg_new(LST_MSG_JOURNAL);
	m->u.journal.target = lst_verify_target_id("disk0");
	m->u.journal.total = 70000;
	m->u.journal.nstreams = 1;
	m->u.journal.streams[0] = js[0];
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, "at most 65536");
	printf("ok: a verifying read without a journal is refused; a page out of order, a journal "
	       "over 65536 streams too\n");
}

static void s_journal(struct lst_ac_peer *a, const struct lst_journal_stream *js, uint32_t n)
{
	lst_msg *m = lst_msg_new(LST_MSG_JOURNAL), *r;
	uint64_t id;

	m->u.journal.target = lst_verify_target_id("disk0");
	m->u.journal.from = 0;
	m->u.journal.total = n;
	m->u.journal.nstreams = n;
	memcpy(m->u.journal.streams, js, n * sizeof(*js));
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	r = lst_ac_expect(a, LST_MSG_JOURNAL_OK, id, 3000);
	T_EQ_INT(r->u.journal_ok.target, lst_verify_target_id("disk0"));
	T_EQ_INT(r->u.journal_ok.have, n);
	lst_msg_destroy(&r);
}

/* Units the streams wrote (a replay); *first gets one of them. */
static uint64_t s_written(const struct lst_journal_stream *js, uint32_t n, uint64_t *first)
{
	uint8_t *hit = calloc(S_UNITS, 1);
	uint64_t units = 0;

	*first = UINT64_MAX;
	for (uint32_t i = 0; i < n; i++) {
		struct lst_ioseq q;

		lst_ioseq_init(&q, &js[i].s);
		for (uint64_t k = 0; k < js[i].issued; k++) {
			uint64_t off;
			uint8_t dir;

			lst_ioseq_next(&q, &off, &dir);
			for (uint64_t u = off / LST_VERIFY_UNIT;
			     u < (off + js[i].s.bs) / LST_VERIFY_UNIT; u++) {
				units += !hit[u];
				hit[u] = 1;
				*first = LST_MIN(*first, u);
			}
		}
	}
	free(hit);
	return units;
}

static void s_read(struct lst_ac_peer *a, uint32_t point, struct s_point *pt)
{
	lst_msg *m = s_prepare_msg(point, LST_RW_READ, "disk0", 0), *r;
	uint64_t id = lst_ac_send(a, m, true);

	lst_msg_destroy(&m);
	r = lst_ac_expect(a, LST_MSG_PREPARED, id, 5000);
	T_EQ_INT(r->u.prepared.nstreams, 0);
	lst_msg_destroy(&r);
	s_run_point(a, point, pt);
	T_EQ_INT(pt->done->u.done.reason, LST_DONE_COMPLETE);
	T_EQ_U64(pt->v.ok + pt->v.pending + pt->v.unwritten + pt->v.bad, S_UNITS);
}

static void test_read(struct lst_ac_peer *a, const struct lst_journal_stream *js, uint32_t n)
{
	struct s_point pt;
	uint64_t first, written = s_written(js, n, &first);
	uint8_t byte;
	int fd;

	s_journal(a, js, n);
	s_read(a, 3, &pt);
	T_EQ_U64(pt.v.ok, written);
	T_EQ_U64(pt.v.unwritten, S_UNITS - written);
	T_EQ_U64(pt.v.bad, 0);
	T_EQ_U64(pt.v.pending, 0);
	T_EQ_INT(pt.done->u.done.integrity, 0);
	T_EQ_INT(pt.integrity, 0);
	lst_msg_destroy(&pt.done);
	printf("ok: verifying read: %llu units ok, %llu unwritten, 0 bad\n",
	       (unsigned long long)written, (unsigned long long)(S_UNITS - written));

	fd = open(s_disk, O_RDWR | O_CLOEXEC);
	T_ASSERT(fd >= 0);
	T_EQ_INT(pread(fd, &byte, 1, (off_t)(first * LST_VERIFY_UNIT + 2000)), 1);
	byte ^= 0x5a;
	T_EQ_INT(pwrite(fd, &byte, 1, (off_t)(first * LST_VERIFY_UNIT + 2000)), 1);
	T_EQ_INT(fsync(fd), 0);
	close(fd);
	s_read(a, 4, &pt);
	T_EQ_U64(pt.v.bad, 1);
	T_EQ_U64(pt.v.ok, written - 1);
	T_EQ_INT(pt.integrity, 1);
	T_EQ_INT(pt.nbad, 1);
	T_EQ_INT(pt.done->u.done.integrity, 1);
	T_EQ_U64(pt.done->u.done.bad_unreported, 0);
	T_EQ_U64(pt.bad[0].offset, first * LST_VERIFY_UNIT);
	T_EQ_INT(pt.bad[0].kind, LST_VK_CHECKSUM);
	T_EQ_INT(pt.bad[0].stamp_kind, LST_STAMP_CRC);
	T_EQ_INT(pt.bad[0].expected, 1);
	T_EQ_INT(pt.bad[0].spec, 0);
	T_EQ_INT(pt.bad[0].found.gen, 1);
	lst_msg_destroy(&pt.done);
	printf("ok: one byte flipped: one INTEGRITY before DONE, offset %llu, kind checksum\n",
	       (unsigned long long)(first * LST_VERIFY_UNIT));

	/* the whole file zeroed: every written unit bad (no stamp), LST_BAD_PER_POINT of them
	 * itemized in full INTEGRITY frames, the rest counted in DONE */
	fd = open(s_disk, O_RDWR | O_CLOEXEC);
	T_ASSERT(fd >= 0 && !ftruncate(fd, 0) && !ftruncate(fd, S_SIZE) && !fsync(fd));
	close(fd);
	T_ASSERT(written > LST_BAD_PER_POINT);
	s_read(a, 5, &pt);
	T_EQ_U64(pt.v.bad, written);
	T_EQ_U64(pt.v.unwritten, S_UNITS - written);
	T_EQ_INT(pt.integrity, LST_BAD_PER_POINT / LST_BAD_PER_MSG);
	T_EQ_INT(pt.done->u.done.integrity, LST_BAD_PER_POINT / LST_BAD_PER_MSG);
	T_EQ_U64(pt.done->u.done.bad_unreported, written - LST_BAD_PER_POINT);
	T_EQ_INT(pt.bad[0].kind, LST_VK_NO_STAMP);
	T_EQ_INT(pt.bad[0].stamp_kind, LST_STAMP_NONE);
	lst_msg_destroy(&pt.done);
	printf("ok: zeroed: %llu bad, %d itemized in %d INTEGRITY frames, the rest counted\n",
	       (unsigned long long)written, LST_BAD_PER_POINT, LST_BAD_PER_POINT / LST_BAD_PER_MSG);
}

int main(void)
{
	const char *bin = getenv("LST_BIN");
	char agent[PATH_MAX], glob[PATH_MAX + 4];
	struct lst_journal_stream js[2];
	uint32_t njs = 0;
	struct lst_ac_peer *a;
	int fd;

	if (!bin) {
		fprintf(stderr, "skip: set LST_BIN\n");
		return LST_TEST_SKIP;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(agent, sizeof(agent), "%s/lockstep-agent", bin);
	lst_ac_setup("verify");
	snprintf(s_disk, sizeof(s_disk), "%s/disk", lst_ac.dir);
	fd = open(s_disk, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	T_ASSERT(fd >= 0 && !ftruncate(fd, S_SIZE));
	close(fd);
	snprintf(glob, sizeof(glob), "%s/*", lst_ac.dir);
	lst_ac_spawn(agent, (const char *const[]){ "--allow-write", glob, "--name", "verifier",
						   "--debug", "proto", NULL });
	a = lst_ac_peer_new();
	test_caps(a);
	test_write(a, js, &njs);
	test_no_journal(a, js);
	test_read(a, js, njs);
	lst_ac_peer_destroy(&a);
	free(lst_ac_stop());
	lst_ac.passed = true;
	return 0;
}
