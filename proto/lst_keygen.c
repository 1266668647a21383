/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The keygen command (lst_keygen.h): its flag table, its texts and the messages around
 * lst_auth_keygen and lst_auth_load_public, shared by `lockstep keygen` and
 * `lockstep-agent keygen` so that an agent-only host makes its key pair with the same code and
 * the same files as a coordinator.
 */
#include "lst_keygen.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lst_auth.h"
#include "lst_util.h"

static const struct lst_flag s_flags[] = {
	{ .opt = { .name = "force",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct lst_keygen_args, force),
		   .help = "replace an existing pair" },
	  .letter = 'f' },
	{ .opt = { .name = "fingerprint",
		   .type = LST_OPT_BOOL,
		   .offset = offsetof(struct lst_keygen_args, fingerprint),
		   .help = "print the fingerprint and public key of each .key or .pub FILE (a key's "
			   "fingerprint is its first 12 characters)" } },
	{ .opt = { .name = NULL } },
};

const struct lst_flag *const lst_keygen_groups[] = { s_flags, NULL };

/* cmd's flags and texts; *more is the text after the flags, the caller frees it. */
static void s_flag_cmd(const struct lst_keygen_cmd *cmd, struct lst_flag_cmd *fc, char **more)
{
	*more = lst_asprintf("%s%s", cmd->def_doc, LST_KEYGEN_MORE);
	*fc = (struct lst_flag_cmd){
		.name = cmd->prog,
		.operands = LST_KEYGEN_OPERANDS,
		.operand = LST_FLAG_FILE,
		.about = LST_KEYGEN_ABOUT,
		.more = *more,
		.groups = lst_keygen_groups,
	};
}

void lst_keygen_usage(const struct lst_keygen_cmd *cmd, FILE *f)
{
	struct lst_flag_cmd fc;
	char *more;

	s_flag_cmd(cmd, &fc, &more);
	lst_flag_help(&fc, f);
	free(more);
}

static int s_fingerprints(const struct lst_keygen_cmd *cmd, int argc, char **argv)
{
	int rc = 0;

	if (argc < 1) {
		fprintf(stderr, "%s: --fingerprint needs a FILE (see --help)\n", cmd->prog);
		return 2;
	}
	for (int i = 0; i < argc; i++) {
		char pub[LST_KEY_TEXT], fp[16];
		lst_err err;

		if (lst_auth_load_public(argv[i], pub, &err)) {
			fprintf(stderr, "%s: %s\n", cmd->prog, err.msg);
			rc = 1;
			continue;
		}
		printf("%s  %s  %s\n", lst_auth_fingerprint(pub, fp, sizeof(fp)), pub, argv[i]);
	}
	return rc;
}

int lst_keygen_main(const struct lst_keygen_cmd *cmd, int argc, char **argv)
{
	struct lst_keygen_args args = { 0 };
	struct lst_keypair kp;
	struct lst_flag_cmd fc;
	char *kpath = NULL, *ppath = NULL, *def = NULL, *more, fp[16];
	const char *base = NULL;
	lst_err err;
	int rc;

	s_flag_cmd(cmd, &fc, &more);
	rc = lst_flag_parse(&fc, argc, argv, &args, &err);
	if (rc == 0)
		lst_flag_help(&fc, stdout);
	else if (rc < 0)
		fprintf(stderr, "%s: %s (see --help)\n", cmd->prog, err.msg);
	free(more);
	if (rc <= 0)
		return rc ? 2 : 0;
	if (args.fingerprint)
		return s_fingerprints(cmd, argc - rc, argv + rc);
	if (argc - rc > 1) {
		fprintf(stderr, "%s: one PATH/NAME at a time\n", cmd->prog);
		return 2;
	}
	base = rc < argc ? argv[rc] : NULL;
	if (!base)
		base = def = cmd->def_base(); /* lst_auth_keygen drops its ".key" */
	rc = lst_auth_keygen(base, args.force, &kp, &kpath, &ppath, &err);
	if (rc) {
		fprintf(stderr, "%s: %s\n", cmd->prog, err.msg);
		free(def);
		return 1;
	}
	printf("%s: wrote %s (secret, mode 0600) and %s (public)\n"
	       "fingerprint '%s'  public key %s\n",
	       cmd->prog, kpath, ppath, lst_auth_fingerprint(kp.pub, fp, sizeof(fp)), kp.pub);
	explicit_bzero(&kp, sizeof(kp));
	free(kpath);
	free(ppath);
	free(def);
	return 0;
}
