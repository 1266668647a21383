/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Headline figures of latency-vs-IOPS curves, the maths (lst_headline.h): "IOPS at p99.99 <
 * 1 ms".
 *
 * A curve's points are walked in order of demand (lst_curves.c, the order the plot draws). The
 * figure for a percentile is where its latency first goes over the limit: linearly
 * interpolated, latency against IOPS, between the last point under the limit and the first one
 * over it; NAN when the first point is already over; the highest measured IOPS, marked
 * all_under (a lower bound), when no point goes over. A curve of large blocks is a bandwidth
 * curve: "IOPS at p99 < 1 ms: none" says nothing of a 128 KiB sequential read whose every point
 * is over 1 ms by design, so its headline is the highest MB/s measured, with that point's p99.
 */
#include "lst_headline.h"

#include <math.h>
#include <stdio.h>

#include "lst_assert.h"

#define S_BANDWIDTH_BS (64 * 1024) /* a block size from which MB/s is the headline */

const char *const lst_headline_stat_names[LST_HL_N] = { "p99", "p99.9", "p99.99" };

/* The lst_curves statistic of each headline statistic. */
static const enum lst_curve_stat s_stat[LST_HL_N] = { LST_CV_P99, LST_CV_P99_9, LST_CV_P99_99 };

/* One statistic of one curve (points in order of demand; those without numbers skipped). */
static void s_figure(const struct lst_curve *c, enum lst_curve_stat st, double limit,
		     struct lst_headline *h, int i)
{
	const struct lst_curve_pt *under = NULL;
	double best = -INFINITY;

	h->iops[i] = NAN;
	h->interpolated[i] = h->all_under[i] = false;
	h->below[i][0] = h->above[i][0] = '\0';
	for (size_t k = 0; k < c->n; k++) {
		const struct lst_curve_pt *p = &c->p[k];
		double x0, y0;

		if (!isfinite(p->iops) || !isfinite(p->lat[st]))
			continue;
		if (p->lat[st] <= limit) {
			under = p;
			best = LST_MAX(best, p->iops);
			continue;
		}
		if (!under) { /* over from the first point */
			snprintf(h->above[i], sizeof(h->above[i]), "%s", p->label);
			return;
		}
		x0 = under->iops;
		y0 = under->lat[st];
		h->iops[i] = x0 + (limit - y0) * (p->iops - x0) / (p->lat[st] - y0);
		h->interpolated[i] = y0 < limit;
		snprintf(h->below[i], sizeof(h->below[i]), "%s", under->label);
		if (h->interpolated[i])
			snprintf(h->above[i], sizeof(h->above[i]), "%s", p->label);
		return;
	}
	if (!under)
		return;
	h->iops[i] = best;
	h->all_under[i] = true;
	for (size_t k = 0; k < c->n; k++)
		if (c->p[k].iops == best)
			snprintf(h->below[i], sizeof(h->below[i]), "%s", c->p[k].label);
}

bool lst_headline_is_bandwidth(double bs, bool sequential)
{
	return bs >= S_BANDWIDTH_BS || (isnan(bs) && sequential);
}

/* The highest MB/s of a bandwidth curve, and where it was measured. */
static void s_bandwidth_figure(const struct lst_curve *c, struct lst_headline *h)
{
	h->bandwidth = true;
	h->mbps = h->mbps_p99_us = NAN;
	for (int s = 0; s < LST_HL_N; s++)
		h->iops[s] = NAN;
	for (size_t k = 0; k < c->n; k++) {
		const struct lst_curve_pt *p = &c->p[k];

		if (!isfinite(p->mbps) || (isfinite(h->mbps) && p->mbps <= h->mbps))
			continue;
		h->mbps = p->mbps;
		h->mbps_p99_us = p->lat[LST_CV_P99];
		snprintf(h->mbps_at, sizeof(h->mbps_at), "%s", p->label);
	}
}

void lst_headline_figures(const struct lst_curve *c, double limit_us, bool bandwidth,
			  struct lst_headline *h)
{
	h->limit_us = limit_us;
	h->npoints = c->n;
	if (bandwidth) {
		s_bandwidth_figure(c, h);
		return;
	}
	for (int s = 0; s < LST_HL_N; s++)
		s_figure(c, s_stat[s], limit_us, h, s);
}
