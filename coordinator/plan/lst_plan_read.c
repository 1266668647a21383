/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan reader: the walk that turns a YAML tree (lst_yaml.h) into an lst_plan, driven by the
 * schema tables (lst_plan_schema.c).
 *
 * Keys are read in table order, not file order, so a target can name agents and a phase can
 * start from `defaults:` whatever order the file uses. Every problem is collected with its place
 * and reading goes on wherever it can; the messages are sorted by place at the end. Values are
 * read by kind in lst_plan_value.c; this file walks the maps and lists. The errors are kept,
 * and single values read, by lst_plan_yaml.c, below every reader.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lst_assert.h"
#include "lst_plan_int.h"
#include "lst_text.h"
#include "lst_util.h"

static void s_key_names(const struct lst__plan_key *keys, const char **names, size_t max)
{
	size_t n = 0;

	for (const struct lst__plan_key *k = keys; k->o.name && n + 1 < max; k++)
		names[n++] = k->o.name;
	names[n] = NULL;
}

static void s_parse_list_text(const struct lst__plan_key *k, void *base)
{
	/* A list default, written like "5s, 10s": split on commas. */
	size_t n = 1, i = 0;
	char *copy, *tok, *save = NULL;

	for (const char *c = k->o.def; *c; c++)
		n += *c == ',';
	copy = lst_strdup(k->o.def);
	if (k->kind == K_PCT_LIST) {
		double *v = lst_calloc(n, sizeof(*v));

		for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
			v[i++] = strtod(tok, NULL);
		free(*(double **)lst__plan_at(base, k->o.offset));
		*(double **)lst__plan_at(base, k->o.offset) = v;
	} else {
		int64_t *v = lst_calloc(n, sizeof(*v));

		for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			int rc = lst_parse_duration(tok, &v[i++], NULL);

			LST_ASSERT(rc == 0);
		}
		free(*(int64_t **)lst__plan_at(base, k->o.offset));
		*(int64_t **)lst__plan_at(base, k->o.offset) = v;
	}
	LST_ASSERT(i == n);
	*(size_t *)lst__plan_at(base, k->aux) = n;
	free(copy);
}

/* Apply a section's defaults to base, nested sections included. */
static void s_defaults(const struct lst__plan_section *sec, void *base)
{
	for (const struct lst__plan_key *k = sec->keys; k->o.name; k++) {
		lst_err err;
		int64_t v = 0;
		struct lst_opt tmp = k->o;

		switch (k->kind) {
		case K_OPT:
			if (k->o.def)
				LST_ASSERT(lst_opt_parse(&k->o, base, k->o.def, &err) == 0);
			break;
		case K_BOOL:
			tmp.offset = 0;
			LST_ASSERT(lst_opt_parse(&tmp, &v, k->o.def, &err) == 0);
			*(bool *)lst__plan_at(base, k->o.offset) = v;
			break;
		case K_DOUBLE:
			*(double *)lst__plan_at(base, k->o.offset) =
				k->o.def ? strtod(k->o.def, NULL) : 0;
			break;
		case K_WORKLOAD:
			lst_workload_init(lst__plan_at(base, k->o.offset));
			break;
		case K_SECTION:
		case K_TELEMETRY:
			s_defaults(k->sub, base);
			break;
		case K_PCT_LIST:
		case K_DURATION_LIST:
			s_parse_list_text(k, base);
			break;
		default:
			break;
		}
	}
}

/* Names are unique within a list: agents, targets and phases are named in results. */
static void s_unique_names(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			   const struct lst_yaml_node *v)
{
	lst_map *seen = lst_map_new();

	for (size_t i = 0; i < v->n; i++) {
		const struct lst_yaml_node *ni = lst_yaml_get(v->kids[i], "name", NULL), *nj;
		size_t j;

		if (!ni || ni->type != LST_YAML_SCALAR || lst_map_add_str(seen, ni->text, i, &j))
			continue;
		nj = lst_yaml_get(v->kids[j], "name", NULL);
		lst__plan_error(ctx, ni, "duplicate %s name '%s' (first at %d:%d)", sec->name,
				ni->text, nj->mark.line, nj->mark.col);
	}
	lst_map_destroy(&seen);
}

/*
 * The index of a list's items by their names as read (a name refused is not in it), for the
 * look-ups by name of the keys and lists after it (lst_plan_agent_index).
 */
static void s_name_index(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			 char *items, size_t n)
{
	lst_map **index = lst__plan_at(ctx->plan, sec->names);
	const struct lst__plan_key *k = sec->keys;

	while (k->o.name && k->kind != K_NAME)
		k++;
	LST_ASSERT(k->o.name);
	lst_map_destroy(index);
	*index = lst_map_new();
	for (size_t i = 0; i < n; i++) {
		const char *name = *(char **)lst__plan_at(items + i * sec->size, k->o.offset);

		if (name)
			lst_map_add_str(*index, name, i, NULL);
	}
}

void lst__plan_items(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		     const struct lst_yaml_node *v, void *base)
{
	const struct lst__plan_section *sec = k->sub;
	long n = lst__plan_list(ctx, k->o.name, v);
	char saved[sizeof(ctx->prefix)];
	char *items;

	if (n < 0)
		return;
	if (n < k->o.min) {
		lst__plan_error(ctx, v, "%s must list at least one %s", k->o.name, sec->name);
		return;
	}
	items = lst_calloc((size_t)n, sec->size);
	*(void **)lst__plan_at(base, k->o.offset) = items;
	*(size_t *)lst__plan_at(base, k->aux) = (size_t)n;
	memcpy(saved, ctx->prefix, sizeof(saved));
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *item = v->kids[i], *name;
		void *it = items + i * sec->size;
		bool ok;
		const struct lst_yaml_node *map = lst__plan_map(ctx, sec->name, item, &ok);

		*(struct lst_mark *)lst__plan_at(it, sec->mark_offset) = item->mark;
		s_defaults(sec, it);
		if (sec->init)
			sec->init(ctx, it);
		name = lst_yaml_get(map, "name", NULL);
		if (name && name->type == LST_YAML_SCALAR && !name->null)
			snprintf(ctx->prefix, sizeof(ctx->prefix), "%s%s %s: ", saved, sec->name,
				 name->text);
		else
			snprintf(ctx->prefix, sizeof(ctx->prefix), "%s%s %zu: ", saved, sec->name,
				 i + 1);
		if (ok) {
			size_t start = ctx->item_start;

			ctx->item_start = ctx->nerrs + ctx->nbad;
			lst__plan_section_read(ctx, sec, item, map, it);
			ctx->item_start = start;
		}
		memcpy(ctx->prefix, saved, sizeof(saved));
	}
	s_unique_names(ctx, sec, v);
	if (sec->names)
		s_name_index(ctx, sec, items, (size_t)n);
	if (sec->list_check)
		sec->list_check(ctx, v);
}

/*
 * Read the keys of map (NULL: given but empty) into base in table order, then report keys the
 * table does not know and run the section's checks. at is the value node, for places.
 */
void lst__plan_section_read(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			    const struct lst_yaml_node *at, const struct lst_yaml_node *map,
			    void *base)
{
	const char *names[64];

	for (const struct lst__plan_key *k = sec->keys; k->o.name; k++) {
		const struct lst_yaml_node *v = lst_yaml_get(map, k->o.name, NULL);

		if (v)
			lst__plan_value(ctx, sec, k, v, base);
		else if (k->required)
			lst__plan_error(ctx, at, "missing required key '%s'%s", k->o.name, sec->in);
	}
	s_key_names(sec->keys, names, LST_ARRAY_SIZE(names));
	for (size_t i = 0; map && i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i];
		char hint[512];

		bool known = false;

		if (kn->type != LST_YAML_SCALAR)
			continue;
		for (const struct lst__plan_key *k = sec->keys; k->o.name; k++)
			known = known || !strcmp(k->o.name, kn->text);
		if (!known && !(sec->unknown && sec->unknown(ctx, kn)))
			lst__plan_error(ctx, kn, "unknown key '%s'%s (%s)", kn->text, sec->in,
					lst_text_hint(kn->text, names, "keys", hint, sizeof(hint)));
	}
	if (sec->has_flag)
		*(bool *)lst__plan_at(base, sec->flag) = true;
	if (sec->check)
		sec->check(ctx, map, base);
}

/* The root of the file: an empty file and a root that is not a map each get one message. */
static void s_root(struct lst__plan_ctx *ctx, const struct lst_yaml_node *root)
{
	if (root && root->type == LST_YAML_SCALAR && root->null && !root->bad)
		lst__plan_error_at(ctx, 1, 1,
				   "the plan is empty; it needs lockstep: %d, name, agents, "
				   "targets and phases",
				   LST_PLAN_VERSION);
	else if (root && root->type != LST_YAML_MAP && !root->bad)
		lst__plan_error(ctx, root, "a plan must be a map of key: value at the top, not %s",
				lst_yaml_what(root));
	else if (root && root->type == LST_YAML_MAP)
		lst__plan_section_read(ctx, ctx->top, root, root, ctx->plan);
}

size_t lst__plan_read(lst_plan *p, const struct lst__plan_section *top, const char *text,
		      size_t len, const struct lst_yaml_node *tree, lst_errlist *errs)
{
	struct lst__plan_ctx ctx;
	struct lst_yaml_node *root = NULL;

	memset(&ctx, 0, sizeof(ctx));
	ctx.plan = p;
	ctx.top = top;
	s_defaults(top, p);
	if (!tree)
		tree = root = lst_yaml_load(text, len, "plan", lst__plan_node_err, &ctx);
	ctx.root = tree;
	s_root(&ctx, tree);
	lst_yaml_free(root);
	free(ctx.verified);
	lst_map_destroy(&ctx.phase_sels);
	return lst__plan_errors_report(&ctx, p->file, errs);
}
