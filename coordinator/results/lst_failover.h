/*
 * The failover window of one path (or agent) in one point (issue 13): the intervals where its
 * completions fell below a fraction of its own pre-fault median IOPS.
 *
 * The baseline is the median IOPS of the measured intervals before the first that fell below
 * (each interval from the second on is judged against the median of those before it). At least
 * LST_FAILOVER_MIN_BASE of them are needed: a path that drops earlier, before its normal rate is
 * known, has no window. The window runs from the first interval below
 * to the last, bridging a gap of at most one interval above; a longer gap closes it, and later
 * drops are not looked at (one window per point). Its I/Os and latency histogram are those of
 * the intervals below only; its oldest in-flight age the largest of the window's intervals
 * (bridged ones included).
 *
 * Rows are fed as they are written. Memory: the baseline's IOPS (one double per interval before
 * the drop, sorted as they come) and one histogram for the window: intervals above the threshold
 * keep nothing else.
 */
#ifndef LST_FAILOVER_H
#define LST_FAILOVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_sample.h"

#define LST_FAILOVER_MIN_BASE 3
#define LST_FAILOVER_BELOW_DEFAULT 0.5 /* the plan's `failover: {below: 50%}` */

struct lst_failover_window {
	int64_t first_k, last_k;   /* intervals, first and last below */
	double start_t_s, end_t_s; /* start of the first, end of the last */
	uint64_t ios;		   /* completions (both directions) of the intervals below */
	lst_hist lat;		   /* their merged latency, both directions */
	int64_t oldest_inflight_ns;
};

struct lst_failover {
	double below; /* fraction of the baseline median */
	double *base; /* baseline IOPS, sorted */
	size_t nbase, cap;
	bool open;   /* a window has started */
	bool closed; /* and ended: no more judging */
	int gap;     /* intervals above since the last one below (window open) */
	int64_t gap_oldest_ns;
	struct lst_failover_window w;
};

/* Start a detector with the given fraction (0 < below < 1). */
void lst_failover_init(struct lst_failover *f, double below);
void lst_failover_free(struct lst_failover *f);

/* One measured interval k of the row, starting t_s (run seconds) and lasting dur_s > 0. */
void lst_failover_add(struct lst_failover *f, int64_t k, double t_s, double dur_s,
		      const lst_sample *s);

/* The window, or NULL when there is none. Borrowed, valid until the next add or free. */
const struct lst_failover_window *lst_failover_window(const struct lst_failover *f);

/* summary.json's `failover`: {start_t_s, end_t_s, duration_s, ios, lat: {...},
 * oldest_inflight_us}, or JSON null without a window. New reference. */
json_t *lst_failover_json(const struct lst_failover *f);

#endif
