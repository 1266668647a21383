/*
 * The plan reference, docs/plan.md, written from the schema tables (lst_plan_schema.c) and the
 * workload table (common/lst_workload.c): one Markdown table per kind of map, with each key's
 * type, default, allowed values and help, so the reference cannot drift from the parser.
 */
#include <inttypes.h>
#include <stdio.h>

#include "lst_assert.h"
#include "lst_plan_int.h"
#include "lst_time.h"
#include "lst_util.h"

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

static const char *s_doc_type(const struct lst__plan_key *k, char *buf, size_t size)
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

static const char *s_doc_range(const struct lst__plan_key *k, char *buf, size_t size)
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
		snprintf(buf, size, "letters, digits, `_ . -`; <= %d", LST__PLAN_NAME_MAX);
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

static void s_doc_section(FILE *f, const struct lst__plan_section *sec)
{
	s_doc_head(f, sec->name, sec->help);
	for (const struct lst__plan_key *k = sec->keys; k->o.name; k++) {
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
	s_doc_section(f, &lst__plan_top);
	s_doc_section(f, &lst__plan_agent);
	s_doc_section(f, &lst__plan_target);
	s_doc_section(f, &lst__plan_phase);

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
	for (size_t i = 0; lst__plan_sweep_axes[i]; i++) {
		const struct lst_opt *o = lst_opt_find(lst_workload_opts, lst__plan_sweep_axes[i]);
		char range[512], type[64];

		LST_ASSERT(o);
		snprintf(type, sizeof(type), "list of %s", opt_types[o->type]);
		s_doc_row(f, o->name, type, "", s_doc_opt_range(o, range, sizeof(range)), o->help);
	}

	s_doc_section(f, &lst__plan_round);
	s_doc_section(f, &lst__plan_steady);
	s_doc_section(f, &lst__plan_stop);
	s_doc_section(f, &lst__plan_curve);
	s_doc_section(f, &lst__plan_hir);
}
