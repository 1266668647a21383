/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DIRTH's point selection and percentile confidence (see lst_dirth.h): arithmetic over window
 * averages the suite hands in, nothing measured here.
 */
#include "lst_dirth.h"

#include <math.h>
#include <stdlib.h>

#include "lst_util.h"

const char *const lst_dirth_pick_names[] = { "max", "mid-high", "mid-low", "min", NULL };

/* Of the points not taken yet, the one whose IOPS is nearest target. */
static size_t s_nearest(const struct lst_dirth_point *p, size_t n, const bool *taken, double target)
{
	size_t best = LST_DIRTH_NONE;

	for (size_t i = 0; i < n; i++)
		if (!taken[i] && (best == LST_DIRTH_NONE ||
				  fabs(p[i].iops - target) < fabs(p[best].iops - target)))
			best = i;
	return best;
}

size_t lst_dirth_select(const struct lst_dirth_point *p, size_t n, size_t out[LST_DIRTH_NPICKS])
{
	bool *taken = lst_calloc(n, sizeof(*taken));
	size_t max = 0, min = 0, picked = 0;
	double lo, hi;

	for (size_t i = 0; i < n; i++) {
		if (p[i].iops > p[max].iops)
			max = i;
		if (p[i].lat_mean_us < p[min].lat_mean_us)
			min = i;
	}
	for (int k = 0; k < LST_DIRTH_NPICKS; k++)
		out[k] = LST_DIRTH_NONE;
	out[LST_DIRTH_MAX] = max;
	taken[max] = true;
	picked++;
	if (!taken[min]) {
		out[LST_DIRTH_MIN] = min;
		taken[min] = true;
		picked++;
	}
	lo = p[min].iops;
	hi = p[max].iops;
	out[LST_DIRTH_MID_HIGH] = s_nearest(p, n, taken, lo + (hi - lo) * 2.0 / 3.0);
	if (out[LST_DIRTH_MID_HIGH] != LST_DIRTH_NONE) {
		taken[out[LST_DIRTH_MID_HIGH]] = true;
		picked++;
	}
	out[LST_DIRTH_MID_LOW] = s_nearest(p, n, taken, lo + (hi - lo) / 3.0);
	if (out[LST_DIRTH_MID_LOW] != LST_DIRTH_NONE)
		picked++;
	free(taken);
	return picked;
}

uint64_t lst_dirth_ios_needed(double pct)
{
	/* 10 I/Os above pct: 10 / (1 - pct/100), rounded to cope with 99.999's binary form. */
	return (uint64_t)llround(10.0 / (1.0 - pct / 100.0));
}

bool lst_dirth_supported(uint64_t ios, double pct)
{
	return pct < 100 && ios >= lst_dirth_ios_needed(pct);
}
