/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The keygen command, one body for two programs: `lockstep keygen` on a coordinator's
 * workstation and `lockstep-agent keygen` on a host that has only the agent package. Both make
 * the same key files (lst_auth_keygen) and read the same flags; they differ only in their name
 * and in the PATH/NAME made when none is given (the coordinator's default key, or the key the
 * shipped /etc/lockstep/agent.yaml names).
 */
#ifndef LST_KEYGEN_H
#define LST_KEYGEN_H

#include <stdint.h>
#include <stdio.h>

#include "lst_flag.h"

/* Which program runs keygen: its words in usage and messages, and its default key. */
struct lst_keygen_cmd {
	const char *prog;	 /* "lockstep keygen": how usage and errors name the command */
	const char *def_doc;	 /* usage text: what is made without PATH/NAME (ends in '\n') */
	char *(*def_base)(void); /* that PATH/NAME (a ".key" is dropped); the caller frees */
};

/* keygen's flags, one table for both programs: -f/--force, --fingerprint (lst_flag.h). */
struct lst_keygen_args {
	int64_t force, fingerprint;
};
extern const struct lst_flag *const lst_keygen_groups[];

/* keygen's texts around the flags, for a program's static lst_flag_cmd; its more is the
 * program's def_doc, then LST_KEYGEN_MORE. */
#define LST_KEYGEN_OPERANDS "[PATH/NAME] (with --fingerprint: FILE...)"
#define LST_KEYGEN_ABOUT                                                                           \
	"Make a CURVE key pair: NAME.key, the secret (mode 0600: keep it on this host), and\n"     \
	"NAME.pub, the public half to copy to the other side. Missing folders are created.\n"      \
	"Existing files are never replaced unless --force is given.\n"                             \
	"\n"                                                                                       \
	"  A coordinator key: copy NAME.pub into every agent's authorized_keys folder.\n"          \
	"  An agent key:      lockstep-agent --key NAME.key; plans name NAME.pub as the\n"         \
	"                     agent's key:.\n"
#define LST_KEYGEN_MORE                                                                            \
	"\n"                                                                                       \
	"The files are czmq certificates (ZPL text); see docs/security.md.\n"                      \
	"\n"                                                                                       \
	"Exit status: 0 done, 1 a file could not be written or read, 2 usage.\n"

/* Write cmd's --help text to f (the one source of its --help and of its man page's lines). */
void lst_keygen_usage(const struct lst_keygen_cmd *cmd, FILE *f);

/*
 * Run `PROG [--force] [PATH/NAME]` or `PROG --fingerprint FILE...` with main()'s arguments
 * (argv[0] is "keygen"). Prints what it wrote, or the error on stderr. Returns the exit status:
 * 0 done, 1 a file could not be written or read, 2 usage.
 */
int lst_keygen_main(const struct lst_keygen_cmd *cmd, int argc, char **argv);

#endif
