/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A PTS page's header, as the spec's report format opens every test's page: the test and its
 * sponsor, the dates, the device under test (from the devices' identities in run.json, and what
 * no device reports from the plan's `report:`, marked as given by it), the test platform (hosts,
 * kernels, lockstep's version), the test's parameters as run (the workloads of run.json), the
 * preconditioning that ran before it, and its steady-state settings.
 */
#include "lst_pts_int.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lst_steady.h"
#include "lst_assert.h"
#include "lst_util.h"

static const char s_test[] = "Test", s_dut[] = "Device under test", s_plat[] = "Test platform",
		  s_param[] = "Test parameters", s_pc[] = "Preconditioning",
		  s_ss[] = "Steady state";

static void s_field(struct lst_pts__ctx *c, const char *group, const char *key, char *value,
		    bool given)
{
	struct lst_pts_page *pg = c->pg;
	struct lst_pts_field *f;

	pg->fields = lst_realloc(pg->fields, (pg->nfields + 1) * sizeof(*pg->fields));
	f = &pg->fields[pg->nfields++];
	f->group = group;
	f->key = lst_strdup(key);
	f->value = value;
	f->given = given;
}

/* A field of the plan's `report:` (given), or "not given". */
static void s_given(struct lst_pts__ctx *c, const char *group, const char *key, const char *v)
{
	s_field(c, group, key, lst_strdup(v ? v : "not given (the plan's report: section)"), v);
}

/* A JSON value as text: a string as it is, a number as written; "" otherwise. */
static char *s_json_text(json_t *v)
{
	if (json_is_string(v))
		return lst_strdup(json_string_value(v));
	if (json_is_integer(v))
		return lst_asprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return lst_asprintf("%g", json_real_value(v));
	if (json_is_boolean(v))
		return lst_strdup(json_is_true(v) ? "true" : "false");
	return lst_strdup("");
}

/* A workload value of run.json as text: a duration in ns as a duration ("200 ms"). */
static char *s_wl_text(json_t *v, bool duration)
{
	char buf[32];

	if (duration && json_is_integer(v))
		return lst_strdup(lst_fmt_duration(json_integer_value(v), buf, sizeof(buf)));
	return s_json_text(v);
}

/* *list with item appended unless it is there already ("a, b"); item is taken. */
static void s_add(char **list, char *item)
{
	size_t n = strlen(item);
	char *p, *x;

	if (!*item)
		goto out;
	for (p = *list; p && (p = strstr(p, item)); p += n)
		if ((p == *list || (p - *list >= 2 && p[-2] == ',')) &&
		    (p[n] == '\0' || p[n] == ','))
			goto out;
	x = *list ? lst_asprintf("%s, %s", *list, item) : lst_strdup(item);
	free(*list);
	*list = x;
out:
	free(item);
}

static void s_test_fields(struct lst_pts__ctx *c)
{
	const lst_report *r = c->r;
	const struct lst_plan_report *rep = c->plan ? &c->plan->report : NULL;
	char date[32];
	time_t now = time(NULL);
	struct tm tm;

	s_field(c, s_test, "Test",
		lst_asprintf("%s (SNIA PTS), phase %s, suite %s", c->pg->title, c->pg->phase,
			     c->pg->suite),
		false);
	s_given(c, s_test, "Test sponsor", rep ? rep->sponsor : NULL);
	s_field(c, s_test, "Test run",
		lst_asprintf("%s to %s (run %s)", *r->started ? r->started : "?",
			     *r->finished ? r->finished : "not finished", r->run_id),
		false);
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime_r(&now, &tm));
	s_field(c, s_test, "Report date", lst_strdup(date), false);
}

/* What a device said of itself, or "not reported by the device". */
static char *s_id(json_t *id, const char *key)
{
	const char *v = json_string_value(json_object_get(id, key));

	return lst_strdup(v && *v ? v : "not reported by the device");
}

static void s_device_fields(struct lst_pts__ctx *c)
{
	json_t *targets = json_object_get(c->r->run, "targets"), *t;
	const struct lst_plan_report *rep = c->plan ? &c->plan->report : NULL;
	size_t i;

	json_array_foreach (targets, i, t) {
		json_t *id = json_array_get(json_object_get(t, "identities"), 0), *p;
		json_t *paths = json_object_get(t, "paths");
		double size = json_number_value(json_object_get(t, "size"));
		char *ports = NULL, buf[32];
		size_t k;

		s_field(c, s_dut, "Target", s_json_text(json_object_get(t, "name")), false);
		s_field(c, s_dut, "Vendor", s_id(id, "vendor"), false);
		s_field(c, s_dut, "Model", s_id(id, "model"), false);
		s_field(c, s_dut, "Serial", s_id(id, "serial"), false);
		s_field(c, s_dut, "Firmware", s_id(id, "firmware"), false);
		s_field(c, s_dut, "Capacity",
			size > 0 ? lst_asprintf("%.0f bytes (%s)", size,
						lst_fmt_size((uint64_t)size, buf, sizeof(buf)))
				 : lst_strdup("not known"),
			false);
		s_field(c, s_dut, "Identity", s_id(id, "wwn"), false);
		json_array_foreach (paths, k, p) {
			char *one = lst_asprintf("%s on agent %s",
						 json_string_value(json_object_get(p, "path")),
						 json_string_value(json_object_get(p, "agent")));

			s_add(&ports, one);
		}
		s_field(c, s_dut, "Paths", ports ? ports : lst_strdup("none"), false);
	}
	s_given(c, s_dut, "NAND type", rep ? rep->nand : NULL);
	s_given(c, s_dut, "Form factor", rep ? rep->form_factor : NULL);
	s_given(c, s_dut, "Interface", rep ? rep->interface : NULL);
}

static void s_platform_fields(struct lst_pts__ctx *c)
{
	const lst_report *r = c->r;
	json_t *agents = json_object_get(r->run, "agents"), *a;
	json_t *ver = json_object_get(r->run, "versions");
	char *hosts = NULL, *kernels = NULL, *versions = NULL;
	size_t i;

	json_array_foreach (agents, i, a) {
		json_t *cores = json_object_get(a, "cores");

		s_add(&hosts,
		      json_is_integer(cores)
			      ? lst_asprintf("%s (agent %s, %lld cores)",
					     json_string_value(json_object_get(a, "host")),
					     json_string_value(json_object_get(a, "name")),
					     (long long)json_integer_value(cores))
			      : lst_asprintf("%s (agent %s)",
					     json_string_value(json_object_get(a, "host")),
					     json_string_value(json_object_get(a, "name"))));
		s_add(&kernels, s_json_text(json_object_get(a, "kernel")));
		s_add(&versions, s_json_text(json_object_get(a, "version")));
	}
	s_field(c, s_plat, "Hosts", hosts ? hosts : lst_strdup("none"), false);
	s_field(c, s_plat, "Kernels", kernels ? kernels : lst_strdup("not known"), false);
	s_field(c, s_plat, "Coordinator",
		lst_asprintf("%s, kernel %s", *r->coordinator ? r->coordinator : "?",
			     json_string_value(json_object_get(ver, "kernel"))
				     ? json_string_value(json_object_get(ver, "kernel"))
				     : "?"),
		false);
	s_field(c, s_plat, "lockstep",
		lst_asprintf("%s (agents %s)",
			     json_string_value(json_object_get(ver, "lockstep"))
				     ? json_string_value(json_object_get(ver, "lockstep"))
				     : "?",
			     versions ? versions : "?"),
		false);
	free(versions);
}

/* The test's workload as run: each key's distinct values over the phase's points. */
static void s_param_fields(struct lst_pts__ctx *c)
{
	static const struct {
		const char *key, *name;
		bool duration; /* run.json gives it in ns */
	} keys[] = {
		{ "rw", "Access pattern (rw)", false },
		{ "bs", "Block size", false },
		{ "bssplit", "Block-size mix", false },
		{ "rwmixread", "Read %", false },
		{ "jobs", "Threads per path", false },
		{ "iodepth", "Queue depth per thread", false },
		{ "pattern", "Data pattern", false },
		{ "random_distribution", "Access ranges", false },
		{ "offset", "Active range: offset", false },
		{ "size", "Active range: size (0: all)", false },
		{ "runtime", "Round length", true },
		{ "ramp", "Round ramp", true },
	};
	json_t *phases = json_object_get(c->r->run, "phases"), *ph;
	char *vals[LST_ARRAY_SIZE(keys)] = { 0 };
	size_t i;

	json_array_foreach (phases, i, ph) {
		json_t *wl = json_object_get(ph, "workload");
		const char *name = json_string_value(json_object_get(ph, "phase"));

		if (!name || strcmp(name, c->pg->phase))
			continue;
		for (size_t k = 0; k < LST_ARRAY_SIZE(keys); k++)
			if (json_object_get(wl, keys[k].key))
				s_add(&vals[k], s_wl_text(json_object_get(wl, keys[k].key),
							  keys[k].duration));
	}
	for (size_t k = 0; k < LST_ARRAY_SIZE(keys); k++)
		if (vals[k])
			s_field(c, s_param, keys[k].name, vals[k], false);
}

/* What ran before the test to bring the device to its state: purges and preconditioning. */
static void s_precondition_fields(struct lst_pts__ctx *c)
{
	const lst_report *r = c->r;
	bool any = false;

	for (size_t i = 0; i < c->phase; i++) {
		const struct lst_rpt_phase *ph = &r->phases[i];
		char buf[64];

		if (strcmp(ph->suite, "purge") && strcmp(ph->suite, "precondition"))
			continue;
		for (size_t k = 0; k < r->nworks; k++) {
			const struct lst_rpt_work *w = &r->works[k];

			if (strcmp(w->phase, ph->name))
				continue;
			s_field(c, s_pc, !strcmp(ph->suite, "purge") ? "Purge" : "Preconditioning",
				lst_asprintf("phase %s: %s %s (%.2fx capacity)", ph->name,
					     !strcmp(w->did, "discard") ? "discarded" : "wrote",
					     isfinite(w->bytes) ? lst_fmt_size((uint64_t)w->bytes,
									       buf, sizeof(buf))
								: "?",
					     w->capacity_multiple),
				false);
			any = true;
		}
		if (!any) {
			s_field(c, s_pc, "Preconditioning",
				lst_asprintf("phase %s (%s)", ph->name, ph->suite), false);
			any = true;
		}
	}
	if (!any)
		s_field(c, s_pc, "Preconditioning",
			lst_strdup("none in this run (no purge or precondition phase before it)"),
			false);
	s_field(c, s_pc, "Workload dependent",
		lst_strdup("the test's own stimulus, round after round, as its steady state "
			   "below says"),
		false);
}

static void s_steady_fields(struct lst_pts__ctx *c)
{
	bool any = false;

	for (size_t i = 0; i < c->r->ntests; i++) {
		const struct lst_rpt_test *t = &c->r->tests[i];
		char phrase[160];

		if (strcmp(t->phase, c->pg->phase))
			continue;
		lst_steady_phrase(t->steady, t->rounds, t->window_first, t->window_last, t->stop,
				  t->capacity_multiple, phrase, sizeof(phrase));
		s_field(c, s_ss, t->test,
			lst_asprintf("tracking %s, window %ld rounds, data excursion <= %g%%, "
				     "slope excursion <= %g%%: %s%s",
				     t->tracked, t->window, t->data_limit, t->slope_limit, phrase,
				     t->required ? "" : " (reported, not required)"),
			false);
		any = true;
	}
	if (!any)
		s_field(c, s_ss, "Steady state",
			lst_strdup("none: the test has no rounds to converge (the spec asks none)"),
			false);
}

void lst_pts__head(struct lst_pts__ctx *c)
{
	s_test_fields(c);
	s_device_fields(c);
	s_platform_fields(c);
	s_param_fields(c);
	s_precondition_fields(c);
	s_steady_fields(c);
}
