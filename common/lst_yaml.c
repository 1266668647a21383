/* SPDX-License-Identifier: Apache-2.0 */
/*
 * YAML text to a tree of nodes with their places, from libyaml's event parser (lst_yaml.h).
 *
 * The tree is built with an explicit stack (no recursion on input), nesting is capped at
 * S_MAX_DEPTH so that a hostile file cannot exhaust the stack of the passes that walk the tree,
 * and every problem that is about YAML itself (syntax, anchors, aliases, duplicate keys) is
 * reported here, so the schema code of a plan or a config only ever sees plain data.
 */
#include "lst_yaml.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "lst_map.h"
#include "lst_util.h"

#define S_MAX_DEPTH 64

struct s_reader {
	const char *kind; /* "plan": the kind of file, in messages */
	lst_yaml_err_fn *err_fn;
	void *arg;
};

static void s_err(struct s_reader *r, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void s_err(struct s_reader *r, int line, int col, const char *fmt, ...)
{
	char msg[LST_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->err_fn(r->arg, line, col, msg);
}

static struct lst_yaml_node *s_new(enum lst_yaml_type type, yaml_mark_t m)
{
	struct lst_yaml_node *n = lst_calloc(1, sizeof(*n));

	n->type = type;
	n->mark.line = (int)m.line + 1;
	n->mark.col = (int)m.column + 1;
	return n;
}

static void s_add(struct lst_yaml_node *parent, struct lst_yaml_node *kid)
{
	/* Grow by doubling: n is a power of two exactly when the array is full. */
	if ((parent->n & (parent->n - 1)) == 0)
		parent->kids = lst_realloc(parent->kids,
					   (parent->n ? parent->n * 2 : 1) * sizeof(*parent->kids));
	parent->kids[parent->n++] = kid;
}

void lst_yaml_free(struct lst_yaml_node *n)
{
	/* Iterative, like the builder: turn the tree into a list by moving kids into an array. */
	struct lst_yaml_node **todo;
	size_t ntodo = 0, cap = 16;

	if (!n)
		return;
	todo = lst_malloc(cap * sizeof(*todo));
	todo[ntodo++] = n;
	while (ntodo) {
		struct lst_yaml_node *x = todo[--ntodo];

		for (size_t i = 0; i < x->n; i++) {
			if (ntodo == cap) {
				cap *= 2;
				todo = lst_realloc(todo, cap * sizeof(*todo));
			}
			todo[ntodo++] = x->kids[i];
		}
		free(x->kids);
		free(x->text);
		free(x);
	}
	free(todo);
}

const char *lst_yaml_what(const struct lst_yaml_node *n)
{
	if (n->type == LST_YAML_MAP)
		return "a map";
	if (n->type == LST_YAML_LIST)
		return "a list";
	return n->null ? "an empty value" : "text";
}

struct lst_yaml_node *lst_yaml_get(const struct lst_yaml_node *map, const char *key,
				   const struct lst_yaml_node **key_out)
{
	if (!map || map->type != LST_YAML_MAP)
		return NULL;
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		struct lst_yaml_node *k = map->kids[i];

		if (k->type == LST_YAML_SCALAR && !strcmp(k->text, key)) {
			if (key_out)
				*key_out = k;
			return map->kids[i + 1];
		}
	}
	return NULL;
}

/* Line and column (1-based) of a byte offset, for reader errors that carry only an offset. */
static void s_offset_place(const char *text, size_t len, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static void s_syntax_error(struct s_reader *r, const yaml_parser_t *p, const char *text, size_t len)
{
	int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;
	const char *problem = p->problem ? p->problem : "unknown problem";

	if (p->error == YAML_READER_ERROR) {
		s_offset_place(text, len, p->problem_offset, &line, &col);
		s_err(r, line, col, "cannot read the text: %s (%ss are UTF-8 text)", problem,
		      r->kind);
	} else if (p->context) {
		s_err(r, line, col, "YAML syntax error: %s (%s that starts at %d:%d)", problem,
		      p->context, (int)p->context_mark.line + 1, (int)p->context_mark.column + 1);
	} else {
		s_err(r, line, col, "YAML syntax error: %s", problem);
	}
}

static void s_anchor(struct s_reader *r, const yaml_char_t *anchor, yaml_mark_t m)
{
	if (anchor)
		s_err(r, (int)m.line + 1, (int)m.column + 1,
		      "anchor '&%s': anchors and aliases are not allowed in %ss; write the "
		      "value out in full",
		      (const char *)anchor, r->kind);
}

/* The first key before index i of map x with the text of key k, or NULL; seen indexes them
 * in a map of many keys (a target's paths for a thousand agents), NULL in a small one. */
static const struct lst_yaml_node *s_key_before(const struct lst_yaml_node *x, size_t i,
						const struct lst_yaml_node *k, lst_map *seen)
{
	size_t j;

	if (seen)
		return lst_map_add_str(seen, k->text, i, &j) ? NULL : x->kids[j];
	for (j = 0; j < i; j += 2)
		if (x->kids[j]->type == LST_YAML_SCALAR && !strcmp(x->kids[j]->text, k->text))
			return x->kids[j];
	return NULL;
}

/* Keys must be text and appear once per map. Walks with an explicit stack. */
static void s_check_keys(struct s_reader *r, struct lst_yaml_node *root)
{
	struct lst_yaml_node **todo;
	size_t ntodo = 0, cap = 16;

	todo = lst_malloc(cap * sizeof(*todo));
	todo[ntodo++] = root;
	while (ntodo) {
		struct lst_yaml_node *x = todo[--ntodo];
		lst_map *seen = x->type == LST_YAML_MAP && x->n > 32 ? lst_map_new() : NULL;

		for (size_t i = 0; x->type == LST_YAML_MAP && i + 1 < x->n; i += 2) {
			struct lst_yaml_node *k = x->kids[i];
			const struct lst_yaml_node *first;

			if (k->type != LST_YAML_SCALAR) {
				if (!k->bad)
					s_err(r, k->mark.line, k->mark.col,
					      "a key must be text, not %s", lst_yaml_what(k));
				k->bad = true;
				continue;
			}
			first = s_key_before(x, i, k, seen);
			if (first)
				s_err(r, k->mark.line, k->mark.col,
				      "duplicate key '%s' (first at %d:%d); give each key once",
				      k->text, first->mark.line, first->mark.col);
		}
		lst_map_destroy(&seen);
		for (size_t i = 0; i < x->n; i++) {
			if (ntodo == cap) {
				cap *= 2;
				todo = lst_realloc(todo, cap * sizeof(*todo));
			}
			todo[ntodo++] = x->kids[i];
		}
	}
	free(todo);
}

/*
 * Text a terminal would obey rather than show: a NUL (libyaml decodes "p\0x" to three bytes,
 * which C would read as "p"), an escape sequence, another control character, a C1 control or a
 * bidirectional override (lst_str_is_safe). Tab and newline pass here (a description may span
 * lines); names, addresses and paths refuse them where they are read. Returns false after
 * reporting the first such character, where its scalar starts.
 */
static bool s_text_ok(struct s_reader *r, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length, at = 0, bad;

	while (!lst_str_is_safe(v + at, len - at, &bad)) {
		unsigned char c = (unsigned char)v[at + bad];

		if (c == '\t' || c == '\n') {
			at += bad + 1;
			continue;
		}
		if (c == 0)
			s_err(r, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
			      "this text holds a NUL byte (\\0) at byte %zu; a %s's text cannot "
			      "hold one: remove it",
			      at + bad + 1, r->kind);
		else if (c < 0x80)
			s_err(r, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
			      "this text holds the control character 0x%02x at byte %zu (an escape "
			      "sequence or a forged line on a terminal); write plain text",
			      c, at + bad + 1);
		else
			s_err(r, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
			      "this text holds a control or direction-override character at byte "
			      "%zu (bytes 0x%02x...); write plain text",
			      at + bad + 1, c);
		return false;
	}
	return true;
}

/* A copy of the scalar's whole text (NULs too) with lst_str_sanitize's '?' for what is unsafe. */
static char *s_printable(const yaml_event_t *ev)
{
	size_t len = ev->data.scalar.length;
	char *t = lst_malloc(len + 1);

	memcpy(t, ev->data.scalar.value, len);
	for (size_t i = 0; i < len; i++)
		if (!t[i])
			t[i] = 0x1b; /* unsafe too: becomes '?' below */
	t[len] = 0;
	lst_str_sanitize(t);
	return t;
}

static bool s_is_null(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !*v || !strcmp(v, "~") || !strcasecmp(v, "null");
}

/* The node an event starts (a scalar, an alias, a list or a map), or NULL for other events. */
static struct lst_yaml_node *s_node_of(struct s_reader *r, const yaml_event_t *ev)
{
	struct lst_yaml_node *n = NULL;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		s_err(r, (int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1,
		      "alias '*%s': anchors and aliases are not allowed in %ss; "
		      "write the value out in full",
		      (const char *)ev->data.alias.anchor, r->kind);
		n = s_new(LST_YAML_SCALAR, ev->start_mark);
		n->text = lst_strdup("");
		n->null = true;
		n->bad = true;
		break;
	case YAML_SCALAR_EVENT:
		s_anchor(r, ev->data.scalar.anchor, ev->start_mark);
		n = s_new(LST_YAML_SCALAR, ev->start_mark);
		n->text = lst_strdup((const char *)ev->data.scalar.value);
		n->null = s_is_null(ev);
		if (!s_text_ok(r, ev)) {
			/* reported: later messages that quote it (an unknown key) show
			 * '?' for what a terminal would obey, a NUL included */
			free(n->text);
			n->text = s_printable(ev);
			n->bad = true;
		}
		break;
	case YAML_SEQUENCE_START_EVENT:
		s_anchor(r, ev->data.sequence_start.anchor, ev->start_mark);
		n = s_new(LST_YAML_LIST, ev->start_mark);
		break;
	case YAML_MAPPING_START_EVENT:
		s_anchor(r, ev->data.mapping_start.anchor, ev->start_mark);
		n = s_new(LST_YAML_MAP, ev->start_mark);
		break;
	default:
		break;
	}
	return n;
}

/* The tree being built: the open lists and maps, innermost last. */
struct s_builder {
	struct lst_yaml_node *stack[S_MAX_DEPTH + 1];
	int depth;
	struct lst_yaml_node *root;
};

/*
 * Hang n under the innermost open list or map (or make it the root), and open it when it is a
 * list or a map. Returns false, after reporting it, when that would nest too deep.
 */
static bool s_attach(struct s_reader *r, struct s_builder *b, struct lst_yaml_node *n)
{
	if (b->depth > 0)
		s_add(b->stack[b->depth - 1], n);
	else if (!b->root)
		b->root = n;
	else
		lst_yaml_free(n); /* cannot happen: one root per document */
	if (n->type == LST_YAML_SCALAR)
		return true;
	if (b->depth == S_MAX_DEPTH) {
		s_err(r, n->mark.line, n->mark.col, "nesting deeper than %d levels", S_MAX_DEPTH);
		return false;
	}
	b->stack[b->depth++] = n;
	return true;
}

/* Run libyaml over text into b; false after a syntax error or too deep nesting. */
static bool s_build(struct s_reader *r, struct s_builder *b, const char *text, size_t len)
{
	yaml_parser_t parser;
	int docs = 0;
	bool done = false, ok = true;

	if (!yaml_parser_initialize(&parser)) {
		fprintf(stderr, "lockstep: out of memory in libyaml\n");
		abort();
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done) {
		struct lst_yaml_node *n;
		yaml_event_t ev;

		if (!yaml_parser_parse(&parser, &ev)) {
			s_syntax_error(r, &parser, text, len);
			ok = false;
			break;
		}
		if (ev.type == YAML_STREAM_END_EVENT) {
			done = true;
		} else if (ev.type == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
			s_err(r, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
			      "a %s is one YAML document; remove this second one", r->kind);
			done = true;
		} else if (ev.type == YAML_SEQUENCE_END_EVENT ||
			   ev.type == YAML_MAPPING_END_EVENT) {
			b->depth--;
		} else if ((n = s_node_of(r, &ev)) && !s_attach(r, b, n)) {
			ok = false;
			done = true;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return ok;
}

struct lst_yaml_node *lst_yaml_load(const char *text, size_t len, const char *kind,
				    lst_yaml_err_fn *err_fn, void *arg)
{
	struct s_reader r = { kind, err_fn, arg };
	struct s_builder b;

	memset(&b, 0, sizeof(b));
	if (!s_build(&r, &b, text, len)) {
		lst_yaml_free(b.root);
		return NULL;
	}
	if (!b.root) {
		yaml_mark_t m = { 0, 0, 0 };

		b.root = s_new(LST_YAML_SCALAR, m);
		b.root->text = lst_strdup("");
		b.root->null = true;
	}
	s_check_keys(&r, b.root);
	return b.root;
}

struct lst_yaml_node *lst_yaml_new(enum lst_yaml_type type, const char *text)
{
	struct lst_yaml_node *n = lst_calloc(1, sizeof(*n));

	n->type = type;
	if (type == LST_YAML_SCALAR) {
		n->null = !text;
		n->text = lst_strdup(text ? text : "");
	}
	return n;
}

struct lst_yaml_node *lst_yaml_append(struct lst_yaml_node *list, struct lst_yaml_node *kid)
{
	list->kids = lst_realloc(list->kids, (list->n + 1) * sizeof(*list->kids));
	list->kids[list->n++] = kid;
	return kid;
}

struct lst_yaml_node *lst_yaml_put(struct lst_yaml_node *map, const char *key,
				   struct lst_yaml_node *value)
{
	lst_yaml_append(map, lst_yaml_new(LST_YAML_SCALAR, key));
	return lst_yaml_append(map, value);
}

/* A scalar as a YAML double-quoted string: \" \\ and \xNN for the control characters. */
static void s_quote(FILE *f, const struct lst_yaml_node *n)
{
	if (n->null) {
		fputc('~', f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)n->text; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\x%02x", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

/* Flow style ({k: v}, [a, b]): no indentation to get right, any depth on one line. */
static void s_write(FILE *f, const struct lst_yaml_node *n)
{
	if (n->type == LST_YAML_SCALAR) {
		s_quote(f, n);
		return;
	}
	fputc(n->type == LST_YAML_MAP ? '{' : '[', f);
	for (size_t i = 0; i < n->n; i++) {
		bool key = n->type == LST_YAML_MAP && i % 2 == 0;

		if (i)
			fputs(key || n->type == LST_YAML_LIST ? ", " : ": ", f);
		s_write(f, n->kids[i]);
	}
	fputc(n->type == LST_YAML_MAP ? '}' : ']', f);
}

char *lst_yaml_text(const struct lst_yaml_node *n)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		abort(); /* out of memory */
	if (n->type == LST_YAML_MAP) {
		/* the top map a key a line, as a person would write it */
		for (size_t i = 0; i + 1 < n->n; i += 2) {
			s_write(f, n->kids[i]);
			fputs(": ", f);
			s_write(f, n->kids[i + 1]);
			fputc('\n', f);
		}
	} else {
		s_write(f, n);
		fputc('\n', f);
	}
	fclose(f);
	return text;
}
