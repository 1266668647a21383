/* lockstep-agent: the agent command. Thin: picks the subcommand and hands over argv. */
#include <stdio.h>
#include <string.h>

#include "lst_bench.h"
#include "lst_log.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: lockstep-agent bench [options]   run one workload here and print it\n"
		   "       lockstep-agent --version\n"
		   "\n'lockstep-agent bench --help' lists the workload options.\n");
}

int main(int argc, char **argv)
{
	lst_log_set_ident("lockstep-agent");
	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return lst_bench_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("lockstep-agent %s\n", LST_VERSION);
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		s_usage(stdout);
		return 0;
	}
	s_usage(stderr);
	return 2;
}
