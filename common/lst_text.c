/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text helpers shared by the plan reader, the results writers and the agent (see lst_text.h).
 */
#include "lst_text.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "lst_assert.h"

void lst_copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

void lst_csv_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void lst_csv_put(FILE *f, const char *s)
{
	if (*s && !strpbrk(s, ",\"\n\r"))
		fputs(s, f);
	else
		lst_csv_quoted(f, s);
}

void lst_md_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputs(" |", f);
}

size_t lst_text_distance(const char *a, const char *b)
{
	/* Damerau-Levenshtein (optimal string alignment): a swap of neighbours is one edit */
	size_t la = strlen(a), lb = strlen(b), rows[3][65];
	size_t *prev2 = rows[0], *prev = rows[1], *row = rows[2];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *t = prev2;

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;

			row[j] = LST_MIN(LST_MIN(prev[j] + 1, row[j - 1] + 1), prev[j - 1] + cost);
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]))
				row[j] = LST_MIN(row[j], prev2[j - 2] + 1);
		}
		prev2 = prev;
		prev = row;
		row = t;
	}
	return prev[lb];
}

const char *lst_text_hint(const char *word, const char *const *names, const char *what, char *buf,
			  size_t size)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX, n = 0;

	for (size_t i = 0; names[i]; i++) {
		size_t d = lst_text_distance(word, names[i]);

		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	if (best && best_d <= 2 && best_d < strlen(best) && best_d < strlen(word)) {
		snprintf(buf, size, "did you mean '%s'?", best);
		return buf;
	}
	n = (size_t)snprintf(buf, size, "%s: ", what);
	for (size_t i = 0; names[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", names[i]);
	if (!names[0] && n < size)
		snprintf(buf + n, size - n, "none");
	return buf;
}
