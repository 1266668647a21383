/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The points journal read back (points.jsonl: one JSON object a line, the last possibly cut
 * short) and a folder reopened for `lockstep resume`: every append-only file cut back to the
 * sizes of the last journal entry, then handed to the writer (lst_results.c) to append to.
 * Apart from the writer because it reads and cuts files the writer never opens.
 */
#include "lst_results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "lst_assert.h"
#include "lst_columns.h"
#include "lst_log.h"
#include "lst_results_int.h"
#include "lst_util.h"

int lst_results_walk_journal(const char *dir, bool warn, lst_results_journal_fn fn, void *arg,
			     lst_err *err)
{
	char *path = lst_asprintf("%s/points.jsonl", dir);
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long no = 0;
	int rc = 0;

	if (!f) {
		if (errno != ENOENT)
			rc = lst_err_sys(err, -errno, "%s: cannot open", path);
		free(path);
		return rc;
	}
	while (!rc && (len = getline(&line, &cap, f)) > 0) {
		json_error_t je;
		json_t *e;

		no++;
		e = json_loadb(line, (size_t)len, 0, &je);
		if (e && json_is_object(e)) {
			rc = fn(e, arg);
			json_decref(e);
			continue;
		}
		json_decref(e);
		if (fgetc(f) == EOF) {
			/* The entry being written when the run was killed or the disk filled. */
			if (warn)
				lst_log_warn("%s:%ld: the last entry is cut short (the run was "
					     "killed or its disk filled); ignored",
					     path, no);
			break;
		}
		rc = lst_err_set(err, -EINVAL, "%s:%ld: %s", path, no,
				 e ? "not a JSON object" : je.text);
	}
	free(line);
	fclose(f);
	free(path);
	return rc;
}

static int s_journal_append(json_t *e, void *arg)
{
	return json_array_append(arg, e) ? -ENOMEM : 0;
}

json_t *lst_results_read_journal(const char *dir, lst_err *err)
{
	json_t *out = json_array();

	int rc = lst_results_walk_journal(dir, true, s_journal_append, out, err);

	if (rc == -ENOMEM)
		lst_err_set(err, rc, "%s/points.jsonl: out of memory", dir);
	if (rc) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* --- reopening for a resume ----------------------------------------------------------------- */

/* Cut name to size bytes (-1: remove it). Returns 0 or -errno with err. */
static int s_cut_file(const char *dir, const char *name, long long size, lst_err *err)
{
	char *path = lst_asprintf("%s/%s", dir, name);
	int rc = 0;

	if (size < 0) {
		if (unlink(path) && errno != ENOENT)
			rc = lst_err_sys(err, -errno, "cannot remove %s", path);
	} else if (truncate(path, size)) {
		rc = lst_err_sys(err, -errno, "cannot cut %s back to %lld bytes", path, size);
	}
	free(path);
	return rc;
}

/*
 * *n: how many of t's columns the rows of dir/t->file have, from its header (lst_columns_count);
 * left as it is when the file has no header line to go by. Returns 0, or -EINVAL with err.
 */
static int s_file_columns(const char *dir, const struct lst_col_table *t, size_t *n, lst_err *err)
{
	char *path = lst_asprintf("%s/%s", dir, t->file), *line = NULL;
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	int rc = 0;

	if (f && getline(&line, &cap, f) > 0 && (rc = lst_columns_count(t, line, n, err)))
		lst_err_prefix(err, "%s/", dir);
	if (f)
		fclose(f);
	free(line);
	free(path);
	return rc;
}

/* The journal up to the end of its last whole line (a line cut short is dropped). */
static int s_cut_journal(const char *dir, lst_err *err)
{
	char *path = lst_asprintf("%s/points.jsonl", dir);
	FILE *f = fopen(path, "r");
	long long good = 0, n = 0;
	int ch, rc = 0;

	if (f) {
		while ((ch = fgetc(f)) != EOF) {
			n++;
			if (ch == '\n')
				good = n;
		}
		fclose(f);
		if (good < n && truncate(path, good))
			rc = lst_err_sys(err, -errno, "cannot cut %s back to %lld bytes", path,
					 good);
	}
	free(path);
	return rc;
}

/*
 * The columns of the rows a resume appends to each CSV file it keeps: cols[] for timeseries,
 * summary, rounds, curves and devstats, each its header's (an older lockstep's file has fewer)
 * where the file is kept (sizes names it; timeseries and summary always are), else its table's.
 * Returns 0, or -EINVAL with err when a header is not ours.
 */
static int s_columns_kept(const char *dir, json_t *sizes, size_t cols[5], lst_err *err)
{
	const struct lst_col_table *t[] = { &lst_timeseries_table, &lst_summary_table,
					    &lst_rounds_table, &lst_curves_table,
					    &lst_devstats_table };
	int rc = 0;

	for (size_t i = 0; i < LST_ARRAY_SIZE(t) && !rc; i++) {
		cols[i] = t[i]->ncols;
		if (i < 2 || json_object_get(sizes, t[i]->file))
			rc = s_file_columns(dir, t[i], &cols[i], err);
	}
	return rc;
}

lst_results *lst_results_reopen(const char *dir, json_t *sizes, json_t *tests, lst_err *err)
{
	static const char *const csv[] = { "timeseries.csv", "summary.csv", "clock.csv" };
	static const char *const opt[] = { "rounds.csv",   "curves.csv", "matrix.md",
					   "devstats.csv", "events.csv", "telemetry.csv",
					   "integrity.csv" };
	struct dirent *e;
	size_t cols[5];
	char *sdir;
	int rc = 0;
	DIR *d;

	/* Before anything is cut: a file that is not ours refuses the resume, changing nothing. */
	if (s_columns_kept(dir, sizes, cols, err))
		return NULL;
	sdir = lst_asprintf("%s/samples", dir);
	d = opendir(sdir);
	free(sdir);
	/* Every append-only file back to what it was when the last journaled point ended. */
	for (size_t i = 0; i < LST_ARRAY_SIZE(csv) && !rc; i++) {
		json_t *v = json_object_get(sizes, csv[i]);

		rc = s_cut_file(dir, csv[i],
				v ? json_integer_value(v) : lst_results__header_size(dir, csv[i]),
				err);
	}
	for (size_t i = 0; i < LST_ARRAY_SIZE(opt) && !rc; i++) {
		json_t *v = json_object_get(sizes, opt[i]);

		rc = s_cut_file(dir, opt[i], v ? json_integer_value(v) : -1, err);
	}
	while (d && !rc && (e = readdir(d))) {
		char *name = lst_asprintf("samples/%s", e->d_name);
		json_t *v = json_object_get(sizes, name);

		if (strlen(e->d_name) > 8 && !strcmp(e->d_name + strlen(e->d_name) - 8, ".msgpack"))
			rc = s_cut_file(dir, name, v ? json_integer_value(v) : -1, err);
		free(name);
	}
	if (d)
		closedir(d);
	if (!rc)
		rc = s_cut_journal(dir, err);
	if (rc)
		return NULL;
	return lst_results__reopen(dir, cols, sizes, tests, err);
}
