/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run catalog of lst_catalog.h: its schema and migrations, recording a folder, and reading
 * runs and figures back. Folders are read through the report model (lst_report_load), the one
 * reader of the results format, so the catalog records what `lockstep report` shows: each
 * point's shown row (its last round), the steady-state verdicts and the suites' matrices.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lst_catalog.h"
#include "lst_catdb.h"
#include "lst_catwhere.h"
#include "lst_report.h"
#include "lst_util.h"

struct lst_catalog {
	lst_catdb *db;
	char *url;
};

/*
 * The schema, one migration per version: migration i takes a catalog from version i to i + 1,
 * and is never changed once released (docs/catalog.md, "Migrations"). Each is run in the
 * transaction that also records its version.
 */
static const char *const s_v1[] = {
	"CREATE TABLE runs (run_id TEXT PRIMARY KEY, path TEXT NOT NULL, plan_name TEXT, "
	"plan_sha1 TEXT, started TEXT, finished TEXT, status TEXT, partial INTEGER NOT NULL, "
	"version TEXT, kernel TEXT, added TEXT NOT NULL)",
	"CREATE INDEX runs_started ON runs (started)",
	"CREATE TABLE devices (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, "
	"seq INTEGER NOT NULL, target TEXT, path TEXT, model TEXT, vendor TEXT, serial TEXT, "
	"firmware TEXT, wwn TEXT, PRIMARY KEY (run_id, seq))",
	"CREATE TABLE agents (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, "
	"seq INTEGER NOT NULL, name TEXT, host TEXT, kernel TEXT, version TEXT, "
	"PRIMARY KEY (run_id, seq))",
	"CREATE TABLE points (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, "
	"seq INTEGER NOT NULL, phase TEXT NOT NULL, test TEXT, name TEXT, point INTEGER, "
	"round INTEGER, partial INTEGER, iops DOUBLE PRECISION, read_iops DOUBLE PRECISION, "
	"write_iops DOUBLE PRECISION, mbps DOUBLE PRECISION, read_mbps DOUBLE PRECISION, "
	"write_mbps DOUBLE PRECISION, lat_mean DOUBLE PRECISION, lat_p50 DOUBLE PRECISION, "
	"lat_p99 DOUBLE PRECISION, lat_p99_9 DOUBLE PRECISION, lat_p99_99 DOUBLE PRECISION, "
	"read_p99 DOUBLE PRECISION, write_p99 DOUBLE PRECISION, PRIMARY KEY (run_id, seq))",
	"CREATE TABLE steady (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, "
	"seq INTEGER NOT NULL, phase TEXT, test TEXT, tracked TEXT, steady INTEGER, "
	"rounds INTEGER, average DOUBLE PRECISION, PRIMARY KEY (run_id, seq))",
	"CREATE TABLE matrix (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE, "
	"seq INTEGER NOT NULL, phase TEXT, bs DOUBLE PRECISION, mix TEXT, iops DOUBLE PRECISION, "
	"PRIMARY KEY (run_id, seq))",
	NULL,
};

/* A point's and a verdict's suite ("" for a plain phase), so that a lab can trend one suite's
 * figures across plans whose phases are named differently; and the schema each run was
 * recorded by, so that adding a run recorded before (its suites NULL) records it again. */
static const char *const s_v2[] = {
	"ALTER TABLE points ADD COLUMN suite TEXT",
	"ALTER TABLE steady ADD COLUMN suite TEXT",
	"ALTER TABLE runs ADD COLUMN schema INTEGER",
	NULL,
};

static const char *const *const s_migrations[LST_CATALOG_SCHEMA] = { s_v1, s_v2 };

/* The child tables of a run, deleted before it is recorded again. */
static const char *const s_children[] = { "devices", "agents", "points", "steady", "matrix" };

const char *const lst_cat_metrics[] = {
	"iops",	   "read_iops", "write_iops", "mbps",	    "read_mbps", "write_mbps", "lat_mean",
	"lat_p50", "lat_p99",	"lat_p99_9",  "lat_p99_99", "read_p99",	 "write_p99",  NULL,
};

static const char *const s_point_cols[] = {
	"phase",   "test",	"name",	      "suite",	    "point",	 "round",      "partial",
	"iops",	   "read_iops", "write_iops", "mbps",	    "read_mbps", "write_mbps", "lat_mean",
	"lat_p50", "lat_p99",	"lat_p99_9",  "lat_p99_99", "read_p99",	 "write_p99",  NULL,
};
static const char *const s_steady_cols[] = { "phase",  "test",	 "tracked", "suite",
					     "steady", "rounds", "average", NULL };
static const char *const s_matrix_cols[] = { "phase", "mix", "bs", "iops", NULL };

const struct lst_cat_table lst_cat_points = { "points", s_point_cols, 4 };
const struct lst_cat_table lst_cat_steady = { "steady", s_steady_cols, 4 };
const struct lst_cat_table lst_cat_matrix = { "matrix", s_matrix_cols, 2 };

static bool s_is_column(const char *name)
{
	for (size_t i = 0; lst_cat_metrics[i]; i++)
		if (!strcmp(name, lst_cat_metrics[i]))
			return true;
	return false;
}

/* Latencies are better lower; counts and rates higher. */
static bool s_higher_is_better(const char *figure)
{
	return !strstr(figure, "lat_") && !strstr(figure, "_p99");
}

/* A figure's name as a verdict's tracked column gives it: lower-case letters, digits, '_'. */
static bool s_is_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* "4k:70/30", "4096:70" into m's bs (bytes) and mix ("70/30", as matrix.csv names it). */
static int s_parse_cell(const char *text, struct lst_cat_metric *m, lst_err *err)
{
	const char *colon = strchr(text, ':'), *slash;
	char bs[24];
	uint64_t bytes;
	int64_t rd, wr = -1;

	if (!colon || (size_t)(colon - text) >= sizeof(bs))
		return lst_err_set(err, -EINVAL, "a cell is cell:BS:MIX ('cell:4k:70/30')");
	snprintf(bs, sizeof(bs), "%.*s", (int)(colon - text), text);
	if (lst_parse_size(bs, &bytes, err) || !bytes)
		return lst_err_set(err, -EINVAL, "a cell's block size '%s' is not a size ('4k')",
				   bs);
	snprintf(m->bs, sizeof(m->bs), "%llu", (unsigned long long)bytes);
	colon++;
	slash = strchr(colon, '/');
	snprintf(m->mix, sizeof(m->mix), "%.*s", slash ? (int)(slash - colon) : 15, colon);
	if (lst_parse_int(m->mix, 0, 100, &rd, NULL) ||
	    (slash && (lst_parse_int(slash + 1, 0, 100, &wr, NULL) || rd + wr != 100)))
		return lst_err_set(err, -EINVAL,
				   "a cell's mix '%s' is not READ/WRITE percents ('70/30', or 70)",
				   colon);
	snprintf(m->mix, sizeof(m->mix), "%d/%d", (int)rd, (int)(100 - rd));
	return 0;
}

int lst_cat_metric_parse(const char *text, struct lst_cat_metric *m, lst_err *err)
{
	int rc = 0;

	*m = (struct lst_cat_metric){ .kind = LST_CAT_POINT, .higher_is_better = true };
	if (!strncmp(text, "cell:", 5)) {
		m->kind = LST_CAT_CELL;
		snprintf(m->figure, sizeof(m->figure), "iops");
		rc = s_parse_cell(text + 5, m, err);
	} else if (!strncmp(text, "steady.", 7)) {
		m->kind = LST_CAT_STEADY;
		if (!s_is_word(text + 7) || strlen(text + 7) >= sizeof(m->figure))
			rc = lst_err_set(err, -EINVAL,
					 "steady.FIGURE names the figure a verdict tracks "
					 "('steady.iops', 'steady.write_iops')");
		else
			snprintf(m->figure, sizeof(m->figure), "%s", text + 7);
	} else if (s_is_column(text)) {
		snprintf(m->figure, sizeof(m->figure), "%s", text);
	} else {
		rc = lst_err_set(err, -EINVAL,
				 "no such figure: a point's (iops, write_iops, lat_p99, ...), "
				 "steady.FIGURE or cell:BS:MIX");
	}
	if (rc)
		lst_err_prefix(err, "%s: ", text);
	m->higher_is_better = s_higher_is_better(m->figure);
	return rc;
}

char *lst_catalog_default_url(void)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		return lst_asprintf("sqlite:%s/lockstep/runs.db", xdg);
	return lst_asprintf("sqlite:%s/.local/share/lockstep/runs.db", home ? home : ".");
}

static int s_exec(lst_catalog *cat, const char *sql, lst_err *err)
{
	return lst_catdb_exec(cat->db, sql, 0, NULL, NULL, NULL, err);
}

/* Starts a write transaction: SQLite takes its write lock at once, so a busy file fails here
 * (after the busy timeout) rather than half-way. */
static int s_begin(lst_catalog *cat, lst_err *err)
{
	return s_exec(cat, strcmp(lst_catdb_kind(cat->db), "sqlite") ? "BEGIN" : "BEGIN IMMEDIATE",
		      err);
}

static void s_rollback(lst_catalog *cat)
{
	s_exec(cat, "ROLLBACK", NULL);
}

static int s_int_row(void *arg, int n, const char *const *vals)
{
	if (n > 0 && vals[0])
		*(long *)arg = strtol(vals[0], NULL, 10);
	return 0;
}

/* Bring the schema from version have to LST_CATALOG_SCHEMA, one transaction per step. */
static int s_migrate(lst_catalog *cat, long have, lst_err *err)
{
	char v[24];
	const char *p[] = { v };
	int rc;

	for (long i = have; i < LST_CATALOG_SCHEMA; i++) {
		if ((rc = s_begin(cat, err)))
			return rc;
		for (const char *const *s = s_migrations[i]; *s; s++)
			if ((rc = s_exec(cat, *s, err)))
				goto rollback;
		snprintf(v, sizeof(v), "%ld", i + 1);
		if ((rc = lst_catdb_exec(cat->db,
					 i ? "UPDATE schema_version SET version = $1"
					   : "INSERT INTO schema_version (version) VALUES ($1)",
					 1, p, NULL, NULL, err)))
			goto rollback;
		if ((rc = s_exec(cat, "COMMIT", err)))
			goto rollback;
	}
	return 0;
rollback:
	s_rollback(cat);
	lst_err_prefix(err, "migrating to schema version %ld: ", have + 1);
	return rc;
}

static int s_schema(lst_catalog *cat, lst_err *err)
{
	long have = 0;
	int rc;

	if ((rc = s_exec(cat,
			 "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
			 err)))
		return rc;
	if ((rc = lst_catdb_exec(cat->db, "SELECT MAX(version) FROM schema_version", 0, NULL,
				 s_int_row, &have, err)))
		return rc;
	if (have > LST_CATALOG_SCHEMA)
		return lst_err_set(err, -EPROTO,
				   "schema version %ld is newer than this lockstep's (%d): use a "
				   "newer lockstep, nothing was changed",
				   have, LST_CATALOG_SCHEMA);
	return s_migrate(cat, have, err);
}

lst_catalog *lst_catalog_new(const char *url, lst_err *err)
{
	lst_catalog *cat = lst_calloc(1, sizeof(*cat));

	cat->url = lst_strdup(url);
	if (!(cat->db = lst_catdb_new(url, err)) || s_schema(cat, err)) {
		if (cat->db)
			lst_err_prefix(err, "%s: ", url);
		lst_catalog_destroy(&cat);
		return NULL;
	}
	if (!strcmp(lst_catdb_kind(cat->db), "sqlite") &&
	    s_exec(cat, "PRAGMA foreign_keys = ON", err)) {
		lst_catalog_destroy(&cat);
		return NULL;
	}
	return cat;
}

void lst_catalog_destroy(lst_catalog **p)
{
	if (!p || !*p)
		return;
	lst_catdb_destroy(&(*p)->db);
	free((*p)->url);
	free(*p);
	*p = NULL;
}

/* ---- recording a folder ---- */

/* A number as a parameter: "%.17g", or NULL (SQL NULL) when it is not finite. */
static const char *s_num(char *buf, double v)
{
	if (!isfinite(v))
		return NULL;
	snprintf(buf, 32, "%.17g", v);
	return buf;
}

static const char *s_jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int s_insert_run(lst_catalog *cat, const lst_report *r, const char *path, bool partial,
			lst_err *err)
{
	json_t *vers = json_object_get(r->run, "versions");
	char added[32], schema[16];
	time_t now = time(NULL);
	struct tm tm;

	strftime(added, sizeof(added), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	snprintf(schema, sizeof(schema), "%d", LST_CATALOG_SCHEMA);
	const char *p[] = { r->run_id,
			    path,
			    r->plan_name,
			    s_jstr(r->run, "plan_sha1"),
			    r->started,
			    r->finished,
			    r->status,
			    partial ? "1" : "0",
			    s_jstr(vers, "lockstep"),
			    s_jstr(vers, "kernel"),
			    added,
			    schema };

	return lst_catdb_exec(cat->db,
			      "INSERT INTO runs (run_id, path, plan_name, plan_sha1, started, "
			      "finished, status, partial, version, kernel, added, schema) VALUES "
			      "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
			      12, p, NULL, NULL, err);
}

static int s_insert_devices(lst_catalog *cat, const lst_report *r, lst_err *err)
{
	json_t *targets = json_object_get(r->run, "targets"), *t, *ids, *id;
	size_t i, j;
	int seq = 0, rc;
	char sq[16];

	json_array_foreach (targets, i, t) {
		ids = json_object_get(t, "identities");
		json_array_foreach (ids, j, id) {
			const char *p[] = { r->run_id,
					    sq,
					    s_jstr(id, "target") ? s_jstr(id, "target")
								 : s_jstr(t, "name"),
					    s_jstr(id, "path"),
					    s_jstr(id, "model"),
					    s_jstr(id, "vendor"),
					    s_jstr(id, "serial"),
					    s_jstr(id, "firmware"),
					    s_jstr(id, "wwn") };

			snprintf(sq, sizeof(sq), "%d", seq++);
			if ((rc = lst_catdb_exec(
				     cat->db,
				     "INSERT INTO devices (run_id, seq, target, path, "
				     "model, vendor, serial, firmware, wwn) VALUES ($1, "
				     "$2, $3, $4, $5, $6, $7, $8, $9)",
				     9, p, NULL, NULL, err)))
				return rc;
		}
	}
	return 0;
}

static int s_insert_agents(lst_catalog *cat, const lst_report *r, lst_err *err)
{
	json_t *agents = json_object_get(r->run, "agents"), *a;
	size_t i;
	int rc;
	char sq[16];

	json_array_foreach (agents, i, a) {
		const char *p[] = { r->run_id,		 sq,
				    s_jstr(a, "name"),	 s_jstr(a, "host"),
				    s_jstr(a, "kernel"), s_jstr(a, "version") };

		snprintf(sq, sizeof(sq), "%zu", i);
		if ((rc = lst_catdb_exec(cat->db,
					 "INSERT INTO agents (run_id, seq, name, host, kernel, "
					 "version) VALUES ($1, $2, $3, $4, $5, $6)",
					 6, p, NULL, NULL, err)))
			return rc;
	}
	return 0;
}

static int s_insert_point(lst_catalog *cat, const lst_report *r, int seq,
			  const struct lst_rpt_point *pt, lst_err *err)
{
	char b[16][32];
	const char *p[] = {
		r->run_id,
		s_num(b[0], seq),
		pt->phase,
		pt->test,
		pt->name,
		lst_report_phase(r, pt->phase) ? lst_report_phase(r, pt->phase)->suite : NULL,
		s_num(b[1], (double)pt->point),
		s_num(b[2], (double)pt->round),
		pt->partial ? "1" : "0",
		s_num(b[3], pt->iops[0] + pt->iops[1]),
		s_num(b[4], pt->iops[0]),
		s_num(b[5], pt->iops[1]),
		s_num(b[6], pt->mbps[0] + pt->mbps[1]),
		s_num(b[7], pt->mbps[0]),
		s_num(b[8], pt->mbps[1]),
		s_num(b[9], pt->lat_mean),
		s_num(b[10], pt->lat_p50),
		s_num(b[11], pt->lat_p99),
		s_num(b[12], pt->lat_p99_9),
		s_num(b[13], pt->lat_p99_99),
		s_num(b[14], pt->lat_p99_dir[0]),
		s_num(b[15], pt->lat_p99_dir[1]),
	};

	return lst_catdb_exec(
		cat->db,
		"INSERT INTO points (run_id, seq, phase, test, name, suite, point, round, "
		"partial, iops, read_iops, write_iops, mbps, read_mbps, write_mbps, "
		"lat_mean, lat_p50, lat_p99, lat_p99_9, lat_p99_99, read_p99, "
		"write_p99) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
		"$13, $14, $15, $16, $17, $18, $19, $20, $21, $22)",
		22, p, NULL, NULL, err);
}

/* Each phase's shown points (one per test and name, its last round), as the report shows. */
static int s_insert_points(lst_catalog *cat, const lst_report *r, lst_err *err)
{
	size_t *idx = lst_calloc(r->npoints + 1, sizeof(*idx)), rows;
	int seq = 0, rc = 0;

	for (size_t ph = 0; ph < r->nphases && !rc; ph++) {
		size_t n = lst_report_shown(r, r->phases[ph].name, idx, &rows);

		for (size_t i = 0; i < n && !rc; i++)
			rc = s_insert_point(cat, r, seq++, &r->points[idx[i]], err);
	}
	free(idx);
	return rc;
}

static int s_insert_steady(lst_catalog *cat, const lst_report *r, lst_err *err)
{
	char b[4][32];
	int rc;

	for (size_t i = 0; i < r->ntests; i++) {
		const struct lst_rpt_test *t = &r->tests[i];
		const char *p[] = { r->run_id,
				    s_num(b[0], (double)i),
				    t->phase,
				    t->test,
				    t->tracked,
				    t->suite,
				    t->steady ? "1" : "0",
				    s_num(b[1], (double)t->rounds),
				    s_num(b[2], t->average) };

		if ((rc = lst_catdb_exec(
			     cat->db,
			     "INSERT INTO steady (run_id, seq, phase, test, tracked, "
			     "suite, steady, rounds, average) VALUES ($1, $2, $3, $4, $5, "
			     "$6, $7, $8, $9)",
			     9, p, NULL, NULL, err)))
			return rc;
	}
	return 0;
}

static int s_insert_matrix(lst_catalog *cat, const lst_report *r, lst_err *err)
{
	char b[3][32];
	int seq = 0, rc;

	for (size_t m = 0; m < r->nmatrices; m++) {
		const struct lst_rpt_matrix *mx = &r->matrices[m];

		for (size_t i = 0; i < mx->nbs; i++)
			for (size_t j = 0; j < mx->nmix; j++) {
				const char *p[] = {
					r->run_id,  s_num(b[0], seq++),
					mx->phase,  s_num(b[1], mx->bs[i]),
					mx->mix[j], s_num(b[2], mx->iops[i * mx->nmix + j])
				};

				if ((rc = lst_catdb_exec(cat->db,
							 "INSERT INTO matrix (run_id, seq, phase, "
							 "bs, mix, iops) VALUES ($1, $2, $3, $4, "
							 "$5, $6)",
							 6, p, NULL, NULL, err)))
					return rc;
			}
	}
	return 0;
}

static int s_insert(lst_catalog *cat, const lst_report *r, const char *path, bool partial,
		    lst_err *err)
{
	int rc;

	if ((rc = s_insert_run(cat, r, path, partial, err)) ||
	    (rc = s_insert_devices(cat, r, err)) || (rc = s_insert_agents(cat, r, err)) ||
	    (rc = s_insert_points(cat, r, err)) || (rc = s_insert_steady(cat, r, err)))
		return rc;
	return s_insert_matrix(cat, r, err);
}

/* What the catalog holds of a run already. */
struct s_known {
	bool found;
	char path[PATH_MAX];
	char status[32];
	bool partial;
	long schema; /* the schema it was recorded by; 1 before runs had the column */
};

static int s_known_row(void *arg, int n, const char *const *vals)
{
	struct s_known *k = arg;

	k->found = true;
	snprintf(k->path, sizeof(k->path), "%s", n > 0 && vals[0] ? vals[0] : "");
	snprintf(k->status, sizeof(k->status), "%s", n > 1 && vals[1] ? vals[1] : "");
	k->partial = n > 2 && vals[2] && strcmp(vals[2], "0");
	k->schema = n > 3 && vals[3] ? strtol(vals[3], NULL, 10) : 1;
	return 0;
}

static int s_delete(lst_catalog *cat, const char *run_id, lst_err *err)
{
	const char *p[] = { run_id };
	char sql[64];
	int rc;

	for (size_t i = 0; i < sizeof(s_children) / sizeof(s_children[0]); i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE run_id = $1", s_children[i]);
		if ((rc = lst_catdb_exec(cat->db, sql, 1, p, NULL, NULL, err)))
			return rc;
	}
	return lst_catdb_exec(cat->db, "DELETE FROM runs WHERE run_id = $1", 1, p, NULL, NULL, err);
}

/* Record r (at path) in the open transaction. */
static int s_record(lst_catalog *cat, const lst_report *r, const char *path, bool partial,
		    enum lst_cat_added *what, lst_err *err)
{
	const char *p[] = { r->run_id, path };
	struct s_known k = { 0 };
	int rc;

	if ((rc = lst_catdb_exec(cat->db,
				 "SELECT path, status, partial, schema FROM runs WHERE run_id = $1",
				 1, p, s_known_row, &k, err)))
		return rc;
	/* a run recorded by an older schema lacks what this one records: record it again */
	if (k.found && k.partial == partial && !strcmp(k.status, r->status ? r->status : "") &&
	    k.schema == LST_CATALOG_SCHEMA) {
		if (!strcmp(k.path, path)) {
			*what = LST_CAT_UNCHANGED;
			return 0;
		}
		*what = LST_CAT_MOVED;
		return lst_catdb_exec(cat->db, "UPDATE runs SET path = $2 WHERE run_id = $1", 2, p,
				      NULL, NULL, err);
	}
	*what = k.found ? LST_CAT_REPLACED : LST_CAT_ADDED;
	if (k.found && (rc = s_delete(cat, r->run_id, err)))
		return rc;
	return s_insert(cat, r, path, partial, err);
}

/* Has the run ended? A run whose coordinator died has no status; Ctrl-C leaves interrupted. */
static bool s_finished(const lst_report *r)
{
	return r->status && *r->status && strcmp(r->status, "interrupted");
}

int lst_catalog_add(lst_catalog *cat, const char *dir, bool partial, enum lst_cat_added *what,
		    lst_err *err)
{
	char path[PATH_MAX];
	lst_report *r;
	int rc;

	if (!realpath(dir, path))
		return lst_err_sys(err, -errno, "%s", dir);
	if (!(r = lst_report_load(path, NULL, err)))
		return err && err->code ? err->code : -EINVAL;
	if (!r->run_id || !*r->run_id) {
		rc = lst_err_set(err, -EINVAL, "%s: run.json has no run_id", dir);
		goto destroy;
	}
	if (!s_finished(r) && !partial) {
		rc = lst_err_set(err, -EINVAL,
				 "%s: the run has not finished (status %s): finish it with "
				 "'lockstep resume', or add it with --partial",
				 dir, r->status && *r->status ? r->status : "none");
		goto destroy;
	}
	partial = partial && !s_finished(r);
	if ((rc = s_begin(cat, err)))
		goto destroy;
	if ((rc = s_record(cat, r, path, partial, what, err)) ||
	    (rc = s_exec(cat, "COMMIT", err))) {
		s_rollback(cat);
		lst_err_prefix(err, "%s: ", dir);
	}
destroy:
	lst_report_destroy(&r);
	return rc;
}

/* ---- reading runs back ---- */

static char *s_dup(const char *s)
{
	return s ? lst_strdup(s) : NULL;
}

/* The runs being read, and an index of them by run id for their devices and agents. */
struct s_list {
	struct lst_cat_run *runs;
	size_t n, room;
	struct lst_cat_run **by_id;
};

static int s_run_row(void *arg, int n, const char *const *v)
{
	struct s_list *l = arg;
	struct lst_cat_run *r;

	if (n < 10)
		return 0;
	if (l->n == l->room) {
		l->room = l->room ? 2 * l->room : 64;
		l->runs = lst_realloc(l->runs, l->room * sizeof(*l->runs));
	}
	r = &l->runs[l->n++];
	*r = (struct lst_cat_run){ .run_id = s_dup(v[0]),
				   .path = s_dup(v[1]),
				   .plan_name = s_dup(v[2]),
				   .plan_sha1 = s_dup(v[3]),
				   .started = s_dup(v[4]),
				   .finished = s_dup(v[5]),
				   .status = s_dup(v[6]),
				   .partial = v[7] && strcmp(v[7], "0"),
				   .version = s_dup(v[8]),
				   .kernel = s_dup(v[9]) };
	return 0;
}

static int s_by_id_cmp(const void *a, const void *b)
{
	return strcmp((*(struct lst_cat_run *const *)a)->run_id,
		      (*(struct lst_cat_run *const *)b)->run_id);
}

static struct lst_cat_run *s_find(const struct s_list *l, const char *run_id)
{
	struct lst_cat_run key = { .run_id = (char *)run_id }, *kp = &key, **hit;

	if (!run_id || !l->n)
		return NULL;
	hit = bsearch(&kp, l->by_id, l->n, sizeof(*l->by_id), s_by_id_cmp);
	return hit ? *hit : NULL;
}

static int s_device_row(void *arg, int n, const char *const *v)
{
	struct lst_cat_run *r = s_find(arg, n ? v[0] : NULL);
	struct lst_cat_device *d;

	if (!r || n < 8)
		return 0;
	r->devices = lst_realloc(r->devices, (r->ndevices + 1) * sizeof(*r->devices));
	d = &r->devices[r->ndevices++];
	*d = (struct lst_cat_device){ .target = s_dup(v[1]),
				      .path = s_dup(v[2]),
				      .model = s_dup(v[3]),
				      .vendor = s_dup(v[4]),
				      .serial = s_dup(v[5]),
				      .firmware = s_dup(v[6]),
				      .wwn = s_dup(v[7]) };
	return 0;
}

static int s_agent_row(void *arg, int n, const char *const *v)
{
	struct lst_cat_run *r = s_find(arg, n ? v[0] : NULL);
	struct lst_cat_agent *a;

	if (!r || n < 5)
		return 0;
	r->agents = lst_realloc(r->agents, (r->nagents + 1) * sizeof(*r->agents));
	a = &r->agents[r->nagents++];
	*a = (struct lst_cat_agent){ .name = s_dup(v[1]),
				     .host = s_dup(v[2]),
				     .kernel = s_dup(v[3]),
				     .version = s_dup(v[4]) };
	return 0;
}

/* The runs of f's since, plan and run (in SQL: the columns are plain text). */
static int s_select_runs(lst_catalog *cat, const struct lst_cat_filter *f, struct s_list *l,
			 lst_err *err)
{
	char sql[512], *run_like = NULL;
	const char *p[3];
	int n = 0, rc;

	snprintf(sql, sizeof(sql),
		 "SELECT run_id, path, plan_name, plan_sha1, started, finished, status, partial, "
		 "version, kernel FROM runs WHERE 1 = 1");
	if (f && f->since) {
		p[n++] = f->since;
		snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), " AND started >= $%d", n);
	}
	if (f && f->plan) {
		p[n++] = f->plan;
		snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), " AND plan_name = $%d", n);
	}
	if (f && f->run) {
		run_like = lst_asprintf("%s%%", f->run);
		p[n++] = run_like;
		snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), " AND run_id LIKE $%d", n);
	}
	snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), " ORDER BY started, run_id");
	rc = lst_catdb_exec(cat->db, sql, n, p, s_run_row, l, err);
	free(run_like);
	return rc;
}

int lst_catalog_runs(lst_catalog *cat, const struct lst_cat_filter *f, struct lst_cat_run **runs,
		     size_t *n, lst_err *err)
{
	struct s_list l = { 0 };
	struct stat st;
	size_t kept = 0;
	int rc;

	*runs = NULL;
	*n = 0;
	if ((rc = s_select_runs(cat, f, &l, err)))
		goto fail;
	l.by_id = lst_calloc(l.n + 1, sizeof(*l.by_id));
	for (size_t i = 0; i < l.n; i++)
		l.by_id[i] = &l.runs[i];
	qsort(l.by_id, l.n, sizeof(*l.by_id), s_by_id_cmp);
	if ((rc = lst_catdb_exec(
		     cat->db,
		     "SELECT run_id, target, path, model, vendor, serial, firmware, wwn "
		     "FROM devices ORDER BY run_id, seq",
		     0, NULL, s_device_row, &l, err)) ||
	    (rc = lst_catdb_exec(cat->db,
				 "SELECT run_id, name, host, kernel, version FROM agents ORDER BY "
				 "run_id, seq",
				 0, NULL, s_agent_row, &l, err)))
		goto fail;
	free(l.by_id);
	for (size_t i = 0; i < l.n; i++) {
		if (f && f->where && !lst_catwhere_match(f->where, &l.runs[i])) {
			lst_cat_runs_free(&l.runs[i], 1);
			continue;
		}
		l.runs[kept] = l.runs[i];
		l.runs[kept].missing = stat(l.runs[kept].path, &st) || !S_ISDIR(st.st_mode);
		kept++;
	}
	*runs = l.runs;
	*n = kept;
	return 0;
fail:
	free(l.by_id);
	lst_cat_runs_free(l.runs, l.n);
	free(l.runs);
	lst_err_prefix(err, "%s: ", cat->url);
	return rc;
}

void lst_cat_runs_free(struct lst_cat_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct lst_cat_run *r = &runs[i];

		for (size_t j = 0; j < r->ndevices; j++) {
			struct lst_cat_device *d = &r->devices[j];

			free(d->target), free(d->path), free(d->model), free(d->vendor);
			free(d->serial), free(d->firmware), free(d->wwn);
		}
		for (size_t j = 0; j < r->nagents; j++) {
			free(r->agents[j].name), free(r->agents[j].host);
			free(r->agents[j].kernel), free(r->agents[j].version);
		}
		free(r->devices), free(r->agents);
		free(r->run_id), free(r->path), free(r->plan_name), free(r->plan_sha1);
		free(r->started), free(r->finished), free(r->status), free(r->version);
		free(r->kernel);
	}
}

/* The figures read for a trend, put in place by run id. */
struct s_values {
	struct s_list l;
	const struct lst_cat_run *base;
	double *vals;
};

static int s_value_row(void *arg, int n, const char *const *v)
{
	struct s_values *sv = arg;
	struct lst_cat_run *r = s_find(&sv->l, n ? v[0] : NULL);

	if (r && n > 1 && v[1])
		sv->vals[r - sv->base] = strtod(v[1], NULL);
	return 0;
}

/* An " AND col = $N" of sql for each of the n pairs whose value is given, into p. */
static int s_and(char *sql, size_t size, const char *const (*eq)[2], size_t n, const char **p,
		 int np)
{
	for (size_t i = 0; i < n; i++) {
		if (!eq[i][1])
			continue;
		p[np++] = eq[i][1];
		snprintf(sql + strlen(sql), size - strlen(sql), " AND %s = $%d", eq[i][0], np);
	}
	return np;
}

/* The statement giving each run's figure m over the rows pick chooses, and its parameters. */
static int s_values_sql(const struct lst_cat_metric *m, const struct lst_cat_pick *pick, char *sql,
			size_t size, const char **p, lst_err *err)
{
	const char *const point[][2] = { { "phase", pick->phase },
					 { "test", pick->test },
					 { "name", pick->point },
					 { "suite", pick->suite } };
	const char *const steady[][2] = { { "tracked", m->figure },
					  { "phase", pick->phase },
					  { "test", pick->test },
					  { "suite", pick->suite } };
	const char *const cell[][2] = { { "bs", m->bs },
					{ "mix", m->mix },
					{ "phase", pick->phase } };
	int np;

	if (m->kind != LST_CAT_POINT && pick->point)
		return lst_err_set(err, -EINVAL, "a point's name chooses a point's figures only");
	if (m->kind == LST_CAT_CELL && (pick->test || pick->suite))
		return lst_err_set(err, -EINVAL,
				   "a matrix cell is chosen by its phase only (no test or suite)");
	if (m->kind == LST_CAT_POINT) {
		snprintf(sql, size, "SELECT run_id, AVG(%s) FROM points WHERE 1 = 1", m->figure);
		np = s_and(sql, size, point, 4, p, 0);
	} else if (m->kind == LST_CAT_STEADY) {
		snprintf(sql, size, "SELECT run_id, AVG(average) FROM steady WHERE 1 = 1");
		np = s_and(sql, size, steady, 4, p, 0);
	} else {
		snprintf(sql, size, "SELECT run_id, AVG(iops) FROM matrix WHERE 1 = 1");
		np = s_and(sql, size, cell, 3, p, 0);
	}
	snprintf(sql + strlen(sql), size - strlen(sql), " GROUP BY run_id");
	return np;
}

int lst_catalog_values(lst_catalog *cat, const struct lst_cat_run *runs, size_t n,
		       const struct lst_cat_metric *m, const struct lst_cat_pick *pick,
		       double *vals, lst_err *err)
{
	struct s_values sv = { .base = runs, .vals = vals };
	const char *p[4];
	char sql[256];
	int np, rc;

	for (size_t i = 0; i < n; i++)
		vals[i] = NAN;
	if ((np = s_values_sql(m, pick, sql, sizeof(sql), p, err)) < 0)
		return np;
	sv.l.n = n;
	sv.l.by_id = lst_calloc(n + 1, sizeof(*sv.l.by_id));
	for (size_t i = 0; i < n; i++)
		sv.l.by_id[i] = (struct lst_cat_run *)&runs[i];
	qsort(sv.l.by_id, n, sizeof(*sv.l.by_id), s_by_id_cmp);
	rc = lst_catdb_exec(cat->db, sql, np, p, s_value_row, &sv, err);
	free(sv.l.by_id);
	if (rc)
		lst_err_prefix(err, "%s: ", cat->url);
	return rc;
}

int lst_catalog_rows(lst_catalog *cat, const struct lst_cat_table *t, const char *run_id,
		     lst_cat_row_fn fn, void *arg, lst_err *err)
{
	const char *p[] = { run_id };
	char sql[512] = "SELECT ";

	for (size_t i = 0; t->cols[i]; i++)
		snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), "%s%s", i ? ", " : "",
			 t->cols[i]);
	snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql),
		 " FROM %s WHERE run_id = $1 ORDER BY seq", t->name);
	return lst_catdb_exec(cat->db, sql, 1, p, fn, arg, err);
}
