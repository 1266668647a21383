/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity: the stamp every verified write puts in each 4 KiB unit, the I/O
 * sequence a job follows (so a journal of a few numbers per job tells which units it wrote), and
 * the check of a unit read back against that journal.
 *
 * Stamp: the first LST_STAMP_BYTES of every LST_VERIFY_UNIT of a verified write, little-endian;
 * the rest of the unit is the job's data (random or compressible, as `pattern` says). The crc is
 * crc32c (Castagnoli) over the whole unit with the crc field taken as zero.
 *
 * Journal: a verified write job is a *stream*: its I/O sequence is a pure function of a few
 * numbers (struct lst_stream: seed, region, block size, random or sequential, read share), so
 * "I/Os 0..low-1 of this stream completed, low..issued-1 were issued" says exactly which units
 * hold which generation, whatever the size of the drive. Generation g is the run's g-th verified
 * write point (1, 2, ...); every unit a stream writes carries its generation.
 *
 * Check: a reader replays the streams of its target over the units it reads (lst_verify_map)
 * and classifies each unit read (lst_verify_check): ok, pending (a write that may or may not
 * have landed: issued but not known complete, a stream that never finished, a stream with write
 * errors), unwritten (no verified write of this run touched it) or bad (with a kind).
 */
#ifndef LST_VERIFY_H
#define LST_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"

#define LST_VERIFY_UNIT 4096u		      /* bytes checked as one */
#define LST_STAMP_BYTES 48u		      /* the stamp at the start of a unit */
#define LST_STAMP_MAGIC 0x3159465256545354ull /* "TSTVRFY1" read as little-endian bytes */

/* The stamp, as it is laid out in the unit (little-endian, no padding: 48 bytes). */
struct lst_stamp {
	uint64_t magic;	 /* LST_STAMP_MAGIC */
	uint32_t target; /* lst_verify_target_id() of the target's name */
	uint16_t agent;	 /* the writer: its index in the plan's agents */
	uint16_t path;	 /* the writer: the path's index in its target's path list */
	uint32_t gen;	 /* generation, >= 1 */
	uint32_t crc;	 /* crc32c of the whole unit with this field zero */
	uint64_t lba;	 /* the unit's byte offset / LST_VERIFY_UNIT */
	int64_t t_ns;	 /* when written: ns since the point's start (the shared clock) */
	uint64_t seq;	 /* the I/O's index in its stream */
};

/* crc32c (Castagnoli, reflected, as iSCSI and ext4 use it), continuing crc (start with 0).
 * Hardware (SSE4.2) when the CPU has it, a table otherwise; same results. */
uint32_t lst_crc32c(uint32_t crc, const void *buf, size_t len);

/* A target's id in stamps: FNV-1a 32 of its name. */
uint32_t lst_verify_target_id(const char *name);

/* Write stamp s into the unit at `unit` (LST_VERIFY_UNIT bytes; s->magic and s->crc are set
 * here, the rest as given) and the unit's crc over all of it. */
void lst_stamp_put(void *unit, const struct lst_stamp *s);

/* What a unit holds, as read. */
enum lst_stamp_kind {
	LST_STAMP_OK = 0,     /* a stamp for this target and LBA with a good crc */
	LST_STAMP_NONE = 1,   /* no magic: never stamped, or overwritten by something else */
	LST_STAMP_CRC = 2,    /* the magic, but the crc does not match: corrupted or torn */
	LST_STAMP_LBA = 3,    /* a good stamp for another LBA: misplaced (wrong-LBA write/read) */
	LST_STAMP_TARGET = 4, /* a good stamp of another target */
};

/* Read the stamp of the unit at `unit`, expected at lba of target. *out gets the stamp's fields
 * as found (zeroed for LST_STAMP_NONE). Pure: never fails. */
enum lst_stamp_kind lst_stamp_get(const void *unit, uint64_t lba, uint32_t target,
				  struct lst_stamp *out);

/* ---- streams: the I/O sequence of a job */

/* What a replay needs of a job: reported by the agent in PREPARED (struct lst_stream_info). */
struct lst_stream {
	uint64_t seed;	   /* the job's random state seed (after the seed option was applied) */
	uint64_t lo, hi;   /* the job's region [lo, hi), bytes, bs-aligned */
	uint32_t bs;	   /* bytes per I/O, a multiple of LST_VERIFY_UNIT */
	uint32_t random;   /* 1 random offsets, 0 sequential (wrapping at hi) */
	uint32_t read_pct; /* 0..100: share of reads (a mixed stream's reads write nothing) */
	uint32_t job;	   /* the job's id on its agent (logs) */
};

/* The generator: the job's offsets and directions, I/O after I/O. */
struct lst_ioseq {
	struct lst_stream s;
	uint64_t rng, nblocks, pos, index;
	uint32_t read_below;
	bool mixed, all_reads;
};

/* Start stream s at its first I/O: rng = s->seed | 1, pos = lo, nblocks = (hi - lo) / bs,
 * read_below = 2^32 * read_pct / 100, mixed = 0 < read_pct < 100. */
void lst_ioseq_init(struct lst_ioseq *q, const struct lst_stream *s);

/* xorshift64*: the jobs' random stream (offsets, directions, data). */
static inline uint64_t lst_rand64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 2685821657736338717ull;
}

/* The next I/O: its offset and direction (enum lst_dir); q->index counts them (the I/O just
 * returned has index q->index - 1). The job's hot path: inline. */
static inline void lst_ioseq_next(struct lst_ioseq *q, uint64_t *offset, uint8_t *dir)
{
	if (q->s.random) {
		uint64_t r = lst_rand64(&q->rng);

		*offset = q->s.lo + (uint64_t)(((unsigned __int128)r * q->nblocks) >> 64) * q->s.bs;
	} else {
		*offset = q->pos;
		q->pos += q->s.bs;
		if (q->pos + q->s.bs > q->s.hi)
			q->pos = q->s.lo;
	}
	if (q->mixed)
		*dir = (uint32_t)(lst_rand64(&q->rng) >> 32) < q->read_below ? 0 /* read */
									     : 1 /* write */;
	else
		*dir = q->all_reads ? 0 : 1;
	q->index++;
}

/* ---- the journal of a target, and the check of what was read */

/* One stream as the journal knows it (the coordinator sends these to a verifying agent). */
struct lst_journal_stream {
	struct lst_stream s;
	uint32_t gen;	/* its generation */
	uint16_t agent; /* the writer, as in its stamps */
	uint16_t path;
	uint64_t low;	   /* I/Os 0..low-1 completed (with or without error) */
	uint64_t issued;   /* I/Os 0..issued-1 were issued (>= low) */
	uint64_t werr;	   /* writes of it that completed with an error */
	uint32_t complete; /* 1: its point ended normally (low == issued, nothing in flight) */
};

/*
 * The expected state of `nunits` units from unit first_lba on: for each, the generation of the
 * last write known complete (exp, 0 = none) and the highest generation of a write that may or
 * may not have landed (pend, 0 = none). Built by replaying every stream whose region overlaps.
 */
struct lst_verify_map {
	uint64_t first_lba, nunits;
	uint16_t *exp, *pend;
	/* per generation (index gen, up to maxgen): the generation may hold unknown state for
	 * units it touched (a stream of it with write errors), or a stream of it never finished */
	uint32_t maxgen;
	uint8_t *gen_flags; /* LST_VERIFY_GEN_* bits, [maxgen + 1] */
};

#define LST_VERIFY_GEN_WERR 1u	     /* a stream of this generation had write errors */
#define LST_VERIFY_GEN_INCOMPLETE 2u /* a stream of this generation never finished */

/* Bytes lst_verify_map_build needs for nunits units (for the mem_max check): 4 per unit. */
uint64_t lst_verify_map_bytes(uint64_t nunits);

/* A journal stream claiming more issued I/Os is damaged: 2^40 is ten million IOPS for 30 hours,
 * and replaying it would take hours of a core. */
#define LST_VERIFY_MAX_ISSUED (1ull << 40)

/*
 * Build the map of units [first_lba, first_lba + nunits) from n journal streams (generations
 * 1..65535). Returns 0, or -ENOMEM / -EINVAL (a stream with bs not a multiple of the unit, a
 * generation of 0 or over 65535; also a region not unit-aligned or smaller than one I/O,
 * read_pct over 100, low > issued, issued over LST_VERIFY_MAX_ISSUED, a window past 2^64
 * bytes) with err naming the stream, or -ECANCELED once cancel (may be NULL) is set, looked at
 * every 65536 I/Os replayed; on error m holds nothing to free. Replays at most sum(issued) I/Os
 * (streams whose region misses the window not at all, sequential all-write streams in
 * O(units)).
 */
int lst_verify_map_build(struct lst_verify_map *m, uint64_t first_lba, uint64_t nunits,
			 const struct lst_journal_stream *st, size_t n, const _Atomic int *cancel,
			 lst_err *err);
void lst_verify_map_free(struct lst_verify_map *m);

/* How a unit read compares with the journal. */
enum lst_verify_result {
	LST_VERIFY_OK = 0,	  /* the generation expected, intact */
	LST_VERIFY_PENDING = 1,	  /* may hold the old or the new: a write in flight at a fault */
	LST_VERIFY_UNWRITTEN = 2, /* no verified write of this run is known to have touched it */
	LST_VERIFY_BAD = 3,	  /* an error: *kind says which */
};

/* What is wrong with a bad unit (integrity.csv's `kind`). */
enum lst_verify_kind {
	LST_VK_NONE = 0,      /* (not bad) */
	LST_VK_NO_STAMP = 1,  /* no stamp where a write was known complete */
	LST_VK_WRONG_LBA = 2, /* a stamp of another LBA (or of another target) */
	LST_VK_STALE = 3,     /* an older generation than the last known complete: a lost write */
	LST_VK_CHECKSUM = 4,  /* the stamp's crc does not match the unit */
	LST_VK_FUTURE = 5,    /* a newer generation than any write the journal knows could have
			       * landed there */
};
extern const char *const lst_verify_kind_names[]; /* "", "no stamp", "wrong lba", "stale",
						   * "checksum", "future" */

/*
 * Classify unit lba (inside the map) whose content is at `unit` (LST_VERIFY_UNIT bytes):
 *   exp == 0: UNWRITTEN, unless it holds a good stamp (or one with a bad crc) of a generation
 *     that may have landed there (pend, or an INCOMPLETE generation): PENDING.
 *   a good stamp of gen == exp: OK.
 *   gen > exp: PENDING when gen <= pend or gen is INCOMPLETE, or generation exp had write
 *     errors (WERR: the failed write may have left an earlier run's stamp); else BAD future.
 *   gen < exp: PENDING when generation exp had write errors (WERR: a failed write may have
 *     left the older data); else BAD stale (a lost write).
 *   no stamp, bad crc, another LBA or target: PENDING when pend > 0 and pend >= exp, or the
 *     unit's magic-valid stamp is of an INCOMPLETE generation >= exp, or generation exp had
 *     write errors (WERR: the failed write may have left anything); else BAD with its kind.
 * m may be NULL (no journal: `lockstep-agent bench --verify`): a good stamp of this target and
 * LBA is OK whatever its generation, no stamp is UNWRITTEN, the rest BAD with its kind. A unit
 * outside the map (the caller's error) is checked the same way, never read out of bounds.
 * *found gets the stamp as read; *kind the kind of a BAD unit (LST_VK_NONE otherwise).
 */
enum lst_verify_result lst_verify_check(const struct lst_verify_map *m, uint64_t lba,
					const void *unit, uint32_t target, struct lst_stamp *found,
					enum lst_verify_kind *kind);

#endif
