/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scheduler above a point: IDENTIFY every path before any I/O, each phase's suite of steps
 * one after another, a point run again while an agent is lost (on_agent_loss: retry), idle gaps,
 * and the replay of journaled points into a suite on a resume.
 */

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_run_int.h"

/* A phase's roles that make a path write (rw, or a skew with a writing entry, of their own):
 * LST_ACCESS_WRITE, else 0. */
static uint32_t s_roles_access(const struct lst_plan_phase *ph)
{
	size_t rw = (size_t)(lst_opt_find(lst_workload_opts, "rw") - lst_workload_opts);
	size_t skew = (size_t)(lst_opt_find(lst_workload_opts, "skew") - lst_workload_opts);

	for (size_t r = 0; r < ph->nroles; r++) {
		const struct lst_plan_role *role = &ph->roles[r];

		if (!role->idle && role->w_set[rw] && role->w.rw != LST_RW_READ &&
		    role->w.rw != LST_RW_RANDREAD)
			return LST_ACCESS_WRITE;
		if (!role->idle && role->w_set[skew] && lst_workload_writes(&role->w))
			return LST_ACCESS_WRITE;
	}
	return 0;
}

/*
 * Everything the plan's phases do to target t (enum lst_access bits): what their points do, as
 * the suites build them. A phase whose suite cannot be built counts as writing (the run stops
 * there anyway); a bit too many only makes the up-front check stricter.
 */
static uint32_t s_target_access(const lst_plan *p, size_t t)
{
	uint32_t access = 0;

	for (size_t i = 0; i < p->nphases; i++) {
		for (size_t k = 0; k < p->phases[i].ntargets; k++) {
			if (p->phases[i].targets[k] == t) {
				lst_suite_run *s = lst_suite_new(p, i, 0, NULL);

				access |= s ? lst_suite_access(s) : LST_ACCESS_WRITE;
				access |= s_roles_access(&p->phases[i]);
				lst_suite_destroy(&s);
			}
		}
	}
	return access;
}

/*
 * IDENTIFY every path of every target: sizes for shares and capacity, identities for run.json,
 * and, through each job spec's access, the agents' disk-safety check of everything the run will
 * do, before any phase runs: a refusal here ends the run with nothing written anywhere.
 */
/*
 * The IDENTIFY of agent i: a job spec for each of its paths, with what the run will do there
 * (access[t] for target t). NULL when it has none; NULL and *fail when it has too many (said).
 */
static lst_msg *s_identify_msg(lst_coord *c, size_t i, const uint32_t *access, bool *fail)
{
	const lst_plan *p = lst_coord__plan(c);
	lst_msg *m = lst_msg_new(LST_MSG_PREPARE);
	struct lst_msg_prepare *pr = &m->u.prepare;

	snprintf(pr->run, sizeof(pr->run), "%s", lst_coord__run_id(c));
	snprintf(pr->name, sizeof(pr->name), "identify");
	pr->phase = UINT32_MAX;
	for (size_t t = 0; t < p->ntargets; t++) {
		for (size_t j = 0; j < p->targets[t].npaths; j++) {
			struct lst_jobspec *js;

			if (p->targets[t].paths[j].agent != i)
				continue;
			if (pr->njobs == LST_MAX_JOBSPECS) {
				lst_coord__error(c, "agent %s has more than %d paths",
						 lst_conn_name(lst_coord__conn(c, i)),
						 LST_MAX_JOBSPECS);
				lst_msg_destroy(&m);
				*fail = true;
				return NULL;
			}
			js = &pr->jobs[pr->njobs++];
			snprintf(js->target, sizeof(js->target), "%s", p->targets[t].name);
			snprintf(js->path, sizeof(js->path), "%s", p->targets[t].paths[j].path);
			snprintf(js->identity, sizeof(js->identity), "%s",
				 p->targets[t].identity ? p->targets[t].identity : "");
			js->action = LST_ACTION_IDENTIFY;
			js->access = access[t];
			lst_workload_init(&js->w);
		}
	}
	if (!pr->njobs)
		lst_msg_destroy(&m);
	return m;
}

/*
 * What says a path is still the drive recorded: everything the agent reads off the device or
 * file, but not where the kernel put it this time (real_path, and a block device's number can
 * change with a reboot); a file's inode, since a file made again is another file.
 */
static const char *const s_same_drive_keys[] = { "kind",
						 "wwn",
						 "serial",
						 "model",
						 "vendor",
						 "firmware",
						 "backing_file",
						 "size",
						 "logical_block_size",
						 "physical_block_size" };

/* Into out: "KEY recorded A, now B" for each key of the drive that differs ("" when none). */
static void s_identity_diff(json_t *was, json_t *now, char *out, size_t size)
{
	size_t len = 0;
	bool file = !strcmp(json_string_value(json_object_get(now, "kind")) ?: "", "file");

	out[0] = 0;
	for (size_t k = 0; k < LST_ARRAY_SIZE(s_same_drive_keys) + file; k++) {
		const char *key =
			k < LST_ARRAY_SIZE(s_same_drive_keys) ? s_same_drive_keys[k] : "ino";
		json_t *a = json_object_get(was, key), *b = json_object_get(now, key);
		char *sa, *sb;

		if (!a || json_equal(a, b)) /* !a: recorded by a lockstep that did not know key */
			continue;
		sa = json_dumps(a, JSON_ENCODE_ANY);
		sb = b ? json_dumps(b, JSON_ENCODE_ANY) : lst_strdup("(none)");
		if (len < size)
			len += (size_t)snprintf(out + len, size - len, "%s%s recorded %s, now %s",
						len ? "; " : "", key, sa, sb);
		free(sa);
		free(sb);
	}
}

/*
 * A resume's check of path j of target t: the identity it reports now against the one
 * run.json recorded (was), which stays as it is. Returns 0, or -1 when it is another drive
 * (said, naming target, agent, path and both identities).
 */
static int s_same_drive(lst_coord *c, size_t t, size_t j, json_t *was, json_t *now)
{
	const lst_plan *plan = lst_coord__plan(c);
	const struct lst_plan_target *pt = &plan->targets[t];
	char diff[2048];

	if (!json_is_object(was)) {
		lst_coord__error(c, "target %s: run.json records no identity for agent %s's %s",
				 pt->name, plan->agents[pt->paths[j].agent].name,
				 pt->paths[j].path);
		return -1;
	}
	s_identity_diff(was, now, diff, sizeof(diff));
	if (!diff[0])
		return 0;
	lst_coord__error(c, "target %s: agent %s's %s is not the drive the run measured (%s)",
			 pt->name, plan->agents[pt->paths[j].agent].name, pt->paths[j].path, diff);
	return -1;
}

/*
 * Target t's identities from the agents' PREPARED replies: each path's, the smallest size, and
 * both into run.json's target. When run.json has them already (a resume), each path must be the
 * drive recorded, and the record is kept. Returns 0, or -1 when a path has no size or is another
 * drive (said).
 */
static int s_target_identities(lst_coord *c, size_t t, json_t *target)
{
	const lst_plan *p = lst_coord__plan(c);
	const struct lst_plan_target *pt = &p->targets[t];
	struct lst_coord__target *st = lst_coord__target(c, t);
	json_t *was = json_object_get(target, "identities"), *ids = json_array();
	bool ok = true;

	st->ids = lst_calloc(pt->npaths, sizeof(*st->ids));
	for (size_t j = 0; j < pt->npaths; j++) {
		const struct lst_msg_prepared *pd =
			&lst_coord__reply(c, pt->paths[j].agent)->u.prepared;

		for (uint32_t k = 0; k < pd->npaths; k++)
			if (!strcmp(pd->paths[k].target, pt->name) &&
			    !strcmp(pd->paths[k].path, pt->paths[j].path))
				st->ids[j] = pd->paths[k];
		if (!st->ids[j].size) {
			lst_coord__error(c, "target %s: agent %s reported no size for %s", pt->name,
					 p->agents[pt->paths[j].agent].name, pt->paths[j].path);
			json_decref(ids);
			return -1;
		}
		if (!st->size || st->ids[j].size < st->size) {
			if (st->size)
				lst_log_warn(
					"target %s: paths report different sizes (%llu and %llu "
					"bytes); using the smaller",
					pt->name, (unsigned long long)st->size,
					(unsigned long long)st->ids[j].size);
			st->size = st->ids[j].size;
		}
		json_array_append_new(ids, lst_record_identity_json(&st->ids[j]));
		if (was && s_same_drive(c, t, j, json_array_get(was, j), json_array_get(ids, j)))
			ok = false;
	}
	if (was) {
		json_decref(ids);
		return ok ? 0 : -1;
	}
	json_object_set_new(target, "size", json_integer((json_int_t)st->size));
	json_object_set_new(target, "identities", ids);
	return 0;
}

int lst_coord__identify(lst_coord *c)
{
	const lst_plan *p = lst_coord__plan(c);
	json_t *targets = json_object_get(lst_record_run(lst_coord__record(c)), "targets");
	uint32_t *access = lst_calloc(p->ntargets, sizeof(*access));
	bool fail = false;

	for (size_t t = 0; t < p->ntargets; t++)
		access[t] = s_target_access(p, t);
	for (size_t i = 0; i < lst_coord__n(c) && !fail; i++) {
		lst_msg *m = s_identify_msg(c, i, access, &fail);

		if (m)
			lst_coord__ask(c, i, &m);
	}
	free(access);
	if (fail)
		return -1;
	lst_coord__pump_until(c, lst_coord__all_replied, LST_COORD__REPLY_TIMEOUT);
	if (lst_coord__interrupted ||
	    !lst_coord__replies_ok(c, "the run's paths (checked before any I/O)"))
		return -1;
	for (size_t t = 0; t < p->ntargets; t++)
		if (s_target_identities(c, t, json_array_get(targets, t)))
			return -1;
	for (size_t i = 0; i < lst_coord__n(c); i++)
		lst_coord__take(c, i);
	return 0;
}

/*
 * The capacity of all the phase's targets together, for the suite's capacity stops: they
 * compare it with the bytes written to all of them (each path's own stop uses its target).
 */
static uint64_t s_phase_capacity(const lst_coord *c, const struct lst_plan_phase *ph)
{
	uint64_t cap = 0;

	for (size_t k = 0; k < ph->ntargets; k++)
		cap += lst_coord__target_size(c, ph->targets[k]);
	return cap;
}

/* Sleep without I/O (HIR gaps) while still answering and watching the agents. */
static void s_idle(lst_coord *c, int64_t ns)
{
	int64_t until = lst_mono_ns() + ns;

	while (!lst_coord__interrupted && lst_mono_ns() < until)
		lst_coord__pump(c, LST_MIN(until - lst_mono_ns(), 100 * LST_NS_PER_MS));
}

/*
 * A point, run again while an agent is lost under on_agent_loss: retry: the stopped attempt's
 * rows and samples are cut from the results, the lost agents are waited for (retry_wait), and
 * the point starts anew for everyone, at most `retries` times. run.json "retries" lists each.
 * Returns 0 when the point completed (in *out), -1 when the run must end.
 */
static int s_run_point_retried(lst_coord *c, size_t phase, size_t point,
			       const struct lst_step *step, struct lst_step_result *out)
{
	const lst_plan *plan = lst_coord__plan(c);
	lst_record *rec = lst_coord__record(c);
	const struct lst_plan_phase *ph = &plan->phases[phase];

	for (int64_t attempt = 0;; attempt++) {
		json_t *lost;
		int rc;

		if (lst_record_results(rec))
			lst_results_mark(lst_record_results(rec));
		rc = lst_coord__run_point(c, phase, point, step, out);
		if (rc != LST_COORD__POINT_RETRY)
			return rc == LST_COORD__POINT_OK ? 0 : -1;
		lost = json_array(); /* made only for a retry: every other point leaked it */
		if (lst_record_results(rec))
			lst_results_rewind(lst_record_results(rec));
		for (size_t i = 0; i < lst_coord__n(c); i++)
			if (lst_coord__agent_point_lost(
				    c, i)) /* kept past the point's end, until the next PREPARE */
				json_array_append_new(
					lost, json_pack("{s:s, s:s}", "agent",
							lst_conn_name(lst_coord__conn(c, i)), "why",
							lst_coord__lost_why(c, i)));
		lst_record_retry(rec,
				 json_pack("{s:s, s:I, s:s, s:I, s:o}", "phase", ph->name, "point",
					   (json_int_t)point, "label", lst_coord__where(c)->label,
					   "attempt", (json_int_t)attempt + 1, "lost", lost));
		lst_coord__save_docs(c, true);
		if (attempt >= plan->retries) {
			lst_coord__error(
				c,
				"phase %s point %zu: an agent was lost in %lld attempts; giving "
				"up (retries: %lld)",
				ph->name, point, (long long)attempt + 1, (long long)plan->retries);
			return -1;
		}
		if (!lst_coord__wait_back(c, ph)) {
			if (!lst_coord__interrupted)
				lst_coord__error(
					c,
					"phase %s point %zu: the lost agents did not come back "
					"within retry_wait (%.0f s)",
					ph->name, point, (double)plan->retry_wait / 1e9);
			return -1;
		}
		lst_log_warn("retrying phase %s point %zu (attempt %lld of at most %lld)", ph->name,
			     point, (long long)attempt + 2, (long long)plan->retries + 1);
	}
}

/* A point with its telemetry (telemetry: {every: point}). Returns 0, or -1 when the run must
 * end (its results folder failing included). */
static int s_run_one(lst_coord *c, size_t phase, size_t point, const struct lst_step *step,
		     struct lst_step_result *out)
{
	bool per_point = lst_coord__plan(c)->phases[phase].telemetry_every == LST_TELEMETRY_POINT;
	int failed;

	if (per_point)
		lst_coord__telemetry(c, phase, (long)point, false);
	failed = s_run_point_retried(c, phase, point, step, out);
	if (per_point)
		lst_coord__telemetry(c, phase, (long)point, true);
	return failed || !lst_coord__results_ok(c) ? -1 : 0;
}

/*
 * The step, `repeat:` times in a row (plain phases; once elsewhere): each run a point of its own,
 * numbered from *point on and labelled "LABEL repeat K" (or "repeat K"), with "repeat" and "repeats" in
 * summary.json, and journaled; the suite sees only the last run's result (lst_coord__replay
 * does the same on a resume, which goes on after the done repeats, from `from` on).
 * Returns 0 with the last result in *out, or -1 when the run must end.
 */
static int s_run_repeats(lst_coord *c, size_t phase, const struct lst_step *step, size_t from,
			 size_t *point, struct lst_step_result *out)
{
	size_t n = (size_t)LST_MAX(lst_coord__plan(c)->phases[phase].repeat, 1);
	struct lst_step one = *step;

	for (size_t k = from + 1; k <= n; k++) {
		if (n > 1) {
			one.repeat = k;
			one.repeats = n;
			snprintf(one.label, sizeof(one.label), "%.140s%srepeat %zu", step->label,
				 *step->label ? " " : "", k);
		}
		if (s_run_one(c, phase, (*point)++, &one, out))
			return -1;
		if (k == n)
			break;
		lst_coord__journal_point(c, out);
		free(out->parts);
		out->parts = NULL;
		if (lst_coord__interrupted)
			return -1;
	}
	return 0;
}

/*
 * Resume: feed the phase's journaled points to its suite, in order, as if they had just run,
 * so it keeps its rounds (a WSAT its bytes written, a steady-state test its rounds). Nothing is
 * written: their rows are in the folder already. Returns the number of the phase's next point
 * (how many points it kept, repeats included), SIZE_MAX on a mismatch.
 */
size_t lst_coord__replay(lst_coord *c, size_t phase, lst_suite_run *suite, size_t *repeats_done)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	const char *name = lst_coord__plan(c)->phases[phase].name;
	size_t n = 0, next = 0, i;
	json_t *e;

	*repeats_done = 0;
	json_array_foreach (lst_coord__journal(c), i, e) {
		json_t *run = json_object_get(e, "run");
		const char *test = json_string_value(json_object_get(run, "test"));
		json_int_t repeat = json_integer_value(json_object_get(run, "repeat"));
		struct lst_step step;
		struct lst_step_result r;
		lst_err err;

		if (json_integer_value(json_object_get(e, "phase_index")) != (json_int_t)phase ||
		    strcmp(json_string_value(json_object_get(e, "type")) ?: "", "point"))
			continue;
		/* a repeated step's runs before its last: kept, the suite waits for the last */
		next = (size_t)json_integer_value(json_object_get(e, "point")) + 1;
		if (repeat && repeat < json_integer_value(json_object_get(run, "repeats"))) {
			*repeats_done = (size_t)repeat;
			continue;
		}
		*repeats_done = 0;
		if (!lst_suite_next(suite, &step) || !test || strcmp(test, step.test) ||
		    json_integer_value(json_object_get(run, "round")) != (json_int_t)step.round) {
			lst_coord__error(
				c,
				"resume: points.jsonl has phase %s point %zu as test '%s', which is "
				"not the plan's step there: was the plan changed?",
				name, n, test ? test : "?");
			return SIZE_MAX;
		}
		if (lst_record_result_of(json_object_get(e, "result"), &r, &err)) {
			lst_coord__error(c, "resume: points.jsonl, phase %s point %zu: %s", name, n,
					 err.msg);
			return SIZE_MAX;
		}
		lst_suite_result(suite, &step, &r, NULL);
		n++;
	}
	if (n && !opts->quiet)
		fprintf(opts->progress, "phase %s: %zu points kept from before the resume\n", name,
			next);
	return next;
}

/* One phase: its suite's steps one after another, then the suite's results. */
int lst_coord__run_phase(lst_coord *c, size_t phase)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	lst_record *rec = lst_coord__record(c);
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[phase];
	struct lst_step step;
	struct lst_step_result r = { .parts = NULL };
	lst_suite_run *suite;
	lst_err err;
	size_t point = 0, tests_from = json_array_size(lst_results_tests(lst_record_results(rec))),
	       repeats_done;
	int rc = LST_RUN_OK;

	suite = lst_suite_new(lst_coord__plan(c), phase, s_phase_capacity(c, ph), &err);
	if (!suite) {
		lst_coord__error(c, "%s", err.msg);
		return LST_RUN_FAILED;
	}
	lst_coord__progress_phase(c, phase, suite);
	point = lst_coord__replay(c, phase, suite, &repeats_done);
	if (point == SIZE_MAX) {
		lst_suite_destroy(&suite);
		return LST_RUN_FAILED;
	}
	if (lst_coord__phase_hooks(c, phase, false)) {
		lst_suite_destroy(&suite);
		return lst_coord__interrupted ? LST_RUN_INTERRUPTED : LST_RUN_FAILED;
	}
	if (ph->telemetry_every == LST_TELEMETRY_PHASE)
		lst_coord__telemetry(c, phase, -1, false);
	while (lst_suite_next(suite, &step)) {
		int failed = s_run_repeats(c, phase, &step, repeats_done, &point, &r);

		repeats_done = 0;
		if (failed) {
			rc = lst_coord__interrupted ? LST_RUN_INTERRUPTED : LST_RUN_FAILED;
			break;
		}
		lst_suite_result(suite, &step, &r, lst_record_results(rec));
		lst_coord__metrics_suite(c, suite);
		lst_coord__journal_point(c, &r);
		free(r.parts);
		r.parts = NULL;
		if (step.idle_after)
			s_idle(c, step.idle_after);
		if (lst_coord__interrupted) {
			rc = LST_RUN_INTERRUPTED;
			break;
		}
	}
	free(r.parts); /* a point that ended the run */
	/* a point that did not end normally is not journaled */
	json_decref(lst_record_take_pending(rec));
	lst_suite_finish(suite, lst_record_results(rec), opts->quiet ? NULL : opts->progress);
	lst_suite_destroy(&suite);
	/* The telemetry after a phase that failed too: a failover test that went wrong is where
	 * the drive's counters matter most. The after hooks only when it went right. */
	if (ph->telemetry_every == LST_TELEMETRY_PHASE && !lst_coord__interrupted)
		lst_coord__telemetry(c, phase, -1, true);
	if (rc == LST_RUN_OK && lst_coord__phase_hooks(c, phase, true))
		rc = lst_coord__interrupted ? LST_RUN_INTERRUPTED : LST_RUN_FAILED;
	if (rc == LST_RUN_OK)
		lst_coord__journal_phase(c, phase, tests_from);
	lst_coord__save_docs(c, false);
	return rc;
}
