/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan's checks of `verify: true` (data integrity). A verifying phase either
 * writes (every 4 KiB unit gets a stamp and the run's journal records the stream) or reads
 * (every unit read is checked against that journal); so verify is refused where a phase would
 * do both (a mixed rwmixread, roles that read while the phase writes), where the journal cannot
 * follow (purge, the suites other than precondition), where a role would make a second journal
 * for one point (a role's verify unlike its phase's), and on a reading phase of a target that
 * no earlier phase writes with verify (there is nothing to check against: an earlier run's
 * writes are `lockstep verify DIR`'s). bs and offset in 4 KiB units are lst_workload_check's.
 * Each complaint is placed at the key that can fix it, the rest of the file's style.
 */
#include <stdio.h>
#include <string.h>

#include "lst_identity.h"
#include "lst_plan_int.h"
#include "lst_util.h"

/* What a verifying workload does to its target. */
enum s_dir {
	S_NONE = 0, /* not a direction: no verify, or a phase the checks refuse */
	S_WRITES,
	S_READS,
	S_MIXED,
};

/* The index of workload option `name` in lst_workload_opts (the w_set arrays). */
static size_t s_opt_index(const char *name)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, name);

	return o ? (size_t)(o - lst_workload_opts) : 0;
}

/* Reads only, writes only, or both, for rw and rwmixread as the agent runs them. */
static enum s_dir s_rw_dir(int64_t rw, int64_t rwmixread)
{
	if (rw == LST_RW_RANDRW || rw == LST_RW_RW) {
		if (rwmixread >= 100)
			return S_READS;
		return rwmixread <= 0 ? S_WRITES : S_MIXED;
	}
	return lst_rw_writes(rw, rwmixread) ? S_WRITES : S_READS;
}

/*
 * The direction of phase ph as the plan gives it: its workload's (a precondition writes unless
 * its `workload:` says otherwise); S_NONE when it does not verify or its suite cannot.
 */
static enum s_dir s_phase_dir(const struct lst_plan_phase *ph)
{
	int64_t rw = ph->w.rw, mix = ph->w.rwmixread;
	struct lst_workload w;

	if (!ph->w.verify)
		return S_NONE;
	if (ph->suite == LST_SUITE_PRECONDITION) {
		if (!ph->w_set[s_opt_index("rw")])
			rw = LST_RW_WRITE;
		return s_rw_dir(rw, mix);
	}
	if (ph->suite != LST_SUITE_NONE)
		return S_NONE;
	lst_plan_phase_point(ph, 0, &w, NULL,
			     0); /* a swept rw or rwmixread replaces the workload's */
	return s_rw_dir(w.rw, w.rwmixread);
}

/* Mark in ctx->verified the targets the phases before idx write with verify, folding in each
 * phase once however many reading phases ask. */
static void s_fold_writes(struct lst__plan_ctx *ctx, size_t idx)
{
	const lst_plan *p = ctx->plan;

	if (!ctx->verified)
		ctx->verified = lst_calloc(p->ntargets + 1, sizeof(*ctx->verified));
	for (; ctx->verified_upto < idx; ctx->verified_upto++) {
		const struct lst_plan_phase *w = &p->phases[ctx->verified_upto];

		if (s_phase_dir(w) != S_WRITES)
			continue;
		for (size_t i = 0; i < w->ntargets; i++)
			ctx->verified[w->targets[i]] = true;
	}
}

/* Key `name` of the phase's `workload:` map, else of `defaults:`; NULL when neither gives it. */
static const struct lst_yaml_node *s_wkey(struct lst__plan_ctx *ctx,
					  const struct lst_yaml_node *map, const char *name)
{
	const struct lst_yaml_node *wmap = lst_yaml_get(map, "workload", NULL);
	const struct lst_yaml_node *dmap = lst_yaml_get(ctx->root, "defaults", NULL);
	const struct lst_yaml_node *kn = NULL;

	if (wmap && wmap->type == LST_YAML_MAP && lst_yaml_get(wmap, name, &kn))
		return kn;
	if (dmap && dmap->type == LST_YAML_MAP && lst_yaml_get(dmap, name, &kn))
		return kn;
	return NULL;
}

/* Where the phase's verify is set: its key, else the phase. */
static struct lst_mark s_verify_place(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
				      const struct lst_plan_phase *ph)
{
	const struct lst_yaml_node *kn = s_wkey(ctx, map, "verify");

	return kn ? kn->mark : ph->mark;
}

/* The map of role r in the phase's `paths:` (its key has r's mark), or NULL. */
static const struct lst_yaml_node *s_role_map(const struct lst_yaml_node *map,
					      const struct lst_plan_role *r)
{
	const struct lst_yaml_node *paths = lst_yaml_get(map, "paths", NULL);

	if (!paths || paths->type != LST_YAML_MAP)
		return NULL;
	for (size_t i = 0; i + 1 < paths->n; i += 2)
		if (paths->kids[i]->mark.line == r->mark.line &&
		    paths->kids[i]->mark.col == r->mark.col)
			return paths->kids[i + 1];
	return NULL;
}

/* "a" or "a:/dev/sdb": a role's selector for messages. */
static const char *s_sel_name(const lst_plan *p, const struct lst_plan_role *r, char *buf,
			      size_t size)
{
	snprintf(buf, size, "%s%s%s", p->agents[r->sel.agent].name, r->sel.path ? ":" : "",
		 r->sel.path ? r->sel.path : "");
	return buf;
}

/* verify on purge or a suite other than precondition. Returns true when refused. */
static bool s_suite_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			  const struct lst_plan_phase *ph)
{
	struct lst_mark at;

	if (ph->suite == LST_SUITE_NONE || ph->suite == LST_SUITE_PRECONDITION)
		return false;
	at = s_verify_place(ctx, map, ph);
	lst__plan_error_at(ctx, at.line, at.col,
			   "%sverify applies to plain phases and suite: precondition, not suite: "
			   "%s (set verify: false in this phase's workload)",
			   ctx->prefix, lst_suite_names[ph->suite]);
	return true;
}

/*
 * A phase whose sweep varies rw or rwmixread: each point's direction (both axes and the
 * workload together) must be the first point's, and not mixed. Reported at the first such
 * axis, naming its value in the point that breaks it.
 */
static bool s_swept_dir_check(struct lst__plan_ctx *ctx, const struct lst_plan_phase *ph,
			      const struct lst_sweep_axis *ax)
{
	size_t points = lst_plan_phase_points(ph);
	struct lst_workload w;
	enum s_dir first;
	char val[64];

	lst_plan_phase_point(ph, 0, &w, NULL, 0);
	first = s_rw_dir(w.rw, w.rwmixread);
	for (size_t i = 0; i < points; i++) {
		enum s_dir d;

		lst_plan_phase_point(ph, i, &w, NULL, 0);
		d = s_rw_dir(w.rw, w.rwmixread);
		if (d != S_MIXED && d == first)
			continue;
		lst__plan_error_at(ctx, ax->mark.line, ax->mark.col,
				   "%sverify with a mixed workload: %s %s %s; a phase either "
				   "writes or reads under verify",
				   ctx->prefix, ax->opt->name,
				   lst_opt_format(ax->opt, &w, val, sizeof(val)),
				   d == S_MIXED	  ? "mixes reads and writes"
				   : d == S_READS ? "reads where the sweep's first value writes"
						  : "writes where the sweep's first value reads");
		return true;
	}
	return false; /* the swept values replace the workload's */
}

/* The phase's own workload, or a value of its rw or rwmixread sweep, mixes reads and writes. */
static bool s_mixed_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			  const struct lst_plan_phase *ph)
{
	const struct lst_yaml_node *kn;
	struct lst_mark at;

	for (size_t a = 0; a < ph->naxes; a++) {
		const struct lst_sweep_axis *ax = &ph->axes[a];

		if (ax->opt &&
		    (!strcmp(ax->opt->name, "rwmixread") || !strcmp(ax->opt->name, "rw")))
			return s_swept_dir_check(ctx, ph, ax);
	}
	if (s_phase_dir(ph) != S_MIXED)
		return false;
	kn = s_wkey(ctx, map, "rwmixread");
	at = kn ? kn->mark : s_verify_place(ctx, map, ph);
	lst__plan_error_at(ctx, at.line, at.col,
			   "%sverify with a mixed workload: %s with rwmixread %lld mixes reads and "
			   "writes; a phase either writes or reads under verify",
			   ctx->prefix, lst_rw_names[ph->w.rw], (long long)ph->w.rwmixread);
	return true;
}

/*
 * Roles: verify as the phase's (one journal per point), and the phase's direction (a role
 * that reads in a writing phase, or mixes).
 */
static void s_roles_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			  const struct lst_plan_phase *ph, enum s_dir dir)
{
	static const char *const what[] = { "", "writes", "reads", "mixes reads and writes" };
	size_t vi = s_opt_index("verify");

	for (size_t i = 0; i < ph->nroles; i++) {
		const struct lst_plan_role *r = &ph->roles[i];
		const struct lst_yaml_node *kn = NULL;
		enum s_dir rdir;
		char sel[LST_PATH_MAX + 80];

		if (r->idle)
			continue;
		s_sel_name(ctx->plan, r, sel, sizeof(sel));
		if (r->w_set[vi] && r->w.verify != ph->w.verify) {
			/* the role's map is found by a scan: only for a message */
			struct lst_mark at = lst_yaml_get(s_role_map(map, r), "verify", &kn)
						     ? kn->mark
						     : r->mark;

			lst__plan_error_at(ctx, at.line, at.col,
					   "%spaths: %s: verify must be the phase's (%s) in a "
					   "role: one journal per point",
					   ctx->prefix, sel, ph->w.verify ? "true" : "false");
			continue;
		}
		if (!ph->w.verify || dir == S_NONE || dir == S_MIXED)
			continue;
		rdir = s_rw_dir(r->w.rw, r->w.rwmixread);
		if (rdir == dir)
			continue;
		lst__plan_error_at(ctx, r->mark.line, r->mark.col,
				   "%spaths: %s: the role %s while the phase %s; a phase either "
				   "writes or reads under verify",
				   ctx->prefix, sel, what[rdir], what[dir]);
	}
}

/* A reading phase: each of its targets has an earlier phase that writes it with verify. */
static void s_journal_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			    const struct lst_plan_phase *ph)
{
	const lst_plan *p = ctx->plan;
	size_t idx = (size_t)(ph - p->phases);
	struct lst_mark at = s_verify_place(ctx, map, ph);

	if (p->journal)
		return; /* an earlier run's journal: the run checks it holds these targets */
	s_fold_writes(ctx, idx);
	for (size_t k = 0; k < ph->ntargets; k++) {
		size_t t = ph->targets[k];

		if (!ctx->verified[t])
			lst__plan_error_at(
				ctx, at.line, at.col,
				"%sverify on a read-only phase with no journal: no earlier phase "
				"writes target %s with verify (a verifying read checks against the "
				"writes of this run; to check an earlier run's writes use `lockstep "
				"verify DIR`)",
				ctx->prefix, p->targets[t].name ? p->targets[t].name : "?");
	}
}

void lst__plan_verify_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			    const struct lst_plan_phase *ph)
{
	enum s_dir dir;

	if (!ph->w.verify) {
		s_roles_check(ctx, map, ph, S_NONE);
		return;
	}
	if (s_suite_check(ctx, map, ph) || s_mixed_check(ctx, map, ph))
		return;
	dir = s_phase_dir(ph);
	s_roles_check(ctx, map, ph, dir);
	if (dir == S_READS)
		s_journal_check(ctx, map, ph);
}

bool lst_plan_phase_verify_writes(const struct lst_plan_phase *ph)
{
	return s_phase_dir(ph) == S_WRITES;
}

bool lst_plan_phase_verify_reads(const struct lst_plan_phase *ph)
{
	return s_phase_dir(ph) == S_READS;
}
