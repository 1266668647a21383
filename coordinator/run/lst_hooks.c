/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hooks, events and telemetry: what a run does besides I/O, on the agents' own
 * commands.
 *
 * An agent's config names its hooks and collectors (argv, no shell); its WELCOME lists their
 * names. A plan only names them, so before any I/O every name the plan uses is checked against
 * the agent it names (lst_coord__hooks_check): a typo fails the run at its start, not an hour
 * in. Three kinds of runs:
 *   - events: START carries each agent's events of the phase; the agent runs each at t0 + at on
 *     its own clock and sends an EVENT (spooled like a SAMPLE, so a partition loses none)
 *     before the point's DONE. Each becomes a row of events.csv, on our clock.
 *   - before/after hooks: HOOK commands before a phase's first point and after its last, one
 *     after another in the order written.
 *   - telemetry: before and after each phase (or point), every agent of the phase marks its
 *     kernel log (KMSG) and runs its collectors (HOOK, kind collector), all agents at once; the
 *     outputs land in telemetry/AGENT/, with the kernel log of the window between.
 * A failed event or hook ends the run when the plan says stop (its on_error, the default); a
 * failed collector is recorded in its file and never ends anything.
 */

#include <string.h>

#include "lst_assert.h"
#include "lst_events.h"
#include "lst_log.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_run_int.h"

/* The running point's events (lst_coord__events_begin): which were reported, or had their row
 * made, and whether one failed under `on_error: stop`. Held by the orchestrator, kept here. */
struct lst_coord__events {
	bool *seen; /* [phase's nevents] */
	bool stop;  /* the point ends, then the run */
};

/* How long a HOOK may take before we stop waiting: the agent's own hook_timeout kills a slow
 * hook long before (60 s by default); this only guards against an agent that never answers. */
#define S_HOOK_WAIT (2 * 3600 * LST_NS_PER_S)

/* ---- the check before any I/O */

static bool s_listed(const char names[][LST_NAME_MAX], uint32_t n, const char *name)
{
	for (uint32_t k = 0; k < n && k < LST_MAX_HOOKS; k++)
		if (!strcmp(names[k], name))
			return true;
	return false;
}

bool lst_coord__has_cap(const lst_coord *c, size_t i, const char *cap)
{
	const struct lst_msg_welcome *w = lst_conn_info(lst_coord__conn(c, i));

	for (uint32_t k = 0; w && k < w->ncaps && k < LST_MAX_CAPS; k++)
		if (!strcmp(w->caps[k], cap))
			return true;
	return false;
}

/* Agent i speaks hooks.v1 (its WELCOME said so). */
static bool s_hooks_ok(const lst_coord *c, size_t i)
{
	return lst_coord__has_cap(c, i, LST_CAP_HOOKS);
}

/* One hook the plan names: on an agent that speaks hooks.v1 and defines it. */
static bool s_check_hook(lst_coord *c, const struct lst_plan_hook *h, const char *what)
{
	const struct lst_msg_welcome *w = lst_conn_info(lst_coord__conn(c, h->agent));
	const char *agent = lst_coord__plan(c)->agents[h->agent].name;
	char names[LST_MAX_HOOKS * LST_NAME_MAX];

	if (!s_hooks_ok(c, h->agent)) {
		lst_coord__error(c,
				 "%s:%d:%d: %s: agent %s cannot run hooks (lockstep-agent %s does "
				 "not speak %s): upgrade it",
				 lst_coord__plan(c)->file, h->mark.line, h->mark.col, what, agent,
				 w ? w->version : "?", LST_CAP_HOOKS);
		return false;
	}
	if (s_listed(w->hooks, w->nhooks, h->hook))
		return true;
	lst_conn_names(w->hooks, w->nhooks, names, sizeof(names));
	lst_coord__error(c,
			 "%s:%d:%d: %s: agent %s has no hook '%s' (its config defines: %s); a "
			 "plan can only run the hooks an agent's owner put in its config",
			 lst_coord__plan(c)->file, h->hook_mark.line, h->hook_mark.col, what, agent,
			 h->hook, names);
	return false;
}

/* The collectors phase ph names: defined by every agent of the phase. */
static bool s_check_collectors(lst_coord *c, const struct lst_plan_phase *ph)
{
	const lst_plan *plan = lst_coord__plan(c);
	bool ok = true;

	for (size_t i = 0; i < lst_coord__n(c); i++) {
		const struct lst_msg_welcome *w = lst_conn_info(lst_coord__conn(c, i));
		char names[LST_MAX_HOOKS * LST_NAME_MAX];

		if (!lst_coord__in_phase(c, ph, i))
			continue;
		for (size_t k = 0; k < ph->ncollect; k++) {
			if (s_hooks_ok(c, i) &&
			    s_listed(w->collectors, w->ncollectors, ph->collect[k]))
				continue;
			if (s_hooks_ok(c, i))
				lst_conn_names(w->collectors, w->ncollectors, names, sizeof(names));
			else
				snprintf(names, sizeof(names), "none: it does not speak %s",
					 LST_CAP_HOOKS);
			lst_coord__error(c,
					 "%s:%d:%d: phase %s: agent %s has no collector '%s' (its "
					 "config defines: %s)",
					 plan->file, ph->collect_marks[k].line,
					 ph->collect_marks[k].col, ph->name, plan->agents[i].name,
					 ph->collect[k], names);
			ok = false;
		}
	}
	return ok;
}

int lst_coord__hooks_check(lst_coord *c)
{
	const lst_plan *plan = lst_coord__plan(c);
	bool ok = true;

	for (size_t p = 0; p < plan->nphases; p++) {
		const struct lst_plan_phase *ph = &plan->phases[p];
		char what[LST_NAME_MAX + 32];

		snprintf(what, sizeof(what), "phase %s", ph->name);
		for (size_t k = 0; k < ph->nevents; k++)
			ok &= s_check_hook(c, &ph->events[k], what);
		for (size_t k = 0; k < ph->nbefore; k++)
			ok &= s_check_hook(c, &ph->before[k], what);
		for (size_t k = 0; k < ph->nafter; k++)
			ok &= s_check_hook(c, &ph->after[k], what);
		if (ph->telemetry_every != LST_TELEMETRY_OFF)
			ok &= s_check_collectors(c, ph);
	}
	return ok ? 0 : -1;
}

/* ---- one row of events.csv */

/* "ok", "timeout", "failed", "not run" from how a hook ran. */
static const char *s_result(const struct lst_hook_result *r)
{
	if (r->status == -1)
		return "not run";
	if (strstr(r->text, "timed out"))
		return "timeout";
	return r->status ? "failed" : "ok";
}

/* The agent's instant t on our clock; 0 stays 0 (never ran). */
static int64_t s_local(const lst_coord *c, size_t i, int64_t t)
{
	return t ? lst_clock_to_local(lst_conn_clock(lst_coord__conn(c, i)), t) : 0;
}

static void s_row(lst_coord *c, const struct lst_event_row *row)
{
	lst_record *rec = lst_coord__record(c);

	if (lst_record_results(rec))
		lst_results_event(lst_record_results(rec), row);
}

/* Say on the terminal how a hook ran: one line, failures as warnings. */
static void s_say(lst_coord *c, const char *kind, const char *agent, const char *hook,
		  const struct lst_hook_result *r, int64_t late)
{
	const struct lst_coord_opts *opts = lst_coord__opts(c);
	char lateness[64] = "";

	if (late != INT64_MIN)
		snprintf(lateness, sizeof(lateness), " %.1f ms after its instant,",
			 (double)late / 1e6);
	if (r->status == 0) {
		if (!opts->quiet && !opts->progress_json) {
			lst_coord__progress_break(c);
			fprintf(opts->progress, "  %s %s on %s: started%s ran %.3f s, exit 0\n",
				kind, hook, agent, lateness, (double)(r->end - r->start) / 1e9);
		}
		return;
	}
	lst_coord__progress_break(c);
	lst_log_warn("%s %s on agent %s: %s (status %d)%s%s", kind, hook, agent, s_result(r),
		     (int)r->status, r->text[0] ? ": " : "", r->text);
}

/* ---- events: scheduled in START, reported by EVENT */

void lst_coord__events_start(lst_coord *c, size_t i, struct lst_msg_start *m)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[lst_coord__where(c)->phase];

	m->nevents = 0;
	for (size_t k = 0; k < ph->nevents && m->nevents < LST_MAX_EVENTS; k++) {
		struct lst_event_req *e = &m->events[m->nevents];

		if (ph->events[k].agent != i)
			continue;
		e->id = (uint32_t)k;
		lst_copy(e->hook, sizeof(e->hook), ph->events[k].hook);
		e->after = ph->events[k].at;
		m->nevents++;
	}
}

void lst_coord__events_begin(lst_coord *c)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[lst_coord__where(c)->phase];

	struct lst_coord__events *ev = lst_coord__events(c);

	free(ev->seen);
	ev->seen = ph->nevents ? lst_calloc(ph->nevents, sizeof(bool)) : NULL;
	ev->stop = false;
}

struct lst_coord__events *lst_coord__events_new(void)
{
	return lst_calloc(1, sizeof(struct lst_coord__events));
}

void lst_coord__events_forget(lst_coord *c)
{
	struct lst_coord__events *ev = lst_coord__events(c);

	free(ev->seen);
	ev->seen = NULL;
}

void lst_coord__events_destroy(struct lst_coord__events **p)
{
	if (!*p)
		return;
	free((*p)->seen);
	free(*p);
	*p = NULL;
}

bool lst_coord__hook_stop(const lst_coord *c)
{
	return lst_coord__events(c)->stop;
}

/* The row of event k of the current phase, as r says it ran (times on the agent's clock). */
static void s_event_row(lst_coord *c, size_t k, const struct lst_hook_result *r)
{
	const struct lst_plan_hook *h =
		&lst_coord__plan(c)->phases[lst_coord__where(c)->phase].events[k];
	size_t i = h->agent;
	struct lst_event_row row = {
		.phase = lst_coord__where(c)->phase_name,
		.point = (long)lst_coord__where(c)->point,
		.label = lst_coord__where(c)->label,
		.kind = "event",
		.agent = lst_coord__plan(c)->agents[i].name,
		.hook = h->hook,
		.point_t0 = lst_coord__where(c)->T0,
		.requested = lst_coord__where(c)->T0 + h->at,
		.start = s_local(c, i, r->start),
		.end = s_local(c, i, r->end),
		.status = r->status,
		.result = s_result(r),
		.on_error = h->on_error == LST_HOOK_ON_ERROR_CONTINUE ? "continue" : "stop",
		.text = r->text,
		.output = r->output ? r->output : "",
	};

	s_row(c, &row);
	if (row.start) { /* it ran: evidence for a drop of any path at that time */
		char what[2 * LST_NAME_MAX];

		snprintf(what, sizeof(what), "%s %s", row.agent, h->hook);
		lst_coord__failover_mark(c, what, row.start, row.end);
	}
	s_say(c, "event", row.agent, h->hook, r, row.start ? row.start - row.requested : INT64_MIN);
	if (r->status != 0 && h->on_error == LST_HOOK_ON_ERROR_STOP && !lst_coord__hook_stop(c)) {
		lst_coord__events(c)->stop = true;
		lst_coord__error(c,
				 "phase %s point %zu: event %s on agent %s at %.3f s %s%s%s; the "
				 "plan says stop (on_error)",
				 lst_coord__where(c)->phase_name, lst_coord__where(c)->point,
				 h->hook, row.agent, (double)h->at / 1e9, s_result(r),
				 r->text[0] ? ": " : "", r->text);
	}
}

void lst_coord__on_event(lst_coord *c, size_t i, const lst_msg *m)
{
	const struct lst_coord__where *at = lst_coord__where(c);
	const struct lst_msg_event *e = &m->u.event;
	const struct lst_plan_phase *ph;

	if (!lst_coord__of_point(c, i, m->seq) || e->phase != at->phase || e->point != at->point) {
		lst_log_debug(LST_DBG_PROTO, "agent %s: event for phase %u point %u: ignored",
			      lst_conn_name(lst_coord__conn(c, i)), e->phase, e->point);
		return;
	}
	ph = &lst_coord__plan(c)->phases[at->phase];
	if (e->id >= ph->nevents || ph->events[e->id].agent != i ||
	    strcmp(ph->events[e->id].hook, e->hook)) {
		lst_log_warn("agent %s: an event (id %u, hook %s) that this point did not ask "
			     "for: ignored",
			     lst_conn_name(lst_coord__conn(c, i)), e->id, e->hook);
		return;
	}
	if (lst_coord__events(c)->seen[e->id])
		return;
	lst_coord__events(c)->seen[e->id] = true;
	s_event_row(c, e->id, &e->r);
}

bool lst_coord__events_pending(const lst_coord *c, size_t i)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[lst_coord__where(c)->phase];

	const bool *seen = lst_coord__events(c)->seen;

	for (size_t k = 0; k < ph->nevents && seen; k++)
		if (ph->events[k].agent == i && !seen[k])
			return true;
	return false;
}

void lst_coord__events_end(lst_coord *c)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[lst_coord__where(c)->phase];

	struct lst_coord__events *ev = lst_coord__events(c);

	for (size_t k = 0; k < ph->nevents && ev->seen; k++) {
		struct lst_hook_result r = { .status = -1 };
		size_t i = ph->events[k].agent;

		if (ev->seen[k] || !lst_coord__agent_in_point(c, i))
			continue;
		snprintf(r.text, sizeof(r.text), "%s",
			 lst_coord__agent_point_lost(c, i)
				 ? "not reported: the agent was lost during the point"
			 : lst_coord__agent_started(c, i)
				 ? "not reported by the agent before its DONE"
				 : "not run: the point did not start on the agent");
		ev->seen[k] = true;
		s_event_row(c, k, &r);
	}
	lst_coord__events_forget(c);
}

static lst_msg *s_hook_msg(uint32_t kind, const char *name, size_t phase)
{
	lst_msg *m = lst_msg_new(LST_MSG_HOOK);

	m->u.hook.kind = kind;
	lst_copy(m->u.hook.name, sizeof(m->u.hook.name), name);
	m->u.hook.phase = (uint32_t)phase;
	return m;
}

/* How agent i's reply ran (a HOOK_DONE), or a made-up result saying why there is none. */
static void s_result_of(const lst_coord *c, size_t i, const lst_msg *reply,
			struct lst_hook_result *out)
{
	memset(out, 0, sizeof(*out));
	out->status = -1;
	if (reply && reply->type == LST_MSG_HOOK_DONE) {
		*out = reply->u.hook_done.r; /* output stays the reply's */
		return;
	}
	if (reply && reply->type == LST_MSG_ERROR)
		snprintf(out->text, sizeof(out->text), "refused: %s", reply->u.error.text);
	else if (lst_conn_lost(lst_coord__conn(c, i)))
		snprintf(out->text, sizeof(out->text), "not run: the agent is lost");
	else
		snprintf(out->text, sizeof(out->text), "no answer from the agent");
}

/* ---- before/after hooks */

int lst_coord__phase_hooks(lst_coord *c, size_t phase, bool after)
{
	const struct lst_plan_phase *ph = &lst_coord__plan(c)->phases[phase];
	const struct lst_plan_hook *hs = after ? ph->after : ph->before;
	size_t n = after ? ph->nafter : ph->nbefore;
	const char *kind = after ? "after" : "before";
	lst_msg **msgs = lst_calloc(lst_coord__n(c), sizeof(*msgs)), **replies;
	int rc = 0;

	replies = lst_calloc(lst_coord__n(c), sizeof(*replies));
	for (size_t k = 0; k < n && !rc && !lst_coord__interrupted; k++) {
		const struct lst_plan_hook *h = &hs[k];
		struct lst_hook_result r;
		struct lst_event_row row = {
			.phase = ph->name,
			.point = -1,
			.label = "",
			.kind = kind,
			.agent = lst_coord__plan(c)->agents[h->agent].name,
			.hook = h->hook,
			.on_error = h->on_error == LST_HOOK_ON_ERROR_CONTINUE ? "continue" : "stop",
		};

		msgs[h->agent] = s_hook_msg(LST_HOOK_HOOK, h->hook, phase);
		row.requested = lst_mono_ns();
		lst_coord__round(c, msgs, replies, S_HOOK_WAIT);
		s_result_of(c, h->agent, replies[h->agent], &r);
		row.start = s_local(c, h->agent, r.start);
		row.end = s_local(c, h->agent, r.end);
		row.status = r.status;
		row.result = s_result(&r);
		row.text = r.text;
		row.output = r.output ? r.output : "";
		s_row(c, &row);
		s_say(c, kind, row.agent, h->hook, &r, INT64_MIN);
		if (r.status != 0 && h->on_error == LST_HOOK_ON_ERROR_STOP) {
			lst_coord__error(c,
					 "phase %s: %s hook %s on agent %s %s%s%s; the plan says "
					 "stop (on_error)",
					 ph->name, kind, h->hook, row.agent, row.result,
					 r.text[0] ? ": " : "", r.text);
			rc = -1;
		}
		lst_msg_destroy(&replies[h->agent]);
	}
	free(msgs);
	free(replies);
	return rc || lst_coord__interrupted ? -1 : 0;
}

/* ---- telemetry */

/* The collectors agent i runs for phase ph: the plan's, or every one its config defines. */
static size_t s_collectors(const lst_coord *c, const struct lst_plan_phase *ph, size_t i,
			   const char **out)
{
	const struct lst_msg_welcome *w = lst_conn_info(lst_coord__conn(c, i));
	size_t n = 0;

	if (ph->ncollect) {
		for (size_t k = 0; k < ph->ncollect && n < LST_MAX_HOOKS; k++)
			out[n++] = ph->collect[k];
		return n;
	}
	for (uint32_t k = 0; k < w->ncollectors && k < LST_MAX_HOOKS; k++)
		out[n++] = w->collectors[k];
	return n;
}

/* KMSG op to every agent that takes part; the replies (READ) into the agents' files. */
static void s_kmsg(lst_coord *c, const struct lst_plan_phase *ph, const bool *who, uint32_t op,
		   const char *stem)
{
	const lst_plan *plan = lst_coord__plan(c);
	lst_record *rec = lst_coord__record(c);
	lst_msg **msgs = lst_calloc(lst_coord__n(c), sizeof(*msgs)), **replies;

	replies = lst_calloc(lst_coord__n(c), sizeof(*replies));
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		if (!who[i])
			continue;
		msgs[i] = lst_msg_new(LST_MSG_KMSG);
		msgs[i]->u.kmsg.op = op;
	}
	lst_coord__round(c, msgs, replies, LST_COORD__REPLY_TIMEOUT);
	for (size_t i = 0; i < lst_coord__n(c) && op == LST_KMSG_READ; i++) {
		const struct lst_msg_kmsg_reply *k;
		lst_err err;

		if (!replies[i] || replies[i]->type != LST_MSG_KMSG_REPLY) {
			if (who[i])
				lst_log_warn("phase %s: agent %s: no kernel log excerpt (%s)",
					     ph->name, plan->agents[i].name,
					     replies[i] && replies[i]->type == LST_MSG_ERROR
						     ? replies[i]->u.error.text
						     : "no answer");
			continue;
		}
		k = &replies[i]->u.kmsg_reply;
		if (lst_record_results(rec) &&
		    lst_telemetry_kmsg(lst_record_results(rec), plan->agents[i].name, stem,
				       k->text ? k->text : "", k->text_len, k->dropped, k->error,
				       &err))
			lst_log_warn("telemetry: %s", err.msg);
	}
	for (size_t i = 0; i < lst_coord__n(c); i++)
		lst_msg_destroy(&replies[i]);
	free(msgs);
	free(replies);
}

/* A collector's answer, kept until its file is written (r.output points into reply). */
struct s_got {
	lst_msg *reply;
	struct lst_hook_result r;
};

/* Every agent's collectors, all agents at once (collector k of each in round k). */
static void s_collect(lst_coord *c, const struct lst_plan_phase *ph, const bool *who, size_t phase,
		      const char *stem, const char *when)
{
	const lst_plan *plan = lst_coord__plan(c);
	lst_record *rec = lst_coord__record(c);
	const char *names[LST_MAX_HOOKS];
	size_t most = 0;
	struct s_got *got = lst_calloc(lst_coord__n(c) * LST_MAX_HOOKS, sizeof(*got));
	struct lst_telemetry_item *items = lst_calloc(LST_MAX_HOOKS, sizeof(*items));
	lst_msg **msgs = lst_calloc(lst_coord__n(c), sizeof(*msgs)), **replies;

	replies = lst_calloc(lst_coord__n(c), sizeof(*replies));
	for (size_t i = 0; i < lst_coord__n(c); i++)
		if (who[i])
			most = LST_MAX(most, s_collectors(c, ph, i, names));
	for (size_t k = 0; k < most; k++) {
		for (size_t i = 0; i < lst_coord__n(c); i++)
			if (who[i] && k < s_collectors(c, ph, i, names))
				msgs[i] = s_hook_msg(LST_HOOK_COLLECTOR, names[k], phase);
		lst_coord__round(c, msgs, replies, S_HOOK_WAIT);
		for (size_t i = 0; i < lst_coord__n(c); i++) {
			struct s_got *g = &got[i * LST_MAX_HOOKS + k];

			if (!who[i] || k >= s_collectors(c, ph, i, names))
				continue;
			g->reply = replies[i];
			replies[i] = NULL;
			s_result_of(c, i, g->reply, &g->r);
			if (g->r.status != 0)
				lst_log_warn("telemetry: collector %s on agent %s: %s%s%s",
					     names[k], plan->agents[i].name, s_result(&g->r),
					     g->r.text[0] ? ": " : "", g->r.text);
		}
	}
	for (size_t i = 0; i < lst_coord__n(c) && lst_record_results(rec); i++) {
		size_t n = who[i] ? s_collectors(c, ph, i, names) : 0;
		lst_err err;

		if (!who[i])
			continue;
		for (size_t k = 0; k < n; k++) {
			const struct lst_hook_result *r = &got[i * LST_MAX_HOOKS + k].r;

			items[k] = (struct lst_telemetry_item){
				.name = names[k],
				.status = r->status,
				.text = r->text,
				.output = r->output ? r->output : "",
				.output_len = r->output ? r->output_len : 0,
				.truncated = r->truncated,
			};
		}
		if (lst_telemetry_write(lst_record_results(rec), plan->agents[i].name, stem, when,
					items, n, &err))
			lst_log_warn("telemetry: %s", err.msg);
	}
	for (size_t x = 0; x < lst_coord__n(c) * LST_MAX_HOOKS; x++)
		lst_msg_destroy(&got[x].reply);
	free(got);
	free(items);
	free(msgs);
	free(replies);
}

void lst_coord__telemetry(lst_coord *c, size_t phase, long point, bool after)
{
	const lst_plan *plan = lst_coord__plan(c);
	lst_record *rec = lst_coord__record(c);
	const struct lst_plan_phase *ph = &plan->phases[phase];
	bool *who = lst_calloc(lst_coord__n(c), sizeof(*who)), any = false;
	char stem[LST_NAME_MAX + 32];

	if (lst_record_results(rec) && lst_results_failed(lst_record_results(rec))) {
		free(who);
		return; /* the folder cannot take it (a full disk): said once already */
	}
	if (point < 0)
		snprintf(stem, sizeof(stem), "%s", ph->name);
	else
		snprintf(stem, sizeof(stem), "%s-p%ld", ph->name, point);
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		who[i] = lst_coord__in_phase(c, ph, i) && lst_coord__agent_usable(c, i) &&
			 s_hooks_ok(c, i);
		any |= who[i];
	}
	if (any && !after)
		s_kmsg(c, ph, who, LST_KMSG_MARK, stem);
	if (any)
		s_collect(c, ph, who, phase, stem, after ? "after" : "before");
	if (any && after) {
		s_kmsg(c, ph, who, LST_KMSG_READ, stem);
		for (size_t i = 0; i < lst_coord__n(c) && lst_record_results(rec); i++) {
			lst_err err;

			if (who[i] && lst_telemetry_deltas(lst_record_results(rec), ph->name, point,
							   plan->agents[i].name, stem, &err) < 0)
				lst_log_warn("telemetry: %s", err.msg);
		}
	}
	free(who);
}
