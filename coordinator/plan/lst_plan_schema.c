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
		 "how the paths divide the target's blocks: split gives each path taking part in "
		 "a point its own slice of the range (paths idle in the point get none), so two "
		 "paths never write the same block; shared lets every path cover all of it" },
	  .kind = K_OPT },
	{ .o = { "paths", 0, TG(paths), NULL, 0, 0, NULL,
		 "map of agent name to the absolute path of the device on that agent's host "
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
	{ .o = { "ramp", LST_OPT_DURATION, PH(round_ramp), "0", 0, 3600 * LST_NS_PER_S, NULL,
		 "warm-up at the start of every round, excluded from its results" },
	  .kind = K_OPT },
	{ .o = { "duration", LST_OPT_DURATION, PH(round_duration), NULL, 10 * LST_NS_PER_MS, S_DAY,
		 NULL, "measured time of one round" },
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

const struct lst__plan_section lst__plan_steady = {
	.name = "steady",
	.in = " in steady",
	.keys = s_steady_keys,
	.has_flag = true,
	.flag = PH(steady),
	.check = lst__plan_steady_check,
};

static const struct lst__plan_key s_stop_keys[] = {
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

const struct lst__plan_section lst__plan_stop = {
	.name = "stop",
	.in = " in stop",
	.keys = s_stop_keys,
};

static const struct lst__plan_key s_curve_keys[] = {
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

const struct lst__plan_section lst__plan_curve = {
	.name = "curve",
	.in = " in curve",
	.keys = s_curve_keys,
	.check = lst__plan_curve_check,
};

static const struct lst__plan_key s_failover_keys[] = {
	{ .o = { "below", 0, PH(failover_below_pct), "50", 0, 0, NULL,
		 "percent (50 or 50%) of a path's own median IOPS before them under which its "
		 "intervals make a window: a failover window with evidence of a path fault, "
		 "else a throughput dip" },
	  .kind = K_DOUBLE,
	  .pct = true,
	  .dmin = 0,
	  .dmax = 100,
	  .dmin_open = true },
	{ .o = { "dips", LST_OPT_BOOL, PH(failover_dips), "true", 0, 1, NULL,
		 "report a window without evidence of a path fault (no I/O error, timeout, stalled "
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

const struct lst__plan_section lst__plan_hir = {
	.name = "hir",
	.in = " in hir",
	.keys = s_hir_keys,
};

/* `replay: {trace: NAME, scale: 200%}` (lst_plan_trace.c makes them options). */
static const struct lst__plan_key s_replay_keys[] = {
	{ .o = { "trace", 0, PH(replay_trace), NULL, 0, 0, NULL,
		 "the trace's file name in each agent's trace folder: a lockstep trace "
		 "(NAME.AGENT.K.lstrace) or blkparse text; the workload option read_iolog" },
	  .kind = K_STRING,
	  .required = true },
	{ .o = { "scale", 0, PH(replay_scale), "100", 0, 0, NULL,
		 "replay at this percent of the recorded rate (200% is twice as fast), a whole "
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
	{ .o = { "at", LST_OPT_DURATION, HK(at), NULL, 0, 30 * S_DAY, NULL,
		 "the instant in each point of the phase, from the point's start (its ramp "
		 "included), on the agent's clock like the start itself; before the point's end" },
	  .kind = K_INSTANT,
	  .read = lst__plan_instant,
	  .required = true },
	{ .o = { "agent", 0, HK(agent), NULL, 0, 0, NULL, S_AGENT_HELP },
	  .kind = K_AGENT,
	  .read = lst__plan_agent_ref,
	  .required = true },
	{ .o = { "hook", 0, HK(hook), NULL, 0, 0, NULL, S_HOOK_HELP },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { "on_error", LST_OPT_ENUM, HK(on_error), "stop", 0, 0, s_on_error_names,
		 S_ON_ERROR_HELP },
	  .kind = K_OPT },
	S_END,
};

/* before: and after: (an `at` in them gets its own message: lst__plan_hook_unknown) */
static const struct lst__plan_key s_hook_keys[] = {
	{ .o = { "agent", 0, HK(agent), NULL, 0, 0, NULL, S_AGENT_HELP },
	  .kind = K_AGENT,
	  .read = lst__plan_agent_ref,
	  .required = true },
	{ .o = { "hook", 0, HK(hook), NULL, 0, 0, NULL, S_HOOK_HELP },
	  .kind = K_NAME,
	  .required = true },
	{ .o = { "on_error", LST_OPT_ENUM, HK(on_error), "stop", 0, 0, s_on_error_names,
		 S_ON_ERROR_HELP },
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
	{ .o = { "collect", 0, PH(collect), NULL, 0, 0, NULL,
		 "names of collectors in the agents' configs (`collectors:`) to run; each "
		 "collector's JSON lands in the results, and the report shows what changed" },
	  .kind = K_COLLECT,
	  .read = lst__plan_collect,
	  .aux = PH(ncollect),
	  .doc_def = "every collector of each agent's config" },
	{ .o = { "every", LST_OPT_ENUM, PH(telemetry_every), "phase", 0, 0, s_every_names,
		 "when the collectors run and the kernel log is cut: phase (before the phase's "
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
	{ .o = { "paths", 0, PH(roles), NULL, 0, 0, NULL,
		 "roles of paths in this phase: a map of an agent (all its paths) or "
		 "`AGENT:PATH` (one path) to `idle` or to workload keys of its own (see Paths, "
		 "ports and roles)" },
	  .kind = K_ROLES,
	  .read = lst__plan_roles,
	  .doc_def = "every path works" },
	{ .o = { "sweep", 0, 0, NULL, 0, 0, NULL,
		 "workload options (or `ports`) to vary: a map of axis to list of values (see "
		 "sweep)" },
	  .kind = K_SWEEP,
	  .doc_def = "none" },
	{ .o = { "round", 0, 0, NULL, 0, 0, NULL, "rounds (see round)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_round,
	  .doc_def = "none" },
	{ .o = { "steady", 0, 0, NULL, 0, 0, NULL, "steady state (see steady)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_steady,
	  .doc_def = "off" },
	{ .o = { "stop", 0, 0, NULL, 0, 0, NULL, "stop conditions (see stop)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_stop,
	  .doc_def = "none" },
	{ .o = { "curve", 0, 0, NULL, 0, 0, NULL, "load curve (see curve)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_curve,
	  .doc_def = "see curve" },
	{ .o = { "failover", 0, 0, NULL, 0, 0, NULL,
		 "how a path's failover windows and throughput dips are found (see "
		 "failover)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_failover,
	  .doc_def = "see failover" },
	{ .o = { "hir", 0, 0, NULL, 0, 0, NULL, "host idle recovery (see hir)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_hir,
	  .doc_def = "see hir" },
	{ .o = { "secure", LST_OPT_BOOL, PH(secure), "false", 0, 1, NULL,
		 "`suite: purge`: secure discard (BLKSECDISCARD) instead of discard; true is an "
		 "error with any other suite" },
	  .kind = K_BOOL },
	{ .o = { "on_agent_loss", LST_OPT_ENUM, PH(on_agent_loss), NULL, 0, 0, s_loss_names,
		 "what losing an agent does to this phase" },
	  .kind = K_OPT,
	  .doc_def = "the plan's" },
	{ .o = { "repeat", LST_OPT_INT, PH(repeat), NULL, 1, 100, NULL,
		 "run each point of the phase this many times in a row, each a full point with "
		 "rows of its own; the report gives each figure's mean and 95% interval over "
		 "them, and a comparison tells a change from noise with them (plain phases "
		 "without rounds only: a suite's rounds are its own repeats)" },
	  .kind = K_OPT,
	  .doc_def = "the plan's" },
	{ .o = { "record", 0, PH(record), NULL, 0, 0, NULL,
		 "record every I/O into a trace in each agent's trace folder: `true` (the trace is "
		 "named after the phase) or a trace name; the workload option write_iolog (see "
		 "Recording and replaying traces)" },
	  .kind = K_STRING,
	  .doc_def = "false" },
	{ .o = { "replay", 0, 0, NULL, 0, 0, NULL,
		 "replay a trace instead of generating I/Os (see replay, and Recording and "
		 "replaying traces)" },
	  .kind = K_SECTION,
	  .sub = &lst__plan_replay,
	  .doc_def = "none" },
	/* after the keys that decide the phase's agents and point length: checked against them */
	{ .o = { "events", 0, PH(events), NULL, 0, 0, NULL,
		 "hooks of the agents' configs run at an instant of every point (see event)" },
	  .kind = K_HOOKS,
	  .read = lst__plan_hooks,
	  .aux = PH(nevents),
	  .sub = &lst__plan_event,
	  .doc_def = "none" },
	{ .o = { "before", 0, PH(before), NULL, 0, 0, NULL,
		 "hooks run before the phase's first point, in the order written (see before "
		 "and after)" },
	  .kind = K_HOOKS,
	  .read = lst__plan_hooks,
	  .aux = PH(nbefore),
	  .sub = &lst__plan_before,
	  .doc_def = "none" },
	{ .o = { "after", 0, PH(after), NULL, 0, 0, NULL,
		 "hooks run after the phase's last point, in the order written (see before and "
		 "after)" },
	  .kind = K_HOOKS,
	  .read = lst__plan_hooks,
	  .aux = PH(nafter),
	  .sub = &lst__plan_after,
	  .doc_def = "none" },
	{ .o = { "telemetry", 0, 0, NULL, 0, 0, NULL,
		 "`off`, or which collectors run and when (see telemetry)" },
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

static const struct lst__plan_key s_top_keys[] = {
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
	{ .o = { "repeat", LST_OPT_INT, PL(repeat), "1", 1, 100, NULL,
		 "how many times each point of a plain phase runs (see the phase's repeat); "
		 "suite phases and phases with rounds run once" },
	  .kind = K_OPT },
	{ .o = { "journal", 0, PL(journal), NULL, 0, 0, NULL,
		 "an earlier run's results folder: the plan's verifying reads check against its "
		 "write journal (integrity/journal.jsonl) instead of this run's writes; relative "
		 "to the plan's folder (`lockstep verify DIR` writes such a plan)" },
	  .kind = K_STRING,
	  .doc_def = "none" },
	{ .o = { "agents", 0, PL(agents), NULL, 1, 0, NULL,
		 "the agents (see agent), at least one" },
	  .kind = K_LIST,
	  .aux = PL(nagents),
	  .sub = &lst__plan_agent,
	  .required = true },
	{ .o = { "targets", 0, PL(targets), NULL, 1, 0, NULL,
		 "the devices under test (see target), at least one" },
	  .kind = K_LIST,
	  .aux = PL(ntargets),
	  .sub = &lst__plan_target,
	  .required = true },
	{ .o = { "defaults", 0, PL(defaults), NULL, 0, 0, NULL,
		 "workload options every phase starts from (see workload)" },
	  .kind = K_WORKLOAD,
	  .doc_def = "the workload table's" },
	{ .o = { "phases", 0, PL(phases), NULL, 1, 0, NULL,
		 "the steps of the plan, in order (see phase), at least one" },
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
