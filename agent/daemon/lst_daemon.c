/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent daemon object (lst_daemon.h): it makes the ROUTER (and, with CURVE, the ZAP handler
 * before it), the monitor, the signalfd and the zloop reactor, says at start-up what it serves
 * and how it is secured, turns SIGINT/SIGTERM into a drained stop and SIGHUP into a log reopen,
 * and tears everything down. The protocol itself is in the other lst_daemon_*.c files
 * (lst_daemon_int.h has the map).
 */

#include "lst_daemon.h"
#include "lst_daemon_int.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "lst_auth.h"
#include "lst_config.h"
#include "lst_hook_tree.h"
#include "lst_job.h"
#include "lst_log.h"
#include "lst_text.h"
#include "lst_util.h"

#define S_TICK_MS 100	     /* lease check period */
#define S_QUIT_GRACE_MS 3000 /* how long SIGTERM waits for jobs to drain */

static int s_on_quit_timer(zloop_t *loop, int timer_id, void *arg)
{
	lst_daemon *d = arg;

	(void)loop;
	(void)timer_id;
	if (d->pt)
		lst_log_warn("jobs of point %u/%u did not drain within %d ms; exiting anyway",
			     d->pt->phase, d->pt->point, S_QUIT_GRACE_MS);
	d->quit_now = true;
	return -1;
}

static int s_on_signal(zloop_t *loop, zmq_pollitem_t *item, void *arg)
{
	lst_daemon *d = arg;
	struct signalfd_siginfo si;

	(void)loop;
	while (read(item->fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			if (d->log_path) {
				lst_err err;

				if (lst_log_open(d->log_path, &err))
					lst_log_error("SIGHUP: cannot reopen the log: %s", err.msg);
				else
					lst_log_info("SIGHUP: log reopened");
			}
			continue;
		}
		if (d->quitting) {
			lst_log_warn("%s again: exiting now", strsignal((int)si.ssi_signo));
			d->quit_now = true;
			continue;
		}
		lst_log_info("%s: stopping", strsignal((int)si.ssi_signo));
		d->quitting = true;
		/* A shutdown does not wait for hooks: they, and all they started, end now, so a
		 * point's events finish (killed) and it drains at once. */
		if (lst_hook_tree_end_all())
			lst_log_info("stopping: ended the running hooks and what they started");
		if (d->pt && d->pt->state == LST_DAEMON__STARTED) {
			char why[128];

			snprintf(why, sizeof(why), "the agent is shutting down (%s)",
				 strsignal((int)si.ssi_signo));
			lst_daemon__point_stop(d, LST_DONE_STOPPED, why);
			d->quit_timer =
				zloop_timer(d->loop, S_QUIT_GRACE_MS, 1, s_on_quit_timer, d);
		} else {
			lst_daemon__point_destroy(d);
			d->quit_now = true;
		}
	}
	return lst_daemon__ret(d);
}

/*
 * The endpoint to give zmq_bind: ZeroMQ binds to an interface name or an IP address, never a
 * host name, so "tcp://localhost:P" would fail; it means the IPv4 loopback, 127.0.0.1 (plain
 * text stays allowed on it: it is loopback either way).
 */
static void s_bind_endpoint(const char *listen, char *buf, size_t size)
{
	static const char lh[] = "tcp://localhost:";

	if (!strncasecmp(listen, lh, sizeof(lh) - 1))
		snprintf(buf, size, "tcp://127.0.0.1:%s", listen + sizeof(lh) - 1);
	else
		lst_copy(buf, size, listen);
}

/* The settings from o: the lease and memory caps, names, and CURVE's keys when it is on.
 * Returns 0, or -EINVAL when CURVE is asked for without everything it needs. */
static int s_settings(lst_daemon *d, const struct lst_daemon_opts *o, lst_err *err)
{
	d->lease_max = o->lease_max > 0 ? o->lease_max : LST_CONFIG_LEASE_MAX_DEFAULT;
	lst_daemon__spool_bounds(&d->sess, d->lease_max);
	d->mem_max_default = !o->mem_max;
	d->mem_max = o->mem_max ? o->mem_max : lst_config_mem_max_default();
	d->policy = o->policy;
	d->name = lst_strdup(o->name);
	d->log_path = o->log_path ? lst_strdup(o->log_path) : NULL;
	d->trace_dir = lst_strdup(o->trace_dir ? o->trace_dir : LST_CONFIG_DEFAULT_TRACE_DIR);
	d->hooks = o->hooks;
	d->nhooks = o->nhooks;
	d->collectors = o->collectors;
	d->ncollectors = o->ncollectors;
	d->hook_timeout = o->hook_timeout > 0 ? o->hook_timeout : LST_CONFIG_HOOK_TIMEOUT_DEFAULT;
	d->curve = o->curve_secret != NULL;
	if (!d->curve)
		return 0;
	if (!lst_auth_is_key_text(o->curve_secret) || !o->curve_public || !o->authorized_keys ||
	    o->authorized_keys[0] != '/')
		return lst_err_set(err, -EINVAL,
				   "CURVE needs a secret key, its public key and an absolute "
				   "authorized_keys folder");
	lst_copy(d->secret, sizeof(d->secret), o->curve_secret);
	lst_copy(d->pub, sizeof(d->pub), o->curve_public);
	d->key_file = lst_strdup(o->key_file ? o->key_file : "?");
	d->auth_dir = lst_strdup(o->authorized_keys);
	return 0;
}

/* What WELCOME says about this agent: host, instance number, engines. Returns 0 or -errno. */
static int s_host(lst_daemon *d, lst_err *err)
{
	lst_err perr;

	uname(&d->uts);
	/* A coordinator tells a restarted agent by this number (PROTOCOL.md 6.2). */
	while (!d->instance) {
		if (getrandom(&d->instance, sizeof(d->instance), 0) != sizeof(d->instance))
			return lst_err_sys(err, -errno,
					   "getrandom for the agent's instance number");
	}
	d->engines = (1u << LST_ENGINE_PSYNC) | (1u << LST_ENGINE_NULL);
	if (!lst_engine_uring_probe(&perr))
		d->engines |= 1u << LST_ENGINE_IO_URING;
	else
		lst_log_warn("io_uring is not usable here (%s): runs fall back to psync", perr.msg);
	return 0;
}

/*
 * Signals: read from a signalfd in the reactor; every thread made later inherits the mask
 * (czmq's own handler is never called for a blocked signal). Returns 0 or -errno.
 */
static int s_signals(lst_daemon *d, lst_err *err)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &mask, &d->oldmask);
	signal(SIGPIPE, SIG_IGN);
	d->sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sfd < 0)
		return lst_err_sys(err, -errno, "signalfd");
	return 0;
}

/* The ROUTER with its options, CURVE (ZAP first) and monitor, bound to listen. */
static int s_router(lst_daemon *d, const char *listen_ep, lst_err *err)
{
	char *ep, listen[300];
	int rc;

	d->router = zsock_new(ZMQ_ROUTER);
	if (!d->router)
		return lst_err_set(err, -ENOMEM, "cannot create the ROUTER socket: %s",
				   zmq_strerror(zmq_errno()));
	d->zs = zsock_resolve(d->router);
	zsock_set_linger(d->router, 0);
	zsock_set_router_mandatory(d->router, 1);
	zsock_set_maxmsgsize(d->router, LST_MSG_MAX_BYTES);
	zsock_set_heartbeat_ivl(d->router, 1000);
	zsock_set_heartbeat_timeout(d->router, 5000);
	zsock_set_heartbeat_ttl(d->router, 60000);
	zsock_set_sndhwm(d->router, 100000);
	zsock_set_rcvhwm(d->router, 10000);
	if (d->curve && (rc = lst_daemon__curve_setup(d, err)))
		return rc;
	if ((rc = lst_daemon__monitor_setup(d, err)))
		return rc;
	s_bind_endpoint(listen_ep, listen, sizeof(listen));
	if (zsock_bind(d->router, "%s", listen) < 0)
		return lst_err_set(err, -EADDRINUSE, "cannot listen on %s: %s", listen_ep,
				   zmq_strerror(zmq_errno()));
	ep = zsock_last_endpoint(d->router); /* the caller's to free */
	lst_copy(d->endpoint, sizeof(d->endpoint), ep ? ep : listen_ep);
	free(ep);
	return 0;
}

/* The reactor: the ROUTER, ZAP and monitor readers, the signalfd and the lease tick. */
static void s_reactor(lst_daemon *d)
{
	d->loop = zloop_new();
	zloop_set_nonstop(d->loop, true);
	zloop_reader(d->loop, d->router, lst_daemon__on_router, d);
	zloop_reader_set_tolerant(d->loop, d->router);
	if (d->zap) {
		zloop_reader(d->loop, d->zap, lst_daemon__on_zap, d);
		zloop_reader_set_tolerant(d->loop, d->zap);
	}
	zloop_reader(d->loop, d->mon, lst_daemon__on_monitor, d);
	zloop_reader_set_tolerant(d->loop, d->mon);
	d->sig_item = (zmq_pollitem_t){ .fd = d->sfd, .events = ZMQ_POLLIN };
	zloop_poller(d->loop, &d->sig_item, s_on_signal, d);
	d->tick = zloop_timer(d->loop, S_TICK_MS, 0, lst_daemon__on_tick, d);
}

lst_daemon *lst_daemon_new(const struct lst_daemon_opts *o, lst_err *err)
{
	lst_daemon *d = lst_calloc(1, sizeof(*d));

	d->sfd = -1;
	d->tick = -1;
	d->quit_timer = -1;
	d->held.timer = -1;
	d->sess.kmsg_fd = -1;
	d->out = lst_msg_new(LST_MSG_PING);
	if (s_settings(d, o, err) || s_host(d, err) || s_signals(d, err) ||
	    s_router(d, o->listen, err)) {
		lst_daemon_destroy(&d);
		return NULL;
	}
	s_reactor(d);
	return d;
}

/* What this agent serves, and within which bounds, at start-up. */
static void s_log_settings(const lst_daemon *d)
{
	char m[32];

	lst_log_info("listening on %s as %s (lockstep %s, protocol %d, engines:%s%s%s)",
		     d->endpoint, d->name, LST_VERSION, LST_PROTO_VERSION,
		     d->engines & (1u << LST_ENGINE_IO_URING) ? " io_uring" : "",
		     d->engines & (1u << LST_ENGINE_PSYNC) ? " psync" : "",
		     d->engines & (1u << LST_ENGINE_NULL) ? " null" : "");
	lst_log_info("spool: at most %zu unacknowledged frames or %s (lease_max %.0f s "
		     "at 10 ms intervals, x1.5)",
		     d->sess.spool_max_frames, lst_fmt_size(d->sess.spool_max_bytes, m, sizeof(m)),
		     (double)d->lease_max / 1e9);
	lst_log_info("memory cap per point: %s (mem_max%s)", lst_fmt_size(d->mem_max, m, sizeof(m)),
		     d->mem_max_default ? ", the default: " LST_DAEMON__STR(
						  LST_CONFIG_MEM_MAX_PERCENT) "% of RAM"
					: "");
}

/* How connections are secured, at start-up: the agent key and the authorized coordinator keys,
 * or why plain text is allowed. */
static void s_log_security(const lst_daemon *d)
{
	lst_authkeys ak;
	char fp[16], keys[1024];
	lst_err err;

	if (d->curve) {
		lst_log_info("CURVE on: agent key '%s' (%s); ZAP domain '%s', enforced",
			     lst_auth_fingerprint(d->pub, fp, sizeof(fp)), d->key_file,
			     LST_AUTH_ZAP_DOMAIN);
		if (lst_authkeys_load(d->auth_dir, &ak, &err)) {
			lst_log_warn("%s: every coordinator is refused until it can be read",
				     err.msg);
		} else {
			for (size_t i = 0; i < ak.nwarn; i++)
				lst_log_warn("authorized_keys: %s", ak.warn[i]);
			lst_daemon__keys_str(&ak, keys, sizeof(keys));
			if (ak.n)
				lst_log_info("authorized coordinator keys in %s: %s", d->auth_dir,
					     keys);
			else
				lst_log_warn(
					"authorized_keys %s holds no key: every coordinator is "
					"refused until a .pub file is put there",
					d->auth_dir);
			lst_authkeys_clear(&ak);
		}
	} else if (!lst_auth_endpoint_is_local(d->endpoint)) {
		lst_log_warn("insecure: listening on %s in plain text, without CURVE: anyone who "
			     "can reach it can read the traffic and drive this agent within its "
			     "allow_write list; give --key and --authorized-keys "
			     "(docs/security.md)",
			     d->endpoint);
	} else {
		lst_log_info("plain text on loopback (no --key): only this host can connect");
	}
}

int lst_daemon_run(lst_daemon *d)
{
	int rc;

	s_log_settings(d);
	s_log_security(d);
	/* zloop_start returns 0 both when zmq_poll fails and when interrupted (never, here: the
	 * signals are read from the signalfd), and -1 when a handler ends it: only a handler that
	 * set quit_now means we were asked to stop. */
	rc = zloop_start(d->loop);
	if (!d->quit_now) {
		lst_log_error("reactor failed (zloop_start returned %d): %s", rc,
			      zmq_strerror(zmq_errno()));
		return -EIO;
	}
	return 0;
}

const char *lst_daemon_endpoint(const lst_daemon *d)
{
	return d->endpoint;
}

void lst_daemon_destroy(lst_daemon **p)
{
	lst_daemon *d = *p;

	if (!d)
		return;
	if (d->pt) {
		bool drained = d->pt->state != LST_DAEMON__STARTED ||
			       (d->pt->purge && !lst_purge_launched(d->pt->purge));

		if (drained) {
			lst_daemon__point_destroy(d);
		} else {
			/* Joining jobs that may sleep until t0 could take an hour: leave them to
			 * the process exit, which also closes their files. */
			lst_log_warn("exiting with point %u/%u still draining", d->pt->phase,
				     d->pt->point);
			d->pt = NULL;
		}
	}
	lst_daemon__hook_destroy(d);
	lst_daemon__kmsg_close(&d->sess);
	lst_daemon__journal_free(&d->sess);
	lst_daemon__held_drop(d);
	zloop_destroy(&d->loop);
	if (d->router) {
		/* A DONE queued during shutdown gets a short, bounded chance to leave. */
		zsock_set_linger(d->router, d->done_at_exit ? 500 : 0);
		zsock_destroy(&d->router);
	}
	zsock_destroy(&d->mon);
	zsock_destroy(&d->zap);
	explicit_bzero(d->secret, sizeof(d->secret));
	free(d->key_file);
	free(d->auth_dir);
	if (d->sfd >= 0)
		close(d->sfd);
	lst_daemon__cache_clear(&d->sess);
	lst_daemon__spool_clear(&d->sess);
	lst_msg_destroy(&d->out);
	free(d->name);
	free(d->log_path);
	free(d->trace_dir);
	free(d);
	*p = NULL;
}
