/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drops of one path (or agent) in one point, and which of them are failover windows: the
 * intervals where its completions fell below a fraction of its own median IOPS before them,
 * judged by the evidence of a path fault in or next to them.
 *
 * A drop is a *window*: the baseline is the median IOPS of the measured intervals before it that
 * were in no window (each interval from the second on is judged against the median of those
 * before it). At least LST_FAILOVER_MIN_BASE of them are needed before the first window: a path
 * that drops earlier, before its normal rate is known, has none. A window runs from the first
 * interval below to the last, bridging a gap of at most one interval above; a longer gap closes
 * it and the intervals above go on into the baseline, so a later drop makes a window of its own
 * (at most LST_FAILOVER_WINDOWS_MAX per point). Its I/Os and latency histogram are those of the
 * intervals below only; its oldest in-flight age the largest of the window's intervals (bridged
 * ones included).
 *
 * A window is a *failover window* only with evidence of a path fault in or next to it, that is
 * in its intervals, the interval before it or the one after it: an I/O that completed with an
 * error, an I/O timeout (the workload's io_timeout), an I/O in flight at an interval's end for
 * LST_FAILOVER_STALL_NS or a whole interval, whichever is longer (a stall), or an event of the
 * plan (a hook run at an instant of the point) that ran within one interval of it. A window
 * without any of these is a *throughput dip*: a device that slowed down on its own (garbage
 * collection, a throttle), which is data, not a fault.
 *
 * Rows are fed as they are written; events as they are reported, before or after the rows of
 * their time. Memory: the baseline's IOPS (one double per interval, sorted as they come), one
 * histogram per window and one mark per event.
 */
#ifndef LST_FAILOVER_H
#define LST_FAILOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_identity.h"
#include "lst_sample.h"

#define LST_FAILOVER_MIN_BASE 3
#define LST_FAILOVER_BELOW_DEFAULT 0.5	   /* the plan's `failover: {below: 50%}` */
#define LST_FAILOVER_STALL_NS 1000000000LL /* an I/O in flight this long is stalled */
/* windows per path and point; later drops are not looked at */
#define LST_FAILOVER_WINDOWS_MAX 8

/* What was wrong with a path's I/O over some intervals: all zero when nothing was. */
struct lst_failover_evidence {
	uint64_t errors;		/* I/Os and trims that completed with an error */
	uint64_t err_class[LST_ERRC_N]; /* the I/Os' errors by class (agents that report them) */
	uint64_t timeouts;		/* I/Os that passed the workload's io_timeout */
	int64_t oldest_inflight_ns;	/* the oldest I/O in flight at any of their ends */
};

struct lst_failover_window {
	int64_t first_k, last_k;   /* intervals, first and last below */
	double start_t_s, end_t_s; /* start of the first, end of the last */
	double base_iops;	   /* the baseline median it fell below */
	uint64_t ios;		   /* completions (both directions) of the intervals below */
	lst_hist lat;		   /* their merged latency, both directions */
	int64_t oldest_inflight_ns;
	struct lst_failover_evidence ev; /* its intervals', the one before's and the one after's */
};

/* An event of the plan that ran during the point: what and when (run seconds). */
struct lst_failover_mark {
	char what[2 * LST_NAME_MAX]; /* "AGENT HOOK" */
	double start_t_s, end_t_s;
};

struct lst_failover {
	double below;	   /* fraction of the baseline median */
	double interval_s; /* the longest interval seen: how far "next to" a window reaches */
	double *base;	   /* baseline IOPS, sorted */
	size_t nbase, cap;
	bool open;    /* the last window is still taking intervals */
	bool stopped; /* no more judging: an early drop, or LST_FAILOVER_WINDOWS_MAX windows */
	int gap;      /* intervals above since the last one below (window open) */
	int64_t gap_oldest_ns;
	double gap_iops;
	struct lst_failover_evidence prev; /* the last interval before an open window */
	struct lst_failover_window *w;	   /* the windows, in time order */
	size_t nw;
	struct lst_failover_mark *marks;
	size_t nmarks;
};

/* Start a detector with the given fraction (0 < below < 1). */
void lst_failover_init(struct lst_failover *f, double below);
void lst_failover_free(struct lst_failover *f);

/* One measured interval k of the row, starting t_s (run seconds) and lasting dur_s > 0. */
void lst_failover_add(struct lst_failover *f, int64_t k, double t_s, double dur_s,
		      const lst_sample *s);

/* An event of the plan, what ("b port_down", copied), ran from start_t_s to end_t_s (run
 * seconds) in this point: evidence for a window within an interval of it. */
void lst_failover_mark(struct lst_failover *f, const char *what, double start_t_s, double end_t_s);

/* Has window w of f evidence of a path fault (see above)? */
bool lst_failover_has_evidence(const struct lst_failover *f, const struct lst_failover_window *w);

/* The failover window: the first window with evidence, or NULL when there is none. Borrowed,
 * valid until the next add, mark or free. */
const struct lst_failover_window *lst_failover_window(const struct lst_failover *f);

/* Did mark m run within one interval of window w? (Such a mark is evidence for w.) */
bool lst_failover_near(const struct lst_failover *f, const struct lst_failover_window *w,
		       const struct lst_failover_mark *m);

/* The age from which an I/O in flight is a stall: LST_FAILOVER_STALL_NS, or a whole interval
 * when intervals are longer (an interval of normal latency never holds one that long). */
int64_t lst_failover_stall_ns(const struct lst_failover *f);

#endif
