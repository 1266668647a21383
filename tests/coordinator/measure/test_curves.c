/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The curves' maths (lst_curves_group, coordinator/measure) on hand-made points, linked with
 * measure and common alone: points of two thread counts given out of order become one curve
 * per thread count, sorted by demand and labelled by queue depth; a path's points make a curve
 * of their own; points of one depth are labelled by their target or rate; points of another
 * sweep axis (pattern) make one curve per value, named by it.
 */
#include <math.h>
#include <stdio.h>

#include "lst_curves.h"
#include "lst_test.h"

static struct lst_curve_flat s_pt(double jobs, double qd, double iops, double p99)
{
	struct lst_curve_flat f = { .agent = "", .path = "", .bs = 4096, .mix = 100 };

	f.p.jobs = jobs;
	f.p.iodepth = qd;
	f.p.order = jobs * qd;
	f.p.rate = f.p.target_pct = NAN;
	f.p.iops = iops;
	f.p.lat[LST_CV_P99] = p99;
	return f;
}

/* Two thread counts, three depths each, shuffled: two curves keyed by jobs, points by demand. */
static void s_test_jobs(void)
{
	struct lst_curve_flat fs[] = { s_pt(2, 4, 80e3, 300), s_pt(1, 1, 10e3, 90),
				       s_pt(2, 1, 20e3, 100), s_pt(1, 4, 35e3, 250),
				       s_pt(1, 2, 19e3, 120), s_pt(2, 2, 40e3, 150) };
	struct lst_curves cs = { 0 };
	bool jobs, bsmix;

	lst_curves_group("lat", fs, 6, &cs, &jobs, &bsmix);
	T_ASSERT(jobs);
	T_ASSERT(!bsmix);
	T_EQ_INT(cs.n, 2);
	T_NEAR(cs.c[0].jobs, 1, 0);
	T_NEAR(cs.c[1].jobs, 2, 0);
	T_EQ_STR(cs.c[0].phase, "lat");
	T_EQ_STR(cs.c[0].part, "");
	T_EQ_STR(cs.c[0].name, ""); /* the caller names curves */
	for (size_t i = 0; i < 2; i++) {
		T_EQ_INT(cs.c[i].n, 3);
		T_EQ_STR(cs.c[i].p[0].label, "QD 1");
		T_EQ_STR(cs.c[i].p[1].label, "QD 2");
		T_EQ_STR(cs.c[i].p[2].label, "QD 4");
	}
	T_NEAR(cs.c[0].p[2].iops, 35e3, 0);
	T_NEAR(cs.c[1].p[0].iops, 20e3, 0);
	T_ASSERT(!lst_curves_same(&cs.c[0], &cs.c[1]));
	T_ASSERT(lst_curves_same(&cs.c[1], &cs.c[1]));
	lst_curves_free(&cs);
	T_EQ_INT(cs.n, 0);
	T_ASSERT(!cs.c);
}

/* A path's points come after the combined curve; rates label points of one depth. */
static void s_test_paths_and_rates(void)
{
	struct lst_curve_flat fs[] = { s_pt(1, 8, 5e3, 80), s_pt(1, 8, 9e3, 95),
				       s_pt(1, 8, 4e3, 70), s_pt(1, 8, 7e3, 85) };
	struct lst_curves cs = { 0 };
	bool jobs, bsmix;

	fs[0].p.target_pct = 50; /* combined: by target */
	fs[1].p.target_pct = 100;
	fs[2].agent = fs[3].agent = "a"; /* a path's: by rate */
	fs[2].path = fs[3].path = "/dev/x";
	fs[2].p.rate = 2000;
	fs[3].p.rate = 4000;
	lst_curves_group("open", fs, 4, &cs, &jobs, &bsmix);
	T_ASSERT(!jobs);
	T_EQ_INT(cs.n, 2);
	T_EQ_STR(cs.c[0].part, "");
	T_EQ_STR(cs.c[1].part, "a:/dev/x");
	T_ASSERT(isnan(cs.c[0].jobs));
	T_EQ_STR(cs.c[0].p[0].label, "50%");
	T_EQ_STR(cs.c[0].p[1].label, "100%");
	T_EQ_STR(cs.c[1].p[0].label, "2000 IOPS");
	T_EQ_STR(cs.c[1].p[1].label, "4000 IOPS");
	lst_curves_free(&cs);
}

/* A pattern x iodepth sweep: one curve per pattern, its depths its points, in order. */
static void s_test_other_axes(void)
{
	struct lst_curve_flat fs[] = { s_pt(1, 1, 10e3, 90), s_pt(1, 4, 30e3, 200),
				       s_pt(1, 1, 12e3, 80), s_pt(1, 4, 36e3, 180) };
	struct lst_curves cs = { 0 };
	bool jobs, bsmix;

	snprintf(fs[0].axes, sizeof(fs[0].axes), "pattern=random");
	snprintf(fs[1].axes, sizeof(fs[1].axes), "pattern=random");
	snprintf(fs[2].axes, sizeof(fs[2].axes), "pattern=compressible=50");
	snprintf(fs[3].axes, sizeof(fs[3].axes), "pattern=compressible=50");
	lst_curves_group("comp", fs, 4, &cs, &jobs, &bsmix);
	T_ASSERT(!jobs);
	T_ASSERT(!bsmix);
	T_EQ_INT(cs.n, 2);
	T_EQ_STR(cs.c[0].axes, "pattern=compressible=50");
	T_EQ_STR(cs.c[1].axes, "pattern=random");
	for (size_t i = 0; i < 2; i++) {
		T_EQ_INT(cs.c[i].n, 2);
		T_EQ_STR(cs.c[i].p[0].label, "QD 1");
		T_EQ_STR(cs.c[i].p[1].label, "QD 4");
	}
	T_NEAR(cs.c[0].p[1].iops, 36e3, 0);
	T_NEAR(cs.c[1].p[1].iops, 30e3, 0);
	lst_curves_free(&cs);
}

int main(void)
{
	s_test_jobs();
	s_test_paths_and_rates();
	s_test_other_axes();
	printf("curves: ok\n");
	return 0;
}
