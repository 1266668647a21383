/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The catalog's PostgreSQL backend (lst_catdb.h), through libpq: a lab's shared catalog. The
 * URL is libpq's own (postgresql://USER@HOST:PORT/DB, ?host=/socket/dir for a Unix socket);
 * a server that does not answer within S_CONNECT_S seconds is an error naming the URL.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

#include "lst_catdb.h"
#include "lst_util.h"

#define S_CONNECT_S "5"

/* libpq's messages may span lines and end in a newline; ours are one line. */
static int s_fail(int code, lst_err *err, const char *what, const char *msg)
{
	char *one = lst_strdup(msg);
	size_t n = strlen(one);

	while (n && (one[n - 1] == '\n' || one[n - 1] == ' '))
		one[--n] = 0;
	for (char *c = one; *c; c++)
		if (*c == '\n' || *c == '\t')
			*c = ' ';
	lst_err_set(err, code, "%s%s", what, one);
	free(one);
	return code;
}

static void *s_open(const char *url, lst_err *err)
{
	const char *keys[] = { "dbname", "connect_timeout", "client_encoding", NULL };
	const char *vals[] = { url, S_CONNECT_S, "UTF8", NULL };
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	PGresult *res;

	if (!c) {
		lst_err_set(err, -ENOMEM, "%s: out of memory", url);
		return NULL;
	}
	if (PQstatus(c) != CONNECTION_OK) {
		char *what = lst_asprintf("%s: cannot connect: ", url);

		s_fail(-EIO, err, what, PQerrorMessage(c));
		free(what);
		PQfinish(c);
		return NULL;
	}
	/* the catalog's notices (a table that already exists) are not the user's business */
	res = PQexec(c, "SET client_min_messages = warning");
	PQclear(res);
	return c;
}

static void s_close(void *h)
{
	PQfinish(h);
}

static int s_exec(void *h, const char *sql, int n, const char *const *params, lst_catdb_row_fn fn,
		  void *arg, lst_err *err)
{
	PGresult *res = PQexecParams(h, sql, n, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(res);
	const char *vals[LST_CATDB_MAX_COLS];
	int ret = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		ret = s_fail(-EIO, err, "postgresql: ", PQresultErrorMessage(res));
		PQclear(res);
		return ret;
	}
	for (int r = 0; fn && r < PQntuples(res) && !ret; r++) {
		int nc = PQnfields(res) > LST_CATDB_MAX_COLS ? LST_CATDB_MAX_COLS : PQnfields(res);

		for (int c = 0; c < nc; c++)
			vals[c] = PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c);
		ret = fn(arg, nc, vals);
	}
	PQclear(res);
	return ret;
}

const struct lst_catdb_ops lst_catdb_postgresql = {
	.kind = "postgresql",
	.open = s_open,
	.close = s_close,
	.exec = s_exec,
};
