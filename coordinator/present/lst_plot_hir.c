/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host idle recovery family (plots/hir.gp): a snia-hir phase's IOPS and mean latency per
 * burst, per test (idle gap), over the phase's timeseries line.
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

/* The distinct tests (gaps) of a HIR phase's rounds.csv rows, in file order, into tests[max]. */
static size_t s_hir_tests(const lst_report *r, const char *phase, const char **tests, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];
		bool known = false;

		if (strcmp(o->phase, phase))
			continue;
		for (size_t k = 0; k < n; k++)
			known |= !strcmp(tests[k], o->test);
		if (!known && n < max)
			tests[n++] = o->test;
	}
	return n;
}

/* A test's bursts as a datablock: burst, t (since t0, in div), IOPS, mean latency (us). */
static void s_hir_block(FILE *f, const lst_report *r, const char *phase, const char *test, size_t k,
			double t0, double div)
{
	fprintf(f, "$b%zu << EOD\n", k);
	lst_plot__comment(f, "test %s: burst, t (since the phase start), IOPS, mean latency (us)",
			  test);
	for (size_t i = 0; i < r->nrounds; i++) {
		const struct lst_rpt_round *o = &r->rounds[i];

		if (strcmp(o->phase, phase) || strcmp(o->test, test))
			continue;
		fprintf(f, "%ld", o->round);
		lst_plot__num(f, (o->t_s - t0) / div);
		lst_plot__num(f, o->iops);
		lst_plot__num(f, lst_plot__pos(o->lat_mean));
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

/*
 * hir_PHASE: one point per burst (its IOPS, and its mean latency on the right axis) against
 * time, a colour per test (gap length), over the combined IOPS of every interval in grey,
 * whose breaks are the idle gaps between bursts.
 */
void lst_plot__hir(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph)
{
	const char *tests[16], *unit, *name;
	size_t ntests = s_hir_tests(r, ph->name, tests, LST_ARRAY_SIZE(tests));
	struct lst_plot__ts_scan sc;
	double t0 = INFINITY, t1 = -INFINITY, div;
	char title[512], *q;
	FILE *f;

	if (strcmp(ph->suite, "snia-hir") || !ntests)
		return;
	lst_plot__ts_scan(r, ph->name, &sc);
	for (size_t i = 0; i < r->nrounds; i++)
		if (!strcmp(r->rounds[i].phase, ph->name)) {
			t0 = LST_MIN(t0, r->rounds[i].t_s);
			t1 = LST_MAX(t1, r->rounds[i].t_s);
		}
	if (sc.nrows) {
		t0 = LST_MIN(t0, sc.t0);
		t1 = LST_MAX(t1, sc.t1);
	}
	div = lst_plot__time_unit(t1 - t0, &unit);
	name = lst_plot__name(c, "hir", ph->name, NULL);
	f = lst_plot__script(c, name, "host idle recovery: IOPS and mean latency per burst");
	if (!f)
		return;
	if (sc.nrows)
		lst_plot__ts_block(f, r, "$ts", ph->name, "all", NULL, sc.nrows, t0, div,
				   lst_plot__ts_gap(r, ph->name), NULL, false);
	for (size_t k = 0; k < ntests; k++)
		s_hir_block(f, r, ph->name, tests[k], k, t0, div);
	lst_plot__begin(f, name, 1200, 700);
	snprintf(title, sizeof(title),
		 "Host idle recovery — phase %s: IOPS and mean latency per burst\n%s, run %s",
		 ph->name, r->title, r->run_id);
	q = lst_plot__qstr("%s", title);
	lst_plot_tpl(
		f, "hir", "axes",
		(const struct lst_tpl_arg[]){ { "title", q }, { "unit", unit }, { NULL, NULL } });
	free(q);
	lst_plot_tpl(f, "hir", "plot", NULL);
	if (sc.nrows)
		lst_plot_tpl(f, "hir", "ts_line", NULL);
	for (size_t k = 0; k < ntests; k++) {
		char idx[32], *qt = lst_plot__qstr("IOPS per burst, %s", tests[k]);
		char *ql = lst_plot__qstr("mean latency per burst, %s (right axis)", tests[k]);

		if (k || sc.nrows)
			lst_plot_tpl(f, "hir", "sep", NULL);
		snprintf(idx, sizeof(idx), "%zu", k);
		lst_plot_tpl(f, "hir", "test",
			     (const struct lst_tpl_arg[]){
				     { "k", idx },
				     { "color", lst_plot__colors[k % lst_plot__ncolors] },
				     { "title", qt },
				     { "lat_title", ql },
				     { NULL, NULL } });
		free(qt);
		free(ql);
	}
	lst_plot_tpl(f, "hir", "eol", NULL);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}
