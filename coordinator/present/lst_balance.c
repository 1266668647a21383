/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Balance: how the agents, or the paths, of one point shared its work. Each part's I/Os are
 * its rate times its own measured time (summary.csv's rows of scope agent, or r->parts' rows of
 * scope path, for the same phase and point); its share is of the sum over the parts, so the
 * shares add up to 100% even when an agent was lost part-way. The text report, `report --json`
 * and the HTML report print these numbers as they are (lst_figures.h).
 */
#include "lst_figures.h"

#include <stdio.h>
#include <string.h>

/* Is q one of point p's parts of the kind asked (an agent's row, or a path's)? */
static bool s_is_part(const struct lst_rpt_point *q, const struct lst_rpt_point *p, bool paths)
{
	if (q->point != p->point || strcmp(q->phase, p->phase))
		return false;
	if (paths)
		return !strcmp(q->scope, "path");
	return strcmp(q->agent, "all") && (!*q->scope || !strcmp(q->scope, "agent"));
}

/* The I/Os of a row, both directions: its rates over its own measured time. */
static double s_ios(const struct lst_rpt_point *q)
{
	double ios = (q->iops[0] + q->iops[1]) * q->duration_s;

	return ios > 0 ? ios : 0;
}

size_t lst_figures_balance(const lst_report *r, const struct lst_rpt_point *p, bool paths,
			   struct lst_balance_item *out, size_t max)
{
	const struct lst_rpt_point *rows = paths ? r->parts : r->points;
	size_t nrows = paths ? r->nparts : r->npoints, n = 0;
	double total = 0;

	for (size_t i = 0; i < nrows; i++) {
		const struct lst_rpt_point *q = &rows[i];

		if (!s_is_part(q, p, paths))
			continue;
		total += s_ios(q);
		if (n < max) {
			struct lst_balance_item *o = &out[n];

			if (paths)
				snprintf(o->who, sizeof(o->who), "%s:%s", q->agent, q->path);
			else
				snprintf(o->who, sizeof(o->who), "%s", q->agent);
			o->iops = q->iops[0] + q->iops[1];
			o->p99_us = q->lat_p99;
			o->share_pct = s_ios(q); /* until the total is known */
		}
		n++;
	}
	if (n < 2)
		return 0;
	for (size_t k = 0; k < n && k < max; k++)
		out[k].share_pct = total > 0 ? 100.0 * out[k].share_pct / total : 0;
	return n;
}
