/*
 * The failover detector (see lst_failover.h): a sorted baseline while the path runs normally,
 * then one window accumulated interval by interval.
 */
#include "lst_failover.h"

#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_results.h"
#include "lst_util.h"

void lst_failover_init(struct lst_failover *f, double below)
{
	memset(f, 0, sizeof(*f));
	f->below = below;
	lst_hist_init(&f->w.lat);
}

void lst_failover_free(struct lst_failover *f)
{
	free(f->base);
	f->base = NULL;
	f->nbase = f->cap = 0;
}

static double s_median(const struct lst_failover *f)
{
	size_t n = f->nbase;

	return n % 2 ? f->base[n / 2] : (f->base[n / 2 - 1] + f->base[n / 2]) / 2;
}

/* Keep the baseline sorted: insert v in place. */
static void s_base_add(struct lst_failover *f, double v)
{
	size_t i = f->nbase;

	if (f->nbase == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 16;
		f->base = lst_realloc(f->base, f->cap * sizeof(*f->base));
	}
	while (i > 0 && f->base[i - 1] > v) {
		f->base[i] = f->base[i - 1];
		i--;
	}
	f->base[i] = v;
	f->nbase++;
}

static uint64_t s_ios(const lst_sample *s)
{
	return s->dir[LST_DIR_READ].ios + s->dir[LST_DIR_WRITE].ios;
}

/* Interval k is below the threshold: into the window (opening it when first). */
static void s_take(struct lst_failover *f, int64_t k, double t_s, double dur_s, const lst_sample *s)
{
	if (!f->open) {
		f->open = true;
		f->w.first_k = k;
		f->w.start_t_s = t_s;
	}
	f->w.last_k = k;
	f->w.end_t_s = t_s + dur_s;
	f->w.ios += s_ios(s);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_add(&f->w.lat, &s->dir[d].lat);
	f->w.oldest_inflight_ns = LST_MAX(f->w.oldest_inflight_ns, f->gap_oldest_ns);
	f->w.oldest_inflight_ns = LST_MAX(f->w.oldest_inflight_ns, s->health.oldest_inflight_ns);
	f->gap = 0;
	f->gap_oldest_ns = 0;
}

void lst_failover_add(struct lst_failover *f, int64_t k, double t_s, double dur_s,
		      const lst_sample *s)
{
	double iops = dur_s > 0 ? (double)s_ios(s) / dur_s : 0;
	bool below;

	if (f->closed || dur_s <= 0)
		return;
	if (!f->nbase) {
		s_base_add(f, iops);
		return;
	}
	below = iops < f->below * s_median(f);
	if (below && !f->open && f->nbase < LST_FAILOVER_MIN_BASE) {
		f->closed = true; /* it dropped before its normal rate was known */
	} else if (below) {
		s_take(f, k, t_s, dur_s, s);
	} else if (f->open) {
		if (++f->gap > 1)
			f->closed = true;
		else
			f->gap_oldest_ns = s->health.oldest_inflight_ns;
	} else {
		s_base_add(f, iops);
	}
}

const struct lst_failover_window *lst_failover_window(const struct lst_failover *f)
{
	return f->open ? &f->w : NULL;
}

json_t *lst_failover_json(const struct lst_failover *f)
{
	const struct lst_failover_window *w = lst_failover_window(f);

	if (!w)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:I, s:o, s:f}", "start_t_s", w->start_t_s, "end_t_s",
			 w->end_t_s, "duration_s", w->end_t_s - w->start_t_s, "ios",
			 (json_int_t)w->ios, "lat", lst_results_lat_json(&w->lat),
			 "oldest_inflight_us", (double)w->oldest_inflight_ns / 1e3);
}
