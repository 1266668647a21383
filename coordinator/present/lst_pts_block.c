/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pieces the PTS pages are made of (lst_pts_int.h): number cells at a fixed precision,
 * tables and their rows, plot blocks that know whether their plot was drawn, and the writing of
 * a page's file aside then renamed. Shared by the files that build the pages and those that
 * write them, and needing none of them.
 */
#include "lst_pts_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_util.h"

char *lst_pts__num(double v, const char *fmt)
{
	return isfinite(v) ? lst_asprintf(fmt, v) : lst_strdup("");
}

struct lst_pts_block *lst_pts__table(struct lst_pts_page *pg, const char *title, const char *key,
				     size_t ncols, const char *const *heads)
{
	struct lst_pts_block *b;

	pg->blocks = lst_realloc(pg->blocks, (pg->nblocks + 1) * sizeof(*pg->blocks));
	b = &pg->blocks[pg->nblocks++];
	memset(b, 0, sizeof(*b));
	b->kind = LST_PTS_TABLE;
	b->title = lst_strdup(title);
	b->key = lst_strdup(key);
	b->ncols = ncols;
	b->heads = lst_calloc(ncols, sizeof(*b->heads));
	for (size_t i = 0; i < ncols; i++)
		b->heads[i] = lst_strdup(heads[i]);
	return b;
}

void lst_pts__row(struct lst_pts_block *b, ...)
{
	va_list ap;

	b->cells = lst_realloc(b->cells, (b->nrows + 1) * b->ncols * sizeof(*b->cells));
	va_start(ap, b);
	for (size_t i = 0; i < b->ncols; i++) {
		char *c = va_arg(ap, char *);

		b->cells[b->nrows * b->ncols + i] = c ? c : lst_strdup("");
	}
	va_end(ap);
	b->nrows++;
}

/* Whether the plot named name was made, and drawn. */
static bool s_made(const struct lst_plot_list *made, const char *name, bool *drawn)
{
	for (size_t i = 0; made && i < made->n; i++)
		if (!strcmp(made->names[i], name)) {
			*drawn = made->drawn[i];
			return true;
		}
	return false;
}

void lst_pts__plot(struct lst_pts__ctx *c, const char *title, const char *family, const char *a,
		   const char *b)
{
	struct lst_pts_page *pg = c->pg;
	struct lst_pts_block *bl;
	char sa[96], sb[96], name[300];

	lst_plot_slug(a, sa, sizeof(sa));
	if (b)
		lst_plot_slug(b, sb, sizeof(sb));
	snprintf(name, sizeof(name), "%s_%s%s%s", family, sa, b ? "_" : "", b ? sb : "");
	pg->blocks = lst_realloc(pg->blocks, (pg->nblocks + 1) * sizeof(*pg->blocks));
	bl = &pg->blocks[pg->nblocks++];
	memset(bl, 0, sizeof(*bl));
	bl->kind = LST_PTS_PLOT;
	bl->title = lst_strdup(title);
	bl->key = lst_strdup(name);
	bl->plot = lst_strdup(name);
	if (!c->made)
		bl->note = lst_asprintf("Not drawn: plots were not asked for (--no-plots).");
	else if (!s_made(c->made, name, &bl->drawn))
		bl->note = lst_asprintf("No plot %s in the plots folder.", name);
	else if (!bl->drawn)
		bl->note = lst_asprintf(
			"Not drawn (gnuplot missing or failed): its script is %s.gp.", name);
}

/* See lst_pts_int.h: the value's name goes into the table's title and key. */
struct lst_pts_block *lst_pts__vtable(struct lst_pts__ctx *c, const char *title, const char *key,
				      size_t ncols, const char *const *heads)
{
	char t[512], k[512];

	snprintf(t, sizeof(t), "%s%s%s%s", title, *c->value ? " (" : "", c->value,
		 *c->value ? ")" : "");
	snprintf(k, sizeof(k), "%s%s%s", key, *c->value ? ":" : "", c->value);
	return lst_pts__table(c->pg, t, k, ncols, heads);
}

/* See lst_pts_int.h: the stem as the suite names each value's files. */
void lst_pts__each_value(struct lst_pts__ctx *c, void (*fn)(struct lst_pts__ctx *c))
{
	size_t n = c->pp ? lst_plan_phase_values(c->pp) : 1;

	for (size_t i = 0; i < n; i++) {
		char label[LST_PLAN_VALUE_MAX] = "", stem[LST_PLAN_STEM_MAX];
		struct lst_workload w;

		if (c->pp)
			lst_plan_phase_value(c->pp, i, &w, NULL, label, sizeof(label));
		lst_plan_value_stem(c->pg->phase, label, stem, sizeof(stem));
		c->value = label;
		c->stem = stem;
		c->value_index = i;
		fn(c);
	}
	c->value = "";
	c->stem = c->pg->phase;
}

int lst_pts__write_file(const char *path, void (*fn)(FILE *f, const void *arg), const void *arg,
			lst_err *err)
{
	char *tmp = lst_asprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int rc = 0;

	if (!f) {
		rc = lst_err_sys(err, -errno, "cannot create %s", tmp);
		goto out;
	}
	fn(f, arg);
	if (ferror(f) | fclose(f)) {
		rc = lst_err_sys(err, -EIO, "writing %s failed", tmp);
		remove(tmp);
	} else if (rename(tmp, path)) {
		rc = lst_err_sys(err, -errno, "cannot rename %s to %s", tmp, path);
		remove(tmp);
	}
out:
	free(tmp);
	return rc;
}
