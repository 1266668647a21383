/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Histogram statistics and the sparse encoding. Recording is inline in the header; everything
 * here runs once per interval or per report, never per I/O.
 */
#include "lst_hist.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "lst_assert.h"

void lst_hist_init(lst_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t lst_hist_bucket_low(unsigned idx)
{
	unsigned shift;

	LST_ASSERT(idx < LST_HIST_NBUCKETS);
	if (idx < 2 * LST_HIST_SUB)
		return idx;
	shift = (idx >> LST_HIST_SUB_BITS) - 1;
	return (uint64_t)(idx - (shift << LST_HIST_SUB_BITS)) << shift;
}

uint64_t lst_hist_bucket_width(unsigned idx)
{
	LST_ASSERT(idx < LST_HIST_NBUCKETS);
	if (idx < 2 * LST_HIST_SUB)
		return 1;
	return 1ull << ((idx >> LST_HIST_SUB_BITS) - 1);
}

/*
 * The buckets that may hold values, [*lo, *hi], from min and max: every value lies between
 * them, so every bucket outside is zero (lst_hist_record keeps that, lst_hist_add and the
 * decoder too). False when no bucket holds any (empty, or only overflow values). This is what
 * makes adding, copying and clearing cost the span of latencies seen (a few hundred buckets)
 * instead of all 1984.
 */
static bool s_span(const lst_hist *h, unsigned *lo, unsigned *hi)
{
	if (!h->count || h->min >= LST_HIST_MAX_NS || h->min > h->max)
		return false; /* empty, overflow only, or a decode that failed on min > max */
	*lo = lst_hist_index(h->min);
	*hi = lst_hist_index(h->max < LST_HIST_MAX_NS ? h->max : LST_HIST_MAX_NS - 1);
	return true;
}

void lst_hist_add(lst_hist *dst, const lst_hist *src)
{
	unsigned lo, hi;

	if (!src->count)
		return;
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (s_span(src, &lo, &hi))
		for (unsigned i = lo; i <= hi; i++)
			dst->buckets[i] += src->buckets[i];
}

void lst_hist_clear(lst_hist *h)
{
	unsigned lo, hi;

	if (s_span(h, &lo, &hi))
		memset(&h->buckets[lo], 0, (hi - lo + 1) * sizeof(h->buckets[0]));
	h->count = h->overflow = h->max = 0;
	h->min = UINT64_MAX;
	h->sum = h->sumsq = 0;
}

void lst_hist_copy(lst_hist *dst, const lst_hist *src)
{
	unsigned lo, hi;

	lst_hist_clear(dst);
	dst->count = src->count;
	dst->overflow = src->overflow;
	dst->min = src->min;
	dst->max = src->max;
	dst->sum = src->sum;
	dst->sumsq = src->sumsq;
	if (s_span(src, &lo, &hi))
		memcpy(&dst->buckets[lo], &src->buckets[lo],
		       (hi - lo + 1) * sizeof(src->buckets[0]));
}

bool lst_hist_equal(const lst_hist *a, const lst_hist *b)
{
	return a->count == b->count && a->overflow == b->overflow && a->min == b->min &&
	       a->max == b->max && a->sum == b->sum && a->sumsq == b->sumsq &&
	       !memcmp(a->buckets, b->buckets, sizeof(a->buckets));
}

static uint64_t s_rank(const lst_hist *h, double p)
{
	double r = ceil(p / 100.0 * (double)h->count);

	if (r < 1)
		return 1;
	if (r > (double)h->count)
		return h->count;
	return (uint64_t)r;
}

static uint64_t s_clamp(const lst_hist *h, uint64_t v)
{
	if (v < h->min)
		return h->min;
	if (v > h->max)
		return h->max;
	return v;
}

void lst_hist_percentiles(const lst_hist *h, const double *pcts, size_t n, uint64_t *out)
{
	uint64_t cum = 0;
	unsigned idx = 0, hi;

	s_span(h, &idx, &hi); /* no bucket below the span counts: start there */
	for (size_t k = 0; k < n; k++) {
		uint64_t rank;

		if (!h->count) {
			out[k] = 0;
			continue;
		}
		if (pcts[k] <= 0) {
			out[k] = h->min;
			continue;
		}
		if (pcts[k] >= 100) {
			out[k] = h->max;
			continue;
		}
		rank = s_rank(h, pcts[k]);
		/* cum counts buckets [0, idx]; advance until it covers rank. */
		while (idx < LST_HIST_NBUCKETS && cum + h->buckets[idx] < rank)
			cum += h->buckets[idx++];
		if (idx >= LST_HIST_NBUCKETS) {
			out[k] = h->max; /* the rank is among the overflow values */
			continue;
		}
		out[k] =
			s_clamp(h, lst_hist_bucket_low(idx) + (lst_hist_bucket_width(idx) - 1) / 2);
	}
}

uint64_t lst_hist_percentile(const lst_hist *h, double p)
{
	uint64_t v;

	lst_hist_percentiles(h, &p, 1, &v);
	return v;
}

double lst_hist_mean(const lst_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

void lst_hist_stats(const lst_hist *h, struct lst_hist_stats *out)
{
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99, 99.999 };
	uint64_t v[LST_ARRAY_SIZE(pcts)];

	memset(out, 0, sizeof(*out));
	if (!h->count)
		return;
	out->count = h->count;
	out->min = h->min;
	out->max = h->max;
	out->mean = lst_hist_mean(h);
	if (h->count > 1) {
		/* The sums are exact; long double keeps the subtraction accurate enough for any
		 * realistic spread (64-bit mantissa). */
		long double n = (long double)h->count, s = (long double)h->sum;
		long double var = ((long double)h->sumsq - s * s / n) / (n - 1);

		out->stdev = var > 0 ? (double)sqrtl(var) : 0.0;
	}
	lst_hist_percentiles(h, pcts, LST_ARRAY_SIZE(pcts), v);
	out->p50 = v[0];
	out->p90 = v[1];
	out->p99 = v[2];
	out->p99_9 = v[3];
	out->p99_99 = v[4];
	out->p99_999 = v[5];
}

/* --- sparse encoding ------------------------------------------------------------------- */

static size_t s_put(uint8_t *buf, size_t cap, size_t at, uint64_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		if (at >= cap)
			return 0;
		buf[at++] = b | (v ? 0x80 : 0);
	} while (v);
	return at;
}

/* lst_hist_encode over buckets lo..hi only (lo > hi: none). */
static size_t s_encode(const lst_hist *h, unsigned lo, unsigned hi, uint8_t *buf, size_t cap)
{
	uint64_t head[10];
	unsigned npairs = 0, prev = 0;
	size_t at = 0;

	for (unsigned i = lo; i <= hi; i++)
		npairs += h->buckets[i] != 0;
	head[0] = 1;
	head[1] = h->count;
	head[2] = h->overflow;
	head[3] = h->count ? h->min : 0;
	head[4] = h->max;
	head[5] = (uint64_t)h->sum;
	head[6] = (uint64_t)(h->sum >> 64);
	head[7] = (uint64_t)h->sumsq;
	head[8] = (uint64_t)(h->sumsq >> 64);
	head[9] = npairs;
	for (unsigned i = 0; i < LST_ARRAY_SIZE(head); i++)
		if (!(at = s_put(buf, cap, at, head[i])))
			return 0;
	for (unsigned i = lo; i <= hi; i++) {
		if (!h->buckets[i])
			continue;
		if (!(at = s_put(buf, cap, at, i - prev)))
			return 0;
		if (!(at = s_put(buf, cap, at, h->buckets[i])))
			return 0;
		prev = i + 1;
	}
	return at;
}

size_t lst_hist_encode(const lst_hist *h, uint8_t *buf, size_t cap)
{
	return s_encode(h, 0, LST_HIST_NBUCKETS - 1, buf, cap);
}

size_t lst_hist_encode_used(const lst_hist *h, uint8_t *buf, size_t cap)
{
	unsigned lo = 1, hi = 0;

	s_span(h, &lo, &hi);
	return s_encode(h, lo, hi, buf, cap);
}

static int s_get(const uint8_t *buf, size_t len, size_t *at, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (*at >= len)
			return -EBADMSG;
		b = buf[(*at)++];
		if (shift == 63 && (b & 0x7e))
			return -EBADMSG; /* more than 64 bits */
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -EBADMSG;
}

static int s_decode(lst_hist *h, const uint8_t *buf, size_t len, lst_err *err);

int lst_hist_decode(lst_hist *h, const uint8_t *buf, size_t len, lst_err *err)
{
	lst_hist_init(h);
	return s_decode(h, buf, len, err);
}

int lst_hist_decode_reuse(lst_hist *h, const uint8_t *buf, size_t len, lst_err *err)
{
	lst_hist_clear(h);
	return s_decode(h, buf, len, err);
}

/* Decode into h, empty (every bucket zero). On an error the buckets set so far lie between
 * those of h's min and max, so lst_hist_clear still clears them all. */
static int s_decode(lst_hist *h, const uint8_t *buf, size_t len, lst_err *err)
{
	static const char *names[] = { "version", "count", "overflow", "min",	"max",
				       "sum",	  "sum",   "sumsq",    "sumsq", "pairs" };
	uint64_t head[10], total = 0;
	size_t at = 0;
	unsigned next = 0;

	for (unsigned i = 0; i < LST_ARRAY_SIZE(head); i++)
		if (s_get(buf, len, &at, &head[i]))
			return lst_err_set(err, -EBADMSG,
					   "histogram: truncated or malformed %s at byte %zu",
					   names[i], at);
	if (head[0] != 1)
		return lst_err_set(err, -EINVAL, "histogram: unknown encoding version %llu",
				   (unsigned long long)head[0]);
	if (head[9] > LST_HIST_NBUCKETS)
		return lst_err_set(err, -EINVAL, "histogram: %llu buckets, at most %u exist",
				   (unsigned long long)head[9], LST_HIST_NBUCKETS);
	h->count = head[1];
	h->overflow = head[2];
	h->min = h->count ? head[3] : UINT64_MAX;
	h->max = head[4];
	h->sum = (lst_u128)head[6] << 64 | head[5];
	h->sumsq = (lst_u128)head[8] << 64 | head[7];
	if (h->count && h->min > h->max)
		return lst_err_set(err, -EINVAL, "histogram: min %llu > max %llu",
				   (unsigned long long)h->min, (unsigned long long)h->max);
	if (h->overflow > h->count)
		return lst_err_set(err, -EINVAL, "histogram: overflow %llu > count %llu",
				   (unsigned long long)h->overflow, (unsigned long long)h->count);
	for (uint64_t k = 0; k < head[9]; k++) {
		uint64_t gap, c;

		if (s_get(buf, len, &at, &gap) || s_get(buf, len, &at, &c))
			return lst_err_set(err, -EBADMSG, "histogram: truncated at pair %llu",
					   (unsigned long long)k);
		if (gap >= LST_HIST_NBUCKETS - next)
			return lst_err_set(err, -EINVAL,
					   "histogram: bucket index out of range at pair %llu",
					   (unsigned long long)k);
		if (!c || c > h->count - total)
			return lst_err_set(err, -EINVAL, "histogram: bad bucket count at pair %llu",
					   (unsigned long long)k);
		next += (unsigned)gap;
		if (next < lst_hist_index(h->min) ||
		    (h->max < LST_HIST_MAX_NS && next > lst_hist_index(h->max)))
			return lst_err_set(
				err, -EINVAL,
				"histogram: bucket %u at pair %llu lies outside min %llu "
				"and max %llu",
				next, (unsigned long long)k, (unsigned long long)h->min,
				(unsigned long long)h->max);
		h->buckets[next++] = c;
		total += c;
	}
	if (total + h->overflow != h->count)
		return lst_err_set(
			err, -EINVAL, "histogram: buckets hold %llu values, count says %llu",
			(unsigned long long)(total + h->overflow), (unsigned long long)h->count);
	if (at != len)
		return lst_err_set(err, -EINVAL, "histogram: %zu trailing bytes", len - at);
	return 0;
}
