/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to lst_run: the session with a set of agents as a one-shot query uses it (lockstep
 * agents, lockstep inventory): connect and say HELLO, measure every clock, ask some agents a
 * command and wait for their replies, read each reply, say BYE. The run drives the same session
 * (lst_connect.c, lst_pump.c) through the orchestrator's parts; a query holds an opaque
 * lst_session and sees none of the run's state, so it cannot reach into it.
 */
#ifndef LST_SESSION_H
#define LST_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "lst_conn.h"
#include "lst_coord.h"
#include "lst_msg.h"

typedef struct lst_session lst_session;

/*
 * A session for a one-shot query of agents[n] (copied; the strings stay the caller's): quiet,
 * a 5 s connect timeout, the key options of sec (may be NULL), HELLO said to every agent (an
 * agent that does not answer is lost, with why). NULL after printing why on stderr when it
 * cannot be made (a bad key, say). The caller ends it with lst_session__end.
 */
lst_session *lst_session__query_new(const struct lst_coord_agent *agents, size_t n,
				    const struct lst_coord_opts *sec);
/* BYE to every agent, then the session destroyed and *p nulled. Safe on NULL. */
void lst_session__end(lst_session **p);
/* A clock burst on every usable agent, waited for (at most 5 s). */
void lst_session__sync(lst_session *s);
/* Agent i's connection: its WELCOME, clock estimate and state (borrowed). */
const lst_conn *lst_session__conn(const lst_session *s, size_t i);
/* Why agent i was lost or refused, "" when it was not. Borrowed. */
const char *lst_session__lost_why(const lst_session *s, size_t i);
/* Agent i said WELCOME and is neither lost nor refused. */
bool lst_session__usable(const lst_session *s, size_t i);
/* Send *m to agent i (taken) and wait for its reply with the others asked (lst_session__wait). */
void lst_session__ask(lst_session *s, size_t i, lst_msg **m);
/* Pump until every agent asked has replied or is lost, at most timeout_ns (or Ctrl-C). */
void lst_session__wait(lst_session *s, int64_t timeout_ns);
/* Agent i's reply to what it was asked, no longer waited for: NULL when it is lost or did not
 * answer. Borrowed until agent i is asked again. */
const lst_msg *lst_session__take(lst_session *s, size_t i);

#endif
