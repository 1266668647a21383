/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan tests for trace record and replay (lst_plan_trace.c): `record:` and `replay:`
 * end up as the workload options write_iolog, read_iolog and replay_time_scale; a phase with
 * several points records one trace per point (lst_plan_point_trace appends -pK); and each
 * refusal is one error at its LINE:COL: a bad name, record and replay together, a shorthand with
 * its option, a replay that sets what the trace decides (workload, role, sweep), a replay with
 * verify or a suite, a scale out of range or not whole, unknown keys. The messages as a user
 * sees them, and `lockstep validate`'s words, are in integration/plan/plan_trace.sh.
 */
#include <errno.h>
#include <string.h>

#include "lst_plan.h"
#include "lst_plan_test.h"
#include "lst_test.h"

/* Lines 1..8; phases from line 9. */
#define HEAD LST_PLAN_TEST_HEAD1

static void test_values(void)
{
	lst_plan *p =
		GOOD(HEAD "  - {name: cap, record: true}\n"
			  "  - {name: cap2, record: wsat_1, sweep: {iodepth: [1, 2, 4]}}\n"
			  "  - {name: off, record: false}\n"
			  "  - {name: play, replay: {trace: cap.a.0.lstrace, scale: 200%}}\n"
			  "  - {name: play2, replay: {trace: capture.blkparse.txt}}\n"
			  "  - {name: play3, replay: {trace: x, scale: 50},\n"
			  "     workload: {iodepth: 8, verify: false}, sweep: {iodepth: [1, 2]}}\n"
			  "  - {name: st, record: s, round: {duration: 5s}, steady: {}}\n"
			  "  - {name: pre, suite: precondition, record: true}\n");
	const struct lst_plan_phase *ph = p->phases;
	char name[LST_OPT_TEXT_MAX];

	T_EQ_STR(ph[0].w.write_iolog, "cap");
	T_EQ_STR(ph[0].w.read_iolog, "");
	T_EQ_STR(ph[1].w.write_iolog, "wsat_1");
	T_EQ_STR(ph[2].w.write_iolog, "");
	T_EQ_STR(ph[3].w.read_iolog, "cap.a.0.lstrace");
	T_EQ_INT(ph[3].w.replay_time_scale, 200);
	T_EQ_STR(ph[3].w.write_iolog, "");
	T_EQ_STR(ph[4].w.read_iolog, "capture.blkparse.txt");
	T_EQ_INT(ph[4].w.replay_time_scale, 100);
	T_EQ_INT(ph[5].w.replay_time_scale, 50);
	T_EQ_INT(ph[5].w.iodepth, 8);

	/* one point keeps the name; a sweep, rounds until steady and a suite add -pK */
	T_ASSERT(lst_plan_phase_one_point(&ph[0]));
	T_ASSERT(!lst_plan_phase_one_point(&ph[1]));
	T_ASSERT(!lst_plan_phase_one_point(&ph[6]));
	T_ASSERT(!lst_plan_phase_one_point(&ph[7]));
	strcpy(name, ph[0].w.write_iolog);
	T_EQ_INT(lst_plan_point_trace(&ph[0], 0, name), 0);
	T_EQ_STR(name, "cap");
	strcpy(name, ph[1].w.write_iolog);
	T_EQ_INT(lst_plan_point_trace(&ph[1], 2, name), 0);
	T_EQ_STR(name, "wsat_1-p2");
	strcpy(name, ph[7].w.write_iolog);
	T_EQ_INT(lst_plan_point_trace(&ph[7], 13, name), 0);
	T_EQ_STR(name, "pre-p13");
	name[0] = '\0';
	T_EQ_INT(lst_plan_point_trace(&ph[1], 2, name), 0);
	T_EQ_STR(name, "");
	memset(name, 'x', LST_OPT_TEXT_MAX - 3);
	name[LST_OPT_TEXT_MAX - 3] = '\0';
	T_EQ_INT(lst_plan_point_trace(&ph[1], 2, name), -ENAMETOOLONG);
	T_EQ_INT(strlen(name), LST_OPT_TEXT_MAX - 3);
	lst_plan_destroy(&p);

	/* the options themselves, without the shorthands, are taken as they are */
	p = GOOD(
		HEAD
		"  - {name: w, workload: {write_iolog: raw}}\n"
		"  - {name: r, workload: {read_iolog: raw.a.0.lstrace, replay_time_scale: 300}}\n");
	T_EQ_STR(p->phases[0].w.write_iolog, "raw");
	T_EQ_STR(p->phases[1].w.read_iolog, "raw.a.0.lstrace");
	T_EQ_INT(p->phases[1].w.replay_time_scale, 300);
	lst_plan_destroy(&p);

	/* a replay needs no stop condition: it lasts as long as its trace */
	p = GOOD("lockstep: 1\nname: t\nagents:\n  - {name: a, address: \"tcp://127.0.0.1\"}\n"
		 "targets:\n  - {name: d, paths: {a: /dev/loop0}}\nphases:\n"
		 "  - {name: r, replay: {trace: x}}\n");
	T_EQ_STR(p->phases[0].w.read_iolog, "x");
	lst_plan_destroy(&p);
}

static void test_names(void)
{
	BAD(HEAD "  - {name: p, record: a/b}\n", "9:23", "record: 'a/b' has '/' at 2");
	BAD(HEAD "  - {name: p, record: .x}\n", "9:23", "record: '.x' may not start with a dot");
	BAD(HEAD "  - {name: p, replay: {trace: ../x}}\n", "9:31",
	    "replay: trace: '../x' may not start with a dot");
	BAD(HEAD "  - {name: p, replay: {trace: \"a b\"}}\n", "9:31", "has ' ' at 2");
	BAD(HEAD "  - {name: p, replay: {trace: none}}\n", "9:31", "'none' is no trace name");
	/* 56 characters: too long once -pK is added, fine on one point (up to 63) */
	BAD(HEAD "  - {name: p, sweep: {iodepth: [1, 2]},\n"
		 "     record: abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdef}\n",
	    "10:14", "is longer than 55 characters");
	lst_plan_destroy(&(lst_plan *){ GOOD(
		HEAD "  - {name: p, record: abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc"
		     "defghijab}\n") });
	BAD(HEAD
	    "  - {name: p, sweep: {iodepth: [1, 2]},\n"
	    "     workload: {write_iolog: abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdef}}\n",
	    "10:17", "write_iolog 'abcdefghij");
}

static void test_conflicts(void)
{
	BAD(HEAD "  - {name: p, record: true, replay: {trace: x}}\n", "9:29",
	    "replay: the phase records (write_iolog 'p') and replays");
	BAD(HEAD "  - {name: p, workload: {write_iolog: y, read_iolog: x}}\n", "9:42",
	    "a phase does one or the other");
	BAD(HEAD "  - {name: p, record: true, workload: {write_iolog: y}}\n", "9:15",
	    "record and workload write_iolog (at 9:40) are both given");
	BAD(HEAD "  - {name: p, replay: {trace: x}, workload: {read_iolog: y}}\n", "9:15",
	    "replay and workload read_iolog (at 9:46) are both given");
	BAD(HEAD "  - {name: p, replay: {trace: x, scale: 2}, workload: {replay_time_scale: 3}}\n",
	    "9:34", "replay: scale and workload replay_time_scale (at 9:56) are both given");
	BAD(HEAD "  - {name: p, suite: snia-iops, replay: {trace: x}}\n", "9:33",
	    "replay: a suite decides its own workloads");
	BAD(HEAD "  - {name: p, suite: purge, record: true}\n", "9:29",
	    "record: a purge discards the whole target at once");
}

static void test_decided(void)
{
	static const char *const keys[] = {
		"rw: read",
		"rwmixread: 70",
		"bs: 8k",
		"bs: {4k: 50, 8k: 50}",
		"bssplit: 4k/100",
		"random_distribution: zipf:1.2",
		"hotband: [{range: 0-10%, share: 70%}]",
		"rate_iops: 100",
		"rwmixtrim: 0",
	};
	char text[1024];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(text, sizeof(text),
			 HEAD "  - {name: p, replay: {trace: x}, workload: {%s}}\n", keys[i]);
		BAD(text, "9:46", "replay: the trace decides");
		/* the same key in a path's role */
		snprintf(text, sizeof(text),
			 HEAD "  - {name: p, replay: {trace: x}, paths: {a: {%s}}}\n", keys[i]);
		BAD(text, "9:47", "out of the role of a in a replay phase");
	}
	BAD(HEAD "  - {name: p, replay: {trace: x}, sweep: {rate_iops: [10, 20]}}\n", "9:43",
	    "replay: a replay phase cannot sweep rate_iops");
	BAD(HEAD "  - {name: p, replay: {trace: x}, sweep: {bs: [4k, 8k]}}\n", "9:43",
	    "cannot sweep bs");
	BAD(HEAD "  - {name: p, replay: {trace: x}, workload: {verify: true}}\n", "9:46",
	    "replay: a replay cannot verify");
	/* verify from defaults: said at the replay, with the way out */
	BAD("lockstep: 1\nname: t\nagents:\n  - {name: a, address: \"tcp://127.0.0.1\"}\n"
	    "targets:\n  - {name: d, paths: {a: /dev/loop0}}\n"
	    "defaults: {runtime: 5s, rw: write, verify: true}\nphases:\n"
	    "  - {name: p, replay: {trace: x}}\n",
	    "9:15", "set verify: false in the phase's workload");
}

static void test_scale(void)
{
	BAD(HEAD "  - {name: p, replay: {trace: x, scale: 0}}\n", "9:41",
	    "replay: scale must be >= 1 and <= 100000");
	BAD(HEAD "  - {name: p, replay: {trace: x, scale: 100001%}}\n", "9:41",
	    "replay: scale must be >= 1");
	BAD(HEAD "  - {name: p, replay: {trace: x, scale: 12.5%}}\n", "9:41",
	    "replay: scale must be a whole percentage");
	BAD(HEAD "  - {name: p, replay: {trace: x, scale: fast}}\n", "9:41",
	    "replay: scale: 'fast' is not a number");
	BAD(HEAD "  - {name: p, replay: {trace: x, scal: 2}}\n", "9:34",
	    "unknown key 'scal' in replay (did you mean 'scale'?)");
	BAD(HEAD "  - {name: p, replay: {scale: 2}}\n", "9:23", "missing required key 'trace'");
	BAD(HEAD "  - {name: p, replay: yes}\n", "9:23", "replay must be a map");
	BAD(HEAD "  - {name: p, replai: {trace: x}}\n", "9:15",
	    "unknown key 'replai' (did you mean 'replay'?)");
}

int main(void)
{
	test_values();
	test_names();
	test_conflicts();
	test_decided();
	test_scale();
	return 0;
}
