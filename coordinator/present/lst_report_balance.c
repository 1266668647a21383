/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Balance in a report (lst_figures.h): the parts of one point, summary.csv's rows of scope
 * agent or r->parts' rows of scope path for the same phase and point, handed with their rates
 * and measured times to the maths (lst_balance.h, coordinator/measure), which says each one's
 * share of the point's I/Os.
 */
#include "lst_figures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_util.h"

/* Is q one of point p's parts of the kind asked (an agent's row, or a path's)? */
static bool s_is_part(const struct lst_rpt_point *q, const struct lst_rpt_point *p, bool paths)
{
	if (q->point != p->point || strcmp(q->phase, p->phase))
		return false;
	if (paths)
		return !strcmp(q->scope, "path");
	return strcmp(q->agent, "all") && (!*q->scope || !strcmp(q->scope, "agent"));
}

size_t lst_figures_balance(const lst_report *r, const struct lst_rpt_point *p, bool paths,
			   struct lst_balance_item *out, size_t max)
{
	const struct lst_rpt_point *rows = paths ? r->parts : r->points;
	size_t nrows = paths ? r->nparts : r->npoints, n = 0;
	double *ios = lst_calloc(nrows + 1, sizeof(*ios));

	for (size_t i = 0; i < nrows; i++) {
		const struct lst_rpt_point *q = &rows[i];

		if (!s_is_part(q, p, paths))
			continue;
		ios[n] = lst_balance_ios(q->iops[0] + q->iops[1], q->duration_s);
		if (n < max) {
			struct lst_balance_item *o = &out[n];

			if (paths)
				snprintf(o->who, sizeof(o->who), "%s:%s", q->agent, q->path);
			else
				snprintf(o->who, sizeof(o->who), "%s", q->agent);
			o->iops = q->iops[0] + q->iops[1];
			o->p99_us = q->lat_p99;
		}
		n++;
	}
	if (n >= 2) {
		lst_balance_shares(ios, n, ios);
		for (size_t k = 0; k < n && k < max; k++)
			out[k].share_pct = ios[k];
	}
	free(ios);
	return n < 2 ? 0 : n;
}
