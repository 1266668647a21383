/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the plan reader: any bytes go to lst_plan_parse(), which must return a
 * plan with no error lines or no plan with at least one, each "fuzz.yaml:LINE:COL: message",
 * and never crash, read out of bounds, leak or run away. A plan that is accepted is walked the
 * way the coordinator walks it (every phase's sweep points with their labels, the name
 * lookups), so a value the reader let through that breaks those is found too. Built only with
 * LST_FUZZ=ON and clang; tests/fuzz/fuzz_plan.sh runs it for a bounded time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_plan.h"

#define S_FILE "fuzz.yaml"
#define S_MAX_WALK 64 /* points walked per phase: enough to cover every axis */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_plan: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

/* Walk an accepted plan as the coordinator would. */
static void s_walk(const lst_plan *p)
{
	for (size_t i = 0; i < p->nagents; i++)
		if (lst_plan_agent_index(p, p->agents[i].name) != (int)i)
			s_die("an agent is not found by its name", p->agents[i].name);
	for (size_t i = 0; i < p->ntargets; i++) {
		if (lst_plan_target_index(p, p->targets[i].name) != (int)i)
			s_die("a target is not found by its name", p->targets[i].name);
		for (size_t j = 0; j < p->targets[i].npaths; j++)
			if (p->targets[i].paths[j].agent >= p->nagents)
				s_die("a path names an agent out of range", p->targets[i].name);
	}
	for (size_t i = 0; i < p->nphases; i++) {
		const struct lst_plan_phase *ph = &p->phases[i];
		size_t n = lst_plan_phase_points(ph);

		if (n == 0 || n > LST_PLAN_MAX_POINTS)
			s_die("a phase has no points or too many", ph->name);
		for (size_t t = 0; t < ph->ntargets; t++)
			if (ph->targets[t] >= p->ntargets)
				s_die("a phase names a target out of range", ph->name);
		for (size_t k = 0; k < n && k < S_MAX_WALK; k++) {
			struct lst_workload w;
			char label[256];

			lst_plan_phase_point(ph, k, &w, label, sizeof(label));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lst_errlist errs = { 0 };
	lst_plan *p = lst_plan_parse((const char *)data, size, S_FILE, &errs);

	if (p && errs.n)
		s_die("an accepted plan came with errors", errs.msg[0]);
	if (!p && !errs.n)
		s_die("a refused plan came without an error", NULL);
	for (size_t i = 0; i < errs.n; i++)
		if (strncmp(errs.msg[i], S_FILE ":", sizeof(S_FILE)))
			s_die("an error line does not start with the file", errs.msg[i]);
	if (p)
		s_walk(p);
	lst_plan_destroy(&p);
	lst_errlist_free(&errs);
	return 0;
}
