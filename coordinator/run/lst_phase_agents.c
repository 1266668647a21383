/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A phase's agents: which agents have a path in a phase (the plan's question), and waiting for
 * the lost ones among them to come back before a retry. The point, the scheduler and the hooks
 * ask it; it asks only the session.
 */
#include "lst_run_int.h"

/* The agents with a path in phase ph. */
bool lst_coord__in_phase(const lst_coord *c, const struct lst_plan_phase *ph, size_t i)
{
	for (size_t k = 0; k < ph->ntargets; k++) {
		const struct lst_plan_target *pt = &lst_coord__plan(c)->targets[ph->targets[k]];

		for (size_t j = 0; j < pt->npaths; j++)
			if (pt->paths[j].agent == i)
				return true;
	}
	return false;
}

/* arg: the phase. */
static bool s_phase_agents_back(lst_coord *c, const void *arg)
{
	const struct lst_plan_phase *ph = arg;

	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (lst_coord__in_phase(c, ph, i) &&
		    (!lst_coord__agent_usable(c, i) || lst_conn_syncing(lst_coord__conn(c, i))))
			return false;
	return true;
}

/*
 * Wait up to the plan's retry_wait for every agent of phase ph to be back (and its clock
 * measured again). True when they are; false on Ctrl-C, on a refusal, or when the time is up.
 */
bool lst_coord__wait_back(lst_coord *c, const struct lst_plan_phase *ph)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	const lst_plan *plan = lst_coord__plan(c);
	bool lost = false;

	if (s_phase_agents_back(c, ph))
		return true;
	for (size_t i = 0; i < lst_coord__n(c); i++)
		lost |= lst_coord__in_phase(c, ph, i) && lst_conn_lost(lst_coord__conn(c, i));
	if (lost && !opts->quiet)
		fprintf(opts->progress,
			"lockstep: waiting up to %.0f s for the lost agents of phase %s to come "
			"back\n",
			(double)plan->retry_wait / 1e9, ph->name);
	return lst_coord__pump_until_arg(c, s_phase_agents_back, ph, plan->retry_wait);
}
