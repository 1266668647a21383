/*
 * Data integrity on a real agent (issue 14): a lockstep-agent process driven over loopback by a
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
#include <ftw.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

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

static char s_dir[PATH_MAX];
static char s_log[PATH_MAX + 16];
static char s_disk[PATH_MAX + 16];
static char s_endpoint[64];
static pid_t s_pid = -1;
static bool s_passed;
static const char *s_run = "verify-1";

struct peer {
	zsock_t *sock;
	void *zs;
	uint64_t seq, id, max_seq;
};

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

/* ---------------------------------------------------------------- set-up */

static int s_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void s_cleanup(void)
{
	if (s_pid > 0) {
		kill(s_pid, SIGKILL);
		waitpid(s_pid, NULL, 0);
	}
	if (!s_passed) {
		char *text = NULL;
		size_t len;

		if (!lst_read_file(s_log, 64 * MiB, &text, &len))
			fprintf(stderr, "---- agent log (last 6000 bytes) ----\n%s\n----\n",
				len > 6000 ? text + len - 6000 : text);
		free(text);
	}
	if (s_dir[0])
		nftw(s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static int s_free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	T_ASSERT(fd >= 0);
	T_ASSERT(!bind(fd, (struct sockaddr *)&a, sizeof(a)));
	T_ASSERT(!getsockname(fd, (struct sockaddr *)&a, &len));
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static pid_t s_spawn(const char *agent)
{
	char glob[PATH_MAX + 4];
	int64_t deadline;
	pid_t pid;

	snprintf(glob, sizeof(glob), "%s/*", s_dir);
	pid = fork();
	T_ASSERT(pid >= 0);
	if (pid == 0) {
		int fd = open(s_log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		execl(agent, agent, "--foreground", "--listen", s_endpoint, "--allow-write", glob,
		      "--name", "verifier", "--debug", "proto", (char *)NULL);
		_exit(127);
	}
	deadline = lst_mono_ns() + 10 * LST_NS_PER_S;
	for (;;) {
		char *text = NULL;
		bool up = false;
		int status;

		if (!lst_read_file(s_log, 64 * MiB, &text, NULL))
			up = strstr(text, "listening on") != NULL;
		free(text);
		if (up)
			return pid;
		if (waitpid(pid, &status, WNOHANG) == pid)
			T_FAIL("the agent exited at start-up (status 0x%x)", status);
		if (lst_mono_ns() > deadline)
			T_FAIL("the agent did not start listening within 10 s");
		lst_sleep_ns(20 * LST_NS_PER_MS);
	}
}

/* ---------------------------------------------------------------- the wire */

static struct peer *s_peer_new(void)
{
	struct peer *p = lst_calloc(1, sizeof(*p));

	p->sock = zsock_new(ZMQ_DEALER);
	T_ASSERT(p->sock);
	zsock_set_linger(p->sock, 0);
	zsock_set_maxmsgsize(p->sock, LST_MSG_MAX_BYTES);
	T_ASSERT(zsock_connect(p->sock, "%s", s_endpoint) == 0);
	p->zs = zsock_resolve(p->sock);
	return p;
}

static uint64_t s_send(struct peer *p, lst_msg *m, bool command)
{
	uint8_t *buf;
	size_t len;
	lst_err err;

	m->seq = ++p->seq;
	if (command && !m->id)
		m->id = ++p->id;
	if (lst_msg_encode(m, &buf, &len, &err))
		T_FAIL("encode %s: %s", lst_msg_type_name(m->type), err.msg);
	T_ASSERT(zmq_send(p->zs, buf, len, 0) == (int)len);
	free(buf);
	return m->id;
}

static lst_msg *s_recv(struct peer *p, int timeout_ms)
{
	zmq_pollitem_t it = { .socket = p->zs, .events = ZMQ_POLLIN };
	zmq_msg_t msg;
	lst_msg *m = NULL;
	lst_err err;

	if (zmq_poll(&it, 1, timeout_ms) <= 0)
		return NULL;
	zmq_msg_init(&msg);
	T_ASSERT(zmq_msg_recv(&msg, p->zs, 0) >= 0);
	if (lst_msg_decode(zmq_msg_data(&msg), zmq_msg_size(&msg), &m, &err))
		T_FAIL("the agent sent a frame that does not decode: %s", err.msg);
	zmq_msg_close(&msg);
	p->max_seq = LST_MAX(p->max_seq, m->seq);
	return m;
}

static lst_msg *s_expect(struct peer *p, uint32_t type, uint64_t re, int timeout_ms)
{
	lst_msg *m = s_recv(p, timeout_ms);

	if (!m)
		T_FAIL("no %s within %d ms", lst_msg_type_name(type), timeout_ms);
	if (m->type != type)
		T_FAIL("expected %s, got %s%s%s", lst_msg_type_name(type),
		       lst_msg_type_name(m->type), m->type == LST_MSG_ERROR ? ": " : "",
		       m->type == LST_MSG_ERROR ? m->u.error.text : "");
	if (re)
		T_EQ_U64(m->re, re);
	return m;
}

/* The ERROR answering command re: its code, and its text containing want. */
static void s_expect_error(struct peer *p, int code, uint64_t re, const char *want)
{
	lst_msg *m = s_expect(p, LST_MSG_ERROR, re, 5000);

	if (m->u.error.code != code)
		T_FAIL("expected error %d, got %d '%s'", code, m->u.error.code, m->u.error.text);
	T_CONTAINS(m->u.error.text, want);
	lst_msg_destroy(&m);
}

static void s_ack(struct peer *p)
{
	lst_msg *m = lst_msg_new(LST_MSG_ACK);

	m->u.ack.upto = p->max_seq;
	s_send(p, m, false);
	lst_msg_destroy(&m);
}

static lst_msg *s_hello(struct peer *a, bool verify)
{
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);
	uint64_t id;

	m->u.hello.proto = LST_PROTO_VERSION;
	m->u.hello.ncaps = verify;
	lst_copy(m->u.hello.caps[0], sizeof(m->u.hello.caps[0]), LST_CAP_VERIFY);
	lst_copy(m->u.hello.run, sizeof(m->u.hello.run), s_run);
	lst_copy(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "test");
	m->u.hello.lease_ms = 30000;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	return s_expect(a, LST_MSG_WELCOME, id, 3000);
}

/* A PREPARE of point `point` of one verified job spec on the disk. */
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
static void s_run_point(struct peer *a, uint32_t point, struct s_point *pt)
{
	lst_msg *m = lst_msg_new(LST_MSG_START);
	uint64_t id;

	memset(pt, 0, sizeof(*pt));
	pt->marks_ok = true;
	m->u.start.phase = 1;
	m->u.start.point = point;
	m->u.start.t0 = lst_mono_ns() + 100 * LST_NS_PER_MS;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_STARTED, id, 3000);
	lst_msg_destroy(&m);
	while (!pt->done) {
		m = s_recv(a, 20000);
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
	s_ack(a);
}

/* ---------------------------------------------------------------- tests */

static void test_caps(struct peer *a)
{
	lst_msg *m = s_hello(a, false);
	bool cap = false;
	uint64_t id;

	for (uint32_t i = 0; i < m->u.welcome.ncaps; i++)
		cap |= !strcmp(m->u.welcome.caps[i], LST_CAP_VERIFY);
	T_ASSERT(cap);
	lst_msg_destroy(&m);
	m = s_prepare_msg(0, LST_RW_RANDWRITE, "disk0", 1);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, LST_CAP_VERIFY);

	m = s_hello(a, true); /* the same run: the session resumes, now with verify.v1 */
	lst_msg_destroy(&m);
	m = s_prepare_msg(0, LST_RW_RANDRW, "disk0", 1);
	m->u.prepare.jobs[0].w.rwmixread = 50;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, "either writes or reads");
	printf("ok: WELCOME lists verify.v1; a stamp without it and a mixed verify are refused\n");
}

/* The verified write; fills streams[] (PREPARED) and the final marks. */
static void test_write(struct peer *a, struct lst_journal_stream *js, uint32_t *njs)
{
	lst_msg *m = s_prepare_msg(1, LST_RW_RANDWRITE, "disk0", 1), *r;
	struct s_point pt;
	uint64_t id = s_send(a, m, true), issued = 0;

	lst_msg_destroy(&m);
	r = s_expect(a, LST_MSG_PREPARED, id, 5000);
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

static void test_no_journal(struct peer *a, const struct lst_journal_stream *js)
{
	lst_msg *m = s_prepare_msg(2, LST_RW_READ, "disk0", 0);
	uint64_t id = s_send(a, m, true);

	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, "no journal for target disk0");
	m = lst_msg_new(LST_MSG_JOURNAL);
	m->u.journal.target = lst_verify_target_id("disk0");
	m->u.journal.from = 5;
	m->u.journal.total = 6;
	m->u.journal.nstreams = 1;
	m->u.journal.streams[0] = js[0];
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_STATE, id, "in order");
	m = lst_msg_new(LST_MSG_JOURNAL);
	m->u.journal.target = lst_verify_target_id("disk0");
	m->u.journal.total = 70000;
	m->u.journal.nstreams = 1;
	m->u.journal.streams[0] = js[0];
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	s_expect_error(a, LST_PERR_REFUSED, id, "at most 65536");
	printf("ok: a verifying read without a journal is refused; a page out of order, a journal "
	       "over 65536 streams too\n");
}

static void s_journal(struct peer *a, const struct lst_journal_stream *js, uint32_t n)
{
	lst_msg *m = lst_msg_new(LST_MSG_JOURNAL), *r;
	uint64_t id;

	m->u.journal.target = lst_verify_target_id("disk0");
	m->u.journal.from = 0;
	m->u.journal.total = n;
	m->u.journal.nstreams = n;
	memcpy(m->u.journal.streams, js, n * sizeof(*js));
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	r = s_expect(a, LST_MSG_JOURNAL_OK, id, 3000);
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

static void s_read(struct peer *a, uint32_t point, struct s_point *pt)
{
	lst_msg *m = s_prepare_msg(point, LST_RW_READ, "disk0", 0), *r;
	uint64_t id = s_send(a, m, true);

	lst_msg_destroy(&m);
	r = s_expect(a, LST_MSG_PREPARED, id, 5000);
	T_EQ_INT(r->u.prepared.nstreams, 0);
	lst_msg_destroy(&r);
	s_run_point(a, point, pt);
	T_EQ_INT(pt->done->u.done.reason, LST_DONE_COMPLETE);
	T_EQ_U64(pt->v.ok + pt->v.pending + pt->v.unwritten + pt->v.bad, S_UNITS);
}

static void test_read(struct peer *a, const struct lst_journal_stream *js, uint32_t n)
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
	char agent[PATH_MAX];
	struct lst_journal_stream js[2];
	uint32_t njs = 0;
	struct peer *a;
	int fd;

	if (!bin) {
		fprintf(stderr, "skip: set LST_BIN\n");
		return LST_TEST_SKIP;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(agent, sizeof(agent), "%s/lockstep-agent", bin);
	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-verify.XXXXXX");
	T_ASSERT(mkdtemp(s_dir));
	snprintf(s_log, sizeof(s_log), "%s/agent.log", s_dir);
	snprintf(s_disk, sizeof(s_disk), "%s/disk", s_dir);
	atexit(s_cleanup);
	fd = open(s_disk, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	T_ASSERT(fd >= 0 && !ftruncate(fd, S_SIZE));
	close(fd);
	snprintf(s_endpoint, sizeof(s_endpoint), "tcp://127.0.0.1:%d", s_free_port());
	s_pid = s_spawn(agent);
	a = s_peer_new();
	test_caps(a);
	test_write(a, js, &njs);
	test_no_journal(a, js);
	test_read(a, js, njs);
	zsock_destroy(&a->sock);
	free(a);
	{
		int status = 0;

		T_ASSERT(!kill(s_pid, SIGTERM));
		T_EQ_INT(waitpid(s_pid, &status, 0), s_pid);
		s_pid = -1;
		T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	{
		char *log = NULL;

		T_EQ_INT(lst_read_file(s_log, 64 * MiB, &log, NULL), 0);
		if (strstr(log, "runtime error:") || strstr(log, "Sanitizer") ||
		    strstr(log, "assertion failed"))
			T_FAIL("the agent's log reports a bug");
		free(log);
	}
	s_passed = true;
	return 0;
}
