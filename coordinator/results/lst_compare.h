/*
 * `lockstep report A B`: two results folders compared, point by point (see lst_compare.c).
 *
 * Like is compared with like: a suite point whose test has a steady-state window is given as
 * the average of its rounds in that window (the basis "window", the figure the IOPS matrix and
 * curves.csv hold), any other suite point as its last round ("last round"), a plain phase's
 * point as it is ("point"). Every table (text, CSV, Markdown, JSON) shows the basis.
 */
#ifndef LST_COMPARE_H
#define LST_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"
#include "lst_report.h"

#define LST_COMPARE_NSTATS 5 /* iops, mbps, lat_mean_us, lat_p99_us, lat_p99_99_us */

/* One run's figures for a point: on basis ("window", "last round", "point"; NULL when the run
 * lacks the point, the figures then NAN). */
struct lst_compare_side {
	const char *basis;
	double v[LST_COMPARE_NSTATS];
};

/* A point of run a and its match in run b; either may be NULL (a point only one run has). */
struct lst_compare_pair {
	const struct lst_rpt_point *a, *b;
	struct lst_compare_side sa, sb; /* what is compared: see the top of this file */
};

/* The agent=all points of a and b, matched by (phase, test, name), in a's order then b's
 * points a lacks: an array of *n (the caller frees; it borrows the reports' points). */
struct lst_compare_pair *lst_compare_pairs(const lst_report *a, const lst_report *b, size_t *n);

/* Whether r is a run that did not finish: run.json has no "finished", or a status other than
 * "complete". Its numbers may lack points or rounds; the comparison warns. */
bool lst_compare_unfinished(const lst_report *r);

/* compare.csv at path: one row per pair, each statistic of both runs and the change in %.
 * Returns 0 or -errno with err. */
int lst_compare_write_csv(const char *path, const struct lst_compare_pair *pairs, size_t n,
			  lst_err *err);

/* compare.md at path: the same as Markdown tables per phase, runs named na and nb. */
int lst_compare_write_md(const char *path, const lst_report *a, const lst_report *b, const char *na,
			 const char *nb, const struct lst_compare_pair *pairs, size_t n,
			 lst_err *err);

/* The name of the file lst_compare_write_matrix_csv writes for phase (compare_matrix-SLUG.csv,
 * SLUG the phase's name made safe for a file name), into buf. Returns buf. */
const char *lst_compare_matrix_file(const char *phase, char *buf, size_t size);

/* compare_matrix-PHASE.csv at path: the ratio b / a of every cell of two IOPS matrices. */
int lst_compare_write_matrix_csv(const char *path, const struct lst_rpt_matrix *m,
				 const struct lst_rpt_matrix *mb, lst_err *err);

/* The comparison as text, to standard output. */
void lst_compare_print(const lst_report *a, const lst_report *b, const char *na, const char *nb,
		       const struct lst_compare_pair *pairs, size_t n);

/* The same as one JSON object (new reference; the caller adds "dir" and "plots"). */
json_t *lst_compare_json(const lst_report *a, const lst_report *b, const char *na, const char *nb,
			 const struct lst_compare_pair *pairs, size_t n);

#endif
