/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Link rule: the I/O layer (lst_agent_io: jobs, runs, engines, bench, the purge worker) links
 * without ZeroMQ, czmq, msgpack or the protocol. Built with the whole library, so any reference
 * to those inside it fails this link; tests/link/agent_check.sh then checks the program's link
 * line and shared libraries.
 */
#include <stdio.h>

#include "lst_job.h"
#include "lst_purge.h"

int main(void)
{
	lst_purge *pg = lst_purge_new();
	lst_err err;

	printf("io_uring: %s\n", lst_engine_uring_probe(&err) ? "no" : "yes");
	lst_purge_destroy(&pg);
	return 0;
}
