/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The point's failover detectors (lst_failover.h): one per agent when the point has no path
 * rows, else one per path slot. Each gets its scope's measured rows (the rows' failover sink,
 * lst_rows.c) and a mark for every event of the plan (lst_hooks.c), and its windows go into the
 * point's summary rows.
 */
#include "lst_coord_int.h"
#include "lst_failover_json.h"

void lst_coord__failover_add(lst_coord *c, struct lst_failover *fo, int64_t k, double t_s,
			     const lst_sample *s)
{
	double dur_s = s->end_ns > s->start_ns ? (double)(s->end_ns - s->start_ns) / 1e9
					       : (double)c->cur.interval / 1e9;

	lst_failover_add(fo, k, t_s, dur_s, s);
}

void lst_coord__failover_mark(lst_coord *c, const char *what, int64_t start, int64_t end)
{
	double t0 = lst_coord__t(c, start), t1 = lst_coord__t(c, end ? end : start);

	for (size_t i = 0; !c->cur.paths.path_rows && i < c->n; i++)
		lst_failover_mark(&c->a[i].fo, what, t0, t1);
	for (size_t s = 0; s < c->cur.paths.nslots; s++)
		lst_failover_mark(&c->cur.paths.slots[s].fo, what, t0, t1);
}

void lst_coord__failover_json(const lst_coord *c, const struct lst_failover *fo, json_t *extra)
{
	json_object_set_new(extra, "failover", lst_failover_json(fo));
	if (c->plan->phases[c->cur.phase].failover_dips)
		json_object_set_new(extra, "dips", lst_failover_dips_json(fo));
}

double lst_coord__failover_below(const lst_coord *c)
{
	const struct lst_plan_phase *ph = &c->plan->phases[c->cur.phase];

	return ph->failover_below_pct > 0 ? ph->failover_below_pct / 100
					  : LST_FAILOVER_BELOW_DEFAULT;
}
