/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The headline figures' maths (lst_headline_figures, coordinator/measure) on a hand-made
 * curve, linked with measure and common alone. Points (IOPS, p99, p99.9, p99.99 in us):
 *
 *   QD 1  10,000   200   300  1,200
 *   QD 2  20,000   600   700  1,500
 *   QD 4  30,000 1,400   900  2,000
 *
 * For a 1,000 us limit: p99 crosses between QD 2 and QD 4, at 20,000 + (1,000 - 600) x 10,000 /
 * (1,400 - 600) = 25,000 IOPS; p99.9 never crosses (30,000, all under, a lower bound); p99.99 is
 * over from the first point (none).
 */
#include <math.h>

#include "lst_headline.h"
#include "lst_test.h"

static struct lst_curve_pt s_pts[] = {
	{ .iops = 10e3, .mbps = 40, .lat = { 100, 200, 300, 1200 }, .label = "QD 1" },
	{ .iops = 20e3, .mbps = 80, .lat = { 300, 600, 700, 1500 }, .label = "QD 2" },
	{ .iops = 30e3, .mbps = 120, .lat = { 700, 1400, 900, 2000 }, .label = "QD 4" },
};

static void s_test_iops(void)
{
	struct lst_curve c = { .phase = "lat", .bs = 4096, .p = s_pts, .n = 3 };
	struct lst_headline h = { .curve = "kept" };

	lst_headline_figures(&c, 1000, false, &h);
	T_NEAR(h.limit_us, 1000, 0);
	T_EQ_INT(h.npoints, 3);
	T_ASSERT(!h.bandwidth);
	T_NEAR(h.iops[LST_HL_P99], 25e3, 1e-6);
	T_ASSERT(h.interpolated[LST_HL_P99]);
	T_EQ_STR(h.below[LST_HL_P99], "QD 2");
	T_EQ_STR(h.above[LST_HL_P99], "QD 4");
	T_NEAR(h.iops[LST_HL_P99_9], 30e3, 0);
	T_ASSERT(h.all_under[LST_HL_P99_9] && !h.interpolated[LST_HL_P99_9]);
	T_EQ_STR(h.below[LST_HL_P99_9], "QD 4");
	T_ASSERT(isnan(h.iops[LST_HL_P99_99]));
	T_EQ_STR(h.above[LST_HL_P99_99], "QD 1");
	T_EQ_STR(h.curve, "kept"); /* the caller's */
	T_EQ_STR(lst_headline_stat_names[LST_HL_P99_9], "p99.9");
}

static void s_test_bandwidth(void)
{
	struct lst_curve c = { .phase = "seq", .bs = 128 * 1024, .p = s_pts, .n = 3 };
	struct lst_headline h = { 0 };

	T_ASSERT(lst_headline_is_bandwidth(128 * 1024, false));
	T_ASSERT(lst_headline_is_bandwidth(64 * 1024, false));
	T_ASSERT(!lst_headline_is_bandwidth(4096, true));
	T_ASSERT(lst_headline_is_bandwidth(NAN, true));
	T_ASSERT(!lst_headline_is_bandwidth(NAN, false));
	lst_headline_figures(&c, 1000, true, &h);
	T_ASSERT(h.bandwidth);
	T_NEAR(h.mbps, 120, 0);
	T_NEAR(h.mbps_p99_us, 1400, 0);
	T_EQ_STR(h.mbps_at, "QD 4");
	for (int s = 0; s < LST_HL_N; s++)
		T_ASSERT(isnan(h.iops[s]));
}

int main(void)
{
	s_test_iops();
	s_test_bandwidth();
	printf("headline figures: ok\n");
	return 0;
}
