/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tail attribution's maths (lst_tail, coordinator/measure) on hand-built histograms, linked with
 * measure and common alone: the I/Os above a threshold, its own bucket split by rank (a
 * percentile) or by the part of its range above it (a limit); a point whose one path was slow
 * in intervals 4-5 (that path 100%, those intervals, alone); both paths slow at once (shared,
 * each naming the other); slow I/Os everywhere, also with one busier interval (spread); a
 * limit no I/O passes (none); bad intervals refused.
 */
#include <errno.h>
#include <string.h>

#include "lst_tail.h"
#include "lst_test.h"

static void test_exceed(void)
{
	lst_hist h;
	struct lst_tail_cut c;
	unsigned b = lst_hist_index(10000);

	lst_hist_init(&h);
	lst_hist_record_n(&h, 10000, 100);
	lst_hist_record_n(&h, 1000000, 5);
	c = lst_tail_cut_at(&h, 500000); /* whole buckets above; its own holds none */
	T_NEAR(lst_tail_exceed(&h, &c), 5, 0);
	c = lst_tail_cut_at(&h, 1000000); /* max is not above */
	T_NEAR(lst_tail_exceed(&h, &c), 0, 0);
	c = lst_tail_cut_at(&h, 9000); /* min is above: all */
	T_NEAR(lst_tail_exceed(&h, &c), 105, 0);
	c = lst_tail_cut_at(&h, 3600000000000ull); /* past the buckets, past max */
	T_NEAR(lst_tail_exceed(&h, &c), 0, 0);

	/* p99 of 105: rank 104, in the 1 ms bucket; after it 1 I/O, a fifth of the bucket */
	c = lst_tail_cut_pct(&h, 99);
	T_EQ_U64(c.bucket, lst_hist_index(1000000));
	T_NEAR(c.frac, 0.2, 1e-12);
	T_NEAR(lst_tail_exceed(&h, &c), 1, 1e-12);
	/* p90: rank 95 in the 10 us bucket: 5 of its 100 after it, and the 5 slow ones */
	c = lst_tail_cut_pct(&h, 90);
	T_EQ_U64(c.bucket, b);
	T_NEAR(lst_tail_exceed(&h, &c), 10, 1e-12);
	lst_hist_init(&h);
	T_NEAR(lst_tail_exceed(&h, &c), 0, 0); /* empty */

	/* bucket [9984, 10111] (width 128) holds all 20, its range clipped to [9990, 10100] */
	lst_hist_record_n(&h, 9990, 10);
	lst_hist_record_n(&h, 10100, 10);
	T_EQ_U64(lst_hist_bucket_low(b), 9984);
	T_EQ_U64(lst_hist_index(9990), lst_hist_index(10100));
	c = lst_tail_cut_at(&h, 10045);
	T_NEAR(c.frac, (10100.0 - 10045) / (10100 - 9990 + 1), 1e-12);
	T_NEAR(lst_tail_exceed(&h, &c), 20 * c.frac, 1e-9);
}

/* Path `path` of agent `agent` in interval k: n I/Os of direction dir at 20 us, plus nslow at
 * 10 ms, 11 ms, ... */
static void s_add(lst_tail *t, int pass, const char *agent, const char *path, int dir, long k,
		  unsigned nslow)
{
	lst_hist h;
	lst_err err;

	lst_hist_init(&h);
	lst_hist_record_n(&h, 20000, 1000);
	for (unsigned i = 0; i < nslow; i++)
		lst_hist_record(&h, 10000000ull + i * 1000000ull);
	if (!pass)
		lst_tail_add_total(t, &h);
	else
		T_EQ_INT(lst_tail_add(t, agent, path, dir, k, &h, &err), 0);
}

/* A point of 10 intervals, a:/dev/sdb reading and b:/dev/sdc writing; slow(path, k) slow I/Os. */
static lst_tail *s_point(uint64_t limit_ns, unsigned (*slow)(int path, long k))
{
	lst_tail *t = lst_tail_new(limit_ns);

	for (int pass = 0; pass < 2; pass++)
		for (long k = 0; k < 10; k++) {
			s_add(t, pass, "a", "/dev/sdb", LST_DIR_READ, k, slow(0, k));
			s_add(t, pass, "b", "/dev/sdc", LST_DIR_WRITE, k, slow(1, k));
		}
	lst_tail_finish(t);
	return t;
}

static unsigned s_b_slow(int path, long k)
{
	return path == 1 && (k == 4 || k == 5) ? 25 : 0;
}

static unsigned s_both_slow(int path, long k)
{
	(void)path;
	return k == 4 || k == 5 ? 25 : 0;
}

static unsigned s_all_slow(int path, long k)
{
	(void)path;
	(void)k;
	return 3;
}

/* Slow I/Os everywhere, a few more in one interval of a: busier, but not where the tail is. */
static unsigned s_all_slow_one_busier(int path, long k)
{
	return 3 + (path == 0 && k == 4 ? 7 : 0);
}

static void test_one_path(void)
{
	lst_tail *t = s_point(5000000, s_b_slow);
	char buf[128];
	long first, last;

	T_EQ_INT((int)lst_tail_nth(t), 3);
	for (size_t i = 1; i < 3; i++) { /* p99.9 and the limit: b's slow I/Os alone */
		const struct lst_tail_th *th = lst_tail_th(t, i);

		T_EQ_STR(th->name, i == 1 ? "p99.9" : "limit");
		T_ASSERT(th->ios > 0);
		T_EQ_STR(th->paths[0].who, "b:/dev/sdc");
		T_NEAR(th->paths[0].pct, 100, 1e-9);
		T_NEAR(th->paths[1].pct, 0, 0);
		T_EQ_INT((int)th->paths[0].nranges, 1);
		lst_tail_ranges_text(&th->paths[0], buf, sizeof(buf));
		T_EQ_STR(buf, "4-5");
		T_NEAR(th->paths[0].hot_pct, 100, 1e-9);
		T_EQ_STR(th->paths[0].also, "");
		T_EQ_STR(th->agents[0].who, "b");
		T_NEAR(th->agents[0].pct, 100, 1e-9);
		T_EQ_STR(th->dirs[0].who, "write");
		T_NEAR(th->dirs[0].pct, 100, 1e-9);
		T_EQ_INT(th->verdict, LST_TAIL_ALONE);
	}
	T_NEAR(lst_tail_th(t, 2)->ios, 50, 1e-9); /* every slow I/O is over 5 ms */
	T_EQ_U64(lst_tail_th(t, 2)->cut.ns, 5000000);
	T_ASSERT(lst_tail_span(t, &first, &last));
	T_EQ_INT((int)first, 0);
	T_EQ_INT((int)last, 9);
	T_EQ_STR(lst_tail_path_name(t, 1), "b:/dev/sdc");
	T_NEAR(lst_tail_at(t, 2, 1, 4), 25, 1e-9);
	T_NEAR(lst_tail_at(t, 2, 1, 3), 0, 0);
	T_NEAR(lst_tail_at(t, 2, 0, 4), 0, 0);
	lst_tail_destroy(&t);
	lst_tail_destroy(&t); /* safe twice */
	T_ASSERT(!t);
}

static void test_shared(void)
{
	lst_tail *t = s_point(5000000, s_both_slow);
	const struct lst_tail_th *th = lst_tail_th(t, 2);

	T_NEAR(th->ios, 100, 1e-9);
	T_NEAR(th->paths[0].pct, 50, 1e-9);
	T_NEAR(th->paths[1].pct, 50, 1e-9);
	T_EQ_STR(th->paths[0].also, "b:/dev/sdc"); /* equal shares: by name */
	T_EQ_STR(th->paths[1].also, "a:/dev/sdb");
	T_EQ_INT(th->verdict, LST_TAIL_SHARED);
	T_NEAR(th->dirs[0].pct, 50, 1e-9);
	lst_tail_destroy(&t);
}

static void test_spread_none(void)
{
	lst_tail *t = s_point(5000000, s_all_slow);
	const struct lst_tail_th *th = lst_tail_th(t, 2);

	T_NEAR(th->ios, 60, 1e-9);
	T_EQ_INT((int)th->paths[0].nranges, 0);
	T_EQ_INT(th->verdict, LST_TAIL_SPREAD);
	lst_tail_destroy(&t);

	t = s_point(5000000, s_all_slow_one_busier); /* interval 4 holds 10 of a's 37: 27% */
	th = lst_tail_th(t, 2);
	T_EQ_STR(th->paths[0].who, "a:/dev/sdb");
	T_NEAR(th->paths[0].hot_pct, 100.0 * 10 / 37, 1e-9);
	T_EQ_INT((int)th->paths[0].nranges, 0);
	T_EQ_INT(th->verdict, LST_TAIL_SPREAD);
	lst_tail_destroy(&t);

	t = s_point(3600000000000ull, s_b_slow); /* an hour: nothing passes it */
	th = lst_tail_th(t, 2);
	T_NEAR(th->ios, 0, 0);
	T_EQ_INT(th->verdict, LST_TAIL_NONE);
	T_EQ_STR(lst_tail_verdict_name(th->verdict), "none");
	lst_tail_destroy(&t);

	t = s_point(0, s_b_slow); /* no limit: two thresholds */
	T_EQ_INT((int)lst_tail_nth(t), 2);
	T_ASSERT(!lst_tail_th(t, 2));
	lst_tail_destroy(&t);
}

static void test_refused(void)
{
	lst_tail *t = lst_tail_new(0);
	lst_hist h;
	lst_err err;

	lst_hist_init(&h);
	lst_hist_record(&h, 1000);
	lst_tail_add_total(t, &h);
	T_EQ_INT(lst_tail_add(t, "a", NULL, LST_DIR_READ, -1, &h, &err), -EINVAL);
	T_CONTAINS(err.msg, "interval -1");
	T_EQ_INT(lst_tail_add(t, "a", NULL, LST_DIR_READ, 7, &h, &err), 0);
	T_EQ_INT(lst_tail_add(t, "a", NULL, LST_DIR_READ, 7 + LST_TAIL_SPAN_MAX, &h, &err), -E2BIG);
	T_CONTAINS(err.msg, "span");
	lst_tail_finish(t);
	T_EQ_STR(lst_tail_th(t, 0)->paths[0].who, "a");
	lst_tail_destroy(&t);
}

int main(void)
{
	test_exceed();
	test_one_path();
	test_shared();
	test_spread_none();
	test_refused();
	printf("tail: ok\n");
	return 0;
}
