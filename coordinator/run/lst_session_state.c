/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the session knows, lent to the point and the orchestrator: its silence model, its last
 * clock exchange, and of each agent whether it may be sent commands, its connection, its last
 * reply, why it was lost, and where it stands in the current point's protocol. Getters only,
 * calling nothing but the orchestrator's getters, so that no circle closes through the pump; the
 * session's state itself is lst_session_int.h's.
 */
#include "lst_session_int.h"

int64_t lst_coord__lost_after(const lst_coord *c)
{
	return lst_coord__session(c)->lost_after;
}

int64_t lst_coord__last_sync(const lst_coord *c)
{
	return lst_coord__session(c)->last_sync;
}

bool lst_coord__agent_in_point(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].st.in_point;
}

bool lst_coord__of_point(const lst_coord *c, size_t i, uint64_t seq)
{
	const struct lst_coord__agent *a = &lst_coord__session(c)->a[i];

	return lst_coord__in_point(c) && a->st.in_point && seq >= a->st.min_seq;
}

bool lst_coord__agent_point_lost(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].st.point_lost;
}

bool lst_coord__agent_started(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].st.started;
}

bool lst_coord__ever_lost(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].ever_lost;
}

const lst_msg *lst_coord__reply(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].reply;
}

bool lst_coord__agent_complete(const lst_coord *c, size_t i)
{
	const struct lst_coord__agent *a = &lst_coord__session(c)->a[i];

	return a->st.done && !a->st.point_lost && a->st.done_msg.reason == LST_DONE_COMPLETE;
}

bool lst_coord__usable(const struct lst_coord__agent *a)
{
	return lst_conn_state(a->conn) == LST_CONN_READY;
}

bool lst_coord__agent_usable(const lst_coord *c, size_t i)
{
	return lst_coord__usable(&lst_coord__session(c)->a[i]);
}

const lst_conn *lst_coord__conn(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].conn;
}

bool lst_coord__unreachable(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].unreachable;
}

const char *lst_coord__lost_why(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].lost_why;
}

struct lst_coord__stand *lst_coord__stand(lst_coord *c, size_t i)
{
	return &lst_coord__session(c)->a[i].st;
}

const struct lst_coord__stand *lst_coord__stand_of(const lst_coord *c, size_t i)
{
	return &lst_coord__session(c)->a[i].st;
}

uint64_t lst_coord__await_id(const lst_coord *c, size_t i)
{
	return lst_coord__session(c)->a[i].await_id;
}
