/*
 * The YAML side of plans: a small tree of scalars, lists and maps built from libyaml's event
 * stream, each node with the place it starts in the file (1-based line and column).
 *
 * libyaml's own document API resolves aliases silently, so the tree is built from events
 * instead: an anchor (&x) or an alias (*x) is reported where it is written, and a duplicate key
 * in a map is reported at the second occurrence. Plans are small and written by people; a
 * feature that makes one value stand for another only hides what a phase really runs.
 *
 * Internal to the plan parser (lst_plan.c); names carry a double underscore.
 */
#ifndef LST_PLAN_NODE_H
#define LST_PLAN_NODE_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_plan.h"

enum lst__node_type {
	LST__NODE_SCALAR,
	LST__NODE_LIST,
	LST__NODE_MAP,
};

struct lst__node {
	enum lst__node_type type;
	struct lst_mark mark; /* where the node starts */
	char *text;	      /* scalar: its text ("" for an empty value) */
	bool null;	      /* scalar: plain empty, "~" or "null" */
	bool bad;	      /* already reported (an alias): say nothing more about it */
	size_t n;	      /* list: items; map: keys + values (keys at even indexes) */
	struct lst__node **kids;
};

/* Called for every problem found while reading: a place (line 0 = none) and a message. */
typedef void(lst__node_err_fn)(void *arg, int line, int col, const char *msg);

/*
 * Read YAML text into a tree. Reports syntax errors, anchors, aliases, more than one document,
 * keys that are not text, duplicate keys and too deep nesting through err_fn. Returns the root
 * (a null scalar for an empty file), or NULL after a syntax error. Free with lst__node_free.
 */
struct lst__node *lst__node_load(const char *text, size_t len, lst__node_err_fn *err_fn, void *arg);

void lst__node_free(struct lst__node *n);

/* The value of key in map, or NULL; key_out (may be NULL) gets the key node. First wins. */
struct lst__node *lst__node_get(const struct lst__node *map, const char *key,
				const struct lst__node **key_out);

/* "a map", "a list", "text" or "an empty value": what a node is, for messages. */
const char *lst__node_what(const struct lst__node *n);

#endif
