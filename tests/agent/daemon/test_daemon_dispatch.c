/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon's frame dispatch (agent/daemon/lst_daemon_dispatch.c), through its private
 * interface on the daemon rig: frames the coordinators send over a real inproc ROUTER are read
 * by lst_daemon__on_router as the reactor would. Input never reaches an assert: a frame that
 * does not decode, a message of several frames and a message an agent does not take are each
 * answered with ERROR BAD_MESSAGE; a peer without a session may only say HELLO; a retry of a
 * command is answered from the cache, byte for byte, and not executed again (a SYNC is); any
 * frame of the peer, even a broken one, keeps its lease; ACK and BYE reach the spool and the
 * session; a PREPARE that finds the previous session's point still stopping is held.
 */
#include <czmq.h>
#include <string.h>

#include "lst_daemon_rig.h"
#include "msg_examples.h"
#include "lst_test.h"
#include "lst_time.h"

/* Coordinator i sends m, and the agent reads what is waiting. */
static void s_send(struct lst_rig *r, int i, const lst_msg *m)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	lst_err err;

	if (lst_msg_encode(m, &buf, &len, &err))
		T_FAIL("encode %s: %s", lst_msg_type_name(m->type), err.msg);
	T_EQ_INT(zmq_send(zsock_resolve(r->peer[i]), buf, len, 0), (int)len);
	free(buf);
	T_EQ_INT(lst_daemon__on_router(NULL, r->router, &r->d), 0);
}

/* Coordinator i sends a message of type with command id. */
static void s_cmd(struct lst_rig *r, int i, enum lst_msg_type type, uint64_t id)
{
	lst_msg *m = type == LST_MSG_PREPARE ? lst_example_msg(type, LST_EXAMPLE_SMALL)
					     : lst_msg_new(type);

	m->id = id;
	if (type == LST_MSG_HELLO) {
		m->u.hello.proto = LST_PROTO_VERSION;
		m->u.hello.lease_ms = 5000;
		snprintf(m->u.hello.run, sizeof(m->u.hello.run), "run-a");
		snprintf(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "coord");
	}
	s_send(r, i, m);
	lst_msg_destroy(&m);
}

/* Coordinator 0 holds the session (HELLO, WELCOME read). */
static void s_session(struct lst_rig *r)
{
	lst_msg *m;

	s_cmd(r, 0, LST_MSG_HELLO, 1);
	m = lst_rig_got(r, 0, LST_MSG_WELCOME);
	T_EQ_U64(m->re, 1);
	lst_msg_destroy(&m);
	T_ASSERT(lst_daemon__is_peer(&r->d, &r->rid[0]));
}

static void test_bad_input(void)
{
	struct lst_rig r;
	zmsg_t *two;
	int64_t before;

	lst_rig_init(&r);
	s_session(&r);

	/* Not msgpack at all; yet it shows the peer is alive. */
	r.d.sess.last_rx = before = lst_mono_ns() - LST_NS_PER_S;
	T_EQ_INT(zstr_send(r.peer[0], "garbage"), 0);
	T_EQ_INT(lst_daemon__on_router(NULL, r.router, &r.d), 0);
	T_EQ_U64(lst_rig_got_error(&r, 0, LST_PERR_BAD_MESSAGE, ""), 0);
	T_ASSERT(r.d.sess.last_rx > before);

	/* Two frames after the routing id. */
	two = zmsg_new();
	zmsg_addstr(two, "a");
	zmsg_addstr(two, "b");
	T_EQ_INT(zmsg_send(&two, r.peer[0]), 0);
	T_EQ_INT(lst_daemon__on_router(NULL, r.router, &r.d), 0);
	T_EQ_U64(lst_rig_got_error(&r, 0, LST_PERR_BAD_MESSAGE, "2 frames after the routing id"),
		 0);

	/* A message only an agent sends. */
	s_cmd(&r, 0, LST_MSG_WELCOME, 7);
	T_EQ_U64(lst_rig_got_error(&r, 0, LST_PERR_BAD_MESSAGE,
				   "welcome: not a message an agent accepts"),
		 7);
	T_ASSERT(lst_daemon__is_peer(&r.d, &r.rid[0])); /* the session survives it all */
	lst_rig_exit(&r);
}

static void test_no_session(void)
{
	struct lst_rig r;

	lst_rig_init(&r);
	s_cmd(&r, 1, LST_MSG_PING, 3);
	T_EQ_U64(
		lst_rig_got_error(&r, 1, LST_PERR_NO_SESSION, "ping: no session: send HELLO first"),
		3);
	s_session(&r);
	s_cmd(&r, 1, LST_MSG_PREPARE, 4); /* another coordinator, not the session's */
	T_EQ_U64(lst_rig_got_error(&r, 1, LST_PERR_NO_SESSION, "send HELLO first"), 4);
	T_EQ_INT(r.d.sess.spool_n, 0);
	lst_rig_exit(&r);
}

/* A retried command gets its first reply again (same seq, same bytes); a SYNC is answered
 * afresh each time. */
static void test_retry(void)
{
	struct lst_rig r;
	lst_msg *a, *b;
	uint64_t seq;

	lst_rig_init(&r);
	s_session(&r);
	s_cmd(&r, 0, LST_MSG_PING, 5);
	a = lst_rig_got(&r, 0, LST_MSG_PONG);
	seq = r.d.sess.seq;
	s_cmd(&r, 0, LST_MSG_PING, 5);
	b = lst_rig_got(&r, 0, LST_MSG_PONG);
	T_EQ_U64(b->seq, a->seq);
	T_EQ_U64(b->re, 5);
	T_EQ_INT(b->u.ping.now, a->u.ping.now); /* not executed again */
	T_EQ_U64(r.d.sess.seq, seq);
	lst_msg_destroy(&a);
	lst_msg_destroy(&b);

	s_cmd(&r, 0, LST_MSG_SYNC, 6);
	a = lst_rig_got(&r, 0, LST_MSG_SYNC_REPLY);
	s_cmd(&r, 0, LST_MSG_SYNC, 6);
	b = lst_rig_got(&r, 0, LST_MSG_SYNC_REPLY);
	T_ASSERT(b->seq > a->seq);
	T_ASSERT(b->u.sync_reply.t2 > a->u.sync_reply.t2);
	lst_msg_destroy(&a);
	lst_msg_destroy(&b);
	lst_rig_exit(&r);
}

/* ACK lets the spool go; BYE ends the session (the next command has none). */
static void test_ack_bye(void)
{
	struct lst_rig r;
	struct lst_daemon__point pt = { 0 };
	lst_msg *m;

	lst_rig_init(&r);
	s_session(&r);
	pt.gen = r.d.sess.gen;
	pt.peer = r.rid[0];
	r.d.pt = &pt;
	for (int k = 0; k < 3; k++) {
		m = lst_daemon__out(&r.d, LST_MSG_DONE);
		m->u.done.last_interval = -1;
		T_EQ_INT(lst_daemon__emit(&r.d, m), 0);
		lst_msg_destroy((m = lst_rig_got(&r, 0, LST_MSG_DONE), &m));
	}
	r.d.pt = NULL;
	T_EQ_INT(r.d.sess.spool_n, 3);
	m = lst_msg_new(LST_MSG_ACK);
	m->u.ack.upto = r.d.sess.seq - 1;
	s_send(&r, 0, m);
	lst_msg_destroy(&m);
	T_EQ_INT(r.d.sess.spool_n, 1);
	lst_rig_got_nothing(&r, 0); /* ACK is not answered */

	s_cmd(&r, 0, LST_MSG_BYE, 9);
	T_ASSERT(!r.d.sess.active && !r.d.sess.known);
	T_EQ_INT(r.d.sess.spool_n, 0);
	s_cmd(&r, 0, LST_MSG_PING, 10);
	T_EQ_U64(lst_rig_got_error(&r, 0, LST_PERR_NO_SESSION, "send HELLO first"), 10);
	lst_rig_exit(&r);
}

/* A PREPARE while the previous session's point is still stopping waits for it, unanswered. */
static void test_prepare_held(void)
{
	struct lst_rig r;
	struct lst_daemon__point old = { .state = LST_DAEMON__STARTED, .stop_requested = true };

	lst_rig_init(&r);
	r.d.loop = zloop_new();
	T_ASSERT(r.d.loop);
	old.gen = r.d.sess.gen; /* a session that the HELLO below replaces */
	r.d.pt = &old;
	s_session(&r);
	T_ASSERT(old.gen != r.d.sess.gen);
	s_cmd(&r, 0, LST_MSG_PREPARE, 11);
	T_ASSERT(r.d.held.buf && r.d.held.len);
	T_EQ_U64(r.d.held.id, 11);
	lst_rig_got_nothing(&r, 0);
	lst_daemon__held_drop(&r.d);
	r.d.pt = NULL;
	zloop_destroy(&r.d.loop);
	lst_rig_exit(&r);
}

int main(void)
{
	test_bad_input();
	test_no_session();
	test_retry();
	test_ack_bye();
	test_prepare_held();
	printf("ok: daemon dispatch\n");
	return 0;
}
