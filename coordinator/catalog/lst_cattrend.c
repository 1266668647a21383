/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trend maths of lst_cattrend.h: groups, their bands and each run's verdict against the
 * band of its group's other runs (leave one out), with the mean and spread of lst_noise_of, the
 * ones the repeats of a point are given, so that the catalog and a report agree on a spread.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cattrend.h"
#include "lst_noise.h"
#include "lst_util.h"

static size_t s_group_of(struct lst_trend *t, const char *key,
			 int (*cmp)(const char *a, const char *b))
{
	size_t i;

	for (i = 0; i < t->ngroups; i++)
		if (!strcmp(t->groups[i].key, key))
			return i;
	t->groups = lst_realloc(t->groups, (t->ngroups + 1) * sizeof(*t->groups));
	/* keep the groups in order: insert before the first greater key */
	for (i = 0; i < t->ngroups && cmp(t->groups[i].key, key) < 0; i++)
		;
	memmove(&t->groups[i + 1], &t->groups[i], (t->ngroups - i) * sizeof(*t->groups));
	t->groups[i] = (struct lst_trend_group){ .key = key, .min = NAN, .max = NAN };
	t->ngroups++;
	return i;
}

static void s_group(struct lst_trend *t, const char *const *keys, size_t n,
		    int (*cmp)(const char *a, const char *b))
{
	for (size_t i = 0; i < n; i++)
		s_group_of(t, keys[i] ? keys[i] : "", cmp);
	for (size_t i = 0; i < n; i++)
		t->runs[i].group = s_group_of(t, keys[i] ? keys[i] : "", cmp);
}

/* The values of group g, leaving out run skip (n: none), into v; their count. */
static size_t s_values(const struct lst_trend *t, size_t n, size_t g, size_t skip, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (i != skip && t->runs[i].group == g && !isnan(t->runs[i].value))
			v[k++] = t->runs[i].value;
	return k;
}

static void s_judge(struct lst_trend *t, size_t n, size_t i, bool higher_is_better, double *v)
{
	struct lst_trend_run *r = &t->runs[i];
	struct lst_noise others;

	r->lo = r->hi = NAN;
	r->flag = LST_TREND_UNJUDGED;
	if (isnan(r->value) || s_values(t, n, r->group, i, v) < LST_TREND_MIN_OTHERS)
		return;
	lst_noise_of(v, s_values(t, n, r->group, i, v), &others);
	r->lo = others.mean - LST_TREND_SDS * others.sd;
	r->hi = others.mean + LST_TREND_SDS * others.sd;
	if (r->value < r->lo)
		r->flag = higher_is_better ? LST_TREND_REGRESSION : LST_TREND_IMPROVEMENT;
	else if (r->value > r->hi)
		r->flag = higher_is_better ? LST_TREND_IMPROVEMENT : LST_TREND_REGRESSION;
	else
		r->flag = LST_TREND_IN;
}

static void s_band(struct lst_trend *t, size_t n, size_t g, double *v)
{
	struct lst_trend_group *tg = &t->groups[g];
	struct lst_noise all;
	size_t k = s_values(t, n, g, n, v);

	tg->n = k;
	tg->min = tg->max = tg->lo = tg->hi = NAN;
	lst_noise_of(v, k, &all);
	tg->mean = all.mean;
	tg->sd = k == 1 ? 0.0 : all.sd;
	for (size_t i = 0; i < k; i++) {
		tg->min = isnan(tg->min) || v[i] < tg->min ? v[i] : tg->min;
		tg->max = isnan(tg->max) || v[i] > tg->max ? v[i] : tg->max;
	}
	if (k) {
		tg->lo = tg->mean - LST_TREND_SDS * tg->sd;
		tg->hi = tg->mean + LST_TREND_SDS * tg->sd;
	}
}

void lst_trend_init(struct lst_trend *t, const char *const *keys, const double *vals, size_t n,
		    bool higher_is_better, int (*cmp)(const char *a, const char *b))
{
	double *v = lst_calloc(n + 1, sizeof(*v));

	*t = (struct lst_trend){ .runs = lst_calloc(n + 1, sizeof(*t->runs)) };
	s_group(t, keys, n, cmp);
	for (size_t i = 0; i < n; i++)
		t->runs[i].value = vals[i];
	for (size_t g = 0; g < t->ngroups; g++)
		s_band(t, n, g, v);
	for (size_t i = 0; i < n; i++)
		s_judge(t, n, i, higher_is_better, v);
	free(v);
}

void lst_trend_exit(struct lst_trend *t)
{
	free(t->groups);
	free(t->runs);
	*t = (struct lst_trend){ 0 };
}

const char *lst_trend_flag_name(enum lst_trend_flag f)
{
	static const char *const names[] = { "unjudged", "in band", "regression", "improvement" };

	return names[f];
}
