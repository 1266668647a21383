/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What `lockstep report` needs of plan.yaml, read with the plan parser (see lst_report_plan.h).
 */
#include "lst_report_plan.h"

#include <errno.h>

#include "lst_plan.h"
#include "lst_util.h"

lst_plan *lst_report_plan_load(const lst_report *r, lst_err *err)
{
	char *path = lst_asprintf("%s/plan.yaml", r->dir);
	lst_errlist errs = { 0 };
	lst_plan *plan = lst_plan_load(path, &errs);

	if (!plan)
		lst_err_set(err, -EINVAL,
			    "%s: the plan does not load (%s): which phase a sample belongs to is "
			    "unknown",
			    path, errs.n ? errs.msg[0] : "no reason given");
	lst_errlist_free(&errs);
	free(path);
	return plan;
}

/* A plain phase's sequential I/O, or a suite that runs sequential I/O, makes MB/s the figure. */
static bool s_sequential(const struct lst_plan_phase *pp)
{
	return pp->suite == LST_SUITE_SNIA_THROUGHPUT || pp->suite == LST_SUITE_PRECONDITION ||
	       (pp->suite == LST_SUITE_NONE && !lst_rw_is_random(pp->w.rw));
}

int lst_report_plan_read(const char *text, size_t len, const char *path,
			 struct lst_report_plan_phase **phases, size_t *n)
{
	lst_errlist errs = { 0 };
	lst_plan *plan = lst_plan_parse(text, len, path, &errs);

	lst_errlist_free(&errs);
	*phases = NULL;
	*n = 0;
	if (!plan)
		return -EINVAL;
	*phases = lst_calloc(plan->nphases ? plan->nphases : 1, sizeof(**phases));
	for (size_t i = 0; i < plan->nphases; i++) {
		const struct lst_plan_phase *pp = &plan->phases[i];
		struct lst_report_plan_phase *o = &(*phases)[i];

		o->name = lst_strdup(pp->name);
		o->suite = pp->suite ? lst_suite_names[pp->suite] : NULL;
		o->sequential = s_sequential(pp);
		o->steady = pp->steady;
		o->data_pct = pp->data_excursion_pct;
		o->slope_pct = pp->slope_excursion_pct;
		o->curve_limit_us = pp->limit_percentile > 0 && pp->limit_ns > 0
					    ? (double)pp->limit_ns / 1e3
					    : 0;
	}
	*n = plan->nphases;
	lst_plan_destroy(&plan);
	return 0;
}
