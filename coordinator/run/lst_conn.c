/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Agent connections: DEALER sockets (CURVE or plain), their handshake monitors, envelopes,
 * clock bursts, and the connection's state (NEW, READY, LOST, REFUSED), which only the
 * functions at the end of this file change.
 */
#include "lst_conn.h"

#include <czmq.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_sample.h"
#include "lst_time.h"
#include "lst_util.h"

struct lst_conn {
	size_t index; /* in the plan's agent list */
	char name[LST_NAME_MAX];
	char address[256];
	void *sock; /* zsock_t */
	void *mon;  /* zsock_t: the DEALER's handshake events */
	bool curve;
	char own_fp[LST_KEY_FP_LEN + 1], agent_fp[LST_KEY_FP_LEN + 1];
	char own_pub_file[1024]; /* the .pub beside our key, for messages */
	char agent_src[1024];
	unsigned hs_drops;   /* closed handshakes in a row */
	unsigned handshakes; /* connections that completed their handshake, reconnects included */
	bool hs_failed;
	char hs_error[768];
	enum lst_conn_state state;
	bool joined;	  /* a WELCOME came once */
	uint64_t seq;	  /* last seq sent */
	uint64_t next_id; /* next correlation id */
	struct lst_msg_welcome info;
	int64_t last_heard; /* coordinator clock of the last message received */
	zmq_msg_t frame;    /* the last frame received (lst_conn_recv_into lends it) */
	int64_t last_sent;
	lst_conn_use_fn *on_use; /* the wait watching it (lst_conn_attach), or NULL */
	void *use_arg;
	size_t use_i;

	/* clock: the current burst and the model fitted over all bursts */
	lst_clock_model clock;
	bool synced;	    /* at least one burst done */
	unsigned sync_left; /* exchanges still to send in this burst */
	int64_t sync_t1;    /* outstanding exchange, 0 when none */
	unsigned nsync;
	struct lst_clock_sample sync[LST_SYNC_BURST];
	struct lst_clock_est est; /* the last burst's estimate */
};

/* Monitor endpoints made so far: each connection's gets its own number. */
static atomic_uint s_monitors;

/* The ZMTP heartbeat interval of the connections made from now on (lst_conn_fleet). */
static atomic_int s_heartbeat_ms = 1000;

void lst_conn_fleet(size_t n)
{
	atomic_store(&s_heartbeat_ms, (int)LST_MAX((size_t)1000, LST_MIN(n, (size_t)10000)));
}

/* The DEALER with its options (heartbeats, frame cap, reconnects, CURVE). NULL with err. */
static zsock_t *s_socket(const char *name, const struct lst_conn_curve *curve, lst_err *err)
{
	zsock_t *sock = zsock_new(ZMQ_DEALER);

	if (!sock)
		return lst_err_set(err, -ENOMEM, "agent %s: cannot create a socket", name), NULL;
	zsock_set_linger(sock, 0);
	zsock_set_heartbeat_ivl(sock, atomic_load(&s_heartbeat_ms));
	zsock_set_heartbeat_timeout(sock, 5 * atomic_load(&s_heartbeat_ms));
	zsock_set_heartbeat_ttl(sock, 60000);
	zsock_set_maxmsgsize(sock, LST_MSG_MAX_BYTES + 64);
	zsock_set_sndhwm(sock, 10000);
	zsock_set_rcvhwm(sock, 100000);
	/*
	 * Reconnect promptly once a cut link comes back: a connect attempt gives up after 1 s
	 * (TCP's own SYN back-off would wait up to a minute), and attempts repeat every 100 ms to
	 * 1 s. The session goes on over the new connection (lst_conn_reconnected).
	 */
	zsock_set_connect_timeout(sock, 1000);
	zsock_set_reconnect_ivl(sock, 100);
	zsock_set_reconnect_ivl_max(sock, 1000);
	if (curve) {
		zsock_set_curve_serverkey(sock, curve->agent_pub);
		zsock_set_curve_publickey(sock, curve->own->pub);
		zsock_set_curve_secretkey(sock, curve->own->secret);
		if (zsock_mechanism(sock) != ZMQ_CURVE) {
			lst_err_set(err, -ENOTSUP, "agent %s: this libzmq cannot do CURVE", name);
			zsock_destroy(&sock);
			return NULL;
		}
	}
	return sock;
}

/*
 * The PAIR that reads sock's handshake events, set up before connecting so that none is
 * missed. The endpoint is numbered, not named after the socket's address: libzmq closes a
 * monitor in the background, so a new socket at a freed address could find its predecessor's
 * endpoint still bound. NULL with err.
 */
static zsock_t *s_monitor(zsock_t *sock, const char *name, lst_err *err)
{
	zsock_t *mon = NULL;
	char ep[64];

	snprintf(ep, sizeof(ep), "inproc://lst-conn-%d-%u", (int)getpid(),
		 atomic_fetch_add(&s_monitors, 1));
	if (zmq_socket_monitor(zsock_resolve(sock), ep,
			       ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED |
				       ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
				       ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) ||
	    !(mon = zsock_new(ZMQ_PAIR)) || zsock_connect(mon, "%s", ep)) {
		lst_err_set(err, -EIO, "agent %s: cannot monitor the connection: %s", name,
			    zmq_strerror(zmq_errno()));
		zsock_destroy(&mon);
		return NULL;
	}
	return mon;
}

/* Tell the wait watching c (lst_conn_attach) what its socket went through. */
static void s_use(lst_conn *c, enum lst_conn_use use)
{
	if (c->on_use)
		c->on_use(c->use_arg, c->use_i, use);
}

lst_conn *lst_conn_new(size_t index, const char *name, const char *address,
		       const struct lst_conn_curve *curve, lst_err *err)
{
	lst_conn *c;
	zsock_t *sock = s_socket(name, curve, err), *mon;

	if (!sock)
		return NULL;
	if (!(mon = s_monitor(sock, name, err))) {
		zsock_destroy(&sock);
		return NULL;
	}
	if (zsock_connect(sock, "%s", address)) {
		lst_err_set(err, -EINVAL, "agent %s: cannot connect to %s: %s", name, address,
			    zmq_strerror(zmq_errno()));
		zsock_destroy(&mon);
		zsock_destroy(&sock);
		return NULL;
	}
	c = lst_calloc(1, sizeof(*c));
	c->mon = mon;
	if (curve) {
		char *twin = lst_auth_public_twin(curve->own_file);

		c->curve = true;
		lst_auth_fingerprint(curve->own->pub, c->own_fp, sizeof(c->own_fp));
		lst_auth_fingerprint(curve->agent_pub, c->agent_fp, sizeof(c->agent_fp));
		snprintf(c->own_pub_file, sizeof(c->own_pub_file), "%s", twin);
		free(twin);
		snprintf(c->agent_src, sizeof(c->agent_src), "%s", curve->agent_src);
	}
	c->index = index;
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->address, sizeof(c->address), "%s", address);
	c->sock = sock;
	c->next_id = 1;
	c->last_heard = c->last_sent = lst_mono_ns();
	zmq_msg_init(&c->frame);
	lst_clock_model_init(&c->clock);
	return c;
}

void lst_conn_destroy(lst_conn **p)
{
	lst_conn *c = *p;

	if (!c)
		return;
	s_use(c, LST_CONN_CLOSING);
	zsock_destroy((zsock_t **)&c->sock); /* ends its monitor too */
	zsock_destroy((zsock_t **)&c->mon);
	zmq_msg_close(&c->frame);
	free(c);
	*p = NULL;
}

static void s_read_monitor(lst_conn *c);

int lst_conn_send(lst_conn *c, lst_msg *m, bool command, uint64_t *id, lst_err *err)
{
	uint8_t *buf;
	size_t len;
	int rc;

	m->seq = ++c->seq;
	if (command && !m->id)
		m->id = c->next_id++;
	if (id)
		*id = m->id;
	rc = lst_msg_encode(m, &buf, &len, err);
	if (rc) {
		lst_err_prefix(err, "agent %s: ", c->name);
		return rc;
	}
	rc = zmq_send(zsock_resolve(c->sock), buf, len, ZMQ_DONTWAIT);
	free(buf);
	s_use(c,
	      LST_CONN_USED); /* it may have consumed the ZMQ_FD signal of a message come meanwhile */
	if (rc < 0 && zmq_errno() == EAGAIN) {
		/* A DEALER whose only connection was closed for good has nowhere to send: the
		 * handshake failed before this message, and the monitor already says why. */
		s_read_monitor(c);
		if (c->hs_failed)
			return lst_err_set(err, -ECONNREFUSED, "%s", c->hs_error);
	}
	if (rc < 0)
		return lst_err_set(err, -zmq_errno(), "agent %s: send %s failed: %s", c->name,
				   lst_msg_type_name(m->type), zmq_strerror(zmq_errno()));
	c->last_sent = lst_mono_ns();
	lst_log_debug(LST_DBG_PROTO, "-> %s %s seq %llu id %llu", c->name,
		      lst_msg_type_name(m->type), (unsigned long long)m->seq,
		      (unsigned long long)m->id);
	return 0;
}

/* Every string of an identity the agent reported, made printable. */
static void s_sanitize_identity(struct lst_path_identity *id)
{
	char *fields[] = { id->target, id->path,  id->real_path, id->kind,     id->wwn,
			   id->serial, id->model, id->vendor,	 id->firmware, id->backing_file };

	for (size_t i = 0; i < LST_ARRAY_SIZE(fields); i++)
		lst_str_sanitize(fields[i]);
}

/* Every string of an inventory device, made printable. */
static void s_sanitize_device(struct lst_inv_device *d)
{
	char *fields[] = { d->name,	d->node,      d->wwn,  d->serial, d->vendor,	   d->model,
			   d->firmware, d->transport, d->port, d->nqn,	  d->backing_file, d->why };

	for (size_t i = 0; i < LST_ARRAY_SIZE(fields); i++)
		lst_str_sanitize(fields[i]);
	for (uint32_t k = 0; k < d->nlinks && k < LST_INV_LINKS; k++)
		lst_str_sanitize(d->links[k]);
}

/*
 * What an agent sent is input: its strings reach the terminal and the logs, so none keeps a
 * control character or an escape sequence (lst_str_sanitize), and a SAMPLE must be one an agent
 * could have measured (lst_sample_check). Returns 0 or -EBADMSG with err.
 */
static int s_vet(lst_msg *m, lst_err *err)
{
	int rc;

	switch (m->type) {
	case LST_MSG_WELCOME:
		for (uint32_t i = 0; i < m->u.welcome.ncaps && i < LST_MAX_CAPS; i++)
			lst_str_sanitize(m->u.welcome.caps[i]);
		lst_str_sanitize(m->u.welcome.name);
		lst_str_sanitize(m->u.welcome.version);
		lst_str_sanitize(m->u.welcome.host);
		lst_str_sanitize(m->u.welcome.kernel);
		return 0;
	case LST_MSG_ERROR:
		lst_str_sanitize(m->u.error.text);
		return 0;
	case LST_MSG_DONE:
		lst_str_sanitize(m->u.done.text);
		return 0;
	case LST_MSG_PREPARED:
		for (uint32_t i = 0; i < m->u.prepared.npaths && i < LST_MAX_JOBSPECS; i++)
			s_sanitize_identity(&m->u.prepared.paths[i]);
		lst_str_sanitize(m->u.prepared.warning);
		return 0;
	case LST_MSG_INVENTORY_REPLY:
		for (uint32_t i = 0; i < m->u.inventory_reply.ndevices && i < LST_INV_PAGE; i++)
			s_sanitize_device(&m->u.inventory_reply.devices[i]);
		return 0;
	case LST_MSG_SAMPLE:
		rc = lst_sample_check(&m->u.sample.s, err);
		if (rc)
			lst_err_prefix(err, "sample for interval %lld: ",
				       (long long)m->u.sample.s.interval);
		return rc;
	default:
		return 0;
	}
}

int lst_conn_recv_into(lst_conn *c, lst_msg *m, const uint8_t **raw, size_t *rawlen,
		       int64_t *t_recv, lst_err *err)
{
	int rc;

	zmq_msg_close(&c->frame); /* the previous one, lent until now */
	zmq_msg_init(&c->frame);
	rc = zmq_msg_recv(&c->frame, zsock_resolve(c->sock), ZMQ_DONTWAIT);
	if (rc < 0) {
		rc = zmq_errno();
		if (rc == EAGAIN)
			s_use(c, LST_CONN_EMPTIED);
		return rc == EAGAIN ? -EAGAIN
				    : lst_err_set(err, -rc, "agent %s: receive: %s", c->name,
						  zmq_strerror(rc));
	}
	s_use(c, LST_CONN_USED); /* more may wait, and this receive may have consumed the signal */
	*t_recv = lst_mono_ns();
	c->last_heard = *t_recv;
	rc = lst_msg_decode_into(m, zmq_msg_data(&c->frame), zmq_msg_size(&c->frame), err);
	if (!rc && (rc = s_vet(m, err)))
		lst_msg_clear(m);
	if (rc) {
		lst_err_prefix(err, "agent %s: ", c->name);
		return rc;
	}
	lst_log_debug(LST_DBG_PROTO, "<- %s %s seq %llu re %llu", c->name,
		      lst_msg_type_name(m->type), (unsigned long long)m->seq,
		      (unsigned long long)m->re);
	if (raw) {
		*raw = zmq_msg_data(&c->frame);
		*rawlen = zmq_msg_size(&c->frame);
	}
	return 0;
}

int lst_conn_recv(lst_conn *c, lst_msg **out, uint8_t **raw, size_t *rawlen, int64_t *t_recv,
		  lst_err *err)
{
	lst_msg *m = lst_msg_new(LST_MSG_BYE); /* any type: decoded over */
	const uint8_t *frame;
	size_t len;
	int rc = lst_conn_recv_into(c, m, &frame, &len, t_recv, err);

	if (rc) {
		lst_msg_destroy(&m);
		return rc;
	}
	*out = m;
	if (raw) {
		*rawlen = len;
		*raw = lst_malloc(len);
		memcpy(*raw, frame, len);
	}
	return 0;
}

static void s_hs_fail(lst_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void s_hs_fail(lst_conn *c, const char *fmt, ...)
{
	va_list ap;

	if (c->hs_failed)
		return;
	va_start(ap, fmt);
	vsnprintf(c->hs_error, sizeof(c->hs_error), fmt, ap);
	va_end(ap);
	c->hs_failed = true;
}

/* One monitor event: what it says about the handshake. */
static void s_on_event(lst_conn *c, uint16_t ev, uint32_t val)
{
	lst_log_debug(LST_DBG_NET, "agent %s: socket event 0x%x value 0x%x", c->name, ev, val);
	switch (ev) {
	case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
		c->hs_drops = 0;
		c->handshakes++;
		return;
	case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
		if (val == 400)
			s_hs_fail(
				c,
				"%s refused our CURVE key '%s': it is not in that agent's "
				"authorized_keys folder; copy %s there (the agent's log names the "
				"key it refused)",
				c->address, c->own_fp, c->own_pub_file);
		else
			s_hs_fail(c,
				  "%s: the agent's authentication refused our key '%s' (ZAP "
				  "status %u)",
				  c->address, c->own_fp, val);
		return;
	case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
		if (val == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH && c->curve)
			s_hs_fail(
				c,
				"%s speaks plain text, but the plan gives this agent a key, so we "
				"speak CURVE: start the agent with --key and --authorized-keys, or "
				"remove its key: from the plan (plain text works on loopback only)",
				c->address);
		else if (val == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH)
			s_hs_fail(c,
				  "%s requires CURVE, but the plan gives this agent no key, so we "
				  "speak plain text: add key: with the agent's public key (its "
				  "NAME.pub) to this agent in the plan",
				  c->address);
		else
			s_hs_fail(c, "%s: handshake failed (ZMTP protocol error 0x%08x)%s%s%s",
				  c->address, val,
				  c->curve ? "; the plan's key for this agent ('" : "",
				  c->curve ? c->agent_fp : "", c->curve ? "') may be wrong" : "");
		return;
	case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
		/* Only the peer closing on us counts: a handshake that timed out (a frozen
		 * agent) is the loss detector's business. */
		if ((val != EPIPE && val != ECONNRESET) || ++c->hs_drops < LST_CONN_HS_DROPS)
			return;
		/*
		 * Ambiguous on purpose: a plain-text agent closes on our CURVE greeting too, a
		 * CURVE agent on our plain one, and when its reset overtakes its own greeting we
		 * never see the mechanism it named.
		 */
		if (c->curve)
			s_hs_fail(
				c,
				"%s closed the CURVE handshake %u times without a word: the agent "
				"does not hold the key the plan gives for it ('%s', from %s), or it "
				"speaks plain text (started without --key); its log says which, and "
				"names its own key's fingerprint when it starts",
				c->address, c->hs_drops, c->agent_fp, c->agent_src);
		else
			s_hs_fail(
				c,
				"%s closed the connection during the handshake %u times without a "
				"word: the agent requires CURVE and the plan gives this agent no "
				"key (add key: with its public key, its NAME.pub), or it is not a "
				"lockstep agent",
				c->address, c->hs_drops);
		return;
	default:
		return;
	}
}

/* Read every pending event of c's monitor. */
static void s_read_monitor(lst_conn *c)
{
	uint16_t ev;
	uint32_t val;

	while (lst_auth_monitor_event(zsock_resolve(c->mon), &ev, &val))
		s_on_event(c, ev, val);
}

unsigned lst_conn_handshakes(lst_conn *c)
{
	s_read_monitor(c);
	return c->handshakes;
}

const char *lst_conn_failure(const lst_conn *c)
{
	return c->hs_failed ? c->hs_error : NULL;
}

int lst_conn_fd(const lst_conn *c, bool monitor)
{
	return zsock_fd(monitor ? c->mon : c->sock);
}

bool lst_conn_readable(lst_conn *c)
{
	return zsock_events(c->sock) & ZMQ_POLLIN;
}

void lst_conn_attach(lst_conn *c, lst_conn_use_fn *fn, void *arg, size_t i)
{
	c->on_use = fn;
	c->use_arg = arg;
	c->use_i = i;
}

static int s_sync_send(lst_conn *c, lst_err *err)
{
	lst_msg *m = lst_msg_new(LST_MSG_SYNC);
	int rc;

	c->sync_t1 = lst_mono_ns();
	m->u.sync.t1 = c->sync_t1;
	rc = lst_conn_send(c, m, false, NULL, err);
	lst_msg_destroy(&m);
	c->sync_left--;
	return rc;
}

int lst_conn_sync_begin(lst_conn *c, lst_err *err)
{
	c->nsync = 0;
	c->sync_left = LST_SYNC_BURST;
	return s_sync_send(c, err);
}

/*
 * The exchange in flight is over (answered or abandoned): next one, or close the burst. A burst
 * in which no reply came (the agent is silent: that is for the loss timers) keeps the previous
 * model, unless there is none yet. Replies that all came back unusable, or a drift no crystal
 * has, are the agent's clock at fault: an error, and the model stays as it was.
 */
static int s_sync_next(lst_conn *c, lst_err *err)
{
	struct lst_clock_est est;
	int rc;

	c->sync_t1 = 0;
	if (c->sync_left)
		return s_sync_send(c, err) ? -EIO : 0;
	if (!c->nsync && c->synced)
		return 0;
	if (!c->nsync)
		return lst_err_set(err, -ETIMEDOUT,
				   "clock exchanges unusable: no reply to any of %d SYNCs within "
				   "1 s each",
				   LST_SYNC_BURST);
	rc = lst_clock_best(c->sync, c->nsync, &est, err);
	if (rc < 0)
		return rc;
	rc = lst_clock_model_add(&c->clock, &est, err);
	if (rc < 0)
		return rc;
	c->est = est;
	c->synced = true;
	lst_log_debug(LST_DBG_TIME, "agent %s: offset %+.3f ms, rtt %.1f us", c->name,
		      (double)est.offset_ns / 1e6, (double)est.rtt_ns / 1e3);
	return 1;
}

int lst_conn_sync_reply(lst_conn *c, const struct lst_msg_sync_reply *r, int64_t t4, lst_err *err)
{
	/* A reply to an exchange we gave up on (or a duplicate) is ignored. */
	if (!c->sync_t1 || r->t1 != c->sync_t1)
		return 0;
	c->sync[c->nsync].t1 = r->t1;
	c->sync[c->nsync].t2 = r->t2;
	c->sync[c->nsync].t3 = r->t3;
	c->sync[c->nsync].t4 = t4;
	c->nsync++;
	return s_sync_next(c, err);
}

int lst_conn_sync_tick(lst_conn *c, int64_t now, lst_err *err)
{
	if (!c->sync_t1 || now - c->sync_t1 < LST_NS_PER_S)
		return 0;
	return s_sync_next(c, err);
}

bool lst_conn_syncing(const lst_conn *c)
{
	return c->sync_left > 0 || c->sync_t1 != 0;
}

const char *lst_conn_name(const lst_conn *c)
{
	return c->name;
}

const char *lst_conn_address(const lst_conn *c)
{
	return c->address;
}

const struct lst_msg_welcome *lst_conn_info(const lst_conn *c)
{
	return &c->info;
}

void lst_conn_names(const char names[][LST_NAME_MAX], uint32_t n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (uint32_t k = 0; k < n && k < LST_MAX_HOOKS && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? ", " : "", names[k]);
	if (!n)
		snprintf(buf, size, "none");
}

int64_t lst_conn_silence(const lst_conn *c, int64_t now)
{
	return now - c->last_heard;
}

int64_t lst_conn_idle(const lst_conn *c, int64_t now)
{
	return now - c->last_sent;
}

void lst_conn_excuse(lst_conn *c, int64_t ns, int64_t now)
{
	c->last_heard = LST_MIN(c->last_heard + ns, now);
}

bool lst_conn_synced(const lst_conn *c)
{
	return c->synced;
}

const lst_clock_model *lst_conn_clock(const lst_conn *c)
{
	return &c->clock;
}

const struct lst_clock_est *lst_conn_estimate(const lst_conn *c)
{
	return &c->est;
}

enum lst_conn_state lst_conn_state(const lst_conn *c)
{
	return c->state;
}

bool lst_conn_lost(const lst_conn *c)
{
	return c->state == LST_CONN_LOST || c->state == LST_CONN_REFUSED;
}

bool lst_conn_joined(const lst_conn *c)
{
	return c->joined && c->state != LST_CONN_REFUSED;
}

void lst_conn_welcome(lst_conn *c, const struct lst_msg_welcome *w)
{
	c->info = *w;
	c->joined = true;
	if (c->state == LST_CONN_NEW)
		c->state = LST_CONN_READY;
}

bool lst_conn_lose(lst_conn *c)
{
	if (lst_conn_lost(c))
		return false;
	c->state = LST_CONN_LOST;
	return true;
}

bool lst_conn_back(lst_conn *c)
{
	if (c->state != LST_CONN_LOST || !c->joined)
		return false;
	c->state = LST_CONN_READY;
	return true;
}

void lst_conn_refuse(lst_conn *c)
{
	c->state = LST_CONN_REFUSED;
}
