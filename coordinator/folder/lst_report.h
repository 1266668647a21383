/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A results folder read back: the model `lockstep report` prints and the plots draw.
 *
 * lst_report_load() reads run.json, summary.csv (a chunk at a time, its rows kept) (+
 * summary.json when present), timeseries.csv (checked a chunk at a time, its rows kept out of
 * the model: lst_report_ts_view reads a phase's),
 * and whichever of rounds.csv, curves.csv, matrix.csv and matrix-PHASE.csv exist; points.jsonl
 * (the journal) where run.json's phases or summary.json's points are behind it
 * (docs/results.md describes every file). CSV columns are found by header name, so files with more columns still load. Every
 * problem is one error naming the file and, for CSV and JSON syntax, the line:
 * "r1/summary.csv:7: column write_iops: 'x' is not a number", "r1/run.json:3:14: ...".
 *
 * Everything is owned by the lst_report and lives until lst_report_destroy().
 */
#ifndef LST_REPORT_H
#define LST_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"
#include "lst_report_rows.h"

/* A steady-state verdict (summary.json "tests"). Numbers are NAN when the file lacks them. */
struct lst_rpt_test {
	const char *phase, *test, *suite, *tracked;
	long rounds, window, window_first, window_last; /* 1-based rounds; 0 when absent */
	double average, min, max, data_pct, slope_pct, slope, intercept;
	double data_limit, slope_limit; /* the file's limits, else the SNIA 20 and 10 */
	bool steady, max_rounds_hit;
	bool required;	/* steady state ends the test (false: WSAT, reported only) */
	double *values; /* per-round tracked value */
	size_t nvalues;
	int stop; /* why the rounds ended (enum lst_stop), -1 in folders that predate it */
	double bytes_written, capacity_multiple; /* NAN when absent */
	size_t nwindow;
	struct lst_rpt_window *win; /* each point's window average; none in older folders */
};

/* A point of a test averaged over the steady-state window (summary.json tests[].points). */
struct lst_rpt_window {
	const char *label;
	double iops, mbps, lat_mean, lat_p99, lat_p99_99; /* us */
};

/*
 * What a test without rounds did to its target (summary.json tests without a verdict): a purge
 * (did "discard"), a precondition or a capacity- or byte-bounded phase (did "write").
 */
struct lst_rpt_work {
	const char *phase, *test, *suite, *did;
	int stop;					/* enum lst_stop, -1 when unknown */
	double bytes, capacity_multiple, seconds, mbps; /* NAN when absent */
};

/*
 * matrix.csv (the first snia-iops phase's) or matrix-PHASE.csv: IOPS per block size (rows) and
 * read/write mix (columns, e.g. "70/30").
 */
struct lst_rpt_matrix {
	const char *phase; /* "" when no snia-iops phase is known for matrix.csv */
	char *file;	   /* the file's name */
	size_t nbs, nmix;
	double *bs; /* bytes */
	const char **mix;
	double *iops; /* [nbs * nmix], NAN where the file has no value */
	int steady;   /* the companion column steady: 1 true, 0 false, -1 absent (older folders) */
	long window_first, window_last; /* its window column ("8-12"), 0 when absent */
};

/* A phase, in the order it first appears (run.json phases, then summary rows). */
struct lst_rpt_phase {
	const char *name;
	const char *suite; /* "" when unknown or a plain phase */
	bool partial;	   /* a point was partial */
	bool sequential;   /* sequential (rw, suite) or some point uses bs >= 64 KiB */
};

struct lst_rpt_agent {
	const char *name, *address, *host, *version;
	long cores;			/* -1 when unknown */
	double clock_offset_us, rtt_us; /* NAN when unknown (agent never synced) */
	bool lost;
	const char *lost_why;
};

struct lst_report_tail;

typedef struct lst_report {
	char *dir;
	json_t *run;	 /* run.json; of each point (phases[]) only what the readers take:
			  * phase, point, label, start, start_t_s, start_skew_us, partial, the
			  * workload's rw, bs, iodepth, jobs, rwmixread, rate_iops and interval,
			  * and each agent's paths (lst_report.c, s_point_keys) */
	json_t *summary; /* summary.json, NULL when absent; its points only those with a failover
			  * window or dips, with what their lines read */
	const char *run_id, *plan_name, *plan_file, *status, *started, *finished, *coordinator;
	char *title; /* "plan NAME, target T (MODEL FW)" for plot titles */

	size_t nagents;
	struct lst_rpt_agent *agents;
	size_t nphases;
	struct lst_rpt_phase *phases;
	size_t npoints;
	struct lst_rpt_point *points; /* every summary row of scope all or agent, file order */
	size_t nparts;
	struct lst_rpt_point *parts; /* the rows of scope target and path, file order */
	size_t ntests;
	struct lst_rpt_test *tests;
	size_t nworks;
	struct lst_rpt_work *works; /* purges and bounded writes, file order */
	size_t nrounds;
	struct lst_rpt_round *rounds;
	size_t ncurves;
	struct lst_rpt_curve *curves; /* curves.csv rows of scope all (or none), file order */
	size_t ncurve_parts;
	struct lst_rpt_curve *curve_parts; /* its rows of scope target and path, file order */
	/* The timeseries rows of scope all and agent, and of scope target and path, in file
	 * order: none in the loaded model (they are most of a long run's folder), one phase's in
	 * a view (lst_report_ts_view). */
	size_t nts;
	struct lst_rpt_ts *ts;
	size_t nts_parts;
	struct lst_rpt_ts *ts_parts;
	void *ts_strs; /* a view's: the strings its rows point to */
	size_t nmatrices;
	struct lst_rpt_matrix *matrices; /* in phase order */

	/* The latency limit of every phase's headline figures (`report --limit`), in us; 0 (as
	 * loaded): each phase's own, lst_figures_default_limit(). Set by the caller. */
	double headline_limit_us;

	/* Where each point's tail comes from (coordinator/present/lst_report_tail.h), computed
	 * from the samples files by a caller that can decode them; NULL (as loaded): none shown.
	 * Set and owned by the caller, which destroys it after the report. */
	const struct lst_report_tail *tail;

	void *priv; /* tables and interned strings */
} lst_report;

/*
 * What plan.yaml says of one phase, for what the results files do not say (a run stopped
 * before a phase's verdict): its suite, whether it runs sequential I/O, its steady-state limits.
 */
struct lst_report_plan_phase {
	char *name;	   /* the caller's allocation (lst_strdup); the report takes it */
	const char *suite; /* a static name ("snia-iops"), NULL for a plain phase */
	bool sequential;   /* a sequential suite, or a plain phase with sequential rw */
	bool steady;	   /* the phase has steady: limits */
	double data_pct, slope_pct;
	double curve_limit_us; /* curve: limit (with limit_percentile), 0 when none */
};

/*
 * Reads plan text (path names it in messages) into *phases (lst_realloc'ed array of *n, taken
 * with the names it holds by the caller). Returns 0, or nonzero when the plan does not parse:
 * then nothing of it applies. The folder library links no plan parser (link.results_layers
 * checks it); the reader is the presentation's lst_report_plan_read() (lst_report_plan.h, which
 * calls lst_plan_parse), and the coordinator passes it.
 */
typedef int (*lst_report_plan_fn)(const char *text, size_t len, const char *path,
				  struct lst_report_plan_phase **phases, size_t *n);

/*
 * Read the results folder dir; plan (may be NULL: plan.yaml is then not read) reads its plan.yaml.
 * Returns the model (the caller's, lst_report_destroy), or NULL with err: "DIR: no such
 * folder", "DIR: not a results folder (no run.json)", or the first problem in a file, named
 * with its line.
 */
lst_report *lst_report_load(const char *dir, lst_report_plan_fn plan, lst_err *err);
void lst_report_destroy(lst_report **p);

/*
 * A view of r with the timeseries.csv rows of phase (NULL: every phase) in its ts and ts_parts,
 * read again from the file a chunk at a time, so that only one phase's rows are ever in memory
 * (as compact rows, their strings kept once). view is a shallow copy of r otherwise: it shares
 * r's tables and strings and must not outlive it. Returns 0, or -errno with err (the file
 * changed or cannot be read since lst_report_load checked it); lst_report_ts_view_exit frees
 * what the view owns, on success only.
 */
int lst_report_ts_view(const lst_report *r, const char *phase, lst_report *view, lst_err *err);
void lst_report_ts_view_exit(lst_report *view);

/*
 * Calls fn for every timeseries.csv row of phase, in file order, read again from the file a
 * chunk at a time so that no row outlives its call: the row and its strings are valid until fn
 * returns; part: a row of scope target or path (those a view keeps in ts_parts). The file is
 * read up to the phase's last row, as lst_report_load counted them. fn returns 0 to go on, 1 to
 * stop (then 0 is returned), or -errno with err. Returns 0, or -errno with err (as
 * lst_report_ts_view).
 */
int lst_report_ts_rows(const lst_report *r, const char *phase,
		       int (*fn)(const struct lst_rpt_ts *row, bool part, void *arg), void *arg,
		       lst_err *err);

/*
 * A file of the folder that only some sections of a report read (events.csv, telemetry.csv,
 * integrity.csv), loaded once by lst_report_load for every output that shows it. csv is NULL
 * when the file is missing (rc -ENOENT) or malformed (rc and err say why: the report shows the
 * rest and warns); col[i] is the column of the table's column i, by name (-1 when absent).
 */
struct lst_rpt_file {
	struct lst_csv *csv;
	int *col; /* [table->ncols], NULL with csv */
	int rc;
	lst_err err;
};

struct lst_col_table;

/* The loaded file of table t, one of lst_events_table, lst_telemetry_table and
 * lst_integrity_table (any other is a programming error). Borrowed from r. */
const struct lst_rpt_file *lst_report_file(const lst_report *r, const struct lst_col_table *t);

/* The phase named name, or NULL. */
const struct lst_rpt_phase *lst_report_phase(const lst_report *r, const char *name);

/* What plan.yaml says of the phase named name, or NULL (no plan.yaml, no reader, no phase). */
const struct lst_report_plan_phase *lst_report_plan_phase(const lst_report *r, const char *name);

/*
 * Indexes of the agent=all points of a phase to show, into idx (room for r->npoints): one per
 * (test, name), the last round's values, in the order the points first ran. Returns the count;
 * *rows_all says how many rows the phase has (rounds included).
 */
size_t lst_report_shown(const lst_report *r, const char *phase, size_t *idx, size_t *rows_all);

/* The steady-state verdict of a phase's test (the first when test is NULL), or NULL. */
const struct lst_rpt_test *lst_report_test(const lst_report *r, const char *phase,
					   const char *test);

/* Did the phase purge (a work record that discarded)? Its points then count no I/O. */
bool lst_report_purged(const lst_report *r, const char *phase);

/* The IOPS matrix of a phase, or NULL. */
const struct lst_rpt_matrix *lst_report_matrix(const lst_report *r, const char *phase);

/*
 * A workload value of run.json (wl, key): a number, or text (with size, "4k" through the size
 * parser); NAN if absent or not a number.
 */
double lst_report_wl_value(json_t *wl, const char *key, bool size);

#endif
