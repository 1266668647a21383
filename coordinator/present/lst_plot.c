/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plots: lst_plot_report draws a report's plots family by family, in the order of s_families;
 * each family is its own file behind that small table (lst_plot_int.h): latency vs IOPS
 * (lst_plot_lat.c, with several runs overlaid), timeseries (lst_plot_ts.c), steady state
 * (lst_plot_steady.c), WSAT (lst_plot_wsat.c), HIR (lst_plot_hir.c), DIRTH's histograms
 * (lst_plot_dirth.c) and the bar charts, IOPS
 * matrix and port scaling (lst_plot_bars.c); the comparison's charts of every run are
 * lst_plot_compare.c.
 *
 * Each plot is made in three steps: gather its series from the lst_report (grouping, sorting,
 * thinning long timeseries), write NAME.gp (datablocks first, then one pass per output format
 * that sets the terminal and draws), and run gnuplot on it in the output folder. A plot that
 * fails is reported and the others are still drawn; plots never decide a run's outcome.
 *
 * The fixed text of each family is a template in plots/ (lst_plot_tpl.h); the scripts' common
 * parts and the gnuplot process are in lst_plot_script.c.
 */
#include "lst_plot.h"
#include "lst_plot_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_util.h"

/* The IOPS matrices of a report, one plot each. */
static void s_matrices(struct lst_plot__ctx *c, const lst_report *r)
{
	for (size_t i = 0; i < r->nmatrices; i++)
		lst_plot__matrix(c, r, &r->matrices[i]);
}

/* Which phases' timeseries rows a family reads into a view: a suite's, an HIR's (the whole
 * phase's timeseries reads the file as it writes, lst_plot_ts.c). */
static bool s_ts_suite(const struct lst_rpt_phase *ph)
{
	return *ph->suite;
}

static bool s_ts_hir(const struct lst_rpt_phase *ph)
{
	return !strcmp(ph->suite, "snia-hir");
}

/* The families in the order their plots are made (and listed): per phase or per report. */
static const struct lst_plot__family s_families[] = {
	{ "lat_vs_iops", lst_plot__lat_vs_iops, NULL, NULL },
	{ "lat_paths", lst_plot__lat_paths, NULL, NULL },
	{ "timeseries", lst_plot__timeseries, NULL, NULL },
	{ "timeseries parts", lst_plot__ts_parts, NULL, s_ts_suite },
	{ "steady", NULL, lst_plot__steady, NULL },
	{ "wsat", lst_plot__wsat, NULL, NULL },
	{ "hir", lst_plot__hir, NULL, s_ts_hir },
	{ "dirth", lst_plot__dirth, NULL, NULL },
	{ "matrix", NULL, s_matrices, NULL },
	{ "ports", lst_plot__ports, NULL, NULL },
};

/* The family's plots of phase ph; those that read the timeseries get a view holding the
 * phase's rows, read for them alone (a long run's rows are never all in memory). */
static void s_family_phase(struct lst_plot__ctx *c, const struct lst_plot__family *fam,
			   const lst_report *r, const struct lst_rpt_phase *ph)
{
	lst_report view;
	lst_err err;

	if (!fam->reads_ts || !fam->reads_ts(ph)) {
		fam->phase(c, r, ph);
		return;
	}
	if (lst_report_ts_view(r, ph->name, &view, &err)) {
		lst_log_warn("plots of phase %s: %s", ph->name, err.msg);
		return;
	}
	fam->phase(c, &view, ph);
	lst_report_ts_view_exit(&view);
}

int lst_plot_report(const lst_report *r, const char *outdir, struct lst_plot_list *made,
		    lst_err *err)
{
	struct lst_plot__ctx c;
	int rc = lst_plot__ctx_init(&c, outdir, r->dir, made, err);

	if (rc)
		return rc;
	for (size_t k = 0; k < LST_ARRAY_SIZE(s_families); k++) {
		const struct lst_plot__family *fam = &s_families[k];

		for (size_t i = 0; fam->phase && i < r->nphases; i++)
			s_family_phase(&c, fam, r, &r->phases[i]);
		if (fam->report)
			fam->report(&c, r);
	}
	return lst_plot__ctx_exit(&c);
}

int lst_plot_all(const char *dir, lst_report_plan_fn plan, lst_err *err)
{
	lst_report *r = lst_report_load(dir, plan, err);
	char *out;
	int rc;

	if (!r)
		return err ? err->code : -EINVAL;
	out = lst_asprintf("%s/plots", dir);
	rc = lst_plot_report(r, out, NULL, err);
	free(out);
	lst_report_destroy(&r);
	return rc;
}
