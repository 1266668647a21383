/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A phase's `slo:` map and `suite: slo` against each other. The schema reads the map's keys
 * (lst_plan_schema.c); this file refuses what the search could not run or would silently ignore:
 * a bracket whose high is not above its low, a queue depth beyond what a job can keep, a suite
 * without its settings or settings without their suite, a rate the search sets given in the
 * workload too, and a sweep (the search varies one load of one workload). Each error is at its
 * place in the file.
 */
#include <inttypes.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_plan_int.h"
#include "lst_yaml.h"

void lst__plan_slo_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	const struct lst_plan_phase *ph = base;
	const struct lst_opt *qd = lst_opt_find(lst_workload_opts, "iodepth");
	const struct lst_yaml_node *v = lst_yaml_get(map, "high", NULL);

	LST_ASSERT(qd);
	if (!v || v->bad || !lst_yaml_get(map, "low", NULL))
		return;
	if (ph->slo_high <= ph->slo_low)
		lst__plan_error(ctx, v,
				"slo: high %" PRId64 " must be above low %" PRId64
				" (the search's first bracket)",
				ph->slo_high, ph->slo_low);
	else if (ph->slo_over == LST_SLO_OVER_IODEPTH && ph->slo_high > qd->max)
		lst__plan_error(ctx, v,
				"slo: high %" PRId64 " is more than the deepest queue a job keeps "
				"(%" PRId64 ") for over: iodepth",
				ph->slo_high, qd->max);
}

/* The key node of option name in the phase's workload map, or NULL. */
static const struct lst_yaml_node *s_workload_key(const struct lst_yaml_node *map, const char *name)
{
	const struct lst_yaml_node *wmap = lst_yaml_get(map, "workload", NULL), *kn = NULL;

	if (wmap && wmap->type == LST_YAML_MAP && lst_yaml_get(wmap, name, &kn))
		return kn;
	return NULL;
}

void lst__plan_slo_phase_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			       const struct lst_plan_phase *ph)
{
	const struct lst_yaml_node *kn = NULL;

	if (ph->suite != LST_SUITE_SLO) {
		if (lst_yaml_get(map, "slo", &kn))
			lst__plan_error(ctx, kn,
					"slo: applies only to suite: slo (this phase is %s)",
					lst_suite_names[ph->suite]);
		return;
	}
	if (!ph->slo) {
		if (!lst_yaml_get(map, "suite", &kn))
			return;
		lst__plan_error(ctx, kn,
				"suite slo needs slo: {limit, low, high} (like slo: {percentile: "
				"99.9, limit: 2ms, low: 1000, high: 50000})");
		return;
	}
	if (ph->slo_over == LST_SLO_OVER_RATE && (kn = s_workload_key(map, "rate_iops")))
		lst__plan_error(ctx, kn,
				"rate_iops: suite slo over rate sets each probe's rate itself; "
				"leave it out, or search over iodepth");
	if (ph->slo_over == LST_SLO_OVER_IODEPTH && (kn = s_workload_key(map, "iodepth")))
		lst__plan_error(ctx, kn,
				"iodepth: suite slo over iodepth sets each probe's queue depth "
				"itself; leave it out, or search over rate");
	if (ph->naxes && lst_yaml_get(map, "sweep", &kn))
		lst__plan_error(ctx, kn,
				"sweep: suite slo searches one load of one workload; give one "
				"phase per workload");
}
