/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prepared point's life: START arms a timer for t0 and releases the run (or the purge
 * worker, agent/io/lst_purge), STARTED answers it, samples go out as the run's eventfd reports
 * them, STOP and the lease ask it to stop, and DONE says how it ended before the point is freed.
 * SAMPLEs carry the verified writes' watermarks, and a verifying read's bad units go
 * out as INTEGRITY frames just before DONE (lst_daemon_verify.c).
 */

#include "lst_daemon_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lst_log.h"
#include "lst_time.h"
#include "lst_text.h"

#define S_T0_MAX_AHEAD (3600 * LST_NS_PER_S)
#define S_T0_MAX_BEHIND (3600 * LST_NS_PER_S)

static void s_point_finish(lst_daemon *d);
static int s_on_start_timer(zloop_t *loop, int timer_id, void *arg);

void lst_daemon__point_stop(lst_daemon *d, uint32_t reason, const char *text)
{
	struct lst_daemon__point *pt = d->pt;

	if (!pt)
		return;
	if (pt->state == LST_DAEMON__PREPARING) {
		lst_daemon__prepare_cancel(d, text);
		return;
	}
	if (pt->state == LST_DAEMON__PREPARED) {
		lst_log_info("dropping prepared point %u/%u (%s): %s", pt->phase, pt->point,
			     pt->name, text);
		lst_daemon__point_destroy(d);
		return;
	}
	if (!pt->stop_requested) {
		pt->stop_requested = true;
		pt->stop_reason = reason;
		lst_copy(pt->stop_text, sizeof(pt->stop_text), text);
	}
	if (pt->run)
		lst_run_stop(pt->run);
	if (pt->purge)
		lst_purge_stop(pt->purge);
	if (!pt->started_sent && pt->timer >= 0) {
		zloop_timer_end(d->loop, pt->timer);
		pt->timer = zloop_timer(d->loop, 0, 1, s_on_start_timer, d);
	}
}

/*
 * Send m without its parts when it is too large with them (64 paths with wide histograms can
 * pass LST_MSG_MAX_BYTES): the coordinator still gets the agent's sample, only not split by
 * path. Warned once per point.
 */
static void s_emit_unsplit(lst_daemon *d, lst_msg *m)
{
	struct lst_daemon__point *pt = d->pt;
	uint32_t nparts = m->u.sample.nparts;

	m->u.sample.nparts = 0;
	m->u.sample.parts = NULL;
	if (!pt->samples_unsplit++)
		lst_log_warn("point %u/%u (%s): sample %lld split over %u paths exceeds %d bytes; "
			     "sending it, and any other too large, without its per-path parts",
			     pt->phase, pt->point, pt->name, (long long)m->u.sample.s.interval,
			     nparts, LST_MSG_MAX_BYTES);
	lst_daemon__emit(d, m);
}

static void s_on_sample(const lst_sample *s, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__point *pt = d->pt;
	lst_msg *m = lst_daemon__out(d, LST_MSG_SAMPLE);
	struct lst_msg_sample *ms = &m->u.sample;
	const struct lst_devstat *dev = lst_run_devstats(pt->run, &ms->ndev);
	const struct lst_sample_part *parts = lst_run_parts(pt->run, &ms->nparts);

	ms->phase = pt->phase;
	ms->point = pt->point;
	ms->s = *s;
	memcpy(ms->dev, dev, ms->ndev * sizeof(*dev));
	/* Borrowed from the run for the encoding only: taken back below, before anything could
	 * free the reused message (lst_msg_destroy frees a SAMPLE's parts). */
	ms->parts = ms->nparts ? (struct lst_sample_part *)parts : NULL;
	lst_daemon__sample_marks(pt->run, ms);
	if (lst_daemon__emit(d, m) == -EMSGSIZE && ms->nparts)
		s_emit_unsplit(d, m);
	ms->nparts = 0;
	ms->parts = NULL;
	pt->samples++;
	pt->last_interval = s->interval;
}

static void s_collect(lst_daemon *d)
{
	if (lst_run_collect(d->pt->run, s_on_sample, d))
		s_point_finish(d);
}

/* The run's eventfd: samples or a finished job. Nothing is forwarded before STARTED. */
static int s_on_run_event(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__point *pt = d->pt;
	uint64_t junk;

	(void)loop;
	if (!pt || !pt->run || item->fd != lst_run_eventfd(pt->run))
		return lst_daemon__ret(d); /* a stale poll entry of a point just destroyed */
	if (!pt->started_sent) {
		while (read(item->fd, &junk, sizeof(junk)) > 0)
			;
		return lst_daemon__ret(d);
	}
	s_collect(d);
	return lst_daemon__ret(d);
}

static int s_on_purge_event(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__point *pt = d->pt;
	uint64_t junk;

	(void)loop;
	if (!pt || !pt->purge || item->fd != lst_purge_eventfd(pt->purge))
		return lst_daemon__ret(d);
	while (read(item->fd, &junk, sizeof(junk)) > 0)
		;
	if (pt->started_sent && lst_purge_finished(pt->purge))
		s_point_finish(d);
	return lst_daemon__ret(d);
}

/* Send DONE for the point, then free it. Its jobs have finished; its events' EVENTs have
 * gone out (else it waits for them: lst_daemon__events_pending). */
static void s_point_finish(lst_daemon *d)
{
	struct lst_daemon__point *pt = d->pt;
	lst_msg *m;
	struct lst_msg_done *dn;
	lst_err err;
	uint64_t unreported;
	uint32_t integrity;

	/* The events and the trace writer call this again when their last piece is out. */
	pt->finish = s_point_finish;
	if (lst_daemon__events_pending(d))
		return;
	if (lst_daemon__traces_pending(d)) /* recordings being written */
		return;
	integrity = lst_daemon__integrity_send(d, &unreported);
	m = lst_daemon__out(d, LST_MSG_DONE);
	dn = &m->u.done;
	dn->integrity = integrity;
	dn->bad_unreported = unreported;
	dn->events = pt->events_sent;
	dn->phase = pt->phase;
	dn->point = pt->point;
	dn->last_interval = pt->last_interval;
	dn->samples = pt->samples;
	dn->reason = LST_DONE_COMPLETE;
	if (pt->run && lst_run_error(pt->run, &err)) {
		dn->reason = LST_DONE_ERROR;
		lst_copy(dn->text, sizeof(dn->text), err.msg);
	} else if (pt->purge && lst_purge_error(pt->purge, &err)) {
		dn->reason = LST_DONE_ERROR;
		lst_copy(dn->text, sizeof(dn->text), err.msg);
	} else if (pt->stop_requested) {
		dn->reason = pt->stop_reason;
		lst_copy(dn->text, sizeof(dn->text), pt->stop_text);
	}
	if (pt->run && pt->tr)
		lst_daemon__traces_finish(d, dn);
	if (d->sess.spool_unreported && d->sess.known && pt->gen == d->sess.gen) {
		size_t n = strlen(dn->text);

		snprintf(dn->text + n, sizeof(dn->text) - n,
			 "%s%llu unacknowledged SAMPLE/DONE frames were dropped from the agent's "
			 "spool (full: at most %zu frames or %zu bytes; ACK sooner)",
			 n ? "; " : "", (unsigned long long)d->sess.spool_unreported,
			 d->sess.spool_max_frames, d->sess.spool_max_bytes);
		d->sess.spool_unreported = 0;
	}
	if (pt->samples_unsplit)
		lst_log_warn("point %u/%u (%s): %llu of %llu samples went without their per-path "
			     "parts (too large with them)",
			     pt->phase, pt->point, pt->name,
			     (unsigned long long)pt->samples_unsplit,
			     (unsigned long long)pt->samples);
	if (dn->reason == LST_DONE_ERROR)
		lst_log_warn("point %u/%u (%s) ended with an error after %llu samples: %s",
			     pt->phase, pt->point, pt->name, (unsigned long long)pt->samples,
			     dn->text);
	else
		lst_log_info("point %u/%u (%s) done (%s): %llu samples%s%s", pt->phase, pt->point,
			     pt->name, lst_msg_done_reason_name(dn->reason),
			     (unsigned long long)pt->samples, dn->text[0] ? ": " : "", dn->text);
	lst_daemon__emit(d, m);
	lst_daemon__point_destroy(d);
	lst_daemon__held_release(d);
	if (d->quitting) {
		d->done_at_exit = true;
		d->quit_now = true;
	}
}

/* Reply STARTED to the pending START (cached under its id). */
static void s_started(lst_daemon *d, int64_t actual)
{
	struct lst_daemon__point *pt = d->pt;
	lst_msg *m = lst_daemon__out(d, LST_MSG_STARTED);

	m->u.started.phase = pt->phase;
	m->u.started.point = pt->point;
	m->u.started.t0 = pt->t0;
	m->u.started.actual = actual;
	pt->started_sent = true;
	lst_log_debug(LST_DBG_TIME, "point %u/%u released at %+.3f ms from t0", pt->phase,
		      pt->point, (double)(actual - pt->t0) / 1e6);
	lst_daemon__reply_ex(d, &pt->peer, pt->start_id, LST_MSG_START, m,
			     d->sess.known && pt->gen == d->sess.gen);
}

static int s_on_start_timer(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__point *pt = d->pt;
	int64_t first, last;
	int rc;

	if (!pt || pt->timer != timer_id)
		return lst_daemon__ret(d);
	pt->timer = -1;
	if (pt->run) {
		lst_run_started(pt->run, &first, &last);
		if (first <= 0 && ++pt->started_tries < 5000) {
			/* A job is not past its start instant yet: look again in 1 ms. */
			pt->timer = zloop_timer(loop, 1, 1, s_on_start_timer, d);
			return lst_daemon__ret(d);
		}
		s_started(d, first > 0 ? first : lst_mono_ns());
		s_collect(d);
		return lst_daemon__ret(d);
	}
	/* A purge: release the worker now (a worker that cannot start ends with its error). */
	rc = lst_purge_start(pt->purge);
	s_started(d, lst_mono_ns());
	if (rc)
		s_point_finish(d);
	return lst_daemon__ret(d);
}

/* Can START m be executed now (the point it names is prepared, t0 within an hour)? If not,
 * its ERROR is sent and false returned. */
static bool s_start_acceptable(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
			       int64_t now)
{
	const struct lst_msg_start *st = &m->u.start;
	struct lst_daemon__point *pt = d->pt;

	if (!pt || pt->phase != st->phase || pt->point != st->point) {
		if (pt)
			lst_daemon__error(d, rid, m->id, m->type, LST_PERR_STATE,
					  "start: point %u/%u is not prepared (prepared: %u/%u %s)",
					  st->phase, st->point, pt->phase, pt->point, pt->name);
		else
			lst_daemon__error(d, rid, m->id, m->type, LST_PERR_STATE,
					  "start: point %u/%u is not prepared (nothing is)",
					  st->phase, st->point);
		return false;
	}
	if (pt->state == LST_DAEMON__PREPARING) {
		lst_daemon__error(
			d, rid, m->id, m->type, LST_PERR_STATE,
			"start: point %u/%u (%s) is still being prepared: send START after its "
			"PREPARED",
			st->phase, st->point, pt->name);
		return false;
	}
	if (pt->state == LST_DAEMON__STARTED) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_STATE,
				  "start: point %u/%u (%s) has already started", st->phase,
				  st->point, pt->name);
		return false;
	}
	/* t0 is any int64 from the wire: compare without subtracting it (that could overflow).
	 * A t0 far behind would also make the jobs close every interval since then, one by one. */
	if (st->t0 > now + S_T0_MAX_AHEAD || st->t0 < now - S_T0_MAX_BEHIND) {
		double off = ((double)st->t0 - (double)now) / 1e9;

		lst_daemon__error(
			d, rid, m->id, m->type, LST_PERR_STATE,
			"start: t0 is %.1f s %s this agent's clock (more than an hour): a clock "
			"mix-up?",
			off > 0 ? off : -off, off > 0 ? "ahead of" : "behind");
		return false;
	}
	return true;
}

void lst_daemon__on_start(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	const struct lst_msg_start *st = &m->u.start;
	struct lst_daemon__point *pt = d->pt;
	int64_t now = lst_mono_ns(), delay;
	lst_err err;

	if (!s_start_acceptable(d, rid, m, now) || !lst_daemon__events_check(d, rid, m))
		return;
	pt->peer = *rid;
	pt->start_id = m->id;
	pt->t0 = st->t0;
	if (pt->run) {
		if (lst_run_start(pt->run, st->t0, &err)) {
			lst_log_warn("start %u/%u (%s) failed: %s", pt->phase, pt->point, pt->name,
				     err.msg);
			lst_daemon__point_destroy(d);
			lst_daemon__error(d, rid, m->id, m->type, LST_PERR_IO, "start: %s",
					  err.msg);
			return;
		}
		pt->item = (zmq_pollitem_t){ .fd = lst_run_eventfd(pt->run), .events = ZMQ_POLLIN };
		zloop_poller(d->loop, &pt->item, s_on_run_event, d);
		pt->polling = true;
	} else {
		pt->purge_item = (zmq_pollitem_t){ .fd = lst_purge_eventfd(pt->purge),
						   .events = ZMQ_POLLIN };
		zloop_poller(d->loop, &pt->purge_item, s_on_purge_event, d);
		pt->purge_polling = true;
	}
	pt->state = LST_DAEMON__STARTED;
	lst_daemon__events_arm(d, st);
	lst_daemon__cache_put(&d->sess, m->id, true, NULL);
	delay = st->t0 > now ? (st->t0 - now + LST_NS_PER_MS - 1) / LST_NS_PER_MS + 1 : 0;
	pt->timer = zloop_timer(d->loop, (size_t)delay, 1, s_on_start_timer, d);
	lst_log_info("start point %u/%u (%s) at t0 %+.3f ms from now", pt->phase, pt->point,
		     pt->name, (double)(st->t0 - now) / 1e6);
}

void lst_daemon__on_stop(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	const struct lst_msg_stop *st = &m->u.stop;
	struct lst_daemon__point *pt = d->pt;
	lst_msg *r;

	if (pt && pt->phase == st->phase && pt->point == st->point) {
		lst_log_info("STOP point %u/%u (%s)", pt->phase, pt->point, pt->name);
		lst_daemon__point_stop(d, LST_DONE_STOPPED, "STOP from the coordinator");
	}
	r = lst_daemon__out(d, LST_MSG_STOPPED);
	r->u.stop.phase = st->phase;
	r->u.stop.point = st->point;
	lst_daemon__reply(d, rid, m->id, m->type, r);
}
