/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The held PREPARE (agent/daemon/lst_daemon_held.c), through the daemon's private interface on
 * a real zloop, no socket: a PREPARE kept while the previous session's point stops is replayed
 * once, after lst_daemon__held_release and not inside it (that call runs within the old point's
 * DONE), with its own frame, routing id and CURVE user; a retry replaces the frame it repeats;
 * a dropped hold is never replayed.
 */
#include <czmq.h>
#include <string.h>

#include "lst_daemon_int.h"
#include "lst_test.h"

/* What the replay (standing in for the dispatcher's frame handler) was given. */
static struct {
	int calls;
	char buf[32];
	size_t len;
	struct lst_daemon__rid rid;
	char rx_key[LST_KEY_FP_LEN + 1];
} s_seen;

static void s_replay(lst_daemon *d, const struct lst_daemon__rid *rid, const uint8_t *buf,
		     size_t len, int64_t t_rx)
{
	(void)t_rx;
	s_seen.calls++;
	T_ASSERT(len < sizeof(s_seen.buf));
	memcpy(s_seen.buf, buf, len);
	s_seen.buf[len] = '\0';
	s_seen.len = len;
	s_seen.rid = *rid;
	snprintf(s_seen.rx_key, sizeof(s_seen.rx_key), "%s", d->rx_key);
}

static int s_on_end(zloop_t *loop, int timer_id, void *arg)
{
	(void)loop;
	(void)timer_id;
	(void)arg;
	return -1;
}

/* Run the reactor for ms, as the daemon would between frames. */
static void s_spin(lst_daemon *d, size_t ms)
{
	T_ASSERT(zloop_timer(d->loop, ms, 1, s_on_end, NULL) >= 0);
	zloop_start(d->loop);
}

struct s_rig {
	lst_daemon d;
	struct lst_daemon__point old; /* the previous session's point, stopping */
	lst_msg *prepare;
	struct lst_daemon__rid rid;
};

static void s_rig_init(struct s_rig *r)
{
	memset(r, 0, sizeof(*r));
	memset(&s_seen, 0, sizeof(s_seen));
	r->d.loop = zloop_new();
	T_ASSERT(r->d.loop);
	r->d.held.timer = -1;
	r->old.phase = 1;
	r->old.point = 2;
	snprintf(r->old.name, sizeof(r->old.name), "old");
	r->d.pt = &r->old;
	r->prepare = lst_msg_new(LST_MSG_PREPARE);
	r->prepare->id = 77;
	r->rid = (struct lst_daemon__rid){ .len = 2, .b = { 0xca, 0xfe } };
	snprintf(r->d.rx_key, sizeof(r->d.rx_key), "coordkey0001");
}

static void s_rig_exit(struct s_rig *r)
{
	lst_daemon__held_drop(&r->d);
	lst_msg_destroy(&r->prepare);
	zloop_destroy(&r->d.loop);
}

static void s_keep(struct s_rig *r, const char *frame)
{
	lst_daemon__held_keep(&r->d, &r->rid, r->prepare, (const uint8_t *)frame, strlen(frame),
			      s_replay);
}

static void test_replay_after_release(void)
{
	struct s_rig r;

	s_rig_init(&r);
	s_keep(&r, "first");
	s_keep(&r, "retry!"); /* the coordinator sent it again meanwhile */
	T_EQ_U64(r.d.held.id, 77);
	s_spin(&r.d, 30);
	T_EQ_INT(s_seen.calls, 0); /* the old point is still stopping */

	/* Another peer's frame is being handled when the old point's DONE goes out. */
	snprintf(r.d.rx_key, sizeof(r.d.rx_key), "otherkey0002");
	lst_daemon__held_release(&r.d);
	T_EQ_INT(s_seen.calls, 0); /* not from inside the DONE */
	s_spin(&r.d, 30);
	T_EQ_INT(s_seen.calls, 1);
	T_EQ_STR(s_seen.buf, "retry!");
	T_EQ_INT(s_seen.len, 6);
	T_ASSERT(lst_daemon__rid_eq(&s_seen.rid, &r.rid));
	T_EQ_STR(s_seen.rx_key, "coordkey0001"); /* the held frame's user, not the current one */
	T_EQ_STR(r.d.rx_key, "otherkey0002");	 /* ... restored after */
	T_ASSERT(!r.d.held.buf);
	T_EQ_INT(r.d.held.timer, -1);

	/* Released twice (a second DONE): nothing is replayed again. */
	lst_daemon__held_release(&r.d);
	s_spin(&r.d, 30);
	T_EQ_INT(s_seen.calls, 1);
	s_rig_exit(&r);
}

static void test_drop(void)
{
	struct s_rig r;

	s_rig_init(&r);
	s_keep(&r, "frame");
	lst_daemon__held_drop(&r.d); /* the session that sent it ended */
	T_ASSERT(!r.d.held.buf);
	lst_daemon__held_release(&r.d);
	s_spin(&r.d, 30);
	T_EQ_INT(s_seen.calls, 0);

	/* Dropped after the release but before the replay's turn: still never replayed. */
	s_keep(&r, "frame");
	lst_daemon__held_release(&r.d);
	lst_daemon__held_drop(&r.d);
	s_spin(&r.d, 30);
	T_EQ_INT(s_seen.calls, 0);
	s_rig_exit(&r);
}

int main(void)
{
	test_replay_after_release();
	test_drop();
	printf("ok: daemon held\n");
	return 0;
}
