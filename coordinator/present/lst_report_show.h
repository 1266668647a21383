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
 * widest cell) and the port scaling of a phase that sweeps ports. Prints nothing when no phase
 * has a point.
 */
void lst_report_print_summary(FILE *f, const lst_report *r);

/* s for a text column of width characters (3 or more; size > width): s itself when it fits,
 * else its start cut to end in "...", so a cut label says so, in buf. Returns s or buf. */
const char *lst_report_cell(const char *s, int width, char *buf, size_t size);

/* The same as one JSON object (new reference; the caller adds "plots"). */
json_t *lst_report_json(const lst_report *r);

/* What lst_plot_report or lst_plot_compare made in outdir (l; rc and err their result), as
 * text to standard output. */
void lst_report_print_plots(const char *outdir, const struct lst_plot_list *l, int rc,
			    const lst_err *err);

/* The same as JSON (new reference); asked false: plots were turned off (--no-plots). */
json_t *lst_report_plots_json(const char *outdir, const struct lst_plot_list *l, int rc,
			      const lst_err *err, bool asked);

/*
 * Port scaling (lst_report_ports.c): for the shown points idx[n] of a phase that sweeps `ports`,
 * each point against its workload's point with the fewest paths, as a table to f (its workload
 * and port set columns as wide as their widest cell). Prints nothing, and gives an empty array,
 * for a phase without such a sweep.
 */
void lst_report_print_ports(FILE *f, const lst_report *r, const size_t *idx, size_t n);
json_t *lst_report_ports_json(const lst_report *r, const size_t *idx, size_t n);

/* The paths point `point` of phase ran through (run.json: its agents' paths), 0 when unknown. */
size_t lst_report_point_paths(const lst_report *r, const char *phase, long point);

/* A ports sweep as a table for the plot: workloads (rows) x port sets (columns). */
struct lst_report_ports {
	size_t nwork, nsets;
	char (*work)[256]; /* the workload: the label without its ports value ("" alone) */
	char (*sets)[128]; /* the port set, as the label writes it ("a+b") */
	size_t *paths;	   /* [nsets] the paths of the set's points (the most, if they differ) */
	double *mbps;	   /* [w * nsets + s] MB/s, NAN where the sweep has no such point */
	double *ratio;	   /* [w * nsets + s] MB/s against the workload's fewest paths, or NAN */
	double *iops, *iops_ratio; /* the same in IOPS */
};

/* The table of phase's ports sweep into *t: false (t zeroed) when it has none. */
bool lst_report_ports_table(const lst_report *r, const char *phase, struct lst_report_ports *t);
void lst_report_ports_free(struct lst_report_ports *t);

/* One line saying what a steady-state verdict is, as the text and JSON reports give it
 * ("steady at round 7; window rounds 3-7: average ..."), into buf. */
void lst_report_verdict(const struct lst_rpt_test *t, char *buf, size_t size);

/*
 * Failover windows and throughput dips (lst_report_failover.c). lst_report_failovers: the
 * summary.json points of phase and point whose `failover` is a window with evidence (a new
 * array holding them); lst_report_failover_text: one of them as text, "b:/dev/loop3 3.0 s ..
 * 6.0 s (3.0 s), 412 I/Os, p99 2,041 ms, oldest in flight 2.9 s; evidence: event b port_down
 * at 3.0 s, 37 timeouts" ("no I/O completed" for a window without any); and the lines
 * "    failover: ..." under point p.
 * lst_report_dips: the dips of phase and point, each a window with its `agent` (and `path`),
 * including a `failover` without evidence (older folders; a new array); lst_report_dip_text:
 * one as text, as a failover window with ", median before 3,998 IOPS" instead of evidence;
 * lst_report_dip_threshold: the threshold that found a dip, "below 50% of a path's median IOPS
 * before it, for 1 interval or more" (a phase's dips share it); lst_report_print_dips: that section in the text report, a heading and one
 * line per dip of the points idx[0..n), nothing without any.
 * lst_report_failover_set_json: p's `failover` and `dips` arrays into pj (absent when empty).
 */
json_t *lst_report_failovers(const lst_report *r, const char *phase, long point);
void lst_report_failover_text(json_t *point, char *buf, size_t size);
void lst_report_print_failover(const lst_report *r, const struct lst_rpt_point *p);
json_t *lst_report_dips(const lst_report *r, const char *phase, long point);
void lst_report_dip_text(json_t *dip, char *buf, size_t size);
void lst_report_dip_threshold(json_t *dip, char *buf, size_t size);
void lst_report_print_dips(const lst_report *r, const size_t *idx, size_t n);
void lst_report_failover_set_json(const lst_report *r, const struct lst_rpt_point *p, json_t *pj);

#endif
