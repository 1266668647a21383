/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SNIA PTS steady state: the verdict that ends a test's rounds.
 *
 * A test repeats its loop in rounds and tracks one variable per round (4 KiB random-write IOPS,
 * MiB/s, a latency). Over a measurement window of the last N rounds (5 in the spec, 4 in the
 * labs' reviews) the variable is steady when both
 *   data excursion:  max - min <= 20% of the window average, and
 *   slope excursion: |slope| x (N - 1) <= 10% of the window average,
 * where slope is the least-squares line through (round, value) over the window, so
 * |slope| x (N - 1) is how much the fitted line changes from the first round of the window to
 * the last. Values exactly on an edge pass.
 *
 * Edges in floating point: a criterion passes when excursion <= limit + LST_STEADY_REL_TOL x
 * |average|, a billionth of the average. That is far below anything a device or a clock can
 * resolve, and far above the rounding of a few thousand additions, so a series whose exact
 * arithmetic lands on the edge passes and one a measurable step over it fails.
 *
 * A window whose average is zero or negative is never steady: excursions are relative to the
 * average, and a zero (or, for counters, impossible negative) series means the device did
 * nothing, not that it settled. The criteria are still evaluated literally (an all-zero window
 * meets both, 0 <= 0), but reached stays false; lst_steady_explain() says why.
 *
 * Pure functions on caller memory; no allocation, no I/O. `lockstep steady` (lst_cmd_steady.c)
 * applies them to a column of numbers (read by lst_steady_read.h, in the folder library); the
 * run loop applies lst_steady_eval() after each round.
 */
#ifndef LST_STEADY_H
#define LST_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#define LST_STEADY_WINDOW 5	  /* SNIA PTS measurement window, rounds */
#define LST_STEADY_DATA_PCT 20.0  /* max - min, % of the average */
#define LST_STEADY_SLOPE_PCT 10.0 /* fitted change across the window, % of the average */
#define LST_STEADY_REL_TOL 1e-9	  /* edge tolerance, as a fraction of |average| */

struct lst_steady {
	bool reached;	    /* both criteria met on a full window with average > 0 */
	bool enough;	    /* n >= window */
	size_t rounds;	    /* n, the length of the series */
	size_t window;	    /* N, as asked */
	size_t first, last; /* window as 0-based indexes into the series (last = n-1) */
	double average, min, max;
	double data_excursion_pct;  /* (max - min) / average * 100 */
	double slope, intercept;    /* fitted line: intercept + slope * (i - first), per round */
	double slope_excursion_pct; /* |slope| * (N - 1) / average * 100 */
	bool data_ok, slope_ok;	    /* each criterion, literally, with the edge tolerance */
	double max_data_pct;	    /* the limits the verdict used, for reports */
	double max_slope_pct;
};

/*
 * Verdict over the last `window` values of values[0..n). max_data_pct default 20, max_slope_pct
 * default 10 (LST_STEADY_*_PCT).
 *
 * window >= 2 and limits >= 0 are the caller's to check (an assertion otherwise): they come from
 * flags and plans, which report their own errors. Values should be finite; a NaN makes both
 * criteria fail.
 *
 * With fewer than `window` values, enough and reached are false and the other fields describe
 * all n values (the window shrinks to what exists, the slope excursion spans n - 1 rounds), so
 * a report can still show them. With n == 0 every number is 0 and first == last == 0.
 *
 * The percentages are relative to the average; when the average is <= 0 they are 0 if their
 * numerator is 0 and +infinity otherwise (no meaningful ratio exists).
 */
void lst_steady_eval(const double *values, size_t n, size_t window, double max_data_pct,
		     double max_slope_pct, struct lst_steady *out);

/*
 * First round index at which steady state is reached when rounds arrive one by one (the run
 * stops there), or -1. That is the smallest i >= window - 1 for which
 * lst_steady_eval(values, i + 1, ...) reaches steady state.
 */
long lst_steady_first(const double *values, size_t n, size_t window, double max_data_pct,
		      double max_slope_pct);

/*
 * One line saying why a verdict is what it is, into buf: "need 5 rounds, have 3",
 * "data excursion 25.00% > 20%", "the window average is 0 ...", or, when reached,
 * "data excursion 3.10% <= 20%, slope excursion 1.20% <= 10%". Returns buf.
 */
const char *lst_steady_explain(const struct lst_steady *s, char *buf, size_t size);

/*
 * Why a test's rounds (or a capacity- or byte-bounded point) ended, as summary.json's
 * "stop_reason" names it: steady state reached, the round limit, a multiple of the target's
 * capacity written, a byte count written, the runtime over, the run interrupted before any of
 * those, or the work done (a purge, every point once).
 */
enum lst_stop {
	LST_STOP_STEADY,
	LST_STOP_ROUND_LIMIT,
	LST_STOP_CAPACITY,
	LST_STOP_BYTES,
	LST_STOP_RUNTIME,
	LST_STOP_INTERRUPTED,
	LST_STOP_DONE,
	LST_STOP_N
};
extern const char *const lst_stop_names[]; /* "steady", "round_limit", "capacity", ... */

/* The lst_stop named name, or -1 (an unknown or absent name). */
int lst_stop_find(const char *name);

/*
 * The verdict and its window in one phrase, the same in every output: "steady in rounds 8-12"
 * or "NOT steady after 12 rounds (round limit)" (the parenthesis says why the rounds ended when
 * it was not steady state: "round limit", "stopped at 4.0x capacity", "interrupted"). first and
 * last are the 1-based rounds of the window; stop is enum lst_stop or -1 (unknown: no
 * parenthesis). Returns buf.
 */
const char *lst_steady_phrase(bool steady, long rounds, long first, long last, int stop,
			      double capacity_multiple, char *buf, size_t size);

/*
 * Why a test stopped, for people: "stopped: 4.0x capacity written (1.0 GiB)", "stopped: 512 MiB
 * written (byte limit)", "stopped: round limit (12 rounds)", "stopped: steady state reached",
 * "stopped: runtime over", "stopped: the run was interrupted". bytes is what the test wrote
 * (< 0: unknown, left out), multiple that as a multiple of the capacity (NAN: unknown). Returns
 * buf; "" for LST_STOP_DONE and unknown reasons, which say nothing more than the figures.
 */
const char *lst_stop_text(int stop, long rounds, double bytes, double multiple, char *buf,
			  size_t size);

/*
 * lst_stop_text, or "" where the verdict's phrase (lst_steady_phrase) already says why the
 * rounds ended (steady state reached, the round limit): the words a line after that phrase adds.
 */
const char *lst_stop_after_phrase(int stop, long rounds, double bytes, double multiple, char *buf,
				  size_t size);

#endif
