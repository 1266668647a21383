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

/* What one agent is doing in the current point. */
struct s_agent {
	lst_conn *conn;
	bool lost;
	char lost_why[1024];
	bool refused; /* answered a command with ERROR */
	lst_err error;

	/* command bookkeeping: the id awaited and whether the reply came */
	uint64_t await_id;
	bool replied;
	lst_msg *reply; /* the last reply to a command, owned */

	/* current point */
	bool in_point;
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
	int64_t loss_after; /* silence that makes an agent lost */
	struct s_point cur;
	bool in_point;
	bool failed;
	bool results_failed; /* a write into the results folder failed (reported once) */
	bool tty;
	int64_t docs_next; /* run.json and summary.json are not rewritten before (rate limit) */
	json_t *pending;   /* the journal entry of the point just run, until its suite saw it */
	json_t *journal;   /* resume: points.jsonl's entries; NULL in a fresh run */
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
		json_object_set_new(o, "lost", json_boolean(a->lost));
		if (a->lost)
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
	if (lst_results_journal(c->res, e, &err) && !c->results_failed)
		lst_log_warn("%s", err.msg);
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
			 "s:o, s:o, s:[], s:[]}",
			 "format", 1, "run_id", c->run_id, "plan_name", p->name, "plan_file",
			 p->file, "plan_sha1", sha1, "started",
			 lst_time_iso8601(lst_real_ns(), now, sizeof(now)), "versions", "lockstep",
			 LST_VERSION, "protocol", LST_PROTO_VERSION, "libzmq", zmq, "czmq", czmq,
			 "kernel", u.release, "coordinator", c->host, "agents", agents, "targets",
			 targets, "phases", "errors");
}

/* --- sending and pumping ---------------------------------------------------------------- */

static bool s_usable(const struct s_agent *a)
{
	return !a->lost && a->conn->state == LST_CONN_READY;
}

static void s_lose(lst_coord *c, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Mark an agent lost: it gets no more commands, and the merge stops waiting for it. The error
 * line reads "agent NAME" + how + why. */
static void s_drop(lst_coord *c, size_t i, const char *how, const char *fmt, va_list ap)
{
	struct s_agent *a = &c->a[i];

	if (a->lost)
		return;
	vsnprintf(a->lost_why, sizeof(a->lost_why), fmt, ap);
	if (c->in_point && a->in_point) {
		size_t n = strlen(a->lost_why);

		snprintf(a->lost_why + n, sizeof(a->lost_why) - n,
			 "; during phase %s point %zu, after %llu samples", c->cur.phase_name,
			 c->cur.point, (unsigned long long)a->samples);
	}
	a->lost = true;
	a->conn->state = LST_CONN_LOST;
	if (c->in_point && a->in_point && !a->done) {
		a->done = true;
		a->done_msg.reason = LST_DONE_ERROR;
		snprintf(a->done_msg.text, sizeof(a->done_msg.text), "lost");
		lst_merge_agent_done(c->cur.merge, i);
	}
	s_error(c, "agent %s%s: %s", a->conn->name, how, a->lost_why);
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

/* The connection can never work (a handshake refused): the agent is out, said plainly. */
static void s_refused(lst_coord *c, size_t i, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s_drop(c, i, "", fmt, ap);
	va_end(ap);
}

/* Send a command to agent i and remember which reply to wait for. Consumes m. */
static int s_command(lst_coord *c, size_t i, lst_msg **m)
{
	struct s_agent *a = &c->a[i];
	lst_err err;
	int rc;

	lst_msg_destroy(&a->reply);
	a->replied = false;
	rc = lst_conn_send(a->conn, *m, true, &a->await_id, &err);
	lst_msg_destroy(m);
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

static void s_on_row(const struct lst_merge_row *row, void *arg);

static void s_on_sample(lst_coord *c, size_t i, lst_msg *m, const uint8_t *raw, size_t rawlen)
{
	struct s_agent *a = &c->a[i];
	struct lst_msg_sample *s = &m->u.sample;
	lst_msg *ack;
	lst_err err;

	/* A failed write is kept by the results and ends the run once (s_results_ok). */
	lst_results_raw(c->res, a->conn->name, raw, rawlen, &err);
	a->conn->last_sample_seq = m->seq;
	ack = lst_msg_new(LST_MSG_ACK);
	ack->u.ack.upto = m->seq;
	lst_conn_send(a->conn, ack, false, NULL, &err);
	lst_msg_destroy(&ack);
	if (!c->in_point || !a->in_point || s->phase != c->cur.phase || s->point != c->cur.point) {
		lst_log_warn("agent %s: sample for phase %u point %u outside the running point",
			     a->conn->name, s->phase, s->point);
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
		return;
	}
	if (lst_merge_add(c->cur.merge, i, &s->s) == -EALREADY && !a->merged_late++)
		lst_log_warn(
			"agent %s: sample %lld arrived after that interval was merged (counted "
			"in the point's totals, not in timeseries.csv)",
			a->conn->name, (long long)s->s.interval);
}

static void s_dispatch(lst_coord *c, size_t i, lst_msg *m, const uint8_t *raw, size_t rawlen,
		       int64_t t_recv)
{
	struct s_agent *a = &c->a[i];
	lst_err err;

	switch (m->type) {
	case LST_MSG_SYNC_REPLY: {
		int rc = lst_conn_sync_reply(a->conn, &m->u.sync_reply, t_recv, &err);

		/* Every exchange, as it came, so the run can be re-aligned later (clock.csv). */
		if (c->res)
			lst_results_clock(c->res, a->conn->name, m->u.sync_reply.t1,
					  m->u.sync_reply.t2, m->u.sync_reply.t3, t_recv);
		if (rc < 0)
			s_lose(c, i, "%s", err.msg);
		return;
	}
	case LST_MSG_SAMPLE:
		s_on_sample(c, i, m, raw, rawlen);
		return;
	case LST_MSG_DONE:
		if (c->in_point && a->in_point && m->u.done.phase == c->cur.phase &&
		    m->u.done.point == c->cur.point && !a->done) {
			a->done = true;
			a->done_msg = m->u.done;
			lst_merge_agent_done(c->cur.merge, i);
			if (m->u.done.reason == LST_DONE_ERROR)
				s_error(c, "agent %s: %s", a->conn->name, m->u.done.text);
			else if (m->u.done.reason == LST_DONE_LEASE)
				s_error(c,
					"agent %s stopped by its lease (it did not hear from us)",
					a->conn->name);
		}
		return;
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
		lst_msg_destroy(&a->reply);
		a->reply = lst_msg_new(m->type);
		memcpy(a->reply, m, sizeof(*m));
	}
}

/*
 * Wait up to timeout_ns, dispatching everything that arrives. Housekeeping: PINGs every second,
 * abandoned clock exchanges, agents silent longer than loss_after. Returns early on Ctrl-C.
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
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];
		const char *why = lst_conn_failure(a->conn);
		lst_err err;

		if (!a->lost && why)
			s_refused(c, i, "%s", why);
		if (a->lost || a->conn->state != LST_CONN_READY)
			continue;
		if (lst_conn_sync_tick(a->conn, now, &err) < 0)
			s_lose(c, i, "%s", err.msg);
		if (now - a->conn->last_heard > c->loss_after)
			s_lose(c, i,
			       "no message for %.1f s (it stopped, crashed, or the network "
			       "between us failed)",
			       (double)(now - a->conn->last_heard) / 1e9);
	}
	if (now - c->last_ping >= S_PING_EVERY) {
		c->last_ping = now;
		for (size_t i = 0; i < c->n; i++)
			if (s_usable(&c->a[i]))
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

static bool s_all_replied(lst_coord *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->a[i].in_point && s_usable(&c->a[i]) && !c->a[i].replied)
			return false;
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

/* Check the replies to a command sent to every agent in the point; report ERRORs. */
static bool s_replies_ok(lst_coord *c, const char *what)
{
	bool ok = true;

	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];

		if (!a->in_point || a->lost)
			continue;
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

static int s_hello(lst_coord *c, int64_t lease_ms)
{
	for (size_t i = 0; i < c->n; i++) {
		lst_msg *m = lst_msg_new(LST_MSG_HELLO);

		m->u.hello.proto = LST_PROTO_VERSION;
		m->u.hello.ncaps = 1;
		snprintf(m->u.hello.caps[0], sizeof(m->u.hello.caps[0]), "samples.v1");
		snprintf(m->u.hello.coordinator, sizeof(m->u.hello.coordinator), "%s", c->host);
		snprintf(m->u.hello.run, sizeof(m->u.hello.run), "%s", c->run_id);
		m->u.hello.lease_ms = (uint32_t)lease_ms;
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
		static const char *reasons[] = { "complete", "stopped", "lease", "error" };
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
				  "done",
				  a->done_msg.reason < 4 ? reasons[a->done_msg.reason] : "?",
				  "text", a->done_msg.text, "samples", (json_int_t)a->samples,
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
		if (c->a[i].in_point && c->a[i].merged_late > 1)
			lst_log_warn("agent %s: %llu samples of this point arrived after their "
				     "intervals were merged",
				     c->a[i].conn->name, (unsigned long long)c->a[i].merged_late);
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
 * Run one step of phase `phase` as point number `point`. Returns 0 when it completed (maybe
 * partial) with the combined result in *out, -1 when the run must end (refusal, loss under
 * abort, Ctrl-C).
 */
static int s_run_point(lst_coord *c, size_t phase, size_t point, const struct lst_step *step,
		       struct lst_step_result *out)
{
	const lst_plan *p = c->plan;
	const struct lst_plan_phase *ph = &p->phases[phase];
	struct lst_workload first_w;
	int64_t max_rtt = 0, lead;
	bool partial = false, have_first = false;
	lst_msg **msgs = lst_calloc(c->n, sizeof(*msgs));
	int rc = 0;

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

	/* Job specs per agent. */
	for (size_t k = 0; k < ph->ntargets; k++) {
		size_t t = ph->targets[k];
		const struct lst_plan_target *pt = &p->targets[t];

		for (size_t j = 0; j < pt->npaths; j++) {
			size_t i = pt->paths[j].agent;
			struct lst_jobspec *js;

			if (c->a[i].lost) {
				partial = true;
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
				rc = -1;
				goto out;
			}
			js = &msgs[i]->u.prepare.jobs[msgs[i]->u.prepare.njobs++];
			snprintf(js->target, sizeof(js->target), "%s", pt->name);
			snprintf(js->path, sizeof(js->path), "%s", pt->paths[j].path);
			snprintf(js->identity, sizeof(js->identity), "%s",
				 pt->identity ? pt->identity : "");
			js->action = step->action;
			if (s_path_workload(c, ph, t, j, step, &js->w)) {
				rc = -1;
				goto out;
			}
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
				first_w = js->w;
				have_first = true;
			}
		}
	}
	if (!have_first) {
		s_error(c, "phase %s point %zu: no agent left to run it", ph->name, point);
		rc = -1;
		goto out;
	}
	if (partial && ph->on_agent_loss == LST_ON_LOSS_ABORT) {
		/* lost between points (or in an earlier phase that said continue) */
		lst_log_warn("an agent was lost and the plan says abort: phase %s point %zu does "
			     "not start",
			     ph->name, point);
		rc = -1;
		goto out;
	}
	c->cur.interval = first_w.interval;
	c->cur.nramp = (first_w.ramp + first_w.interval - 1) / first_w.interval;
	c->cur.duration = first_w.runtime ? c->cur.nramp * first_w.interval + first_w.runtime : 0;

	/* PREPARE everywhere. */
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];

		a->in_point = msgs[i] != NULL;
		a->started = a->done = a->late_warned = a->bad_warned = false;
		a->start_id = 0;
		a->samples = a->merged_late = 0;
		memset(&a->done_msg, 0, sizeof(a->done_msg));
		a->done_msg.last_interval = -1;
		if (msgs[i])
			s_command(c, i, &msgs[i]);
	}
	c->in_point = true;
	c->cur.merge = lst_merge_new(c->n, s_on_row, c);
	for (size_t i = 0; i < c->n; i++)
		if (!c->a[i].in_point)
			lst_merge_agent_done(c->cur.merge, i);
	s_pump_until(c, s_all_replied, S_REPLY_TIMEOUT);
	if (s_interrupted || !s_replies_ok(c, "the job specs")) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct s_agent *a = &c->a[i];

		if (a->in_point && a->reply->u.prepared.warning[0])
			lst_log_warn("agent %s: %s", a->conn->name, a->reply->u.prepared.warning);
	}

	/* One start instant for everyone, far enough ahead for the slowest START to arrive. */
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

		if (!a->in_point || !s_usable(a))
			continue;
		m = lst_msg_new(LST_MSG_START);
		m->u.start.phase = (uint32_t)phase;
		m->u.start.point = (uint32_t)point;
		a->t0_agent = lst_clock_to_remote(&a->conn->clock, c->cur.T0);
		m->u.start.t0 = a->t0_agent;
		if (!s_command(c, i, &m))
			a->start_id = a->await_id;
	}
	lst_log_debug(LST_DBG_TIME, "phase %s point %zu: start in %.1f ms", ph->name, point,
		      (double)lead / 1e6);

	/* Run: merge until every agent is done (or lost). */
	while (!s_all_done(c)) {
		if (s_interrupted) {
			if (c->tty && !c->opts.quiet)
				fputc('\n', c->opts.progress);
			lst_log_warn(
				"interrupted: stopping every agent and keeping what was measured");
			s_stop_all(c);
			rc = -1;
			break;
		}
		s_pump(c, 100 * LST_NS_PER_MS);
		if (!s_results_ok(c)) {
			s_stop_all(c);
			rc = -1;
			break;
		}
		s_resync(c);
		for (size_t i = 0; i < c->n; i++) {
			if (c->a[i].in_point && c->a[i].lost)
				partial = true;
		}
		if (partial && c->plan->phases[phase].on_agent_loss == LST_ON_LOSS_ABORT) {
			lst_log_warn(
				"an agent was lost and the plan says abort: stopping the others");
			s_stop_all(c);
			rc = -1;
			break;
		}
	}
	s_record_point(c, step, partial, out);
out:
	for (size_t i = 0; i < c->n; i++) {
		lst_msg_destroy(&msgs[i]);
		c->a[i].in_point = false;
		json_decref(c->a[i].jobs);
		c->a[i].jobs = NULL;
	}
	free(msgs);
	lst_merge_destroy(&c->cur.merge);
	c->in_point = false;
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
		if (s_run_point(c, phase, point++, &step, &r) || !s_results_ok(c)) {
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
	c->loss_after = LST_MAX(3 * LST_NS_PER_S, 3 * plan->defaults.interval);
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
	for (size_t i = 0; i < c->n; i++)
		if (s_usable(&c->a[i]))
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
	if (!json_array_size(c->phases))
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
	if (!s_results_ok(c) || s_hello(c, p->lease / LST_NS_PER_MS) ||
	    (s_sync(c), s_identify(c))) {
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
	for (size_t ph = 0; ph < p->nphases && rc == LST_RUN_OK; ph++) {
		if (c->phase_done && c->phase_done[ph])
			continue;
		rc = s_run_phase(c, ph);
	}
out:
	s_bye(c);
	if (s_interrupted) /* also while connecting: Ctrl-C is what ended the run */
		rc = LST_RUN_INTERRUPTED;
	{
		bool lost = false;

		for (size_t i = 0; i < c->n; i++)
			lost |= c->a[i].lost;
		/* Every phase ran, but without a lost agent (on_agent_loss: continue). */
		json_object_set_new(c->run, "status",
				    json_string(rc == LST_RUN_INTERRUPTED ? "interrupted"
						: rc != LST_RUN_OK	  ? "failed"
						: lost			  ? "partial"
						: c->failed		  ? "failed"
									  : "complete"));
	}
	if (c->failed && rc == LST_RUN_OK)
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
		rc = s_hello(p, c->plan->lease / LST_NS_PER_MS);
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
	json_t *points = json_array(), *tests = json_array(), *phases = json_array();
	json_t *resumes = json_array(), *last = NULL, *base = NULL, *e;
	const char *run_id = json_string_value(json_object_get(run, "run_id"));
	size_t i, phase = 0, point = 0;
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
			json_array_append(phases, json_object_get(e, "run"));
			json_array_extend(points, json_object_get(e, "summary"));
			base = json_object_get(e, "time_base");
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
	c->journal = json_incref(journal);

	rc = s_reattach(c);
	if (rc)
		goto out;
	c->res = lst_results_reopen(c->outdir, json_object_get(last, "sizes"), points, tests, &err);
	if (!c->res) {
		lst_log_error("%s", err.msg);
		rc = LST_RUN_FAILED;
		goto out;
	}
	c->run = json_deep_copy(run);
	json_object_del(c->run, "status");
	json_object_del(c->run, "finished");
	json_object_del(c->run, "phases_in");
	json_object_set(c->run, "phases", phases);
	c->phases = json_object_get(c->run, "phases");
	if (!json_is_array(json_object_get(c->run, "errors")))
		json_object_set_new(c->run, "errors", json_array());
	c->errors = json_object_get(c->run, "errors");
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
			point, json_array_size(phases), c->outdir);
	rc = s_run_all(c);
out:
	json_decref(points);
	json_decref(tests);
	json_decref(phases);
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
	s_hello(c, 10000);
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
