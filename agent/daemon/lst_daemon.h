/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon: one ROUTER socket, one czmq zloop reactor, one coordinator session at a time.
 *
 * The reactor owns everything: the ROUTER reader (commands in, replies and samples out), the
 * running point's eventfd (samples from the job threads), a PREPARE worker's and a purge
 * worker's eventfd, a signalfd (SIGINT/SIGTERM/SIGHUP) and timers (the start instant, the
 * 100 ms lease check). Nothing blocks it: disk checks and opens happen inline in PREPARE (they
 * are quick), the allocation and fill of a point's buffers (seconds for gigabytes) happen in a
 * PREPARE worker thread, runs start their own threads, purges run in a worker thread, hooks and
 * collectors (START's events, HOOK) each in a thread of their own (lst_hook.h). A point
 * whose total memory (buffers and per-job state) is over mem_max is refused before anything is
 * allocated.
 *
 * Session rules (proto/PROTOCOL.md has the wire side): HELLO opens a session for one routing id;
 * every frame from that peer renews its lease; a HELLO with the session's run id and key from a
 * new connection is a reconnect (the session, and the running point's frames, move to it);
 * any other coordinator gets ERROR BUSY while the lease holds; a silent coordinator loses its
 * session after lease_ms and its I/O is stopped.
 * Replies to the last 64 commands are cached by id, so a retried command is answered again and
 * never executed twice. SAMPLE and DONE frames stay in a spool until an ACK covers their seq.
 */
#ifndef LST_DAEMON_H
#define LST_DAEMON_H

#include <stdbool.h>
#include <stdint.h>

#include "lst_dev.h"
#include "lst_err.h"

struct lst_config_cmd;

struct lst_daemon_opts {
	const char *listen; /* endpoint to bind, e.g. tcp://0.0.0.0:7270 */
	const char *name;   /* agent name for WELCOME */
	int64_t lease_max;  /* ns, lease cap (0 = LST_CONFIG_LEASE_MAX_DEFAULT) */
	uint64_t mem_max;   /* bytes one point may ask for (0 = lst_config_mem_max_default) */
	const lst_dev_policy *policy; /* borrowed; must outlive the daemon */
	const char *log_path;	      /* reopened on SIGHUP; NULL = logging to stderr */

	/* CURVE (proto/lst_auth.h). With curve_secret the ROUTER is a CURVE server whose ZAP
	 * handler (in this reactor, bound before the ROUTER) accepts the coordinator keys found in
	 * authorized_keys, re-read at every handshake; without it the socket speaks plain text,
	 * which the caller allows only on loopback or when insecure was asked for. */
	const char *curve_secret;    /* Z85 secret key, or NULL for plain text */
	const char *curve_public;    /* its public key */
	const char *key_file;	     /* where they came from, for logs */
	const char *authorized_keys; /* absolute folder of coordinator *.pub files */

	/* what a plan may run here by name (borrowed; must outlive the daemon) */
	const struct lst_config_cmd *hooks, *collectors;
	size_t nhooks, ncollectors;
	int64_t hook_timeout; /* ns; 0 = LST_CONFIG_HOOK_TIMEOUT_DEFAULT */
	/* the folder of I/O traces; NULL = LST_CONFIG_DEFAULT_TRACE_DIR */
	const char *trace_dir;
};

typedef struct lst_daemon lst_daemon;

/*
 * Block SIGINT/SIGTERM/SIGHUP (they are read from a signalfd; threads created later inherit the
 * mask), start the ZAP handler when CURVE is on, create the ROUTER with its options (CURVE
 * server, ZAP domain, ZAP enforced so that a missing handler refuses everyone) and bind it.
 * Returns NULL with err when the endpoint cannot be bound, CURVE cannot be made fail-closed, or
 * a system call fails. Call after daemonizing (ZeroMQ does not survive fork).
 */
lst_daemon *lst_daemon_new(const struct lst_daemon_opts *o, lst_err *err);

/* Serve until SIGINT or SIGTERM, then stop any run and send its DONE. Returns 0, or -errno when
 * the reactor fails. */
int lst_daemon_run(lst_daemon *d);

/* Close the socket (a short linger only when a final DONE is queued) and free. Safe on NULL and
 * twice. A run whose jobs have not drained is abandoned to the process exit, never joined. */
void lst_daemon_destroy(lst_daemon **p);

/* The endpoint actually bound (with the port the system chose when the listen endpoint asked for any).
 * Borrowed. */
const char *lst_daemon_endpoint(const lst_daemon *d);

#endif
