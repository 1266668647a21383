/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the results folder's writers share beyond lst_results.h: the files other than
 * lst_results.c writes (lst_events.c: events.csv, telemetry/, telemetry.csv; lst_integrity.c)
 * keep their write failures in the same place, so lst_results_failed says what failed first
 * whichever file it was; and a resume (lst_results_journal.c) hands the files it cut back to the
 * writer.
 */
#ifndef LST_RESULTS_INT_H
#define LST_RESULTS_INT_H

#include "lst_results.h"

/*
 * The second half of lst_results_reopen (lst_results_journal.c, which has cut every file back
 * to the journal's sizes): the writer of dir appending to its files, whose rows have cols[]
 * columns (timeseries, summary, rounds, curves, devstats); those of sizes' optional files that
 * exist are opened too. tests (may be NULL) is copied as summary.json's "tests" so far. Returns
 * the writer, or NULL with err.
 */
lst_results *lst_results__reopen(const char *dir, const size_t cols[5], json_t *sizes,
				 json_t *tests, lst_err *err);

/* The size of the first line of dir/name (its header), or -1 (no such file, or no whole line). */
long long lst_results__header_size(const char *dir, const char *name);

/* Keep a failed write of name (in the folder) as the folder's failure, unless one is kept. */
void lst_results__fail(lst_results *r, int code, const char *name);

#endif
