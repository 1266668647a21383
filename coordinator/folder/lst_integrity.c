/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The write journal (integrity/journal.jsonl) and integrity.csv (lst_integrity.h).
 *
 * The journal is written one compact JSON line at a time with one write(2) each (its stdio
 * buffer holds the longest line, and it is flushed after every line), so a crash leaves whole
 * lines and at most one cut short at the end. fdatasync runs at a stream's end and at close,
 * not per mark: a mark lost in a crash only makes the check more cautious (units of a stream
 * without its end are pending), never wrong. Writes that fail are kept as the folder's failure
 * (lst_results__fail) and returned.
 *
 * The reader is strict: every line is complete JSON with the keys its type needs, numbers are
 * integers in their field's range, every mark and end names a stream declared before it, and
 * every stream a target declared before it; unknown keys are ignored (later versions may add
 * some). Errors say "FILE:LINE: what".
 *
 * integrity.csv is appended a row at a time, rarely (bad units are capped per point), so each
 * row opens the file, writes its header when the file is new, and closes it, as events.csv does.
 */
#include "lst_integrity.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_columns.h"
#include "lst_results_int.h"
#include "lst_file.h"
#include "lst_util.h"

#define S_JOURNAL "integrity/journal.jsonl"
#define S_LINE_MAX (64u << 10) /* a journal line read back: real ones are < 1 KiB */

/* A stream's last progress line, so that an unchanged mark writes nothing. */
struct s_live {
	uint64_t sid, low, issued, werr;
	bool ended;
};

struct lst_journal {
	lst_results *r;
	char *path;
	FILE *f;
	uint64_t next_sid; /* the largest sid in the file + 1 */
	uint32_t maxgen;   /* the largest generation in the file */
	size_t nlive, cap;
	struct s_live *live;
	size_t ntargets;
	struct lst_journal_target *targets; /* declared in the file (id unused) */
};

/* ---- writing */

/* Write one line (o is stolen) and flush it; sync too when asked. */
static int s_put(lst_journal *j, json_t *o, bool sync, lst_err *err)
{
	char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	int rc = 0;

	json_decref(o);
	LST_ASSERT(text);
	errno = 0;
	if (fputs(text, j->f) < 0 || fputc('\n', j->f) < 0 || fflush(j->f) ||
	    (sync && fdatasync(fileno(j->f))))
		rc = errno ? -errno : -EIO;
	free(text);
	if (rc) {
		lst_results__fail(j->r, rc, S_JOURNAL);
		return lst_err_sys(err, rc, "writing %s failed", j->path);
	}
	return 0;
}

/* Cut a last line that a crash left without its newline, so that appends start clean. */
static int s_cut_partial(const char *path, lst_err *err)
{
	FILE *f = fopen(path, "rb");
	long keep = 0, pos = 0;
	int c;

	if (!f)
		return lst_err_sys(err, -errno, "cannot open %s", path);
	while ((c = fgetc(f)) != EOF) {
		pos++;
		if (c == '\n')
			keep = pos;
	}
	fclose(f);
	if (keep != pos && truncate(path, keep))
		return lst_err_sys(err, -errno, "cannot cut %s back to its last whole line", path);
	return 0;
}

/* A resumed journal: what it holds already decides the next sid and the generation. */
static int s_resume(lst_journal *j, lst_err *err)
{
	lst_journal_read jr;
	int rc = lst_journal_load(lst_results_dir(j->r), &jr, err);

	if (rc)
		return rc;
	for (size_t i = 0; i < jr.nentries; i++)
		if (jr.entries[i].sid >= j->next_sid)
			j->next_sid = jr.entries[i].sid + 1;
	j->maxgen = jr.maxgen;
	/* its targets stay declared: a resumed run declares them again, which must match */
	j->ntargets = jr.ntargets;
	j->targets = jr.targets;
	jr.targets = NULL;
	jr.ntargets = 0;
	/* streams it left open can still get their marks and end (a resumed point's are new) */
	for (size_t i = 0; i < jr.nentries; i++) {
		const struct lst_journal_entry *e = &jr.entries[i];

		if (j->nlive == j->cap) {
			j->cap = j->cap ? 2 * j->cap : 16;
			j->live = lst_realloc(j->live, j->cap * sizeof(*j->live));
		}
		j->live[j->nlive++] =
			(struct s_live){ e->sid, e->st.low, e->st.issued, e->st.werr, e->ended };
	}
	lst_journal_read_free(&jr);
	return 0;
}

lst_journal *lst_journal_open(lst_results *r, const char *run_id, lst_err *err)
{
	char *dir = lst_asprintf("%s/integrity", lst_results_dir(r));
	lst_journal *j = lst_calloc(1, sizeof(*j));
	struct stat st;
	bool exists;
	int rc = lst_mkdir_p(dir);

	j->r = r;
	j->path = lst_asprintf("%s/%s", lst_results_dir(r), S_JOURNAL);
	j->next_sid = 1;
	free(dir);
	if (rc) {
		lst_err_sys(err, rc, "cannot create %s/integrity", lst_results_dir(r));
		goto fail;
	}
	exists = !stat(j->path, &st) && st.st_size > 0;
	if (exists && s_cut_partial(j->path, err))
		goto fail;
	/* a crash in the middle of the first line leaves nothing: a new journal */
	exists = exists && !stat(j->path, &st) && st.st_size > 0;
	if (exists && s_resume(j, err))
		goto fail;
	j->f = fopen(j->path, "a");
	if (!j->f) {
		rc = -errno;
		lst_results__fail(r, rc, S_JOURNAL);
		lst_err_sys(err, rc, "cannot create %s", j->path);
		goto fail;
	}
	/* a line (< S_LINE_MAX) fits the buffer whole: each fflush is one write(2) */
	setvbuf(j->f, NULL, _IOFBF, S_LINE_MAX);
	if (!exists && s_put(j,
			     json_pack("{s:s, s:i, s:s}", "type", "journal", "version", 1, "run",
				       run_id ? run_id : ""),
			     true, err))
		goto fail;
	return j;
fail:
	lst_journal_close(&j);
	return NULL;
}

void lst_journal_close(lst_journal **p)
{
	lst_journal *j = p ? *p : NULL;

	if (!j)
		return;
	if (j->f) {
		errno = 0;
		if (fflush(j->f) || fdatasync(fileno(j->f)))
			lst_results__fail(j->r, errno ? -errno : -EIO, S_JOURNAL);
		fclose(j->f);
	}
	for (size_t i = 0; i < j->ntargets; i++) {
		free(j->targets[i].name);
		free(j->targets[i].identity);
	}
	free(j->targets);
	free(j->live);
	free(j->path);
	free(j);
	*p = NULL;
}

uint64_t lst_journal_next_sid(const lst_journal *j)
{
	return j->next_sid;
}

uint32_t lst_journal_maxgen(const lst_journal *j)
{
	return j->maxgen;
}

int lst_journal_target(lst_journal *j, const char *name, uint32_t id, uint64_t size,
		       const char *identity, lst_err *err)
{
	struct lst_journal_target *t;

	identity = identity ? identity : "";
	for (size_t i = 0; i < j->ntargets; i++) {
		t = &j->targets[i];
		if (strcmp(t->name, name))
			continue;
		if (t->size == size && !strcmp(t->identity, identity))
			return 0;
		return lst_err_set(err, -EINVAL,
				   "%s: target %s was %" PRIu64 " bytes, \"%s\"; now it is %" PRIu64
				   " bytes, \"%s\": not the drive the journal is of",
				   j->path, name, t->size, t->identity, size, identity);
	}
	j->targets = lst_realloc(j->targets, (j->ntargets + 1) * sizeof(*j->targets));
	t = &j->targets[j->ntargets++];
	*t = (struct lst_journal_target){ lst_strdup(name), id, size, lst_strdup(identity) };
	return s_put(j,
		     json_pack("{s:s, s:s, s:I, s:I, s:s}", "type", "target", "target", name, "id",
			       (json_int_t)t->id, "size", (json_int_t)size, "identity", identity),
		     false, err);
}

static struct s_live *s_live(lst_journal *j, uint64_t sid)
{
	for (size_t i = j->nlive; i-- > 0;)
		if (j->live[i].sid == sid)
			return &j->live[i];
	return NULL;
}

int lst_journal_stream(lst_journal *j, uint64_t sid, const struct lst_journal_where *w,
		       const struct lst_journal_stream *st, lst_err *err)
{
	char seed[24];
	json_t *o;

	if (s_live(j, sid))
		return lst_err_set(err, -EINVAL, "%s: stream %" PRIu64 " is already in it", j->path,
				   sid);
	snprintf(seed, sizeof(seed), "%" PRIu64, st->s.seed);
	o = json_pack("{s:s, s:I, s:I, s:s, s:s, s:I, s:s, s:I, s:s, s:I, s:f, s:s, s:I, s:I, "
		      "s:I, s:I, s:I, s:I}",
		      "type", "stream", "sid", (json_int_t)sid, "gen", (json_int_t)st->gen,
		      "target", w->target, "phase", w->phase, "point", (json_int_t)w->point,
		      "agent", w->agent, "agent_index", (json_int_t)st->agent, "path", w->path,
		      "path_index", (json_int_t)st->path, "t0_s", w->t0_s, "seed", seed, "lo",
		      (json_int_t)st->s.lo, "hi", (json_int_t)st->s.hi, "bs", (json_int_t)st->s.bs,
		      "random", (json_int_t)st->s.random, "read_pct", (json_int_t)st->s.read_pct,
		      "job", (json_int_t)st->s.job);
	LST_ASSERT(o);
	if (j->nlive == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 16;
		j->live = lst_realloc(j->live, j->cap * sizeof(*j->live));
	}
	j->live[j->nlive++] = (struct s_live){ sid, 0, 0, 0, false };
	if (sid >= j->next_sid)
		j->next_sid = sid + 1;
	if (st->gen > j->maxgen)
		j->maxgen = st->gen;
	return s_put(j, o, false, err);
}

/* A mark or end line of a known stream that has not ended. */
static int s_progress(lst_journal *j, const char *type, uint64_t sid, uint64_t low, uint64_t issued,
		      uint64_t werr, const bool *complete, lst_err *err)
{
	struct s_live *l = s_live(j, sid);
	json_t *o;

	if (!l || l->ended)
		return lst_err_set(err, -EINVAL, "%s: %s of %s stream %" PRIu64, j->path, type,
				   l ? "an ended" : "unknown", sid);
	if (low > issued)
		return lst_err_set(err, -EINVAL,
				   "%s: stream %" PRIu64 ": low %" PRIu64 " > issued %" PRIu64,
				   j->path, sid, low, issued);
	if (!complete && l->low == low && l->issued == issued && l->werr == werr)
		return 0;
	*l = (struct s_live){ sid, low, issued, werr, complete != NULL };
	o = json_pack("{s:s, s:I, s:I, s:I, s:I}", "type", type, "sid", (json_int_t)sid, "low",
		      (json_int_t)low, "issued", (json_int_t)issued, "werr", (json_int_t)werr);
	if (complete)
		json_object_set_new(o, "complete", json_boolean(*complete));
	return s_put(j, o, complete != NULL, err);
}

int lst_journal_mark(lst_journal *j, uint64_t sid, uint64_t low, uint64_t issued, uint64_t werr,
		     lst_err *err)
{
	return s_progress(j, "mark", sid, low, issued, werr, NULL, err);
}

int lst_journal_end(lst_journal *j, uint64_t sid, uint64_t low, uint64_t issued, uint64_t werr,
		    bool complete, lst_err *err)
{
	return s_progress(j, "end", sid, low, issued, werr, &complete, err);
}

/* ---- reading */

struct s_reader {
	const char *path;
	size_t line;
	lst_err *err;
	lst_journal_read *jr;
};

/* -EINVAL with err "FILE:LINE: " + the message. */
static int s_bad(struct s_reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int s_bad(struct s_reader *rd, const char *fmt, ...)
{
	char msg[LST_ERR_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lst_err_set(rd->err, -EINVAL, "%s:%zu: %s", rd->path, rd->line, msg);
}

/* Integer key of o in [0, max]. */
static int s_uint(struct s_reader *rd, json_t *o, const char *key, uint64_t max, uint64_t *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > max)
		return s_bad(rd, "\"%s\" must be an integer in 0..%" PRIu64, key, max);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* String key of o (a copy, the caller's). */
static int s_str(struct s_reader *rd, json_t *o, const char *key, char **out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		return s_bad(rd, "\"%s\" must be a string", key);
	*out = lst_strdup(json_string_value(v));
	return 0;
}

static int s_target(struct s_reader *rd, json_t *o)
{
	lst_journal_read *jr = rd->jr;
	struct lst_journal_target t = { 0 };
	uint64_t id, size;

	if (s_str(rd, o, "target", &t.name) || s_uint(rd, o, "id", UINT32_MAX, &id) ||
	    s_uint(rd, o, "size", INT64_MAX, &size) || s_str(rd, o, "identity", &t.identity)) {
		free(t.name);
		return -EINVAL;
	}
	if (lst_journal_find_target(jr, t.name)) {
		s_bad(rd, "target \"%s\" declared twice", t.name);
		free(t.name);
		free(t.identity);
		return -EINVAL;
	}
	t.id = (uint32_t)id;
	t.size = size;
	jr->targets = lst_realloc(jr->targets, (jr->ntargets + 1) * sizeof(*jr->targets));
	jr->targets[jr->ntargets++] = t;
	return 0;
}

static struct lst_journal_entry *s_entry(lst_journal_read *jr, uint64_t sid)
{
	for (size_t i = jr->nentries; i-- > 0;)
		if (jr->entries[i].sid == sid)
			return &jr->entries[i];
	return NULL;
}

static void s_entry_free(struct lst_journal_entry *e)
{
	free((char *)e->where.target);
	free((char *)e->where.phase);
	free((char *)e->where.agent);
	free((char *)e->where.path);
}

/* The numbers of a stream line into e (its strings are read by s_stream). */
static int s_stream_numbers(struct s_reader *rd, json_t *o, struct lst_journal_entry *e)
{
	struct lst_stream *s = &e->st.s;
	uint64_t gen, point, ai, pi, bs, random, read_pct, job;
	json_t *t0 = json_object_get(o, "t0_s"), *seed = json_object_get(o, "seed");
	const char *sv = json_string_value(seed);
	char *end = NULL;

	if (s_uint(rd, o, "gen", UINT32_MAX, &gen) || s_uint(rd, o, "point", LONG_MAX, &point) ||
	    s_uint(rd, o, "agent_index", UINT16_MAX, &ai) ||
	    s_uint(rd, o, "path_index", UINT16_MAX, &pi) ||
	    s_uint(rd, o, "lo", INT64_MAX, &s->lo) || s_uint(rd, o, "hi", INT64_MAX, &s->hi) ||
	    s_uint(rd, o, "bs", UINT32_MAX, &bs) || s_uint(rd, o, "random", 1, &random) ||
	    s_uint(rd, o, "read_pct", 100, &read_pct) || s_uint(rd, o, "job", UINT32_MAX, &job))
		return -EINVAL;
	if (!json_is_number(t0))
		return s_bad(rd, "\"%s\" must be a number", "t0_s");
	errno = 0;
	if (sv && *sv >= '0' && *sv <= '9')
		s->seed = strtoull(sv, &end, 10);
	if (!sv || !end || *end || errno)
		return s_bad(rd, "\"seed\" must be a decimal string of a 64-bit unsigned");
	if (!gen)
		return s_bad(rd, "\"%s\" must be >= 1", "gen");
	if (!bs || bs % LST_VERIFY_UNIT || s->lo > s->hi)
		return s_bad(rd, "bs must be a multiple of %u and lo <= hi", LST_VERIFY_UNIT);
	e->where.point = (long)point;
	e->where.t0_s = json_number_value(t0);
	e->st.gen = (uint32_t)gen;
	e->st.agent = (uint16_t)ai;
	e->st.path = (uint16_t)pi;
	s->bs = (uint32_t)bs;
	s->random = (uint32_t)random;
	s->read_pct = (uint32_t)read_pct;
	s->job = (uint32_t)job;
	return 0;
}

static int s_stream(struct s_reader *rd, json_t *o)
{
	lst_journal_read *jr = rd->jr;
	struct lst_journal_entry e = { 0 };
	char *target = NULL, *phase = NULL, *agent = NULL, *path = NULL;
	int rc;

	rc = s_uint(rd, o, "sid", UINT64_MAX, &e.sid);
	if (!rc && s_entry(jr, e.sid))
		rc = s_bad(rd, "stream %" PRIu64 " declared twice", e.sid);
	if (!rc)
		rc = s_str(rd, o, "target", &target);
	if (!rc && !lst_journal_find_target(jr, target))
		rc = s_bad(rd, "stream of undeclared target \"%s\"", target);
	if (!rc)
		rc = s_str(rd, o, "phase", &phase);
	if (!rc)
		rc = s_str(rd, o, "agent", &agent);
	if (!rc)
		rc = s_str(rd, o, "path", &path);
	e.where = (struct lst_journal_where){ target, phase, 0, agent, path, 0 };
	if (!rc)
		rc = s_stream_numbers(rd, o, &e);
	if (rc) {
		s_entry_free(&e);
		return -EINVAL;
	}
	if (e.st.gen > jr->maxgen)
		jr->maxgen = e.st.gen;
	jr->entries = lst_realloc(jr->entries, (jr->nentries + 1) * sizeof(*jr->entries));
	jr->entries[jr->nentries++] = e;
	return 0;
}

/* A mark or end line: applied to its stream. */
static int s_progress_line(struct s_reader *rd, json_t *o, bool end)
{
	struct lst_journal_entry *e;
	uint64_t sid, low, issued, werr;
	json_t *complete = json_object_get(o, "complete");

	if (s_uint(rd, o, "sid", UINT64_MAX, &sid))
		return -EINVAL;
	e = s_entry(rd->jr, sid);
	if (!e)
		return s_bad(rd, "%s of unknown stream %" PRIu64, end ? "end" : "mark", sid);
	if (s_uint(rd, o, "low", INT64_MAX, &low) || s_uint(rd, o, "issued", INT64_MAX, &issued) ||
	    s_uint(rd, o, "werr", INT64_MAX, &werr))
		return -EINVAL;
	if (low > issued)
		return s_bad(rd, "stream %" PRIu64 ": low is larger than issued", sid);
	if (end && !json_is_boolean(complete))
		return s_bad(rd, "\"%s\" must be true or false", "complete");
	e->st.low = low;
	e->st.issued = issued;
	e->st.werr = werr;
	if (end) {
		e->st.complete = json_is_true(complete);
		e->ended = true;
	}
	return 0;
}

static int s_first(struct s_reader *rd, json_t *o)
{
	json_t *v = json_object_get(o, "version");
	const char *type = json_string_value(json_object_get(o, "type"));

	if (!type || strcmp(type, "journal") || !json_is_string(json_object_get(o, "run")))
		return s_bad(rd, "not a lockstep write journal (the first line must be "
				 "{\"type\":\"journal\",\"version\":1,\"run\":...})");
	if (json_integer_value(v) != 1)
		return s_bad(rd, "journal version %" PRIu64 " is not supported (1 is)",
			     json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0);
	rd->jr->run = lst_strdup(json_string_value(json_object_get(o, "run")));
	return 0;
}

static int s_line(struct s_reader *rd, const char *text)
{
	json_error_t jerr;
	json_t *o = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	const char *type;
	int rc;

	if (!json_is_object(o)) {
		json_decref(o);
		return s_bad(rd, "not a JSON object: %s", o ? "another value" : jerr.text);
	}
	type = json_string_value(json_object_get(o, "type"));
	if (rd->line == 1)
		rc = s_first(rd, o);
	else if (!type)
		rc = s_bad(rd, "no \"type\"");
	else if (!strcmp(type, "target"))
		rc = s_target(rd, o);
	else if (!strcmp(type, "stream"))
		rc = s_stream(rd, o);
	else if (!strcmp(type, "mark") || !strcmp(type, "end"))
		rc = s_progress_line(rd, o, !strcmp(type, "end"));
	else
		rc = s_bad(rd, "unknown type \"%s\"", type);
	json_decref(o);
	return rc;
}

int lst_journal_load(const char *dir, lst_journal_read *out, lst_err *err)
{
	char *path = lst_asprintf("%s/%s", dir, S_JOURNAL);
	struct s_reader rd = { path, 0, err, out };
	/* The folder comes from a plan's journal: or the command line: a FIFO is refused, not awaited */
	int fd = lst_file_open_read(path, "journal", 0, 0, NULL, err);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!f) {
		rc = fd < 0 ? fd : lst_err_sys(err, -errno, "fdopen(\"%s\") failed", path);
		if (fd >= 0)
			close(fd);
		free(path);
		return rc;
	}
	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		rd.line++;
		if ((size_t)n > S_LINE_MAX)
			rc = s_bad(&rd, "line longer than %u bytes", S_LINE_MAX);
		else if (!n || line[n - 1] != '\n')
			rc = s_bad(&rd, "line cut short (a truncated journal)");
		else
			rc = s_line(&rd, line);
	}
	if (!rc && ferror(f))
		rc = lst_err_sys(err, -EIO, "reading %s failed", path);
	if (!rc && !rd.line)
		rc = lst_err_set(err, -EINVAL, "%s: empty (not a lockstep write journal)", path);
	free(line);
	fclose(f);
	free(path);
	if (rc)
		lst_journal_read_free(out);
	return rc;
}

void lst_journal_read_free(lst_journal_read *jr)
{
	for (size_t i = 0; i < jr->ntargets; i++) {
		free(jr->targets[i].name);
		free(jr->targets[i].identity);
	}
	for (size_t i = 0; i < jr->nentries; i++)
		s_entry_free(&jr->entries[i]);
	free(jr->targets);
	free(jr->entries);
	free(jr->run);
	memset(jr, 0, sizeof(*jr));
}

const struct lst_journal_target *lst_journal_find_target(const lst_journal_read *jr,
							 const char *name)
{
	for (size_t i = 0; i < jr->ntargets; i++)
		if (!strcmp(jr->targets[i].name, name))
			return &jr->targets[i];
	return NULL;
}

/* ---- integrity.csv */

static void s_integrity_open(lst_results *r, FILE **f)
{
	char *path = lst_asprintf("%s/integrity.csv", lst_results_dir(r));
	struct stat st;
	bool fresh = stat(path, &st) || !st.st_size;

	*f = fopen(path, "a");
	free(path);
	if (!*f) {
		lst_results__fail(r, -errno, "integrity.csv");
		return;
	}
	if (fresh)
		lst_columns_header(*f, &lst_integrity_table);
}

static void s_integrity_close(lst_results *r, FILE *f)
{
	errno = 0;
	if (ferror(f) | fclose(f))
		lst_results__fail(r, errno ? -errno : -EIO, "integrity.csv");
}

void lst_results_integrity(lst_results *r, const struct lst_integrity_row *w)
{
	union lst_cell c[LST_INT_N] = {
		[LST_INT_PHASE] = { .s = w->phase },
		[LST_INT_POINT] = { .i = w->point },
		[LST_INT_TARGET] = { .s = w->target },
		[LST_INT_AGENT] = { .s = w->agent },
		[LST_INT_PATH] = { .s = w->path },
		[LST_INT_OFFSET] = { .u = w->offset },
		[LST_INT_KIND] = { .s = w->kind },
		[LST_INT_EXP_GEN] = { .u = w->exp_gen },
		[LST_INT_EXP_AGENT] = { .s = w->exp_agent },
		[LST_INT_EXP_PATH] = { .s = w->exp_path },
		[LST_INT_EXP_T_S] = { .d = w->exp_t_s },
		[LST_INT_FOUND] = { .s = w->found },
		[LST_INT_FOUND_GEN] = { .u = w->found_gen },
		[LST_INT_FOUND_AGENT] = { .s = w->found_agent },
		[LST_INT_FOUND_PATH] = { .s = w->found_path },
		[LST_INT_FOUND_LBA] = { .u = w->found_lba },
		[LST_INT_FOUND_T_S] = { .d = w->found_t_s },
	};
	FILE *f;

	s_integrity_open(r, &f);
	if (!f)
		return;
	lst_columns_write(f, &lst_integrity_table, c);
	s_integrity_close(r, f);
}

void lst_results_integrity_touch(lst_results *r)
{
	FILE *f;

	s_integrity_open(r, &f);
	if (f)
		s_integrity_close(r, f);
}
