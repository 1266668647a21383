/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Paths, roles and port sets: how a plan says which device paths take part in a phase and what
 * each one does. A target's `paths:` gives one path or a list of paths per agent; a phase's
 * `paths:` gives roles (idle, or workload keys of their own) to an agent or to one path of it;
 * a `ports` sweep axis lists the sets of paths that take part in each point.
 *
 * Roles and port sets name paths with a selector: `a` (every path of agent a) or `a:/dev/sdb`
 * (one path; agent names hold no ':', so the first ':' splits). A selector must name a path of
 * the phase's targets: the reader fills the phase's default targets before its keys, and reads
 * `targets:` and `workload:` before `paths:` and `sweep:` (table order), so both are known here.
 * What needs roles and sets together (a set that leaves every path idle) is checked after the
 * phase's keys, by lst__plan_paths_check. Deciding a path's part in a point is lst_plan.c's
 * (lst_plan_path_role), and these checks use it, so they cannot disagree with a run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_identity.h"
#include "lst_plan_int.h"
#include "lst_text.h"
#include "lst_util.h"

/* Workload keys one agent's run has once, for all its paths: a role may not change them. */
static const char *const s_agent_wide_keys[] = { "runtime", "ramp", "interval", "engine", NULL };

/*
 * Append path text (from node vn, for agent kn) to t after checking it; mark is its place.
 * seen indexes t's paths by lst__plan_path_key.
 */
static void s_path_add(struct lst__plan_ctx *ctx, struct lst_plan_target *t, lst_map *seen,
		       const struct lst_yaml_node *kn, size_t agent, const char *what,
		       const struct lst_yaml_node *vn, struct lst_mark mark)
{
	const char *path = lst__plan_scalar(ctx, what, vn);
	char key[sizeof(size_t) + LST_PATH_MAX];
	size_t j;

	if (!path)
		return;
	if (path[0] != '/') {
		lst__plan_error(ctx, vn,
				"path '%s' for agent '%s' must be absolute "
				"(like /dev/disk/by-id/...)",
				path, kn->text);
		return;
	}
	if (strpbrk(path, "\t\n")) {
		lst__plan_error(ctx, vn,
				"path '%s' for agent '%s' holds a tab or a newline; a device path "
				"is one line of plain text",
				path, kn->text);
		return;
	}
	if (strlen(path) >= LST_PATH_MAX) {
		lst__plan_error(ctx, vn, "path for agent '%s' is longer than %d bytes", kn->text,
				LST_PATH_MAX - 1);
		return;
	}
	if (!lst_map_add(seen, key, lst__plan_path_key(key, agent, path), t->npaths, &j)) {
		lst__plan_error(ctx, vn, "path %s is listed twice for agent %s (first at %d:%d)",
				path, kn->text, t->paths[j].mark.line, t->paths[j].mark.col);
		return;
	}
	t->paths[t->npaths].agent = agent;
	t->paths[t->npaths].path = lst_strdup(path);
	t->paths[t->npaths].mark = mark;
	t->npaths++;
}

/* The number of paths map (agent -> path or list of paths) can give: room to allocate. */
static size_t s_path_room(const struct lst_yaml_node *map)
{
	size_t n = 0;

	for (size_t i = 1; i < map->n; i += 2)
		n += map->kids[i]->type == LST_YAML_LIST ? map->kids[i]->n : 1;
	return n;
}

void lst__plan_target_paths(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			    const struct lst_yaml_node *v, void *base)
{
	struct lst_plan_target *t = base;
	const lst_plan *p = ctx->plan;
	bool ok;
	const struct lst_yaml_node *map = lst__plan_map(ctx, k->o.name, v, &ok);
	lst_map *seen;

	if (!ok)
		return;
	if (!map || map->n == 0) {
		lst__plan_error(ctx, v,
				"paths must map at least one agent to its device path "
				"(like {a: /dev/sdb})");
		return;
	}
	t->paths = lst_calloc(s_path_room(map) + 1, sizeof(*t->paths));
	seen = lst_map_new();
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i], *vn = map->kids[i + 1];
		char known[512], what[128];
		int a;

		if (kn->type != LST_YAML_SCALAR)
			continue;
		a = lst_plan_agent_index(p, kn->text);
		if (a < 0) {
			lst__plan_error(
				ctx, kn, "path for agent '%s', which is not in agents (known: %s)",
				kn->text, lst__plan_known_names(p, true, known, sizeof(known)));
			continue;
		}
		if (vn->type == LST_YAML_MAP && !vn->bad) {
			lst__plan_error(
				ctx, vn,
				"paths of agent '%s' must be a path or a list of paths, not "
				"a map",
				kn->text);
			continue;
		}
		if (vn->type != LST_YAML_LIST) {
			/* one path: its place is the agent's key, as before lists */
			s_path_add(ctx, t, seen, kn, (size_t)a, kn->text, vn, kn->mark);
			continue;
		}
		if (vn->n == 0) {
			lst__plan_error(ctx, vn,
					"paths of agent '%s' is an empty list; give at least one "
					"path (like [/dev/sdb])",
					kn->text);
			continue;
		}
		snprintf(what, sizeof(what), "a path of agent '%s'", kn->text);
		for (size_t j = 0; j < vn->n; j++)
			s_path_add(ctx, t, seen, kn, (size_t)a, what, vn->kids[j],
				   vn->kids[j]->mark);
	}
	lst_map_destroy(&seen);
}

/* Does sel select a path of the phase's targets? Each phase's selectors are indexed once. */
static bool s_sel_in_phase(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			   const struct lst_plan_sel *sel)
{
	const lst_plan *p = ctx->plan;
	char key[sizeof(size_t) + LST_PATH_MAX];

	if (!ctx->phase_sels) {
		ctx->phase_sels = lst_map_new();
		for (size_t i = 0; i < ph->ntargets; i++) {
			const struct lst_plan_target *t = &p->targets[ph->targets[i]];

			for (size_t j = 0; j < t->npaths; j++) {
				struct lst_plan_sel all = { .agent = t->paths[j].agent };
				struct lst_plan_sel one = { .agent = all.agent,
							    .path = t->paths[j].path };

				lst_map_add(ctx->phase_sels, key, lst__plan_sel_key(key, &all), 0,
					    NULL);
				lst_map_add(ctx->phase_sels, key, lst__plan_sel_key(key, &one), 0,
					    NULL);
			}
		}
	}
	if (sel->path && strlen(sel->path) >= LST_PATH_MAX)
		return false; /* no path of a target is that long */
	return lst_map_find(ctx->phase_sels, key, lst__plan_sel_key(key, sel), NULL);
}

/* The paths agent has in the phase's targets, as "/dev/sdb, /dev/sdc" ("none") in buf. */
static const char *s_agent_paths(const lst_plan *p, const struct lst_plan_phase *ph, size_t agent,
				 char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ph->ntargets; i++) {
		const struct lst_plan_target *t = &p->targets[ph->targets[i]];

		for (size_t j = 0; j < t->npaths && n < size; j++)
			if (t->paths[j].agent == agent)
				n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
						      t->paths[j].path);
	}
	return n ? buf : "none";
}

/*
 * Read selector text (`a` or `a:/dev/sdb`, at node n) into sel, the path copied. Returns false
 * after reporting an unknown agent, a missing path after the ':', or a path the agent does not
 * have in the phase's targets; what ("paths", "sweep: ports") starts those messages.
 */
static bool s_sel(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph, const char *what,
		  const struct lst_yaml_node *n, const char *text, struct lst_plan_sel *sel)
{
	const lst_plan *p = ctx->plan;
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	char name[LST__PLAN_NAME_MAX + 1], buf[512];
	int a = -1;

	if (len <= LST__PLAN_NAME_MAX) {
		snprintf(name, sizeof(name), "%.*s", (int)len, text);
		a = lst_plan_agent_index(p, name);
	}
	if (a < 0) {
		lst__plan_error(ctx, n, "%s: unknown agent '%.*s' (known: %s)", what, (int)len,
				text, lst__plan_known_names(p, true, buf, sizeof(buf)));
		return false;
	}
	if (colon && colon[1] != '/') {
		lst__plan_error(ctx, n,
				"%s: '%s' names no device path after the ':'; write %s for every "
				"path of the agent, or %s:/dev/... for one",
				what, text, name, name);
		return false;
	}
	sel->agent = (size_t)a;
	sel->path = colon ? (char *)colon + 1 : NULL;
	sel->mark = n->mark;
	if (!s_sel_in_phase(ctx, ph, sel)) {
		if (sel->path)
			lst__plan_error(ctx, n,
					"%s: agent %s has no path %s in this phase's targets (its "
					"paths: %s)",
					what, name, sel->path,
					s_agent_paths(p, ph, (size_t)a, buf, sizeof(buf)));
		else
			lst__plan_error(ctx, n, "%s: agent %s has no path in this phase's targets",
					what, name);
		return false;
	}
	if (sel->path)
		sel->path = lst_strdup(sel->path);
	return true;
}

/* Do a and b select the same paths (the same agent, and both all of it or the same path)? */
static bool s_sel_same(const struct lst_plan_sel *a, const struct lst_plan_sel *b)
{
	if (a->agent != b->agent || !a->path != !b->path)
		return false;
	return !a->path || !strcmp(a->path, b->path);
}

/* Is opt one that must stay the same on every path of an agent? */
static bool s_agent_wide(const struct lst_opt *o)
{
	for (size_t i = 0; s_agent_wide_keys[i]; i++)
		if (!strcmp(o->name, s_agent_wide_keys[i]))
			return true;
	return false;
}

/* lst__plan_refuse_fn for roles: the options one agent's run has once (kn_arg: the selector). */
static bool s_refuse_agent_wide(struct lst__plan_ctx *ctx, const struct lst_yaml_node *on,
				const struct lst_opt *o, const void *kn_arg)
{
	const struct lst_yaml_node *kn = kn_arg;

	if (!s_agent_wide(o))
		return false;
	lst__plan_error(ctx, on,
			"paths: %s: %s cannot differ between paths: an agent's run has one "
			"timeline and one engine; set it in the phase's workload",
			kn->text, o->name);
	return true;
}

/* The workload keys of a role's map into r, starting from the phase's workload. */
static void s_role_keys(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			const struct lst_yaml_node *kn, const struct lst_yaml_node *map,
			struct lst_plan_role *r)
{
	char where[LST_PATH_MAX + 32];

	snprintf(where, sizeof(where), "the role of %s", kn->text);
	r->w = ph->w;
	lst__plan_workload_keys(ctx, map, where, &r->w, r->w_set, s_refuse_agent_wide, kn);
}

/* A role's value vn (for selector kn) into r: `idle` or a map of workload keys. */
static bool s_role_value(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			 const struct lst_yaml_node *kn, const struct lst_yaml_node *vn,
			 struct lst_plan_role *r)
{
	if (vn->bad) {
		ctx->nbad++;
		return false;
	}
	if (vn->type == LST_YAML_SCALAR && !vn->null && !strcmp(vn->text, "idle")) {
		r->idle = true;
		return true;
	}
	if (vn->type == LST_YAML_MAP) {
		s_role_keys(ctx, ph, kn, vn, r);
		return true;
	}
	if (vn->type == LST_YAML_SCALAR && !vn->null)
		lst__plan_error(ctx, vn,
				"paths: %s: a role is idle or a map of workload keys (like {rw: "
				"randwrite}), not '%s'",
				kn->text, vn->text);
	else
		lst__plan_error(ctx, vn,
				"paths: %s: a role is idle or a map of workload keys (like {rw: "
				"randwrite}), not %s",
				kn->text, lst_yaml_what(vn));
	return false;
}

void lst__plan_roles(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		     const struct lst_yaml_node *v, void *base)
{
	struct lst_plan_phase *ph = base;
	bool ok;
	const struct lst_yaml_node *map = lst__plan_map(ctx, k->o.name, v, &ok);

	if (!ok)
		return;
	if (!map || map->n == 0) {
		lst__plan_error(ctx, v,
				"paths must give at least one agent or AGENT:PATH a role "
				"(like {a: idle} or {\"a:/dev/sdb\": {iodepth: 1}})");
		return;
	}
	ph->roles = lst_calloc(map->n / 2 + 1, sizeof(*ph->roles));
	ph->role_index = lst_map_new();
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i];
		struct lst_plan_role *r = &ph->roles[ph->nroles];
		char key[sizeof(size_t) + LST_PATH_MAX];
		size_t len;
		bool first;

		memset(r, 0, sizeof(*r));
		if (kn->type != LST_YAML_SCALAR || !s_sel(ctx, ph, "paths", kn, kn->text, &r->sel))
			continue;
		len = lst__plan_sel_key(key, &r->sel);
		first = lst_map_find(ph->role_index, key, len, NULL);
		/* the same selector is the same key text: the YAML reader said "duplicate key" */
		if (first)
			ctx->nbad++;
		r->mark = kn->mark;
		if (first || !s_role_value(ctx, ph, kn, map->kids[i + 1], r)) {
			free(r->sel.path);
			memset(r, 0, sizeof(*r));
			continue;
		}
		lst_map_add(ph->role_index, key, len, ph->nroles++, NULL);
	}
}

static void s_port_set_free(struct lst_port_set *set)
{
	for (size_t i = 0; i < set->nsel; i++)
		free(set->sel[i].path);
	free(set->sel);
	free(set->label);
	memset(set, 0, sizeof(*set));
}

/* The label of a set: its selectors joined by '+' ("a:/dev/sdb+b"). */
static char *s_port_label(const lst_plan *p, const struct lst_port_set *set)
{
	char *label = lst_strdup("");

	for (size_t i = 0; i < set->nsel; i++) {
		const struct lst_plan_sel *s = &set->sel[i];
		char *next =
			lst_asprintf("%s%s%s%s%s", label, i ? "+" : "", p->agents[s->agent].name,
				     s->path ? ":" : "", s->path ? s->path : "");

		free(label);
		label = next;
	}
	return label;
}

/* One value of the ports axis, item, into set. Returns false after reporting what is wrong. */
static bool s_port_set(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
		       const struct lst_yaml_node *item, struct lst_port_set *set)
{
	bool ok = true;
	long n;

	if (item->type == LST_YAML_SCALAR && !item->null && !item->bad) {
		lst__plan_error(ctx, item,
				"sweep: ports: each value is a set of paths in brackets, like "
				"[a] or [a, b], not '%s'",
				item->text);
		return false;
	}
	n = lst__plan_list(ctx, "a port set", item);
	if (n < 0)
		return false;
	if (n == 0) {
		lst__plan_error(ctx, item,
				"sweep: ports: an empty port set; name at least one agent or "
				"AGENT:PATH, like [a]");
		return false;
	}
	set->sel = lst_calloc((size_t)n, sizeof(*set->sel));
	set->mark = item->mark;
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *s = item->kids[i];
		const char *text = lst__plan_scalar(ctx, "a port in a port set", s);
		struct lst_plan_sel sel;
		bool dup = false;

		if (!text || !s_sel(ctx, ph, "sweep: ports", s, text, &sel)) {
			ok = false;
			continue;
		}
		for (size_t j = 0; j < set->nsel; j++)
			dup = dup || s_sel_same(&set->sel[j], &sel);
		if (dup) {
			lst__plan_error(ctx, s, "sweep: ports: '%s' is listed twice in a port set",
					text);
			free(sel.path);
			ok = false;
			continue;
		}
		set->sel[set->nsel++] = sel;
	}
	if (!ok) {
		s_port_set_free(set);
		return false;
	}
	set->label = s_port_label(ctx->plan, set);
	return true;
}

const struct lst_sweep_axis *lst__plan_ports_axis(struct lst__plan_ctx *ctx,
						  struct lst_plan_phase *ph,
						  const struct lst_yaml_node *kn,
						  const struct lst_yaml_node *vn)
{
	struct lst_sweep_axis *ax;
	long n;

	if (ph->suite != LST_SUITE_NONE) {
		lst__plan_error(ctx, kn,
				"sweep: a ports sweep is for phases without a suite (this one is "
				"suite: %s)",
				lst_suite_names[ph->suite]);
		return NULL;
	}
	if (ph->naxes == LST_SWEEP_MAX_AXES) {
		lst__plan_error(ctx, kn, "sweep: at most %d axes", LST_SWEEP_MAX_AXES);
		return NULL;
	}
	n = lst__plan_list(ctx, kn->text, vn);
	if (n < 0)
		return NULL;
	if (n == 0) {
		lst__plan_error(ctx, vn,
				"sweep: ports needs at least one port set, like [[a], [a, b]]");
		return NULL;
	}
	ax = &ph->axes[ph->naxes++];
	ax->mark = kn->mark;
	ax->sets = lst_calloc((size_t)n, sizeof(*ax->sets));
	for (size_t i = 0; i < (size_t)n; i++)
		if (s_port_set(ctx, ph, vn->kids[i], &ax->sets[ax->n]))
			ax->n++;
	if (ax->n == 0) {
		/* every set was wrong (and reported): keep the axis out of the points */
		free(ax->sets);
		memset(ax, 0, sizeof(*ax));
		ph->naxes--;
		return NULL;
	}
	return ax;
}

void lst__plan_port_sets_free(struct lst_sweep_axis *ax)
{
	for (size_t i = 0; ax->sets && i < ax->n; i++)
		s_port_set_free(&ax->sets[i]);
	free(ax->sets);
	ax->sets = NULL;
}

/* How many paths of the phase's targets work in a point with port set ports (NULL: all). */
static size_t s_active(const lst_plan *p, const struct lst_plan_phase *ph,
		       const struct lst_port_set *ports)
{
	size_t n = 0;

	for (size_t i = 0; i < ph->ntargets; i++) {
		size_t t = ph->targets[i];

		for (size_t j = 0; j < p->targets[t].npaths; j++) {
			struct lst_workload w = ph->w;

			n += lst_plan_path_role(p, ph, ports, t, j, &w, NULL);
		}
	}
	return n;
}

/* Do port sets a and b select the same paths of the phase's targets? */
static bool s_sets_same(const lst_plan *p, const struct lst_plan_phase *ph,
			const struct lst_port_set *a, const struct lst_port_set *b)
{
	for (size_t i = 0; i < ph->ntargets; i++) {
		const struct lst_plan_target *t = &p->targets[ph->targets[i]];

		for (size_t j = 0; j < t->npaths; j++)
			if (lst__plan_set_selects(a, &t->paths[j]) !=
			    lst__plan_set_selects(b, &t->paths[j]))
				return false;
	}
	return true;
}

/* The port sets of a ports axis: each leaves some path at work, and no two take the same. */
static void s_ports_check(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			  const struct lst_sweep_axis *ax)
{
	const lst_plan *p = ctx->plan;

	for (size_t s = 0; s < ax->n; s++) {
		const struct lst_port_set *set = &ax->sets[s];
		bool dup = false;

		for (size_t r = 0; r < s && !dup; r++) {
			dup = s_sets_same(p, ph, &ax->sets[r], set);
			if (dup)
				lst__plan_error_at(
					ctx, set->mark.line, set->mark.col,
					"%ssweep: ports: port set %s takes the same paths "
					"as port set %s (first at %d:%d)",
					ctx->prefix, set->label, ax->sets[r].label,
					ax->sets[r].mark.line, ax->sets[r].mark.col);
		}
		if (!dup && !s_active(p, ph, set))
			lst__plan_error_at(ctx, set->mark.line, set->mark.col,
					   "%ssweep: ports: port set %s leaves no path of this "
					   "phase's targets at work (every path it names is idle)",
					   ctx->prefix, set->label);
	}
}

/* A role whose workload breaks a check across options on its own (bs against offset). */
static void s_roles_workload_check(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph)
{
	lst_err err;

	if (lst_workload_check(&ph->w, 0, &err))
		return; /* reported at the phase's workload */
	for (size_t i = 0; i < ph->nroles; i++) {
		const struct lst_plan_role *r = &ph->roles[i];

		if (!r->idle && lst_workload_check(&r->w, 0, &err))
			lst__plan_error_at(ctx, r->mark.line, r->mark.col, "%spaths: %s%s%s: %s",
					   ctx->prefix, ctx->plan->agents[r->sel.agent].name,
					   r->sel.path ? ":" : "", r->sel.path ? r->sel.path : "",
					   err.msg);
	}
}

void lst__plan_paths_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			   const struct lst_plan_phase *ph)
{
	const struct lst_yaml_node *kn = NULL;

	s_roles_workload_check(ctx, ph);
	/* with other errors in the phase, roles or sets may be missing: no echo */
	if (ctx->nerrs + ctx->nbad != ctx->item_start)
		return;
	if (ph->nroles && !s_active(ctx->plan, ph, NULL) && lst_yaml_get(map, "paths", &kn)) {
		/* then no port set can do better: one message */
		lst__plan_error(ctx, kn, "every path is idle; a phase needs at least one at work");
		return;
	}
	for (size_t a = 0; a < ph->naxes; a++)
		if (!ph->axes[a].opt)
			s_ports_check(ctx, ph, &ph->axes[a]);
}
