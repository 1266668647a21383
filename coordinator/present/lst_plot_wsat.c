/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The WSAT family (plots/wsat.gp): a snia-wsat phase's IOPS per round, against time and against
 * the data written.
 */
#include "lst_plot.h"
#include "lst_report_curves.h"
#include "lst_figures.h"
#include "lst_plot_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_plot_tpl.h"
#include "lst_steady.h"
#include "lst_time.h"
#include "lst_util.h"

/* The WSAT plot after its data block (plots/wsat.gp): against time, and bytes written. */
static void s_wsat_body(FILE *f, const char *title, bool bytes, const char *unit, const char *bunit,
			double bdiv)
{
	char *qtitle = lst_plot__qstr("%s", title);

	lst_plot_tpl(f, "wsat", bytes ? "multiplot" : "title",
		     (const struct lst_tpl_arg[]){ { "title", qtitle }, { NULL, NULL } });
	free(qtitle);
	lst_plot_tpl(f, "wsat", "axes", NULL);
	for (int panel = 0; panel < (bytes ? 2 : 1); panel++) {
		if (panel)
			lst_plot_tpl(f, "wsat", "xlabel_bytes",
				     (const struct lst_tpl_arg[]){
					     { "unit", bunit },
					     { "exp", bdiv == 1e12 ? "12" : "9" },
					     { NULL, NULL },
				     });
		else
			lst_plot_tpl(
				f, "wsat", "xlabel_time",
				(const struct lst_tpl_arg[]){ { "unit", unit }, { NULL, NULL } });
		lst_plot_tpl(f, "wsat", "panel",
			     (const struct lst_tpl_arg[]){
				     { "x", panel ? "3" : "2" },
				     { "iops_color", lst_plot__colors[0] },
				     { "mean_color", lst_plot__colors[1] },
				     { "max_color", lst_plot__colors[3] },
				     { NULL, NULL },
			     });
	}
}

void lst_plot__wsat(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph)
{
	double t0 = INFINITY, t1 = -INFINITY, bmax = 0, div, bdiv;
	const char *unit, *bunit, *name;
	size_t n = 0;
	char title[512];

	if (strcmp(ph->suite, "snia-wsat"))
		return;
	bool bytes = false;
	FILE *f;

	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];

		if (strcmp(o->phase, ph->name))
			continue;
		n++;
		t0 = LST_MIN(t0, o->t_s);
		t1 = LST_MAX(t1, o->t_s);
		if (isfinite(o->bytes_written)) {
			bytes = true;
			bmax = LST_MAX(bmax, o->bytes_written);
		}
	}
	if (!n)
		return;
	div = lst_plot__time_unit(t1 - t0, &unit);
	bdiv = bmax >= 1e12 ? 1e12 : 1e9;
	bunit = bmax >= 1e12 ? "TB" : "GB";
	name = lst_plot__name(c, "wsat", ph->name, NULL);
	f = lst_plot__script(c, name,
			     "write saturation: IOPS and latency per round, against time and "
			     "bytes written");
	if (!f)
		return;
	fputs("$w << EOD\n", f);
	lst_plot__comment(f,
			  "round, t (since the first round), %s written, IOPS, mean latency (us), "
			  "max latency (us)",
			  bunit);
	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];

		if (strcmp(o->phase, ph->name))
			continue;
		fprintf(f, "%ld", o->round);
		lst_plot__num(f, (o->t_s - t0) / div);
		lst_plot__num(f, o->bytes_written / bdiv);
		lst_plot__num(f, o->iops);
		lst_plot__num(f, lst_plot__pos(o->lat_mean));
		lst_plot__num(f, lst_plot__pos(o->lat_max));
		fputc('\n', f);
	}
	fputs("EOD\n", f);
	lst_plot__begin(f, name, 1200, bytes ? 1000 : 650);
	snprintf(title, sizeof(title),
		 "Write saturation — phase %s: IOPS and latency per round\n"
		 "%s, run %s",
		 ph->name, r->title, r->run_id);
	s_wsat_body(f, title, bytes, unit, bunit, bdiv);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}
