/*
 * The agent daemon: sessions, commands and the point being run, on one zloop reactor.
 *
 * State: at most one session (the coordinator that said HELLO, its lease, the reply cache and the
 * spool) and at most one point (a phase point PREPAREd on this agent: its open paths and either a
 * run or a purge). The point remembers the routing id of the peer that started it, so its DONE
 * still goes out after the session ended (a lease expiry, a BYE): it may be lost, but the agent
 * never waits for anyone to stop its I/O. A session that expired keeps its run id, seq counter,
 * reply cache and spool ("dormant"): a HELLO with the same run id and CURVE key resumes it and
 * gets the spool again, from any connection, and also while the lease still holds (a reconnect);
 * a HELLO with another run id or key starts afresh once the lease has expired (BUSY before).
 *
 * Every frame is [routing id][one msgpack frame]; anything that does not decode is answered with
 * ERROR BAD_MESSAGE (re 0) and dropped. Input never reaches an assert.
 *
 * Sends never block: ZMQ_ROUTER_MANDATORY makes a send to a vanished peer fail (EHOSTUNREACH)
 * instead of vanishing, and ZMQ_DONTWAIT turns a full pipe into EAGAIN. Either way a SAMPLE or
 * DONE stays in the spool for a resumed session.
 *
 * Authentication: with CURVE on, the ZAP handler is a REP socket on inproc://zeromq.zap.01 read
 * by this reactor, bound before the ROUTER so that no handshake can precede it. It accepts a
 * coordinator key when a *.pub file of the authorized_keys folder holds it (the folder is read
 * again at every handshake, so adding or removing a file takes effect at the next connection)
 * and logs every decision with the key's fingerprint. The ROUTER has ZMQ_ZAP_ENFORCE_DOMAIN set
 * and read back: libzmq 4.3.4 would otherwise let any client in when no handler answers. A
 * socket monitor turns the handshake failures libzmq does not report to ZAP (a coordinator
 * holding another agent key, plain text against CURVE) into log lines; the coordinator sees
 * the other side of each and says which key or agent is wrong.
 */
#include "lst_daemon.h"

#include <czmq.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zmq.h>

#include "lst_assert.h"
#include "lst_auth.h"
#include "lst_config.h"
#include "lst_job.h"
#include "lst_log.h"
#include "lst_msg.h"
#include "lst_purge.h"
#include "lst_run.h"
#include "lst_time.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_CACHE_N 64 /* replies remembered per session */
/* The spool's bound (see s_spool_bounds): lease_max worth of SAMPLEs at the shortest interval,
 * with half as much again and some DONEs to spare, within [256 MiB, 1 GiB] of frames at an
 * estimated 2 KiB each. */
#define S_SPOOL_MIN_INTERVAL (10 * LST_NS_PER_MS) /* the shortest interval a workload may have */
#define S_SPOOL_SPARE_FRAMES 64
#define S_SPOOL_FRAME_EST 2048
#define S_SPOOL_MIN_BYTES ((size_t)256 << 20)
#define S_SPOOL_MAX_BYTES ((size_t)1 << 30)
#define S_STR2(x) #x
#define S_STR(x) S_STR2(x)
#define S_RID_MAX 256 /* ZeroMQ routing ids are at most 255 bytes */
#define S_LEASE_MIN LST_NS_PER_S
#define S_TICK_MS 100 /* lease check period */
#define S_T0_MAX_AHEAD (3600 * LST_NS_PER_S)
#define S_T0_MAX_BEHIND (3600 * LST_NS_PER_S)
#define S_QUIT_GRACE_MS 3000			/* how long SIGTERM waits for jobs to drain */
#define S_RX_BATCH 64				/* frames read per reader wake-up */
#define S_MAX_THREADS 1024			/* job threads in one point, over all job specs */
#define S_ZAP_ENDPOINT "inproc://zeromq.zap.01" /* RFC 27: fixed */
#define S_LOG_BURST 10				/* handshake log lines of one kind ... */
#define S_LOG_WINDOW (60 * LST_NS_PER_S)	/* ... per minute, then a count */

struct s_rid {
	size_t len;
	uint8_t b[S_RID_MAX];
};

/* An encoded frame: a spooled SAMPLE/DONE, or a cached reply. */
struct s_frame {
	uint64_t seq;
	uint8_t *buf;
	size_t len;
};

struct s_cached {
	uint64_t id;  /* 0 = empty slot */
	bool pending; /* executing: the reply follows (START until t0) */
	struct s_frame f;
};

/* Rate limit for log lines a stranger can cause (handshake failures). */
struct s_limit {
	int64_t since; /* start of the window */
	unsigned n;    /* lines logged in it */
	unsigned suppressed;
};

enum s_hs_kind {
	S_HS_ACCEPTED,
	S_HS_REFUSED,
	S_HS_WRONG_KEY,
	S_HS_MISMATCH,
	S_HS_OTHER,
	S_HS_N,
};

struct s_session {
	bool active;  /* a coordinator holds the agent */
	bool known;   /* run id, seq, cache, spool are valid (active or dormant) */
	uint64_t gen; /* +1 for every fresh session */
	struct s_rid peer;
	char run[LST_RUN_ID_MAX];
	char coordinator[LST_NAME_MAX];
	char key[LST_KEY_FP_LEN + 1]; /* fingerprint of its CURVE key, "" in plain text */
	int64_t lease;		      /* ns */
	int64_t last_rx;	      /* monotonic ns of the last frame from the peer */
	uint64_t seq;		      /* last seq sent in this session */
	struct s_cached cache[S_CACHE_N];
	unsigned cache_next;
	struct s_frame *spool; /* circular: spool_n frames from spool_head */
	size_t spool_cap, spool_head, spool_n, spool_bytes;
	size_t spool_max_frames, spool_max_bytes; /* the bound, fixed at start */
	bool spool_burst;			  /* dropping since the last ACK (logged once) */
	uint64_t spool_dropped;			  /* frames dropped in this session */
	uint64_t spool_unreported;		  /* ... not yet said in a DONE's text */
};

/* One path of a point, opened once however many jobs use it. */
struct s_path {
	char path[LST_PATH_MAX];
	int fd;
	enum lst_dev_access access;
	bool direct;
	const char *identity; /* borrowed from the PREPARE job spec, "" = none */
	struct lst_path_identity id;
};

/*
 * A PREPARE worker: builds the point's run (allocates and fills every job's buffers, seconds
 * for gigabytes) off the reactor, then pokes efd. Shared by the reactor and the worker, each
 * holding a reference; the last one to let go frees it. The reactor lets go when it takes the
 * result or when the PREPARE is cancelled (STOP, BYE, a new session, the lease, another
 * PREPARE, shutdown): it then sets cancel, which the fill reads every 64 MiB, so a cancelled
 * worker frees its buffers and ends within moments, and the reactor never waits for it.
 */
struct s_prep {
	pthread_t thread; /* detached */
	int efd;
	zmq_pollitem_t item;
	bool polling;
	_Atomic int refs;
	_Atomic int cancel;
	_Atomic int finished; /* run, rc and err are written (release) */
	lst_msg *cmd;	      /* a copy of the PREPARE, for the reply */
	size_t n;
	struct lst_run_path rp[LST_MAX_JOBSPECS]; /* names point into cmd */
	lst_run *run;
	int rc;
	lst_err err;
};

enum s_state {
	S_PREPARING, /* a PREPARE worker is building the run; PREPARED follows */
	S_PREPARED,
	S_STARTED,
};

struct s_point {
	enum s_state state;
	uint32_t phase, point, action;
	char name[LST_NAME_MAX];
	uint64_t gen; /* session generation that prepared it */
	struct s_path paths[LST_MAX_JOBSPECS];
	size_t npaths;
	lst_run *run;
	zmq_pollitem_t item; /* the run's eventfd */
	bool polling;
	struct s_prep *prep;	   /* while S_PREPARING */
	uint64_t prepare_id;	   /* the PREPARE command being answered */
	lst_purge *purge;	   /* a purge point's worker (agent/io/lst_purge) */
	zmq_pollitem_t purge_item; /* its eventfd */
	bool purge_polling;
	struct s_rid peer; /* who sent START: STARTED, SAMPLE and DONE go there */
	uint64_t start_id;
	int64_t t0;
	int timer; /* STARTED timer, -1 when none */
	unsigned started_tries;
	bool started_sent;
	bool stop_requested;
	uint32_t stop_reason;
	char stop_text[LST_TEXT_MAX];
	uint64_t samples;
	int64_t last_interval;
};

struct lst_daemon {
	int64_t lease_max;	      /* ns, > 0 */
	uint64_t mem_max;	      /* bytes one point may ask for, > 0 */
	bool mem_max_default;	      /* mem_max is the default share of RAM */
	const lst_dev_policy *policy; /* borrowed */
	char *name, *log_path;
	char endpoint[256];
	zsock_t *router;
	void *zs; /* the raw libzmq socket */
	bool curve;
	char secret[LST_KEY_TEXT], pub[LST_KEY_TEXT];
	char *key_file, *auth_dir;
	zsock_t *zap; /* ZAP handler (REP), CURVE only */
	zsock_t *mon; /* the ROUTER's handshake events (PAIR) */
	struct s_limit limits[S_HS_N];
	char rx_key[LST_KEY_FP_LEN + 1]; /* User-Id of the frame being handled ("" = none) */
	zloop_t *loop;
	int sfd; /* signalfd */
	zmq_pollitem_t sig_item;
	int tick;
	sigset_t oldmask;
	struct s_session sess;
	struct s_point *pt;
	uint64_t stray_seq; /* seq for replies to peers without a session */
	uint32_t engines;
	uint64_t instance; /* WELCOME's instance: random, non-zero, one per process */
	struct utsname uts;
	lst_msg *out; /* reused for every message built (it is large) */
	bool quitting;
	bool quit_now;	   /* handlers return -1: the reactor ends */
	bool done_at_exit; /* a DONE was queued during shutdown: linger a little */
	int quit_timer;
};

static void s_point_finish(lst_daemon *d);
static int s_on_start_timer(zloop_t *loop, int timer_id, void *arg);

/* ---------------------------------------------------------------- small helpers */

static bool s_rid_eq(const struct s_rid *a, const struct s_rid *b)
{
	return a->len == b->len && !memcmp(a->b, b->b, a->len);
}

/* Routing id for logs: hex of up to 8 bytes. */
static const char *s_rid_str(const struct s_rid *r, char *buf, size_t size)
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

static int s_ret(const lst_daemon *d)
{
	return d->quit_now ? -1 : 0;
}

/* ---------------------------------------------------------------- sending */

/* Send one encoded frame to rid without blocking. Returns 0 or -errno (logged). */
static int s_send_raw(lst_daemon *d, const struct s_rid *rid, const uint8_t *buf, size_t len)
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
			      s_rid_str(rid, r, sizeof(r)));
	else
		lst_log_warn("send to %s failed: %s (%d); frame dropped",
			     s_rid_str(rid, r, sizeof(r)), zmq_strerror(-rc), rc);
	return rc;
}

/* Encode m (seq already set). Returns 0 or -EINVAL (a bug: our own message broke its bounds). */
static int s_encode(const lst_msg *m, uint8_t **buf, size_t *len)
{
	lst_err err;

	if (lst_msg_encode(m, buf, len, &err)) {
		lst_log_error("internal: cannot encode %s: %s", lst_msg_type_name(m->type),
			      err.msg);
		return -EINVAL;
	}
	return 0;
}

static void s_log_out(const lst_msg *m, const struct s_rid *rid)
{
	char r[32];

	lst_log_debug(LST_DBG_PROTO, "out %s seq=%llu re=%llu to %s", lst_msg_type_name(m->type),
		      (unsigned long long)m->seq, (unsigned long long)m->re,
		      s_rid_str(rid, r, sizeof(r)));
}

/*
 * Number m (the session's seq when own, else the stray one), encode it into f and send it to rid;
 * the line is logged after the send, so nothing delays a SYNC_REPLY's t3. Returns 0, or -EINVAL
 * when m cannot be encoded (nothing sent).
 */
static int s_send_msg(lst_daemon *d, const struct s_rid *rid, lst_msg *m, uint64_t re, bool own,
		      struct s_frame *f)
{
	m->seq = own ? ++d->sess.seq : ++d->stray_seq;
	m->id = 0;
	m->re = re;
	if (s_encode(m, &f->buf, &f->len))
		return -EINVAL;
	f->seq = m->seq;
	s_send_raw(d, rid, f->buf, f->len);
	s_log_out(m, rid);
	return 0;
}

/* Is rid the peer of the active session? */
static bool s_is_peer(const lst_daemon *d, const struct s_rid *rid)
{
	return d->sess.active && s_rid_eq(rid, &d->sess.peer);
}

/* The reply cache: remember (id -> frame). Takes ownership of f's buffer. */
static void s_cache_put(struct s_session *s, uint64_t id, bool pending, struct s_frame *f)
{
	struct s_cached *c = &s->cache[s->cache_next++ % S_CACHE_N];

	/* A command still executing (a PREPARE, a START before t0) keeps its slot however many
	 * PINGs arrive meanwhile: a retry of it must never find it gone and execute it again. */
	for (unsigned i = 0; c->pending && i < S_CACHE_N; i++)
		c = &s->cache[s->cache_next++ % S_CACHE_N];

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

static struct s_cached *s_cache_find(struct s_session *s, uint64_t id)
{
	for (unsigned i = 0; i < S_CACHE_N; i++)
		if (s->cache[i].id == id)
			return &s->cache[i];
	return NULL;
}

static void s_cache_clear(struct s_session *s)
{
	for (unsigned i = 0; i < S_CACHE_N; i++) {
		free(s->cache[i].f.buf);
		memset(&s->cache[i], 0, sizeof(s->cache[i]));
	}
	s->cache_next = 0;
}

/*
 * Reply to command cmd_id (of type cmd_type) from rid; m's type and body are set, seq and re are
 * set here. own: the reply belongs to the session (its seq; cached by id, except SYNC_REPLY).
 */
static void s_reply_ex(lst_daemon *d, const struct s_rid *rid, uint64_t cmd_id, uint32_t cmd_type,
		       lst_msg *m, bool own)
{
	struct s_frame f = { 0 };
	struct s_cached *c;

	if (s_send_msg(d, rid, m, cmd_id, own, &f))
		return;
	if (own && cmd_id && cmd_type != LST_MSG_SYNC) { /* a SYNC is answered afresh */
		c = s_cache_find(&d->sess, cmd_id);
		if (c && c->pending) {
			free(c->f.buf);
			c->f = f;
			f.buf = NULL;
			c->pending = false;
		} else {
			s_cache_put(&d->sess, cmd_id, false, &f);
		}
	}
	free(f.buf);
}

static void s_reply(lst_daemon *d, const struct s_rid *rid, uint64_t cmd_id, uint32_t cmd_type,
		    lst_msg *m)
{
	s_reply_ex(d, rid, cmd_id, cmd_type, m, s_is_peer(d, rid));
}

/* The reusable outgoing message, header and the body about to be filled cleared. */
static lst_msg *s_out(lst_daemon *d, enum lst_msg_type type)
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
	default:
		body = 0; /* SAMPLE: every field is written */
		break;
	}
	memset(m, 0, offsetof(lst_msg, u) + body);
	m->type = type;
	return m;
}

static void s_error(lst_daemon *d, const struct s_rid *rid, uint64_t cmd_id, uint32_t cmd_type,
		    int code, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void s_error(lst_daemon *d, const struct s_rid *rid, uint64_t cmd_id, uint32_t cmd_type,
		    int code, const char *fmt, ...)
{
	lst_msg *m = s_out(d, LST_MSG_ERROR);
	va_list ap;

	m->u.error.code = code;
	va_start(ap, fmt);
	vsnprintf(m->u.error.text, sizeof(m->u.error.text), fmt, ap);
	va_end(ap);
	lst_log_debug(LST_DBG_PROTO, "error %d to command %llu: %s", code,
		      (unsigned long long)cmd_id, m->u.error.text);
	s_reply(d, rid, cmd_id, cmd_type, m);
}

/* ---------------------------------------------------------------- the spool */

static void s_spool_drop_oldest(struct s_session *s)
{
	struct s_frame *f = &s->spool[s->spool_head];

	s->spool_bytes -= f->len;
	free(f->buf);
	f->buf = NULL;
	s->spool_head = (s->spool_head + 1) % s->spool_cap;
	s->spool_n--;
}

/* Append a frame (takes its buffer). Beyond the bound the oldest frames are dropped and counted:
 * logged once per burst (until the next ACK), and said in the point's next DONE. */
static void s_spool_add(struct s_session *s, struct s_frame *f)
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
		struct s_frame *n = lst_calloc(cap, sizeof(*n));

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

/* ACK: drop every frame with seq <= upto (frames are in seq order). Ends a burst of drops. */
static void s_spool_ack(struct s_session *s, uint64_t upto)
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

static void s_spool_clear(struct s_session *s)
{
	while (s->spool_n)
		s_spool_drop_oldest(s);
	free(s->spool);
	s->spool = NULL;
	s->spool_cap = s->spool_head = s->spool_bytes = 0;
	s->spool_dropped = s->spool_unreported = 0;
	s->spool_burst = false;
}

/*
 * Send a SAMPLE or DONE of the point. In the session that prepared it, it takes the session's
 * seq and is spooled until ACKed; a point left over from an ended session sends it bare.
 */
static void s_emit(lst_daemon *d, lst_msg *m)
{
	struct s_point *pt = d->pt;
	bool own = d->sess.known && pt->gen == d->sess.gen;
	struct s_frame f = { 0 };

	if (s_send_msg(d, &pt->peer, m, 0, own, &f))
		return;
	if (own)
		s_spool_add(&d->sess, &f);
	free(f.buf);
}

/* ---------------------------------------------------------------- points */

static void s_purge_destroy(lst_daemon *d, struct s_point *pt)
{
	if (pt->purge_polling)
		zloop_poller_end(d->loop, &pt->purge_item);
	pt->purge_polling = false;
	lst_purge_destroy(&pt->purge);
}

/* Drop one reference to a PREPARE worker's state; the last one frees it (and a run nobody took). */
static void s_prep_put(struct s_prep *pg)
{
	if (atomic_fetch_sub(&pg->refs, 1) != 1)
		return;
	lst_run_destroy(&pg->run);
	if (pg->efd >= 0)
		close(pg->efd);
	lst_msg_destroy(&pg->cmd);
	free(pg);
}

/* The reactor lets go of a PREPARE worker: it stops wanting the result (the worker gives up
 * its fill and frees what it made) unless the result was already taken. Never blocks. */
static void s_prep_release(lst_daemon *d, struct s_prep **p)
{
	struct s_prep *pg = *p;

	if (!pg)
		return;
	if (pg->polling)
		zloop_poller_end(d->loop, &pg->item);
	pg->polling = false;
	atomic_store(&pg->cancel, 1);
	s_prep_put(pg);
	*p = NULL;
}

/* Free a point: stop its poller and timer, destroy the run (joins its jobs), close its paths.
 * Only for a point that never started or whose jobs have finished. A PREPARE worker still busy
 * is cancelled and left to free its own work. */
static void s_point_destroy(lst_daemon *d)
{
	struct s_point *pt = d->pt;

	if (!pt)
		return;
	if (pt->timer >= 0)
		zloop_timer_end(d->loop, pt->timer);
	if (pt->polling)
		zloop_poller_end(d->loop, &pt->item);
	s_prep_release(d, &pt->prep);
	lst_run_destroy(&pt->run);
	s_purge_destroy(d, pt);
	for (size_t i = 0; i < pt->npaths; i++)
		if (pt->paths[i].fd >= 0)
			close(pt->paths[i].fd);
	free(pt);
	d->pt = NULL;
}

/*
 * Cancel a PREPARE still being executed: its command gets ERROR STATE saying why (cached under
 * its id, so a retry learns it too), the worker is told to give up, the point is dropped.
 */
static void s_prepare_cancel(lst_daemon *d, const char *why)
{
	struct s_point *pt = d->pt;
	lst_msg *m = s_out(d, LST_MSG_ERROR);

	lst_log_info("cancelling the PREPARE of point %u/%u (%s) still being executed: %s",
		     pt->phase, pt->point, pt->name, why);
	m->u.error.code = LST_PERR_STATE;
	snprintf(m->u.error.text, sizeof(m->u.error.text),
		 "prepare: point %u/%u (%s) was cancelled before it was ready: %s", pt->phase,
		 pt->point, pt->name, why);
	s_reply_ex(d, &pt->peer, pt->prepare_id, LST_MSG_PREPARE, m,
		   d->sess.known && pt->gen == d->sess.gen);
	s_point_destroy(d);
}

/* Ask the running point to stop (idempotent: the first reason sticks). DONE follows when its
 * jobs have drained, also before t0: the jobs then leave their wait at once and the STARTED
 * timer fires now instead of at t0. A point never started is simply dropped. */
static void s_point_stop(lst_daemon *d, uint32_t reason, const char *text)
{
	struct s_point *pt = d->pt;

	if (!pt)
		return;
	if (pt->state == S_PREPARING) {
		s_prepare_cancel(d, text);
		return;
	}
	if (pt->state == S_PREPARED) {
		lst_log_info("dropping prepared point %u/%u (%s): %s", pt->phase, pt->point,
			     pt->name, text);
		s_point_destroy(d);
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

/* ---------------------------------------------------------------- sessions */

/* Forget the session entirely (BYE, or a HELLO with another run). Stops the point. */
static void s_session_clear(lst_daemon *d, uint32_t reason, const char *why)
{
	struct s_session *s = &d->sess;

	s_point_stop(d, reason, why);
	s_cache_clear(s);
	s_spool_clear(s);
	s->active = s->known = false;
	s->gen++;
	s->seq = 0;
	s->run[0] = s->coordinator[0] = s->key[0] = '\0';
}

/* The coordinator went silent: stop its I/O now; keep the session dormant for a resume. */
static void s_lease_expire(lst_daemon *d, int64_t now)
{
	struct s_session *s = &d->sess;
	char why[LST_TEXT_MAX];

	snprintf(why, sizeof(why), "coordinator %s silent for %.1f s (lease %.1f s)",
		 s->coordinator, (double)(now - s->last_rx) / 1e9, (double)s->lease / 1e9);
	lst_log_warn("%s: stopping I/O%s", why, d->pt ? "" : " (none running)");
	s->active = false;
	s_point_stop(d, LST_DONE_LEASE, why);
}

static int s_on_tick(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;
	int64_t now = lst_mono_ns();

	(void)loop;
	(void)timer_id;
	if (d->sess.active && now - d->sess.last_rx > d->sess.lease)
		s_lease_expire(d, now);
	return s_ret(d);
}

/* ---------------------------------------------------------------- HELLO */

static void s_welcome(lst_daemon *d, const struct s_rid *rid, const lst_msg *cmd, bool resumed)
{
	lst_msg *m = s_out(d, LST_MSG_WELCOME);
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
	s_reply(d, rid, cmd->id, cmd->type, m);
}

static void s_on_hello(lst_daemon *d, const struct s_rid *rid, const lst_msg *m, int64_t now)
{
	const struct lst_msg_hello *h = &m->u.hello;
	struct s_session *s = &d->sess;
	int64_t lease = (int64_t)h->lease_ms * LST_NS_PER_MS;
	bool resume;
	char r[32];

	if (h->proto != LST_PROTO_VERSION) {
		s_error(d, rid, m->id, m->type, LST_PERR_VERSION,
			"protocol version %u is not supported: this agent speaks %d", h->proto,
			LST_PROTO_VERSION);
		return;
	}
	if (s->active && !s_rid_eq(rid, &s->peer) && now - s->last_rx <= s->lease &&
	    !strcmp(h->run, s->run) && !strcmp(d->rx_key, s->key)) {
		/* The session's coordinator on a new connection (its old one broke, or it went
		 * unreachable for a while): a reconnect. The session goes on, below, on the new
		 * routing id; a run id alone would not do (BUSY names it), the key must match too. */
		lst_log_info("coordinator %s reconnected for run %s from a new connection %s "
			     "within the lease",
			     h->coordinator, h->run, s_rid_str(rid, r, sizeof(r)));
	} else if (s->active && !s_rid_eq(rid, &s->peer)) {
		if (now - s->last_rx <= s->lease) {
			lst_log_info("refusing coordinator %s (run %s): busy with run %s from %s",
				     h->coordinator, h->run, s->run, s->coordinator);
			if (s->key[0])
				s_error(d, rid, m->id, m->type, LST_PERR_BUSY,
					"busy: run %s from coordinator %s (key '%s')", s->run,
					s->coordinator, s->key);
			else
				s_error(d, rid, m->id, m->type, LST_PERR_BUSY,
					"busy: run %s from coordinator %s", s->run, s->coordinator);
			return;
		}
		s_lease_expire(d, now);
	}
	if (s->active) {
		resume = !strcmp(h->run, s->run);
		if (!resume) {
			char why[LST_TEXT_MAX];

			snprintf(why, sizeof(why), "a new HELLO for run %s replaced run %s", h->run,
				 s->run);
			s_session_clear(d, LST_DONE_STOPPED, why);
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
			s_session_clear(d, LST_DONE_STOPPED, "a new session began");
	}
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
		     s_rid_str(rid, r, sizeof(r)), (double)lease / 1e9, s->key[0] ? ", key '" : "",
		     s->key, s->key[0] ? "'" : "");
	s_welcome(d, rid, m, resume);
	if (resume && s->spool_n) {
		lst_log_info("resending %zu spooled frames", s->spool_n);
		for (size_t i = 0; i < s->spool_n; i++) {
			const struct s_frame *f = &s->spool[(s->spool_head + i) % s->spool_cap];

			s_send_raw(d, rid, f->buf, f->len);
		}
	}
}

/* ---------------------------------------------------------------- PREPARE */

/* Which errors from lst_dev are disk-safety refusals (the rest are I/O failures)? */
static int s_dev_perr(const lst_err *err)
{
	switch (err->code) {
	case -EPERM:
	case -EACCES:
	case -EBUSY:
	case -ENXIO:
	case -ESTALE:
	case -ELOOP:
		return LST_PERR_REFUSED;
	default:
		return strstr(err->msg, ": refused (") ? LST_PERR_REFUSED : LST_PERR_IO;
	}
}

static struct s_path *s_path_find(struct s_point *pt, const char *path)
{
	for (size_t i = 0; i < pt->npaths; i++)
		if (!strcmp(pt->paths[i].path, path))
			return &pt->paths[i];
	return NULL;
}

/*
 * IDENTIFY at the start of a run: the disk-safety rules for everything the run will do to each
 * path (the job spec's access bits), without opening anything for writing, so that a phase the
 * agent would refuse stops the run before an earlier phase writes. *perr as for s_open_paths.
 */
static int s_check_access(lst_daemon *d, const struct lst_msg_prepare *p, int *perr, lst_err *err)
{
	static const struct {
		uint32_t bit;
		enum lst_dev_access access;
		const char *what;
	} need[] = {
		{ LST_ACCESS_WRITE, LST_DEV_WRITE, "a phase of this run writes it" },
		{ LST_ACCESS_PURGE, LST_DEV_PURGE, "a phase of this run purges it" },
	};

	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];

		for (size_t k = 0; k < LST_ARRAY_SIZE(need); k++) {
			size_t n;

			if (!(j->access & need[k].bit))
				continue;
			if (!lst_dev_check(d->policy, j->path, need[k].access, j->identity, NULL,
					   err))
				continue;
			*perr = s_dev_perr(err);
			n = strlen(err->msg);
			snprintf(err->msg + n, sizeof(err->msg) - n,
				 " [checked before the run starts: %s; nothing was written]",
				 need[k].what);
			return err->code;
		}
	}
	return 0;
}

/*
 * Gather the PREPARE's distinct paths with what each needs (write if any job on it writes),
 * then open them all through the disk-safety checks. On failure err says which path and rule,
 * *perr the protocol error code; paths already open stay in pt (the caller destroys pt).
 */
static int s_open_paths(lst_daemon *d, struct s_point *pt, const struct lst_msg_prepare *p,
			int *perr, lst_err *err)
{
	int rc;

	if (p->jobs[0].action == LST_ACTION_IDENTIFY && (rc = s_check_access(d, p, perr, err)))
		return rc;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];
		enum lst_dev_access acc = LST_DEV_READ;
		bool direct = false;
		struct s_path *sp;

		if (j->action == LST_ACTION_IO) {
			acc = lst_rw_writes(j->w.rw, j->w.rwmixread) ? LST_DEV_WRITE : LST_DEV_READ;
			direct = j->w.direct != 0;
		} else if (j->action == LST_ACTION_DISCARD || j->action == LST_ACTION_SECDISCARD) {
			acc = LST_DEV_PURGE;
		}
		sp = s_path_find(pt, j->path);
		if (sp) {
			if (sp->direct != direct && j->action == LST_ACTION_IO) {
				*perr = LST_PERR_IO;
				return lst_err_set(
					err, -EINVAL,
					"%s: jobs %s on this path disagree on direct; use "
					"one setting per path",
					j->path, j->target);
			}
			if (acc > sp->access)
				sp->access = acc;
			if (!sp->identity[0])
				sp->identity = j->identity;
			continue;
		}
		sp = &pt->paths[pt->npaths++];
		lst_copy(sp->path, sizeof(sp->path), j->path);
		sp->fd = -1;
		sp->access = acc;
		sp->direct = direct;
		sp->identity = j->identity;
	}
	for (size_t i = 0; i < pt->npaths; i++) {
		struct s_path *sp = &pt->paths[i];

		sp->fd = lst_dev_open(d->policy, sp->path, sp->access, sp->direct, sp->identity,
				      &sp->id, err);
		if (sp->fd < 0) {
			*perr = s_dev_perr(err);
			return err->code;
		}
		lst_log_debug(LST_DBG_DEV, "opened %s (%s) for %s: %s %s, %llu bytes", sp->path,
			      sp->id.real_path, lst_dev_access_name(sp->access), sp->id.kind,
			      sp->id.wwn[0] ? sp->id.wwn : sp->id.backing_file,
			      (unsigned long long)sp->id.size);
	}
	/* A second job spec naming another identity for a shared path is checked too. */
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];
		struct s_path *sp = s_path_find(pt, j->path);

		if (j->identity[0] && sp->identity != j->identity &&
		    !lst_dev_identity_matches(&sp->id, j->identity)) {
			*perr = LST_PERR_REFUSED;
			return lst_err_set(
				err, -ENXIO,
				"%s (-> %s): refused (identity): expected '%s' but found "
				"wwn '%s' serial '%s'; fix the plan's identity or the path",
				j->path, sp->id.real_path, j->identity, sp->id.wwn, sp->id.serial);
		}
	}
	return 0;
}

static void s_prepared(lst_daemon *d, const struct s_rid *rid, const lst_msg *cmd,
		       struct s_point *pt, uint32_t engine, const char *warning)
{
	const struct lst_msg_prepare *p = &cmd->u.prepare;
	lst_msg *m = s_out(d, LST_MSG_PREPARED);
	struct lst_msg_prepared *r = &m->u.prepared;

	r->phase = p->phase;
	r->point = p->point;
	r->npaths = p->njobs;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct s_path *sp = s_path_find(pt, p->jobs[i].path);

		r->paths[i] = sp->id;
		lst_copy(r->paths[i].target, sizeof(r->paths[i].target), p->jobs[i].target);
		lst_copy(r->paths[i].path, sizeof(r->paths[i].path), p->jobs[i].path);
	}
	r->engine = engine;
	lst_copy(r->warning, sizeof(r->warning), warning ? warning : "");
	s_reply(d, rid, cmd->id, cmd->type, m);
}

/* Per-job memory besides its buffers: the job struct (its sample ring holds histograms), a
 * reader, the touched part of its thread's stack and engine state. An estimate, on the high
 * side. */
#define S_JOB_OVERHEAD (sizeof(struct lst_job) + ((size_t)256 << 10))
/* Per I/O slot besides its buffer: the slot, its three list entries, io_uring SQE and CQEs. */
#define S_SLOT_OVERHEAD (sizeof(struct lst_io) + 3 * sizeof(void *) + 128)

/* What a PREPARE's job specs will allocate, in bytes (buffers and all), and the buffers alone. */
static uint64_t s_point_mem(const struct lst_msg_prepare *p, uint64_t *buffers, uint64_t *jobs)
{
	uint64_t total = 0;

	*buffers = *jobs = 0;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_workload *w = &p->jobs[i].w;
		uint64_t n = (uint64_t)w->jobs, depth = (uint64_t)w->iodepth;

		*jobs += n;
		*buffers += n * depth * (uint64_t)w->bs;
		total += n * (depth * ((uint64_t)w->bs + S_SLOT_OVERHEAD) + S_JOB_OVERHEAD);
	}
	return total;
}

/*
 * What the job specs ask of this host, checked before anything is allocated: a PREPARE from the
 * wire must not make the agent abort on out-of-memory (the allocators abort), push the host
 * under test into the OOM killer, or spawn thousands of threads. Values are bounded by the
 * codec (64 specs, jobs, iodepth and bs within their option ranges): no product overflows.
 */
static int s_check_resources(const lst_daemon *d, const struct lst_msg_prepare *p, lst_err *err)
{
	uint64_t jobs, buffers, need = s_point_mem(p, &buffers, &jobs);
	char a[32], b[32], c[32];

	if (jobs > S_MAX_THREADS)
		return lst_err_set(
			err, -EINVAL,
			"prepare: %llu job threads in one point; this agent runs at most %d",
			(unsigned long long)jobs, S_MAX_THREADS);
	if (need > d->mem_max)
		return lst_err_set(
			err, -ENOMEM,
			"prepare: point %u/%u (%s) needs %s of memory (%s of I/O buffers: jobs x "
			"iodepth x bs over %llu job(s), plus per-job state); this agent's memory cap "
			"is %s (mem_max%s); lower jobs, iodepth or bs, or raise mem_max in the "
			"agent's config (or --mem-max)",
			p->phase, p->point, p->name, lst_fmt_size(need, a, sizeof(a)),
			lst_fmt_size(buffers, b, sizeof(b)), (unsigned long long)jobs,
			lst_fmt_size(d->mem_max, c, sizeof(c)),
			d->mem_max_default
				? ", by default " S_STR(LST_CONFIG_MEM_MAX_PERCENT) "% of RAM"
				: "");
	return 0;
}

/* The PREPARE worker: build the run, then tell the reactor. */
static void *s_prep_main(void *arg)
{
	struct s_prep *pg = arg;

	pg->run = lst_run_new_cancellable(pg->rp, pg->n, &pg->cancel, &pg->err);
	pg->rc = pg->run ? 0 : pg->err.code ? pg->err.code : -EINVAL;
	atomic_store_explicit(&pg->finished, 1, memory_order_release);
	eventfd_write(pg->efd, 1);
	s_prep_put(pg);
	return NULL;
}

static int s_on_prep_event(zloop_t *loop, zmq_pollitem_t *item, void *arg);

/*
 * Hand the run's construction (the buffers' allocation and fill) to a PREPARE worker, so the
 * reactor goes on answering PING, SYNC and the rest meanwhile. The command's id is marked
 * pending in the reply cache: a retry is not executed again, its reply follows.
 */
static int s_prepare_io(lst_daemon *d, struct s_point *pt, const lst_msg *cmd, lst_err *err)
{
	const struct lst_msg_prepare *p = &cmd->u.prepare;
	struct s_prep *pg = lst_calloc(1, sizeof(*pg));
	int rc;

	pg->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pg->efd < 0) {
		rc = lst_err_sys(err, -errno, "eventfd");
		free(pg);
		return rc;
	}
	pg->cmd = lst_msg_new(LST_MSG_PREPARE);
	memcpy(pg->cmd, cmd, sizeof(*cmd));
	pg->n = p->njobs;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct s_path *sp = s_path_find(pt, p->jobs[i].path);

		pg->rp[i].fd = sp->fd;
		pg->rp[i].size = sp->id.size;
		pg->rp[i].w = p->jobs[i].w;
		pg->rp[i].name = pg->cmd->u.prepare.jobs[i].path;
	}
	atomic_init(&pg->refs, 2);
	rc = pthread_create(&pg->thread, NULL, s_prep_main, pg);
	if (rc) {
		close(pg->efd);
		lst_msg_destroy(&pg->cmd);
		free(pg);
		return lst_err_sys(err, -rc, "pthread_create for the PREPARE worker");
	}
	pthread_detach(pg->thread);
	pg->item = (zmq_pollitem_t){ .fd = pg->efd, .events = ZMQ_POLLIN };
	zloop_poller(d->loop, &pg->item, s_on_prep_event, d);
	pg->polling = true;
	pt->prep = pg;
	pt->state = S_PREPARING;
	pt->prepare_id = cmd->id;
	if (s_is_peer(d, &pt->peer))
		s_cache_put(&d->sess, cmd->id, true, NULL);
	return 0;
}

static int s_prepare_purge(struct s_point *pt, const struct lst_msg_prepare *p, int *perr,
			   lst_err *err)
{
	int rc;

	pt->purge = lst_purge_new();
	*perr = LST_PERR_IO;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];
		const struct s_path *sp = s_path_find(pt, j->path);

		rc = lst_purge_add(pt->purge, j->path, sp->fd, &sp->id, (uint64_t)j->w.offset,
				   (uint64_t)j->w.size, j->action == LST_ACTION_SECDISCARD, err);
		if (rc)
			return rc;
	}
	return lst_purge_arm(pt->purge, err);
}

/* The point is ready: say so, and answer its PREPARE (cmd) with PREPARED. */
static void s_point_ready(lst_daemon *d, struct s_point *pt, const lst_msg *cmd)
{
	const struct lst_msg_prepare *p = &cmd->u.prepare;

	pt->state = S_PREPARED;
	if (pt->run && lst_run_warning(pt->run)[0])
		lst_log_warn("point %u/%u (%s): %s", p->phase, p->point, p->name,
			     lst_run_warning(pt->run));
	lst_log_info("prepared point %u/%u (%s): %u job spec(s) on %zu path(s), %s", p->phase,
		     p->point, p->name, p->njobs, pt->npaths,
		     pt->run ? lst_engine_names[lst_run_engine(pt->run)]
			     : (pt->action == LST_ACTION_DISCARD ? "discard" : "secdiscard"));
	s_prepared(d, &pt->peer, cmd, pt,
		   pt->run ? (uint32_t)lst_run_engine(pt->run) : (uint32_t)p->jobs[0].w.engine,
		   pt->run ? lst_run_warning(pt->run) : "");
}

/* The PREPARE worker finished: take its run and answer PREPARED, or ERROR. */
static int s_on_prep_event(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct s_point *pt = d->pt;
	struct s_prep *pg;
	struct s_rid peer;
	lst_msg *cmd;
	uint64_t junk;
	lst_err err;

	(void)loop;
	if (!pt || !pt->prep || item->fd != pt->prep->efd)
		return s_ret(d); /* a stale poll entry of a PREPARE just cancelled */
	pg = pt->prep;
	while (read(item->fd, &junk, sizeof(junk)) > 0)
		;
	if (!atomic_load_explicit(&pg->finished, memory_order_acquire))
		return s_ret(d);
	pt->run = pg->run;
	pg->run = NULL;
	err = pg->err;
	cmd = pg->cmd;
	pg->cmd = NULL;
	s_prep_release(d, &pt->prep);
	if (pt->run) {
		s_point_ready(d, pt, cmd);
	} else {
		lst_log_warn("prepare %u/%u (%s) failed: %s", pt->phase, pt->point, pt->name,
			     err.msg);
		peer = pt->peer;
		s_point_destroy(d);
		s_error(d, &peer, cmd->id, cmd->type, LST_PERR_IO, "%s", err.msg);
	}
	lst_msg_destroy(&cmd);
	return s_ret(d);
}

static void s_on_prepare(lst_daemon *d, const struct s_rid *rid, const lst_msg *m)
{
	const struct lst_msg_prepare *p = &m->u.prepare;
	struct s_point *pt;
	uint32_t action = p->jobs[0].action;
	int perr = LST_PERR_IO;
	lst_err err;

	if (d->pt && d->pt->state == S_STARTED) {
		s_error(d, rid, m->id, m->type, LST_PERR_STATE,
			"prepare: point %u/%u (%s) is running; STOP it and wait for DONE first",
			d->pt->phase, d->pt->point, d->pt->name);
		return;
	}
	if (strcmp(p->run, d->sess.run)) {
		s_error(d, rid, m->id, m->type, LST_PERR_STATE,
			"prepare: run '%s' is not this session's run '%s'", p->run, d->sess.run);
		return;
	}
	if (!p->njobs) {
		s_error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE, "prepare: no jobs");
		return;
	}
	for (uint32_t i = 1; i < p->njobs; i++) {
		if (p->jobs[i].action != action) {
			s_error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE,
				"prepare: jobs[%u] has action %u but jobs[0] has %u; one action "
				"per point",
				i, p->jobs[i].action, action);
			return;
		}
	}
	if (action == LST_ACTION_IO && s_check_resources(d, p, &err)) {
		lst_log_warn("prepare %u/%u (%s) refused: %s", p->phase, p->point, p->name,
			     err.msg);
		s_error(d, rid, m->id, m->type, LST_PERR_IO, "%s", err.msg);
		return;
	}
	if (d->pt && d->pt->state == S_PREPARING) {
		char why[LST_TEXT_MAX];

		snprintf(why, sizeof(why), "replaced by a PREPARE of point %u/%u (%s)", p->phase,
			 p->point, p->name);
		s_prepare_cancel(d, why);
	} else if (d->pt) {
		lst_log_info("prepared point %u/%u (%s) replaced by %u/%u (%s)", d->pt->phase,
			     d->pt->point, d->pt->name, p->phase, p->point, p->name);
		s_point_destroy(d);
	}
	pt = lst_calloc(1, sizeof(*pt));
	pt->state = S_PREPARING;
	pt->phase = p->phase;
	pt->point = p->point;
	pt->action = action;
	pt->gen = d->sess.gen;
	pt->timer = -1;
	pt->last_interval = -1;
	pt->peer = *rid;
	lst_copy(pt->name, sizeof(pt->name), p->name);
	d->pt = pt;
	lst_err_clear(&err);
	if (s_open_paths(d, pt, p, &perr, &err))
		goto refused;
	if (action == LST_ACTION_IDENTIFY) {
		/* Nothing runs: report what is there and close. */
		s_prepared(d, rid, m, pt, (uint32_t)p->jobs[0].w.engine, "");
		lst_log_info("identified %u path(s) for point %u/%u (%s)", p->njobs, p->phase,
			     p->point, p->name);
		s_point_destroy(d);
		return;
	}
	if (action == LST_ACTION_IO) {
		uint64_t jobs, buffers, need = s_point_mem(p, &buffers, &jobs);
		char sz[32];

		perr = LST_PERR_IO;
		if (s_prepare_io(d, pt, m, &err))
			goto refused;
		lst_log_info("preparing point %u/%u (%s): %llu job(s), about %s, in a worker; "
			     "PREPARED follows",
			     p->phase, p->point, p->name, (unsigned long long)jobs,
			     lst_fmt_size(need, sz, sizeof(sz)));
		return;
	}
	if (s_prepare_purge(pt, p, &perr, &err))
		goto refused;
	s_point_ready(d, pt, m);
	return;
refused:
	if (perr == LST_PERR_REFUSED)
		lst_log_warn("prepare %u/%u (%s) refused: %s", p->phase, p->point, p->name,
			     err.msg);
	else
		lst_log_warn("prepare %u/%u (%s) failed: %s", p->phase, p->point, p->name, err.msg);
	s_point_destroy(d);
	s_error(d, rid, m->id, m->type, perr, "%s", err.msg);
}

/* ---------------------------------------------------------------- running */

static void s_on_sample(const lst_sample *s, void *arg)
{
	lst_daemon *d = arg;
	struct s_point *pt = d->pt;
	lst_msg *m = s_out(d, LST_MSG_SAMPLE);

	m->u.sample.phase = pt->phase;
	m->u.sample.point = pt->point;
	m->u.sample.s = *s;
	s_emit(d, m);
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
	struct s_point *pt = d->pt;
	uint64_t junk;

	(void)loop;
	if (!pt || !pt->run || item->fd != lst_run_eventfd(pt->run))
		return s_ret(d); /* a stale poll entry of a point just destroyed */
	if (!pt->started_sent) {
		while (read(item->fd, &junk, sizeof(junk)) > 0)
			;
		return s_ret(d);
	}
	s_collect(d);
	return s_ret(d);
}

static int s_on_purge_event(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct s_point *pt = d->pt;
	uint64_t junk;

	(void)loop;
	if (!pt || !pt->purge || item->fd != lst_purge_eventfd(pt->purge))
		return s_ret(d);
	while (read(item->fd, &junk, sizeof(junk)) > 0)
		;
	if (pt->started_sent && lst_purge_finished(pt->purge))
		s_point_finish(d);
	return s_ret(d);
}

/* Send DONE for the point, then free it. Its jobs have finished. */
static void s_point_finish(lst_daemon *d)
{
	struct s_point *pt = d->pt;
	lst_msg *m = s_out(d, LST_MSG_DONE);
	struct lst_msg_done *dn = &m->u.done;
	static const char *const reasons[] = { "complete", "stopped", "lease", "error" };
	lst_err err;

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
	if (d->sess.spool_unreported && d->sess.known && pt->gen == d->sess.gen) {
		size_t n = strlen(dn->text);

		snprintf(dn->text + n, sizeof(dn->text) - n,
			 "%s%llu unacknowledged SAMPLE/DONE frames were dropped from the agent's "
			 "spool (full: at most %zu frames or %zu bytes; ACK sooner)",
			 n ? "; " : "", (unsigned long long)d->sess.spool_unreported,
			 d->sess.spool_max_frames, d->sess.spool_max_bytes);
		d->sess.spool_unreported = 0;
	}
	if (dn->reason == LST_DONE_ERROR)
		lst_log_warn("point %u/%u (%s) ended with an error after %llu samples: %s",
			     pt->phase, pt->point, pt->name, (unsigned long long)pt->samples,
			     dn->text);
	else
		lst_log_info("point %u/%u (%s) done (%s): %llu samples%s%s", pt->phase, pt->point,
			     pt->name, reasons[dn->reason], (unsigned long long)pt->samples,
			     dn->text[0] ? ": " : "", dn->text);
	s_emit(d, m);
	s_point_destroy(d);
	if (d->quitting) {
		d->done_at_exit = true;
		d->quit_now = true;
	}
}

/* Reply STARTED to the pending START (cached under its id). */
static void s_started(lst_daemon *d, int64_t actual)
{
	struct s_point *pt = d->pt;
	lst_msg *m = s_out(d, LST_MSG_STARTED);

	m->u.started.phase = pt->phase;
	m->u.started.point = pt->point;
	m->u.started.t0 = pt->t0;
	m->u.started.actual = actual;
	pt->started_sent = true;
	lst_log_debug(LST_DBG_TIME, "point %u/%u released at %+.3f ms from t0", pt->phase,
		      pt->point, (double)(actual - pt->t0) / 1e6);
	s_reply_ex(d, &pt->peer, pt->start_id, LST_MSG_START, m,
		   d->sess.known && pt->gen == d->sess.gen);
}

static int s_on_start_timer(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;
	struct s_point *pt = d->pt;
	int64_t first, last;
	int rc;

	if (!pt || pt->timer != timer_id)
		return s_ret(d);
	pt->timer = -1;
	if (pt->run) {
		lst_run_started(pt->run, &first, &last);
		if (first <= 0 && ++pt->started_tries < 5000) {
			/* A job is not past its start instant yet: look again in 1 ms. */
			pt->timer = zloop_timer(loop, 1, 1, s_on_start_timer, d);
			return s_ret(d);
		}
		s_started(d, first > 0 ? first : lst_mono_ns());
		s_collect(d);
		return s_ret(d);
	}
	/* A purge: release the worker now (a worker that cannot start ends with its error). */
	rc = lst_purge_start(pt->purge);
	s_started(d, lst_mono_ns());
	if (rc)
		s_point_finish(d);
	return s_ret(d);
}

static void s_on_start(lst_daemon *d, const struct s_rid *rid, const lst_msg *m)
{
	const struct lst_msg_start *st = &m->u.start;
	struct s_point *pt = d->pt;
	int64_t now = lst_mono_ns(), delay;
	lst_err err;

	if (!pt || pt->phase != st->phase || pt->point != st->point) {
		if (pt)
			s_error(d, rid, m->id, m->type, LST_PERR_STATE,
				"start: point %u/%u is not prepared (prepared: %u/%u %s)",
				st->phase, st->point, pt->phase, pt->point, pt->name);
		else
			s_error(d, rid, m->id, m->type, LST_PERR_STATE,
				"start: point %u/%u is not prepared (nothing is)", st->phase,
				st->point);
		return;
	}
	if (pt->state == S_PREPARING) {
		s_error(d, rid, m->id, m->type, LST_PERR_STATE,
			"start: point %u/%u (%s) is still being prepared: send START after its "
			"PREPARED",
			st->phase, st->point, pt->name);
		return;
	}
	if (pt->state == S_STARTED) {
		s_error(d, rid, m->id, m->type, LST_PERR_STATE,
			"start: point %u/%u (%s) has already started", st->phase, st->point,
			pt->name);
		return;
	}
	/* t0 is any int64 from the wire: compare without subtracting it (that could overflow).
	 * A t0 far behind would also make the jobs close every interval since then, one by one. */
	if (st->t0 > now + S_T0_MAX_AHEAD || st->t0 < now - S_T0_MAX_BEHIND) {
		double off = ((double)st->t0 - (double)now) / 1e9;

		s_error(d, rid, m->id, m->type, LST_PERR_STATE,
			"start: t0 is %.1f s %s this agent's clock (more than an hour): a clock "
			"mix-up?",
			off > 0 ? off : -off, off > 0 ? "ahead of" : "behind");
		return;
	}
	pt->peer = *rid;
	pt->start_id = m->id;
	pt->t0 = st->t0;
	if (pt->run) {
		if (lst_run_start(pt->run, st->t0, &err)) {
			lst_log_warn("start %u/%u (%s) failed: %s", pt->phase, pt->point, pt->name,
				     err.msg);
			s_point_destroy(d);
			s_error(d, rid, m->id, m->type, LST_PERR_IO, "start: %s", err.msg);
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
	pt->state = S_STARTED;
	s_cache_put(&d->sess, m->id, true, NULL);
	delay = st->t0 > now ? (st->t0 - now + LST_NS_PER_MS - 1) / LST_NS_PER_MS + 1 : 0;
	pt->timer = zloop_timer(d->loop, (size_t)delay, 1, s_on_start_timer, d);
	lst_log_info("start point %u/%u (%s) at t0 %+.3f ms from now", pt->phase, pt->point,
		     pt->name, (double)(st->t0 - now) / 1e6);
}

static void s_on_stop(lst_daemon *d, const struct s_rid *rid, const lst_msg *m)
{
	const struct lst_msg_stop *st = &m->u.stop;
	struct s_point *pt = d->pt;
	lst_msg *r;

	if (pt && pt->phase == st->phase && pt->point == st->point) {
		lst_log_info("STOP point %u/%u (%s)", pt->phase, pt->point, pt->name);
		s_point_stop(d, LST_DONE_STOPPED, "STOP from the coordinator");
	}
	r = s_out(d, LST_MSG_STOPPED);
	r->u.stop.phase = st->phase;
	r->u.stop.point = st->point;
	s_reply(d, rid, m->id, m->type, r);
}

/* ---------------------------------------------------------------- dispatch */

static void s_on_frame(lst_daemon *d, const struct s_rid *rid, const uint8_t *buf, size_t len,
		       int64_t t_rx)
{
	struct s_session *s = &d->sess;
	bool peer = s_is_peer(d, rid);
	lst_msg *m = NULL, *r;
	struct s_cached *c;
	lst_err err;
	char rs[32];

	if (peer)
		s->last_rx = t_rx; /* any frame, even a broken one, shows the peer is alive */
	if (lst_msg_decode(buf, len, &m, &err)) {
		lst_log_debug(LST_DBG_PROTO, "in  undecodable frame of %zu bytes from %s: %s", len,
			      s_rid_str(rid, rs, sizeof(rs)), err.msg);
		s_error(d, rid, 0, 0, LST_PERR_BAD_MESSAGE, "%s", err.msg);
		return;
	}
	lst_log_debug(LST_DBG_PROTO, "in  %s seq=%llu id=%llu re=%llu from %s%s",
		      lst_msg_type_name(m->type), (unsigned long long)m->seq,
		      (unsigned long long)m->id, (unsigned long long)m->re,
		      s_rid_str(rid, rs, sizeof(rs)), peer ? "" : " (no session)");
	if (peer && m->id && m->type != LST_MSG_SYNC && (c = s_cache_find(s, m->id))) {
		if (c->pending) {
			lst_log_debug(LST_DBG_PROTO,
				      "retry of command %llu still executing: its "
				      "reply follows",
				      (unsigned long long)m->id);
		} else {
			lst_log_debug(LST_DBG_PROTO, "retry of command %llu: cached reply seq=%llu",
				      (unsigned long long)m->id, (unsigned long long)c->f.seq);
			s_send_raw(d, rid, c->f.buf, c->f.len);
		}
		goto out;
	}
	if (m->type == LST_MSG_HELLO) {
		s_on_hello(d, rid, m, t_rx);
		goto out;
	}
	if (!peer) {
		s_error(d, rid, m->id, m->type, LST_PERR_NO_SESSION,
			"%s: no session: send HELLO first", lst_msg_type_name(m->type));
		goto out;
	}
	switch (m->type) {
	case LST_MSG_SYNC:
		r = s_out(d, LST_MSG_SYNC_REPLY);
		r->u.sync_reply.t1 = m->u.sync.t1;
		r->u.sync_reply.t2 = t_rx;
		r->u.sync_reply.t3 = lst_mono_ns();
		s_reply(d, rid, m->id, m->type, r);
		break;
	case LST_MSG_PREPARE:
		s_on_prepare(d, rid, m);
		break;
	case LST_MSG_START:
		s_on_start(d, rid, m);
		break;
	case LST_MSG_STOP:
		s_on_stop(d, rid, m);
		break;
	case LST_MSG_PING:
		r = s_out(d, LST_MSG_PONG);
		r->u.ping.now = lst_mono_ns();
		s_reply(d, rid, m->id, m->type, r);
		break;
	case LST_MSG_ACK:
		s_spool_ack(s, m->u.ack.upto);
		break;
	case LST_MSG_BYE:
		lst_log_info("BYE from coordinator %s: session for run %s ends", s->coordinator,
			     s->run);
		s_session_clear(d, LST_DONE_STOPPED, "BYE from the coordinator");
		break;
	case LST_MSG_PONG:
		break; /* liveness only */
	case LST_MSG_ERROR:
		lst_log_warn("coordinator %s reports error %d: %s", s->coordinator, m->u.error.code,
			     m->u.error.text);
		break;
	default:
		s_error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE,
			"%s: not a message an agent accepts", lst_msg_type_name(m->type));
		break;
	}
out:
	lst_msg_destroy(&m);
}

static int s_on_router(zloop_t *loop, zsock_t *sock, void *arg)
{
	lst_daemon *d = arg;

	(void)loop;
	(void)sock;
	for (int i = 0; i < S_RX_BATCH && !d->quit_now; i++) {
		zmq_msg_t id, body;
		struct s_rid rid;
		int64_t t_rx;
		int more, nextra = 0;
		size_t sz = sizeof(more);

		zmq_msg_init(&id);
		if (zmq_msg_recv(&id, d->zs, ZMQ_DONTWAIT) < 0) {
			zmq_msg_close(&id);
			break;
		}
		rid.len = LST_MIN(zmq_msg_size(&id), sizeof(rid.b));
		memcpy(rid.b, zmq_msg_data(&id), rid.len);
		more = zmq_msg_more(&id);
		zmq_msg_close(&id);
		if (!more)
			continue; /* cannot happen on a ROUTER */
		zmq_msg_init(&body);
		if (zmq_msg_recv(&body, d->zs, 0) < 0) {
			zmq_msg_close(&body);
			continue;
		}
		t_rx = lst_mono_ns();
		{
			/* The ZAP handler named the coordinator's key as the connection's user. */
			const char *uid = d->curve ? zmq_msg_gets(&body, "User-Id") : NULL;

			lst_copy(d->rx_key, sizeof(d->rx_key), uid ? uid : "");
		}
		zmq_getsockopt(d->zs, ZMQ_RCVMORE, &more, &sz);
		while (more) {
			zmq_msg_t x;

			zmq_msg_init(&x);
			if (zmq_msg_recv(&x, d->zs, 0) < 0) {
				zmq_msg_close(&x);
				break;
			}
			nextra++;
			more = zmq_msg_more(&x);
			zmq_msg_close(&x);
		}
		if (nextra) {
			if (s_is_peer(d, &rid))
				d->sess.last_rx = t_rx;
			s_error(d, &rid, 0, 0, LST_PERR_BAD_MESSAGE,
				"message: %d frames after the routing id; a message is exactly one "
				"frame",
				nextra + 1);
		} else {
			s_on_frame(d, &rid, zmq_msg_data(&body), zmq_msg_size(&body), t_rx);
		}
		zmq_msg_close(&body);
	}
	return s_ret(d);
}

/* ---------------------------------------------------------------- authentication */

/* May a line of this kind be logged now? Counts what it holds back. */
static bool s_limit_ok(struct s_limit *l, int64_t now, unsigned *held)
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

static void s_hs_log(lst_daemon *d, enum s_hs_kind kind, enum lst_log_level level, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

/* A handshake log line, at most S_LOG_BURST of a kind per minute (a stranger can cause them). */
static void s_hs_log(lst_daemon *d, enum s_hs_kind kind, enum lst_log_level level, const char *fmt,
		     ...)
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

/* "fp1 (a.pub), fp2 (b.pub)" for logs. */
static void s_keys_str(const lst_authkeys *k, char *buf, size_t size)
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

/*
 * One ZAP request (RFC 27): version, request id, domain, address, identity, mechanism, then the
 * client's 32-byte public key. The reply carries the status and, as the user id, the key's
 * fingerprint (frames from that connection then carry it as "User-Id").
 */
static int s_on_zap(zloop_t *loop, zsock_t *sock, void *arg)
{
	lst_daemon *d = arg;
	zmsg_t *req = zmsg_recv(sock), *rep;
	zframe_t *ver, *reqid, *dom, *addr, *idf, *mech, *cred;
	char v[16], domain[64], address[64], mechanism[32], pub[LST_KEY_TEXT] = "", fp[16] = "?";
	char keys[512];
	const struct lst_authkey *k = NULL;
	const char *status = "400", *text = "coordinator key not authorized";
	lst_authkeys ak = { 0 };
	lst_err err;

	(void)loop;
	if (!req)
		return s_ret(d);
	ver = zmsg_pop(req);
	reqid = zmsg_pop(req);
	dom = zmsg_pop(req);
	addr = zmsg_pop(req);
	idf = zmsg_pop(req);
	mech = zmsg_pop(req);
	cred = zmsg_pop(req);
	s_frame_str(ver, v, sizeof(v));
	s_frame_str(dom, domain, sizeof(domain));
	s_frame_str(addr, address, sizeof(address));
	s_frame_str(mech, mechanism, sizeof(mechanism));
	if (cred && zframe_size(cred) == 32) {
		zmq_z85_encode(pub, zframe_data(cred), 32);
		lst_auth_fingerprint(pub, fp, sizeof(fp));
	}
	if (strcmp(v, "1.0") || !reqid) {
		s_hs_log(d, S_HS_OTHER, LST_LOG_WARN, "ZAP: malformed request (version '%s')", v);
		status = "500";
		text = "malformed ZAP request";
	} else if (strcmp(domain, LST_AUTH_ZAP_DOMAIN) || strcmp(mechanism, "CURVE") || !pub[0]) {
		s_hs_log(d, S_HS_REFUSED, LST_LOG_WARN,
			 "refused a connection from %s: mechanism %s in domain '%s' (only CURVE in "
			 "'%s' is accepted)",
			 address, mechanism, domain, LST_AUTH_ZAP_DOMAIN);
	} else if (lst_authkeys_load(d->auth_dir, &ak, &err)) {
		s_hs_log(d, S_HS_REFUSED, LST_LOG_WARN,
			 "refused coordinator key '%s' from %s: %s (every key is refused until it "
			 "can be read)",
			 fp, address, err.msg);
	} else if (!(k = lst_authkeys_find(&ak, pub))) {
		s_keys_str(&ak, keys, sizeof(keys));
		s_hs_log(d, S_HS_REFUSED, LST_LOG_WARN,
			 "refused coordinator key '%s' from %s: it is not in authorized_keys %s "
			 "(authorized: %s); to accept it, copy that coordinator's .pub file there",
			 fp, address, d->auth_dir, keys);
	} else {
		status = "200";
		text = "OK";
		s_hs_log(d, S_HS_ACCEPTED, LST_LOG_INFO,
			 "accepted coordinator key '%s' (%s) from %s", fp, k->file, address);
	}
	for (size_t i = 0; i < ak.nwarn; i++)
		lst_log_debug(LST_DBG_NET, "authorized_keys: %s", ak.warn[i]);
	lst_authkeys_clear(&ak);

	rep = zmsg_new();
	zmsg_addstr(rep, "1.0");
	if (reqid)
		zmsg_append(rep, &reqid);
	else
		zmsg_addstr(rep, "");
	zmsg_addstr(rep, status);
	zmsg_addstr(rep, text);
	zmsg_addstr(rep, status[0] == '2' ? fp : "");
	zmsg_addmem(rep, NULL, 0); /* no metadata */
	if (zmsg_send(&rep, sock))
		lst_log_warn("ZAP: cannot send the reply: %s", zmq_strerror(zmq_errno()));
	zmsg_destroy(&rep);
	zframe_destroy(&ver);
	zframe_destroy(&reqid);
	zframe_destroy(&dom);
	zframe_destroy(&addr);
	zframe_destroy(&idf);
	zframe_destroy(&mech);
	zframe_destroy(&cred);
	zmsg_destroy(&req);
	return s_ret(d);
}

/*
 * Handshake failures that ZAP never sees, from the ROUTER's monitor. (A refused key was logged
 * by s_on_zap already.)
 */
static int s_on_monitor(zloop_t *loop, zsock_t *sock, void *arg)
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
				d, S_HS_MISMATCH, LST_LOG_WARN,
				d->curve
					? "refused a peer that speaks plain text: this agent "
					  "requires CURVE (its plan must give this agent's key:)"
					: "refused a peer that speaks CURVE: this agent speaks plain "
					  "text (start it with --key and --authorized-keys)");
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL &&
			 val == ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC)
			s_hs_log(
				d, S_HS_WRONG_KEY, LST_LOG_WARN,
				"refused a CURVE handshake made for another agent key: this agent's "
				"key is '%s' (%s); the coordinator's plan names another key: for it",
				lst_auth_fingerprint(d->pub, fp, sizeof(fp)), d->key_file);
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL)
			s_hs_log(d, S_HS_OTHER, LST_LOG_WARN,
				 "a handshake failed: ZMTP protocol error 0x%08x", val);
		else if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL)
			lst_log_debug(LST_DBG_NET, "a handshake ended early: %s",
				      strerror((int)val));
	}
	return s_ret(d);
}

/* Start the ZAP handler and make the ROUTER a fail-closed CURVE server. Before binding. */
static int s_curve_setup(lst_daemon *d, lst_err *err)
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

/*
 * The ROUTER's handshake failures into d->mon. The endpoint is numbered, not fixed: libzmq
 * closes a monitor in the background, so a daemon made again in the same process (a test, a
 * restart of the object) could find its predecessor's endpoint still bound.
 */
static int s_monitor_setup(lst_daemon *d, lst_err *err)
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

/* ---------------------------------------------------------------- signals */

static int s_on_quit_timer(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;

	(void)loop;
	(void)timer_id;
	if (d->pt)
		lst_log_warn("jobs of point %u/%u did not drain within %d ms; exiting anyway",
			     d->pt->phase, d->pt->point, S_QUIT_GRACE_MS);
	d->quit_now = true;
	return -1;
}

static int s_on_signal(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct signalfd_siginfo si;

	(void)loop;
	while (read(item->fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			if (d->log_path) {
				int rc = lst_log_open(d->log_path);

				if (rc)
					lst_log_error("SIGHUP: cannot reopen %s: %s", d->log_path,
						      strerror(-rc));
				else
					lst_log_info("SIGHUP: log reopened");
			}
			continue;
		}
		if (d->quitting) {
			lst_log_warn("%s again: exiting now", strsignal((int)si.ssi_signo));
			d->quit_now = true;
			continue;
		}
		lst_log_info("%s: stopping", strsignal((int)si.ssi_signo));
		d->quitting = true;
		if (d->pt && d->pt->state == S_STARTED) {
			char why[128];

			snprintf(why, sizeof(why), "the agent is shutting down (%s)",
				 strsignal((int)si.ssi_signo));
			s_point_stop(d, LST_DONE_STOPPED, why);
			d->quit_timer =
				zloop_timer(d->loop, S_QUIT_GRACE_MS, 1, s_on_quit_timer, d);
		} else {
			s_point_destroy(d);
			d->quit_now = true;
		}
	}
	return s_ret(d);
}

/* ---------------------------------------------------------------- the object */

/*
 * The spool's bound: every SAMPLE of a whole lease at the shortest interval (a coordinator may
 * be unreachable that long while the point runs on), half as much again, and a few DONEs; in
 * bytes, that many frames at S_SPOOL_FRAME_EST, within [S_SPOOL_MIN_BYTES, S_SPOOL_MAX_BYTES].
 */
static void s_spool_bounds(struct s_session *s, int64_t lease_max)
{
	uint64_t frames =
		(uint64_t)(lease_max / S_SPOOL_MIN_INTERVAL) * 3 / 2 + S_SPOOL_SPARE_FRAMES;
	uint64_t bytes = frames * S_SPOOL_FRAME_EST;

	s->spool_max_frames = (size_t)frames;
	s->spool_max_bytes = (size_t)LST_MIN(LST_MAX(bytes, S_SPOOL_MIN_BYTES), S_SPOOL_MAX_BYTES);
}

/*
 * The endpoint to give zmq_bind: ZeroMQ binds to an interface name or an IP address, never a
 * host name, so "tcp://localhost:P" would fail; it means the IPv4 loopback, 127.0.0.1 (plain
 * text stays allowed on it: it is loopback either way).
 */
static void s_bind_endpoint(const char *listen, char *buf, size_t size)
{
	static const char lh[] = "tcp://localhost:";

	if (!strncasecmp(listen, lh, sizeof(lh) - 1))
		snprintf(buf, size, "tcp://127.0.0.1:%s", listen + sizeof(lh) - 1);
	else
		lst_copy(buf, size, listen);
}

lst_daemon *lst_daemon_new(const struct lst_daemon_opts *o, lst_err *err)
{
	lst_daemon *d = lst_calloc(1, sizeof(*d));
	sigset_t mask;
	lst_err perr;
	char *ep, listen[300];

	d->lease_max = o->lease_max > 0 ? o->lease_max : LST_CONFIG_LEASE_MAX_DEFAULT;
	s_spool_bounds(&d->sess, d->lease_max);
	d->mem_max_default = !o->mem_max;
	d->mem_max = o->mem_max ? o->mem_max : lst_config_mem_max_default();
	d->policy = o->policy;
	d->name = lst_strdup(o->name);
	d->log_path = o->log_path ? lst_strdup(o->log_path) : NULL;
	d->curve = o->curve_secret != NULL;
	if (d->curve) {
		if (!lst_auth_is_key_text(o->curve_secret) || !o->curve_public ||
		    !o->authorized_keys || o->authorized_keys[0] != '/') {
			lst_err_set(err, -EINVAL,
				    "CURVE needs a secret key, its public key and an absolute "
				    "authorized_keys folder");
			goto fail;
		}
		lst_copy(d->secret, sizeof(d->secret), o->curve_secret);
		lst_copy(d->pub, sizeof(d->pub), o->curve_public);
		d->key_file = lst_strdup(o->key_file ? o->key_file : "?");
		d->auth_dir = lst_strdup(o->authorized_keys);
	}
	d->sfd = -1;
	d->tick = -1;
	d->quit_timer = -1;
	d->out = lst_msg_new(LST_MSG_PING);
	uname(&d->uts);
	/* A coordinator tells a restarted agent by this number (PROTOCOL.md 6.2). */
	while (!d->instance) {
		if (getrandom(&d->instance, sizeof(d->instance), 0) != sizeof(d->instance)) {
			lst_err_sys(err, -errno, "getrandom for the agent's instance number");
			goto fail;
		}
	}
	d->engines = (1u << LST_ENGINE_PSYNC) | (1u << LST_ENGINE_NULL);
	if (!lst_engine_uring_probe(&perr))
		d->engines |= 1u << LST_ENGINE_IO_URING;
	else
		lst_log_warn("io_uring is not usable here (%s): runs fall back to psync", perr.msg);

	/* Signals: read from a signalfd in the reactor; every thread made later inherits the
	 * mask (czmq's own handler is never called for a blocked signal). */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &mask, &d->oldmask);
	signal(SIGPIPE, SIG_IGN);
	d->sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sfd < 0) {
		lst_err_sys(err, -errno, "signalfd");
		goto fail;
	}

	d->router = zsock_new(ZMQ_ROUTER);
	if (!d->router) {
		lst_err_set(err, -ENOMEM, "cannot create the ROUTER socket: %s",
			    zmq_strerror(zmq_errno()));
		goto fail;
	}
	d->zs = zsock_resolve(d->router);
	zsock_set_linger(d->router, 0);
	zsock_set_router_mandatory(d->router, 1);
	zsock_set_maxmsgsize(d->router, LST_MSG_MAX_BYTES);
	zsock_set_heartbeat_ivl(d->router, 1000);
	zsock_set_heartbeat_timeout(d->router, 5000);
	zsock_set_heartbeat_ttl(d->router, 60000);
	zsock_set_sndhwm(d->router, 100000);
	zsock_set_rcvhwm(d->router, 10000);
	if (d->curve && s_curve_setup(d, err))
		goto fail;
	if (s_monitor_setup(d, err))
		goto fail;
	s_bind_endpoint(o->listen, listen, sizeof(listen));
	if (zsock_bind(d->router, "%s", listen) < 0) {
		lst_err_set(err, -EADDRINUSE, "cannot listen on %s: %s", o->listen,
			    zmq_strerror(zmq_errno()));
		goto fail;
	}
	ep = zsock_last_endpoint(d->router); /* the caller's to free */
	lst_copy(d->endpoint, sizeof(d->endpoint), ep ? ep : o->listen);
	free(ep);

	d->loop = zloop_new();
	zloop_set_nonstop(d->loop, true);
	zloop_reader(d->loop, d->router, s_on_router, d);
	zloop_reader_set_tolerant(d->loop, d->router);
	if (d->zap) {
		zloop_reader(d->loop, d->zap, s_on_zap, d);
		zloop_reader_set_tolerant(d->loop, d->zap);
	}
	zloop_reader(d->loop, d->mon, s_on_monitor, d);
	zloop_reader_set_tolerant(d->loop, d->mon);
	d->sig_item = (zmq_pollitem_t){ .fd = d->sfd, .events = ZMQ_POLLIN };
	zloop_poller(d->loop, &d->sig_item, s_on_signal, d);
	d->tick = zloop_timer(d->loop, S_TICK_MS, 0, s_on_tick, d);
	return d;
fail:
	lst_daemon_destroy(&d);
	return NULL;
}

int lst_daemon_run(lst_daemon *d)
{
	int rc;

	lst_log_info("listening on %s as %s (lockstep %s, protocol %d, engines:%s%s%s)",
		     d->endpoint, d->name, LST_VERSION, LST_PROTO_VERSION,
		     d->engines & (1u << LST_ENGINE_IO_URING) ? " io_uring" : "",
		     d->engines & (1u << LST_ENGINE_PSYNC) ? " psync" : "",
		     d->engines & (1u << LST_ENGINE_NULL) ? " null" : "");
	{
		char m[32];

		lst_log_info("spool: at most %zu unacknowledged frames or %s (lease_max %.0f s "
			     "at 10 ms intervals, x1.5)",
			     d->sess.spool_max_frames,
			     lst_fmt_size(d->sess.spool_max_bytes, m, sizeof(m)),
			     (double)d->lease_max / 1e9);
		lst_log_info("memory cap per point: %s (mem_max%s)",
			     lst_fmt_size(d->mem_max, m, sizeof(m)),
			     d->mem_max_default ? ", the default: " S_STR(
							  LST_CONFIG_MEM_MAX_PERCENT) "% of RAM"
						: "");
	}
	if (d->curve) {
		lst_authkeys ak;
		char fp[16], keys[1024];
		lst_err err;

		lst_log_info("CURVE on: agent key '%s' (%s); ZAP domain '%s', enforced",
			     lst_auth_fingerprint(d->pub, fp, sizeof(fp)), d->key_file,
			     LST_AUTH_ZAP_DOMAIN);
		if (lst_authkeys_load(d->auth_dir, &ak, &err)) {
			lst_log_warn("%s: every coordinator is refused until it can be read",
				     err.msg);
		} else {
			for (size_t i = 0; i < ak.nwarn; i++)
				lst_log_warn("authorized_keys: %s", ak.warn[i]);
			s_keys_str(&ak, keys, sizeof(keys));
			if (ak.n)
				lst_log_info("authorized coordinator keys in %s: %s", d->auth_dir,
					     keys);
			else
				lst_log_warn(
					"authorized_keys %s holds no key: every coordinator is "
					"refused until a .pub file is put there",
					d->auth_dir);
			lst_authkeys_clear(&ak);
		}
	} else if (!lst_auth_endpoint_is_local(d->endpoint)) {
		lst_log_warn("insecure: listening on %s in plain text, without CURVE: anyone who "
			     "can reach it can read the traffic and drive this agent within its "
			     "allow_write list; give --key and --authorized-keys "
			     "(docs/security.md)",
			     d->endpoint);
	} else {
		lst_log_info("plain text on loopback (no --key): only this host can connect");
	}
	/* zloop_start returns 0 both when zmq_poll fails and when interrupted (never, here: the
	 * signals are read from the signalfd), and -1 when a handler ends it: only a handler that
	 * set quit_now means we were asked to stop. */
	rc = zloop_start(d->loop);
	if (!d->quit_now) {
		lst_log_error("reactor failed (zloop_start returned %d): %s", rc,
			      zmq_strerror(zmq_errno()));
		return -EIO;
	}
	return 0;
}

const char *lst_daemon_endpoint(const lst_daemon *d)
{
	return d->endpoint;
}

void lst_daemon_destroy(lst_daemon **p)
{
	lst_daemon *d = *p;

	if (!d)
		return;
	if (d->pt) {
		bool drained = d->pt->state != S_STARTED ||
			       (d->pt->purge && !lst_purge_launched(d->pt->purge));

		if (drained) {
			s_point_destroy(d);
		} else {
			/* Joining jobs that may sleep until t0 could take an hour: leave them to
			 * the process exit, which also closes their files. */
			lst_log_warn("exiting with point %u/%u still draining", d->pt->phase,
				     d->pt->point);
			d->pt = NULL;
		}
	}
	zloop_destroy(&d->loop);
	if (d->router) {
		/* A DONE queued during shutdown gets a short, bounded chance to leave. */
		zsock_set_linger(d->router, d->done_at_exit ? 500 : 0);
		zsock_destroy(&d->router);
	}
	zsock_destroy(&d->mon);
	zsock_destroy(&d->zap);
	explicit_bzero(d->secret, sizeof(d->secret));
	free(d->key_file);
	free(d->auth_dir);
	if (d->sfd >= 0)
		close(d->sfd);
	s_cache_clear(&d->sess);
	s_spool_clear(&d->sess);
	lst_msg_destroy(&d->out);
	free(d->name);
	free(d->log_path);
	free(d);
	*p = NULL;
}
