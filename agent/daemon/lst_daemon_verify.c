/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity on the daemon's side (common/lst_verify.h). The coordinator sends a
 * target's write journal in JOURNAL pages before a verifying read; the session keeps them per
 * target until it ends. A PREPARE that verifies is checked here (the coordinator's HELLO listed
 * verify.v1, stamps present, a phase that either writes or reads, a journal for every target
 * read), the journals its reads need are copied for the PREPARE worker, which builds one map
 * per job spec (4 bytes per unit, counted against mem_max) that the run's jobs borrow. Then
 * PREPARED reports the verified write jobs' streams, each SAMPLE their watermarks, and, once the
 * run is over, INTEGRITY frames carry the bad units the reads found, before DONE.
 */

#include "lst_daemon_int.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_JOURNAL_MAX 65536 /* streams the agent keeps per target */

_Static_assert(LST_JOB_BAD_MAX == LST_BAD_PER_POINT, "a job keeps what a point may report");

void lst_daemon__welcome_verify(lst_daemon *d, const struct lst_msg_hello *h,
				struct lst_msg_welcome *w)
{
	d->sess.verify_cap = false;
	for (uint32_t i = 0; i < h->ncaps && i < LST_MAX_CAPS; i++)
		if (!strcmp(h->caps[i], LST_CAP_VERIFY))
			d->sess.verify_cap = true;
	if (w->ncaps < LST_MAX_CAPS)
		lst_copy(w->caps[w->ncaps++], sizeof(w->caps[0]), LST_CAP_VERIFY);
}

/* ---- JOURNAL */

static struct lst_daemon__journal *s_journal_find(const struct lst_daemon__session *s,
						  uint32_t target)
{
	for (size_t i = 0; i < s->njournals; i++)
		if (s->journals[i].target == target)
			return &s->journals[i];
	return NULL;
}

static struct lst_daemon__journal *s_journal_add(struct lst_daemon__session *s, uint32_t target)
{
	struct lst_daemon__journal *j;

	s->journals = lst_realloc(s->journals, (s->njournals + 1) * sizeof(*s->journals));
	j = &s->journals[s->njournals++];
	memset(j, 0, sizeof(*j));
	j->target = target;
	return j;
}

void lst_daemon__journal_free(struct lst_daemon__session *s)
{
	for (size_t i = 0; i < s->njournals; i++)
		free(s->journals[i].st);
	free(s->journals);
	s->journals = NULL;
	s->njournals = 0;
}

/* Append the page's streams to j (room already checked). */
static void s_journal_append(struct lst_daemon__journal *j, const struct lst_msg_journal *jm)
{
	if (j->n + jm->nstreams > j->cap) {
		j->cap = LST_MAX(j->n + jm->nstreams,
				 LST_MIN(2 * j->cap + 64, (size_t)S_JOURNAL_MAX));
		j->st = lst_realloc(j->st, j->cap * sizeof(*j->st));
	}
	memcpy(j->st + j->n, jm->streams, jm->nstreams * sizeof(*jm->streams));
	j->n += jm->nstreams;
}

/* Is page jm acceptable for j (the target's journal, or NULL)? If not, its ERROR is sent. */
static bool s_journal_page_ok(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
			      const struct lst_daemon__journal *j)
{
	const struct lst_msg_journal *jm = &m->u.journal;

	if (jm->nstreams > LST_JOURNAL_PAGE) { /* the codec bounds it; never trust a count */
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE,
				  "journal: %u streams in one page; at most %d", jm->nstreams,
				  LST_JOURNAL_PAGE);
		return false;
	}
	if (jm->from != 0 && (!j || jm->from != j->n)) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_STATE,
				  "journal: a page of target id %u from stream %u, but the agent "
				  "holds %zu: pages come in order, from 0",
				  jm->target, jm->from, j ? j->n : (size_t)0);
		return false;
	}
	if ((uint64_t)jm->from + jm->nstreams > S_JOURNAL_MAX || jm->total > S_JOURNAL_MAX) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_REFUSED,
				  "journal: target id %u has %u streams; an agent keeps at most %d "
				  "per target",
				  jm->target, LST_MAX(jm->total, jm->from + jm->nstreams),
				  S_JOURNAL_MAX);
		return false;
	}
	return true;
}

void lst_daemon__on_journal(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	const struct lst_msg_journal *jm = &m->u.journal;
	struct lst_daemon__journal *j = s_journal_find(&d->sess, jm->target);
	lst_msg *r;

	if (!s_journal_page_ok(d, rid, m, j))
		return;
	if (!j)
		j = s_journal_add(&d->sess, jm->target);
	if (jm->from == 0)
		j->n = 0; /* the target afresh */
	j->total = jm->total;
	s_journal_append(j, jm);
	lst_log_debug(LST_DBG_PROTO, "journal of target id %u: %zu of %u streams", j->target, j->n,
		      j->total);
	r = lst_daemon__out(d, LST_MSG_JOURNAL_OK);
	r->u.journal_ok.target = jm->target;
	r->u.journal_ok.have = (uint32_t)j->n;
	lst_daemon__reply(d, rid, m->id, m->type, r);
}

/* ---- PREPARE */

static bool s_verify_read(const struct lst_jobspec *j)
{
	return j->action == LST_ACTION_IO && j->w.verify && !lst_workload_writes(&j->w);
}

static bool s_verify_write(const struct lst_jobspec *j)
{
	return j->action == LST_ACTION_IO && j->w.verify && lst_workload_writes(&j->w);
}

/* One job spec's verify settings. */
static int s_check_spec(const lst_daemon *d, const struct lst_jobspec *j, uint32_t i, lst_err *err)
{
	int pct = lst_workload_read_pct(&j->w);

	if (j->has_stamp && !d->sess.verify_cap)
		return lst_err_set(err, -EINVAL,
				   "prepare: job spec %u (%s) has a stamp, but this coordinator's "
				   "HELLO did not list %s",
				   i, j->target, LST_CAP_VERIFY);
	if (!j->w.verify || j->action != LST_ACTION_IO)
		return 0;
	if (!j->has_stamp)
		return lst_err_set(err, -EINVAL,
				   "prepare: job spec %u (%s) has verify but no stamp (who writes, "
				   "which generation)",
				   i, j->target);
	if (pct > 0 && pct < 100)
		return lst_err_set(
			err, -EINVAL,
			"prepare: job spec %u (%s): verify with rwmixread %d mixes reads "
			"and writes; a phase either writes or reads under verify",
			i, j->target, pct);
	if (s_verify_read(j) && !s_journal_find(&d->sess, j->stamp.target))
		return lst_err_set(
			err, -EINVAL,
			"verify: no journal for target %s (id %u): the coordinator sends "
			"it before a verifying read",
			j->target, j->stamp.target);
	return 0;
}

int lst_daemon__verify_check(const lst_daemon *d, const struct lst_msg_prepare *p, lst_err *err)
{
	uint64_t streams = 0;
	int rc;

	for (uint32_t i = 0; i < p->njobs; i++) {
		if ((rc = s_check_spec(d, &p->jobs[i], i, err)))
			return rc;
		if (s_verify_write(&p->jobs[i]))
			streams += (uint64_t)p->jobs[i].w.jobs;
	}
	if (streams > LST_MAX_STREAMS)
		return lst_err_set(err, -EINVAL,
				   "prepare: %llu verified write jobs on this agent in one point; "
				   "PREPARED reports at most %d streams",
				   (unsigned long long)streams, LST_MAX_STREAMS);
	return 0;
}

/* The units a job spec's jobs address: [offset, offset + size), or to the path's end. */
static void s_region(const struct lst_jobspec *j, uint64_t size, uint64_t *first, uint64_t *n)
{
	uint64_t lo = (uint64_t)j->w.offset;
	uint64_t region = j->w.size ? (uint64_t)j->w.size : (size > lo ? size - lo : 0);

	*first = lo / LST_VERIFY_UNIT;
	*n = region / LST_VERIFY_UNIT;
}

/* Every stream of jr lies inside the target, of size bytes at path: a stream past its end
 * comes from a damaged journal or another target, and would silently change the counts. */
static int s_journal_fits(const struct lst_daemon__journal *jr, const struct lst_jobspec *j,
			  uint64_t size, lst_err *err)
{
	for (size_t k = 0; k < jr->n; k++) {
		const struct lst_journal_stream *js = &jr->st[k];

		if (js->s.hi <= size)
			continue;
		return lst_err_set(err, -EINVAL,
				   "verify: journal stream %zu of target %s (agent %u path %u job "
				   "%u, generation %u) covers [%llu, %llu), past the end of %s "
				   "(%llu bytes): the journal is damaged or not this target's",
				   k, j->target, js->agent, js->path, js->s.job, js->gen,
				   (unsigned long long)js->s.lo, (unsigned long long)js->s.hi,
				   j->path, (unsigned long long)size);
	}
	return 0;
}

int lst_daemon__vmaps_new(const lst_daemon *d, const struct lst_msg_prepare *p,
			  const uint64_t *size, uint64_t need, struct lst_daemon__vmaps **out,
			  lst_err *err)
{
	struct lst_daemon__vmaps *vm = NULL;
	uint64_t maps = 0;
	char a[32], b[32], c[32];

	*out = NULL;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];
		const struct lst_daemon__journal *jr;

		if (!s_verify_read(j))
			continue;
		if (!vm)
			vm = lst_calloc(1, sizeof(*vm));
		jr = s_journal_find(&d->sess, j->stamp.target); /* checked: present */
		if (s_journal_fits(jr, j, size[i], err)) {
			lst_daemon__vmaps_free(&vm);
			return err->code;
		}
		vm->spec[i].on = true;
		s_region(j, size[i], &vm->spec[i].first_lba, &vm->spec[i].nunits);
		maps += lst_verify_map_bytes(vm->spec[i].nunits) + jr->n * sizeof(*jr->st);
		vm->spec[i].nst = jr->n;
		vm->spec[i].st = lst_calloc(jr->n ? jr->n : 1, sizeof(*jr->st));
		memcpy(vm->spec[i].st, jr->st, jr->n * sizeof(*jr->st));
	}
	if (vm && need + maps > d->mem_max) {
		lst_daemon__vmaps_free(&vm);
		return lst_err_set(
			err, -ENOMEM,
			"prepare: point %u/%u (%s) needs %s of memory with its verify "
			"maps (%s of them: 4 bytes per 4 KiB unit read, and the journals); "
			"this agent's memory cap is %s (mem_max): read a smaller region "
			"per agent, or raise mem_max",
			p->phase, p->point, p->name, lst_fmt_size(need + maps, a, sizeof(a)),
			lst_fmt_size(maps, b, sizeof(b)), lst_fmt_size(d->mem_max, c, sizeof(c)));
	}
	*out = vm;
	return 0;
}

int lst_daemon__vmaps_build(struct lst_daemon__vmaps *vm, struct lst_run_path *rp, size_t n,
			    const _Atomic int *cancel, lst_err *err)
{
	for (size_t i = 0; vm && i < n; i++) {
		int rc;

		if (!vm->spec[i].on)
			continue;
		if (atomic_load_explicit(cancel, memory_order_relaxed))
			return lst_err_set(err, -ECANCELED, "cancelled while building verify maps");
		rc = lst_verify_map_build(&vm->spec[i].map, vm->spec[i].first_lba,
					  vm->spec[i].nunits, vm->spec[i].st, vm->spec[i].nst,
					  cancel, err);
		if (rc) {
			lst_err_prefix(err, "%s: verify map: ", rp[i].name);
			return rc;
		}
		vm->spec[i].built = true;
		rp[i].map = &vm->spec[i].map;
	}
	return 0;
}

void lst_daemon__vmaps_free(struct lst_daemon__vmaps **p)
{
	struct lst_daemon__vmaps *vm = *p;

	if (!vm)
		return;
	for (size_t i = 0; i < LST_MAX_JOBSPECS; i++) {
		if (vm->spec[i].built)
			lst_verify_map_free(&vm->spec[i].map);
		free(vm->spec[i].st);
	}
	free(vm);
	*p = NULL;
}

/* ---- PREPARED, SAMPLE, INTEGRITY */

void lst_daemon__prepared_streams(const lst_run *run, struct lst_msg_prepared *r)
{
	r->nstreams = 0;
	for (size_t i = 0; run && i < lst_run_njobs(run) && r->nstreams < LST_MAX_STREAMS; i++) {
		if (!lst_run_job_verify_write(run, i))
			continue;
		r->streams[r->nstreams++] = (struct lst_stream_info){
			.spec = lst_run_job_path(run, i),
			.s = *lst_run_stream(run, i),
		};
	}
}

void lst_daemon__sample_marks(const lst_run *run, struct lst_msg_sample *ms)
{
	ms->nmarks = 0;
	for (size_t i = 0; i < lst_run_njobs(run) && ms->nmarks < LST_MAX_STREAMS; i++) {
		const struct lst_job_mark *mk;

		if (!lst_run_job_verify_write(run, i))
			continue;
		mk = lst_run_mark(run, i);
		ms->marks[ms->nmarks] = (struct lst_stream_mark){
			.stream = ms->nmarks,
			.low = mk->low,
			.issued = mk->issued,
			.werr = mk->werr,
		};
		ms->nmarks++;
	}
}

/* Send the INTEGRITY being filled in m (if it holds anything); counts it in *frames. */
static void s_integrity_flush(lst_daemon *d, lst_msg *m, uint32_t *frames)
{
	if (!m->u.integrity.nbad)
		return;
	m->u.integrity.phase = d->pt->phase;
	m->u.integrity.point = d->pt->point;
	if (lst_daemon__emit(d, m) == 0)
		(*frames)++;
	m->u.integrity.nbad = 0;
}

uint32_t lst_daemon__integrity_send(lst_daemon *d, uint64_t *unreported)
{
	const lst_run *run = d->pt->run;
	uint64_t reported = 0, total;
	uint32_t frames = 0;
	lst_msg *m;

	*unreported = 0;
	if (!run)
		return 0;
	m = lst_daemon__out(d, LST_MSG_INTEGRITY);
	for (size_t i = 0; i < lst_run_njobs(run); i++) {
		size_t n;
		const struct lst_job_bad *b = lst_run_bad(run, i, &n, &total);

		for (size_t k = 0; k < n && reported < LST_BAD_PER_POINT; k++, reported++) {
			struct lst_msg_integrity *in = &m->u.integrity;

			in->bad[in->nbad++] = (struct lst_bad_unit){
				.spec = lst_run_job_path(run, i),
				.offset = b[k].offset,
				.kind = b[k].kind,
				.expected = b[k].expected,
				.stamp_kind = b[k].stamp_kind,
				.found = b[k].found,
			};
			if (in->nbad == LST_BAD_PER_MSG)
				s_integrity_flush(d, m, &frames);
		}
		*unreported += total;
	}
	s_integrity_flush(d, m, &frames);
	*unreported -= reported;
	if (reported)
		lst_log_warn("point %u/%u (%s): %llu bad units reported in %u INTEGRITY frames%s",
			     d->pt->phase, d->pt->point, d->pt->name, (unsigned long long)reported,
			     frames, *unreported ? ", more counted only" : "");
	return frames;
}
