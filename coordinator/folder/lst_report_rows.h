/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rows of the results folder's CSV files as the report model holds them: one struct per
 * file (summary.csv, rounds.csv, curves.csv, timeseries.csv). The column tables (lst_columns.c)
 * name the field each column fills, so they need these layouts and nothing else of the model
 * (lst_report.h), and the model needs nothing of the tables to declare them.
 */
#ifndef LST_REPORT_ROWS_H
#define LST_REPORT_ROWS_H

#include <stdbool.h>

/* One summary row (summary.csv, joined with its summary.json object by phase, point, agent). */
struct lst_rpt_point {
	const char *phase, *label, *agent;
	const char *scope, *target, *path; /* "" in folders that predate them */
	const char *test;  /* the suite's test ("points" in plain phases, "" when unknown) */
	const char *name;  /* label without the test and round the writer puts in it:
			    * "iops: bs=4k rwmixread=0 round 3" is "bs=4k rwmixread=0" */
	long point, round; /* round 0 when the point has no rounds */
	long repeat,
		repeats; /* run `repeat` of `repeats` of a repeated point (`repeat:`), else 0 */
	long line;	 /* in summary.csv */
	double t_s, duration_s;
	double iops[2], mbps[2];					   /* read, write */
	double lat_mean, lat_p50, lat_p99, lat_p99_9, lat_p99_99, lat_max; /* us */
	double lat_p99_dir[2];	/* read, write p99 (us); NAN in older folders or without such I/O */
	double lat_mean_dir[2]; /* read, write mean (us); the same */
	double errors;
	/* the 4 KiB units a verifying read found ok, pending, unwritten, bad (summary.csv's
	 * verify block); NAN in folders that predate it */
	double verify[4];
	bool partial; /* run.json says an agent was lost in this point */
};

/* One rounds.csv row. */
struct lst_rpt_round {
	const char *phase, *test, *tracked;
	long round;
	double t_s, value, iops, mbps, lat_mean, lat_max, bytes_written;
};

/* One curves.csv row. rate_iops and target_pct are NAN when absent. */
struct lst_rpt_curve {
	const char *scope;		   /* "" in folders that predate it */
	const char *agent, *target, *path; /* "" when absent (combined rows, older folders) */
	const char *phase;
	long point;
	double jobs, iodepth, bs, rwmixread, iops, mbps;
	double lat_mean, lat_p99, lat_p99_9, lat_p99_99, rate_iops, target_pct;
	double lat_p99_dir[2]; /* read, write p99 (us); NAN in older folders or without such I/O */
};

/* One timeseries.csv row. */
struct lst_rpt_ts {
	const char *phase, *agent;
	const char *scope;	   /* "" in folders that predate it */
	const char *target, *path; /* of target and path rows; "" otherwise */
	long point, interval;
	double t_s, iops[2], mbps[2], lat_mean, lat_p99;
	double lat_p99_dir[2]; /* read, write p99 (us); NAN in older folders or without such I/O */
};

#endif
