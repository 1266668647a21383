/*
 * `lockstep keygen [PATH/NAME]`: make a CURVE key pair, NAME.key (secret, 0600) and NAME.pub, for
 * a coordinator or an agent; `--fingerprint FILE...` shows the public key of existing files.
 * The file format is described in proto/lst_auth.h and docs/security.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_auth.h"
#include "lst_cli.h"

void lst_cmd_keygen_usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep keygen [--force] [PATH/NAME]\n"
		"       lockstep keygen --fingerprint FILE...\n"
		"\n"
		"Make a CURVE key pair: NAME.key, the secret (mode 0600: keep it on this host), and\n"
		"NAME.pub, the public half to copy to the other side. Without PATH/NAME, the\n"
		"coordinator's default key is made: $XDG_CONFIG_HOME/lockstep/coordinator (that is\n"
		"~/.config/lockstep/coordinator). Missing folders are created. Existing files are\n"
		"never replaced unless --force is given.\n"
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
		"Exit status: 0 done, 1 a file could not be written or read, 2 usage.\n");
}

static int s_fingerprints(int argc, char **argv)
{
	int rc = 0;

	if (argc < 1) {
		lst_cmd_keygen_usage(stderr);
		return 2;
	}
	for (int i = 0; i < argc; i++) {
		char pub[LST_KEY_TEXT], fp[16];
		lst_err err;

		if (lst_auth_load_public(argv[i], pub, &err)) {
			fprintf(stderr, "lockstep keygen: %s\n", err.msg);
			rc = 1;
			continue;
		}
		printf("%s  %s  %s\n", lst_auth_fingerprint(pub, fp, sizeof(fp)), pub, argv[i]);
	}
	return rc;
}

int lst_cmd_keygen(int argc, char **argv)
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
			lst_cmd_keygen_usage(stdout);
			return 0;
		} else if (!strcmp(a, "--fingerprint")) {
			return s_fingerprints(argc - i - 1, argv + i + 1);
		} else if (!strcmp(a, "--force") || !strcmp(a, "-f")) {
			force = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "lockstep keygen: unknown option '%s'\n", a);
			lst_cmd_keygen_usage(stderr);
			return 2;
		} else if (base) {
			fprintf(stderr, "lockstep keygen: one PATH/NAME at a time\n");
			return 2;
		} else {
			base = a;
		}
	}
	if (!base)
		base = def = lst_auth_default_key(); /* lst_auth_keygen drops its ".key" */
	rc = lst_auth_keygen(base, force, &kp, &kpath, &ppath, &err);
	if (rc) {
		fprintf(stderr, "lockstep keygen: %s\n", err.msg);
		free(def);
		return 1;
	}
	printf("lockstep keygen: wrote %s (secret, mode 0600) and %s (public)\n"
	       "fingerprint '%s'  public key %s\n",
	       kpath, ppath, lst_auth_fingerprint(kp.pub, fp, sizeof(fp)), kp.pub);
	explicit_bzero(&kp, sizeof(kp));
	free(kpath);
	free(ppath);
	free(def);
	return 0;
}
