/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every message between coordinator and agent, as C structs, and the one codec that turns them
 * into msgpack maps and back. This module is the only code in lockstep that touches msgpack;
 * proto/PROTOCOL.md is the human-readable contract and must say what this file does.
 *
 * Envelope: every message is one ZeroMQ frame holding one msgpack map with at least
 *   "type" (string), "seq" (uint, the sender's message counter, +1 per message),
 *   "id" (uint, correlation id of a command; 0 when the message is not a command),
 *   "re" (uint, the id of the command a reply answers; 0 otherwise).
 * Unknown keys are ignored (forward compatibility); a missing required key, a wrong type, a
 * string longer than its field, an array longer than its bound, or a value out of range is a
 * decode error naming the message type and the key. Decoding never trusts a length inside the
 * frame: every array, map, string and bin length is checked against the bytes that remain
 * before anything is allocated or copied.
 *
 * Strings are copied into fixed-size fields (lengths below), so a decoded lst_msg owns all of
 * its memory and the frame can be freed at once.
 */
#ifndef LST_MSG_H
#define LST_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_domain.h" /* actions, access, LST_MAX_HOOKS, LST_MAX_EVENTS */
#include "lst_err.h"
#include "lst_identity.h"
#include "lst_sample.h"
#include "lst_verify.h"
#include "lst_workload.h"

#define LST_PROTO_VERSION 1
#define LST_MSG_MAX_BYTES (256 * 1024) /* cap for any frame (ZMQ_MAXMSGSIZE) */

/* hooks, events, collectors, the kernel log */
#define LST_CAP_HOOKS "hooks.v1"	    /* HOOK, HOOK_DONE, EVENT, KMSG; START's events */
#define LST_HOOK_OUTPUT_MAX 4096	    /* a hook's output: its last bytes (stdout+stderr) */
#define LST_COLLECT_OUTPUT_MAX (192 * 1024) /* a collector's stdout: its first bytes */
#define LST_KMSG_TEXT_MAX (128 * 1024)	    /* kernel log text in one KMSG_REPLY */

/* data integrity (common/lst_verify.h) */
#define LST_CAP_VERIFY "verify.v1" /* JOURNAL, JOURNAL_OK, INTEGRITY; stamps, streams, marks */
#define LST_MAX_STREAMS 256	   /* jobs of one agent in one point (PREPARED's streams) */
#define LST_JOURNAL_PAGE 128	   /* journal streams per JOURNAL */
#define LST_BAD_PER_MSG 64	   /* bad units per INTEGRITY */
#define LST_BAD_PER_POINT 1024	   /* bad units an agent reports per point; the rest counted */

enum lst_msg_type {
	LST_MSG_HELLO = 1,  /* C->A: open a session */
	LST_MSG_WELCOME,    /* A->C: session accepted, who the agent is */
	LST_MSG_ERROR,	    /* either way: a command failed, or the peer is misbehaving */
	LST_MSG_SYNC,	    /* C->A: clock exchange, t1 */
	LST_MSG_SYNC_REPLY, /* A->C: t1 echoed, t2 (received), t3 (sent) */
	LST_MSG_PREPARE,    /* C->A: job specs for one phase point: open, check, allocate */
	LST_MSG_PREPARED,   /* A->C: ready; the identity of every path */
	LST_MSG_START,	    /* C->A: start the prepared point at t0 on the agent's clock */
	LST_MSG_STARTED,    /* A->C: the instant the jobs actually started */
	LST_MSG_SAMPLE,	    /* A->C: one interval, all of the agent's jobs merged */
	LST_MSG_DONE,	    /* A->C: the point has ended, and why */
	LST_MSG_STOP,	    /* C->A: end the running point now */
	LST_MSG_STOPPED,    /* A->C: reply to STOP (DONE follows when jobs have drained) */
	LST_MSG_PING,	    /* either way: liveness; any message counts */
	LST_MSG_PONG,
	LST_MSG_ACK,	   /* C->A: samples up to seq are safely stored (the agent may drop them) */
	LST_MSG_BYE,	   /* C->A: end the session; the agent is free for another coordinator */
	LST_MSG_INVENTORY, /* C->A: list a page of block devices (read-only) */
	LST_MSG_INVENTORY_REPLY, /* A->C: that page */
	/* capability "hooks.v1" (sent only when both sides list it) */
	LST_MSG_HOOK,	    /* C->A: run one hook or collector of the agent's config now */
	LST_MSG_HOOK_DONE,  /* A->C: reply to HOOK: how it ran, its output */
	LST_MSG_EVENT,	    /* A->C: a scheduled hook of a point (START's events) has run */
	LST_MSG_KMSG,	    /* C->A: mark the kernel log, or read what it got since the mark */
	LST_MSG_KMSG_REPLY, /* A->C: reply to KMSG */
	/* capability "verify.v1" (sent only when both sides list it) */
	LST_MSG_JOURNAL,    /* C->A: a page of a target's write journal, for a verifying read */
	LST_MSG_JOURNAL_OK, /* A->C: reply to JOURNAL */
	LST_MSG_INTEGRITY,  /* A->C: bad units a verifying read found (spooled like SAMPLE) */
	LST_MSG_TYPE_END,
};

/* Error codes carried by LST_MSG_ERROR (stable numbers: they are on the wire). */
enum lst_perr {
	LST_PERR_BAD_MESSAGE = 1, /* could not decode, or a required key missing */
	LST_PERR_VERSION = 2,	  /* protocol version not supported */
	LST_PERR_BUSY = 3,	  /* serving another coordinator; text names its run and key */
	LST_PERR_STATE = 4,	  /* command not valid now (START before PREPARE, ...) */
	LST_PERR_REFUSED = 5,	  /* disk safety refused a path; text names path and rule */
	LST_PERR_IO = 6,	  /* open, allocate or I/O setup failed */
	LST_PERR_INTERNAL = 7,
	LST_PERR_NO_SESSION = 8, /* a command from a peer that has not said HELLO */
};

/* Why a point ended (LST_MSG_DONE). */
enum lst_done_reason {
	LST_DONE_COMPLETE = 0, /* runtime or bytes reached */
	LST_DONE_STOPPED = 1,  /* STOP received */
	LST_DONE_LEASE = 2,    /* coordinator silent longer than the lease: stopped by itself */
	LST_DONE_ERROR = 3,    /* I/O setup or engine failure; text says what */
};

struct lst_msg_hello {
	uint32_t proto; /* LST_PROTO_VERSION */
	uint32_t ncaps;
	char caps[LST_MAX_CAPS][LST_NAME_MAX]; /* capability names, e.g. "samples.v1" */
	char coordinator[LST_NAME_MAX];	       /* coordinator's host name */
	char run[LST_RUN_ID_MAX];	       /* run id */
	uint32_t lease_ms;		       /* agent stops I/O after this much silence */
};

struct lst_msg_welcome {
	uint32_t proto;
	uint32_t ncaps;
	char caps[LST_MAX_CAPS][LST_NAME_MAX];
	char name[LST_NAME_MAX];    /* agent name (--name, default host name) */
	char version[LST_NAME_MAX]; /* lockstep version */
	char host[LST_NAME_MAX];    /* uname nodename */
	char kernel[LST_NAME_MAX];  /* uname release */
	uint32_t cores;		    /* online CPUs */
	uint32_t engines;	    /* bit mask of usable enum lst_engine_kind */
	int64_t now;		    /* agent monotonic clock when sent */
	/* Added after protocol 1 shipped: optional on the wire (absent = 0), always written. */
	uint64_t
		instance; /* random, non-zero, fixed for the agent process: a new one = restarted */
	uint32_t resumed; /* 1: the HELLO continued the agent's session; 0: it opened a new one */
	/* optional (absent = none): the names of the hooks and collectors of the
	 * agent's config, so the coordinator refuses a plan naming others before any I/O */
	uint32_t nhooks;
	char hooks[LST_MAX_HOOKS][LST_NAME_MAX];
	uint32_t ncollectors;
	char collectors[LST_MAX_HOOKS][LST_NAME_MAX];
};

struct lst_msg_error {
	int32_t code; /* enum lst_perr */
	char text[LST_TEXT_MAX];
};

struct lst_msg_sync {
	int64_t t1; /* coordinator clock at send */
};

struct lst_msg_sync_reply {
	int64_t t1, t2, t3; /* t2, t3: agent clock at receive and send */
};

/*
 * who writes a verified job spec's stamps (optional key `stamp`, present when the
 * workload has verify): what goes into each stamp besides the LBA, time and index. A verifying
 * read uses target (which journal to check against); the rest is the reader's own.
 */
struct lst_stamp_spec {
	uint32_t target; /* lst_verify_target_id(target name) */
	uint16_t agent;	 /* this agent's index in the plan */
	uint16_t path;	 /* the path's index in its target's path list */
	uint32_t gen;	 /* writes: the generation of this point (>= 1); reads: 0 */
};

struct lst_jobspec {
	char target[LST_NAME_MAX];   /* plan target name */
	char path[LST_PATH_MAX];     /* path on this agent */
	char identity[LST_TEXT_MAX]; /* expected identity ("" = not checked) */
	uint32_t action;	     /* enum lst_action */
	uint32_t access;	     /* enum lst_access bits; identify only (optional key) */
	struct lst_workload w;	     /* offset/size already this path's share */
	uint32_t has_stamp;	     /* `stamp` present (verify) */
	struct lst_stamp_spec stamp;
};

struct lst_msg_prepare {
	char run[LST_RUN_ID_MAX];
	uint32_t phase;		 /* index in the plan */
	uint32_t point;		 /* index in the phase's expansion (sweep point, round) */
	char name[LST_NAME_MAX]; /* phase name, for logs */
	uint32_t njobs;		 /* 1..LST_MAX_JOBSPECS */
	struct lst_jobspec jobs[LST_MAX_JOBSPECS];
};

/* one job of a verified write, as a replay needs it (PREPARED's `streams`). */
struct lst_stream_info {
	uint32_t spec;	     /* its job spec's index in the PREPARE */
	struct lst_stream s; /* seed, region, bs, random, read_pct, job id */
};

struct lst_msg_prepared {
	uint32_t phase, point;
	uint32_t npaths;
	struct lst_path_identity paths[LST_MAX_JOBSPECS];
	uint32_t engine;	    /* engine actually used (psync after a fallback) */
	char warning[LST_TEXT_MAX]; /* "" or e.g. the io_uring fallback notice */
	/* optional (absent = none): the jobs of its verified writes, in job order */
	uint32_t nstreams;
	struct lst_stream_info streams[LST_MAX_STREAMS];
};

/* One hook a START schedules: run it `after` ns after t0 (agent clock), once. */
struct lst_event_req {
	uint32_t id;		 /* the coordinator's number for it (echoed in EVENT) */
	char hook[LST_NAME_MAX]; /* a hook of the agent's config */
	int64_t after;		 /* ns after t0, >= 0 */
};

struct lst_msg_start {
	uint32_t phase, point;
	int64_t t0; /* agent monotonic clock */
	/* optional (absent = none; sent only under LST_CAP_HOOKS): hooks to run at
	 * instants of the point; each gets one EVENT, all sent before the point's DONE */
	uint32_t nevents;
	struct lst_event_req events[LST_MAX_EVENTS];
};

struct lst_msg_started {
	uint32_t phase, point;
	int64_t t0;	/* as requested */
	int64_t actual; /* when the jobs were released (agent clock) */
};

/* a verified write job's progress: I/Os 0..low-1 completed, 0..issued-1 issued. */
struct lst_stream_mark {
	uint32_t stream; /* index in PREPARED's streams */
	uint64_t low, issued;
	uint64_t werr; /* its writes that completed with an error so far */
};

struct lst_msg_sample {
	uint32_t phase, point;
	lst_sample s;  /* histograms travel in lst_hist's sparse encoding (bin) */
	uint32_t ndev; /* optional "dev": the device counters of the interval, per path */
	struct lst_devstat dev[LST_DEVSTATS_MAX];
	/* optional "paths": the sample split by job spec (struct lst_sample_part, lst_sample.h),
	 * sent when the point has more than one; parts is on the heap (lst_msg_destroy frees
	 * it), NULL when nparts is 0 */
	uint32_t nparts;
	struct lst_sample_part *parts;
	/* optional "marks" (absent = none): where each verified write job stands at the
	 * interval's end, in PREPARED's stream order; the sample's own lst_sample.verify (and each
	 * part's) travels as an optional "verify" map like "health" */
	uint32_t nmarks;
	struct lst_stream_mark marks[LST_MAX_STREAMS];
};

struct lst_msg_done {
	uint32_t phase, point;
	uint32_t reason;       /* enum lst_done_reason */
	int64_t last_interval; /* k of the last sample sent, -1 if none */
	uint64_t samples;      /* samples sent for this point */
	char text[LST_TEXT_MAX];
	/* optional (absent = 0): EVENTs sent for the point (before DONE) */
	uint32_t events;
	/* optional (absent = 0): INTEGRITY frames sent for the point (before DONE), and
	 * bad units found beyond LST_BAD_PER_POINT (counted in the samples, not itemized) */
	uint32_t integrity;
	uint64_t bad_unreported;
};

struct lst_msg_stop {
	uint32_t phase, point;
};

struct lst_msg_ping {
	int64_t now; /* sender's clock, informational */
};

struct lst_msg_ack {
	uint64_t upto; /* every SAMPLE with seq <= upto is stored */
};

struct lst_msg_inventory {
	uint32_t from; /* index of the first device wanted (devices sorted by name) */
};

struct lst_msg_inventory_reply {
	uint32_t from;	/* as asked */
	uint32_t total; /* devices the agent has; ask again from from + ndevices while below */
	uint32_t ndevices;
	struct lst_inv_device devices[LST_INV_PAGE];
};

/* What a HOOK runs: a hook (its output's tail is kept) or a collector (its stdout: JSON). */
enum lst_hook_kind {
	LST_HOOK_HOOK = 0,
	LST_HOOK_COLLECTOR = 1,
};

/*
 * How one hook or collector ran, in HOOK_DONE and EVENT. status: the exit status (0..255), 128+N
 * when signal N ended it (a timeout kills it: text says so), -1 when it never ran (not in the
 * config, cannot be started, the point ended first: text says why). Times are the agent's clock;
 * start is 0 when it never ran.
 */
struct lst_hook_result {
	int64_t start, end;
	int32_t status;
	uint32_t truncated;	 /* output bytes left out (beyond the bound of its kind) */
	char text[LST_TEXT_MAX]; /* "" or what went wrong: "timed out after 60 s: killed" */
	uint32_t output_len;	 /* bytes of output (at most LST_COLLECT_OUTPUT_MAX) */
	char *output;		 /* heap, NUL-terminated, NULL when output_len is 0: a hook's last
				  * LST_HOOK_OUTPUT_MAX bytes of stdout and stderr together, a
				  * collector's first LST_COLLECT_OUTPUT_MAX bytes of stdout */
};

struct lst_msg_hook {
	uint32_t kind;		 /* enum lst_hook_kind */
	char name[LST_NAME_MAX]; /* a hook or collector of the agent's config */
	uint32_t phase;		 /* the phase it is for (logs only) */
};

struct lst_msg_hook_done {
	uint32_t kind;
	char name[LST_NAME_MAX];
	struct lst_hook_result r;
};

/* EVENT: spooled and acknowledged like SAMPLE and DONE (it has a seq, is not a command). */
struct lst_msg_event {
	uint32_t phase, point;
	uint32_t id;		 /* the lst_event_req's */
	char hook[LST_NAME_MAX]; /* as requested */
	int64_t at;		 /* the requested instant, agent clock (t0 + after) */
	struct lst_hook_result r;
};

enum lst_kmsg_op {
	LST_KMSG_MARK = 0, /* remember where the kernel log is now (reading starts after it) */
	LST_KMSG_READ = 1, /* the records logged since the mark (the mark stays) */
};

struct lst_msg_kmsg {
	uint32_t op; /* enum lst_kmsg_op */
};

struct lst_msg_kmsg_reply {
	uint32_t op;
	uint32_t dropped;	  /* records lost: overwritten before they were read, or beyond the
				   * text bound */
	char error[LST_TEXT_MAX]; /* "" or why the log cannot be read ("/dev/kmsg: Permission
				   * denied"); MARK and READ still succeed, empty */
	uint32_t text_len;	  /* bytes of text, at most LST_KMSG_TEXT_MAX */
	char *text;		  /* heap, NUL-terminated, NULL when empty: one line per record,
				   * "[seconds.micros] message", as dmesg prints them */
};

/* JOURNAL (C->A): page `from` of target's journal, `total` streams in all. The agent
 * keeps the pages of each target for the session (a page from 0 starts the target afresh);
 * a PREPARE with verifying reads of target uses them. */
struct lst_msg_journal {
	uint32_t target; /* lst_verify_target_id */
	uint32_t from;	 /* index of streams[0] in the whole journal */
	uint32_t total;	 /* streams of the target in all */
	uint32_t nstreams;
	struct lst_journal_stream streams[LST_JOURNAL_PAGE];
};

struct lst_msg_journal_ok {
	uint32_t target;
	uint32_t have; /* streams of the target the agent now holds */
};

/* One bad unit a verifying read found. */
struct lst_bad_unit {
	uint32_t spec;		/* the reading job spec's index in the PREPARE */
	uint64_t offset;	/* bytes, on the path */
	uint32_t kind;		/* enum lst_verify_kind */
	uint32_t expected;	/* the generation the journal expects (0 = none) */
	uint32_t stamp_kind;	/* enum lst_stamp_kind of what was read */
	struct lst_stamp found; /* the stamp as read (zero for LST_STAMP_NONE) */
};

/* INTEGRITY (A->C): spooled and acknowledged like SAMPLE; all of a point's come before its
 * DONE (whose `integrity` counts them). */
struct lst_msg_integrity {
	uint32_t phase, point;
	uint32_t nbad; /* 1..LST_BAD_PER_MSG */
	struct lst_bad_unit bad[LST_BAD_PER_MSG];
};

typedef struct lst_msg {
	uint32_t type; /* enum lst_msg_type */
	uint64_t seq;
	uint64_t id;
	uint64_t re;
	union {
		struct lst_msg_hello hello;
		struct lst_msg_welcome welcome;
		struct lst_msg_error error;
		struct lst_msg_sync sync;
		struct lst_msg_sync_reply sync_reply;
		struct lst_msg_prepare prepare;
		struct lst_msg_prepared prepared;
		struct lst_msg_start start;
		struct lst_msg_started started;
		struct lst_msg_sample sample;
		struct lst_msg_done done;
		struct lst_msg_stop stop;
		struct lst_msg_ping ping; /* PING and PONG */
		struct lst_msg_ack ack;
		struct lst_msg_inventory inventory;
		struct lst_msg_inventory_reply inventory_reply;
		struct lst_msg_hook hook;
		struct lst_msg_hook_done hook_done;
		struct lst_msg_event event;
		struct lst_msg_kmsg kmsg;
		struct lst_msg_kmsg_reply kmsg_reply;
		struct lst_msg_journal journal;
		struct lst_msg_journal_ok journal_ok;
		struct lst_msg_integrity integrity;
	} u; /* BYE has no body */
} lst_msg;

/*
 * Do a SAMPLE's parts add up to it? Each part must pass lst_sample_check, name a distinct job
 * spec below njobs (the point's PREPARE), carry the sample's interval, and the parts together
 * must give exactly the sample's ios, bytes and errors per direction and its histograms bucket
 * by bucket. Returns 0, or -EINVAL with why ("paths: read ios 10 + 12 != 23"). A sample
 * without parts passes.
 */
int lst_msg_sample_parts_check(const struct lst_msg_sample *m, uint32_t njobs, char *why,
			       size_t why_size);

/* A zeroed message of the given type on the heap (it is large: PREPARE holds 64 job specs). */
lst_msg *lst_msg_new(enum lst_msg_type type);
/* Free m and what it owns on the heap (a SAMPLE's parts, a hook's output, kernel log text).
 * Safe on NULL and twice. */
void lst_msg_destroy(lst_msg **p);

/*
 * A deep copy of m on the heap (the caller destroys it): what m owns on the heap (a SAMPLE's
 * parts, a hook's output, kernel log text) is copied too. Use it instead of memcpy, which would
 * share those arrays and free them twice. m must have a known type.
 */
lst_msg *lst_msg_dup(const lst_msg *m);

/* "hello", "sample", ...; "?" for an unknown value. */
const char *lst_msg_type_name(uint32_t type);
/* Type from its wire name, or 0. */
uint32_t lst_msg_type_from_name(const char *name, size_t len);

/*
 * The name of a DONE reason (enum lst_done_reason) as run.json and the agent's log spell it:
 * "complete", "stopped", "lease", "error"; "?" for a value beyond them.
 */
const char *lst_msg_done_reason_name(uint32_t reason);

/*
 * Encode m into a new buffer (*buf, the caller frees it with free()). Fails with -EINVAL if m
 * breaks its own bounds (njobs too large, ...), or -EMSGSIZE if the result would exceed
 * LST_MSG_MAX_BYTES (only a SAMPLE with many parts holding wide histograms can: the sender may
 * then send it without its parts).
 */
int lst_msg_encode(const lst_msg *m, uint8_t **buf, size_t *len, lst_err *err);

/*
 * Decode one frame. Returns 0 and a new message in *out (the caller destroys it), or -EBADMSG /
 * -EINVAL / -EMSGSIZE with err saying what and where ("sample: key 'read.hist': ..."); never
 * crashes and never allocates more than a small multiple of len plus sizeof(lst_msg), plus
 * for a SAMPLE one lst_sample_part per "paths" entry present (at most LST_MAX_JOBSPECS), and
 * one copy (length + 1) of each hook output or kernel log text present, within its bound.
 */
int lst_msg_decode(const uint8_t *buf, size_t len, lst_msg **out, lst_err *err);

/*
 * The length of the first frame of buf[0..len), a stream of frames as samples/AGENT.msgpack
 * keeps them, into *n, for lst_msg_decode of that frame; the same bounds and checks as
 * lst_msg_decode's (a frame is at most LST_MSG_MAX_BYTES), without decoding. Returns 0, or
 * -EBADMSG with err ("message: truncated at byte 812": a frame cut short at the end of a file).
 */
int lst_msg_frame_len(const uint8_t *buf, size_t len, size_t *n, lst_err *err);

/*
 * lst_msg_decode into a message the caller keeps and reuses (from lst_msg_new, any type; a
 * receive loop's scratch), so that no frame costs an allocation and a clear of the whole
 * lst_msg: m's heap parts are freed and only its envelope and its previous body are cleared
 * first. Same errors as lst_msg_decode; on one, m holds no message (type 0) and may be reused
 * or destroyed.
 */
int lst_msg_decode_into(lst_msg *m, const uint8_t *buf, size_t len, lst_err *err);

/* m back to no message (type 0), as lst_msg_decode_into leaves it after an error: its heap
 * parts freed, its envelope and its body's bytes zero. */
void lst_msg_clear(lst_msg *m);

#endif
