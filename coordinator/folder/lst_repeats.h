/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The repeats of a point (`repeat: N` in a plan) read back: each figure's mean and 95% Student t
 * interval over them (lst_noise.h), for `lockstep report` (text and --json, through
 * lst_report_repeats.h in the presentation library), for repeats.csv, which `lockstep run`
 * writes next to summary.csv, and for a comparison's noise verdicts.
 *
 * The figures are those of summary.csv's agent=all rows (lst_point_stats); a point's repeats are
 * its rows with the same phase, test and name and a repeat number (lst_rpt_point.repeat). A
 * point that was not repeated has none: its "interval" is unknown, never zero.
 */
#ifndef LST_REPEATS_H
#define LST_REPEATS_H

#include <jansson.h>
#include <stddef.h>

#include "lst_err.h"
#include "lst_noise.h"
#include "lst_report.h"

/* A figure of a point: its name in files (summary.csv's column, or the sum of read and write)
 * and in text, and how it is read from a row. */
struct lst_point_stat {
	const char *key, *head;
	double (*get)(const struct lst_rpt_point *p);
};

extern const struct lst_point_stat lst_point_stats[];
extern const size_t lst_point_nstats;

/* The index of the figure named key in lst_point_stats; asserted to exist. */
size_t lst_point_stat_index(const char *key);

/*
 * The agent=all rows of point p's repeats, in run order, into rows (room for max); returns how
 * many (0 when p was not repeated).
 */
size_t lst_repeats_rows(const lst_report *r, const struct lst_rpt_point *p,
			const struct lst_rpt_point **rows, size_t max);

/* Figure s (an index of lst_point_stats) of p over its repeats; n == 0 when it has none. */
void lst_repeats_noise(const lst_report *r, const struct lst_rpt_point *p, size_t s,
		       struct lst_noise *out);

/* Whether any point of r was repeated. */
bool lst_repeats_any(const lst_report *r);

/* Called with each repeated point p of r; arg is lst_repeats_each's. */
typedef void (*lst_repeats_fn)(const lst_report *r, const struct lst_rpt_point *p, void *arg);

/* Calls fn for each repeated point of r (its last repeat's row, as the tables show it), phase
 * by phase in the order the points first ran. */
void lst_repeats_each(const lst_report *r, lst_repeats_fn fn, void *arg);

/*
 * repeats.csv at path: one row per repeated point and figure (phase, test, point, repeats,
 * figure, mean, sd, ci95_low, ci95_high; docs/results.md). Returns 0 or -errno with err.
 */
int lst_repeats_write_csv(const lst_report *r, const char *path, lst_err *err);

/*
 * repeats.csv of the results folder dir (plan as for lst_report_load), when a point of it was
 * repeated. Returns 0 (also when none was), or -errno with err.
 */
int lst_repeats_write_dir(const char *dir, lst_report_plan_fn plan, lst_err *err);

#endif
