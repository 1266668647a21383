/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading a results folder back into an lst_report.
 *
 * The folder is the contract of docs/results.md: run.json, summary.csv and timeseries.csv are
 * always there (the coordinator creates them first); summary.json, rounds.csv, curves.csv and
 * matrix.csv are optional. The small CSV files' rows keep pointers into their lst_csv tables
 * and JSON strings into the loaded documents; summary.csv and timeseries.csv, which grow with
 * a run's points, are read a chunk at a time, summary.csv's rows kept with their text interned
 * (timeseries.csv's are not kept at all). All of it is released together.
 *
 * Which suite a phase ran comes from summary.json's "tests"; when a run was stopped before a
 * phase ended (no verdict written yet) it comes from plan.yaml, parsed by the reader the caller
 * passes (the folder library links no plan parser: present's lst_report_plan.c does).
 */
#include "lst_report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "lst_assert.h"
#include "lst_columns.h"
#include "lst_csv.h"
#include "lst_log.h"
#include "lst_map.h"
#include "lst_results.h"
#include "lst_steady.h"
#include "lst_util.h"

#define S_RUN_FORMAT 1
#define S_SEQ_BS (64 * 1024) /* a block size from which MB/s is the figure that matters */

struct s_priv {
	lst_csv *rounds, *curves;
	lst_csv **matrices;		    /* [nmatrices] */
	struct lst_report_plan_phase *plan; /* plan.yaml's phases */
	size_t nplan;
	char **strs; /* strings the model owns */
	size_t nstrs;
	lst_map *interned; /* of strs, those s_intern kept: their index */
	/* timeseries.csv's rows of each phase (by its index in r->phases): all and agent rows,
	 * target and path rows; a view of the phase allocates them at once */
	size_t (*ts_rows)[2];
	size_t nts_rows;
	/* points.jsonl: how many run.json "phases", summary.json "points" and "tests" it holds;
	 * read whole only where it is ahead of those files (s_load_journal) */
	size_t jphases, jpoints, jtests;
	struct lst_rpt_file files[3]; /* s_files' tables */
};

/* The files only some sections read, loaded once (lst_report_file). */
static const struct lst_col_table *const s_files[] = { &lst_events_table, &lst_telemetry_table,
						       &lst_integrity_table };

/* A walk of timeseries.csv (s_csv_each): checking it into r, or reading phase's rows into view. */
struct s_ts_arg {
	lst_report *r, *view;
	const char *phase; /* NULL: every phase */
	size_t phase_col;  /* the phase column's index in lst_timeseries_table */
	size_t nts_cap, nparts_cap;
	size_t left; /* a phase's view: its rows, as the check counted them */
	lst_err *err;
};

/* What one walk of the journal collects (NULL: not wanted) or counts. */
struct s_journal {
	json_t *phases, *points, *tests;
	size_t nphases, npoints, ntests;
};

static const char *s_own(lst_report *r, char *s)
{
	struct s_priv *p = r->priv;

	p->strs = lst_realloc(p->strs, (p->nstrs + 1) * sizeof(*p->strs));
	p->strs[p->nstrs++] = s;
	return s;
}

/* A copy of s the model owns, one per distinct string (a suite's test names repeat at every
 * point, and summary.json's points that held them are let go: s_prune_points). */
static const char *s_intern(lst_report *r, const char *s)
{
	struct s_priv *p = r->priv;
	size_t k;

	if (!p->interned)
		p->interned = lst_map_new();
	if (lst_map_find_str(p->interned, s, &k))
		return p->strs[k];
	lst_map_add_str(p->interned, s, p->nstrs, NULL);
	return s_own(r, lst_strdup(s));
}

/* --- JSON helpers: absent or null is "no value", a wrong type is an error --------------------- */

static int s_jstr(json_t *o, const char *key, const char *file, const char *ctx, const char **out,
		  lst_err *err)
{
	json_t *v = json_object_get(o, key);

	*out = "";
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return lst_err_set(err, -EINVAL, "%s: %s%s%s: expected a string", file, ctx,
				   *ctx ? "." : "", key);
	*out = json_string_value(v);
	return 0;
}

static int s_jnum(json_t *o, const char *key, const char *file, const char *ctx, double *out,
		  lst_err *err)
{
	json_t *v = json_object_get(o, key);

	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return lst_err_set(err, -EINVAL, "%s: %s%s%s: expected a number", file, ctx,
				   *ctx ? "." : "", key);
	*out = json_number_value(v);
	return 0;
}

static long s_jlong(json_t *o, const char *key, long dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? (long)json_number_value(v) : dflt;
}

static json_t *s_load_json(const char *path, lst_err *err)
{
	json_error_t je;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);

	if (!doc) {
		if (je.line <= 0)
			lst_err_set(err, -EINVAL, "%s: %s", path, je.text);
		else
			lst_err_set(err, -EINVAL, "%s:%d:%d: %s", path, je.line, je.column,
				    je.text);
		return NULL;
	}
	if (!json_is_object(doc)) {
		json_decref(doc);
		lst_err_set(err, -EINVAL, "%s: the document is not a JSON object", path);
		return NULL;
	}
	return doc;
}

/* --- phases ---------------------------------------------------------------------------------- */

/* The phase named name, added if new. */
static struct lst_rpt_phase *s_phase(lst_report *r, const char *name)
{
	struct lst_rpt_phase *ph = (struct lst_rpt_phase *)lst_report_phase(r, name);

	if (ph)
		return ph;
	r->phases = lst_realloc(r->phases, (r->nphases + 1) * sizeof(*r->phases));
	ph = &r->phases[r->nphases++];
	memset(ph, 0, sizeof(*ph));
	ph->name = name;
	ph->suite = "";
	return ph;
}

const struct lst_rpt_phase *lst_report_phase(const lst_report *r, const char *name)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

const struct lst_report_plan_phase *lst_report_plan_phase(const lst_report *r, const char *name)
{
	const struct s_priv *p = r->priv;

	for (size_t i = 0; i < p->nplan; i++)
		if (!strcmp(p->plan[i].name, name))
			return &p->plan[i];
	return NULL;
}

static bool s_rw_sequential(const char *rw)
{
	return !strcmp(rw, "read") || !strcmp(rw, "write") || !strcmp(rw, "rw");
}

/* Points run.json marks partial (an agent was lost during them): rare, so scan per mark. */
static void s_mark_partial(lst_report *r)
{
	json_t *phases = json_object_get(r->run, "phases"), *e;
	size_t i;

	json_array_foreach (phases, i, e) {
		const char *name = json_string_value(json_object_get(e, "phase"));
		long point = s_jlong(e, "point", -1);

		if (!name || !json_is_true(json_object_get(e, "partial")))
			continue;
		for (size_t k = 0; k < r->npoints; k++)
			if (r->points[k].point == point && !strcmp(r->points[k].phase, name))
				r->points[k].partial = true;
	}
}

/* --- run.json -------------------------------------------------------------------------------- */

static int s_run_agents(lst_report *r, const char *file, lst_err *err)
{
	json_t *agents = json_object_get(r->run, "agents"), *a;
	size_t i;
	int rc;

	if (!agents || json_is_null(agents))
		return 0;
	if (!json_is_array(agents))
		return lst_err_set(err, -EINVAL, "%s: agents: expected an array", file);
	r->agents = lst_calloc(json_array_size(agents) + 1, sizeof(*r->agents));
	json_array_foreach (agents, i, a) {
		struct lst_rpt_agent *ag = &r->agents[r->nagents++];
		char ctx[32];

		snprintf(ctx, sizeof(ctx), "agents[%zu]", i);
		if (!json_is_object(a))
			return lst_err_set(err, -EINVAL, "%s: %s: expected an object", file, ctx);
		if ((rc = s_jstr(a, "name", file, ctx, &ag->name, err)) ||
		    (rc = s_jstr(a, "address", file, ctx, &ag->address, err)) ||
		    (rc = s_jstr(a, "host", file, ctx, &ag->host, err)) ||
		    (rc = s_jstr(a, "version", file, ctx, &ag->version, err)) ||
		    (rc = s_jstr(a, "lost_why", file, ctx, &ag->lost_why, err)) ||
		    (rc = s_jnum(a, "clock_offset_us", file, ctx, &ag->clock_offset_us, err)) ||
		    (rc = s_jnum(a, "rtt_us", file, ctx, &ag->rtt_us, err)))
			return rc;
		ag->cores = s_jlong(a, "cores", -1);
		ag->lost = json_is_true(json_object_get(a, "lost"));
	}
	return 0;
}

double lst_report_wl_value(json_t *wl, const char *key, bool size)
{
	json_t *v = json_object_get(wl, key);
	const char *s = json_string_value(v);
	lst_err ignore;
	uint64_t bytes;
	char *end;
	double d;

	if (json_is_number(v))
		return json_number_value(v);
	if (!s || !*s)
		return NAN;
	if (size)
		return lst_parse_size(s, &bytes, &ignore) ? NAN : (double)bytes;
	d = strtod(s, &end);
	return end == s || *end ? NAN : d;
}

static int s_run_phases(lst_report *r, const char *file, lst_err *err)
{
	json_t *phases = json_object_get(r->run, "phases"), *e;
	size_t i;
	int rc;

	if (!phases || json_is_null(phases))
		return 0;
	if (!json_is_array(phases))
		return lst_err_set(err, -EINVAL, "%s: phases: expected an array", file);
	json_array_foreach (phases, i, e) {
		json_t *wl = json_object_get(e, "workload");
		const char *name, *rw = json_string_value(json_object_get(wl, "rw"));
		struct lst_rpt_phase *ph;
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "phases[%zu]", i);
		if (!json_is_object(e))
			return lst_err_set(err, -EINVAL, "%s: %s: expected an object", file, ctx);
		if ((rc = s_jstr(e, "phase", file, ctx, &name, err)))
			return rc;
		if (!*name)
			return lst_err_set(err, -EINVAL, "%s: %s.phase: missing", file, ctx);
		if (wl && !json_is_null(wl) && !json_is_object(wl))
			return lst_err_set(err, -EINVAL, "%s: %s.workload: expected an object",
					   file, ctx);
		/* Text workloads (early writers) also say rw. */
		ph = s_phase(r, name);
		if ((rw && s_rw_sequential(rw)) || lst_report_wl_value(wl, "bs", true) >= S_SEQ_BS)
			ph->sequential = true;
		if (json_is_true(json_object_get(e, "partial")))
			ph->partial = true;
	}
	return 0;
}

/*
 * What the report's readers take from each point of run.json (phases[]): the rest (a real run's
 * every workload option, each agent's start and end details) is let go once the file is
 * checked, as it is most of a long run's run.json. A reader of another member adds it here.
 */
static const char *const s_point_keys[] = { "phase",   "point",	    "label",
					    "start",   "start_t_s", "start_skew_us",
					    "partial", "workload",  "agents",
					    NULL };
static const char *const s_workload_keys[] = {
	"rw",	   "bs",      "iodepth", "jobs", "rwmixread", "rate_iops", "interval",
	"bssplit", "pattern", "offset",	 "size", "runtime",   "ramp",	   "random_distribution",
	NULL
}; /* the PTS pages' test parameters and deviations (lst_pts_head.c, lst_pts_dev.c) too */
static const char *const s_agent_keys[] = { "paths", NULL };

/* A new object of o's members named in keys (o itself when it is not an object). */
static json_t *s_slim(json_t *o, const char *const *keys)
{
	json_t *slim, *v;

	if (!json_is_object(o))
		return json_incref(o);
	slim = json_object();
	for (size_t i = 0; keys[i]; i++)
		if ((v = json_object_get(o, keys[i])))
			json_object_set(slim, keys[i], v);
	return slim;
}

/*
 * Drop what the model never reads from a summary.json point (its latency objects, counts,
 * labels, the workload but its block size: most of the file). Kept: the keys the join in
 * s_load_summary_json, lst_report_load() (the block size) and the failover and dip lines
 * (lst_report_failover.c) read.
 */
static json_t *s_trim_point(json_t *o)
{
	static const char *const keep[] = { "phase",  "agent",	 "test",     "scope",	 "point",
					    "round",  "path",	 "workload", "failover", "dips",
					    "repeat", "repeats", NULL };
	json_t *wl = json_object_get(o, "workload"), *bs = json_object_get(wl, "bs");
	json_t *slim = s_slim(o, keep);

	/* Of the workload, lst_report_load reads the block size alone. */
	if (json_is_object(wl))
		json_object_set_new(slim, "workload",
				    bs ? json_pack("{s:O}", "bs", bs) : json_object());
	return slim;
}

/* run.json's points as the readers of s_point_keys need them, in new objects (deleting members
 * would leave each object's table at its full size). */
static void s_slim_points(lst_report *r)
{
	json_t *phases = json_object_get(r->run, "phases"), *e, *slim, *agents, *a, *slim_agents;
	const char *name;
	size_t i;

	json_array_foreach (phases, i, e) {
		if (!json_is_object(e))
			continue;
		slim = s_slim(e, s_point_keys);
		if (json_object_get(slim, "workload"))
			json_object_set_new(
				slim, "workload",
				s_slim(json_object_get(e, "workload"), s_workload_keys));
		agents = json_object_get(e, "agents");
		if (json_is_object(agents)) {
			slim_agents = json_object();
			json_object_foreach (agents, name, a)
				json_object_set_new(slim_agents, name, s_slim(a, s_agent_keys));
			json_object_set_new(slim, "agents", slim_agents);
		}
		json_array_set_new(phases, i, slim);
	}
}

/* "plan NAME, target T (MODEL, fw F)" for plot titles; at most 4 targets named. */
static void s_title(lst_report *r)
{
	json_t *targets = json_object_get(r->run, "targets"), *t;
	size_t n = json_array_size(targets), len, i;
	char s[512];

	len = (size_t)snprintf(s, sizeof(s), "plan %s", *r->plan_name ? r->plan_name : "?");
	json_array_foreach (targets, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		json_t *id = json_array_get(json_object_get(t, "identities"), 0);
		const char *model = json_string_value(json_object_get(id, "model"));
		const char *fw = json_string_value(json_object_get(id, "firmware"));
		char part[200], extra[160] = "";

		if (!name)
			continue;
		if (i == 4) {
			snprintf(part, sizeof(part), ", ...");
		} else {
			if (model && *model)
				snprintf(extra, sizeof(extra), " (%s%s%s)", model,
					 fw && *fw ? ", fw " : "", fw && *fw ? fw : "");
			snprintf(part, sizeof(part), "%s %s%s",
				 i	 ? ","
				 : n > 1 ? ", targets"
					 : ", target",
				 name, extra);
		}
		if (len + strlen(part) >= sizeof(s))
			break;
		len += (size_t)snprintf(s + len, sizeof(s) - len, "%s", part);
		if (i == 4)
			break;
	}
	r->title = lst_strdup(s);
}

static int s_journal_entry(json_t *e, void *arg)
{
	struct s_journal *j = arg;
	const char *type = json_string_value(json_object_get(e, "type"));

	if (type && !strcmp(type, "point")) {
		json_t *run = json_object_get(e, "run"), *sum = json_object_get(e, "summary");

		if (json_is_object(run)) {
			j->nphases++;
			if (j->phases)
				json_array_append(j->phases, run);
		}
		if (json_is_array(sum)) {
			j->npoints += json_array_size(sum);
			if (j->points)
				json_array_extend(j->points, sum);
		}
	} else if (type && !strcmp(type, "phase_end") &&
		   json_is_array(json_object_get(e, "tests"))) {
		j->ntests += json_array_size(json_object_get(e, "tests"));
		if (j->tests)
			json_array_extend(j->tests, json_object_get(e, "tests"));
	}
	return 0;
}

/*
 * points.jsonl, the journal the coordinator appends to after every point: run.json and
 * summary.json are rewritten only now and then, so after a crash (or a full disk, where run.json
 * may be written without its phases) they are behind it. Where the journal has more points,
 * its entries replace run.json's "phases" (here) and summary.json's "points" and "tests"
 * (s_load_summary_json). A first walk only counts them: after a run that ended, the files are
 * complete and the journal (as large as summary.json) is never held in memory.
 */
static int s_load_journal(lst_report *r, lst_err *err)
{
	struct s_priv *p = r->priv;
	struct s_journal j = { 0 };
	int rc = lst_results_walk_journal(r->dir, true, s_journal_entry, &j, err);

	if (rc)
		return rc;
	p->jphases = j.nphases;
	p->jpoints = j.npoints;
	p->jtests = j.ntests;
	if (j.nphases <= json_array_size(json_object_get(r->run, "phases")))
		return 0;
	j = (struct s_journal){ .phases = json_array() };
	rc = lst_results_walk_journal(r->dir, false, s_journal_entry, &j, err);
	if (!rc)
		json_object_set(r->run, "phases", j.phases);
	json_decref(j.phases);
	return rc;
}

/* summary.json's "points" and "tests" from the journal where it has more of them. */
static int s_summary_journal(lst_report *r, lst_err *err)
{
	struct s_priv *p = r->priv;
	struct s_journal j = { 0 };
	json_t *o;
	size_t i;
	int rc;

	if (p->jpoints <= json_array_size(json_object_get(r->summary, "points")) &&
	    p->jtests <= json_array_size(json_object_get(r->summary, "tests")))
		return 0;
	j.points = json_array();
	j.tests = json_array();
	rc = lst_results_walk_journal(r->dir, false, s_journal_entry, &j, err);
	json_array_foreach (j.points, i, o) /* trimmed as summary.json's are when scanned */
		if (json_is_object(o))
			json_array_set_new(j.points, i, s_trim_point(o));
	if (!rc &&
	    json_array_size(j.points) > json_array_size(json_object_get(r->summary, "points")))
		json_object_set(r->summary, "points", j.points);
	if (!rc && json_array_size(j.tests) > json_array_size(json_object_get(r->summary, "tests")))
		json_object_set(r->summary, "tests", j.tests);
	json_decref(j.points);
	json_decref(j.tests);
	return rc;
}

static int s_load_run(lst_report *r, const char *path, lst_err *err)
{
	json_t *v, *errors;
	int rc;

	r->run = s_load_json(path, err);
	if (!r->run)
		return -EINVAL;
	v = json_object_get(r->run, "format");
	if (!json_is_integer(v))
		return lst_err_set(err, -EINVAL,
				   "%s: no \"format\" number: not a lockstep run.json", path);
	if (json_integer_value(v) > S_RUN_FORMAT)
		return lst_err_set(err, -EINVAL,
				   "%s: format %lld is newer than this lockstep reads (%d); use a "
				   "newer lockstep",
				   path, (long long)json_integer_value(v), S_RUN_FORMAT);
	if ((rc = s_jstr(r->run, "run_id", path, "", &r->run_id, err)) ||
	    (rc = s_jstr(r->run, "plan_name", path, "", &r->plan_name, err)) ||
	    (rc = s_jstr(r->run, "plan_file", path, "", &r->plan_file, err)) ||
	    (rc = s_jstr(r->run, "status", path, "", &r->status, err)) ||
	    (rc = s_jstr(r->run, "started", path, "", &r->started, err)) ||
	    (rc = s_jstr(r->run, "finished", path, "", &r->finished, err)) ||
	    (rc = s_jstr(r->run, "coordinator", path, "", &r->coordinator, err)))
		return rc;
	if (!*r->run_id)
		return lst_err_set(err, -EINVAL, "%s: no \"run_id\": not a lockstep run.json",
				   path);
	errors = json_object_get(r->run, "errors");
	if (errors && !json_is_null(errors) && !json_is_array(errors))
		return lst_err_set(err, -EINVAL, "%s: errors: expected an array", path);
	v = json_object_get(r->run, "targets");
	if (v && !json_is_null(v) && !json_is_array(v))
		return lst_err_set(err, -EINVAL, "%s: targets: expected an array", path);
	if ((rc = s_load_journal(r, err)) || (rc = s_run_agents(r, path, err)) ||
	    (rc = s_run_phases(r, path, err)))
		return rc;
	s_slim_points(r);
	s_title(r);
	return 0;
}

/* --- CSV files ------------------------------------------------------------------------------- */

/* Required numbers of one row: cols[i] for names[i], into out[i]. */
static int s_nums(const lst_csv *t, size_t row, const int *cols, size_t n, double *out,
		  lst_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = lst_csv_num(t, row, cols[i], &out[i], err);

		if (rc == -ENODATA)
			return lst_err_set(err, -EINVAL, "%s:%ld: column %s is empty",
					   lst_csv_path(t), lst_csv_line(t, row),
					   lst_csv_colname(t, (size_t)cols[i]));
		if (rc)
			return rc;
	}
	return 0;
}

/* An optional number: NAN when the column is absent or the field empty. */
static int s_opt_num(const lst_csv *t, size_t row, int col, double *v, lst_err *err)
{
	int rc = lst_csv_num(t, row, col, v, err);

	return rc == -ENODATA ? 0 : rc;
}

/* A column that must hold a non-empty name. */
static int s_name(const lst_csv *t, size_t row, int col, const char **out, lst_err *err)
{
	*out = lst_csv_field(t, row, col);
	if (!**out)
		return lst_err_set(err, -EINVAL, "%s:%ld: column %s is empty", lst_csv_path(t),
				   lst_csv_line(t, row), lst_csv_colname(t, (size_t)col));
	return 0;
}

static char *s_path(const lst_report *r, const char *name)
{
	return lst_asprintf("%s/%s", r->dir, name);
}

/* Load DIR/name into *out. optional: a missing file leaves *out NULL and returns 0. */
static int s_load_csv(lst_report *r, const char *name, bool optional, lst_csv **out, lst_err *err)
{
	char *path = s_path(r, name);
	int rc = lst_csv_load(path, out, err);

	free(path);
	if (rc == -ENOENT && optional)
		return 0;
	return rc;
}

/* Load the files of s_files: a missing or malformed one is kept as its error, not the report's. */
static void s_load_files(lst_report *r)
{
	struct s_priv *p = r->priv;

	for (size_t i = 0; i < LST_ARRAY_SIZE(s_files); i++) {
		const struct lst_col_table *t = s_files[i];
		struct lst_rpt_file *f = &p->files[i];
		char *path = s_path(r, t->file);

		f->rc = lst_csv_load(path, &f->csv, &f->err);
		free(path);
		if (f->rc)
			continue;
		f->col = lst_calloc(t->ncols, sizeof(*f->col));
		for (size_t c = 0; c < t->ncols; c++)
			f->col[c] = lst_csv_col(f->csv, t->cols[c].name);
	}
}

const struct lst_rpt_file *lst_report_file(const lst_report *r, const struct lst_col_table *t)
{
	struct s_priv *p = r->priv;

	for (size_t i = 0; i < LST_ARRAY_SIZE(s_files); i++)
		if (s_files[i] == t)
			return &p->files[i];
	LST_ASSERT(!"lst_report_file: not a file the model loads");
	return NULL;
}

/* The reader's passes over a table's columns: text first, then numbers (the order of messages). */
static bool s_in_pass(const struct lst_column *c, int pass)
{
	if (c->read == LST_READ_NO)
		return false;
	return pass == 0 ? c->read == LST_READ_NAME || c->read == LST_READ_TEXT
			 : c->read == LST_READ_NUM || c->read == LST_READ_LONG;
}

/*
 * Where the columns of tab are in t, into cols[tab->ncols] (-1: not read, or an optional column
 * the file lacks). Returns 0, or -EINVAL with err naming the first column missing.
 */
static int s_columns(const lst_csv *t, const struct lst_col_table *tab, int *cols, lst_err *err)
{
	for (size_t k = 0; k < tab->ncols; k++)
		cols[k] = -1;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < tab->ncols; k++) {
			const struct lst_column *c = &tab->cols[k];
			const char *names[] = { c->name, NULL };

			if (tab->header_in_order ? pass || c->read == LST_READ_NO
						 : !s_in_pass(c, pass))
				continue;
			if (c->optional)
				cols[k] = lst_csv_col(t, c->name);
			else if (lst_csv_require(t, names, &cols[k], err))
				return -EINVAL;
		}
	}
	return 0;
}

/* Row i of t into the struct at row, as tab's columns say (found at cols[]). */
static int s_read_row(const lst_csv *t, size_t i, const struct lst_col_table *tab, const int *cols,
		      void *row, lst_err *err)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < tab->ncols; k++) {
			const struct lst_column *c = &tab->cols[k];
			void *field = (char *)row + c->off;
			double v;
			int rc;

			if (!s_in_pass(c, pass))
				continue;
			if (c->read == LST_READ_TEXT) {
				*(const char **)field =
					cols[k] < 0 ? "" : lst_csv_field(t, i, cols[k]);
				continue;
			}
			if (c->read == LST_READ_NAME)
				rc = s_name(t, i, cols[k], (const char **)field, err);
			else if (c->optional)
				rc = s_opt_num(t, i, cols[k], &v, err);
			else
				rc = s_nums(t, i, &cols[k], 1, &v, err);
			if (rc)
				return rc;
			if (c->read == LST_READ_LONG)
				*(long *)field = (long)v;
			else if (c->read == LST_READ_NUM)
				*(double *)field = v;
		}
	}
	return 0;
}

/*
 * Load the CSV file of tab into *csv and its rows into *rows (n of them, size bytes each).
 * optional: a missing file loads no row.
 */
static int s_load_table(lst_report *r, const struct lst_col_table *tab, bool optional,
			lst_csv **csv, void **rows, size_t *n, size_t size, lst_err *err)
{
	int cols[64]; /* a table's columns at most (summary.csv has 42) */
	int rc;

	LST_ASSERT(tab->ncols <= LST_ARRAY_SIZE(cols));
	if ((rc = s_load_csv(r, tab->file, optional, csv, err)) || !*csv)
		return rc;
	if ((rc = s_columns(*csv, tab, cols, err)))
		return rc;
	*rows = lst_calloc(lst_csv_nrows(*csv) + 1, size);
	for (*n = 0; *n < lst_csv_nrows(*csv); (*n)++) {
		if ((rc = s_read_row(*csv, *n, tab, cols, (char *)*rows + *n * size, err))) {
			(*n)++; /* the row is in use: the caller frees it with the rest */
			return rc;
		}
	}
	return 0;
}

/*
 * Calls fn for every row of tab's file, read a chunk at a time and checked as any table is
 * (the row's strings live until fn returns), so that no file of rows is ever whole in memory.
 * quiet: the file was read once already. fn returns 0 to go on, 1 to stop, or -errno.
 */
static int s_csv_each(const lst_report *r, const struct lst_col_table *tab, bool quiet,
		      int (*fn)(const lst_csv *t, size_t i, const int *cols, void *arg), void *arg,
		      lst_err *err)
{
	char *path = s_path(r, tab->file);
	lst_csv_reader *rd = NULL;
	lst_csv *t = NULL;
	int cols[64], rc; /* a table's columns at most (summary.csv has 42) */

	LST_ASSERT(tab->ncols <= LST_ARRAY_SIZE(cols));
	rc = lst_csv_reader_open(path, quiet, &rd, err);
	free(path);
	while (!rc && !(rc = lst_csv_reader_next(rd, &t, err))) {
		rc = s_columns(t, tab, cols, err);
		for (size_t i = 0; !rc && i < lst_csv_nrows(t); i++)
			rc = fn(t, i, cols, arg);
		lst_csv_destroy(&t);
	}
	lst_csv_reader_destroy(&rd);
	return rc == 1 ? 0 : rc;
}

/* Is a row's scope a part of its agent or of all (a target's or a path's row)? */
static bool s_is_part(const char *scope)
{
	return !strcmp(scope, "target") || !strcmp(scope, "path");
}

/* The summary rows read so far: those of a target or a path go to r->parts, so that
 * everything that reads r->points sees the combined and agent rows, as in folders that predate
 * the parts. */
struct s_summary_arg {
	lst_report *r;
	size_t cap, cap_parts;
	lst_err *err;
};

/* Row i of a chunk of summary.csv kept, its text in strings the model owns (the chunk's text
 * goes with it: a long run's summary.csv is never whole in memory). */
static int s_summary_row(const lst_csv *t, size_t i, const int *cols, void *arg)
{
	struct s_summary_arg *a = arg;
	lst_report *r = a->r;
	struct lst_rpt_point row = { 0 }, *pt;
	int rc = s_read_row(t, i, &lst_summary_table, cols, &row, a->err);

	if (rc)
		return rc;
	for (size_t k = 0; k < lst_summary_table.ncols; k++) {
		const struct lst_column *c = &lst_summary_table.cols[k];

		if (c->read == LST_READ_TEXT || c->read == LST_READ_NAME)
			*(const char **)((char *)&row + c->off) =
				s_intern(r, *(const char **)((char *)&row + c->off));
	}
	row.line = lst_csv_line(t, i);
	if (s_is_part(row.scope)) {
		if (r->nparts == a->cap_parts)
			r->parts = lst_realloc(r->parts, (a->cap_parts = 2 * a->cap_parts + 16) *
								 sizeof(*r->parts));
		r->parts[r->nparts++] = row;
		return 0;
	}
	if (r->npoints == a->cap)
		r->points = lst_realloc(r->points, (a->cap = 2 * a->cap + 16) * sizeof(*r->points));
	pt = &r->points[r->npoints++];
	*pt = row;
	pt->name = pt->label;
	pt->test = "";
	s_phase(r, pt->phase);
	return 0;
}

static int s_load_summary(lst_report *r, lst_err *err)
{
	struct s_summary_arg a = { .r = r, .err = err };
	int rc = s_csv_each(r, &lst_summary_table, false, s_summary_row, &a, err);

	if (rc)
		return rc;
	if (!r->points) /* the model's arrays are there even when empty */
		r->points = lst_calloc(1, sizeof(*r->points));
	if (!r->parts)
		r->parts = lst_calloc(1, sizeof(*r->parts));
	s_mark_partial(r);
	return 0;
}

/* "stop_reason" of o into *stop (enum lst_stop), -1 when absent; an unknown name is an error. */
static int s_load_stop(json_t *o, const char *file, const char *ctx, int *stop, lst_err *err)
{
	const char *name;
	int rc = s_jstr(o, "stop_reason", file, ctx, &name, err);

	*stop = -1;
	if (rc || !*name)
		return rc;
	*stop = lst_stop_find(name);
	if (*stop < 0)
		return lst_err_set(err, -EINVAL, "%s: %s.stop_reason: unknown reason '%s'", file,
				   ctx, name);
	return 0;
}

/* A test's "points", each point's window average, into t->win. */
static int s_load_window(struct lst_rpt_test *t, json_t *a, const char *file, const char *ctx,
			 lst_err *err)
{
	json_t *o;
	size_t k;
	int rc;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return lst_err_set(err, -EINVAL, "%s: %s.points: expected an array", file, ctx);
	t->win = lst_calloc(json_array_size(a) + 1, sizeof(*t->win));
	json_array_foreach (a, k, o) {
		struct lst_rpt_window *w = &t->win[t->nwindow];
		char c[64];

		snprintf(c, sizeof(c), "%s.points[%zu]", ctx, k);
		if (!json_is_object(o))
			return lst_err_set(err, -EINVAL, "%s: %s: expected an object", file, c);
		if ((rc = s_jstr(o, "label", file, c, &w->label, err)) ||
		    (rc = s_jnum(o, "iops", file, c, &w->iops, err)) ||
		    (rc = s_jnum(o, "mbps", file, c, &w->mbps, err)) ||
		    (rc = s_jnum(o, "lat_mean_us", file, c, &w->lat_mean, err)) ||
		    (rc = s_jnum(o, "lat_p99_us", file, c, &w->lat_p99, err)) ||
		    (rc = s_jnum(o, "lat_p99_99_us", file, c, &w->lat_p99_99, err)))
			return rc;
		t->nwindow++;
	}
	return 0;
}

static int s_load_test(lst_report *r, json_t *o, size_t i, const char *file, lst_err *err)
{
	struct lst_rpt_test *t = &r->tests[r->ntests];
	json_t *values = json_object_get(o, "values"), *v;
	char ctx[32];
	size_t k;
	int rc;

	snprintf(ctx, sizeof(ctx), "tests[%zu]", i);
	if (!json_is_object(o))
		return lst_err_set(err, -EINVAL, "%s: %s: expected an object", file, ctx);
	if ((rc = s_jstr(o, "phase", file, ctx, &t->phase, err)) ||
	    (rc = s_jstr(o, "test", file, ctx, &t->test, err)) ||
	    (rc = s_jstr(o, "suite", file, ctx, &t->suite, err)) ||
	    (rc = s_jstr(o, "tracked", file, ctx, &t->tracked, err)) ||
	    (rc = s_jnum(o, "average", file, ctx, &t->average, err)) ||
	    (rc = s_jnum(o, "min", file, ctx, &t->min, err)) ||
	    (rc = s_jnum(o, "max", file, ctx, &t->max, err)) ||
	    (rc = s_jnum(o, "data_excursion_pct", file, ctx, &t->data_pct, err)) ||
	    (rc = s_jnum(o, "slope_excursion_pct", file, ctx, &t->slope_pct, err)) ||
	    (rc = s_jnum(o, "slope", file, ctx, &t->slope, err)) ||
	    (rc = s_jnum(o, "intercept", file, ctx, &t->intercept, err)) ||
	    (rc = s_jnum(o, "data_excursion_limit_pct", file, ctx, &t->data_limit, err)) ||
	    (rc = s_jnum(o, "slope_excursion_limit_pct", file, ctx, &t->slope_limit, err)))
		return rc;
	if (!*t->phase)
		return lst_err_set(err, -EINVAL, "%s: %s.phase: missing", file, ctx);
	/* The plots judge the values again with these limits: a negative one means nothing. */
	if (t->data_limit < 0)
		return lst_err_set(err, -EINVAL,
				   "%s: %s.data_excursion_limit_pct: %g is not a percentage >= 0",
				   file, ctx, t->data_limit);
	if (t->slope_limit < 0)
		return lst_err_set(err, -EINVAL,
				   "%s: %s.slope_excursion_limit_pct: %g is not a percentage >= 0",
				   file, ctx, t->slope_limit);
	t->rounds = s_jlong(o, "rounds", 0);
	t->window = s_jlong(o, "window", 0);
	t->window_first = s_jlong(o, "window_first", 0);
	t->window_last = s_jlong(o, "window_last", 0);
	t->steady = json_is_true(json_object_get(o, "steady"));
	t->max_rounds_hit = json_is_true(json_object_get(o, "max_rounds_hit"));
	t->required = !json_is_false(json_object_get(o, "steady_required"));
	if (values && !json_is_null(values) && !json_is_array(values))
		return lst_err_set(err, -EINVAL, "%s: %s.values: expected an array", file, ctx);
	t->values = lst_calloc(json_array_size(values) + 1, sizeof(*t->values));
	json_array_foreach (values, k, v) {
		if (!json_is_number(v) && !json_is_null(v))
			return lst_err_set(err, -EINVAL, "%s: %s.values[%zu]: expected a number",
					   file, ctx, k);
		t->values[t->nvalues++] = json_is_number(v) ? json_number_value(v) : NAN;
	}
	if (!t->rounds)
		t->rounds = (long)t->nvalues;
	if ((rc = s_load_stop(o, file, ctx, &t->stop, err)) ||
	    (rc = s_jnum(o, "bytes_written", file, ctx, &t->bytes_written, err)) ||
	    (rc = s_jnum(o, "capacity_multiple", file, ctx, &t->capacity_multiple, err)) ||
	    (rc = s_load_window(t, json_object_get(o, "points"), file, ctx, err)))
		return rc;
	if (t->stop < 0 && t->max_rounds_hit) /* a folder from before stop_reason */
		t->stop = LST_STOP_ROUND_LIMIT;
	r->ntests++;
	return 0;
}

/* A test without a verdict: what a purge or a bounded write did. */
static int s_load_work(lst_report *r, json_t *o, size_t i, const char *file, lst_err *err)
{
	struct lst_rpt_work *w = &r->works[r->nworks];
	bool purge;
	char ctx[32];
	int rc;

	snprintf(ctx, sizeof(ctx), "tests[%zu]", i);
	if ((rc = s_jstr(o, "phase", file, ctx, &w->phase, err)) ||
	    (rc = s_jstr(o, "test", file, ctx, &w->test, err)) ||
	    (rc = s_jstr(o, "suite", file, ctx, &w->suite, err)) ||
	    (rc = s_jstr(o, "did", file, ctx, &w->did, err)) ||
	    (rc = s_load_stop(o, file, ctx, &w->stop, err)) ||
	    (rc = s_jnum(o, "capacity_multiple", file, ctx, &w->capacity_multiple, err)) ||
	    (rc = s_jnum(o, "seconds", file, ctx, &w->seconds, err)) ||
	    (rc = s_jnum(o, "mbps", file, ctx, &w->mbps, err)))
		return rc;
	purge = !strcmp(w->did, "discard");
	if ((rc = s_jnum(o, purge ? "bytes_discarded" : "bytes_written", file, ctx, &w->bytes,
			 err)))
		return rc;
	if (!*w->phase)
		return lst_err_set(err, -EINVAL, "%s: %s.phase: missing", file, ctx);
	r->nworks++;
	return 0;
}

/*
 * A point's name without what the writer adds for suite steps: "TEST: LABEL round N" or
 * "TEST round N" (the test is its own point). Points are matched across rounds and runs by
 * (phase, test, name).
 */
static const char *s_point_name(lst_report *r, const char *label, const char *test, long round,
				long repeat)
{
	size_t len = strlen(label), tl = strlen(test), sl;
	const char *start = label;
	char suffix[48];

	if (repeat > 0) { /* "LABEL repeat K", "repeat K": the repeats of a point share its name */
		sl = (size_t)snprintf(suffix, sizeof(suffix), " repeat %ld", repeat);
		if (len > sl && !strcmp(label + len - sl, suffix))
			return s_own(r, lst_asprintf("%.*s", (int)(len - sl), label));
		if (!strcmp(label, suffix + 1))
			return "";
	}
	if (round <= 0)
		return label;
	sl = (size_t)snprintf(suffix, sizeof(suffix), " round %ld", round);
	if (len < sl || strcmp(label + len - sl, suffix))
		return label;
	len -= sl;
	if (tl && len > tl + 2 && !strncmp(label, test, tl) && !strncmp(label + tl, ": ", 2)) {
		start += tl + 2;
		len -= tl + 2;
	} else if (tl && len == tl && !strncmp(label, test, tl)) {
		len = 0;
	}
	return s_own(r, lst_asprintf("%.*s", (int)len, start));
}

/*
 * Once the model is built, summary.json's points serve the failover and dip lines alone
 * (lst_report_failover.c): the points without either go, and of the others what those lines
 * read stays, so that the points of a long run are not held while the report is written.
 */
static void s_prune_points(json_t *summary)
{
	static const char *const keep[] = { "phase",	"point", "agent", "path",
					    "failover", "dips",	 NULL };
	json_t *points = json_object_get(summary, "points"), *kept = json_array(), *o;
	size_t i;

	json_array_foreach (points, i, o)
		if (json_object_get(o, "failover") || json_object_get(o, "dips"))
			json_array_append_new(kept, s_slim(o, keep));
	if (points)
		json_object_set(summary, "points", kept);
	json_decref(kept);
}

/*
 * summary.json read a window at a time: b holds n bytes of the file from where the scan last
 * let go (s_win_drop), and more are read (s_win_more) whenever a value runs past its end, so a
 * long run's points are never all in memory as text.
 */
struct s_win {
	FILE *f;
	char *b;
	size_t n, cap;
	bool eof, bad; /* bad: a NUL byte (not JSON: jansson says why) */
};

#define S_WIN_CHUNK ((size_t)1 << 20)

/* Read up to a chunk more into w. Returns false at the end of the file (or on an error). */
static bool s_win_more(struct s_win *w)
{
	size_t got;

	if (w->eof)
		return false;
	if (w->cap - w->n < S_WIN_CHUNK) {
		w->cap = w->n + S_WIN_CHUNK;
		w->b = lst_realloc(w->b, w->cap + 1);
	}
	got = fread(w->b + w->n, 1, S_WIN_CHUNK, w->f);
	if (memchr(w->b + w->n, '\0', got))
		w->bad = true;
	w->n += got;
	w->eof = got < S_WIN_CHUNK;
	return got > 0 && !w->bad;
}

/* Let go of the first k bytes (a scan's position k becomes 0). */
static void s_win_drop(struct s_win *w, size_t k)
{
	memmove(w->b, w->b + k, w->n - k);
	w->n -= k;
}

static size_t s_skip_ws(struct s_win *w, size_t i)
{
	for (;;) {
		while (i < w->n &&
		       (w->b[i] == ' ' || w->b[i] == '\t' || w->b[i] == '\n' || w->b[i] == '\r'))
			i++;
		if (i < w->n || !s_win_more(w))
			return i;
	}
}

/*
 * Where the JSON value that starts at b[i] ends (one past it), by brackets and strings only;
 * 0 when it is cut short. Not validated: jansson parses the span.
 */
static size_t s_value_end(const char *b, size_t n, size_t i)
{
	long depth = 0;
	bool str = false;

	for (; i < n; i++) {
		char c = b[i];

		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"' && (str = false, !depth))
				return i + 1;
		} else if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return depth < 0 ? i : i + 1;
		} else if (!depth &&
			   (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			return i;
		}
	}
	return depth || str ? 0 : i;
}

/* s_value_end in the window, reading more while the value runs to its end. */
static size_t s_win_value_end(struct s_win *w, size_t i)
{
	for (;;) {
		size_t e = s_value_end(w->b, w->n, i);

		if ((e && e < w->n) || !s_win_more(w))
			return e;
	}
}

/* One value of the span b[i, e): a new reference, NULL when it is not JSON. */
static json_t *s_span(const char *b, size_t i, size_t e)
{
	return e > i ? json_loadb(b + i, e - i, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL)
		     : NULL;
}

/* The array at b[*i] ('['), each object parsed and trimmed alone, and its text let go; *i is
 * moved past it. */
static json_t *s_scan_points(struct s_win *w, size_t *i)
{
	json_t *arr = json_array(), *o;
	size_t k = s_skip_ws(w, *i + 1), e;

	if (k < w->n && w->b[k] == ']') {
		*i = k + 1;
		return arr;
	}
	for (;;) {
		e = s_win_value_end(w, k);
		if (!(o = s_span(w->b, k, e)))
			break;
		json_array_append_new(arr, json_is_object(o) ? s_trim_point(o) : json_incref(o));
		json_decref(o);
		s_win_drop(w, e);
		k = s_skip_ws(w, 0);
		if (k < w->n && w->b[k] == ',') {
			k = s_skip_ws(w, k + 1);
			continue;
		}
		if (k < w->n && w->b[k] == ']') {
			*i = k + 1;
			return arr;
		}
		break;
	}
	json_decref(arr);
	return NULL;
}

/* One "key": value of the top object at b[*i]: set in doc; *i moved past it. 0 or -1. */
static int s_scan_member(json_t *doc, struct s_win *w, size_t *i)
{
	size_t e = s_win_value_end(w, *i);
	json_t *key = w->b[*i] == '"' ? s_span(w->b, *i, e) : NULL, *v;
	const char *k = json_string_value(key);

	if (!k || json_object_get(doc, k)) {
		json_decref(key);
		return -1;
	}
	*i = s_skip_ws(w, e);
	if (*i < w->n && w->b[*i] == ':')
		*i = s_skip_ws(w, *i + 1);
	else
		*i = w->n;
	if (*i < w->n && w->b[*i] == '[' && !strcmp(k, "points")) {
		v = s_scan_points(w, i);
	} else {
		e = s_win_value_end(w, *i);
		v = s_span(w->b, *i, e);
		*i = e;
	}
	if (v)
		json_object_set_new(doc, k, v);
	json_decref(key);
	return v ? 0 : -1;
}

/* The object of the window's file, or NULL when it is not a JSON object (the caller parses it
 * again for jansson's error). */
static json_t *s_scan_summary(struct s_win *w)
{
	json_t *doc = json_object();
	size_t i = s_skip_ws(w, 0);

	if (i >= w->n || w->b[i] != '{')
		goto bad;
	i = s_skip_ws(w, i + 1);
	if (i < w->n && w->b[i] == '}') {
		i++;
	} else {
		for (;;) {
			if (i >= w->n || s_scan_member(doc, w, &i))
				goto bad;
			i = s_skip_ws(w, i);
			if (i < w->n && w->b[i] == ',') {
				i = s_skip_ws(w, i + 1);
				continue;
			}
			if (i < w->n && w->b[i] == '}') {
				i++;
				break;
			}
			goto bad;
		}
	}
	if (s_skip_ws(w, i) == w->n && !w->bad)
		return doc;
bad:
	json_decref(doc);
	return NULL;
}

/*
 * summary.json with its points trimmed (s_trim_point) one at a time as they are parsed, read a
 * window at a time: jansson holds about five times the file as objects, and a day's points are
 * tens of MB of it. Anything the scan does not take is parsed whole again for jansson's error.
 */
static json_t *s_load_summary_doc(const char *path, lst_err *err)
{
	struct s_win w = { .f = fopen(path, "rb") };
	json_t *doc = NULL;

	if (w.f) {
		doc = s_scan_summary(&w);
		fclose(w.f);
		free(w.b);
	}
	return doc ? doc : s_load_json(path, err);
}

static int s_load_summary_json(lst_report *r, lst_err *err)
{
	struct s_priv *priv = r->priv;
	char *path = s_path(r, "summary.json");
	json_t *points, *tests, *o;
	struct stat st;
	size_t i, next = 0;
	int rc = 0;

	if (stat(path, &st) && errno == ENOENT) {
		if (!priv->jpoints) {
			lst_log_warn("%s: missing (the run stopped before its first point "
				     "ended?): no steady-state verdicts",
				     path);
			goto free_path;
		}
		r->summary = json_object();
	} else {
		r->summary = s_load_summary_doc(path, err);
	}
	if (!r->summary) {
		rc = -EINVAL;
		goto free_path;
	}
	/* The journal is ahead of summary.json (see s_load_journal). */
	if ((rc = s_summary_journal(r, err)))
		goto free_path;
	points = json_object_get(r->summary, "points");
	tests = json_object_get(r->summary, "tests");
	if (points && !json_is_array(points)) {
		rc = lst_err_set(err, -EINVAL, "%s: points: expected an array", path);
		goto free_path;
	}
	if (tests && !json_is_null(tests) && !json_is_array(tests)) {
		rc = lst_err_set(err, -EINVAL, "%s: tests: expected an array", path);
		goto free_path;
	}
	/*
	 * Suite points name their test and round: join them to the CSV rows. Both files list the
	 * points in the same order, so the row after the last match is tried first (a search from
	 * the top for each was quadratic: minutes for a fleet's 100,000 rows).
	 */
	json_array_foreach (points, i, o) {
		const char *phase = json_string_value(json_object_get(o, "phase"));
		const char *agent = json_string_value(json_object_get(o, "agent"));
		const char *test = json_string_value(json_object_get(o, "test"));
		const char *scope = json_string_value(json_object_get(o, "scope"));
		long point = s_jlong(o, "point", -1), round = s_jlong(o, "round", 0);

		if (!phase || !agent || (!test && !round) || (scope && s_is_part(scope)))
			continue;
		for (size_t n = 0; n < r->npoints; n++) {
			size_t k = (next + n) % r->npoints;
			struct lst_rpt_point *pt = &r->points[k];

			if (pt->point == point && !strcmp(pt->phase, phase) &&
			    !strcmp(pt->agent, agent)) {
				pt->test = test ? s_intern(r, test) : "";
				pt->round = round;
				pt->repeat = s_jlong(o, "repeat", 0);
				pt->repeats = s_jlong(o, "repeats", 0);
				pt->name = s_point_name(r, pt->label, pt->test, round, pt->repeat);
				next = k + 1;
				break;
			}
		}
	}
	r->tests = lst_calloc(json_array_size(tests) + 1, sizeof(*r->tests));
	r->works = lst_calloc(json_array_size(tests) + 1, sizeof(*r->works));
	json_array_foreach (tests, i, o) {
		/* a test without rounds has no verdict, only what it did */
		bool work = json_is_object(o) && json_object_get(o, "did");

		if ((rc = work ? s_load_work(r, o, i, path, err) : s_load_test(r, o, i, path, err)))
			goto free_path;
	}
free_path:
	free(path);
	return rc;
}

/* A row checked, and its phase added (a copy: the row's text goes with its chunk). */
static int s_ts_check(const lst_csv *t, size_t i, const int *cols, void *arg)
{
	struct s_ts_arg *a = arg;
	struct lst_rpt_ts row;
	int rc = s_read_row(t, i, &lst_timeseries_table, cols, &row, a->err);

	struct s_priv *p = a->r->priv;
	const struct lst_rpt_phase *ph;
	size_t k;

	if (rc)
		return rc;
	if (!(ph = lst_report_phase(a->r, row.phase)))
		ph = s_phase(a->r, s_own(a->r, lst_strdup(row.phase)));
	k = (size_t)(ph - a->r->phases);
	if (k >= p->nts_rows) {
		p->ts_rows = lst_realloc(p->ts_rows, a->r->nphases * sizeof(*p->ts_rows));
		memset(p->ts_rows + p->nts_rows, 0,
		       (a->r->nphases - p->nts_rows) * sizeof(*p->ts_rows));
		p->nts_rows = a->r->nphases;
	}
	p->ts_rows[k][s_is_part(row.scope)]++;
	return 0;
}

/*
 * timeseries.csv is checked and its phases added, but none of its rows is kept: they are most
 * of a long run's folder and only the plots read them, a phase at a time (lst_report_ts_view).
 */
static int s_load_timeseries(lst_report *r, lst_err *err)
{
	struct s_ts_arg a = { .r = r, .err = err };

	return s_csv_each(r, &lst_timeseries_table, false, s_ts_check, &a, err);
}

/* The strings a view's rows point to, each kept once. */
struct s_ts_strs {
	lst_map *map;
	char **str;
	size_t n;
};

static const char *s_ts_intern(struct s_ts_strs *st, const char *s)
{
	size_t k;

	if (lst_map_find_str(st->map, s, &k))
		return st->str[k];
	st->str = lst_realloc(st->str, (st->n + 1) * sizeof(*st->str));
	st->str[st->n] = lst_strdup(s);
	lst_map_add_str(st->map, s, st->n, NULL);
	return st->str[st->n++];
}

/* Append row to *rows (*n of them, room for *cap). */
static void s_ts_push(struct lst_rpt_ts **rows, size_t *n, size_t *cap,
		      const struct lst_rpt_ts *row)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*rows = lst_realloc(*rows, *cap * sizeof(**rows));
	}
	(*rows)[(*n)++] = *row;
}

/* A row of the view's phase into the view (all and agent rows, or parts), its strings interned. */
static int s_ts_take(const lst_csv *t, size_t i, const int *cols, void *arg)
{
	struct s_ts_arg *a = arg;
	struct s_ts_strs *st = a->view->ts_strs;
	struct lst_rpt_ts row;
	int rc;

	if (a->phase && strcmp(lst_csv_field(t, i, cols[a->phase_col]), a->phase))
		return 0;
	if ((rc = s_read_row(t, i, &lst_timeseries_table, cols, &row, a->err)))
		return rc;
	row.phase = s_ts_intern(st, row.phase);
	row.agent = s_ts_intern(st, row.agent);
	row.scope = s_ts_intern(st, row.scope);
	row.target = s_ts_intern(st, row.target);
	row.path = s_ts_intern(st, row.path);
	if (s_is_part(row.scope)) /* kept apart: the plots draw all and the agents */
		s_ts_push(&a->view->ts_parts, &a->view->nts_parts, &a->nparts_cap, &row);
	else
		s_ts_push(&a->view->ts, &a->view->nts, &a->nts_cap, &row);
	/* a phase's view is whole at its last row, as the check counted them: no need to read the
	 * other phases' after it */
	return a->phase && a->view->nts + a->view->nts_parts == a->left ? 1 : 0;
}

/* What lst_report_ts_rows passes on. */
struct s_ts_rows {
	const char *phase;
	size_t phase_col;
	size_t left; /* the phase's rows not passed on yet, as the check counted them */
	int (*fn)(const struct lst_rpt_ts *row, bool part, void *arg);
	void *arg;
	lst_err *err;
};

static int s_ts_row(const lst_csv *t, size_t i, const int *cols, void *arg)
{
	struct s_ts_rows *a = arg;
	struct lst_rpt_ts row;
	int rc;

	if (strcmp(lst_csv_field(t, i, cols[a->phase_col]), a->phase))
		return 0;
	if ((rc = s_read_row(t, i, &lst_timeseries_table, cols, &row, a->err)) ||
	    (rc = a->fn(&row, s_is_part(row.scope), a->arg)))
		return rc;
	/* the phase's last row: the file's rest is other phases' (a run writes a phase's rows
	 * before the next phase's), not read */
	return --a->left ? 0 : 1;
}

/* The phase column's index in lst_timeseries_table. */
static size_t s_ts_phase_col(void)
{
	for (size_t k = 0; k < lst_timeseries_table.ncols; k++)
		if (!strcmp(lst_timeseries_table.cols[k].name, "phase"))
			return k;
	LST_ASSERT(!"timeseries.csv has a phase column");
	return 0;
}

int lst_report_ts_rows(const lst_report *r, const char *phase,
		       int (*fn)(const struct lst_rpt_ts *row, bool part, void *arg), void *arg,
		       lst_err *err)
{
	const struct s_priv *p = r->priv;
	const struct lst_rpt_phase *ph = lst_report_phase(r, phase);
	size_t k = ph ? (size_t)(ph - r->phases) : p->nts_rows;
	struct s_ts_rows a = { phase, s_ts_phase_col(), 0, fn, arg, err };

	if (k >= p->nts_rows || !(a.left = p->ts_rows[k][0] + p->ts_rows[k][1]))
		return 0; /* the check found no row of it */
	return s_csv_each(r, &lst_timeseries_table, true, s_ts_row, &a, err);
}

int lst_report_ts_view(const lst_report *r, const char *phase, lst_report *view, lst_err *err)
{
	const struct s_priv *p = r->priv;
	struct s_ts_strs *st = lst_calloc(1, sizeof(*st));
	struct s_ts_arg a = { .r = (lst_report *)r, .view = view, .phase = phase, .err = err };
	int rc;

	*view = *r;
	view->ts = view->ts_parts = NULL;
	view->nts = view->nts_parts = 0;
	st->map = lst_map_new();
	view->ts_strs = st;
	a.phase_col = s_ts_phase_col();
	/* Room for the rows the check counted, allocated once (doubling held up to twice them). */
	for (size_t k = 0; k < p->nts_rows; k++) {
		if (phase && strcmp(r->phases[k].name, phase))
			continue;
		a.nts_cap += p->ts_rows[k][0];
		a.nparts_cap += p->ts_rows[k][1];
	}
	view->ts = lst_calloc(a.nts_cap + 1, sizeof(*view->ts));
	view->ts_parts = lst_calloc(a.nparts_cap + 1, sizeof(*view->ts_parts));
	a.left = a.nts_cap + a.nparts_cap;
	a.nts_cap++;
	a.nparts_cap++;
	rc = phase && !a.left ? 0 : s_csv_each(r, &lst_timeseries_table, true, s_ts_take, &a, err);
	if (rc)
		lst_report_ts_view_exit(view);
	return rc;
}

void lst_report_ts_view_exit(lst_report *view)
{
	struct s_ts_strs *st = view->ts_strs;

	if (st) {
		for (size_t i = 0; i < st->n; i++)
			free(st->str[i]);
		free(st->str);
		lst_map_destroy(&st->map);
		free(st);
	}
	free(view->ts);
	free(view->ts_parts);
	view->ts = view->ts_parts = NULL;
	view->nts = view->nts_parts = 0;
	view->ts_strs = NULL;
}

static int s_load_rounds(lst_report *r, lst_err *err)
{
	struct s_priv *p = r->priv;
	int rc = s_load_table(r, &lst_rounds_table, true, &p->rounds, (void **)&r->rounds,
			      &r->nrounds, sizeof(*r->rounds), err);

	for (size_t i = 0; !rc && i < r->nrounds; i++)
		s_phase(r, r->rounds[i].phase);
	return rc;
}

static int s_load_curves(lst_report *r, lst_err *err)
{
	struct s_priv *p = r->priv;
	int rc = s_load_table(r, &lst_curves_table, true, &p->curves, (void **)&r->curves,
			      &r->ncurves, sizeof(*r->curves), err);

	size_t n = 0;

	if (!rc)
		r->curve_parts = lst_calloc(r->ncurves + 1, sizeof(*r->curve_parts));
	for (size_t i = 0; !rc && i < r->ncurves; i++) {
		s_phase(r, r->curves[i].phase);
		if (s_is_part(r->curves[i].scope)) /* per target and path: drawn apart */
			r->curve_parts[r->ncurve_parts++] = r->curves[i];
		else
			r->curves[n++] = r->curves[i];
	}
	if (!rc)
		r->ncurves = n;
	return rc;
}

/* The companion columns steady and window of matrix t's first row into m (one verdict per
 * matrix: every row repeats it); absent or unreadable: unknown. */
static void s_matrix_window(lst_csv *t, struct lst_rpt_matrix *m)
{
	m->steady = -1;
	for (size_t c = m->nmix + 1; lst_csv_nrows(t) && c < lst_csv_ncols(t); c++) {
		const char *v = lst_csv_field(t, 0, (int)c);

		if (!strcmp(lst_csv_colname(t, c), "steady") && v)
			m->steady = !strcmp(v, "true") ? 1 : !strcmp(v, "false") ? 0 : -1;
		else if (!strcmp(lst_csv_colname(t, c), "window") && v &&
			 sscanf(v, "%ld-%ld", &m->window_first, &m->window_last) != 2)
			m->window_first = m->window_last = 0;
	}
}

static int s_load_matrix(lst_report *r, const char *file, lst_err *err)
{
	struct s_priv *p = r->priv;
	struct lst_rpt_matrix *m;
	lst_csv *t = NULL;
	size_t nrows;
	int rc;

	if ((rc = s_load_csv(r, file, false, &t, err)))
		return rc;
	p->matrices = lst_realloc(p->matrices, (r->nmatrices + 1) * sizeof(*p->matrices));
	p->matrices[r->nmatrices] = t;
	r->matrices = lst_realloc(r->matrices, (r->nmatrices + 1) * sizeof(*r->matrices));
	m = &r->matrices[r->nmatrices++];
	memset(m, 0, sizeof(*m));
	m->file = lst_strdup(file);
	m->phase = "";
	if (!strncmp(file, "matrix-", 7))
		m->phase = s_own(r, lst_asprintf("%.*s", (int)(strlen(file) - 11), file + 7));
	if (strcmp(lst_csv_colname(t, 0), "bs") || lst_csv_ncols(t) < 2)
		return lst_err_set(err, -EINVAL,
				   "%s:1: the header must be bs followed by one column per mix",
				   lst_csv_path(t));
	nrows = lst_csv_nrows(t);
	/* The mixes ("70/30"), then the verdict's companion columns (steady, window). */
	while (m->nmix + 1 < lst_csv_ncols(t) && strchr(lst_csv_colname(t, m->nmix + 1), '/'))
		m->nmix++;
	if (!m->nmix)
		return lst_err_set(err, -EINVAL, "%s:1: no read/write mix column after bs",
				   lst_csv_path(t));
	m->bs = lst_calloc(nrows + 1, sizeof(*m->bs));
	m->mix = lst_calloc(m->nmix, sizeof(*m->mix));
	m->iops = lst_calloc(nrows * m->nmix + 1, sizeof(*m->iops));
	for (size_t c = 0; c < m->nmix; c++)
		m->mix[c] = lst_csv_colname(t, c + 1);
	for (size_t i = 0; i < nrows; i++) {
		if ((rc = s_nums(t, i, (int[]){ 0 }, 1, &m->bs[i], err)))
			return rc;
		for (size_t c = 0; c < m->nmix; c++)
			if ((rc = s_opt_num(t, i, (int)c + 1, &m->iops[i * m->nmix + c], err)))
				return rc;
		m->nbs++;
	}
	s_matrix_window(t, m);
	return 0;
}

static int s_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* matrix.csv, then every matrix-PHASE.csv (a second snia-iops phase and later). */
static int s_load_matrices(lst_report *r, lst_err *err)
{
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	DIR *d = opendir(r->dir);
	int rc = 0;

	if (!d)
		return lst_err_sys(err, -errno, "%s: cannot list the folder", r->dir);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 10 || strcmp(e->d_name + len - 4, ".csv") ||
		    (strcmp(e->d_name, "matrix.csv") && strncmp(e->d_name, "matrix-", 7)))
			continue;
		names = lst_realloc(names, (n + 1) * sizeof(*names));
		names[n++] = lst_strdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), s_name_cmp);
	for (size_t i = n; i-- > 0 && !rc;)
		if (!strcmp(names[i], "matrix.csv"))
			rc = s_load_matrix(r, names[i], err);
	for (size_t i = 0; i < n && !rc; i++)
		if (strcmp(names[i], "matrix.csv"))
			rc = s_load_matrix(r, names[i], err);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

const struct lst_rpt_test *lst_report_test(const lst_report *r, const char *phase, const char *test)
{
	for (size_t i = 0; i < r->ntests; i++)
		if (!strcmp(r->tests[i].phase, phase) && (!test || !strcmp(r->tests[i].test, test)))
			return &r->tests[i];
	return NULL;
}

bool lst_report_purged(const lst_report *r, const char *phase)
{
	for (size_t i = 0; i < r->nworks; i++)
		if (!strcmp(r->works[i].phase, phase) && !strcmp(r->works[i].did, "discard"))
			return true;
	return false;
}

const struct lst_rpt_matrix *lst_report_matrix(const lst_report *r, const char *phase)
{
	for (size_t i = 0; i < r->nmatrices; i++)
		if (!strcmp(r->matrices[i].phase, phase))
			return &r->matrices[i];
	return NULL;
}

size_t lst_report_shown(const lst_report *r, const char *phase, size_t *idx, size_t *rows_all)
{
	size_t n = 0;

	*rows_all = 0;
	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *p = &r->points[i];
		bool seen = false;

		if (strcmp(p->phase, phase) || strcmp(p->agent, "all"))
			continue;
		(*rows_all)++;
		for (size_t k = 0; k < n && !seen; k++) {
			const struct lst_rpt_point *q = &r->points[idx[k]];

			if (!strcmp(q->name, p->name) && !strcmp(q->test, p->test)) {
				idx[k] = i;
				seen = true;
			}
		}
		if (!seen)
			idx[n++] = i;
	}
	return n;
}

/* The phases of plan.yaml, through the caller's reader (none without one, or when it fails). */
static void s_read_plan(lst_report *r, lst_report_plan_fn plan)
{
	struct s_priv *p = r->priv;
	char *path = s_path(r, "plan.yaml"), *text;
	size_t len;

	if (plan && !lst_read_file(path, 16 << 20, &text, &len)) {
		if (plan(text, len, path, &p->plan, &p->nplan)) {
			free(p->plan);
			p->plan = NULL;
			p->nplan = 0;
		}
		for (size_t i = 0; i < p->nplan; i++)
			s_own(r, p->plan[i].name);
		free(text);
	}
	free(path);
}

/* Suites: from the verdicts, else from plan.yaml (a run stopped before a phase's verdict). */
static void s_suites(lst_report *r, lst_report_plan_fn plan)
{
	struct s_priv *p = r->priv;

	for (size_t i = 0; i < r->ntests; i++) {
		struct lst_rpt_phase *ph = s_phase(r, r->tests[i].phase);

		if (!strcmp(r->tests[i].suite, "none"))
			r->tests[i].suite = ""; /* a plain phase with steady: */
		if (*r->tests[i].suite && !*ph->suite)
			ph->suite = r->tests[i].suite;
	}
	s_read_plan(r, plan);
	for (size_t i = 0; i < p->nplan; i++) {
		const struct lst_report_plan_phase *pp = &p->plan[i];

		for (size_t k = 0; k < r->nphases; k++) {
			struct lst_rpt_phase *ph = &r->phases[k];

			if (strcmp(ph->name, pp->name))
				continue;
			if (!*ph->suite && pp->suite)
				ph->suite = pp->suite;
			if (pp->sequential)
				ph->sequential = true;
		}
	}
	/* Limits the verdicts used, when summary.json does not say. */
	for (size_t i = 0; i < r->ntests; i++) {
		struct lst_rpt_test *t = &r->tests[i];
		double data = LST_STEADY_DATA_PCT, slope = LST_STEADY_SLOPE_PCT;

		for (size_t k = 0; k < p->nplan; k++)
			if (!strcmp(p->plan[k].name, t->phase) && p->plan[k].steady) {
				data = p->plan[k].data_pct;
				slope = p->plan[k].slope_pct;
			}
		if (isnan(t->data_limit))
			t->data_limit = data;
		if (isnan(t->slope_limit))
			t->slope_limit = slope;
	}
	/* matrix.csv is the first snia-iops phase's that has no matrix-PHASE.csv. */
	for (size_t m = 0; m < r->nmatrices; m++) {
		if (strcmp(r->matrices[m].file, "matrix.csv"))
			continue;
		for (size_t i = 0; i < r->nphases && !*r->matrices[m].phase; i++)
			if (!strcmp(r->phases[i].suite, "snia-iops") &&
			    !lst_report_matrix(r, r->phases[i].name))
				r->matrices[m].phase = r->phases[i].name;
	}
}

lst_report *lst_report_load(const char *dir, lst_report_plan_fn plan, lst_err *err)
{
	lst_report *r;
	struct stat st;
	char *path;
	int rc;

	if (stat(dir, &st))
		return lst_err_sys(err, -errno, "%s: cannot open the results folder", dir), NULL;
	if (!S_ISDIR(st.st_mode))
		return lst_err_set(err, -ENOTDIR, "%s: not a folder", dir), NULL;
	r = lst_calloc(1, sizeof(*r));
	r->priv = lst_calloc(1, sizeof(struct s_priv));
	r->dir = lst_strdup(dir);
	path = s_path(r, "run.json");
	if (stat(path, &st)) {
		rc = lst_err_set(err, -EINVAL, "%s: not a results folder (no run.json)", dir);
		goto free_path;
	}
	if ((rc = s_load_run(r, path, err)) || (rc = s_load_summary(r, err)) ||
	    (rc = s_load_summary_json(r, err)) || (rc = s_load_timeseries(r, err)) ||
	    (rc = s_load_rounds(r, err)) || (rc = s_load_curves(r, err)) ||
	    (rc = s_load_matrices(r, err)))
		goto free_path;
	for (size_t i = 0; i < r->ntests; i++)
		s_phase(r, r->tests[i].phase);
	s_suites(r, plan);
	s_load_files(r);
	/* Suite points say their block size: a large one makes MB/s worth plotting. */
	if (r->summary) {
		json_t *o;
		size_t i;

		json_array_foreach (json_object_get(r->summary, "points"), i, o) {
			const char *phase = json_string_value(json_object_get(o, "phase"));
			json_t *bs = json_object_get(json_object_get(o, "workload"), "bs");

			if (phase && json_is_number(bs) && json_number_value(bs) >= S_SEQ_BS)
				s_phase(r, phase)->sequential = true;
		}
		s_prune_points(r->summary);
	}
	free(path);
	return r;

free_path:
	free(path);
	lst_report_destroy(&r);
	return NULL;
}

void lst_report_destroy(lst_report **pp)
{
	lst_report *r = *pp;
	struct s_priv *p;

	if (!r)
		return;
	p = r->priv;
	lst_csv_destroy(&p->rounds);
	lst_csv_destroy(&p->curves);
	for (size_t i = 0; i < r->nmatrices; i++)
		lst_csv_destroy(&p->matrices[i]);
	free(p->matrices);
	for (size_t i = 0; i < LST_ARRAY_SIZE(s_files); i++) {
		lst_csv_destroy(&p->files[i].csv);
		free(p->files[i].col);
	}
	free(p->plan);
	for (size_t i = 0; i < p->nstrs; i++)
		free(p->strs[i]);
	free(p->strs);
	lst_map_destroy(&p->interned);
	free(p->ts_rows);
	free(p);
	for (size_t i = 0; i < r->ntests; i++) {
		free(r->tests[i].values);
		free(r->tests[i].win);
	}
	free(r->works);
	for (size_t i = 0; i < r->nmatrices; i++) {
		free(r->matrices[i].file);
		free(r->matrices[i].bs);
		free(r->matrices[i].mix);
		free(r->matrices[i].iops);
	}
	free(r->matrices);
	free(r->tests);
	free(r->agents);
	free(r->parts);
	free(r->phases);
	free(r->points);
	free(r->rounds);
	free(r->curves);
	free(r->curve_parts);
	free(r->title);
	json_decref(r->run);
	json_decref(r->summary);
	free(r->dir);
	free(r);
	*pp = NULL;
}
