/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Link-rule probe for lst_plan: this program links lockstep::plan and nothing else, so a plan
 * function that reached for the protocol (msgpack) or ZeroMQ would fail this link, and a
 * dependency added to the library's link interface shows up in the binary, where
 * tests/link/plan_link.sh looks for it. Parsing a plan from text is its one job.
 */
#include <stdio.h>
#include <string.h>

#include "lst_plan.h"

int main(void)
{
	static const char text[] = "lockstep: 1\n"
				   "name: link\n"
				   "agents: [{name: a, address: \"tcp://127.0.0.1\"}]\n"
				   "targets: [{name: t, paths: {a: /dev/null}}]\n"
				   "phases: [{name: p, workload: {runtime: 1s}}]\n";
	lst_errlist errs = { 0 };
	lst_plan *p = lst_plan_parse(text, strlen(text), "link.yaml", &errs);

	if (!p) {
		lst_errlist_print(&errs, stderr);
		lst_errlist_free(&errs);
		return 1;
	}
	lst_plan_destroy(&p);
	return 0;
}
