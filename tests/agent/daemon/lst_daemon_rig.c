/* SPDX-License-Identifier: Apache-2.0 */
/* The agent daemon's test rig (lst_daemon_rig.h). */
#include "lst_daemon_rig.h"

#include <stdio.h>
#include <string.h>

#include "lst_test.h"
#include "lst_time.h"

/* Each rig binds its own endpoint: libzmq releases a closed socket's inproc name in the
 * background, so the next rig could find it still taken. */
static int s_rigs;
static char s_name[] = "agent-t";

void lst_rig_init(struct lst_rig *r)
{
	char ep[64], buf[8];
	int n;

	memset(r, 0, sizeof(*r));
	snprintf(ep, sizeof(ep), "inproc://lst-daemon-rig-%d", s_rigs++);
	r->router = zsock_new_router(ep);
	T_ASSERT(r->router);
	r->d.zs = zsock_resolve(r->router);
	for (int i = 0; i < LST_RIG_PEERS; i++) {
		r->peer[i] = zsock_new_dealer(ep);
		T_ASSERT(r->peer[i]);
		T_EQ_INT(zstr_send(r->peer[i], "hi"), 0);
		n = zmq_recv(r->d.zs, r->rid[i].b, sizeof(r->rid[i].b), 0);
		T_ASSERT(n > 0);
		r->rid[i].len = (size_t)n;
		T_EQ_INT(zmq_recv(r->d.zs, buf, sizeof(buf), 0), 2);
	}
	r->d.out = lst_msg_new(LST_MSG_PONG);
	r->d.name = s_name;
	r->d.lease_max = 60 * LST_NS_PER_S;
	r->d.held.timer = -1;
	r->d.sess.kmsg_fd = -1;
	lst_daemon__spool_bounds(&r->d.sess, r->d.lease_max); /* as lst_daemon_new does */
	T_EQ_INT(uname(&r->d.uts), 0);
}

void lst_rig_exit(struct lst_rig *r)
{
	lst_daemon__cache_clear(&r->d.sess);
	lst_daemon__spool_clear(&r->d.sess);
	lst_daemon__journal_free(&r->d.sess);
	lst_msg_destroy(&r->d.out);
	for (int i = 0; i < LST_RIG_PEERS; i++)
		zsock_destroy(&r->peer[i]);
	zsock_destroy(&r->router);
}

lst_msg *lst_rig_got(struct lst_rig *r, int i, enum lst_msg_type want)
{
	zframe_t *f;
	lst_msg *m = NULL;
	lst_err err;

	zsock_set_rcvtimeo(r->peer[i], 2000);
	f = zframe_recv(r->peer[i]);
	if (!f)
		T_FAIL("coordinator %d got nothing, %s expected", i, lst_msg_type_name(want));
	if (lst_msg_decode(zframe_data(f), zframe_size(f), &m, &err))
		T_FAIL("coordinator %d got a frame that does not decode: %s", i, err.msg);
	zframe_destroy(&f);
	T_EQ_STR(lst_msg_type_name(m->type), lst_msg_type_name(want));
	return m;
}

uint64_t lst_rig_got_error(struct lst_rig *r, int i, int code, const char *want)
{
	lst_msg *m = lst_rig_got(r, i, LST_MSG_ERROR);
	uint64_t re = m->re;

	T_EQ_INT(m->u.error.code, code);
	T_CONTAINS(m->u.error.text, want);
	lst_msg_destroy(&m);
	return re;
}

void lst_rig_got_nothing(struct lst_rig *r, int i)
{
	zframe_t *f;

	zsock_set_rcvtimeo(r->peer[i], 50);
	f = zframe_recv(r->peer[i]);
	if (f)
		T_FAIL("coordinator %d got an unexpected frame of %zu bytes", i, zframe_size(f));
}
