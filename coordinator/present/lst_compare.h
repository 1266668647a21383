/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep report A B C ...`: two or more results folders compared, point by point, against
 * the first (see lst_compare.c).
 *
 * Like is compared with like: a suite point whose test has a steady-state window is given as
 * the average of its rounds in that window (the basis "window", the figure the IOPS matrix and
 * curves.csv hold), any other suite point as its last round ("last round"), a repeated point as
 * the mean of its repeats ("mean of N repeats"), a plain phase's point as it is ("point"). Every
 * table (text, CSV, Markdown, JSON, HTML) shows the basis.
 *
 * Noise: where both a run and the first have repeats of a point, each figure is marked "within
 * noise" or "changed" by the test lst_noise.h names (LST_NOISE_TEST); without repeats "cannot
 * tell". A row's verdict is its IOPS figure's (MB/s moves with it at one block size).
 *
 * The model borrows the reports and names; it lives until lst_compare_destroy().
 */
#ifndef LST_COMPARE_H
#define LST_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"
#include "lst_noise.h"
#include "lst_report.h"

#define LST_COMPARE_MAX_RUNS 26 /* named A to Z */
#define LST_COMPARE_NSTATS 7	/* iops, mbps, mean, p99, p99.99, read p99, write p99 */

/* The figures compared, as lst_point_stats names them (summary.csv's columns). */
extern const char *const lst_compare_stats[LST_COMPARE_NSTATS];

/* One run's figures for a point: on basis (NULL when the run lacks the point, the figures then
 * NAN); noise over its repeats (n 0 without). */
struct lst_compare_side {
	const struct lst_rpt_point *p;
	const char *basis;
	char basis_buf[32];
	double v[LST_COMPARE_NSTATS];
	struct lst_noise noise[LST_COMPARE_NSTATS];
};

/* A point of the comparison: each run's side, and each run's change and verdict against the
 * first run's (run 0's: NAN and cannot tell). */
struct lst_compare_row {
	const struct lst_rpt_point *p;	 /* the first run's that has it, for its names */
	struct lst_compare_side *side;	 /* [nruns] */
	double *change;			 /* [nruns * NSTATS], % */
	enum lst_noise_verdict *verdict; /* [nruns * NSTATS] */
};

typedef struct lst_compare {
	size_t nruns;
	const lst_report *const *runs;
	const char *const *names; /* how each run is labelled in tables and plots */
	size_t nrows;
	struct lst_compare_row *rows;
} lst_compare;

/*
 * The agent=all points of the n runs (2 .. LST_COMPARE_MAX_RUNS) matched by (phase, test, name):
 * the first run's order, then each next run's points the earlier lack. Borrows runs and names.
 */
lst_compare *lst_compare_new(const lst_report *const *runs, const char *const *names, size_t n);
void lst_compare_destroy(lst_compare **p);

/* The letter of run k ('A' + k). */
char lst_compare_letter(size_t k);

/* Whether r is a run that did not finish: run.json has no "finished", or a status other than
 * "complete". Its numbers may lack points or rounds; the comparison warns. */
bool lst_compare_unfinished(const lst_report *r);

/* The basis of row i: the one every side shares, else each side's ("A window, B last round").
 * Returns buf or a static string. */
const char *lst_compare_basis(const lst_compare *c, size_t i, char *buf, size_t size);

/* The runs that have row i's point, as letters ("ABC"). Returns buf. */
const char *lst_compare_match(const lst_compare *c, size_t i, char *buf, size_t size);

/* compare.csv at path: one row per point, each figure of every run, each run's change from
 * the first in %, its noise verdict, the basis. Returns 0 or -errno with err. */
int lst_compare_write_csv(const lst_compare *c, const char *path, lst_err *err);

/* compare.md at path: per point one line per run. Returns 0 or -errno with err. */
int lst_compare_write_md(const lst_compare *c, const char *path, lst_err *err);

/* The name of the file lst_compare_write_matrix_csv writes for phase (compare_matrix-SLUG.csv,
 * SLUG the phase's name made safe for a file name), into buf. Returns buf. */
const char *lst_compare_matrix_file(const char *phase, char *buf, size_t size);

/* compare_matrix-PHASE.csv at path: for every later run with an IOPS matrix of phase, the ratio
 * run / first run of every cell (a row per run and block size). Returns 1 when the first run
 * or no later one has that matrix (nothing written), 0, or -errno with err. */
int lst_compare_write_matrix_csv(const lst_compare *c, const char *phase, const char *path,
				 lst_err *err);

/* The comparison as text, to standard output. */
void lst_compare_print(const lst_compare *c);

/* The same as one JSON object (new reference; the caller adds "dir" and "plots"). */
json_t *lst_compare_json(const lst_compare *c);

#endif
