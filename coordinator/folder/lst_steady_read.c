/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep steady`'s input reader: a loose CSV (or whitespace-separated) file of numbers into
 * a series for lst_steady_eval. A reader of files, so it lives with the folder's readers and the
 * steady-state maths (measure) stays free of I/O.
 */
#include "lst_steady_read.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "lst_csv.h"
#include "lst_util.h"

#define S_SHOW_MAX 48 /* characters of a bad field quoted in an error */

/* A whole field that is a finite number. */
static bool s_number(const char *f, double *v)
{
	char *end;

	if (!*f)
		return false;
	errno = 0;
	*v = strtod(f, &end);
	return end != f && !*end && isfinite(*v) && errno != ERANGE;
}

/* Text for an error message: at most S_SHOW_MAX characters of s. */
static void s_show(const char *s, char *buf, size_t size)
{
	if (strlen(s) > S_SHOW_MAX)
		snprintf(buf, size, "%.*s...", S_SHOW_MAX, s);
	else
		snprintf(buf, size, "%s", s);
}

static void s_push(struct lst_steady_series *s, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = lst_realloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = v;
}

/*
 * Pick the value out of one data line (modified in place). Returns 1 with *v set, 0 when the
 * line has no number where one is expected (*bad says what was there), or -ERANGE when the
 * line has no field `column` (*nfields says how many it has).
 */
static int s_line_value(char *line, long column, double *v, char *bad, size_t bad_size,
			long *nfields)
{
	char sep = lst_csv_separator(line);
	char *cur = line, *f;
	bool found = false;
	long i = 0;

	s_show(line, bad, bad_size);
	while ((f = lst_csv_next_field(&cur, sep))) {
		double x;

		i++;
		if (column && i == column) {
			s_show(f, bad, bad_size);
			return s_number(f, v) ? 1 : 0;
		}
		if (!column && s_number(f, &x)) {
			*v = x;
			found = true;
		}
	}
	*nfields = i;
	if (column)
		return -ERANGE;
	return found ? 1 : 0;
}

/* The header's field `column`, as the column's name (caller frees), or NULL. */
static char *s_header_name(char *line, long column)
{
	char sep = lst_csv_separator(line);
	char *cur = line, *f;
	long i = 0;

	while ((f = lst_csv_next_field(&cur, sep)))
		if (++i == column)
			return *f ? lst_strdup(f) : NULL;
	return NULL;
}

int lst_steady_read(FILE *f, const char *name, long column, struct lst_steady_series *s,
		    lst_err *err)
{
	char *line = NULL, bad[S_SHOW_MAX + 8];
	size_t cap = 0;
	bool first = true;
	long lineno = 0;
	ssize_t len;
	int rc = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		char *p = line, *copy;
		long nfields = 0;
		double v = 0;
		int got;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (lineno == 1 && !strncmp(p, "\xef\xbb\xbf", 3))
			p += 3; /* UTF-8 byte order mark, as spreadsheets write CSV */
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		copy = first && column ? lst_strdup(p) : NULL;
		got = s_line_value(p, column, &v, bad, sizeof(bad), &nfields);
		if (got == 0 && first) {
			if (copy)
				s->column_name = s_header_name(copy, column);
			free(copy);
			first = false;
			continue;
		}
		free(copy);
		first = false;
		if (got == -ERANGE) {
			rc = lst_err_set(err, -EINVAL, "%s:%ld: no column %ld (the line has %ld)",
					 name, lineno, column, nfields);
			goto out;
		}
		if (got == 0) {
			rc = lst_err_set(err, -EINVAL, "%s:%ld: '%s' is not a number", name, lineno,
					 bad);
			goto out;
		}
		s_push(s, v);
	}
	if (ferror(f))
		rc = lst_err_sys(err, -EIO, "read(\"%s\") failed", name);
out:
	free(line);
	return rc;
}

void lst_steady_series_free(struct lst_steady_series *s)
{
	free(s->v);
	free(s->column_name);
	memset(s, 0, sizeof(*s));
}
