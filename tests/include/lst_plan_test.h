/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan unit tests' way to say "this plan is good" and "this plan is refused with exactly one
 * error at PLACE containing PHRASE", as "t.yaml" (test_plan_hooks.c, test_plan_verify.c). A
 * header of static functions: each test program includes it once.
 */
#ifndef LST_PLAN_TEST_H
#define LST_PLAN_TEST_H

#include <stdio.h>
#include <string.h>

#include "lst_errlist.h"
#include "lst_plan.h"
#include "lst_test.h"

static lst_plan *s_parse(const char *text, lst_errlist *errs)
{
	return lst_plan_parse(text, strlen(text), "t.yaml", errs);
}

static lst_plan *s_good(int line, const char *text)
{
	lst_errlist errs = { 0 };
	lst_plan *p = s_parse(text, &errs);

	if (!p || errs.n) {
		lst_errlist_print(&errs, stderr);
		T_FAIL("line %d: a good plan was refused", line);
	}
	return p;
}

/* A bad plan: refused with exactly one error, "t.yaml:PLACE: " followed by text with phrase. */
static void s_bad(int line, const char *text, const char *place, const char *phrase)
{
	lst_errlist errs = { 0 };
	lst_plan *p = s_parse(text, &errs);
	char head[64];

	snprintf(head, sizeof(head), "t.yaml:%s: ", place);
	if (p || errs.n != 1 || strncmp(errs.msg[0], head, strlen(head)) ||
	    !strstr(errs.msg[0], phrase)) {
		lst_errlist_print(&errs, stderr);
		T_FAIL("line %d: expected one error at %s containing \"%s\"%s", line, place, phrase,
		       p ? " (but the plan was accepted)" : "");
	}
	lst_errlist_free(&errs);
}

/* A plan's first lines 1..8: one agent a, one target d on /dev/loop0, runtime 5s; the phases
 * follow from line 9, so an error's LINE:COL is the same in every test that starts with it. */
#define LST_PLAN_TEST_HEAD1                                                                        \
	"lockstep: 1\n"                                                                            \
	"name: t\n"                                                                                \
	"agents:\n"                                                                                \
	"  - {name: a, address: \"tcp://127.0.0.1\"}\n"                                            \
	"targets:\n"                                                                               \
	"  - {name: d, paths: {a: /dev/loop0}}\n"                                                  \
	"defaults: {runtime: 5s}\n"                                                                \
	"phases:\n"

#define GOOD(text) s_good(__LINE__, (text))
#define BAD(text, place, phrase) s_bad(__LINE__, (text), (place), (phrase))

#endif
