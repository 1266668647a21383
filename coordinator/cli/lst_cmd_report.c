/*
 * `lockstep report`: read a results folder back, redraw its plots, print what it says; or
 * compare two runs of a plan (before and after a resize, two firmware versions).
 *
 * One folder: the run (id, plan, status, versions), agents with clock offset and RTT, targets
 * with their identities, errors, then per phase the points (IOPS, MB/s, mean / p99 / p99.99
 * latency; for suites the last round of each point), the headline figures of the
 * latency-vs-IOPS curves (under --limit, else the plan's curve limit, else 1 ms), the
 * steady-state verdicts, and the IOPS matrix. --json prints the same as one object.
 * --html[=FILE] also writes the report as one self-contained HTML page (lst_report_html.c),
 * by default DIR/report.html; for two folders the comparison, by default OUT/compare.html.
 *
 * Two folders: points are matched by (phase, test, label) and the change from the first run to
 * the second is given in percent, printed and written as OUT/compare.csv and OUT/compare.md;
 * their latency-vs-IOPS curves are overlaid in OUT/compare_lat_vs_iops.{svg,png}; when both
 * have an IOPS matrix, the ratio of every cell is added.
 *
 * Exit status: 0, also when plots could not be drawn (a warning says why); 2 for bad usage or a
 * folder that cannot be read (the error names the file and line).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_cli.h"
#include "lst_err.h"
#include "lst_log.h"
#include "lst_plot.h"
#include "lst_compare.h"
#include "lst_repeats.h"
#include "lst_report.h"
#include "lst_report_html.h"
#include "lst_report_show.h"
#include "lst_report_plan.h"
#include "lst_text.h"
#include "lst_util.h"

struct s_args {
	const char *dirs[2];
	int ndirs;
	const char *out;
	const char *html; /* --html: the file, "" for DIR/report.html; NULL: none */
	bool json, plots;
	double limit_us; /* --limit, 0 when not given */
};

void lst_cmd_report_usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep report [-o OUT] [--json] [--no-plots] [--limit TIME] [--html[=FILE]]\n"
		"                       DIR\n"
		"       lockstep report [-o OUT] [--json] [--no-plots] [--limit TIME] [--html[=FILE]]\n"
		"                       DIR1 DIR2\n"
		"\n"
		"Read a results folder written by 'lockstep run', redraw every plot and print the\n"
		"report: the run, its agents (clock offset, rtt), targets, status and errors, and\n"
		"per phase the points (IOPS, MB/s, mean, p99 and p99.99 latency), the\n"
		"headline figures of the latency-vs-IOPS curves (the highest IOPS with p99,\n"
		"p99.9 and p99.99 under a latency limit), the steady-state verdicts and the\n"
		"IOPS matrix. Plots go to DIR/plots (or OUT) as NAME.svg and NAME.png, with\n"
		"the gnuplot script NAME.gp that drew them.\n"
		"\n"
		"With two folders, compare the runs: points matched by phase and label, IOPS and\n"
		"latency of each and the change in %%, written to OUT/compare.csv and\n"
		"OUT/compare.md and printed; both runs' latency-vs-IOPS curves overlaid in\n"
		"OUT/compare_lat_vs_iops.svg/.png; the ratio of the IOPS matrices when both have\n"
		"one. OUT defaults to DIR2/compare-<name of DIR1>.\n"
		"\n"
		"options:\n"
		"  -o, --output OUT   where plots (one folder) or the comparison (two) go\n"
		"  --json             print the report as one JSON object\n"
		"  --html[=FILE]      also write the report as one self-contained HTML page\n"
		"                     (tables, plots inline as SVG, nothing fetched from\n"
		"                     elsewhere; prints well): FILE, default DIR/report.html;\n"
		"                     with two folders the comparison, default\n"
		"                     OUT/compare.html\n"
		"  --no-plots         do not draw plots\n"
		"  --limit TIME       the latency limit of the headline figures and the plots'\n"
		"                     limit line (500us, 1ms); default: the plan's curve limit\n"
		"                     for the phase, else 1ms\n"
		"  -h, --help         print this help\n"
		"\n"
		"Plots need gnuplot (Debian: gnuplot-nox); without it the report is still printed\n"
		"and a warning says the plots were skipped. docs/results.md describes every file.\n"
		"\n"
		"exit status: 0 done (even when plots could not be drawn), 2 bad usage or a folder\n"
		"that cannot be read.\n");
}

/* --limit: a duration of at least 1 us. Returns 0, or -EINVAL (said). */
static int s_parse_limit(const char *s, double *us)
{
	int64_t ns;
	lst_err err;

	if (lst_parse_duration(s, &ns, &err)) {
		lst_log_error("report: --limit: %s", err.msg);
		return -EINVAL;
	}
	if (ns < 1000) {
		lst_log_error("report: --limit: '%s' is below 1us (give a latency such as 500us or "
			      "1ms)",
			      s);
		return -EINVAL;
	}
	*us = (double)ns / 1e3;
	return 0;
}

static int s_parse_args(int argc, char **argv, struct s_args *a)
{
	enum { O_JSON = 256, O_NO_PLOTS, O_LIMIT, O_HTML };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, O_JSON },
		{ "no-plots", no_argument, NULL, O_NO_PLOTS },
		{ "limit", required_argument, NULL, O_LIMIT },
		{ "html", optional_argument, NULL, O_HTML },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->plots = true;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			lst_cmd_report_usage(stdout);
			return 1;
		case 'o':
			a->out = optarg;
			break;
		case O_JSON:
			a->json = true;
			break;
		case O_NO_PLOTS:
			a->plots = false;
			break;
		case O_LIMIT:
			if (s_parse_limit(optarg, &a->limit_us))
				return -EINVAL;
			break;
		case O_HTML:
			a->html = optarg ? optarg : "";
			break;
		case ':':
			lst_log_error("report: %s needs a value (see 'lockstep report --help')",
				      argv[optind - 1]);
			return -EINVAL;
		default:
			lst_log_error("report: unknown option '%s' (see 'lockstep report --help')",
				      argv[optind - 1]);
			return -EINVAL;
		}
	}
	a->ndirs = argc - optind;
	if (a->ndirs < 1 || a->ndirs > 2) {
		lst_log_error("report: give one results folder, or two to compare (see 'lockstep "
			      "report --help')");
		return -EINVAL;
	}
	for (int i = 0; i < a->ndirs; i++)
		a->dirs[i] = argv[optind + i];
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

static int s_report_one(const struct s_args *a)
{
	struct lst_plot_list made = { 0 };
	lst_report *r;
	char *outdir = NULL, *html = NULL;
	lst_err err, perr = { 0 };
	int prc = 0, rc = 0;

	r = lst_report_load(a->dirs[0], lst_report_plan_read, &err);
	if (!r) {
		lst_log_error("report: %s", err.msg);
		return 2;
	}
	r->headline_limit_us = a->limit_us;
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
	if (a->json) {
		json_t *o = lst_report_json(r);

		if (html)
			json_object_set_new(o, "html", json_string(html));

		json_object_set_new(o, "plots",
				    lst_report_plots_json(outdir, &made, prc, &perr, a->plots));
		json_object_set_new(o, "repeats", lst_repeats_json(r));
		rc = s_print_json(o);
		json_decref(o);
	} else {
		lst_report_print(r);
		lst_repeats_print(r);
		if (a->plots)
			lst_report_print_plots(outdir, &made, prc, &perr);
		if (html)
			printf("\nhtml: %s\n", html);
	}
	if (fflush(stdout) && !rc)
		rc = -EIO;
	if (rc)
		lst_log_error("report: writing the report failed");
out:
	if (a->html && !html)
		rc = 2;
	free(html);
	lst_plot_list_free(&made);
	free(outdir);
	lst_report_destroy(&r);
	return rc ? 2 : 0;
}

/* compare.csv, compare.md and compare_matrix-PHASE.csv in out. Returns 0 or -errno with err;
 * *nmatrix: how many matrix files. */
static int s_compare_files(const char *out, const lst_report *ra, const lst_report *rb,
			   const char *na, const char *nb, const struct lst_compare_pair *pairs,
			   size_t n, size_t *nmatrix, lst_err *err)
{
	char *path = lst_asprintf("%s/compare.csv", out);
	int rc = lst_compare_write_csv(path, pairs, n, err);

	free(path);
	if (!rc) {
		path = lst_asprintf("%s/compare.md", out);
		rc = lst_compare_write_md(path, ra, rb, na, nb, pairs, n, err);
		free(path);
	}
	*nmatrix = 0;
	for (size_t j = 0; !rc && j < ra->nmatrices; j++) {
		const struct lst_rpt_matrix *m = &ra->matrices[j];
		const struct lst_rpt_matrix *mb = lst_report_matrix(rb, m->phase);
		char name[160];

		if (!mb)
			continue;
		path = lst_asprintf("%s/%s", out,
				    lst_compare_matrix_file(m->phase, name, sizeof(name)));
		rc = lst_compare_write_matrix_csv(path, m, mb, err);
		free(path);
		(*nmatrix)++;
	}
	return rc;
}

/* The files the comparison wrote in out, by name, one line. */
static void s_compare_written(const char *out, const lst_report *ra, const lst_report *rb,
			      const char *html)
{
	printf("\nwritten: %s/compare.csv, %s/compare.md", out, out);
	if (html)
		printf(", %s", html);
	for (size_t j = 0; j < ra->nmatrices; j++) {
		char name[160];

		if (lst_report_matrix(rb, ra->matrices[j].phase))
			printf(", %s",
			       lst_compare_matrix_file(ra->matrices[j].phase, name, sizeof(name)));
	}
	printf("\n");
}

/* A warning on stderr when run r (called which) did not finish. */
static void s_compare_warn(const lst_report *r, const char *which)
{
	if (lst_compare_unfinished(r))
		lst_log_warn(
			"run %s (%s) did not finish (%s): its points may be missing or partial",
			which, r->dir, *r->status ? r->status : "no status");
}

/* The overlay plot; returns lst_plot_compare's result (1: nothing to draw), warned about. */
static int s_compare_plot(const lst_report *ra, const lst_report *rb, const char *na,
			  const char *nb, const char *out, struct lst_plot_list *made,
			  lst_err *perr)
{
	int prc = lst_plot_compare(ra, rb, na, nb, out, made, perr);

	if (prc == 1)
		lst_log_warn("no latency-vs-IOPS points in either run: no overlay plot");
	else if (prc == -ENOENT)
		lst_log_warn("plots skipped: %s", perr->msg);
	else if (prc)
		lst_log_warn("the overlay plot was not drawn: %s", perr->msg);
	return prc;
}

/* The runs' names in the output are their folders' names: "A x" and "B x" when those are equal. */
static void s_distinct_names(char **na, char **nb)
{
	if (!strcmp(*na, *nb)) {
		char *x = lst_asprintf("A %s", *na), *y = lst_asprintf("B %s", *nb);

		free(*na);
		free(*nb);
		*na = x;
		*nb = y;
	}
}

static int s_compare(const struct s_args *a)
{
	struct lst_plot_list made = { 0 };
	lst_report *ra, *rb = NULL;
	char *na = NULL, *nb = NULL, *out = NULL, *html = NULL;
	struct lst_compare_pair *pairs = NULL;
	lst_err err, perr = { 0 };
	size_t n = 0, nmatrix = 0;
	int rc = 2, prc = 0;

	ra = lst_report_load(a->dirs[0], lst_report_plan_read, &err);
	if (ra)
		rb = lst_report_load(a->dirs[1], lst_report_plan_read, &err);
	if (!ra || !rb) {
		lst_log_error("report: %s", err.msg);
		goto free_reports;
	}
	ra->headline_limit_us = rb->headline_limit_us = a->limit_us;
	na = s_basename(ra->dir);
	nb = s_basename(rb->dir);
	out = a->out ? lst_strdup(a->out) : lst_asprintf("%s/compare-%s", rb->dir, na);
	s_distinct_names(&na, &nb);
	if ((prc = lst_mkdir_p(out))) {
		lst_err_sys(&err, prc, "cannot create %s", out);
		lst_log_error("report: %s", err.msg);
		goto free_reports;
	}
	s_compare_warn(ra, "A");
	s_compare_warn(rb, "B");
	pairs = lst_compare_pairs(ra, rb, &n);
	if (s_compare_files(out, ra, rb, na, nb, pairs, n, &nmatrix, &err)) {
		lst_log_error("report: %s", err.msg);
		goto free_reports;
	}
	prc = a->plots ? s_compare_plot(ra, rb, na, nb, out, &made, &perr) : 0;
	if (a->html) {
		struct lst_report_html_plots pl = { out, a->plots ? &made : NULL, prc < 0 ? prc : 0,
						    &perr };

		html = *a->html ? lst_strdup(a->html) : lst_asprintf("%s/compare.html", out);
		if (lst_report_html_compare(ra, rb, na, nb, pairs, n, html, &pl, &err)) {
			lst_log_error("report: %s", err.msg);
			goto free_reports;
		}
	}
	if (a->json) {
		json_t *o = lst_compare_json(ra, rb, na, nb, pairs, n);

		json_object_set_new(o, "dir", json_string(out));
		if (html)
			json_object_set_new(o, "html", json_string(html));
		json_object_set_new(
			o, "plots",
			lst_report_plots_json(out, &made, prc < 0 ? prc : 0, &perr, a->plots));
		rc = s_print_json(o) ? 2 : 0;
		json_decref(o);
	} else {
		lst_compare_print(ra, rb, na, nb, pairs, n);
		s_compare_written(out, ra, rb, html);
		if (a->plots && prc != 1)
			lst_report_print_plots(out, &made, prc, &perr);
		rc = 0;
	}
	if (fflush(stdout)) {
		lst_log_error("report: writing the report failed");
		rc = 2;
	}
free_reports:
	lst_plot_list_free(&made);
	free(html);
	free(pairs);
	free(out);
	free(na);
	free(nb);
	lst_report_destroy(&ra);
	lst_report_destroy(&rb);
	return rc;
}

int lst_cmd_report(int argc, char **argv)
{
	struct s_args a;
	int rc = s_parse_args(argc, argv, &a);

	if (rc)
		return rc > 0 ? 0 : 2;
	return a.ndirs == 2 ? s_compare(&a) : s_report_one(&a);
}
