/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency-vs-IOPS curves, the maths: measured points grouped into curves, one per thread count
 * when the points' jobs vary, and per block size x mix (and per path for per-path points),
 * sorted and labelled as the plots draw them and the headline figures (lst_headline.h) read
 * them. Pure: points in, curves out, no file and no report model; where the points come from
 * (curves.csv, a plain phase's summary) and how a curve is named are the presentation's
 * (coordinator/present/lst_report_curves.h).
 */
#ifndef LST_CURVES_H
#define LST_CURVES_H

#include <stdbool.h>
#include <stddef.h>

/* The latency statistics of a curve point, in the plots' column order. */
enum lst_curve_stat { LST_CV_MEAN, LST_CV_P99, LST_CV_P99_9, LST_CV_P99_99, LST_CV_N };

/* One measured point. */
struct lst_curve_pt {
	double jobs, iodepth; /* NAN when unknown */
	double order;	      /* demand: jobs x iodepth (the point's number when unknown) */
	double rate;	      /* the requested rate, NAN for closed loop */
	double target_pct;    /* of the curve's maximum rate, NAN when none */
	double iops, mbps;
	double lat[LST_CV_N]; /* us */
	double lat_dir[2];    /* read, write p99 (us); NAN without such I/O or in older folders */
	char label[32];	      /* how the plot labels it: "QD 8" (depths differ), "50%" (rate), "" */
};

/* One curve: the points of a (path,) block size, mix (and thread count), in order of demand. */
struct lst_curve {
	const char *phase;
	char part[192];	      /* "" for the combined curves; "a:/dev/sdb" for a path's */
	double bs, mix, jobs; /* jobs NAN when the phase's jobs do not vary (not a key) */
	char axes[160];	      /* the point's other sweep values, "" when none: "pattern=zeros" */
	char name[160];	      /* the legend's, set by the caller: "jobs=2", "4 KiB R/W 70/30" */
	struct lst_curve_pt *p;
	size_t n;
};

struct lst_curves {
	struct lst_curve *c;
	size_t n;
	bool from_summary; /* set by the caller: the points are a plain phase's summary points */
};

/* One measured point with what keys its curve, before grouping. */
struct lst_curve_flat {
	const char *agent, *path; /* "" for combined points; copied into the curve's part */
	double bs, mix;		  /* block size (bytes) and read %, NAN when unknown */
	char axes[160];		  /* sweep values that are no curve coordinate, or "" */
	struct lst_curve_pt p;
};

/*
 * The points fs[n] of phase grouped into curves appended to cs (phase is borrowed by them): a
 * curve per (agent:path,) block size and mix, per value of the other sweep axes (axes), and per
 * thread count when more than one finite
 * thread count appears (*jobs true; else each curve's jobs is NAN). The curves added are sorted
 * by path, block size (small first), mix (reads first) and thread count, their points by demand
 * (jobs x iodepth), then requested rate, then IOPS, and each point is labelled: its queue depth
 * where the curve's depths differ ("QD 8"), else its target or rate ("50%", "2000 IOPS"), else
 * "". *bsmix: more than one block size x mix among the points. The curves' names are left
 * empty for the caller, who knows how its report speaks of them.
 */
void lst_curves_group(const char *phase, const struct lst_curve_flat *fs, size_t n,
		      struct lst_curves *cs, bool *jobs, bool *bsmix);

/* Same key (phase, part, block size, mix, other sweep values, thread count). */
bool lst_curves_same(const struct lst_curve *x, const struct lst_curve *y);

/* Frees cs's curves and their points, and leaves it empty. */
void lst_curves_free(struct lst_curves *cs);

#endif
