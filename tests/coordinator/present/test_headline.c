/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Headline figures of latency-vs-IOPS curves (lst_figures_headlines, lst_report_headline.c) on a
 * hand-made results folder: run.json, empty summary.csv, summary.json and timeseries.csv, a plan.yaml
 * with a curve limit, and curves.csv with known points, written here. Every expected figure is
 * worked out by hand in the comments: linear interpolation of latency against IOPS between the
 * last point under the limit and the first point over it,
 *
 *     iops = iops_under + (limit - lat_under) * (iops_over - iops_under) / (lat_over - lat_under)
 *
 * Run as `test_headline --write DIR` it only writes the folder (tests/integration/report/headline.sh
 * reads it with `lockstep report`).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_report_curves.h"
#include "lst_figures.h"
#include "lst_report.h"
#include "lst_report_plan.h"
#include "lst_test.h"
#include "lst_util.h"

static const char s_plan[] = "lockstep: 1\n"
			     "name: headline\n"
			     "agents:\n"
			     "  - {name: a, address: \"tcp://198.18.0.1:7270\"}\n"
			     "targets:\n"
			     "  - name: t0\n"
			     "    paths: {a: /dev/null}\n"
			     "phases:\n"
			     "  - name: lat\n"
			     "    workload: {rw: randrw, rwmixread: 70, bs: 4k, runtime: 10s}\n"
			     "    sweep: {jobs: [1, 2], iodepth: [1, 2, 4, 8, 16]}\n"
			     "    curve: {limit_percentile: 99, limit: 800us}\n"
			     "  - name: under\n"
			     "    workload: {rw: randread, bs: 4k, runtime: 10s}\n"
			     "    sweep: {iodepth: [1, 2]}\n"
			     "  - name: over\n"
			     "    workload: {rw: randread, bs: 4k, runtime: 10s}\n"
			     "    sweep: {iodepth: [1, 2]}\n";

static const char s_run[] =
	"{\"format\": 1, \"run_id\": \"20261201T000000Z-hl01\", \"plan_name\": \"headline\",\n"
	" \"status\": \"complete\", \"started\": \"2026-12-01T00:00:00.000000Z\",\n"
	" \"finished\": \"2026-12-01T00:10:00.000000Z\", \"agents\": [], \"targets\": [],\n"
	" \"phases\": [], \"errors\": []}\n";

static const char s_summary[] =
	"phase,point,label,agent,t_s,duration_s,read_iops,write_iops,read_mbps,write_mbps,"
	"lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us,read_ios,"
	"write_ios,read_bytes,write_bytes,errors\n";

static const char s_ts[] = "phase,point,interval,t_s,agent,read_iops,write_iops,read_mbps,"
			   "write_mbps,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,"
			   "lat_p99_99_us,lat_max_us\n";

/*
 * phase lat, 4 KiB 70/30, two curves (rows out of order, to be sorted by demand):
 *
 *   jobs=1   QD   IOPS    p99   p99.9  p99.99
 *             1   10000   200    300    1100     p99.99 over from the first point: NAN
 *             2   20000   400    600    1500
 *             4   30000   800    900    2000     p99:   30000 + 200 * 6000 / 800 = 31500
 *             8   36000  1600   1200    3000     p99.9: 30000 + 100 * 6000 / 300 = 32000
 *            16   38000  3200   2400    6000
 *
 *   jobs=2    1   18000   300    400     500
 *             2   34000   500    700     900     p99.99: 34000 + 100 * 16000 / 600
 *             4   50000   700   1000    1500             = 36666.67
 *             8   60000   900   1400    2500     p99.9: QD 4 is at the limit: 50000 measured
 *            16   62000   950   2000    4000     p99: never over: 62000, all under
 *
 * and a row per path of each (scope path) that must not change the combined figures.
 * phase under: one curve, every point under 1 ms; phase over: every point over; phase single:
 * two curves (4 and 8 KiB) of one point each, no headline; phase big: 128 KiB reads, every
 * point over 1 ms as large blocks are, whose headline is its highest MB/s (1179.648 at QD 4).
 */
static const char s_curves[] =
	"phase,point,jobs,iodepth,bs,rwmixread,iops,mbps,lat_mean_us,lat_p99_us,lat_p99_9_us,"
	"lat_p99_99_us,rate_iops,target_pct,scope,agent,target,path\n"
	"lat,1,1,8,4096,70,36000,147.456,400,1600,1200,3000,0,0,all,all,,\n"
	"lat,1,1,8,4096,70,18000,73.728,400,1600,1200,3000,0,0,path,a,t0,\"/dev/sdb\"\n"
	"lat,1,1,8,4096,70,18000,73.728,400,9999,9999,9999,0,0,path,a,t0,\"/dev/sdc\"\n"
	"lat,2,1,1,4096,70,10000,40.96,50,200,300,1100,0,0,all,all,,\n"
	"lat,2,1,1,4096,70,5000,20.48,50,200,300,1100,0,0,path,a,t0,\"/dev/sdb\"\n"
	"lat,2,1,1,4096,70,5000,20.48,50,200,300,1100,0,0,path,a,t0,\"/dev/sdc\"\n"
	"lat,3,1,2,4096,70,20000,81.92,100,400,600,1500,0,0,all,all,,\n"
	"lat,4,1,4,4096,70,30000,122.88,200,800,900,2000,0,0,all,all,,\n"
	"lat,5,1,16,4096,70,38000,155.648,800,3200,2400,6000,0,0,all,all,,\n"
	"lat,6,2,1,4096,70,18000,73.728,60,300,400,500,0,0,all,all,,\n"
	"lat,7,2,2,4096,70,34000,139.264,110,500,700,900,0,0,all,all,,\n"
	"lat,8,2,4,4096,70,50000,204.8,150,700,1000,1500,0,0,all,all,,\n"
	"lat,9,2,8,4096,70,60000,245.76,260,900,1400,2500,0,0,all,all,,\n"
	"lat,10,2,16,4096,70,62000,253.952,500,950,2000,4000,0,0,all,all,,\n"
	"under,1,1,1,4096,100,15000,61.44,60,100,150,200,0,0,all,all,,\n"
	"under,2,1,2,4096,100,25000,102.4,70,150,250,400,0,0,all,all,,\n"
	"over,1,1,1,4096,100,15000,61.44,600,1500,2000,3000,0,0,all,all,,\n"
	"over,2,1,2,4096,100,25000,102.4,900,2500,4000,5000,0,0,all,all,,\n"
	"single,1,1,1,4096,100,15000,61.44,60,100,150,200,0,0,all,all,,\n"
	"single,2,1,1,8192,100,12000,98.304,70,150,250,400,0,0,all,all,,\n"
	"big,1,1,1,131072,100,5000,655.36,190,1500,2000,3000,0,0,all,all,,\n"
	"big,2,1,4,131072,100,9000,1179.648,440,2500,4000,5000,0,0,all,all,,\n";

static void s_write(const char *dir, const char *name, const char *text)
{
	char *path = lst_asprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (!f)
		T_FAIL("cannot write %s", path);
	T_ASSERT(fputs(text, f) >= 0);
	T_ASSERT(!fclose(f));
	free(path);
}

static void s_write_folder(const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		T_FAIL("cannot create %s", dir);
	s_write(dir, "plan.yaml", s_plan);
	s_write(dir, "run.json", s_run);
	s_write(dir, "summary.csv", s_summary);
	s_write(dir, "summary.json", "{\"points\": [], \"tests\": []}\n");
	s_write(dir, "timeseries.csv", s_ts);
	s_write(dir, "curves.csv", s_curves);
}

static char s_dir[64];

/* At exit, also after a failed assertion: the folder goes. */
static void s_rm(void)
{
	const char *dir = s_dir;
	const char *names[] = { "plan.yaml",	"run.json",	  "summary.csv",
				"summary.json", "timeseries.csv", "curves.csv" };

	for (size_t i = 0; i < LST_ARRAY_SIZE(names); i++) {
		char *path = lst_asprintf("%s/%s", dir, names[i]);

		unlink(path);
		free(path);
	}
	rmdir(dir);
}

static void s_two_curves(const lst_report *r)
{
	struct lst_headline *hl;
	size_t n = lst_figures_headlines(r, "lat", 1000, &hl);

	T_EQ_INT(n, 2);
	T_EQ_STR(hl[0].phase, "lat");
	T_EQ_STR(hl[0].curve, "jobs=1");
	T_EQ_STR(hl[1].curve, "jobs=2");
	T_EQ_INT(hl[0].npoints, 5);
	T_EQ_INT(hl[1].npoints, 5);
	T_NEAR(hl[0].limit_us, 1000, 0);

	/* jobs=1, p99: between QD 4 (30000, 800) and QD 8 (36000, 1600): 31500 */
	T_NEAR(hl[0].iops[LST_HL_P99], 31500, 1e-6);
	T_ASSERT(hl[0].interpolated[LST_HL_P99] && !hl[0].all_under[LST_HL_P99]);
	T_EQ_STR(hl[0].below[LST_HL_P99], "QD 4");
	T_EQ_STR(hl[0].above[LST_HL_P99], "QD 8");
	/* jobs=1, p99.9: between QD 4 (30000, 900) and QD 8 (36000, 1200): 32000 */
	T_NEAR(hl[0].iops[LST_HL_P99_9], 32000, 1e-6);
	T_ASSERT(hl[0].interpolated[LST_HL_P99_9]);
	/* jobs=1, p99.99: 1100 us at QD 1 already */
	T_ASSERT(isnan(hl[0].iops[LST_HL_P99_99]));
	T_ASSERT(!hl[0].interpolated[LST_HL_P99_99] && !hl[0].all_under[LST_HL_P99_99]);
	T_EQ_STR(hl[0].above[LST_HL_P99_99], "QD 1");

	/* jobs=2, p99: never over: the highest measured, 62000 at QD 16 */
	T_NEAR(hl[1].iops[LST_HL_P99], 62000, 0);
	T_ASSERT(hl[1].all_under[LST_HL_P99] && !hl[1].interpolated[LST_HL_P99]);
	T_EQ_STR(hl[1].below[LST_HL_P99], "QD 16");
	/* jobs=2, p99.9: exactly 1000 us at QD 4, over at QD 8: the measured 50000 */
	T_NEAR(hl[1].iops[LST_HL_P99_9], 50000, 0);
	T_ASSERT(!hl[1].interpolated[LST_HL_P99_9] && !hl[1].all_under[LST_HL_P99_9]);
	T_EQ_STR(hl[1].below[LST_HL_P99_9], "QD 4");
	/* jobs=2, p99.99: between QD 2 (34000, 900) and QD 4 (50000, 1500): 34000 + 100 *
	 * 16000 / 600 = 36666.67 */
	T_NEAR(hl[1].iops[LST_HL_P99_99], 34000 + 100.0 * 16000 / 600, 1e-6);
	T_ASSERT(hl[1].interpolated[LST_HL_P99_99]);
	T_EQ_STR(hl[1].below[LST_HL_P99_99], "QD 2");
	T_EQ_STR(hl[1].above[LST_HL_P99_99], "QD 4");
	free(hl);

	/* The plan's limit, 800 us: jobs=1's p99 is 800 at QD 4 (not over), 1600 at QD 8: the
	 * measured 30000; jobs=2's p99 crosses between QD 4 (50000, 700) and QD 8 (60000, 900):
	 * 50000 + 100 * 10000 / 200 = 55000 */
	n = lst_figures_headlines(r, "lat", lst_figures_default_limit(r, "lat"), &hl);
	T_EQ_INT(n, 2);
	T_NEAR(hl[0].limit_us, 800, 0);
	T_NEAR(hl[0].iops[LST_HL_P99], 30000, 0);
	T_ASSERT(!hl[0].interpolated[LST_HL_P99]);
	T_NEAR(hl[1].iops[LST_HL_P99], 55000, 1e-6);
	T_ASSERT(hl[1].interpolated[LST_HL_P99]);
	free(hl);
}

static void s_one_curve(const lst_report *r)
{
	struct lst_headline *hl;
	size_t n = lst_figures_headlines(r, "under", 1000, &hl);

	/* every point under: 25000, the highest measured, for each percentile */
	T_EQ_INT(n, 1);
	T_EQ_STR(hl[0].curve, "");
	for (int s = 0; s < LST_HL_N; s++) {
		T_NEAR(hl[0].iops[s], 25000, 0);
		T_ASSERT(hl[0].all_under[s] && !hl[0].interpolated[s]);
	}
	free(hl);

	/* every point over: NAN for each percentile */
	n = lst_figures_headlines(r, "over", 1000, &hl);
	T_EQ_INT(n, 1);
	for (int s = 0; s < LST_HL_N; s++) {
		T_ASSERT(isnan(hl[0].iops[s]));
		T_ASSERT(!hl[0].all_under[s] && !hl[0].interpolated[s]);
	}
	free(hl);

	/* the default limit without a plan limit, and a phase with no curve */
	T_NEAR(lst_figures_default_limit(r, "under"), 1000, 0);
	T_NEAR(lst_figures_default_limit(r, "nosuch"), 1000, 0);
	T_EQ_INT(lst_figures_headlines(r, "nosuch", 1000, &hl), 0);
	free(hl);
	T_EQ_INT(lst_figures_headlines(r, "single", 1000, &hl), 0);
	free(hl);
}

/* Large blocks: the highest MB/s, where, and its p99; no IOPS under a latency limit. */
static void s_bandwidth(const lst_report *r)
{
	struct lst_headline *hl;
	char text[256];

	T_EQ_INT(lst_figures_headlines(r, "big", 1000, &hl), 1);
	T_ASSERT(hl[0].bandwidth);
	T_NEAR(hl[0].mbps, 1179.648, 1e-9);
	T_NEAR(hl[0].mbps_p99_us, 2500, 0);
	T_EQ_STR(hl[0].mbps_at, "QD 4");
	for (int s = 0; s < LST_HL_N; s++)
		T_ASSERT(isnan(hl[0].iops[s]));
	T_EQ_STR(lst_headline_text(&hl[0], text, sizeof(text)),
		 "MB/s: 1,180 (the highest measured, QD 4; p99 there 2500 us)");
	free(hl);
	/* 4 KiB curves stay latency headlines */
	T_EQ_INT(lst_figures_headlines(r, "under", 1000, &hl), 1);
	T_ASSERT(!hl[0].bandwidth);
	free(hl);
}

/* The loader keeps the path rows apart: 2 of them per path row written. */
static void s_parts(const lst_report *r)
{
	T_EQ_INT(r->ncurves, 18);
	T_EQ_INT(r->ncurve_parts, 4);
	T_EQ_STR(r->curve_parts[0].scope, "path");
	T_EQ_STR(r->curve_parts[0].agent, "a");
	T_EQ_STR(r->curve_parts[0].target, "t0");
	T_EQ_STR(r->curve_parts[0].path, "/dev/sdb");
	T_EQ_STR(r->curve_parts[1].path, "/dev/sdc");
}

int main(int argc, char **argv)
{
	lst_report *r;
	lst_err err;

	if (argc == 3 && !strcmp(argv[1], "--write")) {
		s_write_folder(argv[2]);
		return 0;
	}
	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-headline.%d", (int)getpid());
	atexit(s_rm);
	s_write_folder(s_dir);
	r = lst_report_load(s_dir, lst_report_plan_read, &err);
	if (!r)
		T_FAIL("lst_report_load: %s", err.msg);
	s_parts(r);
	s_two_curves(r);
	s_one_curve(r);
	s_bandwidth(r);
	lst_report_destroy(&r);
	printf("ok\n");
	return 0;
}
