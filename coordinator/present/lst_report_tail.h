/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the tail comes from, in `lockstep report`: for every point with two paths or more (two
 * agents, or an agent with several paths), which path, agent and direction made the I/Os above
 * the point's combined p99 and p99.9 (and above `--tail-limit`), in which intervals, and
 * whether other paths had their tails in the same intervals (a shared cause, such as the drive)
 * or none did (one host, HBA or port). The maths is lst_tail.h's; the histograms are the
 * samples files' (the CSV files keep percentiles, not buckets), read twice through the caller's
 * reader (lst_export_samples_fn: this library links no wire codec): once for each point's
 * merged histogram, which sets its thresholds, once for each path's intervals.
 *
 * Shown as lines under each point in the text ("    p99.9 exceedances (over 41.9 ms, 16 I/Os):
 * b:/dev/sdc 83% (intervals 410-415, also on a:/dev/sdb); ..."), the point's `tail` array in
 * `--json`, a list under "Tail attribution" in the HTML page, and written as tail.csv.
 */
#ifndef LST_REPORT_TAIL_H
#define LST_REPORT_TAIL_H

#include <stdint.h>
#include <stdio.h>

#include "lst_err.h"
#include "lst_export.h"
#include "lst_report.h"
#include "lst_report_sections.h"
#include "lst_tail.h"

typedef struct lst_report_tail lst_report_tail;

/*
 * The attribution of every point of r with two paths or more, from its agents' samples files
 * read through samples (an agent without one adds nothing), with limit_ns as a third threshold
 * (0: none). Returns the caller's object (lst_report_tail_destroy; hand it to r->tail for the
 * report's sections), or NULL with err: the plan does not load, a samples file cannot be read.
 */
lst_report_tail *lst_report_tail_load(const lst_report *r, lst_export_samples_fn samples,
				      uint64_t limit_ns, lst_err *err);

/* Frees *p and nulls it; safe on NULL and twice. */
void lst_report_tail_destroy(lst_report_tail **p);

/* The attribution of a point, borrowed; NULL when it has none (one path, no samples). */
const lst_tail *lst_report_tail_point(const lst_report_tail *rt, const char *phase, long point);

/* How many points have an attribution. */
size_t lst_report_tail_count(const lst_report_tail *rt);

/*
 * tail.csv at path (docs/results.md): per point and threshold, a row per path, agent and
 * direction with its share, then a row per path and interval with exceedances. Returns 0 or
 * -errno with err naming the file.
 */
int lst_report_tail_write_csv(const lst_report_tail *rt, const char *path, lst_err *err);

/* The report's sections: lines under each point (text), the point's `tail` (JSON), a list after
 * the points table (HTML). Nothing for a point without an attribution. */
void lst_report_tail_print(FILE *f, const struct lst_report_view *v);
void lst_report_tail_json(const struct lst_report_view *v, json_t *o);
void lst_report_tail_html(FILE *f, const struct lst_report_view *v);

#endif
