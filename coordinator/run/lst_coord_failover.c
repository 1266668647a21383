/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The point's failover detectors (lst_failover.h): one per agent when the point has no path
 * rows, else one per path slot. Each gets its scope's measured rows (the rows' failover sink,
 * lst_rows.c) and a mark for every event of the plan (lst_hooks.c), and its windows go into the
 * point's summary rows. The detectors themselves are the point's (lst_paths.c marks them);
 * this file reaches the point and the plan through lst_run_int.h.
 */
#include "lst_run_int.h"
#include "lst_failover_json.h"

void lst_coord__failover_add(lst_coord *c, struct lst_failover *fo, int64_t k, double t_s,
			     const lst_sample *s)
{
	double dur_s = s->end_ns > s->start_ns ? (double)(s->end_ns - s->start_ns) / 1e9
					       : (double)lst_coord__where(c)->interval / 1e9;

	lst_failover_add(fo, k, t_s, dur_s, s);
}

void lst_coord__failover_json(const lst_coord *c, const struct lst_failover *fo, json_t *extra)
{
	const lst_plan *plan = lst_coord__plan(c);

	json_object_set_new(extra, "failover", lst_failover_json(fo));
	if (plan->phases[lst_coord__where(c)->phase].failover_dips)
		json_object_set_new(extra, "dips", lst_failover_dips_json(fo));
}

double lst_coord__failover_below(const lst_coord *c)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[lst_coord__where(c)->phase];

	return ph->failover_below_pct > 0 ? ph->failover_below_pct / 100
					  : LST_FAILOVER_BELOW_DEFAULT;
}
