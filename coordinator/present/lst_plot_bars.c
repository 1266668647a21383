/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bar-chart plot families (lst_plot.h): the IOPS matrix (block size x read/write mix) and
 * port scaling (a sweep over `ports`: each workload through each set of paths, for the run and
 * per target). Both are boxes at computed places on a linear axis from zero, every bar labelled
 * with its value (plots/bars.gp), never a histogram on a log axis, whose bars carry no figure,
 * nor a line through port sets, which would read as a curve of rising demand.
 */
#include "lst_plot_int.h"
#include "lst_report_ports.h"
#include "lst_report_show.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_plot_tpl.h"
#include "lst_report_text.h"
#include "lst_util.h"

/*
 * A bar chart (plots/bars.gp): groups along x (block sizes, workloads), a bar per series in
 * each (mixes, port sets), every bar labelled with its value, on a linear axis from 0. Bars are
 * boxes at computed places, not a gnuplot histogram, so the labels sit on their bars.
 */
struct s_bars {
	const char *var; /* the datablock: "$m" */
	size_t ngroups, nseries;
	const char **groups;	   /* [ngroups] x tic labels; "" draws no tic */
	const char **series;	   /* [nseries] key titles */
	const char *const *colors; /* [nseries] */
	const double *v;	   /* [g * nseries + s]; NAN: no bar */
	char (*labels)[48];	   /* [g * nseries + s] the text over each bar */
};

/* The chart's datablock: group, a value per series, then each value's label. */
static void s_bars_block(FILE *f, const struct s_bars *b, const char *what)
{
	fprintf(f, "%s << EOD\n", b->var);
	lst_plot__comment(f, "%s: group, a value per series (columns 2 to %zu), their labels", what,
			  b->nseries + 1);
	for (size_t s = 0; s < b->nseries; s++)
		lst_plot__comment(f, "  column %zu: %s", s + 2, b->series[s]);
	for (size_t g = 0; g < b->ngroups; g++) {
		lst_plot__q(f, b->groups[g]);
		for (size_t s = 0; s < b->nseries; s++)
			lst_plot__num(f, b->v[g * b->nseries + s]);
		for (size_t s = 0; s < b->nseries; s++) {
			fputc(' ', f);
			lst_plot__q(f, b->labels[g * b->nseries + s]);
		}
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

/* The x tics: a group's name under it; none at all when no group has one (a single unnamed
 * workload gets no stray "-" tick). */
static void s_bars_tics(FILE *f, const struct s_bars *b)
{
	bool any = false;

	for (size_t g = 0; g < b->ngroups; g++) {
		if (!*b->groups[g])
			continue;
		fputs(any ? ", " : "set xtics (", f);
		lst_plot__q(f, b->groups[g]);
		fprintf(f, " %zu", g);
		any = true;
	}
	if (any)
		fputs(")\n", f);
	else
		lst_plot_tpl(f, "bars", "notics", NULL);
}

/* The chart's settings and plot command; key: the series get key entries. */
static void s_bars_plot(FILE *f, const struct s_bars *b, bool key)
{
	double bw = 0.8 / (double)b->nseries;
	char sbw[32], xmax[32];

	snprintf(sbw, sizeof(sbw), "%.4f", bw);
	snprintf(xmax, sizeof(xmax), "%.1f", (double)b->ngroups - 0.5);
	lst_plot_tpl(
		f, "bars", "head",
		(const struct lst_tpl_arg[]){ { "bw", sbw }, { "xmax", xmax }, { NULL, NULL } });
	s_bars_tics(f, b);
	lst_plot_tpl(f, "bars", "plot", NULL);
	for (size_t s = 0; s < b->nseries; s++) {
		char off[32], col[16], lcol[16], *q = lst_plot__qstr("%s", b->series[s]);
		char *title = key ? lst_asprintf("t %s", q) : lst_strdup("notitle");

		snprintf(off, sizeof(off), "%+.4f",
			 ((double)s - (double)(b->nseries - 1) / 2) * bw);
		snprintf(col, sizeof(col), "%zu", s + 2);
		snprintf(lcol, sizeof(lcol), "%zu", b->nseries + s + 2);
		lst_plot_tpl(f, "bars", "bar",
			     (const struct lst_tpl_arg[]){
				     { "sep", s ? ", \\\n" : "" },
				     { "var", b->var },
				     { "off", off },
				     { "col", col },
				     { "lcol", lcol },
				     { "color", b->colors[s] },
				     { "title", title },
				     /* many bars: labels upright over them would overlap */
				     { "rotate", b->ngroups * b->nseries > 12 ? "rotate by 90 left"
									      : "center" },
				     { NULL, NULL },
			     });
		free(title);
		free(q);
	}
	lst_plot_tpl(f, "bars", "eol", NULL);
}

/*
 * Bar colors by read share: the mix with the most reads deep blue, through grey, to deep red
 * for the most writes. By rank, so 100/0 and 95/5 still look different.
 */
static void s_mix_color(const struct lst_rpt_matrix *m, size_t k, char *buf, size_t size)
{
	static const int stops[5][3] = {
		{ 8, 81, 156 },	   { 107, 174, 214 }, { 189, 189, 189 },
		{ 252, 146, 114 }, { 165, 15, 21 },
	};
	double read = atof(m->mix[k]), pos, f;
	size_t rank = 0, seg;
	int rgb[3];

	for (size_t i = 0; i < m->nmix; i++)
		if (atof(m->mix[i]) > read)
			rank++;
	pos = m->nmix > 1 ? (double)rank / (double)(m->nmix - 1) * 4 : 0;
	seg = LST_MIN((size_t)pos, (size_t)3);
	f = pos - (double)seg;
	for (int i = 0; i < 3; i++)
		rgb[i] = (int)lround(stops[seg][i] + (stops[seg + 1][i] - stops[seg][i]) * f);
	snprintf(buf, size, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* The matrix plot's title: the phase, its tests' verdicts (steady or not, which rounds), run. */
static void s_matrix_title(const lst_report *r, const char *phase, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "IOPS by block size and read/write mix — phase %s",
				      phase);

	for (size_t i = 0; i < r->ntests && len < size; i++) {
		char verdict[512];

		if (strcmp(r->tests[i].phase, phase))
			continue;
		lst_report_verdict(&r->tests[i], verdict, sizeof(verdict));
		len += (size_t)snprintf(buf + len, size - len, "\n%s%s%s", r->tests[i].test,
					*r->tests[i].test ? ": " : "", verdict);
	}
	if (len < size)
		snprintf(buf + len, size - len, "\n%s, run %s", r->title, r->run_id);
}

void lst_plot__matrix(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_matrix *m)
{
	const char *phase = *m->phase ? m->phase : "iops", *name;
	size_t n = m->nbs * m->nmix;
	char(*bs)[32], (*colors)[16], title[2048], *q;
	struct s_bars b = { .var = "$m", .ngroups = m->nbs, .nseries = m->nmix, .v = m->iops };
	const char **color;
	bool any = false;
	FILE *f;

	for (size_t i = 0; i < n; i++)
		any |= m->iops[i] > 0;
	if (!m->nbs || !any)
		return;
	name = lst_plot__name(c, "matrix", phase, NULL);
	f = lst_plot__script(c, name, "IOPS matrix: block size x read/write mix, bars with values");
	if (!f)
		return;
	bs = lst_calloc(m->nbs, sizeof(*bs));
	colors = lst_calloc(m->nmix, sizeof(*colors));
	b.groups = lst_calloc(m->nbs, sizeof(*b.groups));
	b.series = lst_calloc(m->nmix, sizeof(*b.series));
	color = lst_calloc(m->nmix, sizeof(*color));
	b.colors = color;
	b.labels = lst_calloc(n + 1, sizeof(*b.labels));
	for (size_t i = 0; i < m->nbs; i++)
		b.groups[i] = lst_report_bs(m->bs[i], bs[i], sizeof(bs[i]));
	for (size_t k = 0; k < m->nmix; k++) {
		s_mix_color(m, k, colors[k], sizeof(colors[k]));
		color[k] = colors[k];
		b.series[k] = m->mix[k];
	}
	for (size_t i = 0; i < n; i++)
		if (isfinite(m->iops[i]))
			lst_plot__short_iops(m->iops[i], b.labels[i], sizeof(b.labels[i]));
	s_bars_block(f, &b, m->file);
	lst_plot__begin(f, name, 1200, 700);
	s_matrix_title(r, phase, title, sizeof(title));
	q = lst_plot__qstr("%s", title);
	lst_plot_tpl(f, "matrix", "head",
		     (const struct lst_tpl_arg[]){ { "title", q }, { NULL, NULL } });
	free(q);
	s_bars_plot(f, &b, true);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
	free(b.labels);
	free(color);
	free(b.series);
	free(b.groups);
	free(colors);
	free(bs);
}

/* A value and its ratio to the workload's fewest paths: "50.4k x1.42" (the base: no ratio). */
static void s_ports_label(double v, double ratio, bool mbps, char *buf, size_t size)
{
	char num[32];

	buf[0] = '\0';
	if (!isfinite(v))
		return;
	if (mbps)
		snprintf(num, sizeof(num), v >= 100 ? "%.0f" : "%.1f", v);
	else
		lst_plot__short_iops(v, num, sizeof(num));
	if (isfinite(ratio) && fabs(ratio - 1) >= 0.005)
		snprintf(buf, size, "%s x%.2f", num, ratio);
	else
		snprintf(buf, size, "%s", num);
}

/*
 * A phase that sweeps `ports`: IOPS and MB/s per set of paths as bars (a set is no point on a
 * curve), each labelled with its value and its ratio to the workload's fewest paths, a
 * workload per group, the key naming the sets as the plan does ("a+b"). target: the one
 * target whose rows r's points are (s_plot_ports), NULL for the whole run.
 */
static bool s_plot_ports_one(struct lst_plot__ctx *c, const lst_report *r,
			     const struct lst_rpt_phase *ph, const char *target)
{
	struct lst_report_ports t;
	struct s_bars b, mb;
	const char *name;
	char *title;
	size_t n;
	FILE *f;

	if (!lst_report_ports_table(r, ph->name, &t))
		return false;
	name = lst_plot__name(c, "ports", ph->name, target);
	f = lst_plot__script(c, name, "port scaling: IOPS and MB/s per set of active paths");
	if (!f) {
		lst_report_ports_free(&t);
		return true;
	}
	n = t.nwork * t.nsets;
	b = (struct s_bars){ .ngroups = t.nwork, .nseries = t.nsets };
	b.groups = lst_calloc(t.nwork, sizeof(*b.groups));
	b.series = lst_calloc(t.nsets, sizeof(*b.series));
	b.colors = lst_plot__colors;
	b.labels = lst_calloc(n + 1, sizeof(*b.labels));
	for (size_t w = 0; w < t.nwork; w++)
		b.groups[w] = t.work[w];
	for (size_t s = 0; s < t.nsets; s++)
		b.series[s] = t.sets[s];
	LST_ASSERT(t.nsets <= lst_plot__ncolors || !"more port sets than colours");
	mb = b;
	mb.var = "$mbps";
	mb.v = t.mbps;
	mb.labels = lst_calloc(n + 1, sizeof(*mb.labels));
	b.var = "$iops";
	b.v = t.iops;
	for (size_t i = 0; i < n; i++) {
		s_ports_label(t.iops[i], t.iops_ratio[i], false, b.labels[i], sizeof(b.labels[i]));
		s_ports_label(t.mbps[i], t.ratio[i], true, mb.labels[i], sizeof(mb.labels[i]));
	}
	s_bars_block(f, &b, "IOPS per port set");
	s_bars_block(f, &mb, "MB/s per port set");
	lst_plot__begin(f, name, 1200, 600);
	title = lst_plot__qstr("Port scaling — phase %s%s%s\n%s, run %s", ph->name,
			       target ? ", target " : "", target ? target : "", r->title,
			       r->run_id);
	lst_plot_tpl(f, "ports", "head",
		     (const struct lst_tpl_arg[]){ { "title", title }, { NULL, NULL } });
	free(title);
	lst_plot_tpl(f, "ports", "iops", NULL);
	s_bars_plot(f, &b, true);
	lst_plot_tpl(f, "ports", "mbps", NULL);
	s_bars_plot(f, &mb, false);
	lst_plot_tpl(f, "ports", "tail", NULL);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
	free(mb.labels);
	free(b.labels);
	free(b.series);
	free(b.groups);
	lst_report_ports_free(&t);
	return true;
}

/* The combined point of r that part (a target's or path's row) belongs to, or NULL. */
static const struct lst_rpt_point *s_part_point(const lst_report *r,
						const struct lst_rpt_point *part)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (r->points[i].point == part->point && !strcmp(r->points[i].phase, part->phase) &&
		    !strcmp(r->points[i].agent, "all"))
			return &r->points[i];
	return NULL;
}

/*
 * The ports plot of phase, and when the plan has several targets one per target (each
 * target's "one port against both", from its summary rows of scope target, as the combined
 * figure would hide a target that did not scale behind one that did).
 */
void lst_plot__ports(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph)
{
	const char *targets[32];
	size_t ntargets = 0;

	if (!s_plot_ports_one(c, r, ph, NULL))
		return;
	for (size_t i = 0; i < r->nparts; i++) {
		const struct lst_rpt_point *p = &r->parts[i];
		bool known = false;

		if (strcmp(p->phase, ph->name) || strcmp(p->scope, "target") || !*p->target)
			continue;
		for (size_t k = 0; k < ntargets; k++)
			known |= !strcmp(targets[k], p->target);
		if (!known && ntargets < LST_ARRAY_SIZE(targets))
			targets[ntargets++] = p->target;
	}
	for (size_t k = 0; k < ntargets && ntargets > 1; k++) {
		lst_report sub = *r; /* its points: the target's rows, as if they were the run's */
		struct lst_rpt_point *pts = lst_calloc(r->nparts + 1, sizeof(*pts));

		sub.npoints = 0;
		for (size_t i = 0; i < r->nparts; i++) {
			const struct lst_rpt_point *p = &r->parts[i], *all = s_part_point(r, p);

			if (strcmp(p->phase, ph->name) || strcmp(p->scope, "target") ||
			    strcmp(p->target, targets[k]) || !all)
				continue;
			pts[sub.npoints] = *p;
			pts[sub.npoints].agent = "all"; /* what the ports table reads */
			pts[sub.npoints].name = all->name;
			pts[sub.npoints++].test = all->test;
		}
		sub.points = pts;
		s_plot_ports_one(c, &sub, ph, targets[k]);
		free(pts);
	}
}
