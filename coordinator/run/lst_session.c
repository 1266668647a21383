/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The session as a one-shot query sees it (lst_session.h): a coordinator with agents and no
 * plan (lst_coord__new), HELLO said, commands asked and their replies taken, BYE. The run's own
 * use of the session goes through lst_coord_int.h.
 */
#include <stdio.h>

#include "lst_time.h"

#include "lst_coord_int.h"
#include "lst_session.h"

lst_coord *lst_session__query_new(const struct lst_coord_agent *agents, size_t n,
				  const struct lst_coord_opts *sec)
{
	struct lst_coord_opts opts = { .quiet = true, .connect_timeout_ns = 5 * LST_NS_PER_S };
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
	return c;
}

void lst_session__end(lst_coord **p)
{
	if (!*p)
		return;
	lst_coord__bye(*p);
	lst_coord_destroy(p);
}

void lst_session__sync(lst_coord *c)
{
	lst_coord__sync(c);
}

const lst_conn *lst_session__conn(const lst_coord *c, size_t i)
{
	return c->a[i].conn;
}

const char *lst_session__lost_why(const lst_coord *c, size_t i)
{
	return c->a[i].lost_why;
}

bool lst_session__usable(const lst_coord *c, size_t i)
{
	return lst_coord__usable(&c->a[i]);
}

/* An agent asked is "in the point" for the pump's wait (lst_coord__all_replied). */
void lst_session__ask(lst_coord *c, size_t i, lst_msg **m)
{
	c->a[i].in_point = true;
	lst_coord__command(c, i, m);
}

void lst_session__wait(lst_coord *c, int64_t timeout_ns)
{
	lst_coord__pump_until(c, lst_coord__all_replied, timeout_ns);
}

const lst_msg *lst_session__take(lst_coord *c, size_t i)
{
	struct lst_coord__agent *a = &c->a[i];

	a->in_point = false;
	if (!lst_coord__usable(a) || !a->replied)
		return NULL;
	return a->reply;
}
