/* SPDX-License-Identifier: Apache-2.0 */
/* Command-line flags from option tables: parsing, --help, man and completion (lst_flag.h). */
#include "lst_flag.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_roff.h"
#include "lst_util.h"

#define S_HELP_COL 24 /* where a flag's meaning starts in --help */
#define S_WIDTH 80    /* and where lines end */

static int s_string_parse(void *val, const char *text, lst_err *err)
{
	(void)err;
	*(const char **)val = text;
	return 0;
}

static const char *s_string_format(const void *val, char *buf, size_t size)
{
	const char *s = *(const char *const *)val;

	snprintf(buf, size, "%s", s ? s : "");
	return buf;
}

const struct lst_opt_ops lst_flag_string = {
	.size = sizeof(const char *),
	.parse = s_string_parse,
	.format = s_string_format,
	.range = "text",
};

/* -h/--help, which every command has without an entry in its tables. */
static const struct lst_flag s_help = {
	.opt = { .name = "help", .type = LST_OPT_BOOL, .help = "print this help" },
	.letter = 'h',
};

/* Every flag of the command, group by group (not the help every command has). */
#define S_EACH(cmd, f)                                                                             \
	for (const struct lst_flag *const *g_ = (cmd)->groups; *g_; g_++)                          \
		for (const struct lst_flag *f = *g_; f->opt.name; f++)

const struct lst_flag *lst_flag_find(const struct lst_flag_cmd *cmd, const char *name)
{
	S_EACH (cmd, f)
		if (!strcmp(f->opt.name, name))
			return f;
	return strcmp(name, "help") ? NULL : &s_help;
}

static const struct lst_flag *s_find_letter(const struct lst_flag_cmd *cmd, char c)
{
	S_EACH (cmd, f)
		if (f->letter == c)
			return f;
	return c == 'h' ? &s_help : NULL;
}

static bool s_switch(const struct lst_flag *f)
{
	return !f->arg;
}

/* One flag's value (NULL for a switch) into base. spelled: how it was typed, for errors. */
static int s_apply(const struct lst_flag *f, void *base, const char *value, const char *spelled,
		   lst_err *err)
{
	lst_err perr;
	int rc;

	if (f->set)
		rc = f->set(f, base, value, &perr);
	else
		rc = lst_opt_parse(&f->opt, base, value ? value : "true", &perr);
	if (!rc)
		return 0;
	/* lst_opt's messages start with the option's name: say it as the flag typed */
	if (!strncmp(perr.msg, f->opt.name, strlen(f->opt.name)))
		return lst_err_set(err, rc, "%s%s", spelled, perr.msg + strlen(f->opt.name));
	return lst_err_set(err, rc, "%s: %s", spelled, perr.msg);
}

static void s_defaults(const struct lst_flag_cmd *cmd, void *base)
{
	lst_err err;

	S_EACH (cmd, f)
		if (f->opt.def && !f->set && lst_opt_parse(&f->opt, base, f->opt.def, &err)) {
			/* a default that does not parse is a bug in the table */
			fprintf(stderr, "%s: flag table: %s\n", cmd->name, err.msg);
			abort();
		}
}

/* A long flag: argv[*i] is "--name" or "--name=value". */
static int s_long(const struct lst_flag_cmd *cmd, int argc, char **argv, int *i, void *base,
		  lst_err *err)
{
	const char *word = argv[*i], *eq = strchr(word, '=');
	char name[64];
	const struct lst_flag *f;
	const char *value = eq ? eq + 1 : NULL;

	snprintf(name, sizeof(name), "%.*s", (int)(eq ? eq - word - 2 : (long)strlen(word) - 2),
		 word + 2);
	f = lst_flag_find(cmd, name);
	if (!f)
		return lst_err_set(err, -EINVAL, "unknown option '--%s'", name);
	if (f == &s_help)
		return 1;
	if (s_switch(f) && value)
		return lst_err_set(err, -EINVAL, "--%s takes no value", name);
	if (!s_switch(f) && !value && (f->flags & LST_FLAG_OPTIONAL))
		value = "";
	else if (!s_switch(f) && !value) {
		if (*i + 1 >= argc)
			return lst_err_set(err, -EINVAL, "--%s needs a value", name);
		value = argv[++*i];
	}
	snprintf(name, sizeof(name), "--%s", f->opt.name);
	return s_apply(f, base, value, name, err);
}

/* Short flags: argv[*i] is "-x", "-xVALUE" or switches bundled, "-qv". */
static int s_short(const struct lst_flag_cmd *cmd, int argc, char **argv, int *i, void *base,
		   lst_err *err)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct lst_flag *f = s_find_letter(cmd, *p);
		const char *value = NULL;
		char spelled[4] = { '-', *p, 0 };
		int rc;

		if (!f)
			return lst_err_set(err, -EINVAL, "unknown option '-%c'", *p);
		if (f == &s_help)
			return 1;
		if (!s_switch(f)) {
			if (p[1])
				value = p + 1;
			else if (*i + 1 < argc)
				value = argv[++*i];
			else
				return lst_err_set(err, -EINVAL, "%s needs a value", spelled);
		}
		if ((rc = s_apply(f, base, value, spelled, err)))
			return rc;
		if (value)
			break;
	}
	return 0;
}

int lst_flag_parse(const struct lst_flag_cmd *cmd, int argc, char **argv, void *base, lst_err *err)
{
	char **operands = lst_calloc((size_t)argc + 1, sizeof(*operands));
	int n = 0, out = 1, rc = 0;
	bool flags = true;

	s_defaults(cmd, base);
	/* rc: 0 go on, 1 --help was given (s_long and s_short say so), < 0 an error */
	for (int i = 1; i < argc && rc == 0; i++) {
		const char *a = argv[i];

		if (!flags || a[0] != '-' || !a[1])
			operands[n++] = argv[i];
		else if (!strcmp(a, "--"))
			flags = false;
		else if (a[1] == '-')
			rc = s_long(cmd, argc, argv, &i, base, err);
		else
			rc = s_short(cmd, argc, argv, &i, base, err);
	}
	if (rc == 0) {
		/* flags (and their values) keep their slots' order; operands move behind them */
		for (int i = 1; i < argc; i++) {
			bool operand = false;

			for (int k = 0; k < n && !operand; k++)
				operand = argv[i] == operands[k];
			if (!operand)
				argv[out++] = argv[i];
		}
		rc = out;
		for (int k = 0; k < n; k++)
			argv[out++] = operands[k];
	} else if (rc == 1) {
		rc = 0;
	}
	free(operands);
	return rc;
}

/* --- help ------------------------------------------------------------------------------------ */

/* The words a flag's value may be ("text|json"), into buf; "" when it names none. */
static const char *s_choices(const struct lst_flag *f, char *buf, size_t size)
{
	buf[0] = '\0';
	if (f->words)
		snprintf(buf, size, "%s", f->words());
	else if (f->opt.type == LST_OPT_ENUM && !f->opt.ops)
		lst_opt_describe_range(&f->opt, buf, size);
	return buf;
}

/* "-o, --output DIR", "    --html[=FILE]": a flag's tag in help and usage. */
static const char *s_tag(const struct lst_flag *f, bool letter_col, char *buf, size_t size)
{
	size_t n = 0;

	if (f->letter)
		n = (size_t)snprintf(buf, size, "-%c, ", f->letter);
	else if (letter_col)
		n = (size_t)snprintf(buf, size, "    ");
	n += (size_t)snprintf(buf + n, size - n, "--%s", f->opt.name);
	if (f->arg)
		snprintf(buf + n, size - n, (f->flags & LST_FLAG_OPTIONAL) ? "[=%s]" : " %s",
			 f->arg);
	return buf;
}

/* One word of w bytes, unbroken, after a space unless it starts a line at column col (*at: the
 * column we are at, updated); a word that would pass S_WIDTH goes to a new line at col. */
static void s_word(FILE *f, const char *word, size_t w, int col, int *at)
{
	if (*at > col && *at + 1 + (int)w > S_WIDTH) {
		fprintf(f, "\n%*s", col, "");
		*at = col;
	} else if (*at > col) {
		fputc(' ', f);
		(*at)++;
	}
	fprintf(f, "%.*s", (int)w, word);
	*at += (int)w;
}

/* text at column col, wrapped at S_WIDTH; the first line starts at column *at (updated). */
static void s_wrap(FILE *f, const char *text, int col, int *at)
{
	for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
		size_t w = strcspn(p, " ");

		s_word(f, p, w, col, at);
		p += w;
	}
}

/* A flag's meaning with its choices and default, as help and man say it after its tag. */
static char *s_meaning(const struct lst_flag *f)
{
	char choices[512];
	const char *words = s_choices(f, choices, sizeof(choices));
	bool def = f->opt.def && f->arg;

	if (words[0] && def)
		return lst_asprintf("%s (%s; default %s)", f->opt.help, words, f->opt.def);
	if (words[0])
		return lst_asprintf("%s (%s)", f->opt.help, words);
	if (def)
		return lst_asprintf("%s (default %s)", f->opt.help, f->opt.def);
	return lst_strdup(f->opt.help);
}

/* One flag's lines of the --help list: its tag, then its meaning at S_HELP_COL. */
static void s_help_flag(const struct lst_flag *fl, FILE *f)
{
	char tag[128], *m = s_meaning(fl);
	int at = fprintf(f, "  %s", s_tag(fl, true, tag, sizeof(tag)));

	if (at + 2 > S_HELP_COL) {
		fprintf(f, "\n%*s", S_HELP_COL, "");
		at = S_HELP_COL;
	} else {
		at += fprintf(f, "%*s", S_HELP_COL - at, "");
	}
	s_wrap(f, m, S_HELP_COL, &at);
	fputc('\n', f);
	free(m);
}

/* The usage line's word for a flag: "[-o DIR]", "[-q]", "[--key FILE]", "[--html[=FILE]]". */
static const char *s_usage_word(const struct lst_flag *fl, char *buf, size_t size)
{
	char tag[128];

	if (fl->letter)
		snprintf(buf, size, fl->arg ? "[-%c %s]" : "[-%c]", fl->letter, fl->arg);
	else
		snprintf(buf, size, "[%s]", s_tag(fl, false, tag, sizeof(tag)));
	return buf;
}

void lst_flag_help(const struct lst_flag_cmd *cmd, FILE *f)
{
	int at = fprintf(f, "usage: %s ", cmd->name), col = at;
	char word[160];

	S_EACH (cmd, fl)
		if (!(fl->flags & LST_FLAG_HIDDEN)) {
			s_usage_word(fl, word, sizeof(word));
			s_word(f, word, strlen(word), col, &at);
		}
	if (cmd->operands)
		s_wrap(f, cmd->operands, col, &at);
	fputs("\n", f);
	if (cmd->about)
		fprintf(f, "\n%s", cmd->about);
	fputs("\noptions:\n", f);
	S_EACH (cmd, fl)
		if (!(fl->flags & LST_FLAG_HIDDEN))
			s_help_flag(fl, f);
	s_help_flag(&s_help, f);
	if (cmd->more)
		fprintf(f, "\n%s", cmd->more);
}

/* --- man ------------------------------------------------------------------------------------- */

static void s_roff_text(FILE *f, const char *s)
{
	lst_roff_inline(f, s, strlen(s));
}

/* One flag's tagged paragraph: "-o, --output DIR", then its meaning. */
static void s_man_flag(const struct lst_flag *x, FILE *f)
{
	char *m = s_meaning(x);
	bool opt = x->flags & LST_FLAG_OPTIONAL;

	fputs(".TP\n", f);
	if (x->letter)
		fprintf(f, "\\fB\\-%c\\fR, ", x->letter);
	fputs("\\fB\\-\\-", f);
	s_roff_text(f, x->opt.name);
	fputs("\\fR", f);
	if (x->arg) {
		fputs(opt ? "[=\\fI" : " \\fI", f);
		s_roff_text(f, x->arg);
		fputs(opt ? "\\fR]" : "\\fR", f);
	}
	fputc('\n', f);
	s_roff_text(f, m);
	fputc('\n', f);
	free(m);
}

void lst_flag_man(const struct lst_flag_cmd *cmd, FILE *f)
{
	char word[160];

	fputs(".PP\n", f);
	fprintf(f, "\\fB%s\\fR", cmd->name);
	S_EACH (cmd, fl)
		if (!(fl->flags & LST_FLAG_HIDDEN)) {
			s_usage_word(fl, word, sizeof(word));
			/* a flag and its value stay on one line: a non-breaking space between */
			for (char *p = word, *sp; p; p = sp ? sp + 1 : NULL) {
				sp = strchr(p, ' ');
				fputs(p == word ? " " : "\\~", f);
				lst_roff_inline(f, p, sp ? (size_t)(sp - p) : strlen(p));
			}
		}
	if (cmd->operands) {
		fputs(" \\fI", f);
		s_roff_text(f, cmd->operands);
		fputs("\\fR", f);
	}
	fputs("\n", f);
	if (cmd->about)
		lst_roff_usage(f, cmd->about);
	fputs(".PP\nOptions:\n", f);
	S_EACH (cmd, fl)
		if (!(fl->flags & LST_FLAG_HIDDEN))
			s_man_flag(fl, f);
	s_man_flag(&s_help, f);
	if (cmd->more)
		lst_roff_usage(f, cmd->more);
}

/* --- completion ------------------------------------------------------------------------------ */

static const char *const s_kinds[] = {
	[LST_FLAG_NONE] = "none", [LST_FLAG_FILE] = "file",	  [LST_FLAG_DIR] = "dir",
	[LST_FLAG_PLAN] = "plan", [LST_FLAG_RESULTS] = "results",
};

/* What a flag's value completes with. */
static void s_complete_value(const struct lst_flag *fl, FILE *f)
{
	char choices[512];

	s_choices(fl, choices, sizeof(choices));
	if (!choices[0]) {
		fprintf(f, "%s\n", s_kinds[fl->complete]);
		return;
	}
	fputs("words\n", f);
	for (char *p = choices; *p;) {
		size_t w = strcspn(p, "|, ");

		fprintf(f, "%.*s\n", (int)w, p);
		p += w;
		p += strspn(p, "|, ");
	}
}

void lst_flag_complete(const struct lst_flag_cmd *cmd, int n, char **words, int cword, FILE *f)
{
	const char *cur = cword < n ? words[cword] : "";
	const char *prev = cword > 0 && cword - 1 < n ? words[cword - 1] : "";
	const struct lst_flag *fl = NULL;

	/* the value of the flag before: "--output DIR", "-o DIR" (not "--output=DIR") */
	if (!strncmp(prev, "--", 2) && prev[2] && !strchr(prev, '='))
		fl = lst_flag_find(cmd, prev + 2);
	else if (prev[0] == '-' && prev[1] && prev[1] != '-' && !prev[2])
		fl = s_find_letter(cmd, prev[1]);
	if (fl && fl->arg && !(fl->flags & LST_FLAG_OPTIONAL)) {
		s_complete_value(fl, f);
		return;
	}
	if (cur[0] != '-') {
		fprintf(f, "%s\n", s_kinds[cmd->operand]);
		return;
	}
	fputs("words\n", f);
	S_EACH (cmd, x)
		if (!(x->flags & LST_FLAG_HIDDEN)) {
			fprintf(f, "--%s\n", x->opt.name);
			if (x->letter)
				fprintf(f, "-%c\n", x->letter);
		}
	fputs("--help\n-h\n", f);
}
