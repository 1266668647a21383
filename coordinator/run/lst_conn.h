/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One connection from the coordinator to one agent: a ZeroMQ DEALER (ZMTP heartbeats on, frames
 * capped at LST_MSG_MAX_BYTES), the envelope bookkeeping (seq, correlation ids), what the agent
 * said about itself in WELCOME, and its clock model.
 *
 * Connections do no waiting of their own: a set (lst_conn_set.h) waits on any number of them at
 * a cost that does not grow with their number, and the caller dispatches what arrives, so
 * samples from one agent are never held up behind a command to another.
 *
 * Security: a connection is CURVE (the coordinator's key pair, and the agent's public key from
 * the plan) or plain text. A failed handshake is silent on a DEALER (the messages just never
 * arrive), so every connection has a socket monitor; lst_conn_handshakes() reads it (the set
 * does when the monitor's descriptor fires) and turns a handshake failure into a message that says which key or which side is wrong
 * (lst_conn_failure): the agent refused our key (ZAP 400), plain text against CURVE either way
 * (mechanism mismatch), or the agent closed the CURVE handshake again and again, which is what
 * it does when our HELLO was sealed for another agent key.
 */
#ifndef LST_CONN_H
#define LST_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_auth.h"
#include "lst_clock.h"
#include "lst_err.h"
#include "lst_msg.h"

/*
 * The connection's state machine, kept here and changed only through the functions below:
 *
 *   NEW --lst_conn_welcome--> READY --lst_conn_lose--> LOST --lst_conn_back--> READY
 *   NEW --lst_conn_lose--> LOST (never joined: it stays out)
 *   any --lst_conn_refuse--> REFUSED (for good)
 *
 * LOST is the loss model's "lost": out of the current point and given no commands, until a
 * WELCOME on a reconnect brings it back. REFUSED is a connection that can never work (a refused
 * handshake, an unusable clock).
 */
enum lst_conn_state {
	LST_CONN_NEW,	  /* socket connecting, HELLO not answered yet */
	LST_CONN_READY,	  /* WELCOME received: takes commands */
	LST_CONN_LOST,	  /* silent too long, restarted, or gave no answer: out until it is back */
	LST_CONN_REFUSED, /* can never work: no more commands */
};

#define LST_SYNC_BURST 32
#define LST_CONN_HS_DROPS 3 /* CURVE handshakes closed without a word before we blame the key */

/* CURVE settings of one connection (lst_conn_new copies what it needs). */
struct lst_conn_curve {
	const struct lst_keypair *own; /* the coordinator's key pair */
	const char *own_file;	       /* its secret key file, for messages */
	const char *agent_pub;	       /* the agent's public key (Z85) */
	const char *agent_src;	       /* where the plan took it from: a file, or "key text" */
};

typedef struct lst_conn lst_conn;

/*
 * The connections made from now on belong to a fleet of n: their ZMTP heartbeats are spaced
 * n ms apart (1 s at least, 10 s at most; the timeout 5 intervals), because libzmq 4.3 cancels a
 * heartbeat's timeout with a walk over every timer of its I/O thread, so the fleet's heartbeats
 * cost that thread n * n steps per interval: 2,000 agents at 1 s spent a fifth of its time in
 * the walk. Liveness is the session's (PINGs, the lease); heartbeats only close a dead TCP
 * connection so that the DEALER reconnects.
 */
void lst_conn_fleet(size_t n);

/*
 * Create the DEALER, CURVE when curve is not NULL, and start connecting (no message is sent).
 * NULL with err on failure.
 */
lst_conn *lst_conn_new(size_t index, const char *name, const char *address,
		       const struct lst_conn_curve *curve, lst_err *err);
void lst_conn_destroy(lst_conn **p);

/*
 * Send m: fills seq, and id when `command` and m->id is 0 (returned through *id, may be NULL);
 * a command sent again keeps its id, so the agent answers it from its reply cache. Returns 0
 * or -errno with err. m stays the caller's.
 */
int lst_conn_send(lst_conn *c, lst_msg *m, bool command, uint64_t *id, lst_err *err);

/*
 * Receive one message without waiting. Returns 0 with *out (the caller destroys it), the raw
 * frame in *raw and *rawlen (the caller frees it; raw may be NULL to discard) and the receive
 * instant in *t_recv; -EAGAIN when nothing is waiting; -EBADMSG with err when a frame does not
 * decode, or is a SAMPLE no agent could have measured (lst_sample_check: "agent b: sample for
 * interval 41: read: 12 errors > 10 ios"; the caller logs and drops it). Every string the agent
 * sent (WELCOME name, version, host, kernel, caps; ERROR and DONE text; PREPARED warning and
 * every identity string; every string of an INVENTORY_REPLY device) is passed through
 * lst_str_sanitize before *out is returned, so the caller may print it; the raw frame is as
 * received.
 */
int lst_conn_recv(lst_conn *c, lst_msg **out, uint8_t **raw, size_t *rawlen, int64_t *t_recv,
		  lst_err *err);

/*
 * lst_conn_recv without an allocation or a copy per message, for the coordinator's receive
 * loop: the message is decoded into m (the caller's, reused from one call to the next; see
 * lst_msg_decode_into), and *raw / *rawlen lend the frame as received (raw may be NULL), valid
 * until the next receive on c or its destroy. Same returns; on an error m holds no message.
 */
int lst_conn_recv_into(lst_conn *c, lst_msg *m, const uint8_t **raw, size_t *rawlen,
		       int64_t *t_recv, lst_err *err);

/*
 * For a wait that registers descriptors once (lst_conn_set.h): the ZMQ_FD of the DEALER, or of
 * its handshake monitor when monitor is true (-1 when libzmq gives none), and whether a message
 * is waiting on the DEALER now (ZMQ_EVENTS).
 */
int lst_conn_fd(const lst_conn *c, bool monitor);
bool lst_conn_readable(lst_conn *c);

/* What a connection tells the wait that watches it (lst_conn_set.c) about its socket. */
enum lst_conn_use {
	LST_CONN_USED,	  /* a send, or a receive that took a message: ZMQ_EVENTS to be read */
	LST_CONN_EMPTIED, /* a receive found nothing: ZMQ_FD will say when more comes */
	LST_CONN_CLOSING, /* lst_conn_destroy: out of the wait before the socket closes */
};
typedef void lst_conn_use_fn(void *arg, size_t i, enum lst_conn_use use);

/*
 * From now on, every use of c's socket calls fn(arg, i, use) (fn NULL: none). For the set that
 * watches c as its number i (lst_conn_set_add, _remove); c only calls back, so the set's file
 * and this one do not need each other.
 */
void lst_conn_attach(lst_conn *c, lst_conn_use_fn *fn, void *arg, size_t i);

/*
 * Connections that have completed their handshake so far (pending monitor events are read
 * first). A count that grew since the session's last WELCOME means the DEALER reconnected
 * (the agent restarted, or a cut link came back): the session must be said HELLO to again.
 */
unsigned lst_conn_handshakes(lst_conn *c);

/*
 * Why the connection cannot work, once its handshake has failed for good: "tcp://...: refused
 * our CURVE key '...'", ... (the caller puts the agent's name in front). NULL while it has not.
 */
const char *lst_conn_failure(const lst_conn *c);

/* Begin a burst of clock exchanges (the first SYNC goes out at once). */
int lst_conn_sync_begin(lst_conn *c, lst_err *err);

/*
 * Feed a SYNC_REPLY received at t4. Sends the next exchange of the burst, or, when the burst is
 * complete, fits the clock model. Returns 1 when the burst has just completed, 0 otherwise,
 * -EIO on a send failure. The agent's clock at fault is an error too, with err saying what was
 * wrong (the caller puts the agent's name in front and refuses the agent): -EDOM when every
 * reply of the burst was unusable ("clock exchanges unusable: all 32 replies had a negative
 * round-trip delay; ..."), -ERANGE for a drift beyond LST_CLOCK_DRIFT_MAX_PPM, -ETIMEDOUT when
 * the first burst got no reply at all. A later burst with no reply keeps the model (silence
 * is for the loss timers). The model is unchanged on error.
 */
int lst_conn_sync_reply(lst_conn *c, const struct lst_msg_sync_reply *r, int64_t t4, lst_err *err);

/* True while a burst is in progress. */
bool lst_conn_syncing(const lst_conn *c);

/*
 * Give up on an exchange unanswered for 1 s (the agent was busy or a frame was lost): send the
 * next one, or close the burst with what arrived. Returns like lst_conn_sync_reply.
 */
int lst_conn_sync_tick(lst_conn *c, int64_t now, lst_err *err);

/* The agent's name in the plan, and the address connected to. Borrowed. */
const char *lst_conn_name(const lst_conn *c);
const char *lst_conn_address(const lst_conn *c);

/* What the agent said about itself in its last WELCOME (zeroed before the first). Borrowed. */
const struct lst_msg_welcome *lst_conn_info(const lst_conn *c);
/* n names of a WELCOME (its hooks or collectors) as "a, b", or "none", into buf. */
void lst_conn_names(const char names[][LST_NAME_MAX], uint32_t n, char *buf, size_t size);

/* Time since the last message received, at now (coordinator clock). */
int64_t lst_conn_silence(const lst_conn *c, int64_t now);

/* Time since the last message sent, at now (coordinator clock; since the connection was made
 * when none was). */
int64_t lst_conn_idle(const lst_conn *c, int64_t now);

/*
 * The coordinator did not listen for ns (its own stall: a frozen or descheduled process, a slow
 * disk between two waits): that time does not count as the agent's silence, so the silence
 * restarts no later than now. Thread-compatible like the rest of lst_conn.
 */
void lst_conn_excuse(lst_conn *c, int64_t ns, int64_t now);

/* The clock: true once a burst has completed; the model fitted over all bursts; the last
 * burst's estimate (offset, rtt). Borrowed. */
bool lst_conn_synced(const lst_conn *c);
const lst_clock_model *lst_conn_clock(const lst_conn *c);
const struct lst_clock_est *lst_conn_estimate(const lst_conn *c);

/* The state (enum lst_conn_state above). */
enum lst_conn_state lst_conn_state(const lst_conn *c);

/* LOST or REFUSED: out of the session. */
bool lst_conn_lost(const lst_conn *c);

/* WELCOME received once and not refused: a lost agent that had joined may come back. */
bool lst_conn_joined(const lst_conn *c);

/* A WELCOME: keep w as the agent's info; a NEW connection becomes READY. */
void lst_conn_welcome(lst_conn *c, const struct lst_msg_welcome *w);

/* Out until it is back: NEW or READY becomes LOST. False when it was out already. */
bool lst_conn_lose(lst_conn *c);

/* A LOST connection that had joined is READY again (its WELCOME on a reconnect). True when so. */
bool lst_conn_back(lst_conn *c);

/* The connection can never work: REFUSED, whatever it was. */
void lst_conn_refuse(lst_conn *c);

#endif
