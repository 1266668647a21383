/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test rig for the agent daemon's reactor files: a daemon object built by hand around a real
 * ROUTER socket on a private inproc endpoint, with two coordinators (DEALERs) whose routing
 * ids the ROUTER has already learnt. Only what the send and session paths read is set; the
 * rest stays zero, so a test sets what its case needs. Nothing touches the network or a disk.
 */
#ifndef LST_DAEMON_RIG_H
#define LST_DAEMON_RIG_H

#include <czmq.h>

#include "lst_daemon_int.h"

#define LST_RIG_PEERS 2

struct lst_rig {
	lst_daemon d;
	zsock_t *router;
	zsock_t *peer[LST_RIG_PEERS];		   /* the coordinators' sockets */
	struct lst_daemon__rid rid[LST_RIG_PEERS]; /* ... and their routing ids at the ROUTER */
};

/* Set up r (fails the test when a socket cannot be made): d.zs is the ROUTER, d.out a message,
 * d.name "agent-t", d.lease_max 60 s and the spool's bound from it, no timer held, no kernel log
 * mark. */
void lst_rig_init(struct lst_rig *r);

/* Free what the rig and the session hold. */
void lst_rig_exit(struct lst_rig *r);

/* The next frame coordinator i got within 2 s, decoded; it must be of type want (else the test
 * fails). The caller destroys it. */
lst_msg *lst_rig_got(struct lst_rig *r, int i, enum lst_msg_type want);

/* The next frame coordinator i got is ERROR code with a text containing want (else the test
 * fails); returns the command it answers (its re). */
uint64_t lst_rig_got_error(struct lst_rig *r, int i, int code, const char *want);

/* Coordinator i has nothing more waiting (checked for 50 ms). */
void lst_rig_got_nothing(struct lst_rig *r, int i);

#endif
