/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run catalog: a lab's memory of its results folders (docs/catalog.md). A catalog is an
 * SQL database (lst_catdb.h: an SQLite file by default, or a PostgreSQL server) holding, for
 * each run, its metadata (plan, times, status, devices, agents) and each point's headline
 * figures, never the samples: every run points to its folder.
 *
 * lst_catalog_new() connects and brings the schema to this lockstep's version (migrating
 * forward in one transaction; a newer schema is refused). lst_catalog_add() records one folder
 * in one transaction: the same folder twice changes nothing, a moved folder is found by its run
 * id and its path updated, a run recorded by an older schema is recorded again. lst_catalog_runs() lists runs through a filter (lst_catwhere.h), and
 * lst_catalog_values() reads one figure of each for a trend (lst_cattrend.h).
 *
 * A catalog is used by one thread.
 */
#ifndef LST_CATALOG_H
#define LST_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"

/* The schema this lockstep writes and reads (schema_version.version). */
#define LST_CATALOG_SCHEMA 2

typedef struct lst_catalog lst_catalog;
struct lst_catwhere;

struct lst_cat_device {
	char *target, *path, *model, *vendor, *serial, *firmware, *wwn;
};

struct lst_cat_agent {
	char *name, *host, *kernel, *version;
};

/* A run as the catalog holds it; strings are owned by the run (lst_cat_runs_free). */
struct lst_cat_run {
	char *run_id, *path, *plan_name, *plan_sha1, *started, *finished, *status;
	char *version, *kernel; /* lockstep's and the coordinator's kernel */
	bool partial;		/* added with --partial: the run had not finished */
	bool missing;		/* its folder is not where the catalog says (set by the lister) */
	size_t ndevices, nagents;
	struct lst_cat_device *devices;
	struct lst_cat_agent *agents;
};

/* What lst_catalog_add did. */
enum lst_cat_added {
	LST_CAT_ADDED,	   /* a new run */
	LST_CAT_UNCHANGED, /* the same run at the same place: nothing changed */
	LST_CAT_MOVED,	   /* the same run in another folder: its path updated */
	LST_CAT_REPLACED,  /* the run was recorded partial and has finished since (or the reverse),
			   * or recorded by an older schema that lacked some of its figures */
};

/* The default catalog's URL: sqlite:$XDG_DATA_HOME/lockstep/runs.db, else
 * sqlite:$HOME/.local/share/lockstep/runs.db. The caller frees it. */
char *lst_catalog_default_url(void);

/*
 * Connect to url (lst_catdb_new) and bring its schema to LST_CATALOG_SCHEMA. Returns the
 * catalog (the caller's, lst_catalog_destroy) or NULL with err: the connection's error, or
 * "URL: schema version 3 is newer than this lockstep's (1): use a newer lockstep".
 */
lst_catalog *lst_catalog_new(const char *url, lst_err *err);
/* Close the catalog *p and set *p to NULL; safe on NULL and twice. */
void lst_catalog_destroy(lst_catalog **p);

/*
 * Record the results folder dir, in one transaction. A run that has not finished (run.json has
 * no status, or "interrupted") is refused unless partial (it is then marked partial). Returns 0
 * with *what, or -errno with err ("DIR: not a results folder (no run.json)", "DIR: the run has
 * not finished ..."); nothing is changed then.
 */
int lst_catalog_add(lst_catalog *cat, const char *dir, bool partial, enum lst_cat_added *what,
		    lst_err *err);

/* Which runs: every field may be NULL. since compares with the run's start (ISO 8601 text). */
struct lst_cat_filter {
	const char *since, *plan;
	const struct lst_catwhere *where;
	const char *run; /* a run id, or its first characters */
};

/*
 * The runs matching f, oldest first, in *runs (*n of them; the caller frees them with
 * lst_cat_runs_free), each marked missing when its folder is gone. Returns 0 or -errno with err.
 */
int lst_catalog_runs(lst_catalog *cat, const struct lst_cat_filter *f, struct lst_cat_run **runs,
		     size_t *n, lst_err *err);
/* Free what the n runs at runs hold (not the array itself, which the caller frees). */
void lst_cat_runs_free(struct lst_cat_run *runs, size_t n);

/* The figures a point has in the catalog (points table columns), for METRIC names. */
extern const char *const lst_cat_metrics[];

/* What a trend's METRIC reads (docs/catalog.md, "Trends"). */
enum lst_cat_metric_kind {
	LST_CAT_POINT,	/* a point's column: "write_iops" */
	LST_CAT_STEADY, /* the steady-state average of verdicts tracking a figure: "steady.iops" */
	LST_CAT_CELL,	/* a suite matrix cell's IOPS: "cell:4k:70/30" */
};

struct lst_cat_metric {
	enum lst_cat_metric_kind kind;
	char figure[64]; /* the point's column, or the figure the verdicts track */
	char bs[24];	 /* a cell's block size in bytes, as text */
	char mix[16];	 /* a cell's read/write mix as the matrix names it: "70/30" */
	bool higher_is_better;
};

/*
 * Parse METRIC text into *m: a point's column (lst_cat_metrics), "steady.FIGURE" (FIGURE as a
 * verdict's tracked column names it: iops, write_iops, mbps, ...) or "cell:BS:MIX" (BS a size,
 * "4k" or "4096"; MIX "70/30", or 70 for it). Returns 0 or -EINVAL with err saying why.
 */
int lst_cat_metric_parse(const char *text, struct lst_cat_metric *m, lst_err *err);

/* Which rows of a run a figure is averaged over: every field may be NULL (any). */
struct lst_cat_pick {
	const char *phase;
	const char *test;  /* a point's or a verdict's test ("bs=1m write") */
	const char *point; /* a point's name as the report names it ("iodepth=16") */
	const char *suite; /* a point's or a verdict's suite ("snia-iops"; "" a plain phase) */
};

/*
 * One figure of each of the n runs into vals[i] (NAN when the run has none): metric m averaged
 * over the run's rows that pick chooses (a cell's: its phase only). Returns 0 or -errno with err.
 */
int lst_catalog_values(lst_catalog *cat, const struct lst_cat_run *runs, size_t n,
		       const struct lst_cat_metric *m, const struct lst_cat_pick *pick,
		       double *vals, lst_err *err);

/* One row of a run's table as lst_catalog_rows hands it: its columns as text (NULL: none). */
typedef int (*lst_cat_row_fn)(void *arg, int n, const char *const *vals);

/* A table of a run's figures: its columns in the order they are handed over, the first ntext
 * of them text, the others numbers. */
struct lst_cat_table {
	const char *name;
	const char *const *cols; /* NULL-terminated */
	int ntext;
};

/* each point as the report shows it (phase, test, name, suite, then point, round, partial,
 * figures) */
extern const struct lst_cat_table lst_cat_points;
/* each steady-state verdict (phase, test, tracked, suite, then steady 0/1, rounds, average) */
extern const struct lst_cat_table lst_cat_steady;
/* each suite matrix cell (phase, mix, then bs in bytes, iops) */
extern const struct lst_cat_table lst_cat_matrix;

/* Each row of table t of run_id, in the folder's order, to fn. Returns 0, fn's value or
 * -errno with err. */
int lst_catalog_rows(lst_catalog *cat, const struct lst_cat_table *t, const char *run_id,
		     lst_cat_row_fn fn, void *arg, lst_err *err);

#endif
