/* SPDX-License-Identifier: Apache-2.0 */
/*
 * summary.json's `failover` and `dips` (lst_failover_json.h): the windows lst_failover.c found,
 * in the folder's JSON format. Apart from the maths so that measure needs no JSON library.
 */
#include "lst_failover_json.h"

#include "lst_results.h"

/* A window's figures, as both `failover` and `dips` give them. */
static json_t *s_window_json(const struct lst_failover *f, const struct lst_failover_window *w)
{
	json_t *o =
		json_pack("{s:f, s:f, s:f, s:I, s:f, s:f, s:I}", "start_t_s", w->start_t_s,
			  "end_t_s", w->end_t_s, "duration_s", w->end_t_s - w->start_t_s,
			  "intervals", (json_int_t)(w->last_k - w->first_k + 1), "below_pct",
			  f->below * 100, "baseline_iops", w->base_iops, "ios", (json_int_t)w->ios);

	/* a window where nothing completed has no latency: no zeros that read as 0 ms */
	if (w->ios)
		json_object_set_new(o, "lat", lst_results_lat_json(&w->lat));
	json_object_set_new(o, "oldest_inflight_us",
			    json_real((double)w->oldest_inflight_ns / 1e3));
	return o;
}

static json_t *s_evidence_json(const struct lst_failover *f, const struct lst_failover_window *w)
{
	json_t *o = json_object(), *events = json_array();

	if (w->ev.errors) {
		json_t *classes = json_object();

		for (int c = 0; c < LST_ERRC_N; c++)
			if (w->ev.err_class[c])
				json_object_set_new(classes, lst_err_class_names[c],
						    json_integer((json_int_t)w->ev.err_class[c]));
		json_object_set_new(o, "errors", json_integer((json_int_t)w->ev.errors));
		json_object_set_new(o, "error_classes", classes);
	}
	if (w->ev.timeouts)
		json_object_set_new(o, "timeouts", json_integer((json_int_t)w->ev.timeouts));
	if (w->ev.oldest_inflight_ns >= lst_failover_stall_ns(f))
		json_object_set_new(o, "stalled_us",
				    json_real((double)w->ev.oldest_inflight_ns / 1e3));
	for (size_t i = 0; i < f->nmarks; i++)
		if (lst_failover_near(f, w, &f->marks[i]))
			json_array_append_new(events, json_pack("{s:s, s:f, s:f}", "event",
								f->marks[i].what, "start_t_s",
								f->marks[i].start_t_s, "end_t_s",
								f->marks[i].end_t_s));
	if (json_array_size(events))
		json_object_set(o, "events", events);
	json_decref(events);
	return o;
}

json_t *lst_failover_json(const struct lst_failover *f)
{
	const struct lst_failover_window *w = lst_failover_window(f);
	json_t *o;

	if (!w)
		return json_null();
	o = s_window_json(f, w);
	json_object_set_new(o, "evidence", s_evidence_json(f, w));
	return o;
}

json_t *lst_failover_dips_json(const struct lst_failover *f)
{
	json_t *a = json_array();

	for (size_t i = 0; i < f->nw; i++)
		if (!lst_failover_has_evidence(f, &f->w[i]))
			json_array_append_new(a, s_window_json(f, &f->w[i]));
	return a;
}
