/*
 * The coordinator's run: connect to every agent of a plan, measure their clocks, learn every
 * path's identity, then run the phases point by point: prepare everywhere, pick one start
 * instant, convert it to each agent's clock, start, merge the samples interval by interval into
 * the results folder, and end cleanly on completion, on an agent's loss, or on Ctrl-C.
 *
 * Everything runs on one thread around lst_conn_poll(): the scheduler is written as straight-line
 * code that sends commands and then pumps incoming messages until a condition holds, and every
 * message (samples, pongs, clock replies) is dispatched whatever the scheduler is waiting for.
 */
#ifndef LST_COORD_H
#define LST_COORD_H

#include <stdbool.h>
#include <stdint.h>
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
};

typedef struct lst_coord lst_coord;

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

/* The results folder in use (valid once run has begun). Borrowed. */
const char *lst_coord_results_dir(const lst_coord *c);

/* Ask the run to stop as Ctrl-C does (async-signal-safe). */
void lst_coord_interrupt(void);

/* Install SIGINT/SIGTERM handlers that call lst_coord_interrupt (and disable czmq's). */
void lst_coord_handle_signals(void);

/*
 * `lockstep agents`: connect to each address, shake hands, measure clock and rtt, say goodbye.
 * keys[i] is the agent's public key (a file or the Z85 text) or NULL for plain text; sec gives
 * key_file and insecure as for a run (may be NULL). Prints a table (or JSON) to out. Returns 0
 * when every agent answered, 1 otherwise, 2 when the keys do not allow trying.
 */
int lst_coord_probe(const char *const *names, const char *const *addresses, const char *const *keys,
		    size_t n, const struct lst_coord_opts *sec, bool json, FILE *out);

#endif
