/* SPDX-License-Identifier: Apache-2.0 */
/*
 * YAML for files people write (plans, the agent's config): a small tree of scalars, lists and
 * maps built from libyaml's event stream, each node with the place it starts in the file
 * (1-based line and column), so that the schema code above it can say where a value is wrong.
 *
 * libyaml's own document API resolves aliases silently, so the tree is built from events
 * instead: an anchor (&x) or an alias (*x) is reported where it is written, and a duplicate key
 * in a map is reported at the second occurrence. These files are small and written by people; a
 * feature that makes one value stand for another only hides what the file really says.
 *
 * This module knows YAML, not what the file means: callers name their kind of file ("plan") so
 * that messages speak of it, and read the tree with lst_yaml_get and their own tables.
 */
#ifndef LST_YAML_H
#define LST_YAML_H

#include <stdbool.h>
#include <stddef.h>

/* Where a value came from in the file, for messages about it later. */
struct lst_mark {
	int line, col; /* 1-based; 0 when the value was a default */
};

enum lst_yaml_type {
	LST_YAML_SCALAR,
	LST_YAML_LIST,
	LST_YAML_MAP,
};

struct lst_yaml_node {
	enum lst_yaml_type type;
	struct lst_mark mark; /* where the node starts */
	char *text;	      /* scalar: its text ("" for an empty value) */
	bool null;	      /* scalar: plain empty, "~" or "null" */
	bool bad;	      /* already reported (an alias): say nothing more about it */
	size_t n;	      /* list: items; map: keys + values (keys at even indexes) */
	struct lst_yaml_node **kids;
};

/* Called for every problem found while reading: a place (line 0 = none) and a message. */
typedef void(lst_yaml_err_fn)(void *arg, int line, int col, const char *msg);

/*
 * Read YAML text into a tree. Reports syntax errors, anchors, aliases, more than one document,
 * text a terminal would obey (NUL, escapes, controls), keys that are not text, duplicate keys
 * and too deep nesting through err_fn; kind names the file in those messages ("plan" gives
 * "a plan is one YAML document"). Returns the root (a null scalar for an empty file), or NULL
 * after a syntax error. The caller frees the tree with lst_yaml_free.
 */
struct lst_yaml_node *lst_yaml_load(const char *text, size_t len, const char *kind,
				    lst_yaml_err_fn *err_fn, void *arg);

/* Free a tree from lst_yaml_load; safe on NULL. Iterative: any depth is fine. */
void lst_yaml_free(struct lst_yaml_node *n);

/*
 * The value of key in map (borrowed), or NULL when map is NULL, not a map, or lacks the key;
 * key_out (may be NULL) gets the key node. The first occurrence wins.
 */
struct lst_yaml_node *lst_yaml_get(const struct lst_yaml_node *map, const char *key,
				   const struct lst_yaml_node **key_out);

/* "a map", "a list", "text" or "an empty value": what a node is, for messages. */
const char *lst_yaml_what(const struct lst_yaml_node *n);

/*
 * A tree made in code rather than read (a plan a command builds from another): a new node of
 * type, with text for a scalar (copied; NULL: a null scalar), at no place in a file (mark 0).
 */
struct lst_yaml_node *lst_yaml_new(enum lst_yaml_type type, const char *text);

/* Append kid to list (the tree owns it from then); returns kid. */
struct lst_yaml_node *lst_yaml_append(struct lst_yaml_node *list, struct lst_yaml_node *kid);

/* Add key: value to map (the tree owns value from then); returns value. */
struct lst_yaml_node *lst_yaml_put(struct lst_yaml_node *map, const char *key,
				   struct lst_yaml_node *value);

/*
 * The tree as YAML text that lst_yaml_load reads back to the same tree (every scalar double-
 * quoted, null as ~), for a record of a tree made in code: the caller frees it.
 */
char *lst_yaml_text(const struct lst_yaml_node *n);

#endif
