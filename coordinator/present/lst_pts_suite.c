/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PTS pages' tables that come from a suite's own files (docs/results.md, Suite files):
 * XSR's intervals, segments and recovery (xsr-PHASE.csv, xsr-PHASE.json) and DIRTH's selected
 * points, confidence levels and response-time histograms (dirth-PHASE.json). A file that is
 * missing (a run stopped before the phase's end) is said on the page; one that is malformed is
 * an error naming it and what is wrong.
 */
#include "lst_pts_int.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_csv.h"
#include "lst_assert.h"
#include "lst_util.h"

/* A number of o, NAN when absent or not a number. */
static double s_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A string of o, copied; "" when absent. */
static char *s_str(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return lst_strdup(v ? v : "");
}

/* The suite file PREFIX-PHASE.EXT of the page's phase loaded as JSON, or NULL: missing (a note
 * on the page) or malformed (c->err). */
static json_t *s_json(struct lst_pts__ctx *c, const char *prefix)
{
	char *path = lst_asprintf("%s/%s-%s.json", c->r->dir, prefix, c->stem);
	json_error_t jerr;
	json_t *o = NULL;

	if (access(path, F_OK)) {
		static const char *const heads[] = { "File" };
		struct lst_pts_block *b =
			lst_pts__vtable(c, "Missing results", "missing", 1, heads);

		lst_pts__row(b, lst_asprintf("%s-%s.json", prefix, c->stem));
		b->note = lst_strdup(
			"Missing: the phase did not finish, so its tables are not here.");
	} else if (!(o = json_load_file(path, 0, &jerr)) || !json_is_object(o)) {
		if (!c->err->code)
			lst_err_set(c->err, -EINVAL, "%s:%d:%d: %s", path, jerr.line, jerr.column,
				    o ? "not a JSON object" : jerr.text);
		json_decref(o);
		o = NULL;
	}
	free(path);
	return o;
}

/* xsr-PHASE.csv's intervals, in time order. Returns 0 or -errno with c->err. */
static int s_xsr_intervals(struct lst_pts__ctx *c)
{
	static const char *const names[] = { "segment", "interval", "t_s", "seconds",
					     "iops",	"mbps",	    NULL };
	static const char *const heads[] = { "Segment",	   "Interval", "Time (s)",
					     "Length (s)", "IOPS",     "MB/s" };
	static const char *const fmts[] = { "%.0f", "%.0f", "%.3f", "%.3f", "%.1f", "%.2f" };
	char *path = lst_asprintf("%s/xsr-%s.csv", c->r->dir, c->stem);
	struct lst_pts_block *b;
	int cols[LST_ARRAY_SIZE(names) - 1], rc;
	lst_csv *csv = NULL;

	if (access(path, F_OK)) {
		free(path);
		return 0; /* the JSON's absence said it */
	}
	rc = lst_csv_load(path, &csv, c->err);
	if (!rc)
		rc = lst_csv_require(csv, names, cols, c->err);
	b = rc ? NULL
	       : lst_pts__vtable(c, "XSR Tabular Data: Throughput per Interval", "intervals",
				 LST_ARRAY_SIZE(heads), heads);
	for (size_t i = 0; b && !rc && i < lst_csv_nrows(csv); i++) {
		double v[LST_ARRAY_SIZE(names) - 1];

		for (size_t k = 0; !rc && k < LST_ARRAY_SIZE(v); k++)
			rc = lst_csv_num(csv, i, cols[k], &v[k], c->err);
		if (!rc)
			lst_pts__row(b, lst_pts__num(v[0], fmts[0]), lst_pts__num(v[1], fmts[1]),
				     lst_pts__num(v[2], fmts[2]), lst_pts__num(v[3], fmts[3]),
				     lst_pts__num(v[4], fmts[4]), lst_pts__num(v[5], fmts[5]));
	}
	lst_csv_destroy(&csv);
	free(path);
	return rc;
}

static void s_xsr(struct lst_pts__ctx *c)
{
	static const char *const sh[] = { "Segment", "Stimulus", "Intervals", "Average MB/s" };
	static const char *const rh[] = { "Baseline MB/s", "Tolerance %", "Recovered",
					  "Recovered in interval", "Recovery time (s)" };
	json_t *o = s_json(c, "xsr"), *s;
	struct lst_pts_block *b;
	size_t i;

	if (!o)
		return;
	b = lst_pts__vtable(c, "XSR Segments", "segments", LST_ARRAY_SIZE(sh), sh);
	json_array_foreach (json_object_get(o, "segments"), i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));

		lst_pts__row(b, lst_asprintf("%zu", i + 1), lst_strdup(name ? name : ""),
			     lst_pts__num(s_num(s, "intervals"), "%.0f"),
			     lst_pts__num(s_num(s, "mbps"), "%.2f"));
	}
	b = lst_pts__vtable(c, "XSR Recovery", "recovery", LST_ARRAY_SIZE(rh), rh);
	lst_pts__row(b, lst_pts__num(s_num(o, "baseline_mbps"), "%.2f"),
		     lst_pts__num(s_num(o, "tolerance_pct"), "%.0f"),
		     lst_strdup(json_is_true(json_object_get(o, "recovered")) ? "yes" : "no"),
		     lst_pts__num(s_num(o, "recovered_interval"), "%.0f"),
		     lst_pts__num(s_num(o, "recovery_s"), "%.3f"));
	b->note = lst_strdup("Recovered: the first interval of segment 3 within the tolerance of "
			     "the baseline, segment 1's last steady-state window of intervals.");
	json_decref(o);
	s_xsr_intervals(c);
}

/* The percentiles DIRTH reads from each histogram, as dirth-PHASE.json names them. */
static const char *const s_pcts[] = { "99", "99.9", "99.99", "99.999" };

/* The selected points, each with the grid's figures it was picked on and its histogram run's. */
static void s_selected(struct lst_pts__ctx *c, json_t *sel)
{
	static const char *const heads[] = { "Pick",	    "Point",	 "Threads",
					     "Queue depth", "Grid IOPS", "Grid mean (us)",
					     "IOPS",	    "I/Os",	 "Seconds",
					     "Mean (us)",   "Max (us)" };
	struct lst_pts_block *b;
	json_t *s;
	size_t i;

	b = lst_pts__vtable(c, "DIRTH Selected Points", "selected", LST_ARRAY_SIZE(heads), heads);
	b->note = lst_strdup("Max: the highest IOPS; min: the lowest mean response time; mid-high "
			     "and mid-low: the points nearest two thirds and one third of the way "
			     "between them. Each ran once more for its histogram.");
	json_array_foreach (sel, i, s)
		lst_pts__row(b, s_str(s, "pick"), s_str(s, "label"),
			     lst_pts__num(s_num(s, "jobs"), "%.0f"),
			     lst_pts__num(s_num(s, "iodepth"), "%.0f"),
			     lst_pts__num(s_num(s, "grid_iops"), "%.1f"),
			     lst_pts__num(s_num(s, "grid_lat_mean_us"), "%.2f"),
			     lst_pts__num(s_num(s, "iops"), "%.1f"),
			     lst_pts__num(s_num(s, "ios"), "%.0f"),
			     lst_pts__num(s_num(s, "seconds"), "%.3f"),
			     lst_pts__num(s_num(s, "lat_mean_us"), "%.2f"),
			     lst_pts__num(s_num(s, "lat_max_us"), "%.2f"));
}

/* The percentiles supported by enough I/Os above them ("p99, p99.9"), or "none". */
static char *s_supported(json_t *sup)
{
	char *ok = NULL;

	for (size_t k = 0; k < LST_ARRAY_SIZE(s_pcts); k++) {
		char *x;

		if (!json_is_true(json_object_get(sup, s_pcts[k])))
			continue;
		x = ok ? lst_asprintf("%s, p%s", ok, s_pcts[k]) : lst_asprintf("p%s", s_pcts[k]);
		free(ok);
		ok = x;
	}
	return ok ? ok : lst_strdup("none");
}

/* Each selected point's response-time percentiles, the spec's confidence levels. */
static void s_confidence(struct lst_pts__ctx *c, json_t *sel)
{
	static const char *const heads[] = { "Pick",	    "p99 (us)",	    "p99.9 (us)",
					     "p99.99 (us)", "p99.999 (us)", "Supported" };
	struct lst_pts_block *b;
	json_t *s;
	size_t i;

	b = lst_pts__vtable(c, "DIRTH Response Time Confidence Levels", "confidence",
			    LST_ARRAY_SIZE(heads), heads);
	b->note = lst_strdup("From each run's latency histogram merged over every path, never "
			     "averaged; a percentile is supported when at least 10 I/Os lie above "
			     "it.");
	json_array_foreach (sel, i, s) {
		json_t *pc = json_object_get(s, "percentiles_us");

		lst_pts__row(b, s_str(s, "pick"), lst_pts__num(s_num(pc, s_pcts[0]), "%.2f"),
			     lst_pts__num(s_num(pc, s_pcts[1]), "%.2f"),
			     lst_pts__num(s_num(pc, s_pcts[2]), "%.2f"),
			     lst_pts__num(s_num(pc, s_pcts[3]), "%.2f"),
			     s_supported(json_object_get(s, "supported")));
	}
}

/* Per selected point its response-time histogram: the plot, and its non-empty buckets. */
static void s_histograms(struct lst_pts__ctx *c, json_t *sel)
{
	static const char *const heads[] = { "From (us)", "To (us)", "I/Os" };
	json_t *s;
	size_t i;

	json_array_foreach (sel, i, s) {
		const char *pick = json_string_value(json_object_get(s, "pick"));
		const char *label = json_string_value(json_object_get(s, "label"));
		char title[256], key[64];
		struct lst_pts_block *b;
		json_t *bin;
		size_t k;

		snprintf(title, sizeof(title), "DIRTH Response Time Histogram Plot: %s (%s)",
			 pick ? pick : "?", label ? label : "?");
		lst_pts__plot(c, title, "dirth", c->stem, pick ? pick : "?");
		snprintf(title, sizeof(title), "DIRTH Response Time Histogram: %s (%s)",
			 pick ? pick : "?", label ? label : "?");
		snprintf(key, sizeof(key), "histogram:%s", pick ? pick : "?");
		b = lst_pts__vtable(c, title, key, LST_ARRAY_SIZE(heads), heads);
		json_array_foreach (json_object_get(s, "histogram"), k, bin)
			lst_pts__row(
				b, lst_pts__num(json_number_value(json_array_get(bin, 0)), "%.3f"),
				lst_pts__num(json_number_value(json_array_get(bin, 1)), "%.3f"),
				lst_pts__num(json_number_value(json_array_get(bin, 2)), "%.0f"));
	}
}

static void s_dirth(struct lst_pts__ctx *c)
{
	json_t *o = s_json(c, "dirth"), *sel;

	if (!o)
		return;
	sel = json_object_get(o, "selected");
	s_selected(c, sel);
	s_confidence(c, sel);
	s_histograms(c, sel);
	json_decref(o);
}

void lst_pts__xsr(struct lst_pts__ctx *c)
{
	lst_pts__each_value(c, s_xsr);
}

void lst_pts__dirth(struct lst_pts__ctx *c)
{
	lst_pts__each_value(c, s_dirth);
}
