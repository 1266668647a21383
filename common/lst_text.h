/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small text helpers that more than one module needs: bounded copy, CSV field quoting (RFC 4180),
 * Markdown table cells and the "did you mean" hint for misspelt names.
 *
 * None of them allocates; the writers put bytes on a stdio stream and leave error checking to the
 * caller's ferror()/fclose(), as every results writer does.
 */
#ifndef LST_TEXT_H
#define LST_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Copy src (NULL reads as "") into dst of size bytes, truncating and always terminating. */
void lst_copy(char *dst, size_t size, const char *src);

/* Write s as a CSV field in double quotes, quotes inside doubled. */
void lst_csv_quoted(FILE *f, const char *s);

/*
 * Write s as a CSV field, quoted only when it must be: when it holds ',', '"', CR or LF, or is
 * empty (written "" so that it reads back as an empty string, not a missing value).
 */
void lst_csv_put(FILE *f, const char *s);

/* Write s as one Markdown table cell: " s |", with '|' escaped and newlines as spaces. */
void lst_md_cell(FILE *f, const char *s);

/* Edit distance between a and b (Damerau-Levenshtein: insert, delete, replace, or swap two
 * neighbours), case-insensitive; SIZE_MAX when either is over 64 bytes. */
size_t lst_text_distance(const char *a, const char *b);

/*
 * Into buf: "did you mean 'NAME'?" when one of names (NULL-terminated) is within two edits of
 * word, else "WHAT: a, b, c" ("WHAT: none" for an empty list). Returns buf.
 */
const char *lst_text_hint(const char *word, const char *const *names, const char *what, char *buf,
			  size_t size);

#endif
