/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sections a feature adds to every phase of a report, in text, JSON and HTML alike: each
 * feature fills one row of lst_report_sections (lst_report_sections.c), and the text report,
 * `report --json` and the HTML page (lst_report_show.c, lst_report_html.c) walk the table, so
 * they name no feature and a new one is a row, not an edit of three outputs.
 *
 * The outputs do not place a feature alike: a failover window is a line under its point in the
 * text, a key of the point's object in JSON and a list after the points table in HTML; the port
 * scaling follows the headlines in the text, the other sections in JSON and the IOPS matrix in
 * HTML. So a row names its slot in each output (enum lst_report_slot), and an output walks the
 * table once at each of its slots (lst_report_sections_text, _json, _html); within a slot, rows
 * come in the table's order.
 */
#ifndef LST_REPORT_SECTIONS_H
#define LST_REPORT_SECTIONS_H

#include <jansson.h>
#include <stdio.h>

#include "lst_report.h"

/* Where a section stands in one output's phase. */
enum lst_report_slot {
	LST_SLOT_NONE,	  /* this output does not show the section */
	LST_SLOT_POINT,	  /* under each shown point of the points table (the view's point) */
	LST_SLOT_POINTS,  /* right after the points table */
	LST_SLOT_PHASE,	  /* the phase's own sections, after the points */
	LST_SLOT_SCALING, /* after the figures of the phase: headlines (text), IOPS matrix (HTML) */
};

/* What a section is shown for: a phase, the points of it that the output shows (idx[n], indexes
 * into r->points as lst_report_shown gives them; n is 0 where the output shows none), and at
 * LST_SLOT_POINT the point at hand (NULL elsewhere). Borrowed from the output that walks. */
struct lst_report_view {
	const lst_report *r;
	const char *phase;
	const size_t *idx;
	size_t n;
	const struct lst_rpt_point *point;
};

/*
 * One feature's section: text lines to f, keys set in o (the phase's JSON object, or at
 * LST_SLOT_POINT the point's), HTML written to f; each at its slot in that output, and each
 * shows nothing when its phase or point has nothing of it. A function may be NULL where its
 * slot is LST_SLOT_NONE.
 */
struct lst_report_section {
	const char *name;
	enum lst_report_slot text_at, json_at, html_at;
	void (*text)(FILE *f, const struct lst_report_view *v);
	void (*json)(const struct lst_report_view *v, json_t *o);
	void (*html)(FILE *f, const struct lst_report_view *v);
};

/* The sections in the order every output shows them within a slot; ends with a row whose name
 * is NULL. */
extern const struct lst_report_section lst_report_sections[];

/* The sections whose slot in the text, JSON or HTML output is at, for v, in the table's order:
 * text to f, keys into o, HTML to f. */
void lst_report_sections_text(FILE *f, enum lst_report_slot at, const struct lst_report_view *v);
void lst_report_sections_json(json_t *o, enum lst_report_slot at, const struct lst_report_view *v);
void lst_report_sections_html(FILE *f, enum lst_report_slot at, const struct lst_report_view *v);

/*
 * Failover windows (lst_report_failover.c), from summary.json's points: in the text, the lines
 * "    failover: ..." under each point (lst_report_failover_text); in JSON, the point's
 * `failover` array, each window with its agent and path (absent when empty); in HTML, after the
 * points table, a list of the shown points' windows under "Failover windows".
 */
void lst_report_failover_print(FILE *f, const struct lst_report_view *v);
void lst_report_failover_json(const struct lst_report_view *v, json_t *o);
void lst_report_failover_html(FILE *f, const struct lst_report_view *v);

/*
 * Throughput dips (lst_report_failover.c), windows with no evidence of a path fault: in the
 * text, after the points table, "  throughput dips (no evidence of a path fault; THRESHOLD):"
 * and a line per dip of the shown points; in JSON, the point's `dips` array (absent when
 * empty); in HTML, after the failover windows, a list under "Throughput dips".
 */
void lst_report_dips_print(FILE *f, const struct lst_report_view *v);
void lst_report_dips_json(const struct lst_report_view *v, json_t *o);
void lst_report_dips_html(FILE *f, const struct lst_report_view *v);

/*
 * Port scaling (lst_report_ports.c): for the shown points of a phase that sweeps `ports`, each
 * point against its workload's point with the fewest paths: a table in the text (its workload
 * and port set columns as wide as their widest cell), the phase's `ports` array in JSON, a
 * table in HTML (rows keyed by data-scaling and data-point, figures by data-col). Nothing for a
 * phase without such a sweep.
 */
void lst_report_ports_print(FILE *f, const struct lst_report_view *v);
void lst_report_ports_set_json(const struct lst_report_view *v, json_t *o);
void lst_report_ports_html(FILE *f, const struct lst_report_view *v);

/*
 * Hooks, events and telemetry (lst_report_events.c), from events.csv, telemetry.csv and the
 * kernel log excerpts (telemetry/AGENT/STEM-kmsg.txt); a folder without them shows nothing. The
 * phase's lines under
 * "  hooks and events:" and "  telemetry (what changed):" in the text report (at most 20
 * changed fields per agent and collector, then "... and N more"), its "events", "telemetry"
 * and "kmsg" arrays set in o (the phase's JSON object; absent when empty), and its tables in
 * the HTML page (rows keyed by data-event and data-delta attributes, figures by data-col).
 */
void lst_report_events_print(FILE *f, const struct lst_report_view *v);
void lst_report_events_json(const struct lst_report_view *v, json_t *o);
void lst_report_events_html(FILE *f, const struct lst_report_view *v);

/*
 * Data integrity (lst_report_integrity.c), from summary.csv's verify block (its
 * agent=all rows) and integrity.csv; a phase that verified nothing shows nothing. Per phase:
 * the 4 KiB units verified ok, pending, unwritten and bad, the bad ones by kind, and the first
 * LST_REPORT_BAD_ROWS rows of integrity.csv for the phase, then "... and N more". Text under
 * "  integrity:", "integrity" set in o (the phase's JSON object), a table in the HTML page.
 */
#define LST_REPORT_BAD_ROWS 10
void lst_report_integrity_print(FILE *f, const struct lst_report_view *v);
void lst_report_integrity_json(const struct lst_report_view *v, json_t *o);
void lst_report_integrity_html(FILE *f, const struct lst_report_view *v);

/* An event of a point that started: where the timeseries plot draws its dashed line. */
struct lst_report_event_mark {
	long point;
	double t_start;	 /* s from the point's start */
	char label[128]; /* the hook */
};

/* The marks of phase's events that started, in events.csv's order (*out the caller's, freed
 * with free; NULL when none). Returns how many. */
size_t lst_report_event_marks(const lst_report *r, const char *phase,
			      struct lst_report_event_mark **out);

#endif
