/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A workload's `hotband:` list, vdbench's hot bands in a plan:
 *
 *   hotband: [{range: 0-10%, share: 70%}, {range: 50-60%, share: 20%}]
 *
 * Each band gives `share` of the I/Os to a slice `range` of the region (whole percentages, so
 * every band maps onto fio's zoned form, which the wire and the agent carry). The gaps between
 * bands take what is left of the shares, spread by their sizes (largest remainder, so the
 * whole percentages still add up to 100). Bands that overlap, shares above 100, a range that
 * is not A-B% within 0-100% and more zones than zoned holds are errors at their place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_plan_int.h"
#include "lst_yaml.h"

struct s_band {
	int64_t lo, hi, share;
	const struct lst_yaml_node *at;
};

/* "A-B%" (or "A%-B%") with 0 <= A < B <= 100 into b; false after saying why. */
static bool s_range(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v, struct s_band *b)
{
	const char *text = lst__plan_scalar(ctx, "range", v);
	const char *dash = text ? strchr(text, '-') : NULL;

	if (!text)
		return false;
	if (dash) {
		b->lo = lst__plan_pct(text, (size_t)(dash - text));
		b->hi = lst__plan_pct(dash + 1, strlen(dash + 1));
	}
	if (!dash || b->lo < 0 || b->hi < 0 || b->lo >= b->hi) {
		lst__plan_error(ctx, v,
				"hotband range '%s' must be A-B%% with whole percentages, 0 <= A "
				"< B <= 100 (like 0-10%%)",
				text);
		return false;
	}
	return true;
}

/* One {range, share} item into b; false after saying why. */
static bool s_band(struct lst__plan_ctx *ctx, const struct lst_yaml_node *item, struct s_band *b)
{
	const struct lst_yaml_node *rn = NULL, *sn = NULL;
	bool ok;
	const struct lst_yaml_node *map = lst__plan_map(ctx, "hotband", item, &ok);
	const char *text;

	if (!map) {
		if (ok)
			lst__plan_error(ctx, item, "a hotband needs range and share");
		return false;
	}
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const char *k = map->kids[i]->text;

		if (!strcmp(k, "range"))
			rn = map->kids[i + 1];
		else if (!strcmp(k, "share"))
			sn = map->kids[i + 1];
		else {
			lst__plan_error(ctx, map->kids[i],
					"unknown key '%s' in a hotband (range, share)", k);
			return false;
		}
	}
	if (!rn || !sn) {
		lst__plan_error(ctx, item,
				"a hotband needs range and share (like {range: 0-10%%, "
				"share: 70%%})");
		return false;
	}
	b->at = rn;
	if (!s_range(ctx, rn, b))
		return false;
	text = lst__plan_scalar(ctx, "share", sn);
	if (!text)
		return false;
	b->share = lst__plan_pct(text, strlen(text));
	if (b->share < 0) {
		lst__plan_error(ctx, sn, "hotband share '%s' must be a whole percentage 0..100",
				text);
		return false;
	}
	return true;
}

static int s_by_lo(const void *a, const void *b)
{
	const struct s_band *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The bands (sorted, not overlapping) and the gaps between them as zones of d. */
static bool s_zones(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v,
		    const struct s_band *band, size_t n, int64_t left, struct lst_dist *d)
{
	struct s_band all[2 * LST_ZONES_MAX + 1];
	int64_t gaps = 0, given = 0, rem[2 * LST_ZONES_MAX + 1];
	size_t m = 0, at = 0;

	for (size_t i = 0; i <= n; i++) {
		int64_t lo = i ? band[i - 1].hi : 0, hi = i < n ? band[i].lo : 100;

		if (hi > lo) {
			all[m++] = (struct s_band){ lo, hi, -1, NULL };
			gaps += hi - lo;
		}
		if (i < n)
			all[m++] = band[i];
	}
	if (m > LST_ZONES_MAX) {
		lst__plan_error(ctx, v, "hotband: %zu bands and gaps; at most %d", m,
				LST_ZONES_MAX);
		return false;
	}
	if (!gaps && left) {
		lst__plan_error(ctx, v,
				"hotband: the bands cover the whole range but their shares add up "
				"to %lld%%, not 100%%",
				(long long)(100 - left));
		return false;
	}
	for (size_t i = 0; i < m; i++) { /* gaps: left by size, rounded down */
		if (all[i].share >= 0)
			continue;
		all[i].share = left * (all[i].hi - all[i].lo) / gaps;
		rem[i] = left * (all[i].hi - all[i].lo) % gaps;
		given += all[i].share;
	}
	for (; given < left; given++) { /* the rest to the largest remainders */
		size_t best = m;

		for (size_t i = 0; i < m; i++)
			if (!all[i].at && (best == m || rem[i] > rem[best]))
				best = i;
		all[best].share++;
		rem[best] = -1;
	}
	memset(d, 0, sizeof(*d));
	d->kind = LST_DIST_ZONED;
	for (size_t i = 0; i < m; i++, at++)
		d->zone[at] = (struct lst_zone){ all[i].share, all[i].hi - all[i].lo };
	d->nzones = (int64_t)at;
	return true;
}

bool lst__plan_hotband(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v, struct lst_dist *d)
{
	struct s_band band[LST_ZONES_MAX];
	long n = lst__plan_list(ctx, "hotband", v);
	int64_t total = 0;
	bool ok = true;

	if (n <= 0) {
		if (n == 0)
			lst__plan_error(ctx, v, "hotband needs at least one band");
		return false;
	}
	if (n > LST_ZONES_MAX) {
		lst__plan_error(ctx, v, "hotband: %ld bands; at most %d", n, LST_ZONES_MAX);
		return false;
	}
	for (long i = 0; i < n; i++)
		ok = s_band(ctx, v->kids[i], &band[i]) && ok;
	if (!ok)
		return false;
	qsort(band, (size_t)n, sizeof(band[0]), s_by_lo);
	for (long i = 0; i < n; i++) {
		if (i && band[i].lo < band[i - 1].hi) {
			lst__plan_error(ctx, band[i].at,
					"hotband range %lld-%lld%% overlaps %lld-%lld%%",
					(long long)band[i].lo, (long long)band[i].hi,
					(long long)band[i - 1].lo, (long long)band[i - 1].hi);
			return false;
		}
		total += band[i].share;
	}
	if (total > 100) {
		lst__plan_error(ctx, v, "hotband shares add up to %lld%%, more than 100%%",
				(long long)total);
		return false;
	}
	return s_zones(ctx, v, band, (size_t)n, 100 - total, d);
}
