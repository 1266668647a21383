/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SLO search (`suite: slo`): the highest load at which a latency percentile of every host's
 * I/Os together stays under a limit, found by measuring it rather than by interpolating a curve.
 *
 * The load is either the target's total rate (open loop: rate_iops, split over the paths by the
 * scheduler, latency from the intended issue time) or the queue depth of every job. Each probe
 * is one point run on every path at one instant, judged on the merged histogram's percentile.
 * The search brackets the knee first (the plan's low and high; doubling upward while the limit
 * holds, halving downward while it does not) and then bisects the bracket until it is within the
 * plan's percent of its top or max_probes have run. The answer is the highest probe that met the
 * limit: a measured point, never a value between two probes.
 *
 * Two layers: struct lst_slo_search is the bracketing and bisection alone, a plain value over
 * integers and pass/fail verdicts, so that it can be checked against a made-up response; lst_slo
 * is the suite's side of one phase (the probes' workloads, their verdicts on step results, and
 * slo-PHASE.json with every probe, the bracket after each, the answer and why the search ended).
 */
#ifndef LST_SUITE_SLO_H
#define LST_SUITE_SLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lst_plan.h"
#include "lst_results.h"
#include "lst_workload.h"

/* Why a search ended, as slo-PHASE.json's stop_reason spells it (lst_slo_stop_names). */
enum lst_slo_stop {
	LST_SLO_SEARCHING = 0, /* not ended */
	LST_SLO_WITHIN,	       /* the bracket is within the percent asked (or one step wide) */
	LST_SLO_MAX_PROBES,    /* max_probes ran first */
	LST_SLO_LOW_FAILS,     /* even a load of 1 broke the limit: no answer */
	LST_SLO_TOP_MEETS,     /* the limit held up to the largest load the option allows */
	LST_SLO_INTERRUPTED,   /* the run stopped before the search ended */
};
extern const char *const lst_slo_stop_names[]; /* "searching", "within", "max_probes", ... */

/* The bracketing and bisection, in caller memory (lst_slo_search_init). */
struct lst_slo_search {
	int64_t high;	   /* the plan's high: the second probe */
	int64_t top;	   /* the largest load possible */
	double within_pct; /* stop once hi - lo <= within_pct % of hi */
	size_t max_probes;
	int64_t lo;    /* highest load that met the limit, -1 before one did */
	int64_t hi;    /* lowest load that broke it, -1 before one did */
	int64_t next;  /* the load to probe next */
	size_t probes; /* verdicts fed */
	int stop;      /* enum lst_slo_stop */
};

/*
 * Start a search whose first probe is low and second high (1 <= low < high <= top), that ends
 * once the bracket is within within_pct percent of its top or after max_probes (>= 1) probes.
 */
void lst_slo_search_init(struct lst_slo_search *s, int64_t low, int64_t high, int64_t top,
			 double within_pct, size_t max_probes);

/* The load to probe next into *value; false once the search has ended (s->stop says why). */
bool lst_slo_search_next(const struct lst_slo_search *s, int64_t *value);

/* The verdict on the load lst_slo_search_next gave: met is true when the limit held. */
void lst_slo_search_feed(struct lst_slo_search *s, bool met);

/* The answer, the highest load that met the limit, or -1 when none did. */
int64_t lst_slo_search_answer(const struct lst_slo_search *s);

typedef struct lst_slo lst_slo;

/*
 * The search of phase ph (suite: slo, its slo: settings already checked by the plan), over the
 * workload base (the phase's, with its round lengths). The phase is borrowed for the object's
 * life. Never fails: bad settings are the plan's errors.
 */
lst_slo *lst_slo_new(const struct lst_plan_phase *ph, const struct lst_workload *base);

/* Free the search and null *p; safe on NULL and twice. */
void lst_slo_destroy(lst_slo **p);

/*
 * The next probe: its workload into w and its label ("probe 3 rate_iops=1500") into label;
 * false when the search has ended.
 */
bool lst_slo_next(lst_slo *self, struct lst_workload *w, char *label, size_t size);

/* The result of the probe lst_slo_next handed out last, all agents and paths merged. */
void lst_slo_result(lst_slo *self, const struct lst_step_result *r);

/*
 * End of the phase: slo-PHASE.json into res (every probe with its curves.csv point, verdict and
 * the bracket after it, the answer, the stop reason) and one line to progress (may be NULL).
 * A search still going is marked interrupted.
 */
void lst_slo_write(lst_slo *self, lst_results *res, FILE *progress);

#endif
