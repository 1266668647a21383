/*
 * The `lockstep` command's subcommands. Each is a function with main()'s signature (argv[0] is
 * the subcommand's name) returning the process exit code: 0 success, 1 the run or check found a
 * problem (a test failed, not steady), 2 bad usage or bad input (plan, flags, files).
 */
#ifndef LST_CLI_H
#define LST_CLI_H

#include <stdio.h>

int lst_cmd_run(int argc, char **argv);
int lst_cmd_resume(int argc, char **argv);
int lst_cmd_validate(int argc, char **argv);
int lst_cmd_agents(int argc, char **argv);
int lst_cmd_demo(int argc, char **argv);
int lst_cmd_steady(int argc, char **argv);
int lst_cmd_report(int argc, char **argv);
int lst_cmd_keygen(int argc, char **argv);

/*
 * In a subcommand's getopt_long loop, the options that coordinating commands share (-d/--debug
 * CATEGORY, -v/--verbose, -h/--help) and getopt's usage errors (':' a value missing, '?' an
 * unknown option), said as "lockstep CMD: ...". Returns -1 when parsing goes on, else the exit
 * code: 0 after --help, 2 on a usage error.
 */
int lst_cli_common_opt(const char *cmd, int opt, char **argv, void (*usage)(FILE *));

#endif
