/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity in a run: the coordinator's side of `verify`.
 *
 * Writes: a point whose job specs write with verify gets the next generation; each of its job
 * specs carries a stamp spec (target id, writer agent and path, generation). The agents report
 * their streams in PREPARED and their progress in every SAMPLE; all of it goes to the results'
 * integrity/journal.jsonl (lst_integrity.h) as it comes, and stays in memory (lst_coord__ver(c)->s) for the
 * verifying reads of later points.
 *
 * Reads: before a point whose job specs read with verify, each reading agent gets the journal
 * streams of its targets (JOURNAL pages), with their latest marks. The agents check every unit
 * and report bad ones in INTEGRITY messages, which become integrity.csv rows, with the writer
 * and time the journal says.
 *
 * The journal checked against is this run's own, or, with the plan's `journal:` (what `lockstep
 * verify DIR` writes), an earlier run's: its streams are loaded at the start, and every target
 * the plan verifies must be in it with the same size.
 */

#include <math.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_integrity.h"
#include "lst_log.h"
#include "lst_text.h"
#include "lst_util.h"

#include "lst_run_int.h"

/* Data integrity: a verified write stream the run knows (its own, or an earlier run's journal). */
struct lst_coord__jstream {
	uint64_t sid;
	size_t target;		      /* index into plan->targets */
	struct lst_journal_stream st; /* latest marks applied */
	double t0_s;		      /* its point's start, s since the run's first start */
	bool ended;
	char *agent_name, *path_name; /* an earlier run's (NULL: the plan's, by index) */
};

/* Data integrity: an agent's verified write jobs in the point (PREPARED's streams) and their
 * journal stream numbers (UINT64_MAX: not journaled). */
struct lst_coord__vagent {
	uint32_t nstreams;
	struct lst_stream_info streams[LST_MAX_STREAMS];
	uint64_t sid[LST_MAX_STREAMS];
};

/* Data integrity: the run's verification state, this file's alone (lst_coord__ver(c)). */
struct lst_coord__verify {
	bool on;	  /* the plan verifies something */
	lst_journal *j;	  /* integrity/journal.jsonl */
	uint32_t gen;	  /* the last generation given */
	uint32_t cur_gen; /* the current point's (0: it writes nothing verified) */
	bool cur_reads;	  /* the current point reads with verify */
	uint64_t next_sid;
	size_t n, cap;
	struct lst_coord__jstream *s;
	uint32_t *ids;		      /* [plan->ntargets]: the id each target's stamps carry */
	struct lst_coord__vagent *ag; /* [nag]: one per agent */
	size_t nag;
};

/* Does any phase of the plan use verify? (A path role cannot differ from its phase's: the plan
 * refuses that.) */
static bool s_plan_verifies(const lst_plan *p)
{
	for (size_t k = 0; k < p->nphases; k++)
		if (p->phases[k].w.verify)
			return true;
	return false;
}

/* Remember a stream (loaded or new); returns it. */
static struct lst_coord__jstream *s_add(lst_coord *c, uint64_t sid, size_t target,
					const struct lst_journal_stream *st, double t0_s)
{
	struct lst_coord__verify *v = lst_coord__ver(c);
	struct lst_coord__jstream *s;

	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		v->s = lst_realloc(v->s, v->cap * sizeof(*v->s));
	}
	s = &v->s[v->n++];
	memset(s, 0, sizeof(*s));
	s->sid = sid;
	s->target = target;
	s->st = *st;
	s->t0_s = t0_s;
	return s;
}

/*
 * This run's live stream sid, or NULL. Only live ones: a loaded journal's streams are ended,
 * and an earlier run's (the plan's `journal:`) number theirs from 1 too, as this run does.
 */
static struct lst_coord__jstream *s_find_live(lst_coord *c, uint64_t sid)
{
	struct lst_coord__verify *v = lst_coord__ver(c);

	for (size_t k = 0; k < v->n; k++)
		if (v->s[k].sid == sid && !v->s[k].ended)
			return &v->s[k];
	return NULL;
}

/* The streams of jr on the plan's targets, as ended ones: their writes are over. */
static void s_add_loaded(lst_coord *c, const lst_journal_read *jr)
{
	struct lst_coord__verify *v = lst_coord__ver(c);

	for (size_t k = 0; k < jr->nentries; k++) {
		const struct lst_journal_entry *e = &jr->entries[k];
		int t = lst_plan_target_index(lst_coord__plan(c), e->where.target);
		struct lst_coord__jstream *s;

		if (t < 0)
			continue; /* a target this plan does not read */
		s = s_add(c, e->sid, (size_t)t, &e->st, e->where.t0_s);
		s->ended = true;
		s->agent_name = lst_strdup(e->where.agent);
		s->path_name = lst_strdup(e->where.path);
	}
	v->gen = LST_MAX(v->gen, jr->maxgen);
}

/* An earlier run's journal (the plan's `journal:`): its streams, checked against the plan. */
static int s_load_external(lst_coord *c, const char *dir)
{
	const lst_plan *plan = lst_coord__plan(c);
	lst_journal_read jr = { 0 };
	lst_err err;
	int rc = 0;

	if (lst_journal_load(dir, &jr, &err)) {
		lst_coord__error(c, "journal %s: %s", dir, err.msg);
		return -1;
	}
	for (size_t t = 0; t < plan->ntargets && !rc; t++) {
		const struct lst_plan_target *pt = &plan->targets[t];
		const struct lst_journal_target *jt = lst_journal_find_target(&jr, pt->name);

		if (!jt) {
			lst_coord__error(
				c,
				"journal %s has no target %s: it is the journal of another "
				"run's targets; nothing was read",
				dir, pt->name);
			rc = -1;
		} else if (lst_coord__ver(c)->ids[t] = jt->id,
			   jt->size != lst_coord__target_size(c, t)) {
			lst_coord__error(
				c,
				"journal %s: target %s was %llu bytes when written, its paths "
				"are %llu bytes now: another drive? nothing was read",
				dir, pt->name, (unsigned long long)jt->size,
				(unsigned long long)lst_coord__target_size(c, t));
			rc = -1;
		}
	}
	if (!rc)
		s_add_loaded(c, &jr);
	lst_journal_read_free(&jr);
	return rc;
}

/*
 * A resumed run's own journal, as the crash left it (lst_journal_open has cut a line the crash
 * cut short): the streams written before the resume, so that its verifying reads check them as
 * `lockstep verify DIR` would. The writes of the point the crash stopped may be on the drive
 * without their last marks: the journal says how far each stream is known to have got.
 */
static int s_load_own(lst_coord *c)
{
	lst_journal_read jr = { 0 };
	lst_err err;

	if (lst_journal_load(lst_record_dir(lst_coord__record(c)), &jr, &err)) {
		lst_coord__error(c, "the run's own journal: %s", err.msg);
		return -1;
	}
	s_add_loaded(c, &jr);
	lst_journal_read_free(&jr);
	return 0;
}

int lst_coord__verify_open(lst_coord *c)
{
	const lst_plan *plan = lst_coord__plan(c);
	struct lst_coord__verify *v = lst_coord__ver(c);
	lst_err err;

	if (!s_plan_verifies(lst_coord__plan(c)))
		return 0;
	v->on = true;
	v->ids = lst_calloc(plan->ntargets, sizeof(*v->ids));
	for (size_t t = 0; t < plan->ntargets; t++) {
		char *key = lst_asprintf("%s/%s", lst_coord__run_id(c), plan->targets[t].name);

		/* this run's own: an earlier run's stamps on the drive are another target's */
		v->ids[t] = lst_verify_target_id(key);
		free(key);
	}
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		const struct lst_msg_welcome *w = lst_conn_info(lst_coord__conn(c, i));

		if (!lst_coord__has_cap(c, i, LST_CAP_VERIFY)) {
			lst_coord__error(c,
					 "agent %s cannot verify data (lockstep-agent %s does not "
					 "speak %s): upgrade it; nothing was written",
					 plan->agents[i].name, w ? w->version : "?",
					 LST_CAP_VERIFY);
			return -1;
		}
	}
	if (plan->journal) {
		char *dir = plan->journal[0] == '/'
				    ? lst_strdup(plan->journal)
				    : lst_asprintf("%s/%s", plan->dir, plan->journal);
		int rc = s_load_external(c, dir);

		free(dir);
		if (rc)
			return -1;
	}
	v->j = lst_journal_open(lst_record_results(lst_coord__record(c)), lst_coord__run_id(c),
				&err);
	if (!v->j) {
		lst_coord__error(c, "%s", err.msg);
		return -1;
	}
	/* A resumed run checks against its whole journal (and goes on with its own generations
	 * and stream numbers); a journal made just now has no streams yet. */
	if (lst_coord__journal(c) && lst_journal_next_sid(v->j) > 1 && s_load_own(c))
		return -1;
	v->gen = LST_MAX(v->gen, lst_journal_maxgen(v->j));
	v->next_sid = lst_journal_next_sid(v->j);
	for (size_t t = 0; t < plan->ntargets; t++)
		if (lst_journal_target(
			    v->j, plan->targets[t].name, v->ids[t], lst_coord__target_size(c, t),
			    plan->targets[t].identity ? plan->targets[t].identity : "", &err)) {
			lst_coord__error(c, "%s", err.msg);
			return -1;
		}
	return 0;
}

struct lst_coord__verify *lst_coord__verify_new(size_t nagents)
{
	struct lst_coord__verify *v = lst_calloc(1, sizeof(*v));

	v->ag = lst_calloc(nagents ? nagents : 1, sizeof(*v->ag));
	v->nag = nagents;
	return v;
}

void lst_coord__verify_close(struct lst_coord__verify **p)
{
	struct lst_coord__verify *v = *p;

	if (!v)
		return;
	for (size_t k = 0; k < v->n; k++) {
		free(v->s[k].agent_name);
		free(v->s[k].path_name);
	}
	free(v->s);
	free(v->ids);
	free(v->ag);
	lst_journal_close(&v->j);
	free(v);
	*p = NULL;
}

/* ---- job specs */

void lst_coord__verify_point_begin(lst_coord *c)
{
	struct lst_coord__verify *v = lst_coord__ver(c);
	v->cur_gen = 0;
	v->cur_reads = false;
	for (size_t i = 0; i < v->nag; i++)
		v->ag[i].nstreams = 0;
}

void lst_coord__verify_stamp(lst_coord *c, size_t t, size_t j, struct lst_jobspec *js)
{
	struct lst_coord__verify *v = lst_coord__ver(c);
	const struct lst_plan_target *pt = &lst_coord__plan(c)->targets[t];
	bool writes = lst_workload_writes(&js->w);

	if (!js->w.verify || js->action != LST_ACTION_IO)
		return;
	if (writes && !v->cur_gen)
		v->cur_gen = ++v->gen;
	v->cur_reads |= !writes;
	js->has_stamp = 1;
	js->stamp.target = v->ids[t];
	js->stamp.agent = (uint16_t)pt->paths[j].agent;
	js->stamp.path = (uint16_t)j;
	js->stamp.gen = writes ? v->cur_gen : 0;
}

/* ---- JOURNAL pages before a verifying read */

/* The targets agent i reads with verify in its PREPARE m (bits by target index). */
static bool s_reads_target(const lst_coord *c, const lst_msg *m, size_t t)
{
	for (uint32_t k = 0; m && k < m->u.prepare.njobs; k++) {
		const struct lst_jobspec *js = &m->u.prepare.jobs[k];

		if (js->has_stamp && !js->stamp.gen &&
		    !strcmp(js->target, lst_coord__plan(c)->targets[t].name))
			return true;
	}
	return false;
}

/* Page `from` of target t's streams into a JOURNAL; *total gets their count. */
static lst_msg *s_page(const lst_coord *c, size_t t, uint32_t from, uint32_t *total)
{
	struct lst_coord__verify *v = lst_coord__ver(c);
	lst_msg *m = lst_msg_new(LST_MSG_JOURNAL);
	struct lst_msg_journal *jm = &m->u.journal;
	uint32_t seen = 0;

	jm->target = v->ids[t];
	jm->from = from;
	for (size_t k = 0; k < v->n; k++) {
		if (v->s[k].target != t)
			continue;
		if (seen >= from && jm->nstreams < LST_JOURNAL_PAGE)
			jm->streams[jm->nstreams++] = v->s[k].st;
		seen++;
	}
	jm->total = seen;
	*total = seen;
	return m;
}

int lst_coord__verify_journal_send(lst_coord *c, lst_msg **prepares)
{
	const lst_plan *plan = lst_coord__plan(c);
	lst_msg **msgs, **replies;
	int rc = 0;

	if (!lst_coord__ver(c)->cur_reads)
		return 0;
	msgs = lst_calloc(lst_coord__n(c), sizeof(*msgs));
	replies = lst_calloc(lst_coord__n(c), sizeof(*replies));
	for (size_t t = 0; t < plan->ntargets && !rc; t++) {
		uint32_t from = 0, total = 1;

		while (from < total && !rc) {
			bool any = false;

			for (size_t i = 0; i < lst_coord__n(c); i++) {
				if (!s_reads_target(c, prepares[i], t))
					continue;
				msgs[i] = s_page(c, t, from, &total);
				any = true;
			}
			if (!any)
				break;
			lst_coord__round(c, msgs, replies, LST_COORD__REPLY_TIMEOUT);
			for (size_t i = 0; i < lst_coord__n(c); i++) {
				if (s_reads_target(c, prepares[i], t) &&
				    (!replies[i] || replies[i]->type != LST_MSG_JOURNAL_OK)) {
					lst_coord__error(
						c, "agent %s did not take the journal of %s: %s",
						plan->agents[i].name, plan->targets[t].name,
						replies[i] && replies[i]->type == LST_MSG_ERROR
							? replies[i]->u.error.text
							: "no answer");
					rc = -1;
				}
				lst_msg_destroy(&replies[i]);
			}
			from += LST_JOURNAL_PAGE;
		}
	}
	free(msgs);
	free(replies);
	return rc;
}

/* ---- streams and their progress */

void lst_coord__verify_prepared(lst_coord *c, size_t i, const struct lst_msg_prepared *pd)
{
	struct lst_coord__vagent *a = &lst_coord__ver(c)->ag[i];

	a->nstreams = LST_MIN(pd->nstreams, LST_MAX_STREAMS);
	for (uint32_t k = 0; k < a->nstreams; k++)
		a->streams[k] = pd->streams[k];
}

void lst_coord__verify_started(lst_coord *c)
{
	const struct lst_coord__where *at = lst_coord__where(c);
	const lst_plan *plan = lst_coord__plan(c);
	struct lst_coord__verify *v = lst_coord__ver(c);

	if (!v->on || !v->cur_gen)
		return;
	for (size_t i = 0; i < lst_coord__n(c); i++) {
		struct lst_coord__vagent *a = &v->ag[i];

		for (uint32_t k = 0; k < a->nstreams; k++) {
			struct lst_journal_stream st = { .s = a->streams[k].s, .gen = v->cur_gen };
			struct lst_journal_where w = {
				.phase = at->phase_name,
				.point = (long)at->point,
				.agent = plan->agents[i].name,
				.t0_s = lst_coord__t(c, at->T0),
			};
			struct lst_coord__jstream *s;
			size_t t, j;
			lst_err err;

			if (!lst_coord__paths_spec(c, i, a->streams[k].spec, &t, &j)) {
				lst_log_warn("agent %s: a stream of job spec %u, which it was not "
					     "given: not journaled",
					     plan->agents[i].name, a->streams[k].spec);
				a->sid[k] = UINT64_MAX;
				continue;
			}
			st.agent = (uint16_t)i;
			st.path = (uint16_t)j;
			w.target = plan->targets[t].name;
			w.path = plan->targets[t].paths[j].path;
			s = s_add(c, v->next_sid++, t, &st, w.t0_s);
			a->sid[k] = s->sid;
			if (lst_journal_stream(v->j, s->sid, &w, &st, &err))
				lst_log_warn("journal: %s", err.msg);
		}
	}
}

void lst_coord__verify_marks(lst_coord *c, size_t i, const struct lst_msg_sample *m)
{
	struct lst_coord__verify *v = lst_coord__ver(c);
	struct lst_coord__vagent *a = &v->ag[i];

	for (uint32_t k = 0; k < m->nmarks && v->on; k++) {
		const struct lst_stream_mark *mk = &m->marks[k];
		struct lst_coord__jstream *s;
		lst_err err;

		if (mk->stream >= a->nstreams || a->sid[mk->stream] == UINT64_MAX ||
		    !(s = s_find_live(c, a->sid[mk->stream])))
			continue;
		if (mk->low > mk->issued || mk->issued < s->st.issued)
			continue; /* not a later state of the stream: ignored */
		s->st.low = mk->low;
		s->st.issued = mk->issued;
		s->st.werr = mk->werr;
		if (lst_journal_mark(v->j, s->sid, mk->low, mk->issued, mk->werr, &err))
			lst_log_warn("journal: %s", err.msg);
	}
}

void lst_coord__verify_point_end(lst_coord *c)
{
	lst_record *rec = lst_coord__record(c);
	struct lst_coord__verify *v = lst_coord__ver(c);

	if (!v->on)
		return;
	for (size_t i = 0; i < v->nag; i++) {
		struct lst_coord__vagent *a = &v->ag[i];
		bool clean = lst_coord__agent_complete(c, i);

		for (uint32_t k = 0; k < a->nstreams; k++) {
			struct lst_coord__jstream *s =
				a->sid[k] == UINT64_MAX ? NULL : s_find_live(c, a->sid[k]);
			lst_err err;

			if (!s)
				continue;
			s->ended = true;
			s->st.complete = clean && s->st.low == s->st.issued;
			if (lst_journal_end(v->j, s->sid, s->st.low, s->st.issued, s->st.werr,
					    s->st.complete, &err))
				lst_log_warn("journal: %s", err.msg);
		}
		a->nstreams = 0;
	}
	if (v->cur_reads && lst_record_results(rec))
		lst_results_integrity_touch(lst_record_results(rec));
}

/* ---- bad units */

/* The stream of target t with generation gen whose region holds offset (the writer that
 * integrity.csv names); the first of the generation when none does. */
static const struct lst_coord__jstream *s_writer(const lst_coord *c, size_t t, uint32_t gen,
						 uint64_t offset)
{
	struct lst_coord__verify *v = lst_coord__ver(c);
	const struct lst_coord__jstream *any = NULL;

	for (size_t k = 0; k < v->n; k++) {
		const struct lst_coord__jstream *s = &v->s[k];

		if (s->target != t || s->st.gen != gen)
			continue;
		if (offset >= s->st.s.lo && offset < s->st.s.hi)
			return s;
		if (!any)
			any = s;
	}
	return any;
}

static const char *s_agent_name(const lst_coord *c, const struct lst_coord__jstream *s)
{
	const lst_plan *plan = lst_coord__plan(c);

	if (s->agent_name)
		return s->agent_name;
	return s->st.agent < plan->nagents ? plan->agents[s->st.agent].name : "";
}

static const char *s_path_name(const lst_coord *c, const struct lst_coord__jstream *s)
{
	const struct lst_plan_target *pt = &lst_coord__plan(c)->targets[s->target];

	if (s->path_name)
		return s->path_name;
	return s->st.path < pt->npaths ? pt->paths[s->st.path].path : "";
}

static const char *const s_found_names[] = { "stamp", "no stamp", "bad crc", "other lba",
					     "other target" };

void lst_coord__on_integrity(lst_coord *c, size_t i, const lst_msg *m)
{
	const struct lst_coord__where *at = lst_coord__where(c);
	const lst_plan *plan = lst_coord__plan(c);
	lst_record *rec = lst_coord__record(c);
	const struct lst_msg_integrity *in = &m->u.integrity;
	if (!lst_coord__of_point(c, i, m->seq) || in->phase != at->phase ||
	    in->point != at->point || !lst_record_results(rec))
		return;
	for (uint32_t k = 0; k < in->nbad && k < LST_BAD_PER_MSG; k++) {
		const struct lst_bad_unit *b = &in->bad[k];
		struct lst_integrity_row row = {
			.phase = at->phase_name,
			.point = (long)at->point,
			.agent = plan->agents[i].name,
			.offset = b->offset,
			.kind = b->kind < 6 ? lst_verify_kind_names[b->kind] : "?",
			.exp_gen = b->expected,
			.exp_agent = "",
			.exp_path = "",
			.exp_t_s = NAN,
			.found = b->stamp_kind < 5 ? s_found_names[b->stamp_kind] : "?",
			.found_gen = b->found.gen,
			.found_agent = "",
			.found_path = "",
			.found_lba = b->found.lba,
			.found_t_s = NAN,
		};
		const struct lst_coord__jstream *ws, *fs;
		size_t t, j;

		if (!lst_coord__paths_spec(c, i, b->spec, &t, &j))
			continue;
		row.target = plan->targets[t].name;
		row.path = plan->targets[t].paths[j].path;
		if (b->expected && (ws = s_writer(c, t, b->expected, b->offset))) {
			row.exp_agent = s_agent_name(c, ws);
			row.exp_path = s_path_name(c, ws);
			row.exp_t_s = ws->t0_s;
		}
		if (b->stamp_kind != LST_STAMP_NONE && b->found.gen &&
		    (fs = s_writer(c, t, b->found.gen, b->offset))) {
			row.found_agent = s_agent_name(c, fs);
			row.found_path = s_path_name(c, fs);
			row.found_t_s = fs->t0_s + (double)b->found.t_ns / 1e9;
		}
		lst_results_integrity(lst_record_results(rec), &row);
	}
}
