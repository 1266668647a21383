/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit test of common/lst_yaml (the YAML node tree with marks) and common/lst_errlist, apart
 * from plans: places of nodes, the kind of file in messages, what is refused (aliases,
 * duplicate keys, keys that are not text, control characters, a second document, deep
 * nesting), and an error list's life.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_errlist.h"
#include "lst_test.h"
#include "lst_util.h"
#include "lst_yaml.h"

/* err_fn for lst_yaml_load: "LINE:COL: message" into an error list. */
static void s_collect(void *arg, int line, int col, const char *msg)
{
	lst_errlist_add(arg, "%d:%d: %s", line, col, msg);
}

/* Load text as a "config"; errs gets the messages. */
static struct lst_yaml_node *s_load(const char *text, lst_errlist *errs)
{
	return lst_yaml_load(text, strlen(text), "config", s_collect, errs);
}

static void test_tree(void)
{
	lst_errlist errs = { 0 };
	struct lst_yaml_node *root = s_load("a: 1\nb:\n  - x\n  - {c: ~}\nd:\n", &errs);
	const struct lst_yaml_node *b, *key, *c;

	T_EQ_INT(errs.n, 0);
	T_ASSERT(root && root->type == LST_YAML_MAP && root->n == 6);
	T_EQ_STR(lst_yaml_get(root, "a", NULL)->text, "1");
	b = lst_yaml_get(root, "b", &key);
	T_ASSERT(b && b->type == LST_YAML_LIST && b->n == 2);
	T_EQ_INT(key->mark.line, 2);
	T_EQ_INT(key->mark.col, 1);
	T_EQ_INT(b->kids[0]->mark.line, 3);
	T_EQ_INT(b->kids[0]->mark.col, 5);
	c = lst_yaml_get(b->kids[1], "c", NULL);
	T_ASSERT(c && c->type == LST_YAML_SCALAR && c->null);
	T_ASSERT(lst_yaml_get(root, "d", NULL)->null);
	T_ASSERT(!lst_yaml_get(root, "e", NULL));
	T_ASSERT(!lst_yaml_get(b, "x", NULL)); /* not a map */
	T_ASSERT(!lst_yaml_get(NULL, "a", NULL));
	T_EQ_STR(lst_yaml_what(root), "a map");
	T_EQ_STR(lst_yaml_what(b), "a list");
	T_EQ_STR(lst_yaml_what(b->kids[0]), "text");
	T_EQ_STR(lst_yaml_what(c), "an empty value");
	lst_yaml_free(root);
	lst_yaml_free(NULL);

	/* an empty file is a null scalar, with no error */
	root = s_load("", &errs);
	T_ASSERT(root && root->type == LST_YAML_SCALAR && root->null);
	T_EQ_INT(errs.n, 0);
	lst_yaml_free(root);
}

/* Loading text gives exactly one error, starting with want, and a tree unless syntax failed. */
static void s_one_error(const char *text, const char *want, bool tree)
{
	lst_errlist errs = { 0 };
	struct lst_yaml_node *root = s_load(text, &errs);

	if (errs.n != 1 || strncmp(errs.msg[0], want, strlen(want))) {
		lst_errlist_print(&errs, stderr);
		T_FAIL("%s: expected one error starting \"%s\"", text, want);
	}
	T_ASSERT(tree == (root != NULL));
	lst_yaml_free(root);
	lst_errlist_free(&errs);
}

static void test_refused(void)
{
	char *deep;

	s_one_error("a: [1", "2:1: YAML syntax error: did not find expected ',' or ']'", false);
	s_one_error("a: &x 1\n", "1:4: anchor '&x': anchors and aliases are not allowed in configs",
		    true);
	s_one_error("a: 1\nb: *x\n",
		    "2:4: alias '*x': anchors and aliases are not allowed in configs", true);
	s_one_error("a: 1\na: 2\n", "2:1: duplicate key 'a' (first at 1:1)", true);
	s_one_error("[1]: 2\n", "1:1: a key must be text, not a list", true);
	s_one_error("a: 1\n---\nb: 2\n", "2:1: a config is one YAML document", true);
	s_one_error("a: \"x\\0y\"\n",
		    "1:4: this text holds a NUL byte (\\0) at byte 2; a config's "
		    "text cannot hold one",
		    true);
	s_one_error("a: \"\\e[31m\"\n", "1:4: this text holds the control character 0x1b", true);
	s_one_error("a: \"\xff\"\n",
		    "1:5: cannot read the text: invalid leading UTF-8 octet "
		    "(configs are UTF-8 text)",
		    false);
	/* nesting is capped (64 levels), not recursed into */
	deep = lst_calloc(1, 200);
	memset(deep, '[', 100);
	s_one_error(deep, "1:65: nesting deeper than 64 levels", false);
	free(deep);
}

static void test_errlist(void)
{
	lst_errlist errs = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lst_errlist_add(&errs, "%s:%d:%d: %s", "p.yaml", 3, 7, "first");
	lst_errlist_add(&errs, "second");
	T_EQ_INT(errs.n, 2);
	lst_errlist_print(&errs, f);
	fclose(f);
	T_EQ_STR(buf, "p.yaml:3:7: first\nsecond\n");
	free(buf);
	lst_errlist_free(&errs);
	T_ASSERT(errs.n == 0 && errs.msg == NULL);
	lst_errlist_free(&errs); /* twice is fine */
	lst_errlist_free(NULL);
}

/* A long list keeps its first lines and counts the rest, exactly, however many. */
static void test_errlist_capped(void)
{
	lst_errlist errs = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (int i = 0; i < LST_ERRLIST_MAX + 5; i++)
		lst_errlist_add(&errs, "line %d", i);
	T_EQ_INT(errs.n, LST_ERRLIST_MAX);
	T_EQ_INT(errs.more, 5);
	lst_errlist_add_more(&errs, 1000000);
	T_EQ_INT(lst_errlist_count(&errs), LST_ERRLIST_MAX + 1000005);
	lst_errlist_print(&errs, f);
	fclose(f);
	T_CONTAINS(buf, "line 0\nline 1\n");
	T_ASSERT(!strstr(buf, "line 20\n"));
	T_CONTAINS(buf, "\nline 19\n... and 1,000,005 more\n");
	free(buf);
	lst_errlist_free(&errs);
	T_EQ_INT(lst_errlist_count(&errs), 0);
}

/* A tree made in code, written as text for a record, reads back to the same tree. */
static void test_built(void)
{
	struct lst_yaml_node *root = lst_yaml_new(LST_YAML_MAP, NULL), *l, *m, *back;
	lst_errlist errs = { 0 };
	char *text;

	lst_yaml_put(root, "name", lst_yaml_new(LST_YAML_SCALAR, "x: \"y\" \\ #z"));
	lst_yaml_put(root, "none", lst_yaml_new(LST_YAML_SCALAR, NULL));
	l = lst_yaml_put(root, "list", lst_yaml_new(LST_YAML_LIST, NULL));
	lst_yaml_append(l, lst_yaml_new(LST_YAML_SCALAR, "1"));
	m = lst_yaml_append(l, lst_yaml_new(LST_YAML_MAP, NULL));
	lst_yaml_put(m, "tab", lst_yaml_new(LST_YAML_SCALAR, "a\tb"));
	text = lst_yaml_text(root);
	T_EQ_STR(text, "\"name\": \"x: \\\"y\\\" \\\\ #z\"\n\"none\": ~\n"
		       "\"list\": [\"1\", {\"tab\": \"a\\x09b\"}]\n");
	back = s_load(text, &errs);
	T_EQ_INT(lst_errlist_count(&errs), 0);
	T_ASSERT(back && back->type == LST_YAML_MAP && back->n == 6);
	T_EQ_STR(lst_yaml_get(back, "name", NULL)->text, "x: \"y\" \\ #z");
	T_ASSERT(lst_yaml_get(back, "none", NULL)->null);
	l = lst_yaml_get(back, "list", NULL);
	T_ASSERT(l->type == LST_YAML_LIST && l->n == 2);
	T_EQ_STR(l->kids[0]->text, "1");
	T_EQ_STR(lst_yaml_get(l->kids[1], "tab", NULL)->text, "a\tb");
	T_EQ_INT(root->mark.line, 0);
	free(text);
	lst_yaml_free(back);
	lst_yaml_free(root);
}

int main(void)
{
	test_built();
	test_tree();
	test_refused();
	test_errlist();
	test_errlist_capped();
	return 0;
}
