/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PTS pages (lst_pts.h) as Markdown: the same header, tables, notes and deviations as the
 * HTML, the plots as image links to their SVG files, so a lab can paste a test's page into its
 * own report or review. Cells are escaped for pipe tables ('|' and line breaks).
 */
#include "lst_pts.h"
#include "lst_pts_int.h"

#include <stdio.h>
#include <string.h>

/* s as one Markdown table cell or inline text: '|' escaped, line breaks as spaces. */
static void s_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

static void s_table(FILE *f, const struct lst_pts_block *b)
{
	fputs("|", f);
	for (size_t i = 0; i < b->ncols; i++) {
		fputc(' ', f);
		s_esc(f, b->heads[i]);
		fputs(" |", f);
	}
	fputs("\n|", f);
	for (size_t i = 0; i < b->ncols; i++)
		fputs(i ? "---:|" : "---|", f);
	fputc('\n', f);
	for (size_t r = 0; r < b->nrows; r++) {
		fputs("|", f);
		for (size_t i = 0; i < b->ncols; i++) {
			fputc(' ', f);
			s_esc(f, b->cells[r * b->ncols + i]);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void s_page(FILE *f, const struct lst_pts_page *pg, const char *plots_link)
{
	const char *group = NULL;

	fprintf(f, "## %s (phase %s)\n\n", pg->title, pg->phase);
	for (size_t i = 0; i < pg->nfields; i++) {
		const struct lst_pts_field *x = &pg->fields[i];

		if (!group || strcmp(group, x->group)) {
			group = x->group;
			fprintf(f, "%s**%s**\n\n| | |\n|---|---|\n", i ? "\n" : "", group);
		}
		fputs("| ", f);
		s_esc(f, x->key);
		fputs(" | ", f);
		s_esc(f, x->value);
		fputs(x->given ? " *(given by the plan)* |\n" : " |\n", f);
	}
	fputc('\n', f);
	for (size_t i = 0; i < pg->nblocks; i++) {
		const struct lst_pts_block *b = &pg->blocks[i];

		fprintf(f, "### %s\n\n", b->title);
		if (b->kind == LST_PTS_TABLE)
			s_table(f, b);
		else if (b->drawn)
			fprintf(f, "![%s](%s/%s.svg)\n\n", b->title, plots_link, b->plot);
		if (b->note) {
			fputc('*', f);
			s_esc(f, b->note);
			fputs("*\n\n", f);
		}
	}
	fputs("### Deviations from the spec\n\n", f);
	if (!pg->ndev)
		fputs("> None: the test ran with the spec's settings.\n", f);
	for (size_t i = 0; i < pg->ndev; i++) {
		fputs("> - ", f);
		s_esc(f, pg->dev[i]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

struct s_arg {
	const lst_pts *p;
	const char *plots_link;
};

static void s_write(FILE *f, const void *arg)
{
	const struct s_arg *a = arg;

	fprintf(f,
		"# SNIA Solid State Storage Performance Test Specification (PTS) report\n\n"
		"Plan %s, run %s. One page per test, in the layout of the spec's report format; "
		"values marked *given by the plan* come from the plan's report: section, not from "
		"a device.\n\n",
		a->p->plan_name, a->p->run_id);
	for (size_t i = 0; i < a->p->npages; i++)
		s_page(f, &a->p->pages[i], a->plots_link);
}

int lst_pts_md_write(const lst_pts *p, const char *plots_link, const char *path, lst_err *err)
{
	struct s_arg a = { p, plots_link };

	return lst_pts__write_file(path, s_write, &a, err);
}
