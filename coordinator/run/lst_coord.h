/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The coordinator's run: connect to every agent of a plan, measure their clocks, learn every
 * path's identity, then run the phases point by point: prepare everywhere, pick one start
 * instant, convert it to each agent's clock, start, merge the samples interval by interval into
 * the results folder, and end cleanly on completion, on an agent's loss, or on Ctrl-C.
 *
 * Everything runs on one thread around one wait over every connection (lst_conn_set_wait): the
 * scheduler is written as straight-line
 * code that sends commands and then pumps incoming messages until a condition holds, and every
 * message (samples, pongs, clock replies) is dispatched whatever the scheduler is waiting for.
 */
#ifndef LST_COORD_H
#define LST_COORD_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>

#include "lst_err.h"
#include "lst_plan.h"

struct lst_coord_opts {
	const char *outdir; /* results folder; NULL: results/NAME-YYYYmmdd-HHMMSS */
	bool quiet;	    /* no progress lines */
	int64_t lead_ns;    /* minimum time between choosing a start instant and it (250 ms) */
	int64_t connect_timeout_ns; /* per agent, for HELLO (10 s) */
	FILE *progress;		    /* where progress goes (stderr) */
	const char *key_file;	    /* our CURVE secret key; NULL: lst_auth_default_key(). Loaded
				 * only when an agent has a key: in the plan */
	bool insecure;		    /* plain text to agents beyond loopback (warned every time) */
	FILE *progress_json;	    /* NULL, or JSON Lines of every interval and point, in place of
			      * their text lines (`--progress json`) */
	const char *metrics; /* NULL, or ADDR:PORT / :PORT (127.0.0.1) to serve live metrics on
			      * for Prometheus (`--metrics`, lst_metrics.h); a bad address fails
			      * lst_coord_new, before any agent is contacted */
};

typedef struct lst_coord lst_coord;

/* An agent to reach: its name, address and public key (a file or the Z85 text; NULL: plain
 * text). The strings are borrowed. */
struct lst_coord_agent {
	const char *name;
	const char *address;
	const char *key;
};

/* Exit codes of lst_coord_run. */
enum {
	LST_RUN_OK = 0,
	LST_RUN_FAILED = 1, /* an agent was lost, refused, or reported errors */
	LST_RUN_USAGE = 2,  /* the results folder could not be made; nothing was contacted */
	LST_RUN_INTERRUPTED = 130,
};

/*
 * A run of plan. Every agent with a key: is reached over CURVE (our key pair from opts->key_file
 * or the default), every other one in plain text, which only a loopback address or
 * opts->insecure allows. NULL with err, before anything is contacted, when a key cannot be
 * loaded or an agent beyond loopback has no key.
 */
lst_coord *lst_coord_new(const lst_plan *plan, const struct lst_coord_opts *opts, lst_err *err);
void lst_coord_destroy(lst_coord **p);

/* Run the plan to the end. Returns an exit code above; what went wrong was printed. */
int lst_coord_run(lst_coord *c);

/*
 * `lockstep resume`: finish the interrupted run whose run.json is run and whose points.jsonl
 * entries are journal (both borrowed; lst_results_read_journal), in opts->outdir, with the plan
 * it ran (the caller checks run.json's plan_sha1 and status). First every agent is reached with
 * the run's id and its old session ended (BYE: it stops whatever it still ran); an agent whose
 * lease still holds that session is waited for, one serving another run refuses the resume, and
 * the folder is left unchanged. Then every append-only file is cut back to the last journaled
 * point, the phases the journal finished are skipped, the first unfinished phase's journaled
 * points are replayed into its suite (rounds, bytes written), the interrupted point runs
 * again, and the run goes on to its end as lst_coord_run does; run.json gets a "resumes" entry.
 * Returns an exit code as lst_coord_run.
 */
int lst_coord_resume(lst_coord *c, json_t *run, json_t *journal);

/* The plan's identity in run.json ("plan_sha1"): SHA-1 of its text, 40 lowercase hex digits. */
void lst_coord_plan_hash(const char *text, char out[41]);

/* The results folder in use (valid once run has begun). Borrowed. */
const char *lst_coord_results_dir(const lst_coord *c);

/*
 * Whether the run (or the run it resumed) got as far as starting a point on its agents: false
 * when it ended while connecting, checking or preparing, with nothing measured.
 */
bool lst_coord_started(const lst_coord *c);

/* Ask the run to stop as Ctrl-C does (async-signal-safe). */
void lst_coord_interrupt(void);

/* Install SIGINT/SIGTERM handlers that call lst_coord_interrupt (and disable czmq's). */
void lst_coord_handle_signals(void);

#endif
