/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The orchestrator's state, struct lst_coord, and the records it holds for the agents and the
 * current point. For the orchestrator: lst_coord.c, lst_resume.c (lockstep resume, its other
 * entry) and the getters of lst_coord_state.c. The session's files (lst_pump.c, lst_connect.c)
 * and the point's (lst_point.c, lst_point_rx.c, lst_paths.c) still read it too, because one
 * agent record holds both the session's state and the point's and neither class owns it yet.
 * Every other file of run includes lst_run_int.h alone.
 */
#ifndef LST_COORD_INT_H
#define LST_COORD_INT_H

#include "lst_run_int.h"

/*
 * One agent: its connection, its session, and what it does in the current point.
 *
 * Silence is not loss: an agent silent for unreach_after is *unreachable* (it goes on measuring
 * and spooling; the DEALER reconnects and the session is resumed with a new HELLO, after which
 * the agent sends its spool again). Only silence longer than the lease, or a restart, makes it
 * *lost*: out of the current point, sent STOP and BYE, and given no commands until it comes
 * back (a WELCOME on a reconnect), when it may serve the next point or the point's retry.
 */
struct lst_coord__agent {
	lst_conn *conn;
	bool unreachable; /* silent, not lost yet (lost is the connection's state) */
	bool ever_lost;	  /* for run.json */
	char lost_why[1024];
	bool refused; /* answered a command with ERROR */
	lst_err error;

	/* the session: reconnects and restarts */
	uint64_t instance;    /* WELCOME's: another one means a new agent process */
	unsigned welcomed_on; /* lst_conn_handshakes() at the last WELCOME */
	unsigned hello_on;    /* ... when the last reconnect HELLO went out */
	uint64_t hello_id;    /* that HELLO, 0 when none is awaited */
	int64_t hello_at;     /* when it went out */
	uint64_t seen_seq;    /* last SAMPLE/DONE seq taken: a re-sent spool repeats older ones */
	uint64_t top_seq;     /* the highest seq of any message it sent us (a gap check's base) */
	bool ack_due;	      /* a SAMPLE/DONE came this wake-up: ACK seen_seq after the flush */

	/* command bookkeeping: the id awaited and whether the reply came */
	uint64_t await_id;
	bool replied;
	lst_msg *reply; /* the last reply to a command, owned */
	lst_msg *cmd;	/* the command awaited, owned: sent again after a reconnect */

	/* current point */
	struct lst_failover fo; /* its failover window, when the point has no path rows */
	bool in_point;
	bool point_lost;  /* lost during it: nothing of it is merged after the loss */
	bool judged;	  /* that loss went through lst_coord__loss_policy */
	uint64_t min_seq; /* SAMPLE/DONE seq below this belong to an earlier point or attempt */
	uint64_t dropped; /* samples of it not merged (late, or after the loss) */
	bool started, done;
	uint64_t start_id; /* the START command's id: an ERROR to it means no DONE will come */
	int64_t t0_agent;
	int64_t actual; /* STARTED.actual, agent clock */
	struct lst_msg_done done_msg;
	uint64_t samples;
	uint64_t merged;     /* its samples in the merge: DONE says how many there should be */
	int64_t expect_last; /* the last interval its timed jobs close, -1 when not known */
	bool records;	     /* a job of it records a trace, written out before its DONE */
	int64_t progress_at; /* our clock at its START, or its last sample merged: a DONE is
			      * waited for a lease from here (lst_coord__overdue) */
	bool late_warned;
	uint64_t merged_late; /* samples for intervals already merged */
	bool bad_warned;      /* a sample for an interval that cannot exist was reported */
	json_t *jobs;	      /* what each of its paths runs in this point */
	char devices[LST_MAX_JOBSPECS][32]; /* each path's kernel device name ("" not a device),
					       from PREPARED, for devstats.csv */
	uint32_t njobs;			    /* job specs in its PREPARE of this point */
	uint32_t slot[LST_MAX_JOBSPECS];    /* each job spec's slot in cur.paths */
	bool unsplit_warned;		    /* it sent a multi-path sample without `paths` */
};

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

struct lst_coord__point {
	struct lst_coord__where at; /* set by lst_point.c as the point begins */
	lst_merge *merge;
	struct lst_coord__paths paths;
};

/* State private to one file each: the pump (lst_pump.c), the rows' sinks (lst_rows.c), data
 * integrity (lst_verify_run.c) and our key pair (lst_connect.c). */
struct lst_coord__pump;
struct lst_coord__sinks;
struct lst_coord__verify;
struct lst_coord__keys;
struct lst_coord__events;

struct lst_coord {
	const lst_plan *plan;		/* NULL for the probe */
	struct lst_coord_agent *agents; /* [n]: who to reach (the strings are borrowed) */
	int64_t lease;			/* HELLO's, and the loss model's */
	struct lst_coord_opts opts;
	char run_id[LST_RUN_ID_MAX];
	char host[LST_NAME_MAX];
	size_t n;
	struct lst_coord__agent *a;
	struct lst_coord__pump *pump; /* the pump's own state, private to lst_pump.c */
	struct lst_coord__target *targets;
	lst_record *rec; /* the results folder, run.json and the journal (lst_record.h) */
	int64_t last_sync;
	int64_t last_ping;
	int64_t unreach_after; /* silence that makes an agent unreachable */
	int64_t lost_after;    /* ... and lost: the lease (it has stopped its I/O), and a margin */
	struct lst_coord__point cur;
	bool in_point;
	bool running; /* the phases have begun: a loss is for on_agent_loss to judge */
	struct lst_coord__verify *ver; /* data integrity, private to lst_verify_run.c */
	bool partial; /* a point finished without a lost agent (on_agent_loss: continue) */
	bool closing; /* BYE said (lst_coord__bye): no HELLO goes out again */
	bool tty;
	json_t *journal; /* resume: points.jsonl's points (what lst_coord__replay needs); NULL if fresh */
	bool *phase_done;		  /* resume: [nphases] the journal has the phase's end */
	struct lst_coord__keys *keys;	  /* our CURVE key pair, private to lst_connect.c */
	struct lst_metrics *metrics;	  /* live metrics (--metrics), NULL without */
	struct lst_coord__events *events; /* the point's events, private to lst_hooks.c */
	struct lst_coord__sinks *sinks;	  /* where each interval row goes, private to lst_rows.c */
};

#endif
