/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Access distributions in fio's text form (lst_mix.h): the parser every reader uses (plans,
 * bench flags, the wire) and the formatter that writes the same text back. Parameters are
 * checked here, once, so a value that parses is one the agent's generator (agent/io/
 * lst_offset.c) can draw from without further checks. Numbers are formatted with the fewest
 * digits that read back to the same double, so format(parse(x)) parses to the same value.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_mix.h"

const char *const lst_dist_names[] = { "random", "zipf", "pareto", "normal", "zoned", NULL };

/* A whole, finite decimal number, or false. */
static bool s_number(const char *s, double *v)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !errno && !*end && isfinite(*v);
}

/* A whole non-negative integer of at most 3 digits (zone percentages), or -1. */
static int64_t s_pct(const char *s, const char *end)
{
	int64_t v = 0;

	if (s == end || end - s > 3)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

static int s_param(struct lst_dist *d, enum lst_dist_kind kind, const char *arg, lst_err *err)
{
	double v;

	d->kind = kind;
	if (!arg)
		return lst_err_set(err, -EINVAL, "%s needs a parameter (%s:N)",
				   lst_dist_names[kind], lst_dist_names[kind]);
	if (!s_number(arg, &v))
		return lst_err_set(err, -EINVAL, "%s parameter '%s' is not a number",
				   lst_dist_names[kind], arg);
	switch (kind) {
	case LST_DIST_ZIPF:
		if (!(v > 0 && v <= 100) || v == 1)
			return lst_err_set(err, -ERANGE,
					   "zipf:θ needs θ > 0 and at most 100, not 1 (got %s)",
					   arg);
		break;
	case LST_DIST_PARETO:
		if (!(v > 0 && v < 1))
			return lst_err_set(err, -ERANGE, "pareto:h needs 0 < h < 1 (got %s)", arg);
		break;
	default: /* normal */
		if (!(v > 0 && v <= 100))
			return lst_err_set(err, -ERANGE,
					   "normal:σ needs σ (percent of the region) in (0, 100] "
					   "(got %s)",
					   arg);
		break;
	}
	d->param = v;
	return 0;
}

/* One zone "A/S" in [s, end). */
static int s_zone(struct lst_zone *z, const char *s, const char *end, lst_err *err)
{
	const char *slash = memchr(s, '/', (size_t)(end - s));

	if (!slash)
		return lst_err_set(err, -EINVAL, "zoned: zone '%.*s' is not ACCESS%%/SIZE%%",
				   (int)(end - s), s);
	z->access_pct = s_pct(s, slash);
	z->size_pct = s_pct(slash + 1, end);
	if (z->access_pct < 0 || z->size_pct < 0)
		return lst_err_set(err, -EINVAL,
				   "zoned: zone '%.*s' needs whole percentages ACCESS/SIZE",
				   (int)(end - s), s);
	if (z->access_pct > 100 || z->size_pct < 1 || z->size_pct > 100)
		return lst_err_set(err, -ERANGE,
				   "zoned: zone '%.*s' needs ACCESS in 0..100 and SIZE in 1..100",
				   (int)(end - s), s);
	return 0;
}

static int s_zones(struct lst_dist *d, const char *arg, lst_err *err)
{
	int64_t access = 0, size = 0;
	int rc;

	d->kind = LST_DIST_ZONED;
	if (!arg || !*arg)
		return lst_err_set(err, -EINVAL, "zoned needs zones (zoned:A/S:A/S...)");
	for (const char *s = arg;;) {
		const char *end = strchr(s, ':');

		if (!end)
			end = s + strlen(s);
		if (d->nzones == LST_ZONES_MAX)
			return lst_err_set(err, -ERANGE, "zoned: more than %d zones",
					   LST_ZONES_MAX);
		rc = s_zone(&d->zone[d->nzones], s, end, err);
		if (rc)
			return rc;
		access += d->zone[d->nzones].access_pct;
		size += d->zone[d->nzones].size_pct;
		d->nzones++;
		if (!*end)
			break;
		s = end + 1;
	}
	if (access != 100 || size != 100)
		return lst_err_set(err, -ERANGE,
				   "zoned: the zones' shares of I/Os add up to %lld%% and their "
				   "sizes to %lld%%; both must add up to 100",
				   (long long)access, (long long)size);
	return 0;
}

int lst_dist_parse(struct lst_dist *d, const char *text, lst_err *err)
{
	char kind[16];
	const char *colon = strchr(text, ':');
	size_t n = colon ? (size_t)(colon - text) : strlen(text);
	const char *arg = colon ? colon + 1 : NULL;

	memset(d, 0, sizeof(*d));
	if (n >= sizeof(kind))
		n = sizeof(kind) - 1;
	memcpy(kind, text, n);
	kind[n] = '\0';
	if (!strcmp(kind, "random") || !strcmp(kind, "uniform")) {
		if (arg)
			return lst_err_set(err, -EINVAL, "random takes no parameter");
		return 0;
	}
	if (!strcmp(kind, "zipf"))
		return s_param(d, LST_DIST_ZIPF, arg, err);
	if (!strcmp(kind, "pareto"))
		return s_param(d, LST_DIST_PARETO, arg, err);
	if (!strcmp(kind, "normal"))
		return s_param(d, LST_DIST_NORMAL, arg, err);
	if (!strcmp(kind, "zoned"))
		return s_zones(d, arg, err);
	return lst_err_set(err, -EINVAL,
			   "unknown distribution '%s' (random, zipf:θ, pareto:h, normal:σ or "
			   "zoned:A/S:...)",
			   text);
}

/* The shortest %g form of v that reads back as v. */
static void s_fmt_double(double v, char *buf, size_t size)
{
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

const char *lst_dist_format(const struct lst_dist *d, char *buf, size_t size)
{
	char num[32];
	size_t len;

	switch (d->kind) {
	case LST_DIST_ZIPF:
	case LST_DIST_PARETO:
	case LST_DIST_NORMAL:
		s_fmt_double(d->param, num, sizeof(num));
		snprintf(buf, size, "%s:%s", lst_dist_names[d->kind], num);
		return buf;
	case LST_DIST_ZONED:
		len = (size_t)snprintf(buf, size, "zoned");
		for (int64_t i = 0; i < d->nzones && i < LST_ZONES_MAX && len < size; i++)
			len += (size_t)snprintf(buf + len, size - len, ":%lld/%lld",
						(long long)d->zone[i].access_pct,
						(long long)d->zone[i].size_pct);
		return buf;
	default:
		snprintf(buf, size, "random");
		return buf;
	}
}

static int s_opt_parse(void *val, const char *text, lst_err *err)
{
	return lst_dist_parse(val, text, err);
}

static const char *s_opt_format(const void *val, char *buf, size_t size)
{
	return lst_dist_format(val, buf, size);
}

const struct lst_opt_ops lst_dist_opt_ops = {
	.size = sizeof(struct lst_dist),
	.parse = s_opt_parse,
	.format = s_opt_format,
	.range = "random|zipf:θ|pareto:h|normal:σ|zoned:A/S:...",
};
