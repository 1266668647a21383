/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio job files (lst_fiojob.c): sections and options keep their lines through comments, blank
 * lines and blanks around '='; a bare key has no value; what fio would not read either gets
 * one FILE:LINE error and no file; the reader frees what it read (lst_fiojob_destroy twice).
 */
#include <errno.h>
#include <string.h>

#include "lst_fiojob.h"
#include "lst_test.h"

static void s_good(void)
{
	static const char text[] = "; comment\n"
				   "[global]\n"
				   "  bs = 4k  \n"
				   "\n"
				   "# another\n"
				   "[job one]\n"
				   "time_based\n"
				   "filename=/dev/a=b\n";
	lst_err err;
	lst_fiojob *j = lst_fiojob_parse("x.fio", text, strlen(text), &err);

	if (!j)
		T_FAIL("parse: %s", err.msg);
	T_EQ_INT(j->nsections, 2);
	T_EQ_STR(j->sections[0].name, "global");
	T_EQ_INT(j->sections[0].line, 2);
	T_EQ_INT(j->sections[0].nopts, 1);
	T_EQ_STR(j->sections[0].opts[0].key, "bs");
	T_EQ_STR(j->sections[0].opts[0].value, "4k");
	T_EQ_INT(j->sections[0].opts[0].line, 3);
	T_EQ_STR(j->sections[1].name, "job one");
	T_EQ_INT(j->sections[1].line, 6);
	T_EQ_STR(j->sections[1].opts[0].key, "time_based");
	T_ASSERT(!j->sections[1].opts[0].value);
	T_EQ_STR(j->sections[1].opts[1].value, "/dev/a=b"); /* the first '=' splits */
	T_EQ_INT(j->sections[1].opts[1].line, 8);
	lst_fiojob_destroy(&j);
	T_ASSERT(!j);
	lst_fiojob_destroy(&j);
}

static void s_bad(const char *text, size_t len, const char *msg)
{
	lst_err err;
	lst_fiojob *j;

	lst_err_clear(&err);
	j = lst_fiojob_parse("x.fio", text, len, &err);
	T_ASSERT(!j);
	T_EQ_STR(err.msg, msg);
}

int main(void)
{
	s_good();
	s_bad("bs=4k\n", 6,
	      "x.fio:1: option 'bs' comes before any [section] (fio's files start with [global] "
	      "or a job's [name])");
	s_bad("\n[job\n", 6, "x.fio:2: section '[job' has no closing ']'");
	s_bad("[ ]\n", 4, "x.fio:1: a section without a name ([])");
	s_bad("[a] b\n", 6, "x.fio:1: text after the section's ']'");
	s_bad("[a]\n=4k\n", 8, "x.fio:2: '=' without an option name");
	s_bad("[a]\0bs=4k\n", 10, "x.fio: holds a NUL byte: not a job file");
	return 0;
}
