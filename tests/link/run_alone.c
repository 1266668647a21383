/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Link rule: lst_run (coordinator/run) links by itself, with only what its CMake target says it
 * needs (plans and results, proto, common, ZeroMQ, jansson): no command-line code. The program
 * is built with the tree; a missing dependency is a link error. It also runs: a probe of an
 * address nobody listens on is a refusal (exit status 1), without a plan.
 */
#include <stdio.h>

#include "lst_conn.h"
#include "lst_coord.h"
#include "lst_probe.h"
#include "lst_suite.h"

int main(void)
{
	struct lst_coord_agent a = { .name = "nobody", .address = "tcp://127.0.0.1:9" };
	struct lst_coord_opts opts = { .quiet = true };
	lst_coord *(*volatile run)(const lst_plan *, const struct lst_coord_opts *, lst_err *) =
		lst_coord_new;
	lst_suite_run *(*volatile suite)(const lst_plan *, size_t, uint64_t, lst_err *) =
		lst_suite_new;
	FILE *out = fopen("/dev/null", "w");
	int rc;

	if (!out || !run || !suite)
		return 1;
	rc = lst_probe_agents(&a, 1, &opts, false, out);
	fclose(out);
	if (rc != 1) {
		fprintf(stderr, "probe of a closed port: %d, want 1\n", rc);
		return 1;
	}
	printf("ok: lst_run links alone; a probe needs no plan\n");
	return 0;
}
