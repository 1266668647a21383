/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Port scaling: what a phase that sweeps `ports` gained from more paths. Its points' labels hold
 * `ports=SET` next to the other sweep values ("ports=a+b bs=128k"); points whose other values
 * are the same are one workload, run through different sets of paths. Each is compared with the
 * point of its workload that ran through the fewest paths (run.json says how many each point
 * ran: its agents' `paths`): two-port / one-port, in IOPS and MB/s.
 */
#include "lst_report_ports.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_html.h"
#include "lst_report_sections.h"
#include "lst_report_text.h"
#include "lst_util.h"

/* Split a label into its ports value and the rest (the workload), or false without ports. */
static bool s_split(const char *label, char *ports, size_t psize, char *rest, size_t rsize)
{
	const char *p = label;
	size_t n = 0;
	bool found = false;

	rest[0] = ports[0] = '\0';
	while (*p) {
		size_t len = strcspn(p, " ");

		if (len > 6 && !strncmp(p, "ports=", 6)) {
			snprintf(ports, psize, "%.*s", (int)(len - 6), p + 6);
			found = true;
		} else if (len && n < rsize) {
			n += (size_t)snprintf(rest + n, rsize - n, "%s%.*s", n ? " " : "", (int)len,
					      p);
		}
		p += len;
		p += *p == ' ';
	}
	return found;
}

size_t lst_report_point_paths(const lst_report *r, const char *phase, long point)
{
	json_t *phases = json_object_get(r->run, "phases"), *e;
	size_t i, n = 0;

	json_array_foreach (phases, i, e) {
		json_t *agents = json_object_get(e, "agents"), *a;
		const char *name;

		if (json_integer_value(json_object_get(e, "point")) != point ||
		    !json_is_string(json_object_get(e, "phase")) ||
		    strcmp(json_string_value(json_object_get(e, "phase")), phase))
			continue;
		n = 0; /* run.json: "agents": {NAME: {..., "paths": [...]}} */
		json_object_foreach (agents, name, a)
			n += json_array_size(json_object_get(a, "paths"));
	}
	return n;
}

/* One compared point: where it is, its ports, its paths and its base (fewest paths). */
struct s_cmp {
	const struct lst_rpt_point *p;
	char ports[128], workload[256];
	size_t paths;
	const struct s_cmp *base;
};

/* The shown points (idx[n]) of a ports sweep with their bases; NULL (and *m 0) without one. */
static struct s_cmp *s_compare(const lst_report *r, const size_t *idx, size_t n, size_t *m)
{
	struct s_cmp *c = lst_calloc(n + 1, sizeof(*c));

	*m = 0;
	for (size_t k = 0; k < n; k++) {
		struct s_cmp *x = &c[*m];

		x->p = &r->points[idx[k]];
		if (!s_split(x->p->name, x->ports, sizeof(x->ports), x->workload,
			     sizeof(x->workload)))
			continue;
		x->paths = lst_report_point_paths(r, x->p->phase, x->p->point);
		(*m)++;
	}
	for (size_t k = 0; k < *m; k++)
		for (size_t j = 0; j < *m; j++)
			if (!strcmp(c[j].workload, c[k].workload) &&
			    (!c[k].base || c[j].paths < c[k].base->paths))
				c[k].base = &c[j];
	if (!*m) {
		free(c);
		return NULL;
	}
	return c;
}

static double s_ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

void lst_report_ports_print(FILE *f, const struct lst_report_view *v)
{
	size_t m;
	struct s_cmp *c = s_compare(v->r, v->idx, v->n, &m);
	int wwork = 8, wports = 5;

	if (!c)
		return;
	for (size_t k = 0; k < m; k++) {
		wwork = LST_MAX(wwork, (int)strlen(c[k].workload));
		wports = LST_MAX(wports, (int)strlen(c[k].ports));
	}
	wwork = LST_MIN(wwork, LST_REPORT_LABEL_MAX);
	wports = LST_MIN(wports, LST_REPORT_LABEL_MAX);
	fprintf(f, "  port scaling (each workload against its point with the fewest paths):\n");
	fprintf(f, "    %-*s %-*s %5s %10s %9s %7s %7s\n", wwork, "WORKLOAD", wports, "PORTS",
		"PATHS", "IOPS", "MB/s", "x IOPS", "x MB/s");
	for (size_t k = 0; k < m; k++) {
		const struct lst_rpt_point *p = c[k].p, *b = c[k].base->p;
		char x[2][32], cell[2][LST_REPORT_LABEL_MAX + 1];

		fprintf(f, "    %-*s %-*s %5zu %10.0f %9.1f %7s %7s\n", wwork,
			lst_report_cell(*c[k].workload ? c[k].workload : "-", wwork, cell[0],
					sizeof(cell[0])),
			wports, lst_report_cell(c[k].ports, wports, cell[1], sizeof(cell[1])),
			c[k].paths, p->iops[0] + p->iops[1], p->mbps[0] + p->mbps[1],
			lst_report_fmt(s_ratio(p->iops[0] + p->iops[1], b->iops[0] + b->iops[1]),
				       "%.2f", x[0], sizeof(x[0])),
			lst_report_fmt(s_ratio(p->mbps[0] + p->mbps[1], b->mbps[0] + b->mbps[1]),
				       "%.2f", x[1], sizeof(x[1])));
	}
	free(c);
}

void lst_report_ports_set_json(const struct lst_report_view *v, json_t *o)
{
	size_t m;
	struct s_cmp *c = s_compare(v->r, v->idx, v->n, &m);
	json_t *a = json_array();

	for (size_t k = 0; k < m; k++) {
		const struct lst_rpt_point *p = c[k].p, *b = c[k].base->p;

		json_array_append_new(
			a, json_pack("{s:I, s:s, s:s, s:I, s:I, s:o, s:o}", "point",
				     (json_int_t)p->point, "workload", c[k].workload, "ports",
				     c[k].ports, "paths", (json_int_t)c[k].paths, "base_point",
				     (json_int_t)b->point, "iops_ratio",
				     lst_report_json_num(s_ratio(p->iops[0] + p->iops[1],
								 b->iops[0] + b->iops[1])),
				     "mbps_ratio",
				     lst_report_json_num(s_ratio(p->mbps[0] + p->mbps[1],
								 b->mbps[0] + b->mbps[1]))));
	}
	free(c);
	if (json_array_size(a))
		json_object_set_new(o, "ports", a);
	else
		json_decref(a);
}

void lst_report_ports_html(FILE *f, const struct lst_report_view *v)
{
	size_t m;
	struct s_cmp *c = s_compare(v->r, v->idx, v->n, &m);

	for (size_t k = 0; k < m; k++) {
		const struct lst_rpt_point *p = c[k].p, *b = c[k].base->p;

		if (!k)
			fputs("<h3>Port scaling</h3>\n<p class=\"note\">Each workload through each "
			      "set of ports, against its point with the fewest paths.</p>\n"
			      "<table class=\"ports\">\n<thead><tr><th>Workload</th><th>Ports</th>"
			      "<th class=\"n\">Paths</th><th class=\"n\">IOPS</th>"
			      "<th class=\"n\">MB/s</th><th class=\"n\">&times; IOPS</th>"
			      "<th class=\"n\">&times; MB/s</th></tr></thead>\n<tbody>\n",
			      f);
		fputs("<tr data-scaling=\"", f);
		lst_html_esc(f, p->phase);
		fprintf(f, "\" data-point=\"%ld\">", p->point);
		lst_html_td_text(f, c[k].workload);
		lst_html_td_text(f, c[k].ports);
		lst_html_td(f, "paths", (double)c[k].paths, "%.0f");
		lst_html_td(f, "iops", p->iops[0] + p->iops[1], "%.0f");
		lst_html_td(f, "mbps", p->mbps[0] + p->mbps[1], "%.1f");
		lst_html_td(f, "iops_ratio",
			    s_ratio(p->iops[0] + p->iops[1], b->iops[0] + b->iops[1]), "%.2f");
		lst_html_td(f, "mbps_ratio",
			    s_ratio(p->mbps[0] + p->mbps[1], b->mbps[0] + b->mbps[1]), "%.2f");
		fputs("</tr>\n", f);
	}
	if (m)
		fputs("</tbody>\n</table>\n", f);
	free(c);
}

/* Index of text in names[n], added at the end when absent. */
static size_t s_index(char (*names)[256], size_t *n, const char *text)
{
	for (size_t k = 0; k < *n; k++)
		if (!strcmp(names[k], text))
			return k;
	snprintf(names[*n], sizeof(names[*n]), "%s", text);
	return (*n)++;
}

bool lst_report_ports_table(const lst_report *r, const char *phase, struct lst_report_ports *t)
{
	size_t *idx = lst_calloc(r->npoints + 1, sizeof(*idx)), rows_all, m;
	size_t n = lst_report_shown(r, phase, idx, &rows_all);
	struct s_cmp *c = s_compare(r, idx, n, &m);
	char(*sets)[256];

	memset(t, 0, sizeof(*t));
	free(idx);
	if (!c)
		return false;
	t->work = lst_calloc(m, sizeof(*t->work));
	sets = lst_calloc(m, sizeof(*sets));
	t->paths = lst_calloc(m, sizeof(*t->paths));
	for (size_t k = 0; k < m; k++) {
		size_t s = s_index(sets, &t->nsets, c[k].ports);

		s_index(t->work, &t->nwork, c[k].workload);
		t->paths[s] = LST_MAX(t->paths[s], c[k].paths);
	}
	t->sets = lst_calloc(t->nsets, sizeof(*t->sets));
	for (size_t s = 0; s < t->nsets; s++)
		snprintf(t->sets[s], sizeof(t->sets[s]), "%s", sets[s]);
	t->mbps = lst_calloc(t->nwork * t->nsets, sizeof(*t->mbps));
	t->ratio = lst_calloc(t->nwork * t->nsets, sizeof(*t->ratio));
	t->iops = lst_calloc(t->nwork * t->nsets, sizeof(*t->iops));
	t->iops_ratio = lst_calloc(t->nwork * t->nsets, sizeof(*t->iops_ratio));
	for (size_t k = 0; k < t->nwork * t->nsets; k++)
		t->mbps[k] = t->ratio[k] = t->iops[k] = t->iops_ratio[k] = NAN;
	for (size_t k = 0; k < m; k++) {
		size_t w = s_index(t->work, &t->nwork, c[k].workload);
		size_t s = s_index(sets, &t->nsets, c[k].ports);
		const struct lst_rpt_point *p = c[k].p, *b = c[k].base->p;

		t->mbps[w * t->nsets + s] = p->mbps[0] + p->mbps[1];
		t->ratio[w * t->nsets + s] =
			s_ratio(p->mbps[0] + p->mbps[1], b->mbps[0] + b->mbps[1]);
		t->iops[w * t->nsets + s] = p->iops[0] + p->iops[1];
		t->iops_ratio[w * t->nsets + s] =
			s_ratio(p->iops[0] + p->iops[1], b->iops[0] + b->iops[1]);
	}
	free(sets);
	free(c);
	return true;
}

void lst_report_ports_free(struct lst_report_ports *t)
{
	free(t->work);
	free(t->sets);
	free(t->paths);
	free(t->mbps);
	free(t->ratio);
	free(t->iops);
	free(t->iops_ratio);
	memset(t, 0, sizeof(*t));
}
