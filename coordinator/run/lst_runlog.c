/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the run tells its record (lst_record.h): the run's errors, run.json (built at the start
 * from the plan and the agents, completed as the run goes and rewritten at a bounded cost), each
 * point's entry, and the points.jsonl journal that a resume reads back (lst_coord__journal_point
 * writes a point's result with lst_record_result_json, the resume reads it with
 * lst_record_result_of). The record keeps the state; this file knows the run it comes from.
 */
#include <czmq.h>
#include <sys/utsname.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_run_int.h"

void lst_coord__record_clock(lst_coord *c, size_t i, const struct lst_msg_sync_reply *r,
			     int64_t t_recv)
{
	lst_record *rec = lst_coord__record(c);

	if (lst_record_results(rec))
		lst_results_clock(lst_record_results(rec), lst_conn_name(lst_coord__conn(c, i)),
				  r->t1, r->t2, r->t3, t_recv);
}

void lst_coord__record_flush(lst_coord *c)
{
	lst_results_flush(lst_record_results(lst_coord__record(c)));
}

void lst_coord__error(lst_coord *c, const char *fmt, ...)
{
	lst_record *rec = lst_coord__record(c);
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lst_coord__progress_break(c);
	lst_log_error("%s", msg);
	lst_record_error(rec, msg);
	lst_record_fail(rec);
}

/* Write run.json; final: the run's last, which must get written even on a full disk. */
void lst_coord__save_run(lst_coord *c, bool final)
{
	lst_record *rec = lst_coord__record(c);
	lst_err err;
	json_t *agents;

	if (!lst_record_results(rec))
		return;
	agents = json_object_get(lst_record_run(rec), "agents");
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		const lst_conn *cn = lst_coord__conn(c, i);
		json_t *o = json_array_get(agents, i);

		json_object_set_new(o, "clock_offset_us",
				    lst_conn_synced(cn)
					    ? json_real((double)lst_clock_model_offset(
								lst_conn_clock(cn), lst_mono_ns()) /
							1e3)
					    : json_null());
		json_object_set_new(o, "rtt_us",
				    lst_conn_synced(cn)
					    ? json_real((double)lst_conn_estimate(cn)->rtt_ns / 1e3)
					    : json_null());
		json_object_set_new(o, "drift_ppm",
				    lst_conn_synced(cn) ? json_real(lst_conn_clock(cn)->slope * 1e6)
							: json_null());
		json_object_set_new(o, "lost", json_boolean(lst_coord__ever_lost(c, i)));
		if (lst_coord__ever_lost(c, i))
			json_object_set_new(o, "lost_why", json_string(lst_coord__lost_why(c, i)));
	}
	if (lst_results_write_run(lst_record_results(rec), lst_record_run(rec), final, &err) &&
	    !lst_record_broken(rec))
		lst_log_warn("%s", err.msg);
}

/*
 * Rewrite run.json and summary.json, unless force is false and the last rewrite was recent:
 * both grow with the run, so they are rewritten only once 10 times the last rewrite's duration
 * has passed, which keeps their cost under a tenth of the run's time whatever its length.
 * points.jsonl (s_journal) is what is always current.
 */
void lst_coord__save_docs(lst_coord *c, bool force)
{
	lst_record *rec = lst_coord__record(c);
	int64_t t = lst_mono_ns();

	if (!lst_record_docs_due(rec, t, force))
		return;
	lst_coord__save_run(c, false);
	lst_results_flush_summary(lst_record_results(rec), NULL);
	lst_record_docs_done(rec, t, lst_mono_ns());
}

/*
 * Journal the point just run (the record's pending entry, from lst_coord__record_point) once its suite has seen its
 * result r: what run.json and summary.json say of it, the result the suite needs to replay it
 * on a resume (the histogram as hex of lst_hist_encode), the run's time base, and the size of
 * every append-only file (so a resume can cut them back to this point).
 */
void lst_coord__journal_point(lst_coord *c, const struct lst_step_result *r)
{
	lst_record *rec = lst_coord__record(c);
	json_t *e = lst_record_take_pending(rec);
	char boot[64];
	lst_err err;

	if (!e || !lst_record_results(rec))
		return json_decref(e);
	lst_record_boot_id(boot, sizeof(boot));
	json_object_set_new(e, "result", lst_record_result_json(r));
	json_object_set_new(
		e, "time_base",
		json_pack("{s:I, s:I, s:s}", "mono_ns", (json_int_t)lst_record_t0(rec), "real_ns",
			  (json_int_t)(lst_real_ns() - (lst_mono_ns() - lst_record_t0(rec))),
			  "boot_id", boot));
	if (lst_results_journal(lst_record_results(rec), e, &err)) {
		if (!lst_record_broken(rec))
			lst_log_warn("%s", err.msg);
	} else { /* in the journal now, read back from there: memory stays flat */
		lst_record_journaled(rec);
	}
	json_decref(e);
	lst_coord__save_docs(c, false);
}

/* Journal the end of phase: its verdicts (summary.json "tests" from tests_from on). */
void lst_coord__journal_phase(lst_coord *c, size_t phase, size_t tests_from)
{
	lst_record *rec = lst_coord__record(c);
	json_t *tests = json_array(), *all, *e;
	lst_err err;

	if (!lst_record_results(rec))
		return json_decref(tests);
	all = lst_results_tests(lst_record_results(rec));
	for (size_t i = tests_from; i < json_array_size(all); i++)
		json_array_append(tests, json_array_get(all, i));
	e = json_pack("{s:s, s:s, s:I, s:o}", "type", "phase_end", "phase",
		      lst_coord__plan(c)->phases[phase].name, "phase_index", (json_int_t)phase,
		      "tests", tests);
	if (lst_results_journal(lst_record_results(rec), e, &err) && !lst_record_broken(rec))
		lst_log_warn("%s", err.msg);
	json_decref(e);
}

/*
 * False once a write into the results folder has failed (a full disk): said once, as the run's
 * error, and the run ends, since nothing it measures from then on could be kept.
 */
bool lst_coord__results_ok(lst_coord *c)
{
	lst_record *rec = lst_coord__record(c);
	const lst_err *e =
		lst_record_results(rec) ? lst_results_failed(lst_record_results(rec)) : NULL;

	if (!e)
		return true;
	if (lst_record_break(rec)) {
		lst_coord__error(c, "%s; stopping the run, since nothing more can be recorded",
				 e->msg);
	}
	return false;
}

void lst_coord_plan_hash(const char *text, char out[41])
{
	zdigest_t *d = zdigest_new();

	zdigest_update(d, (const byte *)text, strlen(text));
	snprintf(out, 41, "%s", zdigest_string(d));
	for (char *q = out; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	zdigest_destroy(&d);
}

json_t *lst_coord__run_json(lst_coord *c)
{
	const lst_plan *p = lst_coord__plan(c);
	struct utsname u;
	json_t *agents = json_array(), *targets = json_array();
	char now[64], zmq[32], czmq[32];
	int maj, min, pat;

	uname(&u);
	zmq_version(&maj, &min, &pat);
	snprintf(zmq, sizeof(zmq), "%d.%d.%d", maj, min, pat);
	snprintf(czmq, sizeof(czmq), "%d.%d.%d", CZMQ_VERSION_MAJOR, CZMQ_VERSION_MINOR,
		 CZMQ_VERSION_PATCH);
	for (size_t i = 0; i < p->nagents; i++)
		json_array_append_new(agents, json_pack("{s:s, s:s}", "name", p->agents[i].name,
							"address", p->agents[i].address));
	for (size_t i = 0; i < p->ntargets; i++) {
		json_t *paths = json_array();

		for (size_t j = 0; j < p->targets[i].npaths; j++)
			json_array_append_new(
				paths, json_pack("{s:s, s:s}", "agent",
						 p->agents[p->targets[i].paths[j].agent].name,
						 "path", p->targets[i].paths[j].path));
		json_array_append_new(targets,
				      json_pack("{s:s, s:s?, s:s, s:o}", "name", p->targets[i].name,
						"identity", p->targets[i].identity, "share",
						p->targets[i].share ? "shared" : "split", "paths",
						paths));
	}
	char sha1[41];

	lst_coord_plan_hash(p->text ? p->text : "", sha1);
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:i, s:s, s:s, s:s}, s:s, "
			 "s:o, s:o, s:[], s:[], s:[]}",
			 "format", 1, "run_id", lst_coord__run_id(c), "plan_name", p->name,
			 "plan_file", p->file, "plan_sha1", sha1, "started",
			 lst_time_iso8601(lst_real_ns(), now, sizeof(now)), "versions", "lockstep",
			 LST_VERSION, "protocol", LST_PROTO_VERSION, "libzmq", zmq, "czmq", czmq,
			 "kernel", u.release, "coordinator", lst_coord__host(c), "agents", agents,
			 "targets", targets, "phases", "errors", "retries");
}

double lst_coord__t(const lst_coord *c, int64_t coord_t)
{
	return lst_record_t(lst_coord__record(c), coord_t);
}

/*
 * One workload option's value for run.json, typed as `lockstep-agent bench --json` types it:
 * whole numbers, sizes (bytes) and durations (ns) as JSON integers, booleans as JSON booleans,
 * and the rest (names, patterns, the structured options) in the text a plan writes. Folders
 * written before had every value as text ("iodepth": "8"); their readers take both.
 */
static json_t *s_opt_json(const struct lst_opt *o, const struct lst_workload *w)
{
	char v[LST_OPT_WIRE_MAX];

	switch (o->type) {
	case LST_OPT_INT:
	case LST_OPT_SIZE:
	case LST_OPT_DURATION:
		return json_integer((json_int_t)lst_opt_get(o, w));
	case LST_OPT_BOOL:
		return json_boolean(lst_opt_get(o, w));
	default:
		return json_string(lst_opt_format(o, w, v, sizeof(v)));
	}
}

json_t *lst_coord__point_json(lst_coord *c, const struct lst_workload *w, bool partial,
			      json_t *agents, json_t *skew)
{
	const struct lst_coord__where *at = lst_coord__where(c);
	json_t *wl = json_object();
	char when[64];

	for (const struct lst_opt *o = lst_workload_opts; o->name; o++)
		json_object_set_new(wl, o->name, s_opt_json(o, w));
	return json_pack(
		"{s:s, s:I, s:s, s:s, s:f, s:o, s:b, s:o, s:o}", "phase", at->phase_name, "point",
		(json_int_t)at->point, "label", at->label, "start",
		lst_time_iso8601(lst_real_ns() - (lst_mono_ns() - at->T0), when, sizeof(when)),
		"start_t_s", lst_coord__t(c, at->T0), "start_skew_us", skew, "partial", partial,
		"workload", wl, "agents", agents);
}
