/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep report DIR --html`: one HTML page a lab can publish, from the same model (lst_report)
 * and the same figures (lst_figures) as the text and JSON reports, so the three never disagree.
 *
 * The page is self-contained: inline CSS, no script, and the plots lst_plot_report drew put in
 * as inline SVG (their XML prolog and namespace declarations dropped, every id given a prefix
 * per plot so two plots' ids never collide). Nothing refers to a URL, so the page opens the
 * same offline, from a mail attachment or in ten years. Sections: a title block, the run
 * (plan, versions, coordinator), agents with clock offsets, devices with their identities,
 * start skews; per phase the summary table (combined rows, then per agent, target and path),
 * the headline figures of its latency-vs-IOPS curves, the balance between agents and paths,
 * the port scaling of a ports sweep, steady-state verdicts with their window plots, the IOPS
 * matrix and the plots; errors and events (retries, resumes, lost agents); the plan's text.
 *
 * Numbers are right-aligned in tabular figures, units in the column heads; a summary row gives
 * the read and the write latency apart as well as combined. Summary rows carry their key
 * (data-phase, data-point, data-scope, data-agent, data-target, data-path) and each figure its
 * column (data-col), so a script can check the page against summary.csv. The print
 * style starts every phase on a new page, repeats table heads, and keeps rows and plots whole.
 */
#include "lst_report_html.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_compare.h"
#include "lst_report_curves.h"
#include "lst_figures.h"
#include "lst_html.h"
#include "lst_report_sections.h"
#include "lst_report_show.h"
#include "lst_report_text.h"
#include "lst_steady.h"
#include "lst_util.h"

#define S_ROWS_MAX 200 /* points per phase table; summary.csv has them all */
#define S_PARTS_MAX 16 /* agent / path rows under each point up to this many points */
#define S_SVG_MAX (64u * 1024 * 1024) /* an inlined plot */
#define S_BALANCE_MAX 64

struct s_ctx {
	FILE *f;
	const lst_report *r;
	const struct lst_report_html_plots *pl;
	const lst_compare *k; /* a comparison (r is its run A) */
	json_t *cmp;	      /* a comparison, as lst_compare_json gives it */
	bool *used;	      /* per plot: already in the page */
	int seq;	      /* plots inlined, for their id prefix */
};

/* --- text ------------------------------------------------------------------------------------ */

static const char *s_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* --- head, style ----------------------------------------------------------------------------- */

static const char s_css[] =
	":root{--ink:#1a1f24;--muted:#5b6670;--rule:#d5dbe0;--band:#f4f6f8;--accent:#1f5f99;"
	"--ok:#1e7a3c;--bad:#b3261e;--warn:#8a5a00}\n"
	"*{box-sizing:border-box}\n"
	"html{font-size:15px}\n"
	"body{margin:0 auto;max-width:1240px;padding:28px 36px 60px;color:var(--ink);"
	"background:#fff;font-family:\"Source Sans 3\",\"Source Sans Pro\",\"Segoe UI\","
	"\"Helvetica Neue\",Arial,\"Liberation Sans\",sans-serif;line-height:1.45}\n"
	"h1{font-size:1.9rem;margin:0 0 .2rem;font-weight:600;letter-spacing:-.01em}\n"
	"h2{font-size:1.35rem;margin:2.4rem 0 .6rem;padding-bottom:.25rem;"
	"border-bottom:2px solid var(--ink);font-weight:600}\n"
	"h3{font-size:1.05rem;margin:1.6rem 0 .5rem;font-weight:600;color:var(--ink)}\n"
	"p{margin:.4rem 0}\n"
	".sub{color:var(--muted);font-size:1rem;margin-bottom:1rem}\n"
	".titleblock{border-top:6px solid var(--accent);padding-top:14px;margin-bottom:8px}\n"
	".facts{display:grid;grid-template-columns:repeat(4,1fr);gap:0;border:1px solid "
	"var(--rule);margin:14px 0 6px}\n"
	".facts div{padding:8px 12px;border-right:1px solid var(--rule)}\n"
	".facts div:last-child{border-right:0}\n"
	".facts .k{display:block;font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;"
	"color:var(--muted)}\n"
	".facts .v{font-size:1.05rem;font-weight:600}\n"
	".ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}\n"
	"nav.toc{font-size:.9rem;color:var(--muted);margin:10px 0 0}\n"
	"nav.toc a{color:var(--accent);text-decoration:none;margin-right:14px;white-space:nowrap}\n"
	"table{border-collapse:collapse;margin:.4rem 0 1rem;font-size:.86rem;"
	"font-variant-numeric:tabular-nums lining-nums}\n"
	"th,td{padding:4px 7px;border-bottom:1px solid var(--rule);vertical-align:top;"
	"text-align:left}\n"
	"thead th{border-bottom:1.5px solid var(--ink);font-weight:600;white-space:nowrap}\n"
	"th.n,td.n{text-align:right;white-space:nowrap}\n"
	"th .u{font-weight:400;color:var(--muted)}\n"
	/* a long label (60 characters of sweep values) wraps, not pushing figures off the page */
	"table.points td:first-child,table.balance td:first-child{min-width:12rem;max-width:24rem;"
	"overflow-wrap:anywhere}\n"
	".who{color:var(--muted)}\n"
	"th.grp{text-align:center;border-bottom:1px solid var(--rule)}\n"
	"td.chg{border-right:1px solid var(--rule)}\n"
	"table.compare{font-size:.8rem}table.compare td,table.compare th{padding:3px 5px}\n"
	"table.runs td{min-width:17rem}\n"
	".bar{display:flex;height:5px;margin-top:3px;background:var(--rule);"
	"print-color-adjust:exact;-webkit-print-color-adjust:exact}\n"
	".bar span{display:block;height:100%;background:var(--accent)}\n"
	".bar span:nth-child(2n){background:#8fb3d3}\n"
	"tr.sub td{color:var(--muted);font-size:.82rem;border-bottom-style:dotted}\n"
	"tr.sub td:first-child{padding-left:26px}\n"
	"tr.main td{border-top:1px solid #aab4bd}\n"
	"table.kv th{font-weight:600;color:var(--muted);width:11rem;border-bottom:1px solid "
	"var(--rule)}\n"
	"td.mono,pre,code{font-family:\"DejaVu Sans Mono\",\"Liberation Mono\",Menlo,Consolas,"
	"monospace;font-size:.8rem}\n"
	"pre{background:var(--band);border:1px solid var(--rule);padding:10px 12px;"
	"white-space:pre-wrap;word-break:break-word}\n"
	"figure.plot{margin:.8rem 0 1.4rem;break-inside:avoid}\n"
	"figure.plot svg{display:block;width:100%;max-width:900px;height:auto}\n"
	"figcaption{font-size:.82rem;color:var(--muted);margin-top:.2rem}\n"
	".note{font-size:.85rem;color:var(--muted)}\n"
	".callout{border-left:4px solid var(--warn);background:#fdf7ea;padding:8px 12px;"
	"margin:.6rem 0;font-size:.9rem}\n"
	".callout.bad{border-left-color:var(--bad);background:#fbeeed;color:var(--ink)}\n"
	"footer{margin-top:3rem;padding-top:.6rem;border-top:1px solid var(--rule);"
	"font-size:.8rem;color:var(--muted)}\n"
	"@page{size:A4;margin:14mm 12mm}\n"
	"@media print{html{font-size:10.5pt}body{max-width:none;padding:0}"
	"section.phase,section.appendix{break-before:page}"
	"h2,h3{break-after:avoid}tr,figure,.facts{break-inside:avoid}"
	"thead{display:table-header-group}table{font-size:7.5pt}th,td{padding:2px 4px}"
	"thead th,thead th.n,table.points td:first-child{white-space:normal}"
	"nav.toc{display:none}pre,.callout{background:none}"
	"figure.plot svg{max-width:100%}a{color:inherit;text-decoration:none}}\n";

/* The page's head, its title "t1 — t2". */
static void s_head(FILE *f, const char *t1, const char *t2)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"lockstep " LST_VERSION "\">\n<title>",
	      f);
	lst_html_esc(f, t1);
	fputs(" \xe2\x80\x94 ", f);
	lst_html_esc(f, t2);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", s_css);
}

/* --- plots ----------------------------------------------------------------------------------- */

/* The index of plot name in the list, or -1. */
static long s_plot_find(const struct s_ctx *c, const char *name)
{
	const struct lst_plot_list *l = c->pl ? c->pl->made : NULL;

	for (size_t i = 0; l && i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return (long)i;
	return -1;
}

/* Plot i inline, with caption (may be NULL); a note when it was not drawn. */
static void s_plot_at(struct s_ctx *c, size_t i, const char *caption)
{
	const struct lst_plot_list *l = c->pl->made;
	char *path, *svg = NULL, *start;
	size_t len;
	int rc;

	c->used[i] = true;
	if (!l->drawn[i]) {
		fprintf(c->f,
			"<p class=\"note\">Plot <code>%s</code> not drawn%s (its script: "
			"<code>%s.gp</code>).</p>\n",
			l->names[i], c->pl->rc == -ENOENT ? ": gnuplot was not found" : "",
			l->names[i]);
		return;
	}
	path = lst_asprintf("%s/%s.svg", c->pl->dir, l->names[i]);
	rc = lst_read_file(path, S_SVG_MAX, &svg, &len);
	free(path);
	start = rc ? NULL : strstr(svg, "<svg");
	if (!start) {
		fprintf(c->f, "<p class=\"note\">Plot <code>%s.svg</code> could not be read.</p>\n",
			l->names[i]);
		free(svg);
		return;
	}
	fprintf(c->f, "<figure class=\"plot\" id=\"plot-%s\">\n", l->names[i]);
	{
		char pre[32];

		snprintf(pre, sizeof(pre), "p%d-", ++c->seq);
		lst_html_svg(c->f, start, pre);
	}
	fputs("\n<figcaption>", c->f);
	if (caption) {
		lst_html_esc(c->f, caption);
		fputs(" ", c->f);
	}
	fprintf(c->f, "<span class=\"mono\">(%s.svg)</span></figcaption>\n</figure>\n",
		l->names[i]);
	free(svg);
}

/* The plot named FAMILY_slug(a)[_slug(b)], if there is one not yet shown. */
static void s_plot(struct s_ctx *c, const char *family, const char *a, const char *b,
		   const char *caption)
{
	char sa[96], sb[96], name[300];
	long i;

	lst_plot_slug(a, sa, sizeof(sa));
	if (b)
		lst_plot_slug(b, sb, sizeof(sb));
	snprintf(name, sizeof(name), "%s_%s%s%s", family, sa, b ? "_" : "", b ? sb : "");
	i = s_plot_find(c, name);
	if (i >= 0 && !c->used[i])
		s_plot_at(c, (size_t)i, caption);
}

/* --- title block and run --------------------------------------------------------------------- */

static const char *s_status_class(const char *status)
{
	if (!strcmp(status, "complete"))
		return "ok";
	if (!strcmp(status, "partial") || !*status)
		return "warn";
	return "bad";
}

static void s_fact(FILE *f, const char *k, const char *v, const char *cls)
{
	fprintf(f, "<div><span class=\"k\">%s</span><span class=\"v%s%s\">", k, cls ? " " : "",
		cls ? cls : "");
	lst_html_esc(f, v);
	fputs("</span></div>\n", f);
}

/* An ISO 8601 UTC time as "2026-11-30 06:00:00 UTC" into buf; as given when it is not one. */
static const char *s_when(const char *iso, char *buf, size_t size)
{
	size_t n = strlen(iso);

	if (n < 20 || iso[10] != 'T' || iso[n - 1] != 'Z')
		return snprintf(buf, size, "%s", s_or(iso, "\xe2\x80\x93")), buf;
	snprintf(buf, size, "%.10s %.8s UTC", iso, iso + 11);
	return buf;
}

static void s_title(struct s_ctx *c)
{
	const lst_report *r = c->r;
	FILE *f = c->f;
	char n[64], w[64];
	size_t ntargets = json_array_size(json_object_get(r->run, "targets"));

	fputs("<header class=\"titleblock\">\n<h1>", f);
	lst_html_esc(f, s_or(r->plan_name, "lockstep run"));
	fputs("</h1>\n<div class=\"sub\">Storage performance report &middot; run <code>", f);
	lst_html_esc(f, r->run_id);
	fputs("</code>", f);
	if (*r->title) {
		fputs(" &middot; ", f);
		lst_html_esc(f, r->title);
	}
	fputs("</div>\n<div class=\"facts\">\n", f);
	s_fact(f, "Status", s_or(r->status, "running or stopped"), s_status_class(r->status));
	s_fact(f, "Started", s_when(r->started, w, sizeof(w)), NULL);
	s_fact(f, "Finished", s_when(r->finished, w, sizeof(w)), NULL);
	snprintf(n, sizeof(n), "%zu agent%s, %zu target%s, %zu phase%s", r->nagents,
		 r->nagents == 1 ? "" : "s", ntargets, ntargets == 1 ? "" : "s", r->nphases,
		 r->nphases == 1 ? "" : "s");
	s_fact(f, "Scope", n, NULL);
	fputs("</div>\n<nav class=\"toc\"><a href=\"#run\">Run</a><a href=\"#agents\">Agents</a>"
	      "<a href=\"#devices\">Devices</a>",
	      f);
	for (size_t i = 0; i < r->nphases; i++) {
		fprintf(f, "<a href=\"#phase-%zu\">", i);
		lst_html_esc(f, r->phases[i].name);
		fputs("</a>", f);
	}
	fputs("<a href=\"#events\">Errors and events</a><a href=\"#plan\">Plan</a></nav>\n"
	      "</header>\n",
	      f);
}

static void s_kv(FILE *f, const char *k, const char *v)
{
	fprintf(f, "<tr><th>%s</th><td>", k);
	lst_html_esc(f, s_or(v, "\xe2\x80\x93"));
	fputs("</td></tr>\n", f);
}

static void s_run(struct s_ctx *c)
{
	const lst_report *r = c->r;
	json_t *versions = json_object_get(r->run, "versions"), *v;
	const char *key;
	FILE *f = c->f;

	fputs("<section id=\"run\">\n<h2>Run</h2>\n<table class=\"kv\">\n", f);
	s_kv(f, "Run id", r->run_id);
	s_kv(f, "Plan", r->plan_name);
	s_kv(f, "Plan file", r->plan_file);
	s_kv(f, "Plan SHA-1", json_string_value(json_object_get(r->run, "plan_sha1")));
	s_kv(f, "Results folder", r->dir);
	s_kv(f, "Coordinator", r->coordinator);
	json_object_foreach (versions, key, v) {
		char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY);

		fputs("<tr><th>Version: ", f);
		lst_html_esc(f, key);
		fputs("</th><td>", f);
		lst_html_esc(f, json_is_string(v) ? json_string_value(v) : s_or(text, "?"));
		fputs("</td></tr>\n", f);
		free(text);
	}
	fputs("</table>\n<p class=\"note\">The plan's text is at the end of this report "
	      "(<a href=\"#plan\">Plan</a>).</p>\n</section>\n",
	      f);
}

static void s_agents(struct s_ctx *c)
{
	const lst_report *r = c->r;
	json_t *ja = json_object_get(r->run, "agents");
	FILE *f = c->f;

	fputs("<section id=\"agents\">\n<h2>Agents</h2>\n<table>\n<thead><tr><th>Agent</th>"
	      "<th>Host</th><th>Address</th><th>Version</th><th>Kernel</th><th class=\"n\">Cores"
	      "</th><th class=\"n\">Clock offset <span class=\"u\">&micro;s</span></th>"
	      "<th class=\"n\">RTT <span class=\"u\">&micro;s</span></th><th class=\"n\">Drift "
	      "<span class=\"u\">ppm</span></th><th>State</th></tr></thead>\n<tbody>\n",
	      f);
	for (size_t i = 0; i < r->nagents; i++) {
		const struct lst_rpt_agent *a = &r->agents[i];
		json_t *o = NULL, *x;
		size_t k;

		json_array_foreach (ja, k, x)
			if (!strcmp(s_or(json_string_value(json_object_get(x, "name")), ""),
				    a->name))
				o = x;
		fputs("<tr>", f);
		lst_html_td_text(f, a->name);
		lst_html_td_text(f, a->host);
		lst_html_td_text(f, a->address);
		lst_html_td_text(f, a->version);
		lst_html_td_text(f, json_string_value(json_object_get(o, "kernel")));
		lst_html_td(f, "cores", a->cores >= 0 ? (double)a->cores : NAN, "%.0f");
		lst_html_td(f, "clock_offset_us", a->clock_offset_us, "%+.1f");
		lst_html_td(f, "rtt_us", a->rtt_us, "%.1f");
		lst_html_td(f, "drift_ppm",
			    json_is_number(json_object_get(o, "drift_ppm"))
				    ? json_number_value(json_object_get(o, "drift_ppm"))
				    : NAN,
			    "%+.2f");
		fprintf(f, "<td class=\"%s\">", a->lost ? "bad" : "ok");
		if (a->lost) {
			fputs("lost", f);
			if (*a->lost_why) {
				fputs(": ", f);
				lst_html_esc(f, a->lost_why);
			}
		} else {
			fputs("ok", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n<p class=\"note\">Clock offset: the agent's clock minus the "
	      "coordinator's, from NTP-style exchanges (clock.csv); RTT of the best exchange."
	      "</p>\n</section>\n",
	      f);
}

/* Whether o's string key is s. */
static bool s_same(json_t *o, const char *key, const char *s)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v && !strcmp(v, s);
}

/* A device's vendor and model ("TOSHIBA PX05SRB040") as a cell. */
static void s_td_model(FILE *f, json_t *id)
{
	const char *vendor = json_string_value(json_object_get(id, "vendor"));
	const char *model = json_string_value(json_object_get(id, "model"));

	fputs("<td>", f);
	if (vendor && *vendor) {
		lst_html_esc(f, vendor);
		fputs(" ", f);
	}
	lst_html_esc(f, model && *model ? model : vendor && *vendor ? "" : "\xe2\x80\x93");
	fputs("</td>", f);
}

static void s_devices(struct s_ctx *c)
{
	json_t *targets = json_object_get(c->r->run, "targets"), *t;
	FILE *f = c->f;
	size_t i;

	fputs("<section id=\"devices\">\n<h2>Devices</h2>\n<table>\n<thead><tr><th>Target</th>"
	      "<th>Share</th><th>Agent</th><th>Path</th><th>Kind</th><th>Model</th>"
	      "<th>Serial</th><th>Firmware</th><th>WWN</th><th class=\"n\">Size</th>"
	      "<th class=\"n\">Block <span class=\"u\">B</span></th></tr></thead>\n<tbody>\n",
	      f);
	json_array_foreach (targets, i, t) {
		json_t *paths = json_object_get(t, "paths"), *p;
		json_t *ids = json_object_get(t, "identities");
		size_t k;

		json_array_foreach (paths, k, p) {
			const char *path = json_string_value(json_object_get(p, "path"));
			json_t *id = NULL, *x, *size;
			size_t j;
			char sz[32] = "";

			json_array_foreach (ids, j, x)
				if (path &&
				    (s_same(x, "path", path) || s_same(x, "real_path", path)))
					id = x;
			if (!id) /* the identities are in the order of the paths */
				id = json_array_get(ids, k);
			size = json_object_get(id ? id : t, "size");
			if (json_is_integer(size))
				lst_fmt_size((uint64_t)json_integer_value(size), sz, sizeof(sz));
			fputs(k ? "<tr class=\"sub\">" : "<tr>", f);
			lst_html_td_text(f, json_string_value(json_object_get(t, "name")));
			lst_html_td_text(f, json_string_value(json_object_get(t, "share")));
			lst_html_td_text(f, json_string_value(json_object_get(p, "agent")));
			fputs("<td class=\"mono\">", f);
			lst_html_esc(f, s_or(path, "?"));
			fputs("</td>", f);
			lst_html_td_text(f, json_string_value(json_object_get(id, "kind")));
			s_td_model(f, id);
			lst_html_td_text(f, json_string_value(json_object_get(id, "serial")));
			lst_html_td_text(f, json_string_value(json_object_get(id, "firmware")));
			lst_html_td_text(f, json_string_value(json_object_get(id, "wwn")));
			fprintf(f, "<td class=\"n\">%s</td>", *sz ? sz : "&ndash;");
			lst_html_td(f, "logical_block_size",
				    json_is_integer(json_object_get(id, "logical_block_size"))
					    ? (double)json_integer_value(
						      json_object_get(id, "logical_block_size"))
					    : NAN,
				    "%.0f");
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody>\n</table>\n<p class=\"note\">What each agent found at its path before "
	      "writing anything (run.json targets[].identities).</p>\n",
	      f);
}

static int s_dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Per phase: points, median and largest start skew (run.json phases[].start_skew_us). */
static void s_skews(struct s_ctx *c)
{
	json_t *runs = json_object_get(c->r->run, "phases"), *p;
	size_t n = json_array_size(runs);
	double *v = lst_calloc(n + 1, sizeof(*v));
	FILE *f = c->f;

	fputs("<h3>Start skew</h3>\n<table>\n<thead><tr><th>Phase</th><th class=\"n\">Points "
	      "run</th><th class=\"n\">Median skew <span class=\"u\">&micro;s</span></th>"
	      "<th class=\"n\">Largest skew <span class=\"u\">&micro;s</span></th></tr></thead>\n"
	      "<tbody>\n",
	      f);
	for (size_t i = 0; i < c->r->nphases; i++) {
		const char *name = c->r->phases[i].name;
		size_t k, m = 0, all = 0;

		json_array_foreach (runs, k, p) {
			json_t *s = json_object_get(p, "start_skew_us");

			if (strcmp(s_or(json_string_value(json_object_get(p, "phase")), ""), name))
				continue;
			all++;
			if (json_is_number(s))
				v[m++] = json_number_value(s);
		}
		qsort(v, m, sizeof(*v), s_dcmp);
		fputs("<tr>", f);
		lst_html_td_text(f, name);
		lst_html_td(f, "points", (double)all, "%.0f");
		lst_html_td(f, "skew_median_us", m ? v[m / 2] : NAN, "%.1f");
		lst_html_td(f, "skew_max_us", m ? v[m - 1] : NAN, "%.1f");
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n<p class=\"note\">The spread of the agents' actual start times "
	      "of each point, on the coordinator's clock.</p>\n</section>\n",
	      f);
	free(v);
}

/* --- a phase --------------------------------------------------------------------------------- */

/* Two rows of heads: the read and write latency are each a group of mean and p99 over the
 * second row, so the table keeps within the page's width. */
static void s_point_head(FILE *f, bool rounds)
{
	static const char *const one[] = { "IOPS",
					   "Read <span class=\"u\">IOPS</span>",
					   "Write <span class=\"u\">IOPS</span>",
					   "MB/s",
					   "Mean",
					   "p50",
					   "p99",
					   "p99.9",
					   "p99.99",
					   "Max" };

	fputs("<thead><tr><th rowspan=\"2\">Point</th>", f);
	if (rounds)
		fputs("<th class=\"n\" rowspan=\"2\">Last round</th>",
		      f); /* the window's: under Steady state */
	for (size_t i = 0; i < LST_ARRAY_SIZE(one); i++)
		fprintf(f, "<th class=\"n\" rowspan=\"2\">%s%s</th>", one[i],
			i >= 4 ? " <span class=\"u\">&micro;s</span>" : "");
	fputs("<th class=\"grp\" colspan=\"2\">Read <span class=\"u\">&micro;s</span></th>"
	      "<th class=\"grp\" colspan=\"2\">Write <span class=\"u\">&micro;s</span></th>"
	      "<th rowspan=\"2\">Notes</th></tr>\n<tr><th class=\"n\">mean</th>"
	      "<th class=\"n\">p99</th><th class=\"n\">mean</th><th class=\"n\">p99</th></tr>"
	      "</thead>\n",
	      f);
}

/* One summary row: label (escaped here), its key as data- attributes, its figures. */
static void s_point_row(FILE *f, const struct lst_rpt_point *p, const char *label, bool sub,
			bool rounds)
{
	fprintf(f, "<tr class=\"%s\" data-phase=\"", sub ? "sub" : "main");
	lst_html_esc(f, p->phase);
	fprintf(f, "\" data-point=\"%ld\" data-scope=\"%s\" data-agent=\"", p->point,
		*p->scope ? p->scope : (strcmp(p->agent, "all") ? "agent" : "all"));
	lst_html_esc(f, p->agent);
	fputs("\" data-target=\"", f);
	lst_html_esc(f, p->target);
	fputs("\" data-path=\"", f);
	lst_html_esc(f, p->path);
	fputs("\">", f);
	lst_html_td_text(f, label);
	if (rounds) {
		if (!sub && p->round > 0)
			lst_html_td(f, "round", (double)p->round, "%.0f");
		else
			fputs("<td></td>", f);
	}
	lst_html_td(f, "iops", p->iops[0] + p->iops[1], "%.0f");
	lst_html_td(f, "read_iops", p->iops[0], "%.0f");
	lst_html_td(f, "write_iops", p->iops[1], "%.0f");
	lst_html_td(f, "mbps", p->mbps[0] + p->mbps[1], "%.1f");
	lst_html_td(f, "lat_mean_us", p->lat_mean, "%.1f");
	lst_html_td(f, "lat_p50_us", p->lat_p50, "%.1f");
	lst_html_td(f, "lat_p99_us", p->lat_p99, "%.1f");
	lst_html_td(f, "lat_p99_9_us", p->lat_p99_9, "%.1f");
	lst_html_td(f, "lat_p99_99_us", p->lat_p99_99, "%.1f");
	lst_html_td(f, "lat_max_us", p->lat_max, "%.1f");
	/* each direction apart (summary.csv's read_ and write_ columns): a 70/30 mix's writes can
	 * cost several times its reads, which the combined figures hide; "–" without such I/O */
	lst_html_td(f, "read_lat_mean_us", p->lat_mean_dir[0], "%.1f");
	lst_html_td(f, "read_lat_p99_us", p->lat_p99_dir[0], "%.1f");
	lst_html_td(f, "write_lat_mean_us", p->lat_mean_dir[1], "%.1f");
	lst_html_td(f, "write_lat_p99_us", p->lat_p99_dir[1], "%.1f");
	fprintf(f, "<td class=\"bad\">%s%s%s</td></tr>\n", p->partial ? "partial" : "",
		p->partial && p->errors > 0 ? ", " : "", p->errors > 0 ? "I/O errors" : "");
}

/* The rows under point p: per agent, then per target and path. */
static void s_point_parts(FILE *f, const lst_report *r, const struct lst_rpt_point *p, bool rounds)
{
	char label[400];

	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *q = &r->points[i];

		if (q->point != p->point || strcmp(q->phase, p->phase) || !strcmp(q->agent, "all"))
			continue;
		snprintf(label, sizeof(label), "agent %s", q->agent);
		s_point_row(f, q, label, true, rounds);
	}
	for (size_t i = 0; i < r->nparts; i++) {
		const struct lst_rpt_point *q = &r->parts[i];

		if (q->point != p->point || strcmp(q->phase, p->phase))
			continue;
		if (!strcmp(q->scope, "target"))
			snprintf(label, sizeof(label), "target %s", q->target);
		else
			snprintf(label, sizeof(label), "path %s:%s", q->agent, q->path);
		s_point_row(f, q, label, true, rounds);
	}
}

static void s_points(struct s_ctx *c, const struct lst_rpt_phase *ph, const size_t *idx, size_t n,
		     size_t rows_all)
{
	const lst_report *r = c->r;
	bool rounds = false, several = false;
	FILE *f = c->f;
	char label[256];

	for (size_t k = 0; k < n; k++) {
		rounds |= r->points[idx[k]].round > 0;
		several |= strcmp(r->points[idx[k]].test, r->points[idx[0]].test) != 0;
	}
	fprintf(f, "<h3>Summary</h3>\n<p class=\"note\">%zu point%s", n, n == 1 ? "" : "s");
	if (rows_all > n)
		fprintf(f, " at %s last round (%zu rows in summary.csv)", n == 1 ? "its" : "their",
			rows_all);
	fputs("; each over its measured window. Rows in grey: the point's share per agent, "
	      "target and path. Read and write: the latency of each direction on its own "
	      "(&ndash; where the point did none).</p>\n<table class=\"points\">\n",
	      f);
	s_point_head(f, rounds);
	fputs("<tbody>\n", f);
	for (size_t k = 0; k < n && k < S_ROWS_MAX; k++) {
		const struct lst_rpt_point *p = &r->points[idx[k]];

		lst_report_point_text(p, several, label, sizeof(label));
		s_point_row(f, p, *label ? label : "(the phase)", false, rounds);
		if (n <= S_PARTS_MAX)
			s_point_parts(f, r, p, rounds);
	}
	fputs("</tbody>\n</table>\n", f);
	if (n > S_ROWS_MAX)
		fprintf(f, "<p class=\"note\">&hellip; and %zu more points: see summary.csv.</p>\n",
			n - S_ROWS_MAX);
	if (ph->partial)
		fputs("<p class=\"callout bad\">An agent was lost in this phase: the points "
		      "marked partial lack its I/O.</p>\n",
		      f);
	{
		/* the windows of the points the table shows */
		struct lst_report_view v = { r, ph->name, idx, LST_MIN(n, S_ROWS_MAX), NULL };

		lst_report_sections_html(f, LST_SLOT_POINTS, &v);
	}
}

/* The headline figures of the phase's latency-vs-IOPS curves (lst_figures_headlines). */
static void s_headlines(struct s_ctx *c, const struct lst_rpt_phase *ph)
{
	double limit = lst_figures_default_limit(c->r, ph->name);
	struct lst_headline *h = NULL;
	size_t n = lst_figures_headlines(c->r, ph->name, limit, &h);
	FILE *f = c->f;
	char b[64];

	if (!n) {
		free(h);
		return;
	}
	fprintf(f,
		"<h3>Headline figures</h3>\n<p class=\"note\">The highest IOPS at which each "
		"percentile stays under %s&nbsp;&micro;s. &asymp;&nbsp;interpolated between "
		"two measured points; &ge;&nbsp;every point was under the limit (the highest "
		"measured); &ndash;&nbsp;even the lowest point was over it.</p>\n",
		lst_html_num(limit, "%.0f", b, sizeof(b)));
	fputs("<table class=\"headlines\">\n<thead><tr><th>Curve</th><th class=\"n\">Points</th>",
	      f);
	for (int s = 0; s < LST_HL_N; s++)
		fprintf(f, "<th class=\"n\">IOPS at %s &lt; %s&nbsp;&micro;s</th>",
			lst_headline_stat_names[s], lst_html_num(limit, "%.0f", b, sizeof(b)));
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr>", f);
		lst_html_td_text(f, s_or(h[i].curve, "(all points)"));
		lst_html_td(f, "points", (double)h[i].npoints, "%.0f");
		if (h[i].bandwidth) { /* large blocks: MB/s, no IOPS under a latency limit */
			char text[256];

			fprintf(f, "<td data-col=\"mbps\" colspan=\"%d\">", LST_HL_N);
			lst_html_esc(f, lst_headline_text(&h[i], text, sizeof(text)));
			fputs("</td></tr>\n", f);
			continue;
		}
		for (int s = 0; s < LST_HL_N; s++)
			fprintf(f, "<td class=\"n\" data-col=\"%s\">%s%s</td>",
				lst_headline_stat_names[s],
				!isfinite(h[i].iops[s]) ? ""
				: h[i].interpolated[s]	? "&asymp;&nbsp;"
				: h[i].all_under[s]	? "&ge;&nbsp;"
							: "",
				lst_html_num(h[i].iops[s], "%.0f", b, sizeof(b)));
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
	free(h);
}

/* One balance row of point p: its items (by agents or paths) as "a 52.0% / b 48.0%" over a
 * bar of their shares, their IOPS and p99 the same way; keyed by data-balance (the phase),
 * data-point and data-by. */
static void s_balance_row(FILE *f, const struct lst_rpt_point *p, const char *label, bool paths,
			  const struct lst_balance_item *it, size_t m)
{
	static const char *const cols[] = { "share_pct", "iops", "p99_us" };
	char b[64];

	fputs("<tr data-balance=\"", f); /* the phase: not a summary row, which data-phase marks */
	lst_html_esc(f, p->phase);
	fprintf(f, "\" data-point=\"%ld\" data-by=\"%s\">", p->point, paths ? "path" : "agent");
	lst_html_td_text(f, label);
	lst_html_td_text(f, paths ? "path" : "agent");
	for (size_t col = 0; col < LST_ARRAY_SIZE(cols); col++) {
		fprintf(f, "<td class=\"n\" data-col=\"%s\">", cols[col]);
		for (size_t i = 0; i < m; i++) {
			double v = col == 0   ? it[i].share_pct
				   : col == 1 ? it[i].iops
					      : it[i].p99_us;

			fputs(i ? " / " : "", f);
			if (col == 0) {
				fputs("<span class=\"who\">", f);
				lst_html_esc(f, it[i].who);
				fputs("</span>&nbsp;", f);
			}
			fputs(lst_html_num(v, col == 1 ? "%.0f" : "%.1f", b, sizeof(b)), f);
		}
		if (col == 0) {
			fputs("<div class=\"bar\">", f);
			for (size_t i = 0; i < m; i++)
				fprintf(f, "<span style=\"width:%.2f%%\"></span>",
					isfinite(it[i].share_pct) ? it[i].share_pct : 0);
			fputs("</div>", f);
		}
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* How the agents, then the paths, shared each shown point (lst_figures_balance). */
static void s_balance(struct s_ctx *c, const size_t *idx, size_t n)
{
	struct lst_balance_item items[S_BALANCE_MAX];
	bool any = false;
	FILE *f = c->f;
	char label[256];

	for (size_t k = 0; k < n && k < S_ROWS_MAX; k++) {
		const struct lst_rpt_point *p = &c->r->points[idx[k]];

		for (int paths = 0; paths < 2; paths++) {
			size_t m = lst_figures_balance(c->r, p, paths, items, S_BALANCE_MAX);

			if (!m)
				continue;
			if (!any)
				fputs("<h3>Balance</h3>\n<p class=\"note\">How the agents and paths "
				      "shared each point: their share of its I/Os (both "
				      "directions), their own IOPS and p99 latency.</p>\n"
				      "<table class=\"balance\">\n<thead><tr><th>Point</th>"
				      "<th>By</th><th class=\"n\">Share of I/Os <span "
				      "class=\"u\">%</span></th><th class=\"n\">IOPS</th>"
				      "<th class=\"n\">p99 <span class=\"u\">&micro;s</span></th>"
				      "</tr></thead>\n<tbody>\n",
				      f);
			any = true;
			lst_report_point_text(p, false, label, sizeof(label));
			s_balance_row(f, p, *label ? label : "(the phase)", paths, items,
				      LST_MIN(m, (size_t)S_BALANCE_MAX));
		}
	}
	if (any)
		fputs("</tbody>\n</table>\n", f);
}

/* Why t's rounds ended, when its verdict does not say it (a capacity or byte limit). */
static void s_stop(FILE *f, const struct lst_rpt_test *t)
{
	char stop[160];

	if (!*lst_stop_after_phrase(t->stop, t->rounds, t->bytes_written, t->capacity_multiple,
				    stop, sizeof(stop)))
		return;
	fprintf(f, "<p class=\"stop\" data-stop=\"%s\">", lst_stop_names[t->stop]);
	lst_html_esc(f, stop);
	fputs("</p>\n", f);
}

/* Each point of t averaged over its window: the one value of a suite's point. */
static void s_window(FILE *f, const struct lst_rpt_test *t)
{
	if (!t->nwindow)
		return;
	fprintf(f,
		"<table class=\"window\">\n<thead><tr><th>Point, window average of round%s "
		"%ld",
		t->window_last > t->window_first ? "s" : "", t->window_first);
	if (t->window_last > t->window_first)
		fprintf(f, "-%ld", t->window_last);
	fputs("</th><th class=\"n\">IOPS</th><th class=\"n\">MB/s</th>"
	      "<th class=\"n\">Mean <span class=\"u\">&micro;s</span></th>"
	      "<th class=\"n\">p99 <span class=\"u\">&micro;s</span></th>"
	      "<th class=\"n\">p99.99 <span class=\"u\">&micro;s</span></th></tr></thead>\n"
	      "<tbody>\n",
	      f);
	for (size_t k = 0; k < t->nwindow && k < S_ROWS_MAX; k++) {
		const struct lst_rpt_window *w = &t->win[k];

		fputs("<tr>", f);
		lst_html_td_text(f, w->label);
		lst_html_td(f, "iops", w->iops, "%.0f");
		lst_html_td(f, "mbps", w->mbps, "%.1f");
		lst_html_td(f, "lat_mean_us", w->lat_mean, "%.1f");
		lst_html_td(f, "lat_p99_us", w->lat_p99, "%.1f");
		lst_html_td(f, "lat_p99_99_us", w->lat_p99_99, "%.1f");
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

/* What the phase's purge or bounded write did. */
static void s_works(FILE *f, const lst_report *r, const struct lst_rpt_phase *ph)
{
	for (size_t i = 0; i < r->nworks; i++) {
		const struct lst_rpt_work *w = &r->works[i];
		char text[256];

		if (strcmp(w->phase, ph->name))
			continue;
		fprintf(f, "<p class=\"work\" data-did=\"%s\"><strong>", w->did);
		lst_html_esc(f, w->test);
		fputs("</strong>: ", f);
		lst_html_esc(f, lst_report_work_text(w, text, sizeof(text)));
		fputs("</p>\n", f);
	}
}

static void s_steady(struct s_ctx *c, const struct lst_rpt_phase *ph)
{
	FILE *f = c->f;
	bool any = false;

	for (size_t i = 0; i < c->r->ntests; i++) {
		const struct lst_rpt_test *t = &c->r->tests[i];
		const char *cls = !t->required ? "" : t->steady ? "ok" : "bad";
		char v[512], cap[256];

		if (strcmp(t->phase, ph->name))
			continue;
		if (!any)
			fputs("<h3>Steady state</h3>\n", f);
		any = true;
		lst_report_verdict(t, v, sizeof(v));
		fputs("<p><strong>", f);
		lst_html_esc(f, s_or(t->test, ph->name));
		fputs("</strong>", f);
		if (*t->tracked) {
			fputs(" (", f);
			lst_html_esc(f, t->tracked);
			fputs(")", f);
		}
		fprintf(f, ": <span class=\"%s\">", cls);
		lst_html_esc(f, v);
		fputs("</span></p>\n", f);
		s_stop(f, t);
		s_window(f, t);
		snprintf(cap, sizeof(cap), "Steady-state window of %s.", s_or(t->test, ph->name));
		s_plot(c, "steady", t->phase, *t->test ? t->test : NULL, cap);
	}
}

static void s_matrix(struct s_ctx *c, const struct lst_rpt_matrix *m)
{
	const struct lst_rpt_test *t = lst_report_test(c->r, m->phase, NULL);
	FILE *f = c->f;
	char win[256];

	fputs("<h3>IOPS matrix</h3>\n<p class=\"note\">IOPS per block size (rows) and "
	      "read/write mix (columns), from <code>",
	      f);
	lst_html_esc(f, m->file);
	fprintf(f, "</code>.</p>\n<p class=\"verdict %s\" data-steady=\"%s\">Each cell: ",
		!t	    ? ""
		: t->steady ? "ok"
			    : "bad",
		!t	    ? ""
		: t->steady ? "true"
			    : "false");
	lst_html_esc(f, lst_report_window_text(t, win, sizeof(win)));
	fputs(".</p>\n<table class=\"matrix\">\n<thead><tr><th>Block size</th>", f);
	for (size_t k = 0; k < m->nmix; k++) {
		fputs("<th class=\"n\">", f);
		lst_html_esc(f, m->mix[k]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < m->nbs; i++) {
		char bs[32];

		fputs("<tr>", f);
		lst_html_td_text(f, lst_report_bs(m->bs[i], bs, sizeof(bs)));
		for (size_t k = 0; k < m->nmix; k++)
			lst_html_td(f, "iops", m->iops[i * m->nmix + k], "%.0f");
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

static void s_phase(struct s_ctx *c, size_t i, size_t *idx)
{
	const struct lst_rpt_phase *ph = &c->r->phases[i];
	size_t rows_all, n = lst_report_shown(c->r, ph->name, idx, &rows_all);
	const struct lst_rpt_matrix *m = lst_report_matrix(c->r, ph->name);
	struct lst_report_view v = { c->r, ph->name, idx, 0, NULL };
	FILE *f = c->f;

	fprintf(f, "<section class=\"phase\" id=\"phase-%zu\">\n<h2>Phase ", i);
	lst_html_esc(f, ph->name);
	if (*ph->suite) {
		fputs(" <span class=\"u\" style=\"font-weight:400;color:#5b6670\">(", f);
		lst_html_esc(f, ph->suite);
		fputs(")</span>", f);
	}
	fputs("</h2>\n", f);
	s_works(f, c->r, ph);
	/* a purge does no I/O: what it did replaces its summary row of zeros */
	if (lst_report_purged(c->r, ph->name))
		n = 0;
	else if (n)
		s_points(c, ph, idx, n, rows_all);
	else
		fputs("<p class=\"note\">No point of this phase has a summary row.</p>\n", f);
	v.n = n;
	lst_report_sections_html(f, LST_SLOT_PHASE, &v);
	s_headlines(c, ph);
	s_plot(c, "lat_vs_iops", ph->name, NULL, "Latency against IOPS.");
	s_balance(c, idx, n);
	s_steady(c, ph);
	if (m)
		s_matrix(c, m);
	s_plot(c, "matrix", ph->name, NULL, "The IOPS matrix.");
	lst_report_sections_html(f, LST_SLOT_SCALING, &v);
	s_plot(c, "ports", ph->name, NULL, "Port scaling.");
	s_plot(c, "wsat", ph->name, NULL, "Write saturation.");
	s_plot(c, "timeseries", ph->name, NULL, "IOPS and latency over the phase.");
	fputs("</section>\n", f);
}

/* --- events, other plots, plan --------------------------------------------------------------- */

static void s_events(struct s_ctx *c)
{
	const lst_report *r = c->r;
	json_t *errors = json_object_get(r->run, "errors"), *retries, *resumes, *e;
	FILE *f = c->f;
	size_t i, nlost = 0;

	retries = json_object_get(r->run, "retries");
	resumes = json_object_get(r->run, "resumes");
	fputs("<section class=\"appendix\" id=\"events\">\n<h2>Errors and events</h2>\n", f);
	fprintf(f, "<h3>Errors (%zu)</h3>\n", json_array_size(errors));
	if (!json_array_size(errors))
		fputs("<p class=\"ok\">No errors.</p>\n", f);
	else
		fputs("<ul>\n", f);
	json_array_foreach (errors, i, e) {
		char *text = json_is_string(e) ? NULL : json_dumps(e, JSON_COMPACT);

		fputs("<li class=\"bad\">", f);
		lst_html_esc(f, json_is_string(e) ? json_string_value(e) : s_or(text, "?"));
		fputs("</li>\n", f);
		free(text);
	}
	if (json_array_size(errors))
		fputs("</ul>\n", f);
	for (size_t k = 0; k < r->nagents; k++)
		nlost += r->agents[k].lost;
	fprintf(f, "<h3>Lost agents (%zu)</h3>\n", nlost);
	if (!nlost)
		fputs("<p class=\"ok\">No agent was lost.</p>\n", f);
	for (size_t k = 0; k < r->nagents; k++) {
		if (!r->agents[k].lost)
			continue;
		fputs("<p class=\"bad\">", f);
		lst_html_esc(f, r->agents[k].name);
		fputs(": ", f);
		lst_html_esc(f, s_or(r->agents[k].lost_why, "lost"));
		fputs("</p>\n", f);
	}
	fprintf(f, "<h3>Retries (%zu)</h3>\n", json_array_size(retries));
	if (!json_array_size(retries))
		fputs("<p>No point was run again.</p>\n", f);
	else
		fputs("<table>\n<thead><tr><th>Phase</th><th class=\"n\">Point</th><th>Label</th>"
		      "<th class=\"n\">Attempt</th><th>Agents lost</th></tr></thead>\n<tbody>\n",
		      f);
	json_array_foreach (retries, i, e) {
		json_t *lost = json_object_get(e, "lost"), *l;
		size_t k;

		fputs("<tr>", f);
		lst_html_td_text(f, json_string_value(json_object_get(e, "phase")));
		lst_html_td(f, "point", json_number_value(json_object_get(e, "point")), "%.0f");
		lst_html_td_text(f, json_string_value(json_object_get(e, "label")));
		lst_html_td(f, "attempt", json_number_value(json_object_get(e, "attempt")), "%.0f");
		fputs("<td>", f);
		json_array_foreach (lost, k, l) {
			fputs(k ? "; " : "", f);
			lst_html_esc(f, s_or(json_string_value(json_object_get(l, "agent")), "?"));
			fputs(": ", f);
			lst_html_esc(f, s_or(json_string_value(json_object_get(l, "why")), "?"));
		}
		fputs("</td></tr>\n", f);
	}
	if (json_array_size(retries))
		fputs("</tbody>\n</table>\n", f);
	fprintf(f, "<h3>Resumes (%zu)</h3>\n", json_array_size(resumes));
	if (!json_array_size(resumes))
		fputs("<p>The run was never resumed.</p>\n", f);
	json_array_foreach (resumes, i, e) {
		fputs("<p>", f);
		lst_html_esc(f, s_or(json_string_value(json_object_get(e, "when")), "?"));
		fputs(": resumed at phase ", f);
		lst_html_esc(f, s_or(json_string_value(json_object_get(e, "phase")), "?"));
		fprintf(f, ", point %.0f</p>\n", json_number_value(json_object_get(e, "point")));
	}
	fputs("</section>\n", f);
}

/* The plots no section took (families added later, the comparison's), and why none were
 * drawn. */
static void s_other_plots(struct s_ctx *c)
{
	const struct lst_plot_list *l = c->pl ? c->pl->made : NULL;
	bool any = false;

	for (size_t i = 0; l && i < l->n; i++) {
		if (c->used[i])
			continue;
		if (!any)
			fputs("<section class=\"appendix\" id=\"plots\">\n<h2>Other plots</h2>\n",
			      c->f);
		any = true;
		s_plot_at(c, i, NULL);
	}
	if (any)
		fputs("</section>\n", c->f);
}

/* A callout under the title when the page has no plots, saying why. */
static void s_plots_note(struct s_ctx *c)
{
	const struct lst_report_html_plots *pl = c->pl;

	if (!pl || !pl->made)
		fputs("<p class=\"callout\">Plots were not drawn (--no-plots): this report has "
		      "tables only.</p>\n",
		      c->f);
	else if (pl->rc == -ENOENT)
		fputs("<p class=\"callout\">Plots were not drawn: gnuplot was not found (Debian: "
		      "gnuplot-nox). This report has tables only; the gnuplot scripts were "
		      "written.</p>\n",
		      c->f);
	else if (pl->rc) {
		fputs("<p class=\"callout\">Some plots were not drawn: ", c->f);
		lst_html_esc(c->f, pl->err ? pl->err->msg : "?");
		fputs("</p>\n", c->f);
	}
}

static void s_plan(struct s_ctx *c)
{
	char *path = lst_asprintf("%s/plan.yaml", c->r->dir), *text = NULL;
	size_t len;

	fputs("<section class=\"appendix\" id=\"plan\">\n<h2>Plan</h2>\n<p class=\"note\">", c->f);
	lst_html_esc(c->f, s_or(c->r->plan_file, "plan.yaml"));
	fputs(", as given to the run (plan.yaml).</p>\n", c->f);
	if (lst_read_file(path, 4u * 1024 * 1024, &text, &len)) {
		fputs("<p class=\"note\">plan.yaml could not be read.</p>\n", c->f);
	} else {
		fputs("<pre>", c->f);
		lst_html_esc(c->f, text);
		fputs("</pre>\n", c->f);
	}
	fputs("</section>\n", c->f);
	free(text);
	free(path);
}

static void s_page(struct s_ctx *c)
{
	size_t *idx = lst_calloc(c->r->npoints + 1, sizeof(*idx));

	s_head(c->f, s_or(c->r->plan_name, "lockstep run"), c->r->run_id);
	s_title(c);
	s_plots_note(c);
	s_run(c);
	s_agents(c);
	s_devices(c);
	s_skews(c);
	for (size_t i = 0; i < c->r->nphases; i++)
		s_phase(c, i, idx);
	s_events(c);
	s_other_plots(c);
	s_plan(c);
	fputs("<footer>Written by lockstep " LST_VERSION " (<code>lockstep report --html</code>) "
	      "from the results folder <code>",
	      c->f);
	lst_html_esc(c->f, c->r->dir);
	fputs("</code>. docs/results.md describes every file and column.</footer>\n"
	      "</body>\n</html>\n",
	      c->f);
	free(idx);
}

/* The page written by page(c) to path: aside, then renamed. Returns 0 or -errno with err. */
static int s_write_file(struct s_ctx *c, const char *path, void (*page)(struct s_ctx *c),
			lst_err *err)
{
	char *tmp = lst_asprintf("%s.tmp", path);
	int rc = 0;

	c->f = fopen(tmp, "w");
	if (!c->f) {
		rc = lst_err_sys(err, -errno, "cannot create %s", tmp);
		goto out;
	}
	page(c);
	if (ferror(c->f) | fclose(c->f)) {
		rc = lst_err_sys(err, -EIO, "writing %s failed", tmp);
		remove(tmp);
		goto out;
	}
	if (rename(tmp, path)) {
		rc = lst_err_sys(err, -errno, "cannot rename %s to %s", tmp, path);
		remove(tmp);
	}
out:
	free(tmp);
	return rc;
}

int lst_report_html_write(const lst_report *r, const char *path,
			  const struct lst_report_html_plots *plots, lst_err *err)
{
	struct s_ctx c = { .r = r, .pl = plots };
	int rc;

	c.used = lst_calloc(plots && plots->made ? plots->made->n + 1 : 1, sizeof(*c.used));
	rc = s_write_file(&c, path, s_page, err);
	free(c.used);
	return rc;
}

/* --- runs compared --------------------------------------------------------------------------- */

/* The statistics of a comparison row (lst_compare_json's keys), their heads and formats; higher
 * is better for the first two. */
static const struct {
	const char *key, *head, *fmt;
	bool higher_better;
} s_cmp_stats[] = {
	{ "iops", "IOPS", "%.0f", true },
	{ "mbps", "MB/s", "%.1f", true },
	{ "lat_mean_us", "Mean <span class=\"u\">&micro;s</span>", "%.1f", false },
	{ "lat_p99_us", "p99 <span class=\"u\">&micro;s</span>", "%.1f", false },
	{ "lat_p99_99_us", "p99.99 <span class=\"u\">&micro;s</span>", "%.1f", false },
	{ "read_lat_p99_us", "Read p99 <span class=\"u\">&micro;s</span>", "%.1f", false },
	{ "write_lat_p99_us", "Write p99 <span class=\"u\">&micro;s</span>", "%.1f", false },
};

/* A change in percent as a cell, coloured better (ok) or worse (bad) beyond 1%. */
static void s_td_change(FILE *f, const char *col, double pct, bool higher_better)
{
	const char *cls = "";
	char b[64];

	if (isfinite(pct) && fabs(pct) >= 1)
		cls = (pct > 0) == higher_better ? " ok" : " bad";
	fprintf(f, "<td class=\"n chg%s\" data-col=\"%s\">%s%s</td>", cls, col,
		isfinite(pct) && pct > 0 ? "+" : "", lst_html_num(pct, "%.1f", b, sizeof(b)));
}

/* The runs side by side: id, plan, status, times, target, versions; a warning per run that did
 * not finish. */
static void s_cmp_runs(struct s_ctx *c)
{
	const lst_compare *k = c->k;
	FILE *f = c->f;
	char w[64];

	for (size_t j = 0; j < k->nruns; j++)
		if (strcmp(k->runs[j]->status, "complete")) {
			fprintf(f, "<p class=\"callout bad\">Run %c <strong>",
				lst_compare_letter(j));
			lst_html_esc(f, k->names[j]);
			fputs("</strong> did not finish (status: ", f);
			lst_html_esc(f, s_or(k->runs[j]->status, "running, or killed"));
			fputs("): its points may be missing or partial, and a comparison with it "
			      "says little.</p>\n",
			      f);
		}
	fputs("<section id=\"runs\">\n<h2>Runs</h2>\n<table class=\"kv runs\">\n<thead><tr><th></th>",
	      f);
	for (size_t j = 0; j < k->nruns; j++) {
		fprintf(f, "<th>%c: ", lst_compare_letter(j));
		lst_html_esc(f, k->names[j]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (int row = 0; row < 8; row++) {
		static const char *const heads[] = { "Run id",	 "Plan",   "Status",   "Started",
						     "Finished", "Target", "lockstep", "Folder" };

		fprintf(f, "<tr><th>%s</th>", heads[row]);
		for (size_t j = 0; j < k->nruns; j++) {
			const lst_report *r = k->runs[j];
			const char *v =
				row == 0   ? r->run_id
				: row == 1 ? r->plan_name
				: row == 2 ? s_or(r->status, "running or stopped")
				: row == 3 ? s_when(r->started, w, sizeof(w))
				: row == 4 ? s_when(r->finished, w, sizeof(w))
				: row == 5 ? r->title
				: row == 6
					? json_string_value(json_object_get(
						  json_object_get(r->run, "versions"), "lockstep"))
					: r->dir;

			fprintf(f, "<td class=\"%s\">", row == 2 ? s_status_class(r->status) : "");
			lst_html_esc(f, s_or(v, "\xe2\x80\x93"));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</section>\n", f);
}

static void s_cmp_head(FILE *f, size_t nruns)
{
	fputs("<thead><tr><th rowspan=\"2\">Point</th><th rowspan=\"2\">Compared</th>", f);
	for (size_t s = 0; s < LST_ARRAY_SIZE(s_cmp_stats); s++)
		fprintf(f, "<th class=\"n grp\" colspan=\"%zu\">%s</th>", 2 * nruns - 1,
			s_cmp_stats[s].head);
	fprintf(f, "<th rowspan=\"1\" colspan=\"%zu\">Noise (IOPS)</th>", nruns - 1);
	fputs("</tr>\n<tr>", f);
	for (size_t s = 0; s < LST_ARRAY_SIZE(s_cmp_stats); s++) {
		for (size_t j = 0; j < nruns; j++)
			fprintf(f, "<th class=\"n\">%c</th>", lst_compare_letter(j));
		for (size_t j = 1; j < nruns; j++)
			fprintf(f, "<th class=\"n\">%c <span class=\"u\">&Delta;%%</span></th>",
				lst_compare_letter(j));
	}
	for (size_t j = 1; j < nruns; j++)
		fprintf(f, "<th>%c</th>", lst_compare_letter(j));
	fputs("</tr></thead>\n", f);
}

/* One comparison row of lst_compare_json, its key as data- attributes, its cells named as
 * compare.csv's columns. */
static void s_cmp_row(FILE *f, json_t *row)
{
	const char *name = json_string_value(json_object_get(row, "label"));
	const char *test = json_string_value(json_object_get(row, "test"));
	const char *match = json_string_value(json_object_get(row, "match"));
	json_t *runs = json_object_get(row, "runs");
	size_t n = json_array_size(runs);

	fputs("<tr data-phase=\"", f);
	lst_html_esc(f, json_string_value(json_object_get(row, "phase")));
	fputs("\" data-test=\"", f);
	lst_html_esc(f, s_or(test, ""));
	fputs("\" data-label=\"", f);
	lst_html_esc(f, s_or(name, ""));
	fputs("\"><td>", f);
	lst_html_esc(f, name && *name				  ? name
			: test && *test && strcmp(test, "points") ? test
								  : "(the phase)");
	if (match && strlen(match) < n) {
		fputs(" <span class=\"warn\">(only in ", f);
		lst_html_esc(f, match);
		fputs(")</span>", f);
	}
	/* what is compared: the window's average, the last round, the repeats' mean, the point */
	fputs("</td><td data-col=\"basis\">", f);
	lst_html_esc(f, s_or(json_string_value(json_object_get(row, "basis")), ""));
	fputs("</td>", f);
	for (size_t s = 0; s < LST_ARRAY_SIZE(s_cmp_stats); s++) {
		char col[64], key[64];

		for (size_t j = 0; j < n; j++) {
			snprintf(col, sizeof(col), "%s_%c", s_cmp_stats[s].key,
				 lst_compare_letter(j) + 32);
			lst_html_td(
				f, col,
				lst_report_json_real(json_array_get(runs, j), s_cmp_stats[s].key),
				s_cmp_stats[s].fmt);
		}
		for (size_t j = 1; j < n; j++) {
			snprintf(col, sizeof(col), "%s_%c_change_pct", s_cmp_stats[s].key,
				 lst_compare_letter(j) + 32);
			snprintf(key, sizeof(key), "%s_change_pct", s_cmp_stats[s].key);
			s_td_change(f, col, lst_report_json_real(json_array_get(runs, j), key),
				    s_cmp_stats[s].higher_better);
		}
	}
	for (size_t j = 1; j < n; j++) {
		fprintf(f, "<td data-col=\"noise_%c\">", lst_compare_letter(j) + 32);
		lst_html_esc(f,
			     json_string_value(json_object_get(json_array_get(runs, j), "noise")));
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* Per phase, its rows of the comparison (in the comparison's order). */
static void s_cmp_points(struct s_ctx *c)
{
	json_t *rows = json_object_get(c->cmp, "points"), *row;
	const char *phase = NULL;
	FILE *f = c->f;
	size_t i, nphase = 0;

	json_array_foreach (rows, i, row) {
		const char *ph = s_or(json_string_value(json_object_get(row, "phase")), "?");

		if (!phase || strcmp(phase, ph)) {
			if (phase)
				fputs("</tbody>\n</table>\n</section>\n", f);
			fprintf(f, "<section class=\"phase\" id=\"phase-%zu\">\n<h2>Phase ",
				nphase++);
			lst_html_esc(f, ph);
			fputs("</h2>\n<table class=\"points compare\">\n", f);
			s_cmp_head(f, c->k->nruns);
			fputs("<tbody>\n", f);
			phase = ph;
		}
		s_cmp_row(f, row);
	}
	if (phase)
		fputs("</tbody>\n</table>\n</section>\n", f);
	else
		fputs("<p class=\"note\">No run has a point.</p>\n", f);
}

static void s_cmp_matrices(struct s_ctx *c)
{
	json_t *mxs = json_object_get(c->cmp, "matrix_ratios"), *m;
	FILE *f = c->f;
	size_t i;

	json_array_foreach (mxs, i, m) {
		json_t *mixes = json_object_get(m, "mixes"), *rows = json_object_get(m, "rows");
		const char *run = s_or(json_string_value(json_object_get(m, "run")), "?");
		json_t *x, *row;
		size_t k, j;

		fputs("<section class=\"phase\">\n<h2>IOPS matrix, phase ", f);
		lst_html_esc(f, s_or(json_string_value(json_object_get(m, "phase")), "?"));
		fprintf(f,
			", %s / A</h2>\n<p class=\"note\">%s / A of every cell: above 1, run %s "
			"did more IOPS.</p>\n<table class=\"matrix\">\n<thead><tr><th>Block "
			"size</th>",
			run, run, run);
		json_array_foreach (mixes, k, x) {
			fputs("<th class=\"n\">", f);
			lst_html_esc(f, s_or(json_string_value(x), "?"));
			fputs("</th>", f);
		}
		fputs("</tr></thead>\n<tbody>\n", f);
		json_array_foreach (rows, j, row) {
			char bs[32];

			fputs("<tr>", f);
			lst_html_td_text(
				f, lst_report_bs(lst_report_json_real(row, "bs"), bs, sizeof(bs)));
			json_array_foreach (json_object_get(row, "ratio"), k, x)
				lst_html_td(f, "ratio",
					    json_is_number(x) ? json_number_value(x) : NAN, "%.2f");
			fputs("</tr>\n", f);
		}
		fputs("</tbody>\n</table>\n</section>\n", f);
	}
}

static void s_cmp_page(struct s_ctx *c)
{
	const lst_compare *k = c->k;
	FILE *f = c->f;
	char title[512];

	snprintf(title, sizeof(title), "%zu runs against %s", k->nruns, k->names[0]);
	s_head(f, s_or(c->r->plan_name, "lockstep runs"), title);
	fputs("<header class=\"titleblock\">\n<h1>", f);
	lst_html_esc(f, s_or(c->r->plan_name, "lockstep runs"));
	fputs(": runs against A</h1>\n<div class=\"sub\">Storage performance comparison", f);
	for (size_t j = 0; j < k->nruns; j++) {
		fprintf(f, " &middot; %c <code>", lst_compare_letter(j));
		lst_html_esc(f, k->names[j]);
		fputs("</code> (run ", f);
		lst_html_esc(f, k->runs[j]->run_id);
		fputs(")", f);
	}
	fputs("</div>\n<p class=\"note\">Points are matched by phase, test and label, and "
	      "compared over the steady-state window where the test has one (Compared: "
	      "window), as the mean of their repeats where they were repeated, else at their "
	      "last round or as run; the change is (X &minus; A) / A. Green: better than A "
	      "(more IOPS or MB/s, less latency), red: worse, by 1% or more. Noise: ",
	      f);
	lst_html_esc(f, LST_NOISE_TEST);
	fputs("; cannot tell without repeats in both runs.</p>\n</header>\n", f);
	s_plots_note(c);
	s_cmp_runs(c);
	s_cmp_points(c);
	s_cmp_matrices(c);
	s_plot(c, "compare", "lat_vs_iops", NULL, "Every run's latency against IOPS.");
	s_other_plots(c);
	fputs("<footer>Written by lockstep " LST_VERSION
	      " (<code>lockstep report --html A B ...</code>) "
	      "from the same comparison as compare.csv and compare.md.</footer>\n</body>\n</html>\n",
	      f);
}

int lst_report_html_compare(const lst_compare *cmp, const char *path,
			    const struct lst_report_html_plots *plots, lst_err *err)
{
	struct s_ctx c = { .r = cmp->runs[0], .k = cmp, .pl = plots };
	int rc;

	c.cmp = lst_compare_json(cmp);
	c.used = lst_calloc(plots && plots->made ? plots->made->n + 1 : 1, sizeof(*c.used));
	rc = s_write_file(&c, path, s_cmp_page, err);
	free(c.used);
	json_decref(c.cmp);
	return rc;
}
