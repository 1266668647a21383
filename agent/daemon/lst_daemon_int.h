/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon's private header (sqlite's btreeInt.h pattern): the state that the files of
 * agent/daemon share, and their cross-file functions, named lst_daemon__x. Nothing outside this
 * folder includes it but the daemon's unit tests (tests/agent/daemon/lst_daemon_rig.h), which drive each
 * file through it; lst_daemon.h is the public face.
 *
 * The files, one job each, all on the one zloop reactor thread:
 *   lst_daemon.c           the object: sockets, reactor set-up, signals, start-up logs, teardown
 *   lst_daemon_dispatch.c  the ROUTER reader and frame dispatch (retries answered from the cache)
 *   lst_daemon_held.c      a PREPARE held while the previous session's point stops, replayed
 *   lst_daemon_send.c      sending, the reply cache and the spool of SAMPLE/DONE frames
 *   lst_daemon_session.c   sessions: HELLO, reconnect and resume, the lease
 *   lst_daemon_prepare.c   PREPARE: disk-safety opens, resource checks, the PREPARE worker
 *   lst_daemon_point.c     the point's life after PREPARE: START, samples, STOP, DONE
 *   lst_daemon_release.c   letting go of a point and of its PREPARE worker's state
 *   lst_daemon_zap.c       CURVE: the ZAP handler and the handshake monitor
 *   lst_daemon_hook.c      hooks: START's events and their EVENTs, HOOK, KMSG
 *   lst_daemon_verify.c    data integrity: JOURNAL, the verifying reads' maps,
 *                          PREPARED's streams, SAMPLE's marks, INTEGRITY
 *   lst_daemon_trace.c     trace record and replay: the traces a PREPARE replays,
 *                          the files its recordings go to, written at the point's end
 *
 * The daemon: sessions, commands and the point being run, on one zloop reactor.
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
#ifndef LST_DAEMON_INT_H
#define LST_DAEMON_INT_H

#include <czmq.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/utsname.h>
#include <zmq.h>

#include "lst_auth.h"
#include "lst_config.h"
#include "lst_daemon.h"
#include "lst_err.h"
#include "lst_hook.h"
#include "lst_identity.h"
#include "lst_msg.h"
#include "lst_purge.h"
#include "lst_run.h"

#define LST_DAEMON__CACHE_N 64 /* replies remembered per session */
#define LST_DAEMON__STR2(x) #x
#define LST_DAEMON__STR(x) LST_DAEMON__STR2(x)
#define LST_DAEMON__RID_MAX 256 /* ZeroMQ routing ids are at most 255 bytes */

struct lst_daemon__rid {
	size_t len;
	uint8_t b[LST_DAEMON__RID_MAX];
};

/* A frame handler: the dispatcher's, handed to the held PREPARE's replay (lst_daemon_held.c). */
typedef void (*lst_daemon__replay_fn)(lst_daemon *d, const struct lst_daemon__rid *rid,
				      const uint8_t *buf, size_t len, int64_t t_rx);

/* An encoded frame: a spooled SAMPLE/DONE, or a cached reply. */
struct lst_daemon__frame {
	uint64_t seq;
	uint8_t *buf;
	size_t len;
};

struct lst_daemon__cached {
	uint64_t id;  /* 0 = empty slot */
	bool pending; /* executing: the reply follows (START until t0) */
	struct lst_daemon__frame f;
};

/* Rate limit for log lines a stranger can cause (handshake failures). */
struct lst_daemon__limit {
	int64_t since; /* start of the window */
	unsigned n;    /* lines logged in it */
	unsigned suppressed;
};

enum lst_daemon__hs_kind {
	LST_DAEMON__HS_ACCEPTED,
	LST_DAEMON__HS_REFUSED,
	LST_DAEMON__HS_WRONG_KEY,
	LST_DAEMON__HS_MISMATCH,
	LST_DAEMON__HS_OTHER,
	LST_DAEMON__HS_N,
};

/* A target's write journal as the coordinator sent it (JOURNAL pages, in order). */
struct lst_daemon__journal {
	uint32_t target; /* lst_verify_target_id */
	uint32_t total;	 /* streams the coordinator announced */
	size_t n, cap;
	struct lst_journal_stream *st;
};

struct lst_daemon__session {
	bool active;  /* a coordinator holds the agent */
	bool known;   /* run id, seq, cache, spool are valid (active or dormant) */
	uint64_t gen; /* +1 for every fresh session */
	struct lst_daemon__rid peer;
	char run[LST_RUN_ID_MAX];
	char coordinator[LST_NAME_MAX];
	char key[LST_KEY_FP_LEN + 1]; /* fingerprint of its CURVE key, "" in plain text */
	int64_t lease;		      /* ns */
	int64_t last_rx;	      /* monotonic ns of the last frame from the peer */
	uint64_t seq;		      /* last seq sent in this session */
	struct lst_daemon__cached cache[LST_DAEMON__CACHE_N];
	unsigned cache_next;
	struct lst_daemon__frame *spool; /* circular: spool_n frames from spool_head */
	size_t spool_cap, spool_head, spool_n, spool_bytes;
	size_t spool_max_frames, spool_max_bytes; /* the bound, fixed at start */
	bool spool_burst;			  /* dropping since the last ACK (logged once) */
	uint64_t spool_dropped;			  /* frames dropped in this session */
	uint64_t spool_unreported;		  /* ... not yet said in a DONE's text */
	bool hooks_cap;				  /* the HELLO listed LST_CAP_HOOKS */
	/* KMSG: the kernel log since MARK (fd -1: no mark); the text read so far is kept, so
	 * that every READ answers with everything since the mark */
	int kmsg_fd;
	char *kmsg_text; /* LST_KMSG_TEXT_MAX + 1 bytes once marked */
	size_t kmsg_len;
	uint32_t kmsg_dropped;
	char kmsg_error[LST_TEXT_MAX];
	/* the HELLO listed LST_CAP_VERIFY; the journals JOURNAL sent, per target */
	bool verify_cap;
	struct lst_daemon__journal *journals;
	size_t njournals;
};

/*
 * A point's verifying reads: per job spec, the journal streams of its target (a copy:
 * the session's may change while the worker builds) and the map of its region, built by the
 * PREPARE worker and borrowed by the run's jobs, so it lives as long as the run.
 */
struct lst_daemon__vmaps {
	struct {
		bool on; /* a verifying read */
		uint64_t first_lba, nunits;
		struct lst_journal_stream *st;
		size_t nst;
		struct lst_verify_map map;
		bool built;
	} spec[LST_MAX_JOBSPECS];
};

/*
 * A point's traces, per job spec: the trace read_iolog replays (read at PREPARE, on
 * the reactor; borrowed by the run's job) and where write_iolog's recording goes. Owned like
 * the verify maps: by the point, then by its PREPARE worker, then by the point with its run;
 * freed after the run.
 */
struct lst_daemon__traces {
	struct {
		bool replay;	    /* read_iolog: t holds its trace */
		struct lst_trace t; /* ... from file */
		size_t writes;	    /* its records that write or trim */
		size_t rec_max;	    /* write_iolog: records kept at most (0 = not recording) */
		uint32_t lbs;	    /* the path's logical block size and size, for the header */
		uint64_t size;
		char file[LST_PATH_MAX];     /* the replayed trace's file */
		char rec_file[LST_PATH_MAX]; /* the recording's */
	} spec[LST_MAX_JOBSPECS];
};

/* The thread writing a point's recordings when it ends, and what each spec gave. */
struct lst_daemon__tw_spec {
	int rc;
	size_t nrec;
	uint64_t dropped;
	int64_t ns; /* the time the file took */
	lst_err err;
};

struct lst_daemon__tw {
	pthread_t thread;
	int efd;
	zmq_pollitem_t item;
	_Atomic int done; /* spec[] is written (release) */
	bool joined;
	const lst_run *run;		     /* borrowed: over */
	const struct lst_daemon__traces *tr; /* borrowed */
	struct lst_daemon__tw_spec spec[LST_MAX_JOBSPECS];
};

/* One event of a started point (START's events): its job, and whether its EVENT went out. */
struct lst_daemon__ev {
	struct lst_event_req req;
	lst_hook_job *job; /* NULL once its EVENT is sent */
	zmq_pollitem_t item;
	bool polling;
	bool sent;
};

/* The HOOK command being executed (one at a time): HOOK_DONE goes to peer, re id. */
struct lst_daemon__hookcmd {
	lst_hook_job *job;
	zmq_pollitem_t item;
	struct lst_daemon__rid peer;
	uint64_t id, gen;
	uint32_t kind, phase;
	char name[LST_NAME_MAX];
};

/* One path of a point, opened once however many jobs use it. */
struct lst_daemon__path {
	char path[LST_PATH_MAX];
	int fd;
	enum lst_dev_access access;
	bool direct;
	const char *identity; /* borrowed from the PREPARE job spec, "" = none */
	const char *replay;   /* the trace whose writes make it a write path, or NULL */
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
struct lst_daemon__prep {
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
	struct lst_daemon__vmaps *vm;		  /* NULL when nothing is verified */
	struct lst_daemon__traces *tr;		  /* NULL when nothing is traced */
	lst_run *run;
	int rc;
	lst_err err;
	/* A trace loader (the first of a replaying point's two workers) reads its traces into tr
	 * with these copies of the daemon's settings, which it may outlive. */
	bool loader;
	char *trace_dir;
	char agent[LST_NAME_MAX];
	uint64_t mem_max;
};

enum lst_daemon__state {
	LST_DAEMON__PREPARING, /* a PREPARE worker is building the run; PREPARED follows */
	LST_DAEMON__PREPARED,
	LST_DAEMON__STARTED,
};

struct lst_daemon__point {
	enum lst_daemon__state state;
	uint32_t phase, point, action;
	char name[LST_NAME_MAX];
	uint64_t gen; /* session generation that prepared it */
	struct lst_daemon__path paths[LST_MAX_JOBSPECS];
	size_t npaths;
	lst_run *run;
	struct lst_daemon__vmaps *vm;  /* the run's verify maps (freed after the run) */
	struct lst_daemon__traces *tr; /* its traces (freed after the run), or NULL */
	struct lst_daemon__tw *tw;     /* writing its recordings at the end, or NULL */
	zmq_pollitem_t item;	       /* the run's eventfd */
	bool polling;
	struct lst_daemon__prep *prep; /* while LST_DAEMON__PREPARING */
	uint64_t prepare_id;	       /* the PREPARE command being answered */
	lst_purge *purge;	       /* a purge point's worker (agent/io/lst_purge) */
	zmq_pollitem_t purge_item;     /* its eventfd */
	bool purge_polling;
	struct lst_daemon__rid peer; /* who sent START: STARTED, SAMPLE and DONE go there */
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
	uint64_t samples_unsplit;  /* SAMPLEs sent without their parts: too large with them */
	struct lst_daemon__ev *ev; /* START's events, nev of them */
	size_t nev;
	uint32_t events_sent;
	bool ending; /* the jobs have ended: DONE waits for the events' EVENTs */
	/* Sends DONE and frees the point once every EVENT and recording is out (set by
	 * lst_daemon_point.c when the jobs have ended; the events and the trace writer call it
	 * again when their last piece is out, so they never call up into the point's file). */
	void (*finish)(lst_daemon *d);
	int64_t end_at; /* when (monotonic ns) */
};

struct lst_daemon {
	int64_t lease_max;	      /* ns, > 0 */
	uint64_t mem_max;	      /* bytes one point may ask for, > 0 */
	bool mem_max_default;	      /* mem_max is the default share of RAM */
	const lst_dev_policy *policy; /* borrowed */
	char *name, *log_path;
	char *trace_dir; /* the folder of traces */
	char endpoint[256];
	zsock_t *router;
	void *zs; /* the raw libzmq socket */
	bool curve;
	char secret[LST_KEY_TEXT], pub[LST_KEY_TEXT];
	char *key_file, *auth_dir;
	zsock_t *zap; /* ZAP handler (REP), CURVE only */
	zsock_t *mon; /* the ROUTER's handshake events (PAIR) */
	struct lst_daemon__limit limits[LST_DAEMON__HS_N];
	char rx_key[LST_KEY_FP_LEN + 1]; /* User-Id of the frame being handled ("" = none) */
	zloop_t *loop;
	int sfd; /* signalfd */
	zmq_pollitem_t sig_item;
	int tick;
	sigset_t oldmask;
	struct lst_daemon__session sess;
	struct lst_daemon__point *pt;
	uint64_t stray_seq; /* seq for replies to peers without a session */
	uint32_t engines;
	uint64_t instance; /* WELCOME's instance: random, non-zero, one per process */
	struct utsname uts;
	lst_msg *out; /* reused for every message built (it is large) */
	bool quitting;
	bool quit_now;	   /* handlers return -1: the reactor ends */
	bool done_at_exit; /* a DONE was queued during shutdown: linger a little */
	int quit_timer;
	/* the config's hooks and collectors (borrowed from the opts) */
	const struct lst_config_cmd *hooks, *collectors;
	size_t nhooks, ncollectors;
	int64_t hook_timeout;		/* ns, > 0 */
	struct lst_daemon__hookcmd *hc; /* the HOOK being executed, or NULL */
	/* A PREPARE that came while the previous session's point was still stopping: it runs
	 * once that point's DONE is out (lst_daemon__held_*). buf NULL = none held. */
	struct lst_daemon__held {
		struct lst_daemon__rid rid;
		lst_daemon__replay_fn replay; /* the dispatcher's frame handler */
		uint8_t *buf;
		size_t len;
		uint64_t id;
		int timer; /* the hold's deadline, then the replay's 0 ms timer; -1 = none */
		char rx_key[LST_KEY_FP_LEN + 1];
	} held;
};

/* ---- lst_daemon_send.c */

/* Are two routing ids the same peer? */
bool lst_daemon__rid_eq(const struct lst_daemon__rid *a, const struct lst_daemon__rid *b);

/* Routing id for logs: hex of up to 8 bytes. */
const char *lst_daemon__rid_str(const struct lst_daemon__rid *r, char *buf, size_t size);

/* What a reactor handler returns: -1 once the daemon must quit (the reactor ends), else 0. */
int lst_daemon__ret(const lst_daemon *d);

/* Send one encoded frame to rid without blocking. Returns 0 or -errno (logged). */
int lst_daemon__send_raw(lst_daemon *d, const struct lst_daemon__rid *rid, const uint8_t *buf,
			 size_t len);

/* Is rid the peer of the active session? */
bool lst_daemon__is_peer(const lst_daemon *d, const struct lst_daemon__rid *rid);

/* The reply cache: remember (id -> frame). Takes ownership of f's buffer. */
void lst_daemon__cache_put(struct lst_daemon__session *s, uint64_t id, bool pending,
			   struct lst_daemon__frame *f);

/* The cached reply (or pending slot) of command id, or NULL. */
struct lst_daemon__cached *lst_daemon__cache_find(struct lst_daemon__session *s, uint64_t id);

/* Forget every cached reply (a session ends). */
void lst_daemon__cache_clear(struct lst_daemon__session *s);

/*
 * Reply to command cmd_id (of type cmd_type) from rid; m's type and body are set, seq and re are
 * set here. own: the reply belongs to the session (its seq; cached by id, except SYNC_REPLY).
 */
void lst_daemon__reply_ex(lst_daemon *d, const struct lst_daemon__rid *rid, uint64_t cmd_id,
			  uint32_t cmd_type, lst_msg *m, bool own);

/* lst_daemon__reply_ex, owned by the session when rid is its peer. */
void lst_daemon__reply(lst_daemon *d, const struct lst_daemon__rid *rid, uint64_t cmd_id,
		       uint32_t cmd_type, lst_msg *m);

/* The reusable outgoing message, header and the body about to be filled cleared. */
lst_msg *lst_daemon__out(lst_daemon *d, enum lst_msg_type type);

/* Reply ERROR code with a formatted text to command cmd_id from rid (cached like any reply). */
void lst_daemon__error(lst_daemon *d, const struct lst_daemon__rid *rid, uint64_t cmd_id,
		       uint32_t cmd_type, int code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* ACK: drop every frame with seq <= upto (frames are in seq order). Ends a burst of drops. */
void lst_daemon__spool_ack(struct lst_daemon__session *s, uint64_t upto);

/* Drop every spooled frame and reset the drop counters (a session ends). */
void lst_daemon__spool_clear(struct lst_daemon__session *s);

/*
 * Send a SAMPLE or DONE of the point. In the session that prepared it, it takes the session's
 * seq and is spooled until ACKed; a point left over from an ended session sends it bare.
 * Returns 0, -EMSGSIZE for a SAMPLE too large to encode (nothing sent, no seq used: send it
 * again smaller), or -EINVAL (a bug, logged).
 */
int lst_daemon__emit(lst_daemon *d, lst_msg *m);

/*
 * The spool's bound: every SAMPLE of a whole lease at the shortest interval (a coordinator may
 * be unreachable that long while the point runs on), half as much again, and a few DONEs; in
 * bytes, that many frames at S_SPOOL_FRAME_EST, within [S_SPOOL_MIN_BYTES, S_SPOOL_MAX_BYTES].
 */
void lst_daemon__spool_bounds(struct lst_daemon__session *s, int64_t lease_max);

/* ---- lst_daemon_release.c */

/* Drop one reference to a PREPARE worker's state (the reactor's or the worker's); the last one
 * frees it, and a run nobody took. Safe from the worker thread. */
void lst_daemon__prep_put(struct lst_daemon__prep *pg);

/* The reactor lets go of a PREPARE worker: it stops wanting the result (the worker gives up
 * its fill and frees what it made) unless the result was already taken. Never blocks. */
void lst_daemon__prep_release(lst_daemon *d, struct lst_daemon__prep **p);

/* Free a point: stop its poller and timer, destroy the run (joins its jobs), close its paths.
 * Only for a point that never started or whose jobs have finished. A PREPARE worker still busy
 * is cancelled and left to free its own work. */
void lst_daemon__point_destroy(lst_daemon *d);

/* ---- lst_daemon_point.c */

/* Ask the running point to stop (idempotent: the first reason sticks). DONE follows when its
 * jobs have drained, also before t0: the jobs then leave their wait at once and the STARTED
 * timer fires now instead of at t0. A point never started is simply dropped. */
void lst_daemon__point_stop(lst_daemon *d, uint32_t reason, const char *text);

/* START: check the point and t0, arm the run (or the purge) and the STARTED timer for t0. */
void lst_daemon__on_start(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m);

/* STOP: ask the named point to stop (DONE follows) and answer STOPPED in any case. */
void lst_daemon__on_stop(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m);

/* ---- lst_daemon_hook.c */

/* Does START m name only hooks of the config, at instants >= t0? If not, ERROR REFUSED is
 * sent (naming the hook and the defined ones) and false returned. Events of a session whose
 * HELLO did not list LST_CAP_HOOKS are ignored (true). */
bool lst_daemon__events_check(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m);

/* Arm START st's events on the started point: one job each, at t0 + after. */
void lst_daemon__events_arm(lst_daemon *d, const struct lst_msg_start *st);

/* The point's jobs have ended: cancel the events not started yet (their EVENT says so).
 * Returns true while an EVENT is still to be sent (DONE must wait). */
bool lst_daemon__events_pending(lst_daemon *d);

/* Stop polling the point's events and let go of their jobs (a running hook finishes alone). */
void lst_daemon__events_free(lst_daemon *d, struct lst_daemon__point *pt);

/* WELCOME's caps and hook and collector names; remembers whether the HELLO had hooks.v1. */
void lst_daemon__welcome_hooks(lst_daemon *d, const struct lst_msg_hello *h,
			       struct lst_msg_welcome *w);

/* HOOK: run a hook or collector now; HOOK_DONE follows when it ends (ERROR when it cannot). */
void lst_daemon__on_hook(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m);

/* KMSG: MARK the kernel log, or READ what it got since the mark. Always answered. */
void lst_daemon__on_kmsg(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m);

/* Forget the session's kernel log mark (its fd and text). */
void lst_daemon__kmsg_close(struct lst_daemon__session *s);

/* Shutdown: let go of a HOOK still running (it is not waited for). */
void lst_daemon__hook_destroy(lst_daemon *d);

/* ---- lst_daemon_prepare.c */

/*
 * Cancel a PREPARE still being executed: its command gets ERROR STATE saying why (cached under
 * its id, so a retry learns it too), the worker is told to give up, the point is dropped.
 */
void lst_daemon__prepare_cancel(lst_daemon *d, const char *why);

/* PREPARE: replace any point not running by this one; PREPARED or ERROR follows (later, for I/O). */
void lst_daemon__on_prepare(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m);

/* ---- lst_daemon_verify.c */

/* WELCOME's caps gain LST_CAP_VERIFY; remembers whether the HELLO listed it. */
void lst_daemon__welcome_verify(lst_daemon *d, const struct lst_msg_hello *h,
				struct lst_msg_welcome *w);

/* JOURNAL: store the page (from 0 starts the target afresh; a gap is ERROR STATE, more than
 * LST_DAEMON__JOURNAL_MAX streams ERROR REFUSED) and answer JOURNAL_OK. */
void lst_daemon__on_journal(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m);

/* Forget the session's journals (the session ends). */
void lst_daemon__journal_free(struct lst_daemon__session *s);

/*
 * May PREPARE p verify as it asks? A stamp from a coordinator whose HELLO lacked verify.v1, a
 * verified spec without its stamp or mixing reads and writes, more verified write jobs than
 * LST_MAX_STREAMS, a verifying read of a target without a journal: -EINVAL with err. 0 when
 * fine (also when nothing is verified).
 */
int lst_daemon__verify_check(const lst_daemon *d, const struct lst_msg_prepare *p, lst_err *err);

/*
 * The verifying reads' journals for PREPARE p, whose path sizes are size[i] (per job spec):
 * *out = NULL when there are none. Every stream must lie inside its path (else -EINVAL naming
 * the stream), and their maps' memory, added to need (the rest of the point), must fit mem_max:
 * else -ENOMEM with the numbers in err. Returns 0 or -errno.
 */
int lst_daemon__vmaps_new(const lst_daemon *d, const struct lst_msg_prepare *p,
			  const uint64_t *size, uint64_t need, struct lst_daemon__vmaps **out,
			  lst_err *err);

/* The PREPARE worker: build every map of vm and point rp[i].map at it. Returns 0 or -errno
 * (-ECANCELED when cancel was set) with err. */
int lst_daemon__vmaps_build(struct lst_daemon__vmaps *vm, struct lst_run_path *rp, size_t n,
			    const _Atomic int *cancel, lst_err *err);

/* Free the maps (only once no run uses them). Safe on NULL and twice. */
void lst_daemon__vmaps_free(struct lst_daemon__vmaps **p);

/* PREPARED's streams: every verified write job of run, in job order. */
void lst_daemon__prepared_streams(const lst_run *run, struct lst_msg_prepared *r);

/* SAMPLE's marks: each verified write job's watermarks as of the interval being handed over
 * (inside the lst_run_collect callback), in PREPARED's stream order. */
void lst_daemon__sample_marks(const lst_run *run, struct lst_msg_sample *ms);

/*
 * The point's run is over: send its bad units as INTEGRITY frames (LST_BAD_PER_MSG each, at
 * most LST_BAD_PER_POINT units) before DONE. Returns the frames sent; *unreported gets the bad
 * units found beyond the cap.
 */
uint32_t lst_daemon__integrity_send(lst_daemon *d, uint64_t *unreported);

/* ---- lst_daemon_trace.c */

/*
 * The traces of PREPARE p (*out = NULL when no spec records or replays): each read_iolog trace
 * read from the trace folder dir (its records within mem_max), the folder made for a recording
 * and each recording's file named (agent: this agent's name). Touches nothing of the daemon's,
 * so the trace loader runs it off the reactor. Returns 0 or -errno with err, one line naming the
 * file; nothing is allocated then.
 */
int lst_daemon__traces_new(const char *dir, const char *agent, uint64_t mem_max,
			   const struct lst_msg_prepare *p, struct lst_daemon__traces **out,
			   lst_err *err);

/* Does a spec of p replay a trace (read_iolog), which the trace loader must read first? */
bool lst_daemon__traces_reads(const struct lst_msg_prepare *p);

/* The bytes the replays add to the point (the records, and slots sized from the trace rather
 * than bs), and those of the recordings (rec_max records each). 0 for NULL. */
uint64_t lst_daemon__traces_mem(const struct lst_daemon__traces *tr,
				const struct lst_msg_prepare *p);
uint64_t lst_daemon__traces_rec_mem(const struct lst_daemon__traces *tr,
				    const struct lst_msg_prepare *p);

/* Bound each recording so that the point (need bytes without the recordings) fits mem_max:
 * every recording gets the same share of what is left, at most lst_run_record_max. Returns 0,
 * or -ENOMEM with err when not even LST_DAEMON__REC_MIN records per recording fit. */
int lst_daemon__traces_fit(struct lst_daemon__traces *tr, const struct lst_msg_prepare *p,
			   uint64_t need, uint64_t mem_max, lst_err *err);

#define LST_DAEMON__REC_MIN 4096 /* records a recording keeps at least */

/* After the paths are open: each replayed trace fits its path (block size, size); each
 * recording learns its path's block size and size. Returns 0 or -EINVAL with err. */
int lst_daemon__traces_paths(const lst_daemon *d, struct lst_daemon__point *pt,
			     const struct lst_msg_prepare *p, lst_err *err);

/*
 * The point's run is over: are its recordings still being written? The first call starts the
 * writer thread (merging each recording by time into its file) and returns true while it runs;
 * when it is done it calls the point's finish again. False when nothing records (or all
 * is written: without a thread, on the reactor).
 */
bool lst_daemon__traces_pending(lst_daemon *d);

/* For DONE: log each recording's file and record count, and say in dn's text what a recording
 * could not keep and how many replayed records went out late. A recording that could not be
 * written makes a complete point an error. */
void lst_daemon__traces_finish(lst_daemon *d, struct lst_msg_done *dn);

/* Let go of the point's writer (waiting for it if it still writes). Safe when there is none. */
void lst_daemon__traces_writer_free(lst_daemon *d, struct lst_daemon__point *pt);

/* Free the traces. Safe on NULL and twice. */
void lst_daemon__traces_free(struct lst_daemon__traces **p);

/* ---- lst_daemon_session.c */

/* Forget the session entirely (BYE, or a HELLO with another run). Stops the point. */
void lst_daemon__session_clear(lst_daemon *d, uint32_t reason, const char *why);

/* The lease check timer (every 100 ms): a silent coordinator loses its session. */
int lst_daemon__on_tick(zloop_t *loop, int timer_id, void *arg);

/* HELLO at time now: open, resume or take over the session, or answer BUSY or VERSION. */
void lst_daemon__on_hello(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
			  int64_t now);

/* ---- lst_daemon_dispatch.c */

/* The ROUTER reader: a batch of frames per wake-up, each decoded and dispatched. */
int lst_daemon__on_router(zloop_t *loop, zsock_t *sock, void *arg);

/* ---- lst_daemon_held.c */

/*
 * Hold a PREPARE (m, decoded from buf) while the previous session's point is stopping: a copy
 * of its frame is kept (a retry replaces it) and given to replay, the dispatcher's frame
 * handler, once lst_daemon__held_release says that point has ended; after 10 s it is refused
 * with LST_PERR_STATE instead.
 */
void lst_daemon__held_keep(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
			   const uint8_t *buf, size_t len, lst_daemon__replay_fn replay);

/* The previous session's point has ended: a held PREPARE runs now (from a 0 ms timer). */
void lst_daemon__held_release(lst_daemon *d);

/* Forget a held PREPARE (its session ended, or the daemon is going away). */
void lst_daemon__held_drop(lst_daemon *d);

/* ---- lst_daemon_zap.c */

/* "fp1 (a.pub), fp2 (b.pub)" for logs. */
void lst_daemon__keys_str(const lst_authkeys *k, char *buf, size_t size);

/*
 * One ZAP request (RFC 27): version, request id, domain, address, identity, mechanism, then the
 * client's 32-byte public key. The reply carries the status and, as the user id, the key's
 * fingerprint (frames from that connection then carry it as "User-Id").
 */
int lst_daemon__on_zap(zloop_t *loop, zsock_t *sock, void *arg);

/*
 * Handshake failures that ZAP never sees, from the ROUTER's monitor. (A refused key was logged
 * by lst_daemon__on_zap already.)
 */
int lst_daemon__on_monitor(zloop_t *loop, zsock_t *sock, void *arg);

/* Start the ZAP handler and make the ROUTER a fail-closed CURVE server. Before binding. */
int lst_daemon__curve_setup(lst_daemon *d, lst_err *err);

/*
 * The ROUTER's handshake failures into d->mon. The endpoint is numbered, not fixed: libzmq
 * closes a monitor in the background, so a daemon made again in the same process (a test, a
 * restart of the object) could find its predecessor's endpoint still bound.
 */
int lst_daemon__monitor_setup(lst_daemon *d, lst_err *err);

#endif
