/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --where language of lst_catwhere.h: parsed once into terms, each a key, an operator and
 * a value (with its compiled expression for ~), evaluated per run in memory. The catalog keeps
 * this out of SQL because firmware and versions compare as version strings, which neither
 * backend offers, and a lab's catalog of thousands of runs fits in memory.
 */
#include <errno.h>
#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_catalog.h"
#include "lst_catwhere.h"
#include "lst_util.h"

#define S_MAX_TERMS 32

enum s_op { S_EQ, S_NE, S_LT, S_LE, S_GT, S_GE, S_RE };

struct s_term {
	const char *key; /* a static name of s_keys */
	enum s_op op;
	char *value;
	regex_t re; /* op S_RE */
};

struct lst_catwhere {
	size_t n;
	struct s_term t[S_MAX_TERMS];
};

/* Where a key's values are: each device's, each agent's, or the run's one. */
enum s_of { S_DEVICE, S_AGENT, S_RUN, S_DATE };

#define S_DEV(f) S_DEVICE, offsetof(struct lst_cat_device, f)
#define S_AG(f) S_AGENT, offsetof(struct lst_cat_agent, f)
#define S_ONE(f) S_RUN, offsetof(struct lst_cat_run, f)

/* The keys: where each value is (a char * field at off), and whether it compares as a version
 * string. */
static const struct {
	const char *name;
	enum s_of of;
	size_t off;
	bool version;
} s_keys[] = {
	{ "model", S_DEV(model), false },	{ "vendor", S_DEV(vendor), false },
	{ "serial", S_DEV(serial), false },	{ "firmware", S_DEV(firmware), true },
	{ "wwn", S_DEV(wwn), false },		{ "target", S_DEV(target), false },
	{ "host", S_AG(host), false },		{ "kernel", S_AG(kernel), true },
	{ "agent", S_AG(name), false },		{ "version", S_ONE(version), true },
	{ "plan", S_ONE(plan_name), false },	{ "status", S_ONE(status), false },
	{ "run", S_ONE(run_id), false },	{ "started", S_ONE(started), false },
	{ "finished", S_ONE(finished), false }, { "date", S_DATE, 0, false },
	{ "path", S_ONE(path), false },		{ "sha1", S_ONE(plan_sha1), false },
};

#define S_NKEYS (sizeof(s_keys) / sizeof(s_keys[0]))

static int s_key(const char *name, size_t len)
{
	for (size_t i = 0; i < S_NKEYS; i++)
		if (strlen(s_keys[i].name) == len && !strncmp(s_keys[i].name, name, len))
			return (int)i;
	return -1;
}

bool lst_catwhere_is_key(const char *key)
{
	return s_key(key, strlen(key)) >= 0;
}

int lst_catwhere_cmp(const char *key, const char *a, const char *b)
{
	int k = s_key(key, strlen(key));

	return k >= 0 && s_keys[k].version ? strverscmp(a, b) : strcmp(a, b);
}

/* The char * field at off of the struct at base; a value the catalog lacks (a device whose
 * firmware is unknown) reads as "". */
static const char *s_field(const void *base, size_t off)
{
	const char *v = *(char *const *)((const char *)base + off);

	return v ? v : "";
}

const char *lst_catwhere_value(const struct lst_cat_run *r, const char *key, size_t i, char *buf)
{
	int k = s_key(key, strlen(key));

	if (k < 0)
		return NULL;
	switch (s_keys[k].of) {
	case S_DEVICE:
		return i < r->ndevices ? s_field(&r->devices[i], s_keys[k].off) : NULL;
	case S_AGENT:
		return i < r->nagents ? s_field(&r->agents[i], s_keys[k].off) : NULL;
	case S_DATE:
		if (i)
			return NULL;
		snprintf(buf, 11, "%s", r->started ? r->started : "");
		return buf;
	default:
		return i ? NULL : s_field(r, s_keys[k].off);
	}
}

static void s_key_list(char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < S_NKEYS && off < size; i++)
		off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? ", " : "",
					s_keys[i].name);
}

/* The operator at s: its kind and length, or -1. */
static int s_op(const char *s, enum s_op *op)
{
	static const struct {
		const char *text;
		enum s_op op;
	} ops[] = { { "!=", S_NE }, { "<=", S_LE }, { ">=", S_GE }, { "=", S_EQ },
		    { "<", S_LT },  { ">", S_GT },  { "~", S_RE } };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(s, ops[i].text, strlen(ops[i].text))) {
			*op = ops[i].op;
			return (int)strlen(ops[i].text);
		}
	return -1;
}

/* One term at text + *pos, into t; *pos moves past it. */
static int s_term(const char *text, size_t *pos, struct s_term *t, lst_err *err)
{
	const char *s = text + *pos, *k = s, *v, *end;
	size_t col = *pos + 1, klen;
	char keys[512];
	int oplen, ki, rc;

	while (*s && !strchr("=!<>~ \t", *s))
		s++;
	klen = (size_t)(s - k);
	end = s;
	while (*end && *end != ' ' && *end != '\t')
		end += *end == '"' && strchr(end + 1, '"') ? strchr(end + 1, '"') - end + 1 : 1;
	if (!klen || (oplen = s_op(s, &t->op)) < 0)
		return lst_err_set(err, -EINVAL,
				   "--where: column %zu: '%.*s': not KEY OP VALUE (OP one of = != "
				   "< <= > >= ~)",
				   col, (int)(end - k), k);
	if ((ki = s_key(k, klen)) < 0) {
		s_key_list(keys, sizeof(keys));
		return lst_err_set(err, -EINVAL,
				   "--where: column %zu: '%.*s': no key %.*s (keys: %s)", col,
				   (int)(end - k), k, (int)klen, k, keys);
	}
	t->key = s_keys[ki].name;
	v = s + oplen;
	if (*v == '"' && end > v + 1 && end[-1] == '"')
		t->value = lst_asprintf("%.*s", (int)(end - v - 2), v + 1);
	else
		t->value = lst_asprintf("%.*s", (int)(end - v), v);
	if (!*t->value && t->op != S_EQ && t->op != S_NE)
		return lst_err_set(err, -EINVAL, "--where: column %zu: '%.*s': no value", col,
				   (int)(end - k), k);
	if (t->op == S_RE && (rc = regcomp(&t->re, t->value, REG_EXTENDED | REG_NOSUB))) {
		char msg[256];

		regerror(rc, &t->re, msg, sizeof(msg));
		t->op = S_EQ; /* nothing compiled to free */
		return lst_err_set(err, -EINVAL, "--where: column %zu: '%.*s': %s", col,
				   (int)(end - k), k, msg);
	}
	*pos = (size_t)(end - text);
	return 0;
}

lst_catwhere *lst_catwhere_parse(const char *text, lst_err *err)
{
	lst_catwhere *w = lst_calloc(1, sizeof(*w));
	size_t pos = 0;

	for (;;) {
		while (text[pos] == ' ' || text[pos] == '\t')
			pos++;
		if (!text[pos])
			return w;
		if (w->n == S_MAX_TERMS) {
			lst_err_set(err, -EINVAL, "--where: column %zu: more than %d terms",
				    pos + 1, S_MAX_TERMS);
			break;
		}
		if (s_term(text, &pos, &w->t[w->n++], err))
			break;
	}
	lst_catwhere_destroy(&w);
	return NULL;
}

void lst_catwhere_destroy(lst_catwhere **p)
{
	if (!p || !*p)
		return;
	for (size_t i = 0; i < (*p)->n; i++) {
		if ((*p)->t[i].op == S_RE)
			regfree(&(*p)->t[i].re);
		free((*p)->t[i].value);
	}
	free(*p);
	*p = NULL;
}

static bool s_holds(const struct s_term *t, const char *v)
{
	int c;

	if (t->op == S_RE)
		return !regexec(&t->re, v, 0, NULL, 0);
	c = lst_catwhere_cmp(t->key, v, t->value);
	switch (t->op) {
	case S_EQ:
		return !c;
	case S_NE:
		return c;
	case S_LT:
		return c < 0;
	case S_LE:
		return c <= 0;
	case S_GT:
		return c > 0;
	default:
		return c >= 0;
	}
}

static bool s_match_term(const struct s_term *t, const struct lst_cat_run *r)
{
	char buf[11];
	const char *v;
	bool any = false;

	for (size_t i = 0; (v = lst_catwhere_value(r, t->key, i, buf)); i++) {
		if (t->op == S_NE && !s_holds(t, v))
			return false;
		if (t->op != S_NE && s_holds(t, v))
			return true;
		any = true;
	}
	/* a run without the key: equal to "" only, different from anything else */
	if (!any)
		return t->op == S_NE ? *t->value != 0 : t->op == S_EQ && !*t->value;
	return t->op == S_NE;
}

bool lst_catwhere_match(const lst_catwhere *w, const struct lst_cat_run *r)
{
	for (size_t i = 0; w && i < w->n; i++)
		if (!s_match_term(&w->t[i], r))
			return false;
	return true;
}
