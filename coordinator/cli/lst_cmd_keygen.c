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

#define S_DEF_DOC                                                                                  \
	"Without PATH/NAME, the coordinator's default key is made:\n"                              \
	"$XDG_CONFIG_HOME/lockstep/coordinator (that is ~/.config/lockstep/coordinator).\n"

static const struct lst_keygen_cmd s_keygen = {
	.prog = "lockstep keygen",
	.def_doc = S_DEF_DOC,
	.def_base = lst_auth_default_key,
};

/* the same texts lst_keygen_main's --help shows, for lockstep(1) and completion */
const struct lst_flag_cmd lst_cmd_keygen_flags = {
	.name = "lockstep keygen",
	.operands = LST_KEYGEN_OPERANDS,
	.operand = LST_FLAG_FILE,
	.about = LST_KEYGEN_ABOUT,
	.more = S_DEF_DOC LST_KEYGEN_MORE,
	.groups = lst_keygen_groups,
};

int lst_cmd_keygen(int argc, char **argv)
{
	return lst_keygen_main(&s_keygen, argc, argv);
}
