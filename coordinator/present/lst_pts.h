/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SNIA PTS report of a results folder (`lockstep report DIR --pts`): one page per suite
 * test the folder ran (IOPS, throughput, latency, WSAT, HIR, XSR, ECW, DIRTH), in the layout of
 * the spec's report format (PTS 2.0.x, section "Reporting"; docs/suites.md says what was
 * followed): a header (sponsor, dates, the device, the test platform, the test's parameters,
 * preconditioning and steady-state settings), then the spec's plots and tables in its order and
 * under its names, and a box listing every parameter the plan changed from the spec's defaults.
 *
 * The pages are built once from the report model, plan.yaml and the suites' own files
 * (xsr-PHASE.*, dirth-PHASE.json) into plain text cells (lst_pts_new), then written by format:
 * HTML (lst_pts_html.c), Markdown (lst_pts_md.c) and PDF through headless Chromium's print of
 * the HTML (lst_pts_pdf.c). So the three say the same figures in the same words.
 */
#ifndef LST_PTS_H
#define LST_PTS_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"
#include "lst_plot.h"
#include "lst_report.h"

enum lst_pts_kind {
	LST_PTS_TABLE, /* heads and cells */
	LST_PTS_PLOT,  /* a plot of plots/ */
};

/* A plot or a table of a page, under the spec's name. */
struct lst_pts_block {
	enum lst_pts_kind kind;
	char *title; /* the spec's name: "Steady State Convergence Plot" */
	char *key;   /* a table's key within its page ("matrix", "window"), for scripts */
	size_t ncols, nrows;
	char **heads; /* [ncols] */
	char **cells; /* [nrows * ncols], "" for an empty cell */
	char *plot;   /* a plot's name in the plots folder, without extension */
	bool drawn;   /* its .svg exists (false: only its script, or no plot at all) */
	char *note;   /* said under the block, NULL for nothing */
};

/* A line of a page's header. */
struct lst_pts_field {
	const char *group; /* "Device under test", "Test platform", ... (static) */
	char *key, *value;
	bool given; /* the value is the plan's (`report:`), not measured or read from a device */
};

struct lst_pts_page {
	char *phase, *suite;
	const char *title; /* the test's name in the spec, "IOPS" (static) */
	size_t nfields;
	struct lst_pts_field *fields;
	size_t nblocks;
	struct lst_pts_block *blocks;
	size_t ndev;
	char **dev; /* deviations from the spec, one sentence each */
};

typedef struct lst_pts {
	char *run_id, *plan_name;
	size_t npages;
	struct lst_pts_page *pages;
} lst_pts;

/*
 * The PTS pages of r: one per phase whose suite is a PTS test, in run order. made is what
 * lst_plot_report drew (NULL: no plots, the plot blocks then say so). plan.yaml is read again
 * (for the settings the results files do not hold); a plan that does not parse leaves the
 * deviations it would give unsaid, with a line saying so. Returns the pages (the caller's,
 * lst_pts_destroy), or NULL with err: no PTS test in the folder (-ENOENT), or a suite file
 * that cannot be read, named with what is wrong.
 */
lst_pts *lst_pts_new(const lst_report *r, const struct lst_plot_list *made, lst_err *err);

/* Frees p and nulls it; safe twice and on NULL. */
void lst_pts_destroy(lst_pts **p);

/*
 * The pages as one self-contained HTML file at path (written aside, then renamed): inline CSS,
 * the drawn plots of plots_dir inlined as SVG, nothing fetched from elsewhere; every table
 * carries data-pts="PHASE/KEY" and every cell its column (data-col). Returns 0, or -errno with
 * err naming the file.
 */
int lst_pts_html_write(const lst_pts *p, const char *plots_dir, const char *path, lst_err *err);

/*
 * The same pages as Markdown at path (written aside, then renamed); plots are images linked as
 * plots_link/NAME.svg (a path relative to the file's folder, or absolute). Returns 0, or -errno
 * with err naming the file.
 */
int lst_pts_md_write(const lst_pts *p, const char *plots_link, const char *path, lst_err *err);

/*
 * The HTML file html printed to pdf by headless Chromium (`chromium --headless
 * --print-to-pdf`), with a profile of its own in a temporary folder removed afterwards.
 * Returns 0; -ENOENT when no chromium is installed (err says so: the caller warns and goes
 * on); or -errno with err (Chromium's last lines of output) when it failed or wrote nothing.
 */
int lst_pts_pdf_write(const char *html, const char *pdf, lst_err *err);

#endif
