/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A suite's memory over many rounds (flat memory on a day-long run). A plain phase of
 * two points is run for 2,000 rounds that never reach steady state, on synthetic results (no
 * agents): the suite must hold no more than points x (window + 1) results whatever the number of
 * rounds, the process's resident memory must not grow with them (one result is three
 * histograms, about 48 KB: keeping every round would add about 190 MB here), and curves.csv must
 * still average exactly the last window's rounds. Then a sweep of 1,024 points, each run once:
 * what each keeps until its curves.csv row (histograms encoded) must not add 48 KB a point.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_plan.h"
#include "lst_results.h"
#include "lst_suite.h"
#include "lst_test.h"
#include "lst_time.h"

#define ROUNDS 2000
#define WINDOW 5
#define POINTS 2

static char s_dir[64];

static lst_plan *s_plan(const char *phases)
{
	char text[8192];
	lst_errlist errs = { 0 };
	lst_plan *p;

	snprintf(text, sizeof(text),
		 "lockstep: 1\nname: t\nagents:\n  - {name: a, address: \"tcp://127.0.0.1:1\"}\n"
		 "targets:\n  - {name: d, paths: {a: /dev/null}}\nphases:\n%s",
		 phases);
	p = lst_plan_parse(text, strlen(text), "test.yaml", &errs);

	if (!p) {
		lst_errlist_print(&errs, stderr);
		T_FAIL("plan does not parse");
	}
	return p;
}

/* Round r's IOPS and latency (ns) at point i: alternating, so never steady. */
static double s_iops(size_t r, size_t i)
{
	return (r % 2 ? 100.0 : 300.0) * (double)(i + 1);
}

static uint64_t s_lat(size_t r)
{
	return 1000 + 10 * (uint64_t)r;
}

static void s_result(struct lst_step_result *res, size_t r, size_t i)
{
	double iops = s_iops(r, i);

	memset(res, 0, sizeof(*res));
	lst_hist_init(&res->lat);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&res->lat_dir[d]);
	res->seconds = 1;
	res->t_s = (double)r;
	res->iops[LST_DIR_WRITE] = iops;
	res->ios[LST_DIR_WRITE] = (uint64_t)iops;
	res->bytes[LST_DIR_WRITE] = (uint64_t)iops * 4096;
	res->mbps[LST_DIR_WRITE] = iops * 4096 / 1e6;
	lst_hist_record_n(&res->lat, s_lat(r), (uint64_t)iops);
	lst_hist_record_n(&res->lat_dir[LST_DIR_WRITE], s_lat(r), (uint64_t)iops);
}

/* This process's resident memory in kB (VmRSS), 0 when /proc does not say. */
static long s_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/* curves.csv's rows in dir: the "iops" and "lat_mean_us" cells of point i's row. */
static void s_curve_row(const char *dir, size_t i, double *iops, double *lat_us)
{
	char path[256], line[4096];
	int c_iops = -1, c_lat = -1, c_point = -1;
	FILE *f;
	bool found = false;

	snprintf(path, sizeof(path), "%s/curves.csv", dir);
	f = fopen(path, "r");
	T_ASSERT(f);
	T_ASSERT(fgets(line, sizeof(line), f));
	{
		int c = 0;

		for (char *tok = strtok(line, ",\n"); tok; tok = strtok(NULL, ",\n"), c++) {
			if (!strcmp(tok, "iops"))
				c_iops = c;
			else if (!strcmp(tok, "lat_mean_us"))
				c_lat = c;
			else if (!strcmp(tok, "point"))
				c_point = c;
		}
	}
	T_ASSERT(c_iops >= 0 && c_lat >= 0 && c_point >= 0);
	while (!found && fgets(line, sizeof(line), f)) {
		char *cells[64];
		int n = 0;

		for (char *q = line, *tok; n < 64 && (tok = strsep(&q, ",\n"));)
			cells[n++] = tok;
		T_ASSERT(n > c_iops && n > c_lat && n > c_point);
		if ((size_t)strtoull(cells[c_point], NULL, 10) != i)
			continue;
		*iops = strtod(cells[c_iops], NULL);
		*lat_us = strtod(cells[c_lat], NULL);
		found = true;
	}
	fclose(f);
	if (!found)
		T_FAIL("curves.csv has no row for point %zu", i);
}

/* A sweep of 32 x 32 points, each run once (no rounds): flat memory, a curves.csv row each. */
static void s_check_sweep(void)
{
	char phases[1024], dir[128];
	size_t n = 0, steps = 0;
	lst_plan *p;
	lst_results *res;
	lst_suite_run *s;
	struct lst_step st;
	lst_err err;
	long rss0 = 0, rss1;
	double iops, lat;

	n += (size_t)snprintf(phases, sizeof(phases),
			      "  - name: sweep\n    workload: {rw: randwrite, runtime: 1s}\n"
			      "    sweep: {jobs: [1");
	for (int j = 2; j <= 32; j++)
		n += (size_t)snprintf(phases + n, sizeof(phases) - n, ", %d", j);
	n += (size_t)snprintf(phases + n, sizeof(phases) - n, "], iodepth: [1");
	for (int q = 2; q <= 32; q++)
		n += (size_t)snprintf(phases + n, sizeof(phases) - n, ", %d", q);
	snprintf(phases + n, sizeof(phases) - n, "]}\n");
	p = s_plan(phases);
	snprintf(dir, sizeof(dir), "%s/sweep", s_dir);
	res = lst_results_new(dir, &err);
	if (!res)
		T_FAIL("%s", err.msg);
	s = lst_suite_new(p, 0, 1ull << 40, &err);
	T_ASSERT(s);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;

		T_EQ_INT(st.round, 0);
		s_result(&r, steps, steps % 2);
		lst_suite_result(s, &st, &r, res);
		if (++steps == 64)
			rss0 = s_rss_kb();
	}
	T_EQ_INT(steps, 32 * 32);
	T_EQ_INT(lst_suite_kept(s), 32 * 32);
	T_ASSERT(lst_suite_finish(s, res, NULL));
	rss1 = s_rss_kb();
	printf("suite memory: a sweep of %zu points, VmRSS %ld kB after 64, %ld kB at the end\n",
	       steps, rss0, rss1);
	/* Under ASan the bound on results held above is the check; its quarantine grows RSS. */
	if (!LST_TEST_ASAN && rss0 > 0 && rss1 - rss0 > 8 * 1024)
		T_FAIL("resident memory grew by %ld kB over %zu points", rss1 - rss0, steps - 64);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);
	/* The last point's row: its own round's figures, exactly. */
	s_curve_row(dir, steps - 1, &iops, &lat);
	if (fabs(iops - s_iops(steps - 1, (steps - 1) % 2)) > 1e-3 ||
	    fabs(lat - (double)s_lat(steps - 1) / 1e3) > 1e-3)
		T_FAIL("sweep: curves.csv says %.3f IOPS, %.3f us for the last point", iops, lat);
	lst_plan_destroy(&p);
}

/* The scratch folder goes on every exit, a failed check's too (T_FAIL exits). */
static void s_cleanup(void)
{
	char cmd[128];
	int rc;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_dir);
	rc = system(cmd);
	(void)rc;
}

int main(void)
{
	char dir[128];
	lst_plan *p;
	lst_results *res;
	lst_suite_run *s;
	struct lst_step st;
	lst_err err;
	size_t steps = 0;
	long rss0 = 0, rss1;

	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-suitemem.XXXXXX");
	T_ASSERT(mkdtemp(s_dir));
	atexit(s_cleanup);
	snprintf(dir, sizeof(dir), "%s/r", s_dir);
	p = s_plan("  - name: long\n    workload: {rw: randwrite}\n    sweep: {iodepth: [1, 2]}\n"
		   "    round: {duration: 1s}\n    steady: {window: 5, max_rounds: 2000}\n");
	res = lst_results_new(dir, &err);
	if (!res)
		T_FAIL("%s", err.msg);
	s = lst_suite_new(p, 0, 1ull << 40, &err);
	T_ASSERT(s);
	while (lst_suite_next(s, &st)) {
		struct lst_step_result r;
		size_t round = steps / POINTS, i = steps % POINTS;

		T_EQ_INT(st.round, round + 1);
		T_EQ_INT(st.index, i);
		s_result(&r, round, i);
		lst_suite_result(s, &st, &r, res);
		steps++;
		if (lst_suite_kept(s) > POINTS * (WINDOW + 1))
			T_FAIL("round %zu: the suite holds %zu results, more than %d", round + 1,
			       lst_suite_kept(s), POINTS * (WINDOW + 1));
		if (steps == 100 * POINTS)
			rss0 = s_rss_kb();
	}
	T_EQ_INT(steps, ROUNDS * POINTS);
	T_ASSERT(!lst_suite_finish(s, res, NULL)); /* never steady: a finding */
	rss1 = s_rss_kb();
	printf("suite memory: %d rounds x %d points, %zu results held, VmRSS %ld kB after 100 "
	       "rounds, %ld kB at the end\n",
	       ROUNDS, POINTS, lst_suite_kept(s), rss0, rss1);
	/* Under ASan the bound on results held above is the check; its quarantine grows RSS. */
	if (!LST_TEST_ASAN && rss0 > 0 && rss1 - rss0 > 8 * 1024)
		T_FAIL("resident memory grew by %ld kB over %d rounds", rss1 - rss0, ROUNDS - 100);
	lst_suite_destroy(&s);
	lst_results_destroy(&res);

	/* curves.csv: each point averaged over the last WINDOW rounds, histograms merged. */
	for (size_t i = 0; i < POINTS; i++) {
		double iops = 0, lat_sum = 0, ios = 0, got_iops, got_lat;

		for (size_t r = ROUNDS - WINDOW; r < ROUNDS; r++) {
			iops += s_iops(r, i) / WINDOW;
			ios += s_iops(r, i);
			lat_sum += s_iops(r, i) * (double)s_lat(r);
		}
		s_curve_row(dir, i, &got_iops, &got_lat);
		if (fabs(got_iops - iops) > 1e-3 || fabs(got_lat - lat_sum / ios / 1e3) > 1e-3)
			T_FAIL("point %zu: curves.csv says %.3f IOPS, %.3f us; want %.3f, %.3f", i,
			       got_iops, got_lat, iops, lat_sum / ios / 1e3);
	}
	lst_plan_destroy(&p);
	s_check_sweep();
	printf("suite memory: flat, curves over the last window\n");
	return 0;
}
