/* Placeholder until the steady command lands. */
#include <stdio.h>

#include "lst_cli.h"

int lst_cmd_steady(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "lockstep: steady is not built yet\n");
	return 2;
}
