/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the point's files (lst_point.c, lst_point_rx.c, lst_paths.c): the point's state,
 * its merge, its path slots and its record of each agent, held by the orchestrator and reached
 * through lst_coord__cur. The point's files include this header and lst_run_int.h alone.
 */
#ifndef LST_POINT_INT_H
#define LST_POINT_INT_H

#include "lst_run_int.h"

/* One path taking part in the point: a stream of the per-path merge (lst_paths.c). */
struct lst_coord__slot {
	size_t agent;		/* index into c->a */
	size_t target;		/* index into plan->targets */
	size_t j;		/* index into the target's paths */
	const char *path;	/* the plan's */
	bool first;		/* the first slot of its target (its target's row is made here) */
	struct lst_failover fo; /* the path's failover window in the point */

	/* what the path runs, for summary.csv's workload block */
	struct lst_row_workload w;
};

/* The point's per-path and per-target rows (lst_paths.c). */
struct lst_coord__paths {
	bool path_rows, target_rows; /* what the plan asks for (same for every point) */
	size_t nslots;
	struct lst_coord__slot *slots; /* by target, in the order the job specs were made */
	lst_merge *merge;	       /* one stream per slot; NULL when no such rows are kept */
	lst_sample *sum;	       /* scratch for a target's row */
	size_t nparts;		       /* the summary rows made, for the step's result */
	struct lst_step_part *parts;
};

/*
 * The point's record of one agent: what it runs in the point and how its samples went. The
 * session keeps the agent's connection and commands (lst_session_int.h), and where the agent
 * stands in the point's protocol (started, done, lost in it), which the point reads and sets
 * through lst_coord__stand.
 */
struct lst_coord__pagent {
	struct lst_failover fo; /* its failover window, when the point has no path rows */
	bool judged;		/* its loss went through lst_coord__loss_policy */
	uint64_t dropped;	/* samples of it not merged (late, or after the loss) */
	int64_t t0_agent;
	uint64_t merged;     /* its samples in the merge: DONE says how many there should be */
	int64_t expect_last; /* the last interval its timed jobs close, -1 when not known */
	bool records;	     /* a job of it records a trace, written out before its DONE */
	bool late_warned;
	bool bad_warned; /* a sample for an interval that cannot exist was reported */
	json_t *jobs;	 /* what each of its paths runs in this point */
	char devices[LST_MAX_JOBSPECS][32]; /* each path's kernel device name ("" not a device),
					       from PREPARED, for devstats.csv */
	uint32_t njobs;			    /* job specs in its PREPARE of this point */
	uint32_t slot[LST_MAX_JOBSPECS];    /* each job spec's slot in cur->paths */
	bool unsplit_warned;		    /* it sent a multi-path sample without `paths` */
};

/* The point's state (lst_coord__cur, made once for the run by lst_coord__point_new). */
struct lst_coord__point {
	lst_merge *merge;
	struct lst_coord__paths paths;
	struct lst_coord__pagent *ag; /* [n], kept from point to point */
};

#endif
