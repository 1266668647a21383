/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A real lockstep-agent process and a DEALER that speaks the codec to it, as a coordinator
 * would: the set-up the C integration tests of the agent daemon share (daemon_hooks.c,
 * daemon_verify.c). One agent per test process: its folder under /tmp, its log, its endpoint on
 * a free loopback port, killed and removed at exit (the log's tail printed when the test did not
 * pass). Every failure is a T_FAIL (lst_test.h).
 */
#ifndef LST_AGENT_CLIENT_H
#define LST_AGENT_CLIENT_H

#include <czmq.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lst_msg.h"

struct lst_ac {
	char dir[PATH_MAX];	 /* the test's folder, removed at exit */
	char log[PATH_MAX + 16]; /* the agent's stderr */
	char endpoint[64];	 /* tcp://127.0.0.1:PORT */
	pid_t pid;		 /* the agent, -1 when none */
	bool passed;		 /* set by the test at its end: keeps the log's tail quiet */
};
extern struct lst_ac lst_ac;

/* A DEALER connected to the agent, with its own seq and command ids. */
struct lst_ac_peer {
	zsock_t *sock;
	void *zs;
	uint64_t seq, id, max_seq; /* max_seq: the highest seq received */
};

/* Make the folder /tmp/lst-NAME.XXXXXX, the log's name and the endpoint; cleanup at exit. */
void lst_ac_setup(const char *name);

/* Start the agent (path) with --foreground --listen ENDPOINT and args (NULL-ended), stderr to
 * the log; wait until it listens (10 s at most). Sets and returns lst_ac.pid. */
pid_t lst_ac_spawn(const char *agent, const char *const *args);

/* SIGTERM the agent and require a clean exit 0 and a log without a sanitizer's report or a
 * failed assertion; returns the log's text (the caller frees it). */
char *lst_ac_stop(void);

struct lst_ac_peer *lst_ac_peer_new(void);
void lst_ac_peer_destroy(struct lst_ac_peer **p);

/* Send m (a command gets the next id unless it has one). Returns its id. */
uint64_t lst_ac_send(struct lst_ac_peer *p, lst_msg *m, bool command);
/* The next frame, decoded, or NULL after timeout_ms. */
lst_msg *lst_ac_recv(struct lst_ac_peer *p, int timeout_ms);
/* The next frame, which must be of type (and answer re, when not 0). */
lst_msg *lst_ac_expect(struct lst_ac_peer *p, uint32_t type, uint64_t re, int timeout_ms);
/* The next frame, which must be an ERROR with code answering re. */
lst_msg *lst_ac_expect_error(struct lst_ac_peer *p, int code, uint64_t re, int timeout_ms);
/* ACK every SAMPLE/DONE up to upto (0: everything received so far). */
void lst_ac_ack(struct lst_ac_peer *p, uint64_t upto);
/* HELLO for run with capability cap (NULL: none); returns the WELCOME. */
lst_msg *lst_ac_hello(struct lst_ac_peer *p, const char *run, const char *cap);

#endif
