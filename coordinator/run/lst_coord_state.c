/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The orchestrator's state lent to its parts: struct lst_coord's plan, options, record, run id
 * and host, the live metrics and the rows' sinks, the current point's place and state, and the
 * session it holds. Getters only, calling no other file of run, so that a part asking for them closes
 * no circle through lst_coord.c, the point or the pump.
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

struct lst_coord__where *lst_coord__at(lst_coord *c)
{
	return &c->at;
}

struct lst_coord__point *lst_coord__cur(const lst_coord *c)
{
	return c->cur;
}

void lst_coord__set_in_point(lst_coord *c, bool in_point)
{
	c->in_point = in_point;
}

void lst_coord__set_partial(lst_coord *c)
{
	c->partial = true;
}

bool lst_coord__running(const lst_coord *c)
{
	return c->running;
}

struct lst_coord__session *lst_coord__session(const lst_coord *c)
{
	return c->ses;
}
