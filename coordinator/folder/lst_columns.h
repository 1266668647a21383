/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The column tables of the results folder's CSV files: one table per file, the single owner of
 * its column names, their order, how the writer prints each value and which field of the
 * report's row the reader fills from it (as proto/lst_msg.c does for the wire).
 *
 *   timeseries.csv  one row per measured interval (lst_results_row)
 *   summary.csv     one row per phase x point x agent (lst_results_summary)
 *   clock.csv       one row per clock exchange (lst_results_clock)
 *   rounds.csv      one row per round of a suite test (lst_results_round)
 *   curves.csv      one row per latency-vs-IOPS point (lst_results_curve)
 *   devstats.csv    one row per agent x block-device path x measured interval: the device's own
 *                   counters (lst_results_devstat); lockstep report does not read it
 *   events.csv      one row per hook run (lst_results_event, lst_events.h)
 *   telemetry.csv   one row per changed numeric field of a collector (lst_telemetry_deltas)
 *   integrity.csv   one row per bad 4 KiB unit a verifying read found (lst_results_integrity)
 *   tail.csv        where each point's tail comes from, written by `lockstep report`
 *                   (lst_report_tail.c); nothing reads it back
 *
 * matrix.csv has one column per read/write mix, so it has no fixed table (lst_results_matrix,
 * and the reader's s_load_matrix, own its shape: "bs" then "R/W" columns).
 *
 * The writer fills one union lst_cell per column (indexed by the file's enum) and calls
 * lst_columns_write; the reader (lst_report.c) finds the columns by name, so files with more
 * columns, or older files without an optional one, still load.
 */
#ifndef LST_COLUMNS_H
#define LST_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lst_err.h"

/* How the writer prints a column. */
enum lst_col_type {
	LST_COL_WORD,	/* text as is (phase, agent, tracked: no ',' or '"' in them) */
	LST_COL_QUOTED, /* text, always quoted (label, test: free text) */
	LST_COL_INT,	/* signed integer */
	LST_COL_UINT,	/* unsigned integer */
	LST_COL_F3,	/* real, 3 decimals */
	LST_COL_F6,	/* real, 6 decimals */
	LST_COL_G,	/* real, shortest (%g) */
	LST_COL_F3E,	/* real, 3 decimals; NAN is written as an empty field (no value) */
	LST_COL_INTE,	/* signed integer; a negative one is written as an empty field (no value) */
};

/* What the report reader does with a column. */
enum lst_col_read {
	LST_READ_NO,   /* not read: the reader neither needs nor checks it */
	LST_READ_NAME, /* text that must not be empty, into a const char * */
	LST_READ_TEXT, /* text, may be empty, into a const char * */
	LST_READ_NUM,  /* a finite number into a double (empty is an error) */
	LST_READ_LONG, /* the same, into a long */
};

struct lst_column {
	const char *name;
	enum lst_col_type type;
	enum lst_col_read read;
	bool optional; /* read: files without the column (older ones) or an empty field give NAN */
	size_t off;    /* read: offset of the field in the reader's row struct */
};

struct lst_col_table {
	const char *file;
	const struct lst_column *cols;
	size_t ncols;
	/* The reader names the first missing column in file order (else text columns first):
	 * the order its messages have always had. */
	bool header_in_order;
};

/* One value of a row being written; the member is the column's type's. */
union lst_cell {
	const char *s;	      /* WORD, QUOTED */
	long long i;	      /* INT, INTE */
	unsigned long long u; /* UINT */
	double d;	      /* F3, F6, G */
};

/*
 * The per-direction latency block, the same fourteen columns at the end of timeseries.csv,
 * summary.csv and curves.csv (summary.csv then adds read_lat_count and write_lat_count): for
 * reads, then for writes, mean, p50, p99, p99.9, p99.99, p99.999 and max in us, each from that
 * direction's own merged histogram. A direction that did no I/O in the row has these fields
 * empty (F3E), not 0: "no value", where the combined set says 0.
 */
#define LST_DIR_LAT_STATS 7
#define LST_DIR_LAT_NCOLS (2 * LST_DIR_LAT_STATS)

/*
 * The health block at the end of timeseries.csv: errors_eio, errors_enospc,
 * errors_etimedout, errors_ebade, errors_other, timeouts, inflight, oldest_inflight_us, from
 * the row's merged lst_sample_health. summary.csv ends with the same block without inflight:
 * the error classes and timeouts summed over the point, and its largest oldest_inflight_us.
 */
#define LST_TS_HEALTH_NCOLS 8
#define LST_SUM_HEALTH_NCOLS 7

/*
 * The verify block after the health block, at the very end of timeseries.csv and
 * summary.csv: verify_ok, verify_pending, verify_unwritten, verify_bad, the 4 KiB units a
 * verifying read checked in the row (lst_sample_verify), summed; 0 where nothing was verified.
 */
#define LST_VERIFY_NCOLS 4

/*
 * The trim block after the verify block, at the very end of both files: trim_iops and
 * trim_mbps, the row's trims (discards) per second and 10^6 bytes discarded per second; 0
 * without trims. Trims are not in read_* or write_*.
 */
#define LST_TRIM_NCOLS 2

/*
 * The workload block after the trim block in summary.csv: rw, bs (bytes), iodepth, jobs and
 * rwmixread that the paths of the row ran (struct lst_row_workload), so a reader need not parse
 * the label. Empty where a value does not apply (rwmixread outside the mixes randrw and rw, bs
 * with a bssplit, rw, bs and rwmixread with a skew, all of them for a purge) or the row's paths
 * ran different values.
 */
#define LST_SUM_WORKLOAD_NCOLS 5

/*
 * The combined latency columns the first six leave out, at the very end of summary.csv:
 * lat_min_us, lat_p90_us, lat_p95_us and lat_p99_999_us, from the same merged histogram of
 * both directions.
 */
#define LST_SUM_LAT_MORE_NCOLS 4

enum lst_ts_col {
	LST_TS_PHASE,
	LST_TS_POINT,
	LST_TS_INTERVAL,
	LST_TS_T_S,
	LST_TS_AGENT,
	LST_TS_READ_IOPS,
	LST_TS_WRITE_IOPS,
	LST_TS_READ_MBPS,
	LST_TS_WRITE_MBPS,
	LST_TS_LAT_MEAN, /* the six latency columns, in the order of LST_LAT_COLS */
	LST_TS_SCOPE = LST_TS_LAT_MEAN + 6,
	LST_TS_TARGET,
	LST_TS_PATH,
	LST_TS_READ_LAT, /* the fourteen per-direction columns, as LST_DIR_LAT_COLS says */
	LST_TS_HEALTH = LST_TS_READ_LAT + LST_DIR_LAT_NCOLS, /* the health block, see below */
	LST_TS_VERIFY = LST_TS_HEALTH + LST_TS_HEALTH_NCOLS, /* the verify block */
	LST_TS_TRIM = LST_TS_VERIFY + LST_VERIFY_NCOLS,	     /* trim_iops, trim_mbps */
	LST_TS_N = LST_TS_TRIM + LST_TRIM_NCOLS,
};

enum lst_sum_col {
	LST_SUM_PHASE,
	LST_SUM_POINT,
	LST_SUM_LABEL,
	LST_SUM_AGENT,
	LST_SUM_T_S,
	LST_SUM_DURATION,
	LST_SUM_READ_IOPS,
	LST_SUM_WRITE_IOPS,
	LST_SUM_READ_MBPS,
	LST_SUM_WRITE_MBPS,
	LST_SUM_LAT_MEAN, /* six latency columns */
	LST_SUM_READ_IOS = LST_SUM_LAT_MEAN + 6,
	LST_SUM_WRITE_IOS,
	LST_SUM_READ_BYTES,
	LST_SUM_WRITE_BYTES,
	LST_SUM_ERRORS,
	LST_SUM_TEST,
	LST_SUM_ROUND,
	LST_SUM_SCOPE,
	LST_SUM_TARGET,
	LST_SUM_PATH,
	LST_SUM_READ_LAT, /* the fourteen per-direction columns */
	LST_SUM_READ_LAT_COUNT = LST_SUM_READ_LAT + LST_DIR_LAT_NCOLS,
	LST_SUM_WRITE_LAT_COUNT,
	LST_SUM_HEALTH,						/* the health block, see above */
	LST_SUM_VERIFY = LST_SUM_HEALTH + LST_SUM_HEALTH_NCOLS, /* the verify block */
	LST_SUM_TRIM = LST_SUM_VERIFY + LST_VERIFY_NCOLS,	/* trim_iops, trim_mbps */
	LST_SUM_WORKLOAD = LST_SUM_TRIM + LST_TRIM_NCOLS, /* rw, bs, iodepth, jobs, rwmixread */
	LST_SUM_LAT_MORE = LST_SUM_WORKLOAD + LST_SUM_WORKLOAD_NCOLS, /* min, p90, p95, p99.999 */
	LST_SUM_N = LST_SUM_LAT_MORE + LST_SUM_LAT_MORE_NCOLS,
};

enum lst_clock_col {
	LST_CLOCK_AGENT,
	LST_CLOCK_T1,
	LST_CLOCK_T2,
	LST_CLOCK_T3,
	LST_CLOCK_T4,
	LST_CLOCK_N
};

enum lst_rounds_col {
	LST_ROUNDS_PHASE,
	LST_ROUNDS_TEST,
	LST_ROUNDS_ROUND,
	LST_ROUNDS_T_S,
	LST_ROUNDS_VALUE,
	LST_ROUNDS_TRACKED,
	LST_ROUNDS_IOPS,
	LST_ROUNDS_MBPS,
	LST_ROUNDS_LAT_MEAN,
	LST_ROUNDS_LAT_MAX,
	LST_ROUNDS_BYTES_WRITTEN,
	LST_ROUNDS_SUITE,
	LST_ROUNDS_N,
};

enum lst_curves_col {
	LST_CURVES_PHASE,
	LST_CURVES_POINT,
	LST_CURVES_JOBS,
	LST_CURVES_IODEPTH,
	LST_CURVES_BS,
	LST_CURVES_RWMIXREAD,
	LST_CURVES_IOPS,
	LST_CURVES_MBPS,
	LST_CURVES_LAT_MEAN,
	LST_CURVES_LAT_P99,
	LST_CURVES_LAT_P99_9,
	LST_CURVES_LAT_P99_99,
	LST_CURVES_RATE_IOPS,
	LST_CURVES_TARGET_PCT,
	LST_CURVES_SCOPE,
	LST_CURVES_AGENT,
	LST_CURVES_TARGET,
	LST_CURVES_PATH,
	LST_CURVES_READ_LAT, /* the fourteen per-direction columns */
	LST_CURVES_N = LST_CURVES_READ_LAT + LST_DIR_LAT_NCOLS,
};

enum lst_dev_col {
	LST_DEV_PHASE,
	LST_DEV_POINT,
	LST_DEV_LABEL,
	LST_DEV_AGENT,
	LST_DEV_TARGET,
	LST_DEV_PATH,
	LST_DEV_DEVICE,
	LST_DEV_INTERVAL,
	LST_DEV_T_S,
	LST_DEV_READS, /* the eleven counters, in the order of struct lst_devstat */
	LST_DEV_READ_MERGES,
	LST_DEV_READ_SECTORS,
	LST_DEV_READ_MS,
	LST_DEV_WRITES,
	LST_DEV_WRITE_MERGES,
	LST_DEV_WRITE_SECTORS,
	LST_DEV_WRITE_MS,
	LST_DEV_IN_FLIGHT,
	LST_DEV_IO_MS,
	LST_DEV_QUEUE_MS,
	LST_DEV_N,
};

/* events.csv (lst_events.h); t_* are s from the point's start, empty where they do not apply. */
enum lst_ev_col {
	LST_EV_PHASE,
	LST_EV_POINT,
	LST_EV_LABEL,
	LST_EV_KIND,
	LST_EV_AGENT,
	LST_EV_HOOK,
	LST_EV_T_REQUESTED,
	LST_EV_T_START,
	LST_EV_T_END,
	LST_EV_LATE_MS,
	LST_EV_DURATION,
	LST_EV_REQUESTED_NS,
	LST_EV_START_NS,
	LST_EV_END_NS,
	LST_EV_STATUS,
	LST_EV_RESULT,
	LST_EV_ON_ERROR,
	LST_EV_TEXT,
	LST_EV_OUTPUT,
	LST_EV_N,
};

/* telemetry.csv (lst_events.h): before, after and delta are written as the JSON had them. */
enum lst_tm_col {
	LST_TM_PHASE,
	LST_TM_POINT,
	LST_TM_AGENT,
	LST_TM_COLLECTOR,
	LST_TM_FIELD,
	LST_TM_BEFORE,
	LST_TM_AFTER,
	LST_TM_DELTA,
	LST_TM_N,
};

/* integrity.csv (lst_integrity.h): one row per bad unit; *_t_s empty when unknown. */
enum lst_int_col {
	LST_INT_PHASE,
	LST_INT_POINT,
	LST_INT_TARGET,
	LST_INT_AGENT,
	LST_INT_PATH,
	LST_INT_OFFSET,
	LST_INT_KIND,
	LST_INT_EXP_GEN,
	LST_INT_EXP_AGENT,
	LST_INT_EXP_PATH,
	LST_INT_EXP_T_S,
	LST_INT_FOUND,
	LST_INT_FOUND_GEN,
	LST_INT_FOUND_AGENT,
	LST_INT_FOUND_PATH,
	LST_INT_FOUND_LBA,
	LST_INT_FOUND_T_S,
	LST_INT_N,
};

/* tail.csv (lst_report_tail.h): per point and threshold, a row per path, agent and direction,
 * then per path and interval; interval empty (< 0) on whole-point rows, hot_pct empty (NAN)
 * where it does not apply. */
enum lst_tail_col {
	LST_TC_PHASE,
	LST_TC_POINT,
	LST_TC_LABEL,
	LST_TC_THRESHOLD,
	LST_TC_THRESHOLD_US,
	LST_TC_BY,
	LST_TC_WHO,
	LST_TC_INTERVAL,
	LST_TC_IOS,
	LST_TC_SHARE_PCT,
	LST_TC_HOT_INTERVALS,
	LST_TC_HOT_PCT,
	LST_TC_ALSO_ON,
	LST_TC_VERDICT,
	LST_TC_N,
};

extern const struct lst_col_table lst_timeseries_table;
extern const struct lst_col_table lst_summary_table;
extern const struct lst_col_table lst_clock_table;
extern const struct lst_col_table lst_rounds_table;
extern const struct lst_col_table lst_curves_table;
extern const struct lst_col_table lst_devstats_table;
extern const struct lst_col_table lst_events_table;
extern const struct lst_col_table lst_telemetry_table;
extern const struct lst_col_table lst_integrity_table;
extern const struct lst_col_table lst_tail_table;

/* The header line of t: its names joined by ',', and a newline. */
void lst_columns_header(FILE *f, const struct lst_col_table *t);

/* One row of t: cells[t->ncols], each printed as its column's type says, and a newline. */
void lst_columns_write(FILE *f, const struct lst_col_table *t, const union lst_cell *cells);

/*
 * How many of t's columns a file has whose header line is `line` (its newline may follow):
 * columns are only ever added at the end of a table, so a file an older lockstep began has
 * t's first n, and the rows a resume appends to it must have those n only (lst_columns_write_n),
 * or the file would no longer read. Returns 0 with *n set, or -EINVAL with err naming t's file
 * when the header is not the first names of t (a newer version's file, or not ours).
 */
int lst_columns_count(const struct lst_col_table *t, const char *line, size_t *n, lst_err *err);

/* lst_columns_write of cells[0 .. n - 1] only, n <= t->ncols (lst_columns_count). */
void lst_columns_write_n(FILE *f, const struct lst_col_table *t, const union lst_cell *cells,
			 size_t n);

#endif
