/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Agent connections, waited on as the coordinator waits (lst_conn_set). A ROUTER on loopback
 * stands in for the agents and echoes one frame to each of 70 connections; every one must be
 * seen ready (a wait once looked at the first 64 only, so agent 65 and on went "silent" and were
 * lost).
 *
 * Then a CURVE ROUTER whose ZAP handler refuses every key: once the handshake has failed, the
 * DEALER has no connection left, and a send must say that the key was refused, not "Resource
 * temporarily unavailable" (which a coordinator printed when its HELLO came after the refusal).
 *
 * Then what an agent sends is input: a ROUTER playing a hostile agent sends a WELCOME whose host
 * holds an escape sequence, an ERROR and DONE text with forged lines, a PREPARED identity with
 * C1 controls, and SAMPLEs no agent could have measured. lst_conn_recv must hand back printable
 * strings and refuse the samples with -EBADMSG naming the interval and what was wrong.
 */
#include <czmq.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_conn.h"
#include "lst_conn_set.h"
#include "lst_test.h"
#include "lst_time.h"

#define N 70

/* One wait of the coordinator's set over c alone, up to ms: reads c's handshake monitor too. */
static int s_wait1(lst_conn *c, int ms)
{
	lst_conn_set *s;
	const size_t *ready;
	lst_err err;
	int rc;

	s = lst_conn_set_new(1, &err);
	if (!s)
		T_FAIL("%s", err.msg);
	T_EQ_INT(lst_conn_set_add(s, 0, c, &err), 0);
	rc = lst_conn_set_wait(s, NULL, 0, ms, &ready);
	lst_conn_set_destroy(&s);
	return rc;
}

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
		T_ASSERT(s_wait1(c, 100) >= 0);
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

/* The ROUTER sends m to the peer whose routing id is id. */
static void s_send_as_agent(zsock_t *router, zframe_t *id, lst_msg *m)
{
	uint8_t *buf;
	size_t len;
	zmsg_t *out = zmsg_new();
	lst_err err;

	T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), 0);
	zmsg_append(out, &(zframe_t *){ zframe_dup(id) });
	zmsg_addmem(out, buf, len);
	T_EQ_INT(zmsg_send(&out, router), 0);
	free(buf);
	lst_msg_destroy(&m);
}

/* Receive the next message on c within 5 s; returns lst_conn_recv's code. */
static int s_recv(lst_conn *c, lst_msg **m, lst_err *err)
{
	int64_t t;

	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S; lst_mono_ns() < until;) {
		int rc = lst_conn_recv(c, m, NULL, NULL, &t, err);

		if (rc != -EAGAIN)
			return rc;
		T_ASSERT(s_wait1(c, 100) >= 0);
	}
	T_FAIL("nothing received within 5 s");
	return -ETIMEDOUT;
}

/* A plausible sample: 10 reads of 4 KiB, one of them failed. */
static lst_msg *s_sample(int64_t k)
{
	lst_msg *m = lst_msg_new(LST_MSG_SAMPLE);
	lst_sample *s = &m->u.sample.s;

	lst_sample_init(s, k);
	s->start_ns = 1000;
	s->end_ns = 2000;
	s->dir[LST_DIR_READ].ios = 10;
	s->dir[LST_DIR_READ].errors = 1;
	s->dir[LST_DIR_READ].bytes = 9 * 4096;
	lst_hist_record_n(&s->dir[LST_DIR_READ].lat, 50000, 10);
	return m;
}

static void s_hostile_agent(void)
{
	zsock_t *router = zsock_new(ZMQ_ROUTER);
	zframe_t *id;
	zmsg_t *in;
	lst_conn *c;
	lst_msg *m = lst_msg_new(LST_MSG_PING);
	char addr[64];
	int port;
	lst_err err;

	T_ASSERT(router);
	port = zsock_bind(router, "tcp://127.0.0.1:*");
	T_ASSERT(port > 0);
	snprintf(addr, sizeof(addr), "tcp://127.0.0.1:%d", port);
	c = lst_conn_new(0, "evil", addr, NULL, &err);
	if (!c)
		T_FAIL("%s", err.msg);
	T_EQ_INT(lst_conn_send(c, m, false, NULL, &err), 0);
	lst_msg_destroy(&m);
	in = zmsg_recv(router);
	T_ASSERT(in);
	id = zmsg_pop(in);
	zmsg_destroy(&in);

	/* WELCOME: an escape sequence that clears the screen, a forged line, a C1 CSI */
	m = lst_msg_new(LST_MSG_WELCOME);
	m->u.welcome.proto = LST_PROTO_VERSION;
	snprintf(m->u.welcome.name, sizeof(m->u.welcome.name), "evil");
	snprintf(m->u.welcome.host, sizeof(m->u.welcome.host), "h\x1b[2J\x1b]0;pwned\x07x");
	snprintf(m->u.welcome.version, sizeof(m->u.welcome.version), "0.1\nlockstep: all good");
	snprintf(m->u.welcome.kernel, sizeof(m->u.welcome.kernel),
		 "6.1\xc2\x9b"
		 "31m");
	s_send_as_agent(router, id, m);
	T_EQ_INT(s_recv(c, &m, &err), 0);
	T_EQ_INT(m->type, LST_MSG_WELCOME);
	T_EQ_STR(m->u.welcome.host, "h?[2J?]0;pwned?x");
	T_EQ_STR(m->u.welcome.version, "0.1?lockstep: all good");
	T_EQ_STR(m->u.welcome.kernel, "6.1?31m");
	T_EQ_STR(m->u.welcome.name, "evil");
	lst_msg_destroy(&m);

	/* ERROR, DONE, PREPARED */
	m = lst_msg_new(LST_MSG_ERROR);
	snprintf(m->u.error.text, sizeof(m->u.error.text), "no\r\x1b[Kok");
	s_send_as_agent(router, id, m);
	T_EQ_INT(s_recv(c, &m, &err), 0);
	T_EQ_STR(m->u.error.text, "no??[Kok");
	lst_msg_destroy(&m);
	m = lst_msg_new(LST_MSG_DONE);
	m->u.done.last_interval = -1;
	snprintf(m->u.done.text, sizeof(m->u.done.text), "done\x1b[1A");
	s_send_as_agent(router, id, m);
	T_EQ_INT(s_recv(c, &m, &err), 0);
	T_EQ_STR(m->u.done.text, "done?[1A");
	lst_msg_destroy(&m);
	m = lst_msg_new(LST_MSG_PREPARED);
	m->u.prepared.npaths = 1;
	snprintf(m->u.prepared.warning, sizeof(m->u.prepared.warning), "w\x07");
	snprintf(m->u.prepared.paths[0].target, sizeof(m->u.prepared.paths[0].target), "t");
	snprintf(m->u.prepared.paths[0].path, sizeof(m->u.prepared.paths[0].path), "/dev/x");
	snprintf(m->u.prepared.paths[0].kind, sizeof(m->u.prepared.paths[0].kind), "block");
	snprintf(m->u.prepared.paths[0].model, sizeof(m->u.prepared.paths[0].model), "SSD\x1b[31m");
	snprintf(m->u.prepared.paths[0].serial, sizeof(m->u.prepared.paths[0].serial),
		 "S\xc2\x85N");
	snprintf(m->u.prepared.paths[0].real_path, sizeof(m->u.prepared.paths[0].real_path),
		 "/dev/\x1b");
	m->u.prepared.paths[0].size = 1 << 20;
	s_send_as_agent(router, id, m);
	T_EQ_INT(s_recv(c, &m, &err), 0);
	T_EQ_STR(m->u.prepared.warning, "w?");
	T_EQ_STR(m->u.prepared.paths[0].model, "SSD?[31m");
	T_EQ_STR(m->u.prepared.paths[0].serial, "S?N");
	T_EQ_STR(m->u.prepared.paths[0].real_path, "/dev/?");
	T_EQ_STR(m->u.prepared.paths[0].path, "/dev/x");
	lst_msg_destroy(&m);

	/* SAMPLE: a plausible one passes; each impossible one is refused, naming the interval */
	s_send_as_agent(router, id, s_sample(3));
	T_EQ_INT(s_recv(c, &m, &err), 0);
	T_EQ_INT(m->u.sample.s.dir[LST_DIR_READ].ios, 10);
	lst_msg_destroy(&m);
	{
		static const struct {
			int what;
			const char *msg;
		} bad[] = {
			{ 0,
			  "agent evil: sample for interval 41: read: 9223372036854775808 ios, more "
			  "than 2^40 in one interval" },
			{ 1, "agent evil: sample for interval 41: read: 11 errors > 10 ios" },
			{ 2, "agent evil: sample for interval 41: read: 150994945 bytes from 9 ios "
			     "without error, more than 16777216 bytes each" },
			{ 3,
			  "agent evil: sample for interval 41: ends at 999 ns, before its start at "
			  "1000 ns" },
			{ 4,
			  "agent evil: sample for interval 41: read: the latency histogram holds 9 "
			  "values for 10 ios" },
			{ 5, "agent evil: sample for interval -2: negative interval -2" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			lst_msg *b = s_sample(41);
			struct lst_dir_stats *r = &b->u.sample.s.dir[LST_DIR_READ];

			switch (bad[i].what) {
			case 0:
				r->ios = 1ull << 63;
				r->lat.count = r->ios; /* consistent otherwise */
				r->lat.buckets[lst_hist_index(50000)] = r->ios;
				break;
			case 1:
				r->errors = 11;
				break;
			case 2:
				r->bytes = 9ull * 16777216 + 1; /* 16 MiB + 1 byte each */
				break;
			case 3:
				b->u.sample.s.end_ns = 999;
				break;
			case 4:
				lst_hist_init(&r->lat);
				lst_hist_record_n(&r->lat, 50000, 9);
				break;
			case 5:
				b->u.sample.s.interval = -2;
				break;
			}
			s_send_as_agent(router, id, b);
			m = NULL;
			T_EQ_INT(s_recv(c, &m, &err), -EBADMSG);
			T_ASSERT(m == NULL);
			T_EQ_STR(err.msg, bad[i].msg);
		}
	}
	/* and the connection goes on */
	s_send_as_agent(router, id, s_sample(42));
	T_EQ_INT(s_recv(c, &m, &err), 0);
	T_EQ_INT(m->u.sample.s.interval, 42);
	lst_msg_destroy(&m);

	zframe_destroy(&id);
	lst_conn_destroy(&c);
	zsock_destroy(&router);
}

/*
 * The state machine has one home: NEW -> READY on a WELCOME, READY -> LOST, LOST -> READY when
 * it is back, anything -> REFUSED for good; lost before joining, it stays out.
 */
static void s_states(void)
{
	struct lst_msg_welcome w = { .cores = 4 };
	lst_conn *c, *d;
	lst_err err;

	c = lst_conn_new(0, "s", "tcp://127.0.0.1:9", NULL, &err);
	d = lst_conn_new(1, "t", "tcp://127.0.0.1:9", NULL, &err);
	T_ASSERT(c && d);
	T_EQ_STR(lst_conn_name(c), "s");
	T_EQ_STR(lst_conn_address(c), "tcp://127.0.0.1:9");
	T_EQ_INT(lst_conn_state(c), LST_CONN_NEW);
	T_ASSERT(!lst_conn_joined(c) && !lst_conn_lost(c) && !lst_conn_synced(c));
	lst_conn_welcome(c, &w);
	T_EQ_INT(lst_conn_state(c), LST_CONN_READY);
	T_EQ_INT(lst_conn_info(c)->cores, 4);
	T_ASSERT(lst_conn_joined(c) && !lst_conn_back(c));
	T_ASSERT(lst_conn_lose(c) && !lst_conn_lose(c));
	T_EQ_INT(lst_conn_state(c), LST_CONN_LOST);
	T_ASSERT(lst_conn_lost(c) && lst_conn_joined(c));
	T_ASSERT(lst_conn_back(c));
	T_EQ_INT(lst_conn_state(c), LST_CONN_READY);
	lst_conn_refuse(c);
	T_ASSERT(lst_conn_lost(c) && !lst_conn_joined(c) && !lst_conn_back(c) && !lst_conn_lose(c));
	T_ASSERT(lst_conn_lose(d) && !lst_conn_back(d) && !lst_conn_joined(d));
	lst_conn_destroy(&c);
	lst_conn_destroy(&d);
	lst_conn_destroy(&d); /* safe twice */
}

int main(void)
{
	zsock_t *router = zsock_new(ZMQ_ROUTER);
	lst_conn *conns[N];
	bool seen[N] = { false };
	const size_t *ready;
	lst_conn_set *set;
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
	set = lst_conn_set_new(N, &err);
	if (!set)
		T_FAIL("%s", err.msg);
	for (size_t i = 0; i < N; i++)
		T_EQ_INT(lst_conn_set_add(set, i, conns[i], &err), 0);
	for (int64_t until = lst_mono_ns() + 5 * LST_NS_PER_S;
	     nseen < N && lst_mono_ns() < until;) {
		int rc = lst_conn_set_wait(set, NULL, 0, 100, &ready);

		T_ASSERT(rc >= 0);
		for (int k = 0; k < rc; k++) {
			size_t i = ready[k];
			lst_msg *m = NULL;
			int64_t t;

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
	lst_conn_set_destroy(&set);
	for (size_t i = 0; i < N; i++)
		lst_conn_destroy(&conns[i]);
	zsock_destroy(&router);
	s_refused_then_send();
	s_hostile_agent();
	s_states();
	return 0;
}
