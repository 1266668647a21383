/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The catalog's SQL backends behind one small interface: a connection that runs one statement
 * with text parameters and hands each result row, as text, to a callback. Two implementations:
 * SQLite (the embedded default, a file) and PostgreSQL (a team's shared server). Everything the
 * catalog says in SQL is written once for both: parameters are $1, $2... (PostgreSQL's own;
 * the SQLite backend binds them by name), values are text and the columns' declared types
 * convert them.
 *
 * A connection is used by one thread.
 */
#ifndef LST_CATDB_H
#define LST_CATDB_H

#include <stdbool.h>

#include "lst_err.h"

/* The columns a row hands over at most (the catalog's widest SELECT has fewer). */
#define LST_CATDB_MAX_COLS 64

/* One result row: n columns as text (at most LST_CATDB_MAX_COLS), NULL for an SQL NULL;
 * borrowed for the call only. Returns 0 to go on, nonzero to stop (the statement then returns
 * that value). */
typedef int (*lst_catdb_row_fn)(void *arg, int n, const char *const *vals);

typedef struct lst_catdb lst_catdb;

/*
 * Connect to url: "sqlite:PATH" (the file is made when missing, its folder too),
 * "postgresql://..." or "postgres://..." (libpq's URI, e.g. with ?host=/socket/dir), or a
 * bare PATH (SQLite). Returns the connection (the caller's, lst_catdb_destroy) or NULL with
 * err: "sqlite:PATH: unable to open database file", "postgresql://...: connection refused".
 */
lst_catdb *lst_catdb_new(const char *url, lst_err *err);
/* Close the connection *p and set *p to NULL; safe on NULL and twice. */
void lst_catdb_destroy(lst_catdb **p);

/*
 * Run one statement with n text parameters (NULL entries are SQL NULL), calling fn (may be
 * NULL) for each row. Returns 0, fn's nonzero value, or -EIO/-EBUSY with err naming the
 * backend's message ("database is locked" after the busy timeout).
 */
int lst_catdb_exec(lst_catdb *db, const char *sql, int n, const char *const *params,
		   lst_catdb_row_fn fn, void *arg, lst_err *err);

/* The backend's name, "sqlite" or "postgresql", for messages and the dialect's few words. */
const char *lst_catdb_kind(const lst_catdb *db);

/* A backend: what lst_catdb_new dispatches to by the URL's scheme. */
struct lst_catdb_ops {
	const char *kind;
	void *(*open)(const char *where, lst_err *err);
	void (*close)(void *h);
	int (*exec)(void *h, const char *sql, int n, const char *const *params, lst_catdb_row_fn fn,
		    void *arg, lst_err *err);
};

extern const struct lst_catdb_ops lst_catdb_sqlite;
extern const struct lst_catdb_ops lst_catdb_postgresql;

#endif
