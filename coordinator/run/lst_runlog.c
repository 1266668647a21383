/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run's record: the run's errors, run.json (built at the start, completed as the run goes
 * and rewritten at a bounded cost), each point's entry, and the points.jsonl journal that a
 * resume reads back (s_journal_point writes a point's result, lst_coord__result_of reads it).
 */
#include <czmq.h>
#include <sys/utsname.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_coord_int.h"

void lst_coord__record_clock(lst_coord *c, size_t i, const struct lst_msg_sync_reply *r,
			     int64_t t_recv)
{
	if (c->res)
		lst_results_clock(c->res, lst_conn_name(c->a[i].conn), r->t1, r->t2, r->t3, t_recv);
}

void lst_coord__record_flush(lst_coord *c)
{
	lst_results_flush(c->res);
}

void lst_coord__error(lst_coord *c, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lst_coord__progress_break(c);
	lst_log_error("%s", msg);
	if (c->errors)
		json_array_append_new(c->errors, json_string(msg));
	c->failed = true;
}

json_t *lst_coord__identity_json(const struct lst_path_identity *id)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:i, s:i, s:I, "
			 "s:I}",
			 "target", id->target, "path", id->path, "real_path", id->real_path, "kind",
			 id->kind, "wwn", id->wwn, "serial", id->serial, "model", id->model,
			 "vendor", id->vendor, "firmware", id->firmware, "backing_file",
			 id->backing_file, "size", (json_int_t)id->size, "logical_block_size",
			 (int)id->lbs, "physical_block_size", (int)id->pbs, "dev",
			 (json_int_t)id->dev, "ino", (json_int_t)id->ino);
}

/* Write run.json; final: the run's last, which must get written even on a full disk. */
void lst_coord__save_run(lst_coord *c, bool final)
{
	lst_err err;
	json_t *agents;

	if (!c->res)
		return;
	agents = json_object_get(c->run, "agents");
	for (size_t i = 0; i < c->n; i++) {
		struct lst_coord__agent *a = &c->a[i];
		lst_conn *cn = a->conn;
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
		json_object_set_new(o, "lost", json_boolean(a->ever_lost));
		if (a->ever_lost)
			json_object_set_new(o, "lost_why", json_string(a->lost_why));
	}
	if (lst_results_write_run(c->res, c->run, final, &err) && !c->results_failed)
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
	int64_t t = lst_mono_ns();

	if (!c->res || (!force && t < c->docs_next))
		return;
	lst_coord__save_run(c, false);
	lst_results_flush_summary(c->res, NULL);
	c->docs_next = lst_mono_ns() + 10 * (lst_mono_ns() - t);
}

/* The coordinator's boot, so a resume knows whether our monotonic clock is still the same. */
void lst_coord__boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

/* A histogram as the hex of its lst_hist_encode (the caller frees it). */
static char *s_hist_hex(const lst_hist *h)
{
	uint8_t buf[LST_HIST_ENC_MAX];
	size_t n = lst_hist_encode(h, buf, sizeof(buf));
	char *hex = lst_malloc(2 * n + 1);

	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", buf[i]);
	hex[2 * n] = 0;
	return hex;
}

/* The hex string at o.key back into *h (s_hist_hex). Returns 0 or -EINVAL with err. */
static int s_hist_of_hex(json_t *o, const char *key, lst_hist *h, lst_err *err)
{
	const char *hex = json_string_value(json_object_get(o, key));
	uint8_t buf[LST_HIST_ENC_MAX];
	size_t n = hex ? strlen(hex) / 2 : 0;

	lst_hist_init(h);
	if (!hex || strlen(hex) % 2 || n > sizeof(buf))
		return lst_err_set(err, -EINVAL, "result.%s: not a histogram in hex", key);
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return lst_err_set(err, -EINVAL, "result.%s: not a histogram in hex", key);
		buf[i] = (uint8_t)v;
	}
	return lst_hist_decode(h, buf, n, err);
}

/*
 * A point's result as its journal entry's "result": rates, counts and time, and the combined,
 * read and write histograms ("lat", "lat_read", "lat_write") in hex, so a resume's suite sees
 * what the run's would have. New reference.
 */
static json_t *s_result_json(const struct lst_step_result *r)
{
	static const char *const keys[] = { "lat", "lat_read", "lat_write" };
	const lst_hist *h[] = { &r->lat, &r->lat_dir[LST_DIR_READ], &r->lat_dir[LST_DIR_WRITE] };
	json_t *o = json_pack("{s:[f,f], s:[f,f], s:[I,I], s:[I,I], s:f, s:f, s:b}", "iops",
			      r->iops[0], r->iops[1], "mbps", r->mbps[0], r->mbps[1], "ios",
			      (json_int_t)r->ios[0], (json_int_t)r->ios[1], "bytes",
			      (json_int_t)r->bytes[0], (json_int_t)r->bytes[1], "seconds",
			      r->seconds, "t_s", r->t_s, "partial", r->partial);

	if (r->discarded) /* a purge's bytes, for the record its suite writes after a resume */
		json_object_set_new(o, "discarded", json_integer((json_int_t)r->discarded));
	for (size_t i = 0; i < LST_ARRAY_SIZE(keys); i++) {
		char *hex = s_hist_hex(h[i]);

		json_object_set_new(o, keys[i], json_string(hex));
		free(hex);
	}
	return o;
}

/*
 * Journal the point just run (c->pending, from lst_coord__record_point) once its suite has seen its
 * result r: what run.json and summary.json say of it, the result the suite needs to replay it
 * on a resume (the histogram as hex of lst_hist_encode), the run's time base, and the size of
 * every append-only file (so a resume can cut them back to this point).
 */
void lst_coord__journal_point(lst_coord *c, const struct lst_step_result *r)
{
	json_t *e = c->pending;
	char boot[64];
	lst_err err;

	c->pending = NULL;
	if (!e || !c->res)
		return json_decref(e);
	lst_coord__boot_id(boot, sizeof(boot));
	json_object_set_new(e, "result", s_result_json(r));
	json_object_set_new(e, "time_base",
			    json_pack("{s:I, s:I, s:s}", "mono_ns", (json_int_t)c->run_t0,
				      "real_ns",
				      (json_int_t)(lst_real_ns() - (lst_mono_ns() - c->run_t0)),
				      "boot_id", boot));
	if (lst_results_journal(c->res, e, &err)) {
		if (!c->results_failed)
			lst_log_warn("%s", err.msg);
	} else { /* in the journal now, read back from there: memory stays flat */
		json_array_clear(c->phases);
		lst_results_journaled(c->res);
	}
	json_decref(e);
	lst_coord__save_docs(c, false);
}

/* Journal the end of phase: its verdicts (summary.json "tests" from tests_from on). */
void lst_coord__journal_phase(lst_coord *c, size_t phase, size_t tests_from)
{
	json_t *tests = json_array(), *all, *e;
	lst_err err;

	if (!c->res)
		return json_decref(tests);
	all = lst_results_tests(c->res);
	for (size_t i = tests_from; i < json_array_size(all); i++)
		json_array_append(tests, json_array_get(all, i));
	e = json_pack("{s:s, s:s, s:I, s:o}", "type", "phase_end", "phase",
		      c->plan->phases[phase].name, "phase_index", (json_int_t)phase, "tests",
		      tests);
	if (lst_results_journal(c->res, e, &err) && !c->results_failed)
		lst_log_warn("%s", err.msg);
	json_decref(e);
}

/*
 * False once a write into the results folder has failed (a full disk): said once, as the run's
 * error, and the run ends, since nothing it measures from then on could be kept.
 */
bool lst_coord__results_ok(lst_coord *c)
{
	const lst_err *e = c->res ? lst_results_failed(c->res) : NULL;

	if (!e)
		return true;
	if (!c->results_failed) {
		c->results_failed = true;
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
	const lst_plan *p = c->plan;
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
			 "format", 1, "run_id", c->run_id, "plan_name", p->name, "plan_file",
			 p->file, "plan_sha1", sha1, "started",
			 lst_time_iso8601(lst_real_ns(), now, sizeof(now)), "versions", "lockstep",
			 LST_VERSION, "protocol", LST_PROTO_VERSION, "libzmq", zmq, "czmq", czmq,
			 "kernel", u.release, "coordinator", c->host, "agents", agents, "targets",
			 targets, "phases", "errors", "retries");
}

double lst_coord__t(const lst_coord *c, int64_t coord_t)
{
	return (double)(coord_t - c->run_t0) / 1e9;
}

/*
 * An agent's actual start on our timeline, through the clock model that chose its t0_agent
 * (T0 plus how late it was on its own clock). A clock burst between START and now moves the
 * model by its noise, tens of microseconds on a loaded host, which mapped through the new model
 * would show as lateness (even as an early start) the agent never had; the drift over the
 * lateness itself is parts per million of it. An instant from the wire too far off for that
 * goes through the current model.
 */
static int64_t s_actual_local(const lst_coord *c, const struct lst_coord__agent *a)
{
	int64_t late, t;

	if (__builtin_sub_overflow(a->actual, a->t0_agent, &late) ||
	    __builtin_add_overflow(c->cur.T0, late, &t))
		return lst_clock_to_local(lst_conn_clock(a->conn), a->actual);
	return t;
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

json_t *lst_coord__point_json(lst_coord *c, const struct lst_workload *w, bool partial)
{
	json_t *agents = json_object(), *wl = json_object();
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	char when[64];

	for (const struct lst_opt *o = lst_workload_opts; o->name; o++)
		json_object_set_new(wl, o->name, s_opt_json(o, w));
	for (size_t i = 0; i < c->n; i++) {
		struct lst_coord__agent *a = &c->a[i];
		int64_t actual;

		if (!a->in_point)
			continue;
		actual = a->started ? s_actual_local(c, a) : 0;
		if (a->started) {
			lo = LST_MIN(lo, actual);
			hi = LST_MAX(hi, actual);
		}
		json_object_set_new(
			agents, lst_conn_name(a->conn),
			json_pack("{s:I, s:o, s:o, s:s, s:s, s:I, s:I, s:O}", "t0_agent_ns",
				  (json_int_t)a->t0_agent, "actual_agent_ns",
				  a->started ? json_integer((json_int_t)a->actual) : json_null(),
				  "start_late_us",
				  a->started ? json_real((double)(actual - c->cur.T0) / 1e3)
					     : json_null(),
				  "done", lst_msg_done_reason_name(a->done_msg.reason), "text",
				  a->done_msg.text, "samples", (json_int_t)a->samples,
				  "last_interval", (json_int_t)a->done_msg.last_interval, "paths",
				  a->jobs ? a->jobs : json_null()));
	}
	return json_pack(
		"{s:s, s:I, s:s, s:s, s:f, s:o, s:b, s:o, s:o}", "phase", c->cur.phase_name,
		"point", (json_int_t)c->cur.point, "label", c->cur.label, "start",
		lst_time_iso8601(lst_real_ns() - (lst_mono_ns() - c->cur.T0), when, sizeof(when)),
		"start_t_s", lst_coord__t(c, c->cur.T0), "start_skew_us",
		hi >= lo ? json_real((double)(hi - lo) / 1e3) : json_null(), "partial", partial,
		"workload", wl, "agents", agents);
}

/* rw is null with a skew (several workloads) and for a purge (no workload: discards), as
 * summary.csv's rw is empty then. */
json_t *lst_coord__step_json(const struct lst_step *step)
{
	const char *rw =
		step->w.skew.n || step->action != LST_ACTION_IO ? NULL : lst_rw_names[step->w.rw];
	json_t *o = json_pack(
		"{s:s, s:i, s:{s:s?, s:I, s:I, s:I, s:i, s:I}}", "test", step->test, "round",
		(int)step->round, "workload", "rw", rw, "jobs", (json_int_t)step->w.jobs, "iodepth",
		(json_int_t)step->w.iodepth, "bs", (json_int_t)step->w.bs, "rwmixread",
		lst_workload_read_pct(&step->w), "rate_iops", (json_int_t)step->w.rate_iops);

	if (step->repeats) /* a repeated point: which run of how many (docs/results.md) */
		json_object_update_new(o,
				       json_pack("{s:I, s:I}", "repeat", (json_int_t)step->repeat,
						 "repeats", (json_int_t)step->repeats));
	return o;
}

/*
 * A journaled point's result (lst_coord__journal_point) back into r. Journals written before
 * results kept the directions apart have no "lat_read"/"lat_write": r->lat_dir stay empty (the
 * per-direction columns of such points' curves.csv rows are then empty). Returns 0 or -EINVAL.
 */
int lst_coord__result_of(json_t *o, struct lst_step_result *r, lst_err *err)
{
	static const char *const dir_keys[LST_DIR_N] = { "lat_read", "lat_write" };
	int rc;

	memset(r, 0, sizeof(*r));
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&r->lat_dir[d]);
	rc = s_hist_of_hex(o, "lat", &r->lat, err);
	for (int d = 0; !rc && d < LST_DIR_N; d++)
		if (json_object_get(o, dir_keys[d]))
			rc = s_hist_of_hex(o, dir_keys[d], &r->lat_dir[d], err);
	if (rc)
		return rc;
	for (int d = 0; d < LST_DIR_N; d++) {
		r->iops[d] = json_number_value(json_array_get(json_object_get(o, "iops"), d));
		r->mbps[d] = json_number_value(json_array_get(json_object_get(o, "mbps"), d));
		r->ios[d] =
			(uint64_t)json_integer_value(json_array_get(json_object_get(o, "ios"), d));
		r->bytes[d] = (uint64_t)json_integer_value(
			json_array_get(json_object_get(o, "bytes"), d));
	}
	r->seconds = json_number_value(json_object_get(o, "seconds"));
	r->t_s = json_number_value(json_object_get(o, "t_s"));
	r->partial = json_is_true(json_object_get(o, "partial"));
	r->discarded = (uint64_t)json_integer_value(json_object_get(o, "discarded"));
	return 0;
}
