/*
 * The terminal's progress: a line per interval (rewritten in place on a tty, once a second
 * otherwise), nothing when quiet.
 */

#include "lst_time.h"

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
