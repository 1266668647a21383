/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The figures a lab quotes, computed once for the text report, `report --json` and the HTML
 * report (which must agree): the headline figures of latency-vs-IOPS curves, and how the agents
 * or paths of a point shared its work.
 *
 *   lst_figures_headlines  (lst_headline.c) for every curve of a phase (one per thread count,
 *                          or block size x mix): the highest IOPS at which p99, p99.9 and
 *                          p99.99 stay under a latency limit, interpolated between measured
 *                          points and marked as such; for large blocks, the highest MB/s
 *   lst_figures_balance    (lst_balance.c) a point's share of I/Os and p99 per agent or path
 */
#ifndef LST_FIGURES_H
#define LST_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_report.h"

/* The percentiles a headline is given for, in this order. */
enum lst_headline_stat { LST_HL_P99, LST_HL_P99_9, LST_HL_P99_99, LST_HL_N };
extern const char *const lst_headline_stat_names[LST_HL_N]; /* "p99", "p99.9", "p99.99" */

/* One curve's headline figures. */
struct lst_headline {
	const char *phase; /* borrowed from the report */
	char curve[128];   /* which curve of the phase: "jobs=2", "bs=4k 70/30"; "" if only one */
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

/*
 * The headline figures of every latency-vs-IOPS curve of phase (curves.csv's rows for it, else
 * its plain points), for limit_us (> 0). *out gets a new array (the caller frees it) of the
 * curves in the order the plots draw them. Returns their number; 0 (and *out NULL) when the
 * phase has no curve of 2 points or more (a curve of one point gets no headline).
 */
size_t lst_figures_headlines(const lst_report *r, const char *phase, double limit_us,
			     struct lst_headline **out);

/*
 * The latency limit a phase's headlines use when the user gives none: the plan's `curve:
 * limit` for the phase when it has one (run.json's plan text), else 1000 us (the 1 ms lab
 * figure).
 */
double lst_figures_default_limit(const lst_report *r, const char *phase);

/* One agent's or one path's part of a point. */
struct lst_balance_item {
	char who[160];	     /* "a", or "a:/dev/sdb" */
	double share_pct;    /* of the point's I/Os (both directions) */
	double iops, p99_us; /* its own */
};

/*
 * How the agents (paths false) or the paths (paths true) of point p (a combined row of
 * r->points) shared it: up to max items into out, in file order. Returns how many there are
 * (0 when the point has fewer than 2 such rows).
 */
size_t lst_figures_balance(const lst_report *r, const struct lst_rpt_point *p, bool paths,
			   struct lst_balance_item *out, size_t max);

#endif
