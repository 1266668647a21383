/*
 * Plans: the schema, and the walk that turns a YAML tree (lst_plan_node.c) into an lst_plan.
 *
 * One table per kind of map (the top level, an agent, a target, a phase, and a phase's round,
 * steady, stop, curve and hir maps) lists every key with its type, where it is stored, its
 * default, its range or choices, whether it is required, and one sentence of help. The same
 * tables apply the defaults, read and check the values, name the keys in "did you mean" hints,
 * and write docs/plan.md (lst_plan_write_doc), so the reference cannot drift from the parser.
 * Workload keys (`defaults:` and a phase's `workload:`) are not repeated here: they are
 * lst_workload_opts, read with lst_opt_parse, exactly as `lockstep-agent bench` reads them.
 *
 * Keys are read in table order, not file order, so a target can name agents and a phase can
 * start from `defaults:` whatever order the file uses. Every problem is collected with its place
 * and reading goes on wherever it can; the messages are sorted by place at the end. A plan with
 * any problem is never returned.
 */
#include "lst_plan.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_auth_text.h"
#include "lst_identity.h"
#include "lst_text.h"
#include "lst_yaml.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_NAME_MAX 63
#define S_MAX_POINTS LST_PLAN_MAX_POINTS
#define S_MAX_FILE (16u << 20)

/* As a plan spells them: `suite: none` is a plain workload phase. */
const char *const lst_suite_names[] = { "none",
					"purge",
					"precondition",
					"snia-iops",
					"snia-throughput",
					"snia-latency",
					"snia-wsat",
					"snia-hir",
					"lat-vs-iops",
					"curve",
					NULL };
const char *const lst_track_names[] = { "iops",	    "read_iops", "write_iops", "mbps",
					"lat_mean", "lat_p99",	 NULL };
static const char *const s_share_names[] = { "split", "shared", NULL };
static const char *const s_loss_names[] = { "abort", "continue", "retry", NULL };

/* Workload options a sweep may vary, in the order the docs list them. */
static const char *const s_sweep_axes[] = {
	"jobs", "iodepth", "bs", "rwmixread", "rate_iops", NULL
};

/* ---------------------------------------------------------------------------------------- */
/* The schema */

struct s_ctx;

enum s_kind {
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
	K_PATHS,	 /* a target's map agent -> path */
	K_TARGET_REFS,	 /* a phase's list of target names */
	K_SWEEP,	 /* a phase's map axis -> list of values */
	K_PCT_LIST,	 /* a list of percentages into a double array */
	K_DURATION_LIST, /* a list of durations into an int64_t array */
};

struct s_section;

struct s_key {
	/* name, type (for K_OPT, K_BOOL, K_DURATION_LIST), offset, default as text, int range,
	 * choices and help: lst_opt_parse reads K_OPT values with this directly */
	struct lst_opt o;
	enum s_kind kind;
	bool required;
	/* K_LIST, K_PCT_LIST, K_DURATION_LIST: offset of the size_t count; K_WORKLOAD: offset of
	 * the bool[] of options given, or 0 for none */
	size_t aux;
	double dmin, dmax;	     /* K_DOUBLE, K_PCT_LIST range */
	bool dmin_open;		     /* dmin itself is not allowed */
	const struct s_section *sub; /* K_SECTION, K_LIST */
	const char *doc_def;	     /* the default as the docs say it, when o.def is not it */
};

struct s_section {
	const char *name; /* "agent", "round": in messages and docs headings */
	const char *in;	  /* " in round": after "unknown key 'x'" */
	const char *help; /* the docs paragraph */
	const struct s_key *keys;
	/* K_LIST items */
	size_t size;	    /* of one item */
	size_t mark_offset; /* of the item's struct lst_mark */
	/* K_SECTION: offset of a bool set when the map is given (steady), when has_flag */
	bool has_flag;
	size_t flag;
	/* after the defaults, before the keys (a phase starts from the plan's defaults) */
	void (*init)(struct s_ctx *ctx, void *base);
	/* after the keys: checks across keys, with the map for places (NULL when empty) */
	void (*check)(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base);
	/* K_LIST: after all items */
	void (*list_check)(struct s_ctx *ctx, const struct lst_yaml_node *list);
};

struct s_error {
	int line, col;
	size_t seq;
	char *msg;
};

struct s_ctx {
	lst_plan *plan;
	const struct lst_yaml_node *root;
	struct s_error *errs;
	size_t nerrs;
	char prefix[256];  /* "phase lat: " in front of messages about the current item */
	size_t nbad;	   /* values met that were reported already (aliases) */
	size_t item_start; /* nerrs + nbad when the current list item began */
};

#define AG(f) offsetof(struct lst_plan_agent, f)
#define TG(f) offsetof(struct lst_plan_target, f)
#define PH(f) offsetof(struct lst_plan_phase, f)
#define PL(f) offsetof(struct lst_plan, f)
#define S_END                                                                                      \
	{                                                                                          \
		.o = {.name = NULL }                                                               \
	}
#define S_DAY (86400LL * LST_NS_PER_S)

static void s_agents_check(struct s_ctx *ctx, const struct lst_yaml_node *list);
static void s_targets_check(struct s_ctx *ctx, const struct lst_yaml_node *list);
static void s_phase_init(struct s_ctx *ctx, void *base);
static void s_phase_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base);
static void s_steady_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base);
static void s_curve_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base);
static void s_plan_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base);

static const struct s_key s_agent_keys[] = {
	{ .o = { "name", 0, AG(name), NULL, 0, 0, NULL,
		 "the agent's name, used in paths, messages and results" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { "address", 0, AG(address), NULL, 0, 0, NULL,
		 "where the agent listens: tcp://HOST:PORT (the port is 7270 when left out; "
		 "IPv6 as tcp://[::1]:7270)" },
	  .kind = K_ADDRESS,
	  .required = true },
	{ .o = { "key", 0, AG(key), NULL, 0, 0, NULL,
		 "the agent's CURVE public key: a file, relative to the plan's folder, or the "
		 "40-character Z85 key text; without a key the connection is plain text, which "
		 "only loopback addresses allow (or `lockstep run --insecure`, with a warning)" },
	  .kind = K_KEY,
	  .doc_def = "none" },
	S_END,
};

static const struct s_section s_agent = {
	.name = "agent",
	.in = "",
	.help = "Each item of `agents:` is one `lockstep-agent` the coordinator connects to. "
		"Nothing is contacted by `lockstep validate`.",
	.keys = s_agent_keys,
	.size = sizeof(struct lst_plan_agent),
	.mark_offset = AG(mark),
	.list_check = s_agents_check,
};

static const struct s_key s_target_keys[] = {
	{ .o = { "name", 0, TG(name), NULL, 0, 0, NULL,
		 "the target's name, used by phases' `targets:` and in results" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { "identity", 0, TG(identity), NULL, 0, 0, NULL,
		 "the device identity every path must resolve to (WWN, serial); an agent refuses "
		 "a path that leads to another device" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { "share", LST_OPT_ENUM, TG(share), "split", 0, 0, s_share_names,
		 "how the paths divide the target's blocks: split gives each path its own slice "
		 "of the range, so two hosts never write the same block; shared lets every path "
		 "cover all of it" },
	  .kind = K_OPT },
	{ .o = { "paths", 0, TG(paths), NULL, 0, 0, NULL,
		 "map of agent name to the absolute path of the device on that agent's host "
		 "(/dev/disk/by-id/...); at least one" },
	  .kind = K_PATHS,
	  .required = true },
	S_END,
};

static const struct s_section s_target = {
	.name = "target",
	.in = "",
	.help = "Each item of `targets:` is one device under test, reached through one or more "
		"paths, often one per agent (a dual-port drive on two hosts).",
	.keys = s_target_keys,
	.size = sizeof(struct lst_plan_target),
	.mark_offset = TG(mark),
	.list_check = s_targets_check,
};

static const struct s_key s_round_keys[] = {
	{ .o = { "ramp", LST_OPT_DURATION, PH(round_ramp), "0", 0, 3600 * LST_NS_PER_S, NULL,
		 "warm-up at the start of every round, excluded from its results" },
	  .kind = K_OPT },
	{ .o = { "duration", LST_OPT_DURATION, PH(round_duration), NULL, 10 * LST_NS_PER_MS, S_DAY,
		 NULL, "measured time of one round" },
	  .kind = K_OPT,
	  .required = true },
	S_END,
};

static const struct s_section s_round = {
	.name = "round",
	.in = " in round",
	.help = "One repetition of a phase (or of each sweep point): `ramp`, then `duration` "
		"measured. Steady-state tests repeat rounds; without `steady:` each point runs "
		"one round.",
	.keys = s_round_keys,
};

static const struct s_key s_steady_keys[] = {
	{ .o = { "max_rounds", LST_OPT_INT, PH(max_rounds), "25", 2, 10000, NULL,
		 "rounds to run at most before giving up on steady state" },
	  .kind = K_OPT },
	{ .o = { "window", LST_OPT_INT, PH(window), "5", 2, 1000, NULL,
		 "the measurement window: the last N rounds must meet both excursion limits; "
		 "at most max_rounds" },
	  .kind = K_OPT },
	{ .o = { "track", LST_OPT_ENUM, PH(track), "iops", 0, 0, lst_track_names,
		 "the value judged, combined over all agents, per round" },
	  .kind = K_OPT },
	{ .o = { "data_excursion", 0, PH(data_excursion_pct), "20", 0, 0, NULL,
		 "max - min over the window must stay within this percent of the window's "
		 "average" },
	  .kind = K_DOUBLE,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { "slope_excursion", 0, PH(slope_excursion_pct), "10", 0, 0, NULL,
		 "the least-squares line over the window may change by at most this percent of "
		 "the average" },
	  .kind = K_DOUBLE,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	S_END,
};

static const struct s_section s_steady = {
	.name = "steady",
	.in = " in steady",
	.help = "SNIA steady state: rounds repeat until the tracked value is steady over the "
		"window, or `max_rounds` is reached. Giving `steady:` (even empty) turns it on; a "
		"plain phase then needs `round:`.",
	.keys = s_steady_keys,
	.has_flag = true,
	.flag = PH(steady),
	.check = s_steady_check,
};

static const struct s_key s_stop_keys[] = {
	{ .o = { "capacity", 0, PH(stop_capacity), NULL, 0, 0, NULL,
		 "a multiple of the target's capacity (2x, 2.5x or 2), split across its paths" },
	  .kind = K_CAPACITY,
	  .doc_def = "none" },
	{ .o = { "bytes", LST_OPT_SIZE, PH(stop_bytes), NULL, 1, 1024LL << 40, NULL,
		 "bytes over all agents and jobs, per point" },
	  .kind = K_OPT,
	  .doc_def = "none" },
	{ .o = { "runtime", LST_OPT_DURATION, PH(stop_runtime), NULL, 10 * LST_NS_PER_MS,
		 30 * S_DAY, NULL, "measured time of each point (each round), after its ramp" },
	  .kind = K_OPT,
	  .doc_def = "none" },
	S_END,
};

static const struct s_section s_stop = {
	.name = "stop",
	.in = " in stop",
	.help = "When each point of a phase (each round of it) ends: whichever comes first of "
		"these, the workload's `runtime` and `bytes`, and the round's `duration`. A plain "
		"phase needs some stop condition: `runtime` or `bytes` in its workload, a "
		"`round:`, or one of these.",
	.keys = s_stop_keys,
};

static const struct s_key s_curve_keys[] = {
	{ .o = { "percents", 0, PH(curve_pcts), "10, 50, 70, 80, 90, 100", 0, 0, NULL,
		 "load points as percent of the maximum IOPS found first, ascending" },
	  .kind = K_PCT_LIST,
	  .aux = PH(ncurve),
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { "limit_percentile", 0, PH(limit_percentile), NULL, 0, 0, NULL,
		 "with limit: the latency percentile that must stay under limit (99.99)" },
	  .kind = K_DOUBLE,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true,
	  .doc_def = "none" },
	{ .o = { "limit", LST_OPT_DURATION, PH(limit_ns), NULL, LST_NS_PER_US, 3600 * LST_NS_PER_S,
		 NULL,
		 "with limit_percentile: the latency limit; the curve stops at the first point "
		 "over it" },
	  .kind = K_OPT,
	  .doc_def = "none" },
	S_END,
};

static const struct s_section s_curve = {
	.name = "curve",
	.in = " in curve",
	.help = "Open-loop load curve (`suite: curve`, and latency-vs-IOPS reports): rates as "
		"percents of the maximum, and an optional latency limit.",
	.keys = s_curve_keys,
	.check = s_curve_check,
};

static const struct s_key s_hir_keys[] = {
	{ .o = { "burst", LST_OPT_DURATION, PH(hir_burst), "5s", 100 * LST_NS_PER_MS,
		 3600 * LST_NS_PER_S, NULL, "length of each write burst" },
	  .kind = K_OPT },
	{ .o = { "gaps", LST_OPT_DURATION, PH(hir_gaps), "5s, 10s, 15s, 25s, 50s",
		 100 * LST_NS_PER_MS, 3600 * LST_NS_PER_S, NULL,
		 "idle gaps between bursts, one block of repeats each" },
	  .kind = K_DURATION_LIST,
	  .aux = PH(nhir_gaps) },
	{ .o = { "repeats", LST_OPT_INT, PH(hir_repeats), "360", 1, 10000, NULL,
		 "bursts per gap size" },
	  .kind = K_OPT },
	{ .o = { "continuous", LST_OPT_DURATION, PH(hir_continuous), "1800s", 0, S_DAY, NULL,
		 "continuous writing between gap sizes" },
	  .kind = K_OPT },
	S_END,
};

static const struct s_section s_hir = {
	.name = "hir",
	.in = " in hir",
	.help = "SNIA host idle recovery, used by `suite: snia-hir`: bursts of writes separated "
		"by idle gaps.",
	.keys = s_hir_keys,
};

static const struct s_key s_phase_keys[] = {
	{ .o = { "name", 0, PH(name), NULL, 0, 0, NULL, "the phase's name, unique in the plan" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { "suite", LST_OPT_ENUM, PH(suite), "none", 0, 0, lst_suite_names,
		 "a built-in test (purge, SNIA PTS tests, curves) instead of a plain workload; "
		 "the keys below adjust it" },
	  .kind = K_OPT },
	{ .o = { "targets", 0, PH(targets), NULL, 0, 0, NULL,
		 "names of the targets this phase drives, all through all their paths" },
	  .kind = K_TARGET_REFS,
	  .doc_def = "all targets" },
	{ .o = { "workload", 0, PH(w), NULL, 0, 0, NULL,
		 "workload options (see the workload table) on top of `defaults:`" },
	  .kind = K_WORKLOAD,
	  .aux = PH(w_set),
	  .doc_def = "`defaults:`" },
	{ .o = { "sweep", 0, 0, NULL, 0, 0, NULL,
		 "workload options to vary: a map of axis to list of values (see sweep)" },
	  .kind = K_SWEEP,
	  .doc_def = "none" },
	{ .o = { "round", 0, 0, NULL, 0, 0, NULL, "rounds (see round)" },
	  .kind = K_SECTION,
	  .sub = &s_round,
	  .doc_def = "none" },
	{ .o = { "steady", 0, 0, NULL, 0, 0, NULL, "steady state (see steady)" },
	  .kind = K_SECTION,
	  .sub = &s_steady,
	  .doc_def = "off" },
	{ .o = { "stop", 0, 0, NULL, 0, 0, NULL, "stop conditions (see stop)" },
	  .kind = K_SECTION,
	  .sub = &s_stop,
	  .doc_def = "none" },
	{ .o = { "curve", 0, 0, NULL, 0, 0, NULL, "load curve (see curve)" },
	  .kind = K_SECTION,
	  .sub = &s_curve,
	  .doc_def = "see curve" },
	{ .o = { "hir", 0, 0, NULL, 0, 0, NULL, "host idle recovery (see hir)" },
	  .kind = K_SECTION,
	  .sub = &s_hir,
	  .doc_def = "see hir" },
	{ .o = { "secure", LST_OPT_BOOL, PH(secure), "false", 0, 1, NULL,
		 "`suite: purge`: secure discard (BLKSECDISCARD) instead of discard; true is an "
		 "error with any other suite" },
	  .kind = K_BOOL },
	{ .o = { "on_agent_loss", LST_OPT_ENUM, PH(on_agent_loss), NULL, 0, 0, s_loss_names,
		 "what losing an agent does to this phase" },
	  .kind = K_OPT,
	  .doc_def = "the plan's" },
	S_END,
};

static const struct s_section s_phase = {
	.name = "phase",
	.in = "",
	.help = "Each item of `phases:` is one step of the plan; phases run in order, and every "
		"agent starts each phase (each round, each sweep point) at the same instant.",
	.keys = s_phase_keys,
	.size = sizeof(struct lst_plan_phase),
	.mark_offset = PH(mark),
	.init = s_phase_init,
	.check = s_phase_check,
};

static const struct s_key s_top_keys[] = {
	{ .o = { "lockstep", 0, PL(version), NULL, 0, 0, NULL,
		 "plan format version; this lockstep reads 1" },
	  .kind = K_VERSION,
	  .required = true },
	{ .o = { "name", 0, PL(name), NULL, 0, 0, NULL,
		 "the plan's name, used for results folders" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { "description", 0, PL(description), NULL, 0, 0, NULL,
		 "free text, kept with the results" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { "lease", LST_OPT_DURATION, PL(lease), "10s", LST_NS_PER_S, 600 * LST_NS_PER_S,
		 NULL,
		 "an agent stops its I/O after this long without hearing from the "
		 "coordinator" },
	  .kind = K_OPT },
	{ .o = { "on_agent_loss", LST_OPT_ENUM, PL(on_agent_loss), "retry", 0, 0, s_loss_names,
		 "what losing an agent (silent longer than the lease, or restarted) does: abort "
		 "the run; continue the point with the others and mark it partial; or retry: "
		 "stop the point, wait up to retry_wait for the agent to come back, and run the "
		 "point again for everyone" },
	  .kind = K_OPT },
	{ .o = { "retry_wait", LST_OPT_DURATION, PL(retry_wait), "60s", LST_NS_PER_S,
		 24 * 3600 * LST_NS_PER_S, NULL,
		 "`on_agent_loss: retry`: how long to wait for lost agents to come back before "
		 "the run fails" },
	  .kind = K_OPT },
	{ .o = { "retries", LST_OPT_INT, PL(retries), "3", 0, 100, NULL,
		 "`on_agent_loss: retry`: how many times one point may run again" },
	  .kind = K_OPT },
	{ .o = { "agents", 0, PL(agents), NULL, 1, 0, NULL,
		 "the agents (see agent), at least one" },
	  .kind = K_LIST,
	  .aux = PL(nagents),
	  .sub = &s_agent,
	  .required = true },
	{ .o = { "targets", 0, PL(targets), NULL, 1, 0, NULL,
		 "the devices under test (see target), at least one" },
	  .kind = K_LIST,
	  .aux = PL(ntargets),
	  .sub = &s_target,
	  .required = true },
	{ .o = { "defaults", 0, PL(defaults), NULL, 0, 0, NULL,
		 "workload options every phase starts from (see workload)" },
	  .kind = K_WORKLOAD,
	  .doc_def = "the workload table's" },
	{ .o = { "phases", 0, PL(phases), NULL, 1, 0, NULL,
		 "the steps of the plan, in order (see phase), at least one" },
	  .kind = K_LIST,
	  .aux = PL(nphases),
	  .sub = &s_phase,
	  .required = true },
	S_END,
};

static const struct s_section s_top = {
	.name = "plan",
	.in = " in the plan",
	.help = "The top level of a plan file.",
	.keys = s_top_keys,
	.check = s_plan_check,
};

/* ---------------------------------------------------------------------------------------- */
/* Collecting errors */

static void s_error_at(struct s_ctx *ctx, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void s_error_at(struct s_ctx *ctx, int line, int col, const char *fmt, ...)
{
	char buf[2 * LST_ERR_MAX];
	struct s_error *e;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Messages quote the plan's text: nothing in it reaches the terminal as a control
	 * (a tab or newline in a name, which only its own check refuses). */
	lst_str_sanitize(buf);
	ctx->errs = lst_realloc(ctx->errs, (ctx->nerrs + 1) * sizeof(*ctx->errs));
	e = &ctx->errs[ctx->nerrs];
	e->line = line;
	e->col = col;
	e->seq = ctx->nerrs++;
	e->msg = lst_strdup(buf);
}

/* An error about node n, with the current item's prefix ("phase lat: ") in front. */
#define s_error(ctx, n, fmt, ...)                                                                  \
	s_error_at((ctx), (n)->mark.line, (n)->mark.col, "%s" fmt, (ctx)->prefix, ##__VA_ARGS__)

static void s_node_err(void *arg, int line, int col, const char *msg)
{
	s_error_at(arg, line, col, "%s", msg);
}

static int s_error_cmp(const void *a, const void *b)
{
	const struct s_error *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---------------------------------------------------------------------------------------- */
/* Small helpers */

static void *s_at(void *base, size_t offset)
{
	return (char *)base + offset;
}

static void s_set_str(void *base, size_t offset, const char *text)
{
	char **p = s_at(base, offset);

	free(*p);
	*p = lst_strdup(text);
}

static void s_key_names(const struct s_key *keys, const char **names, size_t max)
{
	size_t n = 0;

	for (const struct s_key *k = keys; k->o.name && n + 1 < max; k++)
		names[n++] = k->o.name;
	names[n] = NULL;
}

static void s_opt_names(const struct lst_opt *opts, const char **names, size_t max)
{
	size_t n = 0;

	for (const struct lst_opt *o = opts; o->name && n + 1 < max; o++)
		names[n++] = o->name;
	names[n] = NULL;
}

/*
 * The text of a scalar value, or NULL after saying why there is none: a map or a list where
 * one value belongs, or an empty value. Nodes already reported (aliases) stay silent.
 */
static const char *s_scalar(struct s_ctx *ctx, const char *name, const struct lst_yaml_node *v)
{
	if (v->bad) {
		ctx->nbad++;
		return NULL;
	}
	if (v->type != LST_YAML_SCALAR) {
		s_error(ctx, v, "%s must be a single value, not %s", name, lst_yaml_what(v));
		return NULL;
	}
	if (v->null && !strcasecmp(v->text, "null")) {
		/* `engine: null` is YAML's empty value, not the engine called null. */
		s_error(ctx, v,
			"%s needs a value: %s is YAML's empty value; quote it (\"%s\") if "
			"you mean the word",
			name, v->text, v->text);
		return NULL;
	}
	if (v->null) {
		s_error(ctx, v, "%s needs a value", name);
		return NULL;
	}
	return v->text;
}

/* v as a map, NULL for an empty value (no keys), or NULL after an error; *ok says which. */
static const struct lst_yaml_node *s_map(struct s_ctx *ctx, const char *name,
					 const struct lst_yaml_node *v, bool *ok)
{
	*ok = !v->bad;
	if (v->bad) {
		ctx->nbad++;
		return NULL;
	}
	if (v->type == LST_YAML_MAP)
		return v;
	if (v->type == LST_YAML_SCALAR && v->null)
		return NULL;
	*ok = false;
	if (!v->bad)
		s_error(ctx, v, "%s must be a map of key: value, not %s", name, lst_yaml_what(v));
	return NULL;
}

/* Items of a list value: the count, 0 for an empty value, or -1 after an error. */
static long s_list(struct s_ctx *ctx, const char *name, const struct lst_yaml_node *v)
{
	if (v->bad) {
		ctx->nbad++;
		return -1;
	}
	if (v->type == LST_YAML_LIST)
		return (long)v->n;
	if (v->type == LST_YAML_SCALAR && v->null)
		return 0;
	s_error(ctx, v, "%s must be a list (- item, or [a, b]), not %s", name, lst_yaml_what(v));
	return -1;
}

static bool s_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > S_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return false;
	return true;
}

/* Check and normalize "tcp://HOST[:PORT]"; returns the address with the port, or NULL. */
static char *s_address(const char *s, char *why, size_t size)
{
	const char *rest, *host, *port = NULL;
	size_t hostlen;
	int64_t p = LST_AGENT_PORT;
	lst_err err;

	if (strncmp(s, "tcp://", 6)) {
		snprintf(why, size, "must start with tcp:// (like tcp://host:%d)", LST_AGENT_PORT);
		return NULL;
	}
	rest = host = s + 6;
	if (*rest == '[') {
		const char *end = strchr(rest, ']');

		if (!end || end == rest + 1) {
			snprintf(why, size, "has an unclosed or empty [IPv6] host");
			return NULL;
		}
		hostlen = (size_t)(end + 1 - rest);
		if (end[1] == ':')
			port = end + 2;
		else if (end[1]) {
			snprintf(why, size, "has '%s' after the host; expected :PORT", end + 1);
			return NULL;
		}
	} else {
		const char *colon = strchr(rest, ':');

		hostlen = colon ? (size_t)(colon - rest) : strlen(rest);
		if (colon)
			port = colon + 1;
	}
	if (hostlen == 0) {
		snprintf(why, size, "has no host (like tcp://host:%d)", LST_AGENT_PORT);
		return NULL;
	}
	for (size_t i = 0; i < hostlen; i++) {
		if (isspace((unsigned char)host[i]) || host[i] == '/' || host[i] == '*') {
			snprintf(why, size, "has a host with '%c' in it", host[i]);
			return NULL;
		}
	}
	if (port) {
		bool digits = *port != '\0';

		for (const char *c = port; *c; c++)
			digits = digits && isdigit((unsigned char)*c);
		if (!digits || lst_parse_int(port, 1, 65535, &p, &err)) {
			snprintf(why, size, "has port '%s'; a port is a number from 1 to 65535",
				 port);
			return NULL;
		}
	}
	return lst_asprintf("tcp://%.*s:%" PRId64, (int)hostlen, host, p);
}

/* ---------------------------------------------------------------------------------------- */
/* Values */

static void s_section(struct s_ctx *ctx, const struct s_section *sec,
		      const struct lst_yaml_node *at, const struct lst_yaml_node *map, void *base);

static void s_parse_list_text(const struct s_key *k, void *base)
{
	/* A list default, written like "5s, 10s": split on commas. */
	size_t n = 1, i = 0;
	char *copy, *tok, *save = NULL;

	for (const char *c = k->o.def; *c; c++)
		n += *c == ',';
	copy = lst_strdup(k->o.def);
	if (k->kind == K_PCT_LIST) {
		double *v = lst_calloc(n, sizeof(*v));

		for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
			v[i++] = strtod(tok, NULL);
		free(*(double **)s_at(base, k->o.offset));
		*(double **)s_at(base, k->o.offset) = v;
	} else {
		int64_t *v = lst_calloc(n, sizeof(*v));

		for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			int rc = lst_parse_duration(tok, &v[i++], NULL);

			LST_ASSERT(rc == 0);
		}
		free(*(int64_t **)s_at(base, k->o.offset));
		*(int64_t **)s_at(base, k->o.offset) = v;
	}
	LST_ASSERT(i == n);
	*(size_t *)s_at(base, k->aux) = n;
	free(copy);
}

/* Apply a section's defaults to base, nested sections included. */
static void s_defaults(const struct s_section *sec, void *base)
{
	for (const struct s_key *k = sec->keys; k->o.name; k++) {
		lst_err err;
		int64_t v = 0;
		struct lst_opt tmp = k->o;

		switch (k->kind) {
		case K_OPT:
			if (k->o.def)
				LST_ASSERT(lst_opt_parse(&k->o, base, k->o.def, &err) == 0);
			break;
		case K_BOOL:
			tmp.offset = 0;
			LST_ASSERT(lst_opt_parse(&tmp, &v, k->o.def, &err) == 0);
			*(bool *)s_at(base, k->o.offset) = v;
			break;
		case K_DOUBLE:
			*(double *)s_at(base, k->o.offset) = k->o.def ? strtod(k->o.def, NULL) : 0;
			break;
		case K_WORKLOAD:
			lst_workload_init(s_at(base, k->o.offset));
			break;
		case K_SECTION:
			s_defaults(k->sub, base);
			break;
		case K_PCT_LIST:
		case K_DURATION_LIST:
			s_parse_list_text(k, base);
			break;
		default:
			break;
		}
	}
}

static void s_double(struct s_ctx *ctx, const struct s_key *k, const char *pfx,
		     const struct lst_yaml_node *v, double *out)
{
	const char *text = s_scalar(ctx, k->o.name, v);
	lst_err err;
	double d;

	if (!text)
		return;
	if (lst_parse_double(text, -INFINITY, INFINITY, &d, &err)) {
		s_error(ctx, v, "%s%s: '%s' is not a number", pfx, k->o.name, text);
		return;
	}
	if (d < k->dmin || d > k->dmax || (k->dmin_open && d == k->dmin)) {
		s_error(ctx, v, "%s%s must be %s %g and <= %g", pfx, k->o.name,
			k->dmin_open ? ">" : ">=", k->dmin, k->dmax);
		return;
	}
	*out = d;
}

static void s_capacity(struct s_ctx *ctx, const struct s_key *k, const char *pfx,
		       const struct lst_yaml_node *v, void *base)
{
	const char *text = s_scalar(ctx, k->o.name, v);
	char num[64];
	size_t n;
	lst_err err;
	double d;

	if (!text)
		return;
	snprintf(num, sizeof(num), "%s", text);
	n = strlen(num);
	if (n && (num[n - 1] == 'x' || num[n - 1] == 'X'))
		num[n - 1] = '\0';
	if (lst_parse_double(num, -INFINITY, INFINITY, &d, &err)) {
		s_error(ctx, v, "%s%s: '%s' is not a multiple of the capacity (like 2x or 2.5x)",
			pfx, k->o.name, text);
		return;
	}
	if (d <= 0 || d > 1000) {
		s_error(ctx, v,
			"%s%s must be more than 0 and at most 1000 (a multiple of the "
			"target's capacity, like 2x)",
			pfx, k->o.name);
		return;
	}
	*(double *)s_at(base, k->o.offset) = d;
}

static void s_workload(struct s_ctx *ctx, const struct s_key *k, const struct lst_yaml_node *v,
		       void *base)
{
	struct lst_workload *w = s_at(base, k->o.offset);
	bool *given = k->aux ? s_at(base, k->aux) : NULL;
	const char *names[64];
	bool ok;
	const struct lst_yaml_node *map = s_map(ctx, k->o.name, v, &ok);

	s_opt_names(lst_workload_opts, names, LST_ARRAY_SIZE(names));
	for (size_t i = 0; map && i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i], *vn = map->kids[i + 1];
		const struct lst_opt *o;
		const char *text;
		char hint[512];
		lst_err err;

		if (kn->type != LST_YAML_SCALAR)
			continue;
		o = lst_opt_find(lst_workload_opts, kn->text);
		if (!o) {
			s_error(ctx, kn, "unknown key '%s' in %s (%s)", kn->text, k->o.name,
				lst_text_hint(kn->text, names, "keys", hint, sizeof(hint)));
			continue;
		}
		text = s_scalar(ctx, o->name, vn);
		if (!text)
			continue;
		if (lst_opt_parse(o, w, text, &err)) {
			s_error(ctx, vn, "%s", err.msg);
			continue;
		}
		if (o->offset == offsetof(struct lst_workload, runtime) && w->runtime == 0)
			s_error(ctx, vn, "runtime must be > 0; leave it out to stop by bytes");
		if (given) {
			/* w_set has room for every workload option */
			LST_ASSERT(o - lst_workload_opts <
				   (ptrdiff_t)sizeof(((struct lst_plan_phase *)0)->w_set));
			given[o - lst_workload_opts] = true;
		}
	}
}

static void s_paths(struct s_ctx *ctx, const struct s_key *k, const struct lst_yaml_node *v,
		    void *base)
{
	struct lst_plan_target *t = base;
	const lst_plan *p = ctx->plan;
	bool ok;
	const struct lst_yaml_node *map = s_map(ctx, k->o.name, v, &ok);

	if (!ok)
		return;
	if (!map || map->n == 0) {
		s_error(ctx, v,
			"paths must map at least one agent to its device path "
			"(like {a: /dev/sdb})");
		return;
	}
	t->paths = lst_calloc(map->n / 2, sizeof(*t->paths));
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i], *vn = map->kids[i + 1];
		const char *path;
		int a;

		if (kn->type != LST_YAML_SCALAR)
			continue;
		a = lst_plan_agent_index(p, kn->text);
		if (a < 0) {
			char known[512];
			size_t n = 0;

			known[0] = '\0';
			for (size_t j = 0; j < p->nagents && n < sizeof(known); j++)
				if (p->agents[j].name &&
				    lst_plan_agent_index(p, p->agents[j].name) == (int)j)
					n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s",
							      n ? ", " : "", p->agents[j].name);
			s_error(ctx, kn, "path for agent '%s', which is not in agents (known: %s)",
				kn->text, n ? known : "none");
			continue;
		}
		path = s_scalar(ctx, kn->text, vn);
		if (!path)
			continue;
		if (path[0] != '/') {
			s_error(ctx, vn,
				"path '%s' for agent '%s' must be absolute "
				"(like /dev/disk/by-id/...)",
				path, kn->text);
			continue;
		}
		if (strpbrk(path, "\t\n")) {
			s_error(ctx, vn,
				"path '%s' for agent '%s' holds a tab or a newline; a device path "
				"is one line of plain text",
				path, kn->text);
			continue;
		}
		if (strlen(path) >= LST_PATH_MAX) {
			s_error(ctx, vn, "path for agent '%s' is longer than %d bytes", kn->text,
				LST_PATH_MAX - 1);
			continue;
		}
		t->paths[t->npaths].agent = (size_t)a;
		t->paths[t->npaths].path = lst_strdup(path);
		t->paths[t->npaths].mark = kn->mark;
		t->npaths++;
	}
}

static void s_target_refs(struct s_ctx *ctx, const struct s_key *k, const struct lst_yaml_node *v,
			  void *base)
{
	struct lst_plan_phase *ph = base;
	const lst_plan *p = ctx->plan;
	long n = s_list(ctx, k->o.name, v);

	if (n < 0)
		return;
	if (n == 0) {
		s_error(ctx, v, "targets must list at least one target; leave it out to use all");
		return;
	}
	ph->targets = lst_calloc((size_t)n, sizeof(*ph->targets));
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *item = v->kids[i];
		const char *name = s_scalar(ctx, "a target in targets", item);
		bool dup = false;
		int t;

		if (!name)
			continue;
		t = lst_plan_target_index(p, name);
		if (t < 0) {
			char known[512];
			size_t len = 0;

			known[0] = '\0';
			for (size_t j = 0; j < p->ntargets && len < sizeof(known); j++)
				if (p->targets[j].name &&
				    lst_plan_target_index(p, p->targets[j].name) == (int)j)
					len += (size_t)snprintf(known + len, sizeof(known) - len,
								"%s%s", len ? ", " : "",
								p->targets[j].name);
			s_error(ctx, item, "unknown target '%s' (known: %s)", name,
				len ? known : "none");
			continue;
		}
		for (size_t j = 0; j < ph->ntargets; j++)
			dup = dup || ph->targets[j] == (size_t)t;
		if (dup) {
			s_error(ctx, item, "target '%s' is listed twice", name);
			continue;
		}
		ph->targets[ph->ntargets++] = (size_t)t;
	}
}

static void s_sweep(struct s_ctx *ctx, const struct s_key *k, const struct lst_yaml_node *v,
		    void *base)
{
	struct lst_plan_phase *ph = base;
	bool ok;
	const struct lst_yaml_node *map = s_map(ctx, k->o.name, v, &ok);
	size_t points = 1;

	if (!ok)
		return;
	if (!map || map->n == 0) {
		s_error(ctx, v,
			"sweep must name at least one axis (jobs, iodepth, bs, rwmixread, "
			"rate_iops) with a list of values");
		return;
	}
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i], *vn = map->kids[i + 1];
		struct lst_sweep_axis *ax;
		const struct lst_opt *o;
		bool is_axis = false;
		char hint[512];
		long n;

		if (kn->type != LST_YAML_SCALAR)
			continue;
		for (size_t j = 0; s_sweep_axes[j]; j++)
			is_axis = is_axis || !strcmp(kn->text, s_sweep_axes[j]);
		o = lst_opt_find(lst_workload_opts, kn->text);
		if (!is_axis && o) {
			s_error(ctx, kn,
				"sweep: %s cannot be swept (axes: jobs, iodepth, bs, "
				"rwmixread, rate_iops); set it in workload",
				kn->text);
			continue;
		}
		if (!is_axis) {
			s_error(ctx, kn, "sweep: unknown axis '%s' (%s)", kn->text,
				lst_text_hint(kn->text, s_sweep_axes, "axes", hint, sizeof(hint)));
			continue;
		}
		if (ph->naxes == LST_SWEEP_MAX_AXES) {
			s_error(ctx, kn, "sweep: at most %d axes", LST_SWEEP_MAX_AXES);
			continue;
		}
		n = s_list(ctx, kn->text, vn);
		if (n < 0)
			continue;
		if (n == 0) {
			s_error(ctx, vn, "sweep: %s needs at least one value, like [1, 2, 4]",
				kn->text);
			continue;
		}
		ax = &ph->axes[ph->naxes++];
		ax->opt = o;
		ax->mark = kn->mark;
		ax->values = lst_calloc((size_t)n, sizeof(*ax->values));
		for (size_t j = 0; j < (size_t)n; j++) {
			const struct lst_yaml_node *item = vn->kids[j];
			const char *text = s_scalar(ctx, o->name, item);
			struct lst_workload w = ph->w;
			lst_err err, base_err;
			bool dup = false;
			int64_t val;

			if (!text || lst_opt_parse(o, &w, text, &err)) {
				if (text)
					s_error(ctx, item, "sweep: %s", err.msg);
				continue;
			}
			val = lst_opt_get(o, &w);
			for (size_t m = 0; m < ax->n; m++)
				dup = dup || ax->values[m] == val;
			if (dup) {
				s_error(ctx, item, "sweep: %s value '%s' is listed twice", o->name,
					text);
				continue;
			}
			/* Checks across options that this one value breaks on its own. */
			if (lst_workload_check(&w, 0, &err) &&
			    !lst_workload_check(&ph->w, 0, &base_err))
				s_error(ctx, item, "sweep: %s", err.msg);
			ax->values[ax->n++] = val;
		}
		if (ax->n == 0) {
			/* every value was wrong (and reported): keep the axis out of the points */
			free(ax->values);
			memset(ax, 0, sizeof(*ax));
			ph->naxes--;
			continue;
		}
		if (points > S_MAX_POINTS / ax->n) {
			s_error(ctx, kn, "sweep: more than %d points; split it into phases",
				S_MAX_POINTS);
			continue;
		}
		points *= ax->n;
	}
}

static void s_num_list(struct s_ctx *ctx, const struct s_key *k, const char *pfx,
		       const struct lst_yaml_node *v, void *base)
{
	long n = s_list(ctx, k->o.name, v);
	size_t got = 0;
	double *pcts = NULL;
	int64_t *durs = NULL;

	if (n < 0)
		return;
	if (n == 0) {
		s_error(ctx, v, "%s%s needs at least one value; leave it out for %s", pfx,
			k->o.name, k->o.def);
		return;
	}
	if (k->kind == K_PCT_LIST)
		pcts = lst_calloc((size_t)n, sizeof(*pcts));
	else
		durs = lst_calloc((size_t)n, sizeof(*durs));
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *item = v->kids[i];

		if (pcts) {
			double d = NAN;

			s_double(ctx, k, pfx, item, &d);
			if (isnan(d))
				continue;
			if (got && d <= pcts[got - 1]) {
				s_error(ctx, item, "%s%s must go up: %g after %g", pfx, k->o.name,
					d, pcts[got - 1]);
				continue;
			}
			pcts[got++] = d;
		} else {
			struct lst_opt tmp = k->o;
			const char *text = s_scalar(ctx, k->o.name, item);
			int64_t val;
			lst_err err;

			tmp.offset = 0;
			if (!text)
				continue;
			if (lst_opt_parse(&tmp, &val, text, &err)) {
				s_error(ctx, item, "%s%s", pfx, err.msg);
				continue;
			}
			durs[got++] = val;
		}
	}
	if (pcts) {
		free(*(double **)s_at(base, k->o.offset));
		*(double **)s_at(base, k->o.offset) = pcts;
	} else {
		free(*(int64_t **)s_at(base, k->o.offset));
		*(int64_t **)s_at(base, k->o.offset) = durs;
	}
	*(size_t *)s_at(base, k->aux) = got;
}

static void s_items(struct s_ctx *ctx, const struct s_key *k, const struct lst_yaml_node *v,
		    void *base)
{
	const struct s_section *sec = k->sub;
	long n = s_list(ctx, k->o.name, v);
	char saved[sizeof(ctx->prefix)];
	char *items;

	if (n < 0)
		return;
	if (n < k->o.min) {
		s_error(ctx, v, "%s must list at least one %s", k->o.name, sec->name);
		return;
	}
	items = lst_calloc((size_t)n, sec->size);
	*(void **)s_at(base, k->o.offset) = items;
	*(size_t *)s_at(base, k->aux) = (size_t)n;
	memcpy(saved, ctx->prefix, sizeof(saved));
	for (size_t i = 0; i < (size_t)n; i++) {
		const struct lst_yaml_node *item = v->kids[i], *name;
		void *it = items + i * sec->size;
		bool ok;
		const struct lst_yaml_node *map = s_map(ctx, sec->name, item, &ok);

		*(struct lst_mark *)s_at(it, sec->mark_offset) = item->mark;
		s_defaults(sec, it);
		if (sec->init)
			sec->init(ctx, it);
		name = lst_yaml_get(map, "name", NULL);
		if (name && name->type == LST_YAML_SCALAR && !name->null)
			snprintf(ctx->prefix, sizeof(ctx->prefix), "%s%s %s: ", saved, sec->name,
				 name->text);
		else
			snprintf(ctx->prefix, sizeof(ctx->prefix), "%s%s %zu: ", saved, sec->name,
				 i + 1);
		if (ok) {
			size_t start = ctx->item_start;

			ctx->item_start = ctx->nerrs + ctx->nbad;
			s_section(ctx, sec, item, map, it);
			ctx->item_start = start;
		}
		memcpy(ctx->prefix, saved, sizeof(saved));
	}
	/* Names are unique within a list: agents, targets and phases are named in results. */
	for (size_t i = 1; i < (size_t)n; i++) {
		const struct lst_yaml_node *ni = lst_yaml_get(v->kids[i], "name", NULL);

		if (!ni || ni->type != LST_YAML_SCALAR)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct lst_yaml_node *nj = lst_yaml_get(v->kids[j], "name", NULL);

			if (nj && nj->type == LST_YAML_SCALAR && !strcmp(ni->text, nj->text)) {
				s_error(ctx, ni, "duplicate %s name '%s' (first at %d:%d)",
					sec->name, ni->text, nj->mark.line, nj->mark.col);
				break;
			}
		}
	}
	if (sec->list_check)
		sec->list_check(ctx, v);
}

/* Read one key's value into base. kn is the key node, v the value node. */
static void s_value(struct s_ctx *ctx, const struct s_section *sec, const struct s_key *k,
		    const struct lst_yaml_node *v, void *base)
{
	/* Values in a phase's sub-map say which map: "round: duration must be ..." */
	char pfx[32] = "";
	const char *text;
	char why[256];
	lst_err err;

	if (sec->in[0] && sec != &s_top)
		snprintf(pfx, sizeof(pfx), "%s: ", sec->name);
	switch (k->kind) {
	case K_OPT:
		text = s_scalar(ctx, k->o.name, v);
		if (text && lst_opt_parse(&k->o, base, text, &err))
			s_error(ctx, v, "%s%s", pfx, err.msg);
		break;
	case K_BOOL: {
		struct lst_opt tmp = k->o;
		int64_t b;

		tmp.offset = 0;
		text = s_scalar(ctx, k->o.name, v);
		if (text && lst_opt_parse(&tmp, &b, text, &err))
			s_error(ctx, v, "%s%s", pfx, err.msg);
		else if (text)
			*(bool *)s_at(base, k->o.offset) = b;
		break;
	}
	case K_DOUBLE:
		s_double(ctx, k, pfx, v, s_at(base, k->o.offset));
		break;
	case K_CAPACITY:
		s_capacity(ctx, k, pfx, v, base);
		break;
	case K_STRING:
		text = s_scalar(ctx, k->o.name, v);
		if (text && !*text)
			s_error(ctx, v, "%s must not be empty; leave it out instead", k->o.name);
		else if (text && strlen(text) >= LST_TEXT_MAX)
			s_error(ctx, v, "%s is longer than %d bytes", k->o.name, LST_TEXT_MAX - 1);
		else if (text)
			s_set_str(base, k->o.offset, text);
		break;
	case K_NAME:
		text = s_scalar(ctx, k->o.name, v);
		if (text && !s_name_ok(text))
			s_error(ctx, v,
				"%s '%s' may only use letters, digits, '_', '.' and '-', "
				"at most %d of them",
				k->o.name, text, S_NAME_MAX);
		else if (text)
			s_set_str(base, k->o.offset, text);
		break;
	case K_ADDRESS: {
		char *addr;

		text = s_scalar(ctx, k->o.name, v);
		if (!text)
			break;
		addr = s_address(text, why, sizeof(why));
		if (!addr) {
			s_error(ctx, v, "address '%s' %s", text, why);
			break;
		}
		free(*(char **)s_at(base, k->o.offset));
		*(char **)s_at(base, k->o.offset) = addr;
		break;
	}
	case K_KEY:
		text = s_scalar(ctx, k->o.name, v);
		if (text && !*text)
			s_error(ctx, v, "key must not be empty; leave it out for plain text");
		else if (text && (text[0] == '/' || lst_auth_is_key_text(text)))
			s_set_str(base, k->o.offset, text);
		else if (text) {
			free(*(char **)s_at(base, k->o.offset));
			*(char **)s_at(base, k->o.offset) =
				lst_asprintf("%s/%s", ctx->plan->dir, text);
		}
		break;
	case K_VERSION: {
		int64_t ver;

		text = s_scalar(ctx, k->o.name, v);
		if (text && lst_parse_int(text, INT64_MIN, INT64_MAX, &ver, &err))
			s_error(ctx, v,
				"lockstep: '%s' is not a plan format version; write "
				"lockstep: %d",
				text, LST_PLAN_VERSION);
		else if (text && ver != LST_PLAN_VERSION)
			s_error(ctx, v,
				"lockstep: plan format %" PRId64 " is not supported; this "
				"lockstep reads format %d",
				ver, LST_PLAN_VERSION);
		else if (text)
			*(int64_t *)s_at(base, k->o.offset) = ver;
		break;
	}
	case K_WORKLOAD:
		s_workload(ctx, k, v, base);
		break;
	case K_SECTION: {
		bool ok;
		const struct lst_yaml_node *map = s_map(ctx, k->o.name, v, &ok);

		if (ok)
			s_section(ctx, k->sub, v, map, base);
		break;
	}
	case K_LIST:
		s_items(ctx, k, v, base);
		break;
	case K_PATHS:
		s_paths(ctx, k, v, base);
		break;
	case K_TARGET_REFS:
		s_target_refs(ctx, k, v, base);
		break;
	case K_SWEEP:
		s_sweep(ctx, k, v, base);
		break;
	case K_PCT_LIST:
	case K_DURATION_LIST:
		s_num_list(ctx, k, pfx, v, base);
		break;
	}
}

/*
 * Read the keys of map (NULL: given but empty) into base in table order, then report keys the
 * table does not know and run the section's checks. at is the value node, for places.
 */
static void s_section(struct s_ctx *ctx, const struct s_section *sec,
		      const struct lst_yaml_node *at, const struct lst_yaml_node *map, void *base)
{
	const char *names[64];

	for (const struct s_key *k = sec->keys; k->o.name; k++) {
		const struct lst_yaml_node *v = lst_yaml_get(map, k->o.name, NULL);

		if (v)
			s_value(ctx, sec, k, v, base);
		else if (k->required)
			s_error(ctx, at, "missing required key '%s'%s", k->o.name, sec->in);
	}
	s_key_names(sec->keys, names, LST_ARRAY_SIZE(names));
	for (size_t i = 0; map && i + 1 < map->n; i += 2) {
		const struct lst_yaml_node *kn = map->kids[i];
		char hint[512];

		bool known = false;

		if (kn->type != LST_YAML_SCALAR)
			continue;
		for (const struct s_key *k = sec->keys; k->o.name; k++)
			known = known || !strcmp(k->o.name, kn->text);
		if (!known)
			s_error(ctx, kn, "unknown key '%s'%s (%s)", kn->text, sec->in,
				lst_text_hint(kn->text, names, "keys", hint, sizeof(hint)));
	}
	if (sec->has_flag)
		*(bool *)s_at(base, sec->flag) = true;
	if (sec->check)
		sec->check(ctx, map, base);
}

/* ---------------------------------------------------------------------------------------- */
/* Checks across keys */

static void s_agents_check(struct s_ctx *ctx, const struct lst_yaml_node *list)
{
	const lst_plan *p = ctx->plan;

	/* Two entries for one daemon would make the second connection "busy". */
	for (size_t i = 1; i < p->nagents; i++) {
		for (size_t j = 0; j < i; j++) {
			const struct lst_yaml_node *v;

			if (!p->agents[i].address || !p->agents[j].address ||
			    strcmp(p->agents[i].address, p->agents[j].address))
				continue;
			v = lst_yaml_get(list->kids[i], "address", NULL);
			s_error_at(ctx, v->mark.line, v->mark.col,
				   "agent %s: address %s is also agent %s's; one agent per daemon",
				   p->agents[i].name ? p->agents[i].name : "?",
				   p->agents[i].address,
				   p->agents[j].name ? p->agents[j].name : "?");
			break;
		}
	}
}

static void s_targets_check(struct s_ctx *ctx, const struct lst_yaml_node *list)
{
	const lst_plan *p = ctx->plan;
	size_t *per_agent = lst_calloc(p->nagents + 1, sizeof(*per_agent));

	(void)list;
	/* One message carries all of an agent's paths (IDENTIFY, PREPARE). */
	for (size_t i = 0; i < p->ntargets; i++) {
		for (size_t a = 0; a < p->targets[i].npaths; a++) {
			const struct lst_plan_path *pa = &p->targets[i].paths[a];

			if (++per_agent[pa->agent] == LST_MAX_JOBSPECS + 1)
				s_error_at(ctx, pa->mark.line, pa->mark.col,
					   "target %s: agent %s has more than %d paths in the plan",
					   p->targets[i].name ? p->targets[i].name : "?",
					   p->agents[pa->agent].name, LST_MAX_JOBSPECS);
		}
	}
	free(per_agent);
	/* One device path in two targets would be driven twice at once. */
	for (size_t i = 1; i < p->ntargets; i++) {
		const struct lst_plan_target *ti = &p->targets[i];

		for (size_t a = 0; a < ti->npaths; a++) {
			const struct lst_plan_path *pa = &ti->paths[a];
			const char *other = NULL;

			for (size_t j = 0; j < i && !other; j++)
				for (size_t b = 0; b < p->targets[j].npaths && !other; b++)
					if (p->targets[j].paths[b].agent == pa->agent &&
					    !strcmp(p->targets[j].paths[b].path, pa->path))
						other = p->targets[j].name;
			if (other)
				s_error_at(ctx, pa->mark.line, pa->mark.col,
					   "target %s: path %s on agent %s is also a path of "
					   "target %s",
					   ti->name ? ti->name : "?", pa->path,
					   p->agents[pa->agent].name, other ? other : "?");
		}
	}
}

static void s_phase_init(struct s_ctx *ctx, void *base)
{
	struct lst_plan_phase *ph = base;

	ph->w = ctx->plan->defaults;
	ph->on_agent_loss = ctx->plan->on_agent_loss;
}

static void s_steady_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_phase *ph = base;
	const struct lst_yaml_node *v;

	if (ph->window <= ph->max_rounds)
		return;
	v = lst_yaml_get(map, "window", NULL);
	if (!v)
		v = lst_yaml_get(map, "max_rounds", NULL);
	if (!v)
		return;
	s_error(ctx, v,
		"steady: window %" PRId64 " is more than max_rounds %" PRId64
		"; the window is the last rounds of at most max_rounds",
		ph->window, ph->max_rounds);
}

static void s_curve_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_phase *ph = base;
	const struct lst_yaml_node *v;

	if (ph->limit_ns && ph->limit_percentile == 0 && (v = lst_yaml_get(map, "limit", NULL)) &&
	    !v->bad)
		s_error(ctx, v, "curve: limit needs limit_percentile too (like 99.99)");
	if (!ph->limit_ns && ph->limit_percentile != 0 &&
	    (v = lst_yaml_get(map, "limit_percentile", NULL)) && !v->bad)
		s_error(ctx, v, "curve: limit_percentile needs limit too (like 1ms)");
}

/*
 * Where a lst_workload_check message belongs: at the option it names ("bs 1000 is not ..."),
 * when the map gives it, else at the map, else at fallback.
 */
static struct lst_mark s_check_place(const char *msg, const struct lst_yaml_node *wmap,
				     struct lst_mark fallback)
{
	char word[32];
	const struct lst_yaml_node *v;
	size_t n = strcspn(msg, " :");

	snprintf(word, sizeof(word), "%.*s", (int)LST_MIN(n, sizeof(word) - 1), msg);
	v = lst_yaml_get(wmap, word, NULL);
	if (v)
		return v->mark;
	return wmap ? wmap->mark : fallback;
}

/* `runtime: 0` written in a workload map (already reported there). */
static bool s_zero_runtime(const struct lst_yaml_node *wmap)
{
	const struct lst_yaml_node *v = lst_yaml_get(wmap, "runtime", NULL);
	int64_t ns = -1;

	return v && v->type == LST_YAML_SCALAR && !lst_parse_duration(v->text, &ns, NULL) &&
	       ns == 0;
}

static void s_sweep_set(const struct lst_plan_phase *ph, size_t axis, size_t i,
			struct lst_workload *w)
{
	*(int64_t *)s_at(w, ph->axes[axis].opt->offset) = ph->axes[axis].values[i];
}

/* Points whose options clash only in combination ("rate_iops=2" with "jobs=4"). */
static void s_sweep_check(struct s_ctx *ctx, const struct lst_plan_phase *ph,
			  const struct lst_yaml_node *at)
{
	size_t points = lst_plan_phase_points(ph);
	lst_err err;

	if (!ph->naxes || lst_workload_check(&ph->w, 0, &err) || points > S_MAX_POINTS)
		return;
	for (size_t i = 0; i < points; i++) {
		struct lst_workload w;
		char label[256];
		size_t rest = i;
		bool single = false;

		lst_plan_phase_point(ph, i, &w, label, sizeof(label));
		if (!lst_workload_check(&w, 0, &err))
			continue;
		/* a value that fails on its own was reported at the value */
		for (size_t a = ph->naxes; a-- > 0 && !single;) {
			struct lst_workload one = ph->w;
			lst_err e1;

			s_sweep_set(ph, a, rest % ph->axes[a].n, &one);
			rest /= ph->axes[a].n;
			single = lst_workload_check(&one, 0, &e1) != 0;
		}
		if (!single)
			s_error(ctx, at, "sweep point '%s': %s", label, err.msg);
		return;
	}
}

static void s_phase_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	struct lst_plan_phase *ph = base;
	const lst_plan *p = ctx->plan;
	const struct lst_yaml_node *wmap = lst_yaml_get(map, "workload", NULL);
	const struct lst_yaml_node *dmap = lst_yaml_get(ctx->root, "defaults", NULL);
	const struct lst_yaml_node *kn = NULL;
	struct lst_mark at;
	/* a plain phase whose keys were all fine: a missing stop condition is not an echo */
	bool plain = ph->suite == LST_SUITE_NONE && ctx->nerrs + ctx->nbad == ctx->item_start;
	lst_err err, derr;

	if (!lst_yaml_get(map, "targets", NULL)) {
		ph->ntargets = p->ntargets;
		ph->targets = lst_calloc(p->ntargets + 1, sizeof(*ph->targets));
		for (size_t i = 0; i < p->ntargets; i++)
			ph->targets[i] = i;
	}
	if (ph->secure && ph->suite != LST_SUITE_PURGE && lst_yaml_get(map, "secure", &kn))
		s_error(ctx, kn, "secure: true applies only to suite: purge");
	if (plain && ph->steady && !ph->round_duration && lst_yaml_get(map, "steady", &kn) &&
	    !lst_yaml_get(map, "round", NULL))
		s_error(ctx, kn, "steady state repeats rounds: add round: {duration: ...}");
	if (plain && !ph->w.runtime && !ph->w.bytes && !ph->round_duration && !ph->stop_capacity &&
	    !ph->stop_bytes && !ph->stop_runtime && !s_zero_runtime(wmap) &&
	    !s_zero_runtime(dmap) && !lst_yaml_get(map, "round", NULL))
		s_error_at(ctx, ph->mark.line, ph->mark.col,
			   "%sno stop condition: give runtime or bytes in workload, a round "
			   "(round: {duration: 30s}), or stop (capacity, bytes, runtime)",
			   ctx->prefix);
	if (lst_workload_check(&ph->w, 0, &err)) {
		/* the same complaint about `defaults:` alone is reported there, once */
		bool from_defaults = dmap && lst_workload_check(&p->defaults, 0, &derr) &&
				     !strcmp(err.msg, derr.msg);

		if (!from_defaults) {
			const struct lst_yaml_node *wm =
				wmap && wmap->type == LST_YAML_MAP ? wmap : NULL;

			at = s_check_place(err.msg, wm, wmap ? wmap->mark : ph->mark);
			s_error_at(ctx, at.line, at.col, "%s%s", ctx->prefix, err.msg);
		}
	} else if (lst_yaml_get(map, "sweep", &kn)) {
		s_sweep_check(ctx, ph, kn);
	}
}

static void s_plan_check(struct s_ctx *ctx, const struct lst_yaml_node *map, void *base)
{
	const struct lst_yaml_node *dmap = lst_yaml_get(map, "defaults", NULL);
	lst_plan *p = base;
	lst_err err;

	if (dmap && lst_workload_check(&p->defaults, 0, &err)) {
		struct lst_mark at = s_check_place(
			err.msg, dmap->type == LST_YAML_MAP ? dmap : NULL, dmap->mark);

		s_error_at(ctx, at.line, at.col, "defaults: %s", err.msg);
	}
}

/* ---------------------------------------------------------------------------------------- */
/* The plan */

/* The plan's folder as an absolute path, for relative key files; the file need not exist. */
static char *s_dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir, *cwd, *abs;
	const char *d;

	if (!slash)
		dir = lst_strdup(".");
	else if (slash == file)
		dir = lst_strdup("/");
	else
		dir = lst_asprintf("%.*s", (int)(slash - file), file);
	if (dir[0] == '/')
		return dir;
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return dir;
	d = dir;
	while (d[0] == '.' && (d[1] == '/' || d[1] == '\0'))
		d += d[1] ? 2 : 1;
	abs = *d ? lst_asprintf("%s/%s", cwd, d) : lst_strdup(cwd);
	free(cwd);
	free(dir);
	return abs;
}

lst_plan *lst_plan_parse(const char *text, size_t len, const char *name, lst_errlist *errs)
{
	struct s_ctx ctx;
	struct lst_yaml_node *root;
	lst_plan *p = lst_calloc(1, sizeof(*p));

	memset(&ctx, 0, sizeof(ctx));
	ctx.plan = p;
	p->file = lst_strdup(name);
	p->dir = s_dir_of(name);
	p->text = lst_malloc(len + 1);
	memcpy(p->text, text, len);
	p->text[len] = '\0';
	s_defaults(&s_top, p);

	root = lst_yaml_load(text, len, "plan", s_node_err, &ctx);
	ctx.root = root;
	if (root && root->type == LST_YAML_SCALAR && root->null && !root->bad)
		s_error_at(&ctx, 1, 1,
			   "the plan is empty; it needs lockstep: %d, name, agents, "
			   "targets and phases",
			   LST_PLAN_VERSION);
	else if (root && root->type != LST_YAML_MAP && !root->bad)
		s_error(&ctx, root, "a plan must be a map of key: value at the top, not %s",
			lst_yaml_what(root));
	else if (root && root->type == LST_YAML_MAP)
		s_section(&ctx, &s_top, root, root, p);
	lst_yaml_free(root);

	if (ctx.nerrs)
		qsort(ctx.errs, ctx.nerrs, sizeof(*ctx.errs), s_error_cmp);
	for (size_t i = 0; i < ctx.nerrs; i++) {
		if (errs)
			lst_errlist_add(errs, "%s:%d:%d: %s", name, ctx.errs[i].line,
					ctx.errs[i].col, ctx.errs[i].msg);
		free(ctx.errs[i].msg);
	}
	free(ctx.errs);
	if (ctx.nerrs) {
		lst_plan_destroy(&p);
		return NULL;
	}
	return p;
}

lst_plan *lst_plan_load(const char *file, lst_errlist *errs)
{
	char *text = NULL;
	size_t len = 0;
	lst_plan *p;
	int rc = lst_read_file(file, S_MAX_FILE, &text, &len);

	if (rc == -EFBIG) {
		if (errs)
			lst_errlist_add(errs, "%s: the plan is larger than %u MiB", file,
					S_MAX_FILE >> 20);
		return NULL;
	}
	if (rc) {
		if (errs)
			lst_errlist_add(errs, "%s: cannot read the plan: %s", file, strerror(-rc));
		return NULL;
	}
	p = lst_plan_parse(text, len, file, errs);
	free(text);
	return p;
}

void lst_plan_destroy(lst_plan **pp)
{
	lst_plan *p;

	if (!pp || !*pp)
		return;
	p = *pp;
	for (size_t i = 0; i < p->nagents; i++) {
		free(p->agents[i].name);
		free(p->agents[i].address);
		free(p->agents[i].key);
	}
	free(p->agents);
	for (size_t i = 0; i < p->ntargets; i++) {
		struct lst_plan_target *t = &p->targets[i];

		free(t->name);
		free(t->identity);
		for (size_t j = 0; j < t->npaths; j++)
			free(t->paths[j].path);
		free(t->paths);
	}
	free(p->targets);
	for (size_t i = 0; i < p->nphases; i++) {
		struct lst_plan_phase *ph = &p->phases[i];

		free(ph->name);
		free(ph->targets);
		for (size_t a = 0; a < ph->naxes; a++)
			free(ph->axes[a].values);
		free(ph->curve_pcts);
		free(ph->hir_gaps);
	}
	free(p->phases);
	free(p->file);
	free(p->dir);
	free(p->text);
	free(p->name);
	free(p->description);
	free(p);
	*pp = NULL;
}

size_t lst_plan_phase_points(const struct lst_plan_phase *ph)
{
	size_t n = 1;

	for (size_t a = 0; a < ph->naxes; a++)
		n *= ph->axes[a].n;
	return n;
}

void lst_plan_phase_point(const struct lst_plan_phase *ph, size_t i, struct lst_workload *w,
			  char *label, size_t label_size)
{
	size_t rest = i, len = 0;
	size_t idx[LST_SWEEP_MAX_AXES];

	LST_ASSERT(i < lst_plan_phase_points(ph));
	*w = ph->w;
	/* the last axis moves fastest: it is the innermost loop */
	for (size_t a = ph->naxes; a-- > 0;) {
		idx[a] = rest % ph->axes[a].n;
		rest /= ph->axes[a].n;
	}
	if (label && label_size)
		label[0] = '\0';
	for (size_t a = 0; a < ph->naxes; a++) {
		char val[64];

		s_sweep_set(ph, a, idx[a], w);
		if (!label || len >= label_size)
			continue;
		len += (size_t)snprintf(label + len, label_size - len, "%s%s=%s", a ? " " : "",
					ph->axes[a].opt->name,
					lst_opt_format(ph->axes[a].opt, w, val, sizeof(val)));
	}
}

int lst_plan_agent_index(const lst_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nagents; i++)
		if (p->agents[i].name && !strcmp(p->agents[i].name, name))
			return (int)i;
	return -1;
}

int lst_plan_target_index(const lst_plan *p, const char *name)
{
	for (size_t i = 0; i < p->ntargets; i++)
		if (p->targets[i].name && !strcmp(p->targets[i].name, name))
			return (int)i;
	return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* The reference, docs/plan.md */

static const char s_doc_intro[] =
	"# Plan reference\n"
	"\n"
	"<!-- Generated from the schema tables in coordinator/lst_plan.c and the workload table\n"
	"     in common/lst_workload.c by `lockstep validate --write-doc docs/plan.md`. Do not\n"
	"     edit by hand: change the tables and regenerate. The unit test `plan` fails while\n"
	"     this file and the tables disagree. -->\n"
	"\n"
	"A plan is a YAML file that says which agents to drive, which devices (targets) they\n"
	"reach through which paths, and which phases to run. `lockstep validate PLAN.yaml`\n"
	"checks a plan without contacting anything: it prints every problem as\n"
	"`FILE:LINE:COL: message` and exits 2, or describes what would run and exits 0.\n"
	"\n"
	"This file is generated; to regenerate it after changing the tables, run\n"
	"`build/bin/lockstep validate --write-doc docs/plan.md` from the source folder.\n"
	"\n"
	"## A worked example\n"
	"\n"
	"A dual-port SAS SSD reached from two hosts, one per port: purge it, precondition it,\n"
	"measure latency against IOPS over a grid of jobs and queue depths, then run the SNIA\n"
	"IOPS test.\n"
	"\n"
	"```yaml\n"
	"lockstep: 1\n"
	"name: px05-dual-port\n"
	"description: \"PX05SR through both SAS ports, one host per port\"\n"
	"lease: 10s\n"
	"on_agent_loss: retry\n"
	"agents:\n"
	"  - {name: a, address: \"tcp://host-a:7270\", key: keys/a.pub}\n"
	"  - {name: b, address: \"tcp://host-b\", key: keys/b.pub}   # port 7270\n"
	"targets:\n"
	"  - name: ssd0\n"
	"    identity: \"naa.5000039c18a0b7c1\"\n"
	"    share: split\n"
	"    paths:\n"
	"      a: /dev/disk/by-id/wwn-0x5000039c18a0b7c1\n"
	"      b: /dev/disk/by-id/wwn-0x5000039c18a0b7c1\n"
	"defaults: {engine: io_uring, direct: true, interval: 1s}\n"
	"phases:\n"
	"  - name: purge\n"
	"    suite: purge\n"
	"  - name: precondition\n"
	"    workload: {rw: write, bs: 128k, iodepth: 32}\n"
	"    stop: {capacity: 2x}\n"
	"  - name: lat-vs-iops\n"
	"    workload: {rw: randrw, rwmixread: 70, bs: 4k}\n"
	"    sweep: {jobs: [1, 2, 4], iodepth: [1, 2, 4, 8, 16, 32]}\n"
	"    round: {ramp: 5s, duration: 30s}\n"
	"    curve: {limit_percentile: 99.99, limit: 3ms}\n"
	"  - name: iops\n"
	"    suite: snia-iops\n"
	"    steady: {max_rounds: 25, window: 5, track: write_iops}\n"
	"    on_agent_loss: continue\n"
	"```\n"
	"\n"
	"## How a plan runs\n"
	"\n"
	"- **Phases** run one after another, in the order written. Every agent starts a phase\n"
	"  (and each round and sweep point in it) at the same instant, on every path of the\n"
	"  phase's targets, so the combined numbers cover one time window.\n"
	"- A phase's **workload** is built in layers: the workload table's defaults, then the\n"
	"  plan's `defaults:`, then a suite's own settings, then the phase's `workload:`. A\n"
	"  phase with no `suite:` is a plain workload and needs a stop condition: `runtime` or\n"
	"  `bytes` in its workload, a `round:`, or `stop:`; whichever comes first ends it.\n"
	"- A **round** is one repetition inside a phase: `ramp` (warm-up, excluded from\n"
	"  results), then `duration` (measured). Without `steady:` each point runs one round;\n"
	"  with `steady:` rounds repeat until the SNIA steady-state test passes or `max_rounds`\n"
	"  is reached.\n"
	"- A **sweep** varies workload options (`jobs`, `iodepth`, `bs`, `rwmixread`,\n"
	"  `rate_iops`) over lists of values. Each combination is a **point**; the first axis\n"
	"  written is the outermost loop, so `sweep: {jobs: [1, 2], iodepth: [1, 8]}` runs\n"
	"  jobs=1 iodepth=1, jobs=1 iodepth=8, jobs=2 iodepth=1, jobs=2 iodepth=8. Sweep values\n"
	"  replace the workload's. Results have one row per point.\n"
	"- **Shares**: a target reached through several paths (a dual-port drive on two hosts)\n"
	"  gives each path its own slice of the block range by default (`share: split`), so two\n"
	"  hosts never write the same block; `share: shared` lets every path cover the whole\n"
	"  range. `stop: {capacity: 2x}` counts the target's capacity once, split across its\n"
	"  paths.\n"
	"- **Agent loss**: an agent the coordinator does not hear from is *unreachable* at\n"
	"  first: it goes on measuring and keeping its samples, the coordinator reconnects, and\n"
	"  the samples are merged in their place when the link returns, so a network hiccup\n"
	"  shorter than the `lease` loses nothing. Only after the lease (the agent has stopped\n"
	"  its I/O by itself), or when the agent restarted, is it *lost* for the point, and\n"
	"  `on_agent_loss` applies: `retry` (the default) runs the point again for everyone once\n"
	"  the agent is back (within `retry_wait`, at most `retries` times), `continue` finishes\n"
	"  the point without it (partial: combined rates are all I/Os over the point's time),\n"
	"  `abort` ends the run.\n"
	"- **Values**: sizes are binary (`4k` = 4096, `1m`, `2g`, `1t`); durations take `ns`,\n"
	"  `us`, `ms`, `s`, `m`, `h`, `d` (a bare number is seconds). Names of agents, targets,\n"
	"  phases and the plan use letters, digits, `_`, `.` and `-`, at most 63.\n"
	"- YAML anchors and aliases (`&x`, `*x`) and repeated keys are refused: every value is\n"
	"  written where it applies.\n"
	"- Text is plain text: a NUL (`\"p\\0x\"`), an escape sequence or another control\n"
	"  character, a C1 control or a direction override is refused wherever it is written;\n"
	"  names, addresses and paths refuse tabs and newlines too (a `description` may span\n"
	"  lines).\n";

static const char *s_doc_type(const struct s_key *k, char *buf, size_t size)
{
	static const char *const opt_types[] = { "integer", "size",   "duration",
						 "boolean", "choice", "pattern" };

	switch (k->kind) {
	case K_OPT:
		return opt_types[k->o.type];
	case K_BOOL:
		return "boolean";
	case K_DOUBLE:
		return "number";
	case K_CAPACITY:
		return "capacity";
	case K_STRING:
		return "text";
	case K_NAME:
		return "name";
	case K_ADDRESS:
		return "address";
	case K_KEY:
		return "key";
	case K_VERSION:
		return "integer";
	case K_WORKLOAD:
		return "map: [workload](#workload)";
	case K_SECTION:
		snprintf(buf, size, "map: [%s](#%s)", k->sub->name, k->sub->name);
		return buf;
	case K_LIST:
		snprintf(buf, size, "list of [%s](#%s)", k->sub->name, k->sub->name);
		return buf;
	case K_PATHS:
		return "map: agent name to path";
	case K_TARGET_REFS:
		return "list of target names";
	case K_SWEEP:
		return "map: [sweep](#sweep)";
	case K_PCT_LIST:
		return "list of numbers";
	case K_DURATION_LIST:
		return "list of durations";
	}
	return "";
}

/* A duration as a plan would write it, in the largest unit that divides it ("30d", "10m"). */
static const char *s_doc_duration(int64_t ns, char *buf, size_t size)
{
	static const struct {
		int64_t ns;
		const char *unit;
	} units[] = {
		{ 86400 * LST_NS_PER_S, "d" }, { 3600 * LST_NS_PER_S, "h" },
		{ 60 * LST_NS_PER_S, "m" },    { LST_NS_PER_S, "s" },
		{ LST_NS_PER_MS, "ms" },       { LST_NS_PER_US, "us" },
	};

	for (size_t i = 0; ns && i < LST_ARRAY_SIZE(units); i++) {
		if (ns % units[i].ns == 0) {
			snprintf(buf, size, "%" PRId64 "%s", ns / units[i].ns, units[i].unit);
			return buf;
		}
	}
	snprintf(buf, size, "%" PRId64 "%s", ns, ns ? "ns" : "s");
	return buf;
}

/* An option's range as plan text ("1 .. 4096", "10ms .. 3600s") or its choices. */
static const char *s_doc_opt_range(const struct lst_opt *o, char *buf, size_t size)
{
	struct lst_opt tmp = *o;
	char lo[64], hi[64];
	size_t n = 0;

	tmp.offset = 0;
	switch (o->type) {
	case LST_OPT_INT:
	case LST_OPT_SIZE:
		snprintf(buf, size, "%s .. %s", lst_opt_format(&tmp, &o->min, lo, sizeof(lo)),
			 lst_opt_format(&tmp, &o->max, hi, sizeof(hi)));
		break;
	case LST_OPT_DURATION:
		snprintf(buf, size, "%s .. %s", s_doc_duration(o->min, lo, sizeof(lo)),
			 s_doc_duration(o->max, hi, sizeof(hi)));
		break;
	case LST_OPT_ENUM:
		buf[0] = '\0';
		for (size_t i = 0; o->choices[i] && n < size; i++)
			n += (size_t)snprintf(buf + n, size - n, "%s`%s`", i ? ", " : "",
					      o->choices[i]);
		break;
	case LST_OPT_BOOL:
		snprintf(buf, size, "`true`, `false`");
		break;
	case LST_OPT_PATTERN:
		snprintf(buf, size, "`random`, `zeros`, `compressible=N` (N%% = 1 .. 100)");
		break;
	}
	return buf;
}

static const char *s_doc_range(const struct s_key *k, char *buf, size_t size)
{
	char r[256];

	buf[0] = '\0';
	switch (k->kind) {
	case K_OPT:
	case K_BOOL:
		return s_doc_opt_range(&k->o, buf, size);
	case K_DOUBLE:
		snprintf(buf, size, "%s %g, <= %g", k->dmin_open ? ">" : ">=", k->dmin, k->dmax);
		break;
	case K_PCT_LIST:
		snprintf(buf, size, "each %s %g, <= %g, ascending",
			 k->dmin_open ? ">" : ">=", k->dmin, k->dmax);
		break;
	case K_DURATION_LIST:
		snprintf(buf, size, "each %s", s_doc_opt_range(&k->o, r, sizeof(r)));
		break;
	case K_CAPACITY:
		snprintf(buf, size, "> 0, <= 1000 (`2x`, `2.5x`, `2`)");
		break;
	case K_NAME:
		snprintf(buf, size, "letters, digits, `_ . -`; <= %d", S_NAME_MAX);
		break;
	case K_ADDRESS:
		snprintf(buf, size, "`tcp://HOST[:PORT]`, port 1 .. 65535");
		break;
	case K_KEY:
		snprintf(buf, size, "a file, or 40 Z85 characters");
		break;
	case K_VERSION:
		snprintf(buf, size, "%d", LST_PLAN_VERSION);
		break;
	case K_LIST:
		snprintf(buf, size, "at least %" PRId64, k->o.min);
		break;
	case K_PATHS:
		snprintf(buf, size, "agents from `agents:`; absolute paths");
		break;
	case K_TARGET_REFS:
		snprintf(buf, size, "targets from `targets:`");
		break;
	default:
		break;
	}
	return buf;
}

/* One table cell: '|' would end the cell early. */
static void s_doc_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(" |", f);
}

static void s_doc_head(FILE *f, const char *name, const char *help)
{
	fprintf(f, "\n## %s\n\n%s\n\n", name, help);
	fprintf(f, "| key | type | default | allowed | meaning |\n");
	fprintf(f, "|---|---|---|---|---|\n");
}

static void s_doc_row(FILE *f, const char *key, const char *type, const char *def,
		      const char *range, const char *help)
{
	char k[96];

	snprintf(k, sizeof(k), "`%s`", key);
	fputs("|", f);
	s_doc_cell(f, k);
	s_doc_cell(f, type);
	s_doc_cell(f, def);
	s_doc_cell(f, range);
	s_doc_cell(f, help);
	fputs("\n", f);
}

static void s_doc_section(FILE *f, const struct s_section *sec)
{
	s_doc_head(f, sec->name, sec->help);
	for (const struct s_key *k = sec->keys; k->o.name; k++) {
		char type[128], range[512], def[128];

		if (k->required)
			snprintf(def, sizeof(def), "required");
		else if (k->doc_def)
			snprintf(def, sizeof(def), "%s", k->doc_def);
		else if (k->o.def)
			snprintf(def, sizeof(def), "`%s`", k->o.def);
		else
			def[0] = '\0';
		s_doc_row(f, k->o.name, s_doc_type(k, type, sizeof(type)), def,
			  s_doc_range(k, range, sizeof(range)), k->o.help);
	}
}

void lst_plan_write_doc(FILE *f)
{
	static const char *const opt_types[] = { "integer", "size",   "duration",
						 "boolean", "choice", "pattern" };

	fputs(s_doc_intro, f);
	s_doc_section(f, &s_top);
	s_doc_section(f, &s_agent);
	s_doc_section(f, &s_target);
	s_doc_section(f, &s_phase);

	s_doc_head(f, "workload",
		   "The keys of `defaults:` and of a phase's `workload:`: the same options as "
		   "`lockstep-agent bench` flags (`--bs 4k`) and the job specs on the wire. "
		   "A phase's workload starts from `defaults:`; keys it does not give keep "
		   "those values.");
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		char range[512], def[128];

		snprintf(def, sizeof(def), "`%s`", o->def);
		s_doc_row(f, o->name, opt_types[o->type], def,
			  s_doc_opt_range(o, range, sizeof(range)), o->help);
	}

	s_doc_head(f, "sweep",
		   "A phase's `sweep:` maps workload options to lists of values; every "
		   "combination is one point. The first axis written is the outermost loop. "
		   "Each value is checked against the option's own range.");
	for (size_t i = 0; s_sweep_axes[i]; i++) {
		const struct lst_opt *o = lst_opt_find(lst_workload_opts, s_sweep_axes[i]);
		char range[512], type[64];

		LST_ASSERT(o);
		snprintf(type, sizeof(type), "list of %s", opt_types[o->type]);
		s_doc_row(f, o->name, type, "", s_doc_opt_range(o, range, sizeof(range)), o->help);
	}

	s_doc_section(f, &s_round);
	s_doc_section(f, &s_steady);
	s_doc_section(f, &s_stop);
	s_doc_section(f, &s_curve);
	s_doc_section(f, &s_hir);
}
