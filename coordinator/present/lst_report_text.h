/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The words and numbers every output of a report shares: block sizes, mixes, figures with "-"
 * for no value, changes, point names, units, a steady-state window and a test's work as text,
 * and numbers and strings as JSON (null for no value), so the text report, --json, the HTML page
 * and the plots say the same thing the same way.
 */
#ifndef LST_REPORT_TEXT_H
#define LST_REPORT_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lst_report.h"

#define LST_REPORT_LABEL_MAX 96 /* widest label column of a text table (longer: cut) */

/*
 * "window average of rounds 1-2; NOT steady after 2 rounds (round limit)" for the IOPS matrix
 * (or any figure averaged over t's window): what the figures are and the verdict, into buf;
 * "window average (no steady-state verdict in this folder)" when t is NULL. Returns buf.
 */
const char *lst_report_window_text(const struct lst_rpt_test *t, char *buf, size_t size);

/*
 * "discarded 64 MiB (1.00x capacity) in 3.3 ms, 20257.2 MB/s" for a purge, "wrote ... ;
 * stopped: 0.5x capacity written (32 MiB)" for a bounded write. Returns buf.
 */
const char *lst_report_work_text(const struct lst_rpt_work *w, char *buf, size_t size);

/* Readable "4 KiB", "512 B", "1 MiB" for a block size in bytes. Returns buf. */
const char *lst_report_bs(double bs, char *buf, size_t size);

/* Read/write mix "70/30" from a read percentage. Returns buf. */
const char *lst_report_mix(double rwmixread, char *buf, size_t size);

/* v printed with the printf format fmt (one double), or "-" when it is not finite. Returns buf. */
const char *lst_report_fmt(double v, const char *fmt, char *buf, size_t size);

/* s as a JSON string, null when NULL or empty. New reference. */
json_t *lst_report_json_str(const char *s);

/* Change from a to b in percent, NAN when there is no base (a is 0 or either is not finite). */
double lst_report_change(double a, double b);

/* How a point is named in tables: its name, after its test when the phase has several.
 * Returns buf. */
const char *lst_report_point_text(const struct lst_rpt_point *p, bool several, char *buf,
				  size_t size);

/*
 * A finite number as JSON, or null (NAN for "unknown", and percentages relative to a zero
 * average, are not JSON numbers). New reference. The one helper for `report --json` and
 * `steady --json`.
 */
json_t *lst_report_json_num(double v);

/* The number under key in the JSON object o, NAN when it is absent, null or not a number. */
double lst_report_json_real(json_t *o, const char *key);

/* v rounded, with its thousands separated: "182,400", "1,209". Returns buf. */
const char *lst_report_thousands(double v, char *buf, size_t size);

/* Unit of a tracked variable or column ("IOPS", "MB/s", "us"), from its name. */
const char *lst_report_unit(const char *tracked);

/* s for a text column of width characters (3 or more; size > width): s itself when it fits,
 * else its start cut to end in "...", so a cut label says so, in buf. Returns s or buf. */
const char *lst_report_cell(const char *s, int width, char *buf, size_t size);

/* printf at the end of the string in buf (size bytes), cut short where it does not fit: for a
 * line built a clause at a time. */
void lst_report_addf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
