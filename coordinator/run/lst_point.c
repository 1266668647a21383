/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One point: the job specs of every path, PREPARE everywhere, one start instant, START, merge
 * the samples until every agent is done or lost (the plan's on_agent_loss judges a loss), and
 * record the point: summary rows, the suite's result, the run.json entry.
 */

#include <errno.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_point_int.h"

static void s_on_row(const struct lst_merge_row *row, void *arg);

/*
 * An agent's actual start on our timeline, through the clock model that chose its t0_agent
 * (T0 plus how late it was on its own clock). A clock burst between START and now moves the
 * model by its noise, tens of microseconds on a loaded host, which mapped through the new model
 * would show as lateness (even as an early start) the agent never had; the drift over the
 * lateness itself is parts per million of it. An instant from the wire too far off for that
 * goes through the current model.
 */
static int64_t s_actual_local(const lst_coord *c, size_t i)
{
	const struct lst_coord__stand *a = lst_coord__stand_of(c, i);
	int64_t late, t;

	if (__builtin_sub_overflow(a->actual, lst_coord__cur(c)->ag[i].t0_agent, &late) ||
	    __builtin_add_overflow(lst_coord__where(c)->T0, late, &t))
		return lst_clock_to_local(lst_conn_clock(lst_coord__conn(c, i)), a->actual);
	return t;
}

/* The point's agents for its run.json entry (its name: when it started, how it ended, what
 * its paths ran), and in *skew the spread of their actual starts (null when none started). */
static json_t *s_agents_json(const lst_coord *c, json_t **skew)
{
	json_t *agents = json_object();
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (size_t i = 0; i < lst_coord__n(c); i++) {
		const struct lst_coord__stand *a = lst_coord__stand_of(c, i);
		const struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];
		int64_t actual;

		if (!a->in_point)
			continue;
		actual = a->started ? s_actual_local(c, i) : 0;
		if (a->started) {
			lo = LST_MIN(lo, actual);
			hi = LST_MAX(hi, actual);
		}
		json_object_set_new(
			agents, lst_conn_name(lst_coord__conn(c, i)),
			json_pack("{s:I, s:o, s:o, s:s, s:s, s:I, s:I, s:O}", "t0_agent_ns",
				  (json_int_t)pa->t0_agent, "actual_agent_ns",
				  a->started ? json_integer((json_int_t)a->actual) : json_null(),
				  "start_late_us",
				  a->started
					  ? json_real((double)(actual - lst_coord__where(c)->T0) /
						      1e3)
					  : json_null(),
				  "done", lst_msg_done_reason_name(a->done_msg.reason), "text",
				  a->done_msg.text, "samples", (json_int_t)a->samples,
				  "last_interval", (json_int_t)a->done_msg.last_interval, "paths",
				  pa->jobs ? pa->jobs : json_null()));
	}
	*skew = hi >= lo ? json_real((double)(hi - lo) / 1e3) : json_null();
	return agents;
}

/* Was option name set by a role (set[] indexes lst_workload_opts)? */
static bool s_role_set(const bool set[32], const char *name)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, name);

	return o && set[o - lst_workload_opts];
}

/*
 * A skew under share: split: each skew entry's region (its offset, and its size or to the
 * target's end) is divided among the n paths like the workload's own, so each path's entries
 * cover their own slices. Returns 0, or -1 with err when an entry's region has less than one
 * block per path.
 */
static int s_split_skew(struct lst_workload *w, uint64_t size, size_t rank, size_t n, lst_err *err)
{
	for (int64_t i = 0; i < w->skew.n; i++) {
		struct lst_skew_entry *e = &w->skew.e[i];
		uint64_t base = (uint64_t)e->offset, len, chunk;

		if (base >= size)
			continue; /* lst_workload_check says so */
		len = e->size && (uint64_t)e->size < size - base ? (uint64_t)e->size : size - base;
		chunk = len / n / (uint64_t)e->bs * (uint64_t)e->bs;
		if (!chunk)
			return lst_err_set(
				err, -EINVAL,
				"skew entry %lld: a region of %llu bytes has less than one "
				"block (bs %lld) for each of %zu paths",
				(long long)i + 1, (unsigned long long)len, (long long)e->bs, n);
		e->offset = (int64_t)(base + rank * chunk);
		e->size = (int64_t)chunk;
	}
	return 0;
}

/*
 * The workload one path runs: the step's workload with the path's roles applied (w comes in
 * with them) and its share of the target. The paths taking part in the point (n, this one is
 * rank) divide the range under share: split, and the target's bytes and rate_iops, unless a
 * role gave the path its own.
 */
static int s_path_workload(lst_coord *c, const struct lst_plan_phase *ph, size_t t, size_t j,
			   const struct lst_step *step, size_t rank, size_t n, const bool set[32],
			   struct lst_workload *w)
{
	const struct lst_plan_target *pt = &lst_coord__plan(c)->targets[t];
	uint64_t size = lst_coord__target_size(c, t), bs = (uint64_t)w->bs;
	uint64_t base = (uint64_t)w->offset, len;
	lst_err err;

	if (base >= size) {
		lst_coord__error(c, "phase %s: target %s: offset %llu is beyond its %llu bytes",
				 ph->name, pt->name, (unsigned long long)base,
				 (unsigned long long)size);
		return -1;
	}
	len = size - base;
	if (w->size && (uint64_t)w->size < len)
		len = (uint64_t)w->size;
	if (pt->share == LST_SHARE_SPLIT && n > 1) {
		uint64_t chunk = len / n / bs * bs;

		w->offset = (int64_t)(base + rank * chunk);
		w->size = (int64_t)chunk;
		if (s_split_skew(w, size, rank, n, &err)) {
			lst_coord__error(c, "phase %s: target %s: %s", ph->name, pt->name, err.msg);
			return -1;
		}
	} else {
		w->size = (int64_t)len;
	}
	if (step->stop_capacity > 0 && !s_role_set(set, "bytes"))
		w->bytes = (int64_t)((double)size * step->stop_capacity);
	/* Totals in the plan are for the target: each path does its share. */
	if (w->bytes && !s_role_set(set, "bytes"))
		w->bytes = LST_MAX((int64_t)bs * w->jobs,
				   w->bytes / (int64_t)n / (int64_t)bs * (int64_t)bs);
	if (w->rate_iops && !s_role_set(set, "rate_iops"))
		w->rate_iops =
			LST_MAX(w->jobs, (w->rate_iops + (int64_t)(n - 1 - rank)) / (int64_t)n);
	if (step->action != LST_ACTION_IO)
		return 0;
	if (lst_workload_check(w, size, &err)) {
		lst_coord__error(c, "phase %s: target %s, path %s on %s: %s", ph->name, pt->name,
				 pt->paths[j].path,
				 lst_coord__plan(c)->agents[pt->paths[j].agent].name, err.msg);
		return -1;
	}
	return 0;
}

/* A complete interval from the merge: the row of all and each agent's, to the run's sinks. */
static void s_on_row(const struct lst_merge_row *row, void *arg)
{
	lst_coord *c = arg;
	struct lst_coord__row all = {
		.who = { "all", "all", "", "" },
		.k = row->k,
		.t_s = lst_coord__t(c, lst_coord__where(c)->T0 +
					       row->k * lst_coord__where(c)->interval),
		.ramp = row->ramp,
		.dir = row->all->dir,
		.health = &row->all->health,
		.verify = &row->all->verify,
		.s = row->all,
	};

	for (size_t i = 0; i < row->nagents; i++)
		if (row->agent[i])
			lst_coord__row_add(&all, row->agent[i]);
	for (size_t i = 0; i < row->nagents; i++)
		if (row->agent[i])
			lst_coord__metrics_sample(c, i);
	lst_coord__rows_emit(c, &all);
	for (size_t i = 0; !row->ramp && i < row->nagents; i++) {
		const lst_sample *s = row->agent[i];
		struct lst_coord__row r = { .who = { "agent", lst_conn_name(lst_coord__conn(c, i)),
						     "", "" },
					    .k = row->k };

		if (!s)
			continue;
		lst_coord__row_of(&r, s);
		r.t_s = lst_coord__t(
			c, lst_clock_to_local(lst_conn_clock(lst_coord__conn(c, i)), s->start_ns));
		if (!lst_coord__cur(c)->paths.path_rows)
			r.fo = &lst_coord__cur(c)->ag[i].fo;
		lst_coord__rows_emit(c, &r);
	}
}

static void s_stop_all(lst_coord *c)
{
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__stand *a = lst_coord__stand(c, i);
		lst_msg *m;

		if (!a->in_point || a->done || !lst_coord__agent_usable(c, i))
			continue;
		m = lst_msg_new(LST_MSG_STOP);
		m->u.stop.phase = (uint32_t)lst_coord__where(c)->phase;
		m->u.stop.point = (uint32_t)lst_coord__where(c)->point;
		lst_coord__command(c, i, &m);
		if (!a->start_id &&
		    lst_coord__cur(c)->merge) { /* never started: dropped, no DONE comes */
			a->done = true;
			lst_coord__merge_done(c, i);
		}
	}
	/* Wait for DONE even after Ctrl-C: what the agents measured until the stop is kept. */
	if (!lst_coord__pump_wait(c, lst_coord__all_done, LST_COORD__STOP_TIMEOUT, false))
		for (size_t i = 0; i < lst_coord__n(c); i++)
			if (lst_coord__agent_in_point(c, i) && !lst_coord__stand(c, i)->done)
				lst_coord__lose(c, i, "did not finish within %.0f s of STOP",
						(double)LST_COORD__STOP_TIMEOUT / 1e9);
}

/* The point's summary rows, each with what its paths ran (lst_coord__paths_workload). */
static void s_summaries(lst_coord *c, const struct lst_step *step)
{
	const struct lst_merge_totals *t =
		lst_merge_totals(lst_coord__cur(c)->merge, lst_coord__n(c));
	struct lst_row_workload w;

	lst_coord__paths_workload(c, SIZE_MAX, SIZE_MAX, &w);
	lst_results_summary(lst_record_results(lst_coord__record(c)),
			    lst_coord__where(c)->phase_name, lst_coord__where(c)->point,
			    lst_coord__where(c)->label, "all",
			    lst_coord__t(c, lst_coord__where(c)->T0), t, step->test, step->round,
			    &w, lst_record_step_json(step));
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		json_t *extra = lst_record_step_json(step);

		if (!lst_coord__stand(c, i)->in_point) {
			json_decref(extra);
			continue;
		}
		if (!lst_coord__cur(c)->paths.path_rows)
			lst_coord__failover_json(c, &lst_coord__cur(c)->ag[i].fo, extra);
		lst_coord__paths_workload(c, i, SIZE_MAX, &w);
		lst_results_summary(lst_record_results(lst_coord__record(c)),
				    lst_coord__where(c)->phase_name, lst_coord__where(c)->point,
				    lst_coord__where(c)->label,
				    lst_conn_name(lst_coord__conn(c, i)),
				    lst_coord__t(c, lst_coord__where(c)->T0),
				    lst_merge_totals(lst_coord__cur(c)->merge, i), step->test,
				    step->round, &w, extra);
	}
	lst_coord__paths_summaries(c, step);
}

/* The combined result of the point just run, for the suite. */
/* The bytes of every path's region in the point (run.json's "paths" sizes). */
static uint64_t s_regions_bytes(const lst_coord *c)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < lst_coord__n(c); i++) {
		json_t *js;
		size_t k;

		if (!lst_coord__agent_in_point(c, i))
			continue;
		json_array_foreach (lst_coord__cur(c)->ag[i].jobs, k, js)
			sum += (uint64_t)json_integer_value(json_object_get(js, "size"));
	}
	return sum;
}

static void s_step_result(lst_coord *c, bool partial, struct lst_step_result *r)
{
	const struct lst_merge_totals *t =
		lst_merge_totals(lst_coord__cur(c)->merge, lst_coord__n(c));

	memset(r, 0, sizeof(*r));
	for (int d = 0; d < LST_DIR_N; d++) {
		r->iops[d] = t->iops[d];
		r->mbps[d] = t->mbps[d];
		r->ios[d] = t->dir[d].ios;
		r->bytes[d] = t->dir[d].bytes;
	}
	r->seconds = t->seconds;
	for (int d = 0; d < LST_DIR_N; d++)
		r->lat_dir[d] = t->dir[d].lat;
	r->lat = t->dir[LST_DIR_READ].lat;
	lst_hist_add(&r->lat, &t->dir[LST_DIR_WRITE].lat);
	r->t_s = lst_coord__t(c, lst_coord__where(c)->T0);
	r->partial = partial;
	if (!lst_coord__where(c)->io) {
		/* A purge sends no samples: what it did is the regions it was given, in the time
		 * from its start to the last agent's answer. */
		r->discarded = s_regions_bytes(c);
		r->seconds = (double)(lst_mono_ns() - lst_coord__where(c)->T0) / 1e9;
	}
	lst_coord__paths_result(c, r);
}

/*
 * The end of a point: its summary rows, its result for the suite (*out), its run.json entry,
 * and its journal entry, kept by the record until the suite has seen the result
 * (lst_coord__journal_point).
 */
void lst_coord__record_point(lst_coord *c, const struct lst_step *step, bool partial,
			     struct lst_step_result *out)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[lst_coord__where(c)->phase];
	const struct lst_workload *pw = &step->w;
	size_t npoints =
		json_array_size(lst_results_points(lst_record_results(lst_coord__record(c))));
	json_t *pj, *entry, *agents, *skew, *summary = json_array();

	lst_merge_finish(lst_coord__cur(c)->merge);
	lst_coord__progress_break(c);
	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (lst_coord__stand(c, i)->in_point && lst_coord__cur(c)->ag[i].dropped > 1)
			lst_log_warn("agent %s: %llu samples of this point were not counted (late, "
				     "or after its loss)",
				     lst_conn_name(lst_coord__conn(c, i)),
				     (unsigned long long)lst_coord__cur(c)->ag[i].dropped);
	if (partial)
		lst_coord__set_partial(c);
	s_summaries(c, step);
	for (size_t i = npoints;
	     i < json_array_size(lst_results_points(lst_record_results(lst_coord__record(c)))); i++)
		json_array_append(
			summary,
			json_array_get(lst_results_points(lst_record_results(lst_coord__record(c))),
				       i));
	s_step_result(c, partial, out);
	agents = s_agents_json(c, &skew);
	pj = lst_coord__point_json(c, pw, partial, agents, skew);
	/* The point's test and round; "workload" stays the full option text, for the audit. */
	json_object_set_new(pj, "suite", json_string(lst_suite_names[ph->suite]));
	json_object_set_new(pj, "test", json_string(step->test));
	json_object_set_new(pj, "round", json_integer((json_int_t)step->round));
	entry = json_pack("{s:s, s:s, s:I, s:I, s:O, s:o}", "type", "point", "phase", ph->name,
			  "phase_index", (json_int_t)lst_coord__where(c)->phase, "point",
			  (json_int_t)lst_coord__where(c)->point, "run", pj, "summary", summary);
	lst_record_point(lst_coord__record(c), pj, entry);
	lst_coord__progress_point(c, out, json_object_get(pj, "start_skew_us"));
}

/* A PREPARE for agent i of the point, made on its first job spec. */
static lst_msg *s_prepare_msg(lst_coord *c, const struct lst_plan_phase *ph, size_t phase,
			      size_t point)
{
	lst_msg *m = lst_msg_new(LST_MSG_PREPARE);

	snprintf(m->u.prepare.run, sizeof(m->u.prepare.run), "%s", lst_coord__run_id(c));
	snprintf(m->u.prepare.name, sizeof(m->u.prepare.name), "%s", ph->name);
	m->u.prepare.phase = (uint32_t)phase;
	m->u.prepare.point = (uint32_t)point;
	return m;
}

/*
 * The last interval a job of workload w closes when it completes: a timed job closes every
 * interval up to its ramp and runtime; one that may end sooner (bytes, a replay's trace) or
 * has no runtime says nothing (-1).
 */
static int64_t s_last_interval(const struct lst_workload *w)
{
	int64_t nramp;

	if (!w->runtime || w->bytes || w->read_iolog[0] || w->interval <= 0)
		return -1;
	nramp = (w->ramp + w->interval - 1) / w->interval;
	return (nramp * w->interval + w->runtime + w->interval - 1) / w->interval - 1;
}

/* Path j of target t as agent i's next job spec (w: its workload, share applied). */
static int s_add_job(lst_coord *c, const struct lst_plan_phase *ph, size_t t, size_t j,
		     const struct lst_step *step, const struct lst_workload *w, lst_msg *m)
{
	const struct lst_plan_target *pt = &lst_coord__plan(c)->targets[t];
	size_t i = pt->paths[j].agent;
	struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];
	struct lst_jobspec *js;

	if (m->u.prepare.njobs == LST_MAX_JOBSPECS) {
		lst_coord__error(c, "agent %s: more than %d paths in phase %s",
				 lst_conn_name(lst_coord__conn(c, i)), LST_MAX_JOBSPECS, ph->name);
		return -1;
	}
	/* a purge discards: no workload of its runs (rw, bs, ...) is what it did */
	lst_coord__paths_slot(c, i, m->u.prepare.njobs, t, j,
			      step->action == LST_ACTION_IO ? w : NULL);
	js = &m->u.prepare.jobs[m->u.prepare.njobs++];
	snprintf(js->target, sizeof(js->target), "%s", pt->name);
	snprintf(js->path, sizeof(js->path), "%s", pt->paths[j].path);
	snprintf(js->identity, sizeof(js->identity), "%s", pt->identity ? pt->identity : "");
	js->action = step->action;
	js->w = *w;
	lst_coord__verify_stamp(c, t, j, js);
	if (!pa->jobs) {
		pa->jobs = json_array();
		pa->expect_last = -1;
		pa->records = false;
	}
	pa->records |= w->write_iolog[0] != 0;
	if (step->action == LST_ACTION_IO)
		pa->expect_last = LST_MAX(pa->expect_last, s_last_interval(w));
	json_array_append_new(
		pa->jobs, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "target", pt->name, "path",
				    pt->paths[j].path, "offset", (json_int_t)js->w.offset, "size",
				    (json_int_t)js->w.size, "bytes", (json_int_t)js->w.bytes,
				    "rate_iops", (json_int_t)js->w.rate_iops));
	return 0;
}

/*
 * The job specs of target t in one point: its paths taking part (the step's port set and the
 * phase's roles say which, and with which workload), each with its share. Returns 0 or -1
 * (said); *first_w gets the first path's workload.
 */
static int s_target_specs(lst_coord *c, const struct lst_plan_phase *ph, size_t phase, size_t point,
			  size_t t, const struct lst_step *step, lst_msg **msgs, bool *missing,
			  struct lst_workload *first_w, bool *have_first)
{
	const struct lst_plan_target *pt = &lst_coord__plan(c)->targets[t];
	struct lst_workload *w = lst_calloc(pt->npaths, sizeof(*w));
	bool(*set)[32] = lst_calloc(pt->npaths, sizeof(*set));
	bool *on = lst_calloc(pt->npaths, sizeof(*on));
	size_t n = 0, rank = 0;
	int rc = 0;

	for (size_t j = 0; j < pt->npaths; j++) {
		w[j] = step->w;
		on[j] = lst_plan_path_role(lst_coord__plan(c), ph, step->ports, t, j, &w[j],
					   set[j]);
		n += on[j];
	}
	for (size_t j = 0; j < pt->npaths && !rc; j++) {
		size_t i = pt->paths[j].agent;

		if (!on[j])
			continue;
		if (s_path_workload(c, ph, t, j, step, rank++, n, set[j], &w[j])) {
			rc = -1;
			break;
		}
		/* a phase of several points records one trace per point (NAME-pK) */
		if (lst_plan_point_trace(ph, point, w[j].write_iolog)) {
			lst_coord__error(c, "phase %s point %zu: trace name %s-p%zu is too long",
					 ph->name, point, w[j].write_iolog, point);
			rc = -1;
			break;
		}
		if (!lst_coord__agent_usable(c, i)) {
			*missing = true;
			continue;
		}
		if (!msgs[i])
			msgs[i] = s_prepare_msg(c, ph, phase, point);
		rc = s_add_job(c, ph, t, j, step, &w[j], msgs[i]);
		if (!rc && !*have_first) {
			*first_w = msgs[i]->u.prepare.jobs[msgs[i]->u.prepare.njobs - 1].w;
			*have_first = true;
		}
	}
	free(on);
	free(set);
	free(w);
	return rc;
}

/*
 * The job specs of one point: a PREPARE for every agent with a path taking part (msgs[i], NULL
 * for the others), and each path's share in a->jobs for run.json. An agent that is lost gets
 * none, and *missing says so. Returns 0 or -1 (said).
 */
static int s_point_specs(lst_coord *c, const struct lst_plan_phase *ph, size_t phase, size_t point,
			 const struct lst_step *step, lst_msg **msgs, bool *missing,
			 struct lst_workload *first_w)
{
	bool have_first = false;

	for (size_t k = 0; k < ph->ntargets; k++)
		if (s_target_specs(c, ph, phase, point, ph->targets[k], step, msgs, missing,
				   first_w, &have_first))
			return -1;
	if (!have_first) {
		lst_coord__error(c, "phase %s point %zu: no agent left to run it", ph->name, point);
		return -1;
	}
	return 0;
}

/*
 * Some agent of the point was lost: what the plan's on_agent_loss makes of it. abort: stop the
 * others, the run fails; continue: go on without it (the point is partial); retry: stop the
 * others, record nothing, and let lst_coord__run_phase run the point again.
 */
int lst_coord__loss_policy(lst_coord *c, const struct lst_plan_phase *ph)
{
	switch (ph->on_agent_loss) {
	case LST_ON_LOSS_CONTINUE:
		/* The run's result lacks the agent from here on: said in run.json's errors. */
		for (size_t i = 0; i < lst_coord__n(c); i++) {
			struct lst_coord__stand *a = lst_coord__stand(c, i);
			struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];

			if (a->in_point && a->point_lost && !pa->judged) {
				char *msg = lst_asprintf("agent %s lost: %s",
							 lst_conn_name(lst_coord__conn(c, i)),
							 lst_coord__lost_why(c, i));

				lst_record_error(lst_coord__record(c), msg);
				free(msg);
			}
			pa->judged |= a->point_lost;
		}
		return LST_COORD__POINT_OK;
	case LST_ON_LOSS_RETRY:
		lst_log_warn("phase %s point %zu: an agent was lost; stopping the point to run it "
			     "again (on_agent_loss: retry)",
			     ph->name, lst_coord__where(c)->point);
		s_stop_all(c);
		return LST_COORD__POINT_RETRY;
	default:
		for (size_t i = 0; i < lst_coord__n(c); i++) {
			struct lst_coord__stand *a = lst_coord__stand(c, i);
			struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];

			if (a->in_point && a->point_lost && !pa->judged)
				lst_coord__error(
					c,
					"agent %s lost: %s; the plan says abort (on_agent_loss): "
					"stopping the others",
					lst_conn_name(lst_coord__conn(c, i)),
					lst_coord__lost_why(c, i));
			pa->judged |= a->point_lost;
		}
		s_stop_all(c);
		return LST_COORD__POINT_FAIL;
	}
}

/* An agent of the point was lost and the plan's rule has not been applied to it yet. */
static bool s_point_lost(const lst_coord *c)
{
	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (lst_coord__agent_in_point(c, i) && lst_coord__agent_point_lost(c, i) &&
		    !lst_coord__cur(c)->ag[i].judged)
			return true;
	return false;
}

/* Each path's device name for devstats.csv: the last part of a block device's real path. */
static void s_note_devices(struct lst_coord__pagent *a, const struct lst_msg_prepared *pd)
{
	memset(a->devices, 0, sizeof(a->devices));
	for (uint32_t j = 0; j < pd->npaths && j < LST_MAX_JOBSPECS; j++) {
		const struct lst_path_identity *id = &pd->paths[j];
		const char *slash = strrchr(id->real_path, '/');

		if (!strcmp(id->kind, "block"))
			lst_copy(a->devices[j], sizeof(a->devices[j]),
				 slash ? slash + 1 : id->real_path);
	}
}

/* PREPARE everywhere and wait for the answers. Takes msgs[i]. */
static int s_point_prepare(lst_coord *c, const struct lst_plan_phase *ph, lst_msg **msgs)
{
	size_t ahead;

	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__stand *a = lst_coord__stand(c, i);
		struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];

		a->in_point = msgs[i] != NULL;
		a->point_lost = pa->judged = a->started = a->done = false;
		pa->late_warned = pa->bad_warned = false;
		a->min_seq = UINT64_MAX; /* until PREPARED: nothing it sends is this point's */
		a->start_id = 0;
		a->samples = pa->dropped = pa->merged = 0;
		a->progress_at = 0;
		lst_failover_free(&pa->fo);
		lst_failover_init(&pa->fo, lst_coord__failover_below(c));
		memset(&a->done_msg, 0, sizeof(a->done_msg));
		a->done_msg.last_interval = -1;
		if (msgs[i])
			lst_coord__command(c, i, &msgs[i]);
	}
	lst_coord__set_in_point(c, true);
	/* The merge waits a lease for an unreachable agent before it writes rows without it. */
	ahead = (size_t)((lst_coord__lost_after(c) + LST_NS_PER_S) /
			 lst_coord__where(c)->interval) +
		8;
	lst_coord__cur(c)->merge = lst_merge_new(lst_coord__n(c), ahead, s_on_row, c);
	lst_coord__paths_begin(c, ahead);
	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (!lst_coord__stand(c, i)->in_point)
			lst_merge_agent_done(lst_coord__cur(c)->merge, i);
	lst_coord__pump_until(c, lst_coord__all_replied, LST_COORD__REPLY_TIMEOUT);
	if (lst_coord__interrupted || !lst_coord__replies_ok(c, "the job specs"))
		return LST_COORD__POINT_FAIL;
	if (s_point_lost(c))
		return lst_coord__loss_policy(c, ph);
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__stand *a = lst_coord__stand(c, i);

		if (a->in_point && !a->point_lost) {
			s_note_devices(&lst_coord__cur(c)->ag[i],
				       &lst_coord__reply(c, i)->u.prepared);
			lst_coord__verify_prepared(c, i, &lst_coord__reply(c, i)->u.prepared);
		}
		if (a->in_point && !a->point_lost && lst_coord__reply(c, i)->u.prepared.warning[0])
			lst_log_warn("agent %s: %s", lst_conn_name(lst_coord__conn(c, i)),
				     lst_coord__reply(c, i)->u.prepared.warning);
	}
	return LST_COORD__POINT_OK;
}

/* One start instant for everyone, far enough ahead for the slowest START to arrive. */
static void s_point_start(lst_coord *c)
{
	int64_t max_rtt = 0, lead;

	if (lst_mono_ns() - lst_coord__last_sync(c) > LST_COORD__SYNC_EVERY)
		lst_coord__sync(c);
	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (lst_coord__stand(c, i)->in_point && lst_coord__agent_usable(c, i))
			max_rtt =
				LST_MAX(max_rtt, lst_conn_estimate(lst_coord__conn(c, i))->rtt_ns);
	lead = LST_MAX(lst_coord__opts(c)->lead_ns, 4 * max_rtt + 20 * LST_NS_PER_MS);
	lst_coord__at(c)->T0 = lst_mono_ns() + lead;
	lst_record_set_t0(lst_coord__record(c),
			  lst_coord__where(c)->T0); /* the run's first start instant only */
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__stand *a = lst_coord__stand(c, i);
		struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];
		lst_msg *m;

		if (!a->in_point || a->point_lost || !lst_coord__agent_usable(c, i))
			continue;
		m = lst_msg_new(LST_MSG_START);
		m->u.start.phase = (uint32_t)lst_coord__where(c)->phase;
		m->u.start.point = (uint32_t)lst_coord__where(c)->point;
		pa->t0_agent = lst_clock_to_remote(lst_conn_clock(lst_coord__conn(c, i)),
						   lst_coord__where(c)->T0);
		m->u.start.t0 = pa->t0_agent;
		lst_coord__events_start(c, i, &m->u.start);
		if (!lst_coord__command(c, i, &m))
			a->start_id = lst_coord__await_id(c, i);
		a->progress_at = lst_coord__where(c)->T0;
	}
	lst_log_debug(LST_DBG_TIME, "phase %s point %zu: start in %.1f ms",
		      lst_coord__where(c)->phase_name, lst_coord__where(c)->point,
		      (double)lead / 1e6);
}

/* Merge until every agent is done or lost; a loss goes to lst_coord__loss_policy once. */
static int s_point_wait(lst_coord *c, const struct lst_plan_phase *ph, bool *partial)
{
	while (!lst_coord__all_done(c)) {
		if (lst_coord__interrupted) {
			lst_coord__progress_break(c);
			lst_log_warn(
				"interrupted: stopping every agent and keeping what was measured");
			s_stop_all(c);
			return LST_COORD__POINT_FAIL;
		}
		lst_coord__pump(c, 100 * LST_NS_PER_MS);
		if (lst_coord__hook_stop(c)) { /* said by lst_coord__on_event */
			s_stop_all(c);
			return LST_COORD__POINT_FAIL;
		}
		if (!lst_coord__results_ok(c)) {
			s_stop_all(c);
			return LST_COORD__POINT_FAIL;
		}
		lst_coord__resync(c);
		if (s_point_lost(c)) {
			int rc = lst_coord__loss_policy(c, ph);

			if (rc != LST_COORD__POINT_OK)
				return rc;
			*partial = true;
		}
	}
	return LST_COORD__POINT_OK;
}

/* The end of a point, recorded or not: forget its per-agent state and its merge. */
static void s_point_end(lst_coord *c, lst_msg **msgs)
{
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		lst_msg_destroy(&msgs[i]);
		lst_coord__stand(c, i)->in_point = false;
		lst_failover_free(&lst_coord__cur(c)->ag[i].fo);
		json_decref(lst_coord__cur(c)->ag[i].jobs);
		lst_coord__cur(c)->ag[i].jobs = NULL;
	}
	free(msgs);
	lst_coord__events_forget(c);
	lst_merge_destroy(&lst_coord__cur(c)->merge);
	lst_coord__paths_end(c);
	lst_coord__set_in_point(c, false);
}

struct lst_coord__point *lst_coord__point_new(size_t nagents)
{
	struct lst_coord__point *p = lst_calloc(1, sizeof(*p));

	p->ag = lst_calloc(nagents ? nagents : 1, sizeof(*p->ag));
	return p;
}

void lst_coord__point_destroy(struct lst_coord__point **p)
{
	if (!*p)
		return;
	free((*p)->ag);
	free(*p);
	*p = NULL;
}

/* The point's place and label: "TEST: LABEL round N", "TEST round N" or the step's label. */
static void s_point_begin(lst_coord *c, size_t phase, size_t point, const struct lst_step *step)
{
	struct lst_coord__point *cur = lst_coord__cur(c);
	struct lst_coord__where *at = lst_coord__at(c);
	struct lst_coord__pagent *ag = cur->ag;

	memset(cur, 0, sizeof(*cur));
	cur->ag = ag; /* the agents' records are the run's, kept from point to point */
	memset(at, 0, sizeof(*at));
	at->phase = phase;
	at->point = point;
	at->phase_name = lst_coord__plan(c)->phases[phase].name;
	if (step->round && strcmp(step->test, step->label))
		snprintf(at->label, sizeof(at->label), "%s: %s round %zu", step->test, step->label,
			 step->round);
	else if (step->round)
		snprintf(at->label, sizeof(at->label), "%s round %zu", step->test, step->round);
	else
		snprintf(at->label, sizeof(at->label), "%s", step->label);
}

/*
 * An agent of the phase lost before the point: abort ends the run here, retry waits for it
 * (and the others) first. Returns LST_COORD__POINT_OK when the point may start.
 */
static int s_point_agents(lst_coord *c, const struct lst_plan_phase *ph)
{
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		if (!lst_coord__in_phase(c, ph, i) || lst_coord__agent_usable(c, i))
			continue;
		if (ph->on_agent_loss == LST_ON_LOSS_ABORT) {
			lst_coord__error(
				c,
				"phase %s point %zu does not start: agent %s is lost and the "
				"plan says abort (on_agent_loss)",
				ph->name, lst_coord__where(c)->point,
				lst_conn_name(lst_coord__conn(c, i)));
			return LST_COORD__POINT_FAIL;
		}
		if (ph->on_agent_loss == LST_ON_LOSS_RETRY && !lst_coord__wait_back(c, ph)) {
			if (!lst_coord__interrupted)
				lst_coord__error(
					c,
					"phase %s point %zu: agent %s did not come back within "
					"retry_wait (%.0f s)",
					ph->name, lst_coord__where(c)->point,
					lst_conn_name(lst_coord__conn(c, i)),
					(double)lst_coord__plan(c)->retry_wait / 1e9);
			return LST_COORD__POINT_FAIL;
		}
		break;
	}
	return LST_COORD__POINT_OK;
}

/*
 * Run one step of phase `phase` as point number `point`: begin, check its agents, job specs,
 * prepare, start, wait, record. Returns LST_COORD__POINT_OK when it completed (maybe partial)
 * with the combined result in *out, LST_COORD__POINT_RETRY when it must run again (an agent was
 * lost under on_agent_loss: retry; nothing was recorded), LST_COORD__POINT_FAIL when the run
 * must end (refusal, loss under abort, Ctrl-C).
 */
int lst_coord__run_point(lst_coord *c, size_t phase, size_t point, const struct lst_step *step,
			 struct lst_step_result *out)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[phase];
	struct lst_coord__where *at;
	struct lst_workload first_w;
	bool partial = false;
	lst_msg **msgs = lst_calloc(lst_coord__n(c), sizeof(*msgs));
	int rc;

	s_point_begin(c, phase, point, step);
	lst_coord__metrics_point(c, step);
	lst_coord__verify_point_begin(c);
	if ((rc = s_point_agents(c, ph)) != LST_COORD__POINT_OK)
		goto out;
	if (s_point_specs(c, ph, phase, point, step, msgs, &partial, &first_w)) {
		rc = LST_COORD__POINT_FAIL;
		goto out;
	}
	if (lst_coord__verify_journal_send(c, msgs)) {
		rc = LST_COORD__POINT_FAIL;
		goto out;
	}
	at = lst_coord__at(c);
	at->io = step->action == LST_ACTION_IO;
	at->interval = first_w.interval;
	at->nramp = (first_w.ramp + first_w.interval - 1) / first_w.interval;
	at->duration = first_w.runtime ? at->nramp * first_w.interval + first_w.runtime : 0;

	if ((rc = s_point_prepare(c, ph, msgs)) != LST_COORD__POINT_OK)
		goto out;
	for (size_t i = 0; i < lst_coord__n(c); i++)
		partial |= lst_coord__agent_in_point(c, i) && lst_coord__agent_point_lost(c, i);
	lst_coord__events_begin(c);
	s_point_start(c);
	lst_coord__verify_started(c);
	/* A point that ends the run (abort, Ctrl-C) is still recorded: what was measured stays. */
	rc = s_point_wait(c, ph, &partial);
	lst_coord__events_end(c);
	lst_coord__verify_point_end(c);
	if (rc == LST_COORD__POINT_RETRY)
		goto out;
	for (size_t i = 0; i < lst_coord__n(c); i++)
		partial |= lst_coord__agent_in_point(c, i) && lst_coord__agent_point_lost(c, i);
	lst_coord__record_point(c, step, partial, out);
out:
	s_point_end(c, msgs);
	return rc;
}
