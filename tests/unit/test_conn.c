/*
 * Agent connections: lst_conn_poll waits on any number of them. A ROUTER on loopback stands in
 * for the agents and echoes one frame to each of 70 connections; every one must be seen ready
 * (the poll once looked at the first 64 only, so agent 65 and on went "silent" and were lost).
 *
 * Then a CURVE ROUTER whose ZAP handler refuses every key: once the handshake has failed, the
 * DEALER has no connection left, and a send must say that the key was refused, not "Resource
 * temporarily unavailable" (which a coordinator printed when its HELLO came after the refusal).
 */
#include <czmq.h>
#include <stdlib.h>
#include <string.h>

#include "lst_conn.h"
#include "lst_test.h"
#include "lst_time.h"

#define N 70

static void s_refused_then_send(void)
{
	zcert_t *server = zcert_new(), *client = zcert_new();
	zactor_t *auth = zactor_new(zauth, NULL);
	zsock_t *router = zsock_new(ZMQ_ROUTER);
	char *empty = strdup("/tmp/lst-test-conn.XXXXXX");
	struct lst_keypair kp;
	struct lst_conn_curve curve = { .own = &kp,
					.own_file = "client.key",
					.agent_pub = zcert_public_txt(server),
					.agent_src = "key text" };
	lst_conn *c;
	lst_msg *m = lst_msg_new(LST_MSG_PING);
	bool ready[1];
	char addr[64];
	int port;
	lst_err err;

	T_ASSERT(server && client && auth && router && mkdtemp(empty));
	/* An empty folder of allowed keys: every client key is refused (ZAP status 400). */
	T_EQ_INT(zstr_sendx(auth, "CURVE", empty, NULL), 0);
	T_EQ_INT(zsock_wait(auth), 0);
	zsock_set_zap_domain(router, "lockstep");
	zcert_apply(server, router);
	zsock_set_curve_server(router, 1);
	port = zsock_bind(router, "tcp://127.0.0.1:*");
	T_ASSERT(port > 0);
	snprintf(addr, sizeof(addr), "tcp://127.0.0.1:%d", port);
	snprintf(kp.pub, sizeof(kp.pub), "%s", zcert_public_txt(client));
	snprintf(kp.secret, sizeof(kp.secret), "%s", zcert_secret_txt(client));
	c = lst_conn_new(0, "a", addr, &curve, &err);
	if (!c)
		T_FAIL("%s", err.msg);
	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S;
	     !lst_conn_failure(c) && lst_mono_ns() < until;)
		T_ASSERT(lst_conn_poll(&c, 1, 100, ready) >= 0);
	if (!lst_conn_failure(c))
		T_FAIL("the refused handshake was not seen within 5 s");
	T_ASSERT(strstr(lst_conn_failure(c), "refused our CURVE key"));
	/* A send may still find the dying connection and be dropped with it; once it is gone,
	 * the send fails, and must say why. */
	err.msg[0] = 0;
	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S;
	     !lst_conn_send(c, m, true, NULL, &err) && lst_mono_ns() < until;)
		lst_sleep_ns(10 * LST_NS_PER_MS);
	if (strcmp(err.msg, lst_conn_failure(c)))
		T_FAIL("send after a refused handshake: \"%s\"", err.msg);
	lst_msg_destroy(&m);
	lst_conn_destroy(&c);
	zsock_destroy(&router);
	zactor_destroy(&auth);
	zcert_destroy(&server);
	zcert_destroy(&client);
	rmdir(empty);
	free(empty);
}

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
	s_refused_then_send();
	return 0;
}
