/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What happened besides I/O, in the results folder.
 *
 * events.csv: one row per hook that a plan ran on an agent: the events scheduled at instants of
 * a point (`events:`), and the hooks run before a phase's first point and after its last
 * (`before:`, `after:`). Times are on the coordinator's clock (the agent's, converted with the
 * measured offset, as samples are): absolute in ns, and for events also in seconds from the
 * point's start, the axis of timeseries.csv's `t`, so a plot can draw a line where a port went
 * down.
 *
 * telemetry/AGENT/STEM-before.json, STEM-after.json: what the agent's collectors printed (JSON),
 * one object keyed by collector name; STEM-kmsg.txt: the kernel log lines of the window
 * between the two. STEM is the phase's name, or PHASE-pN for point N when the plan takes
 * telemetry per point.
 *
 * telemetry.csv: the numeric fields that changed between a STEM's before and after, per agent
 * and collector: the deltas the report shows ("port 2's invalid dword count rose by 1,204").
 */
#ifndef LST_EVENTS_H
#define LST_EVENTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_results.h"

/* One hook run: a row of events.csv. Strings are never NULL ("" when empty). */
struct lst_event_row {
	const char *phase;
	long point;	   /* the point (events), -1 for before/after hooks */
	const char *label; /* the point's label ("iodepth=8"), "" */
	const char *kind;  /* "event", "before", "after" */
	const char *agent;
	const char *hook;
	int64_t point_t0;   /* coordinator clock (ns) of the point's start; 0 for before/after */
	int64_t requested;  /* coordinator clock (ns): the instant asked for (events), or when the
			    * coordinator asked (before/after) */
	int64_t start, end; /* coordinator clock (ns) of the hook's start and end; 0 = never ran */
	int32_t status;	    /* struct lst_hook_result's: exit status, 128+N, -1 never ran */
	const char *result; /* "ok", "failed", "timeout", "not run" */
	const char *on_error; /* "stop", "continue": what the plan said a failure does */
	const char *text;     /* why it failed, "" */
	const char *output;   /* the tail of its output (as the agent kept it), "" */
};

/*
 * Append a row to events.csv (made with its header at the first row). Columns: phase, point,
 * label, kind, agent, hook, t_requested, t_start, t_end (s from the point's start; empty for
 * before/after and for what never ran), late_ms (start - requested, events), duration_s,
 * requested_ns, start_ns, end_ns, status, result, on_error, text, output (newlines as "\n").
 * A write error is kept for lst_results_failed, as for the other files.
 */
void lst_results_event(lst_results *r, const struct lst_event_row *row);

/* One collector's output for a telemetry file. */
struct lst_telemetry_item {
	const char *name;   /* the collector */
	int32_t status;	    /* its exit status (struct lst_hook_result) */
	const char *text;   /* why it failed, "" */
	const char *output; /* its stdout, output_len bytes (not NUL-terminated necessarily) */
	size_t output_len;
	uint32_t truncated; /* bytes of stdout the agent left out */
};

/*
 * Write telemetry/AGENT/STEM-WHEN.json (WHEN "before" or "after"): an object with each item's
 * output under its name when it exited 0 with valid JSON; otherwise {"error": "...", "status":
 * N, "output": "its text"} under the name (not valid JSON, truncated, failed). Folders are made
 * as needed. Returns 0 or -errno with err.
 */
int lst_telemetry_write(lst_results *r, const char *agent, const char *stem, const char *when,
			const struct lst_telemetry_item *items, size_t n, lst_err *err);

/*
 * Write telemetry/AGENT/STEM-kmsg.txt: the text, then a line for what was lost (dropped > 0) or
 * why the log could not be read (error not ""). Returns 0 or -errno with err.
 */
int lst_telemetry_kmsg(lst_results *r, const char *agent, const char *stem, const char *text,
		       size_t len, uint32_t dropped, const char *error, lst_err *err);

/*
 * The numeric leaves that differ between two collector outputs: an array of {"field":
 * "a.b[3].c", "before": x, "after": y, "delta": y - x}, in the order of after's fields; fields
 * present on one side only are left out. Integers stay exact (json_integer). New reference.
 */
json_t *lst_telemetry_diff(const json_t *before, const json_t *after);

/*
 * Read STEM-before.json and STEM-after.json of an agent back, and append each collector's
 * changed fields to telemetry.csv (phase, point (-1 per phase), agent, collector, field,
 * before, after, delta). Returns the number of rows written (0 when nothing changed or a file
 * is missing), or -errno with err.
 */
int lst_telemetry_deltas(lst_results *r, const char *phase, long point, const char *agent,
			 const char *stem, lst_err *err);

#endif
