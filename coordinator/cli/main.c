/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lockstep: the coordinator command. Thin: finds the subcommand and hands over argv. The table
 * of commands, with each command's table of flags, is also what `lockstep --help`, lockstep(1)
 * (the hidden --write-man DIR) and the bash completion (the hidden `__complete CWORD WORDS...`)
 * read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_cli.h"
#include "lst_log.h"

static const struct lst_cli_cmd s_cmds[] = {
	{ "run", lst_cmd_run, "run a plan on its agents and write a results folder",
	  &lst_cmd_run_flags },
	{ "resume", lst_cmd_resume,
	  "finish a run whose coordinator died, appending to its results folder",
	  &lst_cmd_resume_flags },
	{ "validate", lst_cmd_validate, "check a plan and print every error, contact nothing",
	  &lst_cmd_validate_flags },
	{ "import", lst_cmd_import,
	  "turn fio job files into a plan, one file for every agent or one each",
	  &lst_cmd_import_flags },
	{ "agents", lst_cmd_agents, "show agents: version, host, cores, clock offset, rtt",
	  &lst_cmd_agents_flags },
	{ "inventory", lst_cmd_inventory,
	  "list the agents' block devices and which are one drive through several ports",
	  &lst_cmd_inventory_flags },
	{ "demo", lst_cmd_demo, "run the main job on an embedded default: two local agents",
	  &lst_cmd_demo_flags },
	{ "verify", lst_cmd_verify,
	  "check a run's targets against its write journal, through any port",
	  &lst_cmd_verify_flags },
	{ "steady", lst_cmd_steady, "apply the SNIA steady-state verdict to a column of values",
	  &lst_cmd_steady_flags },
	{ "report", lst_cmd_report,
	  "redraw plots and print the report of a results folder; compare two",
	  &lst_cmd_report_flags },
	{ "export", lst_cmd_export,
	  "write a results folder as fio json+ and histogram logs, or HdrHistogram logs",
	  &lst_cmd_export_flags },
	{ "db", lst_cmd_db, "the run catalog: add results folders, list and show runs by query",
	  &lst_cmd_db_flags },
	{ "trend", lst_cmd_trend,
	  "one figure across the catalog's runs by firmware, kernel, version or date, with bands",
	  &lst_cmd_trend_flags },
	{ "keygen", lst_cmd_keygen,
	  "make a CURVE key pair (NAME.key, NAME.pub) for a coordinator or agent",
	  &lst_cmd_keygen_flags },
};

#define S_NCMDS (sizeof(s_cmds) / sizeof(s_cmds[0]))

static void s_usage(FILE *f)
{
	fprintf(f, "usage: lockstep COMMAND [options]\n\ncommands:\n");
	for (size_t i = 0; i < S_NCMDS; i++)
		fprintf(f, "  %-10s %s\n", s_cmds[i].name, s_cmds[i].help);
	fprintf(f, "\n'lockstep COMMAND --help' explains each command.\n");
}

/*
 * `lockstep __complete CWORD lockstep WORDS...`: what the shell offers for word CWORD of the
 * command line (completion/lockstep.bash; the answer's form is lst_flag_complete's).
 */
static int s_complete(int argc, char **argv)
{
	int cword = argc > 2 ? atoi(argv[2]) : 0, n = argc - 3;
	char **words = argv + 3;

	if (cword <= 1 || n < 2) {
		printf("words\n--help\n--version\n");
		for (size_t i = 0; i < S_NCMDS; i++)
			printf("%s\n", s_cmds[i].name);
		return 0;
	}
	for (size_t i = 0; i < S_NCMDS; i++)
		if (!strcmp(words[1], s_cmds[i].name)) {
			lst_flag_complete(s_cmds[i].flags, n - 1, words + 1, cword - 1, stdout);
			return 0;
		}
	printf("none\n");
	return 0;
}

int main(int argc, char **argv)
{
	lst_log_set_ident("lockstep");
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		s_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--write-man") && argc == 3)
		return lst_cli_write_man(argv[2], s_cmds, S_NCMDS, s_usage);
	if (!strcmp(argv[1], "__complete"))
		return s_complete(argc, argv);
	if (!strcmp(argv[1], "--version")) {
		printf("lockstep %s\n", LST_VERSION);
		return 0;
	}
	for (size_t i = 0; i < S_NCMDS; i++)
		if (!strcmp(argv[1], s_cmds[i].name))
			return s_cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "lockstep: unknown command '%s'\n", argv[1]);
	s_usage(stderr);
	return 2;
}
