/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan tests for verify: which phases write and which read under verify
 * (lst_plan_phase_verify_writes / _reads, the two questions the run and `lockstep validate`
 * ask), and the boundaries of the checks: what the plan accepts right at the edge (rwmixread 0
 * and 100, offset 4096, a role's verify equal to the phase's, verify off in a purge under
 * `defaults: {verify: true}`) and what it refuses just past it, each at its LINE:COL. The
 * messages as a user sees them are tested through `lockstep validate`
 * (integration/plan/validate_verify.sh).
 */
#include <string.h>

#include "lst_plan.h"
#include "lst_plan_test.h"
#include "lst_test.h"

/* Lines 1..11: two agents, target d with a path on each, target e on a; phases from line 12. */
#define HEAD                                                                                       \
	"lockstep: 1\n"                                                                            \
	"name: t\n"                                                                                \
	"agents:\n"                                                                                \
	"  - {name: a, address: \"tcp://127.0.0.1\"}\n"                                            \
	"  - {name: b, address: \"tcp://127.0.0.1:7271\"}\n"                                       \
	"targets:\n"                                                                               \
	"  - name: d\n"                                                                            \
	"    paths: {a: /dev/loop0, b: /dev/loop1}\n"                                              \
	"  - {name: e, paths: {a: /dev/loop2}}\n"                                                  \
	"defaults: {runtime: 5s}\n"                                                                \
	"phases:\n"
/* Line 12: a phase that writes both targets with verify. */
#define FILL HEAD "  - {name: w, workload: {rw: write, verify: true}}\n"

static void s_dir(const lst_plan *p, size_t i, bool writes, bool reads)
{
	T_EQ_INT(lst_plan_phase_verify_writes(&p->phases[i]), writes);
	T_EQ_INT(lst_plan_phase_verify_reads(&p->phases[i]), reads);
}

static void test_directions(void)
{
	lst_plan *p = GOOD(
		HEAD "  - {name: pre, suite: precondition, workload: {verify: true}}\n"
		     "  - {name: m0, workload: {rw: randrw, rwmixread: 0, verify: true}}\n"
		     "  - {name: m100, workload: {rw: rw, rwmixread: 100, verify: true}}\n"
		     "  - {name: r, workload: {rw: randread, verify: true}}\n"
		     "  - {name: plain, workload: {rw: randrw}}\n"
		     "  - {name: sw, workload: {rw: randrw, verify: true},\n"
		     "     sweep: {rwmixread: [100], iodepth: [1, 4]}}\n"
		     "  - {name: pw, suite: precondition, workload: {rw: read, verify: true}}\n");

	s_dir(p, 0, true, false); /* a precondition writes */
	s_dir(p, 1, true, false); /* rwmixread 0: writes only */
	s_dir(p, 2, false, true); /* rwmixread 100: reads only */
	s_dir(p, 3, false, true);
	s_dir(p, 4, false, false); /* no verify: neither */
	s_dir(p, 5, false, true);  /* the swept rwmixread, not the workload's 50 */
	s_dir(p, 6, false, true);  /* a precondition whose workload reads */
	lst_plan_destroy(&p);
}

static void test_defaults(void)
{
	lst_plan *p = GOOD("lockstep: 1\nname: t\n"
			   "agents: [{name: a, address: \"tcp://127.0.0.1\"}]\n"
			   "targets: [{name: d, paths: {a: /dev/loop0}}]\n"
			   "defaults: {verify: true, runtime: 5s}\n"
			   "phases:\n"
			   "  - {name: p, suite: purge, workload: {verify: false}}\n"
			   "  - {name: w, workload: {rw: randwrite, bs: 8k, offset: 4096}}\n"
			   "  - {name: r, workload: {rw: read}, paths: {a: {verify: true}}}\n");

	s_dir(p, 0, false, false);
	s_dir(p, 1, true, false);
	s_dir(p, 2, false, true);
	lst_plan_destroy(&p);
}

static void test_bad(void)
{
	/* the journal: none at all, one of another target, a write without verify, a later one */
	BAD(HEAD "  - {name: r, workload: {rw: read, verify: true}, targets: [d]}\n", "12:36",
	    "no earlier phase writes target d with verify");
	BAD(HEAD "  - {name: w, workload: {rw: write, verify: true}, targets: [e]}\n"
		 "  - {name: r, workload: {rw: read, verify: true}, targets: [d]}\n",
	    "13:36", "no earlier phase writes target d with verify");
	BAD(HEAD "  - {name: w, workload: {rw: write}}\n"
		 "  - {name: r, workload: {rw: read, verify: true}, targets: [d]}\n",
	    "13:36", "no earlier phase writes target d with verify");
	BAD(HEAD "  - {name: r, workload: {rw: read, verify: true}, targets: [e]}\n"
		 "  - {name: w, workload: {rw: write, verify: true}}\n",
	    "12:36", "no earlier phase writes target e with verify");
	BAD(FILL "  - {name: r, workload: {rw: read, verify: true}, targets: [d]}\n"
		 "  - {name: w2, workload: {rw: write, verify: true}, targets: [d]}\n"
		 "  - {name: r2, workload: {rw: read, verify: true}, targets: [d, e]}\n"
		 "  - {name: x, workload: {rw: randrw, rwmixread: 99, verify: true}}\n",
	    "16:38", "rwmixread 99 mixes reads and writes");
	/* a swept rw: every point writes, or every one reads */
	BAD(FILL "  - {name: t, workload: {verify: true}, sweep: {rw: [write, read]}}\n", "13:49",
	    "rw read reads where the sweep's first value writes");
	BAD(FILL "  - {name: t, workload: {verify: true}, sweep: {rw: [write, randrw]}}\n", "13:49",
	    "rw randrw mixes reads and writes");
	/* bs and offset just off 4 KiB: at the key that breaks it */
	BAD(FILL "  - {name: o, workload: {rw: write, offset: 512, verify: true}}\n", "13:45",
	    "verify checks 4 KiB units: bs 4096 and offset 512");
	BAD(FILL "  - {name: s, workload: {rw: write, verify: true}, sweep: {bs: [4k, 6k]}}\n",
	    "13:69", "sweep: verify checks 4 KiB units: bs 6144");
	/* roles */
	BAD(FILL "  - {name: r, workload: {rw: read}, paths: {a: {verify: true}}}\n", "13:49",
	    "paths: a: verify must be the phase's (false) in a role");
	BAD(FILL "  - {name: r, workload: {rw: read, verify: true}, paths: {b: {rw: randwrite}}}\n",
	    "13:59", "paths: b: the role writes while the phase reads");
	BAD(FILL "  - {name: r, workload: {rw: write, verify: true},\n"
		 "     paths: {\"b:/dev/loop1\": {rw: randrw, rwmixread: 50}}}\n",
	    "14:14", "the role mixes reads and writes while the phase writes");
	/* suites */
	BAD(FILL "  - {name: l, suite: lat-vs-iops, workload: {verify: true}}\n", "13:46",
	    "not suite: lat-vs-iops");
	BAD(HEAD "  - {name: p, suite: purge, workload: {verify: true}}\n", "12:40",
	    "not suite: purge");
}

int main(void)
{
	test_directions();
	test_defaults();
	test_bad();
	return 0;
}
