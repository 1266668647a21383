/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The coordinator's wake-up over every agent connection, at a cost that does not grow with the
 * number of agents.
 *
 * A zmq_poll over every agent hands libzmq two poll items per agent on every call, so a wake-up
 * that brings one SAMPLE costs as much as one that brings a thousand. A set instead registers each
 * connection's descriptors (ZMQ_FD of its DEALER and of its handshake monitor) once with an
 * epoll instance, and a wait looks only at the connections whose descriptor fired or whose
 * socket was used since the last wait.
 *
 * ZMQ_FD is no ordinary descriptor: it says that ZMQ_EVENTS must be read again, and any
 * operation on the socket (a send, a receive, reading ZMQ_EVENTS) may consume that signal while
 * messages stay queued. So a connection tells the set of every send and every receive
 * (lst_conn_attach), the set marks it to be checked again unless a receive emptied it, and the
 * next wait reads ZMQ_EVENTS of exactly those, as well as of those whose descriptor fired.
 *
 * One thread owns a set and its connections (lst_conn is not thread-safe either).
 */
#ifndef LST_CONN_SET_H
#define LST_CONN_SET_H

#include <poll.h>
#include <stddef.h>

#include "lst_err.h"

typedef struct lst_conn lst_conn;
typedef struct lst_conn_set lst_conn_set;

/* A set for connections numbered 0..n-1 (its epoll instance). NULL with err on failure. */
lst_conn_set *lst_conn_set_new(size_t n, lst_err *err);

/* Free the set; safe on NULL and twice. Connections still in it are left out of it first. */
void lst_conn_set_destroy(lst_conn_set **p);

/*
 * Put connection c in the set as number i (< n): its descriptors are registered and it is
 * checked at the next wait (a message may already be queued). The connection stays the
 * caller's; lst_conn_destroy takes it out of the set. Returns 0 or -errno with err.
 */
int lst_conn_set_add(lst_conn_set *s, size_t i, lst_conn *c, lst_err *err);

/* Take connection i out of the set (lst_conn_destroy does it); nothing when it is not in. */
void lst_conn_set_remove(lst_conn_set *s, size_t i);

/*
 * Wait until a connection has a message or timeout_ms passes, reading handshake monitors on the
 * way (lst_conn_handshakes); also waits on nfds plain descriptors (the metrics endpoint's:
 * fds[k].events POLLIN and/or POLLOUT; on return fds[k].revents says POLLIN, POLLOUT or
 * POLLERR). *ready points to the numbers of the connections with a message,
 * in the set's memory until the next wait. Returns how many, 0 on timeout, -EINTR when a signal
 * arrived, or -errno.
 */
int lst_conn_set_wait(lst_conn_set *s, struct pollfd *fds, size_t nfds, int timeout_ms,
		      const size_t **ready);

#endif
