/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plots of a results folder, drawn by gnuplot.
 *
 * For each plot this module writes NAME.gp, a self-contained gnuplot script (the data is inline,
 * in datablocks), and runs `gnuplot NAME.gp` in the plots folder (fork and exec, never a shell,
 * stdin /dev/null, killed after LST_PLOT_TIMEOUT_S), which writes NAME.svg and NAME.png. The
 * scripts are kept so an engineer can change a range, a title or a style and run them again.
 *
 *   lat_vs_iops_PHASE     latency (log) against IOPS, a curve per block size x mix and per
 *                         statistic (mean, p99, p99.99), from curves.csv; for a plain sweep
 *                         phase without curves, from its summary points
 *   timeseries_PHASE      IOPS (total, read, write, per agent) and mean / p99 latency over the
 *                         phase's time, MB/s in a second panel for sequential or large blocks
 *   steady_PHASE_TEST     the SNIA steady-state window: per-round values, window average, the
 *                         +-10% band, the least-squares line over the window, the verdict
 *   wsat_PHASE            snia-wsat rounds: IOPS, mean and max latency against time and against
 *                         bytes written
 *   dirth_PHASE_PICK      snia-dirth: each selected point's response-time histogram (its
 *                         merged buckets on log axes, the percentiles marked), dirth-PHASE.json
 *   matrix_PHASE          the IOPS matrix (block size x read/write mix) as clustered bars
 *   compare_lat_vs_iops   (lst_plot_compare) several runs' latency-vs-IOPS curves overlaid
 *   compare_iops_PHASE, compare_wsat_PHASE, compare_matrix_PHASE   (lst_plot_compare_all,
 *                         lst_plot_compare.c) every run on the time series, WSAT and matrix
 *
 * PNG comes from the pngcairo terminal, or from png (libgd) when gnuplot lacks cairo; SVG from
 * the svg terminal. Text is drawn with `noenhanced`, so names with '_' or '^' print as written.
 */
#ifndef LST_PLOT_H
#define LST_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"
#include "lst_report.h"

#define LST_PLOT_TIMEOUT_S 120 /* one gnuplot process; a 20-hour timeseries takes a few s */

/* What was plotted: names without extension ("timeseries_randrw"), and whether drawn. */
struct lst_plot_list {
	size_t n;
	char **names;
	bool *drawn; /* the .svg and .png exist; false: only the .gp script was written */
};

void lst_plot_list_free(struct lst_plot_list *l);

/*
 * Every plot of r into outdir (created if needed). made (may be NULL) receives what was written.
 * Returns 0 when every plot was drawn; -ENOENT when gnuplot is missing (the scripts are still
 * written); otherwise the first failure (-errno, with gnuplot's own message in err) after
 * trying every other plot.
 */
int lst_plot_report(const lst_report *r, const char *outdir, struct lst_plot_list *made,
		    lst_err *err);

/*
 * The n runs' latency-vs-IOPS curves overlaid in outdir/compare_lat_vs_iops.{gp,svg,png}, each run
 * in its own line style, names labelling them. Returns 0, 1 when no run has anything to draw
 * (no script written), or as lst_plot_report.
 */
int lst_plot_compare(const lst_report *const *runs, const char *const *names, size_t n,
		     const char *outdir, struct lst_plot_list *made, lst_err *err);

/*
 * Every chart of a comparison of the n runs into outdir: lst_plot_compare's overlay, and with
 * every run on each chart the IOPS over time of each phase they share (compare_iops_PHASE), the
 * snia-wsat rounds (compare_wsat_PHASE) and the IOPS matrices (compare_matrix_PHASE;
 * lst_plot_compare.c). Returns as lst_plot_compare, 1 when nothing at all was drawn.
 */
int lst_plot_compare_all(const lst_report *const *runs, const char *const *names, size_t n,
			 const char *outdir, struct lst_plot_list *made, lst_err *err);

/*
 * A file-name part from free text (a phase or test name), as every plot and compare file is
 * named: [A-Za-z0-9.-] kept, runs of anything else become one '_', never empty, "." or "..".
 */
void lst_plot_slug(const char *in, char *out, size_t size);

/*
 * Redraw every plot of the results folder dir into dir/plots (plan reads its plan.yaml, as for
 * lst_report_load). Returns 0, -ENOENT when gnuplot is not installed (callers warn and go on:
 * plots never decide a run's outcome), or another -errno with err.
 */
int lst_plot_all(const char *dir, lst_report_plan_fn plan, lst_err *err);

#endif
