/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A phase's agents: which agents have a path in a phase (the plan's question), and waiting for
 * the lost ones among them to come back before a retry. The point, the scheduler and the hooks
 * ask it; it asks only the session.
 */
#include "lst_coord_int.h"

/* The agents with a path in phase ph. */
bool lst_coord__in_phase(const lst_coord *c, const struct lst_plan_phase *ph, size_t i)
{
	for (size_t k = 0; k < ph->ntargets; k++) {
		const struct lst_plan_target *pt = &c->plan->targets[ph->targets[k]];

		for (size_t j = 0; j < pt->npaths; j++)
			if (pt->paths[j].agent == i)
				return true;
	}
	return false;
}

static bool s_phase_agents_back(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (lst_coord__in_phase(c, c->wait_phase, i) &&
		    (!lst_coord__usable(&c->a[i]) || lst_conn_syncing(c->a[i].conn)))
			return false;
	return true;
}

/*
 * Wait up to the plan's retry_wait for every agent of phase ph to be back (and its clock
 * measured again). True when they are; false on Ctrl-C, on a refusal, or when the time is up.
 */
bool lst_coord__wait_back(lst_coord *c, const struct lst_plan_phase *ph)
{
	bool lost = false;

	c->wait_phase = ph;
	if (s_phase_agents_back(c))
		return true;
	for (size_t i = 0; i < c->n; i++)
		lost |= lst_coord__in_phase(c, ph, i) && lst_conn_lost(c->a[i].conn);
	if (lost && !c->opts.quiet)
		fprintf(c->opts.progress,
			"lockstep: waiting up to %.0f s for the lost agents of phase %s to come "
			"back\n",
			(double)c->plan->retry_wait / 1e9, ph->name);
	return lst_coord__pump_until(c, s_phase_agents_back, c->plan->retry_wait);
}
