/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lockstep-agent's daemon command (lst_agent.c): from the command line to a serving daemon.
 */
#ifndef LST_AGENT_H
#define LST_AGENT_H

#include "lst_dev.h"
#include "lst_err.h"

/*
 * Run `lockstep-agent [options]` (argv[0] is the program): read the settings, daemonize unless
 * --foreground, serve until SIGINT or SIGTERM. Returns the exit status: 0, 1 when the daemon
 * could not start or its reactor failed, 2 for a bad command line or config (printed).
 */
int lst_agent_main(int argc, char **argv);

/*
 * Load the agent config at path and add its disk rules (allow_write, read_only) to p: what
 * `lockstep-agent bench --config FILE` writes by (lst_bench_policy_fn). Returns 0 or -errno
 * with err ("FILE:LINE:COL: ..." for a bad file).
 */
int lst_agent_config_policy(const char *path, lst_dev_policy *p, lst_err *err);

#endif
