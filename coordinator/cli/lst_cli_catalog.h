/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What `lockstep db` and `lockstep trend` share: their flags' struct and the group of flags
 * that choose a catalog and its runs (--db, --where, --since, --plan, --json), and the
 * opening of the catalog with its runs chosen.
 */
#ifndef LST_CLI_CATALOG_H
#define LST_CLI_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_catalog.h"
#include "lst_cli.h"

struct lst_cli_cat_flags {
	struct lst_cli_flags c; /* first: the shared groups store into it */
	const char *db, *where, *since, *plan;
	int64_t json, partial;
	const char *phase, *test, *point, *suite, *plot; /* trend's */
	int64_t by;					 /* trend's: index of lst_cli_trend_by */
};

/* --db, --where, --since, --plan, --json */
extern const struct lst_flag lst_cli_cat_flags[];

/*
 * Open the catalog of fl (--db, else the default) into *cat, and when runs is not NULL read
 * the runs that fl's --where, --since and --plan choose (and whose id starts with run, when not
 * NULL). Returns 0, or 2 after saying why on stderr as "lockstep CMD: ..." (the caller then
 * has nothing to free).
 */
int lst_cli_cat_open(const char *cmd, const struct lst_cli_cat_flags *fl, const char *run,
		     lst_catalog **cat, struct lst_cat_run **runs, size_t *n);

/*
 * Record the results folder dir in the catalog at url (NULL or "": the default), for `lockstep
 * run --catalog`. Says what it did on stdout unless quiet. Returns 0, or 2 after saying why on
 * stderr as "lockstep CMD: catalog: ...".
 */
int lst_cli_cat_add(const char *cmd, const char *url, const char *dir, bool quiet);

/*
 * The folders of the runs query (--where's language) chooses in the catalog at url (NULL: the
 * default), oldest first, into dirs (room max; the caller frees each): for `lockstep report
 * --runs`. A run whose folder is gone is left out with a warning. Returns the count, or -1
 * after saying why on stderr as "lockstep CMD: ..." (a bad query, a catalog that cannot be
 * opened, more runs than max).
 */
int lst_cli_cat_folders(const char *cmd, const char *url, const char *query, char **dirs, int max);

#endif
