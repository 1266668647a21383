/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep report`: read a results folder back, redraw its plots, print what it says; or
 * compare runs of a plan (before and after a resize, firmware versions, drive models).
 *
 * One folder: the run (id, plan, status, versions), agents with clock offset and RTT, targets
 * with their identities, errors, then per phase the points (IOPS, MB/s, mean / p99 / p99.99
 * latency; for suites the last round of each point), the headline figures of the
 * latency-vs-IOPS curves (under --limit, else the plan's curve limit, else 1 ms), the
 * steady-state verdicts, and the IOPS matrix. --json prints the same as one object.
 * --html[=FILE] also writes the report as one self-contained HTML page (lst_report_html.c),
 * by default DIR/report.html; for two folders the comparison, by default OUT/compare.html.
 * --pts also writes the SNIA PTS report of the folder (lst_pts.h): DIR/pts.html, DIR/pts.md and
 * DIR/pts.pdf.
 *
 * Two folders or more: points are matched by (phase, test, label) and each run's change from
 * the first is given in percent, with a noise verdict where both have repeats, printed and
 * written as OUT/compare.csv and OUT/compare.md; their latency-vs-IOPS curves are overlaid in
 * OUT/compare_lat_vs_iops.{svg,png}; where the first and a later run have an IOPS matrix, the
 * ratio of every cell is added. OUT is never an input folder nor inside one: by default a new
 * folder ./compare-TIMESTAMP. Runs are named by --label, else by their drive's model and
 * firmware (run.json), else by their folder.
 *
 * Exit status: 0, also when plots could not be drawn (a warning says why); 2 for bad usage or a
 * folder that cannot be read (the error names the file and line).
 */
#include <errno.h>
#include <stddef.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lst_assert.h"
#include "lst_cli.h"
#include "lst_cli_catalog.h"
#include "lst_cli_samples.h"
#include "lst_err.h"
#include "lst_log.h"
#include "lst_plot.h"
#include "lst_pts.h"
#include "lst_compare.h"
#include "lst_repeats.h"
#include "lst_report_repeats.h"
#include "lst_report.h"
#include "lst_report_html.h"
#include "lst_report_show.h"
#include "lst_report_tail.h"
#include "lst_report_plan.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

struct s_args {
	struct lst_cli_flags c; /* first, as every command's: -o stores into c.out */
	const char *dirs[LST_COMPARE_MAX_RUNS];
	int ndirs;
	const char *runs, *db; /* --runs QUERY, --db URL: the folders from the run catalog */
	char *found[LST_COMPARE_MAX_RUNS]; /* the folders --runs found, ours to free */
	const char *labels;		   /* --label A,B,C; NULL when not given */
	const char *out;
	const char *html; /* --html: the file, "" for DIR/report.html; NULL: none */
	int64_t json, no_plots, limit_ns, tail_limit_ns, pts;
	bool plots;
	double limit_us; /* --limit, 0 when not given */
};

#define S_ARG(field) offsetof(struct s_args, field)

_Static_assert(LST_COMPARE_MAX_RUNS == 26, "the help below says at most 26 folders");

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = S_ARG(c.out),
		   .help = "where plots (one folder; default DIR/plots) or the comparison (several; "
			   "default a new folder ./compare-TIMESTAMP) go" },
	  .letter = 'o',
	  .arg = "OUT",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = "label",
		   .ops = &lst_flag_string,
		   .offset = S_ARG(labels),
		   .help = "the runs' names in a comparison, one per folder" },
	  .arg = "A,B,..." },
	{ .opt = { .name = "json",
		   .type = LST_OPT_BOOL,
		   .offset = S_ARG(json),
		   .help = "print the report as one JSON object" } },
	{ .opt = { .name = "html",
		   .ops = &lst_flag_string,
		   .offset = S_ARG(html),
		   .help = "also write the report as one self-contained HTML page (tables, plots "
			   "inline as SVG, nothing fetched from elsewhere; prints well): FILE, "
			   "default DIR/report.html; with several folders the comparison, default "
			   "OUT/compare.html" },
	  .arg = "FILE",
	  .flags = LST_FLAG_OPTIONAL },
	{ .opt = { .name = "pts",
		   .type = LST_OPT_BOOL,
		   .offset = S_ARG(pts),
		   .help = "also write the SNIA PTS report, a page per suite test in the spec's "
			   "report format: DIR/pts.html, DIR/pts.md and DIR/pts.pdf (printed by "
			   "headless Chromium)" } },
	{ .opt = { .name = "no-plots",
		   .type = LST_OPT_BOOL,
		   .offset = S_ARG(no_plots),
		   .help = "do not draw plots" } },
	{ .opt = { .name = "limit",
		   .type = LST_OPT_DURATION,
		   .offset = S_ARG(limit_ns),
		   .min = 1000,
		   .max = 3600 * LST_NS_PER_S,
		   .help = "the latency limit of the headline figures and the plots' limit line "
			   "(500us, 1ms; default: the plan's curve limit for the phase, else 1ms)" },
	  .arg = "TIME" },
	{ .opt = { .name = "tail-limit",
		   .type = LST_OPT_DURATION,
		   .offset = S_ARG(tail_limit_ns),
		   .min = 1000,
		   .max = 3600 * LST_NS_PER_S,
		   .help = "a latency limit whose exceedances the tail attribution also traces "
			   "to paths, agents, directions and intervals, beside the p99 and p99.9 "
			   "(5ms)" },
	  .arg = "TIME" },
	{ .opt = { .name = "runs",
		   .ops = &lst_flag_string,
		   .offset = S_ARG(runs),
		   .help = "compare every run of the run catalog that QUERY chooses (db ls "
			   "--where's language, docs/catalog.md) instead of folders named" },
	  .arg = "QUERY" },
	{ .opt = { .name = "db",
		   .ops = &lst_flag_string,
		   .offset = S_ARG(db),
		   .help = "the run catalog of --runs (default: lockstep db's)" },
	  .arg = "URL" },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, NULL };

const struct lst_flag_cmd lst_cmd_report_flags = {
	.name = "lockstep report",
	.operands = "DIR | DIR1 DIR2 [DIR3 ...]",
	.operand = LST_FLAG_RESULTS,
	.groups = s_groups,
	.about =
		"Read a results folder written by 'lockstep run', redraw every plot and print the\n"
		"report: the run, its agents (clock offset, rtt), targets, status and errors, and\n"
		"per phase the points (IOPS, MB/s, mean, p99 and p99.99 latency), the\n"
		"headline figures of the latency-vs-IOPS curves (the highest IOPS with p99,\n"
		"p99.9 and p99.99 under a latency limit), the steady-state verdicts and the\n"
		"IOPS matrix; for repeated points (repeat:) each figure's mean and 95% interval.\n"
		"Where the tail comes from: for each point with two paths or more, the share of\n"
		"the I/Os above its p99 and p99.9 (and --tail-limit) that each path, agent and\n"
		"direction made, in which intervals, and whether other paths had theirs at the\n"
		"same time (a shared cause, such as the drive) or none did; also DIR/tail.csv.\n"
		"Plots go to DIR/plots (or OUT) as NAME.svg and NAME.png, with the gnuplot\n"
		"script NAME.gp that drew them. --pts also writes the SNIA PTS report, a page\n"
		"per suite test in the spec's report format (header, the spec's plots and\n"
		"tables, deviations from the spec): DIR/pts.html, DIR/pts.md, DIR/pts.pdf.\n"
		"\n"
		"With two folders or more (at most 26), compare the runs with the first: points\n"
		"matched by phase and label, IOPS, MB/s, mean, p99, p99.99, read and write p99\n"
		"of each run and its change from the first in %, the basis compared (window,\n"
		"last round, mean of N repeats, point), and where both runs repeated a point\n"
		"whether the change is within noise (Welch's t-test at 95%); written to\n"
		"OUT/compare.csv and OUT/compare.md and printed; every run's latency-vs-IOPS\n"
		"curves in OUT/compare_lat_vs_iops.svg/.png; the ratio of the IOPS matrices.\n"
		"An input folder is never written. Runs are named by --label, else by their\n"
		"drive's model and firmware, else by their folder.\n",
	.more = "Plots need gnuplot (Debian: gnuplot-nox); without it the report is still printed\n"
		"and a warning says the plots were skipped. docs/results.md describes every file.\n"
		"\n"
		"Exit status: 0 done (even when plots could not be drawn), 2 bad usage or a folder\n"
		"that cannot be read.\n"
		"\n"
		"Examples:\n"
		"  lockstep report --html results/today\n"
		"  lockstep report --label fw1,fw2 -o cmp results/fw1 results/fw2\n",
};

static int s_parse_args(int argc, char **argv, struct s_args *a)
{
	int first, rc;

	memset(a, 0, sizeof(*a));
	if ((rc = lst_cli_parse(&lst_cmd_report_flags, argc, argv, a, &first)) >= 0)
		return rc ? -EINVAL : 1;
	a->out = a->c.out;
	a->plots = !a->no_plots;
	a->limit_us = (double)a->limit_ns / 1e3;
	a->ndirs = argc - first;
	if (a->runs && a->ndirs) {
		lst_log_error("report: --runs chooses the folders: name none");
		return -EINVAL;
	}
	if (a->runs) {
		a->ndirs = lst_cli_cat_folders("report", a->db, a->runs, a->found,
					       LST_COMPARE_MAX_RUNS);
		for (int i = 0; i < a->ndirs; i++)
			a->dirs[i] = a->found[i];
		if (a->ndirs < 0)
			return -EINVAL;
		if (a->ndirs < 2) {
			lst_log_error(
				"report: --runs '%s' chooses %d run%s: a comparison takes two "
				"or more",
				a->runs, a->ndirs, a->ndirs == 1 ? "" : "s");
			return -EINVAL;
		}
		return 0;
	}
	if (a->ndirs < 1 || a->ndirs > LST_COMPARE_MAX_RUNS) {
		lst_log_error("report: give one results folder, or two to %d to compare (see "
			      "'lockstep report --help')",
			      LST_COMPARE_MAX_RUNS);
		return -EINVAL;
	}
	if (a->pts && a->ndirs != 1) {
		lst_log_error("report: --pts writes the pages of one results folder: give one");
		return -EINVAL;
	}
	if (a->labels && a->ndirs < 2) {
		lst_log_error("report: --label names the runs of a comparison: give two folders "
			      "or more");
		return -EINVAL;
	}
	for (int i = 0; i < a->ndirs; i++)
		a->dirs[i] = argv[first + i];
	return 0;
}

/* The last path component of dir, without trailing slashes ("." resolved). */
static char *s_basename(const char *dir)
{
	char real[PATH_MAX], *copy;
	size_t n;
	const char *b;

	if (realpath(dir, real))
		dir = real;
	copy = lst_strdup(dir);
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	b = strrchr(copy, '/');
	b = b && b[1] ? b + 1 : copy;
	memmove(copy, b, strlen(b) + 1);
	return copy;
}

static int s_print_json(json_t *o)
{
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));

	if (!text)
		return -ENOMEM;
	printf("%s\n", text);
	free(text);
	return 0;
}

/* --- one folder ------------------------------------------------------------------------------ */

/* --html: the page at a->html (or DIR/report.html). Returns its path (the caller frees), or
 * NULL after an error. */
static char *s_write_html(const struct s_args *a, const lst_report *r, const char *outdir,
			  const struct lst_plot_list *made, int prc, const lst_err *perr)
{
	struct lst_report_html_plots pl = { outdir, made, prc, perr };
	char *path = *a->html ? lst_strdup(a->html) : lst_asprintf("%s/report.html", r->dir);
	lst_err err;

	if (lst_report_html_write(r, path, &pl, &err)) {
		lst_log_error("report: %s", err.msg);
		free(path);
		return NULL;
	}
	return path;
}

/*
 * The tail attribution of r's points from its samples files (r->tail, the caller's to destroy)
 * and DIR/tail.csv when some point has one. Returns the file's path (the caller frees), or
 * NULL when there is none; a folder whose samples cannot be read, or a tail.csv that cannot be
 * written, is warned about and the rest of the report goes on.
 */
static char *s_tail(const struct s_args *a, lst_report *r, lst_report_tail **rt)
{
	char *path;
	lst_err err;

	*rt = lst_report_tail_load(r, lst_cli_samples, (uint64_t)a->tail_limit_ns, &err);
	if (!*rt) {
		lst_log_warn("tail attribution skipped: %s", err.msg);
		return NULL;
	}
	r->tail = *rt;
	if (!lst_report_tail_count(*rt))
		return NULL;
	path = lst_asprintf("%s/tail.csv", r->dir);
	if (lst_report_tail_write_csv(*rt, path, &err)) {
		lst_log_warn("%s", err.msg);
		free(path);
		return NULL;
	}
	return path;
}

static char *s_abs_path(const char *path);

/* The link from DIR/pts.md to the plots folder: "plots" for DIR/plots, else the folder as
 * given. The caller frees. */
static char *s_plots_link(const lst_report *r, const char *outdir)
{
	char *dflt = lst_asprintf("%s/plots", r->dir), *link;

	link = !strcmp(outdir, dflt) ? lst_strdup("plots") : s_abs_path(outdir);
	free(dflt);
	return link;
}

/* --pts: DIR/pts.html, DIR/pts.md and DIR/pts.pdf; what was written goes to *written (the
 * caller frees). Returns 0, or 2 after an error (said); a PDF Chromium could not print is
 * warned about. */
static int s_write_pts(const struct s_args *a, const lst_report *r, const char *outdir,
		       const struct lst_plot_list *made, char **written)
{
	char *html = lst_asprintf("%s/pts.html", r->dir), *md = lst_asprintf("%s/pts.md", r->dir);
	char *pdf = lst_asprintf("%s/pts.pdf", r->dir), *link = NULL;
	lst_pts *p;
	lst_err err;
	int rc = 2;

	if (!(p = lst_pts_new(r, a->plots ? made : NULL, &err)))
		goto out;
	link = s_plots_link(r, outdir ? outdir : r->dir);
	if (lst_pts_html_write(p, outdir ? outdir : r->dir, html, &err) ||
	    lst_pts_md_write(p, link, md, &err))
		goto out;
	rc = 0;
	if (lst_pts_pdf_write(html, pdf, &err)) {
		lst_log_warn("report: %s", err.msg);
		*written = lst_asprintf("%s, %s", html, md);
	} else {
		*written = lst_asprintf("%s, %s, %s", html, md, pdf);
	}
out:
	if (rc)
		lst_log_error("report: %s", err.msg);
	lst_pts_destroy(&p);
	free(link);
	free(html);
	free(md);
	free(pdf);
	return rc;
}

static int s_report_one(const struct s_args *a)
{
	struct lst_plot_list made = { 0 };
	lst_report *r;
	lst_report_tail *rt = NULL;
	char *outdir = NULL, *html = NULL, *tail, *pts = NULL;
	lst_err err, perr = { 0 };
	int prc = 0, rc = 0;

	r = lst_report_load(a->dirs[0], lst_report_plan_read, &err);
	if (!r) {
		lst_log_error("report: %s", err.msg);
		return 2;
	}
	r->headline_limit_us = a->limit_us;
	tail = s_tail(a, r, &rt);
	if (a->plots) {
		outdir = a->out ? lst_strdup(a->out) : lst_asprintf("%s/plots", r->dir);
		prc = lst_plot_report(r, outdir, &made, &perr);
		if (prc == -ENOENT)
			lst_log_warn("plots skipped: %s", perr.msg);
		else if (prc)
			lst_log_warn("some plots were not drawn: %s", perr.msg);
	}
	if (a->html && !(html = s_write_html(a, r, outdir, a->plots ? &made : NULL, prc, &perr)))
		goto out;
	if (a->pts && (rc = s_write_pts(a, r, outdir, &made, &pts)))
		goto out;
	if (a->json) {
		json_t *o = json_object();

		if (html)
			json_object_set_new(o, "html", json_string(html));
		if (tail)
			json_object_set_new(o, "tail_csv", json_string(tail));
		if (pts)
			json_object_set_new(o, "pts", json_string(pts));
		json_object_set_new(o, "plots",
				    lst_report_plots_json(outdir, &made, prc, &perr, a->plots));
		json_object_set_new(o, "repeats", lst_repeats_json(r));
		rc = lst_report_json_write(stdout, r, o);
		json_decref(o);
	} else {
		lst_report_print(r);
		lst_repeats_print(r);
		if (a->plots)
			lst_report_print_plots(outdir, &made, prc, &perr);
		if (tail)
			printf("\ntail: %s\n", tail);
		if (html)
			printf("\nhtml: %s\n", html);
		if (pts)
			printf("%spts: %s\n", html ? "" : "\n", pts);
	}
	if (fflush(stdout) && !rc)
		rc = -EIO;
	if (rc)
		lst_log_error("report: writing the report failed");
out:
	if (a->html && !html)
		rc = 2;
	free(html);
	free(tail);
	free(pts);
	lst_plot_list_free(&made);
	free(outdir);
	lst_report_destroy(&r);
	lst_report_tail_destroy(&rt);
	return rc ? 2 : 0;
}

/* The phases of the first run that have an IOPS matrix, each once. */
static bool s_matrix_seen(const lst_report *a, size_t j)
{
	for (size_t i = 0; i < j; i++)
		if (!strcmp(a->matrices[i].phase, a->matrices[j].phase))
			return true;
	return false;
}

/* compare.csv, compare.md and compare_matrix-PHASE.csv in out; the files written go to
 * *written (one line, the caller frees). Returns 0 or -errno with err. */
static int s_compare_files(const char *out, const lst_compare *c, char **written, lst_err *err)
{
	const lst_report *a = c->runs[0];
	char *path = lst_asprintf("%s/compare.csv", out);
	int rc = lst_compare_write_csv(c, path, err);

	free(path);
	if (!rc) {
		path = lst_asprintf("%s/compare.md", out);
		rc = lst_compare_write_md(c, path, err);
		free(path);
	}
	*written = lst_asprintf("%s/compare.csv, %s/compare.md", out, out);
	for (size_t j = 0; !rc && j < a->nmatrices; j++) {
		char name[160], *w;

		if (s_matrix_seen(a, j))
			continue;
		lst_compare_matrix_file(a->matrices[j].phase, name, sizeof(name));
		path = lst_asprintf("%s/%s", out, name);
		rc = lst_compare_write_matrix_csv(c, a->matrices[j].phase, path, err);
		free(path);
		if (rc == 1) {
			rc = 0;
			continue;
		}
		w = lst_asprintf("%s, %s", *written, name);
		free(*written);
		*written = w;
	}
	return rc;
}

/* A warning on stderr for each run that did not finish. */
static void s_compare_warn(const lst_compare *c)
{
	for (size_t k = 0; k < c->nruns; k++)
		if (lst_compare_unfinished(c->runs[k]))
			lst_log_warn("run %c (%s) did not finish (%s): its points may be missing "
				     "or partial",
				     lst_compare_letter(k), c->runs[k]->dir,
				     *c->runs[k]->status ? c->runs[k]->status : "no status");
}

/* The comparison's plots; returns lst_plot_compare_all's result (1: nothing to draw), warned
 * about. */
static int s_compare_plot(const lst_compare *c, const char *out, struct lst_plot_list *made,
			  lst_err *perr)
{
	int prc = lst_plot_compare_all(c->runs, c->names, c->nruns, out, made, perr);

	if (prc == 1)
		lst_log_warn("nothing to plot in the runs: no comparison plot");
	else if (prc == -ENOENT)
		lst_log_warn("plots skipped: %s", perr->msg);
	else if (prc)
		lst_log_warn("the overlay plot was not drawn: %s", perr->msg);
	return prc;
}

/* Run r's drive as run.json names it: "MODEL fw FIRMWARE" of its first target's first path,
 * or NULL when the identity has no model (a loop device, a file). The caller frees. */
static char *s_drive_name(const lst_report *r)
{
	json_t *t = json_array_get(json_object_get(r->run, "targets"), 0);
	json_t *id = json_array_get(json_object_get(t, "identities"), 0);
	const char *model = json_string_value(json_object_get(id, "model"));
	const char *fw = json_string_value(json_object_get(id, "firmware"));

	if (!model || !*model)
		return NULL;
	return fw && *fw ? lst_asprintf("%s fw %s", model, fw) : lst_strdup(model);
}

/*
 * The runs' names: --label's, else each drive's model and firmware, else its folder's name;
 * names two runs share get their folder's name added, then their letter. Returns 0, or
 * -EINVAL when --label does not give one non-empty name per folder (said).
 */
static int s_run_names(const struct s_args *a, lst_report *const *runs, char **names)
{
	char *labels = a->labels ? lst_strdup(a->labels) : NULL, *save = NULL;
	char *tok = labels ? strtok_r(labels, ",", &save) : NULL;
	int n = 0;

	for (int k = 0; k < a->ndirs; k++) {
		if (labels) {
			names[k] = tok ? lst_strdup(tok) : NULL;
			n += tok != NULL;
			tok = tok ? strtok_r(NULL, ",", &save) : NULL;
		} else if (!(names[k] = s_drive_name(runs[k]))) {
			names[k] = s_basename(runs[k]->dir);
		}
	}
	free(labels);
	if (labels && (n != a->ndirs || tok)) {
		lst_log_error(
			"report: --label gives %d name%s for %d folders: give one per folder, "
			"separated by commas",
			n + (tok != NULL), n + (tok != NULL) == 1 ? "" : "s", a->ndirs);
		return -EINVAL;
	}
	for (int pass = 0; pass < 2; pass++) {
		bool dup[LST_COMPARE_MAX_RUNS] = { false };

		for (int k = 0; k < a->ndirs; k++)
			for (int j = 0; j < a->ndirs && !dup[k]; j++)
				dup[k] = j != k && !strcmp(names[k], names[j]);
		for (int k = 0; k < a->ndirs; k++) {
			char *base, *x;

			if (!dup[k])
				continue;
			base = s_basename(runs[k]->dir);
			x = pass ? lst_asprintf("%c %s", lst_compare_letter((size_t)k), names[k])
				 : lst_asprintf("%s (%s)", names[k], base);
			free(base);
			free(names[k]);
			names[k] = x;
		}
	}
	return 0;
}

/* path made absolute without following what does not exist yet: the real path of its longest
 * existing ancestor, and the rest as written. The caller frees. */
static char *s_abs_path(const char *path)
{
	char real[PATH_MAX], *copy = lst_strdup(path), *slash, *out;

	if (realpath(path, real)) {
		free(copy);
		return lst_strdup(real);
	}
	slash = strrchr(copy, '/');
	if (!slash) {
		out = realpath(".", real) ? lst_asprintf("%s/%s", real, copy) : lst_strdup(copy);
	} else {
		char *parent;

		*slash = '\0';
		parent = s_abs_path(*copy ? copy : "/");
		out = lst_asprintf("%s/%s", strcmp(parent, "/") ? parent : "", slash + 1);
		free(parent);
	}
	free(copy);
	return out;
}

/* Whether out is one of the input folders or inside one (then it is refused: said). */
static bool s_out_in_input(const char *out, lst_report *const *runs, int n)
{
	char *abs = s_abs_path(out);
	bool in = false;

	for (int k = 0; k < n && !in; k++) {
		char *dir = s_abs_path(runs[k]->dir);
		size_t len = strlen(dir);

		in = !strncmp(abs, dir, len) && (abs[len] == '\0' || abs[len] == '/');
		if (in)
			lst_log_error("report: %s is %s run %c's folder %s: a comparison never "
				      "writes into an input folder (give another -o)",
				      out, abs[len] ? "inside" : "", lst_compare_letter((size_t)k),
				      runs[k]->dir);
		free(dir);
	}
	free(abs);
	return in;
}

/* Each run shares a point with the first (said when one does not): else they are not runs of
 * one plan, and a table of "only A" / "only B" rows would compare nothing. A different plan
 * name is only warned about: two drives' plans may differ in their targets alone. */
static bool s_comparable(const lst_compare *c)
{
	bool ok = true;

	for (size_t k = 1; k < c->nruns; k++) {
		bool shared = false;

		for (size_t i = 0; i < c->nrows && !shared; i++)
			shared = c->rows[i].side[0].p && c->rows[i].side[k].p;
		if (!shared) {
			lst_log_error(
				"report: run %c (%s, plan %s) has no point of run A (%s, plan "
				"%s): they are not runs of one plan, nothing to compare",
				lst_compare_letter(k), c->runs[k]->dir,
				*c->runs[k]->plan_name ? c->runs[k]->plan_name : "?",
				c->runs[0]->dir,
				*c->runs[0]->plan_name ? c->runs[0]->plan_name : "?");
			ok = false;
		} else if (strcmp(c->runs[k]->plan_name, c->runs[0]->plan_name)) {
			lst_log_warn("run %c ran plan %s, run A plan %s: only their shared points "
				     "are compared",
				     lst_compare_letter(k), c->runs[k]->plan_name,
				     c->runs[0]->plan_name);
		}
	}
	return ok;
}

/* Whether a folder is given twice (said): a run compared with itself is a mistaken argument. */
static bool s_same_folder(lst_report *const *runs, int n)
{
	bool same = false;

	for (int k = 1; k < n && !same; k++)
		for (int j = 0; j < k && !same; j++) {
			char *x = s_abs_path(runs[k]->dir), *y = s_abs_path(runs[j]->dir);

			if ((same = !strcmp(x, y)))
				lst_log_error(
					"report: run %c's folder %s is run %c's: give each run "
					"once",
					lst_compare_letter((size_t)k), runs[k]->dir,
					lst_compare_letter((size_t)j));
			free(x);
			free(y);
		}
	return same;
}

/* The comparison's folder: -o, else ./compare-TIMESTAMP (UTC, to the second). The caller
 * frees. */
static char *s_compare_out(const struct s_args *a)
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;

	if (a->out)
		return lst_strdup(a->out);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime_r(&now, &tm));
	return lst_asprintf("compare-%s", stamp);
}

/* The comparison's outputs (files, plot, HTML, text or JSON). Returns 0, or 2 after an error
 * (said). */
static int s_compare_out_all(const struct s_args *a, const lst_compare *c, const char *out)
{
	struct lst_plot_list made = { 0 };
	char *html = NULL, *written = NULL;
	lst_err err, perr = { 0 };
	int rc = 2, prc;

	if (s_compare_files(out, c, &written, &err)) {
		lst_log_error("report: %s", err.msg);
		goto out;
	}
	prc = a->plots ? s_compare_plot(c, out, &made, &perr) : 0;
	if (a->html) {
		struct lst_report_html_plots pl = { out, a->plots ? &made : NULL, prc < 0 ? prc : 0,
						    &perr };

		html = *a->html ? lst_strdup(a->html) : lst_asprintf("%s/compare.html", out);
		if (lst_report_html_compare(c, html, &pl, &err)) {
			lst_log_error("report: %s", err.msg);
			goto out;
		}
	}
	if (a->json) {
		json_t *o = lst_compare_json(c);

		json_object_set_new(o, "dir", json_string(out));
		if (html)
			json_object_set_new(o, "html", json_string(html));
		json_object_set_new(
			o, "plots",
			lst_report_plots_json(out, &made, prc < 0 ? prc : 0, &perr, a->plots));
		rc = s_print_json(o) ? 2 : 0;
		json_decref(o);
	} else {
		lst_compare_print(c);
		printf("\nwritten: %s%s%s\n", written, html ? ", " : "", html ? html : "");
		if (a->plots && prc != 1)
			lst_report_print_plots(out, &made, prc, &perr);
		rc = 0;
	}
	if (fflush(stdout)) {
		lst_log_error("report: writing the report failed");
		rc = 2;
	}
out:
	lst_plot_list_free(&made);
	free(written);
	free(html);
	return rc;
}

static int s_compare(const struct s_args *a)
{
	lst_report *runs[LST_COMPARE_MAX_RUNS] = { 0 };
	char *names[LST_COMPARE_MAX_RUNS] = { 0 }, *out = NULL;
	lst_compare *c = NULL;
	lst_err err;
	int rc = 2, mrc;

	for (int k = 0; k < a->ndirs; k++) {
		if (!(runs[k] = lst_report_load(a->dirs[k], lst_report_plan_read, &err))) {
			lst_log_error("report: run %c: %s", lst_compare_letter((size_t)k), err.msg);
			goto free_runs;
		}
		runs[k]->headline_limit_us = a->limit_us;
	}
	if (s_same_folder(runs, a->ndirs) || s_run_names(a, runs, names))
		goto free_runs;
	c = lst_compare_new((const lst_report *const *)runs, (const char *const *)names,
			    (size_t)a->ndirs);
	if (!s_comparable(c))
		goto free_runs;
	out = s_compare_out(a);
	if (s_out_in_input(out, runs, a->ndirs))
		goto free_runs;
	if ((mrc = lst_mkdir_p(out))) {
		lst_err_sys(&err, mrc, "cannot create %s", out);
		lst_log_error("report: %s", err.msg);
		goto free_runs;
	}
	s_compare_warn(c);
	rc = s_compare_out_all(a, c, out);
free_runs:
	lst_compare_destroy(&c);
	free(out);
	for (int k = 0; k < a->ndirs; k++) {
		free(names[k]);
		lst_report_destroy(&runs[k]);
	}
	return rc;
}

int lst_cmd_report(int argc, char **argv)
{
	struct s_args a;
	int rc = s_parse_args(argc, argv, &a);

	if (!rc)
		rc = a.ndirs >= 2 ? s_compare(&a) : s_report_one(&a);
	else
		rc = rc > 0 ? 0 : 2;
	for (int i = 0; i < LST_COMPARE_MAX_RUNS; i++)
		free(a.found[i]);
	return rc;
}
