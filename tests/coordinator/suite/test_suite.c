/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The suite state machines against synthetic results: which steps each suite hands out, in
 * which order, with which workloads, and when rounds stop (steady state, max_rounds, capacity,
 * a latency limit). No agents: the results fed back are made up, so every stop is predictable.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_plan.h"
#include "lst_results.h"
#include "lst_suite.h"
#include "lst_test.h"
#include "lst_time.h"
#include "lst_util.h"

static char s_dir[64];
static int s_nres;

static lst_plan *s_plan(const char *phases)
{
	char *text;
	lst_errlist errs = { 0 };
	lst_plan *p;

	text = malloc(strlen(phases) + 512);
	if (!text)
		T_FAIL("out of memory");
	sprintf(text,
		"lockstep: 1\nname: t\nagents:\n  - {name: a, address: \"tcp://127.0.0.1:1\"}\n"
		"targets:\n  - {name: d, paths: {a: /dev/null}}\nphases:\n%s",
		phases);
	p = lst_plan_parse(text, strlen(text), "test.yaml", &errs);
	if (!p) {
		lst_errlist_print(&errs, stderr);
		T_FAIL("plan does not parse");
	}
	free(text);
	return p;
}

/* The last summary.json "tests" entry the suite wrote into res (borrowed). */
static json_t *s_last_test(lst_results *res)
{
	json_t *tests = lst_results_tests(res);

	T_ASSERT(json_array_size(tests) > 0);
	return json_array_get(tests, json_array_size(tests) - 1);
}

static const char *s_str(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	if (!v)
		T_FAIL("no string %s", key);
	return v;
}

static lst_results *s_results(void)
{
	char dir[128];
	lst_err err;
	lst_results *r;

	snprintf(dir, sizeof(dir), "%s/r%d", s_dir, s_nres++);
	r = lst_results_new(dir, &err);
	if (!r)
		T_FAIL("%s", err.msg);
	return r;
}

/* A result with the given IOPS (all writes or reads) and a fixed latency. */
static void s_result(struct lst_step_result *r, double iops, bool writes, uint64_t lat_ns)
{
	memset(r, 0, sizeof(*r));
	lst_hist_init(&r->lat);
	r->seconds = 1;
	r->iops[writes] = iops;
	r->ios[writes] = (uint64_t)iops;
	r->bytes[writes] = (uint64_t)iops * 4096;
	r->mbps[writes] = iops * 4096 / 1e6;
	lst_hist_record_n(&r->lat, lat_ns, (uint64_t)iops);
}

/* Steady state: values that settle at round 7 stop the rounds there (window 5). */
static void s_check_steady_stop(void)
{
	static const double v[] = { 100, 60, 140, 70, 130, 100, 101, 99, 100, 102, 100 };
	lst_plan *p =
		s_plan("  - name: s\n    workload: {rw: randwrite}\n"
		       "    round: {duration: 1s}\n    steady: {window: 5, max_rounds: 25}\n");
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	size_t rounds = 0;

	T_ASSERT(s);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_EQ_INT(st.round, rounds + 1);
		T_EQ_INT(st.w.runtime, LST_NS_PER_S);
		s_result(&r, v[rounds], true, 1000);
		lst_suite_result(s, &st, &r, res);
		rounds++;
		T_ASSERT(rounds < sizeof(v) / sizeof(v[0]));
	}
	/* Rounds 6..10 (100, 101, 99, 100, 102) are the first steady window. */
	T_EQ_INT(rounds, 10);
	T_ASSERT(lst_suite_finish(s, res, NULL));
	T_EQ_STR(s_str(s_last_test(res), "stop_reason"), "steady");
	T_EQ_STR(s_str(s_last_test(res), "verdict_text"), "steady in rounds 6-10");
	/* the one point's window average: rounds 6..10 average 100.4 IOPS */
	T_NEAR(json_real_value(json_object_get(
		       json_array_get(json_object_get(s_last_test(res), "points"), 0), "iops")),
	       100.4, 1e-9);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* Never steady: max_rounds ends it, and finish says so. */
static void s_check_max_rounds(void)
{
	lst_plan *p = s_plan("  - name: s\n    workload: {rw: randwrite}\n"
			     "    round: {duration: 1s}\n    steady: {window: 2, max_rounds: 6}\n");
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	size_t rounds = 0;

	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		s_result(&r, rounds % 2 ? 100 : 300, true, 1000);
		lst_suite_result(s, &st, &r, res);
		rounds++;
	}
	T_EQ_INT(rounds, 6);
	T_ASSERT(!lst_suite_finish(s, res, NULL));
	T_ASSERT(json_is_false(json_object_get(s_last_test(res), "steady")));
	T_EQ_STR(s_str(s_last_test(res), "stop_reason"), "round_limit");
	T_EQ_STR(s_str(s_last_test(res), "verdict_text"),
		 "NOT steady after 6 rounds (round limit)");
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* snia-iops: the grid is mixes (outer) x block sizes (inner), the plan's overrides win, and the
 * tracked point is 4 KiB 0/100. */
static void s_check_iops_grid(void)
{
	lst_plan *p = s_plan("  - name: i\n    suite: snia-iops\n    workload: {iodepth: 4}\n"
			     "    sweep: {rwmixread: [100, 0], bs: [8k, 4k]}\n"
			     "    round: {duration: 2s}\n    steady: {window: 2, max_rounds: 3}\n");
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	static const int64_t want_mix[] = { 100, 100, 0, 0 };
	static const int64_t want_bs[] = { 8192, 4096, 8192, 4096 };
	size_t n = 0;

	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;
		size_t i = n % 4;

		T_EQ_INT(st.w.rwmixread, want_mix[i]);
		T_EQ_INT(st.w.bs, want_bs[i]);
		T_EQ_INT(st.w.iodepth, 4); /* workload: overrides the suite's 16 */
		T_EQ_INT(st.w.jobs, 16);   /* the suite's base */
		T_EQ_INT(st.w.rw, LST_RW_RANDRW);
		T_EQ_INT(st.w.runtime, 2 * LST_NS_PER_S);
		/* Only the tracked point (4k, 0/100) is steady from the start. */
		s_result(&r, i == 3 ? 1000 : 100.0 * (double)(n + 1), st.w.rwmixread == 0, 1000);
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, 8); /* two rounds: the window of 2 is steady at once */
	T_ASSERT(lst_suite_finish(s, res, NULL));
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* WSAT stops at the capacity written, before max_rounds. */
static void s_check_wsat_capacity(void)
{
	lst_plan *p =
		s_plan("  - name: w\n    suite: snia-wsat\n    round: {duration: 1s}\n"
		       "    stop: {capacity: 1x}\n    steady: {window: 2, max_rounds: 100}\n");
	lst_results *res = s_results();
	lst_err err;
	/* 1000 IOPS x 4 KiB = 4 MB a round; capacity 10 MB: the third round crosses it. */
	lst_suite_run *s = lst_suite_new(p, 0, 10 * 1000 * 1000, &err);
	struct lst_step st;
	size_t rounds = 0;
	json_t *t;

	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_EQ_INT(st.w.bs, 4096);
		T_EQ_INT(st.w.rw, LST_RW_RANDWRITE);
		s_result(&r, 1000, true, 1000);
		lst_suite_result(s, &st, &r, res);
		rounds++;
	}
	T_EQ_INT(rounds, 3);
	lst_suite_finish(s, res, NULL);
	/* A flat series passes both criteria: steady, though WSAT does not end on it. */
	t = s_last_test(res);
	T_ASSERT(json_is_true(json_object_get(t, "steady")));
	T_ASSERT(json_is_false(json_object_get(t, "steady_required")));
	T_EQ_STR(s_str(t, "stop_reason"), "capacity");
	T_EQ_INT(json_integer_value(json_object_get(t, "bytes_written")), 3 * 1000 * 4096);
	T_NEAR(json_real_value(json_object_get(t, "capacity_multiple")), 1.2288, 1e-12);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* HIR: bursts with their gaps, continuous writing between gap sizes only. */
static void s_check_hir(void)
{
	lst_plan *p =
		s_plan("  - name: h\n    suite: snia-hir\n"
		       "    hir: {burst: 2s, gaps: [5s, 10s], repeats: 3, continuous: 20s}\n");
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	int64_t want_idle[] = { 5, 5, 5, 0, 10, 10, 10 };
	int64_t want_run[] = { 2, 2, 2, 20, 2, 2, 2 };
	size_t n = 0;

	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_ASSERT(n < 7);
		T_EQ_INT(st.idle_after, want_idle[n] * LST_NS_PER_S);
		T_EQ_INT(st.w.runtime, want_run[n] * LST_NS_PER_S);
		T_EQ_INT(st.round, 0);
		s_result(&r, 1000, true, 1000);
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, 7);
	lst_suite_finish(s, res, NULL);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* Curve: rate points from the measured maximum, stopping once the latency limit is passed. */
static void s_check_curve(void)
{
	lst_plan *p = s_plan("  - name: c\n    suite: curve\n    workload: {rw: randread}\n"
			     "    round: {duration: 1s}\n"
			     "    curve: {percents: [10, 50, 90, 100], limit_percentile: 99, "
			     "limit: 1ms}\n");
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	int64_t rates[8];
	size_t n = 0;

	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_ASSERT(n < 8);
		rates[n] = st.w.rate_iops;
		/* The max point does 20000 IOPS; at 90% the latency passes the 1 ms limit. */
		s_result(&r, n == 0 ? 20000 : (double)st.w.rate_iops, false,
			 st.w.rate_iops >= 18000 ? 2000000 : 500000);
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, 4); /* max, 10%, 50%, 90% (over the limit: 100% is not run) */
	T_EQ_INT(rates[0], 0);
	T_EQ_INT(rates[1], 2000);
	T_EQ_INT(rates[2], 10000);
	T_EQ_INT(rates[3], 18000);
	lst_suite_finish(s, res, NULL);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* Precondition: 128k sequential writes, 2x capacity unless the plan says otherwise; purge. */
static void s_check_precondition_and_purge(void)
{
	lst_plan *p = s_plan("  - name: pre\n    suite: precondition\n"
			     "  - name: purge\n    suite: purge\n    secure: true\n");
	lst_results *res = s_results();
	struct lst_step_result r;
	json_t *t;
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;

	T_ASSERT(lst_suite_next(s, &st));
	T_EQ_INT(st.w.rw, LST_RW_WRITE);
	T_EQ_INT(st.w.bs, 128 * 1024);
	T_EQ_INT(st.w.iodepth, 32);
	T_NEAR(st.stop_capacity, 2.0, 0);
	lst_suite_destroy(&s);
	s = lst_suite_new(p, 1, 1 << 30, &err);
	T_ASSERT(lst_suite_next(s, &st));
	T_EQ_INT(st.action, 2); /* LST_ACTION_SECDISCARD */
	/* What the purge did: the bytes of its regions, against the capacity, and how fast. */
	memset(&r, 0, sizeof(r));
	r.discarded = 1 << 29;
	r.seconds = 0.5;
	lst_suite_result(s, &st, &r, res);
	T_ASSERT(!lst_suite_next(s, &st));
	T_ASSERT(lst_suite_finish(s, res, NULL));
	t = s_last_test(res);
	T_EQ_STR(s_str(t, "did"), "discard");
	T_EQ_INT(json_integer_value(json_object_get(t, "bytes_discarded")), 1 << 29);
	T_NEAR(json_real_value(json_object_get(t, "capacity_multiple")), 0.5, 0);
	T_NEAR(json_real_value(json_object_get(t, "mbps")), (double)(1 << 29) / 0.5 / 1e6, 1e-6);
	T_ASSERT(!json_object_get(t, "verdict")); /* no rounds, no verdict */
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* stop: and the workload's own limits: whichever comes first ends each point. */
static void s_check_stop_first(void)
{
	lst_plan *p = s_plan("  - {name: r, round: {duration: 1s}, stop: {runtime: 3s}}\n"
			     "  - {name: s, workload: {runtime: 5s}, stop: {runtime: 2s}}\n"
			     "  - {name: b, workload: {bytes: 1m}, stop: {bytes: 1g}}\n"
			     "  - {name: c, workload: {bytes: 1g}, stop: {bytes: 1m}}\n"
			     "  - {name: pre, suite: precondition, workload: {runtime: 1s}}\n"
			     "  - {name: pre2, suite: precondition, stop: {runtime: 2s}}\n");
	static const struct {
		int64_t runtime, bytes;
		double capacity;
	} want[] = {
		{ LST_NS_PER_S, 0, 0 }, { 2 * LST_NS_PER_S, 0, 0 }, { 0, 1 << 20, 0 },
		{ 0, 1 << 20, 0 },	{ LST_NS_PER_S, 0, 2.0 },   { 2 * LST_NS_PER_S, 0, 0 },
	};
	lst_err err;

	for (size_t i = 0; i < p->nphases; i++) {
		lst_suite_run *s = lst_suite_new(p, i, 1 << 30, &err);
		struct lst_step st;

		T_ASSERT(s && lst_suite_next(s, &st));
		if (st.w.runtime != want[i].runtime || st.w.bytes != want[i].bytes ||
		    st.stop_capacity != want[i].capacity)
			T_FAIL("phase %s: runtime %lld bytes %lld capacity %g, want %lld %lld %g",
			       p->phases[i].name, (long long)st.w.runtime, (long long)st.w.bytes,
			       st.stop_capacity, (long long)want[i].runtime,
			       (long long)want[i].bytes, want[i].capacity);
		lst_suite_destroy(&s);
	}
	lst_plan_destroy(&p);
}

/* A plan at the parser's limits builds its suites: nothing that validates fails at run time. */
static void s_check_limits(void)
{
	char *text = malloc(16384);
	size_t n;
	lst_plan *p;
	lst_err err;
	lst_suite_run *s;

	T_ASSERT(text);
	n = (size_t)sprintf(text,
			    "  - name: h\n    suite: snia-hir\n    hir: {repeats: 10000}\n"
			    "  - name: sw\n    workload: {runtime: 1s}\n    sweep: {jobs: [1");
	for (int j = 2; j <= 128; j++)
		n += (size_t)sprintf(text + n, ", %d", j);
	n += (size_t)sprintf(text + n, "], iodepth: [1");
	for (int q = 2; q <= 128; q++)
		n += (size_t)sprintf(text + n, ", %d", q);
	sprintf(text + n, "]}\n");
	p = s_plan(text);
	for (size_t i = 0; i < p->nphases; i++) {
		s = lst_suite_new(p, i, 1 << 30, &err);
		if (!s)
			T_FAIL("phase %zu: %s", i, err.msg);
		lst_suite_destroy(&s);
	}
	lst_plan_destroy(&p);
	free(text);
}

/* ECW: the spec's 40/60 mix, its twelve block sizes and three access ranges on every grid
 * point unless the phase's workload gives its own. */
static void s_check_ecw(void)
{
	lst_plan *p =
		s_plan("  - name: e\n    suite: snia-ecw\n"
		       "    sweep: {jobs: [2], iodepth: [4, 1]}\n    round: {duration: 1s}\n");
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;

	T_ASSERT(s);
	T_ASSERT(lst_suite_next(s, &st));
	T_EQ_STR(st.label, "jobs=2 iodepth=4");
	T_EQ_INT(st.w.rw, LST_RW_RANDRW);
	T_EQ_INT(st.w.rwmixread, 40);
	T_EQ_INT(st.w.bssplit.n[0], 12);
	T_EQ_INT(st.w.bssplit.e[0][7].bs, 4096);
	T_EQ_INT(st.w.dist.nzones, 3);
	lst_suite_destroy(&s);
	lst_plan_destroy(&p);
	/* the phase's own mix and ranges win over the spec's */
	p = s_plan("  - name: e\n    suite: snia-ecw\n"
		   "    workload: {bssplit: 4k/50:8k/50, random_distribution: zipf:1.2}\n"
		   "    sweep: {jobs: [1], iodepth: [1]}\n    round: {duration: 1s}\n");
	s = lst_suite_new(p, 0, 1 << 30, &err);
	T_ASSERT(s && lst_suite_next(s, &st));
	T_EQ_INT(st.w.bssplit.n[0], 2);
	T_EQ_INT(st.w.dist.nzones, 0);
	T_EQ_INT(st.w.rwmixread, 40);
	lst_suite_destroy(&s);
	lst_plan_destroy(&p);
}

/* DIRTH: the grid's rounds until steady, then one histogram run per selected point (max IOPS,
 * the two mids, min latency) at the grid point's workload, and dirth-PHASE.json naming them. */
static void s_check_dirth(void)
{
	lst_plan *p = s_plan("  - name: d\n    suite: snia-dirth\n"
			     "    sweep: {jobs: [1, 2], iodepth: [1, 2]}\n"
			     "    round: {duration: 1s}\n    steady: {window: 2, max_rounds: 3}\n"
			     "    dirth: {histogram: 2s}\n");
	static const char *const want[] = { "max jobs=2 iodepth=2", "mid-high jobs=1 iodepth=2",
					    "mid-low jobs=2 iodepth=1", "min jobs=1 iodepth=1" };
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	size_t grid = 0, hist = 0;
	json_t *doc, *sel;
	char *path;

	T_ASSERT(s);
	/* a round of the 4-point grid, then 4 histogram runs */
	T_EQ_INT(lst_suite_estimate(s), 4 * LST_NS_PER_S + 4 * 2 * LST_NS_PER_S);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;
		int64_t load = st.w.jobs * st.w.iodepth;

		if (!strcmp(st.test, "dirth")) {
			T_EQ_INT(st.w.runtime, LST_NS_PER_S);
			T_EQ_INT(st.w.bs, 8192);
			T_EQ_INT(st.w.rwmixread, 65);
			grid++;
		} else {
			T_EQ_STR(st.test, "histograms");
			T_ASSERT(hist < 4);
			T_EQ_STR(st.label, want[hist]);
			T_EQ_INT(st.w.runtime, 2 * LST_NS_PER_S);
			hist++;
		}
		/* distinct IOPS per point; latency grows with the load */
		s_result(&r, (double)(1000 * load + 100 * st.w.iodepth), true,
			 (uint64_t)(1000 * load));
		lst_suite_result(s, &st, &r, res);
	}
	T_EQ_INT(grid, 8); /* steady after 2 rounds of 4 points */
	T_EQ_INT(hist, 4);
	T_ASSERT(lst_suite_finish(s, res, NULL));
	path = lst_asprintf("%s/dirth-d.json", lst_results_dir(res));
	doc = json_load_file(path, 0, NULL);
	T_ASSERT(doc);
	sel = json_object_get(doc, "selected");
	T_EQ_INT(json_array_size(sel), 4);
	T_EQ_STR(s_str(json_array_get(sel, 0), "pick"), "max");
	T_NEAR(json_real_value(json_object_get(json_array_get(sel, 0), "grid_iops")), 4200, 1e-9);
	/* 4200 I/Os of 4 us each in one bucket: 99.999 is not supported by 4200 I/Os */
	T_ASSERT(json_is_false(
		json_object_get(json_object_get(json_array_get(sel, 0), "supported"), "99.999")));
	T_EQ_INT(json_array_size(json_object_get(json_array_get(sel, 0), "histogram")), 1);
	json_decref(doc);
	free(path);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* XSR: three segments in time order, cut into round-length intervals (the last one shorter),
 * sequential 1024 KiB, random 8 KiB, sequential again; the recovery read off segment 3. */
static void s_check_xsr(void)
{
	lst_plan *p = s_plan("  - name: x\n    suite: snia-xsr\n    round: {duration: 1s}\n"
			     "    xsr: {segments: [2s, 1s, 1500ms]}\n");
	static const char *const tests[] = { "seq 1024k", "seq 1024k", "rnd 8k", "seq 1024k again",
					     "seq 1024k again" };
	static const int64_t runtime[] = { 1000, 1000, 1000, 1000, 500 };
	static const double iops[] = { 1000, 1000, 50, 500, 950 };
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	size_t n = 0;
	json_t *t;
	char *path;

	T_ASSERT(s);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_ASSERT(n < 5);
		T_EQ_STR(st.test, tests[n]);
		T_EQ_INT(st.w.runtime, runtime[n] * LST_NS_PER_MS);
		T_EQ_INT(st.w.bs, n == 2 ? 8192 : 1 << 20);
		T_EQ_INT(st.w.rw, n == 2 ? LST_RW_RANDWRITE : LST_RW_WRITE);
		s_result(&r, iops[n], true, 1000);
		r.t_s = (double)n;
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, 5);
	lst_suite_finish(s, res, NULL);
	path = lst_asprintf("%s/xsr-x.json", lst_results_dir(res));
	t = json_load_file(path, 0, NULL);
	T_ASSERT(t);
	T_EQ_STR(s_str(t, "phase"), "x");
	T_ASSERT(json_is_true(json_object_get(t, "recovered")));
	T_EQ_INT(json_integer_value(json_object_get(t, "recovered_interval")), 2);
	/* segment 3 starts at t=3; its second interval starts at 4 and lasts 0.5 s */
	T_NEAR(json_real_value(json_object_get(t, "recovery_s")), 1.5, 1e-9);
	json_decref(t);
	free(path);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/*
 * A suite phase swept over options its grid does not build from runs the whole grid once per
 * value, the first axis outermost: each value's steps carry it (and the suite's base leaves a
 * swept option alone), its tests and labels name it, and each has its verdict and matrix.
 */
static void s_check_iops_values(void)
{
	lst_plan *p = s_plan("  - name: i\n    suite: snia-iops\n"
			     "    sweep: {rw: [randwrite], size: [8m, 16m], rwmixread: [0], "
			     "bs: [8k, 4k], pattern: [zeros, random]}\n"
			     "    round: {duration: 1s}\n    steady: {window: 2, max_rounds: 3}\n");
	static const char *const values[] = { "rw=randwrite size=8m pattern=zeros",
					      "rw=randwrite size=8m pattern=random",
					      "rw=randwrite size=16m pattern=zeros",
					      "rw=randwrite size=16m pattern=random" };
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	json_t *tests;
	size_t n = 0;
	char want[160];

	T_ASSERT(s);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;
		size_t v = n / 4; /* two rounds of two points per value */

		T_ASSERT(v < 4);
		snprintf(want, sizeof(want), "iops %s", values[v]);
		T_EQ_STR(st.test, want);
		snprintf(want, sizeof(want), "%s bs=%s rwmixread=0", values[v],
			 n % 2 ? "4k" : "8k");
		T_EQ_STR(st.label, want);
		T_EQ_INT(st.w.size, (v < 2 ? 8 : 16) << 20);
		T_EQ_INT(st.w.rw, LST_RW_RANDWRITE); /* the value's, not the suite's randrw */
		T_EQ_INT(st.w.jobs, 16);	     /* the suite's base still applies */
		s_result(&r, 1000 * (double)(v + 1), true, 1000);
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, 16);
	T_ASSERT(lst_suite_finish(s, res, NULL));
	tests = lst_results_tests(res);
	T_EQ_INT(json_array_size(tests), 4);
	for (size_t v = 0; v < 4; v++) {
		json_t *t = json_array_get(tests, v);

		T_EQ_STR(s_str(t, "value"), values[v]);
		T_EQ_STR(s_str(t, "verdict_text"), "steady in rounds 1-2");
		T_NEAR(json_real_value(json_object_get(t, "average")), 1000 * (double)(v + 1),
		       1e-9);
	}
	{
		char *path = lst_asprintf("%s/matrix-i-rw=randwrite-size=16m-pattern=random.csv",
					  lst_results_dir(res));

		T_ASSERT(access(path, R_OK) == 0);
		free(path);
	}
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* XSR once per value: each value's three segments in time order, then the next value's, and
 * files of its own named for it (a bssplit's '/' and ':' kept out of the name). */
static void s_check_xsr_values(void)
{
	lst_plan *p = s_plan("  - name: x\n    suite: snia-xsr\n    round: {duration: 1s}\n"
			     "    xsr: {segments: [1s, 1s, 1s]}\n"
			     "    sweep: {bssplit: [none, 4k/50:64k/50]}\n");
	static const char *const tests[] = {
		"seq 1024k bssplit=none",	"rnd 8k bssplit=none",
		"seq 1024k again bssplit=none", "seq 1024k bssplit=4k/50:64k/50",
		"rnd 8k bssplit=4k/50:64k/50",	"seq 1024k again bssplit=4k/50:64k/50"
	};
	static const char *const files[] = { "xsr-x-bssplit=none.json",
					     "xsr-x-bssplit=4k_50_64k_50.json" };
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	size_t n = 0;

	T_ASSERT(s);
	T_EQ_INT(lst_suite_estimate(s), 6 * LST_NS_PER_S);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_ASSERT(n < 6);
		T_EQ_STR(st.test, tests[n]);
		T_EQ_INT(st.w.bssplit.n[LST_DIR_WRITE], (n < 3 ? 0 : 2));
		s_result(&r, 1000, true, 1000);
		r.t_s = (double)n;
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, 6);
	lst_suite_finish(s, res, NULL);
	for (size_t i = 0; i < 2; i++) {
		char *path = lst_asprintf("%s/%s", lst_results_dir(res), files[i]);
		json_t *t = json_load_file(path, 0, NULL);

		T_ASSERT(t);
		T_EQ_STR(s_str(t, "value"), i ? "bssplit=4k/50:64k/50" : "bssplit=none");
		json_decref(t);
		free(path);
	}
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

/* DIRTH once per value: each value's grid, then its own histogram runs (picked from its own
 * grid), before the next value's grid; a file pair per value. */
static void s_check_dirth_values(void)
{
	lst_plan *p = s_plan("  - name: d\n    suite: snia-dirth\n"
			     "    sweep: {pattern: [zeros, random], jobs: [1, 2], iodepth: [1]}\n"
			     "    round: {duration: 1s}\n    steady: {window: 2, max_rounds: 2}\n"
			     "    dirth: {histogram: 2s}\n");
	static const char *const tests[] = { "dirth pattern=zeros", "histograms pattern=zeros",
					     "dirth pattern=random", "histograms pattern=random" };
	lst_results *res = s_results();
	lst_err err;
	lst_suite_run *s = lst_suite_new(p, 0, 1 << 30, &err);
	struct lst_step st;
	size_t at = 0, n = 0;

	T_ASSERT(s);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		/* 4 grid steps (2 rounds of 2 points), then 2 histogram runs, per value */
		at = n / 6 * 2 + (n % 6 >= 4);
		T_EQ_STR(st.test, tests[at]);
		T_EQ_INT(st.w.pattern, (at < 2 ? 0 : 100)); /* zeros, random */
		s_result(&r, (double)(1000 * st.w.jobs), true, (uint64_t)(1000 * st.w.jobs));
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, 12);
	T_ASSERT(lst_suite_finish(s, res, NULL));
	for (size_t v = 0; v < 2; v++) {
		char *path = lst_asprintf("%s/dirth-d-pattern=%s.json", lst_results_dir(res),
					  v ? "random" : "zeros");
		json_t *doc = json_load_file(path, 0, NULL);

		T_ASSERT(doc);
		T_EQ_INT(json_array_size(json_object_get(doc, "selected")), 2);
		json_decref(doc);
		free(path);
		path = lst_asprintf("%s/dirth-d-pattern=%s.csv", lst_results_dir(res),
				    v ? "random" : "zeros");
		T_ASSERT(access(path, R_OK) == 0);
		free(path);
	}
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	lst_plan_destroy(&p);
}

int main(void)
{
	int rc;

	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-suite.XXXXXX");
	T_ASSERT(mkdtemp(s_dir));
	s_check_steady_stop();
	s_check_max_rounds();
	s_check_iops_grid();
	s_check_wsat_capacity();
	s_check_hir();
	s_check_curve();
	s_check_precondition_and_purge();
	s_check_limits();
	s_check_stop_first();
	s_check_dirth();
	s_check_ecw();
	s_check_xsr();
	s_check_iops_values();
	s_check_xsr_values();
	s_check_dirth_values();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_dir);
		rc = system(cmd);
		(void)rc;
	}
	printf("suites: all checks passed\n");
	return 0;
}
