/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The port scaling of a phase that sweeps `ports`, for its plot; the report's sections of it are
 * a row of the sections table (lst_report_sections.h).
 */
#ifndef LST_REPORT_PORTS_H
#define LST_REPORT_PORTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lst_report.h"

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

#endif
