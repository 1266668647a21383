/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Two shorthands of the array workloads in a workload map, read into the options they stand for:
 *
 *   bs: {4k: 70, 64k: 25, 1m: 5}     is  bssplit: 4k/70:64k/25:1m/5
 *   dedup: 3                         is  dedupe_percentage: 67 (one block in 3 unique)
 *
 * A map under `bs:` gives sizes and their shares of the I/Os (whole percentages adding up to
 * 100); it is checked entry by entry so each problem is reported at its place, then parsed by
 * lst_bssplit_parse as the bssplit text it spells. `dedup: R` (R >= 1) keeps one block in R
 * unique: round(100 - 100/R) percent of the blocks repeat. Giving a shorthand together with the
 * option it stands for in one map is an error (lst_plan_value.c checks that).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lst_plan_int.h"
#include "lst_util.h"
#include "lst_yaml.h"

/* One `SIZE: SHARE` entry appended to text as "SIZE/SHARE"; false after saying why. */
static bool s_bs_entry(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn,
		       const struct lst_yaml_node *vn, char *text, size_t size, int64_t *sum)
{
	const char *share = lst__plan_scalar(ctx, "bs", vn);
	size_t used = strlen(text);
	uint64_t bs;
	int64_t pct;
	lst_err err;

	if (kn->type != LST_YAML_SCALAR || lst_parse_size(kn->text, &bs, &err) || !bs || bs % 512) {
		lst__plan_error(ctx, kn,
				"bs: '%s' is not a block size (a multiple of 512 bytes, like 4k or "
				"1m)",
				kn->type == LST_YAML_SCALAR ? kn->text : "");
		return false;
	}
	if (!share)
		return false;
	pct = lst__plan_pct(share, strlen(share));
	if (pct < 0) {
		lst__plan_error(ctx, vn,
				"bs: the share of %s, '%s', is not a whole percentage 0..100",
				kn->text, share);
		return false;
	}
	*sum += pct;
	snprintf(text + used, size - used, "%s%s/%lld", used ? ":" : "", kn->text, (long long)pct);
	return true;
}

bool lst__plan_bs_map(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v,
		      struct lst_bssplit *b)
{
	char text[LST_BSSPLIT_MAX * 32] = "";
	struct lst_bssplit mix;
	int64_t sum = 0;
	bool ok = true;
	lst_err err;

	if (!v->n) {
		lst__plan_error(ctx, v,
				"bs: an empty mix (give sizes and shares, like {4k: 70, "
				"64k: 30})");
		return false;
	}
	if (v->n / 2 > LST_BSSPLIT_MAX) {
		lst__plan_error(ctx, v, "bs: %zu sizes; at most %d", v->n / 2, LST_BSSPLIT_MAX);
		return false;
	}
	for (size_t i = 0; i + 1 < v->n; i += 2)
		ok = s_bs_entry(ctx, v->kids[i], v->kids[i + 1], text, sizeof(text), &sum) && ok;
	if (!ok)
		return false;
	if (sum != 100) {
		lst__plan_error(ctx, v, "bs: the shares add up to %lld%%, not 100%%",
				(long long)sum);
		return false;
	}
	if (lst_bssplit_parse(&mix, text, &err)) {
		lst__plan_error(ctx, v, "bs: %s", err.msg);
		return false;
	}
	*b = mix;
	return true;
}

bool lst__plan_dedup(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v, int64_t *pct)
{
	const char *text = lst__plan_scalar(ctx, "dedup", v);
	lst_err err;
	double r;

	if (!text)
		return false;
	if (lst_parse_double(text, -INFINITY, INFINITY, &r, &err) || !isfinite(r)) {
		lst__plan_error(ctx, v,
				"dedup: '%s' is not a number (one block in R unique, like 2 or 3)",
				text);
		return false;
	}
	if (r < 1) {
		lst__plan_error(ctx, v,
				"dedup must be >= 1 (one block in R unique; 1 is no dedup), not %s",
				text);
		return false;
	}
	*pct = (int64_t)llround(100.0 - 100.0 / r);
	return true;
}
