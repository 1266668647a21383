/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running one hook or collector of the agent's config: its argv is spawned with no shell, stdin
 * /dev/null, in the folder /, its output into a pipe, a minimal fixed environment, in a process group of its own,
 * and killed (SIGTERM to the group, SIGKILL 2 s later) once it outlives its timeout. When it has
 * ended, so does everything it started (lst_hook_tree.h: its group, setsid children). The result
 * is a struct lst_hook_result (proto/lst_msg.h): start and end on the monotonic clock, status
 * (exit status, 128+signal, -1 when it never ran), the bounded output and a text saying what
 * went wrong.
 *
 * Output: a hook's stdout and stderr go into one pipe and its last LST_HOOK_OUTPUT_MAX bytes
 * are kept; a collector's stdout (its JSON) keeps its first LST_COLLECT_OUTPUT_MAX bytes and
 * its stderr, read separately, only serves the error text. Bytes left out are counted in
 * `truncated`. No descriptor of the caller reaches the child: everything above stderr is closed
 * in it, whatever its close-on-exec flag, and its signal mask and dispositions are reset (the
 * daemon blocks SIGINT/SIGTERM/SIGHUP for its signalfd).
 *
 * lst_hook_run blocks for the child's whole life; the daemon never calls it on its reactor but
 * in an lst_hook_job: a thread that waits for an instant of the monotonic clock (clock_nanosleep
 * TIMER_ABSTIME, like a point's jobs), runs the command and pokes an eventfd. The reactor polls
 * the eventfd and takes the result; a job it no longer wants is released and frees itself when
 * its command has ended.
 */
#ifndef LST_HOOK_H
#define LST_HOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_msg.h"

#define LST_HOOK_KILL_GRACE_NS (2 * (int64_t)1000000000) /* SIGTERM to SIGKILL */

/* What to run and how. The strings are copied by lst_hook_job_new; lst_hook_run borrows them. */
struct lst_hook_spec {
	char *const *argv;	 /* argv[0] an absolute path; NULL-terminated */
	enum lst_hook_kind kind; /* hook (output tail) or collector (stdout head) */
	int64_t timeout;	 /* ns, > 0 */
	/* the environment's LOCKSTEP_* values ("" when not known) */
	const char *name;  /* LOCKSTEP_HOOK: the config's name for it */
	const char *phase; /* LOCKSTEP_PHASE */
	const char *point; /* LOCKSTEP_POINT */
	const char *agent; /* LOCKSTEP_AGENT */
};

/*
 * Run s now and wait for it (and, after a timeout, for its process group's leader to die), then
 * end whatever it left running (up to LST_HOOK_TREE_GRACE_NS more). NUL bytes of its output
 * become '?'. Fills r (r->output on the heap, the caller frees it; r is overwritten). Returns 0 when the
 * command ran, whatever its status, or -errno when it could not be started (r->status -1 and
 * r->text say why).
 */
int lst_hook_run(const struct lst_hook_spec *s, struct lst_hook_result *r);

/* Free r's output (safe twice). */
void lst_hook_result_clear(struct lst_hook_result *r);

typedef struct lst_hook_job lst_hook_job;

/*
 * Start a thread that runs s at the monotonic instant at (ns; 0 or a past instant: at once)
 * and then makes lst_hook_job_eventfd(job) readable. Returns NULL with err when the thread or
 * eventfd cannot be made.
 */
lst_hook_job *lst_hook_job_new(const struct lst_hook_spec *s, int64_t at, lst_err *err);

/* Readable once the job has finished (ran, or was cancelled before its instant). */
int lst_hook_job_eventfd(const lst_hook_job *job);

/* Has the job finished? Its result may then be read. */
bool lst_hook_job_finished(const lst_hook_job *job);

/* Did the job start its command (true from the moment its instant passed and it was not
 * cancelled)? */
bool lst_hook_job_started(const lst_hook_job *job);

/*
 * Do not start the command if its instant has not come yet: the job then finishes at once
 * with status -1 and text why ("not run: " is prepended). A command already running goes on
 * (its timeout bounds it). Idempotent: the first why sticks.
 */
void lst_hook_job_cancel(lst_hook_job *job, const char *why);

/* The result of a finished job: borrowed, valid until the job is released. */
struct lst_hook_result *lst_hook_job_result(lst_hook_job *job);

/* Let go of *p (set to NULL; safe on NULL): a finished job is freed now, a running one when
 * its command has ended (a job not yet started is cancelled). Never blocks. */
void lst_hook_job_release(lst_hook_job **p);

#endif
