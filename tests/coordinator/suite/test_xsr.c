/* SPDX-License-Identifier: Apache-2.0 */
/* XSR's baseline (segment 1's last window) and recovery (segment 3's first interval back within
 * the tolerance) on made-up throughput series. */
#include "lst_test.h"
#include "lst_xsr.h"

int main(void)
{
	/* Segment 1 settles at 1000 MB/s over its last 3 intervals. */
	static const double seg1[] = { 2000, 1500, 990, 1000, 1010 };
	/* Segment 3 starts low after the random writes and climbs back. */
	static const double seg3[] = { 300, 600, 880, 905, 1000 };
	static const double never[] = { 300, 400, 500 };
	double base = lst_xsr_baseline(seg1, 5, 3);

	T_NEAR(base, 1000, 1e-9);
	/* window longer than the segment: all of it */
	T_NEAR(lst_xsr_baseline(seg1, 2, 5), 1750, 1e-9);
	T_EQ_INT(lst_xsr_baseline(seg1, 0, 5), 0);
	/* 10%: 900 MB/s, first reached at interval 4 (index 3); 900 itself passes */
	T_EQ_INT(lst_xsr_recovered(base, seg3, 5, 10), 3);
	T_EQ_INT(lst_xsr_recovered(base, seg3, 5, 12), 2);
	T_EQ_INT(lst_xsr_recovered(base, never, 3, 10), 3);
	return 0;
}
