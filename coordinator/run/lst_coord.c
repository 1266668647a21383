/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The coordinator's run loop: the object (a coordinator that can reach its agents, built on a
 * plan or, for the probe, on a list of agents), signals, and a run from the first contact to
 * the end: connect, clocks, identities, every phase (lst_sched.c), then status, run.json, plots.
 *
 * The run is split by job over the files of lst_run. What one calls in another is in
 * lst_run_int.h, where struct lst_coord is opaque; its fields (lst_coord_int.h) are this file's,
 * lst_resume.c's (the orchestrator's other entry) and the getters' of lst_coord_state.c. The
 * classes it holds keep their own state behind their own headers: the session
 * (lst_session_int.h: lst_pump.c, lst_connect.c, lst_session_state.c), the point
 * (lst_point_int.h: lst_point.c, lst_point_rx.c, lst_paths.c) and the record (lst_record.h):
 *
 *   lst_coord_state.c the orchestrator's state lent to the parts, getters only
 *   lst_pump.c      the session: wait on every agent at once and dispatch what arrives through
 *                   the handler table the point fills; PINGs, abandoned clock exchanges,
 *                   silent agents declared unreachable and lost; BYE
 *   lst_connect.c   the session made and closed: keys, connections, HELLO -> WELCOME
 *   lst_session_state.c what the session knows of each agent, getters only
 *   lst_sched.c     IDENTIFY every path, the phases, a point's retries, replay on resume
 *   lst_point.c     one point: prepare, start, wait, record
 *   lst_point_rx.c  what the point takes from the pump: a sample checked once and stored, DONE
 *   lst_rows.c      one interval row per scope, and the sinks every row goes to
 *   lst_runlog.c    run.json and the points.jsonl journal, from what the parts give it
 *   lst_record.c    the record (lst_record.h, its own class): the results writer, run.json's
 *                   document, the entry waiting for the journal; lst_record_json.c its formats
 *   lst_progress.c  the terminal's progress lines
 *   lst_resume.c    lockstep resume
 *   lst_interrupt.c the Ctrl-C flag every wait looks at, and the signal handler that sets it
 *
 * The one-shot queries (lst_probe.c: lockstep agents, lst_inventory.c) hold an opaque
 * lst_session (lst_session.h), never a lst_coord.
 *
 * Time: every instant the coordinator picks or records is on its own CLOCK_MONOTONIC. Start
 * instants are converted to each agent's clock with that agent's model (lst_clock.h); agents'
 * sample timestamps are converted back for the per-agent rows and the start skew.
 */
#include "lst_coord.h"

#include <czmq.h>
#include <errno.h>
#include <malloc.h>
#include <sys/resource.h>

#include "lst_assert.h"
#include "lst_log.h"
#include "lst_plot.h"
#include "lst_repeats.h"
#include "lst_report_plan.h"
#include "lst_time.h"
#include "lst_util.h"

#include "lst_coord_int.h"

static void s_default_outdir(lst_coord *c)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	lst_record_set_dir(c->rec, lst_asprintf("results/%s-%s", c->plan->name, stamp));
}

/*
 * A message (lst_msg) is a third of a megabyte, as large as its largest body (a PREPARE), and
 * the coordinator keeps a command and a reply per agent. glibc maps blocks that large on their
 * own, but raises that threshold to the size of the first one freed: from then on they come from
 * the heap, where calloc clears them in full and a freed one's pages stay resident, and 1,000
 * agents held 500 MB of mostly-zero messages. A fixed threshold keeps them mapped: only the
 * pages a message uses are resident, and freeing it gives them back.
 */
static void s_malloc_policy(void)
{
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

/*
 * Room for n agents: the coordinator opens 3 ZeroMQ sockets per agent (its DEALER, the DEALER's
 * monitor and the monitor's PAIR), and czmq caps a process at 1,024 sockets unless told more
 * before its first socket (ZSYS_MAX_SOCKETS in the environment says more too). Each agent also
 * takes about 5 descriptors (its TCP connection and the sockets' signalling fds), so the soft
 * RLIMIT_NOFILE is raised towards the hard one when that is short. A run too large for the hard
 * limit fails here with a clear error instead of at the 300th connection.
 */
#define S_SOCKETS_PER_AGENT 3
#define S_FDS_PER_AGENT 5
#define S_SPARE 64
#define S_AGENTS_PER_IO_THREAD 1000
#define S_IO_THREADS_MAX 4

static int s_room_for(size_t n, lst_err *err)
{
	static size_t s_max_sockets; /* what we told czmq; 0: its default */
	size_t sockets = S_SOCKETS_PER_AGENT * n + S_SPARE;
	rlim_t fds = (rlim_t)(S_FDS_PER_AGENT * n + S_SPARE);
	struct rlimit rl;

	if (sockets > 1024 && sockets > s_max_sockets && !getenv("ZSYS_MAX_SOCKETS")) {
		zsys_set_max_sockets(sockets);
		s_max_sockets = sockets;
	}
	/* A large fleet's connections over several I/O threads: each thread's timers (one set
	 * per connection, walked on every heartbeat, lst_conn_fleet) shrink with their number. */
	if (n > S_AGENTS_PER_IO_THREAD && !getenv("ZSYS_IO_THREADS"))
		zsys_set_io_threads(LST_MIN(S_IO_THREADS_MAX, 1 + n / S_AGENTS_PER_IO_THREAD));
	lst_conn_fleet(n);
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < fds) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < fds)
			return lst_err_set(
				err, -EMFILE,
				"%zu agents need about %llu open files and the hard limit "
				"is %llu: raise it (ulimit -Hn, or LimitNOFILE in a unit)",
				n, (unsigned long long)fds, (unsigned long long)rl.rlim_max);
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? fds : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			return lst_err_set(err, -errno,
					   "cannot raise the open-file limit to %llu: %s",
					   (unsigned long long)rl.rlim_cur, strerror(errno));
	}
	return 0;
}

/*
 * A coordinator that can reach agents[n] (copied; the strings stay the caller's), with no plan:
 * run id, host name, the loss model's timers for a lease and a sample interval, and a
 * connection to every agent. What lst_coord_new builds a run on, and a one-shot query
 * (lst_session.c) uses alone.
 */
lst_coord *lst_coord__new(const struct lst_coord_agent *agents, size_t n, int64_t lease,
			  int64_t interval, const struct lst_coord_opts *opts, lst_err *err)
{
	lst_coord *c = lst_calloc(1, sizeof(*c));
	struct timespec ts;

	c->rec = lst_record_new();
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
	c->n = n;
	c->ses = lst_coord__session_new(agents, n, lease, interval);
	c->ver = lst_coord__verify_new(n);
	c->cur = lst_coord__point_new(n);
	/* The metrics address is checked (and bound) before any agent is contacted. */
	s_malloc_policy();
	if (s_room_for(n, err) || lst_coord__metrics_open(c, &c->metrics, err)) {
		lst_coord_destroy(&c);
		return NULL;
	}
	for (size_t i = 0; i < c->n; i++) {
		if (lst_coord__connect_agent(c, i, err) || lst_coord__pump_watch(c, i, err)) {
			lst_coord_destroy(&c);
			return NULL;
		}
	}
	return c;
}

lst_coord *lst_coord_new(const lst_plan *plan, const struct lst_coord_opts *opts, lst_err *err)
{
	struct lst_coord_agent *agents = lst_calloc(plan->nagents, sizeof(*agents));
	lst_coord *c;

	for (size_t i = 0; i < plan->nagents; i++) {
		agents[i].name = plan->agents[i].name;
		agents[i].address = plan->agents[i].address;
		agents[i].key = plan->agents[i].key;
	}
	c = lst_coord__new(agents, plan->nagents, plan->lease, plan->defaults.interval, opts, err);
	free(agents);
	if (!c)
		return NULL;
	c->plan = plan;
	lst_coord__point_listen(c);
	c->sinks = lst_coord__rows_new();
	c->events = lst_coord__events_new();
	lst_coord__rows_listen(c);
	lst_coord__pump_on_clock(c, lst_coord__record_clock);
	lst_coord__pump_on_wake(c, lst_coord__record_flush);
	c->targets = lst_calloc(plan->ntargets, sizeof(*c->targets));
	if (opts->outdir)
		lst_record_set_dir(c->rec, lst_strdup(opts->outdir));
	else
		s_default_outdir(c);
	return c;
}

void lst_coord_destroy(lst_coord **p)
{
	lst_coord *c = *p;

	if (!c)
		return;
	for (size_t t = 0; c->targets && t < c->plan->ntargets; t++)
		free(c->targets[t].ids);
	free(c->targets);
	lst_coord__session_destroy(&c->ses);
	lst_coord__rows_destroy(&c->sinks);
	lst_coord__events_destroy(&c->events);
	lst_coord__verify_close(&c->ver);
	lst_coord__point_destroy(&c->cur);
	lst_metrics_destroy(&c->metrics);
	lst_record_destroy(&c->rec);
	json_decref(c->journal);
	free(c->phase_done);
	free(c);
	*p = NULL;
}

const char *lst_coord_results_dir(const lst_coord *c)
{
	return lst_record_dir(c->rec);
}

bool lst_coord_started(const lst_coord *c)
{
	return lst_record_t0(c->rec) ||
	       lst_record_points(c->rec); /* the first START's instant; points kept by a resume */
}

/* Draw the plots of the results folder; they never decide the run's outcome. */
static void s_plots(lst_coord *c)
{
	lst_err err;
	int rc;

	if (!lst_record_results(c->rec))
		return;
	if (lst_record_broken(c->rec)) {
		lst_log_warn("plots skipped: the results folder could not be written");
		return;
	}
	if (!lst_record_points(c->rec))
		return; /* no point ran: nothing to draw */
	if (!c->opts.quiet)
		fprintf(c->opts.progress, "lockstep: drawing plots into %s/plots\n",
			lst_record_dir(c->rec));
	rc = lst_plot_all(lst_record_dir(c->rec), lst_report_plan_read, &err);
	if (rc == -ENOENT)
		lst_log_warn(
			"plots skipped: gnuplot is not installed (apt-get install gnuplot-nox; "
			"then 'lockstep report %s' draws them)",
			lst_record_dir(c->rec));
	else if (rc)
		lst_log_warn("plots: %s", err.msg);
}

/* repeats.csv: the mean and 95% interval of each repeated point's figures (`repeat:`). */
static void s_repeats(lst_coord *c)
{
	bool any = false;
	lst_err err;

	for (size_t i = 0; i < c->plan->nphases; i++)
		any |= c->plan->phases[i].repeat > 1;
	if (!any || !lst_record_results(c->rec) || lst_record_broken(c->rec) ||
	    !lst_record_points(c->rec))
		return;
	if (lst_repeats_write_dir(lst_record_dir(c->rec), lst_report_plan_read, &err))
		lst_log_warn("repeats.csv: %s", err.msg);
}

/*
 * From the first contact to the end: connect, clocks, identities, every phase not yet done (a
 * resume skips the finished ones), then status, run.json, plots. lst_record_results(c->rec) and lst_record_run(c->rec) are ready.
 */
int lst_coord__run_all(lst_coord *c)
{
	const lst_plan *p = c->plan;
	int rc = LST_RUN_OK;

	lst_coord__save_docs(c, true);
	if (!lst_coord__results_ok(c) || lst_coord__hello(c) || lst_coord__hooks_check(c) ||
	    (lst_coord__sync(c), lst_coord__identify(c)) || lst_coord__verify_open(c)) {
		rc = LST_RUN_FAILED;
		goto out;
	}
	for (size_t i = 0; i < c->n; i++) {
		const lst_conn *cn = lst_coord__conn(c, i);
		json_t *o = json_array_get(json_object_get(lst_record_run(c->rec), "agents"), i);

		json_object_set_new(o, "host", json_string(lst_conn_info(cn)->host));
		json_object_set_new(o, "version", json_string(lst_conn_info(cn)->version));
		json_object_set_new(o, "kernel", json_string(lst_conn_info(cn)->kernel));
		json_object_set_new(o, "cores", json_integer(lst_conn_info(cn)->cores));
		lst_coord__progress_agent(c, cn);
	}
	lst_coord__save_docs(c, true);
	c->running = true;
	for (size_t ph = 0; ph < p->nphases && rc == LST_RUN_OK; ph++) {
		if (c->phase_done && c->phase_done[ph])
			continue;
		rc = lst_coord__run_phase(c, ph);
	}
out:
	lst_coord__bye(c);
	if (lst_coord__interrupted) /* also while connecting: Ctrl-C is what ended the run */
		rc = LST_RUN_INTERRUPTED;
	/* partial: every phase ran, but a point without a lost agent (on_agent_loss: continue) */
	json_object_set_new(lst_record_run(c->rec), "status",
			    json_string(rc == LST_RUN_INTERRUPTED   ? "interrupted"
					: rc != LST_RUN_OK	    ? "failed"
					: lst_record_failed(c->rec) ? "failed"
					: c->partial		    ? "partial"
								    : "complete"));
	if ((lst_record_failed(c->rec) || c->partial) && rc == LST_RUN_OK)
		rc = LST_RUN_FAILED;
	lst_coord__metrics_state(c, rc == LST_RUN_INTERRUPTED ? "interrupted"
				    : rc == LST_RUN_OK	      ? "finished"
							      : "failed");
	{
		char now[64];

		json_object_set_new(lst_record_run(c->rec), "finished",
				    json_string(lst_time_iso8601(lst_real_ns(), now, sizeof(now))));
	}
	lst_coord__save_run(c, true);
	lst_results_flush_summary(lst_record_results(c->rec), NULL);
	s_repeats(c);
	s_plots(c);
	return rc;
}

int lst_coord_run(lst_coord *c)
{
	const lst_plan *p = c->plan;
	lst_err err;

	if (lst_record_open(c->rec, &err)) {
		lst_log_error("%s", err.msg);
		return LST_RUN_USAGE;
	}
	lst_record_set_run(c->rec, lst_coord__run_json(c));
	if (p->text) /* a failure is kept by the results and ends the run below */
		lst_results_write_file(lst_record_results(c->rec), "plan.yaml", p->text,
				       strlen(p->text), &err);
	if (!c->opts.quiet)
		fprintf(c->opts.progress, "lockstep: run %s, %zu agents, results in %s\n",
			c->run_id, c->n, lst_record_dir(c->rec));
	return lst_coord__run_all(c);
}
