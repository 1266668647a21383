/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the running point takes from the pump, registered in its handler table once a run has a
 * plan (lst_coord__point_listen): a SAMPLE checked in one place (s_sample_check) and then
 * stored (samples/AGENT.msgpack, the agents' and the paths' merges, devstats.csv for its
 * measured intervals), a DONE, the end of an agent's stream, and the events and integrity
 * reports of the point's features.
 */
#include "lst_assert.h"
#include "lst_log.h"
#include "lst_time.h"

#include "lst_point_int.h"

/* A SAMPLE or DONE of agent i is for the point running now (not an earlier point or attempt). */
static bool s_for_point(const lst_coord *c, const struct lst_coord__stand *a, const lst_msg *m,
			uint32_t phase, uint32_t point)
{
	return lst_coord__in_point(c) && a->in_point && phase == lst_coord__where(c)->phase &&
	       point == lst_coord__where(c)->point && m->seq >= a->min_seq;
}

/*
 * devstats.csv rows of a measured interval of agent i: one per path with device counters, on
 * timeseries.csv's time base (the interval's start as the agent measured it, as for the agent's
 * timeseries rows; its place on the grid when it saw no I/O). An entry naming
 * a path the agent was not given is dropped.
 */
static void s_devstats(lst_coord *c, size_t i, const struct lst_msg_sample *s)
{
	struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];
	struct lst_devstat_row row = {
		.phase = lst_coord__where(c)->phase_name,
		.point = lst_coord__where(c)->point,
		.label = lst_coord__where(c)->label,
		.agent = lst_conn_name(lst_coord__conn(c, i)),
		.k = s->s.interval,
	};
	int64_t at = lst_clock_to_local(lst_conn_clock(lst_coord__conn(c, i)), s->s.start_ns);

	if (!s->s.start_ns && !s->s.end_ns) /* no I/O: the interval's place on the grid */
		at = lst_coord__where(c)->T0 + s->s.interval * lst_coord__where(c)->interval;
	row.t_s = lst_coord__t(c, at);

	for (uint32_t j = 0; j < s->ndev; j++) {
		json_t *job = json_array_get(pa->jobs, s->dev[j].path);

		if (!job || s->dev[j].path >= LST_MAX_JOBSPECS)
			continue;
		row.target = json_string_value(json_object_get(job, "target"));
		row.path = json_string_value(json_object_get(job, "path"));
		row.device = pa->devices[s->dev[j].path];
		row.d = &s->dev[j];
		lst_results_devstat(lst_record_results(lst_coord__record(c)), &row);
	}
}

/*
 * The one check of a sample before anything of it is stored (its verify marks excepted, which
 * count whatever becomes of its rows): its interval can exist, its paths add up to it (the
 * codec's lst_msg_sample_parts_check) and the merge still takes its interval. -1 when it is
 * dropped, each reason warned once per agent and point.
 */
static int s_sample_check(lst_coord *c, size_t i, const struct lst_msg_sample *s)
{
	struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];
	char why[256];

	/*
	 * Interval k ends at T0 + (k + 1) x interval: a sample for one that has not begun (with a
	 * second for clock error) is wrong, and would push the merge window past every agent.
	 */
	if (s->s.interval < 0 || s->s.interval > (lst_mono_ns() - lst_coord__where(c)->T0 +
						  LST_NS_PER_S) / lst_coord__where(c)->interval +
							 1) {
		if (!pa->bad_warned)
			lst_log_warn(
				"agent %s: sample for interval %lld, which has not begun %.1f s "
				"into the point: ignored",
				lst_conn_name(lst_coord__conn(c, i)), (long long)s->s.interval,
				(double)(lst_mono_ns() - lst_coord__where(c)->T0) / 1e9);
		pa->bad_warned = true;
		pa->dropped++;
		return -1;
	}
	if (s->nparts && lst_msg_sample_parts_check(s, pa->njobs, why, sizeof(why))) {
		if (!pa->bad_warned)
			lst_log_warn("agent %s: sample for interval %lld: its paths do not add up "
				     "(%s): ignored",
				     lst_conn_name(lst_coord__conn(c, i)), (long long)s->s.interval,
				     why);
		pa->bad_warned = true;
		pa->dropped++;
		return -1;
	}
	if (lst_merge_check(lst_coord__cur(c)->merge, &s->s)) {
		if (!pa->dropped++)
			lst_log_warn("agent %s: sample %lld arrived after that interval was "
				     "written: not counted (neither in timeseries.csv nor in the "
				     "summary)",
				     lst_conn_name(lst_coord__conn(c, i)),
				     (long long)s->s.interval);
		return -1;
	}
	return 0;
}

/* The pump's SAMPLE handler: a sample of the running point, checked once, then stored. */
static void s_on_sample(lst_coord *c, size_t i, const lst_msg *m)
{
	struct lst_coord__stand *a = lst_coord__stand(c, i);
	struct lst_coord__pagent *pa = &lst_coord__cur(c)->ag[i];
	const struct lst_msg_sample *s = &m->u.sample;
	const uint8_t *raw;
	size_t rawlen;
	lst_err err;
	int rc;

	if (!s_for_point(c, a, m, s->phase, s->point)) {
		lst_log_debug(LST_DBG_PROTO,
			      "agent %s: sample for phase %u point %u (seq %llu) "
			      "is not for the running point: ignored",
			      lst_conn_name(lst_coord__conn(c, i)), s->phase, s->point,
			      (unsigned long long)m->seq);
		return;
	}
	if (a->point_lost) { /* all or nothing: nothing of a lost agent after its loss */
		pa->dropped++;
		return;
	}
	lst_coord__verify_marks(c, i, s); /* its writers' progress, whatever becomes of the rows */
	a->samples++;
	if (s->s.flags & LST_SAMPLE_LATE && !pa->late_warned) {
		pa->late_warned = true;
		lst_log_warn(
			"agent %s: interval %lld spans several intervals (its main thread fell "
			"behind)",
			lst_conn_name(lst_coord__conn(c, i)), (long long)s->s.interval);
	}
	if (s_sample_check(c, i, s))
		return;
	/*
	 * What is merged, as received, and on disk before the rows that count it: a SIGKILL
	 * between the two leaves a frame without its row, never a row without its frame. A
	 * failed write ends the run once (lst_coord__results_ok).
	 */
	lst_coord__pump_frame(c, &raw, &rawlen);
	lst_results_raw(lst_record_results(lst_coord__record(c)),
			lst_conn_name(lst_coord__conn(c, i)), raw, rawlen, &err);
	lst_coord__paths_add(c, i, s);
	rc = lst_merge_add(lst_coord__cur(c)->merge, i, &s->s);
	LST_ASSERT(!rc); /* s_sample_check said yes, and nothing ran in between */
	pa->merged++;
	a->progress_at = lst_mono_ns();
	if (!(s->s.flags & LST_SAMPLE_RAMP))
		s_devstats(c, i, s);
}

/*
 * What a DONE that says the point completed leaves out: the intervals before its last one that
 * were not merged (late, or never sent), or, for timed jobs, intervals up to their end that it
 * never reached. Writes why into why and returns true when something is missing.
 */
static bool s_done_short(const struct lst_coord__pagent *a, const struct lst_msg_done *d, char *why,
			 size_t len)
{
	if (d->reason != LST_DONE_COMPLETE)
		return false;
	if (d->last_interval >= 0 && a->merged < (uint64_t)d->last_interval + 1) {
		snprintf(why, len,
			 "its DONE counts intervals 0 to %lld, and only %llu of them were merged "
			 "(%llu samples came too late or not at all)",
			 (long long)d->last_interval, (unsigned long long)a->merged,
			 (unsigned long long)d->last_interval + 1 - a->merged);
		return true;
	}
	if (a->expect_last >= 0 && d->last_interval < a->expect_last) {
		snprintf(why, len,
			 "its DONE says the point completed at interval %lld, and its runtime "
			 "ends at interval %lld",
			 (long long)d->last_interval, (long long)a->expect_last);
		return true;
	}
	return false;
}

/* The pump's DONE handler: agent i has finished the running point. */
static void s_on_done(lst_coord *c, size_t i, const lst_msg *m)
{
	struct lst_coord__stand *a = lst_coord__stand(c, i);
	char why[256];

	if (!s_for_point(c, a, m, m->u.done.phase, m->u.done.point) || a->done)
		return;
	/* "Complete" means every interval: an agent whose intervals are missing is lost for the
	 * point, and the plan's on_agent_loss judges it as any other loss. */
	if (!a->point_lost &&
	    s_done_short(&lst_coord__cur(c)->ag[i], &m->u.done, why, sizeof(why))) {
		lst_coord__lose(c, i, "intervals missing: %s", why);
		return;
	}
	a->done = true;
	a->done_msg = m->u.done;
	lst_coord__merge_done(c, i);
	if (m->u.done.reason == LST_DONE_ERROR)
		lst_coord__error(c, "agent %s: %s", lst_conn_name(lst_coord__conn(c, i)),
				 m->u.done.text);
	else if (m->u.done.reason == LST_DONE_LEASE)
		lst_coord__lose(c, i, "it stopped by its lease (it did not hear from us)");
}

/* The pump's end-work rule: a trace being written, or an event of the point not reported yet
 * (its hook may still run after its jobs, at most the agent's hook_timeout). */
static bool s_end_work(const lst_coord *c, size_t i)
{
	return lst_coord__cur(c)->ag[i].records || lst_coord__events_pending(c, i);
}

void lst_coord__point_listen(lst_coord *c)
{
	lst_coord__pump_on(c, LST_MSG_SAMPLE, s_on_sample);
	lst_coord__pump_on(c, LST_MSG_DONE, s_on_done);
	lst_coord__pump_on(c, LST_MSG_EVENT, lst_coord__on_event);
	lst_coord__pump_on(c, LST_MSG_INTEGRITY, lst_coord__on_integrity);
	/* an agent lost, or its START refused: the merges stop waiting for it */
	lst_coord__pump_on_end(c, lst_coord__merge_done, s_end_work);
}
