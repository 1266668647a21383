/*
 * `lockstep report A B`: two results folders compared, point by point (see lst_compare.c).
 */
#ifndef LST_COMPARE_H
#define LST_COMPARE_H

#include <jansson.h>
#include <stddef.h>

#include "lst_err.h"
#include "lst_report.h"

/* A point of run a and its match in run b; either may be NULL (a point only one run has). */
struct lst_compare_pair {
	const struct lst_rpt_point *a, *b;
};

/* The agent=all points of a and b, matched by (phase, test, name), in a's order then b's
 * points a lacks: an array of *n (the caller frees; it borrows the reports' points). */
struct lst_compare_pair *lst_compare_pairs(const lst_report *a, const lst_report *b, size_t *n);

/* compare.csv at path: one row per pair, each statistic of both runs and the change in %.
 * Returns 0 or -errno with err. */
int lst_compare_write_csv(const char *path, const struct lst_compare_pair *pairs, size_t n,
			  lst_err *err);

/* compare.md at path: the same as Markdown tables per phase, runs named na and nb. */
int lst_compare_write_md(const char *path, const lst_report *a, const lst_report *b, const char *na,
			 const char *nb, const struct lst_compare_pair *pairs, size_t n,
			 lst_err *err);

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
