/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan tests for hooks: a phase's events, before/after hooks and telemetry come out of the
 * parser as the run needs them (at in ns, events sorted by at and stable, on_error, agents as
 * indexes, places), and the two questions the checks ask of a phase are answered right: which
 * agents take part (lst_plan_phase_has_agent: idle roles, port sets, targets) and how long a
 * point lasts when the plan fixes it (lst_plan_phase_point_ns). The messages of bad plans, each
 * at its FILE:LINE:COL, are tested through `lockstep validate` (integration/plan/validate_hooks.sh);
 * the boundaries are tested here.
 */
#include <string.h>

#include "lst_assert.h"
#include "lst_domain.h" /* LST_MAX_HOOKS */
#include "lst_plan.h"
#include "lst_plan_test.h"
#include "lst_test.h"
#include "lst_time.h"
#include "lst_util.h"

/* Lines 1..9: two agents, one target with a path on each; phases from line 10. */
#define HEAD                                                                                       \
	"lockstep: 1\n"                                                                            \
	"name: t\n"                                                                                \
	"agents:\n"                                                                                \
	"  - {name: a, address: \"tcp://127.0.0.1\"}\n"                                            \
	"  - {name: b, address: \"tcp://127.0.0.1:7271\"}\n"                                       \
	"targets:\n"                                                                               \
	"  - name: ssd0\n"                                                                         \
	"    paths: {a: /dev/loop0, b: /dev/loop1}\n"                                              \
	"phases:\n"
/* Lines 10..11: a plain phase p whose points last 10 s; its next key is on line 12. */
#define PHASE HEAD "  - name: p\n    workload: {rw: randread, runtime: 10s}\n"

static void test_events(void)
{
	lst_plan *p = GOOD(PHASE "    events:\n"
				 "      - {at: 6s, agent: b, hook: port_up}\n"
				 "      - {at: 3s, agent: b, hook: port_down, on_error: continue}\n"
				 "      - {at: 3s, agent: a, hook: mark}\n"
				 "      - {at: 1500ms, agent: a, hook: mark, on_error: stop}\n"
				 "      - {at: 0, agent: a, hook: first}\n");
	const struct lst_plan_phase *ph = &p->phases[0];

	T_EQ_INT(ph->nevents, 5);
	/* sorted by at; the two at 3 s stay in the order written (b, then a) */
	T_EQ_INT(ph->events[0].at, 0);
	T_EQ_STR(ph->events[0].hook, "first");
	T_EQ_INT(ph->events[1].at, 1500 * LST_NS_PER_MS);
	T_EQ_INT(ph->events[1].on_error, LST_HOOK_ON_ERROR_STOP);
	T_EQ_INT(ph->events[2].at, 3 * LST_NS_PER_S);
	T_EQ_INT(ph->events[2].agent, 1);
	T_EQ_STR(ph->events[2].hook, "port_down");
	T_EQ_INT(ph->events[2].on_error, LST_HOOK_ON_ERROR_CONTINUE);
	T_EQ_INT(ph->events[3].at, 3 * LST_NS_PER_S);
	T_EQ_INT(ph->events[3].agent, 0);
	T_EQ_STR(ph->events[3].hook, "mark");
	T_EQ_INT(ph->events[4].at, 6 * LST_NS_PER_S);
	T_EQ_INT(ph->events[4].on_error, LST_HOOK_ON_ERROR_STOP); /* the default */
	/* places travel with their entries: port_up was written first, on line 13 */
	T_EQ_INT(ph->events[4].mark.line, 13);
	T_EQ_INT(ph->events[4].mark.col, 9);
	T_EQ_INT(ph->events[4].hook_mark.line, 13);
	T_EQ_INT(ph->events[4].hook_mark.col, 34);
	T_EQ_INT(ph->nbefore, 0);
	T_EQ_INT(ph->nafter, 0);
	T_ASSERT(!ph->before && !ph->after);
	/* no telemetry key: every collector, around the phase */
	T_EQ_INT(ph->telemetry_every, LST_TELEMETRY_PHASE);
	T_EQ_INT(ph->ncollect, 0);
	lst_plan_destroy(&p);
	T_ASSERT(!p);
}

static void test_before_after(void)
{
	lst_plan *p = GOOD(PHASE "    before:\n"
				 "      - {agent: b, hook: resize}\n"
				 "      - {agent: a, hook: prepare, on_error: continue}\n"
				 "    after: [{agent: b, hook: resize_back}]\n");
	const struct lst_plan_phase *ph = &p->phases[0];

	T_EQ_INT(ph->nbefore, 2);
	/* in the order written, with no instant */
	T_EQ_STR(ph->before[0].hook, "resize");
	T_EQ_INT(ph->before[0].agent, 1);
	T_EQ_INT(ph->before[0].at, -1);
	T_EQ_INT(ph->before[0].on_error, LST_HOOK_ON_ERROR_STOP);
	T_EQ_STR(ph->before[1].hook, "prepare");
	T_EQ_INT(ph->before[1].agent, 0);
	T_EQ_INT(ph->before[1].on_error, LST_HOOK_ON_ERROR_CONTINUE);
	T_EQ_INT(ph->before[1].mark.line, 14);
	T_EQ_INT(ph->nafter, 1);
	T_EQ_STR(ph->after[0].hook, "resize_back");
	T_EQ_INT(ph->after[0].at, -1);
	T_EQ_INT(ph->after[0].hook_mark.line, 15);
	T_EQ_INT(ph->after[0].hook_mark.col, 30);
	T_EQ_INT(ph->nevents, 0);
	lst_plan_destroy(&p);
}

static void test_telemetry(void)
{
	lst_plan *p = GOOD(HEAD "  - name: p\n"
				"    workload: {runtime: 10s}\n"
				"    telemetry: {collect: [smart, sas_phy], every: point}\n"
				"  - name: q\n"
				"    workload: {runtime: 10s}\n"
				"    telemetry: off\n"
				"  - name: r\n"
				"    workload: {runtime: 10s}\n"
				"    telemetry: {every: phase}\n");

	T_EQ_INT(p->phases[0].telemetry_every, LST_TELEMETRY_POINT);
	T_EQ_INT(p->phases[0].ncollect, 2);
	T_EQ_STR(p->phases[0].collect[0], "smart");
	T_EQ_STR(p->phases[0].collect[1], "sas_phy");
	T_EQ_INT(p->phases[0].collect_marks[1].line, 12);
	T_EQ_INT(p->phases[0].collect_marks[1].col, 34);
	T_EQ_INT(p->phases[1].telemetry_every, LST_TELEMETRY_OFF);
	T_EQ_INT(p->phases[1].ncollect, 0);
	T_EQ_INT(p->phases[2].telemetry_every, LST_TELEMETRY_PHASE);
	T_EQ_INT(p->phases[2].ncollect, 0);
	lst_plan_destroy(&p);
}

static void test_has_agent(void)
{
	lst_plan *p =
		GOOD("lockstep: 1\n"
		     "name: t\n"
		     "agents:\n"
		     "  - {name: a, address: \"tcp://127.0.0.1\"}\n"
		     "  - {name: b, address: \"tcp://127.0.0.1:7271\"}\n"
		     "  - {name: c, address: \"tcp://127.0.0.1:7272\"}\n"
		     "targets:\n"
		     "  - {name: ssd0, paths: {a: [/dev/loop0, /dev/loop2], b: /dev/loop1}}\n"
		     "  - {name: ssd1, paths: {c: /dev/loop3}}\n"
		     "phases:\n"
		     "  - {name: all, workload: {runtime: 1s}}\n"
		     "  - {name: ssd0, targets: [ssd0], workload: {runtime: 1s}}\n"
		     "  - {name: idle-b, workload: {runtime: 1s}, paths: {b: idle}}\n"
		     "  - name: one-path-a\n"
		     "    workload: {runtime: 1s}\n"
		     "    paths: {a: idle, \"a:/dev/loop2\": {iodepth: 2}}\n"
		     "  - {name: ports-a, workload: {runtime: 1s}, sweep: {ports: [[a]]}}\n"
		     "  - {name: ports-ab, workload: {runtime: 1s}, sweep: {ports: [[a], [b]]}}\n");

	/* every target: everyone */
	for (size_t i = 0; i < 3; i++)
		T_ASSERT(lst_plan_phase_has_agent(p, &p->phases[0], i));
	/* c has no path in ssd0 */
	T_ASSERT(lst_plan_phase_has_agent(p, &p->phases[1], 0));
	T_ASSERT(lst_plan_phase_has_agent(p, &p->phases[1], 1));
	T_ASSERT(!lst_plan_phase_has_agent(p, &p->phases[1], 2));
	/* an idle role takes b out */
	T_ASSERT(lst_plan_phase_has_agent(p, &p->phases[2], 0));
	T_ASSERT(!lst_plan_phase_has_agent(p, &p->phases[2], 1));
	/* a idle but for one path of its own: a still takes part */
	T_ASSERT(lst_plan_phase_has_agent(p, &p->phases[3], 0));
	/* port sets: b in none of them takes no part; in one of them it does */
	T_ASSERT(lst_plan_phase_has_agent(p, &p->phases[4], 0));
	T_ASSERT(!lst_plan_phase_has_agent(p, &p->phases[4], 1));
	T_ASSERT(!lst_plan_phase_has_agent(p, &p->phases[4], 2));
	T_ASSERT(lst_plan_phase_has_agent(p, &p->phases[5], 1));
	lst_plan_destroy(&p);
}

static void test_point_ns(void)
{
	lst_plan *p =
		GOOD(HEAD "  - {name: plain, workload: {runtime: 10s, ramp: 2s}}\n"
			  "  - name: round\n"
			  "    workload: {runtime: 10s, ramp: 2s}\n"
			  "    round: {ramp: 1s, duration: 5s}\n"
			  "  - {name: stop, workload: {runtime: 10s}, stop: {runtime: 4s}}\n"
			  "  - {name: bytes, workload: {bytes: 1g}}\n"
			  "  - {name: capacity, stop: {capacity: 2x}}\n"
			  "  - {name: iops, suite: snia-iops}\n"
			  "  - {name: iops-round, suite: snia-iops, round: {duration: 20s}}\n"
			  "  - {name: purge, suite: purge}\n"
			  "  - {name: pre, suite: precondition, workload: {runtime: 30s}}\n"
			  "  - {name: pre-cap, suite: precondition}\n"
			  "  - {name: hir, suite: snia-hir, hir: {burst: 5s, continuous: 60s}}\n");
	const int64_t s = LST_NS_PER_S;
	const int64_t want[] = { 12 * s, 6 * s, 4 * s, 0, 0, 0, 20 * s, 0, 30 * s, 0, 60 * s };

	T_EQ_INT(p->nphases, LST_ARRAY_SIZE(want));
	for (size_t i = 0; i < LST_ARRAY_SIZE(want); i++) {
		if (lst_plan_phase_point_ns(&p->phases[i]) != want[i])
			T_FAIL("phase %s: point_ns %lld, expected %lld", p->phases[i].name,
			       (long long)lst_plan_phase_point_ns(&p->phases[i]),
			       (long long)want[i]);
	}
	lst_plan_destroy(&p);
}

/* Where the checks draw their lines: each side of each boundary. */
static void test_bounds(void)
{
	lst_plan *p;

	/* the last instant within a 10 s point, a name of 63 characters */
	p = GOOD(PHASE "    events:\n"
		       "      - {at: 9999ms, agent: a, hook: x}\n"
		       "      - {at: 1s, agent: a, hook: "
		       "a23456789b23456789c23456789d23456789e23456789f23456789g23456789}\n");
	lst_plan_destroy(&p);
	BAD(PHASE "    events: [{at: 10s, agent: a, hook: x}]\n", "12:19",
	    "event 1: at 10s is at or past the end of a point of this phase, which lasts 10s");
	BAD(PHASE "    events:\n"
		  "      - {at: 5s, agent: a, hook: "
		  "a23456789b23456789c23456789d23456789e23456789f23456789g234567890}\n",
	    "13:34", "hook 'a23456789b");
	/* the same instant and hook on another agent, or another hook: no duplicate */
	p = GOOD(PHASE "    events:\n"
		       "      - {at: 1s, agent: a, hook: x}\n"
		       "      - {at: 1s, agent: b, hook: x}\n"
		       "      - {at: 1s, agent: a, hook: y}\n");
	lst_plan_destroy(&p);
}

/* A collect list longer than any agent's config can be: refused at the list. */
static void test_collect_bound(void)
{
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "%s",
				    PHASE "    telemetry:\n      collect: [");
	lst_plan *p;

	for (int i = 0; i < LST_MAX_HOOKS + 1; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%sc%d", i ? ", " : "", i);
	snprintf(text + n, sizeof(text) - n, "]\n");
	BAD(text, "13:16",
	    "telemetry: collect names 33 collectors; an agent's config has at most 32");
	/* 32 are fine */
	strcpy(strstr(text, ", c32]"), "]\n");
	p = GOOD(text);
	T_EQ_INT(p->phases[0].ncollect, 32);
	T_EQ_STR(p->phases[0].collect[31], "c31");
	lst_plan_destroy(&p);
}

/* 1000ms is 1s, and on_error does not make an event another one. */
static void test_duplicate(void)
{
	BAD(PHASE "    events:\n"
		  "      - {at: 1s, agent: a, hook: x}\n"
		  "      - {at: 1000ms, agent: a, hook: x, on_error: continue}\n",
	    "14:9", "event 2: the same event as event 1 (at 13:9): agent a runs x at 1s once");
}

/* A point whose length the plan does not fix (bytes, a suite's own rounds): no limit here. */
static void test_unknown_length(void)
{
	lst_plan *p = GOOD(HEAD "  - name: bytes\n"
				"    workload: {bytes: 1g}\n"
				"    events: [{at: 1h, agent: a, hook: x}]\n"
				"  - name: iops\n"
				"    suite: snia-iops\n"
				"    events: [{at: 100s, agent: b, hook: x}]\n");

	T_EQ_INT(p->phases[0].events[0].at, 3600 * LST_NS_PER_S);
	T_EQ_INT(p->phases[1].events[0].at, 100 * LST_NS_PER_S);
	lst_plan_destroy(&p);
}

/* An error elsewhere in the phase (a target it cannot have) silences the checks built on it. */
static void test_no_echo(void)
{
	BAD(HEAD "  - name: p\n"
		 "    targets: [ssd9]\n"
		 "    workload: {runtime: 10s}\n"
		 "    events: [{at: 20s, agent: b, hook: x}]\n",
	    "11:15", "unknown target 'ssd9'");
}

int main(void)
{
	test_events();
	test_before_after();
	test_telemetry();
	test_has_agent();
	test_point_ns();
	test_bounds();
	test_duplicate();
	test_collect_bound();
	test_unknown_length();
	test_no_echo();
	printf("ok: plan hooks\n");
	return 0;
}
