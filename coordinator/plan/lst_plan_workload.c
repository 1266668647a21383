/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A map of workload keys (a phase's `workload:`, `defaults:`, a role's keys) into a struct
 * lst_workload: each key an option of lst_workload_opts parsed by its table entry, or one of the
 * plan's shorthands (hotband, a bs map, dedup, mix: lst_plan_hotband.c, lst_plan_sugar.c,
 * lst_plan_mix.c), each given once under one of its names. Called by the value reader and the
 * roles (lst_plan_paths.c); it calls neither.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_plan_int.h"
#include "lst_text.h"
#include "lst_util.h"

static void s_opt_names(const struct lst_opt *opts, const char **names, size_t max)
{
	size_t n = 0;

	for (const struct lst_opt *o = opts; o->name && n + 1 < max; o++)
		names[n++] = o->name;
	names[n] = NULL;
}

/* Append name to a NULL-terminated list of max entries, when there is room. */
static void s_add_name(const char **names, size_t max, const char *name)
{
	size_t n = 0;

	while (names[n])
		n++;
	if (n + 1 < max) {
		names[n] = name;
		names[n + 1] = NULL;
	}
}

/*
 * The plan's shorthands: `hotband:` is random_distribution written as zoned
 * (lst_plan_hotband.c), `mix:` is skew written as a list of workload maps (lst_plan_mix.c),
 * `bs:` given as a map is bssplit and `dedup: R` is dedupe_percentage (lst_plan_sugar.c).
 * Returns the option the key stands for when it is one of them and was read (or turned away),
 * NULL when kn is no shorthand.
 */
static const struct lst_opt *s_sugar(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn,
				     const struct lst_yaml_node *vn, struct lst_workload *w,
				     bool *given, lst__plan_refuse_fn refuse, const void *arg)
{
	const struct lst_opt *o;
	bool ok;

	if (!strcmp(kn->text, "hotband"))
		o = lst_opt_find(lst_workload_opts, "random_distribution");
	else if (!strcmp(kn->text, "mix"))
		o = lst_opt_find(lst_workload_opts, "skew");
	else if (!strcmp(kn->text, "bs") && vn->type == LST_YAML_MAP)
		o = lst_opt_find(lst_workload_opts, "bssplit");
	else if (!strcmp(kn->text, "dedup"))
		o = lst_opt_find(lst_workload_opts, "dedupe_percentage");
	else
		return NULL;
	LST_ASSERT(o);
	if (refuse && refuse(ctx, kn, o, arg))
		return o;
	if (o->type == LST_OPT_DIST)
		ok = lst__plan_hotband(ctx, vn, &w->dist);
	else if (o->type == LST_OPT_SKEW)
		ok = lst__plan_mix(ctx, vn, &w->skew);
	else if (o->type == LST_OPT_BSSPLIT)
		ok = lst__plan_bs_map(ctx, vn, &w->bssplit);
	else
		ok = lst__plan_dedup(ctx, vn, &w->dedupe_percentage);
	if (ok && given)
		given[o - lst_workload_opts] = true;
	return o;
}

/* A shorthand and the option it stands for, both in one map: an error at the later key. */
static void s_sugar_twice(struct lst__plan_ctx *ctx, const struct lst_yaml_node *sugar,
			  const struct lst_yaml_node *plain, const char *where)
{
	const struct lst_yaml_node *at = sugar, *other = plain;

	if (!sugar || !plain)
		return;
	if (plain->mark.line > sugar->mark.line ||
	    (plain->mark.line == sugar->mark.line && plain->mark.col > sugar->mark.col)) {
		at = plain;
		other = sugar;
	}
	lst__plan_error(ctx, at,
			"'%s' and '%s' (at %d:%d) are both given in %s; %s is a shorthand for %s: "
			"give one",
			at->text, other->text, other->mark.line, other->mark.col, where,
			sugar->text, plain->text);
}

/* "unknown key" in a workload map, with the nearest option name or fio alias if one is near. */
static void s_unknown_workload_key(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn,
				   const char *where)
{
	const char *names[64];
	const char *near = lst_opt_suggest_name(lst_workload_opts, kn->text);
	char hint[512];

	if (near) {
		lst__plan_error(ctx, kn, "unknown key '%s' in %s (did you mean '%s'?)", kn->text,
				where, near);
		return;
	}
	s_opt_names(lst_workload_opts, names, LST_ARRAY_SIZE(names) - 1);
	s_add_name(names, LST_ARRAY_SIZE(names), "hotband");
	s_add_name(names, LST_ARRAY_SIZE(names), "dedup");
	s_add_name(names, LST_ARRAY_SIZE(names), "mix");
	lst__plan_error(ctx, kn, "unknown key '%s' in %s (%s)", kn->text, where,
			lst_text_hint(kn->text, names, "keys", hint, sizeof(hint)));
}

/*
 * Whether kn gives option o a second time under its other name (jobs and numjobs in one map),
 * which is reported at the second; spelled[] holds the key each option was first given as.
 */
static bool s_both_names(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn,
			 const struct lst_opt *o, const struct lst_yaml_node **spelled)
{
	const struct lst_yaml_node **was;

	LST_ASSERT(o - lst_workload_opts < 64);
	was = &spelled[o - lst_workload_opts];
	if (*was && strcmp((*was)->text, kn->text)) {
		lst__plan_error(ctx, kn,
				"'%s' and '%s' (first at %d:%d) are the same option (%s is fio's "
				"name for %s); give one",
				kn->text, (*was)->text, (*was)->mark.line, (*was)->mark.col, o->fio,
				o->name);
		return true;
	}
	*was = kn;
	return false;
}

void lst__plan_workload_keys(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			     const char *where, struct lst_workload *w, bool *given,
			     lst__plan_refuse_fn refuse, const void *arg)
{
	const struct lst_yaml_node *hot = NULL, *dist = NULL; /* one or the other */
	const struct lst_yaml_node *spelled[64] = { 0 };      /* the key each option was given as */
	const struct lst_yaml_node *sugar[2] = { 0 }, *plain[2] = { 0 }; /* bs map, dedup */
	const struct lst_yaml_node *mix = NULL, *skew = NULL;		 /* one or the other */

	for (size_t i = 0; map && i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i], *vn = map->kids[i + 1];
		const struct lst_opt *o;
		const char *text;
		lst_err err;

		if (kn->type != LST_YAML_SCALAR)
			continue;
		o = s_sugar(ctx, kn, vn, w, given, refuse, arg);
		if (o) {
			if (o->type == LST_OPT_DIST)
				hot = kn;
			else if (o->type == LST_OPT_SKEW)
				mix = kn;
			else
				sugar[o->type == LST_OPT_BSSPLIT ? 0 : 1] = kn;
			continue;
		}
		o = lst_opt_find(lst_workload_opts, kn->text);
		if (o && o->type == LST_OPT_DIST)
			dist = kn;
		if (o && o->type == LST_OPT_BSSPLIT)
			plain[0] = kn;
		if (o && o->type == LST_OPT_SKEW)
			skew = kn;
		if (o && o->offset == offsetof(struct lst_workload, dedupe_percentage))
			plain[1] = kn;
		if (!o) {
			s_unknown_workload_key(ctx, kn, where);
			continue;
		}
		if (s_both_names(ctx, kn, o, spelled))
			continue;
		if (refuse && refuse(ctx, kn, o, arg))
			continue;
		text = lst__plan_scalar(ctx, o->name, vn);
		if (!text)
			continue;
		if (lst_workload_parse(o, w, text, &err)) {
			lst__plan_error(ctx, vn, "%s", err.msg);
			continue;
		}
		if (o->offset == offsetof(struct lst_workload, runtime) && w->runtime == 0)
			lst__plan_error(ctx, vn,
					"runtime must be > 0; leave it out to stop by bytes");
		if (given) {
			/* w_set has room for every workload option */
			LST_ASSERT(o - lst_workload_opts <
				   (ptrdiff_t)sizeof(((struct lst_plan_phase *)0)->w_set));
			given[o - lst_workload_opts] = true;
		}
	}
	if (hot && dist)
		lst__plan_error(ctx, hot,
				"hotband and random_distribution are both given in %s; a hotband "
				"is a zoned distribution: give one of them",
				where);
	s_sugar_twice(ctx, sugar[0], plain[0], where);
	s_sugar_twice(ctx, sugar[1], plain[1], where);
	s_sugar_twice(ctx, mix, skew, where);
}
