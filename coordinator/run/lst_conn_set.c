/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The set of agent connections the coordinator waits on: an epoll instance over each
 * connection's ZMQ_FDs, a list of connections to check again (used since the last wait), and
 * the list of those found with a message. What a wait costs grows with the connections that
 * have something to say, not with the fleet (lst_conn_set.h says why ZMQ_FD needs the list).
 */
#include "lst_conn_set.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_conn.h"
#include "lst_util.h"

/* Events taken from epoll per wait: more stay pending (level-triggered) for the next one. */
#define S_EVENTS 256
/* Plain descriptors a wait takes beside the connections (the metrics endpoint's). */
#define S_FDS_MAX 16

enum {
	S_LISTED = 1,  /* in the check list */
	S_TOUCHED = 2, /* used since the last wait: read its ZMQ_EVENTS */
};

struct lst_conn_set {
	int ep; /* epoll over every connection's two ZMQ_FDs */
	size_t n;
	lst_conn **conns; /* [n]: NULL when not in the set */
	uint8_t *mark;	  /* [n]: S_LISTED, S_TOUCHED */
	size_t *check;	  /* connections to check at the next wait */
	size_t ncheck;
	size_t *ready; /* what the last wait found */
	size_t nready;
	uint32_t *seen; /* [n]: the wait (gen) that put it in ready */
	uint32_t gen;
};

lst_conn_set *lst_conn_set_new(size_t n, lst_err *err)
{
	lst_conn_set *s;
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (ep < 0)
		return lst_err_set(err, -errno, "cannot create an epoll instance: %s",
				   strerror(errno)),
		       NULL;
	s = lst_calloc(1, sizeof(*s));
	s->ep = ep;
	s->n = n;
	s->conns = lst_calloc(n ? n : 1, sizeof(*s->conns));
	s->mark = lst_calloc(n ? n : 1, sizeof(*s->mark));
	s->check = lst_calloc(n ? n : 1, sizeof(*s->check));
	s->ready = lst_calloc(n ? n : 1, sizeof(*s->ready));
	s->seen = lst_calloc(n ? n : 1, sizeof(*s->seen));
	return s;
}

void lst_conn_set_destroy(lst_conn_set **p)
{
	lst_conn_set *s = *p;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (s->conns[i])
			lst_conn_attach(s->conns[i], NULL, NULL, 0);
	close(s->ep);
	free(s->conns);
	free(s->mark);
	free(s->check);
	free(s->ready);
	free(s->seen);
	free(s);
	*p = NULL;
}

/* Connection i was used (a send, a receive): read its ZMQ_EVENTS at the next wait. */
static void s_touch(lst_conn_set *s, size_t i)
{
	s->mark[i] |= S_TOUCHED;
	if (s->mark[i] & S_LISTED)
		return;
	s->mark[i] |= S_LISTED;
	s->check[s->ncheck++] = i;
}

/* Connection i was emptied (a receive said EAGAIN): no need to read its ZMQ_EVENTS again. */
static void s_untouch(lst_conn_set *s, size_t i)
{
	s->mark[i] &= (uint8_t)~S_TOUCHED;
}

/* What connection i's socket went through (lst_conn_attach's callback). */
static void s_on_use(void *arg, size_t i, enum lst_conn_use use)
{
	lst_conn_set *s = arg;

	if (use == LST_CONN_USED)
		s_touch(s, i);
	else if (use == LST_CONN_EMPTIED)
		s_untouch(s, i);
	else
		lst_conn_set_remove(s, i);
}

int lst_conn_set_add(lst_conn_set *s, size_t i, lst_conn *c, lst_err *err)
{
	LST_ASSERT(i < s->n && !s->conns[i]);
	for (int mon = 0; mon < 2; mon++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = (uint64_t)i << 1 | mon };
		int fd = lst_conn_fd(c, mon);

		if (fd < 0 || epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev))
			return lst_err_set(err, fd < 0 ? -EBADF : -errno,
					   "agent %s: cannot wait on its socket: %s",
					   lst_conn_name(c), strerror(fd < 0 ? EBADF : errno));
	}
	s->conns[i] = c;
	lst_conn_attach(c, s_on_use, s, i);
	s_touch(s, i);
	/* A ZMQ_FD signals only once its socket has found itself empty: until a first read says
	 * EAGAIN, the monitor's events (a refused handshake among them) would wake nothing. */
	lst_conn_handshakes(c);
	return 0;
}

void lst_conn_set_remove(lst_conn_set *s, size_t i)
{
	lst_conn *c = i < s->n ? s->conns[i] : NULL;

	if (!c)
		return;
	/* Before the socket closes: libzmq closes its descriptors later, in its reaper thread. */
	for (int mon = 0; mon < 2; mon++)
		epoll_ctl(s->ep, EPOLL_CTL_DEL, lst_conn_fd(c, mon), NULL);
	lst_conn_attach(c, NULL, NULL, 0);
	s->conns[i] = NULL;
	s->mark[i] &= (uint8_t)~S_TOUCHED;
}

/*
 * Connection i has a message when ZMQ_EVENTS says so: once into ready per wait. Reading
 * ZMQ_EVENTS consumed its ZMQ_FD signal, so it stays to be checked until a receive empties it
 * (lst_conn_set_untouch): a caller that leaves a message queued still finds it at the next wait.
 */
static void s_check(lst_conn_set *s, size_t i)
{
	if (!s->conns[i] || s->seen[i] == s->gen || !lst_conn_readable(s->conns[i]))
		return;
	s->seen[i] = s->gen;
	s->ready[s->nready++] = i;
	s_touch(s, i);
}

/* The connections used since the last wait: their ZMQ_FD may have been consumed on the way. */
static void s_check_touched(lst_conn_set *s)
{
	size_t n = s->ncheck;

	s->ncheck = 0;
	for (size_t k = 0; k < n; k++) {
		size_t i = s->check[k];
		bool touched = s->mark[i] & S_TOUCHED;

		s->mark[i] = 0;
		if (touched)
			s_check(s, i);
	}
}

/*
 * Wait on the epoll instance and the plain descriptors together (one poll), and report the
 * plain ones as zmq_poll did: POLLIN, POLLOUT, and POLLERR for anything else.
 */
static int s_poll_fds(lst_conn_set *s, struct pollfd *fds, size_t nfds, int timeout_ms)
{
	struct pollfd p[1 + S_FDS_MAX];
	int rc;

	LST_ASSERT(nfds <= S_FDS_MAX);
	p[0] = (struct pollfd){ .fd = s->ep, .events = POLLIN };
	for (size_t k = 0; k < nfds; k++)
		p[1 + k] = (struct pollfd){ .fd = fds[k].fd, .events = fds[k].events };
	rc = poll(p, 1 + nfds, timeout_ms);
	if (rc < 0)
		return -errno;
	for (size_t k = 0; k < nfds; k++) {
		short r = p[1 + k].revents;

		fds[k].revents =
			(short)((r & (POLLIN | POLLOUT)) | (r & ~(POLLIN | POLLOUT) ? POLLERR : 0));
	}
	return 0;
}

int lst_conn_set_wait(lst_conn_set *s, struct pollfd *fds, size_t nfds, int timeout_ms,
		      const size_t **ready)
{
	struct epoll_event ev[S_EVENTS];
	int ne, rc;

	s->nready = 0;
	if (!++s->gen) /* a wrap: no connection may look seen by an old wait */
		memset(s->seen, 0, s->n * sizeof(*s->seen)), s->gen = 1;
	*ready = s->ready;
	s_check_touched(s);
	if (s->nready)
		timeout_ms = 0;
	if (nfds) {
		rc = s_poll_fds(s, fds, nfds, timeout_ms);
		if (rc)
			return rc;
		timeout_ms = 0;
	}
	ne = epoll_wait(s->ep, ev, S_EVENTS, timeout_ms);
	if (ne < 0)
		return s->nready ? (int)s->nready : -errno;
	for (int k = 0; k < ne; k++) {
		size_t i = (size_t)(ev[k].data.u64 >> 1);

		if (!s->conns[i])
			continue;
		if (ev[k].data.u64 & 1)
			lst_conn_handshakes(s->conns[i]); /* reads the monitor, which empties it */
		else
			s_check(s, i);
	}
	return (int)s->nready;
}
