/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio job files (lst_fiojob.h): a line reader, one line at a time, that keeps each option's
 * line for the messages of whoever maps it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_file.h"
#include "lst_fiojob.h"
#include "lst_util.h"

#define S_MAX_FILE (1u << 20)

/* Trim blanks on both ends of [s, e) in place; returns the start. */
static char *s_trim(char *s, char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	*e = '\0';
	return s;
}

static int s_section(lst_fiojob *j, char *s, int line, lst_err *err)
{
	char *end = strchr(s, ']');
	struct lst_fiojob_section *sec;

	if (!end)
		return lst_err_set(err, -EINVAL, "%s:%d: section '%s' has no closing ']'", j->file,
				   line, s);
	if (*s_trim(end + 1, end + 1 + strlen(end + 1)))
		return lst_err_set(err, -EINVAL, "%s:%d: text after the section's ']'", j->file,
				   line);
	s = s_trim(s + 1, end);
	if (!*s)
		return lst_err_set(err, -EINVAL, "%s:%d: a section without a name ([])", j->file,
				   line);
	j->sections = lst_realloc(j->sections, (j->nsections + 1) * sizeof(*j->sections));
	sec = &j->sections[j->nsections++];
	*sec = (struct lst_fiojob_section){ .name = lst_strdup(s), .line = line };
	return 0;
}

static int s_option(lst_fiojob *j, char *s, int line, lst_err *err)
{
	char *eq = strchr(s, '=');
	struct lst_fiojob_section *sec;
	struct lst_fiojob_opt *o;
	char *key = s_trim(s, eq ? eq : s + strlen(s));

	if (!j->nsections)
		return lst_err_set(err, -EINVAL,
				   "%s:%d: option '%s' comes before any [section] (fio's files "
				   "start with [global] or a job's [name])",
				   j->file, line, key);
	if (!*key)
		return lst_err_set(err, -EINVAL, "%s:%d: '=' without an option name", j->file,
				   line);
	sec = &j->sections[j->nsections - 1];
	sec->opts = lst_realloc(sec->opts, (sec->nopts + 1) * sizeof(*sec->opts));
	o = &sec->opts[sec->nopts++];
	o->key = lst_strdup(key);
	o->value = eq ? lst_strdup(s_trim(eq + 1, eq + 1 + strlen(eq + 1))) : NULL;
	o->line = line;
	return 0;
}

lst_fiojob *lst_fiojob_parse(const char *file, const char *text, size_t len, lst_err *err)
{
	lst_fiojob *j = lst_calloc(1, sizeof(*j));
	char *buf = lst_strdup(text), *p = buf;
	int line = 0, rc = 0;

	j->file = lst_strdup(file);
	if (strlen(text) != len) {
		lst_err_set(err, -EINVAL, "%s: holds a NUL byte: not a job file", file);
		goto fail;
	}
	while (p && !rc) {
		char *nl = strchr(p, '\n'), *s;

		line++;
		if (nl)
			*nl = '\0';
		s = s_trim(p, p + strlen(p));
		p = nl ? nl + 1 : NULL;
		if (!*s || *s == '#' || *s == ';')
			continue;
		rc = *s == '[' ? s_section(j, s, line, err) : s_option(j, s, line, err);
	}
	if (rc)
		goto fail;
	free(buf);
	return j;
fail:
	free(buf);
	lst_fiojob_destroy(&j);
	return NULL;
}

lst_fiojob *lst_fiojob_load(const char *path, lst_err *err)
{
	lst_fiojob *j;
	size_t len;
	char *text;

	if (lst_file_read(path, "job file", S_MAX_FILE, &text, &len, err))
		return NULL;
	j = lst_fiojob_parse(path, text, len, err);
	free(text);
	return j;
}

void lst_fiojob_destroy(lst_fiojob **p)
{
	lst_fiojob *j = p ? *p : NULL;

	if (!j)
		return;
	for (size_t i = 0; i < j->nsections; i++) {
		for (size_t k = 0; k < j->sections[i].nopts; k++) {
			free(j->sections[i].opts[k].key);
			free(j->sections[i].opts[k].value);
		}
		free(j->sections[i].opts);
		free(j->sections[i].name);
	}
	free(j->sections);
	free(j->file);
	free(j);
	*p = NULL;
}
