/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Access distributions: fio's text forms parse, refuse out-of-range values with a
 * sentence naming the range, and format back to text that parses to the same value; the
 * agent's generator (lst_offset) stays in the region, is deterministic per seed, and gives the
 * shapes each distribution promises (checked against closed forms, with tolerances that a
 * wrong generator fails).
 */
#include <errno.h>
#include <math.h>

#include "lst_mix.h"
#include "lst_offset.h"
#include "lst_test.h"
#include "lst_workload.h"

static void s_roundtrip(const char *text, const char *want)
{
	struct lst_dist a, b;
	char buf[256], buf2[256];
	lst_err err;

	if (lst_dist_parse(&a, text, &err))
		T_FAIL("'%s' did not parse: %s", text, err.msg);
	T_EQ_STR(lst_dist_format(&a, buf, sizeof(buf)), want);
	if (lst_dist_parse(&b, buf, &err))
		T_FAIL("'%s' (formatted) did not parse: %s", buf, err.msg);
	T_EQ_INT(a.kind, b.kind);
	T_ASSERT(a.param == b.param);
	T_EQ_INT(a.nzones, b.nzones);
	T_ASSERT(!memcmp(a.zone, b.zone, sizeof(a.zone)));
	T_EQ_STR(lst_dist_format(&b, buf2, sizeof(buf2)), buf);
}

static void s_bad(const char *text, int code, const char *says)
{
	struct lst_dist d;
	lst_err err;

	err.msg[0] = '\0';
	if (!lst_dist_parse(&d, text, &err))
		T_FAIL("'%s' parsed", text);
	T_EQ_INT(err.code, code);
	T_CONTAINS(err.msg, says);
	T_ASSERT(!strchr(err.msg, '\n'));
}

static void test_parse(void)
{
	s_roundtrip("random", "random");
	s_roundtrip("zipf:1.2", "zipf:1.2");
	s_roundtrip("zipf:0.8", "zipf:0.8");
	s_roundtrip("zipf:100", "zipf:100");
	s_roundtrip("zipf:1.0000000000000002", "zipf:1.0000000000000002");
	s_roundtrip("zipf:0.1234567890123", "zipf:0.1234567890123");
	s_roundtrip("pareto:0.2", "pareto:0.2");
	s_roundtrip("normal:10", "normal:10");
	s_roundtrip("normal:0.5", "normal:0.5");
	s_roundtrip("zoned:70/10:30/90", "zoned:70/10:30/90");
	s_roundtrip("zoned:100/100", "zoned:100/100");
	s_roundtrip("zoned:0/50:100/50", "zoned:0/50:100/50");
	s_roundtrip("zoned:10/10:10/10:10/10:10/10:10/10:10/10:10/10:10/10:10/10:1/1:1/1:1/1:1/1:"
		    "1/1:1/1:4/4",
		    "zoned:10/10:10/10:10/10:10/10:10/10:10/10:10/10:10/10:10/10:1/1:1/1:1/1:1/1:"
		    "1/1:1/1:4/4");

	s_bad("zipf:1", -ERANGE, "not 1");
	s_bad("zipf:0", -ERANGE, "θ > 0");
	s_bad("zipf:-2", -ERANGE, "θ > 0");
	s_bad("zipf:101", -ERANGE, "at most 100");
	s_bad("zipf:nan", -EINVAL, "not a number");
	s_bad("zipf:inf", -EINVAL, "not a number");
	s_bad("zipf:1.2x", -EINVAL, "not a number");
	s_bad("zipf", -EINVAL, "needs a parameter");
	s_bad("zipf:", -EINVAL, "not a number");
	s_bad("pareto:1.5", -ERANGE, "0 < h < 1");
	s_bad("pareto:1", -ERANGE, "0 < h < 1");
	s_bad("pareto:0", -ERANGE, "0 < h < 1");
	s_bad("normal:0", -ERANGE, "(0, 100]");
	s_bad("normal:100.5", -ERANGE, "(0, 100]");
	s_bad("zoned:70/10:20/90", -ERANGE, "add up to 90%");
	s_bad("zoned:70/10:30/80", -ERANGE, "sizes to 90%");
	s_bad("zoned:70/10:30", -EINVAL, "ACCESS%/SIZE%");
	s_bad("zoned:70/0:30/100", -ERANGE, "SIZE in 1..100");
	s_bad("zoned:70.5/10:29.5/90", -EINVAL, "whole percentages");
	s_bad("zoned:", -EINVAL, "needs zones");
	s_bad("zoned", -EINVAL, "needs zones");
	s_bad("zoned:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:84/84",
	      -ERANGE, "more than 16 zones");
	s_bad("random:3", -EINVAL, "no parameter");
	s_bad("gauss:3", -EINVAL, "unknown distribution");
	s_bad("", -EINVAL, "unknown distribution");
}

/* Through the option table: the workload field, its default and the wrapped message. */
static void test_option(void)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, "random_distribution");
	struct lst_workload w;
	char buf[128];
	lst_err err;

	T_ASSERT(o);
	lst_workload_init(&w);
	T_EQ_INT(w.dist.kind, LST_DIST_RANDOM);
	T_EQ_INT(lst_opt_parse(o, &w, "zipf:1.2", &err), 0);
	T_EQ_STR(lst_opt_format(o, &w, buf, sizeof(buf)), "zipf:1.2");
	T_ASSERT(lst_opt_parse(o, &w, "pareto:1.5", &err) != 0);
	T_CONTAINS(err.msg, "random_distribution: pareto:h needs 0 < h < 1");
	T_EQ_STR(lst_opt_format(o, &w, buf, sizeof(buf)), "zipf:1.2"); /* unchanged */
	w.verify = 1;
	T_ASSERT(lst_workload_check(&w, 0, &err) != 0);
	T_CONTAINS(err.msg, "verify");
}

static struct lst_offset s_gen(const char *text, uint64_t n)
{
	struct lst_dist d;
	struct lst_offset o;
	lst_err err;

	if (lst_dist_parse(&d, text, &err))
		T_FAIL("%s: %s", text, err.msg);
	lst_offset_init(&o, &d, n, 0, 4096);
	return o;
}

/* Share of draws below block `hot` of n. */
static double s_share(const char *text, uint64_t n, uint64_t hot, int draws)
{
	struct lst_offset o = s_gen(text, n);
	uint64_t rng = 0x1234567 | 1, in = 0;

	for (int i = 0; i < draws; i++) {
		uint64_t b = lst_offset_next(&o, &rng);

		if (b >= n)
			T_FAIL("%s: block %llu outside %llu", text, (unsigned long long)b,
			       (unsigned long long)n);
		in += b < hot;
	}
	return (double)in / draws;
}

static double s_harmonic(uint64_t n, double s)
{
	double h = 0;

	for (uint64_t k = n; k >= 1; k--)
		h += pow((double)k, -s);
	return h;
}

static void test_shapes(void)
{
	const int draws = 400000;

	/* zipf: P(rank <= k) = H(k, θ) / H(n, θ), both sides of θ = 1 */
	T_NEAR(s_share("zipf:1.2", 65536, 655, draws),
	       s_harmonic(655, 1.2) / s_harmonic(65536, 1.2), 0.005);
	T_NEAR(s_share("zipf:0.8", 65536, 655, draws),
	       s_harmonic(655, 0.8) / s_harmonic(65536, 0.8), 0.005);
	T_NEAR(s_share("zipf:2.5", 1000, 1, draws), 1 / s_harmonic(1000, 2.5), 0.005);
	/* pareto:h: the first h of the blocks take 1 - h of the I/Os */
	T_NEAR(s_share("pareto:0.2", 100000, 20000, draws), 0.8, 0.005);
	T_NEAR(s_share("pareto:0.4", 100000, 40000, draws), 0.6, 0.005);
	/* normal:10: within ±σ of the middle 68.3%; below the middle half */
	T_NEAR(s_share("normal:10", 100000, 40000, draws), 0.1587, 0.005);
	T_NEAR(s_share("normal:10", 100000, 50000, draws), 0.5, 0.005);
	T_NEAR(s_share("normal:100", 100000, 25000, draws), 0.25, 0.01); /* nearly flat */
	/* zoned: the shares per slice */
	T_NEAR(s_share("zoned:70/10:30/90", 65536, 6554, draws), 0.70, 0.005);
	T_NEAR(s_share("zoned:0/50:100/50", 1000, 500, draws), 0.0, 0.0);
	T_NEAR(s_share("random", 65536, 655, draws), 0.01, 0.001);
}

/* Huge regions: in range, hot at the start; tiny regions: in range. */
static void test_extremes(void)
{
	static const char *const dists[] = { "zipf:1.2",    "zipf:0.5",	       "zipf:100",
					     "pareto:0.01", "pareto:0.99",     "normal:0.0001",
					     "normal:100",  "zoned:1/1:99/99", "zoned:50/1:50/99" };
	const uint64_t sizes[] = { 1, 2, 3, 7, 1000, 4ull << 30, 1ull << 40 };

	for (size_t i = 0; i < sizeof(dists) / sizeof(dists[0]); i++)
		for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			struct lst_offset o = s_gen(dists[i], sizes[j]);
			uint64_t rng = 99;

			for (int k = 0; k < 20000; k++) {
				uint64_t b = lst_offset_next(&o, &rng);

				if (b >= sizes[j])
					T_FAIL("%s over %llu blocks: block %llu", dists[i],
					       (unsigned long long)sizes[j], (unsigned long long)b);
			}
		}
	/* zipf over 2^40 blocks still puts rank 1 first: P(1) = 1 / ζ(1.2) ~ 0.18 */
	T_NEAR(s_share("zipf:1.2", 1ull << 40, 1, 200000), 1 / 5.5916, 0.01);
}

static void test_deterministic(void)
{
	struct lst_offset a = s_gen("zipf:1.2", 1u << 20), b = s_gen("zipf:1.2", 1u << 20);
	struct lst_offset c = s_gen("normal:5", 1u << 20), d = s_gen("normal:5", 1u << 20);
	uint64_t ra = 42, rb = 42, rc = 42, rd = 43, same = 0;

	for (int i = 0; i < 10000; i++) {
		T_EQ_U64(lst_offset_next(&a, &ra), lst_offset_next(&b, &rb));
		same += lst_offset_next(&c, &rc) == lst_offset_next(&d, &rd);
	}
	T_ASSERT(same < 100); /* another seed, another sequence */
	a = s_gen("zoned:70/10:30/90", 100);
	a.lo = 1 << 20;
	ra = 5;
	for (int i = 0; i < 1000; i++) {
		uint64_t off = lst_offset_at(&a, &ra);

		T_ASSERT(off >= (1u << 20) && off < (1u << 20) + 100 * 4096 && off % 4096 == 0);
	}
}

int main(void)
{
	test_parse();
	test_option();
	test_shapes();
	test_extremes();
	test_deterministic();
	printf("ok\n");
	return 0;
}
