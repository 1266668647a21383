/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The keygen command (lst_keygen.h): flags, the usage text and the messages around
 * lst_auth_keygen and lst_auth_load_public, shared by `lockstep keygen` and
 * `lockstep-agent keygen` so that an agent-only host makes its key pair with the same code and
 * the same files as a coordinator.
 */
#include "lst_keygen.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lst_auth.h"

void lst_keygen_usage(const struct lst_keygen_cmd *cmd, FILE *f)
{
	fprintf(f,
		"usage: %s [--force] [PATH/NAME]\n"
		"       %s --fingerprint FILE...\n"
		"\n"
		"Make a CURVE key pair: NAME.key, the secret (mode 0600: keep it on this host), and\n"
		"NAME.pub, the public half to copy to the other side. %s"
		"Missing folders are created. Existing files are never replaced unless --force is\n"
		"given.\n"
		"\n"
		"  A coordinator key: copy NAME.pub into every agent's authorized_keys folder.\n"
		"  An agent key:      lockstep-agent --key NAME.key; plans name NAME.pub as the\n"
		"                     agent's key:.\n"
		"\n"
		"  -f, --force            replace an existing pair\n"
		"      --fingerprint      print the fingerprint and public key of each .key or .pub\n"
		"                         FILE (a key's fingerprint is its first 12 characters)\n"
		"\n"
		"The files are czmq certificates (ZPL text); see docs/security.md.\n"
		"\n"
		"Exit status: 0 done, 1 a file could not be written or read, 2 usage.\n",
		cmd->prog, cmd->prog, cmd->def_doc);
}

static int s_fingerprints(const struct lst_keygen_cmd *cmd, int argc, char **argv)
{
	int rc = 0;

	if (argc < 1) {
		lst_keygen_usage(cmd, stderr);
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
	struct lst_keypair kp;
	char *kpath = NULL, *ppath = NULL, *def = NULL, fp[16];
	const char *base = NULL;
	bool force = false;
	lst_err err;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			lst_keygen_usage(cmd, stdout);
			return 0;
		} else if (!strcmp(a, "--fingerprint")) {
			return s_fingerprints(cmd, argc - i - 1, argv + i + 1);
		} else if (!strcmp(a, "--force") || !strcmp(a, "-f")) {
			force = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "%s: unknown option '%s'\n", cmd->prog, a);
			lst_keygen_usage(cmd, stderr);
			return 2;
		} else if (base) {
			fprintf(stderr, "%s: one PATH/NAME at a time\n", cmd->prog);
			return 2;
		} else {
			base = a;
		}
	}
	if (!base)
		base = def = cmd->def_base(); /* lst_auth_keygen drops its ".key" */
	rc = lst_auth_keygen(base, force, &kp, &kpath, &ppath, &err);
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
