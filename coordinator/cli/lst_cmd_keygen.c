/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `lockstep keygen [PATH/NAME]`: make a CURVE key pair, NAME.key (secret, 0600) and NAME.pub, for
 * a coordinator or an agent; `--fingerprint FILE...` shows the public key of existing files.
 * The command's body is shared with `lockstep-agent keygen` (proto/lst_keygen.c); the file
 * format is described in proto/lst_auth.h and docs/security.md.
 */
#include "lst_auth.h"
#include "lst_cli.h"
#include "lst_keygen.h"

static const struct lst_keygen_cmd s_keygen = {
	.prog = "lockstep keygen",
	.def_doc =
		"Without PATH/NAME, the\n"
		"coordinator's default key is made: $XDG_CONFIG_HOME/lockstep/coordinator (that is\n"
		"~/.config/lockstep/coordinator).\n",
	.def_base = lst_auth_default_key,
};

void lst_cmd_keygen_usage(FILE *f)
{
	lst_keygen_usage(&s_keygen, f);
}

int lst_cmd_keygen(int argc, char **argv)
{
	return lst_keygen_main(&s_keygen, argc, argv);
}
