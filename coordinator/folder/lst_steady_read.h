/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep steady`'s input: the values of a column of a CSV (or whitespace-separated) file, for
 * the steady-state maths of lst_steady.h. The loose line splitter is lst_csv_next_field.
 */
#ifndef LST_STEADY_READ_H
#define LST_STEADY_READ_H

#include <stdio.h>

#include "lst_err.h"
#include "lst_steady.h"

/* Values read by lst_steady_read, and the header's name for the chosen column, if any. */
struct lst_steady_series {
	double *v;
	size_t n, cap;
	char *column_name;
};

/*
 * `lockstep steady`'s input: read every value of f (name names it in messages) into s, which
 * starts zeroed. Blank lines and lines starting with '#' are skipped; a first data line that is
 * not numeric is a header; fields are split by lst_csv_next_field; the value is field column
 * (1-based), or with column 0 the last numeric field. Returns 0, or -EINVAL / -errno with err
 * naming FILE:LINE ("r.csv:1: no column 4 (the line has 3)", "x:3: 'abc' is not a number").
 * s is the caller's to free with lst_steady_series_free, also on error.
 */
int lst_steady_read(FILE *f, const char *name, long column, struct lst_steady_series *s,
		    lst_err *err);
void lst_steady_series_free(struct lst_steady_series *s);

#endif
