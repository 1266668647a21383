/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The figures a lab quotes, computed once for the text report, `report --json` and the HTML
 * report (which must agree): the headline figures of latency-vs-IOPS curves, and how the agents
 * or paths of a point shared its work.
 *
 *   lst_figures_headlines  (lst_report_headline.c) for every curve of a phase (one per thread
 *                          count, or block size x mix): the highest IOPS at which p99, p99.9
 *                          and p99.99 stay under a latency limit, interpolated between measured
 *                          points and marked as such; for large blocks, the highest MB/s
 *   lst_figures_balance    (lst_report_balance.c) a point's share of I/Os and p99 per agent or
 *                          path
 *
 * Each reads its inputs from the report model and leaves the sums to the pure maths of
 * coordinator/measure (lst_headline.h, lst_balance.h).
 */
#ifndef LST_FIGURES_H
#define LST_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_balance.h"
#include "lst_headline.h"
#include "lst_report.h"

/*
 * The headline figures of every latency-vs-IOPS curve of phase (curves.csv's rows for it, else
 * its plain points), for limit_us (> 0). *out gets a new array (the caller frees it) of the
 * curves in the order the plots draw them. Returns their number; 0 (and *out NULL) when the
 * phase has no curve of 2 points or more (a curve of one point gets no headline).
 */
size_t lst_figures_headlines(const lst_report *r, const char *phase, double limit_us,
			     struct lst_headline **out);

/*
 * The latency limit a phase's headlines use when the user gives none: the plan's `curve:
 * limit` for the phase when it has one (run.json's plan text), else 1000 us (the 1 ms lab
 * figure).
 */
double lst_figures_default_limit(const lst_report *r, const char *phase);

/*
 * How the agents (paths false) or the paths (paths true) of point p (a combined row of
 * r->points) shared it: up to max items into out, in file order. Returns how many there are
 * (0 when the point has fewer than 2 such rows).
 */
size_t lst_figures_balance(const lst_report *r, const struct lst_rpt_point *p, bool paths,
			   struct lst_balance_item *out, size_t max);

#endif
