/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hooks on a real agent: a lockstep-agent process with a config of test hooks
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

#define MiB (1024 * 1024)
#define S_NSTAMPS 5 /* events of hook_stamp in the point: 300 ms, 370 ms, ... */

static const char *s_run = "hooks-1"; /* the session's run id */

/* ---------------------------------------------------------------- set-up */

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

	snprintf(path, sizeof(path), "%s/counter.sh", lst_ac.dir);
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
		 stamp, lst_ac.dir, stamp, lst_ac.dir, lst_ac.dir);
	snprintf(cfg, size, "%s/agent.yaml", lst_ac.dir);
	s_write(cfg, text, 0644);
}

/* ---------------------------------------------------------------- the wire */

static lst_msg *s_expect_error(struct lst_ac_peer *p, int code, uint64_t re)
{
	return lst_ac_expect_error(p, code, re, 3000);
}

static uint64_t s_hook(struct lst_ac_peer *p, uint32_t kind, const char *name, uint64_t id)
{
	lst_msg *m = lst_msg_new(LST_MSG_HOOK);

	m->u.hook.kind = kind;
	m->u.hook.phase = 4;
	lst_copy(m->u.hook.name, sizeof(m->u.hook.name), name);
	m->id = id;
	id = lst_ac_send(p, m, true);
	lst_msg_destroy(&m);
	return id;
}

static uint64_t s_prepare(struct lst_ac_peer *p, uint32_t point, const char *path)
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
	id = lst_ac_send(p, m, true);
	lst_msg_destroy(&m);
	m = lst_ac_expect(p, LST_MSG_PREPARED, id, 5000);
	lst_msg_destroy(&m);
	return id;
}

/* ---------------------------------------------------------------- tests */

/* HELLO for run (with or without hooks.v1); returns the WELCOME. */
static lst_msg *s_hello(struct lst_ac_peer *a, const char *run, bool hooks)
{
	return lst_ac_hello(a, run, hooks ? LST_CAP_HOOKS : NULL);
}

static void test_welcome(struct lst_ac_peer *a)
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

	snprintf(path, sizeof(path), "%s/stamps", lst_ac.dir);
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

static void test_events(struct lst_ac_peer *a)
{
	char path[PATH_MAX + 16];
	lst_msg *m, *ev[8] = { 0 }, *done = NULL;
	uint64_t id, max_seq = 0, last_sample_seq = 0, samples = 0;
	int64_t t0, stamps[S_NSTAMPS + 1], late[S_NSTAMPS], agent_late[S_NSTAMPS];
	size_t n;

	snprintf(path, sizeof(path), "%s/disk", lst_ac.dir);
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
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	m = lst_ac_expect(a, LST_MSG_STARTED, id, 3000);
	lst_msg_destroy(&m);
	while (!done) {
		m = lst_ac_recv(a, 10000);
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
		/* a loaded CI machine keeps these bounds: one start came 20.3 ms late in a clean
		 * make check, with the agent's samples of that moment just as late (the VM held
		 * the agent's main thread), so one late event is allowed up to 50 ms; the median
		 * below holds the aim */
		if (late[i] > 50 * LST_NS_PER_MS || agent_late[i] > 50 * LST_NS_PER_MS)
			T_FAIL("event %d started late", i + 1);
	}
	/* ... and the aim, 2 ms, as the median (run_clock's rule for the jobs' starts) */
	qsort(agent_late, S_NSTAMPS, sizeof(agent_late[0]), s_cmp_i64);
	if (agent_late[S_NSTAMPS / 2] > 2 * LST_NS_PER_MS)
		T_FAIL("the hooks' median start was %.3f ms late (want under 2 ms)",
		       (double)agent_late[S_NSTAMPS / 2] / 1e6);
	lst_ac_ack(a, max_seq);
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
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	m = s_expect_error(a, LST_PERR_REFUSED, id);
	T_CONTAINS(m->u.error.text, "'port_down'");
	T_CONTAINS(m->u.error.text, "stamp_a, stamp_b, linger, slow, fds");
	lst_msg_destroy(&m);
	T_ASSERT(!(m = lst_ac_recv(a, 500))); /* nothing started */
	n = s_stamps(stamps, S_NSTAMPS + 1);
	T_EQ_INT(n, S_NSTAMPS);
	printf("ok: START naming an undefined hook: ERROR REFUSED, nothing runs\n");
}

static void test_hook_cmd(struct lst_ac_peer *a)
{
	lst_msg *m;
	uint64_t id, id2;
	int64_t t;

	id = s_hook(a, LST_HOOK_COLLECTOR, "counter", 0);
	m = lst_ac_expect(a, LST_MSG_HOOK_DONE, id, 5000);
	T_EQ_INT(m->u.hook_done.kind, LST_HOOK_COLLECTOR);
	T_EQ_STR(m->u.hook_done.name, "counter");
	T_EQ_INT(m->u.hook_done.r.status, 0);
	T_EQ_STR(m->u.hook_done.r.output, "{\"count\": 7, \"phase\": \"4\"}\n");
	lst_msg_destroy(&m);
	printf("ok: HOOK of a collector: HOOK_DONE with its JSON\n");

	id = s_hook(a, LST_HOOK_HOOK, "fds", 0);
	m = lst_ac_expect(a, LST_MSG_HOOK_DONE, id, 5000);
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
	m = lst_ac_expect(a, LST_MSG_HOOK_DONE, id, 6000);
	t = lst_mono_ns() - t;
	T_EQ_INT(m->u.hook_done.r.status, 128 + SIGTERM);
	T_EQ_STR(m->u.hook_done.r.text, "timed out after 2 s: killed (SIGTERM)");
	lst_msg_destroy(&m);
	T_ASSERT(t >= 2 * LST_NS_PER_S && t < 3 * LST_NS_PER_S);
	T_ASSERT(!(m = lst_ac_recv(a, 500))); /* one HOOK_DONE only */
	/* the retry, now: the cached reply */
	s_hook(a, LST_HOOK_HOOK, "slow", id);
	m = lst_ac_expect(a, LST_MSG_HOOK_DONE, id, 3000);
	T_EQ_INT(m->u.hook_done.r.status, 128 + SIGTERM);
	lst_msg_destroy(&m);
	printf("ok: HOOK past hook_timeout: killed, said so; a retry is not run again; a second "
	       "HOOK meanwhile is ERROR STATE\n");
}

/* One START of point (phase 1) with events; collects until DONE. Returns DONE, EVENTs in ev. */
static lst_msg *s_run_point(struct lst_ac_peer *a, uint32_t point, const char *hook, int64_t after,
			    bool stop, lst_msg **ev, unsigned *nev)
{
	char path[PATH_MAX + 16];
	lst_msg *m, *done = NULL;
	uint64_t id, max_seq = 0;

	snprintf(path, sizeof(path), "%s/disk", lst_ac.dir);
	s_prepare(a, point, path);
	m = lst_msg_new(LST_MSG_START);
	m->u.start.phase = 1;
	m->u.start.point = point;
	m->u.start.t0 = lst_mono_ns() + 100 * LST_NS_PER_MS;
	s_event_req(m, 9, hook, after);
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	m = lst_ac_expect(a, LST_MSG_STARTED, id, 3000);
	lst_msg_destroy(&m);
	if (stop) {
		lst_sleep_ns(300 * LST_NS_PER_MS);
		m = lst_msg_new(LST_MSG_STOP);
		m->u.stop.phase = 1;
		m->u.stop.point = point;
		lst_ac_send(a, m, true);
		lst_msg_destroy(&m);
	}
	*nev = 0;
	while (!done) {
		m = lst_ac_recv(a, 10000);
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
	lst_ac_ack(a, max_seq);
	return done;
}

static void test_stop_and_caps(struct lst_ac_peer *a)
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
	lst_ac_send(a, m, false);
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

static void test_kmsg(struct lst_ac_peer *a)
{
	lst_msg *m = lst_msg_new(LST_MSG_KMSG);
	char line[64];
	uint64_t id;
	int fd;

	m->u.kmsg.op = LST_KMSG_MARK;
	id = lst_ac_send(a, m, true);
	lst_msg_destroy(&m);
	m = lst_ac_expect(a, LST_MSG_KMSG_REPLY, id, 3000);
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
		id = lst_ac_send(a, m, true);
		lst_msg_destroy(&m);
		m = lst_ac_expect(a, LST_MSG_KMSG_REPLY, id, 3000);
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
	char agent[PATH_MAX], cfg[PATH_MAX + 16], glob[PATH_MAX + 4], *log;
	struct lst_ac_peer *a;

	if (!bin || !stamp) {
		fprintf(stderr, "skip: set LST_BIN and LST_HOOK_STAMP\n");
		return LST_TEST_SKIP;
	}
	signal(SIGPIPE, SIG_IGN);
	snprintf(agent, sizeof(agent), "%s/lockstep-agent", bin);
	lst_ac_setup("hooks");
	s_config(stamp, cfg, sizeof(cfg));
	snprintf(glob, sizeof(glob), "%s/*", lst_ac.dir);
	lst_ac_spawn(agent, (const char *const[]){ "--config", cfg, "--allow-write", glob, "--name",
						   "hooked", "--debug", "proto,time", NULL });
	a = lst_ac_peer_new();
	test_welcome(a);
	test_events(a);
	test_hook_cmd(a);
	test_kmsg(a);
	test_stop_and_caps(a);
	lst_ac_peer_destroy(&a);
	/* A clean exit (a sanitizer build reports leaks into the log). */
	log = lst_ac_stop();
	T_CONTAINS(log, "hook slow: status 143");
	T_CONTAINS(log, "collector counter: exit 0");
	free(log);
	lst_ac.passed = true;
	return 0;
}
