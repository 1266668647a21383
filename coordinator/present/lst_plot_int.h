/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the plot families (one file each, lst_plot_*.c), their driver (lst_plot.c) and the script
 * writer (lst_plot_script.c) share; private to the plots, as sqlite shares btreeInt.h between the files of one module. Names with a
 * double underscore are internal to the presentation library (present/).
 */
#ifndef LST_PLOT_INT_H
#define LST_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lst_err.h"
#include "lst_plot.h"
#include "lst_report.h"

/* The palette: series colours, and the thin lines of single agents (muted, distinct from the
 * combined line's blue). */
extern const char *const lst_plot__colors[];
extern const size_t lst_plot__ncolors;
extern const char *const lst_plot__agent_colors[];
extern const size_t lst_plot__nagent_colors;

/* One lst_plot_report or lst_plot_compare: where plots go and how they fared. */
struct lst_plot__ctx {
	const char *outdir;
	const char *source; /* what the data came from, for the scripts' header */
	char *gnuplot;	    /* its path; NULL when not installed */
	struct lst_plot_list *made;
	lst_err *err;
	int rc;	     /* first failure */
	char **used; /* plot names given out, kept unique */
	size_t nused;
};

/* Set up c for outdir (created); source names the data in the scripts' headers. Returns 0 or
 * -errno with err. gnuplot missing is not an error here (see lst_plot__ctx_exit). */
int lst_plot__ctx_init(struct lst_plot__ctx *c, const char *outdir, const char *source,
		       struct lst_plot_list *made, lst_err *err);

/* What the context ends with: the first failure, or -ENOENT when nothing could be drawn. */
int lst_plot__ctx_exit(struct lst_plot__ctx *c);

/* A unique plot name: prefix, then the slugs of a and b (NULL to leave out). Borrowed. */
const char *lst_plot__name(struct lst_plot__ctx *c, const char *prefix, const char *a,
			   const char *b);

/* Open NAME.gp with its header. Returns NULL (failure recorded) when it cannot be created. */
FILE *lst_plot__script(struct lst_plot__ctx *c, const char *name, const char *what);

/* The pass over the output formats (plots/frame.gp); every plot body goes between begin and
 * end. */
void lst_plot__begin(FILE *f, const char *name, int w, int h);
void lst_plot__end(FILE *f);

/* Close the script and draw it (a failure is recorded in c and logged). */
void lst_plot__draw(struct lst_plot__ctx *c, FILE *f, const char *name);

/* A gnuplot double-quoted string of s; lst_plot__qstr: of a printf format, as a new string
 * (caller frees), for template values. */
void lst_plot__q(FILE *f, const char *s);
char *lst_plot__qstr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A comment line: no control characters, and never a trailing backslash. */
void lst_plot__comment(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* " v" with 7 significant digits, or " NaN"; lst_plot__pos: v for a log axis, NaN unless > 0. */
void lst_plot__num(FILE *f, double v);
double lst_plot__pos(double v);

/* "182k", "35.6k", "1.23M": an IOPS figure short enough to sit by a marker or on a bar, to 3
 * significant digits (2 would make 35,591 and 36,400 the same bar). Returns buf. */
const char *lst_plot__short_iops(double v, char *buf, size_t size);

/*
 * A plot family, as lst_plot_report draws it: phase draws the family's plots of one phase
 * (nothing when the phase has none of them), report those of the whole report; either may be
 * NULL. name says which family it is, for people reading the table. reads_ts says of which
 * phases phase reads the timeseries rows (NULL: of none): it is then given a view of the
 * report holding that phase's (lst_report_ts_view), the model itself holding none.
 */
struct lst_plot__family {
	const char *name;
	void (*phase)(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph);
	void (*report)(struct lst_plot__ctx *c, const lst_report *r);
	bool (*reads_ts)(const struct lst_rpt_phase *ph);
};

/* Latency vs IOPS (lst_plot_lat.c): lat_vs_iops_PHASE, the combined curves with their
 * headline crossing; lat_paths_PHASE, one curve per path. */
void lst_plot__lat_vs_iops(struct lst_plot__ctx *c, const lst_report *r,
			   const struct lst_rpt_phase *ph);
void lst_plot__lat_paths(struct lst_plot__ctx *c, const lst_report *r,
			 const struct lst_rpt_phase *ph);

/* Timeseries (lst_plot_ts.c): timeseries_PHASE; and the per-round or per-test ones of a suite
 * phase whose tests or rounds hold several points. */
void lst_plot__timeseries(struct lst_plot__ctx *c, const lst_report *r,
			  const struct lst_rpt_phase *ph);
void lst_plot__ts_parts(struct lst_plot__ctx *c, const lst_report *r,
			const struct lst_rpt_phase *ph);

/* What a phase's timeseries holds: its agents, paths, combined rows, time span, points. */
struct lst_plot__ts_scan {
	const char *agents[64];
	const char *path_agents[64], *paths[64]; /* the agent and path of each path's rows */
	size_t nagents, npaths, nrows, npoints;
	double t0, t1, rd, wr, latmax;
};

/* Scan a phase's timeseries rows into o. */
void lst_plot__ts_scan(const lst_report *r, const char *phase, struct lst_plot__ts_scan *o);

/* Where a line skips rows its phase has (opaque: the timeseries family's own). */
struct lst_plot__ts_grid;

/* A time axis for a span of seconds: the divisor into s, min or h, and its unit in *unit. */
double lst_plot__time_unit(double span, const char **unit);

/* The gap (seconds) from which a phase's lines break (see lst_plot_ts.c). */
double lst_plot__ts_gap(const lst_report *r, const char *phase);

/* The rows of phase and agent (or of its path) as datablock var; see lst_plot_ts.c. */
void lst_plot__ts_block(FILE *f, const lst_report *r, const char *var, const char *phase,
			const char *agent, const char *path, size_t nrows, double t0, double div,
			double gap, const struct lst_plot__ts_grid *grid, bool full);

/* Steady state (lst_plot_steady.c): steady_PHASE[_TEST] of every suite test. */
void lst_plot__steady(struct lst_plot__ctx *c, const lst_report *r);

/* WSAT (lst_plot_wsat.c) of a snia-wsat phase; HIR (lst_plot_hir.c) of a snia-hir phase. */
void lst_plot__wsat(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph);
void lst_plot__hir(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph);

/* DIRTH (lst_plot_dirth.c): dirth_PHASE_PICK, the response-time histogram of each point a
 * snia-dirth phase selected, from its dirth-PHASE.json. */
void lst_plot__dirth(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph);

/* The bar-chart families (lst_plot_bars.c): matrix_PHASE of m; ports_PHASE (and
 * ports_PHASE_TARGET per target of a plan with several) of a phase that sweeps `ports`, nothing
 * for another phase. */
void lst_plot__matrix(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_matrix *m);
void lst_plot__ports(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph);

#endif
