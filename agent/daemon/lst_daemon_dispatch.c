/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Frame dispatch: the ROUTER reader takes up to a batch of [routing id][frame] messages per
 * wake-up, refuses multi-frame messages, decodes each frame and hands it to its handler. A retry of
 * a command already answered gets the cached reply and is never executed again; a peer without a
 * session may only say HELLO. A PREPARE that finds the previous session's point still stopping
 * is held and replayed through s_on_frame later (lst_daemon_held.c).
 */

#include "lst_daemon_int.h"

#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_dev.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_RX_BATCH 64 /* frames read per reader wake-up */

/*
 * INVENTORY: a page of this host's block devices. Read-only and answered at once: it opens no
 * device and leaves the point and the spool alone, so it may come between or during points.
 */
static void s_on_inventory(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	lst_msg *r = lst_daemon__out(d, LST_MSG_INVENTORY_REPLY);
	struct lst_msg_inventory_reply *b = &r->u.inventory_reply;
	lst_err err;
	int n;

	n = lst_dev_inventory(d->policy, NULL, m->u.inventory.from, b->devices, LST_INV_PAGE,
			      &b->total, &err);
	if (n < 0) {
		lst_log_warn("inventory: %s", err.msg);
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_IO, "inventory: %s", err.msg);
		return;
	}
	b->from = m->u.inventory.from;
	b->ndevices = (uint32_t)n;
	lst_daemon__reply(d, rid, m->id, m->type, r);
}

/*
 * Is a point of an earlier session still stopping? Its session ended (BYE, a new run, a
 * coordinator that came back after a crash and said BYE to its old session) and its STOP was
 * given, but its jobs have not all returned yet: a PREPARE now would find the engine busy.
 */
static bool s_old_point_stopping(const lst_daemon *d)
{
	return d->pt && d->pt->state == LST_DAEMON__STARTED && d->pt->stop_requested &&
	       d->pt->gen != d->sess.gen;
}

/* A decoded command from the session's peer: execute it and reply. */
static void s_command(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
		      int64_t t_rx)
{
	struct lst_daemon__session *s = &d->sess;
	lst_msg *r;

	switch (m->type) {
	case LST_MSG_SYNC:
		r = lst_daemon__out(d, LST_MSG_SYNC_REPLY);
		r->u.sync_reply.t1 = m->u.sync.t1;
		r->u.sync_reply.t2 = t_rx;
		r->u.sync_reply.t3 = lst_mono_ns();
		lst_daemon__reply(d, rid, m->id, m->type, r);
		break;
	case LST_MSG_PREPARE:
		lst_daemon__on_prepare(d, rid, m);
		break;
	case LST_MSG_START:
		lst_daemon__on_start(d, rid, m);
		break;
	case LST_MSG_STOP:
		lst_daemon__on_stop(d, rid, m);
		break;
	case LST_MSG_PING:
		r = lst_daemon__out(d, LST_MSG_PONG);
		r->u.ping.now = lst_mono_ns();
		lst_daemon__reply(d, rid, m->id, m->type, r);
		break;
	case LST_MSG_ACK:
		lst_daemon__spool_ack(s, m->u.ack.upto);
		break;
	case LST_MSG_BYE:
		lst_log_info("BYE from coordinator %s: session for run %s ends", s->coordinator,
			     s->run);
		lst_daemon__session_clear(d, LST_DONE_STOPPED, "BYE from the coordinator");
		break;
	case LST_MSG_INVENTORY:
		s_on_inventory(d, rid, m);
		break;
	case LST_MSG_HOOK:
		lst_daemon__on_hook(d, rid, m);
		break;
	case LST_MSG_KMSG:
		lst_daemon__on_kmsg(d, rid, m);
		break;
	case LST_MSG_JOURNAL:
		lst_daemon__on_journal(d, rid, m);
		break;
	case LST_MSG_PONG:
		break; /* liveness only */
	case LST_MSG_ERROR:
		lst_log_warn("coordinator %s reports error %d: %s", s->coordinator, m->u.error.code,
			     m->u.error.text);
		break;
	default:
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE,
				  "%s: not a message an agent accepts", lst_msg_type_name(m->type));
		break;
	}
}

static void s_on_frame(lst_daemon *d, const struct lst_daemon__rid *rid, const uint8_t *buf,
		       size_t len, int64_t t_rx)
{
	struct lst_daemon__session *s = &d->sess;
	bool peer = lst_daemon__is_peer(d, rid);
	lst_msg *m = NULL;
	struct lst_daemon__cached *c;
	lst_err err;
	char rs[32];

	if (peer)
		s->last_rx = t_rx; /* any frame, even a broken one, shows the peer is alive */
	if (lst_msg_decode(buf, len, &m, &err)) {
		lst_log_debug(LST_DBG_PROTO, "in  undecodable frame of %zu bytes from %s: %s", len,
			      lst_daemon__rid_str(rid, rs, sizeof(rs)), err.msg);
		lst_daemon__error(d, rid, 0, 0, LST_PERR_BAD_MESSAGE, "%s", err.msg);
		return;
	}
	lst_log_debug(LST_DBG_PROTO, "in  %s seq=%llu id=%llu re=%llu from %s%s",
		      lst_msg_type_name(m->type), (unsigned long long)m->seq,
		      (unsigned long long)m->id, (unsigned long long)m->re,
		      lst_daemon__rid_str(rid, rs, sizeof(rs)), peer ? "" : " (no session)");
	if (peer && m->id && m->type != LST_MSG_SYNC && (c = lst_daemon__cache_find(s, m->id))) {
		if (c->pending) {
			lst_log_debug(LST_DBG_PROTO,
				      "retry of command %llu still executing: its "
				      "reply follows",
				      (unsigned long long)m->id);
		} else {
			lst_log_debug(LST_DBG_PROTO, "retry of command %llu: cached reply seq=%llu",
				      (unsigned long long)m->id, (unsigned long long)c->f.seq);
			lst_daemon__send_raw(d, rid, c->f.buf, c->f.len);
		}
		goto out;
	}
	if (m->type == LST_MSG_HELLO) {
		lst_daemon__on_hello(d, rid, m, t_rx);
		goto out;
	}
	if (!peer) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_NO_SESSION,
				  "%s: no session: send HELLO first", lst_msg_type_name(m->type));
		goto out;
	}
	if (m->type == LST_MSG_PREPARE && s_old_point_stopping(d)) {
		lst_daemon__held_keep(d, rid, m, buf, len, s_on_frame);
		goto out;
	}
	s_command(d, rid, m, t_rx);
out:
	lst_msg_destroy(&m);
}

int lst_daemon__on_router(zloop_t *loop, zsock_t *sock, void *arg)
{
	lst_daemon *d = arg;

	(void)loop;
	(void)sock;
	for (int i = 0; i < S_RX_BATCH && !d->quit_now; i++) {
		zmq_msg_t id, body;
		struct lst_daemon__rid rid;
		int64_t t_rx;
		int more, nextra = 0;
		size_t sz = sizeof(more);

		zmq_msg_init(&id);
		if (zmq_msg_recv(&id, d->zs, ZMQ_DONTWAIT) < 0) {
			zmq_msg_close(&id);
			break;
		}
		rid.len = LST_MIN(zmq_msg_size(&id), sizeof(rid.b));
		memcpy(rid.b, zmq_msg_data(&id), rid.len);
		more = zmq_msg_more(&id);
		zmq_msg_close(&id);
		if (!more)
			continue; /* cannot happen on a ROUTER */
		zmq_msg_init(&body);
		if (zmq_msg_recv(&body, d->zs, 0) < 0) {
			zmq_msg_close(&body);
			continue;
		}
		t_rx = lst_mono_ns();
		{
			/* The ZAP handler named the coordinator's key as the connection's user. */
			const char *uid = d->curve ? zmq_msg_gets(&body, "User-Id") : NULL;

			lst_copy(d->rx_key, sizeof(d->rx_key), uid ? uid : "");
		}
		zmq_getsockopt(d->zs, ZMQ_RCVMORE, &more, &sz);
		while (more) {
			zmq_msg_t x;

			zmq_msg_init(&x);
			if (zmq_msg_recv(&x, d->zs, 0) < 0) {
				zmq_msg_close(&x);
				break;
			}
			nextra++;
			more = zmq_msg_more(&x);
			zmq_msg_close(&x);
		}
		if (nextra) {
			if (lst_daemon__is_peer(d, &rid))
				d->sess.last_rx = t_rx;
			lst_daemon__error(
				d, &rid, 0, 0, LST_PERR_BAD_MESSAGE,
				"message: %d frames after the routing id; a message is exactly one "
				"frame",
				nextra + 1);
		} else {
			s_on_frame(d, &rid, zmq_msg_data(&body), zmq_msg_size(&body), t_rx);
		}
		zmq_msg_close(&body);
	}
	return lst_daemon__ret(d);
}
