/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small, careful CSV reader for the results folder's files (timeseries.csv, summary.csv,
 * curves.csv, rounds.csv, matrix.csv), used by `lockstep report` and the plots.
 *
 * The whole file is read into memory and split in place (RFC 4180): fields separated by ',',
 * records by '\n' (a '\r' before it is dropped), a field that starts with '"' is quoted and may
 * hold ',', '"' written as "" and newlines. The first record is the header; columns are found
 * by name, so a writer may add trailing columns without breaking readers. Blank lines are
 * skipped; a UTF-8 byte order mark is dropped. Every data record must have as many fields as
 * the header, except that a last record without its newline and with too few fields (a run
 * killed while writing it) is dropped with a warning.
 *
 * Errors name the file and the line: "run1/summary.csv:14: 20 fields, the header has 21".
 */
#ifndef LST_CSV_H
#define LST_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_err.h"

#define LST_CSV_MAX_BYTES ((size_t)4 << 30) /* a 20-hour run with 1 s intervals is ~50 MB */

typedef struct lst_csv lst_csv;

/*
 * Read and split the CSV file at path. Returns 0 with *out (the caller's, free with
 * lst_csv_destroy), -ENOENT when the file does not exist, -EINVAL when it is malformed or has
 * no header, or another -errno; err says which file and line.
 */
int lst_csv_load(const char *path, lst_csv **out, lst_err *err);

/*
 * The same from memory: buf holds len bytes and room for one more (a NUL is written at
 * buf[len]); it is taken (freed with the table, or on error). path names the text in
 * messages. Returns 0 with *out, or -EINVAL with err.
 */
int lst_csv_parse(const char *path, char *buf, size_t len, lst_csv **out, lst_err *err);
void lst_csv_destroy(lst_csv **p);

/*
 * A file read a chunk of records at a time, so that a long one (a day's timeseries.csv) is
 * never whole in memory: each chunk is a table of its own with the file's header and the
 * file's line numbers, read and checked as lst_csv_load does. quiet: an incomplete last line
 * is dropped without a warning (a file read again after it was checked once).
 *
 * lst_csv_reader_open returns 0 with *out (the caller's, lst_csv_reader_destroy), -ENOENT, or
 * another -errno with err. lst_csv_reader_next gives the next chunk in *out (the caller's,
 * lst_csv_destroy): the first always, even without data rows (its header can be checked);
 * returns 0, 1 after the last chunk, or -EINVAL / -errno with err naming the file and line.
 */
typedef struct lst_csv_reader lst_csv_reader;
int lst_csv_reader_open(const char *path, bool quiet, lst_csv_reader **out, lst_err *err);
int lst_csv_reader_next(lst_csv_reader *rd, lst_csv **out, lst_err *err);
void lst_csv_reader_destroy(lst_csv_reader **p);

/* The path as given to lst_csv_load (borrowed). */
const char *lst_csv_path(const lst_csv *t);

size_t lst_csv_nrows(const lst_csv *t);
size_t lst_csv_ncols(const lst_csv *t);
const char *lst_csv_colname(const lst_csv *t, size_t col);

/* Index of the column with this name (the first when the header repeats it), or -1. */
int lst_csv_col(const lst_csv *t, const char *name);

/*
 * Indexes of the named columns into cols[] (same order, NULL-terminated names). Returns 0, or
 * -EINVAL with err "PATH:1: no column 'x' in the header" for the first one missing.
 */
int lst_csv_require(const lst_csv *t, const char *const *names, int *cols, lst_err *err);

/* Field of a data row, unquoted (borrowed); "" when col < 0. row < nrows is the caller's. */
const char *lst_csv_field(const lst_csv *t, size_t row, int col);

/* Line in the file where a data row starts, for messages. */
long lst_csv_line(const lst_csv *t, size_t row);

/*
 * A field as a finite number. Returns 0, -ENODATA when the field is empty or col < 0 (*v is
 * then NAN), or -EINVAL with err "PATH:LINE: column NAME: 'x' is not a number".
 */
int lst_csv_num(const lst_csv *t, size_t row, int col, double *v, lst_err *err);

/*
 * Loose splitting of one line of hand-made input (`lockstep steady`), unlike the files above:
 * lst_csv_separator picks the line's separator (',' if it has one, else ';', else a tab, else
 * runs of blanks); lst_csv_next_field cuts the next field off *cur, in place, trimmed and with
 * CSV quotes removed ("a ""b""" is a "b"), and returns NULL after the last field. With sep ' '
 * there are no empty fields; with the others "1,,2" has an empty second field.
 */
char lst_csv_separator(const char *line);
char *lst_csv_next_field(char **cur, char sep);

#endif
