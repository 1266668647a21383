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
#include "lst_flag.h"
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
int lst_cmd_export(int argc, char **argv);
int lst_cmd_import(int argc, char **argv);
int lst_cmd_db(int argc, char **argv);
int lst_cmd_trend(int argc, char **argv);

/* Each command's flags and texts (lst_flag.h): the one source of its parsing, its --help, its
 * section of lockstep(1) and its bash completion. */
extern const struct lst_flag_cmd lst_cmd_run_flags;
extern const struct lst_flag_cmd lst_cmd_resume_flags;
extern const struct lst_flag_cmd lst_cmd_validate_flags;
extern const struct lst_flag_cmd lst_cmd_agents_flags;
extern const struct lst_flag_cmd lst_cmd_demo_flags;
extern const struct lst_flag_cmd lst_cmd_steady_flags;
extern const struct lst_flag_cmd lst_cmd_report_flags;
extern const struct lst_flag_cmd lst_cmd_inventory_flags;
extern const struct lst_flag_cmd lst_cmd_verify_flags;
extern const struct lst_flag_cmd lst_cmd_export_flags;
extern const struct lst_flag_cmd lst_cmd_import_flags;
extern const struct lst_flag_cmd lst_cmd_db_flags;
extern const struct lst_flag_cmd lst_cmd_trend_flags;
extern const struct lst_flag_cmd
	lst_cmd_keygen_flags; /* lst_keygen's table, shared with the agent */

/* One command of `lockstep`: main's table, which --help, lockstep(1) and completion read. */
struct lst_cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;		  /* the phrase of `lockstep --help` */
	const struct lst_flag_cmd *flags; /* its flags and texts */
};

/*
 * Write the man pages into folder dir (which must exist): lockstep.1 from the n commands of cmds
 * (their phrases and flag tables) and the overview usage, and lockstep-plan.5 from the plan
 * reference (lst_plan_write_doc). Returns 0, or 1 after saying on stderr which file failed.
 */
int lst_cli_write_man(const char *dir, const struct lst_cli_cmd *cmds, size_t n,
		      void (*usage)(FILE *f));

/*
 * What the flags several commands take store into: the first member of each command's own
 * struct of flags, so that the shared groups below can serve them all.
 */
struct lst_cli_flags {
	const char *out;      /* -o: each command's own entry, for its own meaning */
	const char *key_file; /* --key FILE */
	const char *metrics;  /* --metrics ADDR:PORT */
	int64_t insecure;     /* --insecure */
	int64_t quiet;	      /* -q, --quiet */
};

extern const struct lst_flag lst_cli_key_flags[];     /* --key FILE, --insecure */
extern const struct lst_flag lst_cli_quiet_flags[];   /* -q, --quiet */
extern const struct lst_flag lst_cli_metrics_flags[]; /* --metrics ADDR:PORT */
extern const struct lst_flag lst_cli_log_flags[];     /* --debug LIST, -v/--verbose */

/*
 * Parse a command's argv through its table into base (a struct starting with struct
 * lst_cli_flags). Returns -1 when the command goes on, *first the index of its first operand;
 * else the exit code: 0 after printing --help, 2 after saying the usage error as "lockstep CMD:
 * ... (see 'lockstep CMD --help')".
 */
int lst_cli_parse(const struct lst_flag_cmd *cmd, int argc, char **argv, void *base, int *first);

/* The shared flags as a coordinator's options (the others in *opts are left as they are). */
void lst_cli_coord_opts(const struct lst_cli_flags *fl, struct lst_coord_opts *opts);

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
