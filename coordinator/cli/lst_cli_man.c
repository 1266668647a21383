/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep --write-man DIR`: lockstep(1) and lockstep-plan(5), made from what --help and
 * docs/plan.md are made from. lockstep(1) is the overview --help, then a subsection per command
 * of main's table written from that command's table of flags (lst_flag_man: its synopsis,
 * texts and a tagged paragraph per flag); lockstep-plan(5) is the plan reference's Markdown
 * (lst_plan_write_doc) rendered as roff. Nothing here lists an option, so a page cannot
 * disagree with --help or the reference.
 */
#include "lst_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_plan.h"
#include "lst_roff.h"

/* What a writer put on a stream, into *text (the caller frees it). */
static void s_capture(void (*write)(FILE *f), char **text)
{
	size_t size = 0;
	FILE *f = open_memstream(text, &size);

	if (!f)
		abort(); /* out of memory */
	write(f);
	fclose(f);
}

static void s_page_lockstep(FILE *f, const struct lst_cli_cmd *cmds, size_t n,
			    void (*usage)(FILE *f))
{
	char *text = NULL;
	const char *rest;
	char *synopsis;

	s_capture(usage, &text);
	rest = strstr(text, "\n\n"); /* the usage lines, then the rest of --help */
	synopsis = strndup(text, rest ? (size_t)(rest - text) : strlen(text));

	lst_roff_head(f, "lockstep", 1, "coordinate a storage test across hosts");
	fputs(".SH SYNOPSIS\n", f);
	lst_roff_usage(f, synopsis);
	if (rest) {
		fputs(".SH DESCRIPTION\n", f);
		lst_roff_usage(f, rest);
	}
	free(synopsis);
	free(text);
	fputs(".SH COMMANDS\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, ".SS \"lockstep %s\"\n", cmds[i].name);
		fputs(".PP\n", f);
		lst_roff_inline(f, cmds[i].help, strlen(cmds[i].help));
		fputs(".\n", f);
		lst_flag_man(cmds[i].flags, f);
	}
	/* lst_cli.h's contract, which every command keeps; each section above gives the details */
	fputs(".SH \"EXIT STATUS\"\n.TP\n0\nsuccess\n.TP\n1\nthe run or check found a problem "
	      "(an agent was lost, a test failed, not steady)\n.TP\n2\nbad usage or bad input "
	      "(plan, flags, files)\n.PP\nEach command's section above gives its own.\n",
	      f);
	fputs(".SH \"SEE ALSO\"\n.BR lockstep\\-agent (8),\n.BR lockstep\\-plan (5)\n", f);
}

static void s_page_plan(FILE *f)
{
	char *md = NULL;

	s_capture(lst_plan_write_doc, &md);

	lst_roff_head(f, "lockstep-plan", 5, "the lockstep plan file: agents, targets and phases");
	fputs(".SH DESCRIPTION\n", f); /* the reference's opening paragraphs have no heading */
	lst_roff_md(f, md);
	free(md);
	fputs(".SH \"SEE ALSO\"\n.BR lockstep (1),\n.BR lockstep\\-agent (8)\n", f);
}

/* Open dir/name for writing; NULL after saying why. */
static FILE *s_open(const char *dir, const char *name, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "lockstep: %s: cannot write: %s\n", path, strerror(errno));
	return f;
}

static int s_close(FILE *f, const char *path)
{
	bool bad = ferror(f);

	if (fclose(f) || bad) {
		fprintf(stderr, "lockstep: %s: cannot write\n", path);
		return 1;
	}
	return 0;
}

int lst_cli_write_man(const char *dir, const struct lst_cli_cmd *cmds, size_t n,
		      void (*usage)(FILE *f))
{
	char path[4096];
	FILE *f = s_open(dir, "lockstep.1", path, sizeof(path));

	if (!f)
		return 1;
	s_page_lockstep(f, cmds, n, usage);
	if (s_close(f, path))
		return 1;
	f = s_open(dir, "lockstep-plan.5", path, sizeof(path));
	if (!f)
		return 1;
	s_page_plan(f);
	return s_close(f, path);
}
