/* SPDX-License-Identifier: Apache-2.0 */
/*
 * proto/lst_auth: key files written and read back (also by czmq's zcert_load, and czmq's files by
 * us), refusals (open modes, mismatched pairs, garbage), fingerprints, loopback endpoints, the
 * authorized_keys folder, and the fail-closed ZAP option on real CURVE sockets: without a ZAP
 * handler a client gets in unless the option is set (libzmq 4.3.4), and with it, it does not.
 */
#include <czmq.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_auth.h"
#include "lst_test.h"
#include "lst_util.h"

static char s_dir[64];

static char *s_path(const char *name)
{
	return lst_asprintf("%s/%s", s_dir, name);
}

static void s_write(const char *name, const char *text, mode_t mode)
{
	char *p = s_path(name);
	FILE *f = fopen(p, "w");

	T_ASSERT(f);
	fputs(text, f);
	fclose(f);
	T_EQ_INT(chmod(p, mode), 0);
	free(p);
}

static mode_t s_mode(const char *path)
{
	struct stat st;

	T_EQ_INT(stat(path, &st), 0);
	return st.st_mode & 07777;
}

static void test_text_and_fingerprint(void)
{
	char fp[16];

	T_ASSERT(lst_auth_is_key_text("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"));
	T_ASSERT(!lst_auth_is_key_text("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf"));
	T_ASSERT(!lst_auth_is_key_text("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7x"));
	T_ASSERT(!lst_auth_is_key_text("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]y\"7"));
	T_ASSERT(!lst_auth_is_key_text(NULL));
	T_EQ_STR(lst_auth_fingerprint("rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7", fp, sizeof(fp)),
		 "rq:rM>}U?@Ln");
}

static void test_keygen_roundtrip(void)
{
	struct lst_keypair kp, again;
	char pub[LST_KEY_TEXT], *kpath = NULL, *ppath = NULL, *base = s_path("sub/dir/ctl");
	zcert_t *cert;
	lst_err err;

	umask(077); /* the public file must still come out 0644 */
	T_EQ_INT(lst_auth_keygen(base, false, &kp, &kpath, &ppath, &err), 0);
	umask(022);
	T_ASSERT(lst_auth_is_key_text(kp.pub) && lst_auth_is_key_text(kp.secret));
	T_CONTAINS(kpath, "sub/dir/ctl.key");
	T_CONTAINS(ppath, "sub/dir/ctl.pub");
	T_EQ_INT(s_mode(kpath), 0600);
	T_EQ_INT(s_mode(ppath), 0644);

	T_EQ_INT(lst_auth_load_keypair(kpath, &again, &err), 0);
	T_EQ_STR(again.pub, kp.pub);
	T_EQ_STR(again.secret, kp.secret);
	T_EQ_INT(lst_auth_load_public(ppath, pub, &err), 0);
	T_EQ_STR(pub, kp.pub);
	T_EQ_INT(lst_auth_load_public(kp.pub, pub, &err), 0);
	T_EQ_STR(pub, kp.pub);
	/* The public half of a .key file is readable as a public key too. */
	T_EQ_INT(lst_auth_load_public(kpath, pub, &err), 0);
	T_EQ_STR(pub, kp.pub);

	/* czmq reads our certificates. */
	cert = zcert_load(kpath);
	T_ASSERT(cert);
	T_EQ_STR(zcert_public_txt(cert), kp.pub);
	T_EQ_STR(zcert_secret_txt(cert), kp.secret);
	zcert_destroy(&cert);
	cert = zcert_load(ppath);
	T_ASSERT(cert);
	T_EQ_STR(zcert_public_txt(cert), kp.pub);
	zcert_destroy(&cert);

	/* No overwriting by accident; --force replaces both. */
	T_EQ_INT(lst_auth_keygen(base, false, &again, NULL, NULL, &err), -EEXIST);
	T_CONTAINS(err.msg, "already exists");
	T_EQ_INT(lst_auth_load_keypair(kpath, &again, &err), 0);
	T_EQ_STR(again.pub, kp.pub);
	T_EQ_INT(lst_auth_keygen(kpath, true, &again, NULL, NULL, &err), 0); /* ".key" dropped */
	T_ASSERT(strcmp(again.pub, kp.pub));
	T_EQ_INT(lst_auth_load_public(ppath, pub, &err), 0);
	T_EQ_STR(pub, again.pub);

	/* A key readable by others is refused, like ssh does. */
	T_EQ_INT(chmod(kpath, 0644), 0);
	T_EQ_INT(lst_auth_load_keypair(kpath, &again, &err), -EACCES);
	T_CONTAINS(err.msg, "permissions 0644 are too open");
	T_CONTAINS(err.msg, "chmod 600");
	T_EQ_INT(chmod(kpath, 0640), 0);
	T_EQ_INT(lst_auth_load_keypair(kpath, &again, &err), -EACCES);
	T_EQ_INT(chmod(kpath, 0600), 0);
	T_EQ_INT(lst_auth_load_keypair(kpath, &again, &err), 0);

	/* A .pub beside it that belongs to another pair. */
	T_EQ_INT(unlink(ppath), 0);
	s_write("sub/dir/ctl.pub", kp.pub, 0644); /* the first pair's public key, bare text */
	T_EQ_INT(lst_auth_load_keypair(kpath, &again, &err), -EINVAL);
	T_CONTAINS(err.msg, "are not a pair");
	/* A .pub file is not a secret key. */
	T_EQ_INT(chmod(ppath, 0600), 0);
	T_EQ_INT(lst_auth_load_keypair(ppath, &again, &err), -EINVAL);
	T_CONTAINS(err.msg, "no CURVE secret key");
	free(kpath);
	free(ppath);
	free(base);
}

static void test_czmq_files(void)
{
	struct lst_keypair kp;
	char pub[LST_KEY_TEXT], *p = s_path("czmq.pub"), *s = s_path("czmq.key");
	zcert_t *cert = zcert_new();
	lst_err err;

	zcert_set_meta(cert, "name", "from czmq");
	T_EQ_INT(zcert_save_public(cert, p), 0);
	T_EQ_INT(zcert_save_secret(cert, s), 0);
	T_EQ_INT(chmod(s, 0600), 0);
	T_EQ_INT(lst_auth_load_public(p, pub, &err), 0);
	T_EQ_STR(pub, zcert_public_txt(cert));
	T_EQ_INT(lst_auth_load_keypair(s, &kp, &err), 0);
	T_EQ_STR(kp.pub, zcert_public_txt(cert));
	T_EQ_STR(kp.secret, zcert_secret_txt(cert));
	zcert_destroy(&cert);
	free(p);
	free(s);
}

static void test_bad_files(void)
{
	char pub[LST_KEY_TEXT], *p;
	struct lst_keypair kp;
	lst_err err;

	s_write("garbage.pub", "hello\nworld\n", 0644);
	p = s_path("garbage.pub");
	T_EQ_INT(lst_auth_load_public(p, pub, &err), -EINVAL);
	T_CONTAINS(err.msg, "no CURVE public key");
	free(p);
	s_write("short.pub", "curve\n    public-key = \"abc\"\n", 0644);
	p = s_path("short.pub");
	T_EQ_INT(lst_auth_load_public(p, pub, &err), -EINVAL);
	free(p);
	/* A public-key outside the curve section does not count. */
	s_write("meta.pub",
		"metadata\n    public-key = \"rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7\"\n", 0644);
	p = s_path("meta.pub");
	T_EQ_INT(lst_auth_load_public(p, pub, &err), -EINVAL);
	free(p);
	s_write("bare.pub", "\n  rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7  \n", 0644);
	p = s_path("bare.pub");
	T_EQ_INT(lst_auth_load_public(p, pub, &err), 0);
	T_EQ_STR(pub, "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7");
	free(p);
	/* A pair whose public-key does not match its secret-key. */
	s_write("odd.key",
		"curve\n    public-key = \"Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID\"\n"
		"    secret-key = \"JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6\"\n",
		0600);
	p = s_path("odd.key");
	T_EQ_INT(lst_auth_load_keypair(p, &kp, &err), -EINVAL);
	T_CONTAINS(err.msg, "does not belong to its secret-key");
	free(p);
	p = s_path("missing.key");
	T_EQ_INT(lst_auth_load_keypair(p, &kp, &err), -ENOENT);
	T_CONTAINS(err.msg, "missing.key");
	free(p);
	T_EQ_INT(lst_auth_load_public("not-a-key-and-not-a-file", pub, &err), -ENOENT);
}

static void test_endpoints(void)
{
	T_ASSERT(lst_auth_endpoint_is_local("tcp://127.0.0.1:7270"));
	T_ASSERT(lst_auth_endpoint_is_local("tcp://127.3.2.1:7270"));
	T_ASSERT(lst_auth_endpoint_is_local("tcp://localhost:7270"));
	T_ASSERT(lst_auth_endpoint_is_local("tcp://[::1]:7270"));
	T_ASSERT(lst_auth_endpoint_is_local("tcp://[::ffff:127.0.0.1]:7270"));
	T_ASSERT(lst_auth_endpoint_is_local("ipc:///run/lockstep.sock"));
	T_ASSERT(!lst_auth_endpoint_is_local("tcp://*:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local("tcp://0.0.0.0:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local("tcp://198.18.0.2:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local("tcp://127.evil.example:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local("tcp://[::]:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local("tcp://eth0:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local("tcp://127.0.0.1;198.18.0.2:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local("udp://127.0.0.1:7270"));
	T_ASSERT(!lst_auth_endpoint_is_local(NULL));
}

/*
 * Owners, as ssh's StrictModes: a folder, a folder above it, or a key file owned by another user
 * (nobody, uid 65534) is refused or skipped. Needs root to chown; skipped otherwise.
 */
static void s_owners(const char *dir)
{
	const uid_t nobody = 65534;
	char *file, *outer, *inner;
	lst_authkeys k;
	lst_err err;

	if (geteuid() != 0) {
		printf("skip: owner checks need root (chown)\n");
		return;
	}
	T_EQ_INT(lst_authkeys_load(dir, &k, &err), 0);
	T_EQ_U64(k.n, 2);
	lst_authkeys_clear(&k);

	/* the folder */
	T_EQ_INT(chown(dir, nobody, (gid_t)-1), 0);
	T_EQ_INT(lst_authkeys_load(dir, &k, &err), -EACCES);
	T_CONTAINS(err.msg, dir);
	T_CONTAINS(err.msg, "is owned by uid 65534");
	T_CONTAINS(err.msg, "not by root or uid 0 that the agent runs as");
	T_CONTAINS(err.msg, "chown root");
	T_EQ_U64(k.n, 0);
	T_EQ_INT(chown(dir, 0, (gid_t)-1), 0);

	/* a key file: skipped with its reason, the others still load */
	file = lst_asprintf("%s/a.pub", dir);
	T_EQ_INT(chown(file, nobody, (gid_t)-1), 0);
	T_EQ_INT(lst_authkeys_load(dir, &k, &err), 0);
	T_EQ_U64(k.n, 1);
	T_EQ_STR(k.keys[0].file, "b.pub");
	{
		char all[2048] = "";

		for (size_t i = 0; i < k.nwarn; i++)
			strncat(all, k.warn[i], sizeof(all) - strlen(all) - 1);
		T_CONTAINS(all, "a.pub: owned by uid 65534");
		T_CONTAINS(all, "skipped (chown root it)");
	}
	lst_authkeys_clear(&k);
	T_EQ_INT(chown(file, 0, (gid_t)-1), 0);
	free(file);

	/* a folder above it, owned by another user, or writable by others without the sticky
	 * bit: its owner could rename the folder and put their own in its place */
	outer = s_path("outer");
	inner = s_path("outer/auth");
	T_EQ_INT(mkdir(outer, 0755), 0);
	T_EQ_INT(mkdir(inner, 0700), 0);
	T_EQ_INT(lst_authkeys_load(inner, &k, &err), 0);
	T_EQ_INT(chown(outer, nobody, (gid_t)-1), 0);
	T_EQ_INT(lst_authkeys_load(inner, &k, &err), -EACCES);
	T_CONTAINS(err.msg, "a folder above");
	T_CONTAINS(err.msg, "uid 65534");
	T_EQ_INT(chown(outer, 0, (gid_t)-1), 0);
	T_EQ_INT(chmod(outer, 0777), 0);
	T_EQ_INT(lst_authkeys_load(inner, &k, &err), -EACCES);
	T_CONTAINS(err.msg, "writable by group or others (mode 0777)");
	T_EQ_INT(chmod(outer, 01777), 0); /* sticky, as /tmp */
	T_EQ_INT(lst_authkeys_load(inner, &k, &err), 0);
	lst_authkeys_clear(&k);
	free(inner);
	free(outer);
}

static void test_authorized_dir(void)
{
	struct lst_keypair a, b;
	lst_authkeys k;
	char *dir = s_path("auth"), *base;
	lst_err err;

	T_EQ_INT(mkdir(dir, 0755), 0);
	base = s_path("auth/a");
	T_EQ_INT(lst_auth_keygen(base, false, &a, NULL, NULL, &err), 0);
	free(base);
	base = s_path("auth/b");
	T_EQ_INT(lst_auth_keygen(base, false, &b, NULL, NULL, &err), 0);
	free(base);
	s_write("auth/broken.pub", "nothing here\n", 0644);
	s_write("auth/.hidden.pub", b.pub, 0644);
	s_write("auth/loose.pub", b.pub, 0666);
	s_write("auth/notes.txt", "not a key\n", 0644);

	T_EQ_INT(lst_authkeys_load(dir, &k, &err), 0);
	T_EQ_U64(k.n, 2);
	T_EQ_STR(k.keys[0].file, "a.pub");
	T_EQ_STR(k.keys[1].file, "b.pub");
	T_ASSERT(lst_authkeys_find(&k, a.pub) == &k.keys[0]);
	T_ASSERT(lst_authkeys_find(&k, b.pub) == &k.keys[1]);
	T_ASSERT(!lst_authkeys_find(&k, "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"));
	T_EQ_U64(k.nwarn, 2); /* broken.pub and loose.pub; a.key is not a .pub */
	{
		char all[2048] = "";

		for (size_t i = 0; i < k.nwarn; i++)
			strncat(all, k.warn[i], sizeof(all) - strlen(all) - 1);
		T_CONTAINS(all, "broken.pub: no CURVE public key");
		T_CONTAINS(all, "loose.pub: writable by group or others");
	}
	lst_authkeys_clear(&k);
	lst_authkeys_clear(&k);

	T_EQ_INT(chmod(dir, 0777), 0);
	T_EQ_INT(lst_authkeys_load(dir, &k, &err), -EACCES);
	T_CONTAINS(err.msg, "chmod go-w");
	T_EQ_INT(chmod(dir, 0700), 0);
	s_owners(dir);
	free(dir);
	dir = s_path("nowhere");
	T_EQ_INT(lst_authkeys_load(dir, &k, &err), -ENOENT);
	T_CONTAINS(err.msg, "nowhere");
	free(dir);
}

static void test_default_key(void)
{
	char *p;

	setenv("XDG_CONFIG_HOME", "/x/conf", 1);
	p = lst_auth_default_key();
	T_EQ_STR(p, "/x/conf/lockstep/coordinator.key");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/someone", 1);
	p = lst_auth_default_key();
	T_EQ_STR(p, "/home/someone/.config/lockstep/coordinator.key");
	free(p);
}

static void test_zap_enforce(void)
{
	zsock_t *s = zsock_new(ZMQ_ROUTER);
	lst_err err;

	T_ASSERT(s);
	T_EQ_INT(lst_auth_zap_enforce(zsock_resolve(s), &err), 0);
	zsock_destroy(&s);
}

/*
 * Does a CURVE server with no ZAP handler let a client in? With lst_auth_zap_enforce: no. Without
 * it: yes, libzmq 4.3.4's default, which this test also shows so that it proves something.
 * Returns whether the client's message arrived within 1 s.
 */
static bool s_open_without_zap(bool enforce)
{
	char spub[41], ssec[41], cpub[41], csec[41];
	zsock_t *srv = zsock_new(ZMQ_ROUTER), *cli = zsock_new(ZMQ_DEALER);
	zpoller_t *poller;
	bool arrived;
	lst_err err;
	int port;

	T_EQ_INT(zmq_curve_keypair(spub, ssec), 0);
	T_EQ_INT(zmq_curve_keypair(cpub, csec), 0);
	zsock_set_linger(srv, 0);
	zsock_set_linger(cli, 0);
	if (enforce)
		T_EQ_INT(lst_auth_zap_enforce(zsock_resolve(srv), &err), 0);
	zsock_set_zap_domain(srv, LST_AUTH_ZAP_DOMAIN);
	zsock_set_curve_server(srv, 1);
	zsock_set_curve_secretkey(srv, ssec);
	port = zsock_bind(srv, "tcp://127.0.0.1:*");
	T_ASSERT(port > 0);
	zsock_set_curve_serverkey(cli, spub);
	zsock_set_curve_publickey(cli, cpub);
	zsock_set_curve_secretkey(cli, csec);
	T_EQ_INT(zsock_connect(cli, "tcp://127.0.0.1:%d", port), 0);
	T_EQ_INT(zstr_send(cli, "hello"), 0);
	poller = zpoller_new(srv, NULL);
	arrived = zpoller_wait(poller, 1000) == srv;
	zpoller_destroy(&poller);
	zsock_destroy(&cli);
	zsock_destroy(&srv);
	return arrived;
}

static void test_zap_fail_closed(void)
{
	T_ASSERT(!s_open_without_zap(true));
	T_ASSERT(s_open_without_zap(false));
}

int main(void)
{
	char cmd[128];

	snprintf(s_dir, sizeof(s_dir), "/tmp/lst-test-auth.XXXXXX");
	T_ASSERT(mkdtemp(s_dir));
	test_text_and_fingerprint();
	test_keygen_roundtrip();
	test_czmq_files();
	test_bad_files();
	test_endpoints();
	test_authorized_dir();
	test_default_key();
	test_zap_enforce();
	test_zap_fail_closed();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", s_dir);
	printf("auth: ok\n");
	return 0;
}
