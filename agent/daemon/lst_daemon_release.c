/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Letting go of a point and of its PREPARE worker's state: the worker's reference count (the
 * reactor and the worker thread each hold one; the last frees it) and the point's teardown. Both
 * the PREPARE (lst_daemon_prepare.c, which makes a point) and the point's life after it
 * (lst_daemon_point.c) end points here, so neither calls the other to free one.
 */

#include "lst_daemon_int.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

void lst_daemon__prep_put(struct lst_daemon__prep *pg)
{
	if (atomic_fetch_sub(&pg->refs, 1) != 1)
		return;
	lst_run_destroy(&pg->run);
	lst_daemon__vmaps_free(&pg->vm);  /* after the run, which borrowed its maps */
	lst_daemon__traces_free(&pg->tr); /* after the run, which borrowed its traces */
	if (pg->efd >= 0)
		close(pg->efd);
	lst_msg_destroy(&pg->cmd);
	free(pg->trace_dir);
	free(pg);
}

void lst_daemon__prep_release(lst_daemon *d, struct lst_daemon__prep **p)
{
	struct lst_daemon__prep *pg = *p;

	if (!pg)
		return;
	if (pg->polling)
		zloop_poller_end(d->loop, &pg->item);
	pg->polling = false;
	atomic_store(&pg->cancel, 1);
	lst_daemon__prep_put(pg);
	*p = NULL;
}

static void s_purge_destroy(lst_daemon *d, struct lst_daemon__point *pt)
{
	if (pt->purge_polling)
		zloop_poller_end(d->loop, &pt->purge_item);
	pt->purge_polling = false;
	lst_purge_destroy(&pt->purge);
}

void lst_daemon__point_destroy(lst_daemon *d)
{
	struct lst_daemon__point *pt = d->pt;

	if (!pt)
		return;
	if (pt->timer >= 0)
		zloop_timer_end(d->loop, pt->timer);
	if (pt->polling)
		zloop_poller_end(d->loop, &pt->item);
	lst_daemon__prep_release(d, &pt->prep);
	lst_daemon__events_free(d, pt);
	lst_daemon__traces_writer_free(d, pt); /* before the run: it reads the jobs' records */
	lst_run_destroy(&pt->run);
	lst_daemon__vmaps_free(&pt->vm);  /* after the run: its jobs borrowed the maps */
	lst_daemon__traces_free(&pt->tr); /* after the run: a replay borrowed its trace */
	s_purge_destroy(d, pt);
	for (size_t i = 0; i < pt->npaths; i++)
		if (pt->paths[i].fd >= 0)
			close(pt->paths[i].fd);
	free(pt);
	d->pt = NULL;
}
