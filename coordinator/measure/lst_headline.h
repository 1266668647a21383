/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Headline figures of a latency-vs-IOPS curve, the maths: the highest IOPS at which p99, p99.9
 * and p99.99 stay under a latency limit, interpolated between measured points and marked as
 * such, or for a bandwidth curve the highest MB/s measured. Pure: a curve (lst_curves.h) in,
 * numbers out. The report's headlines (coordinator/present/lst_report_headline.c) choose the
 * limit, name the curves and say the figures.
 */
#ifndef LST_HEADLINE_H
#define LST_HEADLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_curves.h"

/* The percentiles a headline is given for, in this order. */
enum lst_headline_stat { LST_HL_P99, LST_HL_P99_9, LST_HL_P99_99, LST_HL_N };
extern const char *const lst_headline_stat_names[LST_HL_N]; /* "p99", "p99.9", "p99.99" */

/* One curve's headline figures. */
struct lst_headline {
	const char *phase; /* the curve's phase, set and lent by the caller */
	char curve[128];   /* set by the caller: which curve of the phase, "jobs=2"; "" if one */
	double limit_us;   /* the limit the figures are for */
	/* per stat: the highest IOPS with that percentile under the limit; NAN when even the
	 * lowest point is over it */
	double iops[LST_HL_N];
	/* per stat: iops lies between two measured points (linear interpolation of latency
	 * against IOPS, at the crossing); false when it is a measured point */
	bool interpolated[LST_HL_N];
	/* per stat: every measured point is under the limit: iops is the highest measured, a
	 * lower bound of the real figure */
	bool all_under[LST_HL_N];
	/* per stat: the measured points the figure comes from, as the plot labels them ("QD
	 * 16"): when interpolated, the last point under the limit and the first over it; else
	 * the point itself in below ("" when NAN or unlabelled) */
	char below[LST_HL_N][32], above[LST_HL_N][32];
	size_t npoints; /* measured points on the curve */
	/*
	 * A bandwidth curve (block size >= 64 KiB, or a sequential phase whose block size is not
	 * known): what a lab quotes is its MB/s, so iops[] stays NAN and the figure is the
	 * highest MB/s measured, at the point mbps_at ("QD 8", "" when unlabelled), whose p99 is
	 * mbps_p99_us.
	 */
	bool bandwidth;
	double mbps, mbps_p99_us;
	char mbps_at[32];
};

/* A bandwidth curve, whose headline is its MB/s: block size bs (bytes) of 64 KiB or more, or
 * unknown (NAN) in a sequential phase. */
bool lst_headline_is_bandwidth(double bs, bool sequential);

/*
 * The figures of curve c (its points in order of demand, as lst_curves_group sorts them) for
 * limit_us (> 0) into h: limit_us, npoints, and per statistic iops, interpolated, all_under,
 * below and above; a bandwidth curve's mbps, mbps_p99_us and mbps_at instead (bandwidth, iops
 * all NAN). Points without a finite IOPS or latency are skipped. h's phase and curve are the
 * caller's and left as they are.
 */
void lst_headline_figures(const struct lst_curve *c, double limit_us, bool bandwidth,
			  struct lst_headline *h);

#endif
