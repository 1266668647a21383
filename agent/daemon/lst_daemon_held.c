/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The held PREPARE: one that came while the previous session's point was still stopping. Its
 * frame is kept until that point's DONE is out, then replayed through the dispatcher's frame
 * handler, which the dispatcher hands over with the frame, so this file sits below both the
 * dispatcher and the point (they call it; it calls neither); or it is refused after S_HOLD_MS.
 */

#include "lst_daemon_int.h"

#include <stdlib.h>
#include <string.h>

#include "lst_log.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_HOLD_MS 10000 /* how long a PREPARE waits for the previous session's point to end */

void lst_daemon__held_drop(lst_daemon *d)
{
	struct lst_daemon__held *h = &d->held;

	if (h->timer >= 0)
		zloop_timer_end(d->loop, h->timer);
	h->timer = -1;
	free(h->buf);
	h->buf = NULL;
	h->len = 0;
}

/* The old point did not end in S_HOLD_MS: refuse the PREPARE as before. */
static int s_on_hold_deadline(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__held *h = &d->held;
	struct lst_daemon__rid rid = h->rid;
	uint64_t id = h->id;

	(void)loop;
	(void)timer_id;
	h->timer = -1;
	lst_daemon__held_drop(d);
	if (d->pt)
		lst_daemon__error(d, &rid, id, LST_MSG_PREPARE, LST_PERR_STATE,
				  "prepare: point %u/%u (%s) of an earlier session is still "
				  "stopping after %d ms; try again when it has ended",
				  d->pt->phase, d->pt->point, d->pt->name, S_HOLD_MS);
	return lst_daemon__ret(d);
}

void lst_daemon__held_keep(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
			   const uint8_t *buf, size_t len, lst_daemon__replay_fn replay)
{
	struct lst_daemon__held *h = &d->held;

	lst_daemon__held_drop(d); /* a retry replaces the frame it repeats */
	h->buf = lst_malloc(len);
	memcpy(h->buf, buf, len);
	h->len = len;
	h->rid = *rid;
	h->id = m->id;
	h->replay = replay;
	lst_copy(h->rx_key, sizeof(h->rx_key), d->rx_key);
	h->timer = zloop_timer(d->loop, S_HOLD_MS, 1, s_on_hold_deadline, d);
	lst_log_info("PREPARE %u/%u (%s) waits for point %u/%u (%s) of the previous session to "
		     "stop",
		     m->u.prepare.phase, m->u.prepare.point, m->u.prepare.name, d->pt->phase,
		     d->pt->point, d->pt->name);
}

static int s_on_held_replay(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__held h = d->held;
	char key[sizeof(d->rx_key)];

	(void)loop;
	(void)timer_id;
	d->held.timer = -1;
	d->held.buf = NULL;
	if (!h.buf)
		return lst_daemon__ret(d);
	lst_copy(key, sizeof(key), d->rx_key);
	lst_copy(d->rx_key, sizeof(d->rx_key), h.rx_key);
	h.replay(d, &h.rid, h.buf, h.len, lst_mono_ns());
	lst_copy(d->rx_key, sizeof(d->rx_key), key);
	free(h.buf);
	return lst_daemon__ret(d);
}

void lst_daemon__held_release(lst_daemon *d)
{
	struct lst_daemon__held *h = &d->held;

	if (!h->buf)
		return;
	if (h->timer >= 0)
		zloop_timer_end(d->loop, h->timer);
	/* Not from here: this runs inside the old point's DONE. */
	h->timer = zloop_timer(d->loop, 0, 1, s_on_held_replay, d);
}
