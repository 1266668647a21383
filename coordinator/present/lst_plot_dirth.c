/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DIRTH family (plots/dirth.gp): a snia-dirth phase's response-time histogram of each
 * selected point (dirth_PHASE_PICK), the merged histogram's non-empty buckets as bars on log
 * axes with the percentiles read from it marked, from dirth-PHASE.json as the suite wrote it
 * (dirth-PHASE-VALUE.json for each value of a phase that runs its grid once per value).
 * A phase whose file is missing (a run stopped before its histograms) has none.
 */
#include "lst_plot.h"
#include "lst_plot_int.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_plot_tpl.h"
#include "lst_util.h"

static const char *const s_pcts[] = { "99", "99.9", "99.99", "99.999" };

/* One selected point's plot. */
static void s_pick(struct lst_plot__ctx *c, const lst_report *r, const char *stem, json_t *s)
{
	const char *pick = json_string_value(json_object_get(s, "pick"));
	const char *label = json_string_value(json_object_get(s, "label"));
	json_t *pc = json_object_get(s, "percentiles_us"), *bin;
	char title[512], *qtitle;
	const char *name;
	double top = 1;
	size_t k;
	FILE *f;

	if (!pick)
		return;
	name = lst_plot__name(c, "dirth", stem, pick);
	f = lst_plot__script(c, name, "DIRTH: a selected point's response-time histogram");
	if (!f)
		return;
	fputs("$h << EOD\n", f);
	lst_plot__comment(f, "bucket from (us), to (us), I/Os");
	json_array_foreach (json_object_get(s, "histogram"), k, bin) {
		lst_plot__num(f, json_number_value(json_array_get(bin, 0)));
		lst_plot__num(f, json_number_value(json_array_get(bin, 1)));
		lst_plot__num(f, json_number_value(json_array_get(bin, 2)));
		fputc('\n', f);
		top = LST_MAX(top, json_number_value(json_array_get(bin, 2)));
	}
	fputs("EOD\n$p << EOD\n", f);
	lst_plot__comment(f, "percentile (us), height, name");
	for (k = 0; k < LST_ARRAY_SIZE(s_pcts); k++) {
		double v = json_number_value(json_object_get(pc, s_pcts[k]));

		if (!(v > 0))
			continue;
		lst_plot__num(f, v);
		lst_plot__num(f, top);
		fprintf(f, " \"p%s\"\n", s_pcts[k]);
	}
	fputs("EOD\n", f);
	lst_plot__begin(f, name, 1000, 560);
	snprintf(title, sizeof(title),
		 "Response time histogram — phase %s, %s point %s\n%s, run %s", stem, pick,
		 label ? label : "?", r->title, r->run_id);
	qtitle = lst_plot__qstr("%s", title);
	lst_plot_tpl(f, "dirth", "body",
		     (const struct lst_tpl_arg[]){ { "title", qtitle },
						   { "color", lst_plot__colors[0] },
						   { "pct_color", lst_plot__colors[3] },
						   { NULL, NULL } });
	free(qtitle);
	lst_plot__end(f);
	lst_plot__draw(c, f, name);
}

/* The selected points' plots of one dirth-STEM.json (STEM: the phase, or PHASE-VALUE). */
static void s_file(struct lst_plot__ctx *c, const lst_report *r, const char *stem)
{
	char *path = lst_asprintf("%s/dirth-%s.json", r->dir, stem);
	json_error_t jerr;
	json_t *o, *s;
	size_t i;

	o = json_load_file(path, 0, &jerr);
	if (!o && jerr.line > 0)
		lst_log_warn("plots: %s:%d: %s", path, jerr.line, jerr.text);
	free(path);
	json_array_foreach (json_object_get(o, "selected"), i, s)
		s_pick(c, r, stem, s);
	json_decref(o);
}

/* Whether file is dirth-PHASE.json or the file of a value, dirth-PHASE-NAME=....json (a phase's
 * name holds no '=', an option's name only [a-z_]). Sets stem to the part between "dirth-" and
 * ".json". */
static bool s_is_file(const char *file, const char *phase, char *stem, size_t size)
{
	size_t n = strlen(phase), len = strlen(file);
	const char *rest = file + 6 + n;

	if (strncmp(file, "dirth-", 6) || strncmp(file + 6, phase, n) || len < 6 + n + 5 ||
	    strcmp(file + len - 5, ".json") || len - 5 - 6 >= size)
		return false;
	if (*rest == '-') {
		size_t k = strspn(rest + 1, "abcdefghijklmnopqrstuvwxyz_");

		if (!k || rest[1 + k] != '=')
			return false;
	} else if (strcmp(rest, ".json")) {
		return false;
	}
	snprintf(stem, size, "%.*s", (int)(len - 5 - 6), file + 6);
	return true;
}

static int s_name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

void lst_plot__dirth(struct lst_plot__ctx *c, const lst_report *r, const struct lst_rpt_phase *ph)
{
	struct dirent **names = NULL;
	int n;

	if (strcmp(ph->suite, "snia-dirth"))
		return;
	n = scandir(r->dir, &names, NULL, s_name_cmp);
	for (int i = 0; i < n; i++) {
		char stem[512];

		if (s_is_file(names[i]->d_name, ph->name, stem, sizeof(stem)))
			s_file(c, r, stem);
		free(names[i]);
	}
	free(names);
}
