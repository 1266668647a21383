/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon's sessions (agent/daemon/lst_daemon_session.c), through its private
 * interface on the daemon rig (two coordinators on a real inproc ROUTER): HELLO opens a session
 * with its lease clamped to [1 s, lease_max]; another coordinator is BUSY while the lease holds
 * and takes over once it has run out; the session's coordinator reconnecting from a new
 * connection within the lease keeps it only with the same run id and CURVE key; a silent
 * coordinator's lease ends at the tick and stops the point, leaving the session dormant, which a
 * HELLO with the same run id and key resumes (its spool sent again) and any other key replaces;
 * another protocol version is refused.
 */
#include <czmq.h>
#include <string.h>

#include "lst_daemon_rig.h"
#include "lst_test.h"
#include "lst_time.h"

#define S_NOW (1000 * LST_NS_PER_S) /* a monotonic instant the tests start from */

/* Coordinator i says HELLO for run at now, with CURVE user key ("" in plain text). */
static void s_hello(struct lst_rig *r, int i, const char *run, uint32_t lease_ms, const char *key,
		    int64_t now)
{
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);
	static uint64_t id = 100;

	m->id = ++id;
	m->u.hello.proto = LST_PROTO_VERSION;
	m->u.hello.lease_ms = lease_ms;
	snprintf(m->u.hello.run, sizeof(m->u.hello.run), "%s", run);
	snprintf(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "coord-%d", i);
	snprintf(r->d.rx_key, sizeof(r->d.rx_key), "%s", key);
	lst_daemon__on_hello(&r->d, &r->rid[i], m, now);
	lst_msg_destroy(&m);
}

/* Coordinator i got WELCOME, resumed or not. */
static void s_welcomed(struct lst_rig *r, int i, bool resumed)
{
	lst_msg *m = lst_rig_got(r, i, LST_MSG_WELCOME);

	T_EQ_INT(m->u.welcome.proto, LST_PROTO_VERSION);
	T_EQ_STR(m->u.welcome.name, "agent-t");
	T_EQ_INT(m->u.welcome.resumed, resumed);
	lst_msg_destroy(&m);
}

/* Coordinator i says HELLO (as s_hello) and gets WELCOME, resumed or not. */
static void s_welcome(struct lst_rig *r, int i, const char *run, uint32_t lease_ms, const char *key,
		      int64_t now, bool resumed)
{
	s_hello(r, i, run, lease_ms, key, now);
	s_welcomed(r, i, resumed);
}

static void test_open_busy_takeover(void)
{
	struct lst_rig r;
	struct lst_daemon__session *s = &r.d.sess;
	uint64_t gen;

	lst_rig_init(&r);
	s_welcome(&r, 0, "run-a", 5000, "", S_NOW, false);
	T_ASSERT(s->active && s->known);
	T_EQ_STR(s->run, "run-a");
	T_EQ_STR(s->coordinator, "coord-0");
	T_EQ_INT(s->lease, 5 * LST_NS_PER_S);
	T_ASSERT(lst_daemon__is_peer(&r.d, &r.rid[0]));
	gen = s->gen;

	/* Another coordinator while the lease holds: BUSY, naming the run that holds the agent. */
	s_hello(&r, 1, "run-b", 5000, "", S_NOW + 4 * LST_NS_PER_S);
	lst_rig_got_error(&r, 1, LST_PERR_BUSY, "busy: run run-a from coordinator coord-0");
	T_EQ_STR(s->run, "run-a");
	T_ASSERT(lst_daemon__is_peer(&r.d, &r.rid[0]));

	/* ... and once it ran out (no frame from coord-0 for more than 5 s): a fresh session. */
	s_welcome(&r, 1, "run-b", 5000, "", S_NOW + 5 * LST_NS_PER_S + 1, false);
	T_EQ_STR(s->run, "run-b");
	T_ASSERT(lst_daemon__is_peer(&r.d, &r.rid[1]));
	T_ASSERT(s->gen > gen);
	lst_rig_got_nothing(&r, 0);
	lst_rig_exit(&r);
}

static void test_lease_clamped(void)
{
	struct lst_rig r;

	lst_rig_init(&r);
	s_welcome(&r, 0, "run-a", 10, "", S_NOW, false);
	T_EQ_INT(r.d.sess.lease, LST_NS_PER_S);
	s_welcome(&r, 0, "run-a", 3600 * 1000, "", S_NOW, true);
	T_EQ_INT(r.d.sess.lease, r.d.lease_max);
	lst_rig_exit(&r);
}

/* The session's coordinator on a new connection within the lease keeps the session, and the
 * point's frames follow it; with another key it is BUSY like anyone else. */
static void test_reconnect(void)
{
	struct lst_rig r;
	struct lst_daemon__point pt = { .state = LST_DAEMON__STARTED, .started_sent = true };
	struct lst_daemon__session *s = &r.d.sess;

	lst_rig_init(&r);
	s_welcome(&r, 0, "run-a", 5000, "keyA00000001", S_NOW, false);
	pt.gen = s->gen;
	pt.peer = r.rid[0];
	r.d.pt = &pt;

	s_hello(&r, 1, "run-a", 5000, "keyB00000002", S_NOW + LST_NS_PER_S);
	lst_rig_got_error(&r, 1, LST_PERR_BUSY, "key 'keyA00000001'");

	s_welcome(&r, 1, "run-a", 5000, "keyA00000001", S_NOW + LST_NS_PER_S, true);
	T_ASSERT(lst_daemon__is_peer(&r.d, &r.rid[1]));
	T_ASSERT(lst_daemon__rid_eq(&pt.peer, &r.rid[1]));
	T_ASSERT(!pt.stop_requested);
	r.d.pt = NULL;
	lst_rig_exit(&r);
}

/* Coordinator 0 emits n DONE frames of its session's point (spooled), and reads them. */
static void s_spool(struct lst_rig *r, int n)
{
	struct lst_daemon__point pt = { .gen = r->d.sess.gen, .peer = r->rid[0] };

	r->d.pt = &pt;
	for (int k = 0; k < n; k++) {
		lst_msg *m = lst_daemon__out(&r->d, LST_MSG_DONE);

		m->u.done.last_interval = -1;
		m->u.done.samples = (uint64_t)k;
		T_EQ_INT(lst_daemon__emit(&r->d, m), 0);
		lst_msg_destroy((m = lst_rig_got(r, 0, LST_MSG_DONE), &m));
	}
	r->d.pt = NULL;
}

/* A silent coordinator: the tick ends its lease and stops the point; the session stays known
 * (dormant), and the same run and key resume it from another connection, spool included. */
static void test_lease_expiry_and_resume(void)
{
	struct lst_rig r;
	struct lst_daemon__point pt = { .state = LST_DAEMON__STARTED, .started_sent = true };
	struct lst_daemon__session *s = &r.d.sess;
	uint64_t gen;
	lst_msg *m;

	lst_rig_init(&r);
	s_welcome(&r, 0, "run-a", 2000, "keyA00000001", lst_mono_ns(), false);
	s_spool(&r, 2);
	gen = s->gen;
	pt.gen = gen;
	r.d.pt = &pt;

	T_EQ_INT(lst_daemon__on_tick(NULL, 0, &r.d), 0);
	T_ASSERT(s->active); /* still within the lease */
	s->last_rx = lst_mono_ns() - 3 * LST_NS_PER_S;
	T_EQ_INT(lst_daemon__on_tick(NULL, 0, &r.d), 0);
	T_ASSERT(!s->active && s->known);
	T_ASSERT(pt.stop_requested);
	T_EQ_INT(pt.stop_reason, LST_DONE_LEASE);
	T_CONTAINS(pt.stop_text, "coordinator coord-0 silent for");
	r.d.pt = NULL;

	s_welcome(&r, 1, "run-a", 2000, "keyA00000001", lst_mono_ns(), true);
	T_EQ_U64(s->gen, gen);
	for (uint64_t k = 0; k < 2; k++) { /* the spool, again, to the new connection */
		m = lst_rig_got(&r, 1, LST_MSG_DONE);
		T_EQ_U64(m->u.done.samples, k);
		lst_msg_destroy(&m);
	}
	lst_rig_got_nothing(&r, 1);
	lst_rig_exit(&r);
}

/* A dormant session is not resumed by its run id alone: another key starts afresh. */
static void test_dormant_other_key(void)
{
	struct lst_rig r;
	struct lst_daemon__session *s = &r.d.sess;
	uint64_t gen;

	lst_rig_init(&r);
	s_welcome(&r, 0, "run-a", 2000, "keyA00000001", S_NOW, false);
	s_spool(&r, 2);
	gen = s->gen;
	s->active = false; /* dormant: its lease ran out */

	s_welcome(&r, 1, "run-a", 2000, "keyB00000002", S_NOW, false);
	T_ASSERT(s->gen > gen);
	T_EQ_INT(s->spool_n, 0);
	T_EQ_STR(s->key, "keyB00000002");
	lst_rig_got_nothing(&r, 1);
	lst_rig_exit(&r);
}

/* The same coordinator with a new run: the old session ends, a new one begins. */
static void test_new_run(void)
{
	struct lst_rig r;
	struct lst_daemon__session *s = &r.d.sess;
	uint64_t gen;

	lst_rig_init(&r);
	s_welcome(&r, 0, "run-a", 2000, "", S_NOW, false);
	s_spool(&r, 1);
	gen = s->gen;
	s_welcome(&r, 0, "run-b", 2000, "", S_NOW, false);
	T_ASSERT(s->gen > gen);
	T_EQ_STR(s->run, "run-b");
	T_EQ_INT(s->spool_n, 0);
	lst_rig_exit(&r);
}

static void test_version(void)
{
	struct lst_rig r;
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);

	lst_rig_init(&r);
	m->id = 1;
	m->u.hello.proto = LST_PROTO_VERSION + 1;
	snprintf(m->u.hello.run, sizeof(m->u.hello.run), "run-a");
	lst_daemon__on_hello(&r.d, &r.rid[0], m, S_NOW);
	lst_rig_got_error(&r, 0, LST_PERR_VERSION, "is not supported");
	T_ASSERT(!r.d.sess.active && !r.d.sess.known);
	lst_msg_destroy(&m);
	lst_rig_exit(&r);
}

int main(void)
{
	test_open_busy_takeover();
	test_lease_clamped();
	test_reconnect();
	test_lease_expiry_and_resume();
	test_dormant_other_key();
	test_new_run();
	test_version();
	printf("ok: daemon session\n");
	return 0;
}
