/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The catalog's SQLite backend (lst_catdb.h): one file, made with its folder when missing.
 * Another process writing the file makes ours wait up to S_BUSY_MS, then fail with "database
 * is locked", so that a lab's second `db add` waits for the first instead of failing at once.
 */
#include <errno.h>
#include <libgen.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lst_catdb.h"
#include "lst_util.h"

#define S_BUSY_MS 2000

static void *s_open(const char *path, lst_err *err)
{
	char *dir = lst_strdup(path);
	sqlite3 *db = NULL;
	int rc;

	if (strcmp(dirname(dir), ".") && lst_mkdir_p(dir) < 0) {
		lst_err_sys(err, -errno, "sqlite:%s: cannot make its folder", path);
		free(dir);
		return NULL;
	}
	free(dir);
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		lst_err_set(err, -EIO, "sqlite:%s: %s", path,
			    db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, S_BUSY_MS);
	sqlite3_extended_result_codes(db, 0);
	return db;
}

static void s_close(void *h)
{
	sqlite3_close(h);
}

static int s_fail(sqlite3 *db, int rc, lst_err *err)
{
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return lst_err_set(err, -EBUSY,
				   "sqlite: %s (another process holds it for more "
				   "than %d ms)",
				   sqlite3_errmsg(db), S_BUSY_MS);
	return lst_err_set(err, -EIO, "sqlite: %s", sqlite3_errmsg(db));
}

static int s_exec(void *h, const char *sql, int n, const char *const *params, lst_catdb_row_fn fn,
		  void *arg, lst_err *err)
{
	sqlite3 *db = h;
	sqlite3_stmt *st = NULL;
	const char *vals[LST_CATDB_MAX_COLS];
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return s_fail(db, rc, err);
	/* $N by its name: SQLite numbers named parameters in the order they first appear */
	for (int i = 0; i < n; i++) {
		char name[16];
		int at;

		snprintf(name, sizeof(name), "$%d", i + 1);
		if (params[i] && (at = sqlite3_bind_parameter_index(st, name)) > 0)
			sqlite3_bind_text(st, at, params[i], -1, SQLITE_STATIC);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int nc = sqlite3_column_count(st);

		if (!fn)
			continue;
		if (nc > LST_CATDB_MAX_COLS)
			nc = LST_CATDB_MAX_COLS;
		for (int c = 0; c < nc; c++)
			vals[c] = (const char *)sqlite3_column_text(st, c);
		if ((ret = fn(arg, nc, vals)))
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = s_fail(db, rc, err);
	sqlite3_finalize(st);
	return ret;
}

const struct lst_catdb_ops lst_catdb_sqlite = {
	.kind = "sqlite",
	.open = s_open,
	.close = s_close,
	.exec = s_exec,
};
