/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The orchestrator's state, struct lst_coord, and the session's record of each agent. For the
 * orchestrator: lst_coord.c, lst_resume.c (lockstep resume, its other entry) and the getters of
 * lst_coord_state.c. The session's files (lst_pump.c, lst_connect.c) read it too, and so do the
 * point's (through lst_point_int.h, which holds the point's own state): the agent record below
 * still carries the point's side of the protocol (in the point, started, done, lost in it),
 * which the pump sets as messages come and the point reads and sets as it runs. Every other
 * file of run includes lst_run_int.h alone.
 */
#ifndef LST_COORD_INT_H
#define LST_COORD_INT_H

#include "lst_run_int.h"

/*
 * One agent as the session keeps it: its connection, its session, its commands, and where it
 * stands in the current point's protocol (the point's own record of it is lst_point_int.h's).
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
	bool in_point;
	bool point_lost;  /* lost during it: nothing of it is merged after the loss */
	uint64_t min_seq; /* SAMPLE/DONE seq below this belong to an earlier point or attempt */
	bool started, done;
	uint64_t start_id; /* the START command's id: an ERROR to it means no DONE will come */
	int64_t actual;	   /* STARTED.actual, agent clock */
	struct lst_msg_done done_msg;
	uint64_t samples;
	int64_t progress_at; /* our clock at its START, or its last sample merged: a DONE is
			      * waited for a lease from here (lst_coord__overdue) */
};

/* State private to one file each: the pump (lst_pump.c), the rows' sinks (lst_rows.c), data
 * integrity (lst_verify_run.c), our key pair (lst_connect.c), the point's events (lst_hooks.c);
 * and the point's state, private to its three files (lst_point_int.h). */
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
	struct lst_coord__where at;   /* where the run is: the current point, set by the point */
	struct lst_coord__point *cur; /* the point's own state (lst_point_int.h) */
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
