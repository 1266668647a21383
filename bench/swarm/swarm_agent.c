/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One simulated agent's side of protocol 1 (proto/PROTOCOL.md), shaped like the real agent's
 * answers (agent/daemon/lst_daemon_dispatch.c and its neighbours) with the null engine's
 * semantics: nothing is opened, any path is reported as a regular file large enough for its
 * region. Replies are cached by command id for retries (section 8); SAMPLE and DONE frames stay
 * in the spool until an ACK covers them and are sent again after a HELLO that resumes the
 * session (section 9). Times on the wire are the agent's clock: CLOCK_MONOTONIC plus the agent's
 * offset, so the coordinator's clock sync has something to measure.
 */
#include "swarm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/utsname.h>
#include <zmq.h>

#include "lst_time.h"
#include "lst_assert.h"
#include "lst_text.h"

#define S_NOMINAL_SIZE ((uint64_t)1 << 40) /* a path with no region: 1 TiB */

static uint64_t s_rand(struct swarm_agent *a)
{
	uint64_t x = a->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	a->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, 1). */
static double s_unit(struct swarm_agent *a)
{
	return (double)(s_rand(a) >> 11) * 0x1.0p-53;
}

/* ---- sending */

static void s_send_raw(struct swarm_agent *a, const uint8_t *buf, size_t len)
{
	if (!a->sock || !a->peer_len)
		return;
	swarm_poke(a->sw, a);
	if (zmq_send(a->sock, a->peer, a->peer_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
		return;
	zmq_send(a->sock, buf, len, ZMQ_DONTWAIT);
}

/* Number and encode m as a's next message (re = the command it answers); the frame is returned
 * in *buf (the caller frees it), or NULL when m does not encode (a bug, reported). */
static uint8_t *s_encode(struct swarm_agent *a, lst_msg *m, uint64_t re, size_t *len)
{
	uint8_t *buf = NULL;
	lst_err err;

	m->seq = ++a->seq;
	m->id = 0;
	m->re = re;
	if (lst_msg_encode(m, &buf, len, &err)) {
		fprintf(stderr, "lockstep-swarm: %s: cannot encode %s: %s\n", a->name,
			lst_msg_type_name(m->type), err.msg);
		--a->seq;
		return NULL;
	}
	return buf;
}

static struct swarm_cached *s_cache_find(struct swarm_agent *a, uint64_t id)
{
	for (unsigned i = 0; i < SWARM_CACHE; i++)
		if (a->cache[i].id == id)
			return &a->cache[i];
	return NULL;
}

/* The cache slot for command id: its own (pending) one, or the oldest. */
static struct swarm_cached *s_cache_slot(struct swarm_agent *a, uint64_t id)
{
	struct swarm_cached *c = s_cache_find(a, id);

	if (!c) {
		c = &a->cache[a->cache_next];
		a->cache_next = (a->cache_next + 1) % SWARM_CACHE;
	}
	free(c->buf);
	c->buf = NULL;
	c->len = 0;
	c->id = id;
	c->pending = false;
	return c;
}

/* Send m as the reply to command id, and keep it for a retry of id (not SYNC's). */
static void s_reply(struct swarm_agent *a, lst_msg *m, uint64_t id)
{
	size_t len;
	uint8_t *buf = s_encode(a, m, id, &len);
	struct swarm_cached *c;

	if (!buf)
		return;
	s_send_raw(a, buf, len);
	if (!id || m->type == LST_MSG_SYNC_REPLY) {
		free(buf);
		return;
	}
	c = s_cache_slot(a, id);
	c->buf = buf;
	c->len = len;
}

/* Send m and keep it in the spool until an ACK covers its seq. */
static void s_spool_send(struct swarm_agent *a, lst_msg *m)
{
	size_t len;
	uint8_t *buf = s_encode(a, m, 0, &len);
	struct swarm_frame *f;

	if (!buf)
		return;
	s_send_raw(a, buf, len);
	if (a->nspool == a->capspool) {
		a->capspool = a->capspool ? 2 * a->capspool : 64;
		a->spool = realloc(a->spool, a->capspool * sizeof(*a->spool));
		if (!a->spool) {
			perror("lockstep-swarm: spool");
			exit(1);
		}
	}
	f = &a->spool[a->nspool++];
	f->seq = m->seq;
	f->sample = m->type == LST_MSG_SAMPLE;
	f->buf = buf;
	f->len = len;
}

static void s_spool_ack(struct swarm_agent *a, uint64_t upto)
{
	size_t keep = 0;

	for (size_t i = 0; i < a->nspool; i++) {
		struct swarm_frame *f = &a->spool[i];

		if (f->seq <= upto) {
			a->acked_samples += f->sample;
			free(f->buf);
		} else {
			a->spool[keep++] = *f;
		}
	}
	a->nspool = keep;
}

static void s_session_clear(struct swarm_agent *a)
{
	for (size_t i = 0; i < a->nspool; i++)
		free(a->spool[i].buf);
	a->nspool = 0;
	for (unsigned i = 0; i < SWARM_CACHE; i++) {
		free(a->cache[i].buf);
		memset(&a->cache[i], 0, sizeof(a->cache[i]));
	}
	a->active = false;
	a->state = SWARM_IDLE;
	a->seq = 0;
}

/* A zeroed outgoing message body of the given type in sw's scratch message. */
#define S_OUT(sw, t, member)                                                                       \
	((sw)->omsg->type = (t), memset(&(sw)->omsg->u.member, 0, sizeof((sw)->omsg->u.member)),   \
	 (sw)->omsg)

static void s_error(struct swarm *sw, struct swarm_agent *a, uint64_t id, int code,
		    const char *text)
{
	lst_msg *m = S_OUT(sw, LST_MSG_ERROR, error);

	m->u.error.code = code;
	lst_copy(m->u.error.text, sizeof(m->u.error.text), text);
	s_reply(a, m, id);
}

/* ---- the point */

/*
 * Draw n I/Os of direction d into sw->hist[d]: sw->buckets latencies from the agent's
 * lognormal-ish distribution (a shared table of standard normals, scaled by the agent's own
 * median), each recorded n / buckets times, so an interval has about that many non-empty
 * buckets whatever its I/O count.
 */
static void s_fill(struct swarm *sw, struct swarm_agent *a, int d, uint64_t n)
{
	uint64_t draws = n < sw->buckets ? n : sw->buckets;
	double median = sw->lat_us * 1e3 * (0.8 + 0.4 * (double)(a->idx % 17) / 16.0);

	for (uint64_t i = 0; i < draws; i++) {
		double z = sw->normals[s_rand(a) % SWARM_NORMALS];
		uint64_t v = (uint64_t)(median * exp(0.45 * z)) + 1;
		uint64_t cnt = n / draws + (i < n % draws);

		lst_hist_record_n(&sw->smsg->u.sample.s.dir[d].lat, v, cnt);
		if (v < LST_HIST_MAX_NS)
			sw->touched[d][sw->ntouched[d]++] = lst_hist_index(v);
	}
}

static void s_sample(struct swarm *sw, struct swarm_agent *a, int64_t now)
{
	lst_msg *m = sw->smsg;
	struct lst_msg_sample *b = &m->u.sample;
	lst_sample *s = &b->s;
	int64_t k = a->next_k++;
	double want = sw->iops * (double)a->iv / 1e9 * (0.9 + 0.2 * s_unit(a));
	uint64_t ios = (uint64_t)want, rd = (ios * (uint64_t)a->read_pct + 50) / 100;
	uint64_t n[LST_DIR_N] = { rd, ios - rd };

	m->type = LST_MSG_SAMPLE;
	b->phase = a->phase;
	b->point = a->point;
	s->interval = k;
	s->start_ns = a->t0 + k * a->iv;
	s->end_ns = s->start_ns + a->iv;
	s->flags = (k < a->nramp ? LST_SAMPLE_RAMP : 0) | (k == a->nint - 1 ? LST_SAMPLE_LAST : 0);
	for (int d = 0; d < LST_DIR_N; d++) {
		s->dir[d].ios = n[d];
		s->dir[d].bytes = n[d] * (uint64_t)a->bs;
		s->dir[d].errors = 0;
		s_fill(sw, a, d, n[d]);
	}
	s_spool_send(a, m);
	a->samples++;
	a->sent_samples++;
	a->last_k = k;
	swarm_truth_add(sw, a, s, s->end_ns - a->offset, now);
}

static void s_done(struct swarm *sw, struct swarm_agent *a, uint32_t reason)
{
	lst_msg *m = S_OUT(sw, LST_MSG_DONE, done);

	m->u.done.phase = a->phase;
	m->u.done.point = a->point;
	m->u.done.reason = reason;
	m->u.done.last_interval = a->last_k;
	m->u.done.samples = a->samples;
	s_spool_send(a, m);
	a->state = SWARM_IDLE;
}

static void s_started(struct swarm *sw, struct swarm_agent *a, int64_t now)
{
	lst_msg *m = S_OUT(sw, LST_MSG_STARTED, started);

	m->u.started.phase = a->phase;
	m->u.started.point = a->point;
	m->u.started.t0 = a->t0;
	m->u.started.actual = now + a->offset;
	s_reply(a, m, a->start_id);
	a->state = SWARM_RUNNING;
	a->next_k = 0;
	a->samples = 0;
	a->last_k = -1;
	if (a->first_t0 == INT64_MIN)
		a->first_t0 = a->t0 - a->offset;
}

/* ---- commands */

static void s_on_hello(struct swarm *sw, struct swarm_agent *a, const lst_msg *c)
{
	const struct lst_msg_hello *h = &c->u.hello;
	bool resumed = a->active && !strcmp(h->run, a->run);
	struct utsname u;
	lst_msg *m;

	if (h->proto != LST_PROTO_VERSION) {
		s_error(sw, a, c->id, LST_PERR_VERSION, "protocol version not supported");
		return;
	}
	if (!resumed) {
		s_session_clear(a);
		a->active = true;
		a->had_session = true;
		a->byed = false;
		lst_copy(a->run, sizeof(a->run), h->run);
	}
	uname(&u);
	m = S_OUT(sw, LST_MSG_WELCOME, welcome);
	m->u.welcome.proto = LST_PROTO_VERSION;
	lst_copy(m->u.welcome.name, sizeof(m->u.welcome.name), a->name);
	lst_copy(m->u.welcome.version, sizeof(m->u.welcome.version), LST_VERSION);
	lst_copy(m->u.welcome.host, sizeof(m->u.welcome.host), a->name);
	lst_copy(m->u.welcome.kernel, sizeof(m->u.welcome.kernel), u.release);
	m->u.welcome.cores = 1;
	m->u.welcome.engines = (1u << LST_ENGINE_PSYNC) | (1u << LST_ENGINE_NULL);
	m->u.welcome.now = lst_mono_ns() + a->offset;
	m->u.welcome.instance = a->instance;
	m->u.welcome.resumed = resumed;
	s_reply(a, m, c->id);
	if (resumed)
		for (size_t i = 0; i < a->nspool; i++)
			s_send_raw(a, a->spool[i].buf, a->spool[i].len);
}

static void s_identity(struct swarm_agent *a, uint32_t i, const struct lst_jobspec *j,
		       struct lst_path_identity *id)
{
	memset(id, 0, sizeof(*id));
	lst_copy(id->target, sizeof(id->target), j->target);
	lst_copy(id->path, sizeof(id->path), j->path);
	lst_copy(id->real_path, sizeof(id->real_path), j->path);
	lst_copy(id->kind, sizeof(id->kind), "file");
	id->size = j->w.size > 0 ? (uint64_t)(j->w.offset + j->w.size) : S_NOMINAL_SIZE;
	id->lbs = 512;
	id->pbs = 4096;
	id->dev = 0x5157;
	id->ino = (uint64_t)a->idx * LST_MAX_JOBSPECS + i + 1;
}

static void s_on_prepare(struct swarm *sw, struct swarm_agent *a, const lst_msg *c)
{
	const struct lst_msg_prepare *p = &c->u.prepare;
	const struct lst_workload *w = &p->jobs[0].w;
	lst_msg *m;

	if (a->state == SWARM_WAIT_T0 || a->state == SWARM_RUNNING) {
		s_error(sw, a, c->id, LST_PERR_STATE, "prepare: a point is running");
		return;
	}
	m = S_OUT(sw, LST_MSG_PREPARED, prepared);
	m->u.prepared.phase = p->phase;
	m->u.prepared.point = p->point;
	m->u.prepared.npaths = p->njobs;
	for (uint32_t i = 0; i < p->njobs; i++)
		s_identity(a, i, &p->jobs[i], &m->u.prepared.paths[i]);
	m->u.prepared.engine = (uint32_t)w->engine;
	if (p->jobs[0].action != LST_ACTION_IDENTIFY) {
		a->state = SWARM_PREPARED;
		a->phase = p->phase;
		a->point = p->point;
		a->iv = w->interval > 0 ? w->interval : LST_NS_PER_S;
		a->nramp = (w->ramp + a->iv - 1) / a->iv;
		a->nint = a->nramp + (w->runtime > 0 ? (w->runtime + a->iv - 1) / a->iv : 10);
		a->read_pct = lst_workload_read_pct(w);
		a->bs = w->bs;
	}
	s_reply(a, m, c->id);
}

static void s_on_start(struct swarm *sw, struct swarm_agent *a, const lst_msg *c)
{
	const struct lst_msg_start *st = &c->u.start;

	if (a->state != SWARM_PREPARED || st->phase != a->phase || st->point != a->point) {
		s_error(sw, a, c->id, LST_PERR_STATE, "start: that point is not prepared");
		return;
	}
	a->t0 = st->t0;
	a->start_id = c->id;
	a->state = SWARM_WAIT_T0;
	s_cache_slot(a, c->id)->pending = true;
}

static void s_on_stop(struct swarm *sw, struct swarm_agent *a, const lst_msg *c)
{
	const struct lst_msg_stop *st = &c->u.stop;
	bool ours = st->phase == a->phase && st->point == a->point;
	lst_msg *m = S_OUT(sw, LST_MSG_STOPPED, stop);

	m->u.stop = *st;
	s_reply(a, m, c->id);
	if (!ours)
		return;
	if (a->state == SWARM_WAIT_T0)
		s_started(sw, a, lst_mono_ns());
	if (a->state == SWARM_RUNNING)
		s_done(sw, a, LST_DONE_STOPPED);
	a->state = SWARM_IDLE;
}

static void s_command(struct swarm *sw, struct swarm_agent *a, const lst_msg *c, int64_t t_rx)
{
	lst_msg *m;

	switch (c->type) {
	case LST_MSG_SYNC:
		m = S_OUT(sw, LST_MSG_SYNC_REPLY, sync_reply);
		m->u.sync_reply.t1 = c->u.sync.t1;
		m->u.sync_reply.t2 = t_rx + a->offset;
		m->u.sync_reply.t3 = lst_mono_ns() + a->offset;
		s_reply(a, m, c->id);
		break;
	case LST_MSG_PREPARE:
		s_on_prepare(sw, a, c);
		break;
	case LST_MSG_START:
		s_on_start(sw, a, c);
		break;
	case LST_MSG_STOP:
		s_on_stop(sw, a, c);
		break;
	case LST_MSG_PING:
		m = S_OUT(sw, LST_MSG_PONG, ping);
		m->u.ping.now = lst_mono_ns() + a->offset;
		s_reply(a, m, c->id);
		break;
	case LST_MSG_ACK:
		s_spool_ack(a, c->u.ack.upto);
		break;
	case LST_MSG_BYE:
		s_session_clear(a);
		a->byed = true;
		break;
	case LST_MSG_INVENTORY:
		m = S_OUT(sw, LST_MSG_INVENTORY_REPLY, inventory_reply);
		m->u.inventory_reply.from = c->u.inventory.from;
		s_reply(a, m, c->id);
		break;
	case LST_MSG_PONG:
	case LST_MSG_ERROR:
		break;
	default:
		s_error(sw, a, c->id, LST_PERR_BAD_MESSAGE, "not a message this agent accepts");
		break;
	}
}

static void s_on_frame(struct swarm *sw, struct swarm_agent *a, const uint8_t *rid, size_t rlen,
		       const uint8_t *buf, size_t len, int64_t t_rx)
{
	bool peer = a->active && rlen == a->peer_len && !memcmp(rid, a->peer, rlen);
	struct swarm_cached *c;
	lst_msg *m = NULL;
	lst_err err;

	uint8_t old[sizeof(a->peer)];
	size_t old_len = a->peer_len;

	/* Replies go to whoever spoke; only a HELLO makes it the session's peer. */
	memcpy(old, a->peer, old_len);
	memcpy(a->peer, rid, rlen);
	a->peer_len = rlen;
	if (lst_msg_decode(buf, len, &m, &err)) {
		s_error(sw, a, 0, LST_PERR_BAD_MESSAGE, err.msg);
		goto restore;
	}
	if (peer && m->id && m->type != LST_MSG_SYNC && (c = s_cache_find(a, m->id))) {
		if (!c->pending)
			s_send_raw(a, c->buf, c->len);
	} else if (m->type == LST_MSG_HELLO) {
		s_on_hello(sw, a, m);
	} else if (!peer) {
		s_error(sw, a, m->id, LST_PERR_NO_SESSION, "no session: send HELLO first");
	} else {
		s_command(sw, a, m, t_rx);
	}
	if (m->type == LST_MSG_HELLO) {
		lst_msg_destroy(&m);
		return;
	}
	lst_msg_destroy(&m);
restore:
	if (!peer) {
		memcpy(a->peer, old, old_len);
		a->peer_len = old_len;
	}
}

void swarm_agent_on_readable(struct swarm *sw, struct swarm_agent *a)
{
	for (;;) {
		zmq_msg_t id, body;
		int64_t t_rx;

		int ev = 0;
		size_t esz = sizeof(ev);

		if (!a->sock || zmq_getsockopt(a->sock, ZMQ_EVENTS, &ev, &esz) ||
		    !(ev & ZMQ_POLLIN))
			break;
		zmq_msg_init(&id);
		if (zmq_msg_recv(&id, a->sock, ZMQ_DONTWAIT) < 0) {
			zmq_msg_close(&id);
			break;
		}
		zmq_msg_init(&body);
		if (!zmq_msg_more(&id) || zmq_msg_recv(&body, a->sock, 0) < 0) {
			zmq_msg_close(&id);
			zmq_msg_close(&body);
			continue;
		}
		t_rx = lst_mono_ns();
		if (zmq_msg_more(&body)) { /* a multi-frame message: drop its tail */
			zmq_msg_t x;
			int more = 1;

			while (more) {
				zmq_msg_init(&x);
				if (zmq_msg_recv(&x, a->sock, 0) < 0)
					more = 0;
				else
					more = zmq_msg_more(&x);
				zmq_msg_close(&x);
			}
		} else if (zmq_msg_size(&id) <= sizeof(a->peer)) {
			s_on_frame(sw, a, zmq_msg_data(&id), zmq_msg_size(&id), zmq_msg_data(&body),
				   zmq_msg_size(&body), t_rx);
		}
		zmq_msg_close(&id);
		zmq_msg_close(&body);
	}
}

/*
 * --blip: close the socket (the coordinator's connection breaks) while the session and the point
 * go on, SAMPLEs piling up in the spool, and bind the same endpoint again later: the
 * coordinator reconnects and resumes the session, and the spool is sent again. Returns the next
 * instant the blip needs a tick.
 */
static int64_t s_blip(struct swarm *sw, struct swarm_agent *a, int64_t now)
{
	char ep[sizeof(a->endpoint)];
	int rc;

	if (a->rebind_at != INT64_MAX) {
		if (now < a->rebind_at)
			return a->rebind_at;
		a->rebind_at = INT64_MAX;
		memcpy(ep, a->endpoint, sizeof(ep));
		if ((rc = swarm_agent_bind(sw, a, ep)))
			fprintf(stderr, "lockstep-swarm: %s: bind %s again failed: %s\n", a->name,
				ep, zmq_strerror(-rc));
		else
			fprintf(stderr, "lockstep-swarm: %s is back on %s\n", a->name, ep);
		return INT64_MAX;
	}
	if (a->blip_after < 0 || a->first_t0 == INT64_MIN)
		return INT64_MAX;
	if (now < a->first_t0 + a->blip_after)
		return a->first_t0 + a->blip_after;
	fprintf(stderr, "lockstep-swarm: %s blips (socket closed for %.1f s)\n", a->name,
		(double)a->blip_len / 1e9);
	swarm_agent_unbind(sw, a);
	a->peer_len = 0;
	a->blip_after = -1;
	a->rebind_at = now + a->blip_len;
	return a->rebind_at;
}

int64_t swarm_agent_tick(struct swarm *sw, struct swarm_agent *a, int64_t now)
{
	int64_t next = INT64_MAX;

	if (a->vanished)
		return INT64_MAX;
	next = s_blip(sw, a, now);
	if (a->vanish_after >= 0 && a->first_t0 != INT64_MIN) {
		if (now >= a->first_t0 + a->vanish_after) {
			fprintf(stderr, "lockstep-swarm: %s vanishes (socket closed)\n", a->name);
			swarm_agent_close(sw, a);
			a->vanished = true;
			return INT64_MAX;
		}
		next = LST_MIN(next, a->first_t0 + a->vanish_after);
	}
	if (a->state == SWARM_WAIT_T0) {
		if (now + a->offset < a->t0)
			return LST_MIN(next, a->t0 - a->offset);
		s_started(sw, a, now);
	}
	if (a->state != SWARM_RUNNING)
		return next;
	while (a->next_k < a->nint && a->t0 + (a->next_k + 1) * a->iv <= now + a->offset)
		s_sample(sw, a, now);
	if (a->next_k >= a->nint) {
		s_done(sw, a, LST_DONE_COMPLETE);
		return next;
	}
	return LST_MIN(next, a->t0 + (a->next_k + 1) * a->iv - a->offset);
}

int swarm_agent_bind(struct swarm *sw, struct swarm_agent *a, const char *endpoint)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = a->idx };
	size_t fsz = sizeof(int);
	int v, fd = -1;
	int64_t max = LST_MSG_MAX_BYTES;
	size_t sz = sizeof(a->endpoint);

	a->sock = zmq_socket(sw->ctx, ZMQ_ROUTER);
	if (!a->sock)
		return -zmq_errno();
	v = 0;
	zmq_setsockopt(a->sock, ZMQ_LINGER, &v, sizeof(v));
	zmq_setsockopt(a->sock, ZMQ_MAXMSGSIZE, &max, sizeof(max));
	/* spaced as the coordinator's (lst_conn_fleet): libzmq walks every timer of the I/O
	 * thread to cancel a heartbeat's timeout */
	v = (int)LST_MAX(1000u, LST_MIN(sw->n, 10000u));
	zmq_setsockopt(a->sock, ZMQ_HEARTBEAT_IVL, &v, sizeof(v));
	v *= 5;
	zmq_setsockopt(a->sock, ZMQ_HEARTBEAT_TIMEOUT, &v, sizeof(v));
	v = 100000;
	zmq_setsockopt(a->sock, ZMQ_SNDHWM, &v, sizeof(v));
	zmq_setsockopt(a->sock, ZMQ_RCVHWM, &v, sizeof(v));
	if (zmq_bind(a->sock, endpoint) < 0) {
		int rc = -zmq_errno();

		zmq_close(a->sock);
		a->sock = NULL;
		return rc;
	}
	zmq_getsockopt(a->sock, ZMQ_LAST_ENDPOINT, a->endpoint, &sz);
	if (zmq_getsockopt(a->sock, ZMQ_FD, &fd, &fsz) ||
	    epoll_ctl(sw->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		int rc = -errno;

		zmq_close(a->sock);
		a->sock = NULL;
		return rc;
	}
	swarm_poke(sw, a);
	return 0;
}

void swarm_agent_unbind(struct swarm *sw, struct swarm_agent *a)
{
	struct epoll_event ev = { 0 };
	size_t fsz = sizeof(a->fd);

	if (!a->sock)
		return;
	if (!zmq_getsockopt(a->sock, ZMQ_FD, &a->fd, &fsz))
		epoll_ctl(sw->epfd, EPOLL_CTL_DEL, a->fd, &ev);
	zmq_close(a->sock);
	a->sock = NULL;
}

void swarm_agent_close(struct swarm *sw, struct swarm_agent *a)
{
	swarm_agent_unbind(sw, a);
	s_session_clear(a);
	free(a->spool);
	a->spool = NULL;
	a->capspool = 0;
}
