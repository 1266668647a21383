/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The message codec: lst_msg structs to msgpack maps and back. The only code in lockstep that
 * touches msgpack; proto/PROTOCOL.md describes the same rules for humans.
 *
 * Every message body is described once, by a field table (key, kind, offset, bound), and one
 * encoder and one decoder walk those tables, so the two directions cannot disagree about a key.
 * The workload inside a job spec is walked through lst_workload_opts instead, so the wire accepts
 * exactly what the option table accepts (lst_opt_set_int does the range checks).
 *
 * Decoding a frame from the network happens in two steps. s_scan() first walks the raw bytes
 * over every msgpack marker without allocating anything: every element must be present in full,
 * no container may claim more elements than there are bytes left, nesting stops at S_MAX_DEPTH,
 * and nothing may follow the one top-level object. Only a frame that passes is handed to
 * msgpack_unpack_next(), whose allocations are then bounded by the elements physically present
 * (one msgpack_object of 24 bytes per byte of input at worst); strings and bins stay in the
 * frame (msgpack-c references them), and the field decoders copy what they keep. What a message
 * keeps on the heap (a SAMPLE's parts, K_HEAP; a hook's output and kernel log text, K_BYTES, also
 * inside nested maps) is allocated only after its count or length passed its bound, and is
 * freed and copied by walking the same tables (s_free_heap, s_dup_heap).
 */
#include "lst_msg.h"

#include <errno.h>
#include <inttypes.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lst_assert.h"
#include "lst_hist.h"
#include "lst_opt.h"
#include "lst_util.h"

#define S_MAX_DEPTH 16 /* containers inside containers; real messages use 4 */

static const char *const s_type_names[LST_MSG_TYPE_END] = {
	[LST_MSG_HELLO] = "hello",
	[LST_MSG_WELCOME] = "welcome",
	[LST_MSG_ERROR] = "error",
	[LST_MSG_SYNC] = "sync",
	[LST_MSG_SYNC_REPLY] = "sync_reply",
	[LST_MSG_PREPARE] = "prepare",
	[LST_MSG_PREPARED] = "prepared",
	[LST_MSG_START] = "start",
	[LST_MSG_STARTED] = "started",
	[LST_MSG_SAMPLE] = "sample",
	[LST_MSG_DONE] = "done",
	[LST_MSG_STOP] = "stop",
	[LST_MSG_STOPPED] = "stopped",
	[LST_MSG_PING] = "ping",
	[LST_MSG_PONG] = "pong",
	[LST_MSG_ACK] = "ack",
	[LST_MSG_BYE] = "bye",
	[LST_MSG_INVENTORY] = "inventory",
	[LST_MSG_INVENTORY_REPLY] = "inventory_reply",
	[LST_MSG_HOOK] = "hook",
	[LST_MSG_HOOK_DONE] = "hook_done",
	[LST_MSG_EVENT] = "event",
	[LST_MSG_KMSG] = "kmsg",
	[LST_MSG_KMSG_REPLY] = "kmsg_reply",
	[LST_MSG_JOURNAL] = "journal",
	[LST_MSG_JOURNAL_OK] = "journal_ok",
	[LST_MSG_INTEGRITY] = "integrity",
};

/* --- field tables ---------------------------------------------------------------------------- */

enum s_kind {
	K_U16,	    /* uint16_t: positive integer <= UINT16_MAX */
	K_U32,	    /* uint32_t: positive integer <= UINT32_MAX (lo..hi when ranged) */
	K_U64,	    /* uint64_t: positive integer */
	K_I32,	    /* int32_t: integer in range */
	K_I64,	    /* int64_t: integer */
	K_ENUM,	    /* uint32_t below size */
	K_STR,	    /* char[size]: string shorter than size, no NUL inside */
	K_STRS,	    /* char[max][size] with a uint32_t count: array of strings */
	K_ARRAY,    /* struct[max] with a uint32_t count: array of maps described by sub */
	K_HEAP,	    /* struct * with a uint32_t count: as K_ARRAY, the entries on the heap */
	K_MAP,	    /* a nested struct described by sub (optional: see has and size) */
	K_HIST,	    /* lst_hist: bin holding lst_hist_encode() output */
	K_WORKLOAD, /* struct lst_workload: map walked through lst_workload_opts */
	K_HEALTH, /* struct lst_sample_health: optional map, absent when all zero (s_enc_health) */
	K_BYTES,  /* char * (heap, NUL-terminated) with a uint32_t length: bin of at most max
		     bytes, no NUL inside */
	K_CHECK,  /* no key: check(base) on the fields before it, run by the encoder and the
		     decoder alike (rules across fields: lo < hi, low <= issued) */
};

/* A rule across the fields of one map: 0, or -EINVAL with why (a sentence without the map's
 * path) filled. */
typedef int (*s_check_fn)(const void *base, char *why, size_t why_size);

struct s_field {
	const char *key;
	enum s_kind kind;
	size_t off;		   /* of the field in its struct */
	size_t size;		   /* K_STR, K_STRS: bytes per string; K_ENUM: number of values;
				      K_ARRAY, K_HEAP: bytes per entry */
	size_t count_off;	   /* K_STRS, K_ARRAY, K_HEAP: the uint32_t entry count */
	uint32_t min, max;	   /* K_STRS, K_ARRAY, K_HEAP: entries allowed */
	const struct s_field *sub; /* K_ARRAY, K_HEAP, K_MAP: fields of each map, NULL-key ended */
	bool proto;		   /* K_U32 protocol version: on a mismatch, the rest is skipped */
	bool optional;		   /* may be absent (a key added after protocol 1): stays 0 */
	bool name;		   /* K_STR, K_STRS: a name, non-empty, of [A-Za-z0-9_.-] only */
	bool ranged;		   /* K_U32, K_I32, K_I64: only lo..hi allowed (else the type's
				      range) */
	bool has;		   /* optional K_MAP: present iff the uint32_t at count_off is
				      non-zero (the decoder sets it to 1); else present iff its
				      size bytes are not all zero */
	int64_t lo, hi;
	s_check_fn check; /* K_CHECK */
};

/* Compile-time check that a field has the C type its kind assumes (0, or a build error). */
#define S_IS(st, f, T) (0 * sizeof(char[_Generic(((st *)0)->f, T : 1, default : -1)]))
#define S_SIZEOF(st, f) sizeof(((st *)0)->f)
#define S_NELEM(st, f) (S_SIZEOF(st, f) / sizeof(((st *)0)->f[0]))

#define F_U32(st, k, f)                                                                            \
	{                                                                                          \
		.key = k, .kind = K_U32, .off = offsetof(st, f) + S_IS(st, f, uint32_t)            \
	}
#define F_U64(st, k, f)                                                                            \
	{                                                                                          \
		.key = k, .kind = K_U64, .off = offsetof(st, f) + S_IS(st, f, uint64_t)            \
	}
#define F_U64_OPT(st, k, f)                                                                        \
	{                                                                                          \
		.key = k, .kind = K_U64, .off = offsetof(st, f) + S_IS(st, f, uint64_t),           \
		.optional = true                                                                   \
	}
#define F_U32_OPT(st, k, f)                                                                        \
	{                                                                                          \
		.key = k, .kind = K_U32, .off = offsetof(st, f) + S_IS(st, f, uint32_t),           \
		.optional = true                                                                   \
	}
#define F_U16(st, k, f)                                                                            \
	{                                                                                          \
		.key = k, .kind = K_U16, .off = offsetof(st, f) + S_IS(st, f, uint16_t)            \
	}
/* An unsigned integer allowed only in lo..hi. */
#define F_U32_RANGE(st, k, f, lo_, hi_)                                                            \
	{                                                                                          \
		.key = k, .kind = K_U32, .off = offsetof(st, f) + S_IS(st, f, uint32_t),           \
		.ranged = true, .lo = lo_, .hi = hi_                                               \
	}
#define F_I32(st, k, f)                                                                            \
	{                                                                                          \
		.key = k, .kind = K_I32, .off = offsetof(st, f) + S_IS(st, f, int32_t)             \
	}
#define F_I64(st, k, f)                                                                            \
	{                                                                                          \
		.key = k, .kind = K_I64, .off = offsetof(st, f) + S_IS(st, f, int64_t)             \
	}
#define F_ENUM(st, k, f, n)                                                                        \
	{                                                                                          \
		.key = k, .kind = K_ENUM, .off = offsetof(st, f) + S_IS(st, f, uint32_t),          \
		.size = n                                                                          \
	}
#define F_ENUM_OPT(st, k, f, n)                                                                    \
	{                                                                                          \
		.key = k, .kind = K_ENUM, .off = offsetof(st, f) + S_IS(st, f, uint32_t),          \
		.size = n, .optional = true                                                        \
	}
#define F_STR(st, k, f)                                                                            \
	{                                                                                          \
		.key = k, .kind = K_STR, .off = offsetof(st, f) + S_IS(st, f, char *),             \
		.size = S_SIZEOF(st, f)                                                            \
	}
/* A signed integer allowed only in lo..hi. */
#define F_I32_RANGE(st, k, f, lo_, hi_)                                                            \
	{                                                                                          \
		.key = k, .kind = K_I32, .off = offsetof(st, f) + S_IS(st, f, int32_t),            \
		.ranged = true, .lo = lo_, .hi = hi_                                               \
	}
#define F_I64_RANGE(st, k, f, lo_, hi_)                                                            \
	{                                                                                          \
		.key = k, .kind = K_I64, .off = offsetof(st, f) + S_IS(st, f, int64_t),            \
		.ranged = true, .lo = lo_, .hi = hi_                                               \
	}
/* The name of a hook or collector: a string as F_STR, non-empty, of [A-Za-z0-9_.-] only. */
#define F_NAME(st, k, f)                                                                           \
	{                                                                                          \
		.key = k, .kind = K_STR, .off = offsetof(st, f) + S_IS(st, f, char *),             \
		.size = S_SIZEOF(st, f), .name = true                                              \
	}
/* An optional array of names (absent or empty: none; left out of the frame when empty). */
#define F_NAMES_OPT(st, k, f, n)                                                                   \
	{                                                                                          \
		.key = k, .kind = K_STRS, .off = offsetof(st, f), .size = S_SIZEOF(st, f[0]),      \
		.count_off = offsetof(st, n) + S_IS(st, n, uint32_t), .min = 0,                    \
		.max = S_NELEM(st, f), .optional = true, .name = true                              \
	}
/* Bytes on the heap (char *f, NUL-terminated, NULL when empty) with their count in n: a bin
 * of at most max_ bytes, none of them NUL. The decoder allocates them, lst_msg_destroy frees
 * them (s_free_heap). */
#define F_BYTES(st, k, f, n, max_)                                                                 \
	{                                                                                          \
		.key = k, .kind = K_BYTES, .off = offsetof(st, f) + S_IS(st, f, char *),           \
		.count_off = offsetof(st, n) + S_IS(st, n, uint32_t), .max = max_                  \
	}
#define F_PROTO(st, k, f)                                                                          \
	{                                                                                          \
		.key = k, .kind = K_U32, .off = offsetof(st, f) + S_IS(st, f, uint32_t),           \
		.proto = true                                                                      \
	}
#define F_STRS(st, k, f, n)                                                                        \
	{                                                                                          \
		.key = k, .kind = K_STRS, .off = offsetof(st, f), .size = S_SIZEOF(st, f[0]),      \
		.count_off = offsetof(st, n) + S_IS(st, n, uint32_t), .min = 0,                    \
		.max = S_NELEM(st, f)                                                              \
	}
#define F_ARRAY(st, k, f, n, lo, fields)                                                           \
	{                                                                                          \
		.key = k, .kind = K_ARRAY, .off = offsetof(st, f), .size = S_SIZEOF(st, f[0]),     \
		.count_off = offsetof(st, n) + S_IS(st, n, uint32_t), .min = lo,                   \
		.max = S_NELEM(st, f), .sub = fields                                               \
	}
#define F_ARRAY_OPT(st, k, f, n, fields)                                                           \
	{                                                                                          \
		.key = k, .kind = K_ARRAY, .off = offsetof(st, f), .size = S_SIZEOF(st, f[0]),     \
		.count_off = offsetof(st, n) + S_IS(st, n, uint32_t), .min = 0,                    \
		.max = S_NELEM(st, f), .sub = fields, .optional = true                             \
	}
/* An optional array whose entries (type T) are on the heap, at most lo..max of them; the
 * decoder allocates them and lst_msg_destroy frees them (s_free_heap). */
#define F_HEAP_OPT(st, k, f, T, n, max_, fields)                                                   \
	{                                                                                          \
		.key = k, .kind = K_HEAP, .off = offsetof(st, f) + S_IS(st, f, T *),               \
		.size = sizeof(T), .count_off = offsetof(st, n) + S_IS(st, n, uint32_t), .min = 0, \
		.max = max_, .sub = fields, .optional = true                                       \
	}
#define F_MAP(st, k, f, fields)                                                                    \
	{                                                                                          \
		.key = k, .kind = K_MAP, .off = offsetof(st, f), .sub = fields                     \
	}
/* An optional nested map, present iff the uint32_t flag has is non-zero. */
#define F_MAP_HAS(st, k, f, has_, fields)                                                          \
	{                                                                                          \
		.key = k, .kind = K_MAP, .off = offsetof(st, f),                                   \
		.count_off = offsetof(st, has_) + S_IS(st, has_, uint32_t), .sub = fields,         \
		.optional = true, .has = true                                                      \
	}
/* An optional nested map of type T, left out when all its bytes are zero (absent = zero). */
#define F_MAP_NONZERO(st, k, f, T, fields)                                                         \
	{                                                                                          \
		.key = k, .kind = K_MAP, .off = offsetof(st, f) + S_IS(st, f, T),                  \
		.size = sizeof(T), .sub = fields, .optional = true                                 \
	}
/* A rule across the fields of the map (s_check_fn), run after the fields before it. */
#define F_CHECK(fn)                                                                                \
	{                                                                                          \
		.key = "", .kind = K_CHECK, .check = fn                                            \
	}
#define F_HIST(st, k, f)                                                                           \
	{                                                                                          \
		.key = k, .kind = K_HIST, .off = offsetof(st, f) + S_IS(st, f, lst_hist)           \
	}
#define F_WORKLOAD(st, k, f)                                                                       \
	{                                                                                          \
		.key = k, .kind = K_WORKLOAD,                                                      \
		.off = offsetof(st, f) + S_IS(st, f, struct lst_workload)                          \
	}
#define F_HEALTH_OPT(st, k, f)                                                                     \
	{                                                                                          \
		.key = k, .kind = K_HEALTH,                                                        \
		.off = offsetof(st, f) + S_IS(st, f, struct lst_sample_health), .optional = true   \
	}
#define F_END                                                                                      \
	{                                                                                          \
		.key = NULL                                                                        \
	}

static const struct s_field s_envelope[] = {
	F_U64(lst_msg, "seq", seq),
	F_U64(lst_msg, "id", id),
	F_U64(lst_msg, "re", re),
	F_END,
};

static const struct s_field s_hello[] = {
	F_PROTO(struct lst_msg_hello, "proto", proto),
	F_STRS(struct lst_msg_hello, "caps", caps, ncaps),
	F_STR(struct lst_msg_hello, "coordinator", coordinator),
	F_STR(struct lst_msg_hello, "run", run),
	F_U32(struct lst_msg_hello, "lease_ms", lease_ms),
	F_END,
};

static const struct s_field s_welcome[] = {
	F_PROTO(struct lst_msg_welcome, "proto", proto),
	F_STRS(struct lst_msg_welcome, "caps", caps, ncaps),
	F_STR(struct lst_msg_welcome, "name", name),
	F_STR(struct lst_msg_welcome, "version", version),
	F_STR(struct lst_msg_welcome, "host", host),
	F_STR(struct lst_msg_welcome, "kernel", kernel),
	F_U32(struct lst_msg_welcome, "cores", cores),
	F_U32(struct lst_msg_welcome, "engines", engines),
	F_I64(struct lst_msg_welcome, "now", now),
	/* Added in protocol 1 after its release: optional, so older agents still decode. */
	F_U64_OPT(struct lst_msg_welcome, "instance", instance),
	F_U32_OPT(struct lst_msg_welcome, "resumed", resumed),
	/* optional, left out when empty (an old agent's WELCOME has neither). */
	F_NAMES_OPT(struct lst_msg_welcome, "hooks", hooks, nhooks),
	F_NAMES_OPT(struct lst_msg_welcome, "collectors", collectors, ncollectors),
	F_END,
};

static const struct s_field s_error[] = {
	F_I32(struct lst_msg_error, "code", code),
	F_STR(struct lst_msg_error, "text", text),
	F_END,
};

static const struct s_field s_sync[] = {
	F_I64(struct lst_msg_sync, "t1", t1),
	F_END,
};

static const struct s_field s_sync_reply[] = {
	F_I64(struct lst_msg_sync_reply, "t1", t1),
	F_I64(struct lst_msg_sync_reply, "t2", t2),
	F_I64(struct lst_msg_sync_reply, "t3", t3),
	F_END,
};

/* what a verified job puts in its stamps (lst_verify.h). A generation above 65535
 * could not be journaled (lst_verify_map_build), so none is sent. */
static const struct s_field s_stamp_spec[] = {
	F_U32(struct lst_stamp_spec, "target", target),
	F_U16(struct lst_stamp_spec, "agent", agent),
	F_U16(struct lst_stamp_spec, "path", path),
	F_U32_RANGE(struct lst_stamp_spec, "gen", gen, 0, UINT16_MAX),
	F_END,
};

/* A stream's replay parameters (struct lst_stream), flat in the map of st whose member s it
 * is; s_stream_check adds the rules across them. */
#define S_STREAM_FIELDS(st)                                                                        \
	F_U64(st, "seed", s.seed), F_U64(st, "lo", s.lo), F_U64(st, "hi", s.hi),                   \
		F_U32(st, "bs", s.bs), F_ENUM(st, "random", s.random, 2),                          \
		F_U32_RANGE(st, "read_pct", s.read_pct, 0, 100), F_U32(st, "job", s.job)

/* What lst_ioseq needs to replay a stream: whole units per I/O, a region that is not empty. */
static int s_stream_check(const struct lst_stream *s, char *why, size_t why_size)
{
	if (!s->bs || s->bs % LST_VERIFY_UNIT || s->bs > LST_BS_MAX) {
		snprintf(why, why_size, "bs %" PRIu32 " is not a multiple of %u up to %u", s->bs,
			 LST_VERIFY_UNIT, (unsigned)LST_BS_MAX);
		return -EINVAL;
	}
	if (s->lo >= s->hi) {
		snprintf(why, why_size, "lo %" PRIu64 " is not below hi %" PRIu64, s->lo, s->hi);
		return -EINVAL;
	}
	return 0;
}

/* Progress of a stream: what completed was issued, and so was what failed. */
static int s_progress_check(uint64_t low, uint64_t issued, uint64_t werr, char *why,
			    size_t why_size)
{
	if (low > issued) {
		snprintf(why, why_size, "low %" PRIu64 " is above issued %" PRIu64, low, issued);
		return -EINVAL;
	}
	if (werr > issued) {
		snprintf(why, why_size, "werr %" PRIu64 " is above issued %" PRIu64, werr, issued);
		return -EINVAL;
	}
	return 0;
}

static int s_stream_info_check(const void *base, char *why, size_t why_size)
{
	return s_stream_check(&((const struct lst_stream_info *)base)->s, why, why_size);
}

static int s_journal_stream_check(const void *base, char *why, size_t why_size)
{
	const struct lst_journal_stream *j = base;

	int rc;

	if ((rc = s_stream_check(&j->s, why, why_size)))
		return rc;
	return s_progress_check(j->low, j->issued, j->werr, why, why_size);
}

static int s_mark_check(const void *base, char *why, size_t why_size)
{
	const struct lst_stream_mark *k = base;

	return s_progress_check(k->low, k->issued, k->werr, why, why_size);
}

/* A page lies inside the journal it is a page of. */
static int s_journal_check(const void *base, char *why, size_t why_size)
{
	const struct lst_msg_journal *j = base;

	if ((uint64_t)j->from + j->nstreams > j->total) {
		snprintf(why, why_size,
			 "streams %" PRIu32 "..%" PRIu64 " of a journal of %" PRIu32 " streams",
			 j->from, (uint64_t)j->from + j->nstreams, j->total);
		return -EINVAL;
	}
	return 0;
}

static const struct s_field s_stream_info[] = {
	F_U32_RANGE(struct lst_stream_info, "spec", spec, 0, LST_MAX_JOBSPECS - 1),
	S_STREAM_FIELDS(struct lst_stream_info),
	F_CHECK(s_stream_info_check),
	F_END,
};

static const struct s_field s_journal_stream[] = {
	S_STREAM_FIELDS(struct lst_journal_stream),
	F_U32_RANGE(struct lst_journal_stream, "gen", gen, 1, UINT16_MAX),
	F_U16(struct lst_journal_stream, "agent", agent),
	F_U16(struct lst_journal_stream, "path", path),
	F_U64(struct lst_journal_stream, "low", low),
	F_U64(struct lst_journal_stream, "issued", issued),
	F_U64(struct lst_journal_stream, "werr", werr),
	F_ENUM(struct lst_journal_stream, "complete", complete, 2),
	F_CHECK(s_journal_stream_check),
	F_END,
};

static const struct s_field s_mark[] = {
	F_U32_RANGE(struct lst_stream_mark, "stream", stream, 0, LST_MAX_STREAMS - 1),
	F_U64(struct lst_stream_mark, "low", low),
	F_U64(struct lst_stream_mark, "issued", issued),
	F_U64(struct lst_stream_mark, "werr", werr),
	F_CHECK(s_mark_check),
	F_END,
};

/* lst_sample.verify; lst_sample_check bounds the counts. */
static const struct s_field s_verify[] = {
	F_U64(struct lst_sample_verify, "ok", ok),
	F_U64(struct lst_sample_verify, "pending", pending),
	F_U64(struct lst_sample_verify, "unwritten", unwritten),
	F_U64(struct lst_sample_verify, "bad", bad),
	F_END,
};

/* lst_sample.trim; lst_sample_check bounds the counts. */
static const struct s_field s_trim[] = {
	F_U64(struct lst_sample_trim, "ios", ios),
	F_U64(struct lst_sample_trim, "bytes", bytes),
	F_U64(struct lst_sample_trim, "errors", errors),
	F_END,
};

static const struct s_field s_jobspec[] = {
	F_STR(struct lst_jobspec, "target", target),
	F_STR(struct lst_jobspec, "path", path),
	F_STR(struct lst_jobspec, "identity", identity),
	/* enum lst_action has no count member: keep this bound at its last value. */
	F_ENUM(struct lst_jobspec, "action", action, LST_ACTION_IDENTIFY + 1),
	/* Added in protocol 1 after its release: optional, so old coordinators still decode. */
	F_ENUM_OPT(struct lst_jobspec, "access", access, LST_ACCESS_ALL + 1),
	F_WORKLOAD(struct lst_jobspec, "workload", w),
	/* optional, sent when the workload has verify. */
	F_MAP_HAS(struct lst_jobspec, "stamp", stamp, has_stamp, s_stamp_spec),
	F_END,
};

static const struct s_field s_prepare[] = {
	F_STR(struct lst_msg_prepare, "run", run),
	F_U32(struct lst_msg_prepare, "phase", phase),
	F_U32(struct lst_msg_prepare, "point", point),
	F_STR(struct lst_msg_prepare, "name", name),
	F_ARRAY(struct lst_msg_prepare, "jobs", jobs, njobs, 1, s_jobspec),
	F_END,
};

static const struct s_field s_identity[] = {
	F_STR(struct lst_path_identity, "target", target),
	F_STR(struct lst_path_identity, "path", path),
	F_STR(struct lst_path_identity, "real_path", real_path),
	F_STR(struct lst_path_identity, "kind", kind),
	F_STR(struct lst_path_identity, "wwn", wwn),
	F_STR(struct lst_path_identity, "serial", serial),
	F_STR(struct lst_path_identity, "model", model),
	F_STR(struct lst_path_identity, "vendor", vendor),
	F_STR(struct lst_path_identity, "firmware", firmware),
	F_STR(struct lst_path_identity, "backing_file", backing_file),
	F_U64(struct lst_path_identity, "size", size),
	F_U32(struct lst_path_identity, "lbs", lbs),
	F_U32(struct lst_path_identity, "pbs", pbs),
	F_U64(struct lst_path_identity, "dev", dev),
	F_U64(struct lst_path_identity, "ino", ino),
	F_END,
};

static const struct s_field s_prepared[] = {
	F_U32(struct lst_msg_prepared, "phase", phase),
	F_U32(struct lst_msg_prepared, "point", point),
	F_ARRAY(struct lst_msg_prepared, "paths", paths, npaths, 0, s_identity),
	F_ENUM(struct lst_msg_prepared, "engine", engine, LST_ENGINE_NULL + 1),
	F_STR(struct lst_msg_prepared, "warning", warning),
	/* optional, left out when empty. */
	F_ARRAY_OPT(struct lst_msg_prepared, "streams", streams, nstreams, s_stream_info),
	F_END,
};

static const struct s_field s_event_req[] = {
	F_U32(struct lst_event_req, "id", id),
	F_NAME(struct lst_event_req, "hook", hook),
	F_I64_RANGE(struct lst_event_req, "after", after, 0, INT64_MAX),
	F_END,
};

static const struct s_field s_start[] = {
	F_U32(struct lst_msg_start, "phase", phase),
	F_U32(struct lst_msg_start, "point", point),
	F_I64(struct lst_msg_start, "t0", t0),
	/* optional, left out when empty (an old coordinator's START has none). */
	F_ARRAY_OPT(struct lst_msg_start, "events", events, nevents, s_event_req),
	F_END,
};

static const struct s_field s_started[] = {
	F_U32(struct lst_msg_started, "phase", phase),
	F_U32(struct lst_msg_started, "point", point),
	F_I64(struct lst_msg_started, "t0", t0),
	F_I64(struct lst_msg_started, "actual", actual),
	F_END,
};

static const struct s_field s_dir[] = {
	F_U64(struct lst_dir_stats, "ios", ios),
	F_U64(struct lst_dir_stats, "bytes", bytes),
	F_U64(struct lst_dir_stats, "errors", errors),
	F_HIST(struct lst_dir_stats, "hist", lat),
	F_END,
};

_Static_assert(LST_DIR_READ == 0 && LST_DIR_WRITE == 1 && LST_DIR_N == 2,
	       "sample keys 'read' and 'write' assume two directions");

static const struct s_field s_devstat[] = {
	F_U32(struct lst_devstat, "path", path),
	F_U64(struct lst_devstat, "reads", reads),
	F_U64(struct lst_devstat, "read_merges", read_merges),
	F_U64(struct lst_devstat, "read_sectors", read_sectors),
	F_U64(struct lst_devstat, "read_ms", read_ms),
	F_U64(struct lst_devstat, "writes", writes),
	F_U64(struct lst_devstat, "write_merges", write_merges),
	F_U64(struct lst_devstat, "write_sectors", write_sectors),
	F_U64(struct lst_devstat, "write_ms", write_ms),
	F_U64(struct lst_devstat, "in_flight", in_flight),
	F_U64(struct lst_devstat, "io_ms", io_ms),
	F_U64(struct lst_devstat, "queue_ms", queue_ms),
	F_END,
};

/* One path's share of a SAMPLE: its interval and flags are the sample's, not repeated. */
static const struct s_field s_part[] = {
	F_U32(struct lst_sample_part, "path", path),
	F_I64(struct lst_sample_part, "start", s.start_ns),
	F_I64(struct lst_sample_part, "end", s.end_ns),
	F_MAP(struct lst_sample_part, "read", s.dir[LST_DIR_READ], s_dir),
	F_MAP(struct lst_sample_part, "write", s.dir[LST_DIR_WRITE], s_dir),
	F_HEALTH_OPT(struct lst_sample_part, "health", s.health),
	F_MAP_NONZERO(struct lst_sample_part, "verify", s.verify, struct lst_sample_verify,
		      s_verify),
	F_MAP_NONZERO(struct lst_sample_part, "trim", s.trim, struct lst_sample_trim, s_trim),
	F_END,
};

static const struct s_field s_sample[] = {
	F_U32(struct lst_msg_sample, "phase", phase),
	F_U32(struct lst_msg_sample, "point", point),
	F_I64(struct lst_msg_sample, "interval", s.interval),
	F_I64(struct lst_msg_sample, "start", s.start_ns),
	F_I64(struct lst_msg_sample, "end", s.end_ns),
	F_U32(struct lst_msg_sample, "flags", s.flags),
	F_MAP(struct lst_msg_sample, "read", s.dir[LST_DIR_READ], s_dir),
	F_MAP(struct lst_msg_sample, "write", s.dir[LST_DIR_WRITE], s_dir),
	/* Added in protocol 1 after its release: optional, old peers ignore or omit it. */
	F_ARRAY_OPT(struct lst_msg_sample, "dev", dev, ndev, s_devstat),
	F_HEAP_OPT(struct lst_msg_sample, "paths", parts, struct lst_sample_part, nparts,
		   LST_MAX_JOBSPECS, s_part),
	F_HEALTH_OPT(struct lst_msg_sample, "health", s.health),
	/* optional, left out when zero or empty. */
	F_MAP_NONZERO(struct lst_msg_sample, "verify", s.verify, struct lst_sample_verify,
		      s_verify),
	F_ARRAY_OPT(struct lst_msg_sample, "marks", marks, nmarks, s_mark),
	/* optional, left out when zero. */
	F_MAP_NONZERO(struct lst_msg_sample, "trim", s.trim, struct lst_sample_trim, s_trim),
	F_END,
};

static const struct s_field s_done[] = {
	F_U32(struct lst_msg_done, "phase", phase),
	F_U32(struct lst_msg_done, "point", point),
	F_ENUM(struct lst_msg_done, "reason", reason, LST_DONE_ERROR + 1),
	F_I64(struct lst_msg_done, "last_interval", last_interval),
	F_U64(struct lst_msg_done, "samples", samples),
	F_STR(struct lst_msg_done, "text", text),
	F_U32_OPT(struct lst_msg_done, "events", events),
	F_U32_OPT(struct lst_msg_done, "integrity", integrity),
	F_U64_OPT(struct lst_msg_done, "bad_unreported", bad_unreported),
	F_END,
};

static const struct s_field s_stop[] = {
	F_U32(struct lst_msg_stop, "phase", phase),
	F_U32(struct lst_msg_stop, "point", point),
	F_END,
};

static const struct s_field s_ping[] = {
	F_I64(struct lst_msg_ping, "now", now),
	F_END,
};

static const struct s_field s_ack[] = {
	F_U64(struct lst_msg_ack, "upto", upto),
	F_END,
};

static const struct s_field s_inventory[] = {
	F_U32(struct lst_msg_inventory, "from", from),
	F_END,
};

static const struct s_field s_inv_device[] = {
	F_STR(struct lst_inv_device, "name", name),
	F_STR(struct lst_inv_device, "node", node),
	F_STRS(struct lst_inv_device, "links", links, nlinks),
	F_U32(struct lst_inv_device, "links_omitted", links_omitted),
	F_STR(struct lst_inv_device, "wwn", wwn),
	F_STR(struct lst_inv_device, "serial", serial),
	F_STR(struct lst_inv_device, "vendor", vendor),
	F_STR(struct lst_inv_device, "model", model),
	F_STR(struct lst_inv_device, "firmware", firmware),
	F_U64(struct lst_inv_device, "size", size),
	F_U32(struct lst_inv_device, "lbs", lbs),
	F_U32(struct lst_inv_device, "pbs", pbs),
	F_ENUM(struct lst_inv_device, "rotational", rotational, 2),
	F_STR(struct lst_inv_device, "transport", transport),
	F_STR(struct lst_inv_device, "port", port),
	F_STR(struct lst_inv_device, "nqn", nqn),
	F_STR(struct lst_inv_device, "backing_file", backing_file),
	F_U64(struct lst_inv_device, "backing_dev", backing_dev),
	F_U64(struct lst_inv_device, "backing_ino", backing_ino),
	F_ENUM(struct lst_inv_device, "in_use", in_use, 2),
	F_STR(struct lst_inv_device, "why", why),
	F_ENUM(struct lst_inv_device, "allow_write", allow_write, 2),
	F_END,
};

static const struct s_field s_inventory_reply[] = {
	F_U32(struct lst_msg_inventory_reply, "from", from),
	F_U32(struct lst_msg_inventory_reply, "total", total),
	F_ARRAY(struct lst_msg_inventory_reply, "devices", devices, ndevices, 0, s_inv_device),
	F_END,
};

/* How a hook or collector ran: the "result" map of HOOK_DONE and EVENT. status is an exit
 * status (0..255, 128+N for signal N) or -1 when it never ran. */
static const struct s_field s_hook_result[] = {
	F_I64(struct lst_hook_result, "start", start),
	F_I64(struct lst_hook_result, "end", end),
	F_I32_RANGE(struct lst_hook_result, "status", status, -1, 255),
	F_U32(struct lst_hook_result, "truncated", truncated),
	F_STR(struct lst_hook_result, "text", text),
	F_BYTES(struct lst_hook_result, "output", output, output_len, LST_COLLECT_OUTPUT_MAX),
	F_END,
};

static const struct s_field s_hook[] = {
	F_ENUM(struct lst_msg_hook, "kind", kind, LST_HOOK_COLLECTOR + 1),
	F_NAME(struct lst_msg_hook, "name", name),
	F_U32(struct lst_msg_hook, "phase", phase),
	F_END,
};

static const struct s_field s_hook_done[] = {
	F_ENUM(struct lst_msg_hook_done, "kind", kind, LST_HOOK_COLLECTOR + 1),
	F_NAME(struct lst_msg_hook_done, "name", name),
	F_MAP(struct lst_msg_hook_done, "result", r, s_hook_result),
	F_END,
};

static const struct s_field s_event[] = {
	F_U32(struct lst_msg_event, "phase", phase),
	F_U32(struct lst_msg_event, "point", point),
	F_U32(struct lst_msg_event, "event_id", id), /* "id" is the envelope's */
	F_NAME(struct lst_msg_event, "hook", hook),
	F_I64(struct lst_msg_event, "at", at),
	F_MAP(struct lst_msg_event, "result", r, s_hook_result),
	F_END,
};

static const struct s_field s_kmsg[] = {
	F_ENUM(struct lst_msg_kmsg, "op", op, LST_KMSG_READ + 1),
	F_END,
};

static const struct s_field s_kmsg_reply[] = {
	F_ENUM(struct lst_msg_kmsg_reply, "op", op, LST_KMSG_READ + 1),
	F_U32(struct lst_msg_kmsg_reply, "dropped", dropped),
	F_STR(struct lst_msg_kmsg_reply, "error", error),
	F_BYTES(struct lst_msg_kmsg_reply, "text", text, text_len, LST_KMSG_TEXT_MAX),
	F_END,
};

/* Data integrity: JOURNAL, JOURNAL_OK and INTEGRITY. */
static const struct s_field s_journal[] = {
	F_U32(struct lst_msg_journal, "target", target),
	F_U32(struct lst_msg_journal, "from", from),
	F_U32(struct lst_msg_journal, "total", total),
	F_ARRAY(struct lst_msg_journal, "streams", streams, nstreams, 0, s_journal_stream),
	F_CHECK(s_journal_check),
	F_END,
};

static const struct s_field s_journal_ok[] = {
	F_U32(struct lst_msg_journal_ok, "target", target),
	F_U32(struct lst_msg_journal_ok, "have", have),
	F_END,
};

/* A stamp as read from a disk: any values (the magic is not sent: stamp_kind says what it
 * was). */
static const struct s_field s_found_stamp[] = {
	F_U32(struct lst_stamp, "target", target),
	F_U16(struct lst_stamp, "agent", agent),
	F_U16(struct lst_stamp, "path", path),
	F_U32(struct lst_stamp, "gen", gen),
	F_U32(struct lst_stamp, "crc", crc),
	F_U64(struct lst_stamp, "lba", lba),
	F_I64(struct lst_stamp, "t_ns", t_ns),
	F_U64(struct lst_stamp, "seq", seq),
	F_END,
};

static const struct s_field s_bad_unit[] = {
	F_U32_RANGE(struct lst_bad_unit, "spec", spec, 0, LST_MAX_JOBSPECS - 1),
	F_U64(struct lst_bad_unit, "offset", offset),
	F_ENUM(struct lst_bad_unit, "kind", kind, LST_VK_FUTURE + 1),
	F_U32_RANGE(struct lst_bad_unit, "expected", expected, 0, UINT16_MAX),
	F_ENUM(struct lst_bad_unit, "stamp_kind", stamp_kind, LST_STAMP_TARGET + 1),
	F_MAP(struct lst_bad_unit, "found", found, s_found_stamp),
	F_END,
};

static const struct s_field s_integrity[] = {
	F_U32(struct lst_msg_integrity, "phase", phase),
	F_U32(struct lst_msg_integrity, "point", point),
	F_ARRAY(struct lst_msg_integrity, "bad", bad, nbad, 1, s_bad_unit),
	F_END,
};

static const struct s_field s_none[] = {
	F_END,
};

/* Body of each type; offsets are relative to lst_msg.u (every union member starts there). */
static const struct s_field *const s_bodies[LST_MSG_TYPE_END] = {
	[LST_MSG_HELLO] = s_hello,
	[LST_MSG_WELCOME] = s_welcome,
	[LST_MSG_ERROR] = s_error,
	[LST_MSG_SYNC] = s_sync,
	[LST_MSG_SYNC_REPLY] = s_sync_reply,
	[LST_MSG_PREPARE] = s_prepare,
	[LST_MSG_PREPARED] = s_prepared,
	[LST_MSG_START] = s_start,
	[LST_MSG_STARTED] = s_started,
	[LST_MSG_SAMPLE] = s_sample,
	[LST_MSG_DONE] = s_done,
	[LST_MSG_STOP] = s_stop,
	[LST_MSG_STOPPED] = s_stop,
	[LST_MSG_PING] = s_ping,
	[LST_MSG_PONG] = s_ping,
	[LST_MSG_ACK] = s_ack,
	[LST_MSG_BYE] = s_none,
	[LST_MSG_INVENTORY] = s_inventory,
	[LST_MSG_INVENTORY_REPLY] = s_inventory_reply,
	[LST_MSG_HOOK] = s_hook,
	[LST_MSG_HOOK_DONE] = s_hook_done,
	[LST_MSG_EVENT] = s_event,
	[LST_MSG_KMSG] = s_kmsg,
	[LST_MSG_KMSG_REPLY] = s_kmsg_reply,
	[LST_MSG_JOURNAL] = s_journal,
	[LST_MSG_JOURNAL_OK] = s_journal_ok,
	[LST_MSG_INTEGRITY] = s_integrity,
};

/* The bytes of each body: what lst_msg_decode_into clears of a reused message (lst_msg is as
 * large as its largest body, a quarter megabyte; a SAMPLE's is a tenth of that). */
static const size_t s_body_size[LST_MSG_TYPE_END] = {
	[LST_MSG_HELLO] = sizeof(struct lst_msg_hello),
	[LST_MSG_WELCOME] = sizeof(struct lst_msg_welcome),
	[LST_MSG_ERROR] = sizeof(struct lst_msg_error),
	[LST_MSG_SYNC] = sizeof(struct lst_msg_sync),
	[LST_MSG_SYNC_REPLY] = sizeof(struct lst_msg_sync_reply),
	[LST_MSG_PREPARE] = sizeof(struct lst_msg_prepare),
	[LST_MSG_PREPARED] = sizeof(struct lst_msg_prepared),
	[LST_MSG_START] = sizeof(struct lst_msg_start),
	[LST_MSG_STARTED] = sizeof(struct lst_msg_started),
	[LST_MSG_SAMPLE] = sizeof(struct lst_msg_sample),
	[LST_MSG_DONE] = sizeof(struct lst_msg_done),
	[LST_MSG_STOP] = sizeof(struct lst_msg_stop),
	[LST_MSG_STOPPED] = sizeof(struct lst_msg_stop),
	[LST_MSG_PING] = sizeof(struct lst_msg_ping),
	[LST_MSG_PONG] = sizeof(struct lst_msg_ping),
	[LST_MSG_ACK] = sizeof(struct lst_msg_ack),
	[LST_MSG_BYE] = 0,
	[LST_MSG_INVENTORY] = sizeof(struct lst_msg_inventory),
	[LST_MSG_INVENTORY_REPLY] = sizeof(struct lst_msg_inventory_reply),
	[LST_MSG_HOOK] = sizeof(struct lst_msg_hook),
	[LST_MSG_HOOK_DONE] = sizeof(struct lst_msg_hook_done),
	[LST_MSG_EVENT] = sizeof(struct lst_msg_event),
	[LST_MSG_KMSG] = sizeof(struct lst_msg_kmsg),
	[LST_MSG_KMSG_REPLY] = sizeof(struct lst_msg_kmsg_reply),
	[LST_MSG_JOURNAL] = sizeof(struct lst_msg_journal),
	[LST_MSG_JOURNAL_OK] = sizeof(struct lst_msg_journal_ok),
	[LST_MSG_INTEGRITY] = sizeof(struct lst_msg_integrity),
};
_Static_assert(LST_MSG_INTEGRITY + 1 == LST_MSG_TYPE_END, "s_body_size: a type is missing");

/* An optional array with no entries is left out of the frame: peers that predate it see the
 * frame they always saw. */
static bool s_health_zero(const struct lst_sample_health *h)
{
	static const struct lst_sample_health zero;

	return !memcmp(h, &zero, sizeof(zero));
}

/* Are the n bytes at p all zero? */
static bool s_all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static bool s_omitted(const struct s_field *f, const void *base)
{
	if (f->kind == K_CHECK)
		return true; /* no key of its own */
	if (f->optional && f->kind == K_MAP && f->has)
		return !*(const uint32_t *)((const char *)base + f->count_off);
	if (f->optional && f->kind == K_MAP)
		return s_all_zero((const char *)base + f->off, f->size);
	if (f->optional && f->kind == K_HEALTH)
		return s_health_zero(
			(const struct lst_sample_health *)((const char *)base + f->off));
	return f->optional && (f->kind == K_ARRAY || f->kind == K_HEAP || f->kind == K_STRS) &&
	       !*(const uint32_t *)((const char *)base + f->count_off);
}

/* Fields of a table the frame holds for the struct at base. */
static uint32_t s_nfields(const struct s_field *f, const void *base)
{
	uint32_t n = 0;

	for (; f->key; f++)
		n += !s_omitted(f, base);
	return n;
}

static uint32_t s_nopts(void)
{
	uint32_t n = 0;

	while (lst_workload_opts[n].name)
		n++;
	return n;
}

/* Is s[0..n) a name of a hook or collector: non-empty, letters, digits, '_', '.', '-' only? */
static bool s_is_name(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	}
	return true;
}

#define S_NAME_RULE "must be a name: 1 or more of A-Z a-z 0-9 _ . -"

/* --- the public basics ----------------------------------------------------------------------- */

lst_msg *lst_msg_new(enum lst_msg_type type)
{
	lst_msg *m;

	if ((unsigned)type == 0 || (unsigned)type >= LST_MSG_TYPE_END)
		return NULL;
	m = lst_calloc(1, sizeof(*m));
	m->type = type;
	return m;
}

/* Free the heap arrays (K_HEAP) and bytes (K_BYTES) of a body, its nested maps included, and
 * forget them. */
static void s_free_heap(const struct s_field *f, void *base)
{
	for (; f->key; f++) {
		if (f->kind == K_MAP)
			s_free_heap(f->sub, (char *)base + f->off);
		if (f->kind != K_HEAP && f->kind != K_BYTES)
			continue;
		free(*(void **)((char *)base + f->off));
		*(void **)((char *)base + f->off) = NULL;
		*(uint32_t *)((char *)base + f->count_off) = 0;
	}
}

/* The histograms of a body, its nested maps included, into out[cap]; returns how many. Entries
 * of K_ARRAY fields are not looked into: none holds a histogram. */
static size_t s_hists(const struct s_field *f, char *base, lst_hist **out, size_t n, size_t cap)
{
	for (; f->key; f++) {
		if (f->kind == K_MAP) {
			n = s_hists(f->sub, base + f->off, out, n, cap);
		} else if (f->kind == K_HIST) {
			LST_ASSERT(n < cap);
			out[n++] = (lst_hist *)(base + f->off);
		}
	}
	return n;
}

/*
 * memset(body, 0, size) for a body of type t, but each histogram's buckets are cleared only
 * where they may be non-zero (lst_hist_clear): a SAMPLE holds two 16 KiB histograms of which a
 * few hundred buckets are used, and the coordinator clears one per sample it receives.
 */
static void s_zero_body(uint32_t t, void *body)
{
	lst_hist *h[8];
	size_t n = s_hists(s_bodies[t], body, h, 0, LST_ARRAY_SIZE(h));
	char *at = body, *end = at + s_body_size[t];

	for (size_t i = 1; i < n; i++) /* by address */
		for (size_t j = i; j > 0 && h[j] < h[j - 1]; j--) {
			lst_hist *x = h[j];

			h[j] = h[j - 1];
			h[j - 1] = x;
		}
	for (size_t i = 0; i < n; i++) {
		lst_hist_clear(h[i]);
		memset(at, 0, (size_t)((char *)h[i] - at));
		memset(h[i], 0, offsetof(lst_hist, buckets));
		at = (char *)(h[i] + 1);
	}
	memset(at, 0, (size_t)(end - at));
}

void lst_msg_clear(lst_msg *m)
{
	if (m->type && m->type < LST_MSG_TYPE_END) {
		s_free_heap(s_bodies[m->type], &m->u);
		s_zero_body(m->type, &m->u);
	}
	m->type = 0;
	m->seq = m->id = m->re = 0;
}

void lst_msg_destroy(lst_msg **p)
{
	if (!p || !*p)
		return;
	if ((*p)->type && (*p)->type < LST_MSG_TYPE_END)
		s_free_heap(s_bodies[(*p)->type], &(*p)->u);
	free(*p);
	*p = NULL;
}

/* Give a copy's heap arrays (K_HEAP) and bytes (K_BYTES), its nested maps' included, their
 * own copies. A K_BYTES copy is NUL-terminated after its n bytes, as the decoder leaves it. */
static void s_dup_heap(const struct s_field *f, void *base)
{
	for (; f->key; f++) {
		void **at = (void **)((char *)base + f->off);
		uint32_t n;
		char *copy = NULL;

		if (f->kind == K_MAP)
			s_dup_heap(f->sub, (char *)base + f->off);
		if (f->kind != K_HEAP && f->kind != K_BYTES)
			continue;
		n = *(const uint32_t *)((char *)base + f->count_off);
		if (n && *at && f->kind == K_HEAP) {
			copy = lst_malloc((size_t)n * f->size);
			memcpy(copy, *at, (size_t)n * f->size);
		} else if (n && *at) {
			copy = lst_malloc((size_t)n + 1);
			memcpy(copy, *at, n);
			copy[n] = '\0';
		}
		*at = copy;
	}
}

lst_msg *lst_msg_dup(const lst_msg *m)
{
	lst_msg *c;

	LST_ASSERT(m && m->type && m->type < LST_MSG_TYPE_END);
	/* Only the header and m's body are copied: the rest stays zero, as a reused message needs
	 * it, and untouched (lst_msg is a quarter megabyte; a coordinator keeps one reply per
	 * agent, and copying all of it made 1,000 agents' replies 250 MB of RSS). */
	c = lst_calloc(1, sizeof(*c));
	memcpy(c, m, offsetof(lst_msg, u) + s_body_size[m->type]);
	s_dup_heap(s_bodies[m->type], &c->u);
	return c;
}

const char *lst_msg_type_name(uint32_t type)
{
	if (type == 0 || type >= LST_MSG_TYPE_END)
		return "?";
	return s_type_names[type];
}

const char *lst_msg_done_reason_name(uint32_t reason)
{
	static const char *const names[] = { "complete", "stopped", "lease", "error" };

	return reason < sizeof(names) / sizeof(names[0]) ? names[reason] : "?";
}

uint32_t lst_msg_type_from_name(const char *name, size_t len)
{
	if (!name)
		return 0;
	for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++)
		if (strlen(s_type_names[t]) == len && !memcmp(s_type_names[t], name, len))
			return t;
	return 0;
}

/* --- encoding -------------------------------------------------------------------------------- */

struct s_enc {
	msgpack_sbuffer sb;
	msgpack_packer pk;
	bool full;	  /* output would pass LST_MSG_MAX_BYTES: stop writing */
	const char *type; /* for errors */
	lst_err *err;
};

/*
 * msgpack_packer's write callback into e->sb. It replaces msgpack_sbuffer_write so that growth
 * aborts on out-of-memory (the project rule) and stops at LST_MSG_MAX_BYTES.
 */
static int s_write(void *data, const char *buf, size_t len)
{
	struct s_enc *e = data;
	msgpack_sbuffer *sb = &e->sb;

	if (!len)
		return 0;
	if (e->full || len > LST_MSG_MAX_BYTES - sb->size) {
		e->full = true;
		return -1;
	}
	if (sb->alloc - sb->size < len) {
		size_t n = sb->alloc ? sb->alloc : 4096;

		while (n - sb->size < len)
			n *= 2;
		sb->data = lst_realloc(sb->data, n);
		sb->alloc = n;
	}
	memcpy(sb->data + sb->size, buf, len);
	sb->size += len;
	return 0;
}

static void s_pack_str(struct s_enc *e, const char *s, size_t n)
{
	msgpack_pack_str(&e->pk, n);
	msgpack_pack_str_body(&e->pk, s, n);
}

static void s_pack_key(struct s_enc *e, const char *key)
{
	s_pack_str(e, key, strlen(key));
}

static int s_enc_bad(struct s_enc *e, const char *path, const char *key, const char *what)
{
	return lst_err_set(e->err, -EINVAL, "%s: key '%s%s' %s", e->type, path, key, what);
}

/* Length of a string field, or -1 when it is not NUL-terminated inside its size. */
static ssize_t s_strlen(const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	return n < size ? (ssize_t)n : -1;
}

static int s_enc_fields(struct s_enc *e, const struct s_field *f, const void *base,
			const char *path);

static int s_enc_workload(struct s_enc *e, const struct lst_workload *w, const char *path)
{
	struct lst_workload scratch = *w;

	msgpack_pack_map(&e->pk, s_nopts());
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		int64_t v = lst_opt_get(o, w);
		lst_err oerr;

		if (lst_opt_is_struct(o)) { /* its text form, which the receiver parses */
			char text[LST_OPT_WIRE_MAX];

			lst_opt_format(o, w, text, sizeof(text));
			if (lst_opt_parse(o, &scratch, text, &oerr))
				return lst_err_set(e->err, -EINVAL, "%s: key '%s%s': %s", e->type,
						   path, o->name, oerr.msg);
			s_pack_key(e, o->name);
			s_pack_str(e, text, strlen(text));
			continue;
		}
		/* The receiver runs the same check: refuse to send what it would refuse. */
		if (lst_opt_set_int(o, &scratch, v, &oerr))
			return lst_err_set(e->err, -EINVAL, "%s: key '%s%s': %s", e->type, path,
					   o->name, oerr.msg);
		s_pack_key(e, o->name);
		if (o->type == LST_OPT_ENUM)
			s_pack_str(e, o->choices[v], strlen(o->choices[v]));
		else
			msgpack_pack_int64(&e->pk, v);
	}
	return 0;
}

/* A sample's health: errors by class (only the non-zero ones), timeouts, inflight and the
 * oldest in-flight age in microseconds. Only sent when not all zero (s_omitted). */
static int s_enc_health(struct s_enc *e, const struct lst_sample_health *h, const char *path,
			const char *key)
{
	uint32_t nerr = 0;

	if (h->oldest_inflight_ns < 0)
		return s_enc_bad(e, path, key, "has a negative oldest in-flight age");
	for (int c = 0; c < LST_ERRC_N; c++)
		nerr += h->err_class[c] != 0;
	msgpack_pack_map(&e->pk, 4);
	s_pack_key(e, "errors");
	msgpack_pack_map(&e->pk, nerr);
	for (int c = 0; c < LST_ERRC_N; c++) {
		if (!h->err_class[c])
			continue;
		s_pack_key(e, lst_err_class_names[c]);
		msgpack_pack_uint64(&e->pk, h->err_class[c]);
	}
	s_pack_key(e, "timeouts");
	msgpack_pack_uint64(&e->pk, h->timeouts);
	s_pack_key(e, "inflight");
	msgpack_pack_uint64(&e->pk, h->inflight);
	s_pack_key(e, "oldest_inflight_us");
	msgpack_pack_uint64(&e->pk, (uint64_t)h->oldest_inflight_ns / 1000);
	return 0;
}

static int s_enc_hist(struct s_enc *e, const lst_hist *h, const char *path, const char *key)
{
	uint8_t *buf = lst_malloc(LST_HIST_ENC_MAX);
	lst_hist *check = lst_malloc(sizeof(*check));
	size_t n = lst_hist_encode(h, buf, LST_HIST_ENC_MAX);
	lst_err herr;
	int rc = 0;

	LST_ASSERT(n > 0);
	/* An inconsistent histogram (buckets not adding up to count) would be refused by the
	 * receiver; say so here, where the sender can still be found. */
	if (lst_hist_decode(check, buf, n, &herr)) {
		rc = lst_err_set(e->err, -EINVAL, "%s: key '%s%s': %s", e->type, path, key,
				 herr.msg);
		goto out;
	}
	msgpack_pack_bin(&e->pk, n);
	msgpack_pack_bin_body(&e->pk, buf, n);
out:
	free(check);
	free(buf);
	return rc;
}

/* Heap bytes as a bin: refuse what the receiver would (over the bound, a NUL inside). */
static int s_enc_bytes(struct s_enc *e, const struct s_field *f, const void *base, const char *path)
{
	const char *s = *(const char *const *)((const char *)base + f->off);
	uint32_t n = *(const uint32_t *)((const char *)base + f->count_off);
	char what[96];

	if (n > f->max) {
		snprintf(what, sizeof(what), "has %" PRIu32 " bytes, at most %" PRIu32 " allowed",
			 n, f->max);
		return s_enc_bad(e, path, f->key, what);
	}
	if (n && !s)
		return s_enc_bad(e, path, f->key, "counts bytes but has none");
	if (n && memchr(s, '\0', n))
		return s_enc_bad(e, path, f->key, "contains a NUL byte");
	msgpack_pack_bin(&e->pk, n);
	msgpack_pack_bin_body(&e->pk, s, n);
	return 0;
}

static int s_enc_field(struct s_enc *e, const struct s_field *f, const void *base, const char *path)
{
	const char *p = (const char *)base + f->off;
	char sub[128];
	ssize_t n;
	uint32_t count;
	int rc;

	switch (f->kind) {
	case K_U16:
		msgpack_pack_uint16(&e->pk, *(const uint16_t *)p);
		return 0;
	case K_U32:
		if (f->ranged && (*(const uint32_t *)p < f->lo || *(const uint32_t *)p > f->hi))
			return s_enc_bad(e, path, f->key, "is out of its range");
		msgpack_pack_uint32(&e->pk, *(const uint32_t *)p);
		return 0;
	case K_ENUM:
		if (*(const uint32_t *)p >= f->size)
			return s_enc_bad(e, path, f->key, "holds an unknown value");
		msgpack_pack_uint32(&e->pk, *(const uint32_t *)p);
		return 0;
	case K_U64:
		msgpack_pack_uint64(&e->pk, *(const uint64_t *)p);
		return 0;
	case K_I32:
		if (f->ranged && (*(const int32_t *)p < f->lo || *(const int32_t *)p > f->hi))
			return s_enc_bad(e, path, f->key, "is out of its range");
		msgpack_pack_int32(&e->pk, *(const int32_t *)p);
		return 0;
	case K_I64:
		if (f->ranged && (*(const int64_t *)p < f->lo || *(const int64_t *)p > f->hi))
			return s_enc_bad(e, path, f->key, "is out of its range");
		msgpack_pack_int64(&e->pk, *(const int64_t *)p);
		return 0;
	case K_STR:
		if ((n = s_strlen(p, f->size)) < 0)
			return s_enc_bad(e, path, f->key, "is not NUL-terminated in its field");
		if (f->name && !s_is_name(p, (size_t)n))
			return s_enc_bad(e, path, f->key, S_NAME_RULE);
		s_pack_str(e, p, (size_t)n);
		return 0;
	case K_BYTES:
		return s_enc_bytes(e, f, base, path);
	case K_STRS:
		count = *(const uint32_t *)((const char *)base + f->count_off);
		if (count < f->min || count > f->max)
			return s_enc_bad(e, path, f->key,
					 "has more entries than the protocol allows");
		msgpack_pack_array(&e->pk, count);
		for (uint32_t i = 0; i < count; i++) {
			const char *s = p + i * f->size;

			if ((n = s_strlen(s, f->size)) < 0)
				return s_enc_bad(e, path, f->key,
						 "holds a string that is not NUL-terminated");
			if (f->name && !s_is_name(s, (size_t)n))
				return s_enc_bad(e, path, f->key,
						 "holds an entry that " S_NAME_RULE);
			s_pack_str(e, s, (size_t)n);
		}
		return 0;
	case K_ARRAY:
	case K_HEAP:
		count = *(const uint32_t *)((const char *)base + f->count_off);
		if (count < f->min || count > f->max) {
			snprintf(sub, sizeof(sub),
				 "has %" PRIu32 " entries, allowed %" PRIu32 " to %" PRIu32, count,
				 f->min, f->max);
			return s_enc_bad(e, path, f->key, sub);
		}
		if (f->kind == K_HEAP && !(p = *(const char *const *)p) && count)
			return s_enc_bad(e, path, f->key, "counts entries but has no array");
		msgpack_pack_array(&e->pk, count);
		for (uint32_t i = 0; i < count; i++) {
			snprintf(sub, sizeof(sub), "%s%s[%" PRIu32 "].", path, f->key, i);
			msgpack_pack_map(&e->pk, s_nfields(f->sub, p + i * f->size));
			if ((rc = s_enc_fields(e, f->sub, p + i * f->size, sub)))
				return rc;
		}
		return 0;
	case K_MAP:
		snprintf(sub, sizeof(sub), "%s%s.", path, f->key);
		msgpack_pack_map(&e->pk, s_nfields(f->sub, p));
		return s_enc_fields(e, f->sub, p, sub);
	case K_HIST:
		return s_enc_hist(e, (const lst_hist *)p, path, f->key);
	case K_WORKLOAD:
		snprintf(sub, sizeof(sub), "%s%s.", path, f->key);
		return s_enc_workload(e, (const struct lst_workload *)p, sub);
	case K_HEALTH:
		return s_enc_health(e, (const struct lst_sample_health *)p, path, f->key);
	case K_CHECK:
		break;
	}
	LST_ASSERT(!"unknown field kind");
	return -EINVAL;
}

/* Run a K_CHECK rule on the map at base; its error names the map by path ("streams[2]."). */
static int s_check(const struct s_field *f, const void *base, const char *type, const char *path,
		   lst_err *err)
{
	char why[160];
	size_t n = strlen(path);

	if (!f->check(base, why, sizeof(why)))
		return 0;
	if (n && path[n - 1] == '.')
		n--;
	return lst_err_set(err, -EINVAL, "%s: %.*s%s%s", type, (int)n, path, n ? ": " : "", why);
}

static int s_enc_fields(struct s_enc *e, const struct s_field *f, const void *base,
			const char *path)
{
	for (; f->key; f++) {
		int rc;

		if (f->kind == K_CHECK && (rc = s_check(f, base, e->type, path, e->err)))
			return rc;
		if (s_omitted(f, base))
			continue;
		s_pack_key(e, f->key);
		if ((rc = s_enc_field(e, f, base, path)))
			return rc;
	}
	return 0;
}

int lst_msg_encode(const lst_msg *m, uint8_t **buf, size_t *len, lst_err *err)
{
	struct s_enc e = { .err = err };
	const struct s_field *body;
	int rc;

	LST_ASSERT(m && buf && len);
	*buf = NULL;
	*len = 0;
	if (m->type == 0 || m->type >= LST_MSG_TYPE_END)
		return lst_err_set(err, -EINVAL, "message: cannot encode unknown type %" PRIu32,
				   m->type);
	body = s_bodies[m->type];
	e.type = s_type_names[m->type];
	msgpack_sbuffer_init(&e.sb);
	msgpack_packer_init(&e.pk, &e, s_write);

	msgpack_pack_map(&e.pk, 1 + s_nfields(s_envelope, m) + s_nfields(body, &m->u));
	s_pack_key(&e, "type");
	s_pack_key(&e, e.type);
	if ((rc = s_enc_fields(&e, s_envelope, m, "")))
		goto out_sbuffer;
	if ((rc = s_enc_fields(&e, body, &m->u, "")))
		goto out_sbuffer;
	if (e.full) {
		rc = lst_err_set(err, -EMSGSIZE, "%s: encoded message exceeds %d bytes", e.type,
				 LST_MSG_MAX_BYTES);
		goto out_sbuffer;
	}
	*len = e.sb.size;
	*buf = (uint8_t *)msgpack_sbuffer_release(&e.sb);
	return 0;

out_sbuffer:
	msgpack_sbuffer_destroy(&e.sb);
	return rc;
}

/* --- a SAMPLE's parts ------------------------------------------------------------------------ */

/* Each part on its own: a possible sample of the sample's interval, for a distinct job spec. */
static int s_part_check(const struct lst_msg_sample *m, uint32_t i, uint32_t njobs, bool *seen,
			char *why, size_t why_size)
{
	const struct lst_sample_part *p = &m->parts[i];
	lst_err err;

	if (p->path >= njobs || p->path >= LST_MAX_JOBSPECS) {
		snprintf(why, why_size,
			 "paths[%" PRIu32 "]: path %" PRIu32 " but the point has %" PRIu32
			 " job specs",
			 i, p->path, njobs);
		return -EINVAL;
	}
	if (seen[p->path]) {
		snprintf(why, why_size, "paths[%" PRIu32 "]: path %" PRIu32 " appears twice", i,
			 p->path);
		return -EINVAL;
	}
	seen[p->path] = true;
	if (p->s.interval != m->s.interval) {
		snprintf(why, why_size,
			 "paths[%" PRIu32 "]: interval %" PRId64 ", the sample's is %" PRId64, i,
			 p->s.interval, m->s.interval);
		return -EINVAL;
	}
	if (lst_sample_check(&p->s, &err)) {
		snprintf(why, why_size, "paths[%" PRIu32 "]: %s", i, err.msg);
		return -EINVAL;
	}
	return 0;
}

/* Do the parts' counts and histograms of direction d add up to the sample's? */
static int s_parts_sum_check(const struct lst_msg_sample *m, int d, char *why, size_t why_size)
{
	const struct lst_dir_stats *want = &m->s.dir[d];
	const char *dir = lst_dir_names[d];
	uint64_t ios = 0, bytes = 0, errors = 0;
	lst_hist *sum;
	bool same;

	for (uint32_t i = 0; i < m->nparts; i++) {
		const struct lst_dir_stats *ds = &m->parts[i].s.dir[d];

		if (__builtin_add_overflow(ios, ds->ios, &ios) ||
		    __builtin_add_overflow(bytes, ds->bytes, &bytes) ||
		    __builtin_add_overflow(errors, ds->errors, &errors)) {
			snprintf(why, why_size, "paths: %s counts overflow when added", dir);
			return -EINVAL;
		}
	}
	if (ios != want->ios || bytes != want->bytes || errors != want->errors) {
		snprintf(why, why_size,
			 "paths: %s ios/bytes/errors add up to %" PRIu64 "/%" PRIu64 "/%" PRIu64
			 ", the sample has %" PRIu64 "/%" PRIu64 "/%" PRIu64,
			 dir, ios, bytes, errors, want->ios, want->bytes, want->errors);
		return -EINVAL;
	}
	sum = lst_malloc(sizeof(*sum));
	lst_hist_init(sum);
	for (uint32_t i = 0; i < m->nparts; i++)
		lst_hist_add(sum, &m->parts[i].s.dir[d].lat);
	same = lst_hist_equal(sum, &want->lat);
	free(sum);
	if (!same) {
		snprintf(why, why_size,
			 "paths: the %s latency histograms do not add up to the sample's", dir);
		return -EINVAL;
	}
	return 0;
}

/* Do the parts' verify counts add up to the sample's? lst_sample_check bounded each
 * part's, so the sums cannot overflow. */
static int s_parts_verify_check(const struct lst_msg_sample *m, char *why, size_t why_size)
{
	struct lst_sample_verify sum = { 0 };
	const struct lst_sample_verify *want = &m->s.verify;

	for (uint32_t i = 0; i < m->nparts; i++) {
		sum.ok += m->parts[i].s.verify.ok;
		sum.pending += m->parts[i].s.verify.pending;
		sum.unwritten += m->parts[i].s.verify.unwritten;
		sum.bad += m->parts[i].s.verify.bad;
	}
	if (sum.ok != want->ok || sum.pending != want->pending ||
	    sum.unwritten != want->unwritten || sum.bad != want->bad) {
		snprintf(why, why_size,
			 "paths: verify ok/pending/unwritten/bad add up to %" PRIu64 "/%" PRIu64
			 "/%" PRIu64 "/%" PRIu64 ", the sample has %" PRIu64 "/%" PRIu64 "/%" PRIu64
			 "/%" PRIu64,
			 sum.ok, sum.pending, sum.unwritten, sum.bad, want->ok, want->pending,
			 want->unwritten, want->bad);
		return -EINVAL;
	}
	return 0;
}

int lst_msg_sample_parts_check(const struct lst_msg_sample *m, uint32_t njobs, char *why,
			       size_t why_size)
{
	bool seen[LST_MAX_JOBSPECS] = { false };
	int rc;

	LST_ASSERT(m && why && why_size);
	why[0] = '\0';
	if (!m->nparts)
		return 0;
	if (m->nparts > LST_MAX_JOBSPECS) {
		snprintf(why, why_size, "paths: %" PRIu32 " entries, at most %d allowed", m->nparts,
			 LST_MAX_JOBSPECS);
		return -EINVAL;
	}
	if (!m->parts) {
		snprintf(why, why_size, "paths: %" PRIu32 " entries counted, none given",
			 m->nparts);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < m->nparts; i++)
		if ((rc = s_part_check(m, i, njobs, seen, why, why_size)))
			return rc;
	for (int d = 0; d < LST_DIR_N; d++)
		if ((rc = s_parts_sum_check(m, d, why, why_size)))
			return rc;
	return s_parts_verify_check(m, why, why_size);
}

/* --- the pre-scan ---------------------------------------------------------------------------- */

/* Big-endian unsigned of n bytes at *at, or -1 when the frame ends first. */
static int s_be(const uint8_t *p, size_t len, size_t *at, unsigned n, uint64_t *v)
{
	if (n > len - *at)
		return -1;
	*v = 0;
	for (unsigned i = 0; i < n; i++)
		*v = *v << 8 | p[(*at)++];
	return 0;
}

/*
 * Check that p[0..len) starts with one msgpack object whose every length fits in the bytes that
 * follow it, nested at most S_MAX_DEPTH containers deep, and set *used to its length. Touches
 * nothing but the bytes; no allocation, time linear in len. Returns 0 or -EBADMSG with err
 * saying what and where.
 */
static int s_scan_first(const uint8_t *p, size_t len, size_t *used, lst_err *err)
{
	uint64_t left[S_MAX_DEPTH + 1]; /* elements still expected at each level */
	unsigned depth = 0;
	size_t at = 0;

	left[0] = 1;
	for (;;) {
		uint64_t skip = 0, items = 0, v = 0;
		unsigned lenbytes = 0, extra = 0;
		bool container = false;
		size_t start;
		uint8_t b;

		while (!left[depth]) {
			if (!depth)
				goto done;
			depth--;
		}
		left[depth]--;
		if (at >= len)
			return lst_err_set(err, -EBADMSG, "message: truncated at byte %zu", at);
		start = at;
		b = p[at++];
		if (b <= 0x7f || b >= 0xe0) {
			/* positive or negative fixint */
		} else if (b <= 0x8f) {
			container = true;
			items = 2u * (b & 0x0f);
		} else if (b <= 0x9f) {
			container = true;
			items = b & 0x0f;
		} else if (b <= 0xbf) {
			skip = b & 0x1f;
		} else {
			switch (b) {
			case 0xc0: /* nil */
			case 0xc2: /* false */
			case 0xc3: /* true */
				break;
			case 0xc4: /* bin 8 */
			case 0xd9: /* str 8 */
				lenbytes = 1;
				break;
			case 0xc5: /* bin 16 */
			case 0xda: /* str 16 */
				lenbytes = 2;
				break;
			case 0xc6: /* bin 32 */
			case 0xdb: /* str 32 */
				lenbytes = 4;
				break;
			case 0xc7: /* ext 8: length, type, data */
				lenbytes = 1;
				extra = 1;
				break;
			case 0xc8: /* ext 16 */
				lenbytes = 2;
				extra = 1;
				break;
			case 0xc9: /* ext 32 */
				lenbytes = 4;
				extra = 1;
				break;
			case 0xcc: /* uint 8 */
			case 0xd0: /* int 8 */
				skip = 1;
				break;
			case 0xcd: /* uint 16 */
			case 0xd1: /* int 16 */
				skip = 2;
				break;
			case 0xca: /* float 32 */
			case 0xce: /* uint 32 */
			case 0xd2: /* int 32 */
				skip = 4;
				break;
			case 0xcb: /* float 64 */
			case 0xcf: /* uint 64 */
			case 0xd3: /* int 64 */
				skip = 8;
				break;
			case 0xd4: /* fixext 1, 2, 4, 8, 16: type byte + data */
			case 0xd5:
			case 0xd6:
			case 0xd7:
			case 0xd8:
				skip = 1 + (1u << (b - 0xd4));
				break;
			case 0xdc: /* array 16 */
			case 0xdd: /* array 32 */
			case 0xde: /* map 16 */
			case 0xdf: /* map 32 */
				container = true;
				if (s_be(p, len, &at, b & 1 ? 4 : 2, &v))
					return lst_err_set(err, -EBADMSG,
							   "message: truncated at byte %zu", start);
				items = b >= 0xde ? 2 * v : v;
				break;
			default: /* 0xc1: never used */
				return lst_err_set(err, -EBADMSG,
						   "message: invalid msgpack byte 0x%02x at byte "
						   "%zu",
						   b, start);
			}
		}
		if (lenbytes) {
			if (s_be(p, len, &at, lenbytes, &v))
				return lst_err_set(err, -EBADMSG, "message: truncated at byte %zu",
						   start);
			skip = v + extra;
		}
		if (container) {
			/* Every element takes at least one byte. */
			if (items > len - at)
				return lst_err_set(err, -EBADMSG,
						   "message: container at byte %zu claims %" PRIu64
						   " elements, %zu bytes remain",
						   start, items, len - at);
			if (!items)
				continue;
			if (depth == S_MAX_DEPTH)
				return lst_err_set(err, -EBADMSG,
						   "message: nested deeper than %d at byte %zu",
						   S_MAX_DEPTH, start);
			left[++depth] = items;
		} else {
			if (skip > len - at)
				return lst_err_set(err, -EBADMSG,
						   "message: value at byte %zu claims %" PRIu64
						   " bytes, %zu remain",
						   start, skip, len - at);
			at += skip;
		}
	}
done:
	*used = at;
	return 0;
}

/* s_scan_first, for p[0..len) that must be exactly one object. */
static int s_scan(const uint8_t *p, size_t len, lst_err *err)
{
	size_t used;
	int rc = s_scan_first(p, len, &used, err);

	if (!rc && used != len)
		return lst_err_set(err, -EBADMSG, "message: %zu bytes after the top-level object",
				   len - used);
	return rc;
}

int lst_msg_frame_len(const uint8_t *buf, size_t len, size_t *n, lst_err *err)
{
	return s_scan_first(buf, len < LST_MSG_MAX_BYTES ? len : LST_MSG_MAX_BYTES, n, err);
}

/* --- decoding -------------------------------------------------------------------------------- */

struct s_dec {
	const char *type; /* for errors */
	lst_err *err;
};

static const msgpack_object *s_find(const msgpack_object *map, const char *key)
{
	size_t n = strlen(key);

	for (uint32_t i = 0; i < map->via.map.size; i++) {
		const msgpack_object *k = &map->via.map.ptr[i].key;

		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
		    !memcmp(k->via.str.ptr, key, n))
			return &map->via.map.ptr[i].val;
	}
	return NULL;
}

static int s_dec_bad(struct s_dec *d, int code, const char *path, const char *key, const char *what)
{
	return lst_err_set(d->err, code, "%s: key '%s%s' %s", d->type, path, key, what);
}

/* Copy a wire string into a char[size] field. */
static int s_dec_str(struct s_dec *d, const msgpack_object *v, char *dst, size_t size,
		     const char *path, const char *key)
{
	char what[64];

	if (v->type != MSGPACK_OBJECT_STR)
		return s_dec_bad(d, -EBADMSG, path, key, "must be a string");
	if (v->via.str.size >= size) {
		snprintf(what, sizeof(what), "is longer than %zu bytes", size - 1);
		return s_dec_bad(d, -EINVAL, path, key, what);
	}
	if (memchr(v->via.str.ptr, '\0', v->via.str.size))
		return s_dec_bad(d, -EINVAL, path, key, "contains a NUL byte");
	memcpy(dst, v->via.str.ptr, v->via.str.size);
	dst[v->via.str.size] = '\0';
	return 0;
}

/* A signed integer in [lo, hi]. */
static int s_dec_int(struct s_dec *d, const msgpack_object *v, int64_t lo, int64_t hi, int64_t *out,
		     const char *path, const char *key)
{
	char what[96];
	int64_t x;

	if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= INT64_MAX)
		x = (int64_t)v->via.u64;
	else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
		x = v->via.i64;
	else if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
		return s_dec_bad(d, -EINVAL, path, key, "is out of range");
	else
		return s_dec_bad(d, -EBADMSG, path, key, "must be an integer");
	if (x < lo || x > hi) {
		snprintf(what, sizeof(what), "is %" PRId64 ", allowed %" PRId64 " to %" PRId64, x,
			 lo, hi);
		return s_dec_bad(d, -EINVAL, path, key, what);
	}
	*out = x;
	return 0;
}

/* An unsigned integer in [lo, hi]. */
static int s_dec_urange(struct s_dec *d, const msgpack_object *v, uint64_t lo, uint64_t hi,
			uint64_t *out, const char *path, const char *key)
{
	char what[96];

	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return s_dec_bad(d, -EBADMSG, path, key, "must be an unsigned integer");
	if (v->via.u64 > hi) {
		snprintf(what, sizeof(what), "is %" PRIu64 ", at most %" PRIu64 " allowed",
			 v->via.u64, hi);
		return s_dec_bad(d, -EINVAL, path, key, what);
	}
	if (v->via.u64 < lo) {
		snprintf(what, sizeof(what), "is %" PRIu64 ", at least %" PRIu64 " allowed",
			 v->via.u64, lo);
		return s_dec_bad(d, -EINVAL, path, key, what);
	}
	*out = v->via.u64;
	return 0;
}

/* An unsigned integer <= hi. */
static int s_dec_uint(struct s_dec *d, const msgpack_object *v, uint64_t hi, uint64_t *out,
		      const char *path, const char *key)
{
	return s_dec_urange(d, v, 0, hi, out, path, key);
}

static int s_dec_fields(struct s_dec *d, const msgpack_object *map, const struct s_field *f,
			void *base, const char *path);

static int s_dec_workload(struct s_dec *d, const msgpack_object *map, struct lst_workload *w,
			  const char *path, const char *key)
{
	if (map->type != MSGPACK_OBJECT_MAP)
		return s_dec_bad(d, -EBADMSG, path, key, "must be a map");
	lst_workload_init(w);
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		const msgpack_object *v = s_find(map, o->name);
		char sub[128], range[256];
		lst_err oerr;
		int64_t x = -1;
		int rc;

		if (!v)
			continue; /* absent: the table's default */
		snprintf(sub, sizeof(sub), "%s%s.", path, key);
		if (lst_opt_is_struct(o)) { /* text, parsed as plans and flags are */
			char text[LST_OPT_WIRE_MAX];

			if (v->type != MSGPACK_OBJECT_STR)
				return s_dec_bad(d, -EBADMSG, sub, o->name, "must be a string");
			if (v->via.str.size >= sizeof(text))
				return s_dec_bad(d, -EBADMSG, sub, o->name, "is too long");
			memcpy(text, v->via.str.ptr, v->via.str.size);
			text[v->via.str.size] = '\0';
			if (lst_opt_parse(o, w, text, &oerr))
				return lst_err_set(d->err, -EINVAL, "%s: key '%s%s': %s", d->type,
						   sub, o->name, oerr.msg);
			continue;
		}
		if (o->type == LST_OPT_ENUM) {
			if (v->type != MSGPACK_OBJECT_STR)
				return s_dec_bad(d, -EBADMSG, sub, o->name, "must be a string");
			for (int64_t i = 0; o->choices[i]; i++)
				if (strlen(o->choices[i]) == v->via.str.size &&
				    !memcmp(o->choices[i], v->via.str.ptr, v->via.str.size))
					x = i;
			if (x < 0) {
				lst_opt_describe_range(o, range, sizeof(range));
				return lst_err_set(d->err, -EINVAL,
						   "%s: key '%s%s' must be one of %s", d->type, sub,
						   o->name, range);
			}
		} else if (o->type == LST_OPT_BOOL && v->type == MSGPACK_OBJECT_BOOLEAN) {
			x = v->via.boolean;
		} else if ((rc = s_dec_int(d, v, INT64_MIN, INT64_MAX, &x, sub, o->name))) {
			return rc;
		}
		if (lst_opt_set_int(o, w, x, &oerr))
			return lst_err_set(d->err, -EINVAL, "%s: key '%s%s': %s", d->type, sub,
					   o->name, oerr.msg);
	}
	return 0;
}

/* Bounds of a health map from outside: counts of one interval, I/Os in flight on one agent,
 * an age that still fits in int64 ns. */
#define S_HEALTH_COUNT_MAX (2 * LST_SAMPLE_IOS_MAX)
#define S_HEALTH_INFLIGHT_MAX (1ull << 32)
#define S_HEALTH_AGE_US_MAX ((uint64_t)INT64_MAX / 1000)

/* A sample's health (s_enc_health); class names it does not know are skipped, so a newer
 * agent's classes do not break an older coordinator. */
static int s_dec_health(struct s_dec *d, const msgpack_object *v, struct lst_sample_health *h,
			const char *path, const char *key)
{
	const msgpack_object *errs = NULL, *x;
	char sub[128];
	uint64_t u;
	int rc;

	if (v->type != MSGPACK_OBJECT_MAP)
		return s_dec_bad(d, -EBADMSG, path, key, "must be a map");
	snprintf(sub, sizeof(sub), "%s%s.", path, key);
	memset(h, 0, sizeof(*h));
	if ((errs = s_find(v, "errors"))) {
		if (errs->type != MSGPACK_OBJECT_MAP)
			return s_dec_bad(d, -EBADMSG, sub, "errors", "must be a map");
		for (uint32_t i = 0; i < errs->via.map.size; i++) {
			const msgpack_object_kv *kv = &errs->via.map.ptr[i];
			char esub[160];

			if (kv->key.type != MSGPACK_OBJECT_STR)
				return s_dec_bad(d, -EBADMSG, sub, "errors",
						 "must have class names as keys");
			snprintf(esub, sizeof(esub), "%serrors.", sub);
			for (int c = 0; c < LST_ERRC_N; c++) {
				if (strlen(lst_err_class_names[c]) != kv->key.via.str.size ||
				    memcmp(lst_err_class_names[c], kv->key.via.str.ptr,
					   kv->key.via.str.size))
					continue;
				if ((rc = s_dec_uint(d, &kv->val, S_HEALTH_COUNT_MAX,
						     &h->err_class[c], esub,
						     lst_err_class_names[c])))
					return rc;
			}
		}
	}
	if ((x = s_find(v, "timeouts")) &&
	    (rc = s_dec_uint(d, x, S_HEALTH_COUNT_MAX, &h->timeouts, sub, "timeouts")))
		return rc;
	if ((x = s_find(v, "inflight")) &&
	    (rc = s_dec_uint(d, x, S_HEALTH_INFLIGHT_MAX, &h->inflight, sub, "inflight")))
		return rc;
	if ((x = s_find(v, "oldest_inflight_us"))) {
		if ((rc = s_dec_uint(d, x, S_HEALTH_AGE_US_MAX, &u, sub, "oldest_inflight_us")))
			return rc;
		h->oldest_inflight_ns = (int64_t)u * 1000;
	}
	return 0;
}

/* A bin into heap bytes: the length checked against the bound before anything is allocated,
 * no NUL inside (the receiver uses it as a C string), NUL-terminated; NULL when empty. Owned
 * by the message from here, so a later failure leaves it to lst_msg_destroy. */
static int s_dec_bytes(struct s_dec *d, const msgpack_object *v, const struct s_field *f,
		       void *base, const char *path)
{
	char **at = (char **)((char *)base + f->off);
	uint32_t n;
	char what[96];

	if (v->type != MSGPACK_OBJECT_BIN)
		return s_dec_bad(d, -EBADMSG, path, f->key, "must be binary (bin)");
	n = v->via.bin.size;
	if (n > f->max) {
		snprintf(what, sizeof(what), "has %" PRIu32 " bytes, at most %" PRIu32 " allowed",
			 n, f->max);
		return s_dec_bad(d, -EINVAL, path, f->key, what);
	}
	if (n && memchr(v->via.bin.ptr, '\0', n))
		return s_dec_bad(d, -EINVAL, path, f->key, "contains a NUL byte");
	if (!n)
		return 0;
	*at = lst_malloc((size_t)n + 1);
	memcpy(*at, v->via.bin.ptr, n);
	(*at)[n] = '\0';
	*(uint32_t *)((char *)base + f->count_off) = n;
	return 0;
}

static int s_dec_field(struct s_dec *d, const msgpack_object *v, const struct s_field *f,
		       void *base, const char *path)
{
	char *p = (char *)base + f->off;
	char sub[128], what[96];
	uint64_t u;
	int64_t i;
	uint32_t n;
	int rc;

	switch (f->kind) {
	case K_U16:
		if ((rc = s_dec_uint(d, v, UINT16_MAX, &u, path, f->key)))
			return rc;
		*(uint16_t *)p = (uint16_t)u;
		return 0;
	case K_U32:
		if ((rc = s_dec_urange(d, v, f->ranged ? (uint64_t)f->lo : 0,
				       f->ranged ? (uint64_t)f->hi : UINT32_MAX, &u, path, f->key)))
			return rc;
		*(uint32_t *)p = (uint32_t)u;
		return 0;
	case K_ENUM:
		if ((rc = s_dec_uint(d, v, f->size - 1, &u, path, f->key)))
			return rc;
		*(uint32_t *)p = (uint32_t)u;
		return 0;
	case K_U64:
		return s_dec_uint(d, v, UINT64_MAX, (uint64_t *)p, path, f->key);
	case K_I32:
		if ((rc = s_dec_int(d, v, f->ranged ? f->lo : INT32_MIN,
				    f->ranged ? f->hi : INT32_MAX, &i, path, f->key)))
			return rc;
		*(int32_t *)p = (int32_t)i;
		return 0;
	case K_I64:
		return s_dec_int(d, v, f->ranged ? f->lo : INT64_MIN, f->ranged ? f->hi : INT64_MAX,
				 (int64_t *)p, path, f->key);
	case K_STR:
		if ((rc = s_dec_str(d, v, p, f->size, path, f->key)))
			return rc;
		if (f->name && !s_is_name(p, strlen(p)))
			return s_dec_bad(d, -EINVAL, path, f->key, S_NAME_RULE);
		return 0;
	case K_BYTES:
		return s_dec_bytes(d, v, f, base, path);
	case K_STRS:
	case K_ARRAY:
	case K_HEAP:
		if (v->type != MSGPACK_OBJECT_ARRAY)
			return s_dec_bad(d, -EBADMSG, path, f->key, "must be an array");
		n = v->via.array.size;
		if (n < f->min || n > f->max) {
			snprintf(what, sizeof(what),
				 "has %" PRIu32 " entries, allowed %" PRIu32 " to %" PRIu32, n,
				 f->min, f->max);
			return s_dec_bad(d, -EINVAL, path, f->key, what);
		}
		if (f->kind == K_HEAP) {
			/* At most max entries (the bound above); owned by the message from here,
			 * so a failure below leaves them to lst_msg_destroy. */
			if (!n)
				return 0;
			p = lst_calloc(n, f->size);
			*(char **)((char *)base + f->off) = p;
			*(uint32_t *)((char *)base + f->count_off) = n;
		}
		for (uint32_t k = 0; k < n; k++) {
			const msgpack_object *e = &v->via.array.ptr[k];

			snprintf(sub, sizeof(sub), "%s[%" PRIu32 "]", f->key, k);
			if (f->kind == K_STRS) {
				rc = s_dec_str(d, e, p + k * f->size, f->size, path, sub);
				if (!rc && f->name &&
				    !s_is_name(p + k * f->size, strlen(p + k * f->size)))
					rc = s_dec_bad(d, -EINVAL, path, sub, S_NAME_RULE);
			} else if (e->type != MSGPACK_OBJECT_MAP) {
				rc = s_dec_bad(d, -EBADMSG, path, sub, "must be a map");
			} else {
				snprintf(sub, sizeof(sub), "%s%s[%" PRIu32 "].", path, f->key, k);
				rc = s_dec_fields(d, e, f->sub, p + k * f->size, sub);
			}
			if (rc)
				return rc;
		}
		*(uint32_t *)((char *)base + f->count_off) = n;
		return 0;
	case K_MAP:
		if (v->type != MSGPACK_OBJECT_MAP)
			return s_dec_bad(d, -EBADMSG, path, f->key, "must be a map");
		snprintf(sub, sizeof(sub), "%s%s.", path, f->key);
		if ((rc = s_dec_fields(d, v, f->sub, p, sub)))
			return rc;
		if (f->has)
			*(uint32_t *)((char *)base + f->count_off) = 1;
		return 0;
	case K_HIST: {
		lst_err herr;

		if (v->type != MSGPACK_OBJECT_BIN)
			return s_dec_bad(d, -EBADMSG, path, f->key, "must be binary (bin)");
		/* p is zero (the body is cleared before decoding): clear sparsely */
		rc = lst_hist_decode_reuse((lst_hist *)p, (const uint8_t *)v->via.bin.ptr,
					   v->via.bin.size, &herr);
		if (rc)
			return lst_err_set(d->err, rc == -EBADMSG ? -EBADMSG : -EINVAL,
					   "%s: key '%s%s': %s", d->type, path, f->key, herr.msg);
		return 0;
	}
	case K_WORKLOAD:
		return s_dec_workload(d, v, (struct lst_workload *)p, path, f->key);
	case K_HEALTH:
		return s_dec_health(d, v, (struct lst_sample_health *)p, path, f->key);
	case K_CHECK:
		return s_check(f, base, d->type, path, d->err);
	}
	LST_ASSERT(!"unknown field kind");
	return -EINVAL;
}

/* Decode every field of a table from a map; every field is required unless marked optional
 * (an absent optional field keeps the zero it was given). */
static int s_dec_fields(struct s_dec *d, const msgpack_object *map, const struct s_field *f,
			void *base, const char *path)
{
	for (; f->key; f++) {
		const msgpack_object *v = s_find(map, f->key);
		int rc;

		if (f->kind == K_CHECK) {
			if ((rc = s_check(f, base, d->type, path, d->err)))
				return rc;
			continue;
		}
		if (!v && f->optional)
			continue;
		if (!v)
			return lst_err_set(d->err, -EBADMSG, "%s: missing key '%s%s'", d->type,
					   path, f->key);
		if ((rc = s_dec_field(d, v, f, base, path)))
			return rc;
		/* Another protocol version: its other keys may mean anything. Keep the version
		 * so the receiver can answer LST_PERR_VERSION, skip the rest. */
		if (f->proto && *(const uint32_t *)((char *)base + f->off) != LST_PROTO_VERSION)
			return 0;
	}
	return 0;
}

/* A SAMPLE's parts carry its interval and flags, which the wire does not repeat. */
static void s_parts_inherit(struct lst_msg_sample *m)
{
	for (uint32_t i = 0; i < m->nparts; i++) {
		m->parts[i].s.interval = m->s.interval;
		m->parts[i].s.flags = m->s.flags;
	}
}

/* Untrusted bytes made printable for an error message. */
static const char *s_printable(char *dst, size_t size, const char *src, size_t len)
{
	size_t n = len < size - 1 ? len : size - 1;

	for (size_t i = 0; i < n; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[n] = '\0';
	return dst;
}

/* Decode frame buf into m, which is all zero (lst_msg_clear); m->type is set once the type is known. */
static int s_decode(lst_msg *m, const uint8_t *buf, size_t len, lst_err *err)
{
	struct s_dec d = { .type = "message", .err = err };
	msgpack_unpacked up;
	const msgpack_object *root, *t;
	size_t off = 0;
	uint32_t type;
	char name[40];
	int rc;

	if (len > LST_MSG_MAX_BYTES)
		return lst_err_set(err, -EMSGSIZE, "message: frame of %zu bytes exceeds %d", len,
				   LST_MSG_MAX_BYTES);
	if (!len || !buf)
		return lst_err_set(err, -EBADMSG, "message: empty frame");
	if ((rc = s_scan(buf, len, err)))
		return rc;

	msgpack_unpacked_init(&up);
	if (msgpack_unpack_next(&up, (const char *)buf, len, &off) != MSGPACK_UNPACK_SUCCESS ||
	    off != len) {
		rc = lst_err_set(err, -EBADMSG, "message: not valid msgpack");
		goto out_unpacked;
	}
	root = &up.data;
	if (root->type != MSGPACK_OBJECT_MAP) {
		rc = lst_err_set(err, -EBADMSG, "message: not a msgpack map");
		goto out_unpacked;
	}
	if (!(t = s_find(root, "type"))) {
		rc = lst_err_set(err, -EBADMSG, "message: missing key 'type'");
		goto out_unpacked;
	}
	if (t->type != MSGPACK_OBJECT_STR) {
		rc = lst_err_set(err, -EBADMSG, "message: key 'type' must be a string");
		goto out_unpacked;
	}
	if (!(type = lst_msg_type_from_name(t->via.str.ptr, t->via.str.size))) {
		rc = lst_err_set(err, -EBADMSG, "message: unknown type '%s'",
				 s_printable(name, sizeof(name), t->via.str.ptr, t->via.str.size));
		goto out_unpacked;
	}
	m->type = type;
	d.type = s_type_names[type];
	if ((rc = s_dec_fields(&d, root, s_envelope, m, "")) ||
	    (rc = s_dec_fields(&d, root, s_bodies[type], &m->u, "")))
		goto out_unpacked;
	if (type == LST_MSG_SAMPLE)
		s_parts_inherit(&m->u.sample);
out_unpacked:
	msgpack_unpacked_destroy(&up);
	return rc;
}

int lst_msg_decode(const uint8_t *buf, size_t len, lst_msg **out, lst_err *err)
{
	lst_msg *m;
	int rc;

	LST_ASSERT(out);
	*out = NULL;
	m = lst_calloc(1, sizeof(*m));
	rc = s_decode(m, buf, len, err);
	if (rc) {
		lst_msg_destroy(&m);
		return rc;
	}
	*out = m;
	return 0;
}

int lst_msg_decode_into(lst_msg *m, const uint8_t *buf, size_t len, lst_err *err)
{
	int rc;

	LST_ASSERT(m);
	lst_msg_clear(m);
	rc = s_decode(m, buf, len, err);
	if (rc)
		lst_msg_clear(m);
	return rc;
}
