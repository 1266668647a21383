/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results folder: the contract that other tools, `lockstep report` and people read.
 *
 *   run.json                  the plan as run, versions, agents (clock offset, rtt), targets
 *                             with every path's identity, phases and points with their start
 *                             instants and skew, errors. Rewritten (atomically) now and then
 *                             (the caller rate-limits it), and at the end.
 *   points.jsonl              the journal: one line per finished point (and phase end), what
 *                             run.json and summary.json say of it, fdatasync'ed: always current
 *   plan.yaml                 the plan file, verbatim
 *   clock.csv                 every clock exchange with every agent (t1..t4), as they happen
 *   samples/AGENT.msgpack     every SAMPLE frame from AGENT exactly as received, appended as
 *                             they arrive: a stream of msgpack maps (proto/PROTOCOL.md)
 *   timeseries.csv            one row per measured interval: agent=all, then one per agent
 *   summary.csv, summary.json one row per phase x point over its measured window
 *   devstats.csv              one row per agent x block-device path x measured interval: the
 *                             device's own counters (created with its first row)
 *
 * Rows are written and flushed as the run goes. A write that fails is kept, not printed:
 * lst_results_failed() says what failed first, so the caller can end the run once with it.
 */
#ifndef LST_RESULTS_H
#define LST_RESULTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_merge.h"
#include "lst_sample.h"
#include "lst_workload.h"

typedef struct lst_results lst_results;

/* The CSV files' columns (names, order, formats) are in lst_columns.h, shared with the reader. */

/*
 * Create the folder (it must not exist, or be empty) with its CSV headers. Returns NULL with err.
 */
lst_results *lst_results_new(const char *dir, lst_err *err);
void lst_results_destroy(lst_results **p);

/*
 * `lockstep resume`: open the folder of an interrupted run to append to it. Every append-only
 * file is first cut back to sizes (a journal entry's "sizes"; NULL: no point was journaled, so
 * the CSV files keep their header only), files sizes does not name are removed, and a last
 * journal line cut short is dropped, so what the kept points wrote stays byte for byte.
 * tests (borrowed, may be NULL) are summary.json's verdicts so far (its points are read from
 * the journal). NULL with err.
 */
lst_results *lst_results_reopen(const char *dir, json_t *sizes, json_t *tests, lst_err *err);

const char *lst_results_dir(const lst_results *r);

/*
 * The first write into the folder that failed ("results folder DIR: writing timeseries.csv
 * failed: No space left on device (-28)"), or NULL while every write has worked. Borrowed.
 */
const lst_err *lst_results_failed(const lst_results *r);

/*
 * lst_results_mark remembers how far timeseries.csv and samples/ go; lst_results_rewind cuts them
 * back to there (a sample file begun since then to nothing). A point that runs again
 * (on_agent_loss: retry) leaves no row or sample of the attempt that was stopped. clock.csv is
 * kept whole: its exchanges are true whatever the points did. A failed cut is kept as the
 * folder's failure.
 */
void lst_results_mark(lst_results *r);
void lst_results_rewind(lst_results *r);

/* Write a file in the folder (e.g. plan.yaml). Returns 0 or -errno with err. */
int lst_results_write_file(lst_results *r, const char *name, const char *text, size_t len,
			   lst_err *err);

/*
 * Append a received SAMPLE frame to samples/AGENT.msgpack. Returns 0 or -errno. Like the rows
 * of timeseries.csv, devstats.csv and clock.csv it is buffered: lst_results_flush, or any other
 * file's write, puts it on disk.
 */
int lst_results_raw(lst_results *r, const char *agent, const uint8_t *frame, size_t len,
		    lst_err *err);

/*
 * Flush what the per-sample files hold (samples/AGENT.msgpack first, then timeseries.csv,
 * devstats.csv and clock.csv), so that a row never reaches the disk before the frames it
 * counts. The coordinator calls it once per wake-up, after dispatching every message waiting:
 * records reach the disk as soon as before, in one write per file instead of one per record.
 * A failed write becomes the folder's failure (lst_results_failed). r may be NULL.
 */
void lst_results_flush(lst_results *r);

/*
 * One clock exchange with agent, appended to clock.csv: t1 our send, t2 its receive, t3 its
 * send (its monotonic ns), t4 our receive (ours). Kept on disk, not in run.json, since a
 * day-long run makes hundreds of thousands of them.
 */
void lst_results_clock(lst_results *r, const char *agent, int64_t t1, int64_t t2, int64_t t3,
		       int64_t t4);

/* Rates of one row: per direction, I/Os and 10^6 bytes per second. */
struct lst_rates {
	double iops[LST_DIR_N];
	double mbps[LST_DIR_N];
	double trim_iops, trim_mbps;
};

/* Rates of one agent's sample over its own interval length. */
void lst_rates_of(const lst_sample *s, struct lst_rates *out);

/*
 * Whose row: `scope` is "all" (agent "all"), "agent" (an agent's), "target" (agent "*", the
 * target's paths together) or "path" (one path of an agent); target and path are "" unless the
 * scope names them.
 */
struct lst_row_who {
	const char *scope, *agent, *target, *path;
};

/*
 * One timeseries row. t_s is seconds since the run started on the coordinator's clock; rates as
 * computed by the caller (for `all`, the sum of the agents' rates); dir gives the latency
 * histograms (both directions merged for the combined latency columns, each apart for the
 * per-direction ones at the end of the row); h the health block, v the verify block (NULL
 * writes 0s, as for a row that verified nothing).
 */
void lst_results_row(lst_results *r, const char *phase, size_t point, int64_t k, double t_s,
		     const char *agent, const struct lst_rates *rates,
		     const struct lst_dir_stats dir[LST_DIR_N], const struct lst_sample_health *h,
		     const struct lst_sample_verify *v);

/* The same for any scope (lst_results_row is scope "all" or "agent"). */
void lst_results_row_of(lst_results *r, const char *phase, size_t point, int64_t k, double t_s,
			const struct lst_row_who *who, const struct lst_rates *rates,
			const struct lst_dir_stats dir[LST_DIR_N],
			const struct lst_sample_health *h, const struct lst_sample_verify *v);

/* One row of devstats.csv: a path's device counters over one measured interval. */
struct lst_devstat_row {
	const char *phase;
	size_t point;
	const char *label, *agent, *target, *path;
	const char *device; /* kernel name ("loop3", "sdb1"); "" when unknown */
	int64_t k;
	double t_s; /* the interval's start, on timeseries.csv's time base */
	const struct lst_devstat *d;
};

/* Append a row to devstats.csv (created, with its header, on the first row). */
void lst_results_devstat(lst_results *r, const struct lst_devstat_row *row);

/*
 * What the paths of a summary row ran, for summary.csv's workload block: each value the one
 * every path of the row ran, or none where they differ (paths of the row with roles of their
 * own) or it does not apply (rwmixread outside the mixes, bs with a bssplit, rw, bs and
 * rwmixread with a skew). Zeroed: no path added, every field none.
 */
struct lst_row_workload {
	size_t n;			      /* paths added */
	const char *rw;			      /* a name of lst_rw_names, or "" for none */
	int64_t bs, iodepth, jobs, rwmixread; /* -1 for none */
};

/* The row workload of one path that ran w; w NULL: a path that ran no workload (a purge's
 * discards), every field none. */
void lst_row_workload_of(struct lst_row_workload *o, const struct lst_workload *w);

/* Add the paths of x to o (a value they do not all share becomes none). */
void lst_row_workload_add(struct lst_row_workload *o, const struct lst_row_workload *x);

/*
 * One summary row (and its JSON object, which gets `extra` merged in; extra is stolen). test and
 * round (0 = none) go into the trailing CSV columns, w (borrowed; NULL: not known) into the
 * workload block.
 */
void lst_results_summary(lst_results *r, const char *phase, size_t point, const char *label,
			 const char *agent, double t_s, const struct lst_merge_totals *t,
			 const char *test, size_t round, const struct lst_row_workload *w,
			 json_t *extra);

/* The same for any scope (lst_results_summary is scope "all" or "agent"). */
void lst_results_summary_of(lst_results *r, const char *phase, size_t point, const char *label,
			    const struct lst_row_who *who, double t_s,
			    const struct lst_merge_totals *t, const char *test, size_t round,
			    const struct lst_row_workload *w, json_t *extra);

/*
 * Replace run.json with doc (borrowed), atomically (write a temporary file, rename). Its
 * "phases" are those of the points points.jsonl holds (each entry's "run"), then doc's own
 * "phases", the points not journaled yet: a run's points live in the journal, not in memory,
 * so the coordinator's memory stays flat however long the run. final: the
 * run's last run.json, which must say how the run ended even on a full disk: it gets the room
 * .reserve kept (created with the folder), and when even that is too little, it is written
 * without its phases[] ("phases_in": "points.jsonl": readers take them from the journal).
 */
int lst_results_write_run(lst_results *r, json_t *doc, bool final, lst_err *err);

/*
 * Write summary.json from the rows and verdicts so far (also done by destroy): the journaled
 * points' rows (each entry's "summary"), then those not journaled yet, then the verdicts. Neither this nor
 * lst_results_test rewrites it on its own: the caller decides when (rate-limited, since it grows
 * with the run; points.jsonl is what is current).
 */
int lst_results_flush_summary(lst_results *r, lst_err *err);

/* A round of a suite test: one row of rounds.csv. Strings are borrowed. */
struct lst_round_row {
	const char *phase, *suite, *test;
	size_t round; /* 1-based */
	double t_s;   /* start, seconds since the run started */
	double value; /* the tracked variable's value */
	const char *tracked;
	double iops, mbps, lat_mean_us, lat_max_us;
	uint64_t bytes_written; /* by the phase so far */
};

/* One row of rounds.csv (created on the first row). r may be NULL (nothing is written). */
void lst_results_round(lst_results *r, const struct lst_round_row *row);

/* A steady-state verdict for summary.json "tests" (stolen). */
void lst_results_test(lst_results *r, json_t *test);

/* What a step measured, combined over every agent (measured intervals only). */
struct lst_step_part;

struct lst_step_result {
	double iops[LST_DIR_N];
	double mbps[LST_DIR_N];
	uint64_t ios[LST_DIR_N];
	uint64_t bytes[LST_DIR_N];
	double seconds;
	lst_hist lat;		     /* both directions */
	lst_hist lat_dir[LST_DIR_N]; /* each apart: lat is their sum, bucket by bucket */
	double t_s;		     /* start, seconds since the run started */
	bool partial;		     /* an agent was lost */
	uint64_t discarded;	     /* a purge: the bytes of the paths' regions it discarded */
	/* the rows of scope target and path (lst_row_who), when the run has them: on the heap,
	 * the holder's (who copies a result copies them, lst_step_parts_dup); NULL when none */
	size_t nparts;
	struct lst_step_part *parts;
};

/* One target's or one path's share of a step's result. */
struct lst_step_part {
	struct lst_row_who who; /* the strings live as long as the run */
	double iops[LST_DIR_N];
	double mbps[LST_DIR_N];
	uint64_t ios[LST_DIR_N];
	uint64_t bytes[LST_DIR_N];
	double seconds;
	lst_hist lat;		     /* both directions */
	lst_hist lat_dir[LST_DIR_N]; /* each apart */
};

/* A copy of parts[n] on the heap (NULL for none). */
struct lst_step_part *lst_step_parts_dup(const struct lst_step_part *parts, size_t n);

/*
 * Rows of curves.csv (created on the first row): a latency-vs-IOPS point, scope all, then one
 * row for each of res's parts (its targets and paths) with the same workload columns. The
 * combined latency columns come from lat, the per-direction ones from lat_dir.
 */
void lst_results_curve(lst_results *r, const char *phase, size_t point,
		       const struct lst_workload *w, const struct lst_step_result *res,
		       int64_t rate_iops, double target_pct);

/* What a matrix's cells are: the window they average and the verdict on it. */
struct lst_matrix_window {
	bool steady;	     /* the criteria passed on the window */
	size_t first, last;  /* 1-based rounds of the window */
	const char *verdict; /* "NOT steady after 12 rounds (round limit)" (lst_steady_phrase) */
};

/* matrix.csv and matrix.md: IOPS per block size (rows) and read/write mix (columns);
 * iops[b * nmix + m], each the window average of its point. matrix.csv ends each row with
 * the companion columns steady (true/false) and window ("8-12"); matrix.md says them in a
 * line under its heading. A second call for another phase appends a section to matrix.md and
 * writes matrix-PHASE.csv. */
void lst_results_matrix(lst_results *r, const char *phase, const int64_t *bs, size_t nbs,
			const int64_t *mix, size_t nmix, const double *iops,
			const struct lst_matrix_window *win);

/*
 * points.jsonl, the journal: append entry (borrowed; it gets "sizes" set, the byte size of every
 * append-only file of the folder now, see lst_results_sizes) as one line, and fdatasync it.
 * Cheap and flat in the run's length, unlike rewriting run.json and summary.json: the journal
 * is always current, those two may be behind. docs/results.md describes the entries.
 */
int lst_results_journal(lst_results *r, json_t *entry, lst_err *err);

/*
 * {"timeseries.csv": N, "summary.csv": N, "clock.csv": N, "samples/a.msgpack": N, ...}: the
 * sizes of the folder's append-only files that exist (rounds.csv, curves.csv and matrix.md
 * too; integrity.csv with verify), after flushing them. New reference. integrity/journal.jsonl is
 * not among them: a resume keeps it whole (what it says was written was written), as clock.csv.
 */
json_t *lst_results_sizes(lst_results *r);

/* summary.json's "points" not journaled yet, and its "tests" so far. Borrowed. */
json_t *lst_results_points(const lst_results *r);
json_t *lst_results_tests(const lst_results *r);

/* The points so far are in points.jsonl now: forget their summary rows (they are read back
 * from the journal when summary.json is written). */
void lst_results_journaled(lst_results *r);

/*
 * Every entry of DIR/points.jsonl, in order: a JSON array (new reference; empty when there is
 * no journal). A last line cut short (a killed run, a full disk) is skipped with a warning;
 * any other bad line is an error: NULL with err naming the file and line.
 */
json_t *lst_results_read_journal(const char *dir, lst_err *err);

/* Called with each journal entry (borrowed: freed after the call; json_incref to keep it).
 * Returns 0 to go on, else stops the walk with that value. */
typedef int (*lst_results_journal_fn)(json_t *entry, void *arg);

/*
 * The same walk one entry at a time, holding one line's entry in memory (a journal
 * of a long run is tens of MB as JSON objects). warn: warn about a last line cut short (false
 * on a second walk of the same file). Returns 0 (also when there is no journal), fn's non-zero
 * value, or -errno / -EINVAL with err as lst_results_read_journal.
 */
int lst_results_walk_journal(const char *dir, bool warn, lst_results_journal_fn fn, void *arg,
			     lst_err *err);

/* Latency statistics of a histogram as a JSON object in microseconds. New reference. */
json_t *lst_results_lat_json(const lst_hist *h);

#endif
