/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results CSV reader (coordinator/folder/lst_csv.c): quoted fields with commas, doubled
 * quotes and newlines; CRLF; blank lines and a byte order mark; columns by name; numbers; and
 * bad input refused with FILE:LINE messages (a cut last line is dropped with a warning); and
 * the loose one-line splitter `lockstep steady` uses.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_csv.h"
#include "lst_test.h"
#include "lst_util.h"

static char s_path[64];

/* Write text (n bytes) to the test file and load it. Returns lst_csv_load's code. */
static int s_load_n(const char *text, size_t n, lst_csv **t, lst_err *err)
{
	FILE *f = fopen(s_path, "w");

	T_ASSERT(f);
	T_EQ_INT(fwrite(text, 1, n, f), n);
	T_EQ_INT(fclose(f), 0);
	return lst_csv_load(s_path, t, err);
}

static int s_load(const char *text, lst_csv **t, lst_err *err)
{
	return s_load_n(text, strlen(text), t, err);
}

/* Load text expecting -EINVAL with "PATH:msg" (msg starts after the path). */
static void s_bad(const char *text, const char *msg)
{
	char want[256];
	lst_csv *t = NULL;
	lst_err err;

	T_EQ_INT(s_load(text, &t, &err), -EINVAL);
	T_ASSERT(!t);
	snprintf(want, sizeof(want), "%s%s", s_path, msg);
	T_EQ_STR(err.msg, want);
}

static void s_quoted(void)
{
	lst_csv *t;
	lst_err err;

	T_EQ_INT(s_load("a,b,c\r\n"
			"\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n"
			"\r\n"
			"  1 , 2,3\n"
			"\"\",,\"\"\"\"\n",
			&t, &err),
		 0);
	T_EQ_INT(lst_csv_ncols(t), 3);
	T_EQ_INT(lst_csv_nrows(t), 3);
	T_EQ_STR(lst_csv_colname(t, 2), "c");
	T_EQ_STR(lst_csv_colname(t, 3), "");
	T_EQ_STR(lst_csv_field(t, 0, 0), "x, y");
	T_EQ_STR(lst_csv_field(t, 0, 1), "say \"hi\"");
	T_EQ_STR(lst_csv_field(t, 0, 2), "two\nlines");
	T_EQ_INT(lst_csv_line(t, 0), 2);
	/* blank line 4 skipped; unquoted fields trimmed */
	T_EQ_STR(lst_csv_field(t, 1, 0), "1");
	T_EQ_STR(lst_csv_field(t, 1, 1), "2");
	T_EQ_INT(lst_csv_line(t, 1), 5);
	T_EQ_STR(lst_csv_field(t, 2, 0), "");
	T_EQ_STR(lst_csv_field(t, 2, 1), "");
	T_EQ_STR(lst_csv_field(t, 2, 2), "\"");
	/* out of range: "" */
	T_EQ_STR(lst_csv_field(t, 9, 0), "");
	T_EQ_STR(lst_csv_field(t, 0, -1), "");
	T_EQ_INT(lst_csv_line(t, 9), 0);
	T_EQ_STR(lst_csv_path(t), s_path);
	lst_csv_destroy(&t);
	T_ASSERT(!t);
	lst_csv_destroy(&t); /* safe twice */
}

static void s_columns(void)
{
	static const char *const need[] = { "b", "a", NULL };
	static const char *const missing[] = { "a", "zz", NULL };
	char want[128];
	int cols[2];
	lst_csv *t;
	lst_err err;
	double v;

	/* A byte order mark, then a header with a repeated name. */
	T_EQ_INT(s_load("\xef\xbb\xbf"
			"a,b,a\n1.5,-2e3,x\n,1e999,nan\n",
			&t, &err),
		 0);
	T_EQ_INT(lst_csv_col(t, "a"), 0);
	T_EQ_INT(lst_csv_col(t, "b"), 1);
	T_EQ_INT(lst_csv_col(t, "c"), -1);
	T_EQ_INT(lst_csv_require(t, need, cols, &err), 0);
	T_EQ_INT(cols[0], 1);
	T_EQ_INT(cols[1], 0);
	T_EQ_INT(lst_csv_require(t, missing, cols, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s:1: no column 'zz' in the header", s_path);
	T_EQ_STR(err.msg, want);

	T_EQ_INT(lst_csv_num(t, 0, 0, &v, &err), 0);
	T_NEAR(v, 1.5, 0);
	T_EQ_INT(lst_csv_num(t, 0, 1, &v, &err), 0);
	T_NEAR(v, -2000, 0);
	T_EQ_INT(lst_csv_num(t, 0, 2, &v, &err), -EINVAL);
	T_ASSERT(isnan(v));
	snprintf(want, sizeof(want), "%s:2: column a: 'x' is not a number", s_path);
	T_EQ_STR(err.msg, want);
	T_EQ_INT(lst_csv_num(t, 1, 0, &v, &err), -ENODATA);
	T_ASSERT(isnan(v));
	T_EQ_INT(lst_csv_num(t, 1, -1, &v, &err), -ENODATA);
	T_EQ_INT(lst_csv_num(t, 1, 1, &v, &err), -EINVAL); /* overflow */
	snprintf(want, sizeof(want), "%s:3: column b: '1e999' is not a number", s_path);
	T_EQ_STR(err.msg, want);
	T_EQ_INT(lst_csv_num(t, 1, 2, &v, &err), -EINVAL); /* not finite */
	lst_csv_destroy(&t);
}

static void s_cut_last_line(void)
{
	lst_csv *t;
	lst_err err;

	/* A run killed mid-row: the last line without newline and short is dropped. */
	T_EQ_INT(s_load("a,b,c\n1,2,3\n4,5", &t, &err), 0);
	T_EQ_INT(lst_csv_nrows(t), 1);
	lst_csv_destroy(&t);
	/* Complete without newline: kept. */
	T_EQ_INT(s_load("a,b\n1,2\n3,4", &t, &err), 0);
	T_EQ_INT(lst_csv_nrows(t), 2);
	T_EQ_STR(lst_csv_field(t, 1, 1), "4");
	lst_csv_destroy(&t);
}

static void s_bad_input(void)
{
	lst_csv *t = NULL;
	lst_err err;
	char want[128];

	s_bad("a,b\n1,2\n3\n4,5\n", ":3: 1 field, the header has 2");
	s_bad("a,b\n1,2,3\n", ":2: 3 fields, the header has 2");
	s_bad("a,b\n1,\"open\n\n", ":2: a quoted field opened here never ends");
	s_bad("a,b\n\"x\"y,2\n",
	      ":2: 'y' after the closing quote of field 1 (a quote inside a quoted field is "
	      "written \"\")");
	s_bad("a,b\n1,x\"y\n", ":2: a quote inside unquoted field 2 (quote the whole field)");
	s_bad("", ": empty, not even a header line");
	s_bad("\n\n  \n", ": empty, not even a header line");
	T_EQ_INT(s_load_n("a,b\n1,\0\n", 8, &t, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s: holds a NUL byte: not a CSV file", s_path);
	T_EQ_STR(err.msg, want);
	T_EQ_INT(lst_csv_load("/nonexistent/x.csv", &t, &err), -ENOENT);
	T_EQ_STR(err.msg, "/nonexistent/x.csv: no such file");
	T_ASSERT(!t);
}

/* The loose one-line splitter of `lockstep steady`. */
static void s_loose(void)
{
	char line[] = " 1 ,\"a \"\"b\"\"\",,x ";
	char blanks[] = "  1   2\t3 ";
	char *cur = line;

	T_EQ_INT(lst_csv_separator("1;2,3"), ',');
	T_EQ_INT(lst_csv_separator("1;2"), ';');
	T_EQ_INT(lst_csv_separator("1\t2 3"), '\t');
	T_EQ_INT(lst_csv_separator("1 2"), ' ');
	T_EQ_STR(lst_csv_next_field(&cur, ','), "1");
	T_EQ_STR(lst_csv_next_field(&cur, ','), "a \"b\"");
	T_EQ_STR(lst_csv_next_field(&cur, ','), "");
	T_EQ_STR(lst_csv_next_field(&cur, ','), "x");
	T_ASSERT(!lst_csv_next_field(&cur, ','));
	cur = blanks;
	T_EQ_STR(lst_csv_next_field(&cur, ' '), "1");
	T_EQ_STR(lst_csv_next_field(&cur, ' '), "2");
	T_EQ_STR(lst_csv_next_field(&cur, ' '), "3");
	T_ASSERT(!lst_csv_next_field(&cur, ' '));
}

int main(void)
{
	snprintf(s_path, sizeof(s_path), "/tmp/lst-test-csv.%d.csv", (int)getpid());
	s_quoted();
	s_columns();
	s_cut_last_line();
	s_bad_input();
	s_loose();
	unlink(s_path);
	printf("ok: csv reader\n");
	return 0;
}
