/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SNIA PTS pages of a results folder (lst_pts.h): what each test's page says, as text
 * cells, built once for every format. A page is its header (lst_pts_head.c), then the spec's
 * plots and tables of its test in the spec's order, and the deviations from the spec
 * (lst_pts_dev.c). The figures are the results files' own (summary.json's verdicts,
 * rounds.csv, curves.csv, the matrix, xsr-PHASE.*, dirth-PHASE.json), printed at a fixed
 * precision so a script can hold every cell to its file.
 */
#include "lst_pts.h"
#include "lst_pts_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lst_plan.h"
#include "lst_report_plan.h"
#include "lst_steady.h"
#include "lst_assert.h"
#include "lst_util.h"

/* The PTS tests and their names in the spec. */
static const struct {
	const char *suite, *title;
} s_tests[] = {
	{ "snia-iops", "IOPS" },
	{ "snia-throughput", "Throughput" },
	{ "snia-latency", "Latency" },
	{ "snia-wsat", "Write Saturation (WSAT)" },
	{ "snia-hir", "Host Idle Recovery (HIR)" },
	{ "snia-xsr", "Cross Stimulus Recovery (XSR)" },
	{ "snia-ecw", "Enterprise Composite Workload (ECW)" },
	{ "snia-dirth", "Demand Intensity / Response Time Histogram (DIRTH)" },
};

/* --- steady state ---------------------------------------------------------------------------- */

/* A table key or title with the test's name when the phase has several tests. */
static void s_named(char *buf, size_t size, const char *what, const struct lst_rpt_test *t,
		    bool several, const char *sep)
{
	if (several)
		snprintf(buf, size, "%s%s%s", what, sep, t->test);
	else
		snprintf(buf, size, "%s", what);
}

/* The spec's three steady-state exhibits of test t: the convergence plot (each round's tracked
 * value with the window), the measurement window's rounds, and its calculations. */
static void s_steady(struct lst_pts__ctx *c, const struct lst_rpt_test *t, bool several)
{
	static const char *const conv[] = { "Round", "Tracked value" };
	static const char *const calc[] = { "Figure", "Value" };
	char title[256], key[256], phrase[160];
	struct lst_pts_block *b;

	s_named(title, sizeof(title), "Steady State Convergence Plot", t, several, ": ");
	lst_pts__plot(c, title, "steady", t->phase, t->test);
	s_named(title, sizeof(title), "Steady State Convergence", t, several, ": ");
	s_named(key, sizeof(key), "convergence", t, several, ":");
	b = lst_pts__table(c->pg, title, key, 2, conv);
	for (size_t i = 0; i < t->nvalues; i++)
		lst_pts__row(b, lst_asprintf("%zu", i + 1), lst_pts__num(t->values[i], "%.3f"));
	b->note = lst_asprintf("Tracked: %s, the combined value of every path per round.",
			       t->tracked);
	s_named(title, sizeof(title), "Steady State Measurement Window", t, several, ": ");
	s_named(key, sizeof(key), "window", t, several, ":");
	b = lst_pts__table(c->pg, title, key, 2, conv);
	for (long k = t->window_first; k >= 1 && k <= t->window_last && (size_t)k <= t->nvalues;
	     k++)
		lst_pts__row(b, lst_asprintf("%ld", k), lst_pts__num(t->values[k - 1], "%.3f"));
	s_named(title, sizeof(title), "Steady State Measurement Window Calculations", t, several,
		": ");
	s_named(key, sizeof(key), "calc", t, several, ":");
	b = lst_pts__table(c->pg, title, key, 2, calc);
	lst_pts__row(b, lst_strdup("Average"), lst_pts__num(t->average, "%.3f"));
	lst_pts__row(b, lst_strdup("Maximum"), lst_pts__num(t->max, "%.3f"));
	lst_pts__row(b, lst_strdup("Minimum"), lst_pts__num(t->min, "%.3f"));
	lst_pts__row(b, lst_strdup("Data excursion (% of average)"),
		     lst_pts__num(t->data_pct, "%.2f"));
	lst_pts__row(b, lst_strdup("Data excursion limit (%)"),
		     lst_pts__num(t->data_limit, "%.2f"));
	lst_pts__row(b, lst_strdup("Least-squares slope (per round)"),
		     lst_pts__num(t->slope, "%.3f"));
	lst_pts__row(b, lst_strdup("Least-squares intercept"), lst_pts__num(t->intercept, "%.3f"));
	lst_pts__row(b, lst_strdup("Slope excursion (% of average)"),
		     lst_pts__num(t->slope_pct, "%.2f"));
	lst_pts__row(b, lst_strdup("Slope excursion limit (%)"),
		     lst_pts__num(t->slope_limit, "%.2f"));
	lst_steady_phrase(t->steady, t->rounds, t->window_first, t->window_last, t->stop,
			  t->capacity_multiple, phrase, sizeof(phrase));
	lst_pts__row(b, lst_strdup("Verdict"),
		     lst_asprintf("%s%s", phrase, t->required ? "" : " (reported, not required)"));
}

/* Every steady-state verdict of the page's phase. */
static void s_steady_all(struct lst_pts__ctx *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->r->ntests; i++)
		n += !strcmp(c->r->tests[i].phase, c->pg->phase);
	for (size_t i = 0; i < c->r->ntests; i++)
		if (!strcmp(c->r->tests[i].phase, c->pg->phase))
			s_steady(c, &c->r->tests[i], n > 1);
}

/* --- the tests' own exhibits ----------------------------------------------------------------- */

/* The IOPS matrix of the value being written: matrix-PHASE[-VALUE].csv, or matrix.csv, which
 * the report model gives the first snia-iops phase (its first value) without a file of its own. */
static void s_matrix(struct lst_pts__ctx *c)
{
	const struct lst_rpt_matrix *m = lst_report_matrix(c->r, c->stem);
	struct lst_pts_block *b;
	const char **heads;

	if (!m && !c->value_index)
		m = lst_report_matrix(c->r, c->pg->phase);
	if (!m)
		return;
	heads = lst_calloc(m->nmix + 1, sizeof(*heads));
	heads[0] = "Block size (bytes)";
	for (size_t j = 0; j < m->nmix; j++)
		heads[j + 1] = m->mix[j];
	b = lst_pts__vtable(c, "IOPS Measurement Window Tabular Data", "matrix", m->nmix + 1,
			    heads);
	free(heads);
	for (size_t i = 0; i < m->nbs; i++) {
		b->cells = lst_realloc(b->cells, (b->nrows + 1) * b->ncols * sizeof(*b->cells));
		b->cells[b->nrows * b->ncols] = lst_pts__num(m->bs[i], "%.0f");
		for (size_t j = 0; j < m->nmix; j++)
			b->cells[b->nrows * b->ncols + j + 1] =
				lst_pts__num(m->iops[i * m->nmix + j], "%.1f");
		b->nrows++;
	}
	b->note = lst_asprintf("IOPS by block size and read/write mix (%% reads/%% writes), each "
			       "the average of the measurement window (%s).",
			       m->file);
	lst_pts__plot(c, "IOPS 2D Plot: IOPS by block size and read/write mix", "matrix", m->phase,
		      NULL);
}

static void s_iops(struct lst_pts__ctx *c)
{
	s_steady_all(c);
	lst_pts__each_value(c, s_matrix);
}

static void s_throughput(struct lst_pts__ctx *c)
{
	static const char *const heads[] = { "Test", "MB/s", "Window", "Verdict" };
	struct lst_pts_block *b;

	s_steady_all(c);
	b = lst_pts__table(c->pg, "Throughput Measurement Window Tabular Data", "throughput", 4,
			   heads);
	for (size_t i = 0; i < c->r->ntests; i++) {
		const struct lst_rpt_test *t = &c->r->tests[i];
		char phrase[160];

		if (strcmp(t->phase, c->pg->phase))
			continue;
		lst_steady_phrase(t->steady, t->rounds, t->window_first, t->window_last, t->stop,
				  t->capacity_multiple, phrase, sizeof(phrase));
		lst_pts__row(b, lst_strdup(t->test), lst_pts__num(t->average, "%.2f"),
			     lst_asprintf("%ld-%ld", t->window_first, t->window_last),
			     lst_strdup(phrase));
	}
	lst_pts__plot(c, "Throughput vs Time", "timeseries", c->pg->phase, NULL);
}

/* curves.csv's combined rows of the page's phase as a table (latency, ECW, DIRTH). */
static void s_curves(struct lst_pts__ctx *c, const char *title, const char *key)
{
	static const char *const heads[] = {
		"Threads",    "Queue depth", "Outstanding I/Os", "Block size (bytes)", "Read %",
		"IOPS",	      "MB/s",	     "Mean (us)",	 "p99 (us)",	       "p99.9 (us)",
		"p99.99 (us)"
	};
	struct lst_pts_block *b = lst_pts__table(c->pg, title, key, LST_ARRAY_SIZE(heads), heads);

	for (size_t i = 0; i < c->r->ncurves; i++) {
		const struct lst_rpt_curve *k = &c->r->curves[i];

		if (strcmp(k->phase, c->pg->phase))
			continue;
		lst_pts__row(b, lst_pts__num(k->jobs, "%.0f"), lst_pts__num(k->iodepth, "%.0f"),
			     lst_pts__num(k->jobs * k->iodepth, "%.0f"),
			     lst_pts__num(k->bs, "%.0f"), lst_pts__num(k->rwmixread, "%.0f"),
			     lst_pts__num(k->iops, "%.1f"), lst_pts__num(k->mbps, "%.2f"),
			     lst_pts__num(k->lat_mean, "%.2f"), lst_pts__num(k->lat_p99, "%.2f"),
			     lst_pts__num(k->lat_p99_9, "%.2f"),
			     lst_pts__num(k->lat_p99_99, "%.2f"));
	}
	b->note = lst_strdup("Each row averaged over the measurement window; percentiles from the "
			     "window's histograms merged over every path (curves.csv).");
}

static void s_latency(struct lst_pts__ctx *c)
{
	s_steady_all(c);
	s_curves(c, "Response Time Measurement Window Tabular Data", "latency");
	lst_pts__plot(c, "Response Time vs IOPS", "lat_vs_iops", c->pg->phase, NULL);
}

/* rounds.csv's rows of the page's phase. */
static void s_rounds(struct lst_pts__ctx *c, const char *title, const char *key, bool wsat)
{
	static const char *const wheads[] = { "Round",	   "Time (s)", "IOPS",
					      "Mean (us)", "Max (us)", "GB written" };
	static const char *const hheads[] = { "Wait state", "Burst",	 "Time (s)",
					      "IOPS",	    "Mean (us)", "Max (us)" };
	struct lst_pts_block *b = lst_pts__table(c->pg, title, key, 6, wsat ? wheads : hheads);

	for (size_t i = 0; i < c->r->nrounds; i++) {
		const struct lst_rpt_round *x = &c->r->rounds[i];

		if (strcmp(x->phase, c->pg->phase))
			continue;
		if (wsat)
			lst_pts__row(b, lst_asprintf("%ld", x->round), lst_pts__num(x->t_s, "%.3f"),
				     lst_pts__num(x->iops, "%.1f"),
				     lst_pts__num(x->lat_mean, "%.2f"),
				     lst_pts__num(x->lat_max, "%.2f"),
				     lst_pts__num(x->bytes_written / 1e9, "%.3f"));
		else
			lst_pts__row(b, lst_strdup(x->test), lst_asprintf("%ld", x->round),
				     lst_pts__num(x->t_s, "%.3f"), lst_pts__num(x->iops, "%.1f"),
				     lst_pts__num(x->lat_mean, "%.2f"),
				     lst_pts__num(x->lat_max, "%.2f"));
	}
}

static void s_wsat(struct lst_pts__ctx *c)
{
	lst_pts__plot(c, "WSAT IOPS vs Time and vs Total GB Written", "wsat", c->pg->phase, NULL);
	s_rounds(c, "WSAT Tabular Data", "wsat", true);
	s_steady_all(c);
}

static void s_hir(struct lst_pts__ctx *c)
{
	lst_pts__plot(c, "HIR IOPS vs Time", "hir", c->pg->phase, NULL);
	s_rounds(c, "HIR Tabular Data: IOPS per burst by wait state", "hir", false);
}

static void s_ecw(struct lst_pts__ctx *c)
{
	s_steady_all(c);
	s_curves(c, "ECW Demand Intensity Tabular Data", "intensity");
	lst_pts__plot(c, "ECW Demand Intensity Plot: Response Time vs IOPS", "lat_vs_iops",
		      c->pg->phase, NULL);
}

static void s_dirth(struct lst_pts__ctx *c)
{
	s_steady_all(c);
	s_curves(c, "DIRTH Demand Intensity Tabular Data", "intensity");
	lst_pts__plot(c, "DIRTH Demand Intensity Plot: Response Time vs IOPS", "lat_vs_iops",
		      c->pg->phase, NULL);
	lst_pts__dirth(c);
}

static void s_xsr(struct lst_pts__ctx *c)
{
	lst_pts__plot(c, "XSR Throughput vs Time", "timeseries", c->pg->phase, NULL);
	lst_pts__xsr(c);
}

static const struct {
	const char *suite;
	void (*body)(struct lst_pts__ctx *c);
} s_bodies[] = {
	{ "snia-iops", s_iops },       { "snia-throughput", s_throughput },
	{ "snia-latency", s_latency }, { "snia-wsat", s_wsat },
	{ "snia-hir", s_hir },	       { "snia-xsr", s_xsr },
	{ "snia-ecw", s_ecw },	       { "snia-dirth", s_dirth },
};

/* --- pages ----------------------------------------------------------------------------------- */

static void s_page(struct lst_pts__ctx *c, size_t phase, const char *title)
{
	const struct lst_rpt_phase *ph = &c->r->phases[phase];
	lst_pts *p = c->p;

	p->pages = lst_realloc(p->pages, (p->npages + 1) * sizeof(*p->pages));
	c->pg = &p->pages[p->npages++];
	memset(c->pg, 0, sizeof(*c->pg));
	c->pg->phase = lst_strdup(ph->name);
	c->pg->suite = lst_strdup(ph->suite);
	c->pg->title = title;
	c->phase = phase;
	c->pp = NULL;
	for (size_t i = 0; c->plan && i < c->plan->nphases; i++)
		if (!strcmp(c->plan->phases[i].name, ph->name))
			c->pp = &c->plan->phases[i];
	lst_pts__head(c);
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_bodies); i++)
		if (!strcmp(s_bodies[i].suite, ph->suite))
			s_bodies[i].body(c);
	lst_pts__deviations(c);
}

lst_pts *lst_pts_new(const lst_report *r, const struct lst_plot_list *made, lst_err *err)
{
	struct lst_pts__ctx c = { .r = r, .made = made, .err = err, .value = "" };
	lst_err perr; /* a plan that does not load: the pages go with what the model keeps */

	lst_err_clear(err);
	c.p = lst_calloc(1, sizeof(*c.p));
	c.p->run_id = lst_strdup(r->run_id);
	c.p->plan_name = lst_strdup(r->plan_name);
	c.plan = lst_report_plan_load(r, &perr);
	for (size_t i = 0; i < r->nphases; i++)
		for (size_t k = 0; k < LST_ARRAY_SIZE(s_tests); k++)
			if (!strcmp(r->phases[i].suite, s_tests[k].suite))
				s_page(&c, i, s_tests[k].title);
	lst_plan_destroy(&c.plan);
	if (err->code) {
		lst_pts_destroy(&c.p);
		return NULL;
	}
	if (!c.p->npages) {
		lst_err_set(
			err, -ENOENT,
			"%s: no SNIA PTS test in the folder (no phase of suite snia-iops, "
			"snia-throughput, snia-latency, snia-wsat, snia-hir, snia-xsr, snia-ecw "
			"or snia-dirth)",
			r->dir);
		lst_pts_destroy(&c.p);
	}
	return c.p;
}

static void s_block_free(struct lst_pts_block *b)
{
	for (size_t i = 0; i < b->ncols; i++)
		free(b->heads[i]);
	for (size_t i = 0; i < b->nrows * b->ncols; i++)
		free(b->cells[i]);
	free(b->heads);
	free(b->cells);
	free(b->title);
	free(b->key);
	free(b->plot);
	free(b->note);
}

void lst_pts_destroy(lst_pts **pp)
{
	lst_pts *p = pp ? *pp : NULL;

	if (!p)
		return;
	for (size_t i = 0; i < p->npages; i++) {
		struct lst_pts_page *pg = &p->pages[i];

		for (size_t k = 0; k < pg->nfields; k++) {
			free(pg->fields[k].key);
			free(pg->fields[k].value);
		}
		for (size_t k = 0; k < pg->nblocks; k++)
			s_block_free(&pg->blocks[k]);
		for (size_t k = 0; k < pg->ndev; k++)
			free(pg->dev[k]);
		free(pg->fields);
		free(pg->blocks);
		free(pg->dev);
		free(pg->phase);
		free(pg->suite);
	}
	free(p->pages);
	free(p->run_id);
	free(p->plan_name);
	free(p);
	*pp = NULL;
}
