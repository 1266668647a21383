/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The value types of the agent's settings, as lst_opt operations: each checks its own text, so
 * lst_config_settings[] names a setting's type and the engine does the rest, from a flag and
 * from the file alike. A string value is a char * the config owns; a list of globs and the
 * named commands of hooks and collectors are small structs of lst_config.h. Every message
 * follows the setting's name ("listen: 'x' is not a ZeroMQ endpoint..."): the engine puts it
 * in front.
 */
#include "lst_config.h"
#include "lst_config_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_identity.h"
#include "lst_log.h"
#include "lst_util.h"

#define S_PATH_MAX 4096 /* bytes of a path setting, with its NUL */

/* ---------------------------------------------------------------- strings */

static void s_str_clear(void *val)
{
	char **s = val;

	free(*s);
	*s = NULL;
}

static void s_str_dup(void *dst, const void *src)
{
	const char *const *s = src;

	*(char **)dst = *s ? lst_strdup(*s) : NULL;
}

static const char *s_str_format(const void *val, char *buf, size_t size)
{
	const char *const *s = val;

	snprintf(buf, size, "%s", *s ? *s : "");
	return buf;
}

/* A non-empty text shorter than max bytes, kept in *val. */
static int s_str_keep(void *val, const char *text, size_t max, lst_err *err)
{
	size_t len = strlen(text);

	if (!len)
		return lst_err_set(err, -EINVAL, "needs a value, not an empty string");
	if (len >= max)
		return lst_err_set(err, -EINVAL, "path too long (%zu bytes at most)", max - 1);
	*(char **)val = lst_strdup(text);
	return 0;
}

static int s_endpoint_parse(void *val, const char *text, lst_err *err)
{
	size_t len = strlen(text);

	if ((strncmp(text, "tcp://", 6) && strncmp(text, "ipc://", 6)) || len <= 6 || len >= 256)
		return lst_err_set(err, -EINVAL,
				   "'%s' is not a ZeroMQ endpoint such as tcp://*:7270 or "
				   "tcp://192.0.2.1:7270",
				   text);
	return s_str_keep(val, text, 256, err);
}

static int s_name_parse(void *val, const char *text, lst_err *err)
{
	if (strlen(text) >= LST_NAME_MAX)
		return lst_err_set(err, -EINVAL, "longer than %d bytes", LST_NAME_MAX - 1);
	for (const char *c = text; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return lst_err_set(err, -EINVAL, "control characters are not allowed");
	return s_str_keep(val, text, LST_NAME_MAX, err);
}

static int s_file_parse(void *val, const char *text, lst_err *err)
{
	return s_str_keep(val, text, S_PATH_MAX, err);
}

static int s_abs_dir_parse(void *val, const char *text, lst_err *err)
{
	if (text[0] != '/')
		return lst_err_set(err, -EINVAL, "'%s' is not an absolute folder path", text);
	return s_str_keep(val, text, S_PATH_MAX, err);
}

#define S_STRING_OPS(parse_fn, range_text, arg_text)                                               \
	{                                                                                          \
		.size = sizeof(char *), .parse = parse_fn, .format = s_str_format,                 \
		.range = range_text, .arg = arg_text, .clear = s_str_clear, .dup = s_str_dup,      \
	}

const struct lst_opt_ops lst_config__endpoint_ops = S_STRING_OPS(
	s_endpoint_parse, "a ZeroMQ endpoint (tcp://HOST:PORT or ipc://PATH)", "ENDPOINT");
const struct lst_opt_ops lst_config__name_ops =
	S_STRING_OPS(s_name_parse, "a string of at most 63 bytes", "NAME");
const struct lst_opt_ops lst_config__file_ops = S_STRING_OPS(s_file_parse, "a path", "FILE");
const struct lst_opt_ops lst_config__dir_ops = S_STRING_OPS(s_file_parse, "a folder's path", "DIR");
const struct lst_opt_ops lst_config__abs_dir_ops =
	S_STRING_OPS(s_abs_dir_parse, "an absolute folder path", "DIR");

/* ---------------------------------------------------------------- debug categories */

/* Is every comma-separated word of list a debug category? (No side effect on the logger.) */
static int s_check_debug(const char *list, lst_err *err)
{
	unsigned mask;
	const char *bad;

	if (lst_log_parse_debug(list, &mask, &bad))
		return lst_err_set(err, -EINVAL, "unknown category '%.*s' (known: %s)",
				   (int)strcspn(bad, ","), bad, lst_log_debug_names());
	return 0;
}

static int s_debug_parse(void *val, const char *text, lst_err *err)
{
	if (s_check_debug(text, err))
		return -EINVAL;
	*(char **)val = lst_strdup(text);
	return 0;
}

/* One more comma-separated list of categories, after those already given. */
static int s_debug_add(void *val, const char *text, lst_err *err)
{
	char **s = val, *joined;

	if (!*s)
		return s_debug_parse(val, text, err);
	if (s_check_debug(text, err))
		return -EINVAL;
	joined = lst_asprintf("%s,%s", *s, text);
	free(*s);
	*s = joined;
	return 0;
}

const struct lst_opt_ops lst_config__debug_ops = {
	.size = sizeof(char *),
	.parse = s_debug_parse,
	.format = s_str_format,
	.range = "a comma-separated string or a list of debug categories",
	.arg = "LIST",
	.clear = s_str_clear,
	.dup = s_str_dup,
	.add = s_debug_add,
};

/* ---------------------------------------------------------------- globs */

static void s_globs_clear(void *val)
{
	struct lst_config_strs *l = val;

	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void s_globs_dup(void *dst, const void *src)
{
	const struct lst_config_strs *s = src;
	struct lst_config_strs *d = dst;

	d->v = lst_calloc(s->n + 1, sizeof(*d->v));
	for (size_t i = 0; i < s->n; i++)
		d->v[i] = lst_strdup(s->v[i]);
	d->n = s->n;
}

static const char *s_globs_format(const void *val, char *buf, size_t size)
{
	const struct lst_config_strs *l = val;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", l->v[i]);
	return buf;
}

/* A file's single value: a list is written as one, even of one glob (so that a typo such as
 * "allow_write: /dev/sd*" for a list is not taken quietly). */
static int s_globs_parse(void *val, const char *text, lst_err *err)
{
	(void)val;
	return lst_err_set(err, -EINVAL,
			   "a list of absolute path globs is needed, not a single value ('%s')",
			   text);
}

static int s_globs_add(void *val, const char *text, lst_err *err)
{
	struct lst_config_strs *l = val;

	if (text[0] != '/')
		return lst_err_set(err, -EINVAL, "'%s' is not an absolute path glob", text);
	if (strlen(text) >= LST_PATH_MAX)
		return lst_err_set(err, -EINVAL, "glob longer than %d bytes", LST_PATH_MAX - 1);
	l->v = lst_realloc(l->v, (l->n + 2) * sizeof(*l->v));
	l->v[l->n++] = lst_strdup(text);
	l->v[l->n] = NULL;
	return 0;
}

const struct lst_opt_ops lst_config__globs_ops = {
	.size = sizeof(struct lst_config_strs),
	.parse = s_globs_parse,
	.format = s_globs_format,
	.range = "a list of absolute path globs",
	.arg = "GLOB",
	.clear = s_globs_clear,
	.dup = s_globs_dup,
	.add = s_globs_add,
};

/* ---------------------------------------------------------------- named commands */

static void s_cmds_clear(void *val)
{
	struct lst_config_cmds *c = val;

	for (size_t i = 0; i < c->n; i++) {
		for (size_t j = 0; j < c->v[i].argc; j++)
			free(c->v[i].argv[j]);
		free(c->v[i].argv);
		free(c->v[i].name);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

static void s_cmds_dup(void *dst, const void *src)
{
	const struct lst_config_cmds *s = src;
	struct lst_config_cmds *d = dst;

	d->v = s->n ? lst_calloc(s->n, sizeof(*d->v)) : NULL;
	for (size_t i = 0; i < s->n; i++) {
		d->v[i].name = lst_strdup(s->v[i].name);
		d->v[i].argc = s->v[i].argc;
		d->v[i].argv = lst_calloc(s->v[i].argc + 1, sizeof(char *));
		for (size_t j = 0; j < s->v[i].argc; j++)
			d->v[i].argv[j] = lst_strdup(s->v[i].argv[j]);
	}
	d->n = s->n;
}

static const char *s_cmds_format(const void *val, char *buf, size_t size)
{
	const struct lst_config_cmds *c = val;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < c->n && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", c->v[i].name);
	return buf;
}

static int s_cmds_parse(void *val, const char *text, lst_err *err)
{
	(void)val;
	(void)text;
	return lst_err_set(err, -EINVAL,
			   "a map of NAME: [program, args...], set in the config file only");
}

const struct lst_opt_ops lst_config__cmds_ops = {
	.size = sizeof(struct lst_config_cmds),
	.parse = s_cmds_parse,
	.format = s_cmds_format,
	.range = "a map of NAME: [/absolute/program, arguments...]",
	.clear = s_cmds_clear,
	.dup = s_cmds_dup,
};

/* ---------------------------------------------------------------- phrases */

bool lst_config__file_only(const struct lst_opt *o)
{
	return o->ops == &lst_config__cmds_ops;
}

const char *lst_config__what(const struct lst_opt *o)
{
	if (o->ops)
		return o->ops->range;
	switch (o->type) {
	case LST_OPT_BOOL:
		return "true or false";
	case LST_OPT_DURATION:
		return "a duration such as 10m or 600s";
	case LST_OPT_SIZE:
		return "a size such as 4g or 512m";
	default:
		return "a number";
	}
}
