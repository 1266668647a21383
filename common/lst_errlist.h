/*
 * A list of error lines, "FILE:LINE:COL: message", collected all at once rather than stopping
 * at the first: a reader of a file written by people (a plan, later the agent's config) reports
 * every problem it finds, and its caller prints them together.
 *
 * A plain value type: start from { 0 } (or { 0, NULL }), add lines, print them, free it.
 * Adding never fails (out of memory aborts).
 */
#ifndef LST_ERRLIST_H
#define LST_ERRLIST_H

#include <stddef.h>
#include <stdio.h>

typedef struct lst_errlist {
	size_t n;
	char **msg;
} lst_errlist;

/* Add one line, formatted like printf (at most 2 * LST_ERR_MAX bytes are kept). */
void lst_errlist_add(lst_errlist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Free every line and leave the list empty; safe on NULL and on an empty list. */
void lst_errlist_free(lst_errlist *l);

/* Print every line to f, one per line. */
void lst_errlist_print(const lst_errlist *l, FILE *f);

#endif
