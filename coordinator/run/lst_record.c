/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run's record (lst_record.h): the results writer, run.json's document, the point entry
 * waiting for the journal, and the little state around them. What goes into those documents is
 * built by lst_runlog.c and the point; this file owns where it is kept and when it is written.
 */
#include "lst_record.h"

#include <errno.h>

#include "lst_util.h"

struct lst_record {
	lst_results *res; /* the writer, NULL before open (and in the probe) */
	char *dir;
	json_t *run;	   /* run.json */
	json_t *phases;	   /* its "phases" array (borrowed from run) */
	json_t *errors;	   /* its "errors" array (borrowed from run) */
	json_t *retries;   /* its "retries" array (borrowed from run) */
	json_t *pending;   /* the journal entry of the point just run, until its suite saw it */
	size_t points;	   /* points recorded, journaled or not (those of before a resume too) */
	int64_t t0;	   /* coordinator clock at the first start instant */
	int64_t docs_next; /* run.json and summary.json are not rewritten before (rate limit) */
	bool broken;	   /* a write into the results folder failed (reported once) */
	bool failed;	   /* the run failed (lst_record_fail) */
};

lst_record *lst_record_new(void)
{
	return lst_calloc(1, sizeof(struct lst_record));
}

void lst_record_destroy(lst_record **p)
{
	lst_record *r = *p;

	if (!r)
		return;
	lst_results_destroy(&r->res);
	json_decref(r->pending);
	json_decref(r->run);
	free(r->dir);
	free(r);
	*p = NULL;
}

void lst_record_set_dir(lst_record *r, char *dir)
{
	free(r->dir);
	r->dir = dir;
}

const char *lst_record_dir(const lst_record *r)
{
	return r->dir;
}

int lst_record_open(lst_record *r, lst_err *err)
{
	r->res = lst_results_new(r->dir, err);
	return r->res ? 0 : -EIO;
}

int lst_record_reopen(lst_record *r, json_t *sizes, json_t *tests, lst_err *err)
{
	r->res = lst_results_reopen(r->dir, sizes, tests, err);
	return r->res ? 0 : -EIO;
}

lst_results *lst_record_results(const lst_record *r)
{
	return r->res;
}

/* The array at key of run, made when it is missing or not an array (borrowed). */
static json_t *s_array(json_t *run, const char *key)
{
	if (!json_is_array(json_object_get(run, key)))
		json_object_set_new(run, key, json_array());
	return json_object_get(run, key);
}

void lst_record_set_run(lst_record *r, json_t *run)
{
	json_decref(r->run);
	r->run = run;
	r->phases = json_object_get(run, "phases");
	r->errors = s_array(run, "errors");
	r->retries = s_array(run, "retries");
}

json_t *lst_record_run(const lst_record *r)
{
	return r->run;
}

void lst_record_error(lst_record *r, const char *msg)
{
	if (r->errors)
		json_array_append_new(r->errors, json_string(msg));
}

void lst_record_fail(lst_record *r)
{
	r->failed = true;
}

bool lst_record_failed(const lst_record *r)
{
	return r->failed;
}

void lst_record_retry(lst_record *r, json_t *retry)
{
	json_array_append_new(r->retries, retry);
}

void lst_record_point(lst_record *r, json_t *pj, json_t *entry)
{
	json_array_append_new(r->phases, pj);
	r->points++;
	json_decref(r->pending);
	r->pending = entry;
}

json_t *lst_record_take_pending(lst_record *r)
{
	json_t *e = r->pending;

	r->pending = NULL;
	return e;
}

void lst_record_journaled(lst_record *r)
{
	json_array_clear(r->phases);
	lst_results_journaled(r->res);
}

size_t lst_record_points(const lst_record *r)
{
	return r->points;
}

void lst_record_set_points(lst_record *r, size_t n)
{
	r->points = n;
}

int64_t lst_record_t0(const lst_record *r)
{
	return r->t0;
}

void lst_record_set_t0(lst_record *r, int64_t t0)
{
	if (!r->t0)
		r->t0 = t0;
}

double lst_record_t(const lst_record *r, int64_t coord_t)
{
	return (double)(coord_t - r->t0) / 1e9;
}

bool lst_record_broken(const lst_record *r)
{
	return r->broken;
}

bool lst_record_break(lst_record *r)
{
	bool first = !r->broken;

	r->broken = true;
	return first;
}

bool lst_record_docs_due(const lst_record *r, int64_t now, bool force)
{
	return r->res && (force || now >= r->docs_next);
}

void lst_record_docs_done(lst_record *r, int64_t t, int64_t now)
{
	r->docs_next = now + 10 * (now - t);
}
