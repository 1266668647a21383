/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tail attribution, the maths: which path, agent and direction, and which intervals, made the
 * slowest I/Os of one point, from the stored latency histograms alone.
 *
 * A point's thresholds come from the histogram of every agent, path and direction merged: its
 * p99 and p99.9 (nearest rank, the bucket's midpoint, as every percentile of the results), and
 * a fixed limit when the caller gives one. An I/O *exceeds* a threshold when it is above it. A
 * histogram knows latencies to a bucket only, so a threshold is a *cut*: every bucket above the
 * threshold's bucket counts whole, and a fraction of the threshold's own bucket counts, the same
 * fraction for every path, so that the paths' exceedances add up to the point's. For a
 * percentile the fraction makes the point's exceedances exactly the I/Os ranked after the
 * percentile's rank (the 0.1% slowest for the p99.9: count - ceil(0.999 x count)); for a limit
 * it is the part of the bucket's range above the limit (the range clipped to the merged
 * histogram's exact min and max), the bucket taken as evenly filled. Counts are therefore
 * fractional. Values past the buckets (overflow) count as one more bucket at the top.
 *
 * Where: each path's exceedances per interval. A path's *hot* intervals are those holding at
 * least twice its mean per interval of the point (and at least one I/O); when together they
 * hold at least LST_TAIL_CONCENTRATED_PCT of its exceedances, its tail is concentrated there,
 * shown as ranges ("intervals 3-5"); else it has none (a few busier intervals of a tail spread
 * out are noise). Two paths that each hold at least
 * LST_TAIL_MAJOR_PCT of the exceedances and whose hot intervals overlap had their tails at the
 * same moments: a cause they share (the drive, the array) rather than one host, HBA or port.
 *
 * Use: lst_tail_new, lst_tail_add_total for every histogram of the point (pass one), then
 * lst_tail_add for each path's and direction's histogram of each interval (pass two), then
 * lst_tail_finish and the results. Not thread-safe; pure: no I/O.
 */
#ifndef LST_TAIL_H
#define LST_TAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_hist.h"
#include "lst_sample.h"

#define LST_TAIL_MAX_TH 3	      /* p99, p99.9 and the limit */
#define LST_TAIL_RANGES 4	      /* hot ranges kept per path */
#define LST_TAIL_MAJOR_PCT 10.	      /* a share that counts in the verdict */
#define LST_TAIL_HOT_FACTOR 2.	      /* a hot interval: at least this times the path's mean */
#define LST_TAIL_CONCENTRATED_PCT 50. /* of a path's exceedances its hot intervals must hold */
#define LST_TAIL_SPAN_MAX (1L << 22)  /* intervals of one point: 48 days at 1 s */

/* A threshold as a cut through histograms: buckets above `bucket` count whole, `frac` of
 * bucket `bucket` counts (LST_HIST_NBUCKETS: the overflow values). */
struct lst_tail_cut {
	uint64_t ns; /* the threshold itself: a percentile's value, or the limit */
	unsigned bucket;
	double frac;
};

/* The cut of percentile pct (0 < pct < 100) of merged (not empty): its I/Os above it are those
 * ranked after the percentile's rank. */
struct lst_tail_cut lst_tail_cut_pct(const lst_hist *merged, double pct);

/* The cut of a limit ns in merged: the part of its bucket's range above ns, clipped to merged's
 * min and max; nothing when merged's max is not above ns. */
struct lst_tail_cut lst_tail_cut_at(const lst_hist *merged, uint64_t ns);

/* The I/Os of h above cut c (fractional); 0 for an empty histogram. */
double lst_tail_exceed(const lst_hist *h, const struct lst_tail_cut *c);

/* Where a threshold's exceedances were, as a whole. */
enum lst_tail_verdict {
	LST_TAIL_NONE,	 /* no I/O above it */
	LST_TAIL_SPREAD, /* no path's tail is concentrated in some intervals */
	LST_TAIL_ALONE,	 /* concentrated on paths whose hot intervals no other shares */
	LST_TAIL_SHARED, /* two paths or more had theirs in the same intervals */
};

/* A run of hot intervals, first to last inclusive. */
struct lst_tail_range {
	long first, last;
};

/* One path's, agent's or direction's part of a threshold's exceedances. */
struct lst_tail_share {
	char who[160]; /* "b:/dev/sdc", "b", "read" */
	double ios;    /* its exceedances (fractional: see above) */
	double pct;    /* of the threshold's */
	/* paths only: the hot intervals where its tail is concentrated, the first LST_TAIL_RANGES
	 * runs of them (nranges may be more; 0: not concentrated), what part of the path's
	 * exceedances the hot intervals hold (whether concentrated or not), and the other major
	 * paths whose concentrated hot intervals overlap them ("a:/dev/sdb, c:/dev/sdd"; "" when
	 * none) */
	size_t nranges;
	struct lst_tail_range ranges[LST_TAIL_RANGES];
	double hot_pct;
	char also[256];
};

/* A threshold of a point and its attribution, valid after lst_tail_finish. */
struct lst_tail_th {
	const char *name; /* "p99", "p99.9", "limit" */
	struct lst_tail_cut cut;
	double ios; /* the exceedances, every path's summed */
	size_t npaths, nagents;
	struct lst_tail_share *paths, *agents; /* most exceedances first */
	struct lst_tail_share dirs[LST_DIR_N]; /* read, write, most first */
	enum lst_tail_verdict verdict;
};

typedef struct lst_tail lst_tail;

/* A point's attribution with limit_ns as its third threshold (0: none). Never NULL. */
lst_tail *lst_tail_new(uint64_t limit_ns);

/* Frees *p and nulls it; safe on NULL and twice. */
void lst_tail_destroy(lst_tail **p);

/* Pass one, before any lst_tail_add: add h to the point's merged histogram (any split of the
 * point's I/Os, each added once). */
void lst_tail_add_total(lst_tail *t, const lst_hist *h);

/*
 * Pass two: h is what path `path` of agent `agent` (both copied; path NULL: the agent's only)
 * did in direction dir (LST_DIR_READ, LST_DIR_WRITE) in interval k. The thresholds are set from
 * the merged histogram at the first call. Returns 0, or -E2BIG with err when the point's
 * intervals would span more than LST_TAIL_SPAN_MAX, -EINVAL for a k below 0 (from a file: said,
 * never asserted).
 */
int lst_tail_add(lst_tail *t, const char *agent, const char *path, int dir, long k,
		 const lst_hist *h, lst_err *err);

/* Compute shares, hot intervals and verdicts; call once, after the last lst_tail_add. */
void lst_tail_finish(lst_tail *t);

/* The thresholds (p99, p99.9, then the limit when given), borrowed from t; 0 of them when the
 * point had no histogram added. */
size_t lst_tail_nth(const lst_tail *t);
const struct lst_tail_th *lst_tail_th(const lst_tail *t, size_t i);

/* The intervals the point's samples span: first to last inclusive; false when none. */
bool lst_tail_span(const lst_tail *t, long *first, long *last);

/* Path p's (lst_tail_th's paths[] order is by share, this is by first sight: use the name)
 * exceedances of threshold i in interval k. */
size_t lst_tail_npaths(const lst_tail *t);
const char *lst_tail_path_name(const lst_tail *t, size_t p);
double lst_tail_at(const lst_tail *t, size_t i, size_t p, long k);

/* "3-5, 9, 12-14" of a share's ranges (", ..." when it has more than kept) into buf. */
void lst_tail_ranges_text(const struct lst_tail_share *s, char *buf, size_t size);

/* "shared", "alone", "spread", "none". */
const char *lst_tail_verdict_name(enum lst_tail_verdict v);

#endif
