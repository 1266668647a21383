/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A trend's maths (docs/catalog.md, "Trends"): runs grouped by a key (firmware, kernel,
 * version, date), each group's spread as a band, and each run judged against the band of the
 * other runs of its group, so that one bad run cannot widen the band that judges it:
 *
 *   band of a group     mean +/- 3 sample standard deviations of its runs
 *   band judging a run  the same over the group's runs other than it, when there are at least
 *                       LST_TREND_MIN_OTHERS of them (else the run is not judged)
 *
 * A run below its band is a regression when a higher value is better (IOPS, MB/s) and an
 * improvement otherwise (latency), and the reverse above it. Pure maths: no I/O.
 */
#ifndef LST_CATTREND_H
#define LST_CATTREND_H

#include <stdbool.h>
#include <stddef.h>

#define LST_TREND_SDS 3.0
#define LST_TREND_MIN_OTHERS 3

enum lst_trend_flag {
	LST_TREND_UNJUDGED,    /* too few other runs in its group, or no value */
	LST_TREND_IN,	       /* inside its band */
	LST_TREND_REGRESSION,  /* outside, worse */
	LST_TREND_IMPROVEMENT, /* outside, better */
};

struct lst_trend_group {
	const char *key;		   /* borrowed from the caller's keys */
	size_t n;			   /* its runs with a value */
	double mean, sd, min, max, lo, hi; /* sd 0 and the band a point with one run */
};

struct lst_trend_run {
	size_t group;	      /* index into groups */
	double value, lo, hi; /* the band that judged it (NAN when unjudged) */
	enum lst_trend_flag flag;
};

struct lst_trend {
	size_t ngroups;
	struct lst_trend_group *groups; /* in the key's order (cmp) */
	struct lst_trend_run *runs;	/* one per input run, in input order */
};

/*
 * Group n runs by keys[i] (NULL: the group "") with values vals[i] (NAN: no value: grouped,
 * counted in no figure, unjudged), groups ordered by cmp. Fills t (lst_trend_exit frees it).
 */
void lst_trend_init(struct lst_trend *t, const char *const *keys, const double *vals, size_t n,
		    bool higher_is_better, int (*cmp)(const char *a, const char *b));
/* Free what t holds (not the keys it borrows) and zero it. */
void lst_trend_exit(struct lst_trend *t);

/* "regression", "improvement", "in band", "unjudged". */
const char *lst_trend_flag_name(enum lst_trend_flag f);

#endif
