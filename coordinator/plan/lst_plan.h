/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plans: the YAML file that says which agents, which targets through which paths, and which
 * phases to run. Parsed with libyaml (common/lst_yaml.h) into this model; every error is
 * collected as "FILE:LINE:COL: message" (all of them, not just the first) before any agent is
 * contacted. The library lst_plan (this folder) links common only: no msgpack, no ZeroMQ.
 *
 * One schema (tables of name, type, default, range, help, in lst_plan_schema.c) drives parsing,
 * defaults, validation and docs/plan.md (lst_plan_write_doc). Workload keys come from
 * lst_workload_opts, so a plan's `workload:` and `defaults:` accept exactly the flags of
 * `lockstep-agent bench`.
 */
#ifndef LST_PLAN_H
#define LST_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lst_err.h"
#include "lst_errlist.h"
#include "lst_workload.h"
#include "lst_yaml.h"

#define LST_PLAN_VERSION 1
#define LST_AGENT_PORT 7270
/* Points a phase's test may have in one round: sweep points, HIR bursts per gap (+1). */
#define LST_PLAN_MAX_POINTS 16384

enum lst_share {
	LST_SHARE_SPLIT = 0,  /* each path gets its own slice of the target's LBA range */
	LST_SHARE_SHARED = 1, /* every path covers the whole range (reads, or on purpose) */
};

enum lst_on_loss {
	LST_ON_LOSS_ABORT = 0,	  /* stop every agent, end the run with an error */
	LST_ON_LOSS_CONTINUE = 1, /* finish the phase with the others, mark it partial */
	LST_ON_LOSS_RETRY = 2,	  /* stop the point, wait for the agent, run the point again */
};

enum lst_suite {
	LST_SUITE_NONE = 0,	/* a plain workload phase */
	LST_SUITE_PURGE,	/* discard the target */
	LST_SUITE_PRECONDITION, /* 128k sequential writes until 2x capacity */
	LST_SUITE_SNIA_IOPS,
	LST_SUITE_SNIA_THROUGHPUT,
	LST_SUITE_SNIA_LATENCY,
	LST_SUITE_SNIA_WSAT,
	LST_SUITE_SNIA_HIR,
	LST_SUITE_LAT_VS_IOPS,
	LST_SUITE_CURVE,      /* open-loop rate curve (vdbench iorate=curve) */
	LST_SUITE_SNIA_XSR,   /* cross-stimulus recovery: seq, random, seq again */
	LST_SUITE_SNIA_ECW,   /* enterprise composite workload over a threads x QD grid */
	LST_SUITE_SNIA_DIRTH, /* demand intensity grid, then response-time histograms */
	LST_SUITE_SLO,	      /* the highest load under a latency limit, searched by probes */
};
extern const char *const lst_suite_names[]; /* "none", "purge", "precondition", "snia-iops", ... */

/* What the SLO search varies: the target's total rate (open loop) or each job's queue depth. */
enum lst_slo_over {
	LST_SLO_OVER_RATE = 0,
	LST_SLO_OVER_IODEPTH,
};
extern const char *const lst_slo_over_names[]; /* "rate", "iodepth" */

/* What steady state tracks: the combined value of all agents, per round. */
enum lst_track {
	LST_TRACK_IOPS = 0, /* read + write IOPS */
	LST_TRACK_READ_IOPS,
	LST_TRACK_WRITE_IOPS,
	LST_TRACK_MBPS,
	LST_TRACK_LAT_MEAN,
	LST_TRACK_LAT_P99,
};
extern const char *const lst_track_names[];

struct lst_plan_agent {
	char *name;
	char *address; /* "tcp://host:port", port filled in with 7270 when omitted */
	char *key;     /* the agent's public key: a path made absolute against the plan's
				 * folder, or the Z85 key text; NULL when not given */
	struct lst_mark mark;
};

struct lst_plan_path {
	size_t agent; /* index into plan->agents */
	char *path;
	struct lst_mark mark;
};

struct lst_plan_target {
	char *name;
	char *identity; /* NULL when not given */
	int64_t share;	/* enum lst_share */
	size_t npaths;
	struct lst_plan_path *paths;
	struct lst_mark mark;
};

/*
 * Which paths something applies to: every path of an agent (`a`), or one path of it
 * (`a:/dev/sdb`), in whichever targets the phase drives.
 */
struct lst_plan_sel {
	size_t agent; /* index into plan->agents */
	char *path;   /* NULL: every path of the agent */
	struct lst_mark mark;
};

/*
 * A phase's role for some of its paths (its `paths:` map): idle, or workload keys of their own.
 * An agent's role applies first, then a path's own.
 */
struct lst_plan_role {
	struct lst_plan_sel sel;
	bool idle;
	struct lst_workload w; /* only the options marked in w_set apply */
	bool w_set[32];	       /* index into lst_workload_opts */
	struct lst_mark mark;
};

/* One value of a `ports` sweep axis: the paths that take part in the point; the rest idle. */
struct lst_port_set {
	size_t nsel;
	struct lst_plan_sel *sel;
	char *label; /* "a+b", "a:/dev/sdb+b": as the point's label writes it */
	struct lst_mark mark;
};

/*
 * A sweep axis: one workload option and the values it takes, in the order written; or the
 * `ports` axis (opt NULL): the sets of paths that take part, in sets[n]. A scalar option's
 * values are in values[n]; a structured one's (random_distribution, bssplit: lst_opt_is_struct)
 * are n plain copies of its field, lst_opt_size(opt) bytes each, in raw.
 */
struct lst_sweep_axis {
	const struct lst_opt *opt; /* a workload option (lst_workload_opts); NULL: ports */
	size_t n;
	int64_t *values;	   /* scalar options only */
	unsigned char *raw;	   /* structured options only */
	struct lst_port_set *sets; /* ports only */
	struct lst_mark mark;
};

#define LST_SWEEP_MAX_AXES 5

/* what a failed hook does to the run (an event's, a before/after hook's `on_error`) */
enum lst_hook_on_error {
	LST_HOOK_ON_ERROR_STOP = 0, /* the default: the run ends with the hook's failure */
	LST_HOOK_ON_ERROR_CONTINUE = 1,
};

/* when the collectors and the kernel log excerpt are taken */
enum lst_telemetry_every {
	LST_TELEMETRY_PHASE = 0, /* the default: before the phase's first point, after its last */
	LST_TELEMETRY_POINT = 1, /* before and after each point (each round, each sweep point) */
	LST_TELEMETRY_OFF = 2,	 /* none */
};

/*
 * a hook of an agent's config that a phase runs: at an instant of each of its points
 * (`events:`), or before its first point / after its last (`before:` / `after:`).
 */
struct lst_plan_hook {
	size_t agent;	  /* index into plan->agents; the agent takes part in the phase */
	char *hook;	  /* the name in that agent's config (checked against it at run time) */
	int64_t at;	  /* events: ns after the point's start, within the point; -1 otherwise */
	int64_t on_error; /* enum lst_hook_on_error */
	struct lst_mark mark;	   /* the entry */
	struct lst_mark hook_mark; /* its `hook:` value, for "no hook 'x' on agent b" */
};

struct lst_plan_phase {
	char *name;
	int64_t suite;	       /* enum lst_suite */
	struct lst_workload w; /* table defaults, then `defaults:`, then `workload:` */
	bool w_set[32];	       /* options the phase's `workload:` gave (index into
					 * lst_workload_opts); a suite applies its own base to the
					 * others, so `workload:` overrides a suite, a suite
					 * overrides `defaults:` */
	size_t ntargets;       /* targets this phase drives; all of them by default */
	size_t *targets;       /* indexes into plan->targets */

	/* round: one repetition, ramp + measured duration (0 when the phase has no rounds) */
	int64_t round_ramp, round_duration;

	/* sweep: axes, first written = outermost loop */
	size_t naxes;
	struct lst_sweep_axis axes[LST_SWEEP_MAX_AXES];

	/* steady: SNIA steady state over rounds */
	bool steady;		    /* rounds repeat until steady or max_rounds */
	int64_t max_rounds;	    /* default 25 */
	int64_t window;		    /* default 5 */
	int64_t track;		    /* enum lst_track */
	double data_excursion_pct;  /* default 20 */
	double slope_excursion_pct; /* default 10 */

	/* stop: whichever comes first; 0 = not set */
	double stop_capacity; /* multiple of the target's capacity, split across paths */
	int64_t stop_bytes;
	int64_t stop_runtime;

	/* curve (LST_SUITE_CURVE and rate sweeps) */
	size_t ncurve;
	double *curve_pcts;	 /* default 10, 50, 70, 80, 90, 100 */
	double limit_percentile; /* 0 = no latency limit */
	int64_t limit_ns;

	/* failover: a path's failover window is where its IOPS fell below this percent
	 * of its own pre-fault median (lst_failover.h); default 50 */
	double failover_below_pct;
	/* and a window without evidence of a path fault is reported as a throughput dip (true,
	 * the default) or not at all */
	bool failover_dips;

	/* snia-hir */
	int64_t hir_burst; /* default 5s */
	size_t nhir_gaps;
	int64_t *hir_gaps;	/* default 5s, 10s, 15s, 25s, 50s */
	int64_t hir_repeats;	/* default 360 */
	int64_t hir_continuous; /* default 1800s */

	/* snia-xsr: the three segments' lengths (default 8h, 6h, 6h) */
	size_t nxsr_segments;
	int64_t *xsr_segments;
	/* snia-dirth: the length of each selected point's histogram run (default 10 min) */
	int64_t dirth_histogram;
	/* slo: the search for the highest load that keeps a percentile under a limit */
	bool slo;		   /* the phase gave slo: */
	double slo_percentile;	   /* default 99.9 */
	int64_t slo_limit_ns;	   /* required with slo: */
	int64_t slo_over;	   /* enum lst_slo_over, default rate */
	int64_t slo_low, slo_high; /* the first two probes: total IOPS or queue depth; required */
	double slo_within_pct;	   /* stop once the bracket is this close (default 5) */
	int64_t slo_max_probes;	   /* default 8 */

	/* paths: per-path roles (idle, workload overrides), in the order written */
	size_t nroles;
	struct lst_plan_role *roles;
	struct lst_map *role_index; /* roles by selector, for lst_plan_path_role (the reader's) */

	bool secure;	       /* purge: BLKSECDISCARD instead of BLKDISCARD */
	int64_t on_agent_loss; /* enum lst_on_loss; the plan's value unless set here */
	int64_t repeat;	       /* each point runs this many times (plain phases; else 1) */

	/* hooks and telemetry */
	size_t nevents;
	struct lst_plan_hook *events; /* at instants of every point, sorted by `at` */
	size_t nbefore, nafter;
	struct lst_plan_hook *before, *after; /* in the order written */
	int64_t telemetry_every;	      /* enum lst_telemetry_every */
	size_t ncollect;		      /* 0: every collector each agent's config defines */
	char **collect;			      /* collector names the phase asks for */
	struct lst_mark *collect_marks;	      /* [ncollect] */

	/* trace record and replay as written (lst_plan_trace.c); the phase's check
	 * turns them into w's write_iolog, read_iolog and replay_time_scale */
	char *record;	     /* `record:`: true, false or a trace name; NULL: not given */
	bool replay;	     /* `replay:` is given */
	char *replay_trace;  /* `replay: {trace}` */
	double replay_scale; /* `replay: {scale}`: percent of the recorded rate (100) */
	struct lst_mark mark;
};

typedef struct lst_plan {
	char *file;	 /* as given */
	char *dir;	 /* folder of the file, for relative key paths */
	char *text;	 /* the file's text, kept verbatim for run.json */
	int64_t version; /* `lockstep:`, must be 1 */
	char *name;
	char *description; /* NULL when not given */
	/* `report:` what the device's and the test's report header needs and no agent can read
	 * (the SNIA PTS report, `lockstep report --pts`); each NULL when not given */
	struct lst_plan_report {
		char *sponsor;	   /* who ran or paid for the test */
		char *nand;	   /* the flash type, "TLC 3D NAND" */
		char *form_factor; /* "2.5\" 15 mm" */
		char *interface;   /* "SAS 12Gb/s dual port" */
	} report;
	int64_t lease;	       /* ns an agent keeps running without hearing from us */
	int64_t on_agent_loss; /* enum lst_on_loss */
	int64_t retry_wait;    /* ns a retry waits for lost agents to come back */
	int64_t retries;       /* attempts of one point after the first, at most */
	int64_t repeat;	       /* `repeat:` every plain phase's default */
	char *journal;	       /* `journal:` an earlier run's results folder whose write journal
			* the plan's verifying reads check against (absolute); NULL: this run's */
	struct lst_workload defaults;
	size_t nagents;
	struct lst_plan_agent *agents;
	size_t ntargets;
	struct lst_plan_target *targets;
	size_t nphases;
	struct lst_plan_phase *phases;
	/* the reader's index of agents' and targets' names (lst_plan_agent_index), kept so a
	 * look-up by name takes constant time however many there are */
	struct lst_map *agent_names, *target_names;
} lst_plan;

/*
 * Parse a plan file. Returns the plan, or NULL with every problem in errs (the caller frees
 * errs with lst_errlist_free). A plan with any error is never returned.
 */
lst_plan *lst_plan_load(const char *file, lst_errlist *errs);

/* The same from text in memory; name is used in messages and as plan->file. */
lst_plan *lst_plan_parse(const char *text, size_t len, const char *name, lst_errlist *errs);

struct lst_yaml_node;

/*
 * The same from a tree a program built (lst_yaml_new, lst_yaml_put): a plan made from another
 * (`lockstep verify`) is read and checked as a file is, with no text written to be parsed again.
 * plan->text is the tree written as YAML (lst_yaml_text), for the results' record only.
 */
lst_plan *lst_plan_build(const struct lst_yaml_node *tree, const char *name, lst_errlist *errs);

void lst_plan_destroy(lst_plan **p);

/* Number of points of a phase's sweep (product of axis lengths; 1 without a sweep). */
size_t lst_plan_phase_points(const struct lst_plan_phase *ph);

/*
 * The workload of point i (0-based, first axis outermost): the phase's workload with the sweep
 * axes set. Writes a short label like "jobs=2 iodepth=8" into label (may be NULL): each axis
 * as NAME=VALUE, the value in the option's own text form (lst_opt_format: "bs=128k",
 * "pattern=compressible=50", "random_distribution=zipf:1.2"), axes apart by one space, in the
 * order written, so a label splits at spaces and each part at its first '='.
 */
void lst_plan_phase_point(const struct lst_plan_phase *ph, size_t i, struct lst_workload *w,
			  char *label, size_t label_size);

/*
 * A suite builds its points from its own grid (block sizes and mixes, thread counts and queue
 * depths); any other option a suite phase sweeps (pattern, size, offset, rw...) is a value
 * axis: the suite runs its whole grid and rounds once per value, value axes first written
 * outermost. lst_plan_phase_values gives how many values (1 for a plain phase or a suite phase
 * without value axes); lst_plan_phase_value gives value i (0-based): w gets the phase's
 * workload with the value axes set, set[] (may be NULL; index into lst_workload_opts) true for
 * each option set, so that the suite's own base values leave it alone, and label (may be NULL)
 * "size=8m pattern=zeros" in lst_plan_phase_point's form, "" without value axes.
 */
size_t lst_plan_phase_values(const struct lst_plan_phase *ph);
void lst_plan_phase_value(const struct lst_plan_phase *ph, size_t i, struct lst_workload *w,
			  bool set[32], char *label, size_t label_size);

/*
 * The stem of the files a suite writes once per value (PHASE-VALUE: dirth-PHASE.json,
 * matrix-PHASE.csv...): the phase's name, then, for a value label (lst_plan_phase_value's; ""
 * without value axes), '-' and the label with spaces turned to '-' and any byte a file name
 * should not hold ('/' of a bssplit, ':' of a distribution) to '_'. Cut to fit size; the suite
 * that writes the files and the report that reads them both use LST_PLAN_STEM_MAX, so a long
 * label is cut alike.
 */
#define LST_PLAN_VALUE_MAX 128 /* a value label as the suite and the report both hold it */
#define LST_PLAN_STEM_MAX 192
void lst_plan_value_stem(const char *phase, const char *value, char *buf, size_t size);

/*
 * The port set of point i of phase ph (the value of its `ports` sweep axis), or NULL when the
 * phase has no such axis: then every path of its targets takes part.
 */
const struct lst_port_set *lst_plan_phase_ports(const struct lst_plan_phase *ph, size_t i);

/*
 * Does path j of target t take part in a point of phase ph whose port set is ports (NULL: every
 * path), and with which workload? w comes in as the point's workload for the whole target and
 * leaves with the phase's roles for this path applied (the agent's role first, then the path's
 * own); set[] (may be NULL) gets true for each option a role gave. Returns false when the path
 * is idle in the point (not in the port set, or given `idle`); w is then unspecified.
 */
bool lst_plan_path_role(const lst_plan *p, const struct lst_plan_phase *ph,
			const struct lst_port_set *ports, size_t t, size_t j,
			struct lst_workload *w, bool set[32]);

/*
 * does agent i take part in phase ph (drive a path of one of its targets in some
 * point, idle roles aside)? Events and before/after hooks may only name such agents.
 */
bool lst_plan_phase_has_agent(const lst_plan *p, const struct lst_plan_phase *ph, size_t i);

/*
 * does phase ph run exactly one point (no sweep, no suite, no rounds until steady)?
 * A recording phase with several points writes one trace per point.
 */
bool lst_plan_phase_one_point(const struct lst_plan_phase *ph);

/*
 * the trace name a recording path writes in point `point` of phase ph: name (a
 * workload's write_iolog, LST_OPT_TEXT_MAX bytes) is left alone in a one-point phase or when
 * empty, and gets "-pK" (K = point, 0-based) appended otherwise. Returns 0, or -ENAMETOOLONG
 * (name unchanged) when the result would not fit; the plan's check keeps
 * LST_PLAN_TRACE_SUFFIX_MAX characters free for it.
 */
#define LST_PLAN_TRACE_SUFFIX_MAX 8 /* "-p" and up to 6 digits */
int lst_plan_point_trace(const struct lst_plan_phase *ph, size_t point, char *name);

/*
 * the longest a point of phase ph lasts when the plan fixes it (ramp + runtime, the
 * round's duration), in ns; 0 when a point's length is not known from the plan (bytes, a suite
 * that decides). An event at or past it is an error.
 */
int64_t lst_plan_phase_point_ns(const struct lst_plan_phase *ph);

/*
 * does phase ph write with verify (every unit it writes is stamped and journaled: a
 * plain writing phase or a precondition with verify: true), or read with verify (every unit it
 * reads is checked against the run's journal)? Neither when it does not verify. For a plan
 * lst_plan_load returned, one of them holds whenever ph->w.verify does.
 */
bool lst_plan_phase_verify_writes(const struct lst_plan_phase *ph);
bool lst_plan_phase_verify_reads(const struct lst_plan_phase *ph);

/* Index of the agent / target with this name (the first, in a plan with errors), or -1; in
 * constant time on average. */
int lst_plan_agent_index(const lst_plan *p, const char *name);
int lst_plan_target_index(const lst_plan *p, const char *name);

/* Write the plan reference (Markdown) generated from the schema tables: docs/plan.md. */
void lst_plan_write_doc(FILE *f);

#endif
