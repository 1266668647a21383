/*
 * Hooks on a real agent (issue 13): a lockstep-agent process with a config of test hooks
 * (tests/tools/hook_stamp, shell scripts written here) driven over loopback by a DEALER with
 * the real codec, as a coordinator would.
 *
 *   - WELCOME lists hooks.v1 and the config's hook and collector names;
 *   - START with events at +300 ms, +600 ms (and one that outlives the point, one the point
 *     never reaches) of a 1 s point on a file: one EVENT each, all before DONE, whose `events`
 *     counts them; the hooks start on their instants (the lateness is printed; asserted within
 *     a bound a loaded machine keeps); statuses and outputs as the hooks made them;
 *   - START naming a hook the config lacks: ERROR REFUSED naming it and the defined ones;
 *   - HOOK of a collector printing JSON: HOOK_DONE with that output; of a hook that outlives
 *     hook_timeout: killed, the text says so, a retry of its id is not run twice and a second
 *     HOOK meanwhile is ERROR STATE; unknown names REFUSED; no agent descriptor in a hook;
 *   - KMSG MARK, a line written to /dev/kmsg, KMSG READ has it (root only; else the reply's
 *     error says why).
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

#define MiB (1024 * 1024)
#define S_NSTAMPS 5 /* events of hook_stamp in the point: 300 ms, 370 ms, ... */

static char s_dir[PATH_MAX];
static char s_log[PATH_MAX + 16];
static char s_endpoint[64];
static pid_t s_pid = -1;
static bool s_passed;
static const char *s_run = "hooks-1"; /* the session's run id */

struct peer {
	zsock_t *sock;
	void *zs;
	uint64_t seq, id;
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

static void s_write(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	T_ASSERT(fd >= 0);
	T_ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
}

/* The agent's config: the test hooks. */
static void s_config(const char *stamp, char *cfg, size_t size)
{
	char text[4096], path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/counter.sh", s_dir);
	s_write(path, "#!/bin/sh\necho '{\"count\": 7, \"phase\": \"'$LOCKSTEP_PHASE'\"}'\n", 0755);
	snprintf(text, sizeof(text),
		 "hooks:\n"
		 "  stamp_a: [%s, %s/stamps]\n"
		 "  stamp_b: [%s, %s/stamps, 3]\n"
		 "  linger: [/bin/sh, -c, \"sleep 0.8; echo lingered\"]\n"
		 "  slow: [/bin/sleep, 30]\n"
		 "  fds: [/bin/ls, /proc/self/fd]\n"
		 "collectors:\n"
		 "  counter: [%s/counter.sh]\n"
		 "hook_timeout: 2s\n",
		 stamp, s_dir, stamp, s_dir, s_dir);
	snprintf(cfg, size, "%s/agent.yaml", s_dir);
	s_write(cfg, text, 0644);
}

static pid_t s_spawn(const char *agent, const char *cfg)
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
		execl(agent, agent, "--foreground", "--listen", s_endpoint, "--config", cfg,
		      "--allow-write", glob, "--name", "hooked", "--debug", "proto,time",
		      (char *)NULL);
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

/* Send m (a command gets a new id unless it has one). Returns its id. */
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

static lst_msg *s_expect_error(struct peer *p, int code, uint64_t re)
{
	lst_msg *m = s_expect(p, LST_MSG_ERROR, re, 3000);

	if (m->u.error.code != code)
		T_FAIL("expected error %d, got %d '%s'", code, m->u.error.code, m->u.error.text);
	return m;
}

static void s_ack(struct peer *p, uint64_t upto)
{
	lst_msg *m = lst_msg_new(LST_MSG_ACK);

	m->u.ack.upto = upto;
	s_send(p, m, false);
	lst_msg_destroy(&m);
}

static uint64_t s_hook(struct peer *p, uint32_t kind, const char *name, uint64_t id)
{
	lst_msg *m = lst_msg_new(LST_MSG_HOOK);

	m->u.hook.kind = kind;
	m->u.hook.phase = 4;
	lst_copy(m->u.hook.name, sizeof(m->u.hook.name), name);
	m->id = id;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	return id;
}

static uint64_t s_prepare(struct peer *p, uint32_t point, const char *path)
{
	lst_msg *m = lst_msg_new(LST_MSG_PREPARE);
	struct lst_jobspec *j = &m->u.prepare.jobs[0];
	uint64_t id;

	lst_copy(m->u.prepare.run, sizeof(m->u.prepare.run), s_run);
	lst_copy(m->u.prepare.name, sizeof(m->u.prepare.name), "phase1");
	m->u.prepare.phase = 1;
	m->u.prepare.point = point;
	m->u.prepare.njobs = 1;
	lst_copy(j->target, sizeof(j->target), "disk0");
	lst_copy(j->path, sizeof(j->path), path);
	j->action = LST_ACTION_IO;
	lst_workload_init(&j->w);
	j->w.rw = LST_RW_RANDWRITE;
	j->w.bs = 4096;
	j->w.iodepth = 4;
	j->w.runtime = LST_NS_PER_S;
	j->w.interval = 100 * LST_NS_PER_MS;
	j->w.direct = 1;
	id = s_send(p, m, true);
	lst_msg_destroy(&m);
	m = s_expect(p, LST_MSG_PREPARED, id, 5000);
	lst_msg_destroy(&m);
	return id;
}

/* ---------------------------------------------------------------- tests */

/* HELLO for run (with or without hooks.v1); returns the WELCOME. */
static lst_msg *s_hello(struct peer *a, const char *run, bool hooks)
{
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);
	uint64_t id;

	m->u.hello.proto = LST_PROTO_VERSION;
	m->u.hello.ncaps = hooks;
	lst_copy(m->u.hello.caps[0], sizeof(m->u.hello.caps[0]), LST_CAP_HOOKS);
	lst_copy(m->u.hello.run, sizeof(m->u.hello.run), run);
	lst_copy(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "test");
	m->u.hello.lease_ms = 30000;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	return s_expect(a, LST_MSG_WELCOME, id, 3000);
}

static void test_welcome(struct peer *a)
{
	lst_msg *m;
	bool cap = false;

	m = s_hello(a, "hooks-1", true);
	for (uint32_t i = 0; i < m->u.welcome.ncaps; i++)
		cap |= !strcmp(m->u.welcome.caps[i], LST_CAP_HOOKS);
	T_ASSERT(cap);
	T_EQ_INT(m->u.welcome.nhooks, 5);
	T_EQ_STR(m->u.welcome.hooks[0], "stamp_a");
	T_EQ_STR(m->u.welcome.hooks[4], "fds");
	T_EQ_INT(m->u.welcome.ncollectors, 1);
	T_EQ_STR(m->u.welcome.collectors[0], "counter");
	lst_msg_destroy(&m);
	printf("ok: WELCOME lists hooks.v1, the 5 hooks and the collector\n");
}

static int s_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The instants hook_stamp wrote, in order. */
static size_t s_stamps(int64_t *out, size_t max)
{
	char path[PATH_MAX + 16], *text = NULL, *line, *save = NULL;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/stamps", s_dir);
	T_EQ_INT(lst_read_file(path, MiB, &text, NULL), 0);
	for (line = strtok_r(text, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save))
		out[n++] = strtoll(line, NULL, 10);
	free(text);
	qsort(out, n, sizeof(*out), s_cmp_i64);
	return n;
}

static void s_event_req(lst_msg *m, uint32_t id, const char *hook, int64_t after)
{
	struct lst_event_req *e = &m->u.start.events[m->u.start.nevents++];

	e->id = id;
	lst_copy(e->hook, sizeof(e->hook), hook);
	e->after = after;
}

static void test_events(struct peer *a)
{
	char path[PATH_MAX + 16];
	lst_msg *m, *ev[8] = { 0 }, *done = NULL;
	uint64_t id, max_seq = 0, last_sample_seq = 0, samples = 0;
	int64_t t0, stamps[S_NSTAMPS + 1], late[S_NSTAMPS], agent_late[S_NSTAMPS];
	size_t n;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	{
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		T_ASSERT(fd >= 0 && !ftruncate(fd, 64 * MiB));
		close(fd);
	}
	s_prepare(a, 0, path);
	/* The agent runs on this machine: its monotonic clock is ours. */
	t0 = lst_mono_ns() + 200 * LST_NS_PER_MS;
	m = lst_msg_new(LST_MSG_START);
	m->u.start.phase = 1;
	m->u.start.point = 0;
	m->u.start.t0 = t0;
	for (uint32_t i = 0; i < S_NSTAMPS; i++)
		s_event_req(m, i + 1, i == 3 ? "stamp_b" : "stamp_a",
			    (300 + 70 * (int64_t)i) * LST_NS_PER_MS);
	s_event_req(m, 6, "linger", 700 * LST_NS_PER_MS); /* ends after the 1 s point */
	s_event_req(m, 7, "stamp_a", 5 * LST_NS_PER_S);	  /* the point never gets there */
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_STARTED, id, 3000);
	lst_msg_destroy(&m);
	while (!done) {
		m = s_recv(a, 10000);
		if (!m)
			T_FAIL("no DONE within 10 s (%llu samples)", (unsigned long long)samples);
		max_seq = LST_MAX(max_seq, m->seq);
		if (m->type == LST_MSG_SAMPLE) {
			samples++;
			last_sample_seq = m->seq;
			lst_msg_destroy(&m);
		} else if (m->type == LST_MSG_EVENT) {
			uint32_t eid = m->u.event.id;

			T_ASSERT(eid >= 1 && eid <= 7 && !ev[eid]);
			T_EQ_INT(m->u.event.phase, 1);
			T_EQ_INT(m->u.event.point, 0);
			ev[eid] = m;
		} else if (m->type == LST_MSG_DONE) {
			done = m;
		} else {
			T_FAIL("unexpected %s during the point", lst_msg_type_name(m->type));
		}
	}
	for (int i = 1; i <= 7; i++)
		if (!ev[i])
			T_FAIL("no EVENT %d before DONE", i);
	T_EQ_INT(done->u.done.events, 7);
	T_EQ_INT(done->u.done.reason, LST_DONE_COMPLETE);
	T_ASSERT(samples >= 10);
	T_ASSERT(ev[6]->seq > last_sample_seq); /* linger outlived the jobs; DONE waited */

	for (int i = 1; i <= S_NSTAMPS; i++) {
		const struct lst_msg_event *e = &ev[i]->u.event;

		T_EQ_STR(e->hook, i == 4 ? "stamp_b" : "stamp_a");
		T_EQ_INT(e->at, t0 + (300 + 70 * (int64_t)(i - 1)) * LST_NS_PER_MS);
		T_EQ_INT(e->r.status, i == 4 ? 3 : 0);
		T_EQ_STR(e->r.text, i == 4 ? "exit status 3" : "");
		T_EQ_STR(e->r.output, i == 4 ? "stamp stamp_b\n" : "stamp stamp_a\n");
		T_ASSERT(e->r.end >= e->r.start);
	}
	T_EQ_INT(ev[6]->u.event.r.status, 0);
	T_EQ_STR(ev[6]->u.event.r.output, "lingered\n");
	T_EQ_INT(ev[7]->u.event.r.status, -1);
	T_EQ_INT(ev[7]->u.event.r.start, 0);
	T_CONTAINS(ev[7]->u.event.r.text, "not run: the point ended at t0+");

	/* The hooks' own first instants, in the order they ran (one per stamp event). */
	n = s_stamps(stamps, S_NSTAMPS + 1);
	T_EQ_INT(n, S_NSTAMPS);
	for (int i = 0; i < S_NSTAMPS; i++) {
		int64_t at = ev[i + 1]->u.event.at;

		late[i] = stamps[i] - at;
		agent_late[i] = ev[i + 1]->u.event.r.start - at;
		printf("event %d: the agent started the hook %+.3f ms from its instant, the hook "
		       "ran its first line at %+.3f ms\n",
		       i + 1, (double)agent_late[i] / 1e6, (double)late[i] / 1e6);
		T_ASSERT(agent_late[i] >= 0 && late[i] >= 0);
		/* a loaded CI machine keeps these bounds */
		if (late[i] > 50 * LST_NS_PER_MS || agent_late[i] > 20 * LST_NS_PER_MS)
			T_FAIL("event %d started late", i + 1);
	}
	/* ... and the aim, 2 ms, as the median (run_clock's rule for the jobs' starts) */
	qsort(agent_late, S_NSTAMPS, sizeof(agent_late[0]), s_cmp_i64);
	if (agent_late[S_NSTAMPS / 2] > 2 * LST_NS_PER_MS)
		T_FAIL("the hooks' median start was %.3f ms late (want under 2 ms)",
		       (double)agent_late[S_NSTAMPS / 2] / 1e6);
	s_ack(a, max_seq);
	for (int i = 1; i <= 7; i++)
		lst_msg_destroy(&ev[i]);
	lst_msg_destroy(&done);
	printf("ok: START's events: 7 EVENTs before DONE (events 7), on their instants, one waited "
	       "for, one not run\n");

	/* A START naming a hook the config lacks: refused before anything runs. */
	s_prepare(a, 1, path);
	m = lst_msg_new(LST_MSG_START);
	m->u.start.phase = 1;
	m->u.start.point = 1;
	m->u.start.t0 = lst_mono_ns() + 100 * LST_NS_PER_MS;
	s_event_req(m, 1, "stamp_a", 0);
	s_event_req(m, 2, "port_down", LST_NS_PER_S);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_REFUSED, id);
	T_CONTAINS(m->u.error.text, "'port_down'");
	T_CONTAINS(m->u.error.text, "stamp_a, stamp_b, linger, slow, fds");
	lst_msg_destroy(&m);
	T_ASSERT(!(m = s_recv(a, 500))); /* nothing started */
	n = s_stamps(stamps, S_NSTAMPS + 1);
	T_EQ_INT(n, S_NSTAMPS);
	printf("ok: START naming an undefined hook: ERROR REFUSED, nothing runs\n");
}

static void test_hook_cmd(struct peer *a)
{
	lst_msg *m;
	uint64_t id, id2;
	int64_t t;

	id = s_hook(a, LST_HOOK_COLLECTOR, "counter", 0);
	m = s_expect(a, LST_MSG_HOOK_DONE, id, 5000);
	T_EQ_INT(m->u.hook_done.kind, LST_HOOK_COLLECTOR);
	T_EQ_STR(m->u.hook_done.name, "counter");
	T_EQ_INT(m->u.hook_done.r.status, 0);
	T_EQ_STR(m->u.hook_done.r.output, "{\"count\": 7, \"phase\": \"4\"}\n");
	lst_msg_destroy(&m);
	printf("ok: HOOK of a collector: HOOK_DONE with its JSON\n");

	id = s_hook(a, LST_HOOK_HOOK, "fds", 0);
	m = s_expect(a, LST_MSG_HOOK_DONE, id, 5000);
	T_EQ_STR(m->u.hook_done.r.output, "0\n1\n2\n3\n"); /* ls's own, none of the agent's */
	lst_msg_destroy(&m);
	printf("ok: a hook holds none of the agent's descriptors\n");

	id = s_hook(a, LST_HOOK_HOOK, "nope", 0);
	m = s_expect_error(a, LST_PERR_REFUSED, id);
	T_CONTAINS(m->u.error.text, "'nope'");
	lst_msg_destroy(&m);
	id = s_hook(a, LST_HOOK_COLLECTOR, "stamp_a", 0); /* a hook, not a collector */
	m = s_expect_error(a, LST_PERR_REFUSED, id);
	T_CONTAINS(m->u.error.text, "collectors: counter");
	lst_msg_destroy(&m);
	printf("ok: HOOK of an undefined name: ERROR REFUSED\n");

	t = lst_mono_ns();
	id = s_hook(a, LST_HOOK_HOOK, "slow", 0);
	s_hook(a, LST_HOOK_HOOK, "slow", id); /* a retry: not run twice */
	id2 = s_hook(a, LST_HOOK_HOOK, "fds", 0);
	m = s_expect_error(a, LST_PERR_STATE, id2);
	T_CONTAINS(m->u.error.text, "'slow' is still running");
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_HOOK_DONE, id, 6000);
	t = lst_mono_ns() - t;
	T_EQ_INT(m->u.hook_done.r.status, 128 + SIGTERM);
	T_EQ_STR(m->u.hook_done.r.text, "timed out after 2 s: killed (SIGTERM)");
	lst_msg_destroy(&m);
	T_ASSERT(t >= 2 * LST_NS_PER_S && t < 3 * LST_NS_PER_S);
	T_ASSERT(!(m = s_recv(a, 500))); /* one HOOK_DONE only */
	/* the retry, now: the cached reply */
	s_hook(a, LST_HOOK_HOOK, "slow", id);
	m = s_expect(a, LST_MSG_HOOK_DONE, id, 3000);
	T_EQ_INT(m->u.hook_done.r.status, 128 + SIGTERM);
	lst_msg_destroy(&m);
	printf("ok: HOOK past hook_timeout: killed, said so; a retry is not run again; a second "
	       "HOOK meanwhile is ERROR STATE\n");
}

/* One START of point (phase 1) with events; collects until DONE. Returns DONE, EVENTs in ev. */
static lst_msg *s_run_point(struct peer *a, uint32_t point, const char *hook, int64_t after,
			    bool stop, lst_msg **ev, unsigned *nev)
{
	char path[PATH_MAX + 16];
	lst_msg *m, *done = NULL;
	uint64_t id, max_seq = 0;

	snprintf(path, sizeof(path), "%s/disk", s_dir);
	s_prepare(a, point, path);
	m = lst_msg_new(LST_MSG_START);
	m->u.start.phase = 1;
	m->u.start.point = point;
	m->u.start.t0 = lst_mono_ns() + 100 * LST_NS_PER_MS;
	s_event_req(m, 9, hook, after);
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_STARTED, id, 3000);
	lst_msg_destroy(&m);
	if (stop) {
		lst_sleep_ns(300 * LST_NS_PER_MS);
		m = lst_msg_new(LST_MSG_STOP);
		m->u.stop.phase = 1;
		m->u.stop.point = point;
		s_send(a, m, true);
		lst_msg_destroy(&m);
	}
	*nev = 0;
	while (!done) {
		m = s_recv(a, 10000);
		if (!m)
			T_FAIL("no DONE within 10 s");
		max_seq = LST_MAX(max_seq, m->seq);
		if (m->type == LST_MSG_DONE)
			done = m;
		else if (m->type == LST_MSG_EVENT && *nev < 4)
			ev[(*nev)++] = m;
		else
			lst_msg_destroy(&m);
	}
	s_ack(a, max_seq);
	return done;
}

static void test_stop_and_caps(struct peer *a)
{
	lst_msg *done, *ev[4], *m;
	unsigned nev;

	/* STOP before the event's instant: its EVENT says it was not run, and why, before DONE. */
	done = s_run_point(a, 2, "stamp_a", 3 * LST_NS_PER_S, true, ev, &nev);
	T_EQ_INT(done->u.done.reason, LST_DONE_STOPPED);
	T_EQ_INT(done->u.done.events, 1);
	T_EQ_INT(nev, 1);
	T_EQ_INT(ev[0]->u.event.id, 9);
	T_EQ_INT(ev[0]->u.event.r.status, -1);
	T_CONTAINS(ev[0]->u.event.r.text, "not run: the point ended at t0+0.");
	T_CONTAINS(ev[0]->u.event.r.text, "STOP from the coordinator");
	printf("STOPped event: '%s'\n", ev[0]->u.event.r.text);
	lst_msg_destroy(&ev[0]);
	lst_msg_destroy(&done);
	printf("ok: STOP before an event's instant: EVENT not run, then DONE stopped (events 1)\n");

	/* A session whose HELLO lacks hooks.v1: START's events are ignored. */
	m = lst_msg_new(LST_MSG_BYE);
	s_send(a, m, false);
	lst_msg_destroy(&m);
	s_run = "hooks-2";
	m = s_hello(a, s_run, false);
	lst_msg_destroy(&m);
	done = s_run_point(a, 3, "stamp_a", 200 * LST_NS_PER_MS, false, ev, &nev);
	T_EQ_INT(nev, 0);
	T_EQ_INT(done->u.done.events, 0);
	T_EQ_INT(done->u.done.reason, LST_DONE_COMPLETE);
	lst_msg_destroy(&done);
	printf("ok: without hooks.v1 in HELLO, START's events are ignored\n");
}

static void test_kmsg(struct peer *a)
{
	lst_msg *m = lst_msg_new(LST_MSG_KMSG);
	char line[64];
	uint64_t id;
	int fd;

	m->u.kmsg.op = LST_KMSG_MARK;
	id = s_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect(a, LST_MSG_KMSG_REPLY, id, 3000);
	T_EQ_INT(m->u.kmsg_reply.op, LST_KMSG_MARK);
	if (m->u.kmsg_reply.error[0]) {
		T_ASSERT(geteuid() != 0);
		printf("skip: KMSG as non-root: '%s'\n", m->u.kmsg_reply.error);
		lst_msg_destroy(&m);
		return;
	}
	lst_msg_destroy(&m);
	snprintf(line, sizeof(line), "lockstep-test-%d-%lld\n", (int)getpid(),
		 (long long)lst_mono_ns());
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("skip: KMSG READ: cannot write /dev/kmsg: %s\n", strerror(errno));
		return;
	}
	T_ASSERT(write(fd, line, strlen(line)) == (ssize_t)strlen(line));
	close(fd);
	line[strlen(line) - 1] = '\0';
	for (int pass = 0; pass < 2; pass++) { /* the mark stays: twice the same line */
		m = lst_msg_new(LST_MSG_KMSG);
		m->u.kmsg.op = LST_KMSG_READ;
		id = s_send(a, m, true);
		lst_msg_destroy(&m);
		m = s_expect(a, LST_MSG_KMSG_REPLY, id, 3000);
		T_EQ_STR(m->u.kmsg_reply.error, "");
		T_ASSERT(m->u.kmsg_reply.text);
		T_CONTAINS(m->u.kmsg_reply.text, line);
		T_ASSERT(m->u.kmsg_reply.text[0] == '[');
		T_ASSERT(strstr(m->u.kmsg_reply.text, "] lockstep-test-"));
		lst_msg_destroy(&m);
	}
	printf("ok: KMSG MARK, a line written to /dev/kmsg, READ has it (twice)\n");
}

int main(void)
{
	const char *bin = getenv("LST_BIN"), *stamp = getenv("LST_HOOK_STAMP");
	char agent[PATH_MAX], cfg[PATH_MAX + 16];
	struct peer *a;

	if (!bin || !stamp) {
		fprintf(stderr, "skip: set LST_BIN and LST_HOOK_STAMP\n");
		return LST_TEST_SKIP;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(agent, sizeof(agent), "%s/lockstep-agent", bin);
	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-hooks.XXXXXX");
	T_ASSERT(mkdtemp(s_dir));
	snprintf(s_log, sizeof(s_log), "%s/agent.log", s_dir);
	atexit(s_cleanup);
	snprintf(s_endpoint, sizeof(s_endpoint), "tcp://127.0.0.1:%d", s_free_port());
	s_config(stamp, cfg, sizeof(cfg));
	s_pid = s_spawn(agent, cfg);
	a = s_peer_new();
	test_welcome(a);
	test_events(a);
	test_hook_cmd(a);
	test_kmsg(a);
	test_stop_and_caps(a);
	zsock_destroy(&a->sock);
	free(a);
	{
		/* A clean exit (a sanitizer build reports leaks into the log). */
		int status = 0;

		T_ASSERT(!kill(s_pid, SIGTERM));
		T_EQ_INT(waitpid(s_pid, &status, 0), s_pid);
		s_pid = -1;
		T_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	{
		char *log = NULL;

		T_EQ_INT(lst_read_file(s_log, 64 * MiB, &log, NULL), 0);
		T_CONTAINS(log, "hook slow: status 143");
		T_CONTAINS(log, "collector counter: exit 0");
		if (strstr(log, "runtime error:") || strstr(log, "Sanitizer") ||
		    strstr(log, "LeakSanitizer") || strstr(log, "assertion failed"))
			T_FAIL("the agent's log reports a bug");
		free(log);
	}
	s_passed = true;
	return 0;
}
