/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The orchestrator's state lent to its parts: struct lst_coord's plan, options, record, run id
 * and host, the live metrics and the rows' sinks, the current point's place, and what the
 * session knows of each agent's connection. Getters only, calling no other file of run, so
 * that a part asking for them closes no circle through lst_coord.c, the point or the pump.
 */
#include "lst_coord_int.h"

const lst_plan *lst_coord__plan(const lst_coord *c)
{
	return c->plan;
}

const struct lst_coord_opts *lst_coord__opts(const lst_coord *c)
{
	return &c->opts;
}

lst_record *lst_coord__record(const lst_coord *c)
{
	return c->rec;
}

size_t lst_coord__n(const lst_coord *c)
{
	return c->n;
}

const char *lst_coord__run_id(const lst_coord *c)
{
	return c->run_id;
}

const char *lst_coord__host(const lst_coord *c)
{
	return c->host;
}

bool lst_coord__tty(const lst_coord *c)
{
	return c->tty;
}

lst_metrics *lst_coord__metrics(const lst_coord *c)
{
	return c->metrics;
}

struct lst_coord__sinks *lst_coord__sinks(const lst_coord *c)
{
	return c->sinks;
}

const struct lst_coord__where *lst_coord__where(const lst_coord *c)
{
	return &c->at;
}

bool lst_coord__in_point(const lst_coord *c)
{
	return c->in_point;
}

struct lst_coord__events *lst_coord__events(const lst_coord *c)
{
	return c->events;
}

bool lst_coord__agent_in_point(const lst_coord *c, size_t i)
{
	return c->a[i].in_point;
}

bool lst_coord__of_point(const lst_coord *c, size_t i, uint64_t seq)
{
	return c->in_point && c->a[i].in_point && seq >= c->a[i].min_seq;
}

bool lst_coord__agent_point_lost(const lst_coord *c, size_t i)
{
	return c->a[i].point_lost;
}

bool lst_coord__agent_started(const lst_coord *c, size_t i)
{
	return c->a[i].started;
}

bool lst_coord__ever_lost(const lst_coord *c, size_t i)
{
	return c->a[i].ever_lost;
}

struct lst_coord__verify *lst_coord__ver(const lst_coord *c)
{
	return c->ver;
}

uint64_t lst_coord__target_size(const lst_coord *c, size_t t)
{
	return c->targets[t].size;
}

const json_t *lst_coord__journal(const lst_coord *c)
{
	return c->journal;
}

struct lst_coord__target *lst_coord__target(lst_coord *c, size_t t)
{
	return &c->targets[t];
}

const lst_msg *lst_coord__reply(const lst_coord *c, size_t i)
{
	return c->a[i].reply;
}

bool lst_coord__agent_complete(const lst_coord *c, size_t i)
{
	const struct lst_coord__agent *a = &c->a[i];

	return a->done && !a->point_lost && a->done_msg.reason == LST_DONE_COMPLETE;
}

bool lst_coord__usable(const struct lst_coord__agent *a)
{
	return lst_conn_state(a->conn) == LST_CONN_READY;
}

bool lst_coord__agent_usable(const lst_coord *c, size_t i)
{
	return lst_coord__usable(&c->a[i]);
}

const lst_conn *lst_coord__conn(const lst_coord *c, size_t i)
{
	return c->a[i].conn;
}

bool lst_coord__unreachable(const lst_coord *c, size_t i)
{
	return c->a[i].unreachable;
}

const char *lst_coord__lost_why(const lst_coord *c, size_t i)
{
	return c->a[i].lost_why;
}
