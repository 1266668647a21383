/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the files of the coordinator's run: what one file calls in another, named
 * lst_coord__x (the double underscore: not for use outside lst_run), with struct lst_coord
 * opaque. A file that needs the plan, the options, the record or an agent's connection gets
 * them through the functions here; only the orchestrator (lst_coord.c, lst_resume.c and the
 * getters of lst_coord_state.c) sees the struct's fields (lst_coord_int.h), and the session's
 * and the point's files their own class's state (lst_session_int.h, lst_point_int.h). Nothing
 * here is a contract for other libraries.
 */
#ifndef LST_RUN_INT_H
#define LST_RUN_INT_H

#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lst_conn.h"
#include "lst_coord.h"
#include "lst_failover.h"
#include "lst_integrity.h"
#include "lst_interrupt.h"
#include "lst_merge.h"
#include "lst_metrics.h"
#include "lst_msg.h"
#include "lst_record.h"
#include "lst_results.h"
#include "lst_suite.h"
#include "lst_time.h"

#define LST_COORD__SYNC_EVERY (10 * LST_NS_PER_S) /* a clock burst at most this often */
#define LST_COORD__PING_EVERY LST_NS_PER_S
/* The pump's liveness checks (s_watch): reconnects and silence are judged in seconds. */
#define LST_COORD__WATCH_EVERY (20 * LST_NS_PER_MS)
#define LST_COORD__REPLY_TIMEOUT (30 * LST_NS_PER_S)
#define LST_COORD__STOP_TIMEOUT (15 * LST_NS_PER_S)
/* Longer than this between two looks at the agents is the coordinator's own stall, not their
 * silence (a pump listens at most 100 ms at a time). */
#define LST_COORD__DEAF_AFTER (500 * LST_NS_PER_MS)
/* What an agent may spend after its last sample before its DONE beyond the lease: a hook still
 * running (the agent's hook_timeout is at most 1 h), a trace being written. */
#define LST_COORD__END_WORK_MAX (3600 * LST_NS_PER_S)

typedef bool (*lst_coord__cond_fn)(lst_coord *c);
/* A condition about arg (the waiter's, borrowed for the wait). */
typedef bool (*lst_coord__cond_arg_fn)(lst_coord *c, const void *arg);

/* A target's identities, filled by lst_coord__identify (lst_sched.c) from the agents' PREPARED
 * replies before any I/O and read through lst_coord__target_size after. */
struct lst_coord__target {
	uint64_t size;		       /* smallest size over the target's paths */
	struct lst_path_identity *ids; /* [npaths] */
};

/* Where the current point is and how its time runs: set by the point as it begins
 * (lst_coord__run_point), read by everyone else through lst_coord__where. */
struct lst_coord__where {
	size_t phase, point;
	const char *phase_name;
	char label[256];
	int64_t T0;
	int64_t interval;
	int64_t nramp;
	int64_t duration; /* expected, ns, 0 when not known */
	bool io;	  /* the step does I/O with samples (not a purge, which sends none) */
};
/*
 * One interval row of one scope, complete (lst_rows.c): whose it is, where, its counts and
 * latency histograms, health and verify counts, and its rates. Every sink gets the same.
 */
struct lst_coord__row {
	struct lst_row_who who;
	int64_t k;
	double t_s;
	bool ramp; /* a ramp interval: progress shows it, nothing records it */
	struct lst_rates rates;
	const struct lst_dir_stats *dir; /* [LST_DIR_N] */
	const struct lst_sample_health *health;
	const struct lst_sample_verify *verify;
	const lst_sample *s;	 /* the scope's sample (its duration, for failover) */
	struct lst_failover *fo; /* the scope's failover detector, NULL when it has none */
};

/* The sinks interval rows go to, in the order registered (lst_rows.c). */
struct lst_coord__sinks;
/* Data integrity's state (lst_verify_run.c). */
struct lst_coord__verify;
/* The point's state (lst_point_int.h). */
struct lst_coord__point;
/* A sink of interval rows (lst_coord__rows_sink). */
typedef void (*lst_coord__row_fn)(lst_coord *c, const struct lst_coord__row *row);
#define LST_COORD__SINKS_MAX 8

/* The pump's handlers (lst_coord__pump_on, lst_coord__pump_on_end): what a fresh spooled
 * message of agent i means; agent i sends nothing more for the point; agent i may still work
 * after its last sample (its DONE is waited for longer). */
typedef void (*lst_coord__rx_fn)(lst_coord *c, size_t i, const lst_msg *m);
typedef void (*lst_coord__end_fn)(lst_coord *c, size_t i);
typedef bool (*lst_coord__end_work_fn)(const lst_coord *c, size_t i);
/* A clock exchange of agent i came back at t_recv (our clock). */
typedef void (*lst_coord__clock_fn)(lst_coord *c, size_t i, const struct lst_msg_sync_reply *r,
				    int64_t t_recv);
/* The pump's wake-up has dispatched what came. */
typedef void (*lst_coord__wake_fn)(lst_coord *c);
/* More descriptors for the pump's wait: up to LST_COORD__POLL_MAX into fds, how many returned;
 * after the wait, serve what they say is ready (called after every wait, ready or not). */
typedef size_t (*lst_coord__fds_fn)(lst_coord *c, struct pollfd *fds);
typedef void (*lst_coord__serve_fn)(lst_coord *c, const struct pollfd *fds, size_t nfds);
#define LST_COORD__POLL_MAX 8

/* The session with the agents, and one agent as it keeps it (lst_session_int.h). */
struct lst_coord__session;
struct lst_coord__agent;

/*
 * Where one agent stands in the current point's protocol: the side of it that both the session
 * and the point set. The pump sets it as messages come (STARTED, an ERROR to START, a loss, a
 * restart) and the point as it runs (PREPARE, START, STOP, DONE); each reads it through
 * lst_coord__stand. It lives in the session's record of the agent, since the pump also uses
 * in_point for a command round outside any point.
 */
struct lst_coord__stand {
	bool in_point;
	bool point_lost;  /* lost during it: nothing of it is merged after the loss */
	uint64_t min_seq; /* SAMPLE/DONE seq below this belong to an earlier point or attempt */
	bool started, done;
	uint64_t start_id; /* the START command's id: an ERROR to it means no DONE will come */
	int64_t actual;	   /* STARTED.actual, agent clock */
	struct lst_msg_done done_msg;
	uint64_t samples;
	int64_t progress_at; /* our clock at its START, or its last sample merged: a DONE is
			      * waited for a lease from here (lst_coord__overdue) */
};

/* What lst_coord__run_point and its parts return. */
enum {
	LST_COORD__POINT_OK = 0,
	LST_COORD__POINT_FAIL =
		-1, /* the run ends: a refusal, a loss under abort, Ctrl-C, a full disk */
	LST_COORD__POINT_RETRY =
		1, /* an agent was lost under on_agent_loss: retry; nothing was recorded */
};

/* lst_coord.c: the object and the run */

lst_coord *lst_coord__new(const struct lst_coord_agent *agents, size_t n, int64_t lease,
			  int64_t interval, const struct lst_coord_opts *opts, lst_err *err);
int lst_coord__run_all(lst_coord *c);

/* lst_coord_state.c: the orchestrator's state lent to its parts (getters, calling nothing) */

/* What the orchestrator owns, lent to its parts: the plan (NULL for a one-shot query), the
 * options as completed by lst_coord__new, the run's record, the number of agents. */
const lst_plan *lst_coord__plan(const lst_coord *c);
const struct lst_coord_opts *lst_coord__opts(const lst_coord *c);
lst_record *lst_coord__record(const lst_coord *c);
size_t lst_coord__n(const lst_coord *c);
/* This run's id and our host name (borrowed); whether progress goes to a terminal. */
const char *lst_coord__run_id(const lst_coord *c);
const char *lst_coord__host(const lst_coord *c);
bool lst_coord__tty(const lst_coord *c);
/* The live metrics endpoint, NULL without --metrics; the rows' sinks, NULL for a query. */
lst_metrics *lst_coord__metrics(const lst_coord *c);
struct lst_coord__sinks *lst_coord__sinks(const lst_coord *c);
/* The point's events, private to lst_hooks.c (NULL for a query). */
struct lst_coord__events *lst_coord__events(const lst_coord *c);
/* Data integrity's state, private to lst_verify_run.c. */
struct lst_coord__verify *lst_coord__ver(const lst_coord *c);
/* Target t's size: the smallest over its paths, once identified (0 before). */
uint64_t lst_coord__target_size(const lst_coord *c, size_t t);
/* Target t's identities, for lst_coord__identify to fill. */
struct lst_coord__target *lst_coord__target(lst_coord *c, size_t t);
/* A resume's journal entries (what lst_coord__replay needs), NULL when the run is fresh. */
const json_t *lst_coord__journal(const lst_coord *c);
/* The current point's place and time (the last one's between points). Borrowed. */
const struct lst_coord__where *lst_coord__where(const lst_coord *c);
/* The same, for the point to set as it begins (lst_coord__run_point) and nobody else. */
struct lst_coord__where *lst_coord__at(lst_coord *c);
/* The point's own state (lst_point_int.h), made once for the run by lst_coord__point_new. */
struct lst_coord__point *lst_coord__cur(const lst_coord *c);
/* A point is running (between its PREPAREs and its end); the point says when it begins and
 * ends. */
bool lst_coord__in_point(const lst_coord *c);
void lst_coord__set_in_point(lst_coord *c, bool in_point);
/* A point finished without a lost agent (on_agent_loss: continue): the run's exit status. */
void lst_coord__set_partial(lst_coord *c);
/* The phases have begun: a loss is for on_agent_loss to judge. */
bool lst_coord__running(const lst_coord *c);
/* The session with the agents (lst_session_int.h), which the orchestrator holds. */
struct lst_coord__session *lst_coord__session(const lst_coord *c);

/* lst_session_state.c: what the session knows, lent to the point and the orchestrator
 * (getters, calling nothing but the orchestrator's getters) */

/* Silence that makes an agent lost (the lease and a margin); when the clocks were last
 * exchanged (our clock). */
int64_t lst_coord__lost_after(const lst_coord *c);
int64_t lst_coord__last_sync(const lst_coord *c);
/* Agent i said WELCOME and is neither lost nor refused: it may be sent commands. */
bool lst_coord__agent_usable(const lst_coord *c, size_t i);
/* Agent i's connection: its WELCOME, clock estimate and state (borrowed). */
const lst_conn *lst_coord__conn(const lst_coord *c, size_t i);
/* Agent i is silent, not lost yet (lost is its connection's state). */
bool lst_coord__unreachable(const lst_coord *c, size_t i);
/* Why agent i was lost or refused, "" when it was not (borrowed). */
const char *lst_coord__lost_why(const lst_coord *c, size_t i);
/* Agent i was lost at some time in the run (for run.json). */
bool lst_coord__ever_lost(const lst_coord *c, size_t i);
/* Where agent i stands in the current point's protocol, for the pump and the point to read
 * and set (borrowed). */
struct lst_coord__stand *lst_coord__stand(lst_coord *c, size_t i);
const struct lst_coord__stand *lst_coord__stand_of(const lst_coord *c, size_t i);
/* The id of the command agent i was sent last (0 when none is awaited). */
uint64_t lst_coord__await_id(const lst_coord *c, size_t i);
/* Agent i takes part in the running point (or in the command round under way). */
bool lst_coord__agent_in_point(const lst_coord *c, size_t i);
/* A message of agent i numbered seq belongs to the running point (not to an earlier point or
 * attempt). */
bool lst_coord__of_point(const lst_coord *c, size_t i, uint64_t seq);
/* Agent i was lost during the point; it had started the point (its STARTED came). */
bool lst_coord__agent_point_lost(const lst_coord *c, size_t i);
bool lst_coord__agent_started(const lst_coord *c, size_t i);
/* Agent i's DONE came and says its jobs completed, and it was not lost in the point. */
bool lst_coord__agent_complete(const lst_coord *c, size_t i);
/* Agent i's last reply to a command, NULL when none came (borrowed until it is sent another). */
const lst_msg *lst_coord__reply(const lst_coord *c, size_t i);

/* lst_pump.c: the session with every agent */

/* The pump's state for the session's agents (before any handler is registered), made by
 * lst_coord__session_new; freed by lst_coord__pump_destroy, which is safe when it was never
 * made. */
void lst_coord__pump_new(struct lst_coord__session *s);
void lst_coord__pump_destroy(struct lst_coord__session *s);
/* Agent i's connection (made) joins the pump's wait. Returns 0 or -errno with err. */
int lst_coord__pump_watch(lst_coord *c, size_t i, lst_err *err);

/* Send msgs[i] (NULL: nothing for agent i; taken) to each agent and wait up to wait ns for
 * every answer or loss; replies[i] gets a copy of agent i's reply or NULL (the caller destroys
 * them). For commands between points (HOOK, KMSG, JOURNAL). */
void lst_coord__round(lst_coord *c, lst_msg **msgs, lst_msg **replies, int64_t wait);
/* A command to agent i outside a point (*m taken): agent i counts as asked for
 * lst_coord__all_replied until its reply is taken. */
void lst_coord__ask(lst_coord *c, size_t i, lst_msg **m);
/* Agent i's reply to what it was asked, no longer waited for: NULL when it is not usable or
 * did not answer. Borrowed until agent i is sent another command. */
const lst_msg *lst_coord__take(lst_coord *c, size_t i);
/* Dispatch every fresh message of type (SAMPLE, DONE, EVENT or INTEGRITY: spooled, ACKed by the
 * pump, each handled once however often a reconnect re-sends it) to fn; NULL drops them. */
void lst_coord__pump_on(lst_coord *c, uint32_t type, lst_coord__rx_fn fn);
/* ended: called when an agent of the point is lost or its START refused (no DONE will come);
 * busy: whether an agent may still work after its last sample (the overdue rule waits
 * LST_COORD__END_WORK_MAX more). Either may be NULL. */
void lst_coord__pump_on_end(lst_coord *c, lst_coord__end_fn ended, lst_coord__end_work_fn busy);
/* fn hears of every clock exchange (its SYNC_REPLY as received); NULL: nobody does. */
void lst_coord__pump_on_clock(lst_coord *c, lst_coord__clock_fn fn);
/* fn runs at the end of every wake-up, before the ACKs (what it writes is then covered). */
void lst_coord__pump_on_wake(lst_coord *c, lst_coord__wake_fn fn);
/* The pump also waits on the descriptors fds gives and has serve answer them. */
void lst_coord__pump_poll(lst_coord *c, lst_coord__fds_fn fds, lst_coord__serve_fn serve);
/* Inside a handler: the frame of the message being handled, as received (lent, valid until the
 * handler returns). */
void lst_coord__pump_frame(const lst_coord *c, const uint8_t **raw, size_t *rawlen);
/* Agent i is lost (once; a second loss says nothing): out of the current point, the line
 * "agent NAME lost: WHY" a warning during the phases and the run's error before them. */
void lst_coord__lose(lst_coord *c, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Send *m (taken) to agent i and await its reply (a->replied, a->reply); a reconnect sends it
 * again with the same id. 0, or -errno with the agent lost (or refused for good). */
int lst_coord__command(lst_coord *c, size_t i, lst_msg **m);
/* A message of type without fields (PING stamped with our clock, BYE) to agent i, no reply
 * awaited; a failure is only logged. */
void lst_coord__send_simple(lst_coord *c, size_t i, uint32_t type);
/* BYE to every agent that may hold our session, lost ones too, and a short pump for the
 * frames to leave; no HELLO goes out after it. */
void lst_coord__bye(lst_coord *c);
/* This run's HELLO (the caller's to destroy): the first one and a reconnect's. */
lst_msg *lst_coord__hello_msg(const lst_coord *c);
/* One wake-up: wait up to timeout_ns (at most 100 ms), dispatch what came through the handler
 * table, then liveness, PINGs, the wake handler and the ACKs. */
void lst_coord__pump(lst_coord *c, int64_t timeout_ns);
/* Pump until cond holds (true), timeout_ns passes (0: none) or, when interruptible, Ctrl-C. */
bool lst_coord__pump_wait(lst_coord *c, lst_coord__cond_fn cond, int64_t timeout_ns,
			  bool interruptible);
/* lst_coord__pump_wait, interruptible. */
bool lst_coord__pump_until(lst_coord *c, lst_coord__cond_fn cond, int64_t timeout_ns);
/* lst_coord__pump_until for a condition about arg. */
bool lst_coord__pump_until_arg(lst_coord *c, lst_coord__cond_arg_fn cond, const void *arg,
			       int64_t timeout_ns);
/* Conditions to pump for: every agent in the point has answered its command or is lost; every
 * agent not lost has answered HELLO; every agent in the point has sent DONE (or is lost). */
bool lst_coord__all_replied(lst_coord *c);
bool lst_coord__all_welcomed(lst_coord *c);
bool lst_coord__all_done(lst_coord *c);
/* The replies to command `what` of the agents in the point: false when one refused it, or did
 * not answer (it is lost then); a loss during the phases is for on_agent_loss, not false. */
bool lst_coord__replies_ok(lst_coord *c, const char *what);
/* A clock burst on every usable agent, waited for (at most 5 s). */
void lst_coord__sync(lst_coord *c);
/* A clock burst not waited for, at most every LST_COORD__SYNC_EVERY (during long points). */
void lst_coord__resync(lst_coord *c);

/* lst_connect.c: keys, connections, HELLO */

/* HELLO to every agent, WELCOMEs waited for (opts.connect_timeout_ns): an agent that does not
 * answer, refuses or answers otherwise is lost with why. 0, or -1 when one is lost or Ctrl-C. */
int lst_coord__hello(lst_coord *c);
/* Agent i's connection (CURVE with our key pair when it has a key, loaded once). 0, or -errno
 * with err (a missing key, a key for a remote agent without --insecure, ...). */
int lst_coord__connect_agent(lst_coord *c, size_t i, lst_err *err);
/* The session with n agents (agents copied, their strings borrowed) under a lease of lease ns,
 * with the pump's state made and no connection yet (lst_coord__connect_agent); interval is the
 * plan's default, which the silence model scales with. */
struct lst_coord__session *lst_coord__session_new(const struct lst_coord_agent *agents, size_t n,
						  int64_t lease, int64_t interval);
/* The session's connections closed, then our key pair wiped and freed (the connections borrow
 * it), the pump's state and the agents' records freed; *p becomes NULL. Safe on NULL. */
void lst_coord__session_destroy(struct lst_coord__session **p);

/* lst_phase_agents.c: a phase's agents */

/* Agent i has a path in phase ph. */
bool lst_coord__in_phase(const lst_coord *c, const struct lst_plan_phase *ph, size_t i);
/* Wait up to the plan's retry_wait for every agent of phase ph to be back (and its clock
 * measured again). True when they are; false on Ctrl-C, on a refusal, or when the time is up. */
bool lst_coord__wait_back(lst_coord *c, const struct lst_plan_phase *ph);

/* lst_sched.c: identities, phases, retries */

int lst_coord__identify(lst_coord *c);
size_t lst_coord__replay(lst_coord *c, size_t phase, lst_suite_run *suite, size_t *repeats_done);
int lst_coord__run_phase(lst_coord *c, size_t phase);

/* lst_point.c: one point */

/* The point's state for nagents agents, no point yet (the orchestrator holds it, lst_coord__cur;
 * lst_coord__point_destroy frees it and nulls *p, safe on NULL). */
struct lst_coord__point *lst_coord__point_new(size_t nagents);
void lst_coord__point_destroy(struct lst_coord__point **p);

void lst_coord__record_point(lst_coord *c, const struct lst_step *step, bool partial,
			     struct lst_step_result *out);
int lst_coord__loss_policy(lst_coord *c, const struct lst_plan_phase *ph);
int lst_coord__run_point(lst_coord *c, size_t phase, size_t point, const struct lst_step *step,
			 struct lst_step_result *out);

/* lst_point_rx.c: what the running point takes from the pump */

/* Register the point's handlers in the pump's table (a run with a plan; the probe has none). */
void lst_coord__point_listen(lst_coord *c);

/* lst_coord_failover.c: the point's failover detectors */

/* Feed interval k of a row (agent or path) to its failover detector. */
void lst_coord__failover_add(lst_coord *c, struct lst_failover *fo, int64_t k, double t_s,
			     const lst_sample *s);
/* Set a summary point's `failover` (the window with evidence, or null) and, unless the phase
 * says `failover: {dips: false}`, its `dips` (the windows without) in extra. */
void lst_coord__failover_json(const lst_coord *c, const struct lst_failover *fo, json_t *extra);
/* The point's failover fraction: the phase's `failover: {below:}`, else the default. */
double lst_coord__failover_below(const lst_coord *c);

/* lst_rows.c: one interval row, and the sinks every row goes to */

/* row's counts, histograms and rates are those of sample s (its who, k, t_s are the caller's). */
void lst_coord__row_of(struct lst_coord__row *row, const lst_sample *s);
/* A part of a combined row (an agent of `all`, a path of a target): its rates add to row's.
 * The one place a combined row's rates are computed. */
void lst_coord__row_add(struct lst_coord__row *row, const lst_sample *part);
/* fn gets every interval row from now on, after the sinks registered before it. */
void lst_coord__rows_sink(lst_coord *c, lst_coord__row_fn fn);
/* row to every sink, in the order they were registered. */
void lst_coord__rows_emit(lst_coord *c, const struct lst_coord__row *row);
/* The run's sinks, once: timeseries.csv, live metrics, failover detection, progress. */
void lst_coord__rows_listen(lst_coord *c);
/* The run's list of sinks, empty (the orchestrator holds it: lst_coord__sinks). */
struct lst_coord__sinks *lst_coord__rows_new(void);
/* Forget every sink (the coordinator's end): *p freed and nulled; safe on NULL. */
void lst_coord__rows_destroy(struct lst_coord__sinks **p);

/* lst_hooks.c: hooks, events and telemetry */

/* Agent i's WELCOME lists capability cap. */
bool lst_coord__has_cap(const lst_coord *c, size_t i, const char *cap);
/* Before any I/O: every hook and collector the plan names is defined on its agent. 0 or -1
 * (each problem reported, FILE:LINE:COL of the plan). */
int lst_coord__hooks_check(lst_coord *c);
/* Agent i's events of the current point into its START. */
void lst_coord__events_start(lst_coord *c, size_t i, struct lst_msg_start *m);
/* The point's events' state, nothing yet (the orchestrator holds it; lst_coord__events_destroy
 * frees it and nulls *p, safe on NULL). */
struct lst_coord__events *lst_coord__events_new(void);
void lst_coord__events_destroy(struct lst_coord__events **p);
/* A point begins: none of its events reported yet. */
void lst_coord__events_begin(lst_coord *c);
/* The point is over without lst_coord__events_end (a retry): its events forgotten. */
void lst_coord__events_forget(lst_coord *c);
/* An event of the point failed and the plan says stop: the point ends, then the run. */
bool lst_coord__hook_stop(const lst_coord *c);
/* An EVENT from agent i (fresh): its row of events.csv; a failure under stop sets
 * lst_coord__hook_stop. */
void lst_coord__on_event(lst_coord *c, size_t i, const lst_msg *m);
/* The point has ended: a row for each event never reported, saying why. */
void lst_coord__events_end(lst_coord *c);
/* Agent i has an event of the running point not reported yet: its hook may still run after
 * its jobs, and its DONE waits for it (at most the agent's hook_timeout). */
bool lst_coord__events_pending(const lst_coord *c, size_t i);
/* A phase's before (after false) or after hooks, in order. 0, or -1 when the run must end. */
int lst_coord__phase_hooks(lst_coord *c, size_t phase, bool after);
/* Telemetry of a phase (point -1) or of one point, before or after it: kernel log, collectors,
 * files and deltas. Never ends the run. */
void lst_coord__telemetry(lst_coord *c, size_t phase, long point, bool after);

/* lst_verify_run.c: data integrity */

/* The run's verification state for nagents agents, nothing verified yet (the orchestrator
 * holds it; lst_coord__verify_close frees it and nulls *p, safe on NULL). */
struct lst_coord__verify *lst_coord__verify_new(size_t nagents);

/* After the identities: the journal (made, appended to, or an earlier run's loaded and checked
 * against the plan's targets), when the plan verifies. 0, or -1 said (before any I/O). */
int lst_coord__verify_open(lst_coord *c);
void lst_coord__verify_close(struct lst_coord__verify **p);
/* A point begins: no generation, no streams yet. */
void lst_coord__verify_point_begin(lst_coord *c);
/* Path j of target t's job spec js: its stamp spec when it verifies (a write point gets the
 * next generation at its first). */
void lst_coord__verify_stamp(lst_coord *c, size_t t, size_t j, struct lst_jobspec *js);
/* Before the PREPAREs (prepares[i]): the journal to each agent that reads with verify. */
int lst_coord__verify_journal_send(lst_coord *c, lst_msg **prepares);
/* Agent i's PREPARED: its streams. */
void lst_coord__verify_prepared(lst_coord *c, size_t i, const struct lst_msg_prepared *pd);
/* The start instant is chosen: the point's streams into the journal. */
void lst_coord__verify_started(lst_coord *c);
/* A SAMPLE of agent i for the point: its marks into the journal. */
void lst_coord__verify_marks(lst_coord *c, size_t i, const struct lst_msg_sample *m);
/* An INTEGRITY of agent i: integrity.csv rows. */
void lst_coord__on_integrity(lst_coord *c, size_t i, const lst_msg *m);
/* The point has ended: each stream's end (complete or cut off). */
void lst_coord__verify_point_end(lst_coord *c);

/* lst_paths.c: rows per path and per target */

/* An event of the plan, what ("AGENT HOOK"), ran from start to end (our clock, ns; end 0 when
 * not known) in the point: a mark for every failover detector of the point (lst_failover.h). */
void lst_coord__failover_mark(lst_coord *c, const char *what, int64_t start, int64_t end);

/* Job spec `job` of agent i is path j of target t, running w (NULL: no workload, a purge)
 * (called as the PREPAREs are made). */
void lst_coord__paths_slot(lst_coord *c, size_t i, uint32_t job, size_t t, size_t j,
			   const struct lst_workload *w);
/* What the point's paths of agent i and target t ran in common (SIZE_MAX: any agent, any
 * target), for a summary row over them. */
void lst_coord__paths_workload(const lst_coord *c, size_t i, size_t t, struct lst_row_workload *w);
/* After the agents' merge is made: the slots' merge, if the plan wants such rows. */
void lst_coord__paths_begin(lst_coord *c, size_t max_ahead);
/* Target *t and path *j of agent i's job spec `spec` in the point; false when it has none. */
bool lst_coord__paths_spec(const lst_coord *c, size_t i, uint32_t spec, size_t *t, size_t *j);
/* The point's end: free the slots and their merge. */
void lst_coord__paths_end(lst_coord *c);
/* Agent i sends nothing more for the point: in the agents' merge and its slots'. */
void lst_coord__merge_done(lst_coord *c, size_t i);
/* After merging a sample in the agents' merge: its paths into the slots' merge. */
void lst_coord__paths_add(lst_coord *c, size_t i, const struct lst_msg_sample *s);
/* The slots' merge's row callback: timeseries rows per target and per path. */
void lst_coord__paths_row(const struct lst_merge_row *row, void *arg);
/* The point's summary rows per target and per path (after the agents'). */
void lst_coord__paths_summaries(lst_coord *c, const struct lst_step *step);
/* Those rows for the step's result: r->parts (the caller's now) and r->nparts. */
void lst_coord__paths_result(lst_coord *c, struct lst_step_result *r);

/* lst_runlog.c: errors, run.json, the journal */

/* The record's handlers in the pump (registered by lst_coord_new): every clock exchange, as it
 * came, into clock.csv (so the run can be re-aligned later); what a wake-up brought written out
 * in one write per file. */
void lst_coord__record_clock(lst_coord *c, size_t i, const struct lst_msg_sync_reply *r,
			     int64_t t_recv);
void lst_coord__record_flush(lst_coord *c);
void lst_coord__error(lst_coord *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lst_coord__save_run(lst_coord *c, bool final);
void lst_coord__save_docs(lst_coord *c, bool force);
void lst_coord__journal_point(lst_coord *c, const struct lst_step_result *r);
void lst_coord__journal_phase(lst_coord *c, size_t phase, size_t tests_from);
bool lst_coord__results_ok(lst_coord *c);
json_t *lst_coord__run_json(lst_coord *c);
double lst_coord__t(const lst_coord *c, int64_t coord_t);
/* The point's run.json entry: where, when, its workload w, partial, and its agents' entries and
 * start skew (both taken, as the point makes them). */
json_t *lst_coord__point_json(lst_coord *c, const struct lst_workload *w, bool partial,
			      json_t *agents, json_t *skew);

/* lst_progress.c: the terminal (each prints nothing when quiet) */

/* End the line an interval's progress rewrites in place (on a tty), before a warning. */
void lst_coord__progress_break(const lst_coord *c);
/* The agent's line once connected: host, version, cores, clock offset and rtt. */
void lst_coord__progress_agent(const lst_coord *c, const lst_conn *cn);
/* The phase's banner: "phase 2/3 NAME (SUITE), about 5m a round". */
void lst_coord__progress_phase(const lst_coord *c, size_t phase, const lst_suite_run *suite);
/* The result of the point just run (out; skew: run.json's start_skew_us, a real or null). */
void lst_coord__progress_point(const lst_coord *c, const struct lst_step_result *out,
			       const json_t *skew);
/* An interval's line, from its `all` row (ramp included). */
void lst_coord__progress(lst_coord *c, const struct lst_coord__row *row);

/* lst_coord_metrics.c: live metrics for Prometheus (--metrics); each does nothing without */

/* The endpoint on opts.metrics, when given, into *m (the caller's, which lst_metrics_destroy
 * ends), its sockets in the pump's wait. 0 (*m NULL without --metrics), or -1 with err (a bad
 * or busy address). */
int lst_coord__metrics_open(lst_coord *c, lst_metrics **m, lst_err *err);
/* The run's state: "connecting", "running", "finished", "failed" or "interrupted". */
void lst_coord__metrics_state(lst_coord *c, const char *state);
/* A timeseries row's figures, for its scope's series. */
void lst_coord__metrics_row(lst_coord *c, const struct lst_coord__row *row);
/* A sample of agent i was merged. */
void lst_coord__metrics_sample(lst_coord *c, size_t i);
/* A point begins (lst_coord__where is set): its place in the run. */
void lst_coord__metrics_point(lst_coord *c, const struct lst_step *step);
/* A point's result went to the phase's suite: its rounds and steady state. */
void lst_coord__metrics_suite(lst_coord *c, const lst_suite_run *suite);
/* After each of the pump's waits, ready or not: the agents' figures refreshed and the endpoint
 * served when one of fds (lst_metrics_pollfds) is ready, and idle connections closed always. */
void lst_coord__metrics_serve(lst_coord *c, const struct pollfd *fds, size_t nfds);

#endif
