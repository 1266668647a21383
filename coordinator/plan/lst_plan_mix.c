/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A workload's `mix:` list, several weighted workloads in one point, vdbench's
 * skew= in a plan:
 *
 *   mix:
 *     - {share: 60, rw: randread, bs: 8k, hotband: [{range: 0-10%, share: 100%}]}
 *     - {share: 30, rw: write, bs: 64k}
 *     - {share: 10, rw: randtrim, bs: 4k}
 *
 * is the skew option's text "share=60 rw=randread bs=8k random_distribution=zoned:100/10:0/90;
 * share=30 ...". Each entry is a map with `share:` (a whole percentage, "60" or "60%") and any
 * of the keys a skew entry takes (rw, rwmixread, bs, offset, size, random_distribution, fio's
 * names too), plus `hotband:` (lst_plan_hotband.c) for the entry's distribution. A `bs:` map
 * (a size mix) is refused: an entry has one bs, and several entries make a size mix. Every key
 * is checked at its place (FILE:LINE:COL) by the workload table's parser; then the text goes
 * through lst_skew_parse, which checks what is left (the shares adding up to 100, the number of
 * entries), reported at the `mix:` list. Giving `mix:` and `skew:` in one map is an error
 * (lst_plan_value.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lst_plan_int.h"
#include "lst_text.h"
#include "lst_util.h"
#include "lst_yaml.h"

/* The keys of a mix entry besides share and hotband (their fio names are found too). */
static const char *const s_keys[] = { "rw",	"rwmixread", "bs",
				      "offset", "size",	     "random_distribution" };

#define S_NKEYS (sizeof(s_keys) / sizeof(s_keys[0]))
#define S_ENTRY_TEXT 512

/* The skew key option o stands for, or NULL when an entry may not give it. */
static bool s_allowed(const struct lst_opt *o)
{
	for (size_t i = 0; o && i < S_NKEYS; i++)
		if (!strcmp(o->name, s_keys[i]))
			return true;
	return false;
}

/* "unknown key" in entry i, with the nearest key an entry takes (share, hotband, the options). */
static void s_unknown(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn, size_t i)
{
	struct lst_opt table[S_NKEYS + 3];
	const char *near;

	memset(table, 0, sizeof(table));
	table[0].name = "share";
	for (size_t k = 0; k < S_NKEYS; k++)
		table[k + 1] = *lst_opt_find(lst_workload_opts, s_keys[k]);
	table[S_NKEYS + 1].name = "hotband";
	near = lst_opt_suggest_name(table, kn->text);
	if (near)
		lst__plan_error(ctx, kn, "mix entry %zu: unknown key '%s' (did you mean '%s'?)",
				i + 1, kn->text, near);
	else
		lst__plan_error(ctx, kn,
				"mix entry %zu: unknown key '%s' (an entry takes share, rw, "
				"rwmixread, bs, offset, size, random_distribution, hotband)",
				i + 1, kn->text);
}

/* Append " KEY=VALUE" to text (bounded). */
static void s_append(char *text, size_t size, const char *key, const char *value)
{
	size_t used = strlen(text);

	snprintf(text + used, size - used, "%s%s=%s", used ? " " : "", key, value);
}

/* share: a whole percentage 1..100 ("60" or "60%") appended as share=N; false after saying why. */
static bool s_share(struct lst__plan_ctx *ctx, const struct lst_yaml_node *vn, size_t i, char *text,
		    size_t size, int64_t *sum)
{
	const char *s = lst__plan_scalar(ctx, "share", vn);
	char num[8];
	int64_t v;

	if (!s)
		return false;
	v = lst__plan_pct(s, strlen(s));
	if (v < 1) {
		lst__plan_error(
			ctx, vn,
			"mix entry %zu: share '%s' must be a whole percentage 1..100 (like 60 "
			"or 60%%)",
			i + 1, s);
		return false;
	}
	*sum += v;
	snprintf(num, sizeof(num), "%lld", (long long)v);
	s_append(text, size, "share", num);
	return true;
}

/* One option key of an entry: checked by the table's parser, appended in its own form. */
static bool s_option(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn,
		     const struct lst_yaml_node *vn, const struct lst_opt *o, size_t i, char *text,
		     size_t size)
{
	struct lst_workload scratch;
	char val[LST_OPT_WIRE_MAX];
	const char *s;
	lst_err err;

	if (o->type == LST_OPT_SIZE && vn->type == LST_YAML_MAP) {
		lst__plan_error(ctx, kn,
				"mix entry %zu: bs must be one size; a size mix inside an entry is "
				"not allowed (give several entries instead)",
				i + 1);
		return false;
	}
	s = lst__plan_scalar(ctx, o->name, vn);
	if (!s)
		return false;
	lst_workload_init(&scratch);
	if (lst_workload_parse(o, &scratch, s, &err)) {
		lst__plan_error(ctx, vn, "mix entry %zu: %s", i + 1, err.msg);
		return false;
	}
	s_append(text, size, o->name, lst_opt_format(o, &scratch, val, sizeof(val)));
	return true;
}

/* hotband: the entry's distribution, as its zoned text. */
static bool s_hotband(struct lst__plan_ctx *ctx, const struct lst_yaml_node *vn, char *text,
		      size_t size)
{
	struct lst_dist d;
	char val[256];

	if (!lst__plan_hotband(ctx, vn, &d))
		return false;
	s_append(text, size, "random_distribution", lst_dist_format(&d, val, sizeof(val)));
	return true;
}

/* One entry (item i of the list) appended to text; false after reporting each problem. */
static bool s_entry(struct lst__plan_ctx *ctx, const struct lst_yaml_node *item, size_t i,
		    char *text, size_t size, int64_t *sum)
{
	char entry[S_ENTRY_TEXT] = "";
	const struct lst_yaml_node *share = NULL, *hot = NULL, *dist = NULL;
	bool ok = true;

	if (item->type != LST_YAML_MAP) {
		lst__plan_error(ctx, item,
				"mix entry %zu must be a map (like {share: 60, rw: randread, bs: "
				"8k}), not %s",
				i + 1, lst_yaml_what(item));
		return false;
	}
	for (size_t k = 0; k + 1 < item->n; k += 2) {
		const struct lst_yaml_node *kn = item->kids[k], *vn = item->kids[k + 1];
		const struct lst_opt *o;

		if (!strcmp(kn->text, "share")) {
			share = kn;
			ok = s_share(ctx, vn, i, entry, sizeof(entry), sum) && ok;
			continue;
		}
		if (!strcmp(kn->text, "hotband")) {
			hot = kn;
			ok = s_hotband(ctx, vn, entry, sizeof(entry)) && ok;
			continue;
		}
		o = lst_opt_find(lst_workload_opts, kn->text);
		if (!s_allowed(o)) {
			s_unknown(ctx, kn, i);
			ok = false;
			continue;
		}
		if (o->type == LST_OPT_DIST)
			dist = kn;
		ok = s_option(ctx, kn, vn, o, i, entry, sizeof(entry)) && ok;
	}
	if (!share) {
		lst__plan_error(ctx, item, "mix entry %zu has no share (like share: 60)", i + 1);
		return false;
	}
	if (hot && dist) {
		lst__plan_error(ctx, hot,
				"mix entry %zu: hotband and random_distribution are both given; a "
				"hotband is a zoned distribution: give one of them",
				i + 1);
		return false;
	}
	if (!ok)
		return false;
	snprintf(text + strlen(text), size - strlen(text), "%s%s", i ? "; " : "", entry);
	return true;
}

bool lst__plan_mix(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v, struct lst_skew *s)
{
	char text[LST_SKEW_MAX * S_ENTRY_TEXT] = "";
	long n = lst__plan_list(ctx, "mix", v);
	struct lst_skew mix;
	int64_t sum = 0;
	bool ok = true;
	lst_err err;

	if (n < 0)
		return false;
	if (n == 0) {
		lst__plan_error(
			ctx, v,
			"mix: an empty list (give entries with shares, like [{share: 70, rw: "
			"randread}, {share: 30, rw: write}])");
		return false;
	}
	if (n > LST_SKEW_MAX) {
		lst__plan_error(ctx, v, "mix: %ld entries; at most %d", n, LST_SKEW_MAX);
		return false;
	}
	for (size_t i = 0; i < (size_t)n; i++)
		ok = s_entry(ctx, v->kids[i], i, text, sizeof(text), &sum) && ok;
	if (!ok)
		return false;
	if (sum != 100) {
		lst__plan_error(ctx, v, "mix: the shares add up to %lld%%, not 100%%",
				(long long)sum);
		return false;
	}
	if (lst_skew_parse(&mix, text, &err)) {
		lst__plan_error(ctx, v, "mix: %s", err.msg);
		return false;
	}
	*s = mix;
	return true;
}
