/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PREPARE: a point's paths are opened through the disk-safety checks (agent/dev), its memory and
 * thread count checked against the agent's caps before anything is allocated, and its run built
 * by a PREPARE worker thread (buffers of gigabytes take seconds to fill) while the reactor goes on
 * serving; a purge point gets its regions checked instead. PREPARED or ERROR answers it.
 */

#include "lst_daemon_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_config.h"
#include "lst_job.h"
#include "lst_log.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_MAX_THREADS 1024 /* job threads in one point, over all job specs */
/* Per-job memory besides its buffers: the job struct (its sample ring holds histograms), a
 * reader, the touched part of its thread's stack and engine state. An estimate, on the high
 * side. */
#define S_JOB_OVERHEAD (sizeof(struct lst_job) + ((size_t)256 << 10))
/* Per I/O slot besides its buffer: the slot, its three list entries, io_uring SQE and CQEs. */
#define S_SLOT_OVERHEAD (sizeof(struct lst_io) + 3 * sizeof(void *) + 128)

static int s_on_prep_event(zloop_t *loop, zmq_pollitem_t *item, void *arg);
static void s_on_loaded(lst_daemon *d, struct lst_daemon__point *pt);

void lst_daemon__prepare_cancel(lst_daemon *d, const char *why)
{
	struct lst_daemon__point *pt = d->pt;
	lst_msg *m = lst_daemon__out(d, LST_MSG_ERROR);

	lst_log_info("cancelling the PREPARE of point %u/%u (%s) still being executed: %s",
		     pt->phase, pt->point, pt->name, why);
	m->u.error.code = LST_PERR_STATE;
	snprintf(m->u.error.text, sizeof(m->u.error.text),
		 "prepare: point %u/%u (%s) was cancelled before it was ready: %s", pt->phase,
		 pt->point, pt->name, why);
	lst_daemon__reply_ex(d, &pt->peer, pt->prepare_id, LST_MSG_PREPARE, m,
			     d->sess.known && pt->gen == d->sess.gen);
	lst_daemon__point_destroy(d);
}

/* Which errors from lst_dev are disk-safety refusals (the rest are I/O failures)? */
static int s_dev_perr(const lst_err *err)
{
	switch (err->code) {
	case -EPERM:
	case -EACCES:
	case -EBUSY:
	case -ENXIO:
	case -ESTALE:
	case -ELOOP:
		return LST_PERR_REFUSED;
	default:
		return strstr(err->msg, ": refused (") ? LST_PERR_REFUSED : LST_PERR_IO;
	}
}

static struct lst_daemon__path *s_path_find(struct lst_daemon__point *pt, const char *path)
{
	for (size_t i = 0; i < pt->npaths; i++)
		if (!strcmp(pt->paths[i].path, path))
			return &pt->paths[i];
	return NULL;
}

/*
 * IDENTIFY at the start of a run: the disk-safety rules for everything the run will do to each
 * path (the job spec's access bits), without opening anything for writing, so that a phase the
 * agent would refuse stops the run before an earlier phase writes. *perr as for s_open_paths.
 */
static int s_check_access(lst_daemon *d, const struct lst_msg_prepare *p, int *perr, lst_err *err)
{
	static const struct {
		uint32_t bit;
		enum lst_dev_access access;
		const char *what;
	} need[] = {
		{ LST_ACCESS_WRITE, LST_DEV_WRITE, "a phase of this run writes it" },
		{ LST_ACCESS_PURGE, LST_DEV_PURGE, "a phase of this run purges it" },
	};

	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];

		for (size_t k = 0; k < LST_ARRAY_SIZE(need); k++) {
			size_t n;

			if (!(j->access & need[k].bit))
				continue;
			if (!lst_dev_check(d->policy, j->path, need[k].access, j->identity, NULL,
					   err))
				continue;
			*perr = s_dev_perr(err);
			n = strlen(err->msg);
			snprintf(err->msg + n, sizeof(err->msg) - n,
				 " [checked before the run starts: %s; nothing was written]",
				 need[k].what);
			return err->code;
		}
	}
	return 0;
}

/*
 * Gather the PREPARE's distinct paths into pt with what each needs (write if any job on it
 * writes, purge for a purge). Returns 0, or -EINVAL (*perr IO) when jobs on one path disagree
 * on direct.
 */
static int s_gather_paths(struct lst_daemon__point *pt, const struct lst_msg_prepare *p, int *perr,
			  lst_err *err)
{
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];
		enum lst_dev_access acc = LST_DEV_READ;
		bool direct = false;
		struct lst_daemon__path *sp;

		const char *replay = NULL;

		if (j->action == LST_ACTION_IO) {
			acc = lst_workload_writes(&j->w) ? LST_DEV_WRITE : LST_DEV_READ;
			direct = j->w.direct != 0;
			/* a replay writes what its trace writes */
			if (pt->tr && pt->tr->spec[i].replay) {
				acc = pt->tr->spec[i].writes ? LST_DEV_WRITE : LST_DEV_READ;
				replay = pt->tr->spec[i].writes ? pt->tr->spec[i].file : NULL;
			}
		} else if (j->action == LST_ACTION_DISCARD || j->action == LST_ACTION_SECDISCARD) {
			acc = LST_DEV_PURGE;
		}
		sp = s_path_find(pt, j->path);
		if (sp) {
			if (sp->direct != direct && j->action == LST_ACTION_IO) {
				*perr = LST_PERR_IO;
				return lst_err_set(
					err, -EINVAL,
					"%s: jobs %s on this path disagree on direct; use "
					"one setting per path",
					j->path, j->target);
			}
			if (acc > sp->access) {
				sp->access = acc;
				sp->replay = replay;
			}
			if (!sp->identity[0])
				sp->identity = j->identity;
			continue;
		}
		sp = &pt->paths[pt->npaths++];
		lst_copy(sp->path, sizeof(sp->path), j->path);
		sp->fd = -1;
		sp->access = acc;
		sp->replay = replay;
		sp->direct = direct;
		sp->identity = j->identity;
	}
	return 0;
}

/* Open every path of pt through the disk-safety checks; on failure *perr says refused or I/O. */
static int s_open_each(lst_daemon *d, struct lst_daemon__point *pt, int *perr, lst_err *err)
{
	for (size_t i = 0; i < pt->npaths; i++) {
		struct lst_daemon__path *sp = &pt->paths[i];

		sp->fd = lst_dev_open(d->policy, sp->path, sp->access, sp->direct, sp->identity,
				      &sp->id, err);
		if (sp->fd < 0) {
			*perr = s_dev_perr(err);
			if (sp->replay) /* say why it is a write */
				lst_err_prefix(err, "read_iolog %s writes or trims: ", sp->replay);
			return err->code;
		}
		lst_log_debug(LST_DBG_DEV, "opened %s (%s) for %s: %s %s, %llu bytes", sp->path,
			      sp->id.real_path, lst_dev_access_name(sp->access), sp->id.kind,
			      sp->id.wwn[0] ? sp->id.wwn : sp->id.backing_file,
			      (unsigned long long)sp->id.size);
	}
	return 0;
}

/* A second job spec naming another identity for a shared path is checked too. */
static int s_check_identities(struct lst_daemon__point *pt, const struct lst_msg_prepare *p,
			      int *perr, lst_err *err)
{
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];
		struct lst_daemon__path *sp = s_path_find(pt, j->path);

		if (j->identity[0] && sp->identity != j->identity &&
		    !lst_dev_identity_matches(&sp->id, j->identity)) {
			*perr = LST_PERR_REFUSED;
			return lst_err_set(
				err, -ENXIO,
				"%s (-> %s): refused (identity): expected '%s' but found "
				"wwn '%s' serial '%s'; fix the plan's identity or the path",
				j->path, sp->id.real_path, j->identity, sp->id.wwn, sp->id.serial);
		}
	}
	return 0;
}

/*
 * Gather the PREPARE's distinct paths with what each needs, then open them all through the
 * disk-safety checks. On failure err says which path and rule, *perr the protocol error code;
 * paths already open stay in pt (the caller destroys pt).
 */
static int s_open_paths(lst_daemon *d, struct lst_daemon__point *pt,
			const struct lst_msg_prepare *p, int *perr, lst_err *err)
{
	int rc;

	if (p->jobs[0].action == LST_ACTION_IDENTIFY && (rc = s_check_access(d, p, perr, err)))
		return rc;
	if ((rc = s_gather_paths(pt, p, perr, err)) || (rc = s_open_each(d, pt, perr, err)))
		return rc;
	return s_check_identities(pt, p, perr, err);
}

static void s_prepared(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *cmd,
		       struct lst_daemon__point *pt, uint32_t engine, const char *warning)
{
	const struct lst_msg_prepare *p = &cmd->u.prepare;
	lst_msg *m = lst_daemon__out(d, LST_MSG_PREPARED);
	struct lst_msg_prepared *r = &m->u.prepared;

	r->phase = p->phase;
	r->point = p->point;
	r->npaths = p->njobs;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_daemon__path *sp = s_path_find(pt, p->jobs[i].path);

		r->paths[i] = sp->id;
		lst_copy(r->paths[i].target, sizeof(r->paths[i].target), p->jobs[i].target);
		lst_copy(r->paths[i].path, sizeof(r->paths[i].path), p->jobs[i].path);
	}
	r->engine = engine;
	lst_copy(r->warning, sizeof(r->warning), warning ? warning : "");
	lst_daemon__prepared_streams(pt->run, r);
	lst_daemon__reply(d, rid, cmd->id, cmd->type, m);
}

/* What a PREPARE's job specs will allocate, in bytes (buffers and all), and the buffers alone. */
static uint64_t s_point_mem(const struct lst_msg_prepare *p, const struct lst_daemon__traces *tr,
			    uint64_t *buffers, uint64_t *jobs)
{
	uint64_t total = lst_daemon__traces_mem(tr, p) + lst_daemon__traces_rec_mem(tr, p);

	*buffers = *jobs = 0;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_workload *w = &p->jobs[i].w;
		uint64_t n = (uint64_t)w->jobs, depth = (uint64_t)w->iodepth;
		uint64_t bs = (uint64_t)lst_workload_bs_max(w); /* what each slot holds */

		*jobs += n;
		*buffers += n * depth * bs;
		total += n * (depth * (bs + S_SLOT_OVERHEAD) + S_JOB_OVERHEAD);
	}
	return total;
}

/*
 * What the job specs ask of this host, checked before anything is allocated: a PREPARE from the
 * wire must not make the agent abort on out-of-memory (the allocators abort), push the host
 * under test into the OOM killer, or spawn thousands of threads. Values are bounded by the
 * codec (64 specs, jobs, iodepth and bs within their option ranges): no product overflows.
 */
static int s_check_resources(const lst_daemon *d, const struct lst_msg_prepare *p,
			     struct lst_daemon__traces *tr, lst_err *err)
{
	uint64_t jobs, buffers, need = s_point_mem(p, NULL, &buffers, &jobs);
	char a[32], b[32], c[32];
	int rc;

	/* a replay's trace and slots, and recordings bounded to what mem_max leaves */
	if ((rc = lst_daemon__traces_fit(tr, p, need + lst_daemon__traces_mem(tr, p), d->mem_max,
					 err)))
		return rc;
	need = s_point_mem(p, tr, &buffers, &jobs);

	if (jobs > S_MAX_THREADS)
		return lst_err_set(
			err, -EINVAL,
			"prepare: %llu job threads in one point; this agent runs at most %d",
			(unsigned long long)jobs, S_MAX_THREADS);
	if (need > d->mem_max)
		return lst_err_set(
			err, -ENOMEM,
			"prepare: point %u/%u (%s) needs %s of memory (%s of I/O buffers: jobs x "
			"iodepth x bs over %llu job(s), plus per-job state); this agent's memory cap "
			"is %s (mem_max%s); lower jobs, iodepth or bs, or raise mem_max in the "
			"agent's config (or --mem-max)",
			p->phase, p->point, p->name, lst_fmt_size(need, a, sizeof(a)),
			lst_fmt_size(buffers, b, sizeof(b)), (unsigned long long)jobs,
			lst_fmt_size(d->mem_max, c, sizeof(c)),
			d->mem_max_default ? ", by default " LST_DAEMON__STR(
						     LST_CONFIG_MEM_MAX_PERCENT) "% of RAM"
					   : "");
	return 0;
}

/* The PREPARE's id is pending in the reply cache (once): a retry is not executed again, its
 * reply follows. */
static void s_mark_pending(lst_daemon *d, const struct lst_daemon__point *pt, const lst_msg *cmd)
{
	const struct lst_daemon__cached *c = lst_daemon__cache_find(&d->sess, cmd->id);

	if (lst_daemon__is_peer(d, &pt->peer) && !(c && c->pending))
		lst_daemon__cache_put(&d->sess, cmd->id, true, NULL);
}

/* The trace loader: read the point's traces, then tell the reactor. */
static void *s_load_main(void *arg)
{
	struct lst_daemon__prep *pg = arg;

	pg->rc = lst_daemon__traces_new(pg->trace_dir, pg->agent, pg->mem_max, &pg->cmd->u.prepare,
					&pg->tr, &pg->err);
	atomic_store_explicit(&pg->finished, 1, memory_order_release);
	eventfd_write(pg->efd, 1);
	lst_daemon__prep_put(pg);
	return NULL;
}

/* The PREPARE worker: build the run, then tell the reactor. */
static void *s_prep_main(void *arg)
{
	struct lst_daemon__prep *pg = arg;

	pg->rc = lst_daemon__vmaps_build(pg->vm, pg->rp, pg->n, &pg->cancel, &pg->err);
	if (!pg->rc)
		pg->run = lst_run_new_cancellable(pg->rp, pg->n, &pg->cancel, &pg->err);
	if (!pg->rc)
		pg->rc = pg->run ? 0 : pg->err.code ? pg->err.code : -EINVAL;
	atomic_store_explicit(&pg->finished, 1, memory_order_release);
	eventfd_write(pg->efd, 1);
	lst_daemon__prep_put(pg);
	return NULL;
}

/* A worker's shared state for PREPARE cmd: its eventfd and a copy of cmd. NULL with err when
 * there is no eventfd. */
static struct lst_daemon__prep *s_prep_new(const lst_msg *cmd, lst_err *err)
{
	struct lst_daemon__prep *pg = lst_calloc(1, sizeof(*pg));

	pg->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pg->efd < 0) {
		lst_err_sys(err, -errno, "eventfd");
		free(pg);
		return NULL;
	}
	pg->cmd = lst_msg_new(LST_MSG_PREPARE);
	memcpy(pg->cmd, cmd, sizeof(*cmd));
	atomic_init(&pg->refs, 2);
	return pg;
}

/* Watch worker pg (its thread running) of pt's PREPARE (cmd) from the reactor: pt is
 * PREPARING and the command's id pending in the reply cache. Returns 0. */
static int s_prep_watch(lst_daemon *d, struct lst_daemon__point *pt, const lst_msg *cmd,
			struct lst_daemon__prep *pg)
{
	pthread_detach(pg->thread);
	pg->item = (zmq_pollitem_t){ .fd = pg->efd, .events = ZMQ_POLLIN };
	zloop_poller(d->loop, &pg->item, s_on_prep_event, d);
	pg->polling = true;
	pt->prep = pg;
	pt->state = LST_DAEMON__PREPARING;
	pt->prepare_id = cmd->id;
	s_mark_pending(d, pt, cmd);
	return 0;
}

/*
 * Hand the run's construction (the buffers' allocation and fill) to a PREPARE worker, so the
 * reactor goes on answering PING, SYNC and the rest meanwhile.
 */
static int s_prepare_io(lst_daemon *d, struct lst_daemon__point *pt, const lst_msg *cmd,
			lst_err *err)
{
	const struct lst_msg_prepare *p = &cmd->u.prepare;
	struct lst_daemon__prep *pg;
	struct lst_daemon__vmaps *vm;
	uint64_t size[LST_MAX_JOBSPECS], jobs, buffers;
	int rc;

	for (uint32_t i = 0; i < p->njobs; i++)
		size[i] = s_path_find(pt, p->jobs[i].path)->id.size;
	if ((rc = lst_daemon__vmaps_new(d, p, size, s_point_mem(p, pt->tr, &buffers, &jobs), &vm,
					err)))
		return rc;
	if (!(pg = s_prep_new(cmd, err))) {
		lst_daemon__vmaps_free(&vm);
		return err->code;
	}
	pg->vm = vm;
	pg->n = p->njobs;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_daemon__path *sp = s_path_find(pt, p->jobs[i].path);

		pg->rp[i].fd = sp->fd;
		pg->rp[i].size = sp->id.size;
		pg->rp[i].w = p->jobs[i].w;
		pg->rp[i].name = pg->cmd->u.prepare.jobs[i].path;
		if (pt->tr) {
			pg->rp[i].replay = pt->tr->spec[i].replay ? &pt->tr->spec[i].t : NULL;
			pg->rp[i].rec_max = pt->tr->spec[i].rec_max;
		}
		pg->rp[i].stamp = (struct lst_stamp){
			.target = p->jobs[i].stamp.target,
			.agent = p->jobs[i].stamp.agent,
			.path = p->jobs[i].stamp.path,
			.gen = p->jobs[i].stamp.gen,
		};
	}
	pg->tr = pt->tr; /* the worker's run borrows them: they go with it */
	pt->tr = NULL;
	if ((rc = pthread_create(&pg->thread, NULL, s_prep_main, pg))) {
		pt->tr = pg->tr; /* the point keeps its traces; the rest goes */
		pg->tr = NULL;
		atomic_store(&pg->refs, 1);
		lst_daemon__prep_put(pg);
		return lst_err_sys(err, -rc, "pthread_create for the PREPARE worker");
	}
	return s_prep_watch(d, pt, cmd, pg);
}

/*
 * Hand the reading of a replaying point's traces to a trace loader: a trace may be 1.5 GiB,
 * and the reactor must go on answering meanwhile. Its end (s_on_prep_event) goes on with the
 * PREPARE (s_on_loaded).
 */
static int s_prepare_load(lst_daemon *d, struct lst_daemon__point *pt, const lst_msg *cmd,
			  lst_err *err)
{
	struct lst_daemon__prep *pg = s_prep_new(cmd, err);
	int rc;

	if (!pg)
		return err->code;
	pg->loader = true;
	pg->trace_dir = lst_strdup(d->trace_dir);
	lst_copy(pg->agent, sizeof(pg->agent), d->name);
	pg->mem_max = d->mem_max;
	if ((rc = pthread_create(&pg->thread, NULL, s_load_main, pg))) {
		atomic_store(&pg->refs, 1);
		lst_daemon__prep_put(pg);
		return lst_err_sys(err, -rc, "pthread_create for the trace loader");
	}
	return s_prep_watch(d, pt, cmd, pg);
}

static int s_prepare_purge(struct lst_daemon__point *pt, const struct lst_msg_prepare *p, int *perr,
			   lst_err *err)
{
	int rc;

	pt->purge = lst_purge_new();
	*perr = LST_PERR_IO;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct lst_jobspec *j = &p->jobs[i];
		const struct lst_daemon__path *sp = s_path_find(pt, j->path);

		rc = lst_purge_add(pt->purge, j->path, sp->fd, &sp->id, (uint64_t)j->w.offset,
				   (uint64_t)j->w.size, j->action == LST_ACTION_SECDISCARD, err);
		if (rc)
			return rc;
	}
	return lst_purge_arm(pt->purge, err);
}

/* The point is ready: say so, and answer its PREPARE (cmd) with PREPARED. */
static void s_point_ready(lst_daemon *d, struct lst_daemon__point *pt, const lst_msg *cmd)
{
	const struct lst_msg_prepare *p = &cmd->u.prepare;

	pt->state = LST_DAEMON__PREPARED;
	if (pt->run && lst_run_warning(pt->run)[0])
		lst_log_warn("point %u/%u (%s): %s", p->phase, p->point, p->name,
			     lst_run_warning(pt->run));
	lst_log_info("prepared point %u/%u (%s): %u job spec(s) on %zu path(s), %s", p->phase,
		     p->point, p->name, p->njobs, pt->npaths,
		     pt->run ? lst_engine_names[lst_run_engine(pt->run)]
			     : (pt->action == LST_ACTION_DISCARD ? "discard" : "secdiscard"));
	s_prepared(d, &pt->peer, cmd, pt,
		   pt->run ? (uint32_t)lst_run_engine(pt->run) : (uint32_t)p->jobs[0].w.engine,
		   pt->run ? lst_run_warning(pt->run) : "");
}

/* The PREPARE worker finished: take its run and answer PREPARED, or ERROR. */
static int s_on_prep_event(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__point *pt = d->pt;
	struct lst_daemon__prep *pg;
	struct lst_daemon__rid peer;
	lst_msg *cmd;
	uint64_t junk;
	lst_err err;

	(void)loop;
	if (!pt || !pt->prep || item->fd != pt->prep->efd)
		return lst_daemon__ret(d); /* a stale poll entry of a PREPARE just cancelled */
	pg = pt->prep;
	while (read(item->fd, &junk, sizeof(junk)) > 0)
		;
	if (!atomic_load_explicit(&pg->finished, memory_order_acquire))
		return lst_daemon__ret(d);
	if (pg->loader) {
		s_on_loaded(d, pt);
		return lst_daemon__ret(d);
	}
	pt->run = pg->run;
	pg->run = NULL;
	if (pt->run) { /* the maps and traces go with the run that borrows them */
		pt->vm = pg->vm;
		pg->vm = NULL;
		pt->tr = pg->tr;
		pg->tr = NULL;
	}
	err = pg->err;
	cmd = pg->cmd;
	pg->cmd = NULL;
	lst_daemon__prep_release(d, &pt->prep);
	if (pt->run) {
		s_point_ready(d, pt, cmd);
	} else {
		lst_log_warn("prepare %u/%u (%s) failed: %s", pt->phase, pt->point, pt->name,
			     err.msg);
		peer = pt->peer;
		lst_daemon__point_destroy(d);
		lst_daemon__error(d, &peer, cmd->id, cmd->type, LST_PERR_IO, "%s", err.msg);
	}
	lst_msg_destroy(&cmd);
	return lst_daemon__ret(d);
}

/* Can this PREPARE be executed at all? If not, its ERROR is sent and false returned. */
static bool s_prepare_acceptable(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m,
				 struct lst_daemon__traces **tr)
{
	const struct lst_msg_prepare *p = &m->u.prepare;
	uint32_t action = p->jobs[0].action;
	lst_err err;

	if (d->pt && d->pt->state == LST_DAEMON__STARTED) {
		lst_daemon__error(
			d, rid, m->id, m->type, LST_PERR_STATE,
			"prepare: point %u/%u (%s) is running; STOP it and wait for DONE first",
			d->pt->phase, d->pt->point, d->pt->name);
		return false;
	}
	if (strcmp(p->run, d->sess.run)) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_STATE,
				  "prepare: run '%s' is not this session's run '%s'", p->run,
				  d->sess.run);
		return false;
	}
	if (!p->njobs) {
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE, "prepare: no jobs");
		return false;
	}
	for (uint32_t i = 1; i < p->njobs; i++) {
		if (p->jobs[i].action != action) {
			lst_daemon__error(
				d, rid, m->id, m->type, LST_PERR_BAD_MESSAGE,
				"prepare: jobs[%u] has action %u but jobs[0] has %u; one action "
				"per point",
				i, p->jobs[i].action, action);
			return false;
		}
	}
	if (action == LST_ACTION_IO && lst_daemon__verify_check(d, p, &err)) {
		lst_log_warn("prepare %u/%u (%s) refused: %s", p->phase, p->point, p->name,
			     err.msg);
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_REFUSED, "%s", err.msg);
		return false;
	}
	/* Its recordings placed and its resources checked; a replay's traces are read first, off
	 * the reactor, by the trace loader (s_on_loaded checks then). */
	if (action == LST_ACTION_IO && !lst_daemon__traces_reads(p) &&
	    (lst_daemon__traces_new(d->trace_dir, d->name, d->mem_max, p, tr, &err) ||
	     s_check_resources(d, p, *tr, &err))) {
		lst_daemon__traces_free(tr);
		lst_log_warn("prepare %u/%u (%s) refused: %s", p->phase, p->point, p->name,
			     err.msg);
		lst_daemon__error(d, rid, m->id, m->type, LST_PERR_IO, "%s", err.msg);
		return false;
	}
	return true;
}

/* A new PREPARE replaces the point not running (a PREPARE still executing is cancelled). */
static void s_point_replace(lst_daemon *d, const struct lst_msg_prepare *p)
{
	if (d->pt && d->pt->state == LST_DAEMON__PREPARING) {
		char why[LST_TEXT_MAX];

		snprintf(why, sizeof(why), "replaced by a PREPARE of point %u/%u (%s)", p->phase,
			 p->point, p->name);
		lst_daemon__prepare_cancel(d, why);
	} else if (d->pt) {
		lst_log_info("prepared point %u/%u (%s) replaced by %u/%u (%s)", d->pt->phase,
			     d->pt->point, d->pt->name, p->phase, p->point, p->name);
		lst_daemon__point_destroy(d);
	}
}

/* The new point of PREPARE m from rid, still preparing, as d->pt. */
static struct lst_daemon__point *s_point_new(lst_daemon *d, const struct lst_daemon__rid *rid,
					     const struct lst_msg_prepare *p)
{
	struct lst_daemon__point *pt;

	pt = lst_calloc(1, sizeof(*pt));
	pt->state = LST_DAEMON__PREPARING;
	pt->phase = p->phase;
	pt->point = p->point;
	pt->action = p->jobs[0].action;
	pt->gen = d->sess.gen;
	pt->timer = -1;
	pt->last_interval = -1;
	pt->peer = *rid;
	lst_copy(pt->name, sizeof(pt->name), p->name);
	d->pt = pt;
	return pt;
}

/* Go on with PREPARE m of the new point pt (d->pt), its traces tr read: open its paths and
 * answer (IDENTIFY, a purge), or hand its run to a PREPARE worker. Any refusal is answered. */
static void s_prepare_point(lst_daemon *d, struct lst_daemon__point *pt,
			    const struct lst_daemon__rid *rid, const lst_msg *m,
			    struct lst_daemon__traces *tr)
{
	const struct lst_msg_prepare *p = &m->u.prepare;
	uint32_t action = p->jobs[0].action;
	int perr = LST_PERR_IO;
	lst_err err;

	pt->tr = tr;
	lst_err_clear(&err);
	if (s_open_paths(d, pt, p, &perr, &err))
		goto refused;
	perr = LST_PERR_IO;
	if (lst_daemon__traces_paths(d, pt, p, &err))
		goto refused;
	if (action == LST_ACTION_IDENTIFY) {
		/* Nothing runs: report what is there and close. */
		s_prepared(d, rid, m, pt, (uint32_t)p->jobs[0].w.engine, "");
		lst_log_info("identified %u path(s) for point %u/%u (%s)", p->njobs, p->phase,
			     p->point, p->name);
		lst_daemon__point_destroy(d);
		return;
	}
	if (action == LST_ACTION_IO) {
		uint64_t jobs, buffers;
		uint64_t need = s_point_mem(p, pt->tr, &buffers, &jobs);
		char sz[32];

		if (s_prepare_io(d, pt, m, &err))
			goto refused;
		lst_log_info("preparing point %u/%u (%s): %llu job(s), about %s, in a worker; "
			     "PREPARED follows",
			     p->phase, p->point, p->name, (unsigned long long)jobs,
			     lst_fmt_size(need, sz, sizeof(sz)));
		return;
	}
	if (s_prepare_purge(pt, p, &perr, &err))
		goto refused;
	s_point_ready(d, pt, m);
	return;
refused:
	if (perr == LST_PERR_REFUSED)
		lst_log_warn("prepare %u/%u (%s) refused: %s", p->phase, p->point, p->name,
			     err.msg);
	else
		lst_log_warn("prepare %u/%u (%s) failed: %s", p->phase, p->point, p->name, err.msg);
	lst_daemon__point_destroy(d);
	lst_daemon__error(d, rid, m->id, m->type, perr, "%s", err.msg);
}

/* The trace loader of d->pt finished: check what its traces ask of the host, and go on with
 * the PREPARE, or answer ERROR. */
static void s_on_loaded(lst_daemon *d, struct lst_daemon__point *pt)
{
	struct lst_daemon__prep *pg = pt->prep;
	struct lst_daemon__traces *tr = pg->tr;
	struct lst_daemon__rid peer = pt->peer;
	lst_msg *cmd = pg->cmd;
	const struct lst_msg_prepare *p = &cmd->u.prepare;
	lst_err err = pg->err;
	int rc = pg->rc;

	pg->tr = NULL;
	pg->cmd = NULL;
	lst_daemon__prep_release(d, &pt->prep);
	if (!rc)
		rc = s_check_resources(d, p, tr, &err);
	if (rc) {
		lst_daemon__traces_free(&tr);
		lst_log_warn("prepare %u/%u (%s) refused: %s", p->phase, p->point, p->name,
			     err.msg);
		lst_daemon__point_destroy(d);
		lst_daemon__error(d, &peer, cmd->id, cmd->type, LST_PERR_IO, "%s", err.msg);
	} else {
		s_prepare_point(d, pt, &peer, cmd, tr);
	}
	lst_msg_destroy(&cmd);
}

void lst_daemon__on_prepare(lst_daemon *d, const struct lst_daemon__rid *rid, const lst_msg *m)
{
	const struct lst_msg_prepare *p = &m->u.prepare;
	struct lst_daemon__point *pt;
	struct lst_daemon__traces *tr = NULL;
	lst_err err;

	if (!s_prepare_acceptable(d, rid, m, &tr))
		return;
	s_point_replace(d, p);
	pt = s_point_new(d, rid, p);
	if (p->jobs[0].action != LST_ACTION_IO || !lst_daemon__traces_reads(p)) {
		s_prepare_point(d, pt, rid, m, tr);
		return;
	}
	lst_err_clear(&err);
	if (!s_prepare_load(d, pt, m, &err)) {
		lst_log_info("preparing point %u/%u (%s): reading its traces in a worker", p->phase,
			     p->point, p->name);
		return;
	}
	lst_log_warn("prepare %u/%u (%s) failed: %s", p->phase, p->point, p->name, err.msg);
	lst_daemon__point_destroy(d);
	lst_daemon__error(d, rid, m->id, m->type, LST_PERR_IO, "%s", err.msg);
}
