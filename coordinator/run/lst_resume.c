/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lockstep resume: reach every agent with the interrupted run's id and end the session it may
 * still hold, read the journal back (phases done, points kept, the time base), reopen the
 * results folder cut back to the last journaled point, and run on to the end.
 */

#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_coord_int.h"

/*
 * What the agents p could not reach said: BUSY naming our run (*own_busy: its lease still holds
 * the session from before; said once, unless said already), BUSY naming another run, or another
 * failure (both said; true: the resume is refused).
 */
static bool s_judge(const lst_coord *c, const lst_coord *p, bool said, bool *own_busy)
{
	bool other = false;

	for (size_t i = 0; i < p->n; i++) {
		const lst_msg *reply = lst_coord__reply(p, i);
		const lst_conn *cn = lst_coord__conn(p, i);
		bool busy = reply && reply->type == LST_MSG_ERROR &&
			    reply->u.error.code == LST_PERR_BUSY;

		if (!lst_conn_lost(cn))
			continue;
		if (busy && strstr(reply->u.error.text, c->run_id)) {
			*own_busy = true;
			if (!said && !c->opts.quiet)
				fprintf(c->opts.progress,
					"lockstep: agent %s still holds this run's session from "
					"before (%s); waiting for its lease (%.0f s) to end\n",
					lst_conn_name(cn), reply->u.error.text,
					(double)c->plan->lease / 1e9);
		} else if (busy) {
			lst_log_error("agent %s serves another coordinator (%s): not resuming run "
				      "%s; the results folder is unchanged",
				      lst_conn_name(cn), reply->u.error.text, c->run_id);
			other = true;
		} else {
			lst_log_error("agent %s: %s; not resuming run %s (the results folder is "
				      "unchanged)",
				      lst_conn_name(cn), lst_coord__lost_why(p, i), c->run_id);
			other = true;
		}
	}
	return other;
}

/*
 * Before anything in the folder changes: reach every agent with the run's id and end the
 * session it may still hold from before the crash (BYE stops whatever point it still runs and
 * drops its reply cache, whose command ids a new coordinator would reuse). An agent whose lease
 * still holds that session answers BUSY naming our run: wait for the lease (and a little), then
 * try again. BUSY naming another run is a refusal. Returns 0, or an exit code.
 */
static int s_reattach(lst_coord *c)
{
	int64_t deadline = lst_mono_ns() + c->plan->lease + 15 * LST_NS_PER_S;
	bool said = false;

	for (;;) {
		struct lst_coord_opts o = c->opts;
		bool own_busy = false, other = false;
		lst_coord *p;
		lst_err err;
		int rc;

		o.quiet = true;
		p = lst_coord_new(c->plan, &o, &err);
		if (!p) {
			lst_log_error("%s", err.msg);
			return LST_RUN_USAGE;
		}
		snprintf(p->run_id, sizeof(p->run_id), "%s", c->run_id);
		lst_log_open("/dev/null",
			     NULL); /* BUSY while we wait is expected: said once below */
		rc = lst_coord__hello(p);
		lst_log_close();
		if (rc)
			other = s_judge(c, p, said, &own_busy);
		said |= own_busy;
		lst_coord__bye(p); /* ends the old session on every agent that took us back */
		lst_coord_destroy(&p);
		if (!rc)
			return 0;
		if (other || !own_busy)
			return LST_RUN_FAILED;
		if (lst_coord__interrupted)
			return LST_RUN_INTERRUPTED;
		if (lst_mono_ns() > deadline) {
			lst_log_error(
				"the agents still hold run %s's session %.0f s after its lease; "
				"not resuming",
				c->run_id, (double)(c->plan->lease + 15 * LST_NS_PER_S) / 1e9);
			return LST_RUN_FAILED;
		}
		usleep(500 * 1000);
	}
}

/*
 * After s_reattach ended the old session (whose reply cache would answer our IDENTIFY with the
 * identities of before): is every path still the drive run.json recorded, so the phases to come
 * measure the drive the first ones did? IDENTIFY does no I/O. Returns 0, or an exit code when
 * a path is another drive or an agent refuses (said; the results folder is unchanged).
 */
static int s_same_drives(lst_coord *c, json_t *run)
{
	struct lst_coord_opts o = c->opts;
	lst_err err;
	lst_coord *p;
	int rc;

	o.quiet = true; /* the run's own HELLO says who it reached */
	p = lst_coord_new(c->plan, &o, &err);
	if (!p) {
		lst_log_error("%s", err.msg);
		return LST_RUN_USAGE;
	}
	snprintf(p->run_id, sizeof(p->run_id), "%s", c->run_id);
	lst_record_set_run(p->rec, json_deep_copy(run)); /* compared with, never written back */
	rc = lst_coord__hello(p) || lst_coord__identify(p) ? LST_RUN_FAILED : 0;
	lst_coord__bye(p);
	lst_coord_destroy(&p);
	if (rc)
		lst_log_error("not resuming run %s; the results folder is unchanged", c->run_id);
	return rc;
}

/* What the journal says of the run so far. */
struct s_journal {
	json_t *tests;	 /* summary.json "tests" of the phases it finished (owned) */
	json_t *resumes; /* run.json "resumes": the earlier ones (owned) */
	json_t *last;	 /* the last entry with file sizes (borrowed) */
	json_t *base;	 /* the last point's time base (borrowed) */
	size_t kept;	 /* points journaled */
	size_t phase;	 /* the point to run again: the first one of the first phase not done */
	size_t point;
};

/* Read the journal's entries into *j and c->phase_done. */
static void s_read_journal(lst_coord *c, json_t *journal, struct s_journal *j)
{
	json_t *e;
	size_t i;

	json_array_foreach (journal, i, e) {
		const char *type = json_string_value(json_object_get(e, "type"));
		json_int_t ph = json_integer_value(json_object_get(e, "phase_index"));

		if (!type)
			continue;
		if (json_object_get(e, "sizes"))
			j->last = e;
		if (!strcmp(type, "point")) {
			j->base = json_object_get(e, "time_base");
			j->kept++;
		} else if (!strcmp(type, "phase_end") && ph >= 0 && (size_t)ph < c->plan->nphases) {
			json_array_extend(j->tests, json_object_get(e, "tests"));
			c->phase_done[ph] = true;
		} else if (!strcmp(type, "resume")) {
			json_array_append_new(j->resumes,
					      json_pack("{s:O, s:O, s:O}", "when",
							json_object_get(e, "when"), "phase",
							json_object_get(e, "phase"), "point",
							json_object_get(e, "point")));
		}
	}
	while (j->phase < c->plan->nphases && c->phase_done[j->phase])
		j->phase++;
	json_array_foreach (journal, i, e)
		if (json_integer_value(json_object_get(e, "phase_index")) == (json_int_t)j->phase &&
		    !strcmp(json_string_value(json_object_get(e, "type")) ?: "", "point"))
			j->point++;
}

/*
 * What lst_coord__replay needs of the journal: each point's type, phase, number, test, round,
 * repeat and result. Its rows stay in points.jsonl, from where run.json and summary.json are written.
 */
static json_t *s_replay_entries(json_t *journal)
{
	json_t *out = json_array(), *e;
	size_t i;

	json_array_foreach (journal, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "type")) ?: "", "point")) {
			json_t *run_e = json_object_get(e, "run");
			/* a repeated point's run (`repeat:`) is in its summary rows */
			json_t *row = json_array_get(json_object_get(e, "summary"), 0);

			json_array_append_new(
				out,
				json_pack("{s:s, s:O, s:O, s:{s:O, s:O, s:O, s:O}, s:O}", "type",
					  "point", "phase_index", json_object_get(e, "phase_index"),
					  "point", json_object_get(e, "point") ?: json_null(),
					  "run", "test",
					  json_object_get(run_e, "test") ?: json_null(), "round",
					  json_object_get(run_e, "round") ?: json_null(), "repeat",
					  json_object_get(row, "repeat") ?: json_null(), "repeats",
					  json_object_get(row, "repeats") ?: json_null(), "result",
					  json_object_get(e, "result") ?: json_null()));
		}
	return out;
}

/* run.json as it was, without its end, for the run to go on; the kept points are journaled. */
static void s_reopen_run(lst_coord *c, json_t *run, size_t kept)
{
	json_t *r = json_deep_copy(run);

	json_object_del(r, "status");
	json_object_del(r, "finished");
	json_object_del(r, "phases_in");
	json_object_set_new(r, "phases", json_array()); /* the kept ones are journaled */
	lst_record_set_run(c->rec, r); /* errors and retries made when the run had none */
	lst_record_set_points(c->rec, kept);
}

/* Journal this resume and list it, after the earlier ones, in run.json "resumes". */
static void s_note_resume(lst_coord *c, const struct s_journal *j)
{
	char when[64];
	lst_err err;
	json_t *e;

	lst_time_iso8601(lst_real_ns(), when, sizeof(when));
	e = json_pack("{s:s, s:s, s:s?, s:I, s:I}", "type", "resume", "when", when, "phase",
		      j->phase < c->plan->nphases ? c->plan->phases[j->phase].name : NULL,
		      "phase_index", (json_int_t)j->phase, "point", (json_int_t)j->point);
	if (lst_results_journal(lst_record_results(c->rec), e, &err))
		lst_log_warn("%s", err.msg);
	json_object_del(e, "type");
	json_object_del(e, "sizes");
	json_object_del(e, "phase_index");
	json_array_append_new(j->resumes, e);
	json_object_set(lst_record_run(c->rec), "resumes", j->resumes);
}

/* Times stay on the run's own base (base: the journal's last): t_s goes on from where it was. */
static void s_time_base(lst_coord *c, json_t *base)
{
	char boot[64];
	const char *was = json_string_value(json_object_get(base, "boot_id"));

	lst_record_boot_id(boot, sizeof(boot));
	if (was && *boot && !strcmp(was, boot))
		lst_record_set_t0(c->rec, json_integer_value(json_object_get(base, "mono_ns")));
	else /* the workstation rebooted: through the wall clock */
		lst_record_set_t0(
			c->rec, lst_mono_ns() - (lst_real_ns() - json_integer_value(json_object_get(
									 base, "real_ns"))));
}

int lst_coord_resume(lst_coord *c, json_t *run, json_t *journal)
{
	struct s_journal j = { .tests = json_array(), .resumes = json_array() };
	const char *run_id = json_string_value(json_object_get(run, "run_id"));
	lst_err err;
	int rc;

	snprintf(c->run_id, sizeof(c->run_id), "%s", run_id ? run_id : "");
	c->phase_done = lst_calloc(c->plan->nphases + 1, sizeof(*c->phase_done));
	s_read_journal(c, journal, &j);
	c->journal = s_replay_entries(journal);
	rc = s_reattach(c);
	if (!rc)
		rc = s_same_drives(c, run);
	if (rc)
		goto out;
	if (lst_record_reopen(c->rec, json_object_get(j.last, "sizes"), j.tests, &err)) {
		lst_log_error("%s", err.msg);
		rc = LST_RUN_FAILED;
		goto out;
	}
	s_reopen_run(c, run, j.kept);
	s_note_resume(c, &j);
	if (j.base)
		s_time_base(c, j.base);
	if (!c->opts.quiet)
		fprintf(c->opts.progress,
			"lockstep: resuming run %s at phase %s point %zu (%zu points kept), results "
			"in %s\n",
			c->run_id,
			j.phase < c->plan->nphases ? c->plan->phases[j.phase].name : "(end)",
			j.point, j.kept, lst_record_dir(c->rec));
	rc = lst_coord__run_all(c);
out:
	json_decref(j.tests);
	json_decref(j.resumes);
	return rc;
}
