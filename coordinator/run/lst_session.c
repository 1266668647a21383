/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The session as a one-shot query sees it (lst_session.h): a coordinator with agents and no
 * plan (lst_coord__new), HELLO said, commands asked and their replies taken, BYE. A query holds
 * the session, never the coordinator under it; the run's own use of the session goes through
 * the orchestrator's parts (lst_run_int.h).
 */
#include <stdio.h>

#include "lst_time.h"
#include "lst_util.h"

#include "lst_run_int.h"
#include "lst_session.h"

/* One owner: the query. The coordinator under it has no plan and is reached only through the
 * session's functions of lst_pump.c and lst_connect.c. */
struct lst_session {
	lst_coord *c;
};

lst_session *lst_session__query_new(const struct lst_coord_agent *agents, size_t n,
				    const struct lst_coord_opts *sec)
{
	struct lst_coord_opts opts = { .quiet = true, .connect_timeout_ns = 5 * LST_NS_PER_S };
	lst_session *s;
	lst_coord *c;
	lst_err err;

	if (sec) {
		opts.key_file = sec->key_file;
		opts.insecure = sec->insecure;
	}
	c = lst_coord__new(agents, n, 10 * LST_NS_PER_S, LST_NS_PER_S, &opts, &err);
	if (!c) {
		fprintf(stderr, "lockstep: %s\n", err.msg);
		return NULL;
	}
	lst_coord__hello(c);
	s = lst_calloc(1, sizeof(*s));
	s->c = c;
	return s;
}

void lst_session__end(lst_session **p)
{
	lst_session *s = *p;

	if (!s)
		return;
	lst_coord__bye(s->c);
	lst_coord_destroy(&s->c);
	free(s);
	*p = NULL;
}

void lst_session__sync(lst_session *s)
{
	lst_coord__sync(s->c);
}

const lst_conn *lst_session__conn(const lst_session *s, size_t i)
{
	return lst_coord__conn(s->c, i);
}

const char *lst_session__lost_why(const lst_session *s, size_t i)
{
	return lst_coord__lost_why(s->c, i);
}

bool lst_session__usable(const lst_session *s, size_t i)
{
	return lst_coord__agent_usable(s->c, i);
}

void lst_session__ask(lst_session *s, size_t i, lst_msg **m)
{
	lst_coord__ask(s->c, i, m);
}

void lst_session__wait(lst_session *s, int64_t timeout_ns)
{
	lst_coord__pump_until(s->c, lst_coord__all_replied, timeout_ns);
}

const lst_msg *lst_session__take(lst_session *s, size_t i)
{
	return lst_coord__take(s->c, i);
}
