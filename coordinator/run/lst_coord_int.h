/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The orchestrator's state, struct lst_coord, for the orchestrator alone: lst_coord.c,
 * lst_resume.c (lockstep resume, its other entry) and the getters of lst_coord_state.c. The
 * classes it holds keep their state behind their own private headers: the session's in
 * lst_session_int.h, the point's in lst_point_int.h. Every other file of run includes
 * lst_run_int.h, and a class's files their class's header.
 */
#ifndef LST_COORD_INT_H
#define LST_COORD_INT_H

#include "lst_run_int.h"

/* State private to one file each: the rows' sinks (lst_rows.c), data integrity
 * (lst_verify_run.c), the point's events (lst_hooks.c); and the session's and the point's,
 * private to their files (lst_session_int.h, lst_point_int.h). */
struct lst_coord__sinks;
struct lst_coord__verify;
struct lst_coord__events;

struct lst_coord {
	const lst_plan *plan; /* NULL for the probe */
	struct lst_coord_opts opts;
	char run_id[LST_RUN_ID_MAX];
	char host[LST_NAME_MAX];
	size_t n;
	struct lst_coord__session *ses; /* the session with the agents (lst_session_int.h) */
	struct lst_coord__target *targets;
	lst_record *rec; /* the results folder, run.json and the journal (lst_record.h) */
	struct lst_coord__where at;   /* where the run is: the current point, set by the point */
	struct lst_coord__point *cur; /* the point's own state (lst_point_int.h) */
	bool in_point;
	bool running; /* the phases have begun: a loss is for on_agent_loss to judge */
	struct lst_coord__verify *ver; /* data integrity, private to lst_verify_run.c */
	bool partial; /* a point finished without a lost agent (on_agent_loss: continue) */
	bool tty;
	json_t *journal; /* resume: points.jsonl's points (what lst_coord__replay needs); NULL if fresh */
	bool *phase_done;		  /* resume: [nphases] the journal has the phase's end */
	struct lst_metrics *metrics;	  /* live metrics (--metrics), NULL without */
	struct lst_coord__events *events; /* the point's events, private to lst_hooks.c */
	struct lst_coord__sinks *sinks;	  /* where each interval row goes, private to lst_rows.c */
};

#endif
