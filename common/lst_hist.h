/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency histogram: one type for the whole project.
 *
 * Log-linear buckets in nanoseconds, fio's "plat" scheme: values below 128 ns have a bucket each;
 * above that, every power of two is split into 64 equal buckets. A bucket is reported by its
 * midpoint, so the relative error of any percentile is below 1/128 (0.79%). Buckets cover
 * [0, 2^36 ns) = [0, 68.7 s); larger values are counted exactly in `overflow` (and in count, sum,
 * max), and a percentile that falls among them reports the exact max.
 *
 * Recording is a few instructions with no allocation and no lock: each job owns its histograms.
 * Histograms merge exactly by adding buckets; count, sum, sum of squares, min and max merge too,
 * so every statistic of a merged histogram equals that of all values recorded together.
 * Percentiles use the nearest-rank definition: the smallest recorded value v such that at least
 * p% of the values are <= v.
 *
 * lst_hist is a plain value type in caller memory (about 16 KiB): lst_hist_init() before use.
 */
#ifndef LST_HIST_H
#define LST_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"

#define LST_HIST_SUB_BITS 6
#define LST_HIST_SUB (1u << LST_HIST_SUB_BITS)	    /* buckets per power of two */
#define LST_HIST_MAX_BITS 36			    /* buckets end at 2^36 ns */
#define LST_HIST_MAX_NS (1ull << LST_HIST_MAX_BITS) /* 68.7 s */
#define LST_HIST_NBUCKETS ((LST_HIST_MAX_BITS - LST_HIST_SUB_BITS + 1) * LST_HIST_SUB) /* 1984 */

typedef unsigned __int128 lst_u128;

typedef struct lst_hist {
	uint64_t count;	   /* values recorded, overflow included */
	uint64_t overflow; /* values >= LST_HIST_MAX_NS */
	uint64_t min;	   /* exact; UINT64_MAX when empty */
	uint64_t max;	   /* exact; 0 when empty */
	lst_u128 sum;	   /* exact sum of values, ns */
	lst_u128 sumsq;	   /* exact sum of squares, ns^2 */
	uint64_t buckets[LST_HIST_NBUCKETS];
} lst_hist;

/* Summary statistics of one histogram; all times in ns. Zeros when empty. */
struct lst_hist_stats {
	uint64_t count;
	uint64_t min, max;
	double mean, stdev;
	uint64_t p50, p90, p99, p99_9, p99_99, p99_999;
};

void lst_hist_init(lst_hist *h);
static inline void lst_hist_reset(lst_hist *h)
{
	lst_hist_init(h);
}

/* Bucket index of a value < LST_HIST_MAX_NS. */
static inline unsigned lst_hist_index(uint64_t v)
{
	unsigned msb = 63u - (unsigned)__builtin_clzll(v | 1);
	unsigned shift = msb > LST_HIST_SUB_BITS ? msb - LST_HIST_SUB_BITS : 0;

	return (shift << LST_HIST_SUB_BITS) + (unsigned)(v >> shift);
}

/* Lowest value that falls in bucket idx, and the bucket's width. */
uint64_t lst_hist_bucket_low(unsigned idx);
uint64_t lst_hist_bucket_width(unsigned idx);

/* Record n values equal to v (n = 1 for one I/O; a batch that completed together uses n > 1). */
static inline void lst_hist_record_n(lst_hist *h, uint64_t v, uint64_t n)
{
	h->count += n;
	h->sum += (lst_u128)v * n;
	h->sumsq += (lst_u128)v * v * n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (v >= LST_HIST_MAX_NS)
		h->overflow += n;
	else
		h->buckets[lst_hist_index(v)] += n;
}

static inline void lst_hist_record(lst_hist *h, uint64_t v)
{
	lst_hist_record_n(h, v, 1);
}

/*
 * dst += src, exactly. Like lst_hist_clear and lst_hist_copy it touches only the buckets
 * between the bucket of min and that of max: a histogram never holds a count outside them
 * (recording, adding and decoding keep that; lst_hist_decode refuses a frame that breaks it),
 * so one whose buckets were set by hand must set min and max to match.
 */
void lst_hist_add(lst_hist *dst, const lst_hist *src);

/* h back to empty, as lst_hist_init leaves it, clearing only the buckets that can be used. */
void lst_hist_clear(lst_hist *h);

/* dst = src (dst a valid histogram, not raw memory: see lst_hist_add). */
void lst_hist_copy(lst_hist *dst, const lst_hist *src);

/* True when both hold the same values (every field equal). */
bool lst_hist_equal(const lst_hist *a, const lst_hist *b);

/*
 * Percentile p in [0, 100] (nearest rank), as the bucket midpoint clamped to [min, max].
 * 0 when empty; p <= 0 gives min, p >= 100 gives max.
 */
uint64_t lst_hist_percentile(const lst_hist *h, double p);

/* Several percentiles in one pass; pcts must be ascending. */
void lst_hist_percentiles(const lst_hist *h, const double *pcts, size_t n, uint64_t *out);

void lst_hist_stats(const lst_hist *h, struct lst_hist_stats *out);

double lst_hist_mean(const lst_hist *h);

/*
 * The compact sparse encoding, for the wire and for files: unsigned LEB128 varints
 *   version(=1) count overflow min max sum_lo sum_hi sumsq_lo sumsq_hi npairs
 *   then npairs x (index gap, bucket count)
 * where the index gap is idx - (previous idx + 1) (the first is idx itself), bucket counts are
 * >= 1, and an empty histogram encodes min as 0. An empty histogram takes 10 bytes; a typical
 * interval of a few dozen non-empty buckets takes under 200.
 */
#define LST_HIST_ENC_MAX (10 * 10 + LST_HIST_NBUCKETS * 2 * 10)

/* Encode into buf (cap bytes; LST_HIST_ENC_MAX always suffices). Returns bytes used, or 0 when
 * cap is too small. */
size_t lst_hist_encode(const lst_hist *h, uint8_t *buf, size_t cap);

/* lst_hist_encode, the same bytes, for a histogram that keeps the invariant of lst_hist_add
 * (any recorded, added or decoded one): it reads the buckets between min's and max's only. */
size_t lst_hist_encode_used(const lst_hist *h, uint8_t *buf, size_t cap);

/*
 * Decode what lst_hist_encode wrote. Input from outside is checked in full: truncation, varints
 * over 64 bits, unknown version, indexes out of range or not ascending, zero counts, bucket counts
 * that do not add up to count - overflow, min > max. Returns 0, or -EINVAL / -EBADMSG with err
 * saying what is wrong; h is then unspecified but valid to reset.
 */
int lst_hist_decode(lst_hist *h, const uint8_t *buf, size_t len, lst_err *err);

/* lst_hist_decode into a valid histogram (initialized, or all zero), clearing only the buckets
 * it may use (lst_hist_clear) instead of all of them: the same checks, errors and result. */
int lst_hist_decode_reuse(lst_hist *h, const uint8_t *buf, size_t len, lst_err *err);

#endif
