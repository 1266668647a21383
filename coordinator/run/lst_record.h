/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to lst_run: the run's record, one class with one owner (the orchestrator, lst_coord.c).
 * It holds what the run writes down: the results folder's writer (lst_results), run.json's
 * document with its phases, errors and retries, the entry of the point just run until it is
 * journaled into points.jsonl, the count of points recorded, the run's time base, the state of
 * a failed results folder and the rate limit of run.json's rewrites. The other files of run
 * reach that state only through these functions, never through its fields; what the record
 * writes about the agents (run.json's clock figures, a point's entry) is built by its callers
 * and handed over here.
 *
 * Not thread-safe: the coordinator's one thread owns it.
 */
#ifndef LST_RECORD_H
#define LST_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_identity.h"
#include "lst_results.h"
#include "lst_suite.h"
#include "lst_util.h"

typedef struct lst_record lst_record;

/* A record of no folder yet (the probe's stays so). Never NULL. */
lst_record *lst_record_new(void);
/* Free the record, its writer and its documents; *p becomes NULL. Safe on NULL and twice. */
void lst_record_destroy(lst_record **p);

/* The results folder is dir (taken: the record frees it). Before lst_record_open. */
void lst_record_set_dir(lst_record *r, char *dir);
/* The results folder's path (borrowed; NULL for the probe). */
const char *lst_record_dir(const lst_record *r);
/* Make the results folder and its writer. 0, or -errno with err (an existing non-empty folder,
 * a permission, ...). */
int lst_record_open(lst_record *r, lst_err *err);
/* Reopen an interrupted run's folder (lst_results_reopen: sizes and tests are its journal's).
 * 0, or -errno with err. */
int lst_record_reopen(lst_record *r, json_t *sizes, json_t *tests, lst_err *err);
/* The writer: borrowed, NULL before lst_record_open or lst_record_reopen (and in the probe). */
lst_results *lst_record_results(const lst_record *r);

/* run.json's document (taken); it gets an "errors" and a "retries" array when it has none, and
 * its "phases" array is where lst_record_point appends. */
void lst_record_set_run(lst_record *r, json_t *run);
/* run.json's document, borrowed, for the caller to complete; NULL before lst_record_set_run. */
json_t *lst_record_run(const lst_record *r);
/* msg (copied) into run.json's errors; nothing before lst_record_set_run. */
void lst_record_error(lst_record *r, const char *msg);
/* The run has failed (an error of the run itself, not a loss the plan continues past): its
 * verdict, whatever was written down; lst_record_failed says so. */
void lst_record_fail(lst_record *r);
bool lst_record_failed(const lst_record *r);
/* A retry's entry (taken) into run.json's retries. */
void lst_record_retry(lst_record *r, json_t *retry);

/* A point was recorded: pj (taken) into run.json's phases, and its journal entry (taken) kept
 * until lst_record_take_pending, in place of one never journaled. */
void lst_record_point(lst_record *r, json_t *pj, json_t *entry);
/* The entry of the point just recorded (the caller's now), NULL when none is pending. */
json_t *lst_record_take_pending(lst_record *r);
/* The pending entry is in the journal now: run.json's phases are read back from there, so the
 * document in memory drops them and memory stays flat. */
void lst_record_journaled(lst_record *r);
/* Points recorded, those of before a resume included. */
size_t lst_record_points(const lst_record *r);
/* A resume kept n points of the run it continues. */
void lst_record_set_points(lst_record *r, size_t n);

/* The run's time base: the coordinator's clock at the first start instant (0: none yet). */
int64_t lst_record_t0(const lst_record *r);
/* The first start instant (or, on a resume, the interrupted run's), t0: only the first sets it. */
void lst_record_set_t0(lst_record *r, int64_t t0);
/* coord_t (our clock, ns) in seconds since the time base. */
double lst_record_t(const lst_record *r, int64_t coord_t);

/* A write into the folder has failed and the run has been told: true from then on. */
bool lst_record_broken(const lst_record *r);
/* Mark it so; true the first time only (the caller says it once). */
bool lst_record_break(lst_record *r);
/* run.json and summary.json are due for a rewrite at now (our clock), or force. */
bool lst_record_docs_due(const lst_record *r, int64_t now, bool force);
/* A rewrite began at t and ended now: the next is not due before 10 times its cost has passed,
 * which keeps their cost under a tenth of the run's time whatever its length. */
void lst_record_docs_done(lst_record *r, int64_t t, int64_t now);

/* lst_record_json.c: the record's JSON formats, which need no run */

/* A path's identity as run.json's "targets" list it (new reference). */
json_t *lst_record_identity_json(const struct lst_path_identity *id);
/* A step as run.json's point shows it: test, round, workload, and which repeat (new
 * reference). rw is null with a skew and for a purge, as summary.csv's rw is empty then. */
json_t *lst_record_step_json(const struct lst_step *step);
/* A point's result as its journal entry's "result": rates, counts, time and its histograms in
 * hex, so a resume's suite sees what the run's would have (new reference). */
json_t *lst_record_result_json(const struct lst_step_result *r);
/* That "result" o back into r (every field set). 0, or -EINVAL with err when a histogram is
 * not one (a damaged journal). */
int lst_record_result_of(json_t *o, struct lst_step_result *r, lst_err *err);
/* The machine's boot id into buf ("" when unknown), so a resume knows whether our monotonic
 * clock is still the same. */
void lst_record_boot_id(char *buf, size_t size);

#endif
