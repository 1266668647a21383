/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Balance, the maths: how the agents, or the paths, of one point shared its work. Each part's
 * I/Os are its rate times its own measured time, and its share is of the sum over the parts, so
 * the shares add up to 100% even when an agent was lost part-way. Pure: numbers in, numbers
 * out; which rows are a point's parts is the report's (coordinator/present/lst_report_balance.c).
 */
#ifndef LST_BALANCE_H
#define LST_BALANCE_H

#include <stddef.h>

/* One agent's or one path's part of a point. */
struct lst_balance_item {
	char who[160];	     /* "a", or "a:/dev/sdb" */
	double share_pct;    /* of the point's I/Os (both directions) */
	double iops, p99_us; /* its own */
};

/* The I/Os of a part, both directions: its rate iops (read and write summed) over its own
 * measured time duration_s; 0 when that is not positive (or not a number). */
double lst_balance_ios(double iops, double duration_s);

/* Each of ios[n] (lst_balance_ios of each part) as a percentage of their sum into pct[n] (may
 * be ios); every one 0 when the sum is not positive. */
void lst_balance_shares(const double *ios, size_t n, double *pct);

#endif
