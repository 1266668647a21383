/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks across keys and items of a plan, run by the reader through the hooks the schema tables
 * name: after a list (agents, targets), before and after a phase's keys, after a steady or curve
 * map and after the top level. Each check reports where the problem can be fixed: at the key
 * that clashes, else at the map, else at the item; a complaint already made elsewhere (the same
 * workload error in `defaults:`, a value that fails on its own in a sweep) is not repeated.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_identity.h"
#include "lst_plan_int.h"
#include "lst_time.h"
#include "lst_util.h"

void lst__plan_agents_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *list)
{
	const lst_plan *p = ctx->plan;
	lst_map *seen = lst_map_new();

	/* Two entries for one daemon would make the second connection "busy". */
	for (size_t i = 0; i < p->nagents; i++) {
		const struct lst_yaml_node *v;
		size_t j;

		if (!p->agents[i].address || lst_map_add_str(seen, p->agents[i].address, i, &j))
			continue;
		v = lst_yaml_get(list->kids[i], "address", NULL);
		lst__plan_error_at(ctx, v->mark.line, v->mark.col,
				   "agent %s: address %s is also agent %s's; one agent per daemon",
				   p->agents[i].name ? p->agents[i].name : "?",
				   p->agents[i].address,
				   p->agents[j].name ? p->agents[j].name : "?");
	}
	lst_map_destroy(&seen);
}

void lst__plan_targets_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *list)
{
	const lst_plan *p = ctx->plan;
	size_t *per_agent = lst_calloc(p->nagents + 1, sizeof(*per_agent));
	lst_map *seen = lst_map_new();

	(void)list;
	/* One message carries all of an agent's paths (IDENTIFY, PREPARE). */
	for (size_t i = 0; i < p->ntargets; i++) {
		for (size_t a = 0; a < p->targets[i].npaths; a++) {
			const struct lst_plan_path *pa = &p->targets[i].paths[a];

			if (++per_agent[pa->agent] == LST_MAX_JOBSPECS + 1)
				lst__plan_error_at(
					ctx, pa->mark.line, pa->mark.col,
					"target %s: agent %s has more than %d paths in the plan",
					p->targets[i].name ? p->targets[i].name : "?",
					p->agents[pa->agent].name, LST_MAX_JOBSPECS);
		}
	}
	free(per_agent);
	/* One device path in two targets would be driven twice at once (a target lists a path
	 * of an agent once: lst__plan_target_paths refuses the second). */
	for (size_t i = 0; i < p->ntargets; i++) {
		const struct lst_plan_target *ti = &p->targets[i];

		for (size_t a = 0; a < ti->npaths; a++) {
			const struct lst_plan_path *pa = &ti->paths[a];
			char key[sizeof(size_t) + LST_PATH_MAX];
			size_t len = lst__plan_path_key(key, pa->agent, pa->path), j;

			if (lst_map_add(seen, key, len, i, &j) || j == i)
				continue;
			lst__plan_error_at(
				ctx, pa->mark.line, pa->mark.col,
				"target %s: path %s on agent %s is also a path of target %s",
				ti->name ? ti->name : "?", pa->path, p->agents[pa->agent].name,
				p->targets[j].name ? p->targets[j].name : "?");
		}
	}
	lst_map_destroy(&seen);
}

void lst__plan_phase_init(struct lst__plan_ctx *ctx, void *base)
{
	struct lst_plan_phase *ph = base;
	const lst_plan *p = ctx->plan;

	ph->w = p->defaults;
	ph->on_agent_loss = p->on_agent_loss;
	ph->repeat = p->repeat;
	ctx->hook_errs = 0;		   /* lst__plan_hooks counts its own from here */
	lst_map_destroy(&ctx->phase_sels); /* the last phase's */
	/* every target until `targets:` says otherwise: roles and port sets name their paths */
	ph->ntargets = p->ntargets;
	ph->targets = lst_calloc(p->ntargets + 1, sizeof(*ph->targets));
	for (size_t i = 0; i < p->ntargets; i++)
		ph->targets[i] = i;
}

void lst__plan_steady_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_phase *ph = base;
	const struct lst_yaml_node *v;

	if (ph->window <= ph->max_rounds)
		return;
	v = lst_yaml_get(map, "window", NULL);
	if (!v)
		v = lst_yaml_get(map, "max_rounds", NULL);
	if (!v)
		return;
	lst__plan_error(ctx, v,
			"steady: window %" PRId64 " is more than max_rounds %" PRId64
			"; the window is the last rounds of at most max_rounds",
			ph->window, ph->max_rounds);
}

void lst__plan_curve_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_phase *ph = base;
	const struct lst_yaml_node *v;

	if (ph->limit_ns && ph->limit_percentile == 0 && (v = lst_yaml_get(map, "limit", NULL)) &&
	    !v->bad)
		lst__plan_error(ctx, v, "curve: limit needs limit_percentile too (like 99.99)");
	if (!ph->limit_ns && ph->limit_percentile != 0 &&
	    (v = lst_yaml_get(map, "limit_percentile", NULL)) && !v->bad)
		lst__plan_error(ctx, v, "curve: limit_percentile needs limit too (like 1ms)");
}

/* XSR is three segments by definition: the recovery is read off the third against the first. */
void lst__plan_xsr_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_phase *ph = base;
	const struct lst_yaml_node *v = lst_yaml_get(map, "segments", NULL);

	if (v && !v->bad && ph->nxsr_segments != 3)
		lst__plan_error(ctx, v, "xsr: segments needs exactly three lengths, not %zu",
				ph->nxsr_segments);
}

/* A skew message about a `mix:` list belongs at the entry it names ("skew entry 2:
 * ..."), else at the list. */
static struct lst_mark s_mix_place(const char *msg, const struct lst_yaml_node *mix)
{
	unsigned long i = 0;

	if (sscanf(msg, "skew entry %lu:", &i) == 1 && mix->type == LST_YAML_LIST && i >= 1 &&
	    i <= mix->n)
		return mix->kids[i - 1]->mark;
	return mix->mark;
}

/*
 * Where a lst_workload_check message about w belongs: at the option it names ("bs 1000 is not
 * ..."), when the map gives it, else at the map, else at fallback. verify's 4 KiB rule names bs
 * and offset: it goes to the one that breaks it when the map gives it.
 */
static struct lst_mark s_check_place(const char *msg, const struct lst_yaml_node *wmap,
				     const struct lst_workload *w, struct lst_mark fallback)
{
	char word[32];
	const struct lst_yaml_node *v;
	size_t n = strcspn(msg, " :");

	snprintf(word, sizeof(word), "%.*s", (int)LST_MIN(n, sizeof(word) - 1), msg);
	if (!strcmp(word, "verify") && w->bs % 4096 && (v = lst_yaml_get(wmap, "bs", NULL)))
		return v->mark;
	if (!strcmp(word, "verify") && w->offset % 4096 && (v = lst_yaml_get(wmap, "offset", NULL)))
		return v->mark;
	if (!strcmp(word, "skew") && (v = lst_yaml_get(wmap, "mix", NULL)))
		return s_mix_place(msg, v);
	v = lst_yaml_get(wmap, word, NULL);
	if (v)
		return v->mark;
	return wmap ? wmap->mark : fallback;
}

/* `runtime: 0` written in a workload map (already reported there). */
static bool s_zero_runtime(const struct lst_yaml_node *wmap)
{
	const struct lst_yaml_node *v = lst_yaml_get(wmap, "runtime", NULL);
	int64_t ns = -1;

	return v && v->type == LST_YAML_SCALAR && !lst_parse_duration(v->text, &ns, NULL) &&
	       ns == 0;
}

/* Points whose options clash only in combination ("rate_iops=2" with "jobs=4"). */
static void s_sweep_check(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			  const struct lst_yaml_node *at)
{
	size_t points = lst_plan_phase_points(ph);
	lst_err err;

	if (!ph->naxes || lst_workload_check(&ph->w, 0, &err) || points > LST_PLAN_MAX_POINTS)
		return;
	for (size_t i = 0; i < points; i++) {
		struct lst_workload w;
		char label[256];
		size_t rest = i;
		bool single = false;

		lst_plan_phase_point(ph, i, &w, label, sizeof(label));
		if (!lst_workload_check(&w, 0, &err))
			continue;
		/* a value that fails on its own was reported at the value */
		for (size_t a = ph->naxes; a-- > 0 && !single;) {
			struct lst_workload one = ph->w;
			lst_err e1;

			lst__plan_sweep_set(ph, a, rest % ph->axes[a].n, &one);
			rest /= ph->axes[a].n;
			single = lst_workload_check(&one, 0, &e1) != 0;
		}
		if (!single)
			lst__plan_error(ctx, at, "sweep point '%s': %s", label, err.msg);
		return;
	}
}

/*
 * A suite runs its whole grid once per value of an axis its grid does not build from (pattern,
 * size, rw...: lst__plan_is_value_axis); a purge has no grid, only one discard of its region,
 * and discarding it again per value is not a test anyone runs.
 */
static void s_suite_axes_check(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph)
{
	for (size_t a = 0; ph->suite == LST_SUITE_PURGE && a < ph->naxes; a++) {
		const struct lst_sweep_axis *ax = &ph->axes[a];

		if (!lst__plan_is_value_axis(ph, ax))
			continue;
		lst__plan_error_at(ctx, ax->mark.line, ax->mark.col,
				   "%ssweep: suite purge runs one discard, not a grid to run again "
				   "per value of %s: give one purge phase per region",
				   ctx->prefix, ax->opt->name);
	}
}

/* The `mix:` or `skew:` key that gave a phase its skew: in its workload, else in defaults. */
static const struct lst_yaml_node *s_skew_key(const struct lst_yaml_node *wmap,
					      const struct lst_yaml_node *dmap)
{
	const struct lst_yaml_node *maps[2] = { wmap, dmap }, *kn = NULL;

	for (int i = 0; i < 2; i++)
		if (maps[i] && maps[i]->type == LST_YAML_MAP &&
		    (lst_yaml_get(maps[i], "mix", &kn) || lst_yaml_get(maps[i], "skew", &kn)))
			return kn;
	return NULL;
}

/* Whether each entry of a mix gives its own value of o (struct lst_skew_entry), so a sweep
 * of the workload's would change nothing. */
static bool s_is_entry_key(const struct lst_opt *o)
{
	static const char *const keys[] = { "rw",     "rwmixread", "bs",
					    "offset", "size",	   "random_distribution" };

	for (size_t i = 0; i < LST_ARRAY_SIZE(keys); i++)
		if (!strcmp(o->name, keys[i]))
			return true;
	return false;
}

/*
 * A mix (skew) drives a plain workload phase: a suite builds its own workloads (their
 * rw and bs would be ignored), and a sweep over what each entry gives (rw, rwmixread, bs, its
 * region, its distribution) would change nothing.
 */
static void s_skew_check(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			 const struct lst_yaml_node *wmap, const struct lst_yaml_node *dmap,
			 const struct lst_yaml_node *sweep)
{
	const struct lst_yaml_node *kn = s_skew_key(wmap, dmap);

	if (!ph->w.skew.n)
		return;
	if (ph->suite != LST_SUITE_NONE) {
		if (kn)
			lst__plan_error(ctx, kn,
					"%s: a mix runs in a plain workload phase, not in suite %s "
					"(which builds its own workloads): give it in a phase's "
					"workload",
					kn->text, lst_suite_names[ph->suite]);
		else
			lst__plan_error_at(
				ctx, ph->mark.line, ph->mark.col,
				"%sa mix runs in a plain workload phase, not in suite %s",
				ctx->prefix, lst_suite_names[ph->suite]);
		return;
	}
	for (size_t a = 0; sweep && a < ph->naxes; a++) {
		const struct lst_opt *o = ph->axes[a].opt;

		if (o && s_is_entry_key(o)) {
			lst__plan_error(ctx, sweep,
					"sweep over %s with a mix: each mix entry gives its own %s "
					"(the workload's is not used); sweep jobs, iodepth or "
					"rate_iops, or leave the mix out",
					o->name, o->name);
			return;
		}
	}
}

/* repeat: only where a point is one measurement (a plain phase without rounds); the plan's
 * default leaves the others at one run, a phase's own `repeat:` there is an error. */
static void s_repeat_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			   struct lst_plan_phase *ph)
{
	const struct lst_yaml_node *kn;
	bool rounds = ph->round_duration || lst_yaml_get(map, "round", NULL);

	if (ph->suite == LST_SUITE_NONE && !rounds)
		return;
	if (ph->repeat > 1 && lst_yaml_get(map, "repeat", &kn))
		lst__plan_error(ctx, kn,
				"repeat applies to plain phases without rounds: %s already "
				"repeats its points as rounds",
				rounds ? "a phase with round:" : "a suite");
	ph->repeat = 1;
}

void lst__plan_phase_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_phase *ph = base;
	const lst_plan *p = ctx->plan;
	const struct lst_yaml_node *wmap = lst_yaml_get(map, "workload", NULL);
	const struct lst_yaml_node *dmap = lst_yaml_get(ctx->root, "defaults", NULL);
	const struct lst_yaml_node *kn = NULL;
	struct lst_mark at;
	/* a plain phase whose keys were all fine: a missing stop condition is not an echo */
	bool plain = ph->suite == LST_SUITE_NONE && ctx->nerrs + ctx->nbad == ctx->item_start;
	lst_err err, derr;

	lst__plan_trace_check(ctx, map, ph);
	s_repeat_check(ctx, map, ph);
	if (ph->secure && ph->suite != LST_SUITE_PURGE && lst_yaml_get(map, "secure", &kn))
		lst__plan_error(ctx, kn, "secure: true applies only to suite: purge");
	if (plain && ph->steady && !ph->round_duration && lst_yaml_get(map, "steady", &kn) &&
	    !lst_yaml_get(map, "round", NULL))
		lst__plan_error(ctx, kn, "steady state repeats rounds: add round: {duration: ...}");
	/* a replay lasts as long as its trace: it needs no stop condition */
	if (plain && !ph->replay && !ph->w.read_iolog[0] && !ph->w.runtime && !ph->w.bytes &&
	    !ph->round_duration && !ph->stop_capacity && !ph->stop_bytes && !ph->stop_runtime &&
	    !s_zero_runtime(wmap) && !s_zero_runtime(dmap) && !lst_yaml_get(map, "round", NULL))
		lst__plan_error_at(
			ctx, ph->mark.line, ph->mark.col,
			"%sno stop condition: give runtime or bytes in workload, a round "
			"(round: {duration: 30s}), or stop (capacity, bytes, runtime)",
			ctx->prefix);
	if (lst_workload_check(&ph->w, 0, &err)) {
		/* the same complaint about `defaults:` alone is reported there, once */
		bool from_defaults = dmap && lst_workload_check(&p->defaults, 0, &derr) &&
				     !strcmp(err.msg, derr.msg);

		if (!from_defaults) {
			const struct lst_yaml_node *wm =
				wmap && wmap->type == LST_YAML_MAP ? wmap : NULL;

			at = s_check_place(err.msg, wm, &ph->w, wmap ? wmap->mark : ph->mark);
			lst__plan_error_at(ctx, at.line, at.col, "%s%s", ctx->prefix, err.msg);
		}
	} else if (lst_yaml_get(map, "sweep", &kn)) {
		s_sweep_check(ctx, ph, kn);
	}
	kn = NULL;
	lst_yaml_get(map, "sweep", &kn);
	s_suite_axes_check(ctx, ph);
	s_skew_check(ctx, ph, wmap, dmap, kn);
	lst__plan_paths_check(ctx, map, ph);
	/* a replay may not verify at all (lst__plan_trace_check says so once) */
	if (!ph->replay && !ph->w.read_iolog[0])
		lst__plan_verify_check(ctx, map, ph);
}

void lst__plan_top_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	const struct lst_yaml_node *dmap = lst_yaml_get(map, "defaults", NULL);
	lst_plan *p = base;
	lst_err err;

	if (dmap && lst_workload_check(&p->defaults, 0, &err)) {
		struct lst_mark at =
			s_check_place(err.msg, dmap->type == LST_YAML_MAP ? dmap : NULL,
				      &p->defaults, dmap->mark);

		lst__plan_error_at(ctx, at.line, at.col, "defaults: %s", err.msg);
	}
}
