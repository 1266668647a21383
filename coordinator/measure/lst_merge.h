/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Merging one phase point's samples from every agent into one exact result.
 *
 * All agents start the point at the same instant and cut intervals on the same grid, so interval
 * k means the same wall-clock window on every agent: merging is by k. An interval is complete
 * when every agent still in the point has sent a sample for it or a later one (agents send every
 * interval, empty ones included, in order), or has finished. Counts add, histograms add bucket
 * by bucket, and every percentile of the combined row comes from the merged histogram, never
 * from averaging the agents' percentiles.
 *
 * Totals over the measured window (ramp intervals excluded) are kept per agent and combined, from
 * exactly the samples that went into rows, so the rows of timeseries.csv always add up to the
 * summary. Combined IOPS and MB/s are all I/Os over the point's measured time on the shared grid
 * (the longest agent's): when an agent ran only part of the point (it was lost), the combined
 * rate is what the device saw on average, never a sum of rates over different times.
 */
#ifndef LST_MERGE_H
#define LST_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_sample.h"

typedef struct lst_merge lst_merge;

/*
 * Rows kept pending at most, unless lst_merge_new is given another bound: a sample this far ahead
 * of the oldest pending interval emits the oldest rows without the agents that have not sent them
 * yet (their samples for them then arrive late, and are dropped). The coordinator asks for a
 * lease's worth of intervals, so that an agent unreachable for less than its lease is waited
 * for; LST_MERGE_AHEAD_LIMIT caps that (about 40 s at the shortest interval).
 */
#define LST_MERGE_MAX_AHEAD 512
#define LST_MERGE_AHEAD_LIMIT 4096
/* Interval numbers beyond this are refused (a year of 10 ms intervals is 3.2e9). */
#define LST_MERGE_MAX_INTERVAL (INT64_C(1) << 40)

/* One complete interval: the combined sample and each agent's (NULL when it sent none). */
struct lst_merge_row {
	int64_t k;
	bool ramp;
	const lst_sample *all;
	const lst_sample *const *agent; /* [nagents] */
	size_t nagents;
};

typedef void (*lst_merge_fn)(const struct lst_merge_row *row, void *arg);

/* Totals over the measured intervals. */
struct lst_merge_totals {
	struct lst_dir_stats dir[LST_DIR_N];
	double seconds;		       /* measured time (per agent; the longest for `all`) */
	double iops[LST_DIR_N];	       /* rates: ios / seconds (for `all` too) */
	double mbps[LST_DIR_N];	       /* 10^6 bytes per second */
	int64_t first_start, last_end; /* agent clock (per agent), 0 when nothing measured */
	uint64_t intervals;	       /* measured intervals seen */
	/* errors by class and timeouts summed; inflight and oldest_inflight_ns the largest of any
	 * measured interval (a total of what was stuck at the ends of intervals means nothing) */
	struct lst_sample_health health;
	struct lst_sample_verify verify; /* units verified, summed */
	struct lst_sample_trim trim;	 /* trims, summed */
	double trim_iops, trim_mbps;	 /* their rates, as iops and mbps */
};

/* Totals' health t += h over time: counts add, inflight and the oldest age are the largest. */
void lst_merge_health_add(struct lst_sample_health *t, const struct lst_sample_health *h);

/* Totals' verify counts t += v: they all add. */
void lst_merge_verify_add(struct lst_sample_verify *t, const struct lst_sample_verify *v);

/*
 * A merge of nagents agents; rows go to fn as they complete. max_ahead bounds the rows kept
 * pending (0: LST_MERGE_MAX_AHEAD; at most LST_MERGE_AHEAD_LIMIT).
 */
lst_merge *lst_merge_new(size_t nagents, size_t max_ahead, lst_merge_fn fn, void *arg);
void lst_merge_destroy(lst_merge **p);

/* An agent's sample, in the order the agent sent them. Emits the intervals that are now
 * complete. A sample for an interval already emitted (an agent that lagged more than max_ahead
 * intervals, or misbehaves) is dropped, counted nowhere, and reported through the return value:
 * -EALREADY. An interval number below 0 or above LST_MERGE_MAX_INTERVAL is refused, not
 * counted: -ERANGE. */
int lst_merge_add(lst_merge *m, size_t agent, const lst_sample *s);

/* What lst_merge_add would say about s's interval, without adding it: 0, -EALREADY or -ERANGE.
 * The coordinator asks first so that a sample's raw frame is on disk before any row that
 * counts it (docs/results.md: a row's samples are in samples/, even after a SIGKILL). */
int lst_merge_check(const lst_merge *m, const lst_sample *s);

/* The agent will send nothing more (its point is done, or it was lost). Emits what is now
 * complete. */
void lst_merge_agent_done(lst_merge *m, size_t agent);

/* Emit everything still pending (end of the point). */
void lst_merge_finish(lst_merge *m);

/* Rows the window holds now (allocated; never more than LST_MERGE_MAX_AHEAD). */
size_t lst_merge_window(const lst_merge *m);

/* Totals of one agent (agent < nagents) or of all (agent == nagents). Borrowed. */
const struct lst_merge_totals *lst_merge_totals(lst_merge *m, size_t agent);

#endif
