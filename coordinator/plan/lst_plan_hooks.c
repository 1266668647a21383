/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A phase's events, before/after hooks and telemetry. A plan only names what an
 * agent's own config defines (hooks, collectors: argv arrays the host's owner wrote), so what is
 * checked here is the plan's side: who runs a hook, when, and how often. Whether the agent has
 * a hook of that name is known only from its WELCOME, and checked by the run before any I/O.
 *
 * Each list is read by the generic item walk (lst__plan_items) with the tables of
 * lst_plan_schema.c, then checked across its items and against the phase: the phase's keys that
 * decide its agents (targets, paths, sweep) and its point length (workload, round, stop) come
 * earlier in the table, so they are known here. When one of them had an error, the checks that
 * depend on them stay silent rather than echo it. Events end sorted by `at`, stably, so the run
 * can hand each agent its part of the timeline in order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lst_domain.h"
#include "lst_plan_int.h"
#include "lst_util.h"

/* An event's instant as a plan writes it ("3s", "1500ms"). */
static const char *s_at_text(int64_t at, char *buf, size_t size)
{
	static const struct lst_opt dur = { .name = "at", .type = LST_OPT_DURATION };

	return lst_opt_format(&dur, &at, buf, size);
}

void lst__plan_agent_ref(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			 const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);
	char known[512];
	int a;

	if (!text)
		return;
	a = lst_plan_agent_index(ctx->plan, text);
	if (a < 0) {
		lst__plan_error(ctx, v, "unknown agent '%s' (known: %s)", text,
				lst__plan_known_names(ctx->plan, true, known, sizeof(known)));
		return;
	}
	*(size_t *)lst__plan_at(base, k->o.offset) = (size_t)a;
}

void lst__plan_instant(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		       const struct lst_yaml_node *v, void *base)
{
	const char *text = lst__plan_scalar(ctx, k->o.name, v);
	lst_err err;

	if (!text)
		return;
	/* a duration is never negative: say why this one would be, not "not a duration" */
	if (text[0] == '-')
		lst__plan_error(ctx, v,
				"%s %s is before the point's start; an instant counts from it: 0s "
				"or more",
				k->o.name, text);
	else if (lst_opt_parse(&k->o, base, text, &err))
		lst__plan_error(ctx, v, "%s", err.msg);
}

void lst__plan_hook_init(struct lst__plan_ctx *ctx, void *base)
{
	struct lst_plan_hook *h = base;

	(void)ctx;
	h->agent = SIZE_MAX; /* until `agent:` names one: later checks skip the entry */
	h->at = -1;	     /* before/after have none; an event's stays -1 when missing or bad */
}

void lst__plan_hook_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_hook *h = base;
	const struct lst_yaml_node *v = lst_yaml_get(map, "hook", NULL);

	(void)ctx;
	if (v)
		h->hook_mark = v->mark;
}

bool lst__plan_hook_unknown(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn)
{
	if (strcmp(kn->text, "at"))
		return false;
	lst__plan_error(ctx, kn,
			"at is for events: before and after hooks run once, around the whole "
			"phase; to run a hook at an instant of each point, list it in events");
	return true;
}

/* "phase p: event 3: " for item i of the list read with section sec. */
static const char *s_item_prefix(const struct lst__plan_ctx *ctx,
				 const struct lst__plan_section *sec, size_t i, char *buf,
				 size_t size)
{
	snprintf(buf, size, "%s%s %zu: ", ctx->prefix, sec->name, i + 1);
	return buf;
}

/* The value node of key in list item i of v, else the item (its place for a message). */
static const struct lst_yaml_node *s_item_node(const struct lst_yaml_node *v, size_t i,
					       const char *key)
{
	const struct lst_yaml_node *n = lst_yaml_get(v->kids[i], key, NULL);

	return n ? n : v->kids[i];
}

/* Each hook's agent drives some path of the phase in some point. */
static void s_agents_check(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			   const struct lst_plan_phase *ph, const struct lst_plan_hook *hooks,
			   size_t n, const struct lst_yaml_node *v)
{
	const lst_plan *p = ctx->plan;
	/* per agent: 0 not asked yet, 1 takes part, -1 not (a list may name one agent often) */
	signed char *part = lst_calloc(p->nagents + 1, sizeof(*part));

	for (size_t i = 0; i < n; i++) {
		const struct lst_yaml_node *at;
		char pfx[sizeof(ctx->prefix) + 32];
		size_t a = hooks[i].agent;

		if (a == SIZE_MAX)
			continue;
		if (!part[a])
			part[a] = lst_plan_phase_has_agent(p, ph, a) ? 1 : -1;
		if (part[a] > 0)
			continue;
		at = s_item_node(v, i, "agent");
		lst__plan_error_at(ctx, at->mark.line, at->mark.col,
				   "%sagent %s takes no part in this phase: it drives no path of "
				   "the phase's targets in any point",
				   s_item_prefix(ctx, sec, i, pfx, sizeof(pfx)), p->agents[a].name);
	}
	free(part);
}

/* Each event's instant falls within a point, when the plan fixes the point's length. */
static void s_times_check(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			  const struct lst_plan_phase *ph, const struct lst_plan_hook *ev, size_t n,
			  const struct lst_yaml_node *v)
{
	int64_t end = lst_plan_phase_point_ns(ph);
	char a[32], e[32], pfx[sizeof(ctx->prefix) + 32];

	for (size_t i = 0; end > 0 && i < n; i++) {
		const struct lst_yaml_node *at;

		if (ev[i].at < end)
			continue;
		at = s_item_node(v, i, "at");
		lst__plan_error_at(ctx, at->mark.line, at->mark.col,
				   "%sat %s is at or past the end of a point of this phase, "
				   "which lasts %s",
				   s_item_prefix(ctx, sec, i, pfx, sizeof(pfx)),
				   s_at_text(ev[i].at, a, sizeof(a)), s_at_text(end, e, sizeof(e)));
	}
}

/* One agent's events all travel in one START: at most LST_MAX_EVENTS of them. */
static void s_counts_check(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			   const struct lst_plan_hook *ev, size_t n)
{
	const lst_plan *p = ctx->plan;
	size_t *count = lst_calloc(p->nagents + 1, sizeof(*count));
	char pfx[sizeof(ctx->prefix) + 32];

	for (size_t i = 0; i < n; i++) {
		if (ev[i].agent == SIZE_MAX || ++count[ev[i].agent] != LST_MAX_EVENTS + 1)
			continue;
		lst__plan_error_at(ctx, ev[i].mark.line, ev[i].mark.col,
				   "%sagent %s has more than %d events in this phase; one point's "
				   "start carries at most %d for an agent",
				   s_item_prefix(ctx, sec, i, pfx, sizeof(pfx)),
				   p->agents[ev[i].agent].name, LST_MAX_EVENTS, LST_MAX_EVENTS);
	}
	free(count);
}

/* An event as the duplicate check orders them: agent, at, hook, then the file's order. */
struct s_dup_key {
	size_t agent;
	int64_t at;
	const char *hook;
	size_t i;
};

static int s_dup_cmp(const void *a, const void *b)
{
	const struct s_dup_key *x = a, *y = b;
	int c;

	if (x->agent != y->agent)
		return x->agent < y->agent ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	c = strcmp(x->hook, y->hook);
	if (c)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Two events of one agent at the same instant with the same hook: the later one is reported. */
static void s_dups_check(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			 const struct lst_plan_hook *ev, size_t n)
{
	struct s_dup_key *keys = lst_calloc(n + 1, sizeof(*keys));
	size_t m = 0;
	char a[32], pfx[sizeof(ctx->prefix) + 32];

	for (size_t i = 0; i < n; i++)
		if (ev[i].agent != SIZE_MAX && ev[i].at >= 0 && ev[i].hook)
			keys[m++] = (struct s_dup_key){ ev[i].agent, ev[i].at, ev[i].hook, i };
	qsort(keys, m, sizeof(*keys), s_dup_cmp);
	for (size_t j = 1, first = 0; j < m; j++) {
		const struct s_dup_key *x = &keys[first], *y = &keys[j];

		if (x->agent != y->agent || x->at != y->at || strcmp(x->hook, y->hook)) {
			first = j;
			continue;
		}
		lst__plan_error_at(ctx, ev[y->i].mark.line, ev[y->i].mark.col,
				   "%sthe same event as event %zu (at %d:%d): agent %s runs %s at "
				   "%s once per point",
				   s_item_prefix(ctx, sec, y->i, pfx, sizeof(pfx)), x->i + 1,
				   ev[x->i].mark.line, ev[x->i].mark.col,
				   ctx->plan->agents[x->agent].name, x->hook,
				   s_at_text(x->at, a, sizeof(a)));
	}
	free(keys);
}

/* Events by `at`; equal instants keep the order written (the file's order is the marks'). */
static int s_at_cmp(const void *a, const void *b)
{
	const struct lst_plan_hook *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->mark.line != y->mark.line)
		return x->mark.line < y->mark.line ? -1 : 1;
	return x->mark.col < y->mark.col ? -1 : x->mark.col > y->mark.col;
}

void lst__plan_hooks(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		     const struct lst_yaml_node *v, void *base)
{
	struct lst_plan_phase *ph = base;
	size_t start = ctx->nerrs + ctx->nbad;
	/* the phase's earlier keys read well (the hook lists' own errors aside) */
	bool clean = start - ctx->hook_errs == ctx->item_start;
	struct lst_plan_hook *hooks;
	size_t n;

	lst__plan_items(ctx, k, v, base);
	hooks = *(struct lst_plan_hook **)lst__plan_at(base, k->o.offset);
	n = *(size_t *)lst__plan_at(base, k->aux);
	if (clean)
		s_agents_check(ctx, k->sub, ph, hooks, n, v);
	if (k->o.offset == offsetof(struct lst_plan_phase, events)) {
		if (clean)
			s_times_check(ctx, k->sub, ph, hooks, n, v);
		s_counts_check(ctx, k->sub, hooks, n);
		s_dups_check(ctx, k->sub, hooks, n);
		if (n > 1)
			qsort(hooks, n, sizeof(*hooks), s_at_cmp);
	}
	ctx->hook_errs += ctx->nerrs + ctx->nbad - start;
}

void lst__plan_telemetry_value(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			       const struct lst_yaml_node *v, void *base)
{
	struct lst_plan_phase *ph = base;
	bool ok;
	const struct lst_yaml_node *map;

	if (v->type == LST_YAML_SCALAR && !v->null && !v->bad) {
		if (!strcmp(v->text, "off"))
			ph->telemetry_every = LST_TELEMETRY_OFF;
		else
			lst__plan_error(ctx, v,
					"telemetry is off or a map like {collect: [smart], every: "
					"point}, not '%s'",
					v->text);
		return;
	}
	map = lst__plan_map(ctx, k->o.name, v, &ok);
	if (ok)
		lst__plan_section_read(ctx, k->sub, v, map, base);
}

void lst__plan_collect(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		       const struct lst_yaml_node *v, void *base)
{
	struct lst_plan_phase *ph = base;
	long n = lst__plan_list(ctx, k->o.name, v);

	(void)k;
	if (n < 0)
		return;
	if (n == 0) {
		lst__plan_error(ctx, v,
				"telemetry: collect needs at least one collector; leave it out for "
				"every collector of each agent's config");
		return;
	}
	if (n > LST_MAX_HOOKS) {
		lst__plan_error(ctx, v,
				"telemetry: collect names %ld collectors; an agent's config has at "
				"most %d",
				n, LST_MAX_HOOKS);
		return;
	}
	ph->collect = lst_calloc((size_t)n, sizeof(*ph->collect));
	ph->collect_marks = lst_calloc((size_t)n, sizeof(*ph->collect_marks));
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *item = v->kids[i];
		const char *name = lst__plan_scalar(ctx, "a collector in collect", item);
		size_t first = SIZE_MAX;

		if (!name)
			continue;
		if (!lst__plan_name_ok(name)) {
			lst__plan_error(ctx, item,
					"telemetry: collector '%s' may only use letters, digits, "
					"'_', '.' and '-', at most %d of them",
					name, LST__PLAN_NAME_MAX);
			continue;
		}
		for (size_t j = 0; j < ph->ncollect && first == SIZE_MAX; j++)
			if (!strcmp(ph->collect[j], name))
				first = j;
		if (first != SIZE_MAX) {
			lst__plan_error(ctx, item,
					"telemetry: collector '%s' is named twice (first at %d:%d)",
					name, ph->collect_marks[first].line,
					ph->collect_marks[first].col);
			continue;
		}
		ph->collect[ph->ncollect] = lst_strdup(name);
		ph->collect_marks[ph->ncollect++] = item->mark;
	}
}

static void s_hook_list_free(struct lst_plan_hook *hooks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(hooks[i].hook);
	free(hooks);
}

void lst__plan_hooks_free(struct lst_plan_phase *ph)
{
	s_hook_list_free(ph->events, ph->nevents);
	s_hook_list_free(ph->before, ph->nbefore);
	s_hook_list_free(ph->after, ph->nafter);
	for (size_t i = 0; i < ph->ncollect; i++)
		free(ph->collect[i]);
	free(ph->collect);
	free(ph->collect_marks);
	ph->events = ph->before = ph->after = NULL;
	ph->collect = NULL;
	ph->collect_marks = NULL;
	ph->nevents = ph->nbefore = ph->nafter = ph->ncollect = 0;
}
