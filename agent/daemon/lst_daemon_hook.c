/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hooks on the agent (capability hooks.v1): START's events, the HOOK command and the
 * KMSG command, all on the reactor, none of them blocking it.
 *
 * A plan can only name what the agent's config defines (hooks, collectors): a START naming
 * anything else is refused before anything runs, a HOOK naming anything else too. Each event of
 * a START becomes an lst_hook_job (agent/daemon/lst_hook) that waits for t0 + after in its own
 * thread and runs the hook then; its eventfd brings the result back here, where it goes out as
 * an EVENT through the point's spool (lst_daemon__emit, like SAMPLE and DONE). When the point's
 * jobs end, the events whose instant has not come are cancelled (their EVENT says "not run");
 * a hook still running is waited for (its timeout bounds it), so that every EVENT precedes DONE,
 * whose `events` counts them.
 *
 * HOOK runs one hook or collector at once, one at a time per agent (a second while one runs is
 * ERROR STATE): its command id holds a pending slot of the reply cache, as START does, so a
 * retry while it runs is not run again, and HOOK_DONE fills the slot.
 *
 * KMSG MARK opens /dev/kmsg and seeks to its end; READ reads the records since then into the
 * session's text (bounded by LST_KMSG_TEXT_MAX, the rest counted as dropped) and answers with
 * all of it, so the mark stays where MARK put it. A log that cannot be read is said in the
 * reply's error; the reply is sent all the same.
 */
#include "lst_daemon_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_KMSG_DEV "/dev/kmsg"
#define S_KMSG_RECORD 8192 /* a read of /dev/kmsg returns one record, at most this long */

/* ---------------------------------------------------------------- names */

/* "a, b, c" (or "none") of n commands, into buf. */
static void s_names(const struct lst_config_cmd *cmds, size_t n, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s%s", i ? ", " : "", cmds[i].name);
	}
	if (!n)
		lst_copy(buf, size, "none");
}

void lst_daemon__welcome_hooks(lst_daemon *d, const struct lst_msg_hello *h,
			       struct lst_msg_welcome *w)
{
	d->sess.hooks_cap = false;
	for (uint32_t i = 0; i < h->ncaps && i < LST_MAX_CAPS; i++)
		if (!strcmp(h->caps[i], LST_CAP_HOOKS))
			d->sess.hooks_cap = true;
	if (w->ncaps < LST_MAX_CAPS)
		lst_copy(w->caps[w->ncaps++], sizeof(w->caps[0]), LST_CAP_HOOKS);
	w->nhooks = (uint32_t)LST_MIN(d->nhooks, LST_MAX_HOOKS);
	for (uint32_t i = 0; i < w->nhooks; i++)
		lst_copy(w->hooks[i], sizeof(w->hooks[i]), d->hooks[i].name);
	w->ncollectors = (uint32_t)LST_MIN(d->ncollectors, LST_MAX_HOOKS);
	for (uint32_t i = 0; i < w->ncollectors; i++)
		lst_copy(w->collectors[i], sizeof(w->collectors[i]), d->collectors[i].name);
}

/* The spec of cmd for a job: timeout, environment. */
static struct lst_hook_spec s_spec(const lst_daemon *d, const struct lst_config_cmd *cmd,
				   enum lst_hook_kind kind, const char *phase, const char *point)
{
	return (struct lst_hook_spec){ .argv = cmd->argv,
				       .kind = kind,
				       .timeout = d->hook_timeout,
				       .name = cmd->name,
				       .phase = phase,
				       .point = point,
				       .agent = d->name };
}

static void s_log_run(const char *what, const char *name, const struct lst_hook_result *r)
{
	if (r->status == 0)
		lst_log_info("%s %s: exit 0 in %.3f s, %u bytes of output", what, name,
			     (double)(r->end - r->start) / 1e9, r->output_len);
	else if (r->start)
		lst_log_warn("%s %s: status %d in %.3f s: %s", what, name, r->status,
			     (double)(r->end - r->start) / 1e9, r->text);
	else
		lst_log_warn("%s %s: %s", what, name, r->text);
}

/* ---------------------------------------------------------------- START's events */

bool lst_daemon__events_check(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	const struct lst_msg_start *st = &m->u.start;
	char names[LST_TEXT_MAX];

	if (!st->nevents)
		return true;
	if (!d->sess.hooks_cap) {
		lst_log_warn("start %u/%u: ignoring %u events: the HELLO did not list %s",
			     st->phase, st->point, st->nevents, LST_CAP_HOOKS);
		return true;
	}
	for (uint32_t i = 0; i < st->nevents && i < LST_MAX_EVENTS; i++) {
		const struct lst_event_req *e = &st->events[i];

		if (e->after < 0) {
			lst_daemon__error(d, rid, m->id, m->type, LST_PERR_REFUSED,
					  "start: event %u (hook %s) is %lld ns before t0: an "
					  "event's after must be >= 0",
					  e->id, e->hook, (long long)e->after);
			return false;
		}
		if (!lst_config_cmd_find(d->hooks, d->nhooks, e->hook)) {
			s_names(d->hooks, d->nhooks, names, sizeof(names));
			lst_daemon__error(d, rid, m->id, m->type, LST_PERR_REFUSED,
					  "start: event %u names hook '%s', which agent %s does "
					  "not define (its hooks: %s)",
					  e->id, e->hook, d->name, names);
			return false;
		}
	}
	return true;
}

/* Send the EVENT of ev (its job finished or never made: r) and count it. */
static void s_event_emit(lst_daemon *d, struct lst_daemon__ev *ev, struct lst_hook_result *r)
{
	struct lst_daemon__point *pt = d->pt;
	lst_msg *m = lst_daemon__out(d, LST_MSG_EVENT);
	struct lst_msg_event *e = &m->u.event;
	char what[LST_NAME_MAX + 64];

	e->phase = pt->phase;
	e->point = pt->point;
	e->id = ev->req.id;
	lst_copy(e->hook, sizeof(e->hook), ev->req.hook);
	e->at = pt->t0 + ev->req.after;
	e->r = *r; /* its output is borrowed for the encoding only */
	snprintf(what, sizeof(what), "point %u/%u event %u: hook", pt->phase, pt->point,
		 ev->req.id);
	s_log_run(what, ev->req.hook, r);
	if (r->start)
		lst_log_debug(LST_DBG_TIME, "hook %s started %+.3f ms from its instant",
			      ev->req.hook, (double)(r->start - e->at) / 1e6);
	lst_daemon__emit(d, m);
	e->r.output = NULL;
	e->r.output_len = 0;
	ev->sent = true;
	pt->events_sent++;
}

/* An event's eventfd: send the EVENT of every finished event; DONE once all are out. */
static int s_on_event(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__point *pt = d->pt;
	uint64_t junk;

	(void)loop;
	while (read(item->fd, &junk, sizeof(junk)) > 0)
		;
	if (!pt)
		return lst_daemon__ret(d);
	for (size_t i = 0; i < pt->nev; i++) {
		struct lst_daemon__ev *ev = &pt->ev[i];

		if (ev->sent || !ev->job || !lst_hook_job_finished(ev->job))
			continue;
		s_event_emit(d, ev, lst_hook_job_result(ev->job));
		if (ev->polling)
			zloop_poller_end(d->loop, &ev->item);
		ev->polling = false;
		lst_hook_job_release(&ev->job);
	}
	if (pt->ending)
		pt->finish(d);
	return lst_daemon__ret(d);
}

void lst_daemon__events_arm(lst_daemon *d, const struct lst_msg_start *st)
{
	struct lst_daemon__point *pt = d->pt;
	char phase[16], point[16];

	if (!st->nevents || !d->sess.hooks_cap)
		return;
	snprintf(phase, sizeof(phase), "%u", pt->phase);
	snprintf(point, sizeof(point), "%u", pt->point);
	pt->nev = LST_MIN(st->nevents, LST_MAX_EVENTS);
	pt->ev = lst_calloc(pt->nev, sizeof(*pt->ev));
	for (size_t i = 0; i < pt->nev; i++) {
		struct lst_daemon__ev *ev = &pt->ev[i];
		const struct lst_config_cmd *cmd =
			lst_config_cmd_find(d->hooks, d->nhooks, st->events[i].hook);
		struct lst_hook_spec spec = s_spec(d, cmd, LST_HOOK_HOOK, phase, point);
		lst_err err;

		ev->req = st->events[i];
		ev->job = lst_hook_job_new(&spec, st->t0 + ev->req.after, &err);
		if (!ev->job) {
			struct lst_hook_result r = { .status = -1 };

			snprintf(r.text, sizeof(r.text), "not run: %s", err.msg);
			s_event_emit(d, ev, &r);
			continue;
		}
		ev->item = (zmq_pollitem_t){ .fd = lst_hook_job_eventfd(ev->job),
					     .events = ZMQ_POLLIN };
		zloop_poller(d->loop, &ev->item, s_on_event, d);
		ev->polling = true;
	}
	lst_log_info("point %u/%u: %zu events armed", pt->phase, pt->point, pt->nev);
}

bool lst_daemon__events_pending(lst_daemon *d)
{
	struct lst_daemon__point *pt = d->pt;

	if (!pt->nev)
		return false;
	if (!pt->ending) {
		pt->ending = true;
		pt->end_at = lst_mono_ns();
		for (size_t i = 0; i < pt->nev; i++) {
			char why[LST_TEXT_MAX];

			if (!pt->ev[i].job)
				continue;
			snprintf(why, sizeof(why),
				 "the point ended at t0%+.3f s%s%s, before the event's instant "
				 "t0+%.3f s",
				 (double)(pt->end_at - pt->t0) / 1e9,
				 pt->stop_requested ? ": " : "",
				 pt->stop_requested ? pt->stop_text : "",
				 (double)pt->ev[i].req.after / 1e9);
			lst_hook_job_cancel(pt->ev[i].job, why);
		}
	}
	for (size_t i = 0; i < pt->nev; i++)
		if (!pt->ev[i].sent)
			return true;
	return false;
}

void lst_daemon__events_free(lst_daemon *d, struct lst_daemon__point *pt)
{
	for (size_t i = 0; i < pt->nev; i++) {
		if (pt->ev[i].polling)
			zloop_poller_end(d->loop, &pt->ev[i].item);
		lst_hook_job_release(&pt->ev[i].job);
	}
	free(pt->ev);
	pt->ev = NULL;
	pt->nev = 0;
}

/* ---------------------------------------------------------------- HOOK */

static void s_hookcmd_free(lst_daemon *d)
{
	struct lst_daemon__hookcmd *hc = d->hc;

	if (!hc)
		return;
	zloop_poller_end(d->loop, &hc->item);
	lst_hook_job_release(&hc->job);
	free(hc);
	d->hc = NULL;
}

static int s_on_hook_done(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__hookcmd *hc = d->hc;
	struct lst_hook_result *r;
	lst_msg *m;
	uint64_t junk;

	(void)loop;
	while (read(item->fd, &junk, sizeof(junk)) > 0)
		;
	if (!hc || !lst_hook_job_finished(hc->job))
		return lst_daemon__ret(d);
	r = lst_hook_job_result(hc->job);
	s_log_run(hc->kind == LST_HOOK_COLLECTOR ? "collector" : "hook", hc->name, r);
	m = lst_daemon__out(d, LST_MSG_HOOK_DONE);
	m->u.hook_done.kind = hc->kind;
	lst_copy(m->u.hook_done.name, sizeof(m->u.hook_done.name), hc->name);
	m->u.hook_done.r = *r; /* output borrowed for the encoding only */
	lst_daemon__reply_ex(d, &hc->peer, hc->id, LST_MSG_HOOK, m,
			     d->sess.known && hc->gen == d->sess.gen);
	m->u.hook_done.r.output = NULL;
	m->u.hook_done.r.output_len = 0;
	s_hookcmd_free(d);
	return lst_daemon__ret(d);
}

void lst_daemon__on_hook(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	const struct lst_msg_hook *h = &m->u.hook;
	bool coll = h->kind == LST_HOOK_COLLECTOR;
	const struct lst_config_cmd *cmds = coll ? d->collectors : d->hooks;
	size_t n = coll ? d->ncollectors : d->nhooks;
	const struct lst_config_cmd *cmd = lst_config_cmd_find(cmds, n, h->name);
	struct lst_daemon__hookcmd *hc;
	struct lst_hook_spec spec;
	char names[LST_TEXT_MAX], phase[16];
	lst_err err;

	if (h->kind != LST_HOOK_HOOK && !coll) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE,
				  "hook: kind %u is neither a hook (0) nor a collector (1)",
				  h->kind);
		return;
	}
	if (!cmd) {
		s_names(cmds, n, names, sizeof(names));
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_REFUSED,
				  "hook: agent %s defines no %s '%s' (its %s: %s)", d->name,
				  coll ? "collector" : "hook", h->name,
				  coll ? "collectors" : "hooks", names);
		return;
	}
	if (d->hc) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_STATE,
				  "hook: %s '%s' is still running: one HOOK at a time",
				  d->hc->kind == LST_HOOK_COLLECTOR ? "collector" : "hook",
				  d->hc->name);
		return;
	}
	snprintf(phase, sizeof(phase), "%u", h->phase);
	spec = s_spec(d, cmd, coll ? LST_HOOK_COLLECTOR : LST_HOOK_HOOK, phase, "");
	hc = lst_calloc(1, sizeof(*hc));
	hc->job = lst_hook_job_new(&spec, 0, &err);
	if (!hc->job) {
		free(hc);
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_INTERNAL, "hook %s: %s", h->name,
				  err.msg);
		return;
	}
	hc->peer = *rid;
	hc->id = m->id;
	hc->gen = d->sess.gen;
	hc->kind = h->kind;
	hc->phase = h->phase;
	lst_copy(hc->name, sizeof(hc->name), h->name);
	hc->item = (zmq_pollitem_t){ .fd = lst_hook_job_eventfd(hc->job), .events = ZMQ_POLLIN };
	zloop_poller(d->loop, &hc->item, s_on_hook_done, d);
	d->hc = hc;
	lst_daemon__cache_put(&d->sess, m->id, true, NULL);
	lst_log_info("%s %s for phase %u: started", coll ? "collector" : "hook", h->name, h->phase);
}

void lst_daemon__hook_destroy(lst_daemon *d)
{
	s_hookcmd_free(d);
}

/* ---------------------------------------------------------------- KMSG */

void lst_daemon__kmsg_close(struct lst_daemon__session *s)
{
	if (s->kmsg_fd >= 0)
		close(s->kmsg_fd);
	s->kmsg_fd = -1;
	free(s->kmsg_text);
	s->kmsg_text = NULL;
	s->kmsg_len = 0;
	s->kmsg_dropped = 0;
	s->kmsg_error[0] = '\0';
}

static void s_kmsg_mark(struct lst_daemon__session *s)
{
	lst_daemon__kmsg_close(s);
	s->kmsg_text = lst_malloc(LST_KMSG_TEXT_MAX + 1);
	s->kmsg_fd = open(S_KMSG_DEV, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->kmsg_fd < 0) {
		snprintf(s->kmsg_error, sizeof(s->kmsg_error), "%s: %s", S_KMSG_DEV,
			 strerror(errno));
		return;
	}
	if (lseek(s->kmsg_fd, 0, SEEK_END) < 0) {
		snprintf(s->kmsg_error, sizeof(s->kmsg_error), "%s: seek to the end: %s",
			 S_KMSG_DEV, strerror(errno));
		close(s->kmsg_fd);
		s->kmsg_fd = -1;
	}
}

/* The message of a record "PRI,SEQ,TS_US,FLAGS[,...];TEXT\n[ KEY=VALUE\n...]" with \xNN
 * undone, as "[sec.usec] text\n" into out. Returns its length, 0 for a malformed record. */
static size_t s_kmsg_format(const char *rec, size_t len, char *out, size_t size)
{
	unsigned long long ts;
	const char *semi = memchr(rec, ';', len), *p, *end;
	size_t n;
	int k;

	if (!semi || sscanf(rec, "%*u,%*u,%llu", &ts) != 1)
		return 0;
	end = memchr(semi, '\n', (size_t)(rec + len - semi));
	if (!end)
		end = rec + len;
	k = snprintf(out, size, "[%5llu.%06llu] ", ts / 1000000, ts % 1000000);
	n = (size_t)k;
	for (p = semi + 1; p < end && n + 2 < size; p++) {
		unsigned v;

		if (p[0] == '\\' && end - p >= 4 && p[1] == 'x' && sscanf(p + 2, "%2x", &v) == 1) {
			out[n++] = v >= 0x20 || v == '\t' ? (char)v : ' ';
			p += 3;
			continue;
		}
		out[n++] = *p;
	}
	out[n++] = '\n';
	out[n] = '\0';
	return n;
}

/* Read every record since the last read into the session's text. */
static void s_kmsg_read(struct lst_daemon__session *s)
{
	char rec[S_KMSG_RECORD], line[S_KMSG_RECORD + 32];

	for (;;) {
		ssize_t n = read(s->kmsg_fd, rec, sizeof(rec) - 1);
		size_t len;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			s->kmsg_dropped++; /* overwritten before we read them: go on */
			continue;
		}
		if (n < 0 && errno != EAGAIN)
			snprintf(s->kmsg_error, sizeof(s->kmsg_error), "%s: read: %s", S_KMSG_DEV,
				 strerror(errno));
		if (n <= 0)
			return;
		rec[n] = '\0';
		len = s_kmsg_format(rec, (size_t)n, line, sizeof(line));
		if (!len)
			continue;
		if (s->kmsg_len + len > LST_KMSG_TEXT_MAX) {
			s->kmsg_dropped++;
			continue;
		}
		memcpy(s->kmsg_text + s->kmsg_len, line, len);
		s->kmsg_len += len;
		s->kmsg_text[s->kmsg_len] = '\0';
	}
}

void lst_daemon__on_kmsg(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	struct lst_daemon__session *s = &d->sess;
	lst_msg *r;
	struct lst_msg_kmsg_reply *k;

	if (m->u.kmsg.op == LST_KMSG_MARK) {
		s_kmsg_mark(s);
	} else if (m->u.kmsg.op == LST_KMSG_READ) {
		if (s->kmsg_fd >= 0)
			s_kmsg_read(s);
		else if (!s->kmsg_text)
			lst_copy(s->kmsg_error, sizeof(s->kmsg_error),
				 "no KMSG MARK in this session: nothing to read");
	} else {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE,
				  "kmsg: op %u is neither MARK (0) nor READ (1)", m->u.kmsg.op);
		return;
	}
	if (s->kmsg_error[0])
		lst_log_warn("kmsg %s: %s", m->u.kmsg.op == LST_KMSG_MARK ? "mark" : "read",
			     s->kmsg_error);
	r = lst_daemon__out(d, LST_MSG_KMSG_REPLY);
	k = &r->u.kmsg_reply;
	k->op = m->u.kmsg.op;
	k->dropped = s->kmsg_dropped;
	lst_copy(k->error, sizeof(k->error), s->kmsg_error);
	if (k->op == LST_KMSG_READ && s->kmsg_len) {
		k->text = s->kmsg_text; /* borrowed for the encoding only */
		k->text_len = (uint32_t)s->kmsg_len;
	}
	lst_daemon__reply(d, rid, m->id, m->type, r);
	k->text = NULL;
	k->text_len = 0;
}
