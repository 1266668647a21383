/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Failover windows and throughput dips in the report (text, JSON, HTML).
 */
#ifndef LST_REPORT_FAILOVER_H
#define LST_REPORT_FAILOVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lst_report.h"

/*
 * Failover windows and throughput dips (lst_report_failover.c). lst_report_failovers: the
 * summary.json points of phase and point whose `failover` is a window with evidence (a new
 * array holding them); lst_report_failover_text: one of them as text, "b:/dev/loop3 3.0 s ..
 * 6.0 s (3.0 s), 412 I/Os, p99 2,041 ms, oldest in flight 2.9 s; evidence: event b port_down
 * at 3.0 s, 37 timeouts" ("no I/O completed" for a window without any).
 * lst_report_dips: the dips of phase and point, each a window with its `agent` (and `path`),
 * including a `failover` without evidence (older folders; a new array); lst_report_dip_text:
 * one as text, as a failover window with ", median before 3,998 IOPS" instead of evidence;
 * lst_report_dip_threshold: the threshold that found a dip, "below 50% of a path's median IOPS
 * before it, for 1 interval or more" (a phase's dips share it). The report's sections built
 * from them are rows of the sections table (lst_report_sections.h).
 */
json_t *lst_report_failovers(const lst_report *r, const char *phase, long point);
void lst_report_failover_text(json_t *point, char *buf, size_t size);
json_t *lst_report_dips(const lst_report *r, const char *phase, long point);
void lst_report_dip_text(json_t *dip, char *buf, size_t size);
void lst_report_dip_threshold(json_t *dip, char *buf, size_t size);

#endif
