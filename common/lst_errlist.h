/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A list of error lines, "FILE:LINE:COL: message", collected all at once rather than stopping
 * at the first: a reader of a file written by people (a plan, later the agent's config) reports
 * every problem it finds, and its caller prints them together.
 *
 * The list keeps the first LST_ERRLIST_MAX lines and counts the rest: a generated file with a
 * million copies of one mistake gets a screenful and "... and 999,980 more", not a million
 * lines (and their memory). Readers that sort their lines first keep only as many themselves.
 *
 * A plain value type: start from { 0 }, add lines, print them, free it.
 * Adding never fails (out of memory aborts).
 */
#ifndef LST_ERRLIST_H
#define LST_ERRLIST_H

#include <stddef.h>
#include <stdio.h>

#define LST_ERRLIST_MAX 20 /* lines a list keeps and prints; the rest are counted */

typedef struct lst_errlist {
	size_t n; /* lines kept in msg, at most LST_ERRLIST_MAX */
	char **msg;
	size_t more; /* lines added past LST_ERRLIST_MAX: counted, not kept */
} lst_errlist;

/* Add one line, formatted like printf (at most 2 * LST_ERR_MAX bytes are kept); past
 * LST_ERRLIST_MAX lines it is only counted. */
void lst_errlist_add(lst_errlist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Count n more lines that were found but not added (a reader that kept only the first). */
void lst_errlist_add_more(lst_errlist *l, size_t n);

/* Every line found: kept and counted. */
size_t lst_errlist_count(const lst_errlist *l);

/* Free every line and leave the list empty; safe on NULL and on an empty list. */
void lst_errlist_free(lst_errlist *l);

/* Print the kept lines to f, one per line, then "... and 1,234 more" when lines were only
 * counted. */
void lst_errlist_print(const lst_errlist *l, FILE *f);

#endif
