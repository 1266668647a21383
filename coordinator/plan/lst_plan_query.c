/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a read plan answers (lst_plan.h), used by the coordinator and by the plan's own checks,
 * so it sits below the reader: nothing here reads YAML. A phase's sweep points are computed, not
 * stored: point i is the phase's workload with each axis set to its value for i, first axis
 * outermost; a `ports` axis changes no option but picks the point's port set. Which paths work
 * in a point and with what workload (roles, port sets) is decided here, by lst_plan_path_role,
 * and so are the agents a phase has (lst_plan_phase_has_agent) and how long its points last
 * (lst_plan_phase_point_ns), which the checks of its events rely on. The names of the suites,
 * the tracked values, the options a sweep may not vary, and the keys of paths and selectors in a map, are here
 * for the same reason: the schema, the readers and the checks all use them.
 */
#include "lst_plan.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_identity.h"
#include "lst_plan_int.h"
#include "lst_util.h"

/* The names of enum lst_suite and enum lst_track (lst_plan.h), and the workload options a sweep
 * may vary (lst_plan_int.h): read by the schema, the checks and the coordinator alike. */
const char *const lst_suite_names[] = {
	"none",		"purge",     "precondition", "snia-iops",   "snia-throughput",
	"snia-latency", "snia-wsat", "snia-hir",     "lat-vs-iops", "curve",
	"snia-xsr",	"snia-ecw",  "snia-dirth",   "slo",	    NULL
};
const char *const lst_slo_over_names[] = { "rate", "iodepth", NULL };
const char *const lst_track_names[] = { "iops",	    "read_iops", "write_iops", "mbps",
					"lat_mean", "lat_p99",	 NULL };
const char *const lst__plan_grid_axes[] = {
	"jobs", "iodepth", "bs", "rwmixread", "rate_iops", NULL
};

/* Why each workload option that cannot take a value per point cannot: a point's workload is
 * the phase's with some options set, and these belong to the phase as a whole. */
static const struct {
	const char *name, *why;
} s_fixed[] = {
	{ "runtime", "every point of a phase lasts as long (its events, rounds and stop are timed "
		     "by it)" },
	{ "ramp", "every point of a phase lasts as long (its events, rounds and stop are timed by "
		  "it)" },
	{ "bytes", "every point of a phase stops alike (its stop and its events are set by it)" },
	{ "interval", "a phase's samples share one interval (its merge, steady state and plots "
		      "step by it)" },
	{ "verify", "verify's write journal spans the phase (each point checks what the one "
		    "before wrote)" },
	{ "skew", "a mix is a set of workloads of its own (each entry gives its rw and bs)" },
	{ "write_iolog", "a trace is recorded per phase" },
	{ "read_iolog", "a trace is replayed per phase" },
	{ "replay_time_scale", "a trace is replayed per phase" },
};

const char *lst__plan_sweep_fixed(const struct lst_opt *o)
{
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_fixed); i++)
		if (!strcmp(o->name, s_fixed[i].name))
			return s_fixed[i].why;
	return NULL;
}

size_t lst__plan_path_key(char *key, size_t agent, const char *path)
{
	size_t n = strlen(path);

	LST_ASSERT(n < LST_PATH_MAX);
	memcpy(key, &agent, sizeof(agent));
	memcpy(key + sizeof(agent), path, n);
	return sizeof(agent) + n;
}

size_t lst__plan_sel_key(char *key, const struct lst_plan_sel *sel)
{
	return lst__plan_path_key(key, sel->agent, sel->path ? sel->path : "");
}

size_t lst_plan_phase_points(const struct lst_plan_phase *ph)
{
	size_t n = 1;

	for (size_t a = 0; a < ph->naxes; a++)
		n *= ph->axes[a].n;
	return n;
}

/* The value index of each axis for point i: the last axis moves fastest (innermost loop). */
static void s_point_indexes(const struct lst_plan_phase *ph, size_t i,
			    size_t idx[LST_SWEEP_MAX_AXES])
{
	size_t rest = i;

	LST_ASSERT(i < lst_plan_phase_points(ph));
	for (size_t a = ph->naxes; a-- > 0;) {
		idx[a] = rest % ph->axes[a].n;
		rest /= ph->axes[a].n;
	}
}

void lst_plan_phase_point(const struct lst_plan_phase *ph, size_t i, struct lst_workload *w,
			  char *label, size_t label_size)
{
	size_t len = 0;
	size_t idx[LST_SWEEP_MAX_AXES];

	*w = ph->w;
	s_point_indexes(ph, i, idx);
	if (label && label_size)
		label[0] = '\0';
	for (size_t a = 0; a < ph->naxes; a++) {
		const struct lst_sweep_axis *ax = &ph->axes[a];
		char val[LST_OPT_WIRE_MAX];

		lst__plan_sweep_set(ph, a, idx[a], w);
		if (!label || len >= label_size)
			continue;
		if (!ax->opt)
			len += (size_t)snprintf(label + len, label_size - len, "%sports=%s",
						a ? " " : "", ax->sets[idx[a]].label);
		else
			len += (size_t)snprintf(label + len, label_size - len, "%s%s=%s",
						a ? " " : "", ax->opt->name,
						lst_opt_format(ax->opt, w, val, sizeof(val)));
	}
}

void lst__plan_sweep_set(const struct lst_plan_phase *ph, size_t axis, size_t i,
			 struct lst_workload *w)
{
	const struct lst_sweep_axis *ax = &ph->axes[axis];
	size_t size;

	if (!ax->opt)
		return;
	if (!lst_opt_is_struct(ax->opt)) {
		*(int64_t *)lst__plan_at(w, ax->opt->offset) = ax->values[i];
		return;
	}
	/* plain bytes: an option whose value owns memory is not swept (s_sweep_opt) */
	size = lst_opt_size(ax->opt);
	memcpy(lst__plan_at(w, ax->opt->offset), ax->raw + i * size, size);
}

bool lst__plan_is_value_axis(const struct lst_plan_phase *ph, const struct lst_sweep_axis *ax)
{
	if (ph->suite == LST_SUITE_NONE || !ax->opt)
		return false;
	for (size_t i = 0; lst__plan_grid_axes[i]; i++)
		if (!strcmp(ax->opt->name, lst__plan_grid_axes[i]))
			return false;
	return true;
}

size_t lst_plan_phase_values(const struct lst_plan_phase *ph)
{
	size_t n = 1;

	for (size_t a = 0; a < ph->naxes; a++)
		if (lst__plan_is_value_axis(ph, &ph->axes[a]))
			n *= ph->axes[a].n;
	return n;
}

void lst_plan_phase_value(const struct lst_plan_phase *ph, size_t i, struct lst_workload *w,
			  bool set[32], char *label, size_t label_size)
{
	size_t idx[LST_SWEEP_MAX_AXES] = { 0 }, rest = i, len = 0;

	LST_ASSERT(i < lst_plan_phase_values(ph));
	*w = ph->w;
	if (label && label_size)
		label[0] = '\0';
	/* the last value axis moves fastest, as in a plain phase's sweep */
	for (size_t a = ph->naxes; a-- > 0;) {
		if (!lst__plan_is_value_axis(ph, &ph->axes[a]))
			continue;
		idx[a] = rest % ph->axes[a].n;
		rest /= ph->axes[a].n;
	}
	for (size_t a = 0; a < ph->naxes; a++) {
		const struct lst_sweep_axis *ax = &ph->axes[a];
		char val[LST_OPT_WIRE_MAX];

		if (!lst__plan_is_value_axis(ph, ax))
			continue;
		lst__plan_sweep_set(ph, a, idx[a], w);
		if (set)
			set[ax->opt - lst_workload_opts] = true;
		if (label && len < label_size)
			len += (size_t)snprintf(label + len, label_size - len, "%s%s=%s",
						len ? " " : "", ax->opt->name,
						lst_opt_format(ax->opt, w, val, sizeof(val)));
	}
}

void lst_plan_value_stem(const char *phase, const char *value, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s", phase);

	if (!*value || n + 1 >= size)
		return;
	buf[n++] = '-';
	for (const char *c = value; *c && n + 1 < size; c++)
		buf[n++] = *c == ' '					       ? '-'
			   : strchr("=.+-%", *c) || isalnum((unsigned char)*c) ? *c
									       : '_';
	buf[n] = '\0';
}

const struct lst_port_set *lst_plan_phase_ports(const struct lst_plan_phase *ph, size_t i)
{
	size_t idx[LST_SWEEP_MAX_AXES];

	s_point_indexes(ph, i, idx);
	for (size_t a = 0; a < ph->naxes; a++)
		if (!ph->axes[a].opt)
			return &ph->axes[a].sets[idx[a]];
	return NULL;
}

bool lst__plan_sel_match(const struct lst_plan_sel *sel, const struct lst_plan_path *pa)
{
	return sel->agent == pa->agent && (!sel->path || !strcmp(sel->path, pa->path));
}

bool lst__plan_set_selects(const struct lst_port_set *set, const struct lst_plan_path *pa)
{
	for (size_t i = 0; i < set->nsel; i++)
		if (lst__plan_sel_match(&set->sel[i], pa))
			return true;
	return false;
}

/* Apply the options role r gives onto w, marking them in set (may be NULL). */
static void s_role_apply(const struct lst_plan_role *r, struct lst_workload *w, bool *set)
{
	for (size_t o = 0; lst_workload_opts[o].name; o++) {
		size_t off = lst_workload_opts[o].offset;

		LST_ASSERT(o < LST_ARRAY_SIZE(r->w_set));
		if (!r->w_set[o])
			continue;
		memcpy(lst__plan_at(w, off), (const char *)&r->w + off,
		       lst_opt_size(&lst_workload_opts[o]));
		if (set)
			set[o] = true;
	}
}

bool lst_plan_path_role(const lst_plan *p, const struct lst_plan_phase *ph,
			const struct lst_port_set *ports, size_t t, size_t j,
			struct lst_workload *w, bool set[32])
{
	const struct lst_plan_role *agent_role = NULL, *path_role = NULL;
	const struct lst_plan_path *pa;

	LST_ASSERT(t < p->ntargets && j < p->targets[t].npaths);
	pa = &p->targets[t].paths[j];
	if (ports && !lst__plan_set_selects(ports, pa))
		return false;
	if (ph->nroles) {
		struct lst_plan_sel sel = { .agent = pa->agent };
		char key[sizeof(size_t) + LST_PATH_MAX];
		size_t r;

		/* one look-up for the agent's role, one for the path's: a plan gives each once */
		if (lst_map_find(ph->role_index, key, lst__plan_sel_key(key, &sel), &r))
			agent_role = &ph->roles[r];
		sel.path = pa->path;
		if (lst_map_find(ph->role_index, key, lst__plan_sel_key(key, &sel), &r))
			path_role = &ph->roles[r];
	}
	/* the path's own role wins: `a: idle` with `a:/dev/sdb: {...}` leaves /dev/sdb at work */
	if (path_role ? path_role->idle : agent_role && agent_role->idle)
		return false;
	if (agent_role && !agent_role->idle)
		s_role_apply(agent_role, w, set);
	if (path_role)
		s_role_apply(path_role, w, set);
	return true;
}

bool lst_plan_phase_has_agent(const lst_plan *p, const struct lst_plan_phase *ph, size_t i)
{
	const struct lst_sweep_axis *ports = NULL;

	/* Only the ports axis changes which paths work; the others change workloads. */
	for (size_t a = 0; a < ph->naxes; a++)
		if (!ph->axes[a].opt)
			ports = &ph->axes[a];
	for (size_t s = 0; s < (ports ? ports->n : 1); s++) {
		const struct lst_port_set *set = ports ? &ports->sets[s] : NULL;

		for (size_t k = 0; k < ph->ntargets; k++) {
			size_t t = ph->targets[k];

			for (size_t j = 0; j < p->targets[t].npaths; j++) {
				struct lst_workload w = ph->w;

				if (p->targets[t].paths[j].agent == i &&
				    lst_plan_path_role(p, ph, set, t, j, &w, NULL))
					return true;
			}
		}
	}
	return false;
}

bool lst_plan_phase_one_point(const struct lst_plan_phase *ph)
{
	return ph->suite == LST_SUITE_NONE && !ph->steady && lst_plan_phase_points(ph) == 1;
}

int lst_plan_point_trace(const struct lst_plan_phase *ph, size_t point, char *name)
{
	size_t n = strlen(name);
	int len;

	if (!n || lst_plan_phase_one_point(ph))
		return 0;
	len = snprintf(name + n, LST_OPT_TEXT_MAX - n, "-p%zu", point);
	if (len < 0 || (size_t)len >= LST_OPT_TEXT_MAX - n) {
		name[n] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Of two limits where 0 means none, the one that comes first (as the suites apply them). */
static int64_t s_first(int64_t a, int64_t b)
{
	return !a ? b : !b ? a : LST_MIN(a, b);
}

int64_t lst_plan_phase_point_ns(const struct lst_plan_phase *ph)
{
	const struct lst_opt *rt = lst_opt_find(lst_workload_opts, "runtime");
	int64_t run;

	/* As coordinator/suite/lst_suite.c builds the points; a suite's own default round
	 * (60 s for SNIA tests) is the suite's to decide, not the plan's: 0. */
	switch (ph->suite) {
	case LST_SUITE_NONE:
		run = s_first(ph->round_duration ? ph->round_duration : ph->w.runtime,
			      ph->stop_runtime);
		return run ? (ph->round_duration ? ph->round_ramp : ph->w.ramp) + run : 0;
	case LST_SUITE_PURGE:
		return 0;
	case LST_SUITE_PRECONDITION:
		LST_ASSERT(rt);
		run = s_first(ph->w_set[rt - lst_workload_opts] ? ph->w.runtime : 0,
			      ph->stop_runtime);
		return run ? ph->w.ramp + run : 0;
	case LST_SUITE_SNIA_HIR:
		return LST_MAX(ph->hir_burst, ph->nhir_gaps > 1 ? ph->hir_continuous : 0);
	default:
		return ph->round_duration ? ph->round_ramp + ph->round_duration : 0;
	}
}

int lst_plan_agent_index(const lst_plan *p, const char *name)
{
	size_t i;

	return lst_map_find_str(p->agent_names, name, &i) ? (int)i : -1;
}

int lst_plan_target_index(const lst_plan *p, const char *name)
{
	size_t i;

	return lst_map_find_str(p->target_names, name, &i) ? (int)i : -1;
}

const char *lst__plan_known_names(const lst_plan *p, bool agents, char *buf, size_t size)
{
	size_t n = 0, count = agents ? p->nagents : p->ntargets;

	buf[0] = '\0';
	for (size_t j = 0; j < count && n < size; j++) {
		const char *name = agents ? p->agents[j].name : p->targets[j].name;

		if (name && (agents ? lst_plan_agent_index(p, name)
				    : lst_plan_target_index(p, name)) == (int)j)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", name);
	}
	return n ? buf : "none";
}
