/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SLO search against made-up responses: the bracketing and bisection alone (a device whose
 * limit holds up to a knee and breaks above it), then the whole suite on synthetic step results,
 * whose probes, curves.csv rows and slo-PHASE.json must say the same search.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_plan.h"
#include "lst_results.h"
#include "lst_scratch.h"
#include "lst_suite.h"
#include "lst_suite_slo.h"
#include "lst_test.h"
#include "lst_time.h"
#include "lst_util.h"

/* Run a search against a device whose limit holds up to knee; the loads probed into seen. */
static size_t s_search(struct lst_slo_search *s, int64_t knee, int64_t *seen, size_t cap)
{
	size_t n = 0;
	int64_t v;

	while (lst_slo_search_next(s, &v)) {
		T_ASSERT(n < cap);
		seen[n++] = v;
		lst_slo_search_feed(s, v <= knee);
	}
	return n;
}

static void s_check_sequence(const int64_t *want, size_t nwant, const int64_t *got, size_t ngot)
{
	T_EQ_INT(ngot, nwant);
	for (size_t i = 0; i < nwant; i++)
		T_EQ_INT(got[i], want[i]);
}

/* The plan's bracket holds the knee: one probe each end, then bisection to within 5%. */
static void s_check_bisection(void)
{
	static const int64_t want[] = { 1000, 3000, 2000, 2500, 2250, 2125, 2062 };
	struct lst_slo_search s;
	int64_t seen[64];
	size_t n;

	lst_slo_search_init(&s, 1000, 3000, 100000000, 5, 8);
	n = s_search(&s, 2000, seen, 64);
	s_check_sequence(want, LST_ARRAY_SIZE(want), seen, n);
	T_EQ_INT(s.stop, LST_SLO_WITHIN);
	T_EQ_INT(lst_slo_search_answer(&s), 2000);
	T_EQ_INT(s.hi, 2062);
}

/* The knee above high: doubling brackets it; max_probes ends the bisection, answer measured. */
static void s_check_bracket_up(void)
{
	static const int64_t want[] = { 10, 20, 40, 80, 160, 120, 100, 110 };
	struct lst_slo_search s;
	int64_t seen[64];
	size_t n;

	lst_slo_search_init(&s, 10, 20, 100000000, 5, 8);
	n = s_search(&s, 100, seen, 64);
	s_check_sequence(want, LST_ARRAY_SIZE(want), seen, n);
	T_EQ_INT(s.stop, LST_SLO_MAX_PROBES);
	T_EQ_INT(lst_slo_search_answer(&s), 100);
}

/* The knee below low: halving brackets it; an integer bracket one wide is as narrow as it gets. */
static void s_check_bracket_down(void)
{
	static const int64_t want[] = { 100, 50, 25, 37, 31, 28, 29, 30 };
	static const int64_t none[] = { 100, 50, 25, 12, 6, 3, 1 };
	struct lst_slo_search s;
	int64_t seen[64];
	size_t n;

	lst_slo_search_init(&s, 100, 200, 100000000, 5, 8);
	n = s_search(&s, 30, seen, 64);
	s_check_sequence(want, LST_ARRAY_SIZE(want), seen, n);
	T_EQ_INT(s.stop, LST_SLO_WITHIN);
	T_EQ_INT(lst_slo_search_answer(&s), 30);
	/* nothing meets the limit: down to a load of one, then no answer */
	lst_slo_search_init(&s, 100, 200, 100000000, 5, 20);
	n = s_search(&s, 0, seen, 64);
	s_check_sequence(none, LST_ARRAY_SIZE(none), seen, n);
	T_EQ_INT(s.stop, LST_SLO_LOW_FAILS);
	T_EQ_INT(lst_slo_search_answer(&s), -1);
	/* everything meets it: doubling stops at the largest load the option allows */
	lst_slo_search_init(&s, 1, 2, 5, 5, 20);
	n = s_search(&s, 1000, seen, 64);
	T_EQ_INT(n, 4);
	T_EQ_INT(seen[3], 5);
	T_EQ_INT(s.stop, LST_SLO_TOP_MEETS);
	T_EQ_INT(lst_slo_search_answer(&s), 5);
}

/* Any knee: the answer is a probe that met the limit, never above the knee, and within the
 * percent of it whenever the search says so. */
static void s_check_any_knee(void)
{
	for (int64_t knee = 1; knee < 20000; knee += 37) {
		struct lst_slo_search s;
		int64_t seen[64], a;
		size_t n;
		bool probed = false;

		lst_slo_search_init(&s, 500, 4000, 100000000, 5, 64);
		n = s_search(&s, knee, seen, 64);
		a = lst_slo_search_answer(&s);
		T_ASSERT(s.stop == LST_SLO_WITHIN);
		T_ASSERT(a <= knee && a >= 1);
		T_ASSERT((double)a >= 0.95 * (double)knee - 1);
		for (size_t i = 0; i < n; i++)
			probed = probed || seen[i] == a;
		T_ASSERT(probed);
	}
}

/* A synthetic result of iops I/Os in 1 s, all at 500 us when ok, else all at 40 ms. */
static void s_made_up(struct lst_step_result *r, double iops, bool ok)
{
	memset(r, 0, sizeof(*r));
	lst_hist_init(&r->lat);
	lst_hist_init(&r->lat_dir[0]);
	lst_hist_init(&r->lat_dir[1]);
	r->seconds = 1;
	r->iops[1] = iops;
	r->ios[1] = (uint64_t)iops;
	r->bytes[1] = (uint64_t)iops * 4096;
	lst_hist_record_n(&r->lat, ok ? 500000 : 40000000, (uint64_t)iops);
	lst_hist_copy(&r->lat_dir[1], &r->lat);
}

/* A synthetic target: 500 us at p99.9 up to 2000 IOPS, 40 ms above (open loop past the knee). */
static void s_result(struct lst_step_result *r, int64_t rate)
{
	s_made_up(r, (double)LST_MIN(rate, 2000), rate <= 2000);
}

static json_t *s_load_json(const char *dir, const char *name)
{
	char *path = lst_asprintf("%s/%s", dir, name);
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);

	if (!doc)
		T_FAIL("%s: %s", path, jerr.text);
	free(path);
	return doc;
}

/* Lines of a file that start with prefix. */
static size_t s_rows(const char *dir, const char *name, const char *prefix)
{
	char *path = lst_asprintf("%s/%s", dir, name), line[4096];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	T_ASSERT(f);
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, prefix, strlen(prefix));
	fclose(f);
	free(path);
	return n;
}

/* The suite: each probe is a step whose rate the last result decided; the outputs agree. */
static void s_check_suite(void)
{
	static const char text[] =
		"lockstep: 1\nname: t\nagents:\n  - {name: a, address: \"tcp://127.0.0.1:1\"}\n"
		"targets:\n  - {name: d, paths: {a: /dev/null}}\nphases:\n"
		"  - name: knee\n    suite: slo\n    workload: {rw: randwrite, jobs: 2}\n"
		"    round: {duration: 1s}\n"
		"    slo: {percentile: 99.9, limit: 2ms, low: 1000, high: 3000}\n";
	static const int64_t want[] = { 1000, 3000, 2000, 2500, 2250, 2125, 2062 };
	lst_errlist errs = { 0 };
	lst_plan *p = lst_plan_parse(text, strlen(text), "slo.yaml", &errs);
	char *dir = lst_asprintf("%s/r", lst_scratch("suite_slo"));
	lst_err err;
	lst_results *res = lst_results_new(dir, &err);
	lst_suite_run *s;
	struct lst_step st;
	size_t n = 0;
	json_t *doc, *probes, *answer;

	if (!p) {
		lst_errlist_print(&errs, stderr);
		T_FAIL("plan does not parse");
	}
	T_ASSERT(res);
	s = lst_suite_new(p, 0, 1 << 30, &err);
	T_ASSERT(s);
	T_EQ_INT(lst_suite_estimate(s), 8 * LST_NS_PER_S);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;
		char label[64];

		T_ASSERT(n < LST_ARRAY_SIZE(want));
		T_EQ_INT(st.w.rate_iops, want[n]);
		T_EQ_INT(st.w.runtime, LST_NS_PER_S);
		snprintf(label, sizeof(label), "probe %zu rate_iops=%lld", n + 1,
			 (long long)want[n]);
		T_EQ_STR(st.label, label);
		s_result(&r, st.w.rate_iops);
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, LST_ARRAY_SIZE(want));
	lst_suite_finish(s, res, NULL);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	/* every probe is a curves.csv point and a rounds.csv row */
	T_EQ_INT(s_rows(dir, "curves.csv", "knee,"), 7);
	T_EQ_INT(s_rows(dir, "rounds.csv", "knee,"), 7);
	doc = s_load_json(dir, "slo-knee.json");
	probes = json_object_get(doc, "probes");
	T_EQ_INT(json_array_size(probes), 7);
	T_EQ_STR(json_string_value(json_object_get(doc, "stop_reason")), "within");
	T_EQ_STR(json_string_value(json_object_get(doc, "over")), "rate");
	T_EQ_INT(json_integer_value(json_object_get(doc, "bracket_lo")), 2000);
	T_EQ_INT(json_integer_value(json_object_get(doc, "bracket_hi")), 2062);
	answer = json_object_get(doc, "answer");
	T_EQ_INT(json_integer_value(json_object_get(answer, "value")), 2000);
	T_EQ_INT(json_integer_value(json_object_get(answer, "point")), 2);
	T_NEAR(json_real_value(json_object_get(answer, "iops")), 2000, 1e-9);
	T_ASSERT(json_is_false(json_object_get(json_array_get(probes, 1), "met")));
	T_ASSERT(json_is_true(json_object_get(json_array_get(probes, 2), "met")));
	/* the bracket after probe 4 (2500 broke the limit, 2000 held it) */
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(probes, 3), "bracket_lo")),
		 2000);
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(probes, 3), "bracket_hi")),
		 2500);
	json_decref(doc);
	free(dir);
	lst_plan_destroy(&p);
}

/* Over iodepth: each probe sets the queue depth of every job, and one slot is as narrow as a
 * bracket gets. The made-up target keeps its latency up to 12 in flight per job. */
static void s_check_suite_iodepth(void)
{
	static const char text[] =
		"lockstep: 1\nname: t\nagents:\n  - {name: a, address: \"tcp://127.0.0.1:1\"}\n"
		"targets:\n  - {name: d, paths: {a: /dev/null}}\nphases:\n"
		"  - name: qd\n    suite: slo\n    workload: {rw: randread, rate_iops: 5000}\n"
		"    round: {duration: 1s}\n"
		"    slo: {limit: 1ms, over: iodepth, low: 1, high: 64}\n";
	static const int64_t want[] = { 1, 64, 32, 16, 8, 12, 14, 13 };
	lst_errlist errs = { 0 };
	lst_plan *p = lst_plan_parse(text, strlen(text), "slo.yaml", &errs);
	char *dir = lst_asprintf("%s/qd", lst_scratch("suite_slo"));
	lst_err err;
	lst_results *res = lst_results_new(dir, &err);
	lst_suite_run *s;
	struct lst_step st;
	size_t n = 0;
	json_t *doc;

	T_ASSERT(p && res);
	s = lst_suite_new(p, 0, 1 << 30, &err);
	T_ASSERT(s);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_ASSERT(n < LST_ARRAY_SIZE(want));
		T_EQ_INT(st.w.iodepth, want[n]);
		/* the workload's own rate stays: a queue-depth search under a set load */
		T_EQ_INT(st.w.rate_iops, 5000);
		s_made_up(&r, 5000, st.w.iodepth <= 12);
		lst_suite_result(s, &st, &r, res);
		n++;
	}
	T_EQ_INT(n, LST_ARRAY_SIZE(want));
	lst_suite_finish(s, res, NULL);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	doc = s_load_json(dir, "slo-qd.json");
	T_EQ_STR(json_string_value(json_object_get(doc, "over")), "iodepth");
	T_EQ_STR(json_string_value(json_object_get(doc, "stop_reason")), "within");
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(doc, "answer"), "value")), 12);
	T_EQ_STR(json_string_value(json_object_get(json_object_get(doc, "answer"), "label")),
		 "probe 6 iodepth=12");
	json_decref(doc);
	free(dir);
	lst_plan_destroy(&p);
}

int main(void)
{
	s_check_bisection();
	s_check_bracket_up();
	s_check_bracket_down();
	s_check_any_knee();
	s_check_suite();
	s_check_suite_iodepth();
	printf("slo search: all checks passed\n");
	return 0;
}
