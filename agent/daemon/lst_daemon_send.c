/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Everything that leaves the agent: the reusable outgoing message, encoding and the non-blocking
 * send, replies (cached by command id for retries) and the spool, where SAMPLE and DONE frames wait
 * for the coordinator's ACK, bounded so that a silent coordinator cannot fill the memory.
 */

#include "lst_daemon_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

/* The spool's bound (see lst_daemon__spool_bounds): lease_max worth of SAMPLEs at the shortest interval,
 * with half as much again and some DONEs to spare, within [256 MiB, 1 GiB] of frames at an
 * estimated 2 KiB each. */
#define S_SPOOL_MIN_INTERVAL (10 * LST_NS_PER_MS) /* the shortest interval a workload may have */
#define S_SPOOL_SPARE_FRAMES 64
#define S_SPOOL_FRAME_EST 2048
#define S_SPOOL_MIN_BYTES ((size_t)256 << 20)
#define S_SPOOL_MAX_BYTES ((size_t)1 << 30)

bool lst_daemon__rid_eq(const struct lst_daemon__rid *a, const struct lst_daemon__rid *b)
{
	return a->len == b->len && !memcmp(a->b, b->b, a->len);
}

const char *lst_daemon__rid_str(const struct lst_daemon__rid *r, char *buf, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < r->len && i < 8 && n + 3 < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%02x", r->b[i]);
	if (r->len > 8 && n + 3 < size)
		snprintf(buf + n, size - n, "..");
	if (!r->len)
		snprintf(buf, size, "-");
	return buf;
}

int lst_daemon__ret(const lst_daemon *d)
{
	return d->quit_now ? -1 : 0;
}

int lst_daemon__send_raw(lst_daemon *d, const struct lst_daemon__rid *rid, const uint8_t *buf,
			 size_t len)
{
	char r[32];
	int rc;

	rc = zmq_send(d->zs, rid->b, rid->len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
	if (rc >= 0)
		rc = zmq_send(d->zs, buf, len, ZMQ_DONTWAIT);
	if (rc >= 0)
		return 0;
	rc = -zmq_errno();
	if (rc == -EHOSTUNREACH)
		lst_log_debug(LST_DBG_NET, "send to %s: peer gone (EHOSTUNREACH); frame dropped",
			      lst_daemon__rid_str(rid, r, sizeof(r)));
	else
		lst_log_warn("send to %s failed: %s (%d); frame dropped",
			     lst_daemon__rid_str(rid, r, sizeof(r)), zmq_strerror(-rc), rc);
	return rc;
}

/*
 * Encode m (seq already set). Returns 0, -EMSGSIZE for a SAMPLE too large to send (its parts'
 * histograms can be: the caller sends it again without them), or -EINVAL (a bug: our own
 * message broke its bounds, logged).
 */
static int s_encode(const lst_msg *m, uint8_t **buf, size_t *len)
{
	lst_err err;
	int rc = lst_msg_encode(m, buf, len, &err);

	if (!rc || (rc == -EMSGSIZE && m->type == LST_MSG_SAMPLE))
		return rc;
	lst_log_error("internal: cannot encode %s: %s", lst_msg_type_name(m->type), err.msg);
	return -EINVAL;
}

static void s_log_out(const lst_msg *m, const struct lst_daemon__rid *rid)
{
	char r[32];

	lst_log_debug(LST_DBG_PROTO, "out %s seq=%llu re=%llu to %s", lst_msg_type_name(m->type),
		      (unsigned long long)m->seq, (unsigned long long)m->re,
		      lst_daemon__rid_str(rid, r, sizeof(r)));
}

/*
 * Number m (the session's seq when own, else the stray one), encode it into f and send it to rid;
 * the line is logged after the send, so nothing delays a SYNC_REPLY's t3. Returns 0, or
 * s_encode's error when m cannot be encoded (nothing sent, its number not used).
 */
static int s_send_msg(lst_daemon *d, const struct lst_daemon__rid *rid, lst_msg *m, uint64_t re,
		      bool own, struct lst_daemon__frame *f)
{
	uint64_t *seq = own ? &d->sess.seq : &d->stray_seq;
	int rc;

	m->seq = ++*seq;
	m->id = 0;
	m->re = re;
	if ((rc = s_encode(m, &f->buf, &f->len))) {
		--*seq;
		return rc;
	}
	f->seq = m->seq;
	lst_daemon__send_raw(d, rid, f->buf, f->len);
	s_log_out(m, rid);
	return 0;
}

bool lst_daemon__is_peer(const lst_daemon *d, const struct lst_daemon__rid *rid)
{
	return d->sess.active && lst_daemon__rid_eq(rid, &d->sess.peer);
}

void lst_daemon__cache_put(struct lst_daemon__session *s, uint64_t id, bool pending,
			   struct lst_daemon__frame *f)
{
	struct lst_daemon__cached *c = &s->cache[s->cache_next++ % LST_DAEMON__CACHE_N];

	/* A command still executing (a PREPARE, a START before t0) keeps its slot however many
	 * PINGs arrive meanwhile: a retry of it must never find it gone and execute it again. */
	for (unsigned i = 0; c->pending && i < LST_DAEMON__CACHE_N; i++)
		c = &s->cache[s->cache_next++ % LST_DAEMON__CACHE_N];

	free(c->f.buf);
	c->id = id;
	c->pending = pending;
	if (f) {
		c->f = *f;
		f->buf = NULL;
	} else {
		memset(&c->f, 0, sizeof(c->f));
	}
}

struct lst_daemon__cached *lst_daemon__cache_find(struct lst_daemon__session *s, uint64_t id)
{
	for (unsigned i = 0; i < LST_DAEMON__CACHE_N; i++)
		if (s->cache[i].id == id)
			return &s->cache[i];
	return NULL;
}

void lst_daemon__cache_clear(struct lst_daemon__session *s)
{
	for (unsigned i = 0; i < LST_DAEMON__CACHE_N; i++) {
		free(s->cache[i].f.buf);
		memset(&s->cache[i], 0, sizeof(s->cache[i]));
	}
	s->cache_next = 0;
}

void lst_daemon__reply_ex(lst_daemon *d, const struct lst_daemon__rid *rid, uint64_t cmd_id,
			  uint32_t cmd_type, lst_msg *m, bool own)
{
	struct lst_daemon__frame f = { 0 };
	struct lst_daemon__cached *c;

	if (s_send_msg(d, rid, m, cmd_id, own, &f))
		return;
	if (own && cmd_id && cmd_type != LST_MSG_SYNC) { /* a SYNC is answered afresh */
		c = lst_daemon__cache_find(&d->sess, cmd_id);
		if (c && c->pending) {
			free(c->f.buf);
			c->f = f;
			f.buf = NULL;
			c->pending = false;
		} else {
			lst_daemon__cache_put(&d->sess, cmd_id, false, &f);
		}
	}
	free(f.buf);
}

void lst_daemon__reply(lst_daemon *d, const struct lst_daemon__rid *rid, uint64_t cmd_id,
		       uint32_t cmd_type, lst_msg *m)
{
	lst_daemon__reply_ex(d, rid, cmd_id, cmd_type, m, lst_daemon__is_peer(d, rid));
}

lst_msg *lst_daemon__out(lst_daemon *d, enum lst_msg_type type)
{
	lst_msg *m = d->out;
	size_t body;

	switch (type) {
	case LST_MSG_WELCOME:
		body = sizeof(m->u.welcome);
		break;
	case LST_MSG_ERROR:
		body = sizeof(m->u.error);
		break;
	case LST_MSG_SYNC_REPLY:
		body = sizeof(m->u.sync_reply);
		break;
	case LST_MSG_PREPARED:
		body = sizeof(m->u.prepared);
		break;
	case LST_MSG_STARTED:
		body = sizeof(m->u.started);
		break;
	case LST_MSG_DONE:
		body = sizeof(m->u.done);
		break;
	case LST_MSG_STOPPED:
		body = sizeof(m->u.stop);
		break;
	case LST_MSG_PONG:
		body = sizeof(m->u.ping);
		break;
	case LST_MSG_HOOK_DONE: /* output pointers are borrowed, cleared after */
		body = sizeof(m->u.hook_done);
		break;
	case LST_MSG_EVENT:
		body = sizeof(m->u.event);
		break;
	case LST_MSG_KMSG_REPLY:
		body = sizeof(m->u.kmsg_reply);
		break;
	case LST_MSG_JOURNAL_OK:
		body = sizeof(m->u.journal_ok);
		break;
	case LST_MSG_INTEGRITY: /* the units sent are written in full */
		body = offsetof(struct lst_msg_integrity, bad);
		break;
	case LST_MSG_INVENTORY_REPLY: /* the devices sent are written in full */
		body = offsetof(struct lst_msg_inventory_reply, devices);
		break;
	default:
		body = 0; /* SAMPLE: every field is written */
		break;
	}
	memset(m, 0, offsetof(lst_msg, u) + body);
	m->type = type;
	return m;
}

void lst_daemon__error(lst_daemon *d, const struct lst_daemon__rid *rid, uint64_t cmd_id,
		       uint32_t cmd_type, int code, const char *fmt, ...)
{
	lst_msg *m = lst_daemon__out(d, LST_MSG_ERROR);
	va_list ap;

	m->u.error.code = code;
	va_start(ap, fmt);
	vsnprintf(m->u.error.text, sizeof(m->u.error.text), fmt, ap);
	va_end(ap);
	lst_log_debug(LST_DBG_PROTO, "error %d to command %llu: %s", code,
		      (unsigned long long)cmd_id, m->u.error.text);
	lst_daemon__reply(d, rid, cmd_id, cmd_type, m);
}

static void s_spool_drop_oldest(struct lst_daemon__session *s)
{
	struct lst_daemon__frame *f = &s->spool[s->spool_head];

	s->spool_bytes -= f->len;
	free(f->buf);
	f->buf = NULL;
	s->spool_head = (s->spool_head + 1) % s->spool_cap;
	s->spool_n--;
}

/* Append a frame (takes its buffer). Beyond the bound the oldest frames are dropped and counted:
 * logged once per burst (until the next ACK), and said in the point's next DONE. */
static void s_spool_add(struct lst_daemon__session *s, struct lst_daemon__frame *f)
{
	while (s->spool_n && (s->spool_n >= s->spool_max_frames ||
			      s->spool_bytes + f->len > s->spool_max_bytes)) {
		if (!s->spool_burst)
			lst_log_warn(
				"spool full (%zu frames, %zu bytes unacknowledged; the bound is "
				"%zu frames or %zu bytes): dropping the oldest until the "
				"coordinator ACKs (%llu dropped before in this session)",
				s->spool_n, s->spool_bytes, s->spool_max_frames, s->spool_max_bytes,
				(unsigned long long)s->spool_dropped);
		s->spool_burst = true;
		s->spool_dropped++;
		s->spool_unreported++;
		s_spool_drop_oldest(s);
	}
	if (s->spool_n == s->spool_cap) {
		size_t cap = s->spool_cap ? s->spool_cap * 2 : 256;
		struct lst_daemon__frame *n = lst_calloc(cap, sizeof(*n));

		for (size_t i = 0; i < s->spool_n; i++)
			n[i] = s->spool[(s->spool_head + i) % s->spool_cap];
		free(s->spool);
		s->spool = n;
		s->spool_cap = cap;
		s->spool_head = 0;
	}
	s->spool[(s->spool_head + s->spool_n) % s->spool_cap] = *f;
	s->spool_n++;
	s->spool_bytes += f->len;
	f->buf = NULL;
}

void lst_daemon__spool_ack(struct lst_daemon__session *s, uint64_t upto)
{
	while (s->spool_n && s->spool[s->spool_head].seq <= upto)
		s_spool_drop_oldest(s);
	if (s->spool_burst)
		lst_log_info(
			"ACK up to seq %llu: the spool holds %zu frames again (%llu dropped so "
			"far in this session)",
			(unsigned long long)upto, s->spool_n, (unsigned long long)s->spool_dropped);
	s->spool_burst = false;
}

void lst_daemon__spool_clear(struct lst_daemon__session *s)
{
	while (s->spool_n)
		s_spool_drop_oldest(s);
	free(s->spool);
	s->spool = NULL;
	s->spool_cap = s->spool_head = s->spool_bytes = 0;
	s->spool_dropped = s->spool_unreported = 0;
	s->spool_burst = false;
}

int lst_daemon__emit(lst_daemon *d, lst_msg *m)
{
	struct lst_daemon__point *pt = d->pt;
	bool own = d->sess.known && pt->gen == d->sess.gen;
	struct lst_daemon__frame f = { 0 };
	int rc;

	if ((rc = s_send_msg(d, &pt->peer, m, 0, own, &f)))
		return rc;
	if (own)
		s_spool_add(&d->sess, &f);
	free(f.buf);
	return 0;
}

void lst_daemon__spool_bounds(struct lst_daemon__session *s, int64_t lease_max)
{
	uint64_t frames =
		(uint64_t)(lease_max / S_SPOOL_MIN_INTERVAL) * 3 / 2 + S_SPOOL_SPARE_FRAMES;
	uint64_t bytes = frames * S_SPOOL_FRAME_EST;

	s->spool_max_frames = (size_t)frames;
	s->spool_max_bytes = (size_t)LST_MIN(LST_MAX(bytes, S_SPOOL_MIN_BYTES), S_SPOOL_MAX_BYTES);
}
