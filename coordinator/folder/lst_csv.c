/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CSV reader: one buffer holding the file, split in place into NUL-terminated fields, and
 * an array of field pointers, ncols per row. Quoted fields are unescaped in place (they only
 * ever shrink), so nothing is copied.
 *
 * The loose line splitter at the end (lst_csv_next_field) is the one `lockstep steady` reads
 * hand-made columns with: one line at a time, any of four separators, quotes forgiven.
 */
#include "lst_csv.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_log.h"
#include "lst_util.h"

#define S_SHOW_MAX 48		  /* characters of a bad field quoted in an error */
#define S_CHUNK ((size_t)1 << 20) /* bytes a reader reads at a time */

struct lst_csv {
	char *path;
	char *buf;
	size_t ncols, nrows, cap;
	char **head;	/* [ncols] */
	char **cells;	/* [nrows * ncols] */
	long *lines;	/* [nrows] */
	size_t hdr_end; /* where the header record ends in buf (a reader's prefix) */
	long hdr_line;	/* the line after it */
	bool quiet;	/* an incomplete last line is dropped without a warning */
};

/* One record being split: its fields (pointers into the buffer). */
struct s_rec {
	char **f;
	size_t n, cap;
	long line;
	bool complete; /* ended with a newline */
};

static void s_push_field(struct s_rec *r, char *f)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 32;
		r->f = lst_realloc(r->f, r->cap * sizeof(*r->f));
	}
	r->f[r->n++] = f;
}

static void s_trim(char *start, char **end)
{
	while (*end > start && ((*end)[-1] == ' ' || (*end)[-1] == '\t' || (*end)[-1] == '\r'))
		(*end)--;
}

/*
 * Split the record at *pos into r (fields NUL-terminated in place). *line is the current line,
 * advanced past newlines inside quotes and past the record's own newline. Returns 0, 1 at the
 * end of the buffer, or -EINVAL with err.
 */
static int s_record(const char *path, char *buf, size_t len, size_t *pos, long *line,
		    struct s_rec *r, lst_err *err)
{
	size_t i = *pos;

	r->n = 0;
	r->line = *line;
	r->complete = false;
	if (i >= len)
		return 1;
	for (;;) {
		char *start = buf + i, *w = start;

		if (i < len && buf[i] == '"') {
			long opened = *line;

			i++;
			for (;;) {
				if (i >= len)
					return lst_err_set(
						err, -EINVAL,
						"%s:%ld: a quoted field opened here never "
						"ends",
						path, opened);
				if (buf[i] == '"') {
					if (i + 1 < len && buf[i + 1] == '"') {
						*w++ = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (buf[i] == '\n')
					(*line)++;
				*w++ = buf[i++];
			}
			if (i < len && buf[i] == '\r' && (i + 1 >= len || buf[i + 1] == '\n'))
				i++;
			if (i < len && buf[i] != ',' && buf[i] != '\n')
				return lst_err_set(
					err, -EINVAL,
					"%s:%ld: '%c' after the closing quote of field %zu "
					"(a quote inside a quoted field is written \"\")",
					path, *line, buf[i], r->n + 1);
		} else {
			while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
				i++;
			start = w = buf + i;
			while (i < len && buf[i] != ',' && buf[i] != '\n') {
				if (buf[i] == '"')
					return lst_err_set(
						err, -EINVAL,
						"%s:%ld: a quote inside unquoted field %zu "
						"(quote the whole field)",
						path, *line, r->n + 1);
				w++;
				i++;
			}
			s_trim(start, &w);
		}
		s_push_field(r, start);
		if (i >= len) {
			*w = '\0';
			break;
		}
		if (buf[i] == '\n') {
			*w = '\0';
			i++;
			(*line)++;
			r->complete = true;
			break;
		}
		*w = '\0'; /* buf[i] == ',': w <= buf + i, so this never overwrites unread text */
		i++;
	}
	*pos = i;
	return 0;
}

static bool s_blank(const struct s_rec *r)
{
	return r->n == 1 && !r->f[0][0];
}

/* The header: the first record that is not blank. */
static int s_header(lst_csv *t, size_t len, size_t *pos, long *line, struct s_rec *r, lst_err *err)
{
	int rc;

	do {
		rc = s_record(t->path, t->buf, len, pos, line, r, err);
	} while (!rc && s_blank(r));
	if (rc == 1)
		return lst_err_set(err, -EINVAL, "%s: empty, not even a header line", t->path);
	if (rc)
		return rc;
	t->ncols = r->n;
	t->head = lst_malloc(r->n * sizeof(*t->head));
	memcpy(t->head, r->f, r->n * sizeof(*t->head));
	t->hdr_end = *pos;
	t->hdr_line = *line;
	return 0;
}

static void s_add_row(lst_csv *t, const struct s_rec *r)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->cells = lst_realloc(t->cells, t->cap * t->ncols * sizeof(*t->cells));
		t->lines = lst_realloc(t->lines, t->cap * sizeof(*t->lines));
	}
	memcpy(t->cells + t->nrows * t->ncols, r->f, t->ncols * sizeof(*t->cells));
	t->lines[t->nrows++] = r->line;
}

/*
 * Room for every row the rest of the buffer can hold, allocated once (doubling a
 * long timeseries.csv's field pointers held up to three times their size while copying). A
 * record ends with a newline (or the buffer) and has at least ncols - 1 commas, so there are at
 * most min(newlines, bytes / ncols) + 1 of them: never more pointers than bytes.
 */
static void s_reserve(lst_csv *t, size_t len, size_t pos)
{
	size_t nl = 0, most;

	for (const char *c = t->buf + pos; (c = memchr(c, '\n', len - (size_t)(c - t->buf))); c++)
		nl++;
	most = (len - pos) / (t->ncols ? t->ncols : 1);
	t->cap = (nl < most ? nl : most) + 1;
	t->cells = lst_realloc(t->cells, t->cap * t->ncols * sizeof(*t->cells));
	t->lines = lst_realloc(t->lines, t->cap * sizeof(*t->lines));
}

/* The data records after the header, each with as many fields as the header. */
static int s_rows(lst_csv *t, size_t len, size_t *pos, long *line, struct s_rec *r, lst_err *err)
{
	int rc;

	s_reserve(t, len, *pos);
	while (!(rc = s_record(t->path, t->buf, len, pos, line, r, err))) {
		if (s_blank(r))
			continue;
		if (r->n != t->ncols) {
			if (!r->complete && r->n < t->ncols) {
				if (t->quiet)
					return 0;
				lst_log_warn(
					"%s:%ld: the last line is incomplete (%zu of %zu fields; "
					"the run was stopped while writing it?): ignored",
					t->path, r->line, r->n, t->ncols);
				return 0;
			}
			return lst_err_set(err, -EINVAL, "%s:%ld: %zu field%s, the header has %zu",
					   t->path, r->line, r->n, r->n == 1 ? "" : "s", t->ncols);
		}
		s_add_row(t, r);
	}
	return rc < 0 ? rc : 0;
}

/* lst_csv_parse, with the data records' lines moved skip lines on (a reader's chunk after its
 * header) and an incomplete last line dropped silently when quiet. */
static int s_parse(const char *path, char *buf, size_t len, long skip, bool quiet, lst_csv **out,
		   lst_err *err)
{
	struct s_rec r = { 0 };
	size_t pos = 0;
	long line = 1;
	lst_csv *t;
	int rc;

	*out = NULL;
	t = lst_calloc(1, sizeof(*t));
	t->path = lst_strdup(path);
	t->buf = buf;
	t->quiet = quiet;
	if (len >= 3 && !memcmp(t->buf, "\xef\xbb\xbf", 3))
		pos = 3;
	if (memchr(t->buf, '\0', len)) {
		rc = lst_err_set(err, -EINVAL, "%s: holds a NUL byte: not a CSV file", path);
		goto free_table;
	}
	if ((rc = s_header(t, len, &pos, &line, &r, err)))
		goto free_table;
	line += skip;
	if ((rc = s_rows(t, len, &pos, &line, &r, err)))
		goto free_table;
	free(r.f);
	*out = t;
	return 0;

free_table:
	free(r.f);
	lst_csv_destroy(&t);
	return rc;
}

int lst_csv_parse(const char *path, char *buf, size_t len, lst_csv **out, lst_err *err)
{
	return s_parse(path, buf, len, 0, false, out, err);
}

int lst_csv_load(const char *path, lst_csv **out, lst_err *err)
{
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	rc = lst_read_file(path, LST_CSV_MAX_BYTES, &buf, &len);
	if (rc == -ENOENT)
		return lst_err_set(err, rc, "%s: no such file", path);
	if (rc)
		return lst_err_sys(err, rc, "reading %s failed", path);
	return lst_csv_parse(path, buf, len, out, err);
}

/* --- a file read a chunk at a time ---------------------------------------------------------- */

struct lst_csv_reader {
	char *path;
	FILE *f;
	bool quiet, eof, started;
	char *prefix; /* the file up to the end of its header record (BOM, blank lines, header) */
	size_t nprefix;
	long prefix_lines; /* the line after the header */
	long line;	   /* the line the next chunk starts on */
	char *carry;	   /* the start of a record the last chunk cut off */
	size_t ncarry;
};

int lst_csv_reader_open(const char *path, bool quiet, lst_csv_reader **out, lst_err *err)
{
	FILE *f = fopen(path, "rb");
	lst_csv_reader *rd;

	*out = NULL;
	if (!f && errno == ENOENT)
		return lst_err_set(err, -ENOENT, "%s: no such file", path);
	if (!f)
		return lst_err_sys(err, -errno, "reading %s failed", path);
	rd = lst_calloc(1, sizeof(*rd));
	rd->path = lst_strdup(path);
	rd->f = f;
	rd->quiet = quiet;
	rd->line = 1;
	*out = rd;
	return 0;
}

void lst_csv_reader_destroy(lst_csv_reader **p)
{
	lst_csv_reader *rd = *p;

	if (!rd)
		return;
	fclose(rd->f);
	free(rd->path);
	free(rd->prefix);
	free(rd->carry);
	free(rd);
	*p = NULL;
}

/* Where the last record that ends with a newline ends in b[0, n) (quotes toggle at each '"',
 * so "" inside a quoted field leaves it quoted); 0 when none does. */
static size_t s_cut(const char *b, size_t n)
{
	size_t cut = 0;
	bool quoted = false;

	for (size_t i = 0; i < n; i++) {
		if (b[i] == '"')
			quoted = !quoted;
		else if (b[i] == '\n' && !quoted)
			cut = i + 1;
	}
	return cut;
}

/* The carried bytes and at least one more record read into a new buffer (*n bytes, room for
 * the prefix before them); *cut where its last complete record ends. */
static int s_fill(lst_csv_reader *rd, char **out, size_t *n, size_t *cut, lst_err *err)
{
	size_t cap = rd->ncarry + S_CHUNK, pre = rd->started ? rd->nprefix : 0;
	char *b = lst_malloc(pre + cap + 1);

	if (rd->ncarry) /* before the first chunk there is no carry buffer at all */
		memcpy(b + pre, rd->carry, rd->ncarry);
	*n = rd->ncarry;
	*cut = 0;
	while (!rd->eof) {
		size_t want = cap - *n, got = fread(b + pre + *n, 1, want, rd->f);

		*n += got;
		if (got < want && ferror(rd->f)) {
			free(b);
			return lst_err_sys(err, -EIO, "reading %s failed", rd->path);
		}
		rd->eof = feof(rd->f);
		if ((*cut = s_cut(b + pre, *n)) || rd->eof)
			break;
		cap *= 2; /* a record longer than a chunk */
		b = lst_realloc(b, pre + cap + 1);
	}
	if (rd->eof)
		*cut = *n;
	*out = b;
	return 0;
}

int lst_csv_reader_next(lst_csv_reader *rd, lst_csv **out, lst_err *err)
{
	size_t n, cut, pre;
	long lines = 0;
	char *b = NULL;
	int rc;

	*out = NULL;
	if (rd->started && rd->eof && !rd->ncarry)
		return 1;
	if ((rc = s_fill(rd, &b, &n, &cut, err)))
		return rc;
	pre = rd->started ? rd->nprefix : 0;
	free(rd->carry);
	rd->ncarry = n - cut;
	rd->carry = lst_malloc(rd->ncarry + 1);
	memcpy(rd->carry, b + pre + cut, rd->ncarry);
	for (const char *c = b + pre; (c = memchr(c, '\n', cut - (size_t)(c - b - pre))); c++)
		lines++;
	if (rd->started) {
		if (!cut) {
			free(b);
			return 1;
		}
		memcpy(b, rd->prefix, pre);
		rc = s_parse(rd->path, b, pre + cut, rd->line - rd->prefix_lines, rd->quiet, out,
			     err);
	} else {
		char *raw = lst_malloc(cut + 1); /* the parse splits b in place */

		memcpy(raw, b, cut);
		rc = s_parse(rd->path, b, cut, 0, rd->quiet, out, err);
		if (!rc) {
			rd->nprefix = (*out)->hdr_end;
			rd->prefix = lst_realloc(raw, rd->nprefix + 1);
			rd->prefix_lines = (*out)->hdr_line;
			rd->started = true;
		} else {
			free(raw);
		}
	}
	rd->line += lines;
	return rc;
}

void lst_csv_destroy(lst_csv **p)
{
	lst_csv *t = *p;

	if (!t)
		return;
	free(t->path);
	free(t->buf);
	free(t->head);
	free(t->cells);
	free(t->lines);
	free(t);
	*p = NULL;
}

const char *lst_csv_path(const lst_csv *t)
{
	return t->path;
}

size_t lst_csv_nrows(const lst_csv *t)
{
	return t->nrows;
}

size_t lst_csv_ncols(const lst_csv *t)
{
	return t->ncols;
}

const char *lst_csv_colname(const lst_csv *t, size_t col)
{
	return col < t->ncols ? t->head[col] : "";
}

int lst_csv_col(const lst_csv *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->head[i], name))
			return (int)i;
	return -1;
}

int lst_csv_require(const lst_csv *t, const char *const *names, int *cols, lst_err *err)
{
	for (size_t i = 0; names[i]; i++) {
		cols[i] = lst_csv_col(t, names[i]);
		if (cols[i] < 0)
			return lst_err_set(err, -EINVAL, "%s:1: no column '%s' in the header",
					   t->path, names[i]);
	}
	return 0;
}

const char *lst_csv_field(const lst_csv *t, size_t row, int col)
{
	if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
		return "";
	return t->cells[row * t->ncols + (size_t)col];
}

long lst_csv_line(const lst_csv *t, size_t row)
{
	return row < t->nrows ? t->lines[row] : 0;
}

int lst_csv_num(const lst_csv *t, size_t row, int col, double *v, lst_err *err)
{
	const char *f = lst_csv_field(t, row, col);
	char *end;

	*v = NAN;
	if (!*f)
		return -ENODATA;
	errno = 0;
	*v = strtod(f, &end);
	if (end == f || *end || !isfinite(*v) || errno == ERANGE) {
		*v = NAN;
		return lst_err_set(err, -EINVAL, "%s:%ld: column %s: '%.*s%s' is not a number",
				   t->path, lst_csv_line(t, row), t->head[col], S_SHOW_MAX, f,
				   strlen(f) > S_SHOW_MAX ? "..." : "");
	}
	return 0;
}

/* --- one loose line (lockstep steady) ------------------------------------------------------ */

char lst_csv_separator(const char *line)
{
	if (strchr(line, ','))
		return ',';
	if (strchr(line, ';'))
		return ';';
	return strchr(line, '\t') ? '\t' : ' ';
}

static bool s_is_sep(char c, char sep)
{
	return sep == ' ' ? c == ' ' || c == '\t' : c == sep;
}

char *lst_csv_next_field(char **cur, char sep)
{
	char *s = *cur, *field, *w, *end;
	char c;

	if (!s)
		return NULL;
	while (*s == ' ' || (*s == '\t' && sep != '\t'))
		s++;
	if (sep == ' ' && !*s) {
		*cur = NULL;
		return NULL;
	}
	field = w = s;
	if (*s == '"') {
		for (s++; *s; s++) {
			if (*s == '"' && s[1] != '"') {
				s++;
				break;
			}
			if (*s == '"')
				s++;
			*w++ = *s;
		}
	}
	while (*s && !s_is_sep(*s, sep))
		*w++ = *s++;
	c = *s;
	end = w;
	while (end > field && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = '\0';
	*cur = c ? s + 1 : NULL;
	return field;
}
