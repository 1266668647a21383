/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan's YAML primitives, below every reader of the library: the errors with their places
 * (only the first LST_ERRLIST_MAX by place are kept, then sorted), and one value of a key read
 * as a scalar's text, a map, a list or a percentage, each saying why when it cannot.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lst_plan_int.h"
#include "lst_text.h"
#include "lst_util.h"

static int s_error_cmp(const void *a, const void *b)
{
	const struct lst__plan_msg *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The slot for error e among the kept ones: a free one, else the one furthest down the file
 * when e comes before it, else NULL (e is only counted). Only the first LST_ERRLIST_MAX by
 * place are printed, so only they are kept, whatever the number of errors.
 */
static struct lst__plan_msg *s_error_slot(struct lst__plan_ctx *ctx, const struct lst__plan_msg *e)
{
	struct lst__plan_msg *last;

	if (!ctx->errs)
		ctx->errs = lst_calloc(LST_ERRLIST_MAX, sizeof(*ctx->errs));
	if (ctx->nkept < LST_ERRLIST_MAX)
		return &ctx->errs[ctx->nkept++];
	last = &ctx->errs[0];
	for (size_t i = 1; i < ctx->nkept; i++)
		if (s_error_cmp(&ctx->errs[i], last) > 0)
			last = &ctx->errs[i];
	if (s_error_cmp(e, last) > 0)
		return NULL;
	free(last->msg);
	return last;
}

void lst__plan_error_at(struct lst__plan_ctx *ctx, int line, int col, const char *fmt, ...)
{
	char buf[2 * LST_ERR_MAX];
	struct lst__plan_msg e = { .line = line, .col = col, .seq = ctx->nerrs++ }, *slot;
	va_list ap;

	slot = s_error_slot(ctx, &e);
	if (!slot)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Messages quote the plan's text: nothing in it reaches the terminal as a control
	 * (a tab or newline in a name, which only its own check refuses). */
	lst_str_sanitize(buf);
	e.msg = lst_strdup(buf);
	*slot = e;
}

void lst__plan_node_err(void *arg, int line, int col, const char *msg)
{
	lst__plan_error_at(arg, line, col, "%s", msg);
}

int64_t lst__plan_pct(const char *s, size_t n)
{
	int64_t v = 0;

	if (n && s[n - 1] == '%')
		n--;
	if (!n || n > 3)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= 100 ? v : -1;
}

/*
 * The text of a scalar value, or NULL after saying why there is none: a map or a list where
 * one value belongs, or an empty value. Nodes already reported (aliases) stay silent.
 */
const char *lst__plan_scalar(struct lst__plan_ctx *ctx, const char *name,
			     const struct lst_yaml_node *v)
{
	if (v->bad) {
		ctx->nbad++;
		return NULL;
	}
	if (v->type != LST_YAML_SCALAR) {
		lst__plan_error(ctx, v, "%s must be a single value, not %s", name,
				lst_yaml_what(v));
		return NULL;
	}
	if (v->null && !strcasecmp(v->text, "null")) {
		/* `engine: null` is YAML's empty value, not the engine called null. */
		lst__plan_error(ctx, v,
				"%s needs a value: %s is YAML's empty value; quote it (\"%s\") if "
				"you mean the word",
				name, v->text, v->text);
		return NULL;
	}
	if (v->null) {
		lst__plan_error(ctx, v, "%s needs a value", name);
		return NULL;
	}
	return v->text;
}

/* v as a map, NULL for an empty value (no keys), or NULL after an error; *ok says which. */
const struct lst_yaml_node *lst__plan_map(struct lst__plan_ctx *ctx, const char *name,
					  const struct lst_yaml_node *v, bool *ok)
{
	*ok = !v->bad;
	if (v->bad) {
		ctx->nbad++;
		return NULL;
	}
	if (v->type == LST_YAML_MAP)
		return v;
	if (v->type == LST_YAML_SCALAR && v->null)
		return NULL;
	*ok = false;
	if (!v->bad)
		lst__plan_error(ctx, v, "%s must be a map of key: value, not %s", name,
				lst_yaml_what(v));
	return NULL;
}

/* Items of a list value: the count, 0 for an empty value, or -1 after an error. */
long lst__plan_list(struct lst__plan_ctx *ctx, const char *name, const struct lst_yaml_node *v)
{
	if (v->bad) {
		ctx->nbad++;
		return -1;
	}
	if (v->type == LST_YAML_LIST)
		return (long)v->n;
	if (v->type == LST_YAML_SCALAR && v->null)
		return 0;
	lst__plan_error(ctx, v, "%s must be a list (- item, or [a, b]), not %s", name,
			lst_yaml_what(v));
	return -1;
}

size_t lst__plan_errors_report(struct lst__plan_ctx *ctx, const char *file, lst_errlist *errs)
{
	size_t n = ctx->nkept;

	if (n)
		qsort(ctx->errs, n, sizeof(*ctx->errs), s_error_cmp);
	for (size_t i = 0; i < n; i++) {
		/* line 0: a plan built in code (lst_plan_build) has no places to name */
		if (errs && ctx->errs[i].line)
			lst_errlist_add(errs, "%s:%d:%d: %s", file, ctx->errs[i].line,
					ctx->errs[i].col, ctx->errs[i].msg);
		else if (errs)
			lst_errlist_add(errs, "%s: %s", file, ctx->errs[i].msg);
		free(ctx->errs[i].msg);
	}
	if (errs)
		lst_errlist_add_more(errs, ctx->nerrs - n);
	free(ctx->errs);
	ctx->errs = NULL;
	ctx->nkept = 0;
	n = ctx->nerrs;
	ctx->nerrs = 0;
	return n;
}

bool lst__plan_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > LST__PLAN_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return false;
	return true;
}
