/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CURVE authentication: the ZAP handler (RFC 27) accepts a coordinator key found in the
 * authorized_keys folder, read again at every handshake, and names the key's fingerprint as the
 * connection's user; the ROUTER's monitor turns the handshake failures ZAP never sees into log
 * lines. Lines a stranger can cause are rate-limited per kind.
 */

#include "lst_daemon_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_auth.h"
#include "lst_log.h"
#include "lst_time.h"

#define S_ZAP_ENDPOINT "inproc://zeromq.zap.01" /* RFC 27: fixed */
#define S_LOG_BURST 10				/* handshake log lines of one kind ... */
#define S_LOG_WINDOW (60 * LST_NS_PER_S)	/* ... per minute, then a count */

/* May a line of this kind be logged now? Counts what it holds back. */
static bool s_limit_ok(struct lst_daemon__limit *l, int64_t now, unsigned *held)
{
	*held = 0;
	if (now - l->since > S_LOG_WINDOW) {
		*held = l->suppressed;
		l->since = now;
		l->n = 0;
		l->suppressed = 0;
	}
	if (l->n >= S_LOG_BURST) {
		l->suppressed++;
		return false;
	}
	l->n++;
	return true;
}

static void s_hs_log(lst_daemon *d, enum lst_daemon__hs_kind kind, enum lst_log_level level,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A handshake log line, at most S_LOG_BURST of a kind per minute (a stranger can cause them). */
static void s_hs_log(lst_daemon *d, enum lst_daemon__hs_kind kind, enum lst_log_level level,
		     const char *fmt, ...)
{
	char msg[LST_ERR_MAX];
	unsigned held;
	va_list ap;

	if (!s_limit_ok(&d->limits[kind], lst_mono_ns(), &held))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (level == LST_LOG_INFO)
		lst_log_info("%s%s", msg, held ? " (more lines like this were held back)" : "");
	else
		lst_log_warn("%s%s", msg, held ? " (more lines like this were held back)" : "");
}

void lst_daemon__keys_str(const lst_authkeys *k, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < k->n && n + 1 < size; i++) {
		char fp[16];

		n += (size_t)snprintf(buf + n, size - n, "%s'%s' (%s)", i ? ", " : "",
				      lst_auth_fingerprint(k->keys[i].pub, fp, sizeof(fp)),
				      k->keys[i].file);
	}
	if (!k->n)
		snprintf(buf, size, "none");
}

/* A frame of a ZAP request as text (for version, domain, address, mechanism). */
static void s_frame_str(zframe_t *f, char *buf, size_t size)
{
	size_t n = f ? LST_MIN(zframe_size(f), size - 1) : 0;

	if (n)
		memcpy(buf, zframe_data(f), n);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
}

/* A ZAP request's frames (RFC 27), with the ones logged as text. */
struct s_zap_req {
	zframe_t *ver, *reqid, *dom, *addr, *idf, *mech, *cred;
	char version[16], domain[64], address[64], mechanism[32];
	char pub[LST_KEY_TEXT]; /* the client's key in Z85, "" when it sent none */
	char fp[16];		/* its fingerprint, "?" when none */
};

static void s_zap_read(zmsg_t *req, struct s_zap_req *q)
{
	memset(q, 0, sizeof(*q));
	snprintf(q->fp, sizeof(q->fp), "?");
	q->ver = zmsg_pop(req);
	q->reqid = zmsg_pop(req);
	q->dom = zmsg_pop(req);
	q->addr = zmsg_pop(req);
	q->idf = zmsg_pop(req);
	q->mech = zmsg_pop(req);
	q->cred = zmsg_pop(req);
	s_frame_str(q->ver, q->version, sizeof(q->version));
	s_frame_str(q->dom, q->domain, sizeof(q->domain));
	s_frame_str(q->addr, q->address, sizeof(q->address));
	s_frame_str(q->mech, q->mechanism, sizeof(q->mechanism));
	if (q->cred && zframe_size(q->cred) == 32) {
		zmq_z85_encode(q->pub, zframe_data(q->cred), 32);
		lst_auth_fingerprint(q->pub, q->fp, sizeof(q->fp));
	}
}

static void s_zap_free(struct s_zap_req *q)
{
	zframe_destroy(&q->ver);
	zframe_destroy(&q->reqid);
	zframe_destroy(&q->dom);
	zframe_destroy(&q->addr);
	zframe_destroy(&q->idf);
	zframe_destroy(&q->mech);
	zframe_destroy(&q->cred);
}

/*
 * The decision on a request, logged (rate-limited): "200" for a CURVE key found in
 * authorized_keys (read afresh), "400" for any other key or mechanism, "500" for a malformed
 * request. *text is the reply's status text.
 */
static const char *s_zap_decide(lst_daemon *d, const struct s_zap_req *q, const char **text)
{
	const char *status = "400";
	const struct lst_authkey *k = NULL;
	lst_authkeys ak = { 0 };
	char keys[512];
	lst_err err;

	*text = "coordinator key not authorized";
	if (strcmp(q->version, "1.0") || !q->reqid) {
		s_hs_log(d, LST_DAEMON__HS_OTHER, LST_LOG_WARN,
			 "ZAP: malformed request (version '%s')", q->version);
		*text = "malformed ZAP request";
		return "500";
	} else if (strcmp(q->domain, LST_AUTH_ZAP_DOMAIN) || strcmp(q->mechanism, "CURVE") ||
		   !q->pub[0]) {
		s_hs_log(d, LST_DAEMON__HS_REFUSED, LST_LOG_WARN,
			 "refused a connection from %s: mechanism %s in domain '%s' (only CURVE in "
			 "'%s' is accepted)",
			 q->address, q->mechanism, q->domain, LST_AUTH_ZAP_DOMAIN);
	} else if (lst_authkeys_load(d->auth_dir, &ak, &err)) {
		s_hs_log(d, LST_DAEMON__HS_REFUSED, LST_LOG_WARN,
			 "refused coordinator key '%s' from %s: %s (every key is refused until it "
			 "can be read)",
			 q->fp, q->address, err.msg);
	} else if (!(k = lst_authkeys_find(&ak, q->pub))) {
		lst_daemon__keys_str(&ak, keys, sizeof(keys));
		s_hs_log(d, LST_DAEMON__HS_REFUSED, LST_LOG_WARN,
			 "refused coordinator key '%s' from %s: it is not in authorized_keys %s "
			 "(authorized: %s); to accept it, copy that coordinator's .pub file there",
			 q->fp, q->address, d->auth_dir, keys);
	} else {
		*text = "OK";
		status = "200";
		s_hs_log(d, LST_DAEMON__HS_ACCEPTED, LST_LOG_INFO,
			 "accepted coordinator key '%s' (%s) from %s", q->fp, k->file, q->address);
	}
	for (size_t i = 0; i < ak.nwarn; i++)
		lst_log_debug(LST_DBG_NET, "authorized_keys: %s", ak.warn[i]);
	lst_authkeys_clear(&ak);
	return status;
}

int lst_daemon__on_zap(zloop_t *loop, zsock_t *sock, void *arg)
{
	lst_daemon *d = arg;
	zmsg_t *req = zmsg_recv(sock), *rep;
	struct s_zap_req q;
	const char *status, *text;

	(void)loop;
	if (!req)
		return lst_daemon__ret(d);
	s_zap_read(req, &q);
	status = s_zap_decide(d, &q, &text);
	rep = zmsg_new();
	zmsg_addstr(rep, "1.0");
	if (q.reqid)
		zmsg_append(rep, &q.reqid);
	else
		zmsg_addstr(rep, "");
	zmsg_addstr(rep, status);
	zmsg_addstr(rep, text);
	zmsg_addstr(rep, status[0] == '2' ? q.fp : "");
	zmsg_addmem(rep, NULL, 0); /* no metadata */
	if (zmsg_send(&rep, sock))
		lst_log_warn("ZAP: cannot send the reply: %s", zmq_strerror(zmq_errno()));
	zmsg_destroy(&rep);
	s_zap_free(&q);
	zmsg_destroy(&req);
	return lst_daemon__ret(d);
}

int lst_daemon__on_monitor(zloop_t *loop, zsock_t *sock, void *arg)
{
	lst_daemon *d = arg;
	char fp[16];
	uint16_t ev;
	uint32_t val;

	(void)loop;
	while (lst_auth_monitor_event(zsock_resolve(sock), &ev, &val)) {
		if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL &&
		    val == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH)
			s_hs_log(
				d, LST_DAEMON__HS_MISMATCH, LST_LOG_WARN,
				d->curve
					? "refused a peer that speaks plain text: this agent "
					  "requires CURVE (its plan must give this agent's key:)"
					: "refused a peer that speaks CURVE: this agent speaks plain "
					  "text (start it with --key and --authorized-keys)");
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL &&
			 val == ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC)
			s_hs_log(
				d, LST_DAEMON__HS_WRONG_KEY, LST_LOG_WARN,
				"refused a CURVE handshake made for another agent key: this agent's "
				"key is '%s' (%s); the coordinator's plan names another key: for it",
				lst_auth_fingerprint(d->pub, fp, sizeof(fp)), d->key_file);
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL)
			s_hs_log(d, LST_DAEMON__HS_OTHER, LST_LOG_WARN,
				 "a handshake failed: ZMTP protocol error 0x%08x", val);
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL)
			lst_log_debug(LST_DBG_NET, "a handshake ended early: %s",
				      strerror((int)val));
	}
	return lst_daemon__ret(d);
}

int lst_daemon__curve_setup(lst_daemon *d, lst_err *err)
{
	int rc;

	d->zap = zsock_new(ZMQ_REP);
	if (!d->zap)
		return lst_err_set(err, -ENOMEM, "cannot create the ZAP socket: %s",
				   zmq_strerror(zmq_errno()));
	zsock_set_linger(d->zap, 0);
	if (zsock_bind(d->zap, "%s", S_ZAP_ENDPOINT) < 0)
		return lst_err_set(err, -EADDRINUSE,
				   "cannot start the authentication handler on %s: %s",
				   S_ZAP_ENDPOINT, zmq_strerror(zmq_errno()));
	rc = lst_auth_zap_enforce(d->zs, err);
	if (rc)
		return rc;
	zsock_set_zap_domain(d->router, LST_AUTH_ZAP_DOMAIN);
	zsock_set_curve_server(d->router, 1);
	zsock_set_curve_secretkey(d->router, d->secret);
	if (zsock_mechanism(d->router) != ZMQ_CURVE || !zsock_curve_server(d->router))
		return lst_err_set(err, -ENOTSUP,
				   "the ROUTER did not become a CURVE server (is libzmq built with "
				   "CURVE support?)");
	return 0;
}

/* Monitor endpoints made so far: each daemon's gets its own number. */
static atomic_uint s_monitors;

int lst_daemon__monitor_setup(lst_daemon *d, lst_err *err)
{
	char ep[64];

	snprintf(ep, sizeof(ep), "inproc://lst-agent-monitor-%d-%u", (int)getpid(),
		 atomic_fetch_add(&s_monitors, 1));
	if (zmq_socket_monitor(d->zs, ep,
			       ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH))
		return lst_err_set(err, -EIO, "cannot monitor the ROUTER: %s",
				   zmq_strerror(zmq_errno()));
	d->mon = zsock_new(ZMQ_PAIR);
	if (!d->mon || zsock_connect(d->mon, "%s", ep))
		return lst_err_set(err, -EIO, "cannot read the ROUTER's monitor: %s",
				   zmq_strerror(zmq_errno()));
	return 0;
}
