/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plan reference, docs/plan.md, written from the schema tables (lst_plan_schema.c) and the
 * workload table (common/lst_workload.c): one Markdown table per kind of map, with each key's
 * type, default, allowed values and help, so the reference cannot drift from the parser.
 * The prose around the tables is plan-doc.md, a Markdown file compiled in at build time: each
 * line `{{keys NAME}}` in it becomes the table of section NAME (or of `workload`, `sweep`,
 * `sweep-fixed`: the options a sweep may not vary),
 * every other line is copied as it is.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_domain.h"
#include "lst_plan_int.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

/* The word the docs use for each lst_opt type (enum lst_opt_type order). */
static const char *const s_opt_types[] = { "integer",	   "size",    "duration",     "boolean",
					   "choice",	   "pattern", "distribution", "size mix",
					   "workload mix", "name" };

static const char *s_doc_type(const struct lst__plan_key *k, char *buf, size_t size)
{
	switch (k->kind) {
	case K_OPT:
		return s_opt_types[k->o.type];
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
		return "map: agent name to path or list of paths";
	case K_ROLES:
		return "map: agent or `AGENT:PATH` to `idle` or workload keys";
	case K_TARGET_REFS:
		return "list of target names";
	case K_SWEEP:
		return "map: [sweep](#sweep)";
	case K_PCT_LIST:
		return "list of numbers";
	case K_DURATION_LIST:
		return "list of durations";
	case K_AGENT:
		return "agent name";
	case K_INSTANT:
		return "duration";
	case K_HOOKS:
		snprintf(buf, size, "list of [%s](#%s)", k->sub->name,
			 k->sub == &lst__plan_event ? "event" : "before-and-after");
		return buf;
	case K_TELEMETRY:
		return "`off` or map: [telemetry](#telemetry)";
	case K_COLLECT:
		return "list of names";
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
	case LST_OPT_DIST:
		snprintf(buf, size, "`random`, `zipf:θ`, `pareto:h`, `normal:σ`, `zoned:A/S:...`");
		break;
	case LST_OPT_BSSPLIT:
		snprintf(buf, size, "`none`, `BS/PCT:BS/PCT...`, `READS,WRITES`");
		break;
	case LST_OPT_SKEW:
		snprintf(buf, size, "`none`, `share=PCT KEY=VALUE ...; share=PCT ...`");
		break;
	case LST_OPT_TEXT:
		snprintf(buf, size, "a name: letters, digits, `.`, `_`, `-`");
		break;
	case LST_OPT_CUSTOM:
		snprintf(buf, size, "%s", o->ops->range);
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
	case K_INSTANT:
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
	case K_AGENT:
		snprintf(buf, size, "agents from `agents:` that take part in the phase");
		break;
	case K_HOOKS:
		if (k->sub == &lst__plan_event)
			snprintf(buf, size,
				 "at most %d per agent; no two of an agent with the same `at` and "
				 "`hook`",
				 LST_MAX_EVENTS);
		break;
	case K_COLLECT:
		snprintf(buf, size, "1 .. %d distinct names: letters, digits, `_ . -`; <= %d",
			 LST_MAX_HOOKS, LST__PLAN_NAME_MAX);
		break;
	case K_ROLES:
		snprintf(buf, size,
			 "paths of the phase's targets; workload keys but `runtime`, `ramp`, "
			 "`interval`, `engine`");
		break;
	default:
		break;
	}
	return buf;
}

/* The head of a key table. */
static void s_doc_head(FILE *f)
{
	fprintf(f, "| key | type | default | allowed | meaning |\n");
	fprintf(f, "|---|---|---|---|---|\n");
}

static void s_doc_row(FILE *f, const char *key, const char *type, const char *def,
		      const char *range, const char *help)
{
	char k[96];

	snprintf(k, sizeof(k), "`%s`", key);
	fputs("|", f);
	lst_md_cell(f, k);
	lst_md_cell(f, type);
	lst_md_cell(f, def);
	lst_md_cell(f, range);
	lst_md_cell(f, help);
	fputs("\n", f);
}

/* The table of a section's keys. */
static void s_doc_section(FILE *f, const struct lst__plan_section *sec)
{
	s_doc_head(f);
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

/* A workload option's meaning, and fio's name for it when fio's differs ("fio: `numjobs`"). */
static const char *s_doc_opt_help(const struct lst_opt *o, char *buf, size_t size)
{
	if (o->fio)
		snprintf(buf, size, "%s (fio: `%s`)", o->help, o->fio);
	else
		snprintf(buf, size, "%s", o->help);
	return buf;
}

/* The workload table: lst_workload_opts, as `defaults:` and `workload:` take them. */
static void s_doc_workload(FILE *f)
{
	s_doc_head(f);
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		char range[512], def[128], help[1024];

		snprintf(def, sizeof(def), "`%s`", o->def);
		s_doc_row(f, o->name, s_opt_types[o->type], def,
			  s_doc_opt_range(o, range, sizeof(range)),
			  s_doc_opt_help(o, help, sizeof(help)));
	}
}

/* The sweep table: the workload options a sweep may vary (the table's order), then ports. */
static void s_doc_sweep(FILE *f)
{
	s_doc_head(f);
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		char range[512], type[64], help[1024];

		if (lst__plan_sweep_fixed(o))
			continue;
		snprintf(type, sizeof(type), "list of %s", s_opt_types[o->type]);
		s_doc_row(f, o->name, type, "", s_doc_opt_range(o, range, sizeof(range)),
			  s_doc_opt_help(o, help, sizeof(help)));
	}
	s_doc_row(f, "ports", "list of port sets", "",
		  "lists of agents and `AGENT:PATH` of the phase's targets",
		  "the paths that take part in each point, like [[a], [a, b]]; the others are "
		  "idle (see Paths, ports and roles)");
}

/* The workload options a sweep may not vary, each with why (what `validate` says). */
static void s_doc_sweep_fixed(FILE *f)
{
	fprintf(f, "| option | why it cannot be swept |\n|---|---|\n");
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		const char *why = lst__plan_sweep_fixed(o);
		char k[96];

		if (!why)
			continue;
		snprintf(k, sizeof(k), "`%s`", o->name);
		fputs("|", f);
		lst_md_cell(f, k);
		lst_md_cell(f, why);
		fputs("\n", f);
	}
}

/* Write the table a {{keys NAME}} line stands for; an unknown NAME is a bug in plan-doc.md. */
static void s_doc_table(FILE *f, const char *name)
{
	static const struct lst__plan_section *const sections[] = {
		&lst__plan_top,	      &lst__plan_agent,	 &lst__plan_target, &lst__plan_phase,
		&lst__plan_round,     &lst__plan_steady, &lst__plan_stop,   &lst__plan_curve,
		&lst__plan_failover,  &lst__plan_hir,	 &lst__plan_event,  &lst__plan_before,
		&lst__plan_telemetry, &lst__plan_replay, &lst__plan_xsr,    &lst__plan_dirth,
		&lst__plan_slo,	      &lst__plan_report,
	};

	if (!strcmp(name, "workload")) {
		s_doc_workload(f);
		return;
	}
	if (!strcmp(name, "sweep")) {
		s_doc_sweep(f);
		return;
	}
	if (!strcmp(name, "sweep-fixed")) {
		s_doc_sweep_fixed(f);
		return;
	}
	for (size_t i = 0; i < LST_ARRAY_SIZE(sections); i++) {
		if (!strcmp(name, sections[i]->name)) {
			s_doc_section(f, sections[i]);
			return;
		}
	}
	LST_ASSERT(!"plan-doc.md names a table the schema does not have");
}

void lst_plan_write_doc(FILE *f)
{
	static const char open[] = "{{keys ", close[] = "}}\n";
	const char *s = lst__plan_doc_md;

	while (*s) {
		const char *eol = strchr(s, '\n');
		size_t n = eol ? (size_t)(eol - s) + 1 : strlen(s);
		size_t name_len = n - (sizeof(open) - 1) - (sizeof(close) - 1);
		char name[64];

		if (n > sizeof(open) + sizeof(close) - 2 && !strncmp(s, open, sizeof(open) - 1) &&
		    !strncmp(s + n - (sizeof(close) - 1), close, sizeof(close) - 1) &&
		    name_len < sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", (int)name_len, s + sizeof(open) - 1);
			s_doc_table(f, name);
		} else {
			fwrite(s, 1, n, f);
		}
		s += n;
	}
}
