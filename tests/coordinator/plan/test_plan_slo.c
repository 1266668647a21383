/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan tests for the SLO search's settings (lst_plan_slo.c and the slo table of the schema):
 * the defaults and values of `slo:`, and each refusal as one error at its LINE:COL: a bracket
 * upside down, a queue depth no job keeps, a missing limit, the suite without its settings and
 * the settings without their suite, the searched option given in the workload too, a sweep, and
 * values out of range.
 */
#include <string.h>

#include "lst_plan.h"
#include "lst_plan_test.h"
#include "lst_test.h"

/* Lines 1..8; the phase from line 9, its suite on line 10, its slo: map on line 11. */
#define HEAD LST_PLAN_TEST_HEAD1
#define SLO(map) HEAD "  - name: s\n    suite: slo\n    slo: " map "\n"

static void test_values(void)
{
	lst_plan *p = GOOD(SLO("{limit: 2ms, low: 1000, high: 50000}"));
	const struct lst_plan_phase *ph = &p->phases[0];

	T_EQ_INT(ph->suite, LST_SUITE_SLO);
	T_ASSERT(ph->slo);
	T_NEAR(ph->slo_percentile, 99.9, 1e-9);
	T_EQ_INT(ph->slo_limit_ns, 2000000);
	T_EQ_INT(ph->slo_over, LST_SLO_OVER_RATE);
	T_EQ_INT(ph->slo_low, 1000);
	T_EQ_INT(ph->slo_high, 50000);
	T_NEAR(ph->slo_within_pct, 5, 0);
	T_EQ_INT(ph->slo_max_probes, 8);
	lst_plan_destroy(&p);

	p = GOOD(SLO("{percentile: 99, limit: 500us, over: iodepth, low: 1, high: 64, "
		     "within: 10%, max_probes: 12}"));
	ph = &p->phases[0];
	T_NEAR(ph->slo_percentile, 99, 0);
	T_EQ_INT(ph->slo_limit_ns, 500000);
	T_EQ_INT(ph->slo_over, LST_SLO_OVER_IODEPTH);
	T_EQ_INT(ph->slo_high, 64);
	T_NEAR(ph->slo_within_pct, 10, 0);
	T_EQ_INT(ph->slo_max_probes, 12);
	lst_plan_destroy(&p);

	/* over iodepth, the workload's rate is the phase's own (a rate-limited queue search) */
	p = GOOD(HEAD "  - name: s\n    suite: slo\n    workload: {rate_iops: 5000}\n"
		      "    slo: {limit: 1ms, over: iodepth, low: 1, high: 32}\n");
	lst_plan_destroy(&p);
}

static void test_bad(void)
{
	BAD(SLO("{limit: 2ms, low: 1000, high: 500}"), "11:40",
	    "slo: high 500 must be above low 1000");
	BAD(SLO("{limit: 2ms, low: 8, high: 8}"), "11:37", "slo: high 8 must be above low 8");
	BAD(SLO("{limit: 2ms, over: iodepth, low: 1, high: 5000}"), "11:52",
	    "slo: high 5000 is more than the deepest queue a job keeps (4096)");
	BAD(SLO("{low: 1, high: 2}"), "11:10", "missing required key 'limit' in slo");
	BAD(SLO("{limit: 1ms, high: 2}"), "11:10", "missing required key 'low' in slo");
	BAD(SLO("{limit: 1ms, low: 1, high: 2, limits: 3ms}"), "11:40",
	    "unknown key 'limits' in slo");
	BAD(SLO("{limit: 1ms, low: 1, high: 2, over: qd}"), "11:46",
	    "'qd' is not one of rate|iodepth");
	BAD(SLO("{limit: 0, low: 1, high: 2}"), "11:18", "limit must be between 1 us");
	BAD(SLO("{limit: 1ms, low: 1, high: 2, max_probes: 1}"), "11:52",
	    "max_probes must be between 2 and 64");
	BAD(SLO("{limit: 1ms, low: 1, high: 2, within: 0}"), "11:48", "within must be > 0");
	BAD(SLO("{limit: 1ms, low: 1, high: 2, percentile: 101}"), "11:52",
	    "percentile must be > 0 and <= 100");
	/* the suite without its settings, and the settings without their suite */
	BAD(HEAD "  - name: s\n    suite: slo\n", "10:5",
	    "suite slo needs slo: {limit, low, high}");
	BAD(HEAD "  - name: s\n    suite: curve\n    slo: {limit: 1ms, low: 1, high: 2}\n", "11:5",
	    "slo: applies only to suite: slo (this phase is curve)");
	/* what the search sets may not be given too, nor a sweep it would ignore */
	BAD(HEAD "  - name: s\n    suite: slo\n    workload: {rate_iops: 100}\n"
		 "    slo: {limit: 1ms, low: 1, high: 2}\n",
	    "11:16", "rate_iops: suite slo over rate sets each probe's rate itself");
	BAD(HEAD "  - name: s\n    suite: slo\n    workload: {iodepth: 4}\n"
		 "    slo: {limit: 1ms, over: iodepth, low: 1, high: 2}\n",
	    "11:16", "iodepth: suite slo over iodepth sets each probe's queue depth");
	BAD(HEAD "  - name: s\n    suite: slo\n    sweep: {bs: [4k, 8k]}\n"
		 "    slo: {limit: 1ms, low: 1, high: 2}\n",
	    "11:5", "sweep: suite slo searches one load of one workload");
}

int main(void)
{
	test_values();
	test_bad();
	printf("plan slo: all checks passed\n");
	return 0;
}
