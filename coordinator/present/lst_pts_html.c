/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PTS pages (lst_pts.h) as one self-contained HTML file: inline CSS, no script, the plots
 * inlined as SVG (lst_html_svg), so the file opens the same offline and prints one test per
 * page (Chromium's print makes the PDF of it, lst_pts_pdf.c). Every table carries
 * data-pts="PHASE/KEY" and every cell data-col="HEAD", so a script can hold the page to the
 * results files; a header value given by the plan is marked "given by the plan".
 */
#include "lst_pts.h"
#include "lst_pts_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_html.h"
#include "lst_util.h"

#define S_SVG_MAX (64u * 1024 * 1024) /* an inlined plot */

static const char s_css[] =
	":root{--ink:#1a1f24;--muted:#5b6670;--rule:#d5dbe0;--accent:#1f5f99;--warn:#8a5a00}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0 auto;max-width:1240px;padding:28px 36px 60px;color:var(--ink);"
	"font-family:\"Source Sans 3\",\"Segoe UI\",\"Helvetica Neue\",Arial,\"Liberation Sans\","
	"sans-serif;line-height:1.4;font-size:15px}\n"
	"h1{font-size:1.7rem;margin:0 0 .3rem;font-weight:600}\n"
	"h2{font-size:1.35rem;margin:2.2rem 0 .6rem;padding:.3rem 0;border-top:6px solid "
	"var(--accent);font-weight:600}\n"
	"h2 .ph{font-weight:400;color:var(--muted);font-size:1rem;margin-left:.6rem}\n"
	"h3{font-size:1.05rem;margin:1.4rem 0 .4rem;font-weight:600}\n"
	"table{border-collapse:collapse;margin:.3rem 0 .8rem;font-size:.85rem;"
	"font-variant-numeric:tabular-nums}\n"
	"th,td{padding:3px 7px;border-bottom:1px solid var(--rule);text-align:left;"
	"vertical-align:top}\n"
	"thead th{border-bottom:1.5px solid var(--ink);font-weight:600}\n"
	"table.data td{text-align:right;white-space:nowrap}\n"
	"table.data td:first-child{text-align:left}\n"
	"table.hdr{width:100%}table.hdr th{width:14rem;color:var(--muted);font-weight:600}\n"
	"table.hdr tr.grp th{color:var(--ink);background:#f4f6f8;text-transform:uppercase;"
	"font-size:.75rem;letter-spacing:.06em}\n"
	".given{font-size:.75rem;color:var(--warn);border:1px solid var(--warn);border-radius:3px;"
	"padding:0 4px;margin-left:6px;white-space:nowrap}\n"
	".note{font-size:.82rem;color:var(--muted);margin:.2rem 0 .8rem}\n"
	"figure.plot{margin:.6rem 0 1.2rem;break-inside:avoid}\n"
	"figure.plot svg{display:block;width:100%;max-width:900px;height:auto}\n"
	".deviations{border:2px solid var(--warn);background:#fdf7ea;padding:6px 14px;"
	"margin:1.2rem 0;break-inside:avoid}\n"
	".deviations h3{margin-top:.4rem}\n"
	"@page{size:A4;margin:14mm 12mm}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}section.pts{break-before:page}"
	"h2,h3{break-after:avoid}tr,figure{break-inside:avoid}table{font-size:7.5pt}"
	"thead{display:table-header-group}.deviations{background:none}}\n";

/* The drawn plot name of plots_dir inline; a note when it cannot be read. */
static void s_svg(FILE *f, const char *plots_dir, const char *name, int *seq)
{
	char *path = lst_asprintf("%s/%s.svg", plots_dir, name), *svg = NULL, *start = NULL;
	char pre[32];
	size_t len;

	if (!lst_read_file(path, S_SVG_MAX, &svg, &len))
		start = strstr(svg, "<svg");
	if (start) {
		snprintf(pre, sizeof(pre), "pts%d-", ++*seq);
		lst_html_svg(f, start, pre);
	} else {
		fputs("<p class=\"note\">", f);
		lst_html_esc(f, path);
		fputs(" could not be read.</p>", f);
	}
	free(svg);
	free(path);
}

static void s_table(FILE *f, const struct lst_pts_page *pg, const struct lst_pts_block *b)
{
	fputs("<table class=\"data\" data-pts=\"", f);
	lst_html_esc(f, pg->phase);
	fputc('/', f);
	lst_html_esc(f, b->key);
	fputs("\">\n<thead><tr>", f);
	for (size_t i = 0; i < b->ncols; i++) {
		fputs("<th>", f);
		lst_html_esc(f, b->heads[i]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < b->nrows; r++) {
		fputs("<tr>", f);
		for (size_t i = 0; i < b->ncols; i++) {
			fputs("<td data-col=\"", f);
			lst_html_esc(f, b->heads[i]);
			fputs("\">", f);
			lst_html_esc(f, b->cells[r * b->ncols + i]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void s_block(FILE *f, const struct lst_pts_page *pg, const struct lst_pts_block *b,
		    const char *plots_dir, int *seq)
{
	fputs("<h3>", f);
	lst_html_esc(f, b->title);
	fputs("</h3>\n", f);
	if (b->kind == LST_PTS_TABLE) {
		s_table(f, pg, b);
	} else if (b->drawn) {
		fputs("<figure class=\"plot\" data-plot=\"", f);
		lst_html_esc(f, b->plot);
		fputs("\">\n", f);
		s_svg(f, plots_dir, b->plot, seq);
		fputs("\n</figure>\n", f);
	}
	if (b->note) {
		fputs("<p class=\"note\">", f);
		lst_html_esc(f, b->note);
		fputs("</p>\n", f);
	}
}

static void s_header(FILE *f, const struct lst_pts_page *pg)
{
	const char *group = NULL;

	fputs("<table class=\"hdr\" data-pts=\"", f);
	lst_html_esc(f, pg->phase);
	fputs("/header\">\n", f);
	for (size_t i = 0; i < pg->nfields; i++) {
		const struct lst_pts_field *x = &pg->fields[i];

		if (!group || strcmp(group, x->group)) {
			group = x->group;
			fputs("<tr class=\"grp\"><th colspan=\"2\">", f);
			lst_html_esc(f, group);
			fputs("</th></tr>\n", f);
		}
		fputs("<tr data-key=\"", f);
		lst_html_esc(f, x->key);
		fputs("\"><th>", f);
		lst_html_esc(f, x->key);
		fputs("</th><td>", f);
		lst_html_esc(f, x->value);
		if (x->given)
			fputs("<span class=\"given\">given by the plan</span>", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void s_deviations(FILE *f, const struct lst_pts_page *pg)
{
	fputs("<div class=\"deviations\" data-pts=\"", f);
	lst_html_esc(f, pg->phase);
	fputs("/deviations\">\n<h3>Deviations from the spec</h3>\n", f);
	if (!pg->ndev)
		fputs("<p>None: the test ran with the spec's settings.</p>\n", f);
	else
		fputs("<ul>\n", f);
	for (size_t i = 0; i < pg->ndev; i++) {
		fputs("<li>", f);
		lst_html_esc(f, pg->dev[i]);
		fputs("</li>\n", f);
	}
	fputs(pg->ndev ? "</ul>\n</div>\n" : "</div>\n", f);
}

static void s_page(FILE *f, const struct lst_pts_page *pg, const char *plots_dir, int *seq)
{
	fputs("<section class=\"pts\" id=\"pts-", f);
	lst_html_esc(f, pg->phase);
	fputs("\" data-phase=\"", f);
	lst_html_esc(f, pg->phase);
	fputs("\" data-suite=\"", f);
	lst_html_esc(f, pg->suite);
	fputs("\">\n<h2>", f);
	lst_html_esc(f, pg->title);
	fputs("<span class=\"ph\">phase ", f);
	lst_html_esc(f, pg->phase);
	fputs("</span></h2>\n", f);
	s_header(f, pg);
	for (size_t i = 0; i < pg->nblocks; i++)
		s_block(f, pg, &pg->blocks[i], plots_dir, seq);
	s_deviations(f, pg);
	fputs("</section>\n", f);
}

static void s_doc(FILE *f, const lst_pts *p, const char *plots_dir)
{
	int seq = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"lockstep " LST_VERSION "\">\n<title>SNIA PTS "
	      "report \xe2\x80\x94 ",
	      f);
	lst_html_esc(f, p->plan_name);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", s_css);
	fputs("<h1>SNIA Solid State Storage Performance Test Specification (PTS) report</h1>\n"
	      "<p class=\"note\">Plan ",
	      f);
	lst_html_esc(f, p->plan_name);
	fputs(", run ", f);
	lst_html_esc(f, p->run_id);
	fputs(". One page per test, in the layout of the spec's report format; values marked "
	      "\"given by the plan\" come from the plan's report: section, not from a device.</p>\n",
	      f);
	for (size_t i = 0; i < p->npages; i++)
		s_page(f, &p->pages[i], plots_dir, &seq);
	fputs("</body>\n</html>\n", f);
}

/* What lst_pts_html_write writes with. */
struct s_arg {
	const lst_pts *p;
	const char *plots_dir;
};

static void s_write(FILE *f, const void *arg)
{
	const struct s_arg *a = arg;

	s_doc(f, a->p, a->plots_dir);
}

int lst_pts_html_write(const lst_pts *p, const char *plots_dir, const char *path, lst_err *err)
{
	struct s_arg a = { p, plots_dir };

	return lst_pts__write_file(path, s_write, &a, err);
}
