/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The terminal's progress, nothing of it when quiet: each agent as the run begins, a banner per
 * phase, a line per interval (rewritten in place on a tty, one line each otherwise: a log or a
 * pipe gets every interval of every point, none skipped) and a line per point with its result.
 * Warnings in between first end the line being rewritten (lst_coord__progress_break).
 *
 * With opts.progress_json the interval and point lines are JSON Lines instead (one object per
 * line, flushed at once), for scripts: {"type":"interval",...} and {"type":"point",...}, keys
 * as docs/results.md ("Progress as JSON Lines") lists them. The banners stay text on
 * opts.progress.
 */

#include <math.h>

#include "lst_time.h"
#include "lst_util.h"

#include "lst_run_int.h"

/* A rate or latency for JSON: finite, to 3 decimals (printed with 12 digits at most). */
static json_t *s_num(double v)
{
	return isfinite(v) ? json_real(round(v * 1000) / 1000) : json_null();
}

/* One JSON object as one line of f, flushed. Takes o. */
static void s_json_line(FILE *f, json_t *o)
{
	json_dumpf(o, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', f);
	fflush(f);
	json_decref(o);
}

/* The keys an interval's and a point's objects share: where in the run it is. */
static json_t *s_json_where(const lst_coord *c, const char *type)
{
	const struct lst_coord__where *at = lst_coord__where(c);

	return json_pack("{s:s, s:s, s:I, s:I, s:s}", "type", type, "phase", at->phase_name,
			 "phase_index", (json_int_t)at->phase, "point", (json_int_t)at->point,
			 "label", at->label);
}

static void s_json_interval(const lst_coord *c, const struct lst_coord__row *row,
			    const struct lst_rates *r, const lst_hist *lat)
{
	json_t *o = s_json_where(c, "interval");

	json_object_set_new(o, "interval", json_integer((json_int_t)row->k));
	json_object_set_new(o, "t_s", s_num(row->t_s));
	json_object_set_new(o, "ramp", json_boolean(row->ramp));
	json_object_set_new(o, "iops", s_num(r->iops[0] + r->iops[1]));
	json_object_set_new(o, "read_iops", s_num(r->iops[0]));
	json_object_set_new(o, "write_iops", s_num(r->iops[1]));
	json_object_set_new(o, "mbps", s_num(r->mbps[0] + r->mbps[1]));
	json_object_set_new(o, "lat_mean_us", s_num(lst_hist_mean(lat) / 1e3));
	json_object_set_new(o, "lat_p99_us", s_num((double)lst_hist_percentile(lat, 99) / 1e3));
	s_json_line(lst_coord__opts(c)->progress_json, o);
}

void lst_coord__progress(lst_coord *c, const struct lst_coord__row *row)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	const struct lst_coord__where *at = lst_coord__where(c);
	double el = (double)((row->k + 1) * at->interval) / 1e9;
	const struct lst_rates *r = &row->rates;
	char total[32] = "";
	FILE *f = opts->progress;
	lst_hist both = row->dir[LST_DIR_READ].lat, *lat = &both;

	lst_hist_add(&both, &row->dir[LST_DIR_WRITE].lat);
	if (opts->progress_json)
		s_json_interval(c, row, r, lat);
	if (opts->quiet || opts->progress_json)
		return;
	if (at->duration)
		snprintf(total, sizeof(total), "/%.1f", (double)at->duration / 1e9);
	fprintf(f, "%s[%zu/%zu %s #%zu%s%s] %5.1f%s s%s  IOPS %9.0f  MB/s %8.1f  p99 %8.1f us%s",
		lst_coord__tty(c) ? "\r" : "", at->phase + 1, lst_coord__plan(c)->nphases,
		at->phase_name, at->point + 1, at->label[0] ? " " : "", at->label, el, total,
		row->ramp ? " ramp" : "", r->iops[0] + r->iops[1], r->mbps[0] + r->mbps[1],
		(double)lst_hist_percentile(lat, 99) / 1e3, lst_coord__tty(c) ? "  " : "\n");
	fflush(f);
}

void lst_coord__progress_break(const lst_coord *c)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);

	if (lst_coord__tty(c) && !opts->quiet && !opts->progress_json)
		fputc('\n', opts->progress);
}

void lst_coord__progress_agent(const lst_coord *c, const lst_conn *cn)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	const struct lst_msg_welcome *w = lst_conn_info(cn);

	if (opts->quiet)
		return;
	fprintf(opts->progress,
		"  agent %-8s %s (%s, %u cores): clock offset %+.3f ms, rtt %.0f us\n",
		lst_conn_name(cn), w->host, w->version, w->cores,
		(double)lst_conn_estimate(cn)->offset_ns / 1e6,
		(double)lst_conn_estimate(cn)->rtt_ns / 1e3);
}

void lst_coord__progress_phase(const lst_coord *c, size_t phase, const lst_suite_run *suite)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	const lst_plan *plan = lst_coord__plan(c);
	const struct lst_plan_phase *ph = &plan->phases[phase];
	int64_t est;
	char dur[32], about[64] = "";

	if (opts->quiet)
		return;
	est = lst_suite_estimate(suite);
	if (est)
		snprintf(about, sizeof(about), ", about %s%s",
			 lst_fmt_duration(est, dur, sizeof(dur)),
			 lst_suite_has_rounds(suite) ? " a round" : "");
	fprintf(opts->progress, "phase %zu/%zu %s%s%s%s%s\n", phase + 1, plan->nphases, ph->name,
		ph->suite ? " (" : "", ph->suite ? lst_suite_names[ph->suite] : "",
		ph->suite ? ")" : "", about);
}

static void s_json_point(const lst_coord *c, const struct lst_step_result *out, const json_t *skew)
{
	json_t *o = s_json_where(c, "point");

	json_object_set_new(o, "t_s", s_num(out->t_s));
	json_object_set_new(o, "seconds", s_num(out->seconds));
	json_object_set_new(o, "iops", s_num(out->iops[0] + out->iops[1]));
	json_object_set_new(o, "read_iops", s_num(out->iops[0]));
	json_object_set_new(o, "write_iops", s_num(out->iops[1]));
	json_object_set_new(o, "mbps", s_num(out->mbps[0] + out->mbps[1]));
	json_object_set_new(o, "lat_mean_us", s_num(lst_hist_mean(&out->lat) / 1e3));
	json_object_set_new(o, "lat_p99_us",
			    s_num((double)lst_hist_percentile(&out->lat, 99) / 1e3));
	json_object_set_new(o, "lat_p99_99_us",
			    s_num((double)lst_hist_percentile(&out->lat, 99.99) / 1e3));
	json_object_set_new(o, "start_skew_us",
			    json_is_real(skew) ? s_num(json_real_value(skew)) : json_null());
	json_object_set_new(o, "partial", json_boolean(out->partial));
	s_json_line(lst_coord__opts(c)->progress_json, o);
}

void lst_coord__progress_point(const lst_coord *c, const struct lst_step_result *out,
			       const json_t *skew)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	const struct lst_coord__where *at = lst_coord__where(c);

	if (opts->progress_json)
		s_json_point(c, out, skew);
	if (opts->quiet || opts->progress_json)
		return;
	if (out->discarded) { /* a purge does no I/O: what it did, not a line of zeros */
		fprintf(opts->progress, "%s%s%s: discarded %.1f MiB (start skew %.0f us)%s\n",
			at->phase_name, at->label[0] ? " " : "", at->label,
			(double)out->discarded / (1 << 20),
			json_is_real(skew) ? json_real_value(skew) : 0.0,
			out->partial ? " PARTIAL" : "");
		return;
	}
	fprintf(opts->progress,
		"%s%s%s: %.0f IOPS, %.1f MB/s, mean %.1f us, p99 %.1f us (start skew %.0f us)%s\n",
		at->phase_name, at->label[0] ? " " : "", at->label, out->iops[0] + out->iops[1],
		out->mbps[0] + out->mbps[1], lst_hist_mean(&out->lat) / 1e3,
		(double)lst_hist_percentile(&out->lat, 99) / 1e3,
		json_is_real(skew) ? json_real_value(skew) : 0.0, out->partial ? " PARTIAL" : "");
}
