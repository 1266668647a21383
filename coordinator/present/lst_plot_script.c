/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plots' scripts and the gnuplot that draws them: a plot context (output folder, names
 * given out, first failure), a script's header and its pass over the output formats
 * (plots/frame.gp), gnuplot strings and numbers, and running gnuplot on a finished script
 * through common/lst_proc (path resolved from PATH, stdin /dev/null, the tail of its output
 * kept for error messages), killed after LST_PLOT_TIMEOUT_S. The plot families are one file
 * each (lst_plot_*.c, drawn in order by lst_plot.c); lst_plot_int.h is what they share.
 */
#include "lst_plot_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_plot_tpl.h"
#include "lst_proc.h"
#include "lst_util.h"

#define S_OUT_MAX 2048	     /* tail of gnuplot's output kept for error messages */
#define S_PROBE_TIMEOUT_S 20 /* `gnuplot -e "set terminal"` */
#define S_SVG_WIDTH 760	     /* px: an A4 page's text width, where the HTML report shows it */
#define S_SVG_MIN_HEIGHT 440 /* px: wide plots (three panels) keep room for their keys */

const char *const lst_plot__colors[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
};
const size_t lst_plot__ncolors = LST_ARRAY_SIZE(lst_plot__colors);

/* Thin lines for single agents: muted, distinct from the combined line's blue. */
const char *const lst_plot__agent_colors[] = {
	"#7fb77e", "#c49c94", "#dba5d0", "#9edae5", "#c7c77a", "#a0a0a0",
};

const size_t lst_plot__nagent_colors = LST_ARRAY_SIZE(lst_plot__agent_colors);

/* Which PNG terminal gnuplot has, found once per process. */
static enum { S_PNG_UNKNOWN, S_PNG_CAIRO, S_PNG_GD, S_PNG_NONE } s_png = S_PNG_UNKNOWN;

void lst_plot_list_free(struct lst_plot_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->drawn);
	memset(l, 0, sizeof(*l));
}

static void s_fail(struct lst_plot__ctx *c, int rc, const lst_err *e)
{
	lst_log_warn("%s", e->msg);
	if (!c->rc) {
		c->rc = rc;
		if (c->err)
			*c->err = *e;
	}
}

/* --- gnuplot, the process -------------------------------------------------------------------- */

/*
 * The gnuplot to draw with (caller frees), or NULL with err: -ENOENT when it is not in PATH.
 * Also finds out (once per process, from `gnuplot -e "set terminal"`) which PNG terminal it has.
 */
static char *s_gnuplot(lst_err *err)
{
	char *gp = lst_proc_which("gnuplot");
	char out[S_OUT_MAX * 8]; /* the whole terminal list: the names we look for are in it */
	int rc;

	if (!gp) {
		lst_err_set(err, -ENOENT,
			    "gnuplot is not installed (not found in PATH); install gnuplot-nox "
			    "to draw plots");
		return NULL;
	}
	if (s_png == S_PNG_UNKNOWN) {
		const char *argv[] = { gp, "-e", "set terminal", NULL };

		rc = lst_proc_run(NULL, argv, S_PROBE_TIMEOUT_S, out, sizeof(out));
		if (rc) {
			free(gp);
			lst_err_set(err, rc < 0 ? rc : -EIO,
				    "gnuplot -e \"set terminal\" failed (%d): cannot draw", rc);
			return NULL;
		}
		if (strstr(out, " pngcairo "))
			s_png = S_PNG_CAIRO;
		else if (strstr(out, " png "))
			s_png = S_PNG_GD;
		else
			s_png = S_PNG_NONE;
		if (s_png == S_PNG_NONE)
			lst_log_warn(
				"gnuplot has neither the pngcairo nor the png terminal: drawing "
				"SVG only");
		else if (s_png == S_PNG_GD)
			lst_log_debug(LST_DBG_ALL, "plots: no pngcairo, PNG through libgd");
	}
	return gp;
}

/* --- script text ----------------------------------------------------------------------------- */

const char *lst_plot__short_iops(double v, char *buf, size_t size)
{
	if (v >= 1e6)
		snprintf(buf, size, "%.2fM", v / 1e6);
	else if (v >= 1e5)
		snprintf(buf, size, "%.0fk", v / 1e3);
	else if (v >= 1e4)
		snprintf(buf, size, "%.1fk", v / 1e3);
	else if (v >= 1e3)
		snprintf(buf, size, "%.2fk", v / 1e3);
	else
		snprintf(buf, size, "%.0f", v);
	return buf;
}

/*
 * A gnuplot double-quoted string: backslash and quote escaped, newline as \n. A backquote is
 * written as the octal escape \140: gnuplot runs `...` inside double quotes as a shell command
 * before it parses the line, and these strings hold text from the results folder.
 */
void lst_plot__q(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '`')
			fputs("\\140", f);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch < 0x20 || ch == 0x7f)
			fputc(' ', f);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* s_q into a new string (caller frees), for template values. */
char *__attribute__((format(printf, 1, 2))) lst_plot__qstr(const char *fmt, ...)
{
	char *text, *out = NULL;
	size_t len = 0;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	LST_ASSERT(vasprintf(&text, fmt, ap) >= 0);
	va_end(ap);
	f = open_memstream(&out, &len);
	LST_ASSERT(f);
	lst_plot__q(f, text);
	LST_ASSERT(!fclose(f));
	free(text);
	return out;
}

/* A comment line: no control characters, and never a trailing backslash (a continuation). */
void __attribute__((format(printf, 2, 3))) lst_plot__comment(FILE *f, const char *fmt, ...)
{
	char buf[1024];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	n = strlen(buf);
	while (n && buf[n - 1] == '\\')
		buf[--n] = '\0';
	fprintf(f, "# %s\n", buf);
}

void lst_plot__num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.7g", v);
	else
		fputs(" NaN", f);
}

/* A latency for a log axis: NaN unless positive. */
double lst_plot__pos(double v)
{
	return v > 0 ? v : NAN;
}

void lst_plot_slug(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++) {
		char ch = *in;
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') || ch == '.' || ch == '-';

		if (keep)
			out[n++] = ch;
		else if (n && out[n - 1] != '_')
			out[n++] = '_';
	}
	while (n && out[n - 1] == '_')
		n--;
	if (!n || (n == 1 && out[0] == '.') || (n == 2 && !strncmp(out, "..", 2)))
		n = (size_t)snprintf(out, size, "x");
	out[n] = '\0';
}

/* A unique plot name: prefix, then the slugs of a and b (NULL to leave out). Borrowed. */
const char *lst_plot__name(struct lst_plot__ctx *c, const char *prefix, const char *a,
			   const char *b)
{
	char sa[96] = "", sb[96] = "", name[256];
	int k = 1;

	if (a)
		lst_plot_slug(a, sa, sizeof(sa));
	if (b)
		lst_plot_slug(b, sb, sizeof(sb));
	snprintf(name, sizeof(name), "%s%s%s%s%s", prefix, a ? "_" : "", sa, b ? "_" : "", sb);
	for (;;) {
		char try[300];
		bool taken = false;

		if (k == 1)
			snprintf(try, sizeof(try), "%s", name);
		else
			snprintf(try, sizeof(try), "%s-%d", name, k);
		for (size_t i = 0; i < c->nused; i++)
			if (!strcmp(c->used[i], try))
				taken = true;
		if (!taken) {
			c->used = lst_realloc(c->used, (c->nused + 1) * sizeof(*c->used));
			c->used[c->nused] = lst_strdup(try);
			return c->used[c->nused++];
		}
		k++;
	}
}

/* Open NAME.gp with its header. Returns NULL (failure recorded) when it cannot be created. */
FILE *lst_plot__script(struct lst_plot__ctx *c, const char *name, const char *what)
{
	char *path = lst_asprintf("%s/%s.gp", c->outdir, name);
	FILE *f = fopen(path, "w");
	lst_err e;

	if (!f) {
		s_fail(c, lst_err_sys(&e, -errno, "cannot create %s", path), &e);
		free(path);
		return NULL;
	}
	free(path);
	lst_plot__comment(f, "lockstep: %s", what);
	lst_plot__comment(f, "Data from %s, inline below. Written by 'lockstep report'.",
			  c->source);
	lst_plot__comment(f, "Draw again (after editing) with: gnuplot %s.gp   (in this folder)",
			  name);
	fputs("set encoding utf8\n", f);
	return f;
}

/* The pass over the output formats (plots/frame.gp); every plot body goes between begin and end. */
void lst_plot__begin(FILE *f, const char *name, int w, int h)
{
	char ws[16], hs[16], sw[16], sh[16];

	snprintf(ws, sizeof(ws), "%d", w);
	snprintf(hs, sizeof(hs), "%d", h);
	/* The SVG is drawn at about the width it is shown at (the HTML page inlines it at A4
	 * width), so its text is not scaled down to 6-7 px on the page. */
	snprintf(sw, sizeof(sw), "%d", S_SVG_WIDTH);
	snprintf(sh, sizeof(sh), "%d", LST_MAX(h * S_SVG_WIDTH / w, S_SVG_MIN_HEIGHT));
	lst_plot_tpl(f, "frame", "begin",
		     (const struct lst_tpl_arg[]){
			     { "formats", s_png == S_PNG_NONE ? "svg" : "svg png" },
			     { "w", ws },
			     { "h", hs },
			     { "sw", sw },
			     { "sh", sh },
			     { "png", s_png == S_PNG_GD ? "png" : "pngcairo" },
			     { "name", name },
			     { NULL, NULL },
		     });
}

void lst_plot__end(FILE *f)
{
	lst_plot_tpl(f, "frame", "end", NULL);
}

static bool s_nonempty(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* Close the script and draw it. */
void lst_plot__draw(struct lst_plot__ctx *c, FILE *f, const char *name)
{
	struct lst_plot_list *l = c->made;
	char out[S_OUT_MAX], last[600];
	bool failed = ferror(f);
	size_t idx = 0;
	lst_err e;
	int rc;

	if (fclose(f) || failed) {
		s_fail(c, lst_err_sys(&e, -EIO, "writing %s/%s.gp failed", c->outdir, name), &e);
		return;
	}
	if (l) {
		l->names = lst_realloc(l->names, (l->n + 1) * sizeof(*l->names));
		l->drawn = lst_realloc(l->drawn, (l->n + 1) * sizeof(*l->drawn));
		idx = l->n++;
		l->names[idx] = lst_strdup(name);
		l->drawn[idx] = false;
	}
	if (!c->gnuplot)
		return;
	{
		char *script = lst_asprintf("%s.gp", name);
		const char *argv[] = { c->gnuplot, script, NULL };

		rc = lst_proc_run(c->outdir, argv, LST_PLOT_TIMEOUT_S, out, sizeof(out));
		free(script);
	}
	lst_proc_last_lines(out, last, sizeof(last));
	if (rc == -ETIMEDOUT) {
		lst_err_set(&e, rc, "gnuplot %s/%s.gp: no result after %d s; stopped it", c->outdir,
			    name, LST_PLOT_TIMEOUT_S);
		s_fail(c, rc, &e);
		return;
	}
	if (rc) {
		lst_err_set(&e, rc < 0 ? rc : -EIO, "gnuplot %s/%s.gp failed (%s %d): %s",
			    c->outdir, name, rc < 0 ? "error" : "exit status", rc, last);
		s_fail(c, e.code, &e);
		return;
	}
	for (int k = 0; k < (s_png == S_PNG_NONE ? 1 : 2); k++) {
		char *img = lst_asprintf("%s/%s.%s", c->outdir, name, k ? "png" : "svg");
		bool ok = s_nonempty(img);

		if (!ok) {
			lst_err_set(&e, -EIO, "gnuplot %s/%s.gp wrote no %s (it said: %s)",
				    c->outdir, name, img, last);
			s_fail(c, e.code, &e);
		}
		free(img);
		if (!ok)
			return;
	}
	if (l)
		l->drawn[idx] = true;
}

/* --- the whole folder ------------------------------------------------------------------------ */

int lst_plot__ctx_init(struct lst_plot__ctx *c, const char *outdir, const char *source,
		       struct lst_plot_list *made, lst_err *err)
{
	lst_err e;
	int rc;

	memset(c, 0, sizeof(*c));
	c->outdir = outdir;
	c->source = source;
	c->made = made;
	c->err = err;
	if (made)
		memset(made, 0, sizeof(*made));
	rc = lst_mkdir_p(outdir);
	if (rc)
		return lst_err_sys(err, rc, "cannot create the plots folder %s", outdir);
	c->gnuplot = s_gnuplot(&e);
	if (!c->gnuplot) {
		if (e.code != -ENOENT)
			lst_log_warn("%s", e.msg);
		if (s_png == S_PNG_UNKNOWN)
			s_png = S_PNG_CAIRO; /* for the scripts; drawn wherever gnuplot exists */
	}
	return 0;
}

/* What the context ends with: the first failure, or -ENOENT when nothing could be drawn. */
int lst_plot__ctx_exit(struct lst_plot__ctx *c)
{
	int rc = c->rc;

	if (!c->gnuplot && !rc)
		rc = lst_err_set(c->err, -ENOENT,
				 "gnuplot is not installed (not found in PATH): plots not drawn; "
				 "their scripts are in %s (install gnuplot-nox and run 'lockstep "
				 "report' again)",
				 c->outdir);
	for (size_t i = 0; i < c->nused; i++)
		free(c->used[i]);
	free(c->used);
	free(c->gnuplot);
	return rc;
}
