/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon from the outside: a real `lockstep-agent --foreground` child process on a
 * free loopback port, driven through real DEALER sockets with the real codec, writing real temp
 * files. Not a unit test of internals: everything checked here is what a coordinator sees on the
 * wire, what happens to the files, and what the agent logs.
 *
 * Finds the agent through argv[1] or $LST_BIN/lockstep-agent. The child dies with the test
 * (PR_SET_PDEATHSIG) and is killed by pid in the cleanup; temp files are removed.
 *
 * Order matters only where it says so: IDENTIFY is tested last but one because the codec may
 * still refuse action 3 (then that part reports itself skipped), and SIGTERM ends the agent.
 */
#include <czmq.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "lst_assert.h"
#include "lst_auth.h"
#include "lst_msg.h"
#include "msg_examples.h"
#include "lst_test.h"
#include "lst_time.h"
#include "lst_util.h"

#define MiB (1024 * 1024)

static char s_dir[PATH_MAX];	 /* allowed: the agent's allow_write is s_dir/ * */
static char s_outside[PATH_MAX]; /* not allowed */
static char s_log[PATH_MAX];
static char s_endpoint[64];
static const char *s_agent;
static pid_t s_pid = -1;
static pid_t s_pid2 = -1; /* the agent run with io_uring blocked */
static bool s_passed;
static char s_log2[PATH_MAX + 16]; /* the log of the agent s_spawn started last */
static uint64_t s_instance;	   /* WELCOME's instance from the main agent */
static char s_backing[PATH_MAX];   /* root only: a loop device's backing file in /dev/shm */
static char s_loopdev[64];

/* ---------------------------------------------------------------- process and files */

static int s_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void s_dump_log(void)
{
	char *text = NULL;
	size_t len;

	if (lst_read_file(s_log, 64 * MiB, &text, &len))
		return;
	fprintf(stderr, "---- agent log (last 6000 bytes) ----\n%s\n----\n",
		len > 6000 ? text + len - 6000 : text);
	free(text);
}

static void s_cleanup(void)
{
	if (s_pid > 0) {
		kill(s_pid, SIGKILL);
		waitpid(s_pid, NULL, 0);
		s_pid = -1;
	}
	if (s_pid2 > 0) {
		kill(s_pid2, SIGKILL);
		waitpid(s_pid2, NULL, 0);
		s_pid2 = -1;
	}
	if (!s_passed)
		s_dump_log();
	if (s_loopdev[0]) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "losetup -d %s", s_loopdev);
		if (system(cmd))
			fprintf(stderr, "cleanup: %s failed\n", cmd);
	}
	if (s_backing[0])
		unlink(s_backing);
	if (s_dir[0])
		nftw(s_dir, s_rm, 16, FTW_DEPTH | FTW_PHYS);
	if (s_outside[0])
		nftw(s_outside, s_rm, 16, FTW_DEPTH | FTW_PHYS);
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

static char *s_log_text(void)
{
	char *text = NULL;
	size_t len;

	if (lst_read_file(s_log, 64 * MiB, &text, &len))
		return lst_strdup("");
	return text;
}

/*
 * Start an agent (under wrapper, when not NULL) on endpoint, with the extra arguments (NULL
 * or NULL-terminated), stderr to log; wait until it listens. Returns its pid.
 */
static pid_t s_spawn(const char *wrapper, const char *endpoint, const char *log,
		     const char *const *extra)
{
	char glob[PATH_MAX + 4];
	int64_t deadline;
	pid_t pid;

	snprintf(glob, sizeof(glob), "%s/*", s_dir);
	snprintf(s_log2, sizeof(s_log2), "%s", log);
	pid = fork();
	T_ASSERT(pid >= 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		const char *args[24];
		int n = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		if (wrapper)
			args[n++] = wrapper;
		args[n++] = s_agent;
		args[n++] = "--foreground";
		args[n++] = "--listen";
		args[n++] = endpoint;
		args[n++] = "--allow-write";
		args[n++] = glob;
		/* test_shared_loop's device, reached through a link in s_dir: a link outside
		 * /dev/ admits only a device that allow_write names itself (agent/dev/lst_dev.h) */
		args[n++] = "--allow-write";
		args[n++] = "/dev/loop*";
		args[n++] = "--name";
		args[n++] = "test-agent";
		args[n++] = "--debug";
		args[n++] = "proto";
		for (size_t i = 0; extra && extra[i] && n < 23; i++)
			args[n++] = extra[i];
		args[n] = NULL;
		execv(args[0], (char *const *)args);
		fprintf(stderr, "exec %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	deadline = lst_mono_ns() + 10 * LST_NS_PER_S;
	for (;;) {
		char *text = NULL;
		size_t len;
		bool up = false;
		int status;

		if (!lst_read_file(log, 64 * MiB, &text, &len))
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

/* A file of size bytes filled with a pattern (so holes and overwrites show). */
static void s_make_file(const char *path, size_t size, uint8_t fill)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	uint8_t *buf = lst_malloc(MiB);

	T_ASSERT(fd >= 0);
	memset(buf, fill, MiB);
	for (size_t off = 0; off < size; off += MiB)
		T_ASSERT(write(fd, buf, LST_MIN((size_t)MiB, size - off)) > 0);
	T_ASSERT(!fsync(fd));
	close(fd);
	free(buf);
}

static uint64_t s_checksum(const char *path)
{
	char *text = NULL;
	size_t len;
	uint64_t h = 1469598103934665603ull;

	T_ASSERT(!lst_read_file(path, 128 * MiB, &text, &len));
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)text[i]) * 1099511628211ull;
	free(text);
	return h;
}

static int64_t s_mtime(const char *path)
{
	struct stat st;

	T_ASSERT(!stat(path, &st));
	return (int64_t)st.st_mtim.tv_sec * LST_NS_PER_S + st.st_mtim.tv_nsec;
}

/* SIGTERM to the second agent, reaped: its wait status. Its log (the latest s_spawn's) must
 * not report a bug (sanitizer builds write there). */
static int s_term_pid2(void)
{
	char *text = NULL;
	int status;

	T_ASSERT(!kill(s_pid2, SIGTERM));
	T_EQ_INT(waitpid(s_pid2, &status, 0), s_pid2);
	s_pid2 = -1;
	if (s_log2[0] && !lst_read_file(s_log2, 64 * MiB, &text, NULL) &&
	    (strstr(text, "runtime error:") || strstr(text, "Sanitizer")))
		T_FAIL("the second agent's log reports a bug:\n%s", text);
	free(text);
	return status;
}

/* ---------------------------------------------------------------- a coordinator's socket */

struct peer {
	zsock_t *sock;
	void *zs;
	uint64_t seq, id;
	int64_t offset; /* agent clock - our clock, from SYNC */
};

/*
 * A DEALER connected to endpoint; with me and server (the agent's public key) it speaks CURVE
 * with our key pair, with NULL plain text.
 */
static struct peer *s_peer_new_at(const char *endpoint, const struct lst_keypair *me,
				  const char *server)
{
	struct peer *p = lst_calloc(1, sizeof(*p));

	p->sock = zsock_new(ZMQ_DEALER);
	T_ASSERT(p->sock);
	zsock_set_linger(p->sock, 0);
	zsock_set_maxmsgsize(p->sock, LST_MSG_MAX_BYTES);
	if (me) {
		zsock_set_curve_serverkey(p->sock, server);
		zsock_set_curve_publickey(p->sock, me->pub);
		zsock_set_curve_secretkey(p->sock, me->secret);
	}
	T_ASSERT(zsock_connect(p->sock, "%s", endpoint) == 0);
	p->zs = zsock_resolve(p->sock);
	return p;
}

static struct peer *s_peer_new(void)
{
	return s_peer_new_at(s_endpoint, NULL, NULL);
}

static void s_peer_destroy(struct peer **p)
{
	if (!*p)
		return;
	zsock_destroy(&(*p)->sock);
	free(*p);
	*p = NULL;
}

static void s_send_raw(struct peer *p, const void *buf, size_t len)
{
	T_ASSERT(zmq_send(p->zs, buf, len, 0) == (int)len);
}

/* Send m (seq set here; a command gets a new id unless keep_id). Returns its id. */
static uint64_t s_send(struct peer *p, lst_msg *m, bool command)
{
	uint8_t *buf;
	size_t len;
	lst_err err;

	m->seq = ++p->seq;
	if (command)
		m->id = ++p->id;
	if (lst_msg_encode(m, &buf, &len, &err))
		T_FAIL("encode %s: %s", lst_msg_type_name(m->type), err.msg);
	s_send_raw(p, buf, len);
	free(buf);
	return m->id;
}

/* The next message, or NULL after timeout_ms. */
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
	T_ASSERT(!zmq_msg_more(&msg));
	if (lst_msg_decode(zmq_msg_data(&msg), zmq_msg_size(&msg), &m, &err))
		T_FAIL("the agent sent a frame that does not decode: %s", err.msg);
	zmq_msg_close(&msg);
	return m;
}

static void s_drop(lst_msg *m)
{
	lst_msg_destroy(&m);
}

static const char *s_describe(const lst_msg *m)
{
	static char buf[LST_TEXT_MAX + 64];

	if (m->type == LST_MSG_ERROR)
		snprintf(buf, sizeof(buf), "error %d '%s'", m->u.error.code, m->u.error.text);
	else
		snprintf(buf, sizeof(buf), "%s", lst_msg_type_name(m->type));
	return buf;
}

/* The next message must be of this type (and answer re when re != 0). */
static lst_msg *s_expect(struct peer *p, uint32_t type, uint64_t re, int timeout_ms)
{
	lst_msg *m = s_recv(p, timeout_ms);

	if (!m)
		T_FAIL("no %s within %d ms", lst_msg_type_name(type), timeout_ms);
	if (m->type != type)
		T_FAIL("expected %s, got %s", lst_msg_type_name(type), s_describe(m));
	if (re)
		T_EQ_U64(m->re, re);
	return m;
}

static lst_msg *s_expect_error(struct peer *p, int code, uint64_t re, int timeout_ms)
{
	lst_msg *m = s_expect(p, LST_MSG_ERROR, re, timeout_ms);

	if (m->u.error.code != code)
		T_FAIL("expected error %d, got %s", code, s_describe(m));
	return m;
}

static lst_msg *s_hello(struct peer *p, const char *run, const char *coordinator, uint32_t lease_ms,
			uint64_t *id)
{
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);

	m->u.hello.proto = LST_PROTO_VERSION;
	snprintf(m->u.hello.run, sizeof(m->u.hello.run), "%s", run);
	snprintf(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "%s", coordinator);
	m->u.hello.lease_ms = lease_ms;
	*id = s_send(p, m, true);
	lst_msg_destroy(&m);
	return s_recv(p, 3000);
}

static void s_hello_ok(struct peer *p, const char *run, const char *coordinator, uint32_t lease_ms)
{
	uint64_t id;
	lst_msg *m = s_hello(p, run, coordinator, lease_ms, &id);

	if (!m || m->type != LST_MSG_WELCOME)
		T_FAIL("HELLO run %s: expected welcome, got %s", run,
		       m ? s_describe(m) : "nothing");
	T_EQ_U64(m->re, id);
	lst_msg_destroy(&m);
}

/* One SYNC exchange; records the offset. Returns the reply. */
static lst_msg *s_sync(struct peer *p, int64_t *t1, int64_t *t4)
{
	lst_msg *m = lst_msg_new(LST_MSG_SYNC), *r;
	uint64_t id;

	*t1 = m->u.sync.t1 = lst_mono_ns();
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	r = s_expect(p, LST_MSG_SYNC_REPLY, id, 3000);
	*t4 = lst_mono_ns();
	p->offset = ((r->u.sync_reply.t2 - *t1) + (r->u.sync_reply.t3 - *t4)) / 2;
	return r;
}

static void s_simple(struct peer *p, uint32_t type)
{
	lst_msg *m = lst_msg_new(type);

	s_send(p, m, type != LST_MSG_ACK);
	lst_msg_destroy(&m);
}

/*
 * BYE, then a PING that must be refused for want of a session: frames of one connection are
 * processed in order, so the agent has ended the session when the refusal arrives (a new
 * connection's HELLO could otherwise overtake the BYE).
 */
static void s_bye(struct peer *p)
{
	lst_msg *m;

	s_simple(p, LST_MSG_BYE);
	s_simple(p, LST_MSG_PING);
	for (;;) {
		m = s_recv(p, 3000);
		if (!m)
			T_FAIL("no answer to a PING after BYE");
		if (m->type == LST_MSG_SAMPLE || m->type == LST_MSG_DONE) {
			lst_msg_destroy(&m); /* what a stopped point still sends */
			continue;
		}
		if (m->type != LST_MSG_ERROR || m->u.error.code != LST_PERR_NO_SESSION ||
		    m->re != p->id)
			T_FAIL("PING after BYE: %s", s_describe(m));
		lst_msg_destroy(&m);
		return;
	}
}

static void s_ack(struct peer *p, uint64_t upto)
{
	lst_msg *m = lst_msg_new(LST_MSG_ACK);

	m->u.ack.upto = upto;
	s_send(p, m, false);
	lst_msg_destroy(&m);
}

static lst_msg *s_prepare_msg(const char *run, uint32_t phase, uint32_t point, const char *path,
			      uint32_t action)
{
	lst_msg *m = lst_msg_new(LST_MSG_PREPARE);
	struct lst_jobspec *j = &m->u.prepare.jobs[0];

	snprintf(m->u.prepare.run, sizeof(m->u.prepare.run), "%s", run);
	snprintf(m->u.prepare.name, sizeof(m->u.prepare.name), "phase%u", phase);
	m->u.prepare.phase = phase;
	m->u.prepare.point = point;
	m->u.prepare.njobs = 1;
	snprintf(j->target, sizeof(j->target), "disk0");
	snprintf(j->path, sizeof(j->path), "%s", path);
	j->action = action;
	lst_workload_init(&j->w);
	j->w.rw = LST_RW_RANDWRITE;
	j->w.bs = 4096;
	j->w.iodepth = 8;
	j->w.runtime = LST_NS_PER_S;
	j->w.interval = 100 * LST_NS_PER_MS;
	j->w.direct = 1;
	return m;
}

static uint64_t s_start(struct peer *p, uint32_t phase, uint32_t point, int64_t t0, uint64_t id)
{
	lst_msg *m = lst_msg_new(LST_MSG_START);

	m->u.start.phase = phase;
	m->u.start.point = point;
	m->u.start.t0 = t0;
	m->id = id; /* 0: s_send numbers it as a new command */
	id = s_send(p, m, !id);
	lst_msg_destroy(&m);
	return id;
}

static uint64_t s_stop(struct peer *p, uint32_t phase, uint32_t point)
{
	lst_msg *m = lst_msg_new(LST_MSG_STOP);
	uint64_t id;

	m->u.stop.phase = phase;
	m->u.stop.point = point;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	return id;
}

/* The agent's clock now, as this peer's SYNC measured it. */
static int64_t s_agent_now(struct peer *p)
{
	return lst_mono_ns() + p->offset;
}

/* What a point sent: STARTED, SAMPLEs, DONE. */
struct run_result {
	unsigned started;
	lst_msg *started_msg;
	uint64_t nsamples;
	int64_t first_k, last_k;
	bool consecutive, last_flag;
	uint64_t ios[LST_DIR_N], bytes[LST_DIR_N], errors[LST_DIR_N];
	uint64_t max_seq;
	lst_msg *done;
	int64_t done_at;
	uint32_t njobs; /* job specs of the point, when the caller says; else any up to 64 */
	uint64_t split; /* SAMPLEs that carried "paths" (each checked to add up) */
	uint64_t part_ios[LST_MAX_JOBSPECS][LST_DIR_N];
};

/* A SAMPLE's parts must add up to it; count them per path. */
static void s_follow_parts(struct run_result *r, const struct lst_msg_sample *ms)
{
	char why[160];

	if (!ms->nparts)
		return;
	if (lst_msg_sample_parts_check(ms, r->njobs ? r->njobs : LST_MAX_JOBSPECS, why,
				       sizeof(why)))
		T_FAIL("SAMPLE k=%lld: %s", (long long)ms->s.interval, why);
	for (uint32_t i = 0; i < ms->nparts; i++)
		for (int d = 0; d < LST_DIR_N; d++)
			r->part_ios[ms->parts[i].path][d] += ms->parts[i].s.dir[d].ios;
	r->split++;
}

/* Receive until DONE (or n_samples samples, when n_samples > 0). */
static void s_follow(struct peer *p, struct run_result *r, uint64_t n_samples, int timeout_ms)
{
	int64_t deadline = lst_mono_ns() + (int64_t)timeout_ms * LST_NS_PER_MS;

	if (!r->nsamples) {
		r->first_k = -1;
		r->last_k = -1;
		r->consecutive = true;
	}
	while (!r->done) {
		int left = (int)((deadline - lst_mono_ns()) / LST_NS_PER_MS);
		lst_msg *m;

		if (left <= 0)
			T_FAIL("run: no DONE within %d ms (%llu samples so far)", timeout_ms,
			       (unsigned long long)r->nsamples);
		m = s_recv(p, left);
		if (!m)
			continue;
		if (m->seq > r->max_seq)
			r->max_seq = m->seq;
		if (m->type == LST_MSG_STARTED) {
			r->started++;
			if (!r->started_msg)
				r->started_msg = m;
			else
				lst_msg_destroy(&m);
			continue;
		}
		if (m->type == LST_MSG_SAMPLE) {
			const lst_sample *s = &m->u.sample.s;

			if (!r->started)
				T_FAIL("SAMPLE k=%lld before STARTED", (long long)s->interval);
			if (r->first_k < 0)
				r->first_k = s->interval;
			else if (s->interval != r->last_k + 1)
				r->consecutive = false;
			r->last_k = s->interval;
			r->last_flag = (s->flags & LST_SAMPLE_LAST) != 0;
			s_follow_parts(r, &m->u.sample);
			for (int d = 0; d < LST_DIR_N; d++) {
				r->ios[d] += s->dir[d].ios;
				r->bytes[d] += s->dir[d].bytes;
				r->errors[d] += s->dir[d].errors;
			}
			r->nsamples++;
			lst_msg_destroy(&m);
			if (n_samples && r->nsamples >= n_samples)
				return;
			continue;
		}
		if (m->type == LST_MSG_DONE) {
			r->done = m;
			r->done_at = lst_mono_ns();
			return;
		}
		T_FAIL("during a run: unexpected %s", s_describe(m));
	}
}

static void s_result_free(struct run_result *r)
{
	lst_msg_destroy(&r->started_msg);
	lst_msg_destroy(&r->done);
	memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------- the tests */

static void test_no_session_and_garbage(void)
{
	struct peer *p = s_peer_new();
	uint8_t junk[200];
	uint8_t *buf;
	size_t len;
	lst_msg *m, *sync = lst_msg_new(LST_MSG_SYNC);
	uint64_t id;
	lst_err err;

	/* A command before HELLO. */
	sync->u.sync.t1 = 1;
	id = s_send(p, sync, true);
	m = s_expect_error(p, LST_PERR_NO_SESSION, id, 3000);
	T_CONTAINS(m->u.error.text, "HELLO");
	lst_msg_destroy(&m);

	/* Random bytes, then a truncated valid frame, then an empty frame. */
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 7919u + 13u);
	s_send_raw(p, junk, sizeof(junk));
	m = s_expect_error(p, LST_PERR_BAD_MESSAGE, 0, 3000);
	T_EQ_U64(m->re, 0);
	T_ASSERT(m->u.error.text[0]);
	lst_msg_destroy(&m);

	sync->seq = ++p->seq;
	T_ASSERT(!lst_msg_encode(sync, &buf, &len, &err));
	s_send_raw(p, buf, len - 3);
	free(buf);
	m = s_expect_error(p, LST_PERR_BAD_MESSAGE, 0, 3000);
	lst_msg_destroy(&m);
	s_send_raw(p, "", 0);
	m = s_expect_error(p, LST_PERR_BAD_MESSAGE, 0, 3000);
	lst_msg_destroy(&m);

	/* A two-frame message. */
	T_ASSERT(zmq_send(p->zs, "a", 1, ZMQ_SNDMORE) == 1);
	T_ASSERT(zmq_send(p->zs, "b", 1, 0) == 1);
	m = s_expect_error(p, LST_PERR_BAD_MESSAGE, 0, 3000);
	T_CONTAINS(m->u.error.text, "one frame");
	lst_msg_destroy(&m);

	/* A frame over ZMQ_MAXMSGSIZE: libzmq drops that connection; nothing is answered. */
	{
		size_t big = LST_MSG_MAX_BYTES + 4096;
		uint8_t *huge = lst_calloc(1, big);
		struct peer *q = s_peer_new();

		huge[0] = 0x81; /* a map, then garbage */
		s_send_raw(q, huge, big);
		free(huge);
		T_ASSERT(!(m = s_recv(q, 500)));
		s_peer_destroy(&q);
	}

	/* ... and it still serves. */
	id = s_send(p, sync, true);
	m = s_expect_error(p, LST_PERR_NO_SESSION, id, 3000);
	lst_msg_destroy(&m);
	lst_msg_destroy(&sync);
	s_peer_destroy(&p);
	printf("ok: NO_SESSION before HELLO; BAD_MESSAGE for junk, truncation, empty and "
	       "multi-frame messages; an oversized frame is dropped; the agent keeps serving\n");
}

static void test_hello(struct peer *a)
{
	struct peer *b = s_peer_new();
	struct utsname u;
	lst_msg *m;
	uint64_t id;
	int64_t before = lst_mono_ns();

	m = s_hello(a, "run-1", "coord-a", 10000, &id);
	T_ASSERT(m);
	if (m->type != LST_MSG_WELCOME)
		T_FAIL("HELLO: %s", s_describe(m));
	T_EQ_U64(m->re, id);
	T_EQ_INT(m->u.welcome.proto, LST_PROTO_VERSION);
	T_EQ_STR(m->u.welcome.name, "test-agent");
	T_EQ_STR(m->u.welcome.version, LST_VERSION);
	uname(&u);
	T_EQ_STR(m->u.welcome.host, u.nodename);
	T_EQ_STR(m->u.welcome.kernel, u.release);
	T_ASSERT(m->u.welcome.cores > 0);
	T_ASSERT(m->u.welcome.engines & ((1u << LST_ENGINE_IO_URING) | (1u << LST_ENGINE_PSYNC)));
	T_ASSERT(m->u.welcome.engines & (1u << LST_ENGINE_NULL));
	/* Same host, same monotonic clock. */
	T_ASSERT(m->u.welcome.now >= before && m->u.welcome.now <= lst_mono_ns());
	T_ASSERT(m->u.welcome.instance != 0);
	T_EQ_U64(m->u.welcome.resumed, 0);
	s_instance = m->u.welcome.instance;
	lst_msg_destroy(&m);

	/* A second coordinator is refused, and the first session is untouched. */
	m = s_hello(b, "run-2", "coord-b", 10000, &id);
	T_ASSERT(m);
	if (m->type != LST_MSG_ERROR || m->u.error.code != LST_PERR_BUSY)
		T_FAIL("second HELLO: %s", s_describe(m));
	T_EQ_U64(m->re, id);
	T_EQ_STR(m->u.error.text, "busy: run run-1 from coordinator coord-a");
	lst_msg_destroy(&m);

	/* Another protocol version. */
	m = lst_msg_new(LST_MSG_HELLO);
	m->u.hello.proto = LST_PROTO_VERSION + 1;
	id = s_send(b, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(b, LST_PERR_VERSION, id, 3000);
	lst_msg_destroy(&m);

	/* Non-HELLO from the refused peer. */
	s_simple(b, LST_MSG_PING);
	m = s_expect_error(b, LST_PERR_NO_SESSION, b->id, 3000);
	lst_msg_destroy(&m);
	s_peer_destroy(&b);

	/* PING/PONG on the session. */
	s_simple(a, LST_MSG_PING);
	m = s_expect(a, LST_MSG_PONG, a->id, 3000);
	lst_msg_destroy(&m);
	printf("ok: HELLO/WELCOME fields; BUSY names the run and coordinator; VERSION; PONG\n");
}

static void test_sync(struct peer *a)
{
	int64_t t1, t4;
	lst_msg *r;
	uint8_t junk[3] = { 0xdd, 0xff, 0xff };

	int64_t best_rtt = INT64_MAX, best_offset = 0;

	for (int i = 0; i < 8; i++) {
		r = s_sync(a, &t1, &t4);
		T_EQ_INT(r->u.sync_reply.t1, t1);
		T_ASSERT(r->u.sync_reply.t2 <= r->u.sync_reply.t3);
		/* One host: the agent's instants lie inside our exchange. */
		T_ASSERT(t1 <= r->u.sync_reply.t2 && r->u.sync_reply.t3 <= t4);
		if (t4 - t1 < best_rtt) {
			best_rtt = t4 - t1;
			best_offset = a->offset;
		}
		lst_msg_destroy(&r);
	}
	/* One clock: the offset of the quickest exchange (as the coordinator picks it) is about 0;
	 * a single exchange on a loaded machine can take milliseconds. */
	T_ASSERT(best_offset > -LST_NS_PER_MS && best_offset < LST_NS_PER_MS);

	/* Garbage from the session's peer: an error, the session goes on. */
	s_send_raw(a, junk, sizeof(junk));
	r = s_expect_error(a, LST_PERR_BAD_MESSAGE, 0, 3000);
	lst_msg_destroy(&r);
	r = s_sync(a, &t1, &t4);
	lst_msg_destroy(&r);
	printf("ok: SYNC echoes t1, t1 <= t2 <= t3 <= t4; garbage mid-session is answered\n");
}

static void test_refused(struct peer *a)
{
	char path[PATH_MAX + 16];
	uint64_t before, id;
	int64_t mtime;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/victim", s_outside);
	s_make_file(path, 4 * MiB, 0x5a);
	before = s_checksum(path);
	mtime = s_mtime(path);
	m = s_prepare_msg("run-1", 0, 0, path, LST_ACTION_IO);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_REFUSED, id, 3000);
	T_CONTAINS(m->u.error.text, path);
	T_CONTAINS(m->u.error.text, "allow_write");
	lst_msg_destroy(&m);
	/* Nothing was prepared: a START is a state error. */
	id = s_start(a, 0, 0, s_agent_now(a) + 10 * LST_NS_PER_MS, 0);
	m = s_expect_error(a, LST_PERR_STATE, id, 3000);
	lst_msg_destroy(&m);
	lst_sleep_ns(200 * LST_NS_PER_MS);
	T_EQ_U64(s_checksum(path), before);
	T_EQ_INT(s_mtime(path), mtime);

	/* A PREPARE for another run id is refused too. */
	snprintf(path, sizeof(path), "%s/disk", s_dir);
	m = s_prepare_msg("run-other", 0, 0, path, LST_ACTION_IO);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_STATE, id, 3000);
	lst_msg_destroy(&m);

	/* Job specs asking for more threads or buffer memory than the host has: an error, not a
	 * crash; the agent goes on serving. */
	m = s_prepare_msg("run-1", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.njobs = 5;
	for (int i = 0; i < 5; i++) {
		m->u.prepare.jobs[i] = m->u.prepare.jobs[0];
		m->u.prepare.jobs[i].w.jobs = 256;
	}
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_IO, id, 3000);
	T_CONTAINS(m->u.error.text, "job threads");
	lst_msg_destroy(&m);
	m = s_prepare_msg("run-1", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.jobs = 256;
	m->u.prepare.jobs[0].w.iodepth = 128;
	m->u.prepare.jobs[0].w.bs = 16 * MiB;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_IO, id, 3000);
	T_CONTAINS(m->u.error.text, "of I/O buffers");
	T_CONTAINS(m->u.error.text, "mem_max");
	lst_msg_destroy(&m);
	s_simple(a, LST_MSG_PING);
	s_drop(s_expect(a, LST_MSG_PONG, a->id, 3000));
	printf("ok: PREPARE outside allow_write is REFUSED naming path and rule; file unchanged; "
	       "oversized job specs are refused\n");
}

/* VmRSS of a process, in bytes. */
static uint64_t s_rss(pid_t pid)
{
	char path[64], *text = NULL, *at;
	uint64_t kb = 0;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	T_ASSERT(!lst_read_file(path, MiB, &text, &len));
	at = strstr(text, "VmRSS:");
	T_ASSERT(at);
	kb = strtoull(at + 6, NULL, 10);
	free(text);
	return kb * 1024;
}

/*
 * The memory cap (mem_max): a point asking for more than the cap is refused at once, naming
 * what it needs, the cap and how to change it, and nothing is allocated (the agent's RSS stays
 * flat); the default cap is 25% of RAM. A second agent with --mem-max 64m refuses a 128 MiB
 * point and still runs one under the cap.
 */
static void test_mem_cap(struct peer *a)
{
	char path[PATH_MAX + 16], endpoint[64], log[PATH_MAX + 16];
	const char *extra[] = { "--mem-max", "64m", NULL };
	struct run_result r = { 0 };
	uint64_t id, rss0, rss1;
	int64_t sent, t1, t4;
	struct peer *p;
	lst_msg *m;
	int status;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	s_make_file(path, 64 * MiB, 0);
	/* 4 x 256 jobs, each with 2048 buffers of 1 MiB: 1024 x 2 GiB. */
	rss0 = s_rss(s_pid);
	m = s_prepare_msg("run-1", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.njobs = 4;
	m->u.prepare.jobs[0].w.rw = LST_RW_WRITE;
	m->u.prepare.jobs[0].w.jobs = 256;
	m->u.prepare.jobs[0].w.iodepth = 2048;
	m->u.prepare.jobs[0].w.bs = MiB;
	for (int i = 1; i < 4; i++)
		m->u.prepare.jobs[i] = m->u.prepare.jobs[0];
	sent = lst_mono_ns();
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_IO, id, 3000);
	T_CONTAINS(m->u.error.text, "needs 2.0 TiB of memory");
	T_CONTAINS(m->u.error.text, "2 TiB of I/O buffers");
	T_CONTAINS(m->u.error.text, "memory cap is");
	T_CONTAINS(m->u.error.text, "mem_max, by default 25% of RAM");
	T_CONTAINS(m->u.error.text, "raise mem_max in the agent's config (or --mem-max)");
	if (lst_mono_ns() - sent > LST_NS_PER_S)
		T_FAIL("the refusal took %.0f ms", (double)(lst_mono_ns() - sent) / 1e6);
	lst_msg_destroy(&m);
	rss1 = s_rss(s_pid);
	if (rss1 > rss0 + 16 * MiB)
		T_FAIL("agent RSS grew from %llu to %llu KiB on a refused PREPARE",
		       (unsigned long long)rss0 >> 10, (unsigned long long)rss1 >> 10);
	printf("ok: mem_max: 1024 jobs x 2 GiB refused in %.1f ms naming need, cap and setting; "
	       "RSS %llu -> %llu KiB\n",
	       (double)(lst_mono_ns() - sent) / 1e6, (unsigned long long)rss0 >> 10,
	       (unsigned long long)rss1 >> 10);

	/* A second agent with --mem-max 64m. */
	snprintf(endpoint, sizeof(endpoint), "tcp://127.0.0.1:%d", s_free_port());
	snprintf(log, sizeof(log), "%s/agent-mem.log", s_outside);
	s_pid2 = s_spawn(NULL, endpoint, log, extra);
	p = s_peer_new_at(endpoint, NULL, NULL);
	s_hello_ok(p, "run-mem", "coord-m", 10000);
	s_drop(s_sync(p, &t1, &t4));
	m = s_prepare_msg("run-mem", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.iodepth = 128;
	m->u.prepare.jobs[0].w.bs = MiB;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(p, LST_PERR_IO, id, 3000);
	T_CONTAINS(m->u.error.text, "of I/O buffers");
	T_CONTAINS(m->u.error.text, "memory cap is 64 MiB (mem_max)");
	lst_msg_destroy(&m);
	m = s_prepare_msg("run-mem", 0, 1, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.iodepth = 16;
	m->u.prepare.jobs[0].w.bs = MiB;
	m->u.prepare.jobs[0].w.runtime = 300 * LST_NS_PER_MS;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(p, LST_MSG_PREPARED, id, 5000));
	s_start(p, 0, 1, s_agent_now(p) + 20 * LST_NS_PER_MS, 0);
	s_follow(p, &r, 0, 5000);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_COMPLETE);
	T_ASSERT(r.ios[LST_DIR_WRITE] > 0);
	s_result_free(&r);
	s_bye(p);
	s_peer_destroy(&p);
	status = s_term_pid2();
	T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	printf("ok: --mem-max 64m: a 128 MiB point is refused naming the cap, a 16 MiB one runs\n");
}

/* A PREPARE of 512 MiB of write buffers (jobs 1, iodepth 512, bs 1m) for point `point`. */
static uint64_t s_send_big_prepare(struct peer *a, uint32_t point, const char *path)
{
	lst_msg *m = s_prepare_msg("run-1", 9, point, path, LST_ACTION_IO);
	uint64_t id;

	m->u.prepare.jobs[0].w.rw = LST_RW_WRITE;
	m->u.prepare.jobs[0].w.iodepth = 512;
	m->u.prepare.jobs[0].w.bs = MiB;
	m->u.prepare.jobs[0].w.runtime = 300 * LST_NS_PER_MS;
	id = s_send(a, m, true);
	/* The same command again (a retry: same id): it must not be executed twice. */
	s_send(a, m, false);
	lst_msg_destroy(&m);
	return id;
}

/*
 * PREPARE allocates and fills its buffers off the reactor: while a 512 MiB point is being
 * prepared the agent answers PING at once and START with STATE, a retried PREPARE is not run
 * twice, and PREPARED arrives after the PONGs. STOP, or another PREPARE, cancels a PREPARE
 * still being executed: it is answered ERROR STATE, and the memory is given back.
 */
static void test_prepare_async(struct peer *a)
{
	char path[PATH_MAX + 16], *log;
	struct run_result r = { 0 };
	unsigned pongs = 0, prepared = 0;
	int64_t sent, worst = 0, t1, t4, deadline, ping_at, took = 0;
	uint64_t pid, sid, rss0 = s_rss(s_pid), rss;
	bool outstanding;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	s_drop(s_sync(a, &t1, &t4));
	sent = lst_mono_ns();
	pid = s_send_big_prepare(a, 0, path);
	sid = s_start(a, 9, 0, s_agent_now(a) + LST_NS_PER_S, 0);
	s_simple(a, LST_MSG_PING);
	/* START, while the buffers are being filled: STATE. */
	m = s_expect_error(a, LST_PERR_STATE, sid, 3000);
	T_CONTAINS(m->u.error.text, "still being prepared");
	lst_msg_destroy(&m);
	/* PING every 50 ms until PREPARED: every PONG comes at once. */
	deadline = lst_mono_ns() + 30 * LST_NS_PER_S;
	ping_at = lst_mono_ns();
	outstanding = true;
	while (!prepared || outstanding) {
		m = s_recv(a, 5000);
		if (!m)
			T_FAIL("nothing from the agent for 5 s during a PREPARE");
		if (m->type == LST_MSG_PREPARED) {
			T_EQ_U64(m->re, pid);
			prepared++;
			took = lst_mono_ns() - sent;
			lst_msg_destroy(&m);
			continue;
		}
		if (m->type != LST_MSG_PONG)
			T_FAIL("during a PREPARE: unexpected %s", s_describe(m));
		T_EQ_U64(m->re, a->id);
		outstanding = false;
		if (lst_mono_ns() - ping_at > worst)
			worst = lst_mono_ns() - ping_at;
		lst_msg_destroy(&m);
		if (prepared)
			break;
		pongs++;
		if (lst_mono_ns() > deadline)
			T_FAIL("no PREPARED 30 s after a 512 MiB PREPARE");
		lst_sleep_ns(50 * LST_NS_PER_MS);
		ping_at = lst_mono_ns();
		s_simple(a, LST_MSG_PING);
		outstanding = true;
	}
	if (worst > 500 * LST_NS_PER_MS)
		T_FAIL("a PONG took %.0f ms during a PREPARE", (double)worst / 1e6);
	T_ASSERT(pongs >= 1); /* PONGs came before PREPARED: the reactor was not blocked */
	/* One PREPARED for the two copies of the command. */
	T_ASSERT(!(m = s_recv(a, 300)));
	printf("ok: PREPARE of 512 MiB off the reactor: PREPARED after %.0f ms; %u PONGs meanwhile, "
	       "the slowest in %.1f ms; START meanwhile is STATE; the retry ran nothing\n",
	       (double)took / 1e6, pongs, (double)worst / 1e6);
	/* And it runs. */
	s_start(a, 9, 0, s_agent_now(a) + 20 * LST_NS_PER_MS, 0);
	s_follow(a, &r, 0, 5000);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_COMPLETE);
	T_ASSERT(r.ios[LST_DIR_WRITE] > 0);
	s_ack(a, r.max_seq);
	s_result_free(&r);

	/* STOP during a PREPARE: the PREPARE gets STATE "cancelled", STOP gets STOPPED. */
	pid = s_send_big_prepare(a, 1, path);
	sid = s_stop(a, 9, 1);
	m = s_expect_error(a, LST_PERR_STATE, pid, 3000);
	T_CONTAINS(m->u.error.text, "was cancelled before it was ready: STOP from the coordinator");
	lst_msg_destroy(&m);
	s_drop(s_expect(a, LST_MSG_STOPPED, sid, 3000));
	/* Another PREPARE during a PREPARE replaces it. */
	pid = s_send_big_prepare(a, 2, path);
	m = s_prepare_msg("run-1", 9, 3, path, LST_ACTION_IO);
	sid = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_STATE, pid, 3000);
	T_CONTAINS(m->u.error.text, "replaced by a PREPARE of point 9/3");
	lst_msg_destroy(&m);
	s_drop(s_expect(a, LST_MSG_PREPARED, sid, 5000));
	T_ASSERT(!(m = s_recv(a, 300)));
	/* The cancelled workers gave their memory back. */
	deadline = lst_mono_ns() + 10 * LST_NS_PER_S;
	while ((rss = s_rss(s_pid)) > rss0 + 64 * MiB && lst_mono_ns() < deadline)
		lst_sleep_ns(20 * LST_NS_PER_MS);
	if (rss > rss0 + 64 * MiB)
		T_FAIL("agent RSS %llu KiB, %llu KiB before: cancelled PREPAREs kept their memory",
		       (unsigned long long)rss >> 10, (unsigned long long)rss0 >> 10);
	log = s_log_text();
	T_CONTAINS(log, "cancelling the PREPARE of point 9/1 (phase9) still being executed");
	free(log);
	printf("ok: STOP or another PREPARE cancels a PREPARE being executed (ERROR STATE), and "
	       "its memory is given back (RSS %llu -> %llu KiB)\n",
	       (unsigned long long)rss0 >> 10, (unsigned long long)rss >> 10);
}

static void test_run(struct peer *a)
{
	char path[PATH_MAX + 16];
	struct run_result r = { 0 };
	int64_t t0, t1, t4;
	uint64_t id, sid;
	lst_msg *m;
	struct stat st;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	s_make_file(path, 64 * MiB, 0);
	T_ASSERT(!stat(path, &st));
	m = s_prepare_msg("run-1", 1, 0, path, LST_ACTION_IO);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_PREPARED, id, 5000);
	T_EQ_INT(m->u.prepared.phase, 1);
	T_EQ_INT(m->u.prepared.point, 0);
	T_EQ_INT(m->u.prepared.npaths, 1);
	T_EQ_STR(m->u.prepared.paths[0].target, "disk0");
	T_EQ_STR(m->u.prepared.paths[0].path, path);
	T_EQ_STR(m->u.prepared.paths[0].kind, "file");
	T_EQ_U64(m->u.prepared.paths[0].size, 64 * MiB);
	T_EQ_U64(m->u.prepared.paths[0].ino, st.st_ino);
	T_ASSERT(m->u.prepared.engine == LST_ENGINE_IO_URING ||
		 m->u.prepared.engine == LST_ENGINE_PSYNC);
	lst_msg_destroy(&m);

	/* Clocks, then START twice with the same id before t0: one run, one STARTED. */
	m = s_sync(a, &t1, &t4);
	lst_msg_destroy(&m);
	t0 = s_agent_now(a) + 100 * LST_NS_PER_MS;
	sid = s_start(a, 1, 0, t0, 0);
	s_start(a, 1, 0, t0, sid);
	s_follow(a, &r, 0, 10000);
	T_EQ_INT(r.started, 1);
	T_EQ_U64(r.started_msg->re, sid);
	T_EQ_INT(r.started_msg->u.started.t0, t0);
	if (r.started_msg->u.started.actual < t0 ||
	    r.started_msg->u.started.actual > t0 + 5 * LST_NS_PER_MS)
		T_FAIL("STARTED.actual %+.3f ms from t0, want [0, 5] ms",
		       (double)(r.started_msg->u.started.actual - t0) / 1e6);
	T_ASSERT(r.consecutive);
	T_EQ_INT(r.first_k, 0);
	T_ASSERT(r.last_flag);
	/* 1 s in 100 ms intervals: 10 of them (11 when the drain spills into a last sliver). */
	if (r.nsamples < 10 || r.nsamples > 11)
		T_FAIL("%llu samples for 1 s at 100 ms", (unsigned long long)r.nsamples);
	T_ASSERT(r.ios[LST_DIR_WRITE] > 0);
	T_EQ_U64(r.ios[LST_DIR_READ], 0);
	T_EQ_U64(r.errors[LST_DIR_WRITE], 0);
	T_EQ_U64(r.bytes[LST_DIR_WRITE], r.ios[LST_DIR_WRITE] * 4096);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_COMPLETE);
	T_EQ_U64(r.done->u.done.samples, r.nsamples);
	T_EQ_INT(r.done->u.done.last_interval, r.last_k);
	T_EQ_INT(r.done->u.done.phase, 1);
	printf("ok: run: STARTED at %+.3f ms from t0, %llu consecutive samples, %llu writes, "
	       "DONE complete\n",
	       (double)(r.started_msg->u.started.actual - t0) / 1e6, (unsigned long long)r.nsamples,
	       (unsigned long long)r.ios[LST_DIR_WRITE]);

	/* The same START again, after the fact: the cached STARTED, byte for byte, no new run. */
	s_start(a, 1, 0, t0, sid);
	m = s_expect(a, LST_MSG_STARTED, sid, 3000);
	T_EQ_U64(m->seq, r.started_msg->seq);
	T_EQ_INT(m->u.started.actual, r.started_msg->u.started.actual);
	lst_msg_destroy(&m);
	T_ASSERT(!(m = s_recv(a, 300)));
	/* A START with a new id for a point that is over is a state error. */
	id = s_start(a, 1, 0, s_agent_now(a) + LST_NS_PER_MS, 0);
	m = s_expect_error(a, LST_PERR_STATE, id, 3000);
	lst_msg_destroy(&m);
	s_ack(a, r.max_seq);
	s_result_free(&r);
	printf("ok: a retried START is answered from the cache and runs nothing\n");
}

static void test_stop(struct peer *a)
{
	char path[PATH_MAX + 16];
	struct run_result r = { 0 };
	uint64_t id;
	int64_t sent;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	m = s_prepare_msg("run-1", 2, 3, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.runtime = 30 * LST_NS_PER_S;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(a, LST_MSG_PREPARED, id, 5000));

	/* t0 two hours ahead: refused as a clock mix-up; the point stays prepared. */
	id = s_start(a, 2, 3, s_agent_now(a) + 7200 * LST_NS_PER_S, 0);
	m = s_expect_error(a, LST_PERR_STATE, id, 3000);
	T_CONTAINS(m->u.error.text, "clock");
	lst_msg_destroy(&m);
	/* Two hours behind, and the ends of the int64 range: refused the same way, without
	 * overflowing t0 - now, and without jobs that would close every interval since then. */
	id = s_start(a, 2, 3, s_agent_now(a) - 7200 * LST_NS_PER_S, 0);
	m = s_expect_error(a, LST_PERR_STATE, id, 3000);
	T_CONTAINS(m->u.error.text, "behind this agent's clock");
	lst_msg_destroy(&m);
	id = s_start(a, 2, 3, INT64_MIN, 0);
	m = s_expect_error(a, LST_PERR_STATE, id, 3000);
	T_CONTAINS(m->u.error.text, "behind this agent's clock");
	lst_msg_destroy(&m);
	id = s_start(a, 2, 3, INT64_MAX, 0);
	m = s_expect_error(a, LST_PERR_STATE, id, 3000);
	T_CONTAINS(m->u.error.text, "ahead of this agent's clock");
	lst_msg_destroy(&m);
	/* The wrong point. */
	id = s_start(a, 2, 4, s_agent_now(a), 0);
	s_drop(s_expect_error(a, LST_PERR_STATE, id, 3000));

	s_start(a, 2, 3, s_agent_now(a) + 50 * LST_NS_PER_MS, 0);
	s_follow(a, &r, 3, 5000);
	T_EQ_INT(r.started, 1);

	/* PREPARE while running: a state error. */
	m = s_prepare_msg("run-1", 3, 0, path, LST_ACTION_IO);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	for (;;) {
		m = s_recv(a, 3000);
		T_ASSERT(m);
		if (m->type == LST_MSG_SAMPLE) {
			lst_msg_destroy(&m);
			r.nsamples++;
			continue;
		}
		if (m->type != LST_MSG_ERROR || m->u.error.code != LST_PERR_STATE || m->re != id)
			T_FAIL("PREPARE while running: %s", s_describe(m));
		lst_msg_destroy(&m);
		break;
	}

	sent = lst_mono_ns();
	id = s_stop(a, 2, 3);
	for (;;) {
		m = s_recv(a, 3000);
		T_ASSERT(m);
		if (m->type == LST_MSG_SAMPLE) {
			lst_msg_destroy(&m);
			r.nsamples++;
			continue;
		}
		if (m->type != LST_MSG_STOPPED)
			T_FAIL("after STOP: %s", s_describe(m));
		T_EQ_U64(m->re, id);
		T_EQ_INT(m->u.stop.phase, 2);
		T_EQ_INT(m->u.stop.point, 3);
		lst_msg_destroy(&m);
		break;
	}
	s_follow(a, &r, 0, 3000);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_STOPPED);
	T_EQ_U64(r.done->u.done.samples, r.nsamples);
	if (r.done_at - sent > 500 * LST_NS_PER_MS)
		T_FAIL("DONE %.0f ms after STOP", (double)(r.done_at - sent) / 1e6);
	printf("ok: STOP mid-run: STOPPED, then DONE stopped %.1f ms after STOP\n",
	       (double)(r.done_at - sent) / 1e6);

	/* STOP again (nothing runs): STOPPED anyway. */
	id = s_stop(a, 2, 3);
	s_drop(s_expect(a, LST_MSG_STOPPED, id, 3000));
	s_ack(a, r.max_seq);
	s_result_free(&r);
	printf("ok: STOP is idempotent; t0 an hour or more away either way and wrong points are "
	       "STATE errors\n");
}

/*
 * A START whose t0 has already passed by more than an interval (a late START, a slow thread
 * start): the intervals before the jobs were released are closed empty on the grid, each
 * covering its own window, so every sample has start <= end on the agent's clock.
 */
static void test_late_start(struct peer *a)
{
	char path[PATH_MAX + 16];
	int64_t t0, t1, t4;
	uint64_t id, n = 0, done = 0, max_seq = 0;
	int64_t next_k = 0;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	m = s_prepare_msg("run-1", 6, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.runtime = 500 * LST_NS_PER_MS;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(a, LST_MSG_PREPARED, id, 5000));
	s_drop(s_sync(a, &t1, &t4));
	t0 = s_agent_now(a) - 250 * LST_NS_PER_MS;
	id = s_start(a, 6, 0, t0, 0);
	s_drop(s_expect(a, LST_MSG_STARTED, id, 3000));
	while (!done) {
		const lst_sample *s;

		m = s_recv(a, 3000);
		if (!m)
			T_FAIL("late start: no DONE after %llu samples", (unsigned long long)n);
		if (m->seq > max_seq)
			max_seq = m->seq;
		if (m->type == LST_MSG_DONE) {
			T_EQ_INT(m->u.done.reason, LST_DONE_COMPLETE);
			done = 1;
			lst_msg_destroy(&m);
			break;
		}
		if (m->type != LST_MSG_SAMPLE)
			T_FAIL("late start: unexpected %s", s_describe(m));
		s = &m->u.sample.s;
		T_EQ_INT(s->interval, next_k);
		if (s->start_ns > s->end_ns)
			T_FAIL("late start: sample k=%lld starts at %lld, after its end %lld",
			       (long long)s->interval, (long long)s->start_ns,
			       (long long)s->end_ns);
		if (s->interval == 0) {
			/* Before the release: empty, exactly its window of the grid. */
			T_EQ_INT(s->start_ns, t0);
			T_EQ_INT(s->end_ns, t0 + 100 * LST_NS_PER_MS);
			T_EQ_U64(s->dir[LST_DIR_WRITE].ios, 0);
		}
		next_k = s->interval + 1;
		n++;
		lst_msg_destroy(&m);
	}
	T_ASSERT(n >= 3);
	s_ack(a, max_seq);
	printf("ok: a START 250 ms late: %llu samples on the grid from k=0, the missed ones empty "
	       "and each within its own window\n",
	       (unsigned long long)n);
}

/*
 * STOP while the point waits for a t0 far ahead: the jobs leave their wait without any I/O, and
 * STARTED (released before t0), the empty last sample and DONE stopped follow at once instead of
 * at t0.
 */
static void test_stop_before_t0(struct peer *a)
{
	char path[PATH_MAX + 16];
	struct run_result r = { 0 };
	int64_t t0, t1, t4, sent;
	uint64_t id;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	m = s_prepare_msg("run-1", 7, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.runtime = 30 * LST_NS_PER_S;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(a, LST_MSG_PREPARED, id, 5000));
	s_drop(s_sync(a, &t1, &t4));
	t0 = s_agent_now(a) + 20 * LST_NS_PER_S;
	s_start(a, 7, 0, t0, 0);
	T_ASSERT(!(m = s_recv(a, 200))); /* nothing before t0 */
	sent = lst_mono_ns();
	id = s_stop(a, 7, 0);
	m = s_expect(a, LST_MSG_STOPPED, id, 3000);
	lst_msg_destroy(&m);
	s_follow(a, &r, 0, 3000);
	T_EQ_INT(r.started, 1);
	T_ASSERT(r.started_msg->u.started.actual < t0);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_STOPPED);
	T_EQ_U64(r.ios[LST_DIR_WRITE], 0);
	if (r.done_at - sent > LST_NS_PER_S)
		T_FAIL("DONE %.0f ms after a STOP before t0", (double)(r.done_at - sent) / 1e6);
	s_ack(a, r.max_seq);
	printf("ok: STOP before t0: STARTED, DONE stopped %.1f ms later, no I/O\n",
	       (double)(r.done_at - sent) / 1e6);
	s_result_free(&r);
}

static void test_purge(struct peer *a)
{
	char path[PATH_MAX + 16];
	struct run_result r = { 0 };
	struct stat before, after;
	uint64_t id;
	lst_msg *m;
	uint8_t *buf = lst_malloc(MiB);
	int fd;

	snprintf(path, sizeof(path), "%s/purge", s_dir);
	s_make_file(path, 8 * MiB, 0xa5);
	T_ASSERT(!stat(path, &before));
	m = s_prepare_msg("run-1", 4, 0, path, LST_ACTION_DISCARD);
	m->u.prepare.jobs[0].w.offset = 2 * MiB;
	m->u.prepare.jobs[0].w.size = 4 * MiB;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_PREPARED, id, 5000);
	T_EQ_U64(m->u.prepared.paths[0].size, 8 * MiB);
	lst_msg_destroy(&m);
	s_start(a, 4, 0, s_agent_now(a) + 20 * LST_NS_PER_MS, 0);
	s_follow(a, &r, 0, 10000);
	T_EQ_INT(r.started, 1);
	T_EQ_U64(r.nsamples, 0);
	if (r.done->u.done.reason != LST_DONE_COMPLETE)
		T_FAIL("purge: DONE reason %u: %s", r.done->u.done.reason, r.done->u.done.text);
	T_EQ_INT(r.done->u.done.last_interval, -1);
	T_ASSERT(!stat(path, &after));
	T_EQ_INT(after.st_size, before.st_size);
	T_ASSERT(after.st_blocks < before.st_blocks);
	fd = open(path, O_RDONLY);
	T_ASSERT(fd >= 0);
	T_ASSERT(pread(fd, buf, MiB, 1 * MiB) == MiB);
	T_EQ_INT(buf[MiB - 1], 0xa5);
	T_ASSERT(pread(fd, buf, MiB, 3 * MiB) == MiB);
	for (size_t i = 0; i < MiB; i += 4096)
		T_EQ_INT(buf[i], 0);
	T_ASSERT(pread(fd, buf, MiB, 6 * MiB) == MiB);
	T_EQ_INT(buf[0], 0xa5);
	close(fd);
	free(buf);
	s_ack(a, r.max_seq);
	s_result_free(&r);

	/* What cannot be purged is refused at PREPARE, not at START. */
	m = s_prepare_msg("run-1", 4, 1, path, LST_ACTION_SECDISCARD);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_IO, id, 3000);
	T_CONTAINS(m->u.error.text, "secdiscard needs a block device");
	lst_msg_destroy(&m);
	m = s_prepare_msg("run-1", 4, 2, path, LST_ACTION_DISCARD);
	m->u.prepare.jobs[0].w.offset = 6 * MiB;
	m->u.prepare.jobs[0].w.size = 4 * MiB;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_IO, id, 3000);
	T_CONTAINS(m->u.error.text, "beyond the end");
	lst_msg_destroy(&m);
	printf("ok: DISCARD punched [2, 6) MiB of a file and nothing else; DONE complete; "
	       "impossible purges are refused at PREPARE\n");
}

/* Writes counted by the block layer for a device: completed requests + merged ones. */
static uint64_t s_block_writes(const char *dev)
{
	char path[128], *text = NULL;
	unsigned long long f[6] = { 0 };
	size_t len;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", strrchr(dev, '/') + 1);
	T_ASSERT(!lst_read_file(path, 4096, &text, &len));
	T_ASSERT(sscanf(text, "%llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
			&f[5]) == 6);
	free(text);
	return f[4] + f[5];
}

/*
 * Root only: one loop device (allowed as /dev/loop*), reached through a link in s_dir, named by two job specs
 * (two halves): it is opened once (a second O_EXCL open would fail), both halves run, and the
 * block layer's own counters agree with the samples' write count.
 */
static void test_shared_loop(struct peer *a)
{
	char link[PATH_MAX + 16], cmd[PATH_MAX + 64];
	struct run_result r = { 0 };
	uint64_t id, before, after, first;
	lst_msg *m;
	FILE *f;
	int fd;

	if (getuid() != 0) {
		printf("skip: shared loop device: needs root\n");
		return;
	}
	snprintf(s_backing, sizeof(s_backing), "/dev/shm/lst-daemon-disk.XXXXXX");
	fd = mkstemp(s_backing);
	T_ASSERT(fd >= 0);
	T_ASSERT(!ftruncate(fd, 64 * MiB));
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s", s_backing);
	f = popen(cmd, "r");
	T_ASSERT(f);
	if (!fgets(s_loopdev, sizeof(s_loopdev), f))
		s_loopdev[0] = '\0';
	pclose(f);
	s_loopdev[strcspn(s_loopdev, "\n")] = '\0';
	if (strncmp(s_loopdev, "/dev/loop", 9)) {
		s_loopdev[0] = '\0';
		printf("skip: shared loop device: losetup failed\n");
		return;
	}
	snprintf(link, sizeof(link), "%s/loop", s_dir);
	T_ASSERT(!symlink(s_loopdev, link));

	m = s_prepare_msg("run-1", 5, 0, link, LST_ACTION_IO);
	m->u.prepare.njobs = 2;
	m->u.prepare.jobs[1] = m->u.prepare.jobs[0];
	snprintf(m->u.prepare.jobs[1].target, sizeof(m->u.prepare.jobs[1].target), "disk1");
	m->u.prepare.jobs[0].w.size = 32 * MiB;
	m->u.prepare.jobs[1].w.offset = 32 * MiB;
	m->u.prepare.jobs[1].w.size = 32 * MiB;
	m->u.prepare.jobs[0].w.runtime = m->u.prepare.jobs[1].w.runtime = 500 * LST_NS_PER_MS;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_PREPARED, id, 5000);
	T_EQ_INT(m->u.prepared.npaths, 2);
	T_EQ_STR(m->u.prepared.paths[0].target, "disk0");
	T_EQ_STR(m->u.prepared.paths[1].target, "disk1");
	for (int i = 0; i < 2; i++) {
		T_EQ_STR(m->u.prepared.paths[i].kind, "block");
		T_EQ_STR(m->u.prepared.paths[i].path, link);
		T_EQ_STR(m->u.prepared.paths[i].real_path, s_loopdev);
		T_EQ_STR(m->u.prepared.paths[i].backing_file, s_backing);
		T_EQ_U64(m->u.prepared.paths[i].size, 64 * MiB);
	}
	lst_msg_destroy(&m);
	before = s_block_writes(s_loopdev);
	s_start(a, 5, 0, s_agent_now(a) + 20 * LST_NS_PER_MS, 0);
	r.njobs = 2;
	s_follow(a, &r, 0, 10000);
	after = s_block_writes(s_loopdev);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_COMPLETE);
	T_ASSERT(r.ios[LST_DIR_WRITE] > 0);
	T_EQ_U64(after - before, r.ios[LST_DIR_WRITE]);
	/* Two job specs: every SAMPLE came split by path, each path wrote its share. */
	T_EQ_U64(r.split, r.nsamples);
	T_ASSERT(r.part_ios[0][LST_DIR_WRITE] > 0 && r.part_ios[1][LST_DIR_WRITE] > 0);
	T_EQ_U64(r.part_ios[0][LST_DIR_WRITE] + r.part_ios[1][LST_DIR_WRITE], r.ios[LST_DIR_WRITE]);
	first = r.part_ios[0][LST_DIR_WRITE];
	s_ack(a, r.max_seq);
	s_result_free(&r);
	printf("ok: one loop device named twice is opened once; the block layer counted the "
	       "%llu writes the samples report, split %llu + %llu by path\n",
	       (unsigned long long)(after - before), (unsigned long long)first,
	       (unsigned long long)(after - before - first));
}

/* Go silent mid-run: the agent must stop writing within the lease (+ a tick and a drain). */
static void test_lease(void)
{
	char path[PATH_MAX + 16], *log;
	struct peer *c = s_peer_new(), *d, *e;
	struct run_result r = { 0 };
	int64_t silent, last_change = 0, mt, t1, t4, end;
	uint64_t id, seen_seq;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	s_hello_ok(c, "run-lease", "coord-c", 1000);
	s_drop(s_sync(c, &t1, &t4));
	m = s_prepare_msg("run-lease", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.runtime = 60 * LST_NS_PER_S;
	id = s_send(c, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(c, LST_MSG_PREPARED, id, 5000));
	s_start(c, 0, 0, s_agent_now(c) + 20 * LST_NS_PER_MS, 0);
	s_follow(c, &r, 3, 5000);
	silent = lst_mono_ns(); /* the last frame we sent was START */
	T_ASSERT(silent - t4 < 900 * LST_NS_PER_MS);

	/* Watch the file: its mtime moves while the jobs write, then must freeze. */
	mt = s_mtime(path);
	end = silent + 4500 * LST_NS_PER_MS;
	while (lst_mono_ns() < end) {
		int64_t now = s_mtime(path);

		if (now != mt) {
			mt = now;
			last_change = lst_mono_ns();
		}
		lst_sleep_ns(20 * LST_NS_PER_MS);
	}
	T_ASSERT(last_change > 0); /* it was writing after we went silent */
	if (last_change - silent > 2500 * LST_NS_PER_MS)
		T_FAIL("writes went on %.0f ms after the coordinator went silent (lease 1 s)",
		       (double)(last_change - silent) / 1e6);
	log = s_log_text();
	T_CONTAINS(log, "coordinator coord-c silent for");
	T_CONTAINS(log, "(lease 1.0 s): stopping I/O");
	free(log);

	/* The DONE still reached the silent coordinator's socket: reason lease. */
	s_follow(c, &r, 0, 2000);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_LEASE);
	T_EQ_U64(r.done->u.done.samples, r.nsamples);
	seen_seq = r.max_seq;
	printf("ok: lease: writes stopped %.0f ms after the coordinator went silent; DONE lease\n",
	       (double)(last_change - silent) / 1e6);

	/* Same run from a new connection: resumed, and the unacknowledged spool comes again. */
	e = s_peer_new();
	s_hello_ok(e, "run-lease", "coord-c", 5000);
	{
		uint64_t nsamples = 0, done = 0, max_seq = 0;

		while ((m = s_recv(e, 500))) {
			if (m->type == LST_MSG_SAMPLE)
				nsamples++;
			else if (m->type == LST_MSG_DONE)
				done++;
			else
				T_FAIL("resume: unexpected %s", s_describe(m));
			T_ASSERT(m->seq > max_seq);
			max_seq = m->seq;
			lst_msg_destroy(&m);
		}
		T_EQ_U64(nsamples, r.nsamples);
		T_EQ_U64(done, 1);
		T_EQ_U64(max_seq, seen_seq);
		s_ack(e, max_seq);
	}
	s_bye(e);
	s_result_free(&r);
	printf("ok: HELLO with the same run resumes the session and replays the spool\n");

	/* BYE freed the agent: a new coordinator is welcome; then a lease expiry frees it too. */
	d = s_peer_new();
	s_hello_ok(d, "run-d", "coord-d", 1000);
	lst_sleep_ns(1500 * LST_NS_PER_MS);
	s_peer_destroy(&e);
	e = s_peer_new();
	s_hello_ok(e, "run-e", "coord-e", 10000);
	s_bye(e);
	s_peer_destroy(&c);
	s_peer_destroy(&d);
	s_peer_destroy(&e);
	printf("ok: after BYE or a lease expiry a new coordinator gets WELCOME\n");
}

/*
 * The session's coordinator reconnects from a new connection while the lease still holds (its
 * old connection broke): the agent continues the session (WELCOME resumed 1, same instance),
 * re-sends the unacknowledged spool on the new connection, and the running point's later
 * SAMPLEs and DONE follow it there. Another run id still gets BUSY.
 */
static void test_reconnect(void)
{
	char path[PATH_MAX + 16], *log;
	struct peer *c = s_peer_new(), *d = s_peer_new(), *e = s_peer_new();
	struct run_result r = { 0 };
	bool seen[64] = { false };
	uint64_t id, n = 0, max_seq = 0;
	int64_t t1, t4, k;
	lst_msg *m, *done = NULL;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	s_hello_ok(c, "run-rc", "coord-rc", 10000);
	s_drop(s_sync(c, &t1, &t4));
	m = s_prepare_msg("run-rc", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.runtime = 2 * LST_NS_PER_S;
	id = s_send(c, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(c, LST_MSG_PREPARED, id, 5000));
	s_start(c, 0, 0, s_agent_now(c) + 20 * LST_NS_PER_MS, 0);
	s_follow(c, &r, 4, 5000); /* 4 samples on the first connection, never ACKed */
	T_EQ_INT(r.first_k, 0);

	/* The same run from a new connection, the lease (10 s) still holding. Command ids go on
	 * from the old connection's (PROTOCOL.md 8: never reused in a run). */
	d->id = c->id;
	d->seq = c->seq;
	m = s_hello(d, "run-rc", "coord-rc", 10000, &id);
	if (!m || m->type != LST_MSG_WELCOME)
		T_FAIL("reconnect within the lease: %s", m ? s_describe(m) : "nothing");
	T_EQ_U64(m->re, id);
	T_EQ_U64(m->u.welcome.resumed, 1);
	T_EQ_U64(m->u.welcome.instance, s_instance);
	lst_msg_destroy(&m);
	/* The spool from interval 0, then the later samples and DONE, all on the new connection. */
	while (!done) {
		m = s_recv(d, 5000);
		if (!m)
			T_FAIL("reconnect: no DONE on the new connection (%llu samples)",
			       (unsigned long long)n);
		if (m->seq > max_seq)
			max_seq = m->seq;
		if (m->type == LST_MSG_DONE) {
			done = m;
			break;
		}
		if (m->type != LST_MSG_SAMPLE)
			T_FAIL("reconnect: unexpected %s", s_describe(m));
		k = m->u.sample.s.interval;
		T_ASSERT(k >= 0 && k < 64);
		seen[k] = true;
		n++;
		lst_msg_destroy(&m);
	}
	T_EQ_INT(done->u.done.reason, LST_DONE_COMPLETE);
	for (k = 0; k <= done->u.done.last_interval; k++)
		if (!seen[k])
			T_FAIL("reconnect: interval %lld never reached the new connection",
			       (long long)k);
	T_ASSERT(done->u.done.last_interval >= 19);
	lst_msg_destroy(&done);

	/* Another run while the lease holds: BUSY. */
	m = s_hello(e, "run-other", "coord-e", 10000, &id);
	if (!m || m->type != LST_MSG_ERROR || m->u.error.code != LST_PERR_BUSY)
		T_FAIL("HELLO for another run: %s", m ? s_describe(m) : "nothing");
	T_CONTAINS(m->u.error.text, "busy: run run-rc");
	lst_msg_destroy(&m);
	/* The session lives on the new connection: PING there is answered. */
	s_simple(d, LST_MSG_PING);
	s_drop(s_expect(d, LST_MSG_PONG, d->id, 3000));
	s_ack(d, max_seq);
	log = s_log_text();
	T_CONTAINS(log, "coordinator coord-rc reconnected for run run-rc from a new connection");
	free(log);
	s_bye(d);
	s_result_free(&r);
	s_peer_destroy(&c);
	s_peer_destroy(&d);
	s_peer_destroy(&e);
	printf("ok: a reconnect within the lease continues the session: WELCOME resumed 1, the "
	       "spool and the rest of the running point (%llu samples) follow the new connection; "
	       "another run gets BUSY\n",
	       (unsigned long long)n);
}

/* BYE cancels a PREPARE still being executed, answering it ERROR STATE; the agent is free. (The
 * lease expiring takes the same path as STOP, s_point_stop, with its own reason.) */
static void test_prepare_cancel_session(void)
{
	char path[PATH_MAX + 16];
	struct peer *p = s_peer_new();
	uint64_t id;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	s_hello_ok(p, "run-1", "coord-pc", 10000);
	id = s_send_big_prepare(p, 0, path);
	s_simple(p, LST_MSG_BYE);
	m = s_expect_error(p, LST_PERR_STATE, id, 3000);
	T_CONTAINS(m->u.error.text, "was cancelled before it was ready: BYE from the coordinator");
	lst_msg_destroy(&m);
	s_simple(p, LST_MSG_PING);
	s_drop(s_expect_error(p, LST_PERR_NO_SESSION, p->id, 3000));

	s_peer_destroy(&p);
	p = s_peer_new();
	s_hello_ok(p, "run-pc2", "coord-pc2", 10000);
	s_bye(p);
	s_peer_destroy(&p);
	printf("ok: BYE cancels a PREPARE being executed (ERROR STATE); the agent is free\n");
}

/*
 * A coordinator that comes back after a crash (lockstep resume) says BYE to its old session and
 * opens a new one at once, so its first PREPARE can come while the old point's jobs are still
 * returning. The agent holds that PREPARE until the old point's DONE is out and then executes it;
 * it refused it before, and the resume failed. The old point here is rate-limited to 1 IOPS at
 * 1 s intervals: its job sleeps up to a second between I/Os and sees the stop only when it
 * wakes, so the new session's PREPARE reliably finds it stopping. BYE is confirmed (s_bye) before
 * the new connection's HELLO: frames of two connections are not ordered.
 */
static void test_prepare_after_bye(void)
{
	char path[PATH_MAX + 16];
	struct run_result r = { 0 };
	uint64_t id;
	unsigned held = 0;
	lst_msg *m;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	for (int round = 0; round < 3; round++) {
		struct peer *p = s_peer_new(), *q = s_peer_new();
		char run[32], next[32], *log;

		snprintf(run, sizeof(run), "run-hold%d", round);
		snprintf(next, sizeof(next), "run-hold%d-next", round);
		s_hello_ok(p, run, "coord-hold", 10000);
		m = s_prepare_msg(run, 0, 0, path, LST_ACTION_IO);
		m->u.prepare.jobs[0].w.runtime = 30 * LST_NS_PER_S;
		m->u.prepare.jobs[0].w.rate_iops = 1;
		m->u.prepare.jobs[0].w.interval = LST_NS_PER_S;
		id = s_send(p, m, true);
		lst_msg_destroy(&m);
		s_drop(s_expect(p, LST_MSG_PREPARED, id, 5000));
		s_start(p, 0, 0, s_agent_now(p) + 20 * LST_NS_PER_MS, 0);
		s_follow(p, &r, 1, 5000);
		s_result_free(&r);

		s_bye(p);
		s_hello_ok(q, next, "coord-hold", 10000);
		m = s_prepare_msg(next, 0, 0, path, LST_ACTION_IO);
		id = s_send(q, m, true);
		lst_msg_destroy(&m);
		m = s_recv(q, 5000);
		if (!m || m->type != LST_MSG_PREPARED || m->re != id)
			T_FAIL("PREPARE right after another session's BYE: %s",
			       m ? s_describe(m) : "no answer in 5 s");
		lst_msg_destroy(&m);
		s_bye(q);
		s_peer_destroy(&p);
		s_peer_destroy(&q);
		log = s_log_text();
		held = 0;
		for (const char *at = log; (at = strstr(at, "of the previous session to stop"));
		     at++)
			held++;
		free(log);
	}
	/* The race is the point of the test: the old job sleeps up to 1 s before it sees the
	 * stop, so the PREPARE that follows BYE by a round trip finds the old point stopping. */
	if (!held)
		T_FAIL("no PREPARE was ever held: the test did not make the race it is about");
	printf("ok: a PREPARE right after another session's BYE waits for the old point's DONE "
	       "(held in %u of 3 rounds), then PREPARED\n",
	       held);
}

/*
 * The spool's bound and overflow rule, on an agent with --lease-max 2s (a bound of 2 s / 10 ms
 * x 1.5 + 64 = 364 frames): a point of 5 s at 10 ms intervals whose samples are never ACKed
 * overflows it; the oldest frames are dropped, the agent says so once in its log and in the
 * point's DONE, and a reconnect gets the newest 364 frames, consecutive up to DONE.
 */
static void test_spool_bound(void)
{
	char endpoint[64], log[PATH_MAX + 16], path[PATH_MAX + 16], *text, *at;
	const char *extra[] = { "--lease-max", "2s", NULL };
	struct peer *p, *q;
	uint64_t id, n = 0, frames = 0;
	int64_t t1, t4, next_ping, prev_k = -1;
	lst_msg *m, *done = NULL;
	int status, full = 0;

	snprintf(endpoint, sizeof(endpoint), "tcp://127.0.0.1:%d", s_free_port());
	snprintf(log, sizeof(log), "%s/agent-spool.log", s_outside);
	s_pid2 = s_spawn(NULL, endpoint, log, extra);
	p = s_peer_new_at(endpoint, NULL, NULL);
	s_hello_ok(p, "run-sp", "coord-sp", 2000);
	s_drop(s_sync(p, &t1, &t4));
	snprintf(path, sizeof(path), "%s/disk", s_dir);
	m = s_prepare_msg("run-sp", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.interval = 10 * LST_NS_PER_MS;
	m->u.prepare.jobs[0].w.runtime = 5 * LST_NS_PER_S;
	m->u.prepare.jobs[0].w.rate_iops = 1000;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(p, LST_MSG_PREPARED, id, 5000));
	s_start(p, 0, 0, s_agent_now(p) + 20 * LST_NS_PER_MS, 0);
	next_ping = lst_mono_ns() + 500 * LST_NS_PER_MS;
	while (!done) {
		m = s_recv(p, 3000);
		if (!m)
			T_FAIL("spool: no DONE (%llu samples)", (unsigned long long)n);
		if (m->type == LST_MSG_SAMPLE)
			n++;
		else if (m->type == LST_MSG_DONE)
			done = m;
		else if (m->type != LST_MSG_STARTED && m->type != LST_MSG_PONG)
			T_FAIL("spool: unexpected %s", s_describe(m));
		if (m != done)
			lst_msg_destroy(&m);
		if (lst_mono_ns() > next_ping) { /* keep the lease, never ACK */
			s_simple(p, LST_MSG_PING);
			next_ping += 500 * LST_NS_PER_MS;
		}
	}
	T_ASSERT(n > 400);
	T_EQ_INT(done->u.done.reason, LST_DONE_COMPLETE);
	T_EQ_U64(done->u.done.samples, n);
	T_CONTAINS(done->u.done.text, "unacknowledged SAMPLE/DONE frames were dropped from the "
				      "agent's spool (full: at most 364 frames");
	T_EQ_U64(strtoull(done->u.done.text, NULL, 10), n - 364);
	lst_msg_destroy(&done);

	/* A reconnect: the newest 364 frames, samples consecutive, DONE last. */
	q = s_peer_new_at(endpoint, NULL, NULL);
	q->id = p->id;
	s_hello_ok(q, "run-sp", "coord-sp", 2000);
	while ((m = s_recv(q, 500))) {
		frames++;
		T_ASSERT(!done);
		if (m->type == LST_MSG_DONE) {
			done = m;
			continue;
		}
		T_EQ_INT(m->type, LST_MSG_SAMPLE);
		if (prev_k >= 0)
			T_EQ_INT(m->u.sample.s.interval, prev_k + 1);
		prev_k = m->u.sample.s.interval;
		lst_msg_destroy(&m);
	}
	T_EQ_U64(frames, 364);
	T_ASSERT(done);
	T_EQ_INT(done->u.done.last_interval, prev_k);
	lst_msg_destroy(&done);
	s_bye(q);
	T_ASSERT(!lst_read_file(log, 64 * MiB, &text, NULL));
	for (at = text; (at = strstr(at, "spool full (")); at++)
		full++;
	T_EQ_INT(full, 1);
	T_CONTAINS(text, "spool: at most 364 unacknowledged frames or 256 MiB");
	free(text);
	s_peer_destroy(&p);
	s_peer_destroy(&q);
	status = s_term_pid2();
	T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	printf("ok: spool bound 364 frames (lease_max 2 s): %llu samples never ACKed, the oldest "
	       "dropped and counted in DONE, logged once; a reconnect gets the newest 364\n",
	       (unsigned long long)n);
}

/*
 * A second agent with io_uring blocked by seccomp (tests/tools/noiouring, as containers do):
 * WELCOME leaves io_uring out of its engines, and a PREPARE for io_uring says it falls back to
 * psync, with a warning, and still runs.
 */
static void test_no_uring(void)
{
	char tool[PATH_MAX], endpoint[64], log[PATH_MAX + 16], path[PATH_MAX + 16];
	const char *bin = getenv("LST_BIN");
	struct run_result r = { 0 };
	struct peer *p;
	uint64_t id;
	int64_t t1, t4;
	lst_msg *m;
	int status;

	snprintf(tool, sizeof(tool), "%s/../tests/noiouring", bin ? bin : ".");
	if (!bin || access(tool, X_OK)) {
		printf("skip: io_uring fallback: %s not built\n", tool);
		return;
	}
	snprintf(endpoint, sizeof(endpoint), "tcp://127.0.0.1:%d", s_free_port());
	snprintf(log, sizeof(log), "%s/agent-nouring.log", s_outside);
	s_pid2 = s_spawn(tool, endpoint, log, NULL);
	p = s_peer_new_at(endpoint, NULL, NULL);
	m = s_hello(p, "run-nu", "coord-nu", 10000, &id);
	T_ASSERT(m && m->type == LST_MSG_WELCOME);
	T_EQ_INT(m->u.welcome.engines & (1u << LST_ENGINE_IO_URING), 0);
	T_ASSERT(m->u.welcome.engines & (1u << LST_ENGINE_PSYNC));
	lst_msg_destroy(&m);
	s_drop(s_sync(p, &t1, &t4));
	snprintf(path, sizeof(path), "%s/disk", s_dir);
	m = s_prepare_msg("run-nu", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.runtime = 300 * LST_NS_PER_MS;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	m = s_expect(p, LST_MSG_PREPARED, id, 5000);
	T_EQ_INT(m->u.prepared.engine, LST_ENGINE_PSYNC);
	T_CONTAINS(m->u.prepared.warning, "falling back to psync");
	lst_msg_destroy(&m);
	s_start(p, 0, 0, s_agent_now(p) + 20 * LST_NS_PER_MS, 0);
	s_follow(p, &r, 0, 5000);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_COMPLETE);
	T_ASSERT(r.ios[LST_DIR_WRITE] > 0);
	s_result_free(&r);
	s_bye(p);
	s_peer_destroy(&p);
	status = s_term_pid2();
	T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	printf("ok: io_uring blocked: WELCOME offers psync and null only; PREPARED says psync with "
	       "the fallback warning; the run completes\n");
}

/*
 * Every example message of the codec's test set (typical, extreme, smallest), of every type, from
 * a session's peer: odd but valid input gets answers, never a crash. allow_write admits only the
 * test's folder, so none of the example paths can be touched.
 */
static void test_examples(void)
{
	struct peer *p = s_peer_new();
	unsigned sent = 0, answers = 0;
	lst_msg *m;
	int status;

	s_hello_ok(p, "run-x", "coord-x", 10000);
	for (int v = 0; v < LST_EXAMPLE_N; v++) {
		for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++) {
			if (t == LST_MSG_BYE)
				continue;
			m = lst_example_msg(t, (enum lst_example)v);
			/* Not commands: ACK, and what the agent itself sends (SAMPLE, DONE, EVENT;
			 * data integrity's JOURNAL_OK and INTEGRITY). */
			s_send(p, m,
			       t != LST_MSG_ACK && t != LST_MSG_SAMPLE && t != LST_MSG_DONE &&
				       t != LST_MSG_EVENT && t != LST_MSG_JOURNAL_OK &&
				       t != LST_MSG_INTEGRITY);
			lst_msg_destroy(&m);
			sent++;
			while ((m = s_recv(p, 30))) {
				answers++;
				lst_msg_destroy(&m);
			}
		}
	}
	while ((m = s_recv(p, 300))) {
		answers++;
		lst_msg_destroy(&m);
	}
	T_ASSERT(answers > 0);
	T_EQ_INT(waitpid(s_pid, &status, WNOHANG), 0);
	s_simple(p, LST_MSG_PING);
	m = s_recv(p, 3000);
	T_ASSERT(m && (m->type == LST_MSG_PONG || m->type == LST_MSG_ERROR));
	lst_msg_destroy(&m);
	s_bye(p);
	s_peer_destroy(&p);
	printf("ok: %u example messages of every type: %u answers, the agent still serves\n", sent,
	       answers);
}

static uint64_t s_welcome_seq(struct peer *p, const char *run, const char *coordinator)
{
	uint64_t id, seq;
	lst_msg *m = s_hello(p, run, coordinator, 1000, &id);

	if (!m || m->type != LST_MSG_WELCOME)
		T_FAIL("CURVE HELLO from %s: %s", coordinator, m ? s_describe(m) : "nothing");
	seq = m->seq;
	lst_msg_destroy(&m);
	return seq;
}

/*
 * A session that went dormant (its lease expired) is resumed by a HELLO with its run id only
 * from the CURVE key that opened it: another authorized coordinator naming the same run gets a
 * session of its own (its WELCOME is seq 1), not the first one's spool and reply cache.
 */
static void test_curve_resume(void)
{
	char endpoint[64], log[PATH_MAX + 16], auth[PATH_MAX + 16], base[PATH_MAX + 32], *text;
	struct lst_keypair agent, ka, kb;
	struct peer *a, *b, *b2;
	char *key_path = NULL;
	const char *extra[5];
	lst_msg *m;
	lst_err err;
	int status;

	snprintf(auth, sizeof(auth), "%s/authorized_keys", s_outside);
	T_ASSERT(!mkdir(auth, 0700));
	snprintf(base, sizeof(base), "%s/agent", s_outside);
	T_ASSERT(!lst_auth_keygen(base, false, &agent, &key_path, NULL, &err));
	snprintf(base, sizeof(base), "%s/coord-a", auth);
	T_ASSERT(!lst_auth_keygen(base, false, &ka, NULL, NULL, &err));
	snprintf(base, sizeof(base), "%s/coord-b", auth);
	T_ASSERT(!lst_auth_keygen(base, false, &kb, NULL, NULL, &err));
	extra[0] = "--key";
	extra[1] = key_path;
	extra[2] = "--authorized-keys";
	extra[3] = auth;
	extra[4] = NULL;
	snprintf(endpoint, sizeof(endpoint), "tcp://127.0.0.1:%d", s_free_port());
	snprintf(log, sizeof(log), "%s/agent-curve.log", s_outside);
	s_pid2 = s_spawn(NULL, endpoint, log, extra);

	a = s_peer_new_at(endpoint, &ka, agent.pub);
	T_EQ_U64(s_welcome_seq(a, "run-k", "coord-a"), 1);
	s_simple(a, LST_MSG_PING);
	m = s_expect(a, LST_MSG_PONG, a->id, 3000);
	T_EQ_U64(m->seq, 2);
	lst_msg_destroy(&m);
	lst_sleep_ns(1500 * LST_NS_PER_MS); /* a's lease (1 s) expires: dormant */

	b = s_peer_new_at(endpoint, &kb, agent.pub);
	T_EQ_U64(s_welcome_seq(b, "run-k", "coord-b"), 1);
	lst_sleep_ns(1500 * LST_NS_PER_MS);
	/* The same key from a new connection resumes its session. */
	b2 = s_peer_new_at(endpoint, &kb, agent.pub);
	T_EQ_U64(s_welcome_seq(b2, "run-k", "coord-b"), 2);
	s_bye(b2);
	text = NULL;
	T_ASSERT(!lst_read_file(log, 64 * MiB, &text, NULL));
	T_CONTAINS(text, "session opened: run run-k from coordinator coord-b");
	T_CONTAINS(text, "session resumed: run run-k from coordinator coord-b");
	free(text);
	s_peer_destroy(&a);
	s_peer_destroy(&b);
	s_peer_destroy(&b2);
	status = s_term_pid2();
	T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	T_ASSERT(!lst_read_file(log, 64 * MiB, &text, NULL));
	if (strstr(text, "runtime error:") || strstr(text, "Sanitizer"))
		T_FAIL("the CURVE agent's log reports a bug:\n%s", text);
	free(text);
	free(key_path);
	printf("ok: CURVE: a dormant session is resumed only with the key that opened it; "
	       "another key naming its run gets a new session\n");
}

static void test_identify(void)
{
	struct peer *p = s_peer_new();
	char path[PATH_MAX + 16];
	struct stat st;
	uint8_t *buf;
	size_t len;
	uint64_t id;
	lst_msg *m;
	lst_err err;

	s_hello_ok(p, "run-id", "coord-i", 10000);
	snprintf(path, sizeof(path), "%s/disk", s_dir);
	T_ASSERT(!stat(path, &st));
	m = s_prepare_msg("run-id", 0, 0, path, LST_ACTION_IDENTIFY);
	if (lst_msg_encode(m, &buf, &len, &err)) {
		printf("skip: IDENTIFY: the codec refuses action 3 (%s)\n", err.msg);
		lst_msg_destroy(&m);
		s_bye(p);
		s_peer_destroy(&p);
		return;
	}
	free(buf);
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	m = s_expect(p, LST_MSG_PREPARED, id, 5000);
	T_EQ_INT(m->u.prepared.npaths, 1);
	T_EQ_STR(m->u.prepared.paths[0].target, "disk0");
	T_EQ_U64(m->u.prepared.paths[0].size, (uint64_t)st.st_size);
	T_EQ_U64(m->u.prepared.paths[0].dev, (uint64_t)st.st_dev);
	T_EQ_U64(m->u.prepared.paths[0].ino, (uint64_t)st.st_ino);
	lst_msg_destroy(&m);
	/* Nothing is prepared after an IDENTIFY. */
	id = s_start(p, 0, 0, s_agent_now(p), 0);
	s_drop(s_expect_error(p, LST_PERR_STATE, id, 3000));
	s_bye(p);
	s_peer_destroy(&p);
	printf("ok: PREPARE IDENTIFY reports size, dev and ino and prepares nothing\n");
}

/* SIGTERM mid-run: DONE stopped reaches the coordinator, the agent exits 0. */
static void test_sigterm(void)
{
	struct peer *p = s_peer_new();
	struct run_result r = { 0 };
	char path[PATH_MAX + 16];
	int64_t t1, t4;
	uint64_t id;
	lst_msg *m;
	int status;

	s_hello_ok(p, "run-term", "coord-t", 10000);
	s_drop(s_sync(p, &t1, &t4));
	snprintf(path, sizeof(path), "%s/disk", s_dir);
	m = s_prepare_msg("run-term", 0, 0, path, LST_ACTION_IO);
	m->u.prepare.jobs[0].w.runtime = 60 * LST_NS_PER_S;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	s_drop(s_expect(p, LST_MSG_PREPARED, id, 5000));
	s_start(p, 0, 0, s_agent_now(p) + 20 * LST_NS_PER_MS, 0);
	s_follow(p, &r, 2, 5000);
	T_ASSERT(!kill(s_pid, SIGTERM));
	s_follow(p, &r, 0, 5000);
	T_EQ_INT(r.done->u.done.reason, LST_DONE_STOPPED);
	T_CONTAINS(r.done->u.done.text, "shutting down");
	T_EQ_INT(waitpid(s_pid, &status, 0), s_pid);
	s_pid = -1;
	T_ASSERT(WIFEXITED(status));
	T_EQ_INT(WEXITSTATUS(status), 0);
	s_result_free(&r);
	s_peer_destroy(&p);
	printf("ok: SIGTERM mid-run: DONE stopped, exit 0\n");
}

int main(int argc, char **argv)
{
	static char agent[PATH_MAX];
	struct peer *a;

	if (argc > 1) {
		s_agent = argv[1];
	} else if (getenv("LST_BIN")) {
		snprintf(agent, sizeof(agent), "%s/lockstep-agent", getenv("LST_BIN"));
		s_agent = agent;
	} else {
		fprintf(stderr, "skip: give the agent as argv[1] or set LST_BIN\n");
		return LST_TEST_SKIP;
	}
	if (access(s_agent, X_OK)) {
		fprintf(stderr, "%s: %s\n", s_agent, strerror(errno));
		return 1;
	}
	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-daemon.XXXXXX");
	T_ASSERT(mkdtemp(s_dir));
	snprintf(s_outside, sizeof(s_outside), "/tmp/lst-outside.XXXXXX");
	T_ASSERT(mkdtemp(s_outside));
	snprintf(s_log, sizeof(s_log), "%s/agent.log", s_outside);
	atexit(s_cleanup);
	snprintf(s_endpoint, sizeof(s_endpoint), "tcp://127.0.0.1:%d", s_free_port());
	s_pid = s_spawn(NULL, s_endpoint, s_log, NULL);
	printf("agent %s on %s (log %s)\n", s_agent, s_endpoint, s_log);

	test_no_session_and_garbage();
	a = s_peer_new();
	test_hello(a);
	test_sync(a);
	test_refused(a);
	test_mem_cap(a);
	test_prepare_async(a);
	test_run(a);
	test_stop(a);
	test_late_start(a);
	test_stop_before_t0(a);
	test_purge(a);
	test_shared_loop(a);
	s_bye(a);
	s_peer_destroy(&a);
	test_lease();
	test_reconnect();
	test_prepare_cancel_session();
	test_prepare_after_bye();
	test_spool_bound();
	test_examples();
	test_no_uring();
	test_curve_resume();
	test_identify();
	test_sigterm();
	{
		/* Sanitizer builds report into the agent's log. */
		char *log = s_log_text();

		if (strstr(log, "runtime error:") || strstr(log, "Sanitizer") ||
		    strstr(log, "assertion failed") || strstr(log, "internal:"))
			T_FAIL("the agent's log reports a bug");
		free(log);
	}
	s_passed = true;
	return 0;
}
