/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace record and replay on the daemon (lst_daemon_int.h): what PREPARE reads and
 * checks before any I/O, what it counts in the memory check, and the recordings written when
 * the point ends.
 *
 * A replayed trace is read at PREPARE by a trace loader thread (lst_daemon_prepare.c), off the
 * reactor (a trace of 64 Mi records is 1.5 GiB; the time is logged), before the paths are
 * opened, because its writes decide whether its path is opened for writing (through the
 * disk-safety rules, as any write).
 * A recording is written at the point's end, before DONE, by a writer thread (merging and
 * writing 64 Mi records takes seconds; 650,000 took 0.1 s here), while the reactor goes on
 * serving: DONE waits for it (lst_daemon__traces_pending), as it waits for the events' EVENTs.
 * The time each file took is logged.
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
#include "lst_log.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_tracedir.h"
#include "lst_util.h"

/* Read spec i's trace (read_iolog) of the folder dir into tr. */
static int s_load(const char *dir, uint64_t mem_max, const struct lst_jobspec *j,
		  struct lst_daemon__traces *tr, uint32_t i, lst_err *err)
{
	int64_t t = lst_mono_ns();
	int rc;

	rc = lst_tracedir_load(dir, j->w.read_iolog, mem_max, &tr->spec[i].t, err);
	if (rc)
		return rc;
	tr->spec[i].replay = true;
	tr->spec[i].writes = lst_tracedir_writes(&tr->spec[i].t);
	snprintf(tr->spec[i].file, sizeof(tr->spec[i].file), "%s/%s", dir, j->w.read_iolog);
	lst_log_info("read_iolog %s: %zu records (%zu write or trim) over %.3f s, read in %.1f ms",
		     tr->spec[i].file, tr->spec[i].t.nrec, tr->spec[i].writes,
		     (double)tr->spec[i].t.duration / 1e9, (double)(lst_mono_ns() - t) / 1e6);
	return 0;
}

bool lst_daemon__traces_reads(const struct lst_msg_prepare *p)
{
	for (uint32_t i = 0; i < p->njobs; i++)
		if (p->jobs[i].w.read_iolog[0])
			return true;
	return false;
}

int lst_daemon__traces_new(const char *dir, const char *agent, uint64_t mem_max,
			   const struct lst_msg_prepare *p, struct lst_daemon__traces **out,
			   lst_err *err)
{
	struct lst_daemon__traces *tr = NULL;
	int rc = 0;

	*out = NULL;
	for (uint32_t i = 0; i < p->njobs && !rc; i++) {
		const struct lst_jobspec *j = &p->jobs[i];

		if (!j->w.read_iolog[0] && !j->w.write_iolog[0])
			continue;
		if (!tr)
			tr = lst_calloc(1, sizeof(*tr));
		if (j->w.read_iolog[0])
			rc = s_load(dir, mem_max, j, tr, i, err);
		if (!rc && j->w.write_iolog[0]) {
			rc = lst_tracedir_make(dir, err);
			if (!rc)
				rc = lst_tracedir_record_file(tr->spec[i].rec_file,
							      sizeof(tr->spec[i].rec_file), dir,
							      j->w.write_iolog, agent, i, err);
			tr->spec[i].rec_max = lst_run_record_max(&j->w);
		}
	}
	if (rc) {
		lst_daemon__traces_free(&tr);
		return rc;
	}
	*out = tr;
	return 0;
}

uint64_t lst_daemon__traces_mem(const struct lst_daemon__traces *tr,
				const struct lst_msg_prepare *p)
{
	uint64_t mem = 0;

	for (uint32_t i = 0; tr && i < p->njobs; i++) {
		const struct lst_workload *w = &p->jobs[i].w;

		if (tr->spec[i].replay) {
			uint64_t slot = lst_tracedir_slot_bytes(&tr->spec[i].t);

			mem += tr->spec[i].t.nrec * sizeof(struct lst_trace_rec);
			if (slot > (uint64_t)w->bs)
				mem += (uint64_t)w->iodepth * (slot - (uint64_t)w->bs);
		}
	}
	return mem;
}

uint64_t lst_daemon__traces_rec_mem(const struct lst_daemon__traces *tr,
				    const struct lst_msg_prepare *p)
{
	uint64_t mem = 0;

	for (uint32_t i = 0; tr && i < p->njobs; i++)
		mem += tr->spec[i].rec_max * sizeof(struct lst_trace_rec);
	return mem;
}

int lst_daemon__traces_fit(struct lst_daemon__traces *tr, const struct lst_msg_prepare *p,
			   uint64_t need, uint64_t mem_max, lst_err *err)
{
	uint64_t rec = 0, nrec = 0, share;
	char a[32];

	for (uint32_t i = 0; tr && i < p->njobs; i++) {
		rec += tr->spec[i].rec_max * sizeof(struct lst_trace_rec);
		nrec += tr->spec[i].rec_max > 0;
	}
	if (!nrec || need + rec <= mem_max)
		return 0;
	share = need < mem_max ? (mem_max - need) / nrec / sizeof(struct lst_trace_rec) : 0;
	if (share < LST_DAEMON__REC_MIN)
		return lst_err_set(err, -ENOMEM,
				   "prepare: no memory left under mem_max (%s) for the recording "
				   "(write_iolog): raise mem_max or record a smaller point",
				   lst_fmt_size(mem_max, a, sizeof(a)));
	for (uint32_t i = 0; i < p->njobs; i++) {
		if (tr->spec[i].rec_max <= share)
			continue;
		lst_log_info("write_iolog %s: keeping at most %llu records (mem_max)",
			     tr->spec[i].rec_file, (unsigned long long)share);
		tr->spec[i].rec_max = (size_t)share;
	}
	return 0;
}

int lst_daemon__traces_paths(const lst_daemon *d, struct lst_daemon__point *pt,
			     const struct lst_msg_prepare *p, lst_err *err)
{
	struct lst_daemon__traces *tr = pt->tr;

	for (uint32_t i = 0; tr && i < p->njobs; i++) {
		const char *path = p->jobs[i].path;
		const struct lst_daemon__path *sp = NULL;

		for (size_t k = 0; k < pt->npaths && !sp; k++)
			if (!strcmp(pt->paths[k].path, path))
				sp = &pt->paths[k];
		if (!sp)
			continue;
		tr->spec[i].lbs = sp->id.lbs ? sp->id.lbs : 512;
		tr->spec[i].size = sp->id.size;
		if (tr->spec[i].replay &&
		    lst_tracedir_fits(&tr->spec[i].t, d->trace_dir, p->jobs[i].w.read_iolog, path,
				      tr->spec[i].lbs, tr->spec[i].size, err))
			return err->code;
	}
	return 0;
}

/* The writer thread: write every recording of the point's run (over: its jobs have ended). */
static void *s_writer_main(void *arg)
{
	struct lst_daemon__tw *tw = arg;
	const struct lst_daemon__traces *tr = tw->tr;

	for (uint32_t i = 0; i < LST_MAX_JOBSPECS; i++) {
		struct lst_daemon__tw_spec *o = &tw->spec[i];
		int64_t t = lst_mono_ns();

		if (!tr->spec[i].rec_max)
			continue;
		o->rc = lst_run_trace_write(tw->run, i, tr->spec[i].rec_file, tr->spec[i].lbs,
					    tr->spec[i].size, &o->nrec, &o->dropped, &o->err);
		o->ns = lst_mono_ns() - t;
	}
	atomic_store_explicit(&tw->done, 1, memory_order_release);
	eventfd_write(tw->efd, 1);
	return NULL;
}

/* The writer is done: take it off the reactor, and let the point finish (DONE). */
static int s_on_writer(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct lst_daemon__point *pt = d->pt;
	uint64_t junk;

	(void)loop;
	if (!pt || !pt->tw || item->fd != pt->tw->efd)
		return lst_daemon__ret(d);
	while (read(item->fd, &junk, sizeof(junk)) > 0)
		;
	if (!atomic_load_explicit(&pt->tw->done, memory_order_acquire))
		return lst_daemon__ret(d);
	zloop_poller_end(d->loop, &pt->tw->item);
	pthread_join(pt->tw->thread, NULL);
	pt->tw->joined = true;
	pt->finish(d);
	return lst_daemon__ret(d);
}

bool lst_daemon__traces_pending(lst_daemon *d)
{
	struct lst_daemon__point *pt = d->pt;
	struct lst_daemon__tw *tw;
	bool any = false;

	if (!pt->run || !pt->tr)
		return false;
	if (pt->tw)
		return !pt->tw->joined;
	for (uint32_t i = 0; i < LST_MAX_JOBSPECS; i++)
		any = any || pt->tr->spec[i].rec_max;
	if (!any)
		return false;
	tw = pt->tw = lst_calloc(1, sizeof(*tw));
	tw->run = pt->run;
	tw->tr = pt->tr;
	tw->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (tw->efd >= 0 && !pthread_create(&tw->thread, NULL, s_writer_main, tw)) {
		tw->item = (zmq_pollitem_t){ .fd = tw->efd, .events = ZMQ_POLLIN };
		zloop_poller(d->loop, &tw->item, s_on_writer, d);
		return true;
	}
	/* no thread: write here, on the reactor */
	s_writer_main(tw);
	tw->joined = true;
	return false;
}

/* Log spec i's recording as written, and note in note what DONE must say. Returns rc. */
static int s_report(const struct lst_daemon__traces *tr, const struct lst_daemon__tw_spec *o,
		    uint32_t i, char *note, size_t size)
{
	size_t n = strlen(note);

	if (o->rc) {
		lst_log_warn("write_iolog: %s", o->err.msg);
		snprintf(note + n, size - n, "%swrite_iolog: %s", n ? "; " : "", o->err.msg);
		return o->rc;
	}
	lst_log_info("write_iolog: recorded %zu I/Os in %s (written in %.1f ms, off the reactor)",
		     o->nrec, tr->spec[i].rec_file, (double)o->ns / 1e6);
	if (o->dropped) {
		lst_log_warn("write_iolog %s: full after %zu records; %llu more I/Os were not "
			     "recorded",
			     tr->spec[i].rec_file, o->nrec, (unsigned long long)o->dropped);
		snprintf(note + n, size - n,
			 "%swrite_iolog %s: full after %zu records, %llu more I/Os not recorded",
			 n ? "; " : "", tr->spec[i].rec_file, o->nrec,
			 (unsigned long long)o->dropped);
	}
	return 0;
}

void lst_daemon__traces_finish(lst_daemon *d, struct lst_msg_done *dn)
{
	struct lst_daemon__point *pt = d->pt;
	struct lst_daemon__traces *tr = pt->tr;
	char note[LST_TEXT_MAX] = "";
	bool failed = false;

	for (uint32_t i = 0; tr && i < LST_MAX_JOBSPECS; i++) {
		uint64_t late;
		size_t n;

		if (tr->spec[i].rec_max && pt->tw &&
		    s_report(tr, &pt->tw->spec[i], i, note, sizeof(note)))
			failed = true;
		if (!tr->spec[i].replay || !(late = lst_run_replay_late(pt->run, i)))
			continue;
		lst_log_info("read_iolog %s: %llu of %zu records went out late (no free slot)",
			     tr->spec[i].file, (unsigned long long)late, tr->spec[i].t.nrec);
		n = strlen(note);
		snprintf(note + n, sizeof(note) - n, "%sread_iolog: %llu of %zu records late",
			 n ? "; " : "", (unsigned long long)late, tr->spec[i].t.nrec);
	}
	if (!note[0])
		return;
	if (failed && dn->reason == LST_DONE_COMPLETE)
		dn->reason = LST_DONE_ERROR;
	{
		size_t n = strlen(dn->text);

		snprintf(dn->text + n, sizeof(dn->text) - n, "%s%s", n ? "; " : "", note);
	}
}

void lst_daemon__traces_writer_free(lst_daemon *d, struct lst_daemon__point *pt)
{
	struct lst_daemon__tw *tw = pt->tw;

	if (!tw)
		return;
	if (!tw->joined) { /* the point goes before its DONE: wait for the files */
		zloop_poller_end(d->loop, &tw->item);
		pthread_join(tw->thread, NULL);
	}
	if (tw->efd >= 0)
		close(tw->efd);
	free(tw);
	pt->tw = NULL;
}

void lst_daemon__traces_free(struct lst_daemon__traces **p)
{
	struct lst_daemon__traces *tr = *p;

	if (!tr)
		return;
	for (size_t i = 0; i < LST_MAX_JOBSPECS; i++)
		lst_trace_free(&tr->spec[i].t);
	free(tr);
	*p = NULL;
}
