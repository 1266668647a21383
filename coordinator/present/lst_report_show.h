/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep report` of one results folder (see lst_report_show.c): text to standard output, or
 * one JSON object; and the plots drawn, as a few lines or a JSON object.
 */
#ifndef LST_REPORT_SHOW_H
#define LST_REPORT_SHOW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "lst_err.h"
#include "lst_plot.h"
#include "lst_report.h"

/* The report of r as text, to standard output (the caller checks it with fflush). */
void lst_report_print(const lst_report *r);

/*
 * The closing summary of a run, as `lockstep run`, `resume` and `demo` print it at their end,
 * to f: per phase that has points, the points table `lockstep report` prints (a row per point,
 * then per agent of a run with several, per target and per path, each column as wide as its
 * widest cell) and the sections whose text slot is LST_SLOT_SCALING (lst_report_sections.h: the
 * port scaling of a phase that sweeps ports). Prints nothing when no phase has a point.
 */
void lst_report_print_summary(FILE *f, const lst_report *r);

/*
 * The same as one JSON object, written to f as json_dumps(JSON_INDENT(2) | JSON_PRESERVE_ORDER |
 * JSON_REAL_PRECISION(12)) prints it, and a newline, with tail's members (borrowed: "html",
 * "plots", ...) after the report's. The document is written a point at a time, never held whole,
 * so that its memory is one point's whatever the run's length. Returns 0, or -ENOMEM or -EIO
 * (the caller checks f with fflush too).
 */
int lst_report_json_write(FILE *f, const lst_report *r, json_t *tail);

/* What lst_plot_report or lst_plot_compare made in outdir (l; rc and err their result), as
 * text to standard output. */
void lst_report_print_plots(const char *outdir, const struct lst_plot_list *l, int rc,
			    const lst_err *err);

/* The same as JSON (new reference); asked false: plots were turned off (--no-plots). */
json_t *lst_report_plots_json(const char *outdir, const struct lst_plot_list *l, int rc,
			      const lst_err *err, bool asked);

/* One line saying what a steady-state verdict is, as the text and JSON reports give it
 * ("steady at round 7; window rounds 3-7: average ..."), into buf. */
void lst_report_verdict(const struct lst_rpt_test *t, char *buf, size_t size);

#endif
