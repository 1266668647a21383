/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rows per path and per target. An agent's SAMPLE says what all its jobs did; when its point has
 * more than one job spec it also carries the sample split by job spec (proto/PROTOCOL.md 6.9,
 * `paths`). Each path of the point is a *slot*, merged by a second lst_merge alongside the
 * agents' one: the same samples arrive in the same order, so both complete interval k together
 * and the slots' rows follow the agents' rows in timeseries.csv. A slot's latency is its own
 * histogram; a target's row adds its slots (counts, bytes, histograms bucket by bucket), as the
 * `all` row adds the agents.
 *
 * Which files get the rows is a property of the plan, the same for every point, so a reader
 * sees one shape per run: per-path rows when some agent reaches more than one path, per-target
 * rows when the plan has more than one target. Without either, nothing here runs.
 */

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_util.h"

#include "lst_point_int.h"

/* Does some agent reach more than one path (in any target)? */
static bool s_plan_multipath(const lst_plan *p)
{
	for (size_t i = 0; i < p->nagents; i++) {
		size_t n = 0;

		for (size_t t = 0; t < p->ntargets; t++)
			for (size_t j = 0; j < p->targets[t].npaths; j++)
				n += p->targets[t].paths[j].agent == i;
		if (n > 1)
			return true;
	}
	return false;
}

void lst_coord__paths_slot(lst_coord *c, size_t i, uint32_t job, size_t t, size_t j,
			   const struct lst_workload *w)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;
	struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];

	ps->slots = lst_realloc(ps->slots, (ps->nslots + 1) * sizeof(*ps->slots));
	ps->slots[ps->nslots] = (struct lst_coord__slot){
		.agent = i,
		.target = t,
		.j = j,
		.path = lst_coord__plan(c)->targets[t].paths[j].path,
		/* job specs are made target by target, so a target's slots come together */
		.first = !ps->nslots || ps->slots[ps->nslots - 1].target != t,
	};
	lst_failover_init(&ps->slots[ps->nslots].fo, lst_coord__failover_below(c));
	lst_row_workload_of(&ps->slots[ps->nslots].w, w);
	pa->slot[job] = (uint32_t)ps->nslots++;
	pa->njobs = job + 1;
}

void lst_coord__paths_workload(const lst_coord *c, size_t i, size_t t, struct lst_row_workload *w)
{
	const struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;

	memset(w, 0, sizeof(*w));
	for (size_t s = 0; s < ps->nslots; s++)
		if ((i == SIZE_MAX || ps->slots[s].agent == i) &&
		    (t == SIZE_MAX || ps->slots[s].target == t))
			lst_row_workload_add(w, &ps->slots[s].w);
}

void lst_coord__paths_begin(lst_coord *c, size_t max_ahead)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;

	ps->path_rows = s_plan_multipath(lst_coord__plan(c));
	ps->target_rows = lst_coord__plan(c)->ntargets > 1;
	if (!ps->path_rows && !ps->target_rows)
		return;
	ps->merge = lst_merge_new(ps->nslots, max_ahead, lst_coord__paths_row, c);
	ps->sum = lst_malloc(sizeof(*ps->sum));
	for (size_t s = 0; s < ps->nslots; s++)
		if (!lst_coord__agent_in_point(c, ps->slots[s].agent))
			lst_merge_agent_done(ps->merge, s);
}

void lst_coord__paths_end(lst_coord *c)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;

	lst_merge_destroy(&ps->merge);
	for (size_t s = 0; s < ps->nslots; s++)
		lst_failover_free(&ps->slots[s].fo);
	free(ps->parts);
	free(ps->slots);
	free(ps->sum);
	memset(ps, 0, sizeof(*ps));
	for (size_t i = 0; i < lst_coord__n(c); i++)
		lst_coord__cur(c)->ag[i].njobs = 0;
}

void lst_coord__merge_done(lst_coord *c, size_t i)
{
	struct lst_coord__point *cur = lst_coord__cur(c);
	struct lst_coord__pagent *pa = &cur->ag[i];

	if (!cur->merge)
		return;
	lst_merge_agent_done(cur->merge, i);
	if (cur->paths.merge)
		for (uint32_t j = 0; j < pa->njobs; j++)
			lst_merge_agent_done(cur->paths.merge, pa->slot[j]);
}

void lst_coord__paths_add(lst_coord *c, size_t i, const struct lst_msg_sample *s)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;
	struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];

	if (!ps->merge)
		return;
	if (s->nparts) {
		for (uint32_t k = 0; k < s->nparts; k++)
			lst_merge_add(ps->merge, pa->slot[s->parts[k].path], &s->parts[k].s);
	} else if (pa->njobs == 1) {
		lst_merge_add(ps->merge, pa->slot[0], &s->s);
	} else {
		/* An agent that predates `paths`: its paths get no rows of their own. */
		if (!pa->unsplit_warned)
			lst_log_warn("agent %s does not split its samples by path (an older "
				     "version): no per-path rows for it",
				     lst_conn_name(lst_coord__conn(c, i)));
		pa->unsplit_warned = true;
		for (uint32_t j = 0; j < pa->njobs; j++)
			lst_merge_agent_done(ps->merge, pa->slot[j]);
	}
}

/* The row of target t: its slots' samples of the row added, rates the sum of theirs. */
static void s_target_row(lst_coord *c, const struct lst_merge_row *row, size_t t, double t_s)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;
	struct lst_coord__row r = {
		.who = { "target", "*", lst_coord__plan(c)->targets[t].name, "" },
		.k = row->k,
		.t_s = t_s,
		.dir = ps->sum->dir,
		.health = &ps->sum->health,
		.verify = &ps->sum->verify,
		.s = ps->sum,
	};
	bool any = false;

	lst_sample_init(ps->sum, row->k);
	for (size_t s = 0; s < ps->nslots; s++) {
		if (ps->slots[s].target != t || !row->agent[s])
			continue;
		any = true;
		lst_sample_add(ps->sum, row->agent[s]);
		lst_coord__row_add(&r, row->agent[s]);
	}
	if (any)
		lst_coord__rows_emit(c, &r);
}

void lst_coord__paths_row(const struct lst_merge_row *row, void *arg)
{
	lst_coord *c = arg;
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;
	double grid =
		lst_coord__t(c, lst_coord__where(c)->T0 + row->k * lst_coord__where(c)->interval);

	if (row->ramp)
		return;
	for (size_t s = 0; ps->target_rows && s < ps->nslots; s++)
		if (ps->slots[s].first)
			s_target_row(c, row, ps->slots[s].target, grid);
	for (size_t s = 0; ps->path_rows && s < ps->nslots; s++) {
		struct lst_coord__slot *sl = &ps->slots[s];
		const lst_sample *smp = row->agent[s];
		struct lst_coord__row r = {
			.who = { "path", lst_conn_name(lst_coord__conn(c, sl->agent)),
				 lst_coord__plan(c)->targets[sl->target].name, sl->path },
			.k = row->k,
			.t_s = grid,
			.fo = &sl->fo
		};

		if (!smp)
			continue;
		if (smp->start_ns || smp->end_ns)
			r.t_s = lst_coord__t(
				c, lst_clock_to_local(lst_conn_clock(lst_coord__conn(c, sl->agent)),
						      smp->start_ns));
		lst_coord__row_of(&r, smp);
		lst_coord__rows_emit(c, &r);
	}
}

/* sum += t: counts and histograms add, the time is the longest, the rates are recomputed. */
static void s_totals_add(struct lst_merge_totals *sum, const struct lst_merge_totals *t)
{
	for (int d = 0; d < LST_DIR_N; d++) {
		sum->dir[d].ios += t->dir[d].ios;
		sum->dir[d].bytes += t->dir[d].bytes;
		sum->dir[d].errors += t->dir[d].errors;
		lst_hist_add(&sum->dir[d].lat, &t->dir[d].lat);
	}
	lst_merge_health_add(&sum->health, &t->health);
	lst_merge_verify_add(&sum->verify, &t->verify);
	sum->trim.ios += t->trim.ios;
	sum->trim.bytes += t->trim.bytes;
	sum->trim.errors += t->trim.errors;
	sum->seconds = LST_MAX(sum->seconds, t->seconds);
	sum->intervals = LST_MAX(sum->intervals, t->intervals);
	for (int d = 0; d < LST_DIR_N; d++) {
		sum->iops[d] = sum->seconds > 0 ? (double)sum->dir[d].ios / sum->seconds : 0;
		sum->mbps[d] =
			sum->seconds > 0 ? (double)sum->dir[d].bytes / sum->seconds / 1e6 : 0;
	}
	sum->trim_iops = sum->seconds > 0 ? (double)sum->trim.ios / sum->seconds : 0;
	sum->trim_mbps = sum->seconds > 0 ? (double)sum->trim.bytes / sum->seconds / 1e6 : 0;
}

/* A summary row of a target or a path (whose paths ran w): in summary.csv/.json, and kept for
 * the step's result. */
static void s_part_summary(lst_coord *c, const struct lst_step *step, const struct lst_row_who *who,
			   const struct lst_merge_totals *t, const struct lst_row_workload *w,
			   const struct lst_failover *fo)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;
	struct lst_step_part *p;
	json_t *extra = lst_record_step_json(step);

	if (fo)
		lst_coord__failover_json(c, fo, extra);
	lst_results_summary_of(
		lst_record_results(lst_coord__record(c)), lst_coord__where(c)->phase_name,
		lst_coord__where(c)->point, lst_coord__where(c)->label, who,
		lst_coord__t(c, lst_coord__where(c)->T0), t, step->test, step->round, w, extra);
	ps->parts = lst_realloc(ps->parts, (ps->nparts + 1) * sizeof(*ps->parts));
	p = &ps->parts[ps->nparts++];
	memset(p, 0, sizeof(*p));
	p->who = *who;
	for (int d = 0; d < LST_DIR_N; d++) {
		p->iops[d] = t->iops[d];
		p->mbps[d] = t->mbps[d];
		p->ios[d] = t->dir[d].ios;
		p->bytes[d] = t->dir[d].bytes;
	}
	p->seconds = t->seconds;
	for (int d = 0; d < LST_DIR_N; d++)
		p->lat_dir[d] = t->dir[d].lat;
	p->lat = t->dir[LST_DIR_READ].lat;
	lst_hist_add(&p->lat, &t->dir[LST_DIR_WRITE].lat);
}

void lst_coord__paths_result(lst_coord *c, struct lst_step_result *r)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;

	r->parts = ps->parts;
	r->nparts = ps->nparts;
	ps->parts = NULL;
	ps->nparts = 0;
}

void lst_coord__paths_summaries(lst_coord *c, const struct lst_step *step)
{
	struct lst_coord__paths *ps = &lst_coord__cur(c)->paths;

	if (!ps->merge)
		return;
	lst_merge_finish(ps->merge);
	for (size_t s = 0; ps->target_rows && s < ps->nslots; s++) {
		struct lst_merge_totals *sum;
		size_t t = ps->slots[s].target;
		struct lst_row_who who = { "target", "*", lst_coord__plan(c)->targets[t].name, "" };
		struct lst_row_workload w;

		if (!ps->slots[s].first)
			continue;
		sum = lst_calloc(1, sizeof(*sum));
		for (int d = 0; d < LST_DIR_N; d++)
			lst_hist_init(&sum->dir[d].lat);
		for (size_t k = s; k < ps->nslots; k++)
			if (ps->slots[k].target == t &&
			    lst_coord__agent_in_point(c, ps->slots[k].agent))
				s_totals_add(sum, lst_merge_totals(ps->merge, k));
		lst_coord__paths_workload(c, SIZE_MAX, t, &w);
		s_part_summary(c, step, &who, sum, &w, NULL);
		free(sum);
	}
	for (size_t s = 0; ps->path_rows && s < ps->nslots; s++) {
		const struct lst_coord__slot *sl = &ps->slots[s];
		struct lst_row_who who = { "path", lst_conn_name(lst_coord__conn(c, sl->agent)),
					   lst_coord__plan(c)->targets[sl->target].name, sl->path };

		if (!lst_coord__agent_in_point(c, sl->agent))
			continue;
		s_part_summary(c, step, &who, lst_merge_totals(ps->merge, s), &sl->w, &sl->fo);
	}
}

/* The point's detectors: its agents' when it has no path rows, and its slots'. */
void lst_coord__failover_mark(lst_coord *c, const char *what, int64_t start, int64_t end)
{
	double t0 = lst_record_t(lst_coord__record(c), start),
	       t1 = lst_record_t(lst_coord__record(c), end ? end : start);

	for (size_t i = 0; !lst_coord__cur(c)->paths.path_rows && i < lst_coord__n(c); i++)
		lst_failover_mark(&lst_coord__cur(c)->ag[i].fo, what, t0, t1);
	for (size_t s = 0; s < lst_coord__cur(c)->paths.nslots; s++)
		lst_failover_mark(&lst_coord__cur(c)->paths.slots[s].fo, what, t0, t1);
}

bool lst_coord__paths_spec(const lst_coord *c, size_t i, uint32_t spec, size_t *t, size_t *j)
{
	const struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];
	const struct lst_coord__slot *sl;

	if (spec >= pa->njobs || spec >= LST_MAX_JOBSPECS ||
	    pa->slot[spec] >= lst_coord__cur(c)->paths.nslots)
		return false;
	sl = &lst_coord__cur(c)->paths.slots[pa->slot[spec]];
	*t = sl->target;
	*j = sl->j;
	return true;
}
