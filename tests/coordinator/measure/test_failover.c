/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The failover detector (lst_failover) on hand-made rows of 1 s intervals: a path at 1000 IOPS,
 * then 10, then 1000 again gives a window of the slow intervals with exactly their I/Os,
 * histogram and oldest in-flight age. It is a failover window only with evidence in or next to
 * it (a stalled I/O, an error in the interval before, a timeout, an event of the plan within an
 * interval); without, the same drop is a throughput dip. A path that never drops, and one that
 * drops before three baseline intervals, give none; a gap of one interval is bridged, a longer
 * one closes the window and a later drop makes one of its own; a window where nothing completed
 * has no latency. The report's lines for both.
 */
#include <jansson.h>
#include <string.h>

#include "lst_failover_json.h"
#include "lst_report_failover.h"
#include "lst_test.h"

/* Interval k of a row: ios reads of lat_ns each, oldest in flight at its end. */
static void s_row(lst_sample *s, int64_t k, uint64_t ios, uint64_t lat_ns, int64_t oldest_ns)
{
	lst_sample_init(s, k);
	s->dir[LST_DIR_READ].ios = ios;
	lst_hist_record_n(&s->dir[LST_DIR_READ].lat, lat_ns, ios);
	s->health.oldest_inflight_ns = oldest_ns;
}

/* Feed the rows of ios[] (1 s each, interval k at t = k s); a slow interval's oldest I/O in
 * flight is 2.9 s (a stall) when stall, else 5 ms (a device that is merely slower). */
static void s_feed_as(struct lst_failover *f, const uint64_t *ios, size_t n, bool stall)
{
	lst_sample s;

	for (size_t k = 0; k < n; k++) {
		bool slow = ios[k] < 100;
		int64_t oldest = slow ? (stall ? 2900000000 + (int64_t)k : 5000000) : 50000;

		s_row(&s, (int64_t)k, ios[k], slow ? 2000000000 : 100000, oldest);
		lst_failover_add(f, (int64_t)k, (double)k, 1.0, &s);
	}
}

static void s_feed(struct lst_failover *f, const uint64_t *ios, size_t n)
{
	s_feed_as(f, ios, n, true);
}

static const uint64_t s_drop_ios[] = { 1000, 1000, 1000, 10, 10, 10, 1000, 1000 };

static void s_drop(void)
{
	struct lst_failover f;
	const struct lst_failover_window *w;
	struct lst_hist_stats st;
	json_t *j, *ev;

	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed(&f, s_drop_ios, 8);
	w = lst_failover_window(&f);
	T_ASSERT(w);
	T_EQ_INT(w->first_k, 3);
	T_EQ_INT(w->last_k, 5);
	T_NEAR(w->start_t_s, 3.0, 1e-9);
	T_NEAR(w->end_t_s, 6.0, 1e-9);
	T_EQ_U64(w->ios, 30);
	lst_hist_stats(&w->lat, &st);
	T_EQ_U64(st.count, 30); /* the slow intervals' latencies only */
	T_EQ_U64(st.max, 2000000000);
	T_EQ_INT(w->oldest_inflight_ns, 2900000005);
	j = lst_failover_json(&f);
	T_NEAR(json_real_value(json_object_get(j, "duration_s")), 3.0, 1e-9);
	T_EQ_INT(json_integer_value(json_object_get(j, "ios")), 30);
	T_EQ_INT(json_integer_value(json_object_get(j, "intervals")), 3);
	T_NEAR(json_real_value(json_object_get(j, "baseline_iops")), 1000.0, 1e-9);
	T_NEAR(json_real_value(json_object_get(j, "below_pct")), 50.0, 1e-9);
	T_ASSERT(json_is_object(json_object_get(j, "lat")));
	ev = json_object_get(j, "evidence");
	T_NEAR(json_real_value(json_object_get(ev, "stalled_us")), 2900000.005, 1e-6);
	T_ASSERT(!json_object_get(ev, "errors") && !json_object_get(ev, "timeouts"));
	T_ASSERT(!json_object_get(ev, "events"));
	json_decref(j);
	j = lst_failover_dips_json(&f);
	T_EQ_INT(json_array_size(j), 0);
	json_decref(j);
	lst_failover_free(&f);
}

/* The same drop without a stall is a dip; an error next to it, a timeout in it, or an event
 * within an interval of it makes it a failover window; an event further away does not. */
static void s_evidence(void)
{
	struct lst_failover f;
	lst_sample s;
	json_t *j, *d;

	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed_as(&f, s_drop_ios, 8, false);
	lst_failover_mark(&f, "b port_down", 1.2, 1.3); /* 1.7 s before the drop: too far */
	T_ASSERT(!lst_failover_window(&f));
	j = lst_failover_json(&f);
	T_ASSERT(json_is_null(j));
	json_decref(j);
	j = lst_failover_dips_json(&f);
	T_EQ_INT(json_array_size(j), 1);
	d = json_array_get(j, 0);
	T_NEAR(json_real_value(json_object_get(d, "start_t_s")), 3.0, 1e-9);
	T_EQ_INT(json_integer_value(json_object_get(d, "ios")), 30);
	T_ASSERT(!json_object_get(d, "evidence"));
	json_decref(j);

	lst_failover_mark(&f, "b port_down", 2.1, 2.2); /* within an interval of its start */
	T_ASSERT(lst_failover_window(&f));
	j = lst_failover_json(&f);
	d = json_array_get(json_object_get(json_object_get(j, "evidence"), "events"), 0);
	T_EQ_STR(json_string_value(json_object_get(d, "event")), "b port_down");
	json_decref(j);
	lst_failover_free(&f);

	/* errors in the interval before the drop are next to it */
	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	for (int64_t k = 0; k < 8; k++) {
		s_row(&s, k, s_drop_ios[k], 100000, 0);
		if (k == 2) {
			s.dir[LST_DIR_READ].errors = 3;
			s.health.err_class[LST_ERRC_EIO] = 3;
		}
		lst_failover_add(&f, k, (double)k, 1.0, &s);
	}
	j = lst_failover_json(&f);
	d = json_object_get(j, "evidence");
	T_EQ_INT(json_integer_value(json_object_get(d, "errors")), 3);
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(d, "error_classes"), "eio")),
		 3);
	json_decref(j);
	lst_failover_free(&f);

	/* a timeout in it; and an interval two after it is not next to it */
	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	for (int64_t k = 0; k < 8; k++) {
		s_row(&s, k, s_drop_ios[k], 100000, 0);
		s.health.timeouts = k == 7 ? 1 : 0;
		lst_failover_add(&f, k, (double)k, 1.0, &s);
	}
	T_ASSERT(!lst_failover_window(&f));
	lst_failover_free(&f);
}

static void s_none(void)
{
	static const uint64_t steady[] = { 1000, 990, 1010, 600, 1000, 1000 };
	static const uint64_t early[] = { 1000, 1000, 10, 10, 10, 1000 };
	struct lst_failover f;
	json_t *j;

	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed(&f, steady, 6); /* 600 is above half the median */
	T_ASSERT(!lst_failover_window(&f));
	j = lst_failover_json(&f);
	T_ASSERT(json_is_null(j));
	json_decref(j);
	j = lst_failover_dips_json(&f);
	T_EQ_INT(json_array_size(j), 0);
	json_decref(j);
	lst_failover_free(&f);

	/* two baseline intervals only: the drop is the baseline, nothing is judged below it */
	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed(&f, early, 6);
	T_ASSERT(!lst_failover_window(&f));
	T_EQ_INT(f.nw, 0);
	lst_failover_free(&f);
}

static void s_gaps(void)
{
	static const uint64_t one[] = { 1000, 1000, 1000, 10, 1000, 10, 1000, 1000, 10, 1000 };
	struct lst_failover f;
	const struct lst_failover_window *w;

	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed(&f, one, 10); /* 4 bridged; 6, 7 close it; 8 is a window of its own */
	w = lst_failover_window(&f);
	T_ASSERT(w);
	T_EQ_INT(w->first_k, 3);
	T_EQ_INT(w->last_k, 5);
	T_EQ_U64(w->ios, 20);
	T_EQ_INT(f.nw, 2);
	T_EQ_INT(f.w[1].first_k, 8);
	T_EQ_INT(f.w[1].last_k, 8);
	lst_failover_free(&f);

	/* a stricter fraction: 400 of 1000 is below 50% but not below 30% */
	lst_failover_init(&f, 0.3);
	s_feed(&f, (const uint64_t[]){ 1000, 1000, 1000, 400, 1000 }, 5);
	T_ASSERT(!lst_failover_window(&f));
	T_EQ_INT(f.nw, 0);
	lst_failover_free(&f);
}

/* A dip first, a fault later in the same point: the dip stays a dip, the fault is the
 * failover window. */
static void s_two(void)
{
	static const uint64_t ios[] = { 1000, 1000, 1000, 10, 1000, 1000, 1000, 0, 0, 1000, 1000 };
	struct lst_failover f;
	lst_sample s;
	json_t *j, *d;

	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	for (int64_t k = 0; k < 11; k++) {
		s_row(&s, k, ios[k], 100000, k == 7 || k == 8 ? 1500000000 + k : 0);
		lst_failover_add(&f, k, (double)k, 1.0, &s);
	}
	T_EQ_INT(f.nw, 2);
	T_ASSERT(lst_failover_window(&f) == &f.w[1]);
	j = lst_failover_json(&f);
	T_NEAR(json_real_value(json_object_get(j, "start_t_s")), 7.0, 1e-9);
	T_EQ_INT(json_integer_value(json_object_get(j, "ios")), 0);
	T_ASSERT(!json_object_get(j, "lat")); /* nothing completed: no latency, not zeros */
	json_decref(j);
	j = lst_failover_dips_json(&f);
	T_EQ_INT(json_array_size(j), 1);
	d = json_array_get(j, 0);
	T_NEAR(json_real_value(json_object_get(d, "start_t_s")), 3.0, 1e-9);
	json_decref(j);
	lst_failover_free(&f);
}

/* The report's lines for a window and a dip, as summary.json carries them. */
static void s_text(void)
{
	json_t *o = json_loads("{\"agent\": \"b\", \"path\": \"/dev/loop3\", \"failover\": "
			       "{\"start_t_s\": 3.0, \"end_t_s\": 6.0, \"duration_s\": 3.0, "
			       "\"ios\": 1412, \"lat\": {\"p99_us\": 2041000.0}, "
			       "\"oldest_inflight_us\": 2900000.0, \"evidence\": {\"events\": "
			       "[{\"event\": \"b port_down\", \"start_t_s\": 3.001}], \"errors\": "
			       "4, \"error_classes\": {\"eio\": 4}, \"timeouts\": 37, "
			       "\"stalled_us\": 2900000.0}}}",
			       0, NULL);
	json_t *d = json_loads("{\"agent\": \"a\", \"start_t_s\": 3.0, \"end_t_s\": 4.0, "
			       "\"duration_s\": 1.0, \"ios\": 0, \"oldest_inflight_us\": 0, "
			       "\"below_pct\": 50, \"baseline_iops\": 3998.2}",
			       0, NULL);
	char line[512];

	T_ASSERT(o && d);
	lst_report_failover_text(o, line, sizeof(line));
	T_EQ_STR(line, "b:/dev/loop3 3.0 s .. 6.0 s (3.0 s), 1,412 I/Os, p99 2,041 ms, oldest in "
		       "flight 2.9 s; evidence: event b port_down at 3.0 s, 4 I/O errors (eio 4), "
		       "37 timeouts, an I/O in flight 2.9 s");
	lst_report_dip_text(d, line, sizeof(line));
	T_EQ_STR(line, "a 3.0 s .. 4.0 s (1.0 s), no I/O completed, oldest in flight 0.0 s, median "
		       "before 3,998 IOPS");
	lst_report_dip_threshold(d, line, sizeof(line));
	T_EQ_STR(line, "below 50% of the path's median IOPS before it, for 1 interval or more");
	json_decref(o);
	json_decref(d);
}

int main(void)
{
	s_text();
	s_drop();
	s_evidence();
	s_none();
	s_gaps();
	s_two();
	return 0;
}
