/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-point merge: intervals emitted in order once every agent has passed them, counts
 * and histograms added, late samples dropped from rows and totals alike, and a window that stays
 * bounded when one agent runs far ahead or sends interval numbers that cannot be right.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_merge.h"
#include "lst_test.h"

static int64_t s_rows[8192];
static uint64_t s_ios[8192];
static size_t s_nrows;
static int64_t s_last_k = -1;

static void s_on_row(const struct lst_merge_row *row, void *arg)
{
	(void)arg;
	T_ASSERT(row->k > s_last_k); /* in order, each once */
	s_last_k = row->k;
	if (s_nrows < 8192) {
		s_rows[s_nrows] = row->k;
		s_ios[s_nrows] = row->all->dir[LST_DIR_READ].ios;
	}
	s_nrows++;
}

static void s_reset(void)
{
	s_nrows = 0;
	s_last_k = -1;
}

/* A 10 ms sample of agent clock time with `ios` reads of 1 us each. */
static lst_sample *s_sample(int64_t k, uint64_t ios)
{
	static lst_sample s;

	lst_sample_init(&s, k);
	/* An interval number too large for a time in ns (the refused ones) keeps init's times. */
	if (k < INT64_MAX / 10000000) {
		s.start_ns = k * 10000000;
		s.end_ns = s.start_ns + 10000000;
	}
	s.dir[LST_DIR_READ].ios = ios;
	s.dir[LST_DIR_READ].bytes = ios * 4096;
	for (uint64_t i = 0; i < ios; i++)
		lst_hist_record(&s.dir[LST_DIR_READ].lat, 1000);
	return &s;
}

static void s_in_step(void)
{
	lst_merge *m = lst_merge_new(2, 0, s_on_row, NULL);

	s_reset();
	for (int64_t k = 0; k < 100; k++) {
		T_EQ_INT(lst_merge_add(m, 0, s_sample(k, 3)), 0);
		T_EQ_INT(s_nrows, k); /* b has not sent k yet */
		T_EQ_INT(lst_merge_add(m, 1, s_sample(k, 4)), 0);
		T_EQ_INT(s_nrows, k + 1);
		T_EQ_U64(s_ios[k], 7);
	}
	T_ASSERT(lst_merge_window(m) <= 2);
	lst_merge_finish(m);
	T_EQ_INT(s_nrows, 100);
	T_EQ_U64(lst_merge_totals(m, 2)->dir[LST_DIR_READ].ios, 700);
	T_EQ_U64(lst_merge_totals(m, 2)->dir[LST_DIR_READ].lat.count, 700);
	lst_merge_destroy(&m);
}

/* Agent a runs 5000 intervals ahead of b: the window stops growing, rows come out without b,
 * and b's samples for them are dropped: the totals are the sum of the rows. */
static void s_one_ahead(void)
{
	lst_merge *m = lst_merge_new(2, 0, s_on_row, NULL);
	int64_t n = 5000, late = 0;

	s_reset();
	for (int64_t k = 0; k < n; k++)
		T_EQ_INT(lst_merge_add(m, 0, s_sample(k, 1)), 0);
	T_ASSERT(lst_merge_window(m) <= LST_MERGE_MAX_AHEAD);
	T_EQ_INT(s_nrows, n - LST_MERGE_MAX_AHEAD);
	for (int64_t k = 0; k < n; k++) {
		int rc = lst_merge_add(m, 1, s_sample(k, 2));

		T_ASSERT(rc == 0 || rc == -EALREADY);
		late += rc == -EALREADY;
	}
	T_EQ_INT(late, n - LST_MERGE_MAX_AHEAD);
	T_EQ_INT(s_nrows, n);
	T_EQ_U64(s_ios[0], 1);	   /* emitted without b */
	T_EQ_U64(s_ios[n - 1], 3); /* both */
	T_EQ_U64(lst_merge_totals(m, 2)->dir[LST_DIR_READ].ios, n + 2 * LST_MERGE_MAX_AHEAD);
	T_EQ_U64(lst_merge_totals(m, 1)->dir[LST_DIR_READ].ios, 2 * LST_MERGE_MAX_AHEAD);
	lst_merge_destroy(&m);
}

/* A wider window (a lease's worth): an agent 1000 intervals behind is waited for. */
static void s_wide_window(void)
{
	lst_merge *m = lst_merge_new(2, 1100, s_on_row, NULL);

	s_reset();
	for (int64_t k = 0; k < 1000; k++)
		T_EQ_INT(lst_merge_add(m, 0, s_sample(k, 1)), 0);
	T_EQ_INT(s_nrows, 0);
	for (int64_t k = 0; k < 1000; k++)
		T_EQ_INT(lst_merge_add(m, 1, s_sample(k, 2)), 0);
	T_EQ_INT(s_nrows, 1000);
	T_EQ_U64(s_ios[999], 3);
	T_EQ_U64(lst_merge_totals(m, 2)->dir[LST_DIR_READ].ios, 3000);
	lst_merge_destroy(&m);
	/* The bound is capped. */
	m = lst_merge_new(1, SIZE_MAX, s_on_row, NULL);
	s_reset();
	T_EQ_INT(lst_merge_add(m, 0, s_sample(0, 1)), 0);
	T_EQ_INT(lst_merge_add(m, 0, s_sample(LST_MERGE_MAX_INTERVAL, 1)), 0);
	T_ASSERT(lst_merge_window(m) <= LST_MERGE_AHEAD_LIMIT);
	lst_merge_destroy(&m);
}

/* An agent lost after 3 of 8 intervals: combined rates are all I/Os over the point's time. */
static void s_partial_rates(void)
{
	lst_merge *m = lst_merge_new(2, 0, s_on_row, NULL);
	const struct lst_merge_totals *t;

	s_reset();
	for (int64_t k = 0; k < 8; k++) {
		lst_merge_add(m, 0, s_sample(k, 100));
		if (k < 3)
			lst_merge_add(m, 1, s_sample(k, 50));
		else if (k == 3)
			lst_merge_agent_done(m, 1);
	}
	lst_merge_finish(m);
	t = lst_merge_totals(m, 2);
	T_EQ_U64(t->dir[LST_DIR_READ].ios, 950);
	T_ASSERT(t->seconds > 0.0799 && t->seconds < 0.0801);
	/* 950 I/Os in 80 ms, not 100/10ms + 50/10ms = 15000/s */
	T_ASSERT(t->iops[LST_DIR_READ] > 11874 && t->iops[LST_DIR_READ] < 11876);
	lst_merge_destroy(&m);
}

/* Interval numbers from the wire that cannot be right: refused, nothing allocated. */
static void s_bad_intervals(void)
{
	lst_merge *m = lst_merge_new(1, 0, s_on_row, NULL);

	s_reset();
	T_EQ_INT(lst_merge_add(m, 0, s_sample(INT64_MAX, 1)), -ERANGE);
	T_EQ_INT(lst_merge_add(m, 0, s_sample(LST_MERGE_MAX_INTERVAL + 1, 1)), -ERANGE);
	T_EQ_INT(lst_merge_add(m, 0, s_sample(-1, 1)), -ERANGE);
	T_EQ_INT(lst_merge_window(m), 0);
	T_EQ_U64(lst_merge_totals(m, 1)->dir[LST_DIR_READ].ios, 0);
	/* A far jump that is in range: the window stays bounded, both rows come out. */
	T_EQ_INT(lst_merge_add(m, 0, s_sample(0, 1)), 0);
	T_EQ_INT(lst_merge_add(m, 0, s_sample(LST_MERGE_MAX_INTERVAL, 1)), 0);
	T_ASSERT(lst_merge_window(m) <= LST_MERGE_MAX_AHEAD);
	T_EQ_INT(s_nrows, 2);
	lst_merge_destroy(&m);
}

int main(void)
{
	s_in_step();
	s_one_ahead();
	s_bad_intervals();
	s_wide_window();
	s_partial_rates();
	return 0;
}
