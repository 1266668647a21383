/*
 * The failover detector (lst_failover) on hand-made rows of 1 s intervals: a path at 1000 IOPS,
 * then 10, then 1000 again gives the window of the slow intervals with exactly their I/Os,
 * histogram and oldest in-flight age; a path that never drops, and one that drops before three
 * baseline intervals, give none; a gap of one interval is bridged, a longer one closes the window.
 */
#include <jansson.h>
#include <string.h>

#include "lst_failover.h"
#include "lst_report_show.h"
#include "lst_test.h"

/* Interval k of a row: ios reads of lat_ns each, oldest in flight at its end. */
static void s_row(lst_sample *s, int64_t k, uint64_t ios, uint64_t lat_ns, int64_t oldest_ns)
{
	lst_sample_init(s, k);
	s->dir[LST_DIR_READ].ios = ios;
	lst_hist_record_n(&s->dir[LST_DIR_READ].lat, lat_ns, ios);
	s->health.oldest_inflight_ns = oldest_ns;
}

/* Feed the rows of ios[] (1 s each, interval k at t = k s). */
static void s_feed(struct lst_failover *f, const uint64_t *ios, size_t n)
{
	lst_sample s;

	for (size_t k = 0; k < n; k++) {
		bool slow = ios[k] < 100;

		s_row(&s, (int64_t)k, ios[k], slow ? 2000000000 : 100000,
		      slow ? 2900000000 + (int64_t)k : 50000);
		lst_failover_add(f, (int64_t)k, (double)k, 1.0, &s);
	}
}

static void s_drop(void)
{
	static const uint64_t ios[] = { 1000, 1000, 1000, 10, 10, 10, 1000, 1000 };
	struct lst_failover f;
	const struct lst_failover_window *w;
	struct lst_hist_stats st;
	json_t *j;

	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed(&f, ios, 8);
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
	T_ASSERT(json_is_object(json_object_get(j, "lat")));
	json_decref(j);
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
	lst_failover_free(&f);

	/* two baseline intervals only: the drop is the baseline, nothing is judged below it */
	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed(&f, early, 6);
	T_ASSERT(!lst_failover_window(&f));
	lst_failover_free(&f);
}

static void s_gaps(void)
{
	static const uint64_t one[] = { 1000, 1000, 1000, 10, 1000, 10, 1000, 1000, 10 };
	struct lst_failover f;
	const struct lst_failover_window *w;

	lst_failover_init(&f, LST_FAILOVER_BELOW_DEFAULT);
	s_feed(&f, one, 9); /* 4 bridged; 6, 7 close it; 8 is not looked at */
	w = lst_failover_window(&f);
	T_ASSERT(w);
	T_EQ_INT(w->first_k, 3);
	T_EQ_INT(w->last_k, 5);
	T_EQ_U64(w->ios, 20);
	lst_failover_free(&f);

	/* a stricter fraction: 400 of 1000 is below 50% but not below 30% */
	lst_failover_init(&f, 0.3);
	s_feed(&f, (const uint64_t[]){ 1000, 1000, 1000, 400, 1000 }, 5);
	T_ASSERT(!lst_failover_window(&f));
	lst_failover_free(&f);
}

/* The report's line for a window, as summary.json carries it. */
static void s_text(void)
{
	json_t *o = json_loads("{\"agent\": \"b\", \"path\": \"/dev/loop3\", \"failover\": "
			       "{\"start_t_s\": 3.0, \"end_t_s\": 6.0, \"duration_s\": 3.0, "
			       "\"ios\": 412, \"lat\": {\"p99_us\": 2041000.0}, "
			       "\"oldest_inflight_us\": 2900000.0}}",
			       0, NULL);
	char line[256];

	T_ASSERT(o);
	lst_report_failover_text(o, line, sizeof(line));
	T_EQ_STR(line, "b:/dev/loop3 3.0 s .. 6.0 s (3.0 s), 412 I/Os, p99 2,041 ms, oldest in "
		       "flight 2.9 s");
	json_decref(o);
}

int main(void)
{
	s_text();
	s_drop();
	s_none();
	s_gaps();
	return 0;
}
