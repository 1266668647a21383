/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_figures_balance on a hand-made results folder: two agents and three paths, shares of the
 * point's I/Os worked out by hand (rate x own measured time, over the sum of the parts), a point
 * where one agent ran half the time, a point with a single agent (no balance), and a caller's
 * array shorter than the parts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_figures.h"
#include "lst_test.h"

static char s_dir[] = "/tmp/lst-balance-XXXXXX";

static void s_write(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", s_dir, name);
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs(text, f);
	T_ASSERT(!fclose(f));
}

static void s_cleanup(void)
{
	const char *names[] = { "run.json", "summary.csv", "timeseries.csv" };
	char path[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", s_dir, names[i]);
		unlink(path);
	}
	rmdir(s_dir);
}

#define S_HEAD                                                                                     \
	"phase,point,label,agent,t_s,duration_s,read_iops,write_iops,read_mbps,write_mbps,"        \
	"lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us,read_ios,"        \
	"write_ios,read_bytes,write_bytes,errors,test,round,scope,target,path\n"
/* A row: phase p, point n, agent, duration, read and write IOPS, p99, scope, target, path. */
#define S_ROW(n, agent, dur, rd, wr, p99, scope, target, path)                                     \
	"p," #n ",\"\"," #agent ",0," #dur "," #rd "," #wr ",1,1,10,10," #p99 ",1,1,1,0,0,0,0,"    \
	"0,\"points\",0," #scope "," #target ",\"" path "\"\n"

/* clang-format off */
static const char s_summary[] = S_HEAD
	/* point 0: a 40000 I/Os, b 60000; paths 40000, 20000, 40000 */
	S_ROW(0, all, 10, 8000, 2000, 300, all, , "")
	S_ROW(0, a, 10, 3000, 1000, 250, agent, , "")
	S_ROW(0, b, 10, 5000, 1000, 350, agent, , "")
	S_ROW(0, all, 10, 8000, 2000, 300, target, t1, "")
	S_ROW(0, a, 10, 3000, 1000, 250, path, t1, "/dev/x")
	S_ROW(0, b, 10, 1500, 500, 320, path, t1, "/dev/y")
	S_ROW(0, b, 10, 3500, 500, 380, path, t1, "/dev/z")
	/* point 1: b ran 5 s of 10: a 40000 I/Os, b 30000 */
	S_ROW(1, all, 10, 7000, 0, 400, all, , "")
	S_ROW(1, a, 10, 4000, 0, 410, agent, , "")
	S_ROW(1, b, 5, 6000, 0, 390, agent, , "")
	/* point 2: one agent */
	S_ROW(2, all, 10, 1000, 0, 100, all, , "")
	S_ROW(2, a, 10, 1000, 0, 100, agent, , "");
/* clang-format on */

static const struct lst_rpt_point *s_point(const lst_report *r, long point)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (r->points[i].point == point && !strcmp(r->points[i].agent, "all"))
			return &r->points[i];
	T_FAIL("no point %ld", point);
}

int main(void)
{
	struct lst_balance_item b[4];
	lst_err err = { 0 };
	lst_report *r;

	T_ASSERT(mkdtemp(s_dir));
	atexit(s_cleanup);
	s_write("run.json", "{\"format\": 1, \"run_id\": \"balance\"}\n");
	s_write("summary.csv", s_summary);
	s_write("timeseries.csv", "phase,point,interval,t_s,agent,read_iops,write_iops,read_mbps,"
				  "write_mbps,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,"
				  "lat_p99_99_us,lat_max_us,scope,target,path\n");
	r = lst_report_load(s_dir, NULL, &err);
	if (!r)
		T_FAIL("lst_report_load: %s", err.msg);

	/* agents of point 0: 40000 / 100000 and 60000 / 100000 */
	T_EQ_INT(lst_figures_balance(r, s_point(r, 0), false, b, 4), 2);
	T_EQ_STR(b[0].who, "a");
	T_EQ_STR(b[1].who, "b");
	T_NEAR(b[0].share_pct, 40.0, 1e-9);
	T_NEAR(b[1].share_pct, 60.0, 1e-9);
	T_NEAR(b[0].iops, 4000, 1e-9);
	T_NEAR(b[1].p99_us, 350, 1e-9);

	/* paths of point 0 (the target row is not a path): 40%, 20%, 40% */
	T_EQ_INT(lst_figures_balance(r, s_point(r, 0), true, b, 4), 3);
	T_EQ_STR(b[0].who, "a:/dev/x");
	T_EQ_STR(b[1].who, "b:/dev/y");
	T_EQ_STR(b[2].who, "b:/dev/z");
	T_NEAR(b[0].share_pct, 40.0, 1e-9);
	T_NEAR(b[1].share_pct, 20.0, 1e-9);
	T_NEAR(b[2].share_pct, 40.0, 1e-9);
	T_NEAR(b[2].iops, 4000, 1e-9);
	T_NEAR(b[2].p99_us, 380, 1e-9);

	/* room for two of three: the count is all of them, the shares still of the whole */
	memset(b, 0, sizeof(b));
	T_EQ_INT(lst_figures_balance(r, s_point(r, 0), true, b, 2), 3);
	T_NEAR(b[1].share_pct, 20.0, 1e-9);
	T_EQ_STR(b[2].who, "");
	T_EQ_INT(lst_figures_balance(r, s_point(r, 0), true, NULL, 0), 3);

	/* point 1: b's rate over its own 5 s: 40000 / 70000 and 30000 / 70000 */
	T_EQ_INT(lst_figures_balance(r, s_point(r, 1), false, b, 4), 2);
	T_NEAR(b[0].share_pct, 100.0 * 4 / 7, 1e-9);
	T_NEAR(b[1].share_pct, 100.0 * 3 / 7, 1e-9);
	/* no path rows for point 1, one agent in point 2: no balance */
	T_EQ_INT(lst_figures_balance(r, s_point(r, 1), true, b, 4), 0);
	T_EQ_INT(lst_figures_balance(r, s_point(r, 2), false, b, 4), 0);

	lst_report_destroy(&r);
	printf("balance: ok\n");
	return 0;
}
