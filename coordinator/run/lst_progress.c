/*
 * The terminal's progress, nothing of it when quiet: each agent as the run begins, a banner per
 * phase, a line per interval (rewritten in place on a tty, once a second otherwise) and a line
 * per point with its result. Warnings in between first end the line being rewritten
 * (lst_coord__progress_break).
 */

#include "lst_time.h"
#include "lst_util.h"

#include "lst_coord_int.h"

void lst_coord__progress(lst_coord *c, const struct lst_merge_row *row, const struct lst_rates *r,
			 const lst_hist *lat)
{
	int64_t now = lst_mono_ns();
	double el = (double)((row->k + 1) * c->cur.interval) / 1e9;
	char total[32] = "";
	FILE *f = c->opts.progress;

	if (c->opts.quiet)
		return;
	if (!c->tty && now - c->cur.last_progress < LST_NS_PER_S)
		return;
	c->cur.last_progress = now;
	if (c->cur.duration)
		snprintf(total, sizeof(total), "/%.1f", (double)c->cur.duration / 1e9);
	fprintf(f, "%s[%zu/%zu %s #%zu%s%s] %5.1f%s s%s  IOPS %9.0f  MB/s %8.1f  p99 %8.1f us%s",
		c->tty ? "\r" : "", c->cur.phase + 1, c->plan->nphases, c->cur.phase_name,
		c->cur.point + 1, c->cur.label[0] ? " " : "", c->cur.label, el, total,
		row->ramp ? " ramp" : "", r->iops[0] + r->iops[1], r->mbps[0] + r->mbps[1],
		(double)lst_hist_percentile(lat, 99) / 1e3, c->tty ? "  " : "\n");
	fflush(f);
}

void lst_coord__progress_break(const lst_coord *c)
{
	if (c->tty && !c->opts.quiet)
		fputc('\n', c->opts.progress);
}

void lst_coord__progress_agent(const lst_coord *c, const lst_conn *cn)
{
	const struct lst_msg_welcome *w = lst_conn_info(cn);

	if (c->opts.quiet)
		return;
	fprintf(c->opts.progress,
		"  agent %-8s %s (%s, %u cores): clock offset %+.3f ms, rtt %.0f us\n",
		lst_conn_name(cn), w->host, w->version, w->cores,
		(double)lst_conn_estimate(cn)->offset_ns / 1e6,
		(double)lst_conn_estimate(cn)->rtt_ns / 1e3);
}

void lst_coord__progress_phase(const lst_coord *c, size_t phase, const lst_suite_run *suite)
{
	const struct lst_plan_phase *ph = &c->plan->phases[phase];
	int64_t est;
	char dur[32], about[64] = "";

	if (c->opts.quiet)
		return;
	est = lst_suite_estimate(suite);
	if (est)
		snprintf(about, sizeof(about), ", about %s%s",
			 lst_fmt_duration(est, dur, sizeof(dur)),
			 lst_suite_has_rounds(suite) ? " a round" : "");
	fprintf(c->opts.progress, "phase %zu/%zu %s%s%s%s%s\n", phase + 1, c->plan->nphases,
		ph->name, ph->suite ? " (" : "", ph->suite ? lst_suite_names[ph->suite] : "",
		ph->suite ? ")" : "", about);
}

void lst_coord__progress_point(const lst_coord *c, const struct lst_step_result *out,
			       const json_t *skew)
{
	if (c->opts.quiet)
		return;
	fprintf(c->opts.progress,
		"%s%s%s: %.0f IOPS, %.1f MB/s, mean %.1f us, p99 %.1f us (start skew %.0f us)%s\n",
		c->cur.phase_name, c->cur.label[0] ? " " : "", c->cur.label,
		out->iops[0] + out->iops[1], out->mbps[0] + out->mbps[1],
		lst_hist_mean(&out->lat) / 1e3, (double)lst_hist_percentile(&out->lat, 99) / 1e3,
		json_is_real(skew) ? json_real_value(skew) : 0.0, out->partial ? " PARTIAL" : "");
}
