/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_roff: Markdown and --help text as man(7) roff. What a page must never get wrong: a line
 * that roff would read as a request, a backslash, an option's '-', a table row, and an option
 * list that is read as options only when its columns say so (anything else is kept as written).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_roff.h"
#include "lst_test.h"

static char s_buf[8192];

static const char *s_md(const char *md)
{
	FILE *f = fmemopen(s_buf, sizeof(s_buf), "w");

	lst_roff_md(f, md);
	fclose(f);
	return s_buf;
}

static const char *s_usage(const char *text)
{
	FILE *f = fmemopen(s_buf, sizeof(s_buf), "w");

	lst_roff_usage(f, text);
	fclose(f);
	return s_buf;
}

static void test_escapes(void)
{
	T_EQ_STR(s_md(".dot\n'quote\nback\\slash --flag\n"),
		 ".PP\n\\&.dot\n\\&'quote\nback\\eslash \\-\\-flag\n");
	T_EQ_STR(s_md("`a\\b` **bold** *it* [text](x.md) 2 * 3\n"),
		 ".PP\n\\fBa\\eb\\fR \\fBbold\\fR \\fIit\\fR text 2 * 3\n");
	T_EQ_STR(s_md("a \\| b\n"), ".PP\na | b\n");
}

static void test_blocks(void)
{
	T_EQ_STR(s_md("# title(1)\n\n## Name\n\n`x` - what it is\n"),
		 ".SH\nNAME\n.PP\nx \\- what it is\n");
	T_EQ_STR(s_md("### Sub part\n<!-- hidden\nstill -->\n- one\n  more\n- two\n"),
		 ".SS\nSub part\n.IP \\(bu 2\none\nmore\n.IP \\(bu 2\ntwo\n");
	T_EQ_STR(s_md("```sh\n.x \\y\n```\n"), ".PP\n.EX\n\\&.x \\ey\n.EE\n");
	T_EQ_STR(
		s_md("| k | type | meaning |\n|---|---|---|\n| `a` | int | the a |\n| b | - | c |\n"),
		".TP\n\\fBa\\fR\n\\fItype\\fR: int\n.br\nthe a\n.TP\nb\nc\n");
}

static void test_usage(void)
{
	/* the usage lines, a paragraph, an option list with a continuation line */
	T_EQ_STR(
		s_usage("usage: x [-a]\n       [-b]\n\nDo it.\n\n  -a, --all  every one,\n"
			"             twice\n      --b X  bee\n"),
		".PP\n.nf\nx [\\-a]\n[\\-b]\n.fi\n.PP\nDo it.\n.TP\n\\fB\\-a, \\-\\-all\\fR\nevery "
		"one,\ntwice\n.TP\n\\fB\\-\\-b X\\fR\nbee\n");
	/* indented text that is not an option list stays as written */
	T_EQ_STR(s_usage("  drive d is reached by a\n    and by b\n"),
		 ".PP\n.nf\n  drive d is reached by a\n    and by b\n.fi\n");
	/* a tag longer than the column, its text after its own gap */
	T_EQ_STR(s_usage("  -b N     bee\n  --key FILE, --x   as for run\n"),
		 ".TP\n\\fB\\-b N\\fR\nbee\n.TP\n\\fB\\-\\-key FILE, \\-\\-x\\fR\nas for run\n");
	/* a title line, then options */
	T_EQ_STR(s_usage("commands:\n  run   run it\n  stop  stop it\n"),
		 ".PP\ncommands:\n.TP\n\\fBrun\\fR\nrun it\n.TP\n\\fBstop\\fR\nstop it\n");
}

int main(void)
{
	test_escapes();
	test_blocks();
	test_usage();
	printf("ok\n");
	return 0;
}
