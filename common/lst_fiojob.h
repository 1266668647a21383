/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio job files, read as fio reads them: an INI file of sections ([global] and one per job),
 * each a list of options, `key=value` or a bare `key` (a switch). Lines starting with '#' or ';'
 * are comments. Nothing here knows what an option means: `lockstep import` maps the options to
 * a plan, and anything else that takes fio's files can map them its own way. Every option keeps
 * its line, so that whoever maps it can say FILE:LINE of what it cannot take.
 *
 * A loaded file is a plain value: its arrays are read directly and freed by
 * lst_fiojob_destroy().
 */
#ifndef LST_FIOJOB_H
#define LST_FIOJOB_H

#include <stddef.h>

#include "lst_err.h"

struct lst_fiojob_opt {
	char *key;   /* as written, blanks trimmed */
	char *value; /* blanks trimmed; NULL for a bare key */
	int line;    /* from 1 */
};

struct lst_fiojob_section {
	char *name; /* between the brackets: "global" or the job's name */
	int line;
	struct lst_fiojob_opt *opts;
	size_t nopts;
};

typedef struct lst_fiojob {
	char *file; /* the path it was read from */
	struct lst_fiojob_section *sections;
	size_t nsections;
} lst_fiojob;

/*
 * Read the job file at path (at most 1 MiB). Returns the file, or NULL with err saying
 * "FILE:LINE: what is wrong" (an option before any section, a section without its ']' or
 * name, an option without a key, a NUL byte) or why the file cannot be read. The caller
 * destroys it.
 */
lst_fiojob *lst_fiojob_load(const char *path, lst_err *err);

/* Read a job file from text (len bytes, NUL bytes refused), named file in messages. */
lst_fiojob *lst_fiojob_parse(const char *file, const char *text, size_t len, lst_err *err);

/* Free *p and set it to NULL; safe on NULL and twice. */
void lst_fiojob_destroy(lst_fiojob **p);

#endif
