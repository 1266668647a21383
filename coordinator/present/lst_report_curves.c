/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency-vs-IOPS curves of a phase of a report (see lst_report_curves.h).
 *
 * Points come from curves.csv (its rows of scope all, or of scope path for the per-path
 * curves), else, for a plain phase, from its summary points with their workload read from
 * run.json. They are gathered flat here, grouped, sorted and labelled by the maths
 * (lst_curves_group, coordinator/measure), and named here as the legends and headlines say them.
 */
#include "lst_report_curves.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_report_text.h"
#include "lst_util.h"

struct s_flats {
	struct lst_curve_flat *f;
	size_t n;
};

static void s_flat_add(struct s_flats *fs, const struct lst_curve_flat *f)
{
	fs->f = lst_realloc(fs->f, (fs->n + 1) * sizeof(*fs->f));
	fs->f[fs->n++] = *f;
}

/* The workload point `point` of `phase` ran, from run.json: block size, read %, jobs, depth,
 * rate. */
static void s_point_workload(const lst_report *r, const char *phase, long point,
			     struct lst_curve_flat *f)
{
	json_t *phases = json_object_get(r->run, "phases"), *e;
	size_t i;

	f->bs = f->mix = f->p.jobs = f->p.iodepth = f->p.rate = NAN;
	json_array_foreach (phases, i, e) {
		const char *name = json_string_value(json_object_get(e, "phase"));
		json_t *wl = json_object_get(e, "workload");
		const char *rw;

		if (!name || strcmp(name, phase) ||
		    json_integer_value(json_object_get(e, "point")) != point)
			continue;
		rw = json_string_value(json_object_get(wl, "rw"));
		f->bs = lst_report_wl_value(wl, "bs", true);
		f->mix = lst_report_wl_value(wl, "rwmixread", false);
		if (rw && (!strcmp(rw, "read") || !strcmp(rw, "randread")))
			f->mix = 100;
		if (rw && (!strcmp(rw, "write") || !strcmp(rw, "randwrite")))
			f->mix = 0;
		f->p.jobs = lst_report_wl_value(wl, "jobs", false);
		f->p.iodepth = lst_report_wl_value(wl, "iodepth", false);
		f->p.rate = lst_report_wl_value(wl, "rate_iops", false);
		if (f->p.rate == 0)
			f->p.rate = NAN;
		return;
	}
}

static void s_from_curve_row(const struct lst_rpt_curve *cv, struct lst_curve_flat *f)
{
	memset(f, 0, sizeof(*f));
	f->agent = cv->agent;
	f->path = cv->path;
	f->bs = cv->bs;
	f->mix = cv->rwmixread;
	f->p.jobs = cv->jobs;
	f->p.iodepth = cv->iodepth;
	f->p.order = cv->jobs * cv->iodepth;
	f->p.rate = isnan(cv->rate_iops) || cv->rate_iops <= 0 ? NAN : cv->rate_iops;
	f->p.target_pct = isnan(cv->target_pct) || cv->target_pct <= 0 ? NAN : cv->target_pct;
	f->p.iops = cv->iops;
	f->p.mbps = cv->mbps;
	f->p.lat_dir[0] = cv->lat_p99_dir[0];
	f->p.lat_dir[1] = cv->lat_p99_dir[1];
	f->p.lat[LST_CV_MEAN] = cv->lat_mean;
	f->p.lat[LST_CV_P99] = cv->lat_p99;
	f->p.lat[LST_CV_P99_9] = cv->lat_p99_9;
	f->p.lat[LST_CV_P99_99] = cv->lat_p99_99;
}

/*
 * The sweep values of a point's label ("iodepth=8 pattern=compressible=50") that are no
 * coordinate of a curve, into axes ("pattern=compressible=50"): each such value is a curve of
 * its own. The label splits at spaces, each part at its first '=' (lst_plan_phase_point).
 */
static void s_other_axes(const char *label, char *axes, size_t size)
{
	static const char *const coords[] = { "bs", "rwmixread", "jobs", "iodepth", "rate_iops" };
	size_t n = 0;

	axes[0] = '\0';
	for (const char *p = label; *p;) {
		size_t len = strcspn(p, " "), name = strcspn(p, "= ");
		bool coord = name == len;

		for (size_t k = 0; k < LST_ARRAY_SIZE(coords) && !coord; k++)
			coord = strlen(coords[k]) == name && !strncmp(p, coords[k], name);
		if (!coord && n < size)
			n += (size_t)snprintf(axes + n, size - n, "%s%.*s", n ? " " : "", (int)len,
					      p);
		p += len;
		p += *p == ' ';
	}
}

/* The label of point `point` of phase (its combined row), or "" when there is none. */
static const char *s_point_label(const lst_report *r, const char *phase, long point)
{
	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *p = &r->points[i];

		if (p->point == point && !strcmp(p->phase, phase) && !strcmp(p->agent, "all"))
			return p->label;
	}
	return "";
}

/* A plain phase's summary points (agent all; the last round of each point). */
static void s_from_summary(const lst_report *r, const char *phase, struct s_flats *fs)
{
	size_t rows, *idx = lst_calloc(r->npoints + 1, sizeof(*idx));
	size_t shown = lst_report_shown(r, phase, idx, &rows);

	for (size_t i = 0; i < shown; i++) {
		const struct lst_rpt_point *pt = &r->points[idx[i]];
		struct lst_curve_flat f = { .agent = "", .path = "" };

		s_point_workload(r, phase, pt->point, &f);
		s_other_axes(pt->label, f.axes, sizeof(f.axes));
		f.p.order = f.p.jobs * f.p.iodepth;
		if (isnan(f.p.order))
			f.p.order = (double)pt->point;
		f.p.target_pct = NAN;
		f.p.iops = pt->iops[0] + pt->iops[1];
		f.p.mbps = pt->mbps[0] + pt->mbps[1];
		f.p.lat_dir[0] = pt->lat_p99_dir[0];
		f.p.lat_dir[1] = pt->lat_p99_dir[1];
		f.p.lat[LST_CV_MEAN] = pt->lat_mean;
		f.p.lat[LST_CV_P99] = pt->lat_p99;
		f.p.lat[LST_CV_P99_9] = pt->lat_p99_9;
		f.p.lat[LST_CV_P99_99] = pt->lat_p99_99;
		s_flat_add(fs, &f);
	}
	free(idx);
}

static void s_curve_name(struct lst_curve *c, bool jobs, bool bsmix)
{
	char bs[32], mix[32];
	size_t len = 0;

	c->name[0] = '\0';
	if (*c->part)
		len += (size_t)snprintf(c->name + len, sizeof(c->name) - len, "%s", c->part);
	if ((bsmix || (!jobs && !*c->part)) && (!isnan(c->bs) || !isnan(c->mix)) &&
	    len < sizeof(c->name))
		len += (size_t)snprintf(c->name + len, sizeof(c->name) - len, "%s%s R/W %s",
					len ? " " : "", lst_report_bs(c->bs, bs, sizeof(bs)),
					lst_report_mix(c->mix, mix, sizeof(mix)));
	if (*c->axes && len < sizeof(c->name))
		len += (size_t)snprintf(c->name + len, sizeof(c->name) - len, "%s%s",
					len ? " " : "", c->axes);
	if (jobs && len < sizeof(c->name))
		snprintf(c->name + len, sizeof(c->name) - len, "%sjobs=%g", len ? " " : "",
			 c->jobs);
	if (!c->name[0])
		snprintf(c->name, sizeof(c->name), "%s", c->phase);
}

/* Some combined point of phase has `ports=` in its label: the phase sweeps port sets. */
static bool s_ports_sweep(const lst_report *r, const char *phase)
{
	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *p = &r->points[i];
		const char *at;

		if (strcmp(p->phase, phase) || strcmp(p->agent, "all"))
			continue;
		at = strstr(p->label, "ports=");
		if (at && (at == p->label || at[-1] == ' '))
			return true;
	}
	return false;
}

size_t lst_curves_phase(const lst_report *r, const char *phase, bool paths, struct lst_curves *cs)
{
	const struct lst_rpt_phase *ph = lst_report_phase(r, phase);
	const struct lst_rpt_curve *rows = paths ? r->curve_parts : r->curves;
	size_t nrows = paths ? r->ncurve_parts : r->ncurves, first = cs->n;
	struct s_flats fs = { 0 };
	bool jobs, bsmix;
	size_t n;

	cs->from_summary = false;
	if (s_ports_sweep(r, phase))
		return 0;
	for (size_t i = 0; i < nrows; i++) {
		struct lst_curve_flat f;

		if (strcmp(rows[i].phase, phase) || (paths && strcmp(rows[i].scope, "path")))
			continue;
		s_from_curve_row(&rows[i], &f);
		if (!paths)
			f.agent = f.path = "";
		/* a plain phase's curves.csv row is its sweep point: its label has the other axes */
		if (ph && !*ph->suite)
			s_other_axes(s_point_label(r, phase, rows[i].point), f.axes,
				     sizeof(f.axes));
		s_flat_add(&fs, &f);
	}
	if (!fs.n && !paths && ph && !*ph->suite) {
		cs->from_summary = true;
		s_from_summary(r, phase, &fs);
	}
	lst_curves_group(phase, fs.f, fs.n, cs, &jobs, &bsmix);
	for (size_t i = first; i < cs->n; i++)
		s_curve_name(&cs->c[i], jobs, bsmix);
	n = fs.n;
	free(fs.f);
	return n;
}
