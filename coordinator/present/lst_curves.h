/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency-vs-IOPS curves of a phase, as the plots draw them and the headline figures
 * (lst_figures.h) read them: one curve per thread count when the phase's jobs vary, and per
 * block size x mix; for per-path curves, one per path as well. Internal to the presentation library
 * (the plots, the headlines and the report share it, so they speak of the same curves).
 */
#ifndef LST_CURVES_H
#define LST_CURVES_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_report.h"

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
	char name[160];	      /* the legend's: "jobs=2", "4 KiB R/W 70/30", "a:/dev/sdb jobs=2" */
	struct lst_curve_pt *p;
	size_t n;
};

struct lst_curves {
	struct lst_curve *c;
	size_t n;
	bool from_summary; /* the points are summary.csv's (a plain phase without curves.csv) */
};

/*
 * The curves of phase into cs (appended; sorted): paths false, the combined ones (curves.csv
 * rows of scope all, or a plain phase's summary points); paths true, those of curves.csv's
 * rows of scope path. Returns the number of points added. A phase that sweeps `ports` has
 * none: its points are port sets, not rising demand, and a line through them would read as a
 * curve (the ports plot draws them as bars).
 */
size_t lst_curves_phase(const lst_report *r, const char *phase, bool paths, struct lst_curves *cs);

/* Same key (phase, part, block size, mix, thread count). */
bool lst_curves_same(const struct lst_curve *x, const struct lst_curve *y);

void lst_curves_free(struct lst_curves *cs);

/*
 * The limit the headlines of phase use: the user's (r->headline_limit_us), the plan's curve
 * limit, else 1000 us. *from (may be NULL) gets "option" (report --limit), "plan" or "default".
 */
double lst_headline_limit(const lst_report *r, const char *phase, const char **from);

/* A limit as people say it: "1 ms", "500 us", "1.5 ms". Returns buf. */
const char *lst_headline_limit_text(double us, char *buf, size_t size);

struct lst_headline;

/*
 * A curve's headline figures as the text report prints them: "IOPS at p99 < 1 ms: 182,400
 * (interpolated between QD 16 and QD 32); p99.9: ...; p99.99: ..."; a bandwidth curve's
 * "MB/s: 7,928 (the highest measured, QD 8; p99 there 2179 us)". Returns buf.
 */
const char *lst_headline_text(const struct lst_headline *h, char *buf, size_t size);

#endif
