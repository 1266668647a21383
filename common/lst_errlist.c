/*
 * Error lists (lst_errlist.h): each line is formatted once into a bounded buffer and kept as
 * its own string, so a reader can add lines in any order it finds them and sort them first.
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
}

void lst_errlist_print(const lst_errlist *l, FILE *f)
{
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s\n", l->msg[i]);
}
