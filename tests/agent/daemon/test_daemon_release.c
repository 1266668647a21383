/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Letting go of a point and of its PREPARE worker (agent/daemon/lst_daemon_release.c), through
 * the daemon's private interface: the worker's state lives while either the reactor or the
 * worker holds it and is freed by the last one (its eventfd closed then, not before); the
 * reactor letting go tells a busy worker to give up; a point's teardown cancels its worker,
 * closes every path it opened and leaves no point behind. (Run under ASan, a leak or a double
 * free here fails too.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "lst_daemon_int.h"
#include "lst_test.h"
#include "lst_util.h"

static bool s_fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0 || errno != EBADF;
}

/* A worker's state as the PREPARE makes it: two references, an eventfd, a copy of the
 * command and of the trace folder's name. */
static struct lst_daemon__prep *s_prep(void)
{
	struct lst_daemon__prep *pg = lst_calloc(1, sizeof(*pg));

	pg->refs = 2;
	pg->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	T_ASSERT(pg->efd >= 0);
	pg->cmd = lst_msg_new(LST_MSG_PREPARE);
	pg->trace_dir = lst_strdup("/var/lib/lockstep/traces");
	return pg;
}

static void test_prep_refs(void)
{
	lst_daemon d = { 0 };
	struct lst_daemon__prep *pg = s_prep(), *mine = pg;
	int efd = pg->efd;

	/* The reactor lets go first (a STOP while the worker still fills its buffers). */
	lst_daemon__prep_release(&d, &mine);
	T_ASSERT(!mine);
	T_EQ_INT(atomic_load(&pg->cancel), 1); /* the worker sees it at its next check */
	T_EQ_INT(atomic_load(&pg->refs), 1);
	T_ASSERT(s_fd_open(efd));	     /* the worker may still write it */
	lst_daemon__prep_release(&d, &mine); /* nothing left: safe */

	lst_daemon__prep_put(pg); /* the worker's end: the last reference frees */
	T_ASSERT(!s_fd_open(efd));

	/* The other order: the worker ends first, the reactor takes the result and lets go. */
	pg = mine = s_prep();
	efd = pg->efd;
	lst_daemon__prep_put(pg);
	T_ASSERT(s_fd_open(efd));
	T_EQ_INT(atomic_load(&pg->cancel), 0);
	lst_daemon__prep_release(&d, &mine);
	T_ASSERT(!s_fd_open(efd));
}

static void test_point_destroy(void)
{
	lst_daemon d = { 0 };
	struct lst_daemon__point *pt = lst_calloc(1, sizeof(*pt));
	struct lst_daemon__prep *pg = s_prep();
	int fds[3];

	d.loop = zloop_new();
	T_ASSERT(d.loop);
	pt->timer = zloop_timer(d.loop, 60000, 1, NULL, NULL);
	T_ASSERT(pt->timer >= 0);
	for (int i = 0; i < 3; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		T_ASSERT(fds[i] >= 0);
		pt->paths[i].fd = fds[i];
	}
	pt->npaths = 3;
	pt->prep = pg; /* a point still PREPARING */
	pt->purge = lst_purge_new();
	d.pt = pt;

	lst_daemon__point_destroy(&d);
	T_ASSERT(!d.pt);
	for (int i = 0; i < 3; i++)
		T_ASSERT(!s_fd_open(fds[i]));
	T_EQ_INT(atomic_load(&pg->cancel), 1); /* its worker is told to give up ... */
	T_EQ_INT(atomic_load(&pg->refs), 1);   /* ... and frees its own work */
	lst_daemon__prep_put(pg);

	lst_daemon__point_destroy(&d); /* no point: nothing to do */
	zloop_destroy(&d.loop);
}

int main(void)
{
	test_prep_refs();
	test_point_destroy();
	printf("ok: daemon release\n");
	return 0;
}
