/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Histogram tests against independent truth: percentiles of millions of values from several
 * distributions compared with exact nearest-rank percentiles of the sorted values; merge equals
 * recording together; the sparse encoding round-trips and rejects malformed input.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "lst_hist.h"
#include "lst_test.h"

/* xorshift64*: deterministic, independent of libc's rand(). */
static uint64_t s_state = 0x9e3779b97f4a7c15ull;

static uint64_t s_rand(void)
{
	s_state ^= s_state >> 12;
	s_state ^= s_state << 25;
	s_state ^= s_state >> 27;
	return s_state * 2685821657736338717ull;
}

static double s_unit(void)
{
	return ((double)(s_rand() >> 11) + 0.5) / 9007199254740992.0;
}

static double s_normal(void)
{
	return sqrt(-2 * log(s_unit())) * cos(2 * M_PI * s_unit());
}

static int s_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t s_exact(const uint64_t *sorted, size_t n, double p)
{
	double r = ceil(p / 100.0 * (double)n);

	if (r < 1)
		r = 1;
	return sorted[(size_t)r - 1];
}

enum dist { UNIFORM, LOGNORMAL, BIMODAL, SMALL, HUGE_TAIL };

static uint64_t s_draw(enum dist d)
{
	switch (d) {
	case UNIFORM: /* 50 us .. 5 ms */
		return 50000 + s_rand() % 4950000;
	case LOGNORMAL: /* median ~100 us, long right tail */
		return (uint64_t)(1e5 * exp(0.8 * s_normal())) + 1;
	case BIMODAL: /* 99.99% near 80 us, 0.01% near 40 ms */
		if (s_rand() % 10000 == 0)
			return 40000000 + s_rand() % 2000000;
		return 70000 + s_rand() % 20000;
	case SMALL: /* ns-scale values, the exact region */
		return s_rand() % 300;
	case HUGE_TAIL: /* a few values beyond the bucket range (> 68.7 s) */
		if (s_rand() % 100000 == 0)
			return LST_HIST_MAX_NS + s_rand() % (100ull * 1000000000);
		return 1000 + s_rand() % 1000000;
	}
	return 0;
}

static const char *s_names[] = { "uniform", "lognormal", "bimodal", "small", "huge-tail" };

static void s_check_distribution(enum dist d, size_t n)
{
	static const double pcts[] = { 0, 1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 100 };
	uint64_t *v = malloc(n * sizeof(*v));
	lst_hist *h = malloc(sizeof(*h));
	struct lst_hist_stats st;
	long double sum = 0, sumsq = 0;

	T_ASSERT(v && h);
	lst_hist_init(h);
	for (size_t i = 0; i < n; i++) {
		v[i] = s_draw(d);
		lst_hist_record(h, v[i]);
		sum += v[i];
		sumsq += (long double)v[i] * v[i];
	}
	qsort(v, n, sizeof(*v), s_cmp);
	T_EQ_U64(h->count, n);
	T_EQ_U64(h->min, v[0]);
	T_EQ_U64(h->max, v[n - 1]);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t want = s_exact(v, n, pcts[i]);
		uint64_t got = lst_hist_percentile(h, pcts[i]);
		double rel = fabs((double)got - (double)want) / (double)(want ? want : 1);

		if (rel >= 0.01)
			T_FAIL("%s p%g: histogram %llu, exact %llu (%.3f%% off)", s_names[d],
			       pcts[i], (unsigned long long)got, (unsigned long long)want,
			       rel * 100);
	}
	lst_hist_stats(h, &st);
	T_NEAR(st.mean, (double)(sum / n), 1e-6 * (double)(sum / n));
	{
		long double mean = sum / n;
		double sd = (double)sqrtl((sumsq - n * mean * mean) / (n - 1));

		T_NEAR(st.stdev, sd, 1e-6 * sd + 1e-9);
	}
	printf("%-9s n=%zu p50=%llu p99=%llu p99.99=%llu max=%llu ok\n", s_names[d], n,
	       (unsigned long long)st.p50, (unsigned long long)st.p99,
	       (unsigned long long)st.p99_99, (unsigned long long)st.max);
	free(v);
	free(h);
}

/* Every bucket's bounds agree with the index function, and widths keep the error < 1%. */
static void s_check_buckets(void)
{
	for (unsigned i = 0; i < LST_HIST_NBUCKETS; i++) {
		uint64_t lo = lst_hist_bucket_low(i), w = lst_hist_bucket_width(i);

		T_EQ_INT(lst_hist_index(lo), i);
		T_EQ_INT(lst_hist_index(lo + w - 1), i);
		if (i + 1 < LST_HIST_NBUCKETS)
			T_EQ_U64(lst_hist_bucket_low(i + 1), lo + w);
		T_ASSERT((double)(w - 1) / 2 / (double)(lo ? lo : 1) < 0.008);
	}
	T_EQ_U64(lst_hist_bucket_low(LST_HIST_NBUCKETS - 1) +
			 lst_hist_bucket_width(LST_HIST_NBUCKETS - 1),
		 LST_HIST_MAX_NS);
	T_ASSERT(LST_HIST_MAX_NS >= 60ull * 1000000000);
}

static void s_check_merge(void)
{
	lst_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *ab = malloc(sizeof(*ab));

	lst_hist_init(a);
	lst_hist_init(b);
	lst_hist_init(ab);
	for (int i = 0; i < 1000000; i++) {
		uint64_t v = s_draw(i % 3 ? LOGNORMAL : HUGE_TAIL);

		lst_hist_record(i & 1 ? a : b, v);
		lst_hist_record(ab, v);
	}
	T_ASSERT(!lst_hist_equal(a, ab));
	lst_hist_add(a, b);
	T_ASSERT(lst_hist_equal(a, ab));
	/* Merging an empty histogram changes nothing, in either direction. */
	lst_hist_init(b);
	lst_hist_add(a, b);
	T_ASSERT(lst_hist_equal(a, ab));
	lst_hist_add(b, a);
	T_ASSERT(lst_hist_equal(b, ab));
	free(a);
	free(b);
	free(ab);
}

static void s_check_empty_and_edges(void)
{
	lst_hist h;
	struct lst_hist_stats st;

	lst_hist_init(&h);
	lst_hist_stats(&h, &st);
	T_EQ_U64(st.count, 0);
	T_EQ_U64(st.p99, 0);
	T_EQ_U64(lst_hist_percentile(&h, 50), 0);
	lst_hist_record(&h, 12345);
	lst_hist_stats(&h, &st);
	T_EQ_U64(st.p50, 12345); /* clamped to the exact min/max */
	T_EQ_U64(st.p99_999, 12345);
	T_NEAR(st.stdev, 0, 0);
	lst_hist_record_n(&h, 7, 3);
	T_EQ_U64(h.count, 4);
	T_EQ_U64(lst_hist_percentile(&h, 75), 7);
	T_EQ_U64(lst_hist_percentile(&h, 76), 12345);
}

static void s_check_encoding(void)
{
	static uint8_t buf[LST_HIST_ENC_MAX];
	lst_hist *h = malloc(sizeof(*h)), *g = malloc(sizeof(*g));
	lst_err err;
	size_t n;

	lst_hist_init(h);
	n = lst_hist_encode(h, buf, sizeof(buf));
	T_EQ_INT(n, 10);
	T_EQ_INT(lst_hist_decode(g, buf, n, &err), 0);
	T_ASSERT(lst_hist_equal(g, h));

	for (int i = 0; i < 200000; i++)
		lst_hist_record(h, s_draw(i % 2 ? BIMODAL : HUGE_TAIL));
	n = lst_hist_encode(h, buf, sizeof(buf));
	T_ASSERT(n > 10 && n < sizeof(buf));
	T_EQ_INT(lst_hist_decode(g, buf, n, &err), 0);
	T_ASSERT(lst_hist_equal(g, h));
	T_EQ_INT(lst_hist_encode(h, buf, n - 1), 0); /* too small a buffer is refused */
	{ /* the used buckets only: the same bytes; decoding over a used histogram, the same */
		static uint8_t used[LST_HIST_ENC_MAX];

		T_EQ_INT(lst_hist_encode_used(h, used, sizeof(used)), n);
		T_ASSERT(!memcmp(used, buf, n));
		lst_hist_init(g);
		lst_hist_record(g, 1);
		lst_hist_record(g, 1000000);
		T_EQ_INT(lst_hist_decode_reuse(g, buf, n, &err), 0);
		T_ASSERT(lst_hist_equal(g, h));
	}

	/* Every truncation is an error, never a crash. */
	for (size_t k = 0; k < n; k++)
		T_ASSERT(lst_hist_decode(g, buf, k, &err) < 0);
	/* Trailing garbage is an error. */
	buf[n] = 0;
	T_ASSERT(lst_hist_decode(g, buf, n + 1, &err) < 0);
	T_CONTAINS(err.msg, "trailing");
	/* A wrong version, an out-of-range index, counts that do not add up. */
	{
		uint8_t bad[] = { 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

		T_EQ_INT(lst_hist_decode(g, bad, sizeof(bad), &err), -EINVAL);
		T_CONTAINS(err.msg, "version");
	}
	{
		/* count 1, one pair at index 1984 (0x80 0x0f = 1920 + 64...) */
		uint8_t bad[] = { 1, 1, 0, 5, 5, 5, 0, 25, 0, 1, 0xc0, 0x0f, 1 };

		T_EQ_INT(lst_hist_decode(g, bad, sizeof(bad), &err), -EINVAL);
		T_CONTAINS(err.msg, "out of range");
	}
	{
		uint8_t bad[] = { 1, 2, 0, 5, 5, 10, 0, 50, 0, 1, 5, 1 };

		T_EQ_INT(lst_hist_decode(g, bad, sizeof(bad), &err), -EINVAL);
		T_CONTAINS(err.msg, "count says");
	}
	{
		/* a pair count claiming more buckets than exist */
		uint8_t bad[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x03 };

		T_EQ_INT(lst_hist_decode(g, bad, sizeof(bad), &err), -EINVAL);
	}
	{
		/* an 11-byte varint */
		uint8_t bad[] = {
			1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1
		};

		T_EQ_INT(lst_hist_decode(g, bad, sizeof(bad), &err), -EBADMSG);
	}
	free(h);
	free(g);
}

int main(void)
{
	s_check_buckets();
	s_check_empty_and_edges();
	s_check_distribution(UNIFORM, 3000000);
	s_check_distribution(LOGNORMAL, 3000000);
	s_check_distribution(BIMODAL, 3000000);
	s_check_distribution(SMALL, 1000000);
	s_check_distribution(HUGE_TAIL, 2000000);
	s_check_merge();
	s_check_encoding();
	printf("histogram: all checks passed\n");
	return 0;
}
