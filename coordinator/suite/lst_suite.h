/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Suites: what a phase runs, step by step, and what its results mean.
 *
 * Every phase, plain or SNIA, is run through this module. A suite turns a phase into tests; a
 * test is a list of points (workloads) run in rounds; a round runs every point of the test once.
 * The scheduler asks for the next step, runs it on every agent at one instant, and feeds the
 * combined result back; the suite decides what comes next: the next point, another round (until
 * SNIA steady state, a round limit, or a capacity written), the next test, or the end. At the end
 * of the phase the suite writes what the suite produces: rounds.csv rows, steady-state verdicts
 * (summary.json "tests": the verdict, why the rounds ended, each point's window average),
 * curves.csv, and the IOPS matrix with its window and verdict; a purge, a precondition and a
 * capacity- or byte-bounded plain phase record what they did instead (bytes, capacity multiple,
 * time, rate).
 *
 * Built-in suites and their defaults (every one overridable from the plan: `workload:` keys
 * the phase gives win over the suite's base, `sweep:` over a grid option (bs, rwmixread, jobs,
 * iodepth) replaces a suite's grid, `round:` its round length, `steady:` its window and limits,
 * `stop:` its capacity):
 *
 *   purge            BLKDISCARD (BLKSECDISCARD with secure: true) over each path's share
 *   precondition     sequential 128 KiB writes, QD 32, until 2x capacity (split across paths)
 *   snia-iops        random, mixes 100/0 95/5 65/35 50/50 35/65 5/95 0/100 (read/write %) x bs
 *                    1024k 128k 64k 32k 16k 8k 4k, 16 jobs x QD 16, 1-minute points; rounds until
 *                    the 4 KiB 0/100 point's IOPS is steady; IOPS matrix over the window
 *   snia-throughput  sequential 1024k then 128k, write then read, 1 job x QD 32, 1-minute rounds,
 *                    each until its MB/s is steady
 *   snia-latency     1 job x QD 1, bs 4k 8k x mixes 100/0 70/30 0/100, 1-minute points; rounds
 *                    until the 4 KiB 0/100 point's mean latency is steady
 *   snia-wsat        4 KiB random write, 1-minute rounds until 4x capacity or max_rounds
 *                    (default 360), IOPS and latency per round against time and bytes written
 *   snia-hir         for each gap (5 10 15 25 50 s): `repeats` x (5 s burst of 4 KiB random write
 *                    + idle gap), with `continuous` writing between gap sizes
 *   lat-vs-iops      jobs 1 2 4 x QD 1 2 4 8 16 32, 5 s ramp + 30 s rounds of the whole grid
 *                    until the heaviest point's IOPS is steady; curves averaged over the window
 *   curve            open loop: a max-rate point, then points at 10 50 70 80 90 100 % of that
 *                    rate, stopping early when the latency limit is passed
 *   snia-xsr         seq 1024k writes, rnd 8k writes, seq 1024k again (8h 6h 6h) in 1-minute
 *                    intervals; the time segment 3 takes to come back to segment 1's MB/s
 *   snia-ecw         the spec's bs mix and access ranges at 40/60 over jobs x QD 1..32, rounds
 *                    until the 32 x 32 point's IOPS is steady; curves averaged over the window
 *   snia-dirth       random 8k 65/35 over the same grid, then a 10-minute histogram run at the
 *                    max-IOPS, two mid and the min-latency points (lst_dirth.h)
 *   (none)           the phase's sweep points; with `steady:` rounds of all points until the
 *                    round's combined value is steady
 *
 * A sweep over any other option (pattern, size, offset, rw...: lst_plan_phase_values) is an
 * outer loop: the suite runs its whole grid, rounds and verdicts once per value, each value's
 * own, and names the value in what it writes: test names ("iops size=8m"), point labels
 * ("size=8m bs=4k rwmixread=0"), summary.json tests ("value"), the matrix and the per-phase
 * files (xsr-PHASE-size=8m.json, as docs/results.md says).
 *
 * Averages over a steady window add the window rounds' I/Os and histograms, so percentiles
 * there too come from merged histograms.
 */
#ifndef LST_SUITE_H
#define LST_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_hist.h"
#include "lst_plan.h"
#include "lst_results.h"
#include "lst_workload.h"

/* One step: one point run on every agent at one instant. */
struct lst_step {
	char test[64];	       /* test within the phase ("iops", "bs=1m write", "gap=5s") */
	size_t round;	       /* 1-based round of the test, 0 when the test has no rounds */
	size_t index;	       /* point within the test */
	char label[160];       /* the point, e.g. "bs=4k rwmixread=0" */
	struct lst_workload w; /* for the whole target: the scheduler splits it across paths */
	uint32_t action;       /* enum lst_action */
	double stop_capacity;  /* stop after this multiple of the target's capacity; 0 = none */
	int64_t idle_after;    /* ns without I/O after the step (HIR gaps) */
	const struct lst_port_set *ports; /* paths taking part (a `ports` sweep); NULL: all */
	size_t repeat, repeats; /* the scheduler's: run `repeat` of `repeats` (`repeat:`), 0 once */
};

/* struct lst_step_result, what a step measured, is in lst_results.h (the results own it). */

typedef struct lst_suite_run lst_suite_run;

/*
 * The suite of a phase. capacity is the size in bytes of the phase's targets together: WSAT
 * stops once the bytes written to them all reach its multiple.
 * Returns NULL with err when the phase cannot run (e.g. an empty grid after overrides).
 */
lst_suite_run *lst_suite_new(const lst_plan *plan, size_t phase, uint64_t capacity, lst_err *err);
void lst_suite_destroy(lst_suite_run **p);

/* The next step, or false when the phase is over. */
bool lst_suite_next(lst_suite_run *s, struct lst_step *step);

/* The result of the step last handed out. */
void lst_suite_result(lst_suite_run *s, const struct lst_step *step,
		      const struct lst_step_result *r, lst_results *res);

/*
 * End of the phase: steady-state verdicts, curves, matrix into the results; one line per test to
 * progress (may be NULL). Returns false when a test that needed steady state did not reach it
 * (a finding, not an error: the run still succeeds).
 */
bool lst_suite_finish(lst_suite_run *s, lst_results *res, FILE *progress);

/* Expected duration of the whole phase in ns (rounds counted once), 0 when unknown. */
int64_t lst_suite_estimate(const lst_suite_run *s);

/* What the phase's points do to its targets (enum lst_access bits): the disk-safety check made
 * before the run starts asks the agents for exactly this. */
uint32_t lst_suite_access(const lst_suite_run *s);

/*
 * How many step results the suite holds now (each three histograms, about 48 KB): at most the
 * phase's points x (steady-state window + 1), however many rounds have run.
 */
size_t lst_suite_kept(const lst_suite_run *s);

/* True when some test of the phase repeats rounds (so the estimate is per round). */
bool lst_suite_has_rounds(const lst_suite_run *s);

/* Where the current test's rounds stand (live metrics): rounds done, the steady-state window
 * and round limit, whether steady state is reached; rounds 0 and steady false for a test
 * without rounds. */
struct lst_suite_progress {
	char test[64];
	size_t rounds, window, max_rounds;
	bool steady;
};
void lst_suite_progress(const lst_suite_run *s, struct lst_suite_progress *out);

#endif
