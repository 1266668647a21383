/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `lockstep` command's subcommands. Each is a function with main()'s signature (argv[0] is
 * the subcommand's name) returning the process exit code: 0 success, 1 the run or check found a
 * problem (a test failed, not steady), 2 bad usage or bad input (plan, flags, files).
 */
#ifndef LST_CLI_H
#define LST_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "lst_coord.h"
#include "lst_plan.h"

int lst_cmd_run(int argc, char **argv);
int lst_cmd_resume(int argc, char **argv);
int lst_cmd_validate(int argc, char **argv);
int lst_cmd_agents(int argc, char **argv);
int lst_cmd_demo(int argc, char **argv);
int lst_cmd_steady(int argc, char **argv);
int lst_cmd_report(int argc, char **argv);
int lst_cmd_keygen(int argc, char **argv);
int lst_cmd_inventory(int argc, char **argv);
int lst_cmd_verify(int argc, char **argv);

/* Each command's --help text, written to f: the one source of --help and of lockstep(1). */
void lst_cmd_run_usage(FILE *f);
void lst_cmd_resume_usage(FILE *f);
void lst_cmd_validate_usage(FILE *f);
void lst_cmd_agents_usage(FILE *f);
void lst_cmd_demo_usage(FILE *f);
void lst_cmd_steady_usage(FILE *f);
void lst_cmd_report_usage(FILE *f);
void lst_cmd_keygen_usage(FILE *f);
void lst_cmd_inventory_usage(FILE *f);
void lst_cmd_verify_usage(FILE *f);

/* One command of `lockstep`: main's table, which --help and lockstep(1) both read. */
struct lst_cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;	/* the phrase of `lockstep --help` */
	void (*usage)(FILE *f); /* its own --help */
};

/*
 * Write the man pages into folder dir (which must exist): lockstep.1 from the n commands of cmds
 * (their phrases and --help texts) and the overview usage, and lockstep-plan.5 from the plan
 * reference (lst_plan_write_doc). Returns 0, or 1 after saying on stderr which file failed.
 */
int lst_cli_write_man(const char *dir, const struct lst_cli_cmd *cmds, size_t n,
		      void (*usage)(FILE *f));

/*
 * In a subcommand's getopt_long loop, the options that coordinating commands share (-d/--debug
 * CATEGORY, -v/--verbose, -h/--help) and getopt's usage errors (':' a value missing, '?' an
 * unknown option), said as "lockstep CMD: ...". Returns -1 when parsing goes on, else the exit
 * code: 0 after --help, 2 on a usage error.
 */
int lst_cli_common_opt(const char *cmd, int opt, char **argv, void (*usage)(FILE *));

struct lst_coord_opts;
struct lst_plan;
struct lst_coord;

/*
 * The coordinator of plan for a running command (run, resume, verify): Ctrl-C handled, and on
 * failure the reason said as "lockstep: ..." and NULL (the command exits 2).
 */
struct lst_coord *lst_cli_coord_new(const struct lst_plan *plan, const struct lst_coord_opts *opts);

/*
 * The agents of the plan at path, appended to *agents (grown to hold room more). Loads the plan
 * into *plan (the caller destroys it; the agents point into it). Returns 0, or 2 after saying
 * why on stderr as "lockstep CMD: ..." (a second plan, an invalid plan).
 */
int lst_cli_add_plan_agents(const char *cmd, const char *path, lst_plan **plan,
			    struct lst_coord_agent **agents, size_t *n, size_t room);

/*
 * HOST[:PORT][=KEY] or tcp://HOST:PORT[=KEY] as an agent named after its address (port 7270 by
 * default). The address made is returned (the caller frees it); the agent's strings point into
 * it and into a.
 */
char *lst_cli_agent_from_address(const char *a, struct lst_coord_agent *ag);

#endif
