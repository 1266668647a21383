/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity: crc32c, the stamp of a verified unit, the I/O sequence of a job and
 * the check of a unit read back against the journal (lst_verify.h).
 *
 * crc32c runs on the SSE4.2 crc32 instruction when the CPU has it and on a slicing-by-8 table
 * otherwise; the choice is made once (pthread_once) and both give the same results. The stamp is
 * written and read with explicit little-endian byte stores, whatever the host or the alignment.
 *
 * The map (4 bytes per unit: the last generation known written, the highest that may have
 * landed) is built by replaying each journal stream over its first `issued` I/Os; a stream whose
 * region misses the map is skipped, and a sequential all-write stream is applied as at most two
 * runs of units per range of I/Os instead of I/O by I/O. Replaying random streams is the cost of
 * a verification: every I/O of the stream is generated, inside the map or not.
 */
#include "lst_verify.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

#include "lst_assert.h"

#define S_CRC_POLY 0x82F63B78u /* Castagnoli, reflected */
#define S_CRC_OFF 20u	       /* the crc field's offset in the stamp */

const char *const lst_verify_kind_names[] = { "",      "no stamp", "wrong lba",
					      "stale", "checksum", "future" };

/* ---- crc32c */

typedef uint32_t (*s_crc_fn)(uint32_t crc, const uint8_t *p, size_t len);

static uint32_t s_crc_table[8][256];
static s_crc_fn s_crc_impl;
static pthread_once_t s_crc_once = PTHREAD_ONCE_INIT;

/* The raw (not inverted) slicing-by-8 update. */
static uint32_t s_crc_sw(uint32_t c, const uint8_t *p, size_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		c = s_crc_table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
		len--;
	}
	while (len >= 8) {
		uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				   (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 |
			      (uint32_t)p[7] << 24;

		c = s_crc_table[7][lo & 0xff] ^ s_crc_table[6][(lo >> 8) & 0xff] ^
		    s_crc_table[5][(lo >> 16) & 0xff] ^ s_crc_table[4][lo >> 24] ^
		    s_crc_table[3][hi & 0xff] ^ s_crc_table[2][(hi >> 8) & 0xff] ^
		    s_crc_table[1][(hi >> 16) & 0xff] ^ s_crc_table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = s_crc_table[0][(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

#if defined(__x86_64__)
/* The hardware path runs three independent crc32 chains (the instruction's latency is three
 * times its issue interval) over three adjacent blocks and joins them with a shift: the register
 * after n more zero bytes, a linear map tabulated per byte of the register. */
#define S_CRC_LONG 1024u
#define S_CRC_SHORT 256u

static uint32_t s_crc_shift_long[4][256], s_crc_shift_short[4][256];

static uint32_t s_crc_shift(const uint32_t t[4][256], uint32_t c)
{
	return t[0][c & 0xff] ^ t[1][(c >> 8) & 0xff] ^ t[2][(c >> 16) & 0xff] ^ t[3][c >> 24];
}

/* Tabulate the shift over len zero bytes from its value on each bit of the register. */
static void s_crc_shift_init(uint32_t t[4][256], size_t len)
{
	static const uint8_t zeros[S_CRC_LONG];
	uint32_t bit[32];

	for (int i = 0; i < 32; i++)
		bit[i] = s_crc_sw(1u << i, zeros, len);
	for (int b = 0; b < 4; b++)
		for (uint32_t v = 0; v < 256; v++) {
			uint32_t x = 0;

			for (int i = 0; i < 8; i++)
				if (v >> i & 1)
					x ^= bit[8 * b + i];
			t[b][v] = x;
		}
}

/* Three chains over blocks of n bytes at p: the register after all 3 * n. */
__attribute__((target("sse4.2"))) static inline uint32_t
s_crc_hw3(uint32_t c, const uint8_t *p, size_t n, const uint32_t shift[4][256])
{
	uint64_t c0 = c, c1 = 0, c2 = 0;

	for (size_t i = 0; i < n; i += 8) {
		uint64_t v0, v1, v2;

		memcpy(&v0, p + i, 8);
		memcpy(&v1, p + n + i, 8);
		memcpy(&v2, p + 2 * n + i, 8);
		c0 = _mm_crc32_u64(c0, v0);
		c1 = _mm_crc32_u64(c1, v1);
		c2 = _mm_crc32_u64(c2, v2);
	}
	c = s_crc_shift(shift, (uint32_t)c0) ^ (uint32_t)c1;
	return s_crc_shift(shift, c) ^ (uint32_t)c2;
}

/* The raw update on the crc32 instruction; the rest of the build keeps its flags. */
__attribute__((target("sse4.2"))) static uint32_t s_crc_hw(uint32_t c, const uint8_t *p, size_t len)
{
	uint64_t c64;

	while (len && ((uintptr_t)p & 7)) {
		c = _mm_crc32_u8(c, *p++);
		len--;
	}
	for (; len >= 3 * S_CRC_LONG; p += 3 * S_CRC_LONG, len -= 3 * S_CRC_LONG)
		c = s_crc_hw3(c, p, S_CRC_LONG, s_crc_shift_long);
	for (; len >= 3 * S_CRC_SHORT; p += 3 * S_CRC_SHORT, len -= 3 * S_CRC_SHORT)
		c = s_crc_hw3(c, p, S_CRC_SHORT, s_crc_shift_short);
	c64 = c;
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c64 = _mm_crc32_u64(c64, v);
	}
	c = (uint32_t)c64;
	while (len--)
		c = _mm_crc32_u8(c, *p++);
	return c;
}
#endif

static void s_crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ S_CRC_POLY : c >> 1;
		s_crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			s_crc_table[t][i] = s_crc_table[0][s_crc_table[t - 1][i] & 0xff] ^
					    (s_crc_table[t - 1][i] >> 8);
	s_crc_impl = s_crc_sw;
#if defined(__x86_64__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse4.2")) {
		s_crc_shift_init(s_crc_shift_long, S_CRC_LONG);
		s_crc_shift_init(s_crc_shift_short, S_CRC_SHORT);
		s_crc_impl = s_crc_hw;
	}
#endif
}

uint32_t lst_crc32c(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&s_crc_once, s_crc_init);
	return ~s_crc_impl(~crc, buf, len);
}

/* The table path whatever the CPU: for tests and benchmarks (not in the header). */
uint32_t lst_crc32c_sw(uint32_t crc, const void *buf, size_t len);

uint32_t lst_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&s_crc_once, s_crc_init);
	return ~s_crc_sw(~crc, buf, len);
}

/* ---- the stamp */

uint32_t lst_verify_target_id(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	return h;
}

static void s_put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t s_get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* The crc of a unit with its crc field taken as zero; the unit is not modified. */
static uint32_t s_unit_crc(const uint8_t *u)
{
	static const uint8_t zero[4];
	uint32_t c = lst_crc32c(0, u, S_CRC_OFF);

	c = lst_crc32c(c, zero, sizeof(zero));
	return lst_crc32c(c, u + S_CRC_OFF + 4, LST_VERIFY_UNIT - S_CRC_OFF - 4);
}

void lst_stamp_put(void *unit, const struct lst_stamp *s)
{
	uint8_t *u = unit;

	s_put_le(u + 0, LST_STAMP_MAGIC, 8);
	s_put_le(u + 8, s->target, 4);
	s_put_le(u + 12, s->agent, 2);
	s_put_le(u + 14, s->path, 2);
	s_put_le(u + 16, s->gen, 4);
	s_put_le(u + S_CRC_OFF, 0, 4);
	s_put_le(u + 24, s->lba, 8);
	s_put_le(u + 32, (uint64_t)s->t_ns, 8);
	s_put_le(u + 40, s->seq, 8);
	s_put_le(u + S_CRC_OFF, lst_crc32c(0, u, LST_VERIFY_UNIT), 4);
}

enum lst_stamp_kind lst_stamp_get(const void *unit, uint64_t lba, uint32_t target,
				  struct lst_stamp *out)
{
	const uint8_t *u = unit;

	memset(out, 0, sizeof(*out));
	if (s_get_le(u, 8) != LST_STAMP_MAGIC)
		return LST_STAMP_NONE;
	out->magic = LST_STAMP_MAGIC;
	out->target = (uint32_t)s_get_le(u + 8, 4);
	out->agent = (uint16_t)s_get_le(u + 12, 2);
	out->path = (uint16_t)s_get_le(u + 14, 2);
	out->gen = (uint32_t)s_get_le(u + 16, 4);
	out->crc = (uint32_t)s_get_le(u + S_CRC_OFF, 4);
	out->lba = s_get_le(u + 24, 8);
	out->t_ns = (int64_t)s_get_le(u + 32, 8);
	out->seq = s_get_le(u + 40, 8);
	if (out->crc != s_unit_crc(u))
		return LST_STAMP_CRC;
	if (out->target != target)
		return LST_STAMP_TARGET;
	if (out->lba != lba)
		return LST_STAMP_LBA;
	return LST_STAMP_OK;
}

/* ---- streams */

void lst_ioseq_init(struct lst_ioseq *q, const struct lst_stream *s)
{
	uint64_t below = ((uint64_t)1 << 32) * (s->read_pct > 100 ? 100 : s->read_pct) / 100;

	memset(q, 0, sizeof(*q));
	q->s = *s;
	q->rng = s->seed | 1;
	q->pos = s->lo;
	q->nblocks = s->bs && s->hi > s->lo ? (s->hi - s->lo) / s->bs : 0;
	q->read_below = below > UINT32_MAX ? UINT32_MAX : (uint32_t)below;
	q->mixed = s->read_pct > 0 && s->read_pct < 100;
	q->all_reads = s->read_pct >= 100;
	q->index = 0;
}

/* ---- the map */

/* The map's window in bytes and where its arrays start. */
struct s_window {
	uint64_t lo, hi; /* [lo, hi) bytes */
	uint64_t first;	 /* first_lba */
};

uint64_t lst_verify_map_bytes(uint64_t nunits)
{
	return nunits > UINT64_MAX / 4 ? UINT64_MAX : nunits * 4;
}

/* Raise arr over the units of bytes [a, b) that fall inside the window to gen. */
static inline void s_mark(uint16_t *arr, const struct s_window *w, uint64_t a, uint64_t b,
			  uint16_t gen)
{
	uint64_t u, end;

	if (b <= w->lo || a >= w->hi)
		return;
	u = (a < w->lo ? w->lo : a) / LST_VERIFY_UNIT - w->first;
	end = (b > w->hi ? w->hi : b) / LST_VERIFY_UNIT - w->first;
	for (; u < end; u++) /* a store either way: vectorizes as a max */
		arr[u] = arr[u] < gen ? gen : arr[u];
}

/* Replay the next `count` I/Os of q, marking what they write in arr. Random offsets land
 * anywhere in a map larger than the caches: a batch's writes are gathered and their units
 * prefetched first, so that the misses overlap instead of coming one after the other. */
#define S_BATCH 32
/* I/Os replayed between two looks at the cancel flag: about a millisecond. */
#define S_CANCEL_EVERY (1u << 16)

static bool s_cancelled(const _Atomic int *cancel)
{
	return cancel && atomic_load_explicit(cancel, memory_order_relaxed);
}

/* Returns false when cancel was set (the map is then half built). */
static bool s_replay(struct lst_ioseq *q, uint64_t count, uint16_t *arr, const struct s_window *w,
		     uint16_t gen, const _Atomic int *cancel)
{
	uint64_t bs = q->s.bs, off, hit[S_BATCH], since = 0;
	uint8_t dir;

	while (count) {
		unsigned n = 0, chunk = count < S_BATCH ? (unsigned)count : S_BATCH;

		for (unsigned i = 0; i < chunk; i++) {
			lst_ioseq_next(q, &off, &dir);
			if (!dir || off + bs <= w->lo || off >= w->hi)
				continue;
			hit[n++] = off;
			__builtin_prefetch(
				arr + ((off < w->lo ? w->lo : off) / LST_VERIFY_UNIT - w->first),
				1);
		}
		for (unsigned i = 0; i < n; i++)
			s_mark(arr, w, hit[i], hit[i] + bs, gen);
		count -= chunk;
		if ((since += chunk) >= S_CANCEL_EVERY) {
			since = 0;
			if (s_cancelled(cancel))
				return false;
		}
	}
	return true;
}

/* A sequential all-write stream: I/O i writes slot i mod nblocks, so I/Os [a, b) cover at most
 * two runs of slots, marked without replaying them one by one. */
static void s_seq_range(const struct lst_stream *s, uint64_t nblocks, uint64_t a, uint64_t b,
			uint16_t *arr, const struct s_window *w, uint16_t gen)
{
	uint64_t s0, n;

	if (b <= a)
		return;
	if (b - a >= nblocks) {
		s_mark(arr, w, s->lo, s->lo + nblocks * s->bs, gen);
		return;
	}
	s0 = a % nblocks;
	n = b - a;
	if (s0 + n <= nblocks) {
		s_mark(arr, w, s->lo + s0 * s->bs, s->lo + (s0 + n) * s->bs, gen);
		return;
	}
	s_mark(arr, w, s->lo + s0 * s->bs, s->lo + nblocks * s->bs, gen);
	s_mark(arr, w, s->lo, s->lo + (s0 + n - nblocks) * s->bs, gen);
}

/* Apply one journal stream to the map: exp from I/Os [0, low), pend from [low, issued).
 * Returns false when cancel was set. */
static bool s_apply(struct lst_verify_map *m, const struct lst_journal_stream *js,
		    const struct s_window *w, const _Atomic int *cancel)
{
	const struct lst_stream *s = &js->s;
	uint16_t gen = (uint16_t)js->gen;
	struct lst_ioseq q;

	if (s->read_pct >= 100 || s->hi <= w->lo || s->lo >= w->hi)
		return true;
	lst_ioseq_init(&q, s);
	if (!s->random && s->read_pct == 0) {
		s_seq_range(s, q.nblocks, 0, js->low, m->exp, w, gen);
		s_seq_range(s, q.nblocks, js->low, js->issued, m->pend, w, gen);
		return true;
	}
	return s_replay(&q, js->low, m->exp, w, gen, cancel) &&
	       s_replay(&q, js->issued - js->low, m->pend, w, gen, cancel);
}

/* Check one stream from outside (the journal): the replay's bounds hold. */
static int s_stream_check(const struct lst_journal_stream *js, size_t i, lst_err *err)
{
	const struct lst_stream *s = &js->s;
	const char *why = NULL;

	if (js->gen < 1 || js->gen > 65535)
		why = "generation not in 1..65535";
	else if (!s->bs || s->bs % LST_VERIFY_UNIT)
		why = "bs is not a multiple of 4096";
	else if (s->lo % LST_VERIFY_UNIT || s->hi % LST_VERIFY_UNIT)
		why = "region not 4096-aligned";
	else if (s->hi <= s->lo || s->hi - s->lo < s->bs)
		why = "region smaller than one I/O";
	else if (s->read_pct > 100)
		why = "read share over 100%";
	else if (js->low > js->issued)
		why = "more I/Os completed than issued";
	else if (js->issued > LST_VERIFY_MAX_ISSUED)
		why = "more I/Os issued than any run issues (2^40)";
	if (!why)
		return 0;
	return lst_err_set(err, -EINVAL,
			   "journal stream %zu (agent %u path %u job %u, generation %u): %s "
			   "(region [%llu, %llu), bs %u, read %u%%, low %llu, issued %llu)",
			   i, js->agent, js->path, s->job, js->gen, why, (unsigned long long)s->lo,
			   (unsigned long long)s->hi, s->bs, s->read_pct,
			   (unsigned long long)js->low, (unsigned long long)js->issued);
}

/* Allocate the map's arrays for maxgen; -ENOMEM leaves m freed. */
static int s_map_alloc(struct lst_verify_map *m, uint32_t maxgen, lst_err *err)
{
	size_t n = m->nunits ? (size_t)m->nunits : 1;

	if (m->nunits > SIZE_MAX / sizeof(uint16_t))
		return lst_err_set(err, -ENOMEM, "verify map of %llu units: too large",
				   (unsigned long long)m->nunits);
	m->exp = calloc(n, sizeof(uint16_t));
	m->pend = calloc(n, sizeof(uint16_t));
	m->gen_flags = calloc((size_t)maxgen + 1, 1);
	m->maxgen = maxgen;
	if (!m->exp || !m->pend || !m->gen_flags) {
		lst_verify_map_free(m);
		return lst_err_set(err, -ENOMEM,
				   "verify map of %llu units (%llu bytes): out of memory",
				   (unsigned long long)m->nunits,
				   (unsigned long long)lst_verify_map_bytes(m->nunits));
	}
	return 0;
}

int lst_verify_map_build(struct lst_verify_map *m, uint64_t first_lba, uint64_t nunits,
			 const struct lst_journal_stream *st, size_t n, const _Atomic int *cancel,
			 lst_err *err)
{
	uint32_t maxgen = 0;
	struct s_window w;
	int rc;

	memset(m, 0, sizeof(*m));
	if (first_lba > UINT64_MAX / LST_VERIFY_UNIT ||
	    nunits > UINT64_MAX / LST_VERIFY_UNIT - first_lba)
		return lst_err_set(err, -EINVAL,
				   "verify map of %llu units from unit %llu: past 2^64",
				   (unsigned long long)nunits, (unsigned long long)first_lba);
	for (size_t i = 0; i < n; i++) {
		rc = s_stream_check(&st[i], i, err);
		if (rc)
			return rc;
		if (st[i].gen > maxgen)
			maxgen = st[i].gen;
	}
	m->first_lba = first_lba;
	m->nunits = nunits;
	rc = s_map_alloc(m, maxgen, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (st[i].werr)
			m->gen_flags[st[i].gen] |= LST_VERIFY_GEN_WERR;
		if (!st[i].complete)
			m->gen_flags[st[i].gen] |= LST_VERIFY_GEN_INCOMPLETE;
	}
	w.first = first_lba;
	w.lo = first_lba * LST_VERIFY_UNIT;
	w.hi = (first_lba + nunits) * LST_VERIFY_UNIT;
	for (size_t i = 0; i < n && nunits; i++) {
		if (!s_apply(m, &st[i], &w, cancel)) {
			lst_verify_map_free(m);
			return lst_err_set(
				err, -ECANCELED,
				"cancelled while replaying journal stream %zu (%llu I/Os)", i,
				(unsigned long long)st[i].issued);
		}
	}
	return 0;
}

void lst_verify_map_free(struct lst_verify_map *m)
{
	free(m->exp);
	free(m->pend);
	free(m->gen_flags);
	m->exp = m->pend = NULL;
	m->gen_flags = NULL;
	m->nunits = 0;
	m->maxgen = 0;
}

/* ---- the check */

static enum lst_verify_kind s_bad_kind(enum lst_stamp_kind k)
{
	switch (k) {
	case LST_STAMP_NONE:
		return LST_VK_NO_STAMP;
	case LST_STAMP_CRC:
		return LST_VK_CHECKSUM;
	case LST_STAMP_LBA:
	case LST_STAMP_TARGET:
		return LST_VK_WRONG_LBA;
	case LST_STAMP_OK:
		break;
	}
	return LST_VK_NONE;
}

static uint8_t s_flags(const struct lst_verify_map *m, uint32_t gen)
{
	return gen <= m->maxgen ? m->gen_flags[gen] : 0;
}

/* Without a journal (or outside the map): only the stamp itself is checked. */
static enum lst_verify_result s_check_alone(enum lst_stamp_kind k, enum lst_verify_kind *kind)
{
	if (k == LST_STAMP_OK)
		return LST_VERIFY_OK;
	if (k == LST_STAMP_NONE)
		return LST_VERIFY_UNWRITTEN;
	*kind = s_bad_kind(k);
	return LST_VERIFY_BAD;
}

/* A generation that may have landed on a unit whose last known write is exp, pend. */
static bool s_may_have_landed(const struct lst_verify_map *m, uint32_t gen, uint16_t pend)
{
	return (gen >= 1 && gen <= pend) || (s_flags(m, gen) & LST_VERIFY_GEN_INCOMPLETE);
}

/* A good stamp of this target and LBA, of generation found->gen, against exp and pend. */
static enum lst_verify_result s_check_good(const struct lst_verify_map *m, uint32_t gen,
					   uint16_t exp, uint16_t pend, enum lst_verify_kind *kind)
{
	if (gen == exp)
		return LST_VERIFY_OK;
	if (gen > exp) {
		if (s_may_have_landed(m, gen, pend) || (s_flags(m, exp) & LST_VERIFY_GEN_WERR))
			return LST_VERIFY_PENDING;
		*kind = LST_VK_FUTURE;
		return LST_VERIFY_BAD;
	}
	if (s_flags(m, exp) & LST_VERIFY_GEN_WERR)
		return LST_VERIFY_PENDING;
	*kind = LST_VK_STALE;
	return LST_VERIFY_BAD;
}

/* No stamp, a bad crc, another LBA or target, where generation exp is known written. */
static enum lst_verify_result s_check_broken(const struct lst_verify_map *m, enum lst_stamp_kind k,
					     const struct lst_stamp *found, uint16_t exp,
					     uint16_t pend, enum lst_verify_kind *kind)
{
	if (pend > 0 && pend >= exp)
		return LST_VERIFY_PENDING;
	if (s_flags(m, exp) & LST_VERIFY_GEN_WERR)
		return LST_VERIFY_PENDING;
	if (k != LST_STAMP_NONE && found->gen >= exp &&
	    (s_flags(m, found->gen) & LST_VERIFY_GEN_INCOMPLETE))
		return LST_VERIFY_PENDING;
	*kind = s_bad_kind(k);
	return LST_VERIFY_BAD;
}

/*
 * As lst_verify.h says. A unit outside the map (a caller's error) is checked as without a
 * journal: a good stamp is OK, no stamp UNWRITTEN, the rest BAD with its kind. A stamp
 * generation beyond the map's maxgen has no flags. Generation exp's write errors make any
 * content of the unit but its own stamp PENDING (the failed write may have left anything there,
 * an earlier run's stamp of a higher generation included).
 */
enum lst_verify_result lst_verify_check(const struct lst_verify_map *m, uint64_t lba,
					const void *unit, uint32_t target, struct lst_stamp *found,
					enum lst_verify_kind *kind)
{
	enum lst_stamp_kind k = lst_stamp_get(unit, lba, target, found);
	uint16_t exp, pend;
	uint64_t u;

	*kind = LST_VK_NONE;
	if (!m || lba < m->first_lba || lba - m->first_lba >= m->nunits)
		return s_check_alone(k, kind);
	u = lba - m->first_lba;
	exp = m->exp[u];
	pend = m->pend[u];
	if (exp == 0) {
		if ((k == LST_STAMP_OK || k == LST_STAMP_CRC) &&
		    s_may_have_landed(m, found->gen, pend))
			return LST_VERIFY_PENDING;
		return LST_VERIFY_UNWRITTEN;
	}
	if (k == LST_STAMP_OK)
		return s_check_good(m, found->gen, exp, pend, kind);
	return s_check_broken(m, k, found, exp, pend, kind);
}
