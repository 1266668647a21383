/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A trend's maths on values worked out by hand: groups in version order, each group's mean,
 * sample standard deviation and band (mean +/- 3 sd), each run judged by its group's other
 * runs (so a 30% drop is flagged although it widens its own group's band, and the runs beside
 * it are not), too small a group left unjudged, NAN values counted in no figure, and the
 * direction of a verdict following the figure (IOPS: lower is a regression; latency: higher).
 */
#include <math.h>
#include <string.h>

#include "lst_cattrend.h"
#include "lst_catwhere.h"
#include "lst_test.h"

static int s_fw_cmp(const char *a, const char *b)
{
	return lst_catwhere_cmp("firmware", a, b);
}

static void s_groups(void)
{
	/* B10 sorts after B9 as a version; B9: 98, 100, 102, 100 and a drop to 70 */
	const char *keys[] = { "B10", "B9", "B9", "B9", "B9", "B9", "B10" };
	const double v[] = { 50, 98, 100, 102, 100, 70, NAN };
	struct lst_trend t;

	lst_trend_init(&t, keys, v, 7, true, s_fw_cmp);
	T_EQ_INT(t.ngroups, 2);
	T_EQ_STR(t.groups[0].key, "B9");
	T_EQ_STR(t.groups[1].key, "B10");
	/* B9: mean 94, sd sqrt((16 + 36 + 64 + 36 + 576) / 4) = sqrt(182) */
	T_EQ_INT(t.groups[0].n, 5);
	T_NEAR(t.groups[0].mean, 94, 1e-9);
	T_NEAR(t.groups[0].sd, sqrt(182.0), 1e-9);
	T_NEAR(t.groups[0].lo, 94 - 3 * sqrt(182.0), 1e-9);
	T_NEAR(t.groups[0].min, 70, 0);
	T_NEAR(t.groups[0].max, 102, 0);
	/* B10: one value (the NAN counts in nothing): sd 0, band a point, nobody judged */
	T_EQ_INT(t.groups[1].n, 1);
	T_NEAR(t.groups[1].sd, 0, 0);
	T_EQ_INT(t.runs[0].flag, LST_TREND_UNJUDGED);
	T_EQ_INT(t.runs[6].flag, LST_TREND_UNJUDGED);
	T_EQ_INT(t.runs[0].group, 1);
	T_EQ_INT(t.runs[1].group, 0);
	/* the drop, against 98, 100, 102, 100: mean 100, sd sqrt(8/3) */
	T_EQ_INT(t.runs[5].flag, LST_TREND_REGRESSION);
	T_NEAR(t.runs[5].lo, 100 - 3 * sqrt(8.0 / 3), 1e-9);
	T_NEAR(t.runs[5].hi, 100 + 3 * sqrt(8.0 / 3), 1e-9);
	/* 102 against 98, 100, 100, 70: the drop widens its band, it stays in */
	for (int i = 1; i <= 4; i++)
		T_EQ_INT(t.runs[i].flag, LST_TREND_IN);
	lst_trend_exit(&t);
}

static void s_direction(void)
{
	const char *keys[] = { "x", "x", "x", "x", "x" };
	const double lat[] = { 100, 101, 99, 100, 130 }, fast[] = { 100, 101, 99, 100, 70 };
	struct lst_trend t;

	lst_trend_init(&t, keys, lat, 5, false, s_fw_cmp);
	T_EQ_INT(t.runs[4].flag, LST_TREND_REGRESSION); /* latency up */
	lst_trend_exit(&t);
	lst_trend_init(&t, keys, fast, 5, false, s_fw_cmp);
	T_EQ_INT(t.runs[4].flag, LST_TREND_IMPROVEMENT); /* latency down */
	lst_trend_exit(&t);
	lst_trend_init(&t, keys, lat, 5, true, s_fw_cmp);
	T_EQ_INT(t.runs[4].flag, LST_TREND_IMPROVEMENT); /* IOPS up */
	T_EQ_STR(lst_trend_flag_name(t.runs[4].flag), "improvement");
	T_EQ_STR(lst_trend_flag_name(t.runs[0].flag), "in band");
	lst_trend_exit(&t);
}

static void s_few(void)
{
	/* three runs: each has two others, fewer than LST_TREND_MIN_OTHERS */
	const char *keys[] = { "x", "x", "x" };
	const double v[] = { 100, 100, 10 };
	struct lst_trend t;

	lst_trend_init(&t, keys, v, 3, true, s_fw_cmp);
	for (int i = 0; i < 3; i++) {
		T_EQ_INT(t.runs[i].flag, LST_TREND_UNJUDGED);
		T_ASSERT(isnan(t.runs[i].lo));
	}
	lst_trend_exit(&t);
	lst_trend_init(&t, keys, v, 0, true, s_fw_cmp);
	T_EQ_INT(t.ngroups, 0);
	lst_trend_exit(&t);
}

int main(void)
{
	s_groups();
	s_direction();
	s_few();
	return 0;
}
