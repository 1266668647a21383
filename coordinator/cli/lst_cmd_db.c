/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep db add DIR... | ls | show RUN`: the run catalog (docs/catalog.md). add records
 * results folders (one transaction each), ls lists the runs a query chooses, show prints one
 * run with each point's figures. The catalog is an SQLite file by default, or any --db URL.
 */
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_catalog.h"
#include "lst_catwhere.h"
#include "lst_cli_catalog.h"
#include "lst_util.h"

#define S_OFF(f) offsetof(struct lst_cli_cat_flags, f)

const struct lst_flag lst_cli_cat_flags[] = {
	{ .opt = { .name = "db",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(db),
		   .help = "the catalog: sqlite:PATH or postgresql://USER@HOST/DB (default "
			   "sqlite:~/.local/share/lockstep/runs.db)" },
	  .arg = "URL" },
	{ .opt = { .name = "where",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(where),
		   .help = "only runs whose every term holds: 'model=PX05SRB040 firmware>=AS0C' "
			   "(KEY OP VALUE, OP one of = != < <= > >= ~)" },
	  .arg = "QUERY" },
	{ .opt = { .name = "since",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(since),
		   .help = "only runs started on or after DATE (2026-11-30, or a full ISO 8601 "
			   "instant)" },
	  .arg = "DATE" },
	{ .opt = { .name = "plan",
		   .ops = &lst_flag_string,
		   .offset = S_OFF(plan),
		   .help = "only runs of the plan named NAME" },
	  .arg = "NAME" },
	{ .opt = { .name = "json",
		   .type = LST_OPT_BOOL,
		   .offset = S_OFF(json),
		   .help = "JSON on stdout instead of text" } },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "partial",
		   .type = LST_OPT_BOOL,
		   .offset = S_OFF(partial),
		   .help = "add: record a run that has not finished too, marked partial" } },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, lst_cli_cat_flags, lst_cli_quiet_flags,
						   NULL };

const struct lst_flag_cmd lst_cmd_db_flags = {
	.name = "lockstep db",
	.operands = "add DIR... | ls | show RUN",
	.operand = LST_FLAG_RESULTS,
	.groups = s_groups,
	.about = "The run catalog: a lab's memory of its results folders. add records each\n"
		 "folder (run, plan, times, status, devices, agents, each point's headline\n"
		 "figures, steady-state verdicts and suite matrices), one transaction each: the\n"
		 "same folder twice changes nothing, a moved folder is found by its run id and\n"
		 "its path updated. ls lists the runs --where, --since and --plan choose; show\n"
		 "prints one run (its id or the id's first characters) with its points.\n",
	.more = "Exit status: 0 done; 2 bad usage, a folder that is not a results folder or\n"
		"has not finished (without --partial), or a catalog that cannot be opened\n"
		"(locked, unreachable, of a newer schema). ls and show name a run whose\n"
		"folder is gone as missing. docs/catalog.md describes the query language.\n"
		"\n"
		"Example:\n"
		"  lockstep db add results/*/ && lockstep db ls --where 'firmware>=AS0C'\n",
};

int lst_cli_cat_open(const char *cmd, const struct lst_cli_cat_flags *fl, const char *run,
		     lst_catalog **cat, struct lst_cat_run **runs, size_t *n)
{
	char *url = fl->db ? NULL : lst_catalog_default_url();
	struct lst_cat_filter f = { .since = fl->since, .plan = fl->plan, .run = run };
	lst_catwhere *w = NULL;
	lst_err err = { 0 };
	int rc = 0;

	if (fl->where && !(w = lst_catwhere_parse(fl->where, &err))) {
		fprintf(stderr, "lockstep %s: %s\n", cmd, err.msg);
		free(url);
		return 2;
	}
	f.where = w;
	if (!(*cat = lst_catalog_new(fl->db ? fl->db : url, &err)))
		rc = 2;
	else if (runs && lst_catalog_runs(*cat, &f, runs, n, &err)) {
		lst_catalog_destroy(cat);
		rc = 2;
	}
	if (rc)
		fprintf(stderr, "lockstep %s: %s\n", cmd, err.msg);
	lst_catwhere_destroy(&w);
	free(url);
	return rc;
}

static const char *const s_said[] = { "added", "unchanged", "moved: path updated", "replaced" };

int lst_cli_cat_add(const char *cmd, const char *url, const char *dir, bool quiet)
{
	struct lst_cli_cat_flags fl = { .db = url && *url ? url : NULL };
	enum lst_cat_added what;
	lst_catalog *cat;
	lst_err err = { 0 };
	int rc;

	if ((rc = lst_cli_cat_open(cmd, &fl, NULL, &cat, NULL, NULL)))
		return rc;
	if (lst_catalog_add(cat, dir, false, &what, &err)) {
		fprintf(stderr, "lockstep %s: catalog: %s\n", cmd, err.msg);
		rc = 2;
	} else if (!quiet) {
		printf("lockstep %s: catalog: %s: %s\n", cmd, dir, s_said[what]);
	}
	lst_catalog_destroy(&cat);
	return rc;
}

int lst_cli_cat_folders(const char *cmd, const char *url, const char *query, char **dirs, int max)
{
	struct lst_cli_cat_flags fl = { .db = url, .where = query };
	struct lst_cat_run *runs;
	lst_catalog *cat;
	size_t n;
	int k = 0;

	if (lst_cli_cat_open(cmd, &fl, NULL, &cat, &runs, &n))
		return -1;
	for (size_t i = 0; i < n && k >= 0; i++) {
		if (runs[i].missing)
			fprintf(stderr, "lockstep %s: warning: run %s: %s is missing, left out\n",
				cmd, runs[i].run_id, runs[i].path);
		else if (k == max)
			k = -1;
		else
			dirs[k++] = lst_strdup(runs[i].path);
	}
	if (k < 0) {
		fprintf(stderr, "lockstep %s: '%s' chooses more than %d runs: narrow it\n", cmd,
			query, max);
		while (max)
			free(dirs[--max]);
	}
	lst_cat_runs_free(runs, n);
	free(runs);
	lst_catalog_destroy(&cat);
	return k;
}

static int s_add(const struct lst_cli_cat_flags *fl, int n, char **dirs)
{
	enum lst_cat_added what;
	lst_catalog *cat;
	lst_err err = { 0 };
	int rc = 0;

	if (!n) {
		fprintf(stderr, "lockstep db add: which folders? (see 'lockstep db --help')\n");
		return 2;
	}
	if ((rc = lst_cli_cat_open("db add", fl, NULL, &cat, NULL, NULL)))
		return rc;
	for (int i = 0; i < n; i++) {
		if (lst_catalog_add(cat, dirs[i], fl->partial, &what, &err)) {
			fprintf(stderr, "lockstep db add: %s\n", err.msg);
			rc = 2;
		} else if (!fl->c.quiet) {
			printf("%s: %s\n", dirs[i], s_said[what]);
		}
	}
	lst_catalog_destroy(&cat);
	return rc;
}

static const char *s_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static json_t *s_run_json(const struct lst_cat_run *r)
{
	json_t *o = json_pack("{s:s?, s:s?, s:b, s:s?, s:s?, s:s?, s:s?, s:s?, s:b, s:s?, s:s?}",
			      "run_id", r->run_id, "path", r->path, "missing", r->missing, "plan",
			      r->plan_name, "plan_sha1", r->plan_sha1, "started", r->started,
			      "finished", r->finished, "status", r->status, "partial", r->partial,
			      "version", r->version, "kernel", r->kernel);
	json_t *devs = json_array(), *agents = json_array();

	for (size_t i = 0; i < r->ndevices; i++) {
		const struct lst_cat_device *d = &r->devices[i];

		json_array_append_new(devs,
				      json_pack("{s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:s?}",
						"target", d->target, "path", d->path, "model",
						d->model, "vendor", d->vendor, "serial", d->serial,
						"firmware", d->firmware, "wwn", d->wwn));
	}
	for (size_t i = 0; i < r->nagents; i++) {
		const struct lst_cat_agent *a = &r->agents[i];

		json_array_append_new(agents, json_pack("{s:s?, s:s?, s:s?, s:s?}", "name", a->name,
							"host", a->host, "kernel", a->kernel,
							"version", a->version));
	}
	json_object_set_new(o, "devices", devs);
	json_object_set_new(o, "agents", agents);
	return o;
}

static void s_print_json(json_t *o)
{
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));

	printf("%s\n", text);
	free(text);
	json_decref(o);
}

static void s_ls_text(const struct lst_cat_run *runs, size_t n)
{
	printf("%-28s %-19s %-16s %-9s %-14s %-9s %s\n", "run", "started", "plan", "status",
	       "model", "firmware", "folder");
	for (size_t i = 0; i < n; i++) {
		const struct lst_cat_run *r = &runs[i];
		const struct lst_cat_device *d = r->ndevices ? &r->devices[0] : NULL;

		printf("%-28s %-19.19s %-16s %-9s %-14s %-9s %s%s\n", r->run_id,
		       s_or(r->started, "-"), s_or(r->plan_name, "-"),
		       r->partial ? "partial*" : s_or(r->status, "-"),
		       s_or(d ? d->model : NULL, "-"), s_or(d ? d->firmware : NULL, "-"), r->path,
		       r->missing ? " (missing)" : "");
	}
	printf("%zu run%s\n", n, n == 1 ? "" : "s");
}

static int s_ls(const struct lst_cli_cat_flags *fl)
{
	struct lst_cat_run *runs;
	lst_catalog *cat;
	size_t n;
	int rc;

	if ((rc = lst_cli_cat_open("db ls", fl, NULL, &cat, &runs, &n)))
		return rc;
	if (fl->json) {
		json_t *a = json_array();

		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, s_run_json(&runs[i]));
		s_print_json(a);
	} else {
		s_ls_text(runs, n);
	}
	lst_cat_runs_free(runs, n);
	free(runs);
	lst_catalog_destroy(&cat);
	return 0;
}

/* A row of show's tables as a JSON object: text columns as strings, the others numbers. */
struct s_rows {
	const struct lst_cat_table *t;
	json_t *rows;
};

static int s_json_row(void *arg, int n, const char *const *v)
{
	struct s_rows *sr = arg;
	json_t *o = json_object();

	for (int i = 0; i < n && sr->t->cols[i]; i++) {
		json_t *val = json_null();

		if (v[i] && i >= sr->t->ntext)
			val = json_real(strtod(v[i], NULL));
		else if (v[i])
			val = json_string(v[i]);
		json_object_set_new(o, sr->t->cols[i], val);
	}
	json_array_append_new(sr->rows, o);
	return 0;
}

static int s_point_line(void *arg, int n, const char *const *v)
{
	(void)arg;
	if (n > 15)
		printf("  %-12s %-24s %12s %10s %10s %10s\n", s_or(v[0], "-"), s_or(v[2], "-"),
		       s_or(v[7], "-"), s_or(v[10], "-"), s_or(v[13], "-"), s_or(v[15], "-"));
	return 0;
}

static int s_steady_line(void *arg, int n, const char *const *v)
{
	(void)arg;
	if (n > 6)
		printf("  steady state of %s %s (%s): %s after %s rounds, average %s\n",
		       s_or(v[0], "-"), s_or(v[1], "-"), s_or(v[2], "-"),
		       v[4] && strcmp(v[4], "0") ? "steady" : "not steady", s_or(v[5], "-"),
		       s_or(v[6], "-"));
	return 0;
}

/* show's tables: each a JSON array of o, or text lines. */
static int s_show_tables(lst_catalog *cat, const char *run_id, json_t *o, lst_err *err)
{
	static const struct {
		const struct lst_cat_table *t;
		lst_cat_row_fn line; /* NULL: counted in text */
	} tables[] = { { &lst_cat_points, s_point_line },
		       { &lst_cat_steady, s_steady_line },
		       { &lst_cat_matrix, NULL } };
	int rc = 0;

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && !rc; i++) {
		struct s_rows sr = { tables[i].t, json_array() };

		rc = lst_catalog_rows(cat, sr.t, run_id,
				      o || !tables[i].line ? s_json_row : tables[i].line, &sr, err);
		if (!o && !tables[i].line && json_array_size(sr.rows))
			printf("  %s: %zu cells\n", sr.t->name, json_array_size(sr.rows));
		if (o)
			json_object_set_new(o, sr.t->name, sr.rows);
		else
			json_decref(sr.rows);
	}
	return rc;
}

static void s_show_text(const struct lst_cat_run *r)
{
	printf("run %s\n  plan %s (sha1 %s), %s\n  started %s, finished %s\n", r->run_id,
	       s_or(r->plan_name, "-"), s_or(r->plan_sha1, "-"),
	       r->partial ? "partial (had not finished when added)" : s_or(r->status, "-"),
	       s_or(r->started, "-"), s_or(r->finished, "-"));
	printf("  folder %s%s\n  lockstep %s, kernel %s\n", r->path,
	       r->missing ? " (missing: the figures below are the catalog's)" : "",
	       s_or(r->version, "-"), s_or(r->kernel, "-"));
	for (size_t i = 0; i < r->ndevices; i++) {
		const struct lst_cat_device *d = &r->devices[i];

		printf("  device %s %s: %s %s, serial %s, firmware %s, wwn %s\n",
		       s_or(d->target, "-"), s_or(d->path, "-"), s_or(d->vendor, "-"),
		       s_or(d->model, "-"), s_or(d->serial, "-"), s_or(d->firmware, "-"),
		       s_or(d->wwn, "-"));
	}
	for (size_t i = 0; i < r->nagents; i++)
		printf("  agent %s: host %s, kernel %s, lockstep %s\n",
		       s_or(r->agents[i].name, "-"), s_or(r->agents[i].host, "-"),
		       s_or(r->agents[i].kernel, "-"), s_or(r->agents[i].version, "-"));
	printf("  %-12s %-24s %12s %10s %10s %10s\n", "phase", "point", "IOPS", "MB/s", "mean us",
	       "p99 us");
}

static int s_show(const struct lst_cli_cat_flags *fl, int n, char **ops)
{
	struct lst_cat_run *runs;
	lst_catalog *cat;
	lst_err err = { 0 };
	json_t *o = NULL;
	size_t nr;
	int rc;

	if (n != 1) {
		fprintf(stderr, "lockstep db show: which run? (see 'lockstep db --help')\n");
		return 2;
	}
	if ((rc = lst_cli_cat_open("db show", fl, ops[0], &cat, &runs, &nr)))
		return rc;
	if (nr != 1) {
		fprintf(stderr, "lockstep db show: %s: %s\n", ops[0],
			nr ? "more than one run starts so: give more of its id" : "no such run");
		rc = 2;
		goto free;
	}
	if (fl->json)
		o = s_run_json(&runs[0]);
	else
		s_show_text(&runs[0]);
	if (s_show_tables(cat, runs[0].run_id, o, &err)) {
		fprintf(stderr, "lockstep db show: %s\n", err.msg);
		rc = 2;
	} else if (o) {
		s_print_json(o);
		o = NULL;
	}
	json_decref(o);
free:
	lst_cat_runs_free(runs, nr);
	free(runs);
	lst_catalog_destroy(&cat);
	return rc;
}

int lst_cmd_db(int argc, char **argv)
{
	struct lst_cli_cat_flags fl = { 0 };
	int first, rc, n;
	char **ops;

	if ((rc = lst_cli_parse(&lst_cmd_db_flags, argc, argv, &fl, &first)) >= 0)
		return rc;
	n = argc - first;
	ops = argv + first;
	if (n && !strcmp(ops[0], "add"))
		return s_add(&fl, n - 1, ops + 1);
	if (n == 1 && !strcmp(ops[0], "ls"))
		return s_ls(&fl);
	if (n && !strcmp(ops[0], "show"))
		return s_show(&fl, n - 1, ops + 1);
	fprintf(stderr, "lockstep db: add DIR..., ls or show RUN%s%s (see 'lockstep db --help')\n",
		n ? ", not " : "", n ? ops[0] : "");
	return 2;
}
