/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency-vs-IOPS curves, the maths (see lst_curves.h): flat points keyed, grouped, sorted and
 * labelled. A phase whose points run with more than one thread count gets one curve per thread
 * count (the SNIA demand-intensity chart: its queue depths are the curve's points), and every
 * phase one per block size x mix (and per path, and per value of any other sweep axis, such as
 * pattern). Curves are sorted by path, block size (small first), mix (reads first), the other
 * sweep values and thread count, points by demand (jobs x iodepth), then requested
 * rate, then IOPS.
 */
#include "lst_curves.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_util.h"

static bool s_same_num(double x, double y)
{
	return x == y || (isnan(x) && isnan(y));
}

bool lst_curves_same(const struct lst_curve *x, const struct lst_curve *y)
{
	return !strcmp(x->phase, y->phase) && !strcmp(x->part, y->part) &&
	       !strcmp(x->axes, y->axes) && s_same_num(x->bs, y->bs) &&
	       s_same_num(x->mix, y->mix) && s_same_num(x->jobs, y->jobs);
}

/* More than one finite value of jobs (or of the block size x mix) among the points. */
static void s_what_varies(const struct lst_curve_flat *fs, size_t n, bool *jobs, bool *bsmix)
{
	*jobs = *bsmix = false;
	for (size_t i = 1; i < n; i++) {
		*jobs |= isfinite(fs[i].p.jobs) && isfinite(fs[0].p.jobs) &&
			 fs[i].p.jobs != fs[0].p.jobs;
		*bsmix |= !s_same_num(fs[i].bs, fs[0].bs) || !s_same_num(fs[i].mix, fs[0].mix);
	}
}

static int s_pt_cmp(const void *a, const void *b)
{
	const struct lst_curve_pt *x = a, *y = b;
	double rx = isnan(x->rate) ? INFINITY : x->rate, ry = isnan(y->rate) ? INFINITY : y->rate;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return x->iops < y->iops ? -1 : x->iops > y->iops;
}

static int s_num_cmp(double x, double y, bool descending)
{
	if (s_same_num(x, y))
		return 0;
	if (isnan(x) || isnan(y))
		return isnan(x) ? 1 : -1;
	return (x < y) != descending ? -1 : 1;
}

static int s_curve_cmp(const void *a, const void *b)
{
	const struct lst_curve *x = a, *y = b;
	int c = strcmp(x->part, y->part);

	if (!c)
		c = s_num_cmp(x->bs, y->bs, false);
	if (!c)
		c = s_num_cmp(x->mix, y->mix, true);
	if (!c)
		c = strcmp(x->axes, y->axes);
	if (!c)
		c = s_num_cmp(x->jobs, y->jobs, false);
	return c;
}

/* Each point's label: its queue depth where the curve's depths differ, else its rate, else
 * none. */
static void s_label(struct lst_curve *c)
{
	bool qd = false;

	for (size_t k = 1; k < c->n; k++)
		qd |= !s_same_num(c->p[k].iodepth, c->p[0].iodepth);
	for (size_t k = 0; k < c->n; k++) {
		struct lst_curve_pt *p = &c->p[k];

		if (!qd && isfinite(p->target_pct))
			snprintf(p->label, sizeof(p->label), "%g%%", p->target_pct);
		else if (!qd && isfinite(p->rate))
			snprintf(p->label, sizeof(p->label), "%.0f IOPS", p->rate);
		else if (qd && isfinite(p->iodepth))
			snprintf(p->label, sizeof(p->label), "QD %g", p->iodepth);
		else
			p->label[0] = '\0'; /* nothing tells the points apart (a ports sweep) */
	}
}

void lst_curves_group(const char *phase, const struct lst_curve_flat *fs, size_t n,
		      struct lst_curves *cs, bool *jobs, bool *bsmix)
{
	size_t first = cs->n;

	s_what_varies(fs, n, jobs, bsmix);
	for (size_t i = 0; i < n; i++) {
		const struct lst_curve_flat *f = &fs[i];
		struct lst_curve key = { .phase = phase, .bs = f->bs, .mix = f->mix };
		struct lst_curve *c = NULL;

		key.jobs = *jobs ? f->p.jobs : NAN;
		if (*f->path)
			snprintf(key.part, sizeof(key.part), "%s:%s", f->agent, f->path);
		snprintf(key.axes, sizeof(key.axes), "%s", f->axes);
		for (size_t k = 0; k < cs->n && !c; k++)
			if (lst_curves_same(&cs->c[k], &key))
				c = &cs->c[k];
		if (!c) {
			cs->c = lst_realloc(cs->c, (cs->n + 1) * sizeof(*cs->c));
			c = &cs->c[cs->n++];
			*c = key;
		}
		c->p = lst_realloc(c->p, (c->n + 1) * sizeof(*c->p));
		c->p[c->n++] = f->p;
	}
	if (cs->n > first)
		qsort(cs->c + first, cs->n - first, sizeof(*cs->c), s_curve_cmp);
	for (size_t i = first; i < cs->n; i++) {
		qsort(cs->c[i].p, cs->c[i].n, sizeof(*cs->c[i].p), s_pt_cmp);
		s_label(&cs->c[i]);
	}
}

void lst_curves_free(struct lst_curves *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		free(cs->c[i].p);
	free(cs->c);
	cs->c = NULL;
	cs->n = 0;
}
