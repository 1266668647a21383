/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan schema: one table per kind of map (the top level, an agent, a target, a phase, a
 * phase's round, steady, stop, curve, failover and hir maps, its events, before/after hooks and
 * telemetry) lists every key with its type, where it is
 * stored, its default, its range or choices, whether it is required, and one sentence of help.
 * The same tables apply the defaults, read and check the values (lst_plan_read.c), name the
 * keys in "did you mean" hints, and write docs/plan.md (lst_plan_doc.c), so the reference
 * cannot drift from the parser. Workload keys (`defaults:` and a phase's `workload:`) are not
 * repeated here: they are lst_workload_opts, read with lst_opt_parse, exactly as
 * `lockstep-agent bench` reads them.
 */
#include <stddef.h>

#include "lst_plan_int.h"
#include "lst_time.h"

/* As a plan spells them: `suite: none` is a plain workload phase. */
static const char *const s_share_names[] = { "split", "shared", NULL };
static const char *const s_loss_names[] = { "abort", "continue", "retry", NULL };
/* enum lst_hook_on_error, enum lst_telemetry_every order (`off` is telemetry's own value) */
static const char *const s_on_error_names[] = { "stop", "continue", NULL };
static const char *const s_every_names[] = { "phase", "point", NULL };

#define AG(f) offsetof(struct lst_plan_agent, f)
#define TG(f) offsetof(struct lst_plan_target, f)
#define PH(f) offsetof(struct lst_plan_phase, f)
#define PL(f) offsetof(struct lst_plan, f)
#define HK(f) offsetof(struct lst_plan_hook, f)
#define S_END                                                                                      \
	{                                                                                          \
		.o = {.name = NULL }                                                               \
	}
#define S_DAY (86400LL * LST_NS_PER_S)

static const struct lst__plan_key s_agent_keys[] = {
	{ .o = { .name = "name",
		 .offset = AG(name),
		 .help = "the agent's name, used in paths, messages and results" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { .name = "address",
		 .offset = AG(address),
		 .help = "where the agent listens: tcp://HOST:PORT (the port is 7270 when left out; "
			 "IPv6 as tcp://[::1]:7270)" },
	  .kind = K_ADDRESS,
	  .required = true },
	{ .o = { .name = "key",
		 .offset = AG(key),
		 .help = "the agent's CURVE public key: a file, relative to the plan's folder, or the "
			 "40-character Z85 key text; without a key the connection is plain text, which "
			 "only loopback addresses allow (or `lockstep run --insecure`, with a warning)" },
	  .kind = K_KEY,
	  .doc_def = "none" },
	S_END,
};

const struct lst__plan_section lst__plan_agent = {
	.name = "agent",
	.in = "",
	.keys = s_agent_keys,
	.size = sizeof(struct lst_plan_agent),
	.mark_offset = AG(mark),
	.list_check = lst__plan_agents_check,
	.names = offsetof(lst_plan, agent_names),
};

static const struct lst__plan_key s_target_keys[] = {
	{ .o = { .name = "name",
		 .offset = TG(name),
		 .help = "the target's name, used by phases' `targets:` and in results" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { .name = "identity",
		 .offset = TG(identity),
		 .help = "the device identity every path must resolve to (WWN, serial); an agent refuses "
			 "a path that leads to another device" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { .name = "share",
		 .type = LST_OPT_ENUM,
		 .offset = TG(share),
		 .def = "split",
		 .choices = s_share_names,
		 .help = "how the paths divide the target's blocks: split gives each path taking part in "
			 "a point its own slice of the range (paths idle in the point get none), so two "
			 "paths never write the same block; shared lets every path cover all of it" },
	  .kind = K_OPT },
	{ .o = { .name = "paths",
		 .offset = TG(paths),
		 .help = "map of agent name to the absolute path of the device on that agent's host "
			 "(/dev/disk/by-id/...), or to a list of paths (one host reaching the device "
			 "through several ports: [/dev/sdb, /dev/sdc]); at least one" },
	  .kind = K_PATHS,
	  .read = lst__plan_target_paths,
	  .required = true },
	S_END,
};

const struct lst__plan_section lst__plan_target = {
	.name = "target",
	.in = "",
	.keys = s_target_keys,
	.size = sizeof(struct lst_plan_target),
	.mark_offset = TG(mark),
	.list_check = lst__plan_targets_check,
	.names = offsetof(lst_plan, target_names),
};

static const struct lst__plan_key s_round_keys[] = {
	{ .o = { .name = "ramp",
		 .type = LST_OPT_DURATION,
		 .offset = PH(round_ramp),
		 .def = "0",
		 .max = 3600 * LST_NS_PER_S,
		 .help = "warm-up at the start of every round, excluded from its results" },
	  .kind = K_OPT },
	{ .o = { .name = "duration",
		 .type = LST_OPT_DURATION,
		 .offset = PH(round_duration),
		 .min = 10 * LST_NS_PER_MS,
		 .max = S_DAY,
		 .help = "measured time of one round" },
	  .kind = K_OPT,
	  .required = true },
	S_END,
};

const struct lst__plan_section lst__plan_round = {
	.name = "round",
	.in = " in round",
	.keys = s_round_keys,
};

static const struct lst__plan_key s_steady_keys[] = {
	{ .o = { .name = "max_rounds",
		 .type = LST_OPT_INT,
		 .offset = PH(max_rounds),
		 .def = "25",
		 .min = 2,
		 .max = 10000,
		 .help = "rounds to run at most before giving up on steady state" },
	  .kind = K_OPT },
	{ .o = { .name = "window",
		 .type = LST_OPT_INT,
		 .offset = PH(window),
		 .def = "5",
		 .min = 2,
		 .max = 1000,
		 .help = "the measurement window: the last N rounds must meet both excursion limits; "
			 "at most max_rounds" },
	  .kind = K_OPT },
	{ .o = { .name = "track",
		 .type = LST_OPT_ENUM,
		 .offset = PH(track),
		 .def = "iops",
		 .choices = lst_track_names,
		 .help = "the value judged, combined over all agents, per round" },
	  .kind = K_OPT },
	{ .o = { .name = "data_excursion",
		 .offset = PH(data_excursion_pct),
		 .def = "20",
		 .help = "max - min over the window must stay within this percent of the window's "
			 "average" },
	  .kind = K_DOUBLE,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { .name = "slope_excursion",
		 .offset = PH(slope_excursion_pct),
		 .def = "10",
		 .help = "the least-squares line over the window may change by at most this percent of "
			 "the average" },
	  .kind = K_DOUBLE,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	S_END,
};

const struct lst__plan_section lst__plan_steady = {
	.name = "steady",
	.in = " in steady",
	.keys = s_steady_keys,
	.has_flag = true,
	.flag = PH(steady),
	.check = lst__plan_steady_check,
};

static const struct lst__plan_key s_stop_keys[] = {
	{ .o = { .name = "capacity",
		 .offset = PH(stop_capacity),
		 .help = "a multiple of the target's capacity (2x, 2.5x or 2), split across its paths" },
	  .kind = K_CAPACITY,
	  .doc_def = "none" },
	{ .o = { .name = "bytes",
		 .type = LST_OPT_SIZE,
		 .offset = PH(stop_bytes),
		 .min = 1,
		 .max = 1024LL << 40,
		 .help = "bytes over all agents and jobs, per point" },
	  .kind = K_OPT,
	  .doc_def = "none" },
	{ .o = { .name = "runtime",
		 .type = LST_OPT_DURATION,
		 .offset = PH(stop_runtime),
		 .min = 10 * LST_NS_PER_MS,
		 .max = 30 * S_DAY,
		 .help = "measured time of each point (each round), after its ramp" },
	  .kind = K_OPT,
	  .doc_def = "none" },
	S_END,
};

const struct lst__plan_section lst__plan_stop = {
	.name = "stop",
	.in = " in stop",
	.keys = s_stop_keys,
};

static const struct lst__plan_key s_curve_keys[] = {
	{ .o = { .name = "percents",
		 .offset = PH(curve_pcts),
		 .def = "10, 50, 70, 80, 90, 100",
		 .help = "load points as percent of the maximum IOPS found first, ascending" },
	  .kind = K_PCT_LIST,
	  .aux = PH(ncurve),
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { .name = "limit_percentile",
		 .offset = PH(limit_percentile),
		 .help = "with limit: the latency percentile that must stay under limit (99.99)" },
	  .kind = K_DOUBLE,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true,
	  .doc_def = "none" },
	{ .o = { .name = "limit",
		 .type = LST_OPT_DURATION,
		 .offset = PH(limit_ns),
		 .min = LST_NS_PER_US,
		 .max = 3600 * LST_NS_PER_S,
		 .help = "with limit_percentile: the latency limit; the curve stops at the first point "
			 "over it" },
	  .kind = K_OPT,
	  .doc_def = "none" },
	S_END,
};

const struct lst__plan_section lst__plan_curve = {
	.name = "curve",
	.in = " in curve",
	.keys = s_curve_keys,
	.check = lst__plan_curve_check,
};

static const struct lst__plan_key s_failover_keys[] = {
	{ .o = { .name = "below",
		 .offset = PH(failover_below_pct),
		 .def = "50",
		 .help = "percent (50 or 50%) of a path's own median IOPS before them under which its "
			 "intervals make a window: a failover window with evidence of a path fault, "
			 "else a throughput dip" },
	  .kind = K_DOUBLE,
	  .pct = true,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { .name = "dips",
		 .type = LST_OPT_BOOL,
		 .offset = PH(failover_dips),
		 .def = "true",
		 .max = 1,
		 .help = "report a window without evidence of a path fault (no I/O error, timeout, stalled "
			 "I/O or event of the plan in or next to it) as a throughput dip; false: not at "
			 "all" },
	  .kind = K_BOOL },
	S_END,
};

const struct lst__plan_section lst__plan_failover = {
	.name = "failover",
	.in = " in failover",
	.keys = s_failover_keys,
};

static const struct lst__plan_key s_hir_keys[] = {
	{ .o = { .name = "burst",
		 .type = LST_OPT_DURATION,
		 .offset = PH(hir_burst),
		 .def = "5s",
		 .min = 100 * LST_NS_PER_MS,
		 .max = 3600 * LST_NS_PER_S,
		 .help = "length of each write burst" },
	  .kind = K_OPT },
	{ .o = { .name = "gaps",
		 .type = LST_OPT_DURATION,
		 .offset = PH(hir_gaps),
		 .def = "5s, 10s, 15s, 25s, 50s",
		 .min = 100 * LST_NS_PER_MS,
		 .max = 3600 * LST_NS_PER_S,
		 .help = "idle gaps between bursts, one block of repeats each" },
	  .kind = K_DURATION_LIST,
	  .aux = PH(nhir_gaps) },
	{ .o = { .name = "repeats",
		 .type = LST_OPT_INT,
		 .offset = PH(hir_repeats),
		 .def = "360",
		 .min = 1,
		 .max = 10000,
		 .help = "bursts per gap size" },
	  .kind = K_OPT },
	{ .o = { .name = "continuous",
		 .type = LST_OPT_DURATION,
		 .offset = PH(hir_continuous),
		 .def = "1800s",
		 .max = S_DAY,
		 .help = "continuous writing between gap sizes" },
	  .kind = K_OPT },
	S_END,
};

const struct lst__plan_section lst__plan_hir = {
	.name = "hir",
	.in = " in hir",
	.keys = s_hir_keys,
};

static const struct lst__plan_key s_xsr_keys[] = {
	{ .o = { .name = "segments",
		 .type = LST_OPT_DURATION,
		 .offset = PH(xsr_segments),
		 .def = "8h, 6h, 6h",
		 .min = 100 * LST_NS_PER_MS,
		 .max = S_DAY,
		 .help = "lengths of the three segments: sequential 1024 KiB writes, random 8 KiB "
			 "writes, sequential 1024 KiB writes again; exactly three" },
	  .kind = K_DURATION_LIST,
	  .aux = PH(nxsr_segments) },
	S_END,
};

const struct lst__plan_section lst__plan_xsr = {
	.name = "xsr",
	.in = " in xsr",
	.keys = s_xsr_keys,
	.check = lst__plan_xsr_check,
};

static const struct lst__plan_key s_dirth_keys[] = {
	{ .o = { .name = "histogram",
		 .type = LST_OPT_DURATION,
		 .offset = PH(dirth_histogram),
		 .def = "10m",
		 .min = 100 * LST_NS_PER_MS,
		 .max = S_DAY,
		 .help = "length of the response-time histogram run at each selected point" },
	  .kind = K_OPT },
	S_END,
};

const struct lst__plan_section lst__plan_dirth = {
	.name = "dirth",
	.in = " in dirth",
	.keys = s_dirth_keys,
};

static const struct lst__plan_key s_slo_keys[] = {
	{ .o = { .name = "percentile",
		 .offset = PH(slo_percentile),
		 .def = "99.9",
		 .help = "the latency percentile of all hosts' I/Os together that must stay under "
			 "limit" },
	  .kind = K_DOUBLE,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { .name = "limit",
		 .type = LST_OPT_DURATION,
		 .offset = PH(slo_limit_ns),
		 .min = LST_NS_PER_US,
		 .max = 3600 * LST_NS_PER_S,
		 .help = "the latency limit a probe meets when its percentile is at most this" },
	  .kind = K_OPT,
	  .required = true },
	{ .o = { .name = "over",
		 .type = LST_OPT_ENUM,
		 .offset = PH(slo_over),
		 .def = "rate",
		 .choices = lst_slo_over_names,
		 .help = "what the search varies: rate, the target's total IOPS (open loop, split "
			 "over its paths), or iodepth, each job's queue depth" },
	  .kind = K_OPT },
	{ .o = { .name = "low",
		 .type = LST_OPT_INT,
		 .offset = PH(slo_low),
		 .min = 1,
		 .max = 100000000,
		 .help = "the first probe's load (total IOPS or queue depth); halved while it breaks "
			 "the limit" },
	  .kind = K_OPT,
	  .required = true },
	{ .o = { .name = "high",
		 .type = LST_OPT_INT,
		 .offset = PH(slo_high),
		 .min = 2,
		 .max = 100000000,
		 .help = "the second probe's load, above low; doubled while it meets the limit" },
	  .kind = K_OPT,
	  .required = true },
	{ .o = { .name = "within",
		 .offset = PH(slo_within_pct),
		 .def = "5",
		 .help = "stop once the bracket between the highest load that met the limit and the "
			 "lowest that broke it is this percent (5 or 5%) of its top, or less" },
	  .kind = K_DOUBLE,
	  .pct = true,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { .name = "max_probes",
		 .type = LST_OPT_INT,
		 .offset = PH(slo_max_probes),
		 .def = "8",
		 .min = 2,
		 .max = 64,
		 .help = "probes to run at most; the answer is the highest that met the limit" },
	  .kind = K_OPT },
	S_END,
};

const struct lst__plan_section lst__plan_slo = {
	.name = "slo",
	.in = " in slo",
	.keys = s_slo_keys,
	.has_flag = true,
	.flag = PH(slo),
	.check = lst__plan_slo_check,
};

/* `replay: {trace: NAME, scale: 200%}` (lst_plan_trace.c makes them options). */
static const struct lst__plan_key s_replay_keys[] = {
	{ .o = { .name = "trace",
		 .offset = PH(replay_trace),
		 .help = "the trace's file name in each agent's trace folder: a lockstep trace "
			 "(NAME.AGENT.K.lstrace) or blkparse text; the workload option read_iolog" },
	  .kind = K_STRING,
	  .required = true },
	{ .o = { .name = "scale",
		 .offset = PH(replay_scale),
		 .def = "100",
		 .help = "replay at this percent of the recorded rate (200% is twice as fast), a whole "
			 "percentage; the workload option replay_time_scale" },
	  .kind = K_DOUBLE,
	  .dmin = 1,
	  .dmax = 100000,
	  .pct = true },
	S_END,
};

const struct lst__plan_section lst__plan_replay = {
	.name = "replay",
	.in = " in replay",
	.keys = s_replay_keys,
	.has_flag = true,
	.flag = PH(replay),
};

/* The keys an event, a before and an after hook share: who runs what, and what a failure does.
 * One help text each, so the two tables say the same. */
#define S_AGENT_HELP                                                                               \
	"the agent that runs the hook; it must take part in the phase (drive a path of its "       \
	"targets in some point)"
#define S_HOOK_HELP                                                                                \
	"the name of a hook in that agent's config (`hooks:`); a plan names a hook, it cannot "    \
	"give it arguments (see docs/security.md)"
#define S_ON_ERROR_HELP                                                                            \
	"what a hook that fails (exits non-zero, is killed, cannot start) does: stop ends the "    \
	"run; continue records it and goes on"

static const struct lst__plan_key s_event_keys[] = {
	{ .o = { .name = "at",
		 .type = LST_OPT_DURATION,
		 .offset = HK(at),
		 .max = 30 * S_DAY,
		 .help = "the instant in each point of the phase, from the point's start (its ramp "
			 "included), on the agent's clock like the start itself; before the point's end" },
	  .kind = K_INSTANT,
	  .read = lst__plan_instant,
	  .required = true },
	{ .o = { .name = "agent", .offset = HK(agent), .help = S_AGENT_HELP },
	  .kind = K_AGENT,
	  .read = lst__plan_agent_ref,
	  .required = true },
	{ .o = { .name = "hook", .offset = HK(hook), .help = S_HOOK_HELP },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { .name = "on_error",
		 .type = LST_OPT_ENUM,
		 .offset = HK(on_error),
		 .def = "stop",
		 .choices = s_on_error_names,
		 .help = S_ON_ERROR_HELP },
	  .kind = K_OPT },
	S_END,
};

/* before: and after: (an `at` in them gets its own message: lst__plan_hook_unknown) */
static const struct lst__plan_key s_hook_keys[] = {
	{ .o = { .name = "agent", .offset = HK(agent), .help = S_AGENT_HELP },
	  .kind = K_AGENT,
	  .read = lst__plan_agent_ref,
	  .required = true },
	{ .o = { .name = "hook", .offset = HK(hook), .help = S_HOOK_HELP },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { .name = "on_error",
		 .type = LST_OPT_ENUM,
		 .offset = HK(on_error),
		 .def = "stop",
		 .choices = s_on_error_names,
		 .help = S_ON_ERROR_HELP },
	  .kind = K_OPT },
	S_END,
};

const struct lst__plan_section lst__plan_event = {
	.name = "event",
	.in = "",
	.keys = s_event_keys,
	.size = sizeof(struct lst_plan_hook),
	.mark_offset = HK(mark),
	.init = lst__plan_hook_init,
	.check = lst__plan_hook_check,
};

const struct lst__plan_section lst__plan_before = {
	.name = "before",
	.in = "",
	.keys = s_hook_keys,
	.size = sizeof(struct lst_plan_hook),
	.mark_offset = HK(mark),
	.init = lst__plan_hook_init,
	.check = lst__plan_hook_check,
	.unknown = lst__plan_hook_unknown,
};

const struct lst__plan_section lst__plan_after = {
	.name = "after",
	.in = "",
	.keys = s_hook_keys,
	.size = sizeof(struct lst_plan_hook),
	.mark_offset = HK(mark),
	.init = lst__plan_hook_init,
	.check = lst__plan_hook_check,
	.unknown = lst__plan_hook_unknown,
};

static const struct lst__plan_key s_telemetry_keys[] = {
	{ .o = { .name = "collect",
		 .offset = PH(collect),
		 .help = "names of collectors in the agents' configs (`collectors:`) to run; each "
			 "collector's JSON lands in the results, and the report shows what changed" },
	  .kind = K_COLLECT,
	  .read = lst__plan_collect,
	  .aux = PH(ncollect),
	  .doc_def = "every collector of each agent's config" },
	{ .o = { .name = "every",
		 .type = LST_OPT_ENUM,
		 .offset = PH(telemetry_every),
		 .def = "phase",
		 .choices = s_every_names,
		 .help = "when the collectors run and the kernel log is cut: phase (before the phase's "
			 "first point, after its last) or point (before and after each point: each "
			 "round, each sweep point)" },
	  .kind = K_OPT },
	S_END,
};

const struct lst__plan_section lst__plan_telemetry = {
	.name = "telemetry",
	.in = " in telemetry",
	.keys = s_telemetry_keys,
};

static const struct lst__plan_key s_phase_keys[] = {
	{ .o = { .name = "name",
		 .offset = PH(name),
		 .help = "the phase's name, unique in the plan" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { .name = "suite",
		 .type = LST_OPT_ENUM,
		 .offset = PH(suite),
		 .def = "none",
		 .choices = lst_suite_names,
		 .help = "a built-in test (purge, SNIA PTS tests, curves) instead of a plain workload; "
			 "the keys below adjust it" },
	  .kind = K_OPT },
	{ .o = { .name = "targets",
		 .offset = PH(targets),
		 .help = "names of the targets this phase drives, all through all their paths" },
	  .kind = K_TARGET_REFS,
	  .doc_def = "all targets" },
	{ .o = { .name = "workload",
		 .offset = PH(w),
		 .help = "workload options (see the workload table) on top of `defaults:`" },
	  .kind = K_WORKLOAD,
	  .aux = PH(w_set),
	  .doc_def = "`defaults:`" },
	{ .o = { .name = "paths",
		 .offset = PH(roles),
		 .help = "roles of paths in this phase: a map of an agent (all its paths) or "
			 "`AGENT:PATH` (one path) to `idle` or to workload keys of its own (see Paths, "
			 "ports and roles)" },
	  .kind = K_ROLES,
	  .read = lst__plan_roles,
	  .doc_def = "every path works" },
	{ .o = { .name = "sweep",
		 .help = "workload options (or `ports`) to vary: a map of axis to list of values (see "
			 "sweep)" },
	  .kind = K_SWEEP,
	  .doc_def = "none" },
	{ .o = { .name = "round", .help = "rounds (see round)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_round,
	  .doc_def = "none" },
	{ .o = { .name = "steady", .help = "steady state (see steady)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_steady,
	  .doc_def = "off" },
	{ .o = { .name = "stop", .help = "stop conditions (see stop)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_stop,
	  .doc_def = "none" },
	{ .o = { .name = "curve", .help = "load curve (see curve)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_curve,
	  .doc_def = "see curve" },
	{ .o = { .name = "failover",
		 .help = "how a path's failover windows and throughput dips are found (see "
			 "failover)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_failover,
	  .doc_def = "see failover" },
	{ .o = { .name = "hir", .help = "host idle recovery (see hir)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_hir,
	  .doc_def = "see hir" },
	{ .o = { .name = "xsr", .help = "cross-stimulus recovery's segments (see xsr)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_xsr,
	  .doc_def = "see xsr" },
	{ .o = { .name = "dirth", .help = "demand intensity histograms (see dirth)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_dirth,
	  .doc_def = "see dirth" },
	{ .o = { .name = "slo",
		 .help = "the SLO search's limit and load range, with `suite: slo` (see slo)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_slo,
	  .doc_def = "none" },
	{ .o = { .name = "secure",
		 .type = LST_OPT_BOOL,
		 .offset = PH(secure),
		 .def = "false",
		 .max = 1,
		 .help = "`suite: purge`: secure discard (BLKSECDISCARD) instead of discard; true is an "
			 "error with any other suite" },
	  .kind = K_BOOL },
	{ .o = { .name = "on_agent_loss",
		 .type = LST_OPT_ENUM,
		 .offset = PH(on_agent_loss),
		 .choices = s_loss_names,
		 .help = "what losing an agent does to this phase" },
	  .kind = K_OPT,
	  .doc_def = "the plan's" },
	{ .o = { .name = "repeat",
		 .type = LST_OPT_INT,
		 .offset = PH(repeat),
		 .min = 1,
		 .max = 100,
		 .help = "run each point of the phase this many times in a row, each a full point with "
			 "rows of its own; the report gives each figure's mean and 95% interval over "
			 "them, and a comparison tells a change from noise with them (plain phases "
			 "without rounds only: a suite's rounds are its own repeats)" },
	  .kind = K_OPT,
	  .doc_def = "the plan's" },
	{ .o = { .name = "record",
		 .offset = PH(record),
		 .help = "record every I/O into a trace in each agent's trace folder: `true` (the trace is "
			 "named after the phase) or a trace name; the workload option write_iolog (see "
			 "Recording and replaying traces)" },
	  .kind = K_STRING,
	  .doc_def = "false" },
	{ .o = { .name = "replay",
		 .help = "replay a trace instead of generating I/Os (see replay, and Recording and "
			 "replaying traces)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_replay,
	  .doc_def = "none" },
	/* after the keys that decide the phase's agents and point length: checked against them */
	{ .o = { .name = "events",
		 .offset = PH(events),
		 .help = "hooks of the agents' configs run at an instant of every point (see event)" },
	  .kind = K_HOOKS,
	  .read = lst__plan_hooks,
	  .aux = PH(nevents),
	  .sub = &lst__plan_event,
	  .doc_def = "none" },
	{ .o = { .name = "before",
		 .offset = PH(before),
		 .help = "hooks run before the phase's first point, in the order written (see before "
			 "and after)" },
	  .kind = K_HOOKS,
	  .read = lst__plan_hooks,
	  .aux = PH(nbefore),
	  .sub = &lst__plan_before,
	  .doc_def = "none" },
	{ .o = { .name = "after",
		 .offset = PH(after),
		 .help = "hooks run after the phase's last point, in the order written (see before and "
			 "after)" },
	  .kind = K_HOOKS,
	  .read = lst__plan_hooks,
	  .aux = PH(nafter),
	  .sub = &lst__plan_after,
	  .doc_def = "none" },
	{ .o = { .name = "telemetry",
		 .help = "`off`, or which collectors run and when (see telemetry)" },
	  .kind = K_TELEMETRY,
	  .read = lst__plan_telemetry_value,
	  .sub = &lst__plan_telemetry,
	  .doc_def = "every collector, per phase" },
	S_END,
};

const struct lst__plan_section lst__plan_phase = {
	.name = "phase",
	.in = "",
	.keys = s_phase_keys,
	.size = sizeof(struct lst_plan_phase),
	.mark_offset = PH(mark),
	.init = lst__plan_phase_init,
	.check = lst__plan_phase_check,
};

/* `report: {sponsor, nand, form_factor, interface}`: the report header's fields no agent can
 * read from the device, printed by `lockstep report --pts` marked as given by the plan. */
static const struct lst__plan_key s_report_keys[] = {
	{ .o = { .name = "sponsor",
		 .offset = PL(report.sponsor),
		 .help = "the test sponsor: who ran or paid for the test" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { .name = "nand",
		 .offset = PL(report.nand),
		 .help = "the device's NAND (flash) type, e.g. `TLC 3D NAND`" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { .name = "form_factor",
		 .offset = PL(report.form_factor),
		 .help = "the device's form factor, e.g. `2.5\" 15 mm`" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { .name = "interface",
		 .offset = PL(report.interface),
		 .help = "the device's interface as sold, e.g. `SAS 12Gb/s dual port`" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	S_END,
};

const struct lst__plan_section lst__plan_report = {
	.name = "report",
	.in = " in report",
	.keys = s_report_keys,
};

static const struct lst__plan_key s_top_keys[] = {
	{ .o = { .name = "lockstep",
		 .offset = PL(version),
		 .help = "plan format version; this lockstep reads 1" },
	  .kind = K_VERSION,
	  .required = true },
	{ .o = { .name = "name",
		 .offset = PL(name),
		 .help = "the plan's name, used for results folders" },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { .name = "description",
		 .offset = PL(description),
		 .help = "free text, kept with the results" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { .name = "lease",
		 .type = LST_OPT_DURATION,
		 .offset = PL(lease),
		 .def = "10s",
		 .min = LST_NS_PER_S,
		 .max = 600 * LST_NS_PER_S,
		 .help = "an agent stops its I/O after this long without hearing from the "
			 "coordinator" },
	  .kind = K_OPT },
	{ .o = { .name = "on_agent_loss",
		 .type = LST_OPT_ENUM,
		 .offset = PL(on_agent_loss),
		 .def = "retry",
		 .choices = s_loss_names,
		 .help = "what losing an agent (silent longer than the lease, or restarted) does: abort "
			 "the run; continue the point with the others and mark it partial; or retry: "
			 "stop the point, wait up to retry_wait for the agent to come back, and run the "
			 "point again for everyone" },
	  .kind = K_OPT },
	{ .o = { .name = "retry_wait",
		 .type = LST_OPT_DURATION,
		 .offset = PL(retry_wait),
		 .def = "60s",
		 .min = LST_NS_PER_S,
		 .max = 24 * 3600 * LST_NS_PER_S,
		 .help = "`on_agent_loss: retry`: how long to wait for lost agents to come back before "
			 "the run fails" },
	  .kind = K_OPT },
	{ .o = { .name = "retries",
		 .type = LST_OPT_INT,
		 .offset = PL(retries),
		 .def = "3",
		 .max = 100,
		 .help = "`on_agent_loss: retry`: how many times one point may run again" },
	  .kind = K_OPT },
	{ .o = { .name = "repeat",
		 .type = LST_OPT_INT,
		 .offset = PL(repeat),
		 .def = "1",
		 .min = 1,
		 .max = 100,
		 .help = "how many times each point of a plain phase runs (see the phase's repeat); "
			 "suite phases and phases with rounds run once" },
	  .kind = K_OPT },
	{ .o = { .name = "journal",
		 .offset = PL(journal),
		 .help = "an earlier run's results folder: the plan's verifying reads check against its "
			 "write journal (integrity/journal.jsonl) instead of this run's writes; relative "
			 "to the plan's folder (`lockstep verify DIR` writes such a plan)" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { .name = "report",
		 .help = "what the SNIA PTS report's header needs that no agent can read from the "
			 "device (see report)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_report,
	  .doc_def = "none" },
	{ .o = { .name = "agents",
		 .offset = PL(agents),
		 .min = 1,
		 .help = "the agents (see agent), at least one" },
	  .kind = K_LIST,
	  .aux = PL(nagents),
	  .sub = &lst__plan_agent,
	  .required = true },
	{ .o = { .name = "targets",
		 .offset = PL(targets),
		 .min = 1,
		 .help = "the devices under test (see target), at least one" },
	  .kind = K_LIST,
	  .aux = PL(ntargets),
	  .sub = &lst__plan_target,
	  .required = true },
	{ .o = { .name = "defaults",
		 .offset = PL(defaults),
		 .help = "workload options every phase starts from (see workload)" },
	  .kind = K_WORKLOAD,
	  .doc_def = "the workload table's" },
	{ .o = { .name = "phases",
		 .offset = PL(phases),
		 .min = 1,
		 .help = "the steps of the plan, in order (see phase), at least one" },
	  .kind = K_LIST,
	  .aux = PL(nphases),
	  .sub = &lst__plan_phase,
	  .required = true },
	S_END,
};

const struct lst__plan_section lst__plan_top = {
	.name = "plan",
	.in = " in the plan",
	.keys = s_top_keys,
	.check = lst__plan_top_check,
};
