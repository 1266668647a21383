/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep-agent bench`: run one workload on this host, without a coordinator, and print what
 * was measured (a readable summary, or JSON). The same job engine the daemon uses.
 */
#ifndef LST_BENCH_H
#define LST_BENCH_H

#include "lst_dev.h"
#include "lst_err.h"

/*
 * Read the agent config at path and add its disk rules (allow_write, read_only) to p. Returns 0
 * or -errno with err naming the file and what is wrong. The daemon's library provides it
 * (lst_agent_config_policy): bench links no config reader of its own.
 */
typedef int lst_bench_policy_fn(const char *path, lst_dev_policy *p, lst_err *err);

/*
 * main()-style entry; argv[0] is "bench". Every write goes through the disk rules of lst_dev.h;
 * `--config FILE` adds that agent config's, read by load (NULL: --config is refused). Returns
 * the exit code (0 ok, 1 I/O errors; 2 usage, or a target refused or not opened).
 */
int lst_bench_main(int argc, char **argv, lst_bench_policy_fn *load);

#endif
