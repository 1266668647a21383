/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DIRTH's point selection on made-up grids: max IOPS, min mean latency, the two points nearest
 * two thirds and one third of the way between them in IOPS, each picked once; and the rule for
 * the confidence of a tail percentile.
 */
#include "lst_dirth.h"
#include "lst_test.h"

static void s_check_select(void)
{
	/* IOPS rise with demand, latency too; min point 1000 IOPS, max 10000: the mids aim at
	 * 7000 and 4000. */
	static const struct lst_dirth_point g[] = {
		{ 1000, 50 },  { 2500, 60 },  { 4200, 80 },   { 6000, 100 },
		{ 7100, 150 }, { 9000, 300 }, { 10000, 800 }, { 9900, 2000 },
	};
	size_t out[LST_DIRTH_NPICKS];

	T_EQ_INT(lst_dirth_select(g, 8, out), 4);
	T_EQ_INT(out[LST_DIRTH_MAX], 6);
	T_EQ_INT(out[LST_DIRTH_MIN], 0);
	T_EQ_INT(out[LST_DIRTH_MID_HIGH], 4);
	T_EQ_INT(out[LST_DIRTH_MID_LOW], 2);
}

static void s_check_small_grids(void)
{
	static const struct lst_dirth_point one[] = { { 500, 10 } };
	static const struct lst_dirth_point two[] = { { 500, 10 }, { 900, 30 } };
	/* The fastest point is also the quickest: picked once, as max. */
	static const struct lst_dirth_point same[] = { { 900, 10 }, { 500, 30 }, { 700, 20 } };
	size_t out[LST_DIRTH_NPICKS];

	T_EQ_INT(lst_dirth_select(one, 1, out), 1);
	T_EQ_INT(out[LST_DIRTH_MAX], 0);
	T_EQ_INT(out[LST_DIRTH_MIN], LST_DIRTH_NONE);
	T_EQ_INT(out[LST_DIRTH_MID_HIGH], LST_DIRTH_NONE);
	T_EQ_INT(lst_dirth_select(two, 2, out), 2);
	T_EQ_INT(out[LST_DIRTH_MAX], 1);
	T_EQ_INT(out[LST_DIRTH_MIN], 0);
	T_EQ_INT(out[LST_DIRTH_MID_LOW], LST_DIRTH_NONE);
	T_EQ_INT(lst_dirth_select(same, 3, out), 3);
	T_EQ_INT(out[LST_DIRTH_MAX], 0);
	T_EQ_INT(out[LST_DIRTH_MIN], LST_DIRTH_NONE);
	T_EQ_INT(out[LST_DIRTH_MID_HIGH], 2);
	T_EQ_INT(out[LST_DIRTH_MID_LOW], 1);
}

static void s_check_confidence(void)
{
	T_EQ_INT(lst_dirth_ios_needed(99), 1000);
	T_EQ_INT(lst_dirth_ios_needed(99.999), 1000000);
	T_ASSERT(lst_dirth_supported(1000000, 99.999));
	T_ASSERT(!lst_dirth_supported(999999, 99.999));
	T_ASSERT(lst_dirth_supported(1000, 99));
	T_ASSERT(!lst_dirth_supported(1u << 30, 100));
}

int main(void)
{
	s_check_select();
	s_check_small_grids();
	s_check_confidence();
	return 0;
}
