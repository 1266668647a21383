/*
 * lockstep-agent: `lockstep-agent bench ...` runs one workload here (agent/io/lst_bench); with no
 * subcommand it is the daemon a coordinator drives (agent/daemon/lst_agent).
 */
#include <string.h>

#include "lst_agent.h"
#include "lst_bench.h"
#include "lst_log.h"

int main(int argc, char **argv)
{
	lst_log_set_ident("lockstep-agent");
	if (argc >= 2 && !strcmp(argv[1], "bench"))
		return lst_bench_main(argc - 1, argv + 1, lst_agent_config_policy);
	return lst_agent_main(argc, argv);
}
