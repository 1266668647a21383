/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One interval row. The merges (the agents' in lst_point.c, the paths' in lst_paths.c) give a
 * complete interval; each scope of it (all, agent, target, path) becomes one lst_coord__row
 * with its counts, histograms and rates, made here, and goes to every sink registered once for
 * the run (lst_coord__rows_listen): timeseries.csv, the live metrics, the failover detectors
 * and the terminal's progress. A combined row's rates are the sum of its parts' rates
 * (lst_coord__row_add), not its counts over the longest part's time, which is what the
 * columns of timeseries.csv have always said.
 */
#include <string.h>

#include "lst_assert.h"
#include "lst_util.h"

#include "lst_run_int.h"

void lst_coord__row_of(struct lst_coord__row *row, const lst_sample *s)
{
	row->dir = s->dir;
	row->health = &s->health;
	row->verify = &s->verify;
	row->s = s;
	lst_rates_of(s, &row->rates);
}

void lst_coord__row_add(struct lst_coord__row *row, const lst_sample *part)
{
	struct lst_rates r;

	lst_rates_of(part, &r);
	for (int d = 0; d < LST_DIR_N; d++) {
		row->rates.iops[d] += r.iops[d];
		row->rates.mbps[d] += r.mbps[d];
	}
	row->rates.trim_iops += r.trim_iops;
	row->rates.trim_mbps += r.trim_mbps;
}

/* The sinks, in the order they were registered. */
struct lst_coord__sinks {
	lst_coord__row_fn fn[LST_COORD__SINKS_MAX];
	size_t n;
};

struct lst_coord__sinks *lst_coord__rows_new(void)
{
	return lst_calloc(1, sizeof(struct lst_coord__sinks));
}

void lst_coord__rows_sink(lst_coord *c, lst_coord__row_fn fn)
{
	struct lst_coord__sinks *k = lst_coord__sinks(c);

	LST_ASSERT(k && k->n < LST_COORD__SINKS_MAX);
	k->fn[k->n++] = fn;
}

void lst_coord__rows_emit(lst_coord *c, const struct lst_coord__row *row)
{
	const struct lst_coord__sinks *k = lst_coord__sinks(c);

	for (size_t i = 0; k && i < k->n; i++)
		k->fn[i](c, row);
}

void lst_coord__rows_destroy(struct lst_coord__sinks **p)
{
	free(*p);
	*p = NULL;
}

/* timeseries.csv: every measured row. An agent's row goes by its name, as lst_results_row has
 * always named its scope. */
static void s_csv(lst_coord *c, const struct lst_coord__row *row)
{
	const struct lst_coord__where *at = lst_coord__where(c);
	lst_results *res = lst_record_results(lst_coord__record(c));

	if (row->ramp)
		return;
	if (!strcmp(row->who.scope, "all") || !strcmp(row->who.scope, "agent"))
		lst_results_row(res, at->phase_name, at->point, row->k, row->t_s, row->who.agent,
				&row->rates, row->dir, row->health, row->verify);
	else
		lst_results_row_of(res, at->phase_name, at->point, row->k, row->t_s, &row->who,
				   &row->rates, row->dir, row->health, row->verify);
}

static void s_metrics(lst_coord *c, const struct lst_coord__row *row)
{
	if (!row->ramp)
		lst_coord__metrics_row(c, row);
}

/* A row with a failover detector (an agent's when the point has no path rows, a path's). */
static void s_failover(lst_coord *c, const struct lst_coord__row *row)
{
	if (!row->ramp && row->fo)
		lst_coord__failover_add(c, row->fo, row->k, row->t_s, row->s);
}

/* The terminal follows the whole run: the `all` row, ramp included. */
static void s_progress(lst_coord *c, const struct lst_coord__row *row)
{
	if (!strcmp(row->who.scope, "all"))
		lst_coord__progress(c, row);
}

void lst_coord__rows_listen(lst_coord *c)
{
	lst_coord__rows_sink(c, s_csv);
	lst_coord__rows_sink(c, s_metrics);
	lst_coord__rows_sink(c, s_failover);
	lst_coord__rows_sink(c, s_progress);
}
