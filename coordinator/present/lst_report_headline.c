/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Headline figures of a report's latency-vs-IOPS curves (lst_figures.h): the curves of a phase
 * (lst_report_curves.c) handed to the maths (lst_headline_figures, coordinator/measure) for the
 * limit that applies, and the figures as the text report says them. The limit is the user's
 * (`report --limit`), else the plan's `curve: limit` for the phase, else 1 ms. A curve of one
 * point has none.
 */
#include "lst_figures.h"
#include "lst_report_curves.h"
#include "lst_report_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_util.h"

#define S_DEFAULT_LIMIT_US 1000.0

double lst_figures_default_limit(const lst_report *r, const char *phase)
{
	const struct lst_report_plan_phase *pp = lst_report_plan_phase(r, phase);

	return pp && pp->curve_limit_us > 0 ? pp->curve_limit_us : S_DEFAULT_LIMIT_US;
}

double lst_headline_limit(const lst_report *r, const char *phase, const char **from)
{
	const struct lst_report_plan_phase *pp = lst_report_plan_phase(r, phase);
	const char *dummy;

	if (!from)
		from = &dummy;
	if (r->headline_limit_us > 0) {
		*from = "option";
		return r->headline_limit_us;
	}
	*from = pp && pp->curve_limit_us > 0 ? "plan" : "default";
	return lst_figures_default_limit(r, phase);
}

const char *lst_headline_limit_text(double us, char *buf, size_t size)
{
	if (us >= 1e6)
		snprintf(buf, size, "%g s", us / 1e6);
	else if (us >= 1000)
		snprintf(buf, size, "%g ms", us / 1000);
	else
		snprintf(buf, size, "%g us", us);
	return buf;
}

size_t lst_figures_headlines(const lst_report *r, const char *phase, double limit_us,
			     struct lst_headline **out)
{
	struct lst_curves cs = { 0 };
	const struct lst_rpt_phase *ph;
	size_t n = 0;

	*out = NULL;
	if (lst_curves_phase(r, phase, false, &cs) < 2 || !(limit_us > 0)) {
		lst_curves_free(&cs);
		return 0;
	}
	ph = lst_report_phase(r, phase);
	*out = lst_calloc(cs.n, sizeof(**out));
	for (size_t i = 0; i < cs.n; i++) {
		const struct lst_curve *c = &cs.c[i];
		struct lst_headline *h;

		if (c->n < 2) /* a point is no curve (snia-latency: one per block size x mix) */
			continue;
		h = &(*out)[n++];

		h->phase = ph ? ph->name : phase;
		if (cs.n > 1)
			snprintf(h->curve, sizeof(h->curve), "%s", c->name);
		lst_headline_figures(c, limit_us,
				     lst_headline_is_bandwidth(c->bs, ph && ph->sequential), h);
	}
	lst_curves_free(&cs);
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}

/* One statistic: "182,400 (interpolated between QD 16 and QD 32)". */
static void s_stat_text(const struct lst_headline *h, int s, char *buf, size_t size)
{
	char num[64];

	if (isnan(h->iops[s]))
		snprintf(buf, size, "none (over the limit from the first point%s%s)",
			 *h->above[s] ? ", " : "", h->above[s]);
	else if (h->interpolated[s] && *h->below[s] && *h->above[s])
		snprintf(buf, size, "%s (interpolated between %s and %s)",
			 lst_report_thousands(h->iops[s], num, sizeof(num)), h->below[s],
			 h->above[s]);
	else if (h->interpolated[s])
		snprintf(buf, size, "%s (interpolated between two measured points)",
			 lst_report_thousands(h->iops[s], num, sizeof(num)));
	else if (h->all_under[s])
		snprintf(buf, size, "%s (all points under, the highest measured%s%s)",
			 lst_report_thousands(h->iops[s], num, sizeof(num)),
			 *h->below[s] ? ", " : "", h->below[s]);
	else
		snprintf(buf, size, "%s (measured%s%s)",
			 lst_report_thousands(h->iops[s], num, sizeof(num)),
			 *h->below[s] ? ", " : "", h->below[s]);
}

/* A bandwidth curve's headline: "MB/s: 7,928 (the highest measured, QD 8; p99 there 2,179
 * us)". */
static const char *s_bandwidth_text(const struct lst_headline *h, char *buf, size_t size)
{
	char num[64], p99[64] = "";

	if (isnan(h->mbps)) {
		snprintf(buf, size, "MB/s: none measured");
		return buf;
	}
	if (isfinite(h->mbps_p99_us))
		snprintf(p99, sizeof(p99), "; p99 there %.0f us", h->mbps_p99_us);
	snprintf(buf, size, "MB/s: %s (the highest measured%s%s%s)",
		 lst_report_thousands(h->mbps, num, sizeof(num)), *h->mbps_at ? ", " : "",
		 h->mbps_at, p99);
	return buf;
}

const char *lst_headline_text(const struct lst_headline *h, char *buf, size_t size)
{
	char limit[32], stat[160];
	size_t len;

	if (h->bandwidth)
		return s_bandwidth_text(h, buf, size);
	len = (size_t)snprintf(buf, size, "IOPS at");
	for (int s = 0; s < LST_HL_N && len < size; s++) {
		s_stat_text(h, s, stat, sizeof(stat));
		if (!s)
			len += (size_t)snprintf(
				buf + len, size - len, " %s < %s: %s", lst_headline_stat_names[s],
				lst_headline_limit_text(h->limit_us, limit, sizeof(limit)), stat);
		else
			len += (size_t)snprintf(buf + len, size - len, "; %s: %s",
						lst_headline_stat_names[s], stat);
	}
	return buf;
}
