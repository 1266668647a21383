/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command-line flags from tables (lst_flag): every form a flag is typed in, defaults, operands
 * moved behind the flags, the errors, and the three generated texts. The last check is the
 * house's promise for a new flag: one more table entry and --help, the man page and the
 * completion all name it, with its value, choices and default, and nothing else is written.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lst_flag.h"
#include "lst_test.h"

struct s_shared {
	const char *key;
	int64_t quiet;
};

struct s_args {
	struct s_shared c; /* first: the shared group's offsets point into it */
	const char *out, *html;
	int64_t lead, mode, verbose, undocumented;
};

static const char *const s_modes[] = { "text", "json", NULL };

static int s_verbose(const struct lst_flag *f, void *base, const char *value, lst_err *err)
{
	(void)f, (void)value, (void)err;
	((struct s_args *)base)->verbose++;
	return 0;
}

static const struct lst_flag s_shared[] = {
	{ .opt = { .name = "key",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_shared, key),
		   .help = "our secret key" },
	  .arg = "FILE",
	  .complete = LST_FLAG_FILE },
	{ .opt = { .name = "quiet",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct s_shared, quiet),
		   .def = "false",
		   .help = "say nothing" },
	  .letter = 'q' },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag s_own[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_args, out),
		   .help = "results folder" },
	  .letter = 'o',
	  .arg = "DIR",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = "lead",
		   .type = LST_OPT_INT,
		   .offset = offsetof(struct s_args, lead),
		   .def = "250",
		   .min = 1,
		   .max = 60000,
		   .help = "time to the start, in ms" },
	  .arg = "MS" },
	{ .opt = { .name = "progress",
		   .type = LST_OPT_ENUM,
		   .offset = offsetof(struct s_args, mode),
		   .def = "text",
		   .choices = s_modes,
		   .help = "how progress is shown" },
	  .arg = "FMT" },
	{ .opt = { .name = "html",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_args, html),
		   .help = "also write HTML" },
	  .arg = "FILE",
	  .flags = LST_FLAG_OPTIONAL },
	{ .opt = { .name = "verbose", .help = "more detail" }, .letter = 'v', .set = s_verbose },
	{ .opt = { .name = "undocumented",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct s_args, undocumented),
		   .help = "not for users" },
	  .flags = LST_FLAG_HIDDEN },
	{ .opt = { .name = NULL } },
};

static const struct lst_flag *const s_groups[] = { s_own, s_shared, NULL };

static const struct lst_flag_cmd s_cmd = {
	.name = "tool run",
	.operands = "PLAN.yaml",
	.operand = LST_FLAG_PLAN,
	.about = "Run a plan.\n",
	.more = "Exit status: 0.\n",
	.groups = s_groups,
};

/* Parse the words (argv[0] first) into *a; returns what lst_flag_parse returns. */
static int s_parse(struct s_args *a, lst_err *err, int argc, char **argv)
{
	memset(a, 0, sizeof(*a));
	return lst_flag_parse(&s_cmd, argc, argv, a, err);
}

#define ARGV(...) ((char *[]){ "run", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "run", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(a, err, ...) s_parse(a, err, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void s_forms(void)
{
	struct s_args a;
	lst_err err;
	char *v[] = { "run", "p.yaml",	   "-o",   "out",    "--lead=300", "-qv", "--key", "k",
		      "-v",  "--progress", "json", "--html", "--",	   "-x",  NULL };

	T_EQ_INT(s_parse(&a, &err, 14, v), 12);
	T_EQ_STR(a.out, "out");
	T_EQ_INT(a.lead, 300);
	T_EQ_INT(a.c.quiet, 1);
	T_EQ_INT(a.verbose, 2);
	T_EQ_STR(a.c.key, "k");
	T_EQ_INT(a.mode, 1);
	T_EQ_STR(a.html, "");
	/* the operands, behind the flags ("--" among them), in their order */
	T_EQ_STR(v[11], "--");
	T_EQ_STR(v[12], "p.yaml");
	T_EQ_STR(v[13], "-x");

	T_EQ_INT(PARSE(&a, &err, "-oout", "--html=r.html", "-"), 3);
	T_EQ_STR(a.out, "out");
	T_EQ_STR(a.html, "r.html");
	T_EQ_INT(a.lead, 250); /* the default */
	T_EQ_INT(a.mode, 0);
	T_ASSERT(a.c.key == NULL);
	T_EQ_INT(PARSE(&a, &err, "--quiet", "--undocumented"), 3);
	T_EQ_INT(a.c.quiet, 1);
	T_EQ_INT(a.undocumented, 1);
	T_EQ_INT(PARSE(&a, &err, "--lead", "7", "-h", "--bogus"), 0); /* help: nothing else */
	T_EQ_INT(PARSE(&a, &err, "--help"), 0);
	/* no flag at all: the first operand is argv[1], never taken for --help's 0 */
	T_EQ_INT(PARSE(&a, &err, "p.yaml"), 1);
	T_EQ_INT(s_parse(&a, &err, 1, (char *[]){ "run", NULL }), 1);
}

static void s_errors(void)
{
	struct s_args a;
	lst_err err;

	T_EQ_INT(PARSE(&a, &err, "--bogus"), -EINVAL);
	T_EQ_STR(err.msg, "unknown option '--bogus'");
	T_EQ_INT(PARSE(&a, &err, "-z"), -EINVAL);
	T_EQ_STR(err.msg, "unknown option '-z'");
	T_EQ_INT(PARSE(&a, &err, "p.yaml", "--lead"), -EINVAL);
	T_EQ_STR(err.msg, "--lead needs a value");
	T_EQ_INT(PARSE(&a, &err, "-o"), -EINVAL);
	T_EQ_STR(err.msg, "-o needs a value");
	T_EQ_INT(PARSE(&a, &err, "--lead", "0"), -ERANGE);
	T_EQ_STR(err.msg, "--lead must be between 1 and 60000");
	T_EQ_INT(PARSE(&a, &err, "--progress=xml"), -EINVAL);
	T_EQ_STR(err.msg, "--progress: 'xml' is not one of text|json");
	T_EQ_INT(PARSE(&a, &err, "--quiet=yes"), -EINVAL);
	T_EQ_STR(err.msg, "--quiet takes no value");
}

/* What a writer put on a stream (the caller frees it). */
static char *s_text(const struct lst_flag_cmd *cmd, void (*w)(const struct lst_flag_cmd *, FILE *))
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	w(cmd, f);
	fclose(f);
	return buf;
}

static void s_complete_w(const struct lst_flag_cmd *cmd, FILE *f, int n, char **words)
{
	lst_flag_complete(cmd, n, words, n - 1, f);
}

static char *s_complete(const struct lst_flag_cmd *cmd, int n, char **words)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	s_complete_w(cmd, f, n, words);
	fclose(f);
	return buf;
}

static void s_generated(void)
{
	char *help = s_text(&s_cmd, lst_flag_help), *man = s_text(&s_cmd, lst_flag_man), *c;

	T_CONTAINS(help, "usage: tool run [-o DIR] [--lead MS] [--progress FMT] [--html[=FILE]]");
	T_CONTAINS(help, "  -o, --output DIR      results folder\n");
	T_CONTAINS(help, "      --lead MS         time to the start, in ms (default 250)\n");
	T_CONTAINS(help, "--progress FMT    how progress is shown (text|json; default text)");
	T_CONTAINS(help, "  -q, --quiet           say nothing\n");
	T_CONTAINS(help, "  -h, --help            print this help\n");
	T_CONTAINS(help, "Run a plan.\n");
	T_CONTAINS(help, "Exit status: 0.\n");
	T_ASSERT(!strstr(help, "undocumented"));
	T_CONTAINS(man, ".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIDIR\\fR\nresults folder\n");
	T_CONTAINS(man, "\\fB\\-\\-html\\fR[=\\fIFILE\\fR]");
	T_ASSERT(!strstr(man, "undocumented"));

	c = s_complete(&s_cmd, 2, (char *[]){ "run", "--" });
	T_CONTAINS(c, "words\n");
	T_CONTAINS(c, "--output\n-o\n--lead\n");
	T_CONTAINS(c, "--key\n");
	T_ASSERT(!strstr(c, "undocumented"));
	free(c);
	c = s_complete(&s_cmd, 3, (char *[]){ "run", "--progress", "" });
	T_EQ_STR(c, "words\ntext\njson\n");
	free(c);
	c = s_complete(&s_cmd, 3, (char *[]){ "run", "-o", "" });
	T_EQ_STR(c, "dir\n");
	free(c);
	c = s_complete(&s_cmd, 3, (char *[]){ "run", "--lead", "" });
	T_EQ_STR(c, "none\n");
	free(c);
	c = s_complete(&s_cmd, 3, (char *[]){ "run", "--quiet", "p" });
	T_EQ_STR(c, "plan\n");
	free(c);
	free(help);
	free(man);
}

/* The same command with one entry more: the three texts gain it, from that entry alone. */
static const struct lst_flag s_own_plus[] = {
	{ .opt = { .name = "output",
		   .ops = &lst_flag_string,
		   .offset = offsetof(struct s_args, out),
		   .help = "results folder" },
	  .letter = 'o',
	  .arg = "DIR",
	  .complete = LST_FLAG_DIR },
	{ .opt = { .name = "depth",
		   .type = LST_OPT_INT,
		   .offset = offsetof(struct s_args, lead),
		   .def = "16",
		   .min = 1,
		   .max = 4096,
		   .help = "reads in flight" },
	  .arg = "N" },
	{ .opt = { .name = NULL } },
};
static const struct lst_flag *const s_groups_plus[] = { s_own_plus, s_shared, NULL };

static void s_one_entry(void)
{
	struct lst_flag_cmd cmd = s_cmd;
	char *help, *man, *c;
	struct s_args a = { 0 };
	lst_err err;

	cmd.groups = s_groups_plus;
	help = s_text(&cmd, lst_flag_help);
	man = s_text(&cmd, lst_flag_man);
	c = s_complete(&cmd, 2, (char *[]){ "run", "--d" });
	T_CONTAINS(help, "[--depth N]");
	T_CONTAINS(help, "      --depth N         reads in flight (default 16)\n");
	T_CONTAINS(man, "\\fB\\-\\-depth\\fR \\fIN\\fR\nreads in flight (default 16)\n");
	T_CONTAINS(c, "\n--depth\n");
	T_EQ_INT(lst_flag_parse(&cmd, 3, (char *[]){ "run", "--depth=64", "p", NULL }, &a, &err),
		 2);
	T_EQ_INT(a.lead, 64);
	free(help);
	free(man);
	free(c);
	/* and the command without it does not know it */
	help = s_text(&s_cmd, lst_flag_help);
	T_ASSERT(!strstr(help, "depth"));
	free(help);
}

int main(void)
{
	s_forms();
	s_errors();
	s_generated();
	s_one_entry();
	return 0;
}
