/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Man pages (man(7) macros) from the texts lockstep already has: the Markdown of its references
 * (docs/agent.md, docs/plan.md as generated) and the plain text of its --help screens, so a page
 * never holds a hand-written copy of an option list.
 *
 * The Markdown renderer knows what those files use: headings, paragraphs, fenced code, "- "
 * lists, pipe tables (each row becomes a tagged paragraph: the first cell is the tag, the other
 * cells its body) and inline `code`, **bold**, *italic* and [links](x). HTML comments and the
 * page's own "# title" line are left out. The --help renderer turns an option list (a tag, then
 * its text at one column, continuation lines under it) into tagged paragraphs and keeps any other
 * indented block as it is; a block it cannot read as options is kept as written, never guessed.
 *
 * Writers put bytes on a stdio stream and leave error checking to the caller's ferror()/fclose().
 */
#ifndef LST_ROFF_H
#define LST_ROFF_H

#include <stdio.h>

/*
 * The page's head: .TH NAME SECTION with "lockstep VERSION" as its source, no date (a page
 * built twice from the same tree is the same), then NAME: "name \- what".
 */
void lst_roff_head(FILE *f, const char *name, int section, const char *what);

/* s as roff text in the current paragraph: backslashes escaped, Markdown inline markup read. */
void lst_roff_inline(FILE *f, const char *s, size_t len);

/* Markdown text md as man(7) sections ("## Name" -> .SH NAME, "### x" -> .SS x). */
void lst_roff_md(FILE *f, const char *md);

/* A --help screen as roff: its usage lines as a synopsis block, then paragraphs and options. */
void lst_roff_usage(FILE *f, const char *text);

#endif
