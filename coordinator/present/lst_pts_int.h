/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of the PTS pages share (lst_pts.c: the pages and the tests' plots and tables;
 * lst_pts_head.c: the header; lst_pts_dev.c: the deviations from the spec; lst_pts_suite.c: the
 * XSR and DIRTH files; lst_pts_block.c: cells, tables, plots and files, which the others use and
 * which uses none of them). Private to them.
 */
#ifndef LST_PTS_INT_H
#define LST_PTS_INT_H

#include <stdio.h>

#include "lst_plan.h"
#include "lst_pts.h"

struct lst_pts__ctx {
	const lst_report *r;
	const struct lst_plot_list *made; /* NULL: no plots */
	lst_plan *plan;			  /* plan.yaml parsed again, NULL when it did not parse */
	lst_pts *p;
	struct lst_pts_page *pg;	 /* the page being built */
	size_t phase;			 /* its phase, an index into r->phases */
	const struct lst_plan_phase *pp; /* its phase in the plan, NULL when unknown */
	lst_err *err;			 /* the first suite file that could not be read */
	/* the value of its value axes being written (lst_pts__each_value): its label ("" for a phase
	 * without value axes), its index, and the stem of its files' names */
	const char *value, *stem;
	size_t value_index;
};

/* --- lst_pts_block.c --- */

/* v printed with fmt (one double), or "" when it is not finite. The caller frees. */
char *lst_pts__num(double v, const char *fmt);

/* A table block added to the page, with its title, key and ncols column heads (copied). The
 * pointer is valid until the page's next block is added (the blocks are one array). */
struct lst_pts_block *lst_pts__table(struct lst_pts_page *pg, const char *title, const char *key,
				     size_t ncols, const char *const *heads);

/* A row of b->ncols cells (char *, taken; NULL: an empty cell). */
void lst_pts__row(struct lst_pts_block *b, ...);

/* A table of the value being written (c->value): its title and key name the value
 * (" (size=8m)", ":size=8m") when the phase runs its test once per value. */
struct lst_pts_block *lst_pts__vtable(struct lst_pts__ctx *c, const char *title, const char *key,
				      size_t ncols, const char *const *heads);

/*
 * Calls fn for the page's phase once per value of its value axes (once without any), with
 * c->value the value's label ("size=8m", "" without), c->value_index its index and c->stem the
 * name its files take: PHASE, or PHASE-VALUE with spaces turned to '-' and any character but
 * letters, digits and "=.+-%" to '_', as docs/results.md names them (Values of a suite phase).
 */
void lst_pts__each_value(struct lst_pts__ctx *c, void (*fn)(struct lst_pts__ctx *c));

/* A plot block: the plot FAMILY_slug(a)[_slug(b)] as lst_plot_report names it, with a note
 * when it was not made or not drawn. */
void lst_pts__plot(struct lst_pts__ctx *c, const char *title, const char *family, const char *a,
		   const char *b);

/* The file at path written by write(f, arg), aside first, then renamed over it. Returns 0, or
 * -errno with err naming the file. */
int lst_pts__write_file(const char *path, void (*fn)(FILE *f, const void *arg), const void *arg,
			lst_err *err);

/* --- the page's parts, called by lst_pts.c --- */

/* The page's header fields (lst_pts_head.c). */
void lst_pts__head(struct lst_pts__ctx *c);

/* The page's deviations from the spec (lst_pts_dev.c). */
void lst_pts__deviations(struct lst_pts__ctx *c);

/* XSR's and DIRTH's tables from their own files, xsr-PHASE.* and dirth-PHASE.json
 * (lst_pts_suite.c); a file that cannot be read sets c->err. */
void lst_pts__xsr(struct lst_pts__ctx *c);
void lst_pts__dirth(struct lst_pts__ctx *c);

#endif
