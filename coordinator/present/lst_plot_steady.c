/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The steady-state family (plots/steady.gp): per suite test, its tracked variable per round with
 * the measurement window, its average, the data-excursion band and the least-squares line.
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
#include "lst_report_text.h"
#include "lst_steady.h"
#include "lst_time.h"
#include "lst_util.h"

/* The steady-state plot after its data blocks (plots/steady.gp). */
static void s_steady_body(FILE *f, const struct lst_rpt_test *t, double slope, size_t n,
			  size_t first, size_t last, double avg, const char *title,
			  const char *what, const char *unit)
{
	char *qtitle = lst_plot__qstr("%s", title), *qwhat = lst_plot__qstr("%s", what);
	char *avg_title = lst_plot__qstr("window average %.6g", avg);
	char *fit_title =
		lst_plot__qstr("least-squares fit over the window (%+.4g per round)", slope);
	char xmax[32], x0[32], x1[32], sf[32], sl[32], sa[32];

	(void)t;
	snprintf(xmax, sizeof(xmax), "%.1f", (double)n + 0.5);
	snprintf(x0, sizeof(x0), "%.1f", (double)first - 0.5);
	snprintf(x1, sizeof(x1), "%.1f", (double)last + 0.5);
	snprintf(sf, sizeof(sf), "%zu", first);
	snprintf(sl, sizeof(sl), "%zu", last);
	snprintf(sa, sizeof(sa), "%.7g", avg);
	lst_plot_tpl(
		f, "steady", "head",
		(const struct lst_tpl_arg[]){
			{ "title", qtitle }, { "what", qwhat }, { "xmax", xmax }, { NULL, NULL } });
	if (n <= 40)
		lst_plot_tpl(f, "steady", "xtics", NULL);
	lst_plot_tpl(f, "steady", "yrange", NULL);
	if (strcmp(unit, "IOPS") == 0)
		lst_plot_tpl(f, "steady", "iops_format", NULL);
	lst_plot_tpl(f, "steady", "plot",
		     (const struct lst_tpl_arg[]){
			     { "x0", x0 },
			     { "x1", x1 },
			     { "first", sf },
			     { "last", sl },
			     { "avg", sa },
			     { "avg_title", avg_title },
			     { "fit_title", fit_title },
			     { "color", lst_plot__colors[0] },
			     { NULL, NULL },
		     });
	free(qtitle);
	free(qwhat);
	free(avg_title);
	free(fit_title);
}

static void s_plot_steady(struct lst_plot__ctx *c, const lst_report *r,
			  const struct lst_rpt_test *t)
{
	size_t n = t->nvalues, first, last, window;
	const char *unit = lst_report_unit(t->tracked), *name;
	struct lst_steady st;
	double avg, data_pct, slope_pct;
	char title[768], verdict[160], what[128];
	FILE *f;

	if (!n)
		return;
	window = t->window >= 2 ? (size_t)t->window : LST_STEADY_WINDOW;
	last = t->window_last >= 1 && (size_t)t->window_last <= n ? (size_t)t->window_last : n;
	/* The fit over the window, from the values (the same maths as the run's verdict). */
	lst_steady_eval(t->values, last, LST_MIN(window, LST_MAX(last, 2)), t->data_limit,
			t->slope_limit, &st);
	/*
	 * The window the verdict used. A test that only reports steady state (WSAT) gives the
	 * rounds it averaged instead, while its excursions are over the last `window` rounds.
	 */
	first = t->required && t->window_first >= 1 && (size_t)t->window_first <= last
			? (size_t)t->window_first
			: st.first + 1;
	avg = isnan(t->average) ? st.average : t->average;
	data_pct = isnan(t->data_pct) ? st.data_excursion_pct : t->data_pct;
	slope_pct = isnan(t->slope_pct) ? st.slope_excursion_pct : t->slope_pct;

	name = lst_plot__name(c, "steady", t->phase, *t->test ? t->test : NULL);
	f = lst_plot__script(c, name, "SNIA steady-state window of one test");
	if (!f)
		return;
	fputs("$v << EOD\n", f);
	lst_plot__comment(f, "round, %s", *t->tracked ? t->tracked : "tracked value");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%zu", i + 1);
		lst_plot__num(f, t->values[i]);
		fputc('\n', f);
	}
	fputs("EOD\n$band << EOD\n", f);
	lst_plot__comment(f, "the measurement window: round, 90%% and 110%% of its average");
	fprintf(f, "%.1f %.7g %.7g\n%.1f %.7g %.7g\nEOD\n", (double)first - 0.5, 0.9 * avg,
		1.1 * avg, (double)last + 0.5, 0.9 * avg, 1.1 * avg);
	fputs("$fit << EOD\n", f);
	lst_plot__comment(f, "least-squares line over the window: round, value");
	if (last - first >= 1)
		fprintf(f, "%zu %.7g\n%zu %.7g\n", first, st.intercept, last,
			st.intercept + st.slope * (double)(last - first));
	fputs("EOD\n", f);

	if (!t->required)
		snprintf(verdict, sizeof(verdict), "%ld rounds (steady state not required)",
			 t->rounds);
	else if (t->steady)
		snprintf(verdict, sizeof(verdict), "steady state reached at round %zu", last);
	else
		snprintf(verdict, sizeof(verdict), "NOT steady after %ld rounds%s", t->rounds,
			 t->max_rounds_hit ? " (round limit reached)" : "");
	snprintf(what, sizeof(what), "%s%s%s%s", *t->tracked ? t->tracked : "value",
		 *unit ? " (" : "", unit, *unit ? ")" : "");
	snprintf(title, sizeof(title),
		 "Steady state — test %s, phase %s%s%s%s: %s\n"
		 "window rounds %zu–%zu: average %.6g, data excursion %.2f%% (limit %g%%), "
		 "slope excursion %.2f%% (limit %g%%)\n%s, run %s",
		 *t->test ? t->test : "-", t->phase, *t->suite ? " (" : "", t->suite,
		 *t->suite ? ")" : "", verdict, first, last, avg, data_pct, t->data_limit,
		 slope_pct, t->slope_limit, r->title, r->run_id);
	lst_plot__begin(f, name, 1200, 700);
	s_steady_body(f, t, st.slope, n, first, last, avg, title, what, unit);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}

void lst_plot__steady(struct lst_plot__ctx *c, const lst_report *r)
{
	for (size_t i = 0; i < r->ntests; i++)
		s_plot_steady(c, r, &r->tests[i]);
}
