/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep steady`'s input reader (coordinator/folder/lst_steady_read): a loose CSV, semicolon
 * or whitespace-separated file of numbers into a series. The last numeric field by default, or
 * a chosen column whose header names it; blank lines, comments, a byte order mark and CRLF
 * ends skipped; every refusal names FILE:LINE and what was there, quoted at a readable length.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lst_steady_read.h"
#include "lst_test.h"

/* Read text with column; returns lst_steady_read's status, the series in s. */
static int s_read(const char *text, long column, struct lst_steady_series *s, lst_err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	T_ASSERT(f);
	memset(s, 0, sizeof(*s));
	rc = lst_steady_read(f, "r.csv", column, s, err);
	fclose(f);
	return rc;
}

static void test_last_number(void)
{
	struct lst_steady_series s;
	lst_err err;

	T_EQ_INT(s_read("round,iops\n1,100.5\n\n# a comment\n2,101\n  3,99e0\n", 0, &s, &err), 0);
	T_EQ_INT(s.n, 3);
	T_NEAR(s.v[0], 100.5, 0);
	T_NEAR(s.v[2], 99, 0);
	T_ASSERT(!s.column_name); /* no column chosen */
	lst_steady_series_free(&s);

	/* Whitespace-separated, with a trailing text field: the last number counts. */
	T_EQ_INT(s_read("1 250 ok\n2 260 ok\n", 0, &s, &err), 0);
	T_EQ_INT(s.n, 2);
	T_NEAR(s.v[1], 260, 0);
	lst_steady_series_free(&s);

	/* A spreadsheet's export: byte order mark, CRLF, semicolons; the mark is not part of the
	 * first value. */
	T_EQ_INT(s_read("\xef\xbb\xbf"
			"1;7\r\n2;8\r\n",
			1, &s, &err),
		 0);
	T_EQ_INT(s.n, 2);
	T_NEAR(s.v[0], 1, 0);
	T_NEAR(s.v[1], 2, 0);
	lst_steady_series_free(&s);

	T_EQ_INT(s_read("", 0, &s, &err), 0);
	T_EQ_INT(s.n, 0);
	lst_steady_series_free(&s);
}

static void test_column(void)
{
	struct lst_steady_series s;
	lst_err err;

	T_EQ_INT(s_read("round,iops,lat\n1,100,5\n2,110,6\n", 2, &s, &err), 0);
	T_EQ_INT(s.n, 2);
	T_NEAR(s.v[1], 110, 0);
	T_EQ_STR(s.column_name, "iops");
	lst_steady_series_free(&s);
	T_ASSERT(!s.v && !s.column_name && !s.n);

	/* No header: nothing to name it. */
	T_EQ_INT(s_read("1,100\n2,110\n", 2, &s, &err), 0);
	T_EQ_INT(s.n, 2);
	T_ASSERT(!s.column_name);
	lst_steady_series_free(&s);
}

static void test_refusals(void)
{
	struct lst_steady_series s;
	char text[256], want[128];
	lst_err err;

	T_EQ_INT(s_read("a,b,c\n1,2,3\n", 4, &s, &err), -EINVAL);
	T_EQ_STR(err.msg, "r.csv:1: no column 4 (the line has 3)"); /* the header has none either */
	lst_steady_series_free(&s);
	T_EQ_INT(s_read("1,2\n3\n", 2, &s, &err), -EINVAL);
	T_EQ_STR(err.msg, "r.csv:2: no column 2 (the line has 1)");
	lst_steady_series_free(&s);

	T_EQ_INT(s_read("x\n1\n2\nabc\n", 0, &s, &err), -EINVAL);
	T_EQ_STR(err.msg, "r.csv:4: 'abc' is not a number");
	lst_steady_series_free(&s);

	T_EQ_INT(s_read("1,2\n3,n/a\n", 2, &s, &err), -EINVAL);
	T_EQ_STR(err.msg, "r.csv:2: 'n/a' is not a number");
	lst_steady_series_free(&s);

	/* Not finite, or out of range: not a number either. */
	T_EQ_INT(s_read("1\ninf\n", 0, &s, &err), -EINVAL);
	lst_steady_series_free(&s);
	T_EQ_INT(s_read("1\n1e999\n", 1, &s, &err), -EINVAL);
	T_CONTAINS(err.msg, "r.csv:2: '1e999'");
	lst_steady_series_free(&s);

	/* A long field is quoted short. */
	memset(want, 'z', 60);
	want[60] = '\0';
	snprintf(text, sizeof(text), "1\n%s\n", want);
	T_EQ_INT(s_read(text, 1, &s, &err), -EINVAL);
	snprintf(want, sizeof(want), "r.csv:2: '%.48s...' is not a number", text + 2);
	T_EQ_STR(err.msg, want);
	lst_steady_series_free(&s);
}

/* More values than the first allocation holds. */
static void test_many(void)
{
	struct lst_steady_series s;
	static char text[64 * 1024];
	size_t n = 0;
	lst_err err;

	for (int i = 0; i < 5000; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%d\n", i);
	T_EQ_INT(s_read(text, 0, &s, &err), 0);
	T_EQ_INT(s.n, 5000);
	for (int i = 0; i < 5000; i++)
		T_NEAR(s.v[i], i, 0);
	lst_steady_series_free(&s);
}

int main(void)
{
	test_last_number();
	test_column();
	test_refusals();
	test_many();
	printf("ok: steady read\n");
	return 0;
}
