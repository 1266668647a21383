/* SPDX-License-Identifier: Apache-2.0 */
/*
 * events.csv, telemetry/ and telemetry.csv (lst_events.h): what happened in a run besides I/O.
 *
 * events.csv and telemetry.csv are appended a row (or a few) at a time, rarely (a hook run, a
 * phase's end), so each append opens the file, writes its header when the file is new, and
 * closes it: lst_results keeps no handle for them, and a resume cuts them back like the other
 * append-only files (lst_results_sizes). A write that fails is kept as the folder's failure
 * (lst_results__fail), as lst_results.c keeps its own.
 *
 * What a collector printed is untrusted: it may be no JSON, cut short, nest thousands deep or
 * hold numbers too large for an integer. lst_telemetry_write parses it with jansson (its own
 * depth limit), keeps what parses and says why when it does not; lst_telemetry_diff walks at
 * most S_DEPTH_MAX levels. Agent and stem names become folder and file names: anything that
 * could leave the folder ('/', ".", "..", control bytes) is refused, though the coordinator
 * passes plan names, which cannot.
 */
#include "lst_events.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lst_assert.h"
#include "lst_columns.h"
#include "lst_log.h"
#include "lst_results_int.h"
#include "lst_util.h"

#define S_DEPTH_MAX 32		      /* levels of a collector's JSON that the diff walks */
#define S_NAME_MAX 255		      /* an agent's or stem's length, as a file name's */
#define S_FILE_MAX ((size_t)64 << 20) /* a telemetry file read back */

/* Is s one harmless path component: not empty, ".", "..", no '/', no control byte? */
static bool s_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n > S_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == '\\' || (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

static int s_check_names(const char *agent, const char *stem, lst_err *err)
{
	if (!s_name_ok(agent))
		return lst_err_set(err, -EINVAL,
				   "telemetry: agent name '%s' cannot be a folder name",
				   agent ? agent : "(null)");
	if (!s_name_ok(stem))
		return lst_err_set(err, -EINVAL, "telemetry: '%s' cannot be a file name",
				   stem ? stem : "(null)");
	return 0;
}

/* s on one line: '\' as "\\", newline "\n", CR "\r", other control bytes "\xHH". Caller frees. */
static char *s_escape(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = lst_malloc(4 * n + 1);

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '\n' || c == '\r') {
			out[o++] = '\\';
			out[o++] = c == '\\' ? '\\' : c == '\n' ? 'n' : 'r';
		} else if ((c < 0x20 && c != '\t') || c == 0x7f) {
			o += (size_t)snprintf(out + o, 5, "\\x%02x", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

/* Open name in the folder to append to it, with t's header when it is new; NULL (kept). */
static FILE *s_open_append(lst_results *r, const struct lst_col_table *t)
{
	char *path = lst_asprintf("%s/%s", lst_results_dir(r), t->file);
	FILE *f = fopen(path, "a");

	free(path);
	if (!f) {
		lst_results__fail(r, -errno, t->file);
		return NULL;
	}
	if (ftello(f) == 0)
		lst_columns_header(f, t);
	return f;
}

/* Close f, keeping a write that failed as the folder's failure. Returns 0 or -errno. */
static int s_close(lst_results *r, FILE *f, const char *name)
{
	int rc = 0;

	errno = 0;
	if (fflush(f) || ferror(f))
		rc = errno ? -errno : -EIO;
	if (fclose(f) && !rc)
		rc = errno ? -errno : -EIO;
	if (rc)
		lst_results__fail(r, rc, name);
	return rc;
}

/* ns from the point's start in s; NAN (an empty field) when the instant is unknown. */
static double s_rel(int64_t t, int64_t t0, bool applies)
{
	return applies && t ? (double)(t - t0) / 1e9 : NAN;
}

void lst_results_event(lst_results *r, const struct lst_event_row *e)
{
	bool ev = !strcmp(e->kind, "event"), ran = e->start != 0;
	char *text = s_escape(e->text), *output = s_escape(e->output);
	union lst_cell c[LST_EV_N] = {
		[LST_EV_PHASE] = { .s = e->phase },
		[LST_EV_POINT] = { .i = e->point },
		[LST_EV_LABEL] = { .s = e->label },
		[LST_EV_KIND] = { .s = e->kind },
		[LST_EV_AGENT] = { .s = e->agent },
		[LST_EV_HOOK] = { .s = e->hook },
		[LST_EV_T_REQUESTED] = { .d = ev ? (double)(e->requested - e->point_t0) / 1e9
						 : NAN },
		[LST_EV_T_START] = { .d = s_rel(e->start, e->point_t0, ev) },
		[LST_EV_T_END] = { .d = s_rel(e->end, e->point_t0, ev && ran) },
		[LST_EV_LATE_MS] = { .d = ev && ran ? (double)(e->start - e->requested) / 1e6
						    : NAN },
		[LST_EV_DURATION] = { .d = ran && e->end ? (double)(e->end - e->start) / 1e9
							 : NAN },
		[LST_EV_REQUESTED_NS] = { .i = e->requested },
		[LST_EV_START_NS] = { .i = e->start },
		[LST_EV_END_NS] = { .i = e->end },
		[LST_EV_STATUS] = { .i = e->status },
		[LST_EV_RESULT] = { .s = e->result },
		[LST_EV_ON_ERROR] = { .s = e->on_error },
		[LST_EV_TEXT] = { .s = text },
		[LST_EV_OUTPUT] = { .s = output },
	};
	FILE *f = s_open_append(r, &lst_events_table);

	if (f) {
		lst_columns_write(f, &lst_events_table, c);
		s_close(r, f, lst_events_table.file);
	}
	free(text);
	free(output);
}

/* --- telemetry files ------------------------------------------------------------------------- */

/* s[0..len) as a JSON string: NUL and bytes that are not well-formed UTF-8 become '?'. New
 * reference. */
static json_t *s_jstring(const char *s, size_t len)
{
	char *copy = lst_malloc(len + 1);
	json_t *j;

	memcpy(copy, s, len);
	copy[len] = '\0';
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)copy[i];
		size_t n = c < 0x80	    ? 1
			   : (c >> 5) == 6  ? 2
			   : (c >> 4) == 14 ? 3
			   : (c >> 3) == 30 ? 4
					    : 0;
		bool ok = c && n && i + n <= len; /* a NUL too: readers need no JSON_ALLOW_NUL */

		for (size_t k = 1; ok && k < n; k++)
			ok = ((unsigned char)copy[i + k] >> 6) == 2;
		if (!ok) {
			copy[i++] = '?';
			continue;
		}
		i += n;
	}
	j = json_stringn(copy, len);
	for (size_t i = 0; !j && i < len; i++) /* overlong forms, surrogates: ASCII only */
		if ((unsigned char)copy[i] >= 0x80)
			copy[i] = '?';
	if (!j)
		j = json_stringn(copy, len);
	free(copy);
	return j;
}

/* {"error": why, "status": N, "output": the collector's text}: what failed, for readers. */
static json_t *s_failed_item(const struct lst_telemetry_item *it, const char *why)
{
	return json_pack("{s:s, s:i, s:o}", "error", why, "status", (int)it->status, "output",
			 s_jstring(it->output ? it->output : "", it->output ? it->output_len : 0));
}

/*
 * What an item's output becomes in the file: its JSON when it exited 0 with all of its output,
 * and that parses (integers too large for 64 bits are kept as reals); else why not. New
 * reference.
 */
static json_t *s_item_json(const struct lst_telemetry_item *it)
{
	json_error_t je;
	json_t *doc;
	char why[512];

	if (it->text && *it->text)
		snprintf(why, sizeof(why), "%s", it->text);
	else if (it->status)
		snprintf(why, sizeof(why), "exited with status %d", (int)it->status);
	else if (it->truncated)
		snprintf(why, sizeof(why), "its output was cut short (%" PRIu32 " bytes left out)",
			 it->truncated);
	else if (!it->output || !it->output_len)
		snprintf(why, sizeof(why), "no output");
	else
		why[0] = '\0';
	if (*why)
		return s_failed_item(it, why);
	doc = json_loadb(it->output, it->output_len, JSON_DECODE_ANY, &je);
	if (!doc && json_error_code(&je) == json_error_numeric_overflow)
		doc = json_loadb(it->output, it->output_len,
				 JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL, &je);
	if (doc)
		return doc;
	snprintf(why, sizeof(why), "not valid JSON: line %d column %d: %s", je.line, je.column,
		 je.text);
	return s_failed_item(it, why);
}

/* Make telemetry/AGENT in the folder. Returns 0 or -errno with err (kept). */
static int s_mkdir(lst_results *r, const char *agent, lst_err *err)
{
	char *dir = lst_asprintf("%s/telemetry/%s", lst_results_dir(r), agent);
	int rc = lst_mkdir_p(dir);

	if (rc) {
		lst_err_sys(err, rc, "cannot create %s", dir);
		lst_results__fail(r, rc, "telemetry/");
	}
	free(dir);
	return rc;
}

int lst_telemetry_write(lst_results *r, const char *agent, const char *stem, const char *when,
			const struct lst_telemetry_item *items, size_t n, lst_err *err)
{
	json_t *doc;
	char *text, *name;
	int rc = s_check_names(agent, stem, err);

	if (rc)
		return rc;
	if (!when || (strcmp(when, "before") && strcmp(when, "after")))
		return lst_err_set(err, -EINVAL, "telemetry: '%s' is neither before nor after",
				   when ? when : "(null)");
	rc = s_mkdir(r, agent, err);
	if (rc)
		return rc;
	doc = json_object();
	for (size_t i = 0; i < n; i++)
		json_object_set_new(doc, items[i].name, s_item_json(&items[i]));
	text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	json_decref(doc);
	if (!text)
		return lst_err_set(err, -ENOMEM, "telemetry/%s/%s-%s.json: cannot encode", agent,
				   stem, when);
	name = lst_asprintf("telemetry/%s/%s-%s.json", agent, stem, when);
	{
		char *line = lst_asprintf("%s\n", text);

		rc = lst_results_write_file(r, name, line, strlen(line), err);
		free(line);
	}
	free(name);
	free(text);
	return rc;
}

int lst_telemetry_kmsg(lst_results *r, const char *agent, const char *stem, const char *text,
		       size_t len, uint32_t dropped, const char *error, lst_err *err)
{
	char *buf, *name;
	size_t n = 0, cap;
	int rc = s_check_names(agent, stem, err);

	if (rc)
		return rc;
	rc = s_mkdir(r, agent, err);
	if (rc)
		return rc;
	if (!text)
		len = 0;
	cap = len + 512 + (error ? strlen(error) : 0);
	buf = lst_malloc(cap);
	if (len)
		memcpy(buf, text, len);
	n = len;
	if (n && buf[n - 1] != '\n')
		buf[n++] = '\n';
	if (dropped)
		n += (size_t)snprintf(buf + n, cap - n,
				      "lockstep: %" PRIu32 " kernel log records were lost here "
				      "(the kernel's buffer overran)\n",
				      dropped);
	if (error && *error)
		n += (size_t)snprintf(buf + n, cap - n,
				      "lockstep: the kernel log could not be read: %s\n", error);
	name = lst_asprintf("telemetry/%s/%s-kmsg.txt", agent, stem);
	rc = lst_results_write_file(r, name, buf, n, err);
	free(name);
	free(buf);
	return rc;
}

/* --- deltas ---------------------------------------------------------------------------------- */

/* A field's path being built: "a.b[3].c". */
struct s_path {
	char *s;
	size_t len, cap;
};

static size_t s_push(struct s_path *p, const char *fmt, const char *key, size_t idx)
{
	size_t at = p->len;
	int n = key ? snprintf(NULL, 0, fmt, key) : snprintf(NULL, 0, fmt, idx);

	if (p->len + (size_t)n + 1 > p->cap) {
		p->cap = 2 * (p->len + (size_t)n + 1);
		p->s = lst_realloc(p->s, p->cap);
	}
	if (key)
		snprintf(p->s + p->len, p->cap - p->len, fmt, key);
	else
		snprintf(p->s + p->len, p->cap - p->len, fmt, idx);
	p->len += (size_t)n;
	return at;
}

static void s_pop(struct s_path *p, size_t at)
{
	p->len = at;
	p->s[at] = '\0';
}

/* {"field", "before", "after", "delta"} when two numbers differ; NULL when they are equal. */
static json_t *s_delta(const char *field, json_t *b, json_t *a)
{
	json_t *delta;
	json_int_t d;

	if (json_is_integer(a) && json_is_integer(b)) {
		if (json_integer_value(a) == json_integer_value(b))
			return NULL;
		if (__builtin_sub_overflow(json_integer_value(a), json_integer_value(b), &d))
			delta = json_real((double)json_integer_value(a) -
					  (double)json_integer_value(b));
		else
			delta = json_integer(d);
	} else {
		double x = json_number_value(b), y = json_number_value(a);

		if (x == y || !isfinite(y - x))
			return NULL;
		delta = json_real(y - x);
	}
	return json_pack("{s:s, s:O, s:O, s:o}", "field", field, "before", b, "after", a, "delta",
			 delta);
}

static void s_walk(json_t *b, json_t *a, struct s_path *p, int depth, json_t *out, bool *deep)
{
	const char *key;
	json_t *v;
	size_t at;

	if (json_is_number(a) && json_is_number(b)) {
		json_t *d = s_delta(p->s, b, a);

		if (d)
			json_array_append_new(out, d);
		return;
	}
	if (depth >= S_DEPTH_MAX) {
		*deep |= json_is_object(a) || json_is_array(a);
		return;
	}
	if (json_is_object(a) && json_is_object(b)) {
		json_object_foreach (a, key, v) {
			json_t *w = json_object_get(b, key);

			if (!w)
				continue;
			at = s_push(p, p->len ? ".%s" : "%s", key, 0);
			s_walk(w, v, p, depth + 1, out, deep);
			s_pop(p, at);
		}
	} else if (json_is_array(a) && json_is_array(b)) {
		size_t n = LST_MIN(json_array_size(a), json_array_size(b));

		for (size_t i = 0; i < n; i++) {
			at = s_push(p, "[%zu]", NULL, i);
			s_walk(json_array_get(b, i), json_array_get(a, i), p, depth + 1, out, deep);
			s_pop(p, at);
		}
	}
}

json_t *lst_telemetry_diff(const json_t *before, const json_t *after)
{
	struct s_path p = { lst_calloc(1, 64), 0, 64 };
	json_t *out = json_array();
	bool deep = false;

	s_walk((json_t *)before, (json_t *)after, &p, 0, out, &deep);
	if (deep)
		lst_log_warn("telemetry: fields nested deeper than %d levels were not compared",
			     S_DEPTH_MAX);
	free(p.s);
	return out;
}

/* A collector that failed: the object lst_telemetry_write puts in place of its output. */
static bool s_is_failure(json_t *o)
{
	return json_is_object(o) && json_object_size(o) == 3 &&
	       json_is_string(json_object_get(o, "error")) &&
	       json_is_integer(json_object_get(o, "status")) &&
	       json_is_string(json_object_get(o, "output"));
}

/* A number as the JSON had it: integers exact, reals with 17 digits. */
static const char *s_numtext(json_t *v, char *buf, size_t size)
{
	if (json_is_integer(v))
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else
		snprintf(buf, size, "%.17g", json_number_value(v));
	return buf;
}

/* telemetry/AGENT/STEM-WHEN.json: 0 with *doc, 1 when it does not exist, -errno with err. */
static int s_load(lst_results *r, const char *agent, const char *stem, const char *when,
		  json_t **doc, lst_err *err)
{
	char *path =
		lst_asprintf("%s/telemetry/%s/%s-%s.json", lst_results_dir(r), agent, stem, when);
	char *text = NULL;
	size_t len = 0;
	json_error_t je;
	int rc = lst_read_file(path, S_FILE_MAX, &text, &len);

	*doc = NULL;
	if (rc == -ENOENT)
		rc = 1;
	else if (rc)
		lst_err_sys(err, rc, "cannot read %s", path);
	else if (!(*doc = json_loadb(text, len, 0, &je)) || !json_is_object(*doc))
		rc = lst_err_set(err, -EINVAL, "%s:%d:%d: %s", path, je.line, je.column,
				 *doc ? "not a JSON object" : je.text);
	if (rc && *doc) {
		json_decref(*doc);
		*doc = NULL;
	}
	free(text);
	free(path);
	return rc;
}

/* The rows of one collector's changes. */
static void s_delta_rows(FILE *f, const char *phase, long point, const char *agent,
			 const char *collector, json_t *changes)
{
	json_t *c;
	size_t i;

	json_array_foreach (changes, i, c) {
		char b[64], a[64], d[64];
		union lst_cell row[LST_TM_N] = {
			[LST_TM_PHASE] = { .s = phase },
			[LST_TM_POINT] = { .i = point },
			[LST_TM_AGENT] = { .s = agent },
			[LST_TM_COLLECTOR] = { .s = collector },
			[LST_TM_FIELD] = { .s = json_string_value(json_object_get(c, "field")) },
			[LST_TM_BEFORE] = { .s = s_numtext(json_object_get(c, "before"), b,
							   sizeof(b)) },
			[LST_TM_AFTER] = { .s = s_numtext(json_object_get(c, "after"), a,
							  sizeof(a)) },
			[LST_TM_DELTA] = { .s = s_numtext(json_object_get(c, "delta"), d,
							  sizeof(d)) },
		};

		lst_columns_write(f, &lst_telemetry_table, row);
	}
}

int lst_telemetry_deltas(lst_results *r, const char *phase, long point, const char *agent,
			 const char *stem, lst_err *err)
{
	json_t *before = NULL, *after = NULL, *v;
	const char *name;
	FILE *f = NULL;
	int rc = s_check_names(agent, stem, err), rows = 0;

	if (!rc)
		rc = s_load(r, agent, stem, "before", &before, err);
	if (!rc)
		rc = s_load(r, agent, stem, "after", &after, err);
	if (rc)
		goto out;
	json_object_foreach (after, name, v) {
		json_t *b = json_object_get(before, name), *changes;

		if (!b || s_is_failure(b) || s_is_failure(v))
			continue;
		changes = lst_telemetry_diff(b, v);
		if (json_array_size(changes) && !f && !(f = s_open_append(r, &lst_telemetry_table)))
			rc = lst_err_sys(err, lst_results_failed(r)->code,
					 "cannot append to %s/telemetry.csv", lst_results_dir(r));
		if (f) {
			s_delta_rows(f, phase, point, agent, name, changes);
			rows += (int)json_array_size(changes);
		}
		json_decref(changes);
		if (rc)
			goto out;
	}
	if (f && s_close(r, f, lst_telemetry_table.file))
		rc = lst_err_sys(err, lst_results_failed(r)->code, "writing %s/telemetry.csv",
				 lst_results_dir(r));
out:
	json_decref(before);
	json_decref(after);
	return rc < 0 ? rc : rows;
}
