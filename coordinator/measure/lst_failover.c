/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The failover detector (see lst_failover.h): a sorted baseline while the path runs normally,
 * windows accumulated interval by interval with the evidence around them, and the plan's events
 * kept as marks until the windows are judged, when the point's summary is written.
 */
#include "lst_failover.h"

#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_text.h"
#include "lst_util.h"

void lst_failover_init(struct lst_failover *f, double below)
{
	memset(f, 0, sizeof(*f));
	f->below = below;
}

void lst_failover_free(struct lst_failover *f)
{
	free(f->base);
	free(f->w);
	free(f->marks);
	memset(f, 0, sizeof(*f));
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

/* What interval s says about its path's health. */
static struct lst_failover_evidence s_evidence_of(const lst_sample *s)
{
	struct lst_failover_evidence e = {
		.errors =
			s->dir[LST_DIR_READ].errors + s->dir[LST_DIR_WRITE].errors + s->trim.errors,
		.timeouts = s->health.timeouts,
		.oldest_inflight_ns = s->health.oldest_inflight_ns,
	};

	memcpy(e.err_class, s->health.err_class, sizeof(e.err_class));
	return e;
}

static void s_evidence_add(struct lst_failover_evidence *dst, const struct lst_failover_evidence *e)
{
	dst->errors += e->errors;
	for (int c = 0; c < LST_ERRC_N; c++)
		dst->err_class[c] += e->err_class[c];
	dst->timeouts += e->timeouts;
	dst->oldest_inflight_ns = LST_MAX(dst->oldest_inflight_ns, e->oldest_inflight_ns);
}

/* Open a window at interval k, against the baseline as it stands. */
static struct lst_failover_window *s_open(struct lst_failover *f, int64_t k, double t_s)
{
	struct lst_failover_window *w;

	f->w = lst_realloc(f->w, (f->nw + 1) * sizeof(*f->w));
	w = &f->w[f->nw++];
	memset(w, 0, sizeof(*w));
	lst_hist_init(&w->lat);
	w->first_k = k;
	w->start_t_s = t_s;
	w->base_iops = s_median(f);
	w->ev = f->prev; /* the interval before it */
	f->open = true;
	f->gap = 0;
	f->gap_oldest_ns = 0;
	return w;
}

/* Interval k is below the threshold: into the open window (opening one when first). */
static void s_take(struct lst_failover *f, int64_t k, double t_s, double dur_s, const lst_sample *s)
{
	struct lst_failover_window *w = f->open ? &f->w[f->nw - 1] : s_open(f, k, t_s);
	struct lst_failover_evidence e = s_evidence_of(s);

	w->last_k = k;
	w->end_t_s = t_s + dur_s;
	w->ios += s_ios(s);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_add(&w->lat, &s->dir[d].lat);
	w->oldest_inflight_ns = LST_MAX(w->oldest_inflight_ns, f->gap_oldest_ns);
	w->oldest_inflight_ns = LST_MAX(w->oldest_inflight_ns, s->health.oldest_inflight_ns);
	s_evidence_add(&w->ev, &e);
	f->gap = 0;
	f->gap_oldest_ns = 0;
}

/* Interval s is above the threshold while a window is open: the first one after it is bridged
 * (and next to it: its evidence counts), the second closes it; both then join the baseline. */
static void s_gap(struct lst_failover *f, double iops, const lst_sample *s)
{
	struct lst_failover_evidence e = s_evidence_of(s);

	if (++f->gap == 1) {
		f->gap_oldest_ns = s->health.oldest_inflight_ns;
		f->gap_iops = iops;
		s_evidence_add(&f->w[f->nw - 1].ev, &e);
		return;
	}
	f->open = false;
	s_base_add(f, f->gap_iops);
	s_base_add(f, iops);
	f->prev = e;
	if (f->nw == LST_FAILOVER_WINDOWS_MAX)
		f->stopped = true;
}

void lst_failover_add(struct lst_failover *f, int64_t k, double t_s, double dur_s,
		      const lst_sample *s)
{
	double iops = dur_s > 0 ? (double)s_ios(s) / dur_s : 0;
	bool below;

	if (f->stopped || dur_s <= 0)
		return;
	f->interval_s = LST_MAX(f->interval_s, dur_s);
	if (!f->nbase) {
		s_base_add(f, iops);
		f->prev = s_evidence_of(s);
		return;
	}
	below = iops < f->below * s_median(f);
	if (below && !f->open && !f->nw && f->nbase < LST_FAILOVER_MIN_BASE) {
		f->stopped = true; /* it dropped before its normal rate was known */
	} else if (below) {
		s_take(f, k, t_s, dur_s, s);
	} else if (f->open) {
		s_gap(f, iops, s);
	} else {
		s_base_add(f, iops);
		f->prev = s_evidence_of(s);
	}
}

void lst_failover_mark(struct lst_failover *f, const char *what, double start_t_s, double end_t_s)
{
	struct lst_failover_mark *m;

	f->marks = lst_realloc(f->marks, (f->nmarks + 1) * sizeof(*f->marks));
	m = &f->marks[f->nmarks++];
	lst_copy(m->what, sizeof(m->what), what);
	m->start_t_s = start_t_s;
	m->end_t_s = LST_MAX(end_t_s, start_t_s);
}

bool lst_failover_near(const struct lst_failover *f, const struct lst_failover_window *w,
		       const struct lst_failover_mark *m)
{
	return m->end_t_s >= w->start_t_s - f->interval_s &&
	       m->start_t_s <= w->end_t_s + f->interval_s;
}

int64_t lst_failover_stall_ns(const struct lst_failover *f)
{
	return LST_MAX(LST_FAILOVER_STALL_NS, (int64_t)(f->interval_s * 1e9));
}

bool lst_failover_has_evidence(const struct lst_failover *f, const struct lst_failover_window *w)
{
	if (w->ev.errors || w->ev.timeouts || w->ev.oldest_inflight_ns >= lst_failover_stall_ns(f))
		return true;
	for (size_t i = 0; i < f->nmarks; i++)
		if (lst_failover_near(f, w, &f->marks[i]))
			return true;
	return false;
}

const struct lst_failover_window *lst_failover_window(const struct lst_failover *f)
{
	for (size_t i = 0; i < f->nw; i++)
		if (lst_failover_has_evidence(f, &f->w[i]))
			return &f->w[i];
	return NULL;
}
