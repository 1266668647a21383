/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload mixes (vdbench's skew=): the text form of struct lst_skew and back.
 *
 * Entries are separated by ';', each a list of KEY=VALUE separated by spaces or tabs. share
 * (a whole percent 1..100, "60" or "60%") is required; the other keys are workload options
 * (rw, rwmixread, bs, offset, size, random_distribution, or their fio names where the table
 * has one) and each value is read by the workload table's own parser (lst_workload_parse on a
 * scratch struct lst_workload), so "rw=readwrite" or "bs=64k" means here what it means in a
 * plan, a flag or on the wire. Keys an entry leaves out take the table's defaults. Every error
 * names the entry (1-based) and the key. Formatting writes share, rw and bs always and the
 * other keys when they differ from the default, each with the table's formatter, so
 * format(parse(x)) parses back to an equal struct; the largest legal value (LST_SKEW_MAX
 * entries with every key at its longest) stays within LST_OPT_WIRE_MAX.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_mix.h"
#include "lst_util.h"
#include "lst_workload.h"

/* The keys an entry may give besides share: where each lives in an entry. */
static const struct {
	const char *name;
	size_t at; /* offset in struct lst_skew_entry */
} s_keys[] = {
	{ "rw", offsetof(struct lst_skew_entry, rw) },
	{ "rwmixread", offsetof(struct lst_skew_entry, rwmixread) },
	{ "bs", offsetof(struct lst_skew_entry, bs) },
	{ "offset", offsetof(struct lst_skew_entry, offset) },
	{ "size", offsetof(struct lst_skew_entry, size) },
	{ "random_distribution", offsetof(struct lst_skew_entry, dist) },
};

#define S_NKEYS (sizeof(s_keys) / sizeof(s_keys[0]))
#define S_TOKEN_MAX 512 /* longest KEY=VALUE */

/* The allowed keys' index in s_keys for an option, or -1. */
static int s_key_index(const struct lst_opt *o)
{
	for (size_t i = 0; o && i < S_NKEYS; i++)
		if (!strcmp(o->name, s_keys[i].name))
			return (int)i;
	return -1;
}

static const struct lst_opt *s_opt(size_t i)
{
	return lst_opt_find(lst_workload_opts, s_keys[i].name);
}

/* "unknown key" with the nearest allowed key (share and the options of s_keys, fio names
 * too), searched in a table of just those. */
static int s_unknown(int entry, const char *key, lst_err *err)
{
	struct lst_opt table[S_NKEYS + 2];
	const char *near;

	memset(table, 0, sizeof(table));
	table[0].name = "share";
	for (size_t i = 0; i < S_NKEYS; i++)
		table[i + 1] = *s_opt(i);
	near = lst_opt_suggest_name(table, key);
	if (near)
		return lst_err_set(err, -EINVAL, "entry %d: unknown key '%s' (did you mean '%s'?)",
				   entry, key, near);
	return lst_err_set(err, -EINVAL,
			   "entry %d: unknown key '%s' (keys: share, rw, rwmixread, bs, offset, "
			   "size, random_distribution)",
			   entry, key);
}

/* share=VALUE: a whole percent 1..100, "N" or "N%". */
static int s_share(int entry, const char *v, int64_t *share, lst_err *err)
{
	char num[8];
	size_t n = strlen(v);
	lst_err perr;

	if (n && v[n - 1] == '%')
		n--;
	if (n && n < sizeof(num)) {
		memcpy(num, v, n);
		num[n] = '\0';
		if (!lst_parse_int(num, 1, 100, share, &perr))
			return 0;
	}
	return lst_err_set(err, -ERANGE, "entry %d: share '%s' is not a whole percent 1..100",
			   entry, v);
}

/* One KEY=VALUE token into e; seen[] marks the keys given (index S_NKEYS is share). */
static int s_token(int entry, char *tok, struct lst_skew_entry *e, bool *seen, lst_err *err)
{
	char *eq = strchr(tok, '=');
	const struct lst_opt *o;
	struct lst_workload scratch;
	lst_err perr;
	int k;

	if (!eq || eq == tok)
		return lst_err_set(err, -EINVAL,
				   "entry %d: '%s' is not KEY=VALUE (like share=60 or bs=8k)",
				   entry, tok);
	*eq = '\0';
	if (!strcmp(tok, "share")) {
		if (seen[S_NKEYS])
			return lst_err_set(err, -EINVAL, "entry %d: share is given twice", entry);
		seen[S_NKEYS] = true;
		return s_share(entry, eq + 1, &e->share, err);
	}
	o = lst_opt_find(lst_workload_opts, tok);
	k = s_key_index(o);
	if (k < 0)
		return s_unknown(entry, tok, err);
	if (seen[k])
		return lst_err_set(err, -EINVAL, "entry %d: %s is given twice", entry, o->name);
	seen[k] = true;
	lst_workload_init(&scratch);
	if (lst_workload_parse(o, &scratch, eq + 1, &perr))
		return lst_err_set(err, perr.code ? perr.code : -EINVAL, "entry %d: %s", entry,
				   perr.msg);
	memcpy((char *)e + s_keys[k].at, (const char *)&scratch + o->offset, lst_opt_size(o));
	return 0;
}

/* Set e to the table's defaults (share 0: not given). */
static void s_entry_defaults(struct lst_skew_entry *e)
{
	struct lst_workload w;

	lst_workload_init(&w);
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < S_NKEYS; i++) {
		const struct lst_opt *o = s_opt(i);

		memcpy((char *)e + s_keys[i].at, (const char *)&w + o->offset, lst_opt_size(o));
	}
}

/* Parse one entry (text between ';', NUL-terminated and writable). */
static int s_entry(int entry, char *text, struct lst_skew_entry *e, lst_err *err)
{
	bool seen[S_NKEYS + 1] = { 0 };
	char *p = text;
	int ntok = 0;

	s_entry_defaults(e);
	for (;;) {
		char *tok;
		int rc;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
		rc = s_token(entry, tok, e, seen, err);
		if (rc)
			return rc;
		ntok++;
	}
	if (!ntok)
		return lst_err_set(err, -EINVAL,
				   "entry %d is empty (give share=PCT and keys, like share=60 "
				   "rw=randread bs=8k)",
				   entry);
	if (!seen[S_NKEYS])
		return lst_err_set(
			err, -EINVAL,
			"entry %d has no share (every entry gives share=PCT, the entries' "
			"adding up to 100)",
			entry);
	return 0;
}

int lst_skew_parse(struct lst_skew *s, const char *text, lst_err *err)
{
	char *copy, *p;
	int64_t sum = 0;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!text)
		return lst_err_set(err, -EINVAL, "no value");
	if (!text[0] || !strcmp(text, "none"))
		return 0;
	copy = lst_strdup(text);
	p = copy;
	for (int entry = 1; !rc; entry++) {
		char *semi = strchr(p, ';');

		if (semi)
			*semi = '\0';
		if (s->n == LST_SKEW_MAX)
			rc = lst_err_set(err, -EINVAL, "more than %d entries", LST_SKEW_MAX);
		else
			rc = s_entry(entry, p, &s->e[s->n], err);
		if (rc)
			break;
		sum += s->e[s->n++].share;
		if (!semi)
			break;
		p = semi + 1;
	}
	free(copy);
	if (!rc && sum != 100)
		rc = lst_err_set(err, -EINVAL, "shares add up to %lld, not 100", (long long)sum);
	if (rc)
		memset(s, 0, sizeof(*s));
	return rc;
}

/* Append " KEY=VALUE" for key i of e to buf at *at, unless it is the default and optional. */
static void s_format_key(const struct lst_skew_entry *e, const struct lst_skew_entry *def, size_t i,
			 char *buf, size_t size, size_t *at)
{
	const struct lst_opt *o = s_opt(i);
	struct lst_workload w;
	char val[LST_OPT_WIRE_MAX];
	bool always = !strcmp(o->name, "rw") || !strcmp(o->name, "bs");
	int n;

	if (!always && !memcmp((const char *)e + s_keys[i].at, (const char *)def + s_keys[i].at,
			       lst_opt_size(o)))
		return;
	lst_workload_init(&w);
	memcpy((char *)&w + o->offset, (const char *)e + s_keys[i].at, lst_opt_size(o));
	lst_opt_format(o, &w, val, sizeof(val));
	n = snprintf(buf + *at, *at < size ? size - *at : 0, " %s=%s", o->name, val);
	if (n > 0)
		*at += (size_t)n;
}

const char *lst_skew_format(const struct lst_skew *s, char *buf, size_t size)
{
	struct lst_skew_entry def;
	size_t at = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!s->n) {
		snprintf(buf, size, "none");
		return buf;
	}
	s_entry_defaults(&def);
	for (int64_t i = 0; i < s->n && i < LST_SKEW_MAX; i++) {
		int n = snprintf(buf + at, at < size ? size - at : 0, "%sshare=%lld", i ? "; " : "",
				 (long long)s->e[i].share);

		if (n > 0)
			at += (size_t)n;
		for (size_t k = 0; k < S_NKEYS; k++)
			s_format_key(&s->e[i], &def, k, buf, size, &at);
	}
	return buf;
}

static int s_opt_parse(void *val, const char *text, lst_err *err)
{
	return lst_skew_parse(val, text, err);
}

static const char *s_opt_format(const void *val, char *buf, size_t size)
{
	return lst_skew_format(val, buf, size);
}

const struct lst_opt_ops lst_skew_opt_ops = {
	.size = sizeof(struct lst_skew),
	.parse = s_opt_parse,
	.format = s_opt_format,
	.range = "none|share=PCT KEY=VALUE...; share=PCT ...",
};
