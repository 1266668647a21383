/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency-vs-IOPS curves of a phase of a report, as the plots draw them and the headline
 * figures (lst_figures.h) read them: its points read from the report model and grouped by the
 * curves' maths (lst_curves.h, coordinator/measure), each curve named for its legend. The
 * plots, the headlines and the report share it, so they speak of the same curves.
 */
#ifndef LST_REPORT_CURVES_H
#define LST_REPORT_CURVES_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_curves.h"
#include "lst_headline.h"
#include "lst_report.h"

/*
 * The curves of phase into cs (appended; sorted; named): paths false, the combined ones
 * (curves.csv rows of scope all, or a plain phase's summary points); paths true, those of
 * curves.csv's rows of scope path. Returns the number of points added. A phase that sweeps
 * `ports` has none: its points are port sets, not rising demand, and a line through them would
 * read as a curve (the ports plot draws them as bars).
 */
size_t lst_curves_phase(const lst_report *r, const char *phase, bool paths, struct lst_curves *cs);

/*
 * The limit the headlines of phase use: the user's (r->headline_limit_us), the plan's curve
 * limit, else 1000 us. *from (may be NULL) gets "option" (report --limit), "plan" or "default".
 */
double lst_headline_limit(const lst_report *r, const char *phase, const char **from);

/* A limit as people say it: "1 ms", "500 us", "1.5 ms". Returns buf. */
const char *lst_headline_limit_text(double us, char *buf, size_t size);

/*
 * A curve's headline figures as the text report prints them: "IOPS at p99 < 1 ms: 182,400
 * (interpolated between QD 16 and QD 32); p99.9: ...; p99.99: ..."; a bandwidth curve's
 * "MB/s: 7,928 (the highest measured, QD 8; p99 there 2179 us)". Returns buf.
 */
const char *lst_headline_text(const struct lst_headline *h, char *buf, size_t size);

#endif
