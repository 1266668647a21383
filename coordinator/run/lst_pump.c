/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The session with every agent: sending commands and remembering which reply to wait for,
 * pumping (wait on every connection at once and dispatch what arrives), liveness (PINGs, clock
 * bursts, reconnects, silence that makes an agent unreachable and then lost) and the conditions
 * the scheduler waits for. The connection's state (lst_conn) says whether an agent is lost.
 * The pump names no feature: what a spooled message (SAMPLE, DONE, EVENT, INTEGRITY) means is
 * for the handler the point or a feature registered for its type (lst_coord__pump_on), an
 * agent's loss reaches the point through its end handler (lst_coord__pump_on_end), and the
 * record and the metrics endpoint hear of clock exchanges, wake-ups and their own sockets
 * through theirs (lst_coord__pump_on_clock, _on_wake, _poll).
 */
#include <errno.h>

#include "lst_assert.h"
#include "lst_conn_set.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_session_int.h"

static void s_refused(lst_coord *c, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void s_drain(lst_coord *c, size_t i);

/* The pump's own state: its wait, its scratch messages and the handler table that the point,
 * the record and the metrics fill. */
struct lst_coord__pump {
	lst_conn_set *set;  /* every agent's connection, for the wait */
	lst_msg *rx;	    /* the receive scratch (lst_conn_recv_into), reused for every message */
	lst_msg *ack;	    /* the ACK sent for every spooled message, reused */
	int64_t last_watch; /* the liveness checks last ran (lst_coord__pump) */
	int64_t pump_left;  /* the last pump returned: how long we did not listen since */
	/* the handler table, filled by the point and its features (lst_coord__pump_on) */
	lst_coord__rx_fn on_rx[LST_MSG_TYPE_END];
	lst_coord__end_fn on_end;
	lst_coord__end_work_fn end_work;
	lst_coord__clock_fn on_clock;
	lst_coord__wake_fn on_wake;
	lst_coord__fds_fn poll_fds;
	lst_coord__serve_fn poll_serve;
	const uint8_t *rx_raw; /* the frame being dispatched */
	size_t rx_rawlen;
};

/* The session's record of agent i, and the pump's state. */
static struct lst_coord__agent *s_agent(const lst_coord *c, size_t i)
{
	return &lst_coord__session(c)->a[i];
}

static struct lst_coord__pump *s_pump(const lst_coord *c)
{
	return lst_coord__session(c)->pump;
}

void lst_coord__pump_new(struct lst_coord__session *s)
{
	struct lst_coord__pump *p = lst_calloc(1, sizeof(*p));

	p->rx = lst_msg_new(LST_MSG_BYE);
	p->ack = lst_msg_new(LST_MSG_ACK);
	s->pump = p;
}

void lst_coord__pump_destroy(struct lst_coord__session *s)
{
	struct lst_coord__pump *p = s->pump;

	if (!p)
		return;
	lst_conn_set_destroy(&p->set);
	lst_msg_destroy(&p->rx);
	lst_msg_destroy(&p->ack);
	free(p);
	s->pump = NULL;
}

int lst_coord__pump_watch(lst_coord *c, size_t i, lst_err *err)
{
	struct lst_coord__session *s = lst_coord__session(c);

	if (!s->pump->set && !(s->pump->set = lst_conn_set_new(s->n, err)))
		return -EMFILE;
	return lst_conn_set_add(s->pump->set, i, s->a[i].conn, err);
}

/* Commands to several agents at once (HOOK, KMSG, JOURNAL): each asked is "in the point" for
 * the wait, as lst_coord__ask's. */
void lst_coord__round(lst_coord *c, lst_msg **msgs, lst_msg **replies, int64_t wait)
{
	struct lst_coord__session *s = lst_coord__session(c);

	for (size_t i = 0; i < lst_coord__n(c); i++) {
		replies[i] = NULL;
		s->a[i].st.in_point = msgs[i] && lst_coord__usable(&s->a[i]);
		if (s->a[i].st.in_point)
			lst_coord__command(c, i, &msgs[i]);
		lst_msg_destroy(&msgs[i]);
	}
	lst_coord__pump_until(c, lst_coord__all_replied, wait);
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__agent *a = &s->a[i];

		if (a->st.in_point && a->replied && a->reply)
			replies[i] = lst_msg_dup(a->reply);
		a->st.in_point = false;
	}
}

/* An agent asked is "in the point" for the pump's wait (lst_coord__all_replied). */
void lst_coord__ask(lst_coord *c, size_t i, lst_msg **m)
{
	s_agent(c, i)->st.in_point = true;
	lst_coord__command(c, i, m);
}

const lst_msg *lst_coord__take(lst_coord *c, size_t i)
{
	struct lst_coord__agent *a = s_agent(c, i);

	a->st.in_point = false;
	if (!lst_coord__usable(a) || !a->replied)
		return NULL;
	return a->reply;
}

void lst_coord__pump_on(lst_coord *c, uint32_t type, lst_coord__rx_fn fn)
{
	LST_ASSERT(type < LST_MSG_TYPE_END);
	s_pump(c)->on_rx[type] = fn;
}

void lst_coord__pump_on_end(lst_coord *c, lst_coord__end_fn ended, lst_coord__end_work_fn busy)
{
	struct lst_coord__session *s = lst_coord__session(c);
	s->pump->on_end = ended;
	s->pump->end_work = busy;
}

void lst_coord__pump_on_clock(lst_coord *c, lst_coord__clock_fn fn)
{
	s_pump(c)->on_clock = fn;
}

void lst_coord__pump_on_wake(lst_coord *c, lst_coord__wake_fn fn)
{
	s_pump(c)->on_wake = fn;
}

void lst_coord__pump_poll(lst_coord *c, lst_coord__fds_fn fds, lst_coord__serve_fn serve)
{
	struct lst_coord__session *s = lst_coord__session(c);
	s->pump->poll_fds = fds;
	s->pump->poll_serve = serve;
}

void lst_coord__pump_frame(const lst_coord *c, const uint8_t **raw, size_t *rawlen)
{
	struct lst_coord__session *s = lst_coord__session(c);

	*raw = s->pump->rx_raw;
	*rawlen = s->pump->rx_rawlen;
}

/* Agent i sends nothing more for the current point: whoever merges it stops waiting. */
static void s_ended(lst_coord *c, size_t i)
{
	struct lst_coord__session *s = lst_coord__session(c);

	if (s->pump->on_end)
		s->pump->on_end(c, i);
}

/*
 * Tell a lost agent to stop what it runs and to end its session: STOP for the point, then BYE.
 * Either may never arrive (that is why it is lost); its lease stops it then.
 */
static void s_stop_lost(lst_coord *c, size_t i)
{
	struct lst_coord__agent *a = s_agent(c, i);
	lst_msg *m = lst_msg_new(LST_MSG_STOP);
	lst_err err;

	m->u.stop.phase = (uint32_t)lst_coord__where(c)->phase;
	m->u.stop.point = (uint32_t)lst_coord__where(c)->point;
	if (lst_conn_send(a->conn, m, true, NULL, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	lst_msg_destroy(&m);
	lst_coord__send_simple(c, i, LST_MSG_BYE);
}

/*
 * An agent just lost (its connection says so): the merge stops waiting for it in the current
 * point. The line reads "agent NAME" + how + why. Before the phases run (connecting, the
 * up-front check), or refused for good, a loss is the run's error; during them the plan's
 * on_agent_loss decides what it means (lst_coord__loss_policy), and it is a warning here.
 */
static void s_drop(lst_coord *c, size_t i, const char *how, const char *fmt, va_list ap)
{
	struct lst_coord__agent *a = s_agent(c, i);
	bool in_point = lst_coord__in_point(c) && a->st.in_point;

	vsnprintf(a->lost_why, sizeof(a->lost_why), fmt, ap);
	if (in_point) {
		size_t n = strlen(a->lost_why);

		snprintf(a->lost_why + n, sizeof(a->lost_why) - n,
			 "; during phase %s point %zu, after %llu samples",
			 lst_coord__where(c)->phase_name, lst_coord__where(c)->point,
			 (unsigned long long)a->st.samples);
	}
	a->ever_lost = true;
	a->unreachable = false;
	lst_msg_destroy(&a->cmd);
	if (in_point) {
		a->st.point_lost = true;
		if (!a->st.done) {
			a->st.done = true;
			a->st.done_msg.reason = LST_DONE_ERROR;
			snprintf(a->st.done_msg.text, sizeof(a->st.done_msg.text), "lost");
			s_ended(c, i);
		}
	}
	if (!lst_coord__running(c) || lst_conn_state(a->conn) == LST_CONN_REFUSED) {
		lst_coord__error(c, "agent %s%s: %s", lst_conn_name(a->conn), how, a->lost_why);
		return;
	}
	lst_coord__progress_break(c);
	lst_log_warn("agent %s%s: %s", lst_conn_name(a->conn), how, a->lost_why);
}

void lst_coord__lose(lst_coord *c, size_t i, const char *fmt, ...)
{
	va_list ap;

	if (!lst_conn_lose(s_agent(c, i)->conn)) /* out already */
		return;
	va_start(ap, fmt);
	s_drop(c, i, " lost", fmt, ap);
	va_end(ap);
}

/* The connection can never work (a handshake refused): the agent is out for good. */
static void s_refused(lst_coord *c, size_t i, const char *fmt, ...)
{
	struct lst_coord__session *s = lst_coord__session(c);
	bool out = lst_conn_lost(s->a[i].conn);
	va_list ap;

	lst_conn_refuse(s->a[i].conn);
	if (out) /* lost already: now for good, said before */
		return;
	va_start(ap, fmt);
	s_drop(c, i, "", fmt, ap);
	va_end(ap);
}

/* Send a command to agent i and remember which reply to wait for. Takes m. */
int lst_coord__command(lst_coord *c, size_t i, lst_msg **m)
{
	struct lst_coord__agent *a = s_agent(c, i);
	lst_err err;
	int rc;

	lst_msg_destroy(&a->reply);
	lst_msg_destroy(&a->cmd);
	a->replied = false;
	rc = lst_conn_send(a->conn, *m, true, &a->await_id, &err);
	a->cmd = *m; /* kept: a reconnect sends it again with the same id */
	*m = NULL;
	if (rc && lst_conn_failure(a->conn))
		s_refused(c, i, "%s", err.msg);
	else if (rc)
		lst_coord__lose(c, i, "%s", err.msg);
	return rc;
}

void lst_coord__send_simple(lst_coord *c, size_t i, uint32_t type)
{
	lst_msg *m = lst_msg_new(type);
	lst_err err;

	if (type == LST_MSG_PING)
		m->u.ping.now = lst_mono_ns();
	if (lst_conn_send(s_agent(c, i)->conn, m, false, NULL, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	lst_msg_destroy(&m);
}

void lst_coord__bye(lst_coord *c)
{
	/*
	 * Lost agents too: one lost because it did not answer in time may still hold our session,
	 * and would refuse the next run as busy until its lease ran out. An agent that is not in
	 * our session ignores the BYE.
	 */
	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (lst_conn_joined(lst_coord__conn(c, i)))
			lst_coord__send_simple(c, i, LST_MSG_BYE);
	/*
	 * Let the frames leave before the sockets close (linger is 0), and say no HELLO again
	 * meanwhile: one would open a new session after the BYE, which the agent keeps, with its
	 * reply cache, until its lease runs out (a resume's next coordinator would resume that
	 * session and get its cached replies to its own command ids).
	 */
	lst_coord__session(c)->closing = true;
	lst_coord__pump(c, 50 * LST_NS_PER_MS);
}

/* HELLO for this run: the first one, and the one that resumes the session on a reconnect. */
lst_msg *lst_coord__hello_msg(const lst_coord *c)
{
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);

	m->u.hello.proto = LST_PROTO_VERSION;
	m->u.hello.ncaps = 3;
	snprintf(m->u.hello.caps[0], sizeof(m->u.hello.caps[0]), "samples.v1");
	snprintf(m->u.hello.caps[1], sizeof(m->u.hello.caps[1]), "%s", LST_CAP_HOOKS);
	snprintf(m->u.hello.caps[2], sizeof(m->u.hello.caps[2]), "%s", LST_CAP_VERIFY);
	snprintf(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "%s", lst_coord__host(c));
	snprintf(m->u.hello.run, sizeof(m->u.hello.run), "%s", lst_coord__run_id(c));
	m->u.hello.lease_ms = (uint32_t)(lst_coord__session(c)->lease / LST_NS_PER_MS);
	return m;
}

/*
 * Say HELLO again on a new connection (or to a lost agent, now and then): the agent resumes the
 * session and sends its spool again. Not a command in the lst_coord__command sense: the command
 * awaited (PREPARE, START, ...) stays awaited and is sent again once the WELCOME is in.
 */
static void s_rehello(lst_coord *c, size_t i, int64_t now)
{
	struct lst_coord__agent *a = s_agent(c, i);
	lst_msg *m;
	lst_err err;

	if (lst_coord__session(c)
		    ->closing) /* BYE said: a HELLO now would open a session nobody ends */
		return;
	m = lst_coord__hello_msg(c);
	a->hello_on = lst_conn_handshakes(a->conn);
	a->hello_at = now;
	if (lst_conn_send(a->conn, m, true, &a->hello_id, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	else
		lst_log_debug(LST_DBG_NET, "agent %s: HELLO again (connection %u)",
			      lst_conn_name(a->conn), a->hello_on);
	lst_msg_destroy(&m);
}

/*
 * The WELCOME to a reconnect HELLO. The same process with our session kept: it re-sends its
 * spool, and the command awaited goes again (its reply cache answers a repeat). Another process
 * (a restart), or our session gone (BYE, another coordinator in between): whatever it ran for
 * us is gone, so it is lost for the current point; either way it can serve the next one.
 */
static void s_on_rewelcome(lst_coord *c, size_t i, const struct lst_msg_welcome *w)
{
	struct lst_coord__agent *a = s_agent(c, i);
	bool restarted = a->instance && w->instance && w->instance != a->instance;
	bool fresh = restarted || (w->instance && !w->resumed);
	lst_err err;

	a->hello_id = 0;
	a->welcomed_on = lst_conn_handshakes(a->conn);
	lst_conn_welcome(a->conn, w);
	if (w->instance)
		a->instance = w->instance;
	if (fresh) {
		a->seen_seq = 0; /* a new session numbers its messages from 1 */
		if (lst_coord__in_point(c) && a->st.in_point && !a->st.done)
			lst_coord__lose(c, i, "%s",
					restarted ? "it restarted (another agent process answered)"
						  : "it no longer had our session");
		lst_msg_destroy(&a->cmd);
	}
	if (lst_conn_back(a->conn)) {
		lst_log_info("agent %s is back (%s)", lst_conn_name(a->conn),
			     restarted ? "a new process"
			     : fresh   ? "a new session"
				       : "its session resumed");
	} else if (a->unreachable) {
		lst_log_info("agent %s is reachable again; its session resumed",
			     lst_conn_name(a->conn));
	}
	a->unreachable = false;
	if (a->cmd && !a->replied &&
	    lst_conn_send(a->conn, a->cmd, true, NULL, &err)) /* keeps its id */
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	/* A new process may run on another clock; a resumed one has drifted meanwhile. */
	if (!lst_conn_syncing(a->conn) && lst_conn_sync_begin(a->conn, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
}

/* The seq of a SAMPLE or DONE is new (not a copy from a re-sent spool); ACKed either way, once
 * per wake-up (s_ack). */
static bool s_fresh(lst_coord *c, size_t i, const lst_msg *m)
{
	struct lst_coord__agent *a = s_agent(c, i);

	a->ack_due = true;
	if (m->seq <= a->seen_seq)
		return false;
	a->seen_seq = m->seq;
	return true;
}

/* The answer to a reconnect HELLO: WELCOME resumes the session, ERROR refuses it. */
static void s_on_hello_reply(lst_coord *c, size_t i, const lst_msg *m)
{
	struct lst_coord__agent *a = s_agent(c, i);

	if (m->type == LST_MSG_WELCOME)
		s_on_rewelcome(c, i, &m->u.welcome);
	else if (m->type == LST_MSG_ERROR) {
		a->hello_id = 0;
		if (lst_coord__in_point(c) && a->st.in_point && !a->st.done)
			lst_coord__lose(c, i, "it refused our HELLO on a new connection: %s",
					m->u.error.text);
		else
			lst_log_warn("agent %s refused our HELLO on a new connection: %s",
				     lst_conn_name(a->conn), m->u.error.text);
	}
}

/*
 * An ERROR from agent i: no session on this connection (say HELLO again), a refused START (no
 * DONE will come), or an error out of turn (logged). True when it answers the command awaited,
 * which the caller takes as its reply.
 */
static bool s_on_error(lst_coord *c, size_t i, const lst_msg *m, int64_t t_recv)
{
	struct lst_coord__agent *a = s_agent(c, i);

	if (m->u.error.code == LST_PERR_NO_SESSION) {
		/* It does not know us on this connection: a reconnect whose HELLO has not
		 * arrived yet, or a new process. The WELCOME to a HELLO tells which. */
		if (lst_conn_joined(a->conn) &&
		    (!a->hello_id || t_recv - a->hello_at > LST_NS_PER_S))
			s_rehello(c, i, t_recv);
		return false;
	}
	if (lst_coord__in_point(c) && a->st.in_point && !a->st.done && m->re &&
	    m->re == a->st.start_id) {
		/* A refused START: its jobs never ran and it sends no DONE. */
		a->st.done = true;
		a->st.done_msg.reason = LST_DONE_ERROR;
		snprintf(a->st.done_msg.text, sizeof(a->st.done_msg.text), "%s", m->u.error.text);
		s_ended(c, i);
		lst_coord__error(c, "agent %s could not start phase %s point %zu: %s",
				 lst_conn_name(a->conn), lst_coord__where(c)->phase_name,
				 lst_coord__where(c)->point, m->u.error.text);
		return false;
	}
	if (!m->re || m->re != a->await_id) {
		lst_log_warn("agent %s: error: %s", lst_conn_name(a->conn), m->u.error.text);
		return false;
	}
	return true;
}

/*
 * A message whose seq jumps far beyond the highest one agent i sent before: more than an agent
 * can number in a lease at the shortest interval, with margin, so no reconnect explains it
 * (a reconnect's WELCOME re-bases the count: s_dispatch). Taken, it would make every later
 * message look like an old copy (s_fresh) and ACK what never arrived; so it is a protocol
 * error: the agent is lost (its next session starts afresh) and the plan's on_agent_loss
 * judges the point.
 */
static bool s_seq_jumps(lst_coord *c, size_t i, const lst_msg *m)
{
	struct lst_coord__agent *a = s_agent(c, i);
	uint64_t slack = (uint64_t)(lst_coord__session(c)->lease / (10 * LST_NS_PER_MS)) * 2 + 4096;
	uint64_t top = a->top_seq;

	if (!top || m->seq <= top + slack) {
		a->top_seq = LST_MAX(top, m->seq);
		return false;
	}
	if (lst_conn_lost(a->conn))
		return true;
	lst_coord__lose(c, i,
			"protocol error: %s seq %llu jumps %llu past the highest before it (%llu); "
			"at most %llu can be missed",
			lst_msg_type_name(m->type), (unsigned long long)m->seq,
			(unsigned long long)(m->seq - top), (unsigned long long)top,
			(unsigned long long)slack);
	s_stop_lost(c, i);
	return true;
}

static void s_dispatch(lst_coord *c, size_t i, lst_msg *m, const uint8_t *raw, size_t rawlen,
		       int64_t t_recv)
{
	struct lst_coord__agent *a = s_agent(c, i);
	lst_err err;

	if (m->re && m->re == a->hello_id) {
		a->top_seq = m->seq; /* a reconnect's answer re-bases the count */
		s_on_hello_reply(c, i, m);
		return;
	}
	if (s_seq_jumps(c, i, m))
		return;
	if (a->unreachable && !lst_conn_lost(a->conn)) {
		a->unreachable = false;
		lst_log_info("agent %s is reachable again", lst_conn_name(a->conn));
	}
	switch (m->type) {
	case LST_MSG_SYNC_REPLY: {
		int rc = lst_conn_sync_reply(a->conn, &m->u.sync_reply, t_recv, &err);

		/* Every exchange, as it came, so the run can be re-aligned later (clock.csv). */
		if (s_pump(c)->on_clock)
			s_pump(c)->on_clock(c, i, &m->u.sync_reply, t_recv);
		if (rc < 0)
			s_refused(c, i, "%s", err.msg);
		return;
	}
	case LST_MSG_SAMPLE:
	case LST_MSG_DONE:
	case LST_MSG_EVENT:
	case LST_MSG_INTEGRITY:
		/* spooled: ACKed, and handled once however often it is re-sent */
		if (s_fresh(c, i, m) && s_pump(c)->on_rx[m->type]) {
			s_pump(c)->rx_raw = raw;
			s_pump(c)->rx_rawlen = rawlen;
			s_pump(c)->on_rx[m->type](c, i, m);
			s_pump(c)->rx_raw = NULL;
			s_pump(c)->rx_rawlen = 0;
		}
		return;
	case LST_MSG_PREPARED:
		/* What the agent sends from now on is this point's (or later). */
		if (lst_coord__in_point(c) && a->st.in_point && m->re == a->await_id)
			a->st.min_seq = m->seq;
		break; /* also a reply */
	case LST_MSG_STARTED:
		if (lst_coord__in_point(c) && m->u.started.phase == lst_coord__where(c)->phase &&
		    m->u.started.point == lst_coord__where(c)->point) {
			a->st.started = true;
			a->st.actual = m->u.started.actual;
		}
		break; /* also a reply */
	case LST_MSG_PONG:
		return;
	case LST_MSG_ERROR:
		if (!s_on_error(c, i, m, t_recv))
			return;
		break;
	default:
		break;
	}
	if (m->re && m->re == a->await_id && !a->replied) {
		a->replied = true;
		lst_msg_destroy(&a->cmd);
		lst_msg_destroy(&a->reply);
		a->reply = lst_msg_dup(m); /* deep: a SAMPLE's parts are the message's own */
	}
}

/*
 * Agent i runs the point and has not moved it on for longer than the lease: no sample merged
 * since its START (or its last one) and no DONE, while it is not silent (silence has its own
 * rule). Its DONE was lost on the way, or it is stuck: without this bound the point would wait
 * for it for ever. Work an agent does after its last sample and before its DONE (a hook of
 * the point still running, a trace being written: the point's end_work handler) gets
 * LST_COORD__END_WORK_MAX more; a purge
 * sends no samples at all, and is judged by silence only.
 */
static bool s_overdue(const lst_coord *c, size_t i, int64_t now)
{
	struct lst_coord__session *s = lst_coord__session(c);
	const struct lst_coord__agent *a = &s->a[i];
	int64_t bound = s->lost_after;

	if (!lst_coord__in_point(c) || !lst_coord__where(c)->io || !a->st.in_point || a->st.done ||
	    !a->st.progress_at)
		return false;
	if (s->pump->end_work && s->pump->end_work(c, i))
		bound += LST_COORD__END_WORK_MAX;
	return now - a->st.progress_at > bound;
}

/*
 * Liveness of agent i at now: a new connection gets a HELLO; silence makes it unreachable, then
 * lost once longer than the lease; a lost agent is said HELLO to every few seconds in case its
 * connection came back without our noticing.
 */
static void s_watch(lst_coord *c, size_t i, int64_t now)
{
	struct lst_coord__agent *a = s_agent(c, i);
	int64_t silent = lst_conn_silence(a->conn, now);
	const char *why = lst_conn_failure(a->conn);
	lst_err err;

	if (why && lst_conn_state(a->conn) != LST_CONN_REFUSED)
		s_refused(c, i, "%s", why);
	if (!lst_conn_joined(a->conn))
		return;
	if (lst_conn_handshakes(a->conn) > LST_MAX(a->welcomed_on, a->hello_on) ||
	    (lst_conn_lost(a->conn) && now - a->hello_at > 5 * LST_NS_PER_S))
		s_rehello(c, i, now);
	if (lst_conn_lost(a->conn))
		return;
	if (lst_conn_sync_tick(a->conn, now, &err) < 0)
		s_refused(c, i, "%s", err.msg);
	if (silent > lst_coord__session(c)->unreach_after) {
		/* what came while we were busy with the others is not silence */
		s_drain(c, i);
		silent = lst_conn_silence(a->conn, now);
	}
	if (silent > lst_coord__session(c)->unreach_after && !a->unreachable &&
	    !lst_conn_lost(a->conn)) {
		a->unreachable = true;
		lst_coord__progress_break(c);
		lst_log_warn("agent %s unreachable: no message for %.1f s; reconnecting (it is "
			     "lost after the %.0f s lease)",
			     lst_conn_name(a->conn), (double)silent / 1e9,
			     (double)lst_coord__session(c)->lease / 1e9);
	}
	if (silent > lst_coord__session(c)->lost_after) {
		lst_coord__lose(
			c, i,
			"no message for %.1f s, longer than the %.0f s lease, so it has stopped its "
			"I/O by itself (it crashed, froze, or the network between us failed)",
			(double)silent / 1e9, (double)lst_coord__session(c)->lease / 1e9);
		s_stop_lost(c, i);
	} else if (s_overdue(c, i, now)) {
		lst_coord__lose(
			c, i,
			"it answers, and sent no sample and no DONE for %.1f s, longer than "
			"the %.0f s lease",
			(double)(now - a->st.progress_at) / 1e9,
			(double)lst_coord__session(c)->lease / 1e9);
		s_stop_lost(c, i);
	}
}

/*
 * One cumulative ACK per agent per wake-up (PROTOCOL.md 6.14: upto covers every seq below it),
 * sent after the wake-up's flush so what it covers is written: one ZeroMQ send per agent instead
 * of one per message, each of which woke libzmq's I/O thread.
 */
static void s_ack(lst_coord *c, size_t i)
{
	struct lst_coord__session *s = lst_coord__session(c);
	struct lst_coord__agent *a = &s->a[i];
	lst_err err;

	if (!a->ack_due)
		return;
	a->ack_due = false;
	if (!a->seen_seq)
		return;
	s->pump->ack->id = 0;
	s->pump->ack->u.ack.upto = a->seen_seq;
	lst_conn_send(a->conn, s->pump->ack, false, NULL, &err);
}

/*
 * Dispatch every message agent i has waiting, each decoded into the pump's scratch message
 * (s_pump(c)->rx) with its frame lent by the connection: no allocation or copy per message.
 */
static void s_drain(lst_coord *c, size_t i)
{
	for (;;) {
		const uint8_t *raw = NULL;
		size_t rawlen = 0;
		int64_t t;
		lst_err err;
		int r = lst_conn_recv_into(s_agent(c, i)->conn, s_pump(c)->rx, &raw, &rawlen, &t,
					   &err);

		if (r == -EAGAIN)
			return;
		if (r) {
			lst_log_warn("%s", err.msg);
			continue;
		}
		s_dispatch(c, i, s_pump(c)->rx, raw, rawlen, t);
	}
}

/*
 * The time since the last pump returned, beyond the wait just asked of the poll, is time the
 * coordinator did not listen (busy between two waits, frozen, descheduled, or stalled inside
 * the poll): when it is longer than LST_COORD__DEAF_AFTER, no agent's silence or progress
 * counts it. Judging every agent by our own stall called a healthy agent unreachable (or
 * lost, after a stall longer than the lease) while its messages sat unread.
 */
static void s_excuse(lst_coord *c, int64_t now, int64_t wait)
{
	int64_t deaf = s_pump(c)->pump_left ? now - s_pump(c)->pump_left - wait : 0;

	if (deaf <= LST_COORD__DEAF_AFTER)
		return;
	lst_log_debug(LST_DBG_NET,
		      "the coordinator did not listen for %.1f s: not the agents' "
		      "silence",
		      (double)deaf / 1e9);
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__agent *a = s_agent(c, i);

		lst_conn_excuse(a->conn, deaf, now);
		if (a->st.progress_at)
			a->st.progress_at = LST_MIN(a->st.progress_at + deaf, now);
	}
}

/*
 * How often the liveness checks run over every agent: LST_COORD__WATCH_EVERY, or 100 us per
 * agent in a fleet (200 ms for 2,000), so that they cost a bounded 10,000 checks a second
 * whatever the fleet's size. They judge silences of seconds; a reconnect's handshake is read
 * as it happens (the set reads the monitors whose descriptor fires).
 */
static int64_t s_watch_every(const lst_coord *c)
{
	return LST_MAX(LST_COORD__WATCH_EVERY, (int64_t)lst_coord__n(c) * 100 * LST_NS_PER_US);
}

/*
 * A PING when we have sent the agent nothing else for LST_COORD__PING_EVERY (PROTOCOL.md 9):
 * any frame keeps its lease alive, and an agent in a point gets an ACK per interval, so a fleet
 * at 1 s intervals no longer sends as many PINGs as it receives SAMPLEs, each waking libzmq's
 * I/O thread. An agent that sends nothing is still PINGed every second, and its PONG shows it
 * alive.
 */
static bool s_ping_due(const lst_coord *c, size_t i, int64_t now)
{
	const struct lst_coord__agent *a = s_agent(c, i);

	return lst_coord__usable(a) && !a->unreachable &&
	       lst_conn_idle(a->conn, now) >= LST_COORD__PING_EVERY;
}

/*
 * Wait up to timeout_ns, dispatching everything that arrives. Housekeeping: PINGs (s_ping_due),
 * abandoned clock exchanges, reconnects and silent agents (s_watch, at most every
 * s_watch_every: with many agents a wake-up per message would otherwise read every
 * agent's handshake monitor each time). Returns early on Ctrl-C.
 */
void lst_coord__pump(lst_coord *c, int64_t timeout_ns)
{
	struct pollfd fds[LST_COORD__POLL_MAX];
	size_t nfds = s_pump(c)->poll_fds ? s_pump(c)->poll_fds(c, fds) : 0;
	int64_t wait = LST_MAX(0, LST_MIN(timeout_ns, 100 * LST_NS_PER_MS)), now;
	const size_t *ready = NULL;
	int rc;

	/* The registered sockets (the metrics endpoint's) are waited on with the agents': a
	 * scrape is answered as soon as it comes, whatever the scheduler waits for. */
	rc = lst_conn_set_wait(s_pump(c)->set, fds, nfds, (int)(wait / LST_NS_PER_MS), &ready);
	if (rc >= 0 && nfds)
		s_pump(c)->poll_serve(c, fds, nfds);
	s_excuse(c, lst_mono_ns(), wait);
	/* ready is the set's until its next wait, which nothing below reaches */
	for (int k = 0; k < rc; k++)
		s_drain(c, ready[k]);
	now = lst_mono_ns();
	if (now - s_pump(c)->last_watch >= s_watch_every(c)) {
		s_pump(c)->last_watch = now;
		for (size_t i = 0; i < lst_coord__n(c); i++) {
			s_watch(c, i, now);
			if (s_ping_due(c, i, now))
				lst_coord__send_simple(c, i, LST_MSG_PING);
		}
	}
	if (s_pump(c)->on_wake) /* what this wake-up brought, in one write per file */
		s_pump(c)->on_wake(c);
	for (int k = 0; k < rc; k++)
		s_ack(c, ready[k]);
	s_pump(c)->pump_left = lst_mono_ns();
}

/*
 * Pump until cond holds, timeout_ns passes (0: no timeout) or, when interruptible, Ctrl-C.
 * True when cond held.
 */
/* The one waiting loop: cond(c, arg) checked before every wake-up. */
static bool s_wait(lst_coord *c, lst_coord__cond_arg_fn cond, const void *arg, int64_t timeout_ns,
		   bool interruptible)
{
	int64_t deadline = timeout_ns ? lst_mono_ns() + timeout_ns : INT64_MAX;

	while (!cond(c, arg)) {
		int64_t now = lst_mono_ns();

		if ((interruptible && lst_coord__interrupted) || now >= deadline)
			return false;
		lst_coord__pump(c, LST_MIN(deadline - now, 100 * LST_NS_PER_MS));
	}
	return true;
}

/* A condition without argument, carried through s_wait's (a function pointer is no void *). */
struct s_plain {
	lst_coord__cond_fn fn;
};

static bool s_plain_cond(lst_coord *c, const void *arg)
{
	return ((const struct s_plain *)arg)->fn(c);
}

bool lst_coord__pump_wait(lst_coord *c, lst_coord__cond_fn cond, int64_t timeout_ns,
			  bool interruptible)
{
	struct s_plain p = { cond };

	return s_wait(c, s_plain_cond, &p, timeout_ns, interruptible);
}

bool lst_coord__pump_until(lst_coord *c, lst_coord__cond_fn cond, int64_t timeout_ns)
{
	return lst_coord__pump_wait(c, cond, timeout_ns, true);
}

bool lst_coord__pump_until_arg(lst_coord *c, lst_coord__cond_arg_fn cond, const void *arg,
			       int64_t timeout_ns)
{
	return s_wait(c, cond, arg, timeout_ns, true);
}

/* Every agent in the point has answered the command, or is lost (an unreachable one is waited
 * for: its reconnect sends the command again). */
bool lst_coord__all_replied(lst_coord *c)
{
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		const struct lst_coord__agent *a = s_agent(c, i);

		if (a->st.in_point && lst_coord__usable(a) && !a->st.point_lost && !a->replied)
			return false;
	}
	return true;
}

bool lst_coord__all_welcomed(lst_coord *c)
{
	struct lst_coord__session *s = lst_coord__session(c);

	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (!lst_conn_lost(s->a[i].conn) && !s->a[i].replied)
			return false;
	return true;
}

static bool s_all_synced(lst_coord *c)
{
	struct lst_coord__session *s = lst_coord__session(c);

	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (lst_coord__usable(&s->a[i]) && lst_conn_syncing(s->a[i].conn))
			return false;
	return true;
}

bool lst_coord__all_done(lst_coord *c)
{
	struct lst_coord__session *s = lst_coord__session(c);

	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (s->a[i].st.in_point && !s->a[i].st.done)
			return false;
	return true;
}

/*
 * Check the replies to a command sent to every agent in the point; report ERRORs. An agent lost
 * meanwhile has no reply: before the phases that fails the run; in a point it is for the plan's
 * on_agent_loss to judge (lst_coord__loss_policy), so it is passed over here.
 */
bool lst_coord__replies_ok(lst_coord *c, const char *what)
{
	bool ok = true;

	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__agent *a = s_agent(c, i);

		if (!a->st.in_point)
			continue;
		if (lst_conn_lost(a->conn) || a->st.point_lost) {
			ok &= lst_coord__running(c);
			continue;
		}
		if (!a->replied) {
			lst_coord__lose(c, i, "no answer to %s within %.0f s", what,
					(double)LST_COORD__REPLY_TIMEOUT / 1e9);
			ok = false;
		} else if (a->reply->type == LST_MSG_ERROR) {
			a->refused = true;
			lst_coord__error(c, "agent %s refused %s: %s", lst_conn_name(a->conn), what,
					 a->reply->u.error.text);
			ok = false;
		}
	}
	return ok;
}

/* A clock burst on every agent. */
void lst_coord__sync(lst_coord *c)
{
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		lst_err err;

		if (lst_coord__usable(s_agent(c, i)) &&
		    lst_conn_sync_begin(s_agent(c, i)->conn, &err))
			lst_coord__lose(c, i, "%s", err.msg);
	}
	lst_coord__pump_until(c, s_all_synced, 5 * LST_NS_PER_S);
	lst_coord__session(c)->last_sync = lst_mono_ns();
}

/*
 * During a long point, a clock burst every LST_COORD__SYNC_EVERY too, without waiting for it:
 * the replies are dispatched with everything else, and the drift fit keeps the per-agent rows of
 * a day-long point on the coordinator's timeline (crystals drift tens of ppm: ~0.1 s a day).
 */
void lst_coord__resync(lst_coord *c)
{
	if (lst_mono_ns() - lst_coord__session(c)->last_sync < LST_COORD__SYNC_EVERY)
		return;
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		lst_err err;

		if (lst_coord__usable(s_agent(c, i)) && !lst_conn_syncing(s_agent(c, i)->conn) &&
		    lst_conn_sync_begin(s_agent(c, i)->conn, &err))
			lst_coord__lose(c, i, "%s", err.msg);
	}
	lst_coord__session(c)->last_sync = lst_mono_ns();
}
