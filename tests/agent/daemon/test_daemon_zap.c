/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon's CURVE gate (agent/daemon/lst_daemon_zap.c), through its private interface
 * on a daemon object built by hand: ZAP requests (RFC 27) sent over inproc get 200 and the key's
 * fingerprint as the user id for a key of the authorized_keys folder, 400 for any other key,
 * mechanism or domain, 500 for a malformed request, with the request id echoed; the folder is
 * read again at every request; the refusals a stranger can cause are logged at most ten a
 * minute. Then the whole gate on loopback TCP: lst_daemon__curve_setup makes the ROUTER a
 * CURVE server whose frames from an authorized coordinator carry its fingerprint as User-Id,
 * while an unknown key's frames never arrive.
 */
#include <czmq.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_auth.h"
#include "lst_daemon_int.h"
#include "lst_log.h"
#include "lst_scratch.h"
#include "lst_test.h"

static const char *s_dir; /* the test's folder */
static char s_auth[128];  /* its authorized_keys folder */
static struct lst_keypair s_good, s_bad;

/* A key pair written to DIR/NAME.{key,pub}; returns the .pub path (the caller frees). */
static char *s_keygen(const char *dir, const char *name, struct lst_keypair *kp)
{
	char base[256], *pub = NULL;
	lst_err err;

	snprintf(base, sizeof(base), "%s/%s", dir, name);
	if (lst_auth_keygen(base, false, kp, NULL, &pub, &err))
		T_FAIL("keygen %s: %s", base, err.msg);
	return pub;
}

static void s_setup(void)
{
	char *pub;

	s_dir = lst_scratch("zap");
	snprintf(s_auth, sizeof(s_auth), "%s/authorized_keys", s_dir);
	pub = s_keygen(s_auth, "lab", &s_good);
	free(pub);
	free(s_keygen(s_dir, "stranger", &s_bad)); /* outside authorized_keys */
}

/* The reply to one ZAP request. */
struct s_zap_rep {
	char version[8], reqid[16], status[8], text[128], user[64];
	size_t frames;
};

/* Send a ZAP request from req, let the daemon's handler answer on rep, read the reply. pub NULL
 * sends no credentials frame. */
static void s_zap(lst_daemon *d, zsock_t *req, zsock_t *rep, const char *version, const char *reqid,
		  const char *domain, const char *mech, const char *pub, struct s_zap_rep *out)
{
	zmsg_t *m = zmsg_new();
	uint8_t key[32];
	char *s;

	zmsg_addstr(m, version);
	zmsg_addstr(m, reqid);
	zmsg_addstr(m, domain);
	zmsg_addstr(m, "127.0.0.1");
	zmsg_addstr(m, "");
	zmsg_addstr(m, mech);
	if (pub) {
		T_ASSERT(zmq_z85_decode(key, pub));
		zmsg_addmem(m, key, sizeof(key));
	}
	T_EQ_INT(zmsg_send(&m, req), 0);
	T_EQ_INT(lst_daemon__on_zap(NULL, rep, d), 0);
	m = zmsg_recv(req);
	T_ASSERT(m);
	memset(out, 0, sizeof(*out));
	out->frames = zmsg_size(m);
	char *f[5] = { out->version, out->reqid, out->status, out->text, out->user };
	size_t sz[5] = { sizeof(out->version), sizeof(out->reqid), sizeof(out->status),
			 sizeof(out->text), sizeof(out->user) };
	for (int i = 0; i < 5 && (s = zmsg_popstr(m)); i++) {
		snprintf(f[i], sz[i], "%s", s);
		free(s);
	}
	zmsg_destroy(&m);
}

/* Lines of the log file holding needle. */
static int s_log_count(const char *log, const char *needle)
{
	char line[2048];
	int n = 0;
	FILE *f = fopen(log, "r");

	T_ASSERT(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

static void test_decisions(void)
{
	lst_daemon d;
	zsock_t *rep = zsock_new_rep("@inproc://test-zap");
	zsock_t *req = zsock_new_req(">inproc://test-zap");
	struct s_zap_rep r;
	char fp[16], log[128], moved[160], lab[160];
	lst_err err;

	T_ASSERT(rep && req);
	memset(&d, 0, sizeof(d));
	d.auth_dir = s_auth;
	snprintf(log, sizeof(log), "%s/agent.log", s_dir);
	T_EQ_INT(lst_log_open(log, &err), 0);

	s_zap(&d, req, rep, "1.0", "r1", LST_AUTH_ZAP_DOMAIN, "CURVE", s_good.pub, &r);
	T_EQ_INT(r.frames, 6);
	T_EQ_STR(r.version, "1.0");
	T_EQ_STR(r.reqid, "r1");
	T_EQ_STR(r.status, "200");
	T_EQ_STR(r.text, "OK");
	T_EQ_STR(r.user, lst_auth_fingerprint(s_good.pub, fp, sizeof(fp)));

	s_zap(&d, req, rep, "1.0", "r2", LST_AUTH_ZAP_DOMAIN, "CURVE", s_bad.pub, &r);
	T_EQ_STR(r.reqid, "r2");
	T_EQ_STR(r.status, "400");
	T_EQ_STR(r.text, "coordinator key not authorized");
	T_EQ_STR(r.user, "");

	s_zap(&d, req, rep, "1.0", "r3", "elsewhere", "CURVE", s_good.pub, &r);
	T_EQ_STR(r.status, "400");
	s_zap(&d, req, rep, "1.0", "r4", LST_AUTH_ZAP_DOMAIN, "PLAIN", NULL, &r);
	T_EQ_STR(r.status, "400");
	s_zap(&d, req, rep, "1.0", "r5", LST_AUTH_ZAP_DOMAIN, "CURVE", NULL, &r);
	T_EQ_STR(r.status, "400");
	s_zap(&d, req, rep, "2.0", "r6", LST_AUTH_ZAP_DOMAIN, "CURVE", s_good.pub, &r);
	T_EQ_STR(r.status, "500");
	T_EQ_STR(r.text, "malformed ZAP request");
	T_EQ_STR(r.reqid, "r6");

	/* The folder is read at every request: a .pub taken out refuses its key at once, one
	 * put in accepts it. */
	snprintf(moved, sizeof(moved), "%s/lab.pub.away", s_dir);
	snprintf(lab, sizeof(lab), "%s/lab.pub", s_auth);
	T_EQ_INT(rename(lab, moved), 0);
	s_zap(&d, req, rep, "1.0", "r7", LST_AUTH_ZAP_DOMAIN, "CURVE", s_good.pub, &r);
	T_EQ_STR(r.status, "400");
	T_EQ_INT(rename(moved, lab), 0);
	s_zap(&d, req, rep, "1.0", "r8", LST_AUTH_ZAP_DOMAIN, "CURVE", s_good.pub, &r);
	T_EQ_STR(r.status, "200");

	/* A stranger knocking again and again: ten refusals of the kind are logged a minute. */
	for (int i = 0; i < 15; i++)
		s_zap(&d, req, rep, "1.0", "rx", LST_AUTH_ZAP_DOMAIN, "CURVE", s_bad.pub, &r);
	lst_log_close();
	T_EQ_INT(s_log_count(log, "refused coordinator key '") +
			 s_log_count(log, "refused a connection from"),
		 10);
	T_EQ_INT(s_log_count(log, "accepted coordinator key '"), 2);
	T_EQ_INT(s_log_count(log, "malformed request (version '2.0')"), 1);
	/* refused: 15 now, 5 before (a key, a domain, PLAIN, no key, the key taken out) */
	T_EQ_INT(d.limits[LST_DAEMON__HS_REFUSED].suppressed, 15 + 5 - 10);
	zsock_destroy(&req);
	zsock_destroy(&rep);
}

/* The ROUTER's next frame within ms, with its User-Id in uid ("" without one); false if none. */
static bool s_router_recv(lst_daemon *d, int ms, char *uid, size_t size)
{
	zpoller_t *p = zpoller_new(d->zap, d->router, NULL);
	int64_t end = zclock_mono() + ms;
	bool got = false;

	while (!got && zclock_mono() < end) {
		void *which = zpoller_wait(p, 20);

		if (which == d->zap) {
			T_EQ_INT(lst_daemon__on_zap(NULL, d->zap, d), 0);
		} else if (which == d->router) {
			zmq_msg_t id, body;
			const char *u;

			zmq_msg_init(&id);
			zmq_msg_init(&body);
			T_ASSERT(zmq_msg_recv(&id, d->zs, 0) >= 0);
			T_ASSERT(zmq_msg_recv(&body, d->zs, 0) >= 0);
			u = zmq_msg_gets(&body, "User-Id");
			snprintf(uid, size, "%s", u ? u : "");
			zmq_msg_close(&id);
			zmq_msg_close(&body);
			got = true;
		}
	}
	zpoller_destroy(&p);
	return got;
}

/* A coordinator client with key kp, to the agent key pub at endpoint, saying "hi". */
static zsock_t *s_client(const struct lst_keypair *kp, const char *pub, const char *endpoint)
{
	zsock_t *c = zsock_new(ZMQ_DEALER);

	T_ASSERT(c);
	zsock_set_curve_serverkey(c, pub);
	zsock_set_curve_publickey(c, kp->pub);
	zsock_set_curve_secretkey(c, kp->secret);
	T_EQ_INT(zsock_connect(c, "%s", endpoint), 0);
	T_EQ_INT(zstr_send(c, "hi"), 0);
	return c;
}

static void test_curve_gate(void)
{
	lst_daemon d;
	struct lst_keypair agent;
	zsock_t *good, *bad;
	char uid[64], fp[16];
	const char *endpoint;
	lst_err err;

	if (!zsys_has_curve()) {
		printf("skip: libzmq without CURVE\n");
		return;
	}
	memset(&d, 0, sizeof(d));
	free(s_keygen(s_dir, "agent", &agent));
	snprintf(d.secret, sizeof(d.secret), "%s", agent.secret);
	snprintf(d.pub, sizeof(d.pub), "%s", agent.pub);
	d.auth_dir = s_auth;
	d.curve = true;
	d.router = zsock_new(ZMQ_ROUTER);
	T_ASSERT(d.router);
	d.zs = zsock_resolve(d.router);
	if (lst_daemon__curve_setup(&d, &err))
		T_FAIL("curve_setup: %s", err.msg);
	T_ASSERT(zsock_bind(d.router, "tcp://127.0.0.1:*") > 0);
	endpoint = zsock_endpoint(d.router);

	good = s_client(&s_good, agent.pub, endpoint);
	T_ASSERT(s_router_recv(&d, 5000, uid, sizeof(uid)));
	T_EQ_STR(uid, lst_auth_fingerprint(s_good.pub, fp, sizeof(fp)));

	bad = s_client(&s_bad, agent.pub, endpoint);
	T_ASSERT(!s_router_recv(&d, 500, uid, sizeof(uid)));
	zsock_destroy(&bad);
	zsock_destroy(&good);
	zsock_destroy(&d.zap);
	zsock_destroy(&d.router);
}

int main(void)
{
	lst_log_set_ident("test_daemon_zap");
	s_setup();
	test_decisions();
	test_curve_gate();
	printf("ok: daemon zap\n");
	return 0;
}
