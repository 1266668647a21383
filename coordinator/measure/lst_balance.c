/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Balance, the maths (lst_balance.h): a part's I/Os from its rate and measured time, and each
 * part's share of their sum. The text report, `report --json` and the HTML report print these
 * numbers as they are (lst_figures_balance).
 */
#include "lst_balance.h"

double lst_balance_ios(double iops, double duration_s)
{
	double ios = iops * duration_s;

	return ios > 0 ? ios : 0;
}

void lst_balance_shares(const double *ios, size_t n, double *pct)
{
	double total = 0;

	for (size_t k = 0; k < n; k++)
		total += ios[k];
	for (size_t k = 0; k < n; k++)
		pct[k] = total > 0 ? 100.0 * ios[k] / total : 0;
}
