/* Placeholder until the validate command lands. */
#include <stdio.h>

#include "lst_cli.h"

int lst_cmd_validate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "lockstep: validate is not built yet\n");
	return 2;
}
