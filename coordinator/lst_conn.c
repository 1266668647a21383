/* Agent connections: DEALER sockets, envelopes and clock bursts. */
#include "lst_conn.h"

#include <czmq.h>
#include <errno.h>
#include <string.h>

#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

lst_conn *lst_conn_new(size_t index, const char *name, const char *address, lst_err *err)
{
	lst_conn *c;
	zsock_t *sock = zsock_new(ZMQ_DEALER);

	if (!sock)
		return lst_err_set(err, -ENOMEM, "agent %s: cannot create a socket", name), NULL;
	zsock_set_linger(sock, 0);
	zsock_set_heartbeat_ivl(sock, 1000);
	zsock_set_heartbeat_timeout(sock, 5000);
	zsock_set_heartbeat_ttl(sock, 60000);
	zsock_set_maxmsgsize(sock, LST_MSG_MAX_BYTES + 64);
	zsock_set_sndhwm(sock, 10000);
	zsock_set_rcvhwm(sock, 100000);
	if (zsock_connect(sock, "%s", address)) {
		lst_err_set(err, -EINVAL, "agent %s: cannot connect to %s: %s", name, address,
			    zmq_strerror(zmq_errno()));
		zsock_destroy(&sock);
		return NULL;
	}
	c = lst_calloc(1, sizeof(*c));
	c->index = index;
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->address, sizeof(c->address), "%s", address);
	c->sock = sock;
	c->next_id = 1;
	c->last_heard = lst_mono_ns();
	lst_clock_model_init(&c->clock);
	return c;
}

void lst_conn_destroy(lst_conn **p)
{
	lst_conn *c = *p;

	if (!c)
		return;
	zsock_destroy((zsock_t **)&c->sock);
	free(c);
	*p = NULL;
}

int lst_conn_send(lst_conn *c, lst_msg *m, bool command, uint64_t *id, lst_err *err)
{
	uint8_t *buf;
	size_t len;
	int rc;

	m->seq = ++c->seq;
	if (command)
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
	if (rc < 0)
		return lst_err_set(err, -zmq_errno(), "agent %s: send %s failed: %s", c->name,
				   lst_msg_type_name(m->type), zmq_strerror(zmq_errno()));
	c->last_sent = lst_mono_ns();
	lst_log_debug(LST_DBG_PROTO, "-> %s %s seq %llu id %llu", c->name,
		      lst_msg_type_name(m->type), (unsigned long long)m->seq,
		      (unsigned long long)m->id);
	return 0;
}

int lst_conn_recv(lst_conn *c, lst_msg **out, uint8_t **raw, size_t *rawlen, int64_t *t_recv,
		  lst_err *err)
{
	zmq_msg_t msg;
	int rc;

	zmq_msg_init(&msg);
	rc = zmq_msg_recv(&msg, zsock_resolve(c->sock), ZMQ_DONTWAIT);
	if (rc < 0) {
		rc = zmq_errno();
		zmq_msg_close(&msg);
		return rc == EAGAIN ? -EAGAIN : lst_err_set(err, -rc, "agent %s: receive: %s",
							    c->name, zmq_strerror(rc));
	}
	*t_recv = lst_mono_ns();
	c->last_heard = *t_recv;
	rc = lst_msg_decode(zmq_msg_data(&msg), zmq_msg_size(&msg), out, err);
	if (rc) {
		lst_err_prefix(err, "agent %s: ", c->name);
	} else {
		lst_log_debug(LST_DBG_PROTO, "<- %s %s seq %llu re %llu", c->name,
			      lst_msg_type_name((*out)->type), (unsigned long long)(*out)->seq,
			      (unsigned long long)(*out)->re);
		if (raw) {
			*rawlen = zmq_msg_size(&msg);
			*raw = lst_malloc(*rawlen);
			memcpy(*raw, zmq_msg_data(&msg), *rawlen);
		}
	}
	zmq_msg_close(&msg);
	return rc;
}

int lst_conn_poll(lst_conn **conns, size_t n, int timeout_ms, bool *ready)
{
	zmq_pollitem_t items[64];
	int rc;

	if (n > 64)
		n = 64;
	for (size_t i = 0; i < n; i++) {
		items[i].socket = zsock_resolve(conns[i]->sock);
		items[i].fd = 0;
		items[i].events = ZMQ_POLLIN;
		items[i].revents = 0;
	}
	rc = zmq_poll(items, (int)n, timeout_ms);
	if (rc < 0)
		return zmq_errno() == EINTR ? -EINTR : -zmq_errno();
	for (size_t i = 0; i < n; i++)
		ready[i] = items[i].revents & ZMQ_POLLIN;
	return rc;
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

/* The exchange in flight is over (answered or abandoned): next one, or close the burst. */
static int s_sync_next(lst_conn *c, lst_err *err)
{
	struct lst_clock_est est;

	c->sync_t1 = 0;
	if (c->sync_left)
		return s_sync_send(c, err) ? -EIO : 0;
	if (!c->nsync || lst_clock_best(c->sync, c->nsync, &est) < 0)
		return 0; /* every exchange was corrupt: keep the previous model */
	c->est = est;
	lst_clock_model_add(&c->clock, &est);
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
