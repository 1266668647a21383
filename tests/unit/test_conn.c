/*
 * Agent connections: lst_conn_poll waits on any number of them. A ROUTER on loopback stands in
 * for the agents and echoes one frame to each of 70 connections; every one must be seen ready
 * (the poll once looked at the first 64 only, so agent 65 and on went "silent" and were lost).
 */
#include <czmq.h>
#include <stdlib.h>

#include "lst_conn.h"
#include "lst_test.h"
#include "lst_time.h"

#define N 70

int main(void)
{
	zsock_t *router = zsock_new(ZMQ_ROUTER);
	lst_conn *conns[N];
	bool ready[N], seen[N] = { false };
	size_t nseen = 0;
	char addr[64];
	int port;
	lst_err err;

	T_ASSERT(router);
	port = zsock_bind(router, "tcp://127.0.0.1:*");
	T_ASSERT(port > 0);
	snprintf(addr, sizeof(addr), "tcp://127.0.0.1:%d", port);
	for (size_t i = 0; i < N; i++) {
		lst_msg *m = lst_msg_new(LST_MSG_PING);
		char name[16];

		snprintf(name, sizeof(name), "a%zu", i);
		conns[i] = lst_conn_new(i, name, addr, NULL, &err);
		if (!conns[i])
			T_FAIL("%s", err.msg);
		T_EQ_INT(lst_conn_send(conns[i], m, false, NULL, &err), 0);
		lst_msg_destroy(&m);
	}
	/* Echo every frame back to the connection that sent it. */
	for (size_t i = 0; i < N; i++) {
		zmsg_t *msg = zmsg_recv(router);

		T_ASSERT(msg);
		T_EQ_INT(zmsg_send(&msg, router), 0);
	}
	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S;
	     nseen < N && lst_mono_ns() < until;) {
		int rc = lst_conn_poll(conns, N, 100, ready);

		T_ASSERT(rc >= 0);
		for (size_t i = 0; i < N; i++) {
			lst_msg *m = NULL;
			int64_t t;

			if (!ready[i])
				continue;
			T_EQ_INT(lst_conn_recv(conns[i], &m, NULL, NULL, &t, &err), 0);
			T_EQ_INT(m->type, LST_MSG_PING);
			lst_msg_destroy(&m);
			if (!seen[i]) {
				seen[i] = true;
				nseen++;
			}
		}
	}
	for (size_t i = 0; i < N; i++)
		if (!seen[i])
			T_FAIL("connection %zu never polled ready", i);
	for (size_t i = 0; i < N; i++)
		lst_conn_destroy(&conns[i]);
	zsock_destroy(&router);
	return 0;
}
