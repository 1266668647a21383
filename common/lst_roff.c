/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Man pages from Markdown and --help text (see lst_roff.h). Both renderers read their input a
 * line at a time and keep no more state than the block they are in; every character that roff
 * would take as markup (a backslash, a leading '.' or '\'') is escaped on the way out, and '-'
 * is written as \- so that options copied from a page still work.
 */
#include "lst_roff.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* One plain character as roff text. */
static void s_char(FILE *f, char c)
{
	if (c == '\\')
		fputs("\\e", f);
	else if (c == '-')
		fputs("\\-", f);
	else
		fputc(c, f);
}

/* Plain text: every character as itself. */
static void s_plain(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		s_char(f, s[i]);
}

/* Start a text line with s: a leading '.' or '\'' would be a request. */
static void s_line_start(FILE *f, const char *s, size_t len)
{
	if (len && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", f);
}

/* The offset of the first closing marker m (of length n) in s[from, len), or 0 when none. */
static size_t s_find(const char *s, size_t len, size_t from, const char *m, size_t n)
{
	for (size_t i = from; i + n <= len; i++)
		if (!memcmp(s + i, m, n))
			return i;
	return 0;
}

/* A [text](target) link at s: writes its text and returns the length consumed, or 0. */
static size_t s_link(FILE *f, const char *s, size_t len)
{
	size_t close = s_find(s, len, 1, "](", 2), end;

	if (!close)
		return 0;
	end = s_find(s, len, close + 2, ")", 1);
	if (!end || memchr(s + close + 2, ' ', end - close - 2))
		return 0;
	lst_roff_inline(f, s + 1, close - 1);
	return end + 1;
}

/* An emphasis span at s opened by marker m (n bytes): font, inner text, returns the length. */
static size_t s_span(FILE *f, const char *s, size_t len, const char *m, size_t n, const char *font)
{
	size_t close;

	if (len <= n || s[n] == ' ')
		return 0;
	close = s_find(s, len, n + 1, m, n);
	if (!close || s[close - 1] == ' ')
		return 0;
	fprintf(f, "\\f%s", font);
	if (m[0] == '`')
		s_plain(f, s + n, close - n);
	else
		lst_roff_inline(f, s + n, close - n);
	fputs("\\fR", f);
	return close + n;
}

void lst_roff_inline(FILE *f, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t used = 0;

		if (s[i] == '`')
			used = s_span(f, s + i, len - i, "`", 1, "B");
		else if (s[i] == '*' && i + 1 < len && s[i + 1] == '*')
			used = s_span(f, s + i, len - i, "**", 2, "B");
		else if (s[i] == '*')
			used = s_span(f, s + i, len - i, "*", 1, "I");
		else if (s[i] == '[')
			used = s_link(f, s + i, len - i);
		else if (s[i] == '\\' && i + 1 < len && strchr("|*_`[]\\", s[i + 1]))
			i++; /* a Markdown escape: the next character as itself */
		if (!used) {
			s_char(f, s[i]);
			used = 1;
		}
		i += used;
	}
}

void lst_roff_head(FILE *f, const char *name, int section, const char *what)
{
	fprintf(f, ".TH \"%s\" \"%d\" \"\" \"lockstep %s\"\n.nh\n.nr HY 0\n.ad l\n", name, section,
		LST_VERSION);
	if (what) {
		fputs(".SH NAME\n", f);
		s_plain(f, name, strlen(name));
		fputs(" \\- ", f);
		s_plain(f, what, strlen(what));
		fputc('\n', f);
	}
}

/* ---- Markdown --------------------------------------------------------------------------- */

enum s_block { S_NONE, S_PARA, S_LIST, S_TABLE, S_FENCE, S_COMMENT };

struct s_md {
	FILE *f;
	enum s_block block;
	bool name;	  /* in the NAME section: plain "name \- what" for lexgrog */
	char head[8][64]; /* the current table's column names */
	size_t nhead;
};

/* The cells of a table row "| a | b |" into starts/lens (at most max); returns how many. */
static size_t s_cells(const char *s, size_t len, const char **start, size_t *lens, size_t max)
{
	size_t n = 0, i = 1, from = 1;

	for (; i < len && n < max; i++) {
		if (s[i] == '\\' && i + 1 < len) {
			i++;
		} else if (s[i] == '|') {
			size_t a = from, b = i;

			while (a < b && s[a] == ' ')
				a++;
			while (b > a && s[b - 1] == ' ')
				b--;
			start[n] = s + a;
			lens[n++] = b - a;
			from = i + 1;
		}
	}
	return n;
}

/* A line of text in the NAME section, "`x` - what" as "x \- what". */
static void s_md_name(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '`')
			continue;
		if (s[i] == '-' && i && s[i - 1] == ' ' && i + 1 < len && s[i + 1] == ' ')
			fputs("\\-", f);
		else
			s_char(f, s[i]);
	}
	fputc('\n', f);
}

static void s_md_heading(struct s_md *m, const char *s, size_t len)
{
	size_t level = strspn(s, "#"), at = level;

	if (level == 1)
		return; /* the page's title: .TH says it */
	at += strspn(s + at, " ");
	if (at > len)
		at = len;
	m->name = false;
	if (level == 2) {
		char name[64];
		size_t n = 0;

		for (size_t i = at; i < len && n + 1 < sizeof(name); i++)
			name[n++] = (char)toupper((unsigned char)s[i]);
		name[n] = '\0';
		m->name = !strcmp(name, "NAME");
		fputs(".SH\n", m->f);
		s_plain(m->f, name, n);
	} else {
		fputs(".SS\n", m->f);
		lst_roff_inline(m->f, s + at, len - at);
	}
	fputc('\n', m->f);
}

/* A table row as a tagged paragraph: the first cell the tag; middle cells "column: value";
 * the last cell on a line of its own. */
static void s_md_row(struct s_md *m, const char *s, size_t len)
{
	const char *cell[8];
	size_t clen[8], n = s_cells(s, len, cell, clen, 8);
	bool any = false;

	if (!n)
		return;
	fputs(".TP\n", m->f);
	s_line_start(m->f, cell[0], clen[0]);
	lst_roff_inline(m->f, cell[0], clen[0]);
	fputc('\n', m->f);
	for (size_t i = 1; i + 1 < n; i++) {
		if (!clen[i] || (clen[i] == 1 && cell[i][0] == '-'))
			continue;
		fprintf(m->f, "%s\\fI", any ? "; " : "");
		s_plain(m->f, i < m->nhead ? m->head[i] : "",
			i < m->nhead ? strlen(m->head[i]) : 0);
		fputs("\\fR: ", m->f);
		lst_roff_inline(m->f, cell[i], clen[i]);
		any = true;
	}
	if (any)
		fputs("\n.br\n", m->f);
	if (n > 1) {
		s_line_start(m->f, cell[n - 1], clen[n - 1]);
		lst_roff_inline(m->f, cell[n - 1], clen[n - 1]);
		fputc('\n', m->f);
	}
}

/* A table's header row: remember the column names, the separator line after it is skipped. */
static void s_md_table_head(struct s_md *m, const char *s, size_t len)
{
	const char *cell[8];
	size_t clen[8];

	m->nhead = s_cells(s, len, cell, clen, 8);
	for (size_t i = 0; i < m->nhead; i++)
		snprintf(m->head[i], sizeof(m->head[i]), "%.*s", (int)clen[i], cell[i]);
	m->block = S_TABLE;
}

static void s_md_code(FILE *f, const char *s, size_t len)
{
	s_line_start(f, s, len);
	s_plain(f, s, len);
	fputc('\n', f);
}

static bool s_is_item(const char *s, size_t len)
{
	return len > 2 && (s[0] == '-' || s[0] == '*') && s[1] == ' ';
}

/* A line of text: a paragraph's, a list item's or an item's continuation. */
static void s_md_text(struct s_md *m, const char *s, size_t len)
{
	if (s_is_item(s, len)) {
		fputs(".IP \\(bu 2\n", m->f);
		s += 2;
		len -= 2;
		m->block = S_LIST;
	} else if (m->block != S_PARA && m->block != S_LIST) {
		fputs(".PP\n", m->f);
		m->block = S_PARA;
	}
	while (len && (*s == ' ' || *s == '>')) {
		s++;
		len--;
	}
	if (m->name) {
		s_md_name(m->f, s, len);
		return;
	}
	s_line_start(m->f, s, len);
	lst_roff_inline(m->f, s, len);
	fputc('\n', m->f);
}

/* One line of Markdown; next is the line after it (for a table's separator). */
static void s_md_line(struct s_md *m, const char *s, size_t len, const char *next)
{
	if (m->block == S_COMMENT) {
		if (s_find(s, len, 0, "-->", 3) || (len >= 3 && !memcmp(s, "-->", 3)))
			m->block = S_NONE;
		return;
	}
	if (m->block == S_FENCE) {
		if (len >= 3 && !memcmp(s, "```", 3)) {
			fputs(".EE\n", m->f);
			m->block = S_NONE;
		} else {
			s_md_code(m->f, s, len);
		}
		return;
	}
	if (!len) {
		m->block = S_NONE;
	} else if (len >= 4 && !memcmp(s, "<!--", 4)) {
		if (!s_find(s, len, 4, "-->", 3))
			m->block = S_COMMENT;
	} else if (len >= 3 && !memcmp(s, "```", 3)) {
		fputs(".PP\n.EX\n", m->f);
		m->block = S_FENCE;
	} else if (s[0] == '#') {
		s_md_heading(m, s, len);
		m->block = S_NONE;
	} else if (s[0] == '|' && m->block == S_TABLE) {
		if (!strspn(s, "|-: ") || strspn(s, "|-: ") < len)
			s_md_row(m, s, len);
	} else if (s[0] == '|' && next && !strncmp(next, "|-", 2)) {
		s_md_table_head(m, s, len);
	} else {
		s_md_text(m, s, len);
	}
}

void lst_roff_md(FILE *f, const char *md)
{
	struct s_md m = { .f = f, .block = S_NONE };

	while (*md) {
		const char *eol = strchr(md, '\n');
		size_t len = eol ? (size_t)(eol - md) : strlen(md);

		s_md_line(&m, md, len, eol ? eol + 1 : NULL);
		md += len + (eol ? 1 : 0);
	}
	if (m.block == S_FENCE)
		fputs(".EE\n", f);
}

/* ---- --help text ---------------------------------------------------------------------- */

struct s_line {
	const char *s;
	size_t len, indent;
};

/* The lines of one block of text (up to a blank line) from *text; returns how many (<= max). */
static size_t s_block(const char **text, struct s_line *lines, size_t max)
{
	size_t n = 0;

	while (**text == '\n')
		(*text)++;
	while (**text && **text != '\n' && n < max) {
		const char *eol = strchr(*text, '\n');
		size_t len = eol ? (size_t)(eol - *text) : strlen(*text);

		lines[n].s = *text;
		lines[n].len = len;
		lines[n].indent = strspn(*text, " ");
		n++;
		*text += len + (eol ? 1 : 0);
	}
	return n;
}

/* The column an option list's descriptions start at: the deepest indent of its continuation
 * lines, else where the first line's tag ends after a gap of two spaces; 0 when neither. */
static size_t s_desc_column(const struct s_line *l, size_t n)
{
	size_t col = 0;

	for (size_t i = 1; i < n; i++)
		if (l[i].indent > l[0].indent + 4 && l[i].indent > col)
			col = l[i].indent;
	if (!col) {
		size_t gap = s_find(l[0].s, l[0].len, l[0].indent, "  ", 2);

		if (gap)
			col = gap + strspn(l[0].s + gap, " ");
	}
	return col;
}

/* Where the text of option line l starts: at col when the tag ends before it, else after the
 * tag's own gap of two spaces (a tag longer than the column); 0 when neither. */
static size_t s_entry_desc(const struct s_line *l, size_t col)
{
	size_t gap;

	if (l->len <= col || (l->s[col - 1] == ' ' && l->s[col] != ' '))
		return col;
	gap = s_find(l->s, l->len, l->indent, "  ", 2);
	if (!gap || gap < col)
		return 0;
	gap += strspn(l->s + gap, " ");
	return gap < l->len ? gap : 0;
}

/* Whether every line of the block is an option ("tag  text" with text at col, or after the
 * tag's gap) or a continuation (text at col, after an option). */
static bool s_is_options(const struct s_line *l, size_t n, size_t col)
{
	if (!col || !l[0].indent)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (l[i].indent == col && i)
			continue;
		if (!l[i].indent || l[i].indent >= col || !s_entry_desc(&l[i], col))
			return false;
	}
	return true;
}

static void s_text_line(FILE *f, const char *s, size_t len)
{
	while (len && *s == ' ') {
		s++;
		len--;
	}
	s_line_start(f, s, len);
	s_plain(f, s, len);
	fputc('\n', f);
}

static void s_usage_options(FILE *f, const struct s_line *l, size_t n, size_t col)
{
	for (size_t i = 0; i < n; i++) {
		size_t at = col, end;

		if (l[i].indent != col || !i) {
			at = s_entry_desc(&l[i], col);
			end = l[i].len < at ? l[i].len : at;
			while (end > l[i].indent && l[i].s[end - 1] == ' ')
				end--;
			fputs(".TP\n\\fB", f);
			s_plain(f, l[i].s + l[i].indent, end - l[i].indent);
			fputs("\\fR\n", f);
			if (l[i].len <= at)
				continue;
		}
		s_text_line(f, l[i].s + at, l[i].len - at);
	}
}

static void s_usage_pre(FILE *f, const struct s_line *l, size_t n, size_t strip)
{
	fputs(".PP\n.nf\n", f);
	for (size_t i = 0; i < n; i++) {
		size_t k = l[i].indent < strip ? l[i].indent : strip;

		s_line_start(f, l[i].s + k, l[i].len - k);
		s_plain(f, l[i].s + k, l[i].len - k);
		fputc('\n', f);
	}
	fputs(".fi\n", f);
}

void lst_roff_usage(FILE *f, const char *text)
{
	struct s_line l[64];
	size_t n;

	while ((n = s_block(&text, l, 64))) {
		bool indented = false;
		size_t col;

		for (size_t i = 0; i < n; i++)
			indented |= l[i].indent > 0;
		if (!strncmp(l[0].s, "usage: ", 7)) {
			l[0].s += 7;
			l[0].len -= 7;
			s_usage_pre(f, l, n, 7);
		} else if (n > 1 && !l[0].indent && l[0].len && l[0].s[l[0].len - 1] == ':' &&
			   s_is_options(l + 1, n - 1, (col = s_desc_column(l + 1, n - 1)))) {
			fputs(".PP\n", f);
			s_text_line(f, l[0].s, l[0].len);
			s_usage_options(f, l + 1, n - 1, col);
		} else if (!indented) {
			fputs(".PP\n", f);
			for (size_t i = 0; i < n; i++)
				s_text_line(f, l[i].s, l[i].len);
		} else if (s_is_options(l, n, (col = s_desc_column(l, n)))) {
			s_usage_options(f, l, n, col);
		} else {
			s_usage_pre(f, l, n, 0);
		}
	}
}
