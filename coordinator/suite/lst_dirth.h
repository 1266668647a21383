/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DIRTH's choices over a demand-intensity grid (SNIA PTS, Demand Intensity / Response Time
 * Histogram), as pure functions so that they can be checked on made-up grids.
 *
 * A DIRTH run measures every thread count x queue depth point of its grid in rounds until the
 * heaviest point's IOPS is steady, then picks the points whose response times it looks at
 * closely: the maximum-IOPS point, the minimum-latency point and two points between them in
 * IOPS, and runs each of them once more, longer, for a response-time histogram. The histogram is
 * the run's latency histogram merged over every agent and path (never averaged percentiles), and
 * each percentile says whether enough I/Os stand behind it (lst_dirth_supported).
 */
#ifndef LST_DIRTH_H
#define LST_DIRTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The selected points, in the order the histograms run and the outputs list them. */
enum lst_dirth_pick {
	LST_DIRTH_MAX,	    /* the grid point with the highest IOPS */
	LST_DIRTH_MID_HIGH, /* nearest two thirds of the way from the min point's IOPS to max's */
	LST_DIRTH_MID_LOW,  /* nearest one third of the way */
	LST_DIRTH_MIN,	    /* the grid point with the lowest mean response time */
	LST_DIRTH_NPICKS,
};
extern const char *const lst_dirth_pick_names[]; /* "max", "mid-high", "mid-low", "min" */

#define LST_DIRTH_NONE ((size_t)-1)

/* One grid point as the selection sees it: its steady-state window averages. */
struct lst_dirth_point {
	double iops;
	double lat_mean_us;
};

/*
 * Pick the points of a grid of n points (n >= 1): out[pick] is an index into p, or
 * LST_DIRTH_NONE for a mid point when the grid has no point left that is neither max nor min (a
 * point is picked once). Ties go to the earlier point. Returns how many points were picked.
 */
size_t lst_dirth_select(const struct lst_dirth_point *p, size_t n, size_t out[LST_DIRTH_NPICKS]);

/*
 * Does a run of ios I/Os support percentile pct (like 99.999)? lockstep's rule for the
 * confidence of a tail percentile: at least 10 I/Os lie above it, so a five-nines response time
 * needs 1,000,000 I/Os and a single slow I/O cannot make it alone.
 */
bool lst_dirth_supported(uint64_t ios, double pct);

/* The I/Os percentile pct needs to be supported (lst_dirth_supported). */
uint64_t lst_dirth_ios_needed(double pct);

#endif
