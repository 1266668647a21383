/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The backend dispatch of lst_catdb.h: the URL's scheme picks an ops table; the connection is
 * that table and its handle.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_catdb.h"
#include "lst_util.h"

struct lst_catdb {
	const struct lst_catdb_ops *ops;
	void *h;
};

lst_catdb *lst_catdb_new(const char *url, lst_err *err)
{
	const struct lst_catdb_ops *ops = &lst_catdb_sqlite;
	const char *where = url;
	lst_catdb *db;
	void *h;

	if (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11))
		ops = &lst_catdb_postgresql;
	else if (!strncmp(url, "sqlite:", 7))
		where = url + 7;
	else if (strstr(url, "://")) {
		lst_err_set(err, -EINVAL, "%s: not a catalog URL (sqlite:PATH or postgresql://...)",
			    url);
		return NULL;
	}
	if (!*where) {
		lst_err_set(err, -EINVAL, "%s: no file named", url);
		return NULL;
	}
	if (!(h = ops->open(where, err)))
		return NULL;
	db = lst_calloc(1, sizeof(*db));
	db->ops = ops;
	db->h = h;
	return db;
}

void lst_catdb_destroy(lst_catdb **p)
{
	if (!p || !*p)
		return;
	(*p)->ops->close((*p)->h);
	free(*p);
	*p = NULL;
}

int lst_catdb_exec(lst_catdb *db, const char *sql, int n, const char *const *params,
		   lst_catdb_row_fn fn, void *arg, lst_err *err)
{
	return db->ops->exec(db->h, sql, n, params, fn, arg, err);
}

const char *lst_catdb_kind(const lst_catdb *db)
{
	return db->ops->kind;
}
