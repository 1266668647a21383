/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Error lists (lst_errlist.h): each line is formatted once into a bounded buffer and kept as
 * its own string, so a reader can add lines in any order it finds them and sort them first;
 * past LST_ERRLIST_MAX lines a line is only counted.
 */
#include "lst_errlist.h"

#include <stdarg.h>
#include <stdlib.h>

#include "lst_err.h"
#include "lst_util.h"

void lst_errlist_add(lst_errlist *l, const char *fmt, ...)
{
	char buf[2 * LST_ERR_MAX];
	va_list ap;

	if (l->n == LST_ERRLIST_MAX) {
		l->more++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	l->msg = lst_realloc(l->msg, (l->n + 1) * sizeof(*l->msg));
	l->msg[l->n++] = lst_strdup(buf);
}

void lst_errlist_free(lst_errlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->msg[i]);
	free(l->msg);
	l->msg = NULL;
	l->n = 0;
	l->more = 0;
}

void lst_errlist_add_more(lst_errlist *l, size_t n)
{
	l->more += n;
}

size_t lst_errlist_count(const lst_errlist *l)
{
	return l->n + l->more;
}

/* n with a comma every three digits ("999,980"), as people count a long list. */
static const char *s_grouped(size_t n, char *buf, size_t size)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%zu", n);
	size_t o = 0;

	for (int i = 0; i < len && o + 1 < size; i++) {
		if (i && (len - i) % 3 == 0 && o + 2 < size)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

void lst_errlist_print(const lst_errlist *l, FILE *f)
{
	char n[48];

	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s\n", l->msg[i]);
	if (l->more)
		fprintf(f, "... and %s more\n", s_grouped(l->more, n, sizeof(n)));
}
