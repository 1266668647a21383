/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What leaves the agent daemon (agent/daemon/lst_daemon_send.c), through its private interface
 * on a daemon object built by hand around a real ROUTER socket (inproc, no network): replies
 * numbered in the session's seq for its peer and in the stray seq for anyone else, cached by
 * command id so that a retry is answered from the cache (but never a SYNC), a pending slot that
 * a flood of other replies cannot evict, and the spool of SAMPLE/DONE frames: kept until ACKed,
 * bounded with the oldest dropped and counted, bare for a point of an ended session, and its
 * bound derived from the lease.
 */
#include <czmq.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_daemon_rig.h"
#include "lst_test.h"
#include "lst_time.h"

static void s_pong(struct lst_rig *r, const struct lst_daemon__rid *rid, uint64_t id,
		   uint32_t cmd_type)
{
	lst_msg *m = lst_daemon__out(&r->d, LST_MSG_PONG);

	m->u.ping.now = 42;
	lst_daemon__reply(&r->d, rid, id, cmd_type, m);
}

/* A reply to the session's peer takes the session's seq, answers its command (re) and is
 * cached under the command's id; a SYNC is answered afresh, never cached. */
static void test_reply_own(void)
{
	struct lst_rig r;
	lst_msg *m;
	struct lst_daemon__cached *c;

	lst_rig_init(&r);
	r.d.sess.active = r.d.sess.known = true;
	r.d.sess.peer = r.rid[0];
	r.d.sess.seq = 10;
	T_ASSERT(lst_daemon__is_peer(&r.d, &r.rid[0]));

	s_pong(&r, &r.rid[0], 7, LST_MSG_PING);
	m = lst_rig_got(&r, 0, LST_MSG_PONG);
	T_EQ_U64(m->seq, 11);
	T_EQ_U64(m->re, 7);
	T_EQ_INT(m->u.ping.now, 42);
	lst_msg_destroy(&m);
	c = lst_daemon__cache_find(&r.d.sess, 7);
	T_ASSERT(c && !c->pending && c->f.buf);
	T_EQ_U64(c->f.seq, 11);

	s_pong(&r, &r.rid[0], 8, LST_MSG_SYNC);
	lst_msg_destroy((m = lst_rig_got(&r, 0, LST_MSG_PONG), &m));
	T_ASSERT(!lst_daemon__cache_find(&r.d.sess, 8));
	T_EQ_U64(r.d.sess.seq, 12);
	lst_rig_exit(&r);
}

/* A stranger (not the session's peer) is answered in the stray seq, and nothing is cached:
 * its retries must not occupy the session's cache. */
static void test_reply_stray(void)
{
	struct lst_rig r;
	lst_msg *m;

	lst_rig_init(&r);
	r.d.sess.seq = 10;
	r.d.stray_seq = 100;
	T_ASSERT(!lst_daemon__is_peer(&r.d, &r.rid[0])); /* no active session */
	lst_daemon__error(&r.d, &r.rid[0], 5, LST_MSG_PREPARE, LST_PERR_STATE, "no session (%d)",
			  3);
	m = lst_rig_got(&r, 0, LST_MSG_ERROR);
	T_EQ_U64(m->seq, 101);
	T_EQ_U64(m->re, 5);
	T_EQ_INT(m->u.error.code, LST_PERR_STATE);
	T_EQ_STR(m->u.error.text, "no session (3)");
	lst_msg_destroy(&m);
	T_ASSERT(!lst_daemon__cache_find(&r.d.sess, 5));
	T_EQ_U64(r.d.sess.seq, 10);
	lst_rig_exit(&r);
}

/* A command still executing keeps its slot through more replies than the cache holds, and its
 * reply, when it comes, fills that slot; a finished one is evicted after LST_DAEMON__CACHE_N. */
static void test_cache_pending(void)
{
	struct lst_daemon__session s;
	struct lst_daemon__cached *c;

	memset(&s, 0, sizeof(s));
	lst_daemon__cache_put(&s, 1, true, NULL);  /* a PREPARE, answered later */
	lst_daemon__cache_put(&s, 2, false, NULL); /* a PING, answered at once */
	for (uint64_t id = 100; id < 100 + 3 * LST_DAEMON__CACHE_N; id++) {
		struct lst_daemon__frame f = { .seq = id, .len = 4, .buf = malloc(4) };

		lst_daemon__cache_put(&s, id, false, &f);
		T_ASSERT(!f.buf); /* the cache took it */
	}
	c = lst_daemon__cache_find(&s, 1);
	T_ASSERT(c && c->pending);
	T_ASSERT(!lst_daemon__cache_find(&s, 2));
	T_ASSERT(!lst_daemon__cache_find(&s, 100));
	T_ASSERT(lst_daemon__cache_find(&s, 100 + 3 * LST_DAEMON__CACHE_N - 1));
	lst_daemon__cache_clear(&s);
	T_ASSERT(!lst_daemon__cache_find(&s, 1));
	T_EQ_INT(s.cache_next, 0);
}

/* The pending slot's reply goes out and replaces the placeholder: a retry then finds it. */
static void test_reply_fills_pending(void)
{
	struct lst_rig r;
	struct lst_daemon__cached *c;
	lst_msg *m;

	lst_rig_init(&r);
	r.d.sess.active = r.d.sess.known = true;
	r.d.sess.peer = r.rid[0];
	lst_daemon__cache_put(&r.d.sess, 9, true, NULL);
	s_pong(&r, &r.rid[0], 9, LST_MSG_START);
	lst_msg_destroy((m = lst_rig_got(&r, 0, LST_MSG_PONG), &m));
	c = lst_daemon__cache_find(&r.d.sess, 9);
	T_ASSERT(c && !c->pending && c->f.buf && c->f.len);
	T_EQ_U64(c->f.seq, 1);
	/* only one slot for id 9 */
	unsigned n = 0;
	for (unsigned i = 0; i < LST_DAEMON__CACHE_N; i++)
		n += r.d.sess.cache[i].id == 9;
	T_EQ_INT(n, 1);
	lst_rig_exit(&r);
}

static void s_done(struct lst_rig *r, uint64_t samples)
{
	lst_msg *m = lst_daemon__out(&r->d, LST_MSG_DONE);

	m->u.done.phase = 1;
	m->u.done.last_interval = -1;
	m->u.done.samples = samples;
	T_EQ_INT(lst_daemon__emit(&r->d, m), 0);
}

/* A point of this session spools what it emits until the ACK covers it; beyond the bound the
 * oldest frames go, counted as dropped, in one burst that the next ACK ends. */
static void test_spool(void)
{
	struct lst_rig r;
	struct lst_daemon__point pt = { 0 };
	struct lst_daemon__session *s;
	lst_msg *m;

	lst_rig_init(&r);
	s = &r.d.sess;
	s->active = s->known = true;
	s->peer = r.rid[0];
	s->gen = 3;
	pt.gen = 3;
	pt.peer = r.rid[0];
	r.d.pt = &pt;
	lst_daemon__spool_bounds(s, 10 * LST_NS_PER_S);
	for (uint64_t i = 0; i < 5; i++)
		s_done(&r, i);
	for (uint64_t i = 0; i < 5; i++) {
		m = lst_rig_got(&r, 0, LST_MSG_DONE);
		T_EQ_U64(m->seq, i + 1);
		T_EQ_U64(m->u.done.samples, i);
		lst_msg_destroy(&m);
	}
	T_EQ_INT(s->spool_n, 5);
	lst_daemon__spool_ack(s, 3);
	T_EQ_INT(s->spool_n, 2);
	T_EQ_U64(s->spool[s->spool_head].seq, 4);

	s->spool_max_frames = 3;
	for (uint64_t i = 5; i < 9; i++)
		s_done(&r, i);
	T_EQ_INT(s->spool_n, 3);
	T_EQ_U64(s->spool_dropped, 3);
	T_EQ_U64(s->spool_unreported, 3);
	T_ASSERT(s->spool_burst);
	T_EQ_U64(s->spool[s->spool_head].seq, 7); /* the newest three: 7, 8, 9 */
	lst_daemon__spool_ack(s, 7);
	T_ASSERT(!s->spool_burst);
	T_EQ_INT(s->spool_n, 2);
	T_EQ_U64(s->spool_dropped, 3); /* the session's count survives the ACK */

	/* A byte bound counts too: one frame's worth leaves room for one. */
	s->spool_max_frames = 100;
	s->spool_max_bytes = s->spool_bytes / 2;
	s_done(&r, 99);
	T_EQ_INT(s->spool_n, 1);
	T_EQ_U64(s->spool[s->spool_head].seq, 10);

	lst_daemon__spool_clear(s);
	T_EQ_INT(s->spool_n, 0);
	T_EQ_U64(s->spool_dropped, 0);
	T_EQ_INT(s->spool_bytes, 0);
	for (int i = 0; i < 5; i++)
		lst_msg_destroy((m = lst_rig_got(&r, 0, LST_MSG_DONE), &m));
	lst_rig_exit(&r);
}

/* The spool grows past its first allocation and keeps its frames in seq order across the wrap. */
static void test_spool_grows(void)
{
	struct lst_rig r;
	struct lst_daemon__point pt = { 0 };
	struct lst_daemon__session *s;

	lst_rig_init(&r);
	s = &r.d.sess;
	s->known = true;
	r.d.pt = &pt;
	pt.peer = r.rid[0];
	lst_daemon__spool_bounds(s, 60 * LST_NS_PER_S);
	for (uint64_t i = 0; i < 200; i++)
		s_done(&r, i);
	lst_daemon__spool_ack(s, 150); /* head moves to 151 */
	for (uint64_t i = 0; i < 300; i++)
		s_done(&r, i);
	T_EQ_INT(s->spool_n, 350);
	for (size_t i = 0; i < s->spool_n; i++)
		T_EQ_U64(s->spool[(s->spool_head + i) % s->spool_cap].seq, 151 + i);
	T_EQ_U64(s->spool_dropped, 0);
	lst_rig_exit(&r);
}

/* A point left over from an ended session sends bare: the stray seq, nothing spooled. */
static void test_emit_old_point(void)
{
	struct lst_rig r;
	struct lst_daemon__point pt = { 0 };
	lst_msg *m;

	lst_rig_init(&r);
	r.d.sess.known = true;
	r.d.sess.gen = 4;
	r.d.sess.seq = 50;
	pt.gen = 3;
	pt.peer = r.rid[0];
	r.d.pt = &pt;
	s_done(&r, 1);
	m = lst_rig_got(&r, 0, LST_MSG_DONE);
	T_EQ_U64(m->seq, 1);
	lst_msg_destroy(&m);
	T_EQ_INT(r.d.sess.spool_n, 0);
	T_EQ_U64(r.d.sess.seq, 50);
	lst_rig_got_nothing(&r, 0);
	lst_rig_exit(&r);
}

/* The bound: a lease's SAMPLEs at the shortest interval (10 ms), half again, 64 spare; in bytes
 * within [256 MiB, 1 GiB]. */
static void test_spool_bounds(void)
{
	struct lst_daemon__session s = { 0 };

	lst_daemon__spool_bounds(&s, 10 * LST_NS_PER_S);
	T_EQ_U64(s.spool_max_frames, 1000 * 3 / 2 + 64);
	T_EQ_U64(s.spool_max_bytes, (size_t)256 << 20);
	lst_daemon__spool_bounds(&s, 3600 * LST_NS_PER_S);
	T_EQ_U64(s.spool_max_frames, 360000 * 3 / 2 + 64);
	T_EQ_U64(s.spool_max_bytes, (size_t)1 << 30);
	lst_daemon__spool_bounds(&s, 1000 * LST_NS_PER_S);
	T_EQ_U64(s.spool_max_bytes, (size_t)(100000 * 3 / 2 + 64) * 2048);
}

/* Routing ids as log text: hex, the first 8 bytes, ".." beyond; "-" when empty. */
static void test_rid_str(void)
{
	struct lst_daemon__rid a = { .len = 3, .b = { 0x00, 0xab, 0x10 } }, b = a, e = { 0 };
	char buf[32];

	T_EQ_STR(lst_daemon__rid_str(&a, buf, sizeof(buf)), "00ab10");
	a.len = 10;
	T_EQ_STR(lst_daemon__rid_str(&a, buf, sizeof(buf)), "00ab100000000000..");
	T_EQ_STR(lst_daemon__rid_str(&e, buf, sizeof(buf)), "-");
	a.len = 3;
	T_ASSERT(lst_daemon__rid_eq(&a, &b));
	b.b[2] = 0x11;
	T_ASSERT(!lst_daemon__rid_eq(&a, &b));
	b.b[2] = 0x10;
	b.len = 2;
	T_ASSERT(!lst_daemon__rid_eq(&a, &b));
}

int main(void)
{
	test_reply_own();
	test_reply_stray();
	test_cache_pending();
	test_reply_fills_pending();
	test_spool();
	test_spool_grows();
	test_emit_old_point();
	test_spool_bounds();
	test_rid_str();
	zsys_shutdown();
	printf("ok: daemon send\n");
	return 0;
}
