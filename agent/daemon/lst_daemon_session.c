/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sessions: HELLO opens, resumes or takes over the one session (a reconnect within the lease, a
 * resume of a dormant session with the same run id and key) or answers BUSY; the 100 ms tick ends
 * a silent coordinator's lease and stops its I/O; BYE and a new run clear the session.
 */

#include "lst_daemon_int.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lst_log.h"
#include "lst_time.h"
#include "lst_text.h"

#define S_LEASE_MIN LST_NS_PER_S

void lst_daemon__session_clear(lst_daemon *d, uint32_t reason, const char *why)
{
	struct lst_daemon__session *s = &d->sess;

	lst_daemon__point_stop(d, reason, why);
	lst_daemon__held_drop(d);
	lst_daemon__cache_clear(s);
	lst_daemon__spool_clear(s);
	lst_daemon__kmsg_close(s);
	lst_daemon__journal_free(s);
	s->hooks_cap = false;
	s->verify_cap = false;
	s->active = s->known = false;
	s->gen++;
	s->seq = 0;
	s->run[0] = s->coordinator[0] = s->key[0] = '\0';
}

/* The coordinator went silent: stop its I/O now; keep the session dormant for a resume. */
static void s_lease_expire(lst_daemon *d, int64_t now)
{
	struct lst_daemon__session *s = &d->sess;
	char why[LST_TEXT_MAX];

	snprintf(why, sizeof(why), "coordinator %s silent for %.1f s (lease %.1f s)",
		 s->coordinator, (double)(now - s->last_rx) / 1e9, (double)s->lease / 1e9);
	lst_log_warn("%s: stopping I/O%s", why, d->pt ? "" : " (none running)");
	s->active = false;
	lst_daemon__point_stop(d, LST_DONE_LEASE, why);
}

int lst_daemon__on_tick(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;
	int64_t now = lst_mono_ns();

	(void)loop;
	(void)timer_id;
	if (d->sess.active && now - d->sess.last_rx > d->sess.lease)
		s_lease_expire(d, now);
	return lst_daemon__ret(d);
}

static void s_welcome(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *cmd,
		      bool resumed)
{
	lst_msg *m = lst_daemon__out(d, LST_MSG_WELCOME);
	struct lst_msg_welcome *w = &m->u.welcome;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	w->proto = LST_PROTO_VERSION;
	w->ncaps = 0;
	lst_copy(w->name, sizeof(w->name), d->name);
	lst_copy(w->version, sizeof(w->version), LST_VERSION);
	lst_copy(w->host, sizeof(w->host), d->uts.nodename);
	lst_copy(w->kernel, sizeof(w->kernel), d->uts.release);
	w->cores = cores > 0 ? (uint32_t)cores : 1;
	w->engines = d->engines;
	w->now = lst_mono_ns();
	w->instance = d->instance;
	w->resumed = resumed;
	lst_daemon__welcome_hooks(d, &cmd->u.hello, w);
	lst_daemon__welcome_verify(d, &cmd->u.hello, w);
	lst_daemon__reply(d, rid, cmd->id, cmd->type, m);
}

/*
 * May the coordinator behind HELLO m from rid take the agent now? Not when it speaks another
 * protocol version or another coordinator holds the lease (ERROR VERSION or BUSY is sent, false
 * returned). An active session whose lease ran out is expired here first.
 */
static bool s_hello_admit(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
			  int64_t now)
{
	const struct lst_msg_hello *h = &m->u.hello;
	struct lst_daemon__session *s = &d->sess;
	char r[32];

	if (h->proto != LST_PROTO_VERSION) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_VERSION,
				  "protocol version %u is not supported: this agent speaks %d",
				  h->proto, LST_PROTO_VERSION);
		return false;
	}
	if (s->active && !lst_daemon__rid_eq(rid, &s->peer) && now - s->last_rx <= s->lease &&
	    !strcmp(h->run, s->run) && !strcmp(d->rx_key, s->key)) {
		/* The session's coordinator on a new connection (its old one broke, or it went
		 * unreachable for a while): a reconnect. The session goes on, below, on the new
		 * routing id; a run id alone would not do (BUSY names it), the key must match too. */
		lst_log_info("coordinator %s reconnected for run %s from a new connection %s "
			     "within the lease",
			     h->coordinator, h->run, lst_daemon__rid_str(rid, r, sizeof(r)));
	} else if (s->active && !lst_daemon__rid_eq(rid, &s->peer)) {
		if (now - s->last_rx <= s->lease) {
			lst_log_info("refusing coordinator %s (run %s): busy with run %s from %s",
				     h->coordinator, h->run, s->run, s->coordinator);
			if (s->key[0])
				lst_daemon__error(d, rid, m->id, m->type, LST_PERR_BUSY,
						  "busy: run %s from coordinator %s (key '%s')",
						  s->run, s->coordinator, s->key);
			else
				lst_daemon__error(d, rid, m->id, m->type, LST_PERR_BUSY,
						  "busy: run %s from coordinator %s", s->run,
						  s->coordinator);
			return false;
		}
		s_lease_expire(d, now);
	}
	return true;
}

/*
 * Does this HELLO resume the session (the same run id, and the same CURVE key)? A session it
 * does not resume is cleared, stopping its point.
 */
static bool s_hello_resumes(lst_daemon *d, const struct lst_msg_hello *h)
{
	struct lst_daemon__session *s = &d->sess;
	bool resume;

	if (s->active) {
		resume = !strcmp(h->run, s->run);
		if (!resume) {
			char why[LST_TEXT_MAX];

			snprintf(why, sizeof(why), "a new HELLO for run %s replaced run %s", h->run,
				 s->run);
			lst_daemon__session_clear(d, LST_DONE_STOPPED, why);
		}
	} else {
		resume = s->known && !strcmp(h->run, s->run);
		/* Only the key that opened the session may take it over again (its spool and
		 * replies are that coordinator's); the run id alone is no secret: BUSY names it. */
		if (resume && strcmp(d->rx_key, s->key)) {
			lst_log_info("HELLO for run %s with key '%s', but that run's session was "
				     "opened with key '%s': a new session begins",
				     h->run, d->rx_key, s->key);
			resume = false;
		}
		if (!resume && s->known)
			lst_daemon__session_clear(d, LST_DONE_STOPPED, "a new session began");
	}
	return resume;
}

void lst_daemon__on_hello(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
			  int64_t now)
{
	const struct lst_msg_hello *h = &m->u.hello;
	struct lst_daemon__session *s = &d->sess;
	int64_t lease = (int64_t)h->lease_ms * LST_NS_PER_MS;
	bool resume;
	char r[32];

	if (!s_hello_admit(d, rid, m, now))
		return;
	resume = s_hello_resumes(d, h);
	if (!resume) {
		s->gen++;
		s->seq = 0;
		lst_copy(s->run, sizeof(s->run), h->run);
	}
	s->active = s->known = true;
	s->peer = *rid;
	lst_copy(s->coordinator, sizeof(s->coordinator), h->coordinator);
	lst_copy(s->key, sizeof(s->key), d->rx_key);
	if (lease < S_LEASE_MIN)
		lease = S_LEASE_MIN;
	if (lease > d->lease_max)
		lease = d->lease_max;
	s->lease = lease;
	s->last_rx = now;
	if (d->pt && d->pt->gen == s->gen)
		d->pt->peer = *rid; /* the point's STARTED/SAMPLE/DONE follow the new connection */
	lst_log_info("session %s: run %s from coordinator %s (peer %s, lease %.1f s%s%s%s)",
		     resume ? "resumed" : "opened", s->run, s->coordinator,
		     lst_daemon__rid_str(rid, r, sizeof(r)), (double)lease / 1e9,
		     s->key[0] ? ", key '" : "", s->key, s->key[0] ? "'" : "");
	s_welcome(d, rid, m, resume);
	if (resume && s->spool_n) {
		lst_log_info("resending %zu spooled frames", s->spool_n);
		for (size_t i = 0; i < s->spool_n; i++) {
			const struct lst_daemon__frame *f =
				&s->spool[(s->spool_head + i) % s->spool_cap];

			lst_daemon__send_raw(d, rid, f->buf, f->len);
		}
	}
}
