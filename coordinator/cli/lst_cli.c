/* What the subcommands share: the options every coordinating command takes. */
#include "lst_cli.h"

#include <getopt.h>

#include "lst_log.h"

int lst_cli_common_opt(const char *cmd, int opt, char **argv, void (*usage)(FILE *))
{
	const char *bad = NULL;

	switch (opt) {
	case 'd':
		if (lst_log_set_debug(optarg, &bad)) {
			fprintf(stderr, "lockstep %s: unknown debug category in '%s' (known: %s)\n",
				cmd, bad, lst_log_debug_names());
			return 2;
		}
		return -1;
	case 'v':
		lst_log_set_level(LST_LOG_DEBUG);
		return -1;
	case 'h':
		usage(stdout);
		return 0;
	case ':':
		fprintf(stderr, "lockstep %s: %s needs a value (see 'lockstep %s --help')\n", cmd,
			argv[optind - 1], cmd);
		return 2;
	default:
		fprintf(stderr, "lockstep %s: unknown option '%s' (see 'lockstep %s --help')\n",
			cmd, argv[optind - 1], cmd);
		return 2;
	}
}
