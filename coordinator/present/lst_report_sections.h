/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sections a feature adds to every phase of a report, in text, JSON and HTML alike: each
 * feature fills one row of lst_report_sections (lst_report_sections.c), and the text report,
 * `report --json` and the HTML page (lst_report_show.c, lst_report_html.c) walk the table, so
 * they name no feature and a new one is a row, not an edit of three outputs.
 */
#ifndef LST_REPORT_SECTIONS_H
#define LST_REPORT_SECTIONS_H

#include <jansson.h>
#include <stdio.h>

#include "lst_report.h"

/* One feature's section of a phase: text lines to standard output, keys set in p (the phase's
 * JSON object), HTML written to out. Each shows nothing when the phase has nothing of it. */
struct lst_report_section {
	const char *name;
	void (*text)(const lst_report *r, const char *phase);
	void (*json)(const lst_report *r, const char *phase, json_t *p);
	void (*html)(FILE *out, const lst_report *r, const char *phase);
};

/* The sections in the order every output shows them; ends with a row whose name is NULL. */
extern const struct lst_report_section lst_report_sections[];

/*
 * Hooks, events and telemetry (lst_report_events.c), from events.csv, telemetry.csv and the
 * kernel log excerpts (telemetry/AGENT/STEM-kmsg.txt); a folder without them shows nothing. The
 * phase's lines under
 * "  hooks and events:" and "  telemetry (what changed):" in the text report (at most 20
 * changed fields per agent and collector, then "... and N more"), its "events", "telemetry"
 * and "kmsg" arrays set in p (the phase's JSON object; absent when empty), and its tables in
 * the HTML page (rows keyed by data-event and data-delta attributes, figures by data-col).
 */
void lst_report_print_events(const lst_report *r, const char *phase);
void lst_report_events_json(const lst_report *r, const char *phase, json_t *p);
void lst_report_events_html(FILE *out, const lst_report *r, const char *phase);

/*
 * Data integrity (lst_report_integrity.c), from summary.csv's verify block (its
 * agent=all rows) and integrity.csv; a phase that verified nothing shows nothing. Per phase:
 * the 4 KiB units verified ok, pending, unwritten and bad, the bad ones by kind, and the first
 * LST_REPORT_BAD_ROWS rows of integrity.csv for the phase, then "... and N more". Text under
 * "  integrity:", "integrity" set in p (the phase's JSON object), a table in the HTML page.
 */
#define LST_REPORT_BAD_ROWS 10
void lst_report_print_integrity(const lst_report *r, const char *phase);
void lst_report_integrity_json(const lst_report *r, const char *phase, json_t *p);
void lst_report_integrity_html(FILE *out, const lst_report *r, const char *phase);

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
