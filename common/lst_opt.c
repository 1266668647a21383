/* SPDX-License-Identifier: Apache-2.0 */
/* Option-table machinery shared by flags, configs, plans and the wire codec. */
#include "lst_opt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lst_assert.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

static int64_t *s_field(const struct lst_opt *o, void *base)
{
	return (int64_t *)((char *)base + o->offset);
}

int64_t lst_opt_get(const struct lst_opt *o, const void *base)
{
	if (lst_opt_is_struct(o))
		return 0;
	return *(const int64_t *)((const char *)base + o->offset);
}

bool lst_opt_is_struct(const struct lst_opt *o)
{
	return o->ops || o->type == LST_OPT_TEXT;
}

size_t lst_opt_size(const struct lst_opt *o)
{
	if (o->ops)
		return o->ops->size;
	return o->type == LST_OPT_TEXT ? LST_OPT_TEXT_MAX : sizeof(int64_t);
}

void lst_opt_copy(const struct lst_opt *o, void *dst, const void *src)
{
	if (!o->ops || !o->ops->dup) {
		memcpy((char *)dst + o->offset, (const char *)src + o->offset, lst_opt_size(o));
		return;
	}
	lst_opt_clear(o, dst);
	o->ops->dup((char *)dst + o->offset, (const char *)src + o->offset);
}

void lst_opt_clear(const struct lst_opt *o, void *base)
{
	if (o->ops && o->ops->clear)
		o->ops->clear((char *)base + o->offset);
}

bool lst_opt_is_list(const struct lst_opt *o)
{
	return o->ops && o->ops->add;
}

int lst_opt_add(const struct lst_opt *o, void *base, const char *text, lst_err *err)
{
	lst_err perr;
	int rc;

	LST_ASSERT(lst_opt_is_list(o));
	rc = o->ops->add((char *)base + o->offset, text, &perr);
	if (rc)
		return lst_err_set(err, rc, "%s: %s", o->name, perr.msg);
	return 0;
}

const char *lst_opt_arg(const struct lst_opt *o)
{
	if (o->ops)
		return o->ops->arg ? o->ops->arg : "TEXT";
	switch (o->type) {
	case LST_OPT_BOOL:
		return NULL;
	case LST_OPT_SIZE:
		return "SIZE";
	case LST_OPT_DURATION:
		return "DURATION";
	case LST_OPT_INT:
		return "N";
	default:
		return "TEXT";
	}
}

bool lst_opt_equal(const struct lst_opt *o, const void *a, const void *b)
{
	char ta[LST_OPT_WIRE_MAX], tb[LST_OPT_WIRE_MAX];

	if (!lst_opt_is_struct(o))
		return lst_opt_get(o, a) == lst_opt_get(o, b);
	/* Padding and unused entries may differ: compare what the values say. */
	return !strcmp(lst_opt_format(o, a, ta, sizeof(ta)), lst_opt_format(o, b, tb, sizeof(tb)));
}

void lst_opt_defaults(const struct lst_opt *table, void *base)
{
	for (const struct lst_opt *o = table; o->name; o++) {
		lst_err err;
		int rc;

		if (!o->def)
			continue;
		rc = lst_opt_parse(o, base, o->def, &err);
		/* A default that does not parse is a programming error in the table. */
		if (rc)
			fprintf(stderr, "option table: %s\n", err.msg);
		LST_ASSERT(rc == 0);
	}
}

const struct lst_opt *lst_opt_find(const struct lst_opt *table, const char *name)
{
	for (const struct lst_opt *o = table; o->name; o++)
		if (!strcmp(o->name, name) || (o->fio && !strcmp(o->fio, name)))
			return o;
	return NULL;
}

/* Edits a name of len bytes may take and still be suggested: 1, one more per 4 bytes, at most 3. */
static size_t s_suggest_limit(size_t len)
{
	return LST_MIN(1 + len / 4, (size_t)3);
}

/* Whether candidate is near enough to word to suggest, and nearer than *best_d (updated). */
static bool s_nearer(const char *word, const char *candidate, size_t *best_d)
{
	size_t d = lst_text_distance(word, candidate);

	if (d >= *best_d || d > s_suggest_limit(strlen(candidate)) || d >= strlen(candidate) ||
	    d >= strlen(word))
		return false;
	*best_d = d;
	return true;
}

const char *lst_opt_suggest_name(const struct lst_opt *table, const char *name)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;

	for (const struct lst_opt *o = table; o->name; o++) {
		if (s_nearer(name, o->name, &best_d))
			best = o->name;
		if (o->fio && s_nearer(name, o->fio, &best_d))
			best = o->fio;
	}
	return best;
}

const struct lst_opt *lst_opt_suggest(const struct lst_opt *table, const char *name)
{
	const char *best = lst_opt_suggest_name(table, name);

	return best ? lst_opt_find(table, best) : NULL;
}

static const char *s_fmt_range_value(const struct lst_opt *o, int64_t v, char *buf, size_t size)
{
	if (o->type == LST_OPT_SIZE)
		return lst_fmt_size((uint64_t)v, buf, size);
	if (o->type == LST_OPT_DURATION)
		return lst_fmt_duration(v, buf, size);
	snprintf(buf, size, "%" PRId64, v);
	return buf;
}

int lst_opt_set_int(const struct lst_opt *o, void *base, int64_t v, lst_err *err)
{
	char lo[32], hi[32];

	if (lst_opt_is_struct(o))
		return lst_err_set(err, -EINVAL, "%s takes text (%s), not a number", o->name,
				   o->def);
	switch (o->type) {
	case LST_OPT_BOOL:
		if (v != 0 && v != 1)
			return lst_err_set(err, -EINVAL, "%s must be true or false", o->name);
		break;
	case LST_OPT_ENUM: {
		int64_t n = 0;

		while (o->choices[n])
			n++;
		if (v < 0 || v >= n)
			return lst_err_set(err, -EINVAL, "%s: choice %" PRId64 " does not exist",
					   o->name, v);
		break;
	}
	case LST_OPT_PATTERN:
		if (v < 0 || v > 100)
			return lst_err_set(err, -EINVAL,
					   "%s: compressibility must be 0..100 percent", o->name);
		break;
	default:
		if (v < o->min && o->max == INT64_MAX) /* no upper bound to speak of */
			return lst_err_set(err, -ERANGE, "%s must be at least %s", o->name,
					   s_fmt_range_value(o, o->min, lo, sizeof(lo)));
		if (v < o->min || v > o->max)
			return lst_err_set(err, -ERANGE, "%s must be between %s and %s", o->name,
					   s_fmt_range_value(o, o->min, lo, sizeof(lo)),
					   s_fmt_range_value(o, o->max, hi, sizeof(hi)));
	}
	*s_field(o, base) = v;
	return 0;
}

/* A LST_OPT_TEXT value: a name (it becomes part of a file name on an agent), so no '/', no
 * leading dot, nothing outside [A-Za-z0-9._-]; "" or "none" clears it. */
static int s_parse_text(const struct lst_opt *o, const char *text, char *field, lst_err *err)
{
	size_t n = strlen(text);

	if (!n || !strcmp(text, "none")) {
		field[0] = '\0';
		return 0;
	}
	if (n >= LST_OPT_TEXT_MAX)
		return lst_err_set(err, -ERANGE, "%s: '%.20s...' is longer than %d characters",
				   o->name, text, LST_OPT_TEXT_MAX - 1);
	if (text[0] == '.')
		return lst_err_set(err, -EINVAL, "%s: '%s' may not start with a dot", o->name,
				   text);
	for (size_t i = 0; i < n; i++) {
		char c = text[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return lst_err_set(err, -EINVAL,
					   "%s: '%s' has '%c' at %zu: a name is letters, digits, "
					   "'.', '_' and '-' (no folders)",
					   o->name, text, c, i + 1);
	}
	memcpy(field, text, n + 1);
	return 0;
}

static int s_parse_pattern(const struct lst_opt *o, const char *text, int64_t *v, lst_err *err)
{
	const char *num = NULL;
	lst_err perr;
	int64_t n;

	if (!strcasecmp(text, "random")) {
		*v = 100;
		return 0;
	}
	if (!strcasecmp(text, "zeros") || !strcasecmp(text, "zero")) {
		*v = 0;
		return 0;
	}
	if (!strncasecmp(text, "compressible=", 13))
		num = text + 13;
	else if (text[0] && text[strlen(text) - 1] == '%')
		num = text;
	if (num && strlen(num) < 16) {
		char tmp[16];

		snprintf(tmp, sizeof(tmp), "%s", num);
		if (tmp[0] && tmp[strlen(tmp) - 1] == '%')
			tmp[strlen(tmp) - 1] = '\0';
		if (!lst_parse_int(tmp, 1, 100, &n, &perr)) {
			*v = n;
			return 0;
		}
	}
	return lst_err_set(err, -EINVAL,
			   "%s: '%s' is not a data pattern (random, zeros, or compressible=N "
			   "where N%% is the size the data compresses to)",
			   o->name, text);
}

/* A structured value: into a scratch copy first, so a value that does not parse leaves the
 * field as it was. */
static int s_parse_struct(const struct lst_opt *o, void *base, const char *text, lst_err *err)
{
	const struct lst_opt_ops *ops = o->ops;
	void *tmp = lst_calloc(1, ops->size);
	lst_err perr;
	int rc = ops->parse(tmp, text, &perr);

	if (!rc) {
		lst_opt_clear(o, base);
		memcpy((char *)base + o->offset, tmp, ops->size);
	}
	free(tmp);
	if (rc)
		return lst_err_set(err, rc, "%s: %s", o->name, perr.msg);
	return 0;
}

int lst_opt_parse(const struct lst_opt *o, void *base, const char *text, lst_err *err)
{
	lst_err perr;
	int64_t v = 0;
	int rc = 0;

	if (!text)
		return lst_err_set(err, -EINVAL, "%s needs a value", o->name);
	if (o->ops)
		return s_parse_struct(o, base, text, err);
	switch (o->type) {
	case LST_OPT_INT:
		rc = lst_parse_int(text, INT64_MIN, INT64_MAX, &v, &perr);
		break;
	case LST_OPT_SIZE: {
		uint64_t u = 0;

		rc = lst_parse_size(text, &u, &perr);
		if (!rc && u > INT64_MAX)
			rc = lst_err_set(&perr, -ERANGE, "'%s' is too large", text);
		v = (int64_t)u;
		break;
	}
	case LST_OPT_DURATION:
		rc = lst_parse_duration(text, &v, &perr);
		break;
	case LST_OPT_BOOL: {
		bool b = false;

		rc = lst_parse_bool(text, &b, &perr);
		v = b;
		break;
	}
	case LST_OPT_ENUM:
		rc = -EINVAL;
		for (int64_t i = 0; o->choices[i]; i++) {
			if (!strcasecmp(text, o->choices[i])) {
				v = i;
				rc = 0;
			}
		}
		if (rc) {
			char choices[256];

			return lst_err_set(err, -EINVAL, "%s: '%s' is not one of %s", o->name, text,
					   lst_opt_describe_range(o, choices, sizeof(choices)));
		}
		break;
	case LST_OPT_PATTERN:
		return s_parse_pattern(o, text, s_field(o, base), err);
	case LST_OPT_TEXT:
		return s_parse_text(o, text, (char *)base + o->offset, err);
	default:
		/* A structured type without its ops is a bug in the table, not in the input. */
		LST_ASSERT(!"a structured option without ops");
	}
	if (rc)
		return lst_err_set(err, rc, "%s: %s", o->name, perr.msg);
	return lst_opt_set_int(o, base, v, err);
}

const char *lst_opt_format(const struct lst_opt *o, const void *base, char *buf, size_t size)
{
	int64_t v = lst_opt_get(o, base);

	if (o->ops)
		return o->ops->format((const char *)base + o->offset, buf, size);
	switch (o->type) {
	case LST_OPT_TEXT:
		snprintf(buf, size, "%s", (const char *)base + o->offset);
		return buf;
	case LST_OPT_BOOL:
		snprintf(buf, size, "%s", v ? "true" : "false");
		break;
	case LST_OPT_ENUM:
		snprintf(buf, size, "%s", o->choices[v]);
		break;
	case LST_OPT_PATTERN:
		if (v == 100)
			snprintf(buf, size, "random");
		else if (v == 0)
			snprintf(buf, size, "zeros");
		else
			snprintf(buf, size, "compressible=%" PRId64, v);
		break;
	case LST_OPT_SIZE: {
		static const char *sfx = "kmgt";
		int i = -1;

		while (v && v % 1024 == 0 && i < 3) {
			v /= 1024;
			i++;
		}
		if (i >= 0)
			snprintf(buf, size, "%" PRId64 "%c", v, sfx[i]);
		else
			snprintf(buf, size, "%" PRId64, v);
		break;
	}
	case LST_OPT_DURATION:
		if (v % LST_NS_PER_S == 0)
			snprintf(buf, size, "%" PRId64 "s", v / LST_NS_PER_S);
		else if (v % LST_NS_PER_MS == 0)
			snprintf(buf, size, "%" PRId64 "ms", v / LST_NS_PER_MS);
		else if (v % LST_NS_PER_US == 0)
			snprintf(buf, size, "%" PRId64 "us", v / LST_NS_PER_US);
		else
			snprintf(buf, size, "%" PRId64 "ns", v);
		break;
	default:
		snprintf(buf, size, "%" PRId64, v);
	}
	return buf;
}

const char *lst_opt_describe_range(const struct lst_opt *o, char *buf, size_t size)
{
	char lo[32], hi[32];
	size_t n = 0;

	buf[0] = '\0';
	if (o->ops) {
		snprintf(buf, size, "%s", o->ops->range);
		return buf;
	}
	switch (o->type) {
	case LST_OPT_BOOL:
		snprintf(buf, size, "true|false");
		break;
	case LST_OPT_ENUM:
		for (int i = 0; o->choices[i] && n < size; i++)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "|" : "",
					      o->choices[i]);
		break;
	case LST_OPT_PATTERN:
		snprintf(buf, size, "random|zeros|compressible=N");
		break;
	case LST_OPT_TEXT:
		snprintf(buf, size, "a name of [A-Za-z0-9._-], at most %d characters",
			 LST_OPT_TEXT_MAX - 1);
		break;
	default:
		snprintf(buf, size, "%s .. %s", s_fmt_range_value(o, o->min, lo, sizeof(lo)),
			 s_fmt_range_value(o, o->max, hi, sizeof(hi)));
	}
	return buf;
}
