/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the session's files (lst_pump.c, lst_connect.c and the getters of
 * lst_session_state.c): the session with the agents (struct lst_coord__session, held by the
 * orchestrator as an opaque pointer) and its record of each agent. Everyone else asks the
 * getters of lst_run_int.h ("lst_session_state.c") for what it needs of an agent.
 */
#ifndef LST_SESSION_INT_H
#define LST_SESSION_INT_H

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

	/* where it stands in the current point's protocol (lst_run_int.h) */
	struct lst_coord__stand st;
};

/* Agent a said WELCOME and is neither lost nor refused: it may be sent commands
 * (lst_session_state.c). */
bool lst_coord__usable(const struct lst_coord__agent *a);

/* State private to one file each: the pump's (lst_pump.c), our key pair (lst_connect.c). */
struct lst_coord__pump;
struct lst_coord__keys;

/* The session (lst_coord__session_new): whom to reach, the agents as it keeps them, the pump,
 * the key pair, the silence model, and the timers of clock exchanges and PINGs. */
struct lst_coord__session {
	struct lst_coord_agent *agents; /* [n]: who to reach (the strings are borrowed) */
	size_t n;
	struct lst_coord__agent *a;   /* [n] */
	int64_t lease;		      /* HELLO's, and the loss model's */
	struct lst_coord__pump *pump; /* the pump's own state, private to lst_pump.c */
	struct lst_coord__keys *keys; /* our CURVE key pair, private to lst_connect.c */
	int64_t last_sync;
	int64_t unreach_after; /* silence that makes an agent unreachable */
	int64_t lost_after;    /* ... and lost: the lease (it has stopped its I/O), and a margin */
	bool closing;	       /* BYE said (lst_coord__bye): no HELLO goes out again */
};

#endif
