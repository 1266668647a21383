/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep report DIR --html`: the report of one results folder as one self-contained HTML
 * page (see lst_report_html.c).
 */
#ifndef LST_REPORT_HTML_H
#define LST_REPORT_HTML_H

#include <stdbool.h>

#include "lst_compare.h"
#include "lst_err.h"
#include "lst_plot.h"
#include "lst_report.h"

/* The plots the page embeds: what lst_plot_report made in dir (made NULL: plots were not
 * asked for, --no-plots), its result rc and err. */
struct lst_report_html_plots {
	const char *dir;
	const struct lst_plot_list *made;
	int rc;
	const lst_err *err;
};

/*
 * The report of r as one HTML file at path (written aside, then renamed): the run, agents,
 * devices and start skews, per phase its summary table (combined, agent, target and path rows,
 * read and write latency apart), headline figures, balance, port scaling, steady-state
 * verdicts, IOPS matrix and plots (NAME.svg inlined), errors and events, and the plan's text.
 * Nothing in it refers to anything outside the file. Returns 0, or -errno with err naming the
 * file.
 */
int lst_report_html_write(const lst_report *r, const char *path,
			  const struct lst_report_html_plots *plots, lst_err *err);

/*
 * Runs compared (lst_compare_new) as one HTML page at path, from lst_compare_json's figures
 * (those of compare.csv and compare.md): the runs side by side with a warning for one that did
 * not finish, per phase each point of every run with its change from run A and its noise
 * verdict, the IOPS matrix ratios, and the overlay plot (plots: as for lst_report_html_write).
 * Returns 0, or -errno with err naming the file.
 */
int lst_report_html_compare(const lst_compare *cmp, const char *path,
			    const struct lst_report_html_plots *plots, lst_err *err);

#endif
