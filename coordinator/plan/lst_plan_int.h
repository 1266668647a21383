/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of the plan library share, and nothing outside it sees (as sqlite's btreeInt.h
 * is shared by the files of one module). Cross-file names carry a double underscore.
 *
 *   lst_plan_schema.c  the tables: one per kind of map (the top level, an agent, a target, a
 *                      phase, and a phase's round, steady, stop, curve and hir maps)
 *   lst_plan_read.c    the walk that reads a YAML tree into an lst_plan with those tables
 *   lst_plan_yaml.c    the primitives below every reader: errors with their places, one
 *                      value as text, a map, a list or a percentage
 *   lst_plan_value.c   the reader of each kind of value (names, addresses, sweeps, ...); the
 *                      kinds of other files' features through the reader their key names
 *   lst_plan_workload.c a map of workload keys, with the plan's shorthands
 *   lst_plan_check.c   checks across keys and items, called by the tables' hooks
 *   lst_plan_paths.c   a target's path lists, a phase's roles and its ports sweep axis
 *   lst_plan_hooks.c   a phase's events, before/after hooks and telemetry
 *   lst_plan_verify.c  a phase's `verify: true` against its suite, mix, roles and the phases
 *                      before it
 *   lst_plan_trace.c   a phase's `record:` and `replay:` as workload options
 *   lst_plan_slo.c     a phase's `slo:` against its suite, workload and sweep
 *   lst_plan_doc.c     docs/plan.md: the prose of plan-doc.md with tables from the schema
 *   lst_plan.c         the public entry points: load, parse, destroy
 *   lst_plan_query.c   what a read plan answers: points, roles, port sets, indexes (below the
 *                      reader and the checks, which ask it too)
 */
#ifndef LST_PLAN_INT_H
#define LST_PLAN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "lst_errlist.h"
#include "lst_map.h"
#include "lst_opt.h"
#include "lst_plan.h"
#include "lst_yaml.h"

#define LST__PLAN_NAME_MAX 63 /* names of the plan, agents, targets and phases */

enum lst__plan_kind {
	K_OPT,		 /* a scalar read by lst_opt_parse (int, size, duration, choice) */
	K_BOOL,		 /* true/false into a bool */
	K_DOUBLE,	 /* a number into a double, in [dmin, dmax] (dmin excluded if dmin_open) */
	K_CAPACITY,	 /* "2x", "2.5x" or 2: a multiple of the target's capacity, into a double */
	K_STRING,	 /* non-empty text into a char * */
	K_NAME,		 /* [A-Za-z0-9_.-]{1,63} into a char * */
	K_ADDRESS,	 /* tcp://HOST[:PORT] into a char *, port filled in */
	K_KEY,		 /* a key file (made absolute) or Z85 key text into a char * */
	K_VERSION,	 /* the plan format version into int64_t; must be LST_PLAN_VERSION */
	K_WORKLOAD,	 /* a map of lst_workload_opts into a struct lst_workload */
	K_SECTION,	 /* a nested map described by sub, stored in the same struct */
	K_LIST,		 /* a list of maps described by sub: agents, targets, phases */
	K_PATHS,	 /* a target's map agent -> path or list of paths (read) */
	K_ROLES,	 /* a phase's map selector -> idle or workload keys (read) */
	K_TARGET_REFS,	 /* a phase's list of target names */
	K_SWEEP,	 /* a phase's map axis -> list of values */
	K_PCT_LIST,	 /* a list of percentages into a double array */
	K_DURATION_LIST, /* a list of durations into an int64_t array */
	K_AGENT,	 /* an agent's name into its size_t index in plan->agents (read) */
	K_INSTANT,   /* a duration >= 0 from a point's start into int64_t, an event's at (read) */
	K_HOOKS,     /* a phase's list of hook maps (events, before, after), checked (read) */
	K_TELEMETRY, /* a phase's `off` or map described by sub (read) */
	K_COLLECT,   /* telemetry's collect: distinct names into a phase's collect[] (read) */
};

struct lst__plan_ctx;
struct lst__plan_section;
struct lst__plan_key;

/* The reader of one key's value v into base, for a kind marked (read) above: it lives in the
 * file of its feature (paths, hooks) and the schema names it in the key, so the value reader
 * (lst_plan_value.c), which dispatches on the kind, calls none of those files. */
typedef void (*lst__plan_read_fn)(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
				  const struct lst_yaml_node *v, void *base);

/* One key of a map: how to read it, where it goes, and how the docs describe it. */
struct lst__plan_key {
	/* name, type (for K_OPT, K_BOOL, K_DURATION_LIST, K_INSTANT), offset, default as text, int range,
	 * choices and help: lst_opt_parse reads K_OPT values with this directly */
	struct lst_opt o;
	enum lst__plan_kind kind;
	bool required;
	/* K_LIST, K_HOOKS, K_PCT_LIST, K_DURATION_LIST: offset of the size_t count;
	 * K_WORKLOAD: offset of the bool[] of options given, or 0 for none */
	size_t aux;
	double dmin, dmax;		     /* K_DOUBLE, K_PCT_LIST range */
	bool dmin_open;			     /* dmin itself is not allowed */
	const struct lst__plan_section *sub; /* K_SECTION, K_LIST, K_HOOKS, K_TELEMETRY */
	const char *doc_def;	/* the default as the docs say it, when o.def is not it */
	bool pct;		/* K_DOUBLE: a percent, written 50 or 50% */
	lst__plan_read_fn read; /* the kinds marked (read): their reader */
};

/* One kind of map: its keys, and the hooks that check across them. */
struct lst__plan_section {
	const char *name; /* "agent", "round": in messages and docs headings */
	const char *in;	  /* " in round": after "unknown key 'x'" */
	const struct lst__plan_key *keys;
	/* K_LIST items */
	size_t size;	    /* of one item */
	size_t mark_offset; /* of the item's struct lst_mark */
	/* K_SECTION: offset of a bool set when the map is given (steady), when has_flag */
	bool has_flag;
	size_t flag;
	/* after the defaults, before the keys (a phase starts from the plan's defaults) */
	void (*init)(struct lst__plan_ctx *ctx, void *base);
	/* after the keys: checks across keys, with the map for places (NULL when empty) */
	void (*check)(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
	/* K_LIST: after all items */
	void (*list_check)(struct lst__plan_ctx *ctx, const struct lst_yaml_node *list);
	/* K_LIST: offset in the plan of the lst_map * that indexes the items by their K_NAME
	 * key, built after the items are read; 0 for a list not looked up by name */
	size_t names;
	/* a key the table does not have: say something better than "unknown key" and return
	 * true, or false for the usual message (NULL: always the usual message) */
	bool (*unknown)(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn);
};

/* One collected error: its place, the order it was found in (a tie-break) and its text. */
struct lst__plan_msg {
	int line, col;
	size_t seq;
	char *msg;
};

/* The state of one read: the plan being filled, the tree, and the errors so far. */
struct lst__plan_ctx {
	lst_plan *plan;
	const struct lst__plan_section *top; /* the plan's top-level map (lst__plan_top) */
	const struct lst_yaml_node *root;
	/* the first errors by place, at most LST_ERRLIST_MAX (what an lst_errlist keeps) */
	struct lst__plan_msg *errs;
	size_t nkept;
	size_t nerrs;	   /* every error so far, kept or not */
	char prefix[256];  /* "phase lat: " in front of messages about the current item */
	size_t nbad;	   /* values met that were reported already (aliases) */
	size_t item_start; /* nerrs + nbad when the current list item began */
	size_t hook_errs;  /* of those since, the ones the current phase's hook lists made */
	/* per target: an earlier phase writes it with verify, as of the first `verified_upto`
	 * phases (lst_plan_verify.c folds each phase in once: the check stays linear) */
	bool *verified;
	size_t verified_upto;
	/* the current phase's paths by selector (lst__plan_sel_key of `a` and `a:/dev/sdb`), made
	 * at its first selector, after its targets are known; NULL until then */
	lst_map *phase_sels;
};

/* The tables (lst_plan_schema.c). */
extern const struct lst__plan_section lst__plan_top, lst__plan_agent, lst__plan_target,
	lst__plan_phase, lst__plan_round, lst__plan_steady, lst__plan_stop, lst__plan_curve,
	lst__plan_failover, lst__plan_hir, lst__plan_xsr, lst__plan_dirth, lst__plan_event,
	lst__plan_before, lst__plan_after, lst__plan_telemetry, lst__plan_replay, lst__plan_slo,
	lst__plan_report;
/* plan-doc.md: the reference's prose, with a line {{keys NAME}} where a table goes. Embedded at
 * build time (embed.cmake). */
extern const char lst__plan_doc_md[];
/* The axes a suite phase may sweep: the ones the suites' grids read (bs, rwmixread, jobs,
 * iodepth: lst_suite.c) and rate_iops; NULL-terminated. Any other workload option varies a
 * plain phase's points only (lst__plan_phase_check refuses it in a suite phase). */
extern const char *const lst__plan_grid_axes[];

/* Why workload option o cannot be swept (it belongs to the phase as a whole: its length, its
 * sampling interval, a trace, a mix), as a clause for "sweep: X cannot be swept: WHY"; NULL
 * when a sweep may vary it (lst_plan_query.c). */
const char *lst__plan_sweep_fixed(const struct lst_opt *o);

/* The hooks the tables name (lst_plan_check.c). */
void lst__plan_agents_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *list);
void lst__plan_targets_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *list);
void lst__plan_phase_init(struct lst__plan_ctx *ctx, void *base);
void lst__plan_phase_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
void lst__plan_steady_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
void lst__plan_curve_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
void lst__plan_xsr_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
void lst__plan_top_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
/* The slo: map's bracket, and slo: against the phase's suite, workload and sweep
 * (lst_plan_slo.c). */
void lst__plan_slo_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
void lst__plan_slo_phase_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			       const struct lst_plan_phase *ph);

/*
 * Read text (the file p->file) into p, whose file, dir and text are set, with top the schema's
 * top-level section, lst__plan_top (lst_plan_read.c; the caller names the schema so that the
 * reader does not); or, when tree is not NULL, that tree (built in code: lst_plan_build) instead
 * of text. Applies the defaults, reads every key and runs every check. Returns the number of
 * errors, each added to errs (may be NULL) as "FILE:LINE:COL: message" in the order of their
 * places.
 */
size_t lst__plan_read(lst_plan *p, const struct lst__plan_section *top, const char *text,
		      size_t len, const struct lst_yaml_node *tree, lst_errlist *errs);

/* Collect an error at line:col (lst_plan_yaml.c); the text is made safe for a terminal. */
void lst__plan_error_at(struct lst__plan_ctx *ctx, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* An error about node n, with the current item's prefix ("phase lat: ") in front. */
#define lst__plan_error(ctx, n, fmt, ...)                                                          \
	lst__plan_error_at((ctx), (n)->mark.line, (n)->mark.col, "%s" fmt, (ctx)->prefix,          \
			   ##__VA_ARGS__)

/* The YAML loader's error callback (arg: the ctx): an error at line:col (lst_plan_yaml.c). */
void lst__plan_node_err(void *arg, int line, int col, const char *msg);

/* Hand the kept errors, sorted by place, to errs (may be NULL) as "FILE:LINE:COL: message"
 * with the count of the rest, and forget them; returns how many there were in all. */
size_t lst__plan_errors_report(struct lst__plan_ctx *ctx, const char *file, lst_errlist *errs);

/*
 * The primitives (lst_plan_yaml.c). The value of key `name` as a scalar's text, a map or a list,
 * or an error saying why not (nodes already reported stay silent):
 *   lst__plan_scalar  the text, or NULL (an empty value, a map or a list where text belongs)
 *   lst__plan_map     v as a map, NULL for an empty value, or NULL after an error; *ok says which
 *   lst__plan_list    the number of items, 0 for an empty value, or -1 after an error
 */
const char *lst__plan_scalar(struct lst__plan_ctx *ctx, const char *name,
			     const struct lst_yaml_node *v);
const struct lst_yaml_node *lst__plan_map(struct lst__plan_ctx *ctx, const char *name,
					  const struct lst_yaml_node *v, bool *ok);
long lst__plan_list(struct lst__plan_ctx *ctx, const char *name, const struct lst_yaml_node *v);

/* A whole percentage, the n bytes at s: "N" or "N%", N in 0..100; -1 for anything else (the
 * shares of hotband:, bs: maps and mix: entries). */
int64_t lst__plan_pct(const char *s, size_t n);

/* Read the keys of map (NULL: given but empty) of section sec into base; at is for places. */
void lst__plan_section_read(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
			    const struct lst_yaml_node *at, const struct lst_yaml_node *map,
			    void *base);

/* Read a K_LIST value: one item of k->sub per list item, with its defaults and checks. */
void lst__plan_items(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		     const struct lst_yaml_node *v, void *base);

/* Whether option o (key node kn) may not be given there: said, and true to skip it. */
typedef bool (*lst__plan_refuse_fn)(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn,
				    const struct lst_opt *o, const void *arg);

/*
 * The workload keys of map (NULL: none) into w, each an option of lst_workload_opts parsed by
 * its table entry; given (may be NULL) gets true at each option's index. where names the map in
 * messages ("workload", "the role of a"); refuse (may be NULL) turns options away first
 * (lst_plan_workload.c).
 */
void lst__plan_workload_keys(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			     const char *where, struct lst_workload *w, bool *given,
			     lst__plan_refuse_fn refuse, const void *arg);

/*
 * A `hotband:` list (lst_plan_hotband.c) into d as a zoned distribution: the bands, and the gaps
 * between them sharing what is left by size. Returns false after reporting each problem at its
 * place (d is then unchanged).
 */
bool lst__plan_hotband(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v,
		       struct lst_dist *d);

/*
 * The workload map's shorthands (lst_plan_sugar.c). lst__plan_bs_map: a `bs:` map v ({4k: 70, 64k: 30})
 * into b as the bssplit it spells; lst__plan_dedup: `dedup: R` into *pct as dedupe_percentage
 * round(100 - 100/R). Both return false after reporting each problem at its place (the output
 * is then unchanged).
 */
bool lst__plan_bs_map(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v,
		      struct lst_bssplit *b);
bool lst__plan_dedup(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v, int64_t *pct);

/*
 * Trace record and replay (lst_plan_trace.c), first among a phase's checks: `record:` and `replay:` into the
 * phase's write_iolog, read_iolog and replay_time_scale, and what a replay phase may not set
 * (what the trace decides: rw, bs, ... in its workload, roles or sweep), each refused at its
 * place.
 */
void lst__plan_trace_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			   struct lst_plan_phase *ph);

/*
 * A `mix:` list (lst_plan_mix.c): several weighted workloads in one point, into s as the skew
 * it spells. Returns false after reporting each problem at its place (s is then unchanged).
 */
bool lst__plan_mix(struct lst__plan_ctx *ctx, const struct lst_yaml_node *v, struct lst_skew *s);

/* Read one key's value v of section sec into base, by the key's kind (lst_plan_value.c). */
void lst__plan_value(struct lst__plan_ctx *ctx, const struct lst__plan_section *sec,
		     const struct lst__plan_key *k, const struct lst_yaml_node *v, void *base);

/* Set sweep axis `axis` of ph to its value i in w; the ports axis changes nothing
 * (lst_plan_query.c). */
void lst__plan_sweep_set(const struct lst_plan_phase *ph, size_t axis, size_t i,
			 struct lst_workload *w);

/* Is axis ax of phase ph one the suite runs its whole grid once per value of (a workload
 * option that is not one of lst__plan_grid_axes, in a suite phase)? (lst_plan_query.c) */
bool lst__plan_is_value_axis(const struct lst_plan_phase *ph, const struct lst_sweep_axis *ax);

/* Does sel select path pa? Does some selector of set? (lst_plan_query.c) */
bool lst__plan_sel_match(const struct lst_plan_sel *sel, const struct lst_plan_path *pa);
bool lst__plan_set_selects(const struct lst_port_set *set, const struct lst_plan_path *pa);

/*
 * The names of the plan's agents (targets when !agents) so far, each once, as "a, b" for a
 * "known: ..." hint in buf; "none" when there are none (lst_plan_query.c).
 */
const char *lst__plan_known_names(const lst_plan *p, bool agents, char *buf, size_t size);

/*
 * The key of agent's path in an lst_map of paths (lst_plan_query.c): the agent's index, then the
 * path's bytes, written to key (room for a size_t and LST_PATH_MAX bytes); returns its length.
 * path is one a target holds (shorter than LST_PATH_MAX).
 */
size_t lst__plan_path_key(char *key, size_t agent, const char *path);

/* The key of selector sel (lst_plan_query.c), in the same room: its agent's index, then its
 * path's bytes or none for every path of the agent (a path is never empty). */
size_t lst__plan_sel_key(char *key, const struct lst_plan_sel *sel);

/*
 * Paths, roles and port sets (lst_plan_paths.c):
 *   lst__plan_target_paths  a target's K_PATHS value: agent -> path or list of paths
 *   lst__plan_roles         a phase's K_ROLES value: selector -> idle or workload keys
 *   lst__plan_ports_axis    the `ports` sweep axis kn: vn added to ph; NULL when refused
 *   lst__plan_port_sets_free  free a ports axis's sets (lst_plan_destroy)
 *   lst__plan_paths_check   after a phase's keys: some path at work, port sets distinct
 */
void lst__plan_target_paths(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			    const struct lst_yaml_node *v, void *base);
void lst__plan_roles(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		     const struct lst_yaml_node *v, void *base);
const struct lst_sweep_axis *lst__plan_ports_axis(struct lst__plan_ctx *ctx,
						  struct lst_plan_phase *ph,
						  const struct lst_yaml_node *kn,
						  const struct lst_yaml_node *vn);
void lst__plan_port_sets_free(struct lst_sweep_axis *ax);
void lst__plan_paths_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			   const struct lst_plan_phase *ph);

/* Is s a name: [A-Za-z0-9_.-]{1,LST__PLAN_NAME_MAX} (lst_plan_yaml.c)? */
bool lst__plan_name_ok(const char *s);

/*
 * Events, hooks and telemetry (lst_plan_hooks.c):
 *   lst__plan_agent_ref       a K_AGENT value: an agent's name, stored as its index
 *   lst__plan_instant         a K_INSTANT value: a duration that may not be negative
 *   lst__plan_hooks           a K_HOOKS value: the list, then the checks across its items and
 *                             the phase (the agent takes part, `at` within a point, at most
 *                             LST_MAX_EVENTS per agent, no duplicate); events end sorted by at
 *   lst__plan_telemetry_value a K_TELEMETRY value: `off` or the map of lst__plan_telemetry
 *   lst__plan_collect         a K_COLLECT value: distinct collector names, with places
 *   lst__plan_hook_init / _check / _unknown  the hook sections' hooks
 *   lst__plan_hooks_free      free what a phase's hooks and telemetry own (lst_plan_destroy)
 */
void lst__plan_agent_ref(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			 const struct lst_yaml_node *v, void *base);
void lst__plan_instant(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		       const struct lst_yaml_node *v, void *base);
void lst__plan_hooks(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		     const struct lst_yaml_node *v, void *base);
void lst__plan_telemetry_value(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
			       const struct lst_yaml_node *v, void *base);
void lst__plan_collect(struct lst__plan_ctx *ctx, const struct lst__plan_key *k,
		       const struct lst_yaml_node *v, void *base);
void lst__plan_hook_init(struct lst__plan_ctx *ctx, void *base);
void lst__plan_hook_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map, void *base);
bool lst__plan_hook_unknown(struct lst__plan_ctx *ctx, const struct lst_yaml_node *kn);
void lst__plan_hooks_free(struct lst_plan_phase *ph);

/*
 * Data integrity (lst_plan_verify.c), after a phase's keys and its paths check: verify only on plain
 * phases and precondition, a phase either writes or reads under verify (no mixed rwmixread, no
 * role of the other direction), a role's verify is the phase's, and a reading phase's targets
 * are written with verify by an earlier phase.
 */
void lst__plan_verify_check(struct lst__plan_ctx *ctx, const struct lst_yaml_node *map,
			    const struct lst_plan_phase *ph);

/* The field at offset in the struct at base. */
static inline void *lst__plan_at(void *base, size_t offset)
{
	return (char *)base + offset;
}

#endif
