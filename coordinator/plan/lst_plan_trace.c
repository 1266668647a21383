/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace record and replay on a phase, made into the workload options they stand for:
 *
 *   record: true                         write_iolog: PHASE (the phase's name)
 *   record: NAME                         write_iolog: NAME
 *   replay: {trace: NAME, scale: 200%}   read_iolog: NAME, replay_time_scale: 200
 *
 * The schema reads `record:` as text and `replay:` as its own small section; once all of a
 * phase's keys are read, this file checks the names (they become file names on the agents, so
 * lst_opt's name rules apply), writes the options, and refuses what cannot run: record and replay
 * on one phase, record on a purge, a shorthand given together with the option it stands for, a
 * replay on a suite, and a replay phase that also sets what the trace decides (directions, sizes,
 * offsets, rate, verify) in its workload, a path's role or a sweep axis. A recording phase with several points
 * writes one trace per point (the coordinator appends -pK: lst_plan_point_trace), so its name
 * keeps LST_PLAN_TRACE_SUFFIX_MAX characters free. Each error is at its place in the file.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_plan_int.h"
#include "lst_util.h"
#include "lst_yaml.h"

/* What a replay takes from its trace: a replay phase may not set these. */
static const char *const s_decided[] = { "rw",	 "rwmixread", "rwmixtrim",
					 "bs",	 "bssplit",   "random_distribution",
					 "skew", "rate_iops", NULL };

static size_t s_index(const char *name)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, name);

	LST_ASSERT(o);
	return (size_t)(o - lst_workload_opts);
}

/* The option a workload key stands for, shorthands included (hotband, bs: {...}, dedup). */
static const struct lst_opt *s_key_opt(const struct lst_yaml_node *kn)
{
	if (kn->type != LST_YAML_SCALAR)
		return NULL;
	if (!strcmp(kn->text, "hotband"))
		return lst_opt_find(lst_workload_opts, "random_distribution");
	if (!strcmp(kn->text, "dedup"))
		return lst_opt_find(lst_workload_opts, "dedupe_percentage");
	return lst_opt_find(lst_workload_opts, kn->text);
}

static bool s_is_decided(const struct lst_opt *o)
{
	for (size_t i = 0; o && s_decided[i]; i++)
		if (!strcmp(o->name, s_decided[i]))
			return true;
	return false;
}

/* The key node of the option at index opt in workload map wmap (any spelling), or NULL. */
static const struct lst_yaml_node *s_wkey(const struct lst_yaml_node *wmap, size_t opt)
{
	for (size_t i = 0; wmap && wmap->type == LST_YAML_MAP && i + 1 < wmap->n; i += 2) {
		const struct lst_opt *o = s_key_opt(wmap->kids[i]);

		if (o && (size_t)(o - lst_workload_opts) == opt)
			return wmap->kids[i];
	}
	return NULL;
}

/* Each key of workload map m (where: "workload", "the role of a") the trace decides. */
static void s_refuse_decided(struct lst__plan_ctx *ctx, const struct lst_yaml_node *m,
			     const char *where)
{
	for (size_t i = 0; m && m->type == LST_YAML_MAP && i + 1 < m->n; i += 2) {
		const struct lst_yaml_node *kn = m->kids[i];
		const struct lst_opt *o = s_key_opt(kn);

		if (s_is_decided(o))
			lst__plan_error(ctx, kn,
					"replay: the trace decides %s; leave '%s' out of %s in a "
					"replay phase",
					o->name, kn->text, where);
		else if (o && !strcmp(o->name, "jobs") && m->kids[i + 1]->type == LST_YAML_SCALAR &&
			 strcmp(m->kids[i + 1]->text, "1"))
			lst__plan_error(ctx, m->kids[i + 1],
					"replay: one job per path replays a trace (its I/Os in the "
					"recorded order); '%s' must be 1 in %s of a replay phase",
					kn->text, where);
	}
}

/* A replay phase: its workload, its paths' roles and its sweep axes, key by key. */
static void s_replay_keys(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map)
{
	const struct lst_yaml_node *paths = lst_yaml_get(map, "paths", NULL);
	const struct lst_yaml_node *sweep = lst_yaml_get(map, "sweep", NULL);
	char where[128];

	s_refuse_decided(ctx, lst_yaml_get(map, "workload", NULL), "workload");
	for (size_t i = 0; paths && paths->type == LST_YAML_MAP && i + 1 < paths->n; i += 2) {
		snprintf(where, sizeof(where), "the role of %s", paths->kids[i]->text);
		s_refuse_decided(ctx, paths->kids[i + 1], where);
	}
	for (size_t i = 0; sweep && sweep->type == LST_YAML_MAP && i + 1 < sweep->n; i += 2) {
		const struct lst_yaml_node *kn = sweep->kids[i];
		const struct lst_opt *o = s_key_opt(kn);

		if (s_is_decided(o))
			lst__plan_error(ctx, kn,
					"replay: a replay phase cannot sweep %s: the trace decides "
					"it",
					kn->text);
		else if (o && !strcmp(o->name, "jobs"))
			lst__plan_error(ctx, kn,
					"replay: a replay phase cannot sweep %s: one job per path "
					"replays a trace",
					kn->text);
	}
}

/*
 * Read name text (for key `key`, value node v) into out (LST_OPT_TEXT_MAX bytes) by the rules
 * of a LST_OPT_TEXT option, at most max characters; false after saying why.
 */
static bool s_name(struct lst__plan_ctx *ctx, const char *key, const struct lst_yaml_node *v,
		   const char *text, size_t max, char *out)
{
	struct lst_opt o = *lst_opt_find(lst_workload_opts, "write_iolog");
	lst_err err;

	o.name = key;
	o.offset = 0;
	if (lst_opt_parse(&o, out, text, &err)) {
		lst__plan_error(ctx, v, "%s", err.msg);
		return false;
	}
	if (!out[0]) {
		lst__plan_error(ctx, v, "%s: '%s' is no trace name", key, text);
		return false;
	}
	if (strlen(out) > max) {
		lst__plan_error(ctx, v,
				"%s: '%s' is longer than %zu characters (the phase has several "
				"points, and each point's trace gets -pK appended)",
				key, text, max);
		out[0] = '\0';
		return false;
	}
	return true;
}

/* The longest trace name phase ph may record to. */
static size_t s_record_max(const struct lst_plan_phase *ph)
{
	return LST_OPT_TEXT_MAX - 1 -
	       (lst_plan_phase_one_point(ph) ? 0 : LST_PLAN_TRACE_SUFFIX_MAX);
}

/* `record:` into write_iolog; false when it is not given or was refused. */
static bool s_record(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
		     struct lst_plan_phase *ph)
{
	size_t wi = s_index("write_iolog");
	const struct lst_yaml_node *kn = NULL, *v = lst_yaml_get(map, "record", &kn);
	const struct lst_yaml_node *plain = s_wkey(lst_yaml_get(map, "workload", NULL), wi);
	char name[LST_OPT_TEXT_MAX];
	bool on = false, is_bool;

	if (!ph->record || !v)
		return false;
	is_bool = !lst_parse_bool(ph->record, &on, NULL);
	if (is_bool && !on)
		return false;
	if (ph->suite == LST_SUITE_PURGE) {
		lst__plan_error(
			ctx, kn,
			"record: a purge discards the whole target at once; it issues no I/Os "
			"to record");
		return false;
	}
	if (plain) {
		lst__plan_error(ctx, kn,
				"record and workload write_iolog (at %d:%d) are both given; record "
				"is a shorthand for write_iolog: give one",
				plain->mark.line, plain->mark.col);
		return false;
	}
	if (!s_name(ctx, "record", v, is_bool ? ph->name : ph->record, s_record_max(ph), name))
		return false;
	memcpy(ph->w.write_iolog, name, sizeof(name));
	ph->w_set[wi] = true;
	return true;
}

/* A shorthand key sk and the plain option at index opt of the phase's workload, both given. */
static bool s_twice(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
		    const struct lst_yaml_node *sk, const char *sugar, size_t opt)
{
	const struct lst_yaml_node *plain = s_wkey(lst_yaml_get(map, "workload", NULL), opt);

	if (!plain)
		return false;
	lst__plan_error(ctx, sk,
			"%s and workload %s (at %d:%d) are both given; %s is a shorthand for %s: "
			"give one",
			sugar, lst_workload_opts[opt].name, plain->mark.line, plain->mark.col,
			sugar, lst_workload_opts[opt].name);
	return true;
}

/* `replay:` into read_iolog and replay_time_scale. */
static void s_replay(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
		     struct lst_plan_phase *ph)
{
	const struct lst_yaml_node *kn = NULL, *v = lst_yaml_get(map, "replay", &kn);
	const struct lst_yaml_node *tn = NULL, *sn = NULL;
	char name[LST_OPT_TEXT_MAX];

	if (!ph->replay || !v || !ph->replay_trace)
		return;
	if (ph->suite != LST_SUITE_NONE) {
		lst__plan_error(ctx, kn,
				"replay: a suite decides its own workloads; replay a trace in a "
				"phase without suite");
		return;
	}
	tn = lst_yaml_get(v, "trace", NULL);
	lst_yaml_get(v, "scale", &sn);
	if (s_twice(ctx, map, kn, "replay", s_index("read_iolog")) ||
	    (sn && s_twice(ctx, map, sn, "replay: scale", s_index("replay_time_scale"))))
		return;
	if (ph->replay_scale != floor(ph->replay_scale)) {
		lst__plan_error(
			ctx, lst_yaml_get(v, "scale", NULL),
			"replay: scale must be a whole percentage (like 50%% or 200%%), not "
			"%g",
			ph->replay_scale);
		return;
	}
	if (!s_name(ctx, "replay: trace", tn, ph->replay_trace, LST_OPT_TEXT_MAX - 1, name))
		return;
	memcpy(ph->w.read_iolog, name, sizeof(name));
	ph->w.replay_time_scale = (int64_t)ph->replay_scale;
	ph->w_set[s_index("read_iolog")] = true;
	if (sn)
		ph->w_set[s_index("replay_time_scale")] = true;
}

/* Where a phase's option at index opt came from: its shorthand key, its workload key, or the
 * phase itself (defaults:). */
static struct lst_mark s_place(const struct lst_yaml_node *map, const struct lst_plan_phase *ph,
			       const char *sugar, size_t opt)
{
	const struct lst_yaml_node *kn = NULL;

	if (lst_yaml_get(map, sugar, &kn) && kn)
		return kn->mark;
	kn = s_wkey(lst_yaml_get(map, "workload", NULL), opt);
	return kn ? kn->mark : ph->mark;
}

void lst__plan_trace_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			   struct lst_plan_phase *ph)
{
	size_t wi = s_index("write_iolog"), ri = s_index("read_iolog");
	struct lst_mark at;

	s_record(ctx, map, ph);
	s_replay(ctx, map, ph);
	if (!ph->w.read_iolog[0]) {
		/* a name given as write_iolog itself must leave room for -pK too */
		if (strlen(ph->w.write_iolog) > s_record_max(ph) && !ph->record) {
			at = s_place(map, ph, "record", wi);
			lst__plan_error_at(ctx, at.line, at.col,
					   "%swrite_iolog '%s' is longer than %zu characters (the "
					   "phase has several points, and each point's trace gets "
					   "-pK appended)",
					   ctx->prefix, ph->w.write_iolog, s_record_max(ph));
		}
		return;
	}
	if (ph->w.write_iolog[0]) {
		at = s_place(map, ph, "replay", ri);
		lst__plan_error_at(ctx, at.line, at.col,
				   "%sreplay: the phase records (write_iolog '%s') and replays; a "
				   "phase does one or the other",
				   ctx->prefix, ph->w.write_iolog);
	}
	if (ph->w.verify) {
		const struct lst_yaml_node *vn =
			s_wkey(lst_yaml_get(map, "workload", NULL), s_index("verify"));

		at = vn ? vn->mark : s_place(map, ph, "replay", ri);
		lst__plan_error_at(ctx, at.line, at.col,
				   "%sreplay: a replay cannot verify (the trace decides what is "
				   "written)%s",
				   ctx->prefix,
				   vn ? ""
				      : "; verify: true comes from defaults: set verify: false in "
					"the phase's workload");
	}
	s_replay_keys(ctx, map);
}
