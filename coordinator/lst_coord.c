/*
 * The coordinator's run loop. See lst_coord.h for the shape; the pieces here are:
 *
 *   s_pump()        wait on every agent at once and dispatch what arrives; also sends PINGs,
 *                   ends abandoned clock exchanges and declares silent agents lost
 *   s_dispatch()    one message from one agent: replies to commands, SAMPLE, DONE, ...
 *   s_connect()     HELLO -> WELCOME, a clock burst, IDENTIFY every path
 *   s_run_point()   PREPARE, start instant, START, merge until DONE
 *
 * Time: every instant the coordinator picks or records is on its own CLOCK_MONOTONIC. Start
 * instants are converted to each agent's clock with that agent's model (lst_clock.h); agents'
 * sample timestamps are converted back for the per-agent rows and the start skew.
 */
#include "lst_coord.h"

#include <czmq.h>
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_auth.h"
#include "lst_conn.h"
#include "lst_log.h"
#include "lst_merge.h"
#include "lst_plot.h"
#include "lst_msg.h"
#include "lst_results.h"
#include "lst_suite.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_SYNC_EVERY (10 * LST_NS_PER_S) /* a clock burst at most this often */
#define S_PING_EVERY LST_NS_PER_S
#define S_REPLY_TIMEOUT (30 * LST_NS_PER_S)
#define S_STOP_TIMEOUT (15 * LST_NS_PER_S)

static volatile sig_atomic_t s_interrupted;

/*
 * One agent: its connection, its session, and what it does in the current point.
 *
 * Silence is not loss: an agent silent for unreach_after is *unreachable* (it goes on measuring
 * and spooling; the DEALER reconnects and the session is resumed with a new HELLO, after which
 * the agent sends its spool again). Only silence longer than the lease, or a restart, makes it
 * *lost*: out of the current point, sent STOP and BYE, and given no commands until it comes
 * back (a WELCOME on a reconnect), when it may serve the next point or the point's retry.
 */
struct s_agent {
	lst_conn *conn;
	bool lost;	  /* out until it comes back */
	bool unreachable; /* silent, not lost yet */
	bool ever_lost;	  /* for run.json */
	char lost_why[1024];
	bool refused; /* answered a command with ERROR */
	lst_err error;

	/* the session: reconnects and restarts */
	uint64_t instance;    /* WELCOME's: another one means a new agent process */
	unsigned welcomed_on; /* lst_conn_handshakes() at the last WELCOME */
	unsigned hello_on;    /* ... when the last reconnect HELLO went out */
	uint64_t hello_id;    /* that HELLO, 0 when none is awaited */
	int64_t hello_at;     /* when it went out */
	uint64_t seen_seq;    /* last SAMPLE/DONE seq taken: a re-sent spool repeats older ones */

	/* command bookkeeping: the id awaited and whether the reply came */
	uint64_t await_id;
	bool replied;
	lst_msg *reply; /* the last reply to a command, owned */
	lst_msg *cmd;	/* the command awaited, owned: sent again after a reconnect */

	/* current point */
	bool in_point;
	bool point_lost;  /* lost during it: nothing of it is merged after the loss */
	bool judged;	  /* that loss went through s_loss_policy */
	uint64_t min_seq; /* SAMPLE/DONE seq below this belong to an earlier point or attempt */
	uint64_t dropped; /* samples of it not merged (late, or after the loss) */
	bool started, done;
	uint64_t start_id; /* the START command's id: an ERROR to it means no DONE will come */
	int64_t t0_agent;
	int64_t actual; /* STARTED.actual, agent clock */
	struct lst_msg_done done_msg;
	uint64_t samples;
	bool late_warned;
	uint64_t merged_late; /* samples for intervals already merged */
	bool bad_warned;      /* a sample for an interval that cannot exist was reported */
	json_t *jobs;	      /* what each of its paths runs in this point */
};

struct s_target {
	uint64_t size;		       /* smallest size over the target's paths */
	struct lst_path_identity *ids; /* [npaths] */
};

struct s_point {
	size_t phase, point;
	const char *phase_name;
	char label[256];
	int64_t T0;
	int64_t interval;
	int64_t nramp;
	int64_t duration; /* expected, ns, 0 when not known */
	lst_merge *merge;
	int64_t last_progress;
};

struct lst_coord {
	const lst_plan *plan;
	struct lst_coord_opts opts;
	char run_id[LST_RUN_ID_MAX];
	char host[LST_NAME_MAX];
	size_t n;
	struct s_agent *a;
	lst_conn **conns;
	bool *ready;
	struct s_target *targets;
	lst_results *res;
	char *outdir;
	json_t *run;	/* run.json */
	json_t *phases; /* its "phases" array (borrowed from run) */
	json_t *errors; /* its "errors" array (borrowed from run) */
	int64_t run_t0; /* coordinator clock at the first start instant */
	int64_t last_sync;
	int64_t last_ping;
	int64_t unreach_after; /* silence that makes an agent unreachable */
	int64_t lost_after;    /* ... and lost: the lease (it has stopped its I/O), and a margin */
	struct s_point cur;
	bool in_point;
	bool running; /* the phases have begun: a loss is for on_agent_loss to judge */
	bool failed;
	bool partial; /* a point finished without a lost agent (on_agent_loss: continue) */
	const struct lst_plan_phase *wait_phase; /* s_wait_back's */
	json_t *retries;			 /* run.json "retries" (borrowed from run) */
	bool results_failed; /* a write into the results folder failed (reported once) */
	bool tty;
	int64_t docs_next; /* run.json and summary.json are not rewritten before (rate limit) */
	json_t *pending;   /* the journal entry of the point just run, until its suite saw it */
	json_t *journal;   /* resume: points.jsonl's points (what s_replay needs); NULL if fresh */
	size_t points_run; /* points recorded, journaled or not (those of before a resume too) */
	bool *phase_done;  /* resume: [nphases] the journal has the phase's end */
	struct lst_keypair own; /* our CURVE key pair, when an agent has a key */
	char *own_file;
};

void lst_coord_interrupt(void)
{
	s_interrupted = 1;
}

static void s_on_signal(int sig)
{
	(void)sig;
	if (s_interrupted)
		_exit(LST_RUN_INTERRUPTED); /* a second Ctrl-C: leave at once */
	lst_coord_interrupt();
}

void lst_coord_handle_signals(void)
{
	struct sigaction sa;

	zsys_handler_set(NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = s_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* --- errors and run.json --------------------------------------------------------------- */

static void s_error(lst_coord *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void s_error(lst_coord *c, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->tty && !c->opts.quiet)
		fputc('\n', c->opts.progress);
	lst_log_error("%s", msg);
	if (c->errors)
		json_array_append_new(c->errors, json_string(msg));
	c->failed = true;
}

static json_t *s_identity_json(const struct lst_path_identity *id)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:i, s:i, s:I, "
			 "s:I}",
			 "target", id->target, "path", id->path, "real_path", id->real_path, "kind",
			 id->kind, "wwn", id->wwn, "serial", id->serial, "model", id->model,
			 "vendor", id->vendor, "firmware", id->firmware, "backing_file",
			 id->backing_file, "size", (json_int_t)id->size, "logical_block_size",
			 (int)id->lbs, "physical_block_size", (int)id->pbs, "dev",
			 (json_int_t)id->dev, "ino", (json_int_t)id->ino);
}

/* Write run.json; final: the run's last, which must get written even on a full disk. */
static void s_save_run(lst_coord *c, bool final)
{
	lst_err err;
	json_t *agents;

	if (!c->res)
		return;
	agents = json_object_get(c->run, "agents");
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];
		lst_conn *cn = a->conn;
		json_t *o = json_array_get(agents, i);

		json_object_set_new(o, "clock_offset_us",
				    cn->synced ? json_real((double)lst_clock_model_offset(
								   &cn->clock, lst_mono_ns()) /
							   1e3)
					       : json_null());
		json_object_set_new(o, "rtt_us",
				    cn->synced ? json_real((double)cn->est.rtt_ns / 1e3)
					       : json_null());
		json_object_set_new(o, "drift_ppm",
				    cn->synced ? json_real(cn->clock.slope * 1e6) : json_null());
		json_object_set_new(o, "lost", json_boolean(a->ever_lost));
		if (a->ever_lost)
			json_object_set_new(o, "lost_why", json_string(a->lost_why));
	}
	if (lst_results_write_run(c->res, c->run, final, &err) && !c->results_failed)
		lst_log_warn("%s", err.msg);
}

/*
 * Rewrite run.json and summary.json, unless force is false and the last rewrite was recent:
 * both grow with the run, so they are rewritten only once 10 times the last rewrite's duration
 * has passed, which keeps their cost under a tenth of the run's time whatever its length.
 * points.jsonl (s_journal) is what is always current.
 */
static void s_save_docs(lst_coord *c, bool force)
{
	int64_t t = lst_mono_ns();

	if (!c->res || (!force && t < c->docs_next))
		return;
	s_save_run(c, false);
	lst_results_flush_summary(c->res, NULL);
	c->docs_next = lst_mono_ns() + 10 * (lst_mono_ns() - t);
}

/* The coordinator's boot, so a resume knows whether our monotonic clock is still the same. */
static void s_boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

/*
 * Journal the point just run (c->pending, from s_record_point) once its suite has seen its
 * result r: what run.json and summary.json say of it, the result the suite needs to replay it
 * on a resume (the histogram as hex of lst_hist_encode), the run's time base, and the size of
 * every append-only file (so a resume can cut them back to this point).
 */
static void s_journal_point(lst_coord *c, const struct lst_step_result *r)
{
	json_t *e = c->pending;
	uint8_t buf[LST_HIST_ENC_MAX];
	char *hex, boot[64];
	size_t n;
	lst_err err;

	c->pending = NULL;
	if (!e || !c->res)
		return json_decref(e);
	n = lst_hist_encode(&r->lat, buf, sizeof(buf));
	hex = lst_malloc(2 * n + 1);
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", buf[i]);
	hex[2 * n] = 0;
	s_boot_id(boot, sizeof(boot));
	json_object_set_new(e, "result",
			    json_pack("{s:[f,f], s:[f,f], s:[I,I], s:[I,I], s:f, s:f, s:b, s:s}",
				      "iops", r->iops[0], r->iops[1], "mbps", r->mbps[0],
				      r->mbps[1], "ios", (json_int_t)r->ios[0],
				      (json_int_t)r->ios[1], "bytes", (json_int_t)r->bytes[0],
				      (json_int_t)r->bytes[1], "seconds", r->seconds, "t_s", r->t_s,
				      "partial", r->partial, "lat", hex));
	json_object_set_new(e, "time_base",
			    json_pack("{s:I, s:I, s:s}", "mono_ns", (json_int_t)c->run_t0,
				      "real_ns",
				      (json_int_t)(lst_real_ns() - (lst_mono_ns() - c->run_t0)),
				      "boot_id", boot));
	free(hex);
	if (lst_results_journal(c->res, e, &err)) {
		if (!c->results_failed)
			lst_log_warn("%s", err.msg);
	} else { /* in the journal now, read back from there: memory stays flat */
		json_array_clear(c->phases);
		lst_results_journaled(c->res);
	}
	json_decref(e);
	s_save_docs(c, false);
}

/* Journal the end of phase: its verdicts (summary.json "tests" from tests_from on). */
static void s_journal_phase(lst_coord *c, size_t phase, size_t tests_from)
{
	json_t *tests = json_array(), *all, *e;
	lst_err err;

	if (!c->res)
		return json_decref(tests);
	all = lst_results_tests(c->res);
	for (size_t i = tests_from; i < json_array_size(all); i++)
		json_array_append(tests, json_array_get(all, i));
	e = json_pack("{s:s, s:s, s:I, s:o}", "type", "phase_end", "phase",
		      c->plan->phases[phase].name, "phase_index", (json_int_t)phase, "tests",
		      tests);
	if (lst_results_journal(c->res, e, &err) && !c->results_failed)
		lst_log_warn("%s", err.msg);
	json_decref(e);
}

/*
 * False once a write into the results folder has failed (a full disk): said once, as the run's
 * error, and the run ends, since nothing it measures from then on could be kept.
 */
static bool s_results_ok(lst_coord *c)
{
	const lst_err *e = c->res ? lst_results_failed(c->res) : NULL;

	if (!e)
		return true;
	if (!c->results_failed) {
		c->results_failed = true;
		s_error(c, "%s; stopping the run, since nothing more can be recorded", e->msg);
	}
	return false;
}

void lst_coord_plan_hash(const char *text, char out[41])
{
	zdigest_t *d = zdigest_new();

	zdigest_update(d, (const byte *)text, strlen(text));
	snprintf(out, 41, "%s", zdigest_string(d));
	for (char *q = out; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	zdigest_destroy(&d);
}

static json_t *s_run_json(lst_coord *c)
{
	const lst_plan *p = c->plan;
	struct utsname u;
	json_t *agents = json_array(), *targets = json_array();
	char now[64], zmq[32], czmq[32];
	int maj, min, pat;

	uname(&u);
	zmq_version(&maj, &min, &pat);
	snprintf(zmq, sizeof(zmq), "%d.%d.%d", maj, min, pat);
	snprintf(czmq, sizeof(czmq), "%d.%d.%d", CZMQ_VERSION_MAJOR, CZMQ_VERSION_MINOR,
		 CZMQ_VERSION_PATCH);
	for (size_t i = 0; i < p->nagents; i++)
		json_array_append_new(agents, json_pack("{s:s, s:s}", "name", p->agents[i].name,
							"address", p->agents[i].address));
	for (size_t i = 0; i < p->ntargets; i++) {
		json_t *paths = json_array();

		for (size_t j = 0; j < p->targets[i].npaths; j++)
			json_array_append_new(
				paths, json_pack("{s:s, s:s}", "agent",
						 p->agents[p->targets[i].paths[j].agent].name,
						 "path", p->targets[i].paths[j].path));
		json_array_append_new(targets,
				      json_pack("{s:s, s:s?, s:s, s:o}", "name", p->targets[i].name,
						"identity", p->targets[i].identity, "share",
						p->targets[i].share ? "shared" : "split", "paths",
						paths));
	}
	char sha1[41];

	lst_coord_plan_hash(p->text ? p->text : "", sha1);
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:i, s:s, s:s, s:s}, s:s, "
			 "s:o, s:o, s:[], s:[], s:[]}",
			 "format", 1, "run_id", c->run_id, "plan_name", p->name, "plan_file",
			 p->file, "plan_sha1", sha1, "started",
			 lst_time_iso8601(lst_real_ns(), now, sizeof(now)), "versions", "lockstep",
			 LST_VERSION, "protocol", LST_PROTO_VERSION, "libzmq", zmq, "czmq", czmq,
			 "kernel", u.release, "coordinator", c->host, "agents", agents, "targets",
			 targets, "phases", "errors", "retries");
}

/* --- sending and pumping ---------------------------------------------------------------- */

static bool s_usable(const struct s_agent *a)
{
	return !a->lost && a->conn->state == LST_CONN_READY;
}

static void s_lose(lst_coord *c, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void s_send_simple(lst_coord *c, size_t i, uint32_t type);

/*
 * Tell a lost agent to stop what it runs and to end its session: STOP for the point, then BYE.
 * Either may never arrive (that is why it is lost); its lease stops it then.
 */
static void s_stop_lost(lst_coord *c, size_t i)
{
	struct s_agent *a = &c->a[i];
	lst_msg *m = lst_msg_new(LST_MSG_STOP);
	lst_err err;

	m->u.stop.phase = (uint32_t)c->cur.phase;
	m->u.stop.point = (uint32_t)c->cur.point;
	if (lst_conn_send(a->conn, m, true, NULL, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	lst_msg_destroy(&m);
	s_send_simple(c, i, LST_MSG_BYE);
}

/*
 * Mark an agent lost: it gets no more commands until it comes back, and the merge stops waiting
 * for it in the current point. The line reads "agent NAME" + how + why. Before the phases run
 * (connecting, the up-front check) a loss is the run's error; during them the plan's
 * on_agent_loss decides what it means (s_loss_policy), and it is a warning here.
 */
static void s_drop(lst_coord *c, size_t i, const char *how, const char *fmt, va_list ap)
{
	struct s_agent *a = &c->a[i];
	bool in_point = c->in_point && a->in_point;

	if (a->lost)
		return;
	vsnprintf(a->lost_why, sizeof(a->lost_why), fmt, ap);
	if (in_point) {
		size_t n = strlen(a->lost_why);

		snprintf(a->lost_why + n, sizeof(a->lost_why) - n,
			 "; during phase %s point %zu, after %llu samples", c->cur.phase_name,
			 c->cur.point, (unsigned long long)a->samples);
	}
	a->lost = a->ever_lost = true;
	a->unreachable = false;
	lst_msg_destroy(&a->cmd);
	if (in_point) {
		a->point_lost = true;
		if (!a->done) {
			a->done = true;
			a->done_msg.reason = LST_DONE_ERROR;
			snprintf(a->done_msg.text, sizeof(a->done_msg.text), "lost");
			lst_merge_agent_done(c->cur.merge, i);
		}
	}
	if (!c->running || a->conn->state == LST_CONN_LOST) {
		s_error(c, "agent %s%s: %s", a->conn->name, how, a->lost_why);
		return;
	}
	if (c->tty && !c->opts.quiet)
		fputc('\n', c->opts.progress);
	lst_log_warn("agent %s%s: %s", a->conn->name, how, a->lost_why);
}

static void s_lose(lst_coord *c, size_t i, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s_drop(c, i, " lost", fmt, ap);
	va_end(ap);
}

static void s_refused(lst_coord *c, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The connection can never work (a handshake refused): the agent is out for good. */
static void s_refused(lst_coord *c, size_t i, const char *fmt, ...)
{
	va_list ap;

	c->a[i].conn->state = LST_CONN_LOST;
	va_start(ap, fmt);
	s_drop(c, i, "", fmt, ap);
	va_end(ap);
}

/* Send a command to agent i and remember which reply to wait for. Takes m. */
static int s_command(lst_coord *c, size_t i, lst_msg **m)
{
	struct s_agent *a = &c->a[i];
	lst_err err;
	int rc;

	lst_msg_destroy(&a->reply);
	lst_msg_destroy(&a->cmd);
	a->replied = false;
	rc = lst_conn_send(a->conn, *m, true, &a->await_id, &err);
	a->cmd = *m; /* kept: a reconnect sends it again with the same id */
	*m = NULL;
	if (rc && lst_conn_failure(a->conn))
		s_refused(c, i, "%s", err.msg);
	else if (rc)
		s_lose(c, i, "%s", err.msg);
	return rc;
}

static void s_send_simple(lst_coord *c, size_t i, uint32_t type)
{
	lst_msg *m = lst_msg_new(type);
	lst_err err;

	if (type == LST_MSG_PING)
		m->u.ping.now = lst_mono_ns();
	if (lst_conn_send(c->a[i].conn, m, false, NULL, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	lst_msg_destroy(&m);
}

/* HELLO for this run: the first one, and the one that resumes the session on a reconnect. */
static lst_msg *s_hello_msg(const lst_coord *c)
{
	lst_msg *m = lst_msg_new(LST_MSG_HELLO);

	m->u.hello.proto = LST_PROTO_VERSION;
	m->u.hello.ncaps = 1;
	snprintf(m->u.hello.caps[0], sizeof(m->u.hello.caps[0]), "samples.v1");
	snprintf(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "%s", c->host);
	snprintf(m->u.hello.run, sizeof(m->u.hello.run), "%s", c->run_id);
	m->u.hello.lease_ms = (uint32_t)(c->plan->lease / LST_NS_PER_MS);
	return m;
}

/*
 * Say HELLO again on a new connection (or to a lost agent, now and then): the agent resumes the
 * session and sends its spool again. Not a command in the s_command sense: the command awaited
 * (PREPARE, START, ...) stays awaited and is sent again once the WELCOME is in.
 */
static void s_rehello(lst_coord *c, size_t i, int64_t now)
{
	struct s_agent *a = &c->a[i];
	lst_msg *m = s_hello_msg(c);
	lst_err err;

	a->hello_on = lst_conn_handshakes(a->conn);
	a->hello_at = now;
	if (lst_conn_send(a->conn, m, true, &a->hello_id, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	else
		lst_log_debug(LST_DBG_NET, "agent %s: HELLO again (connection %u)", a->conn->name,
			      a->hello_on);
	lst_msg_destroy(&m);
}

/*
 * The WELCOME to a reconnect HELLO. The same process with our session kept: it re-sends its
 * spool, and the command awaited goes again (its reply cache answers a repeat). Another process
 * (a restart), or our session gone (BYE, another coordinator in between): whatever it ran for
 * us is gone, so it is lost for the current point; either way it can serve the next one.
 */
static void s_on_rewelcome(lst_coord *c, size_t i, const struct lst_msg_welcome *w)
{
	struct s_agent *a = &c->a[i];
	bool restarted = a->instance && w->instance && w->instance != a->instance;
	bool fresh = restarted || (w->instance && !w->resumed);
	lst_err err;

	a->hello_id = 0;
	a->welcomed_on = lst_conn_handshakes(a->conn);
	a->conn->info = *w;
	if (w->instance)
		a->instance = w->instance;
	if (fresh) {
		a->seen_seq = 0; /* a new session numbers its messages from 1 */
		if (c->in_point && a->in_point && !a->done)
			s_lose(c, i, "%s",
			       restarted ? "it restarted (another agent process answered)"
					 : "it no longer had our session");
		lst_msg_destroy(&a->cmd);
	}
	if (a->lost && a->conn->state == LST_CONN_READY) {
		a->lost = false;
		lst_log_info("agent %s is back (%s)", a->conn->name,
			     restarted ? "a new process"
			     : fresh   ? "a new session"
				       : "its session resumed");
	} else if (a->unreachable) {
		lst_log_info("agent %s is reachable again; its session resumed", a->conn->name);
	}
	a->unreachable = false;
	if (a->cmd && !a->replied &&
	    lst_conn_send(a->conn, a->cmd, true, NULL, &err)) /* keeps its id */
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
	/* A new process may run on another clock; a resumed one has drifted meanwhile. */
	if (!lst_conn_syncing(a->conn) && lst_conn_sync_begin(a->conn, &err))
		lst_log_debug(LST_DBG_NET, "%s", err.msg);
}

static void s_on_row(const struct lst_merge_row *row, void *arg);

/* A SAMPLE or DONE of agent i is for the point running now (not an earlier point or attempt). */
static bool s_for_point(const lst_coord *c, const struct s_agent *a, const lst_msg *m,
			uint32_t phase, uint32_t point)
{
	return c->in_point && a->in_point && phase == c->cur.phase && point == c->cur.point &&
	       m->seq >= a->min_seq;
}

static void s_on_sample(lst_coord *c, size_t i, lst_msg *m, const uint8_t *raw, size_t rawlen)
{
	struct s_agent *a = &c->a[i];
	struct lst_msg_sample *s = &m->u.sample;
	lst_err err;
	int rc;

	if (!s_for_point(c, a, m, s->phase, s->point)) {
		lst_log_debug(LST_DBG_PROTO,
			      "agent %s: sample for phase %u point %u (seq %llu) "
			      "is not for the running point: ignored",
			      a->conn->name, s->phase, s->point, (unsigned long long)m->seq);
		return;
	}
	if (a->point_lost) { /* all or nothing: nothing of a lost agent after its loss */
		a->dropped++;
		return;
	}
	a->samples++;
	if (s->s.flags & LST_SAMPLE_LATE && !a->late_warned) {
		a->late_warned = true;
		lst_log_warn(
			"agent %s: interval %lld spans several intervals (its main thread fell "
			"behind)",
			a->conn->name, (long long)s->s.interval);
	}
	/*
	 * Interval k ends at T0 + (k + 1) x interval: a sample for one that has not begun (with a
	 * second for clock error) is wrong, and would push the merge window past every agent.
	 */
	if (s->s.interval < 0 ||
	    s->s.interval > (lst_mono_ns() - c->cur.T0 + LST_NS_PER_S) / c->cur.interval + 1) {
		if (!a->bad_warned)
			lst_log_warn(
				"agent %s: sample for interval %lld, which has not begun %.1f s "
				"into the point: ignored",
				a->conn->name, (long long)s->s.interval,
				(double)(lst_mono_ns() - c->cur.T0) / 1e9);
		a->bad_warned = true;
		a->dropped++;
		return;
	}
	rc = lst_merge_add(c->cur.merge, i, &s->s);
	if (rc) {
		if (!a->dropped++)
			lst_log_warn("agent %s: sample %lld arrived after that interval was "
				     "written: not counted (neither in timeseries.csv nor in the "
				     "summary)",
				     a->conn->name, (long long)s->s.interval);
		return;
	}
	/* What was merged, as received; a failed write ends the run once (s_results_ok). */
	lst_results_raw(c->res, a->conn->name, raw, rawlen, &err);
}

/* The seq of a SAMPLE or DONE is new (not a copy from a re-sent spool); ACK it either way. */
static bool s_fresh(lst_coord *c, size_t i, const lst_msg *m)
{
	struct s_agent *a = &c->a[i];
	lst_msg *ack;
	lst_err err;

	ack = lst_msg_new(LST_MSG_ACK);
	ack->u.ack.upto = LST_MAX(m->seq, a->seen_seq);
	a->conn->last_sample_seq = ack->u.ack.upto;
	lst_conn_send(a->conn, ack, false, NULL, &err);
	lst_msg_destroy(&ack);
	if (m->seq <= a->seen_seq)
		return false;
	a->seen_seq = m->seq;
	return true;
}

static void s_on_done(lst_coord *c, size_t i, const lst_msg *m)
{
	struct s_agent *a = &c->a[i];

	if (!s_for_point(c, a, m, m->u.done.phase, m->u.done.point) || a->done)
		return;
	a->done = true;
	a->done_msg = m->u.done;
	lst_merge_agent_done(c->cur.merge, i);
	if (m->u.done.reason == LST_DONE_ERROR)
		s_error(c, "agent %s: %s", a->conn->name, m->u.done.text);
	else if (m->u.done.reason == LST_DONE_LEASE)
		s_lose(c, i, "it stopped by its lease (it did not hear from us)");
}

static void s_dispatch(lst_coord *c, size_t i, lst_msg *m, const uint8_t *raw, size_t rawlen,
		       int64_t t_recv)
{
	struct s_agent *a = &c->a[i];
	lst_err err;

	if (m->re && m->re == a->hello_id) {
		if (m->type == LST_MSG_WELCOME)
			s_on_rewelcome(c, i, &m->u.welcome);
		else if (m->type == LST_MSG_ERROR) {
			a->hello_id = 0;
			if (c->in_point && a->in_point && !a->done)
				s_lose(c, i, "it refused our HELLO on a new connection: %s",
				       m->u.error.text);
			else
				lst_log_warn("agent %s refused our HELLO on a new connection: %s",
					     a->conn->name, m->u.error.text);
		}
		return;
	}
	if (a->unreachable && !a->lost) {
		a->unreachable = false;
		lst_log_info("agent %s is reachable again", a->conn->name);
	}
	switch (m->type) {
	case LST_MSG_SYNC_REPLY: {
		int rc = lst_conn_sync_reply(a->conn, &m->u.sync_reply, t_recv, &err);

		/* Every exchange, as it came, so the run can be re-aligned later (clock.csv). */
		if (c->res)
			lst_results_clock(c->res, a->conn->name, m->u.sync_reply.t1,
					  m->u.sync_reply.t2, m->u.sync_reply.t3, t_recv);
		if (rc < 0)
			s_refused(c, i, "%s", err.msg);
		return;
	}
	case LST_MSG_SAMPLE:
		if (s_fresh(c, i, m))
			s_on_sample(c, i, m, raw, rawlen);
		return;
	case LST_MSG_DONE:
		if (s_fresh(c, i, m))
			s_on_done(c, i, m);
		return;
	case LST_MSG_PREPARED:
		/* What the agent sends from now on is this point's (or later). */
		if (c->in_point && a->in_point && m->re == a->await_id)
			a->min_seq = m->seq;
		break; /* also a reply */
	case LST_MSG_STARTED:
		if (c->in_point && m->u.started.phase == c->cur.phase &&
		    m->u.started.point == c->cur.point) {
			a->started = true;
			a->actual = m->u.started.actual;
		}
		break; /* also a reply */
	case LST_MSG_PONG:
		return;
	case LST_MSG_ERROR:
		if (m->u.error.code == LST_PERR_NO_SESSION) {
			/* It does not know us on this connection: a reconnect whose HELLO has not
			 * arrived yet, or a new process. The WELCOME to a HELLO tells which. */
			if (a->conn->state == LST_CONN_READY &&
			    (!a->hello_id || t_recv - a->hello_at > LST_NS_PER_S))
				s_rehello(c, i, t_recv);
			return;
		}
		if (c->in_point && a->in_point && !a->done && m->re && m->re == a->start_id) {
			/* A refused START: its jobs never ran and it sends no DONE. */
			a->done = true;
			a->done_msg.reason = LST_DONE_ERROR;
			snprintf(a->done_msg.text, sizeof(a->done_msg.text), "%s", m->u.error.text);
			lst_merge_agent_done(c->cur.merge, i);
			s_error(c, "agent %s could not start phase %s point %zu: %s", a->conn->name,
				c->cur.phase_name, c->cur.point, m->u.error.text);
			return;
		}
		if (!m->re || m->re != a->await_id) {
			lst_log_warn("agent %s: error: %s", a->conn->name, m->u.error.text);
			return;
		}
		break;
	default:
		break;
	}
	if (m->re && m->re == a->await_id && !a->replied) {
		a->replied = true;
		lst_msg_destroy(&a->cmd);
		lst_msg_destroy(&a->reply);
		a->reply = lst_msg_new(m->type);
		memcpy(a->reply, m, sizeof(*m));
	}
}

/*
 * Liveness of agent i at now: a new connection gets a HELLO; silence makes it unreachable, then
 * lost once longer than the lease; a lost agent is said HELLO to every few seconds in case its
 * connection came back without our noticing.
 */
static void s_watch(lst_coord *c, size_t i, int64_t now)
{
	struct s_agent *a = &c->a[i];
	int64_t silent = now - a->conn->last_heard;
	const char *why = lst_conn_failure(a->conn);
	lst_err err;

	if (why && a->conn->state != LST_CONN_LOST)
		s_refused(c, i, "%s", why);
	if (a->conn->state != LST_CONN_READY)
		return;
	if (lst_conn_handshakes(a->conn) > LST_MAX(a->welcomed_on, a->hello_on) ||
	    (a->lost && now - a->hello_at > 5 * LST_NS_PER_S))
		s_rehello(c, i, now);
	if (a->lost)
		return;
	if (lst_conn_sync_tick(a->conn, now, &err) < 0)
		s_refused(c, i, "%s", err.msg);
	if (silent > c->unreach_after && !a->unreachable && !a->lost) {
		a->unreachable = true;
		if (c->tty && !c->opts.quiet)
			fputc('\n', c->opts.progress);
		lst_log_warn("agent %s unreachable: no message for %.1f s; reconnecting (it is "
			     "lost after the %.0f s lease)",
			     a->conn->name, (double)silent / 1e9, (double)c->plan->lease / 1e9);
	}
	if (silent > c->lost_after) {
		s_lose(c, i,
		       "no message for %.1f s, longer than the %.0f s lease, so it has stopped its "
		       "I/O by itself (it crashed, froze, or the network between us failed)",
		       (double)silent / 1e9, (double)c->plan->lease / 1e9);
		s_stop_lost(c, i);
	}
}

/*
 * Wait up to timeout_ns, dispatching everything that arrives. Housekeeping: PINGs every second,
 * abandoned clock exchanges, reconnects and silent agents (s_watch). Returns early on Ctrl-C.
 */
static void s_pump(lst_coord *c, int64_t timeout_ns)
{
	int64_t now;
	int rc;

	rc = lst_conn_poll(
		c->conns, c->n,
		(int)LST_MAX(0, LST_MIN(timeout_ns, 100 * LST_NS_PER_MS) / LST_NS_PER_MS),
		c->ready);
	for (size_t i = 0; rc > 0 && i < c->n; i++) {
		while (c->ready[i]) {
			lst_msg *m = NULL;
			uint8_t *raw = NULL;
			size_t rawlen = 0;
			int64_t t;
			lst_err err;
			int r = lst_conn_recv(c->a[i].conn, &m, &raw, &rawlen, &t, &err);

			if (r == -EAGAIN)
				break;
			if (r) {
				lst_log_warn("%s", err.msg);
				continue;
			}
			s_dispatch(c, i, m, raw, rawlen, t);
			lst_msg_destroy(&m);
			free(raw);
		}
	}
	now = lst_mono_ns();
	for (size_t i = 0; i < c->n; i++)
		s_watch(c, i, now);
	if (now - c->last_ping >= S_PING_EVERY) {
		c->last_ping = now;
		for (size_t i = 0; i < c->n; i++)
			if (s_usable(&c->a[i]) && !c->a[i].unreachable)
				s_send_simple(c, i, LST_MSG_PING);
	}
}

typedef bool (*s_cond_fn)(lst_coord *c);

/*
 * Pump until cond holds, timeout_ns passes (0: no timeout) or, when interruptible, Ctrl-C.
 * True when cond held.
 */
static bool s_pump_wait(lst_coord *c, s_cond_fn cond, int64_t timeout_ns, bool interruptible)
{
	int64_t deadline = timeout_ns ? lst_mono_ns() + timeout_ns : INT64_MAX;

	while (!cond(c)) {
		int64_t now = lst_mono_ns();

		if ((interruptible && s_interrupted) || now >= deadline)
			return false;
		s_pump(c, LST_MIN(deadline - now, 100 * LST_NS_PER_MS));
	}
	return true;
}

static bool s_pump_until(lst_coord *c, s_cond_fn cond, int64_t timeout_ns)
{
	return s_pump_wait(c, cond, timeout_ns, true);
}

/* Every agent in the point has answered the command, or is lost (an unreachable one is waited
 * for: its reconnect sends the command again). */
static bool s_all_replied(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct s_agent *a = &c->a[i];

		if (a->in_point && s_usable(a) && !a->point_lost && !a->replied)
			return false;
	}
	return true;
}

static bool s_all_welcomed(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (!c->a[i].lost && !c->a[i].replied)
			return false;
	return true;
}

static bool s_all_synced(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (s_usable(&c->a[i]) && lst_conn_syncing(c->a[i].conn))
			return false;
	return true;
}

static bool s_all_done(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].in_point && !c->a[i].done)
			return false;
	return true;
}

/*
 * Check the replies to a command sent to every agent in the point; report ERRORs. An agent lost
 * meanwhile has no reply: before the phases that fails the run; in a point it is for the plan's
 * on_agent_loss to judge (s_loss_policy), so it is passed over here.
 */
static bool s_replies_ok(lst_coord *c, const char *what)
{
	bool ok = true;

	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];

		if (!a->in_point)
			continue;
		if (a->lost || a->point_lost) {
			ok &= c->running;
			continue;
		}
		if (!a->replied) {
			s_lose(c, i, "no answer to %s within %.0f s", what,
			       (double)S_REPLY_TIMEOUT / 1e9);
			ok = false;
		} else if (a->reply->type == LST_MSG_ERROR) {
			a->refused = true;
			s_error(c, "agent %s refused %s: %s", a->conn->name, what,
				a->reply->u.error.text);
			ok = false;
		}
	}
	return ok;
}

/* A clock burst on every agent. */
static void s_sync(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++) {
		lst_err err;

		if (s_usable(&c->a[i]) && lst_conn_sync_begin(c->a[i].conn, &err))
			s_lose(c, i, "%s", err.msg);
	}
	s_pump_until(c, s_all_synced, 5 * LST_NS_PER_S);
	c->last_sync = lst_mono_ns();
}

/*
 * During a long point, a clock burst every S_SYNC_EVERY too, without waiting for it: the replies
 * are dispatched with everything else, and the drift fit keeps the per-agent rows of a day-long
 * point on the coordinator's timeline (crystals drift tens of ppm: ~0.1 s a day).
 */
static void s_resync(lst_coord *c)
{
	if (lst_mono_ns() - c->last_sync < S_SYNC_EVERY)
		return;
	for (size_t i = 0; i < c->n; i++) {
		lst_err err;

		if (s_usable(&c->a[i]) && !lst_conn_syncing(c->a[i].conn) &&
		    lst_conn_sync_begin(c->a[i].conn, &err))
			s_lose(c, i, "%s", err.msg);
	}
	c->last_sync = lst_mono_ns();
}

/* --- connecting -------------------------------------------------------------------------- */

static int s_hello(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++) {
		lst_msg *m = s_hello_msg(c);

		c->a[i].in_point = true;
		s_command(c, i, &m);
	}
	s_pump_until(c, s_all_welcomed, c->opts.connect_timeout_ns);
	if (s_interrupted) /* Ctrl-C, not a silent agent */
		return -1;
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];

		a->in_point = false;
		if (a->lost)
			continue;
		if (!a->replied) {
			s_lose(c, i,
			       "no answer from %s within %.0f s; is lockstep-agent running "
			       "there, and is the address right?",
			       a->conn->address, (double)c->opts.connect_timeout_ns / 1e9);
		} else if (a->reply->type == LST_MSG_ERROR) {
			s_lose(c, i, "%s", a->reply->u.error.text);
		} else if (a->reply->type == LST_MSG_WELCOME) {
			a->conn->info = a->reply->u.welcome;
			a->conn->state = LST_CONN_READY;
			a->instance = a->reply->u.welcome.instance;
			a->welcomed_on = lst_conn_handshakes(a->conn);
		} else {
			s_lose(c, i, "answered HELLO with %s", lst_msg_type_name(a->reply->type));
		}
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].lost)
			return -1;
	return 0;
}

/*
 * Everything the plan's phases do to target t (enum lst_access bits): what their points do, as
 * the suites build them. A phase whose suite cannot be built counts as writing (the run stops
 * there anyway); a bit too many only makes the up-front check stricter.
 */
static uint32_t s_target_access(const lst_plan *p, size_t t)
{
	uint32_t access = 0;

	for (size_t i = 0; i < p->nphases; i++) {
		for (size_t k = 0; k < p->phases[i].ntargets; k++) {
			if (p->phases[i].targets[k] == t) {
				lst_suite_run *s = lst_suite_new(p, i, 0, NULL);

				access |= s ? lst_suite_access(s) : LST_ACCESS_WRITE;
				lst_suite_destroy(&s);
			}
		}
	}
	return access;
}

/*
 * IDENTIFY every path of every target: sizes for shares and capacity, identities for run.json,
 * and, through each job spec's access, the agents' disk-safety check of everything the run will
 * do, before any phase runs: a refusal here ends the run with nothing written anywhere.
 */
static int s_identify(lst_coord *c)
{
	const lst_plan *p = c->plan;
	json_t *targets = json_object_get(c->run, "targets");
	uint32_t *access = lst_calloc(p->ntargets, sizeof(*access));

	for (size_t t = 0; t < p->ntargets; t++)
		access[t] = s_target_access(p, t);
	for (size_t i = 0; i < c->n; i++) {
		lst_msg *m = lst_msg_new(LST_MSG_PREPARE);
		struct lst_msg_prepare *pr = &m->u.prepare;

		snprintf(pr->run, sizeof(pr->run), "%s", c->run_id);
		snprintf(pr->name, sizeof(pr->name), "identify");
		pr->phase = UINT32_MAX;
		for (size_t t = 0; t < p->ntargets; t++) {
			for (size_t j = 0; j < p->targets[t].npaths; j++) {
				struct lst_jobspec *js;

				if (p->targets[t].paths[j].agent != i)
					continue;
				if (pr->njobs == LST_MAX_JOBSPECS) {
					s_error(c, "agent %s has more than %d paths",
						c->a[i].conn->name, LST_MAX_JOBSPECS);
					lst_msg_destroy(&m);
					free(access);
					return -1;
				}
				js = &pr->jobs[pr->njobs++];
				snprintf(js->target, sizeof(js->target), "%s", p->targets[t].name);
				snprintf(js->path, sizeof(js->path), "%s",
					 p->targets[t].paths[j].path);
				snprintf(js->identity, sizeof(js->identity), "%s",
					 p->targets[t].identity ? p->targets[t].identity : "");
				js->action = LST_ACTION_IDENTIFY;
				js->access = access[t];
				lst_workload_init(&js->w);
			}
		}
		c->a[i].in_point = pr->njobs > 0;
		if (pr->njobs)
			s_command(c, i, &m);
		lst_msg_destroy(&m);
	}
	free(access);
	s_pump_until(c, s_all_replied, S_REPLY_TIMEOUT);
	if (s_interrupted || !s_replies_ok(c, "the run's paths (checked before any I/O)"))
		return -1;
	for (size_t t = 0; t < p->ntargets; t++) {
		const struct lst_plan_target *pt = &p->targets[t];
		struct s_target *st = &c->targets[t];
		json_t *ids = json_array();

		st->ids = lst_calloc(pt->npaths, sizeof(*st->ids));
		for (size_t j = 0; j < pt->npaths; j++) {
			const struct lst_msg_prepared *pd =
				&c->a[pt->paths[j].agent].reply->u.prepared;

			for (uint32_t k = 0; k < pd->npaths; k++)
				if (!strcmp(pd->paths[k].target, pt->name) &&
				    !strcmp(pd->paths[k].path, pt->paths[j].path))
					st->ids[j] = pd->paths[k];
			if (!st->ids[j].size) {
				s_error(c, "target %s: agent %s reported no size for %s", pt->name,
					p->agents[pt->paths[j].agent].name, pt->paths[j].path);
				json_decref(ids);
				return -1;
			}
			if (!st->size || st->ids[j].size < st->size) {
				if (st->size)
					lst_log_warn(
						"target %s: paths report different sizes (%llu "
						"and %llu bytes); using the smaller",
						pt->name, (unsigned long long)st->size,
						(unsigned long long)st->ids[j].size);
				st->size = st->ids[j].size;
			}
			json_array_append_new(ids, s_identity_json(&st->ids[j]));
		}
		json_object_set_new(json_array_get(targets, t), "size",
				    json_integer((json_int_t)st->size));
		json_object_set_new(json_array_get(targets, t), "identities", ids);
	}
	for (size_t i = 0; i < c->n; i++)
		c->a[i].in_point = false;
	return 0;
}

/* --- one point --------------------------------------------------------------------------- */

/* The workload one path runs: the step's workload with this path's share of the target. */
static int s_path_workload(lst_coord *c, const struct lst_plan_phase *ph, size_t t, size_t j,
			   const struct lst_step *step, struct lst_workload *w)
{
	const struct lst_plan_target *pt = &c->plan->targets[t];
	uint64_t size = c->targets[t].size, n = pt->npaths, bs = (uint64_t)step->w.bs;
	uint64_t base = (uint64_t)step->w.offset, len;
	lst_err err;

	*w = step->w;
	if (base >= size) {
		s_error(c, "phase %s: target %s: offset %llu is beyond its %llu bytes", ph->name,
			pt->name, (unsigned long long)base, (unsigned long long)size);
		return -1;
	}
	len = size - base;
	if (step->w.size && (uint64_t)step->w.size < len)
		len = (uint64_t)step->w.size;
	if (pt->share == LST_SHARE_SPLIT && n > 1) {
		uint64_t chunk = len / n / bs * bs;

		w->offset = (int64_t)(base + j * chunk);
		w->size = (int64_t)chunk;
	} else {
		w->size = (int64_t)len;
	}
	if (step->stop_capacity > 0)
		w->bytes = (int64_t)((double)size * step->stop_capacity);
	/* Totals in the plan are for the target: each path does its share. */
	if (w->bytes)
		w->bytes = LST_MAX((int64_t)bs * w->jobs,
				   w->bytes / (int64_t)n / (int64_t)bs * (int64_t)bs);
	if (w->rate_iops)
		w->rate_iops = LST_MAX(w->jobs, (w->rate_iops + (int64_t)(n - 1 - j)) / (int64_t)n);
	if (step->action != LST_ACTION_IO)
		return 0;
	if (lst_workload_check(w, size, &err)) {
		s_error(c, "phase %s: target %s, path %s on %s: %s", ph->name, pt->name,
			pt->paths[j].path, c->plan->agents[pt->paths[j].agent].name, err.msg);
		return -1;
	}
	return 0;
}

static double s_t(const lst_coord *c, int64_t coord_t)
{
	return (double)(coord_t - c->run_t0) / 1e9;
}

static void s_progress(lst_coord *c, const struct lst_merge_row *row, const struct lst_rates *r,
		       const lst_hist *lat)
{
	int64_t now = lst_mono_ns();
	double el = (double)((row->k + 1) * c->cur.interval) / 1e9;
	char total[32] = "";
	FILE *f = c->opts.progress;

	if (c->opts.quiet)
		return;
	if (!c->tty && now - c->cur.last_progress < LST_NS_PER_S)
		return;
	c->cur.last_progress = now;
	if (c->cur.duration)
		snprintf(total, sizeof(total), "/%.1f", (double)c->cur.duration / 1e9);
	fprintf(f, "%s[%zu/%zu %s #%zu%s%s] %5.1f%s s%s  IOPS %9.0f  MB/s %8.1f  p99 %8.1f us%s",
		c->tty ? "\r" : "", c->cur.phase + 1, c->plan->nphases, c->cur.phase_name,
		c->cur.point + 1, c->cur.label[0] ? " " : "", c->cur.label, el, total,
		row->ramp ? " ramp" : "", r->iops[0] + r->iops[1], r->mbps[0] + r->mbps[1],
		(double)lst_hist_percentile(lat, 99) / 1e3, c->tty ? "  " : "\n");
	fflush(f);
}

/* A complete interval from the merge: timeseries rows for all and each agent. */
static void s_on_row(const struct lst_merge_row *row, void *arg)
{
	lst_coord *c = arg;
	struct lst_rates all = { { 0, 0 }, { 0, 0 } };
	struct lst_dir_stats dir[LST_DIR_N];
	int64_t grid = c->cur.T0 + row->k * c->cur.interval;

	for (size_t i = 0; i < row->nagents; i++) {
		struct lst_rates r;

		if (!row->agent[i])
			continue;
		lst_rates_of(row->agent[i], &r);
		for (int d = 0; d < LST_DIR_N; d++) {
			all.iops[d] += r.iops[d];
			all.mbps[d] += r.mbps[d];
		}
	}
	memcpy(dir, row->all->dir, sizeof(dir));
	if (!row->ramp) {
		lst_results_row(c->res, c->cur.phase_name, c->cur.point, row->k, s_t(c, grid),
				"all", &all, dir);
		for (size_t i = 0; i < row->nagents; i++) {
			struct lst_rates r;
			const lst_sample *s = row->agent[i];

			if (!s)
				continue;
			lst_rates_of(s, &r);
			lst_results_row(
				c->res, c->cur.phase_name, c->cur.point, row->k,
				s_t(c, lst_clock_to_local(&c->a[i].conn->clock, s->start_ns)),
				c->a[i].conn->name, &r, s->dir);
		}
	}
	{
		lst_hist both = dir[0].lat;

		lst_hist_add(&both, &dir[1].lat);
		s_progress(c, row, &all, &both);
	}
}

static void s_stop_all(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];
		lst_msg *m;

		if (!a->in_point || a->done || !s_usable(a))
			continue;
		m = lst_msg_new(LST_MSG_STOP);
		m->u.stop.phase = (uint32_t)c->cur.phase;
		m->u.stop.point = (uint32_t)c->cur.point;
		s_command(c, i, &m);
		if (!a->start_id && c->cur.merge) { /* never started: dropped, no DONE comes */
			a->done = true;
			lst_merge_agent_done(c->cur.merge, i);
		}
	}
	/* Wait for DONE even after Ctrl-C: what the agents measured until the stop is kept. */
	if (!s_pump_wait(c, s_all_done, S_STOP_TIMEOUT, false))
		for (size_t i = 0; i < c->n; i++)
			if (c->a[i].in_point && !c->a[i].done)
				s_lose(c, i, "did not finish within %.0f s of STOP",
				       (double)S_STOP_TIMEOUT / 1e9);
}

static json_t *s_point_json(lst_coord *c, const struct lst_workload *w, bool partial)
{
	json_t *agents = json_object(), *wl = json_object();
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	char when[64];

	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		char v[64];

		json_object_set_new(wl, o->name, json_string(lst_opt_format(o, w, v, sizeof(v))));
	}
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];
		int64_t actual;

		if (!a->in_point)
			continue;
		actual = a->started ? lst_clock_to_local(&a->conn->clock, a->actual) : 0;
		if (a->started) {
			lo = LST_MIN(lo, actual);
			hi = LST_MAX(hi, actual);
		}
		json_object_set_new(
			agents, a->conn->name,
			json_pack("{s:I, s:o, s:o, s:s, s:s, s:I, s:I, s:O}", "t0_agent_ns",
				  (json_int_t)a->t0_agent, "actual_agent_ns",
				  a->started ? json_integer((json_int_t)a->actual) : json_null(),
				  "start_late_us",
				  a->started ? json_real((double)(actual - c->cur.T0) / 1e3)
					     : json_null(),
				  "done", lst_msg_done_reason_name(a->done_msg.reason), "text",
				  a->done_msg.text, "samples", (json_int_t)a->samples,
				  "last_interval", (json_int_t)a->done_msg.last_interval, "paths",
				  a->jobs ? a->jobs : json_null()));
	}
	return json_pack(
		"{s:s, s:I, s:s, s:s, s:f, s:o, s:b, s:o, s:o}", "phase", c->cur.phase_name,
		"point", (json_int_t)c->cur.point, "label", c->cur.label, "start",
		lst_time_iso8601(lst_real_ns() - (lst_mono_ns() - c->cur.T0), when, sizeof(when)),
		"start_t_s", s_t(c, c->cur.T0), "start_skew_us",
		hi >= lo ? json_real((double)(hi - lo) / 1e3) : json_null(), "partial", partial,
		"workload", wl, "agents", agents);
}

static json_t *s_step_json(const struct lst_step *step)
{
	return json_pack("{s:s, s:i, s:{s:I, s:I, s:I, s:i, s:I}}", "test", step->test, "round",
			 (int)step->round, "workload", "jobs", (json_int_t)step->w.jobs, "iodepth",
			 (json_int_t)step->w.iodepth, "bs", (json_int_t)step->w.bs, "rwmixread",
			 lst_workload_read_pct(&step->w), "rate_iops",
			 (json_int_t)step->w.rate_iops);
}

static void s_summaries(lst_coord *c, const struct lst_step *step)
{
	const struct lst_merge_totals *t = lst_merge_totals(c->cur.merge, c->n);

	lst_results_summary(c->res, c->cur.phase_name, c->cur.point, c->cur.label, "all",
			    s_t(c, c->cur.T0), t, step->test, step->round, s_step_json(step));
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].in_point)
			lst_results_summary(c->res, c->cur.phase_name, c->cur.point, c->cur.label,
					    c->a[i].conn->name, s_t(c, c->cur.T0),
					    lst_merge_totals(c->cur.merge, i), step->test,
					    step->round, s_step_json(step));
}

/* The combined result of the point just run, for the suite. */
static void s_step_result(lst_coord *c, bool partial, struct lst_step_result *r)
{
	const struct lst_merge_totals *t = lst_merge_totals(c->cur.merge, c->n);

	memset(r, 0, sizeof(*r));
	for (int d = 0; d < LST_DIR_N; d++) {
		r->iops[d] = t->iops[d];
		r->mbps[d] = t->mbps[d];
		r->ios[d] = t->dir[d].ios;
		r->bytes[d] = t->dir[d].bytes;
	}
	r->seconds = t->seconds;
	r->lat = t->dir[LST_DIR_READ].lat;
	lst_hist_add(&r->lat, &t->dir[LST_DIR_WRITE].lat);
	r->t_s = s_t(c, c->cur.T0);
	r->partial = partial;
}

/* What s_run_point and its parts return. */
enum {
	S_POINT_OK = 0,
	S_POINT_FAIL = -1, /* the run ends: a refusal, a loss under abort, Ctrl-C, a full disk */
	S_POINT_RETRY = 1, /* an agent was lost under on_agent_loss: retry; nothing was recorded */
};

/* The agents with a path in phase ph. */
static bool s_in_phase(const lst_coord *c, const struct lst_plan_phase *ph, size_t i)
{
	for (size_t k = 0; k < ph->ntargets; k++) {
		const struct lst_plan_target *pt = &c->plan->targets[ph->targets[k]];

		for (size_t j = 0; j < pt->npaths; j++)
			if (pt->paths[j].agent == i)
				return true;
	}
	return false;
}

static bool s_phase_agents_back(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (s_in_phase(c, c->wait_phase, i) &&
		    (!s_usable(&c->a[i]) || lst_conn_syncing(c->a[i].conn)))
			return false;
	return true;
}

/*
 * The end of a point: its summary rows, its result for the suite (*out), its run.json entry,
 * and its journal entry, kept in c->pending until the suite has seen the result (s_journal_point).
 */
static void s_record_point(lst_coord *c, const struct lst_step *step, bool partial,
			   struct lst_step_result *out)
{
	const struct lst_plan_phase *ph = &c->plan->phases[c->cur.phase];
	const struct lst_workload *pw = &step->w;
	size_t npoints = json_array_size(lst_results_points(c->res));
	json_t *pj, *summary = json_array();

	lst_merge_finish(c->cur.merge);
	if (c->tty && !c->opts.quiet)
		fputc('\n', c->opts.progress);
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].in_point && c->a[i].dropped > 1)
			lst_log_warn("agent %s: %llu samples of this point were not counted (late, "
				     "or after its loss)",
				     c->a[i].conn->name, (unsigned long long)c->a[i].dropped);
	c->partial |= partial;
	s_summaries(c, step);
	for (size_t i = npoints; i < json_array_size(lst_results_points(c->res)); i++)
		json_array_append(summary, json_array_get(lst_results_points(c->res), i));
	s_step_result(c, partial, out);
	pj = s_point_json(c, pw, partial);
	/* The point's test and round; "workload" stays the full option text, for the audit. */
	json_object_set_new(pj, "suite", json_string(lst_suite_names[ph->suite]));
	json_object_set_new(pj, "test", json_string(step->test));
	json_object_set_new(pj, "round", json_integer((json_int_t)step->round));
	json_array_append_new(c->phases, pj);
	c->points_run++;
	json_decref(c->pending);
	c->pending = json_pack("{s:s, s:s, s:I, s:I, s:O, s:o}", "type", "point", "phase", ph->name,
			       "phase_index", (json_int_t)c->cur.phase, "point",
			       (json_int_t)c->cur.point, "run", pj, "summary", summary);
	if (!c->opts.quiet) {
		json_t *skew = json_object_get(pj, "start_skew_us");

		fprintf(c->opts.progress,
			"%s%s%s: %.0f IOPS, %.1f MB/s, mean %.1f us, p99 %.1f us (start skew "
			"%.0f us)%s\n",
			ph->name, c->cur.label[0] ? " " : "", c->cur.label,
			out->iops[0] + out->iops[1], out->mbps[0] + out->mbps[1],
			lst_hist_mean(&out->lat) / 1e3,
			(double)lst_hist_percentile(&out->lat, 99) / 1e3,
			json_is_real(skew) ? json_real_value(skew) : 0.0,
			partial ? " PARTIAL" : "");
	}
}

/*
 * Wait up to the plan's retry_wait for every agent of phase ph to be back (and its clock
 * measured again). True when they are; false on Ctrl-C, on a refusal, or when the time is up.
 */
static bool s_wait_back(lst_coord *c, const struct lst_plan_phase *ph)
{
	bool lost = false;

	c->wait_phase = ph;
	if (s_phase_agents_back(c))
		return true;
	for (size_t i = 0; i < c->n; i++)
		lost |= s_in_phase(c, ph, i) && c->a[i].lost;
	if (lost && !c->opts.quiet)
		fprintf(c->opts.progress,
			"lockstep: waiting up to %.0f s for the lost agents of phase %s to come "
			"back\n",
			(double)c->plan->retry_wait / 1e9, ph->name);
	return s_pump_until(c, s_phase_agents_back, c->plan->retry_wait);
}

/*
 * The job specs of one point: a PREPARE for every agent with a path in the phase (msgs[i], NULL
 * for the others), and each path's share in a->jobs for run.json. An agent that is lost gets
 * none, and *missing says so. Returns 0 or -1 (said).
 */
static int s_point_specs(lst_coord *c, const struct lst_plan_phase *ph, size_t phase, size_t point,
			 const struct lst_step *step, lst_msg **msgs, bool *missing,
			 struct lst_workload *first_w)
{
	const lst_plan *p = c->plan;
	bool have_first = false;

	for (size_t k = 0; k < ph->ntargets; k++) {
		size_t t = ph->targets[k];
		const struct lst_plan_target *pt = &p->targets[t];

		for (size_t j = 0; j < pt->npaths; j++) {
			size_t i = pt->paths[j].agent;
			struct lst_jobspec *js;

			if (!s_usable(&c->a[i])) {
				*missing = true;
				continue;
			}
			if (!msgs[i]) {
				msgs[i] = lst_msg_new(LST_MSG_PREPARE);
				snprintf(msgs[i]->u.prepare.run, sizeof(msgs[i]->u.prepare.run),
					 "%s", c->run_id);
				snprintf(msgs[i]->u.prepare.name, sizeof(msgs[i]->u.prepare.name),
					 "%s", ph->name);
				msgs[i]->u.prepare.phase = (uint32_t)phase;
				msgs[i]->u.prepare.point = (uint32_t)point;
			}
			if (msgs[i]->u.prepare.njobs == LST_MAX_JOBSPECS) {
				s_error(c, "agent %s: more than %d paths in phase %s",
					c->a[i].conn->name, LST_MAX_JOBSPECS, ph->name);
				return -1;
			}
			js = &msgs[i]->u.prepare.jobs[msgs[i]->u.prepare.njobs++];
			snprintf(js->target, sizeof(js->target), "%s", pt->name);
			snprintf(js->path, sizeof(js->path), "%s", pt->paths[j].path);
			snprintf(js->identity, sizeof(js->identity), "%s",
				 pt->identity ? pt->identity : "");
			js->action = step->action;
			if (s_path_workload(c, ph, t, j, step, &js->w))
				return -1;
			if (!c->a[i].jobs)
				c->a[i].jobs = json_array();
			json_array_append_new(c->a[i].jobs,
					      json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "target",
							pt->name, "path", pt->paths[j].path,
							"offset", (json_int_t)js->w.offset, "size",
							(json_int_t)js->w.size, "bytes",
							(json_int_t)js->w.bytes, "rate_iops",
							(json_int_t)js->w.rate_iops));
			if (!have_first) {
				*first_w = js->w;
				have_first = true;
			}
		}
	}
	if (!have_first) {
		s_error(c, "phase %s point %zu: no agent left to run it", ph->name, point);
		return -1;
	}
	return 0;
}

/*
 * Some agent of the point was lost: what the plan's on_agent_loss makes of it. abort: stop the
 * others, the run fails; continue: go on without it (the point is partial); retry: stop the
 * others, record nothing, and let s_run_phase run the point again.
 */
static int s_loss_policy(lst_coord *c, const struct lst_plan_phase *ph)
{
	switch (ph->on_agent_loss) {
	case LST_ON_LOSS_CONTINUE:
		/* The run's result lacks the agent from here on: said in run.json's errors. */
		for (size_t i = 0; i < c->n; i++) {
			struct s_agent *a = &c->a[i];

			if (a->in_point && a->point_lost && !a->judged)
				json_array_append_new(c->errors,
						      json_sprintf("agent %s lost: %s",
								   a->conn->name, a->lost_why));
			a->judged |= a->point_lost;
		}
		return S_POINT_OK;
	case LST_ON_LOSS_RETRY:
		lst_log_warn("phase %s point %zu: an agent was lost; stopping the point to run it "
			     "again (on_agent_loss: retry)",
			     ph->name, c->cur.point);
		s_stop_all(c);
		return S_POINT_RETRY;
	default:
		for (size_t i = 0; i < c->n; i++) {
			struct s_agent *a = &c->a[i];

			if (a->in_point && a->point_lost && !a->judged)
				s_error(c,
					"agent %s lost: %s; the plan says abort (on_agent_loss): "
					"stopping the others",
					a->conn->name, a->lost_why);
			a->judged |= a->point_lost;
		}
		s_stop_all(c);
		return S_POINT_FAIL;
	}
}

/* An agent of the point was lost and the plan's rule has not been applied to it yet. */
static bool s_point_lost(const lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].in_point && c->a[i].point_lost && !c->a[i].judged)
			return true;
	return false;
}

/* PREPARE everywhere and wait for the answers. Takes msgs[i]. */
static int s_point_prepare(lst_coord *c, const struct lst_plan_phase *ph, lst_msg **msgs)
{
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];

		a->in_point = msgs[i] != NULL;
		a->point_lost = a->judged = a->started = a->done = false;
		a->late_warned = a->bad_warned = false;
		a->min_seq = UINT64_MAX; /* until PREPARED: nothing it sends is this point's */
		a->start_id = 0;
		a->samples = a->dropped = 0;
		memset(&a->done_msg, 0, sizeof(a->done_msg));
		a->done_msg.last_interval = -1;
		if (msgs[i])
			s_command(c, i, &msgs[i]);
	}
	c->in_point = true;
	/* The merge waits a lease for an unreachable agent before it writes rows without it. */
	c->cur.merge = lst_merge_new(
		c->n, (size_t)((c->lost_after + LST_NS_PER_S) / c->cur.interval) + 8, s_on_row, c);
	for (size_t i = 0; i < c->n; i++)
		if (!c->a[i].in_point)
			lst_merge_agent_done(c->cur.merge, i);
	s_pump_until(c, s_all_replied, S_REPLY_TIMEOUT);
	if (s_interrupted || !s_replies_ok(c, "the job specs"))
		return S_POINT_FAIL;
	if (s_point_lost(c))
		return s_loss_policy(c, ph);
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];

		if (a->in_point && !a->point_lost && a->reply->u.prepared.warning[0])
			lst_log_warn("agent %s: %s", a->conn->name, a->reply->u.prepared.warning);
	}
	return S_POINT_OK;
}

/* One start instant for everyone, far enough ahead for the slowest START to arrive. */
static void s_point_start(lst_coord *c)
{
	int64_t max_rtt = 0, lead;

	if (lst_mono_ns() - c->last_sync > S_SYNC_EVERY)
		s_sync(c);
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].in_point && s_usable(&c->a[i]))
			max_rtt = LST_MAX(max_rtt, c->a[i].conn->est.rtt_ns);
	lead = LST_MAX(c->opts.lead_ns, 4 * max_rtt + 20 * LST_NS_PER_MS);
	c->cur.T0 = lst_mono_ns() + lead;
	if (!c->run_t0)
		c->run_t0 = c->cur.T0;
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];
		lst_msg *m;

		if (!a->in_point || a->point_lost || !s_usable(a))
			continue;
		m = lst_msg_new(LST_MSG_START);
		m->u.start.phase = (uint32_t)c->cur.phase;
		m->u.start.point = (uint32_t)c->cur.point;
		a->t0_agent = lst_clock_to_remote(&a->conn->clock, c->cur.T0);
		m->u.start.t0 = a->t0_agent;
		if (!s_command(c, i, &m))
			a->start_id = a->await_id;
	}
	lst_log_debug(LST_DBG_TIME, "phase %s point %zu: start in %.1f ms", c->cur.phase_name,
		      c->cur.point, (double)lead / 1e6);
}

/* Merge until every agent is done or lost; a loss goes to s_loss_policy once. */
static int s_point_wait(lst_coord *c, const struct lst_plan_phase *ph, bool *partial)
{
	while (!s_all_done(c)) {
		if (s_interrupted) {
			if (c->tty && !c->opts.quiet)
				fputc('\n', c->opts.progress);
			lst_log_warn(
				"interrupted: stopping every agent and keeping what was measured");
			s_stop_all(c);
			return S_POINT_FAIL;
		}
		s_pump(c, 100 * LST_NS_PER_MS);
		if (!s_results_ok(c)) {
			s_stop_all(c);
			return S_POINT_FAIL;
		}
		s_resync(c);
		if (s_point_lost(c)) {
			int rc = s_loss_policy(c, ph);

			if (rc != S_POINT_OK)
				return rc;
			*partial = true;
		}
	}
	return S_POINT_OK;
}

/* The end of a point, recorded or not: forget its per-agent state and its merge. */
static void s_point_end(lst_coord *c, lst_msg **msgs)
{
	for (size_t i = 0; i < c->n; i++) {
		lst_msg_destroy(&msgs[i]);
		c->a[i].in_point = false;
		json_decref(c->a[i].jobs);
		c->a[i].jobs = NULL;
	}
	free(msgs);
	lst_merge_destroy(&c->cur.merge);
	c->in_point = false;
}

/*
 * Run one step of phase `phase` as point number `point`. Returns S_POINT_OK when it completed
 * (maybe partial) with the combined result in *out, S_POINT_RETRY when it must run again (an
 * agent was lost under on_agent_loss: retry; nothing was recorded), S_POINT_FAIL when the run
 * must end (refusal, loss under abort, Ctrl-C).
 */
static int s_run_point(lst_coord *c, size_t phase, size_t point, const struct lst_step *step,
		       struct lst_step_result *out)
{
	const struct lst_plan_phase *ph = &c->plan->phases[phase];
	struct lst_workload first_w;
	bool partial = false;
	lst_msg **msgs = lst_calloc(c->n, sizeof(*msgs));
	int rc;

	memset(&c->cur, 0, sizeof(c->cur));
	c->cur.phase = phase;
	c->cur.point = point;
	c->cur.phase_name = ph->name;
	if (step->round && strcmp(step->test, step->label))
		snprintf(c->cur.label, sizeof(c->cur.label), "%s: %s round %zu", step->test,
			 step->label, step->round);
	else if (step->round)
		snprintf(c->cur.label, sizeof(c->cur.label), "%s round %zu", step->test,
			 step->round);
	else
		snprintf(c->cur.label, sizeof(c->cur.label), "%s", step->label);

	/* An agent lost before the point: abort ends here, retry waits for it first. */
	for (size_t i = 0; i < c->n; i++) {
		if (!s_in_phase(c, ph, i) || s_usable(&c->a[i]))
			continue;
		if (ph->on_agent_loss == LST_ON_LOSS_ABORT) {
			s_error(c,
				"phase %s point %zu does not start: agent %s is lost and the "
				"plan says abort (on_agent_loss)",
				ph->name, point, c->a[i].conn->name);
			rc = S_POINT_FAIL;
			goto out;
		}
		if (ph->on_agent_loss == LST_ON_LOSS_RETRY && !s_wait_back(c, ph)) {
			if (!s_interrupted)
				s_error(c,
					"phase %s point %zu: agent %s did not come back within "
					"retry_wait (%.0f s)",
					ph->name, point, c->a[i].conn->name,
					(double)c->plan->retry_wait / 1e9);
			rc = S_POINT_FAIL;
			goto out;
		}
		break;
	}
	if (s_point_specs(c, ph, phase, point, step, msgs, &partial, &first_w)) {
		rc = S_POINT_FAIL;
		goto out;
	}
	c->cur.interval = first_w.interval;
	c->cur.nramp = (first_w.ramp + first_w.interval - 1) / first_w.interval;
	c->cur.duration = first_w.runtime ? c->cur.nramp * first_w.interval + first_w.runtime : 0;

	if ((rc = s_point_prepare(c, ph, msgs)) != S_POINT_OK)
		goto out;
	for (size_t i = 0; i < c->n; i++)
		partial |= c->a[i].in_point && c->a[i].point_lost;
	s_point_start(c);
	/* A point that ends the run (abort, Ctrl-C) is still recorded: what was measured stays. */
	if ((rc = s_point_wait(c, ph, &partial)) == S_POINT_RETRY)
		goto out;
	for (size_t i = 0; i < c->n; i++)
		partial |= c->a[i].in_point && c->a[i].point_lost;
	s_record_point(c, step, partial, out);
out:
	s_point_end(c, msgs);
	return rc;
}

/*
 * The capacity of all the phase's targets together, for the suite's capacity stops: they
 * compare it with the bytes written to all of them (each path's own stop uses its target).
 */
static uint64_t s_phase_capacity(const lst_coord *c, const struct lst_plan_phase *ph)
{
	uint64_t cap = 0;

	for (size_t k = 0; k < ph->ntargets; k++)
		cap += c->targets[ph->targets[k]].size;
	return cap;
}

/* Sleep without I/O (HIR gaps) while still answering and watching the agents. */
static void s_idle(lst_coord *c, int64_t ns)
{
	int64_t until = lst_mono_ns() + ns;

	while (!s_interrupted && lst_mono_ns() < until)
		s_pump(c, LST_MIN(until - lst_mono_ns(), 100 * LST_NS_PER_MS));
}

/*
 * A point, run again while an agent is lost under on_agent_loss: retry: the stopped attempt's
 * rows and samples are cut from the results, the lost agents are waited for (retry_wait), and
 * the point starts anew for everyone, at most `retries` times. run.json "retries" lists each.
 * Returns 0 when the point completed (in *out), -1 when the run must end.
 */
static int s_run_point_retried(lst_coord *c, size_t phase, size_t point,
			       const struct lst_step *step, struct lst_step_result *out)
{
	const struct lst_plan_phase *ph = &c->plan->phases[phase];

	for (int64_t attempt = 0;; attempt++) {
		json_t *lost = json_array();
		int rc;

		if (c->res)
			lst_results_mark(c->res);
		rc = s_run_point(c, phase, point, step, out);
		if (rc != S_POINT_RETRY)
			return rc == S_POINT_OK ? 0 : -1;
		if (c->res)
			lst_results_rewind(c->res);
		for (size_t i = 0; i < c->n; i++)
			if (c->a[i].point_lost) /* kept past the point's end, until the next PREPARE */
				json_array_append_new(lost, json_pack("{s:s, s:s}", "agent",
								      c->a[i].conn->name, "why",
								      c->a[i].lost_why));
		json_array_append_new(c->retries,
				      json_pack("{s:s, s:I, s:s, s:I, s:o}", "phase", ph->name,
						"point", (json_int_t)point, "label", c->cur.label,
						"attempt", (json_int_t)attempt + 1, "lost", lost));
		s_save_docs(c, true);
		if (attempt >= c->plan->retries) {
			s_error(c,
				"phase %s point %zu: an agent was lost in %lld attempts; giving "
				"up (retries: %lld)",
				ph->name, point, (long long)attempt + 1,
				(long long)c->plan->retries);
			return -1;
		}
		if (!s_wait_back(c, ph)) {
			if (!s_interrupted)
				s_error(c,
					"phase %s point %zu: the lost agents did not come back "
					"within retry_wait (%.0f s)",
					ph->name, point, (double)c->plan->retry_wait / 1e9);
			return -1;
		}
		lst_log_warn("retrying phase %s point %zu (attempt %lld of at most %lld)", ph->name,
			     point, (long long)attempt + 2, (long long)c->plan->retries + 1);
	}
}

/* A journaled point's result (s_journal_point) back into r. Returns 0 or -EINVAL. */
static int s_result_of(json_t *o, struct lst_step_result *r, lst_err *err)
{
	const char *hex = json_string_value(json_object_get(o, "lat"));
	uint8_t buf[LST_HIST_ENC_MAX];
	size_t n = hex ? strlen(hex) / 2 : 0;

	memset(r, 0, sizeof(*r));
	lst_hist_init(&r->lat);
	if (!hex || strlen(hex) % 2 || n > sizeof(buf))
		return lst_err_set(err, -EINVAL, "result.lat: not a histogram in hex");
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return lst_err_set(err, -EINVAL, "result.lat: not a histogram in hex");
		buf[i] = (uint8_t)v;
	}
	for (int d = 0; d < LST_DIR_N; d++) {
		r->iops[d] = json_number_value(json_array_get(json_object_get(o, "iops"), d));
		r->mbps[d] = json_number_value(json_array_get(json_object_get(o, "mbps"), d));
		r->ios[d] =
			(uint64_t)json_integer_value(json_array_get(json_object_get(o, "ios"), d));
		r->bytes[d] = (uint64_t)json_integer_value(
			json_array_get(json_object_get(o, "bytes"), d));
	}
	r->seconds = json_number_value(json_object_get(o, "seconds"));
	r->t_s = json_number_value(json_object_get(o, "t_s"));
	r->partial = json_is_true(json_object_get(o, "partial"));
	return lst_hist_decode(&r->lat, buf, n, err);
}

/*
 * Resume: feed the phase's journaled points to its suite, in order, as if they had just run,
 * so it keeps its rounds (a WSAT its bytes written, a steady-state test its rounds). Nothing is
 * written: their rows are in the folder already. Returns how many, SIZE_MAX on a mismatch.
 */
static size_t s_replay(lst_coord *c, size_t phase, lst_suite_run *suite)
{
	const char *name = c->plan->phases[phase].name;
	size_t n = 0, i;
	json_t *e;

	json_array_foreach (c->journal, i, e) {
		json_t *run = json_object_get(e, "run");
		const char *test = json_string_value(json_object_get(run, "test"));
		struct lst_step step;
		struct lst_step_result r;
		lst_err err;

		if (json_integer_value(json_object_get(e, "phase_index")) != (json_int_t)phase ||
		    strcmp(json_string_value(json_object_get(e, "type")) ?: "", "point"))
			continue;
		if (!lst_suite_next(suite, &step) || !test || strcmp(test, step.test) ||
		    json_integer_value(json_object_get(run, "round")) != (json_int_t)step.round) {
			s_error(c,
				"resume: points.jsonl has phase %s point %zu as test '%s', which is "
				"not the plan's step there: was the plan changed?",
				name, n, test ? test : "?");
			return SIZE_MAX;
		}
		if (s_result_of(json_object_get(e, "result"), &r, &err)) {
			s_error(c, "resume: points.jsonl, phase %s point %zu: %s", name, n,
				err.msg);
			return SIZE_MAX;
		}
		lst_suite_result(suite, &step, &r, NULL);
		n++;
	}
	if (n && !c->opts.quiet)
		fprintf(c->opts.progress, "phase %s: %zu points kept from before the resume\n",
			name, n);
	return n;
}

/* One phase: its suite's steps one after another, then the suite's results. */
static int s_run_phase(lst_coord *c, size_t phase)
{
	const struct lst_plan_phase *ph = &c->plan->phases[phase];
	struct lst_step step;
	struct lst_step_result r;
	lst_suite_run *suite;
	lst_err err;
	size_t point = 0, tests_from = json_array_size(lst_results_tests(c->res));
	int rc = LST_RUN_OK;

	suite = lst_suite_new(c->plan, phase, s_phase_capacity(c, ph), &err);
	if (!suite) {
		s_error(c, "%s", err.msg);
		return LST_RUN_FAILED;
	}
	if (!c->opts.quiet) {
		int64_t est = lst_suite_estimate(suite);
		char dur[32], about[64] = "";

		if (est)
			snprintf(about, sizeof(about), ", about %s%s",
				 lst_fmt_duration(est, dur, sizeof(dur)),
				 lst_suite_has_rounds(suite) ? " a round" : "");
		fprintf(c->opts.progress, "phase %zu/%zu %s%s%s%s%s\n", phase + 1, c->plan->nphases,
			ph->name, ph->suite ? " (" : "",
			ph->suite ? lst_suite_names[ph->suite] : "", ph->suite ? ")" : "", about);
	}
	point = s_replay(c, phase, suite);
	if (point == SIZE_MAX) {
		lst_suite_destroy(&suite);
		return LST_RUN_FAILED;
	}
	while (lst_suite_next(suite, &step)) {
		if (s_run_point_retried(c, phase, point++, &step, &r) || !s_results_ok(c)) {
			rc = s_interrupted ? LST_RUN_INTERRUPTED : LST_RUN_FAILED;
			break;
		}
		lst_suite_result(suite, &step, &r, c->res);
		s_journal_point(c, &r);
		if (step.idle_after)
			s_idle(c, step.idle_after);
		if (s_interrupted) {
			rc = LST_RUN_INTERRUPTED;
			break;
		}
	}
	json_decref(c->pending); /* a point that did not end normally is not journaled */
	c->pending = NULL;
	lst_suite_finish(suite, c->res, c->opts.quiet ? NULL : c->opts.progress);
	lst_suite_destroy(&suite);
	if (rc == LST_RUN_OK)
		s_journal_phase(c, phase, tests_from);
	s_save_docs(c, false);
	return rc;
}

/* --- the run ----------------------------------------------------------------------------- */

static void s_default_outdir(lst_coord *c)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	c->outdir = lst_asprintf("results/%s-%s", c->plan->name, stamp);
}

/* Our key pair, from opts.key_file or the default, for agent i (the first with a key). */
static int s_load_own(lst_coord *c, size_t i, lst_err *err)
{
	const char *name = c->plan->agents[i].name;
	lst_err kerr;
	int rc;

	c->own_file = c->opts.key_file ? lst_strdup(c->opts.key_file) : lst_auth_default_key();
	rc = lst_auth_load_keypair(c->own_file, &c->own, &kerr);
	if (rc == -ENOENT) {
		char *twin = lst_auth_public_twin(c->own_file);

		lst_err_set(err, rc,
			    "agent %s has a key: in the plan, so we speak CURVE, but there is no "
			    "coordinator key %s: make one with 'lockstep keygen %.*s' and copy %s "
			    "into every agent's authorized_keys folder, or give --key FILE",
			    name, c->own_file, (int)(strlen(twin) - 4), twin, twin);
		free(twin);
		return rc;
	}
	if (rc)
		return lst_err_set(err, rc, "coordinator key: %s", kerr.msg);
	return 0;
}

/*
 * Connect to agent i: CURVE when the plan gives its key, plain text otherwise, which needs a
 * loopback address or --insecure. Returns 0 or -errno with err.
 */
static int s_connect_agent(lst_coord *c, size_t i, lst_err *err)
{
	const struct lst_plan_agent *ag = &c->plan->agents[i];
	struct lst_conn_curve cv;
	char pub[LST_KEY_TEXT];
	lst_err kerr;
	int rc;

	if (!ag->key) {
		if (!lst_auth_endpoint_is_local(ag->address) && !c->opts.insecure)
			return lst_err_set(
				err, -EPERM,
				"agent %s (%s) has no key: in the plan, and plain text is "
				"allowed only to loopback addresses: add the agent's public "
				"key (key: keys/%s.pub, made by 'lockstep keygen' on that "
				"host), or run with --insecure",
				ag->name, ag->address, ag->name);
		if (!lst_auth_endpoint_is_local(ag->address))
			lst_log_warn(
				"agent %s (%s): plain text (--insecure): anyone on the way can "
				"read the traffic and forge commands; give the agent a key: "
				"(docs/security.md)",
				ag->name, ag->address);
		c->a[i].conn = lst_conn_new(i, ag->name, ag->address, NULL, err);
		return c->a[i].conn ? 0 : -EIO;
	}
	if ((rc = lst_auth_load_public(ag->key, pub, &kerr)))
		return lst_err_set(err, rc, "agent %s: key: %s", ag->name, kerr.msg);
	if (!c->own_file && (rc = s_load_own(c, i, err)))
		return rc;
	cv.own = &c->own;
	cv.own_file = c->own_file;
	cv.agent_pub = pub;
	cv.agent_src = lst_auth_is_key_text(ag->key) && access(ag->key, F_OK)
			       ? "the plan's key text"
			       : ag->key;
	c->a[i].conn = lst_conn_new(i, ag->name, ag->address, &cv, err);
	return c->a[i].conn ? 0 : -EIO;
}

lst_coord *lst_coord_new(const lst_plan *plan, const struct lst_coord_opts *opts, lst_err *err)
{
	lst_coord *c = lst_calloc(1, sizeof(*c));
	struct timespec ts;

	c->plan = plan;
	c->opts = *opts;
	if (!c->opts.lead_ns)
		c->opts.lead_ns = 250 * LST_NS_PER_MS;
	if (!c->opts.connect_timeout_ns)
		c->opts.connect_timeout_ns = 10 * LST_NS_PER_S;
	if (!c->opts.progress)
		c->opts.progress = stderr;
	c->tty = isatty(fileno(c->opts.progress));
	gethostname(c->host, sizeof(c->host) - 1);
	clock_gettime(CLOCK_REALTIME, &ts);
	{
		struct tm tm;
		char stamp[32];

		gmtime_r(&ts.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(c->run_id, sizeof(c->run_id), "%s-%x", stamp, (unsigned)getpid());
	}
	if (opts->outdir)
		c->outdir = lst_strdup(opts->outdir);
	else
		s_default_outdir(c);
	c->n = plan->nagents;
	c->a = lst_calloc(c->n, sizeof(*c->a));
	c->conns = lst_calloc(c->n, sizeof(*c->conns));
	c->ready = lst_calloc(c->n, sizeof(*c->ready));
	c->targets = lst_calloc(plan->ntargets, sizeof(*c->targets));
	/*
	 * One model for silence: unreachable after 3 s (or 3 intervals); lost once the lease has
	 * run out on the agent too, which it measures from the last message it had from us (at
	 * most a PING interval before our last from it), plus a margin for the network.
	 */
	c->unreach_after = LST_MAX(3 * LST_NS_PER_S, 3 * plan->defaults.interval);
	c->lost_after = LST_MAX(c->unreach_after, plan->lease + S_PING_EVERY + LST_NS_PER_S / 2);
	for (size_t i = 0; i < c->n; i++) {
		if (s_connect_agent(c, i, err)) {
			lst_coord_destroy(&c);
			return NULL;
		}
		c->conns[i] = c->a[i].conn;
	}
	return c;
}

void lst_coord_destroy(lst_coord **p)
{
	lst_coord *c = *p;

	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		lst_conn_destroy(&c->a[i].conn);
		lst_msg_destroy(&c->a[i].reply);
		lst_msg_destroy(&c->a[i].cmd);
	}
	for (size_t t = 0; c->targets && t < c->plan->ntargets; t++)
		free(c->targets[t].ids);
	free(c->targets);
	free(c->a);
	free(c->conns);
	free(c->ready);
	lst_results_destroy(&c->res);
	json_decref(c->pending);
	json_decref(c->journal);
	free(c->phase_done);
	json_decref(c->run);
	free(c->outdir);
	explicit_bzero(&c->own, sizeof(c->own));
	free(c->own_file);
	free(c);
	*p = NULL;
}

const char *lst_coord_results_dir(const lst_coord *c)
{
	return c->outdir;
}

static void s_bye(lst_coord *c)
{
	/*
	 * Lost agents too: one lost because it did not answer in time may still hold our session,
	 * and would refuse the next run as busy until its lease ran out. An agent that is not in
	 * our session ignores the BYE.
	 */
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].conn->state == LST_CONN_READY)
			s_send_simple(c, i, LST_MSG_BYE);
	/* Let the frames leave before the sockets close (linger is 0). */
	s_pump(c, 50 * LST_NS_PER_MS);
}

/* Draw the plots of the results folder; they never decide the run's outcome. */
static void s_plots(lst_coord *c)
{
	lst_err err;
	int rc;

	if (!c->res)
		return;
	if (c->results_failed) {
		lst_log_warn("plots skipped: the results folder could not be written");
		return;
	}
	if (!c->points_run)
		return; /* no point ran: nothing to draw */
	if (!c->opts.quiet)
		fprintf(c->opts.progress, "lockstep: drawing plots into %s/plots\n", c->outdir);
	rc = lst_plot_all(c->outdir, &err);
	if (rc == -ENOENT)
		lst_log_warn(
			"plots skipped: gnuplot is not installed (apt-get install gnuplot-nox; "
			"then 'lockstep report %s' draws them)",
			c->outdir);
	else if (rc)
		lst_log_warn("plots: %s", err.msg);
}

/*
 * From the first contact to the end: connect, clocks, identities, every phase not yet done (a
 * resume skips the finished ones), then status, run.json, plots. c->res and c->run are ready.
 */
static int s_run_all(lst_coord *c)
{
	const lst_plan *p = c->plan;
	int rc = LST_RUN_OK;

	s_save_docs(c, true);
	if (!s_results_ok(c) || s_hello(c) || (s_sync(c), s_identify(c))) {
		rc = LST_RUN_FAILED;
		goto out;
	}
	for (size_t i = 0; i < c->n; i++) {
		lst_conn *cn = c->a[i].conn;
		json_t *o = json_array_get(json_object_get(c->run, "agents"), i);

		json_object_set_new(o, "host", json_string(cn->info.host));
		json_object_set_new(o, "version", json_string(cn->info.version));
		json_object_set_new(o, "kernel", json_string(cn->info.kernel));
		json_object_set_new(o, "cores", json_integer(cn->info.cores));
		if (!c->opts.quiet)
			fprintf(c->opts.progress,
				"  agent %-8s %s (%s, %u cores): clock offset %+.3f ms, rtt %.0f us\n",
				cn->name, cn->info.host, cn->info.version, cn->info.cores,
				(double)cn->est.offset_ns / 1e6, (double)cn->est.rtt_ns / 1e3);
	}
	s_save_docs(c, true);
	c->running = true;
	for (size_t ph = 0; ph < p->nphases && rc == LST_RUN_OK; ph++) {
		if (c->phase_done && c->phase_done[ph])
			continue;
		rc = s_run_phase(c, ph);
	}
out:
	s_bye(c);
	if (s_interrupted) /* also while connecting: Ctrl-C is what ended the run */
		rc = LST_RUN_INTERRUPTED;
	/* partial: every phase ran, but a point without a lost agent (on_agent_loss: continue) */
	json_object_set_new(c->run, "status",
			    json_string(rc == LST_RUN_INTERRUPTED ? "interrupted"
					: rc != LST_RUN_OK	  ? "failed"
					: c->failed		  ? "failed"
					: c->partial		  ? "partial"
								  : "complete"));
	if ((c->failed || c->partial) && rc == LST_RUN_OK)
		rc = LST_RUN_FAILED;
	{
		char now[64];

		json_object_set_new(c->run, "finished",
				    json_string(lst_time_iso8601(lst_real_ns(), now, sizeof(now))));
	}
	s_save_run(c, true);
	lst_results_flush_summary(c->res, NULL);
	s_plots(c);
	return rc;
}

int lst_coord_run(lst_coord *c)
{
	const lst_plan *p = c->plan;
	lst_err err;

	c->res = lst_results_new(c->outdir, &err);
	if (!c->res) {
		lst_log_error("%s", err.msg);
		return LST_RUN_USAGE;
	}
	c->run = s_run_json(c);
	c->phases = json_object_get(c->run, "phases");
	c->errors = json_object_get(c->run, "errors");
	c->retries = json_object_get(c->run, "retries");
	if (p->text) /* a failure is kept by the results and ends the run below */
		lst_results_write_file(c->res, "plan.yaml", p->text, strlen(p->text), &err);
	if (!c->opts.quiet)
		fprintf(c->opts.progress, "lockstep: run %s, %zu agents, results in %s\n",
			c->run_id, c->n, c->outdir);
	return s_run_all(c);
}

/* --- lockstep resume ------------------------------------------------------------------------ */

/*
 * Before anything in the folder changes: reach every agent with the run's id and end the
 * session it may still hold from before the crash (BYE stops whatever point it still runs and
 * drops its reply cache, whose command ids a new coordinator would reuse). An agent whose lease
 * still holds that session answers BUSY naming our run: wait for the lease (and a little), then
 * try again. BUSY naming another run is a refusal. Returns 0, or an exit code.
 */
static int s_reattach(lst_coord *c)
{
	int64_t deadline = lst_mono_ns() + c->plan->lease + 15 * LST_NS_PER_S;
	bool said = false;

	for (;;) {
		struct lst_coord_opts o = c->opts;
		bool own_busy = false, other = false;
		lst_coord *p;
		lst_err err;
		int rc;

		o.quiet = true;
		p = lst_coord_new(c->plan, &o, &err);
		if (!p) {
			lst_log_error("%s", err.msg);
			return LST_RUN_USAGE;
		}
		snprintf(p->run_id, sizeof(p->run_id), "%s", c->run_id);
		lst_log_open("/dev/null"); /* BUSY while we wait is expected: said once below */
		rc = s_hello(p);
		lst_log_close();
		for (size_t i = 0; rc && i < p->n; i++) {
			struct s_agent *a = &p->a[i];

			if (!a->lost)
				continue;
			if (a->reply && a->reply->type == LST_MSG_ERROR &&
			    a->reply->u.error.code == LST_PERR_BUSY &&
			    strstr(a->reply->u.error.text, c->run_id)) {
				own_busy = true;
				if (!said && !c->opts.quiet)
					fprintf(c->opts.progress,
						"lockstep: agent %s still holds this run's session "
						"from before (%s); waiting for its lease (%.0f s) to "
						"end\n",
						a->conn->name, a->reply->u.error.text,
						(double)c->plan->lease / 1e9);
			} else if (a->reply && a->reply->type == LST_MSG_ERROR &&
				   a->reply->u.error.code == LST_PERR_BUSY) {
				lst_log_error(
					"agent %s serves another coordinator (%s): not resuming "
					"run %s; the results folder is unchanged",
					a->conn->name, a->reply->u.error.text, c->run_id);
				other = true;
			} else {
				lst_log_error(
					"agent %s: %s; not resuming run %s (the results folder "
					"is unchanged)",
					a->conn->name, a->lost_why, c->run_id);
				other = true;
			}
		}
		said |= own_busy;
		s_bye(p); /* ends the old session on every agent that took us back */
		lst_coord_destroy(&p);
		if (!rc)
			return 0;
		if (other || !own_busy)
			return LST_RUN_FAILED;
		if (s_interrupted)
			return LST_RUN_INTERRUPTED;
		if (lst_mono_ns() > deadline) {
			lst_log_error(
				"the agents still hold run %s's session %.0f s after its lease; "
				"not resuming",
				c->run_id, (double)(c->plan->lease + 15 * LST_NS_PER_S) / 1e9);
			return LST_RUN_FAILED;
		}
		usleep(500 * 1000);
	}
}

int lst_coord_resume(lst_coord *c, json_t *run, json_t *journal)
{
	json_t *tests = json_array(), *resumes = json_array(), *last = NULL, *base = NULL, *e;
	const char *run_id = json_string_value(json_object_get(run, "run_id"));
	size_t i, phase = 0, point = 0, kept = 0;
	char when[64];
	lst_err err;
	int rc;

	snprintf(c->run_id, sizeof(c->run_id), "%s", run_id ? run_id : "");
	c->phase_done = lst_calloc(c->plan->nphases + 1, sizeof(*c->phase_done));
	json_array_foreach (journal, i, e) {
		const char *type = json_string_value(json_object_get(e, "type"));
		json_int_t ph = json_integer_value(json_object_get(e, "phase_index"));

		if (!type)
			continue;
		if (json_object_get(e, "sizes"))
			last = e;
		if (!strcmp(type, "point")) {
			base = json_object_get(e, "time_base");
			kept++;
		} else if (!strcmp(type, "phase_end") && ph >= 0 && (size_t)ph < c->plan->nphases) {
			json_array_extend(tests, json_object_get(e, "tests"));
			c->phase_done[ph] = true;
		} else if (!strcmp(type, "resume")) {
			json_array_append_new(resumes,
					      json_pack("{s:O, s:O, s:O}", "when",
							json_object_get(e, "when"), "phase",
							json_object_get(e, "phase"), "point",
							json_object_get(e, "point")));
		}
	}
	/* The point to run again: the first one of the first phase not done. */
	while (phase < c->plan->nphases && c->phase_done[phase])
		phase++;
	json_array_foreach (journal, i, e)
		if (json_integer_value(json_object_get(e, "phase_index")) == (json_int_t)phase &&
		    !strcmp(json_string_value(json_object_get(e, "type")) ?: "", "point"))
			point++;
	/*
	 * What s_replay needs of the journal: each point's type, phase, test, round and result.
	 * Its rows stay in points.jsonl, from where run.json and summary.json are written.
	 */
	c->journal = json_array();
	json_array_foreach (journal, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "type")) ?: "", "point")) {
			json_t *run_e = json_object_get(e, "run");

			json_array_append_new(
				c->journal,
				json_pack("{s:s, s:O, s:{s:O, s:O}, s:O}", "type", "point",
					  "phase_index", json_object_get(e, "phase_index"), "run",
					  "test", json_object_get(run_e, "test") ?: json_null(),
					  "round", json_object_get(run_e, "round") ?: json_null(),
					  "result", json_object_get(e, "result") ?: json_null()));
		}

	rc = s_reattach(c);
	if (rc)
		goto out;
	c->res = lst_results_reopen(c->outdir, json_object_get(last, "sizes"), tests, &err);
	if (!c->res) {
		lst_log_error("%s", err.msg);
		rc = LST_RUN_FAILED;
		goto out;
	}
	c->run = json_deep_copy(run);
	json_object_del(c->run, "status");
	json_object_del(c->run, "finished");
	json_object_del(c->run, "phases_in");
	json_object_set_new(c->run, "phases", json_array()); /* the kept ones are journaled */
	c->phases = json_object_get(c->run, "phases");
	c->points_run = kept;
	if (!json_is_array(json_object_get(c->run, "errors")))
		json_object_set_new(c->run, "errors", json_array());
	c->errors = json_object_get(c->run, "errors");
	if (!json_is_array(json_object_get(c->run, "retries")))
		json_object_set_new(c->run, "retries", json_array());
	c->retries = json_object_get(c->run, "retries");
	lst_time_iso8601(lst_real_ns(), when, sizeof(when));
	e = json_pack("{s:s, s:s, s:s?, s:I, s:I}", "type", "resume", "when", when, "phase",
		      phase < c->plan->nphases ? c->plan->phases[phase].name : NULL, "phase_index",
		      (json_int_t)phase, "point", (json_int_t)point);
	if (lst_results_journal(c->res, e, &err))
		lst_log_warn("%s", err.msg);
	json_object_del(e, "type");
	json_object_del(e, "sizes");
	json_object_del(e, "phase_index");
	json_array_append_new(resumes, e);
	json_object_set(c->run, "resumes", resumes);
	/* Times stay on the run's own base: t_s goes on from where it was. */
	if (base) {
		char boot[64];
		const char *was = json_string_value(json_object_get(base, "boot_id"));

		s_boot_id(boot, sizeof(boot));
		if (was && *boot && !strcmp(was, boot))
			c->run_t0 = json_integer_value(json_object_get(base, "mono_ns"));
		else /* the workstation rebooted: through the wall clock */
			c->run_t0 = lst_mono_ns() -
				    (lst_real_ns() -
				     json_integer_value(json_object_get(base, "real_ns")));
	}
	if (!c->opts.quiet)
		fprintf(c->opts.progress,
			"lockstep: resuming run %s at phase %s point %zu (%zu points kept), results "
			"in %s\n",
			c->run_id, phase < c->plan->nphases ? c->plan->phases[phase].name : "(end)",
			point, kept, c->outdir);
	rc = s_run_all(c);
out:
	json_decref(tests);
	json_decref(resumes);
	return rc;
}

/* --- lockstep agents ------------------------------------------------------------------------ */

int lst_coord_probe(const char *const *names, const char *const *addresses, const char *const *keys,
		    size_t n, const struct lst_coord_opts *sec, bool json, FILE *out)
{
	lst_plan plan;
	struct lst_plan_agent *agents = lst_calloc(n, sizeof(*agents));
	struct lst_coord_opts opts = { .quiet = true, .connect_timeout_ns = 5 * LST_NS_PER_S };
	lst_coord *c;
	lst_err err;
	json_t *arr = json_array();
	int rc = 0;

	memset(&plan, 0, sizeof(plan));
	plan.name = "probe";
	plan.nagents = n;
	plan.agents = agents;
	plan.lease = 10 * LST_NS_PER_S;
	lst_workload_init(&plan.defaults);
	if (sec) {
		opts.key_file = sec->key_file;
		opts.insecure = sec->insecure;
	}
	for (size_t i = 0; i < n; i++) {
		agents[i].name = (char *)names[i];
		agents[i].address = (char *)addresses[i];
		agents[i].key = keys ? (char *)keys[i] : NULL;
	}
	c = lst_coord_new(&plan, &opts, &err);
	if (!c) {
		fprintf(stderr, "lockstep: %s\n", err.msg);
		free(agents);
		json_decref(arr);
		return 2;
	}
	s_hello(c);
	s_sync(c);
	if (!json)
		fprintf(out, "%-12s %-9s %-20s %5s %-16s %14s %10s  %s\n", "NAME", "VERSION",
			"HOST", "CORES", "ENGINES", "CLOCK_OFFSET_MS", "RTT_US", "ADDRESS");
	for (size_t i = 0; i < n; i++) {
		lst_conn *cn = c->a[i].conn;
		char engines[64] = "";

		for (int e = 0; lst_engine_names[e]; e++)
			if (cn->info.engines & (1u << e))
				snprintf(engines + strlen(engines),
					 sizeof(engines) - strlen(engines), "%s%s",
					 engines[0] ? "," : "", lst_engine_names[e]);
		if (c->a[i].lost || !cn->synced) {
			rc = 1;
			if (json)
				json_array_append_new(arr,
						      json_pack("{s:s, s:s, s:s}", "name", names[i],
								"address", addresses[i], "error",
								c->a[i].lost_why));
			else
				fprintf(out, "%-12s %s  (%s)\n", names[i],
					lst_conn_failure(cn) ? "refused" : "unreachable",
					c->a[i].lost_why);
			continue;
		}
		if (json)
			json_array_append_new(
				arr, json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:f, s:f}",
					       "name", cn->info.name, "address", addresses[i],
					       "version", cn->info.version, "host", cn->info.host,
					       "kernel", cn->info.kernel, "cores",
					       (int)cn->info.cores, "engines", engines,
					       "clock_offset_us", (double)cn->est.offset_ns / 1e3,
					       "rtt_us", (double)cn->est.rtt_ns / 1e3));
		else
			fprintf(out, "%-12s %-9s %-20s %5u %-16s %14.3f %10.1f  %s\n",
				cn->info.name, cn->info.version, cn->info.host, cn->info.cores,
				engines, (double)cn->est.offset_ns / 1e6,
				(double)cn->est.rtt_ns / 1e3, addresses[i]);
	}
	if (json) {
		json_dumpf(arr, out, JSON_INDENT(2));
		fputc('\n', out);
	}
	s_bye(c);
	lst_coord_destroy(&c);
	json_decref(arr);
	free(agents);
	return rc;
}
