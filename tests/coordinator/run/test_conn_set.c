/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The set of connections the coordinator waits on (lst_conn_set): a ROUTER on loopback stands
 * in for the agents.
 *
 * Every one of 300 connections that has a message is found, and a wait reports only those: one
 * echo among 300 quiet connections is the one number returned.
 *
 * Then ZMQ_FD's trap: a send, or a receive that leaves a message queued, may consume the
 * descriptor's signal while messages wait, and an epoll on the descriptor alone would sleep on
 * them for good. A message left queued after a wait, and one that arrived before a send on the
 * same socket, must both be reported by the next wait without a new arrival.
 */
#include <czmq.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_conn.h"
#include "lst_conn_set.h"
#include "lst_test.h"
#include "lst_time.h"

#define N 300

/* Echo n frames back to the connections that sent them. */
static void s_echo(zsock_t *router, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		zmsg_t *msg = zmsg_recv(router);

		T_ASSERT(msg);
		T_EQ_INT(zmsg_send(&msg, router), 0);
	}
}

static void s_ping(lst_conn *c)
{
	lst_msg *m = lst_msg_new(LST_MSG_PING);
	lst_err err;

	T_EQ_INT(lst_conn_send(c, m, false, NULL, &err), 0);
	lst_msg_destroy(&m);
}

/* Wait (up to 5 s) until connection i is ready; the number of connections ready then. */
static int s_wait_for(lst_conn_set *s, size_t i)
{
	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S; lst_mono_ns() < until;) {
		const size_t *ready;
		int rc = lst_conn_set_wait(s, NULL, 0, 100, &ready);

		T_ASSERT(rc >= 0);
		for (int k = 0; k < rc; k++)
			if (ready[k] == i)
				return rc;
	}
	T_FAIL("connection %zu never ready", i);
	return 0;
}

/* Receive one message from c, which must be there. */
static void s_recv_one(lst_conn *c)
{
	lst_msg *m = lst_msg_new(LST_MSG_BYE);
	int64_t t;
	lst_err err;

	T_EQ_INT(lst_conn_recv_into(c, m, NULL, NULL, &t, &err), 0);
	T_EQ_INT(m->type, LST_MSG_PING);
	lst_msg_destroy(&m);
}

/* Receive until empty: the number of messages. */
static int s_drain(lst_conn *c)
{
	lst_msg *m = lst_msg_new(LST_MSG_BYE);
	int64_t t;
	int n = 0;
	lst_err err;

	while (lst_conn_recv_into(c, m, NULL, NULL, &t, &err) == 0)
		n++;
	lst_msg_destroy(&m);
	return n;
}

static void s_all_found(lst_conn_set *s, lst_conn **conns, zsock_t *router)
{
	bool seen[N] = { false };
	size_t nseen = 0;
	const size_t *ready;

	for (size_t i = 0; i < N; i++)
		s_ping(conns[i]);
	s_echo(router, N);
	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S;
	     nseen < N && lst_mono_ns() < until;) {
		int rc = lst_conn_set_wait(s, NULL, 0, 100, &ready);

		T_ASSERT(rc >= 0);
		for (int k = 0; k < rc; k++) {
			T_ASSERT(ready[k] < N);
			T_EQ_INT(s_drain(conns[ready[k]]), 1);
			if (!seen[ready[k]])
				nseen++;
			seen[ready[k]] = true;
		}
	}
	for (size_t i = 0; i < N; i++)
		if (!seen[i])
			T_FAIL("connection %zu never reported ready", i);
	/* Quiet now: a wait times out with nothing (the sends above are checked once). */
	while (lst_conn_set_wait(s, NULL, 0, 0, &ready) > 0)
		;
	T_EQ_INT(lst_conn_set_wait(s, NULL, 0, 50, &ready), 0);
	/* One echo among N quiet connections: one number returned. */
	s_ping(conns[N / 2]);
	s_echo(router, 1);
	T_EQ_INT(s_wait_for(s, N / 2), 1);
	T_EQ_INT(s_drain(conns[N / 2]), 1);
}

static void s_signal_consumed(lst_conn_set *s, lst_conn *c, zsock_t *router)
{
	const size_t *ready;

	/* Two messages, one received: the other is reported again. */
	s_ping(c);
	s_ping(c);
	s_echo(router, 2);
	s_wait_for(s, 0);
	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S;
	     !lst_conn_readable(c) && lst_mono_ns() < until;)
		usleep(1000);
	s_recv_one(c);
	if (!lst_conn_readable(c)) /* the second may come later: wait for it */
		s_wait_for(s, 0);
	T_EQ_INT(lst_conn_set_wait(s, NULL, 0, 0, &ready), 1);
	T_EQ_INT(ready[0], 0);
	T_EQ_INT(s_drain(c), 1);
	/* A message that arrives, then a send on the same socket before any wait reads it. */
	s_ping(c);
	s_echo(router, 1);
	usleep(100 * 1000); /* the echo is in the socket's queue, its signal pending */
	s_ping(c);	    /* processes the socket's commands: the signal is gone */
	T_EQ_INT(lst_conn_set_wait(s, NULL, 0, 0, &ready), 1);
	T_EQ_INT(ready[0], 0);
	T_EQ_INT(s_drain(c), 1);
	s_echo(router, 1); /* the second PING's echo */
	s_wait_for(s, 0);
	T_EQ_INT(s_drain(c), 1);
}

int main(void)
{
	zsock_t *router = zsock_new_router("tcp://127.0.0.1:*");
	lst_conn *conns[N];
	lst_conn_set *s;
	const char *addr;
	lst_err err;

	T_ASSERT(router && (addr = zsock_endpoint(router)));
	s = lst_conn_set_new(N, &err);
	if (!s)
		T_FAIL("%s", err.msg);
	for (size_t i = 0; i < N; i++) {
		char name[16];

		snprintf(name, sizeof(name), "a%zu", i);
		conns[i] = lst_conn_new(i, name, addr, NULL, &err);
		if (!conns[i] || lst_conn_set_add(s, i, conns[i], &err))
			T_FAIL("%s", err.msg);
	}
	s_all_found(s, conns, router);
	s_signal_consumed(s, conns[0], router);
	for (size_t i = 0; i < N; i++)
		lst_conn_destroy(&conns[i]); /* takes it out of the set */
	lst_conn_set_destroy(&s);
	lst_conn_set_destroy(&s); /* safe twice */
	zsock_destroy(&router);
	return 0;
}
