/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Balance's maths (lst_balance_ios, lst_balance_shares, coordinator/measure), linked with
 * measure and common alone: a part's I/Os are its rate over its own measured time (an agent
 * lost half-way counts half), a negative or unknown figure counts nothing, and the shares add
 * up to 100% of the parts' sum, or are all 0 when nothing was done.
 */
#include <math.h>

#include "lst_balance.h"
#include "lst_test.h"

int main(void)
{
	double ios[3], pct[3], none[2] = { 0, 0 };

	ios[0] = lst_balance_ios(1000, 10); /* 10,000 I/Os */
	ios[1] = lst_balance_ios(1000, 5);  /* lost half-way: 5,000 */
	ios[2] = lst_balance_ios(-3, 10);
	T_NEAR(ios[0], 10000, 0);
	T_NEAR(ios[1], 5000, 0);
	T_NEAR(ios[2], 0, 0);
	T_NEAR(lst_balance_ios(NAN, 10), 0, 0);
	lst_balance_shares(ios, 3, pct);
	T_NEAR(pct[0], 200.0 / 3, 1e-9);
	T_NEAR(pct[1], 100.0 / 3, 1e-9);
	T_NEAR(pct[2], 0, 0);
	T_NEAR(pct[0] + pct[1] + pct[2], 100, 1e-9);
	lst_balance_shares(ios, 3, ios); /* in place */
	T_NEAR(ios[0], pct[0], 0);
	lst_balance_shares(none, 2, none);
	T_NEAR(none[0], 0, 0);
	T_NEAR(none[1], 0, 0);
	printf("balance shares: ok\n");
	return 0;
}
