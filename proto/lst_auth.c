/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CURVE key files, fingerprints, authorized keys and the fail-closed ZAP option (lst_auth.h).
 *
 * The certificate files are written here rather than with zcert_save_*: those functions follow
 * the process umask for the public file, keep the mode of a file they overwrite, and name the
 * secret twin NAME_secret, while lockstep wants NAME.key created 0600 with O_EXCL and NAME.pub
 * beside it. The text is czmq's ZPL layout, so zcert_load reads our files and we read czmq's.
 * Reading uses a small line scanner (section "curve", keys public-key and secret-key) instead of
 * zconfig, which logs syntax errors of untrusted files to stderr on its own.
 */
#include "lst_auth.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "lst_file.h"
#include "lst_util.h"

#ifndef ZMQ_ZAP_ENFORCE_DOMAIN
#define ZMQ_ZAP_ENFORCE_DOMAIN 93 /* libzmq 4.3.4 hides it behind ZMQ_BUILD_DRAFT_API */
#endif

const char *lst_auth_fingerprint(const char *pub, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s", LST_KEY_FP_LEN, pub ? pub : "");
	return buf;
}

/* ---------------------------------------------------------------- reading */

/*
 * Find `name = "VALUE"` in the "curve" section of ZPL text (indented under a line that says
 * "curve"), or NULL. The value may be quoted with " or ', or bare. Returns 0 with the value in
 * out (at most LST_KEY_TEXT - 1 characters, else -EINVAL), -ENOENT when absent.
 */
static int s_zpl_get(const char *text, const char *name, char *out)
{
	const char *line = text;
	bool in_curve = false;
	size_t nlen = strlen(name);

	while (*line) {
		const char *end = line + strcspn(line, "\n");
		const char *p = line;
		bool indented = *p == ' ' || *p == '\t';

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end || *p == '#') {
			/* blank or comment: keeps the section */
		} else if (!indented) {
			size_t n = (size_t)(end - p);

			while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
				n--;
			in_curve = n == 5 && !memcmp(p, "curve", 5);
		} else if (in_curve && (size_t)(end - p) > nlen && !memcmp(p, name, nlen) &&
			   (p[nlen] == ' ' || p[nlen] == '\t' || p[nlen] == '=')) {
			const char *v = p + nlen;
			size_t n;

			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			if (v == end || *v != '=')
				return -EINVAL;
			v++;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			if (v < end && (*v == '"' || *v == '\'')) {
				const char *q = memchr(v + 1, *v, (size_t)(end - v - 1));

				if (!q)
					return -EINVAL;
				n = (size_t)(q - v - 1);
				v++;
			} else {
				n = strcspn(v, " \t\r#\n");
			}
			if (n != LST_KEY_TEXT - 1)
				return -EINVAL;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		line = *end ? end + 1 : end;
	}
	return -ENOENT;
}

/* A missing key file says how to make one: keygen takes the stem, writing STEM.key and
 * STEM.pub. */
static int s_no_key(const char *file, lst_err *err)
{
	size_t n = strlen(file);
	int stem = (int)n;

	if (n > 4 && (!strcmp(file + n - 4, ".key") || !strcmp(file + n - 4, ".pub")))
		stem -= 4;
	return lst_err_set(err, -ENOENT,
			   "key file %s: no such file; make one with 'lockstep keygen %.*s' (on a "
			   "host with only the agent, 'lockstep-agent keygen %.*s')",
			   file, stem, file, stem, file);
}

/*
 * Read a key file (any regular file up to LST_AUTH_KEY_MAX_FILE, by lst_file's rule: a FIFO is
 * refused, never waited on). st gets its fstat. A missing file says how to make one.
 */
static int s_read_key_file(const char *file, char **text, struct stat *st, lst_err *err)
{
	size_t len;
	ssize_t n;
	int fd;

	fd = lst_file_open_read(file, "key file", 0, LST_AUTH_KEY_MAX_FILE, st, err);
	if (fd == -ENOENT)
		return s_no_key(file, err);
	if (fd < 0)
		return fd;
	*text = lst_malloc((size_t)st->st_size + 1);
	len = 0;
	while (len < (size_t)st->st_size) {
		n = read(fd, *text + len, (size_t)st->st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	(*text)[len] = '\0';
	close(fd);
	return 0;
}

/* A public key out of a file's text: the certificate's curve/public-key, or the bare text. */
static int s_public_from_text(const char *file, const char *text, char pub[LST_KEY_TEXT],
			      lst_err *err)
{
	const char *p = text;
	size_t n;
	int rc = s_zpl_get(text, "public-key", pub);

	if (!rc && lst_auth_is_key_text(pub))
		return 0;
	if (rc == -ENOENT) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		n = strcspn(p, " \t\r\n");
		if (n == LST_KEY_TEXT - 1 && !p[n + strspn(p + n, " \t\r\n")]) {
			memcpy(pub, p, n);
			pub[n] = '\0';
			if (lst_auth_is_key_text(pub))
				return 0;
		}
	}
	return lst_err_set(err, -EINVAL,
			   "%s: no CURVE public key in it (expected a certificate from 'lockstep "
			   "keygen' with a curve section and public-key = \"<40 Z85 characters>\", "
			   "or the 40 characters alone)",
			   file);
}

int lst_auth_load_public(const char *file_or_text, char pub[LST_KEY_TEXT], lst_err *err)
{
	struct stat st;
	char *text = NULL;
	int rc;

	if (!file_or_text || !file_or_text[0])
		return lst_err_set(err, -EINVAL, "empty key");
	/* Key text is never also a readable file name in practice, but a file wins. */
	if (lst_auth_is_key_text(file_or_text) && access(file_or_text, F_OK)) {
		snprintf(pub, LST_KEY_TEXT, "%s", file_or_text);
		return 0;
	}
	rc = s_read_key_file(file_or_text, &text, &st, err);
	if (!rc)
		rc = s_public_from_text(file_or_text, text, pub, err);
	free(text);
	return rc;
}

char *lst_auth_public_twin(const char *file)
{
	size_t n = strlen(file);

	if (n > 4 && !strcmp(file + n - 4, ".key"))
		return lst_asprintf("%.*s.pub", (int)(n - 4), file);
	return lst_asprintf("%s.pub", file);
}

int lst_auth_load_keypair(const char *file, struct lst_keypair *kp, lst_err *err)
{
	char derived[LST_KEY_TEXT], given[LST_KEY_TEXT], fp1[16], fp2[16], *text = NULL;
	char *twin;
	struct stat st;
	int rc;

	memset(kp, 0, sizeof(*kp));
	rc = s_read_key_file(file, &text, &st, err);
	if (rc)
		return rc;
	if (st.st_mode & 077) {
		free(text);
		return lst_err_set(err, -EACCES,
				   "%s: permissions %04o are too open: a secret key must not be "
				   "readable or writable by group or others; chmod 600 %s",
				   file, (unsigned)(st.st_mode & 07777), file);
	}
	rc = s_zpl_get(text, "secret-key", kp->secret);
	if (rc || !lst_auth_is_key_text(kp->secret)) {
		free(text);
		memset(kp, 0, sizeof(*kp));
		return lst_err_set(
			err, -EINVAL,
			"%s: no CURVE secret key in it (expected the NAME.key file of "
			"'lockstep keygen': a curve section with secret-key = \"...\"); a "
			".pub file holds only the public key",
			file);
	}
	if (zmq_curve_public(derived, kp->secret)) {
		free(text);
		memset(kp, 0, sizeof(*kp));
		return lst_err_set(err, -EINVAL, "%s: the secret key is not valid Z85", file);
	}
	rc = s_zpl_get(text, "public-key", given);
	free(text);
	if (!rc && strcmp(given, derived)) {
		memset(kp, 0, sizeof(*kp));
		return lst_err_set(err, -EINVAL,
				   "%s: its public-key does not belong to its secret-key; make a "
				   "new pair with 'lockstep keygen'",
				   file);
	}
	snprintf(kp->pub, sizeof(kp->pub), "%s", derived);

	/* A NAME.pub beside it that holds another key would be copied to the wrong places. */
	twin = lst_auth_public_twin(file);
	if (!access(twin, F_OK)) {
		lst_err terr;

		if (lst_auth_load_public(twin, given, &terr)) {
			rc = lst_err_set(err, terr.code, "%s (public twin of %s)", terr.msg, file);
		} else if (strcmp(given, kp->pub)) {
			rc = lst_err_set(
				err, -EINVAL,
				"%s holds key '%s' but %s is the secret of key '%s': the "
				"two files are not a pair; copy the right .pub or make a new "
				"pair with 'lockstep keygen'",
				twin, lst_auth_fingerprint(given, fp1, sizeof(fp1)), file,
				lst_auth_fingerprint(kp->pub, fp2, sizeof(fp2)));
		}
		if (rc)
			memset(kp, 0, sizeof(*kp));
	}
	free(twin);
	return rc;
}

/* ---------------------------------------------------------------- writing */

/* Metadata values: printable, no quotes (ZPL quoting has no escapes). */
static void s_clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '"' || *s == '\'')
			*s = '_';
}

static int s_write_new(const char *path, mode_t mode, bool force, const char *text, lst_err *err)
{
	int fd, rc;

	if (force && unlink(path) && errno != ENOENT)
		return lst_err_sys(err, -errno, "cannot replace %s", path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0 && errno == EEXIST)
		return lst_err_set(
			err, -EEXIST,
			"%s already exists; keep it, remove it first, or give --force to "
			"replace the pair",
			path);
	if (fd < 0)
		return lst_err_sys(err, -errno, "cannot create %s", path);
	rc = fchmod(fd, mode) ? -errno : 0; /* the umask may have taken bits away */
	if (!rc)
		rc = lst_write_all(fd, text, strlen(text));
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (rc) {
		unlink(path);
		return lst_err_sys(err, rc, "cannot write %s", path);
	}
	return 0;
}

int lst_auth_keygen(const char *base, bool force, struct lst_keypair *kp, char **key_path,
		    char **pub_path, lst_err *err)
{
	char host[128] = "", when[32], *stem, *dir, *name, *kpath, *ppath, *text;
	size_t n = strlen(base);
	struct tm tm;
	time_t now = time(NULL);
	int rc;

	memset(kp, 0, sizeof(*kp));
	if (!n || base[n - 1] == '/')
		return lst_err_set(err, -EINVAL,
				   "keygen: '%s' names no file; give PATH/NAME (NAME.key and "
				   "NAME.pub are written)",
				   base);
	if (n > 4 && (!strcmp(base + n - 4, ".key") || !strcmp(base + n - 4, ".pub")))
		n -= 4;
	stem = lst_asprintf("%.*s", (int)n, base);
	dir = lst_strdup(stem);
	name = lst_strdup(basename(stem));
	if (strchr(stem, '/') && (rc = lst_mkdir_p(dirname(dir)))) {
		lst_err_sys(err, rc, "cannot create the folder of %s", stem);
		goto out_names;
	}
	if (zmq_curve_keypair(kp->pub, kp->secret)) {
		rc = lst_err_set(err, -ENOTSUP,
				 "keygen: this libzmq cannot make CURVE keys (built without "
				 "libsodium?)");
		goto out_names;
	}
	gethostname(host, sizeof(host) - 1);
	s_clean(host);
	s_clean(name);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	kpath = lst_asprintf("%s.key", stem);
	ppath = lst_asprintf("%s.pub", stem);
	text = lst_asprintf(
		"#   ****  Generated on %s UTC by lockstep keygen  ****\n"
		"#   ZeroMQ CURVE **Secret** Certificate (lockstep: %s.key)\n"
		"#   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions (0600).\n"
		"#   Its public half is %s.pub.\n"
		"\n"
		"metadata\n"
		"    name = \"%s\"\n"
		"    host = \"%s\"\n"
		"    created-by = \"lockstep %s\"\n"
		"curve\n"
		"    public-key = \"%s\"\n"
		"    secret-key = \"%s\"\n",
		when, name, name, name, host, LST_VERSION, kp->pub, kp->secret);
	rc = s_write_new(kpath, 0600, force, text, err);
	explicit_bzero(text, strlen(text));
	free(text);
	if (rc)
		goto out_paths;
	text = lst_asprintf(
		"#   ****  Generated on %s UTC by lockstep keygen  ****\n"
		"#   ZeroMQ CURVE Public Certificate (lockstep: %s.pub, fingerprint %.*s)\n"
		"#   A coordinator's .pub goes into every agent's authorized_keys folder; an\n"
		"#   agent's .pub is what a plan names as that agent's key:.\n"
		"\n"
		"metadata\n"
		"    name = \"%s\"\n"
		"    host = \"%s\"\n"
		"    created-by = \"lockstep %s\"\n"
		"curve\n"
		"    public-key = \"%s\"\n",
		when, name, LST_KEY_FP_LEN, kp->pub, name, host, LST_VERSION, kp->pub);
	rc = s_write_new(ppath, 0644, force, text, err);
	free(text);
	if (rc) {
		unlink(kpath);
		goto out_paths;
	}
	if (key_path) {
		*key_path = kpath;
		kpath = NULL;
	}
	if (pub_path) {
		*pub_path = ppath;
		ppath = NULL;
	}
out_paths:
	free(kpath);
	free(ppath);
out_names:
	if (rc)
		memset(kp, 0, sizeof(*kp));
	free(stem);
	free(dir);
	free(name);
	return rc;
}

char *lst_auth_default_key(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	struct passwd *pw;

	if (xdg && xdg[0] == '/')
		return lst_asprintf("%s/lockstep/coordinator.key", xdg);
	if ((!home || !home[0]) && (pw = getpwuid(getuid())))
		home = pw->pw_dir;
	return lst_asprintf("%s/.config/lockstep/coordinator.key", home && home[0] ? home : "");
}

/* ---------------------------------------------------------------- endpoints */

bool lst_auth_endpoint_is_local(const char *ep)
{
	char host[256];
	const char *h, *colon;
	size_t n;
	struct in_addr a4;
	struct in6_addr a6;

	if (!ep)
		return false;
	if (!strncmp(ep, "ipc://", 6) || !strncmp(ep, "inproc://", 9))
		return true;
	if (strncmp(ep, "tcp://", 6))
		return false;
	h = ep + 6;
	if (strchr(h, ';'))
		return false; /* tcp://source;destination: judge nothing clever */
	if (*h == '[') {
		const char *end = strchr(h, ']');

		if (!end || (size_t)(end - h - 1) >= sizeof(host))
			return false;
		n = (size_t)(end - h - 1);
		memcpy(host, h + 1, n);
		host[n] = '\0';
		if (inet_pton(AF_INET6, host, &a6) != 1)
			return false;
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return true;
		return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
	}
	colon = strrchr(h, ':');
	n = colon ? (size_t)(colon - h) : strlen(h);
	if (!n || n >= sizeof(host))
		return false;
	memcpy(host, h, n);
	host[n] = '\0';
	if (!strcmp(host, "localhost"))
		return true;
	if (inet_pton(AF_INET, host, &a4) != 1)
		return false;
	return (ntohl(a4.s_addr) >> 24) == 127;
}

/* ---------------------------------------------------------------- authorized keys */

void lst_authkeys_clear(lst_authkeys *k)
{
	for (size_t i = 0; i < k->nwarn; i++)
		free(k->warn[i]);
	free(k->warn);
	free(k->keys);
	memset(k, 0, sizeof(*k));
}

static void s_warn(lst_authkeys *k, char *msg)
{
	k->warn = lst_realloc(k->warn, (k->nwarn + 1) * sizeof(*k->warn));
	k->warn[k->nwarn++] = msg;
}

static int s_cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct lst_authkey *)a)->file, ((const struct lst_authkey *)b)->file);
}

/* What a stranger could do with a folder of keys they can change. */
#define S_RISK "authorize any coordinator"

int lst_authkeys_load(const char *dir, lst_authkeys *out, lst_err *err)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	memset(out, 0, sizeof(*out));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return lst_err_sys(err, -errno, "authorized_keys: cannot open the folder %s", dir);
	if (fstat(fd, &st)) {
		int rc = lst_err_sys(err, -errno, "authorized_keys: cannot stat %s", dir);

		close(fd);
		return rc;
	}
	{
		int rc = lst_dir_check_owned(dir, &st, "authorized_keys", S_RISK, err);

		if (rc) {
			close(fd);
			return rc;
		}
	}
	d = fdopendir(fd);
	if (!d) {
		int rc = lst_err_sys(err, -errno, "authorized_keys: cannot read %s", dir);

		close(fd);
		return rc;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *path, pub[LST_KEY_TEXT];
		struct stat fst;
		lst_err ferr;

		if (e->d_name[0] == '.' || n < 5 || strcmp(e->d_name + n - 4, ".pub"))
			continue;
		path = lst_asprintf("%s/%s", dir, e->d_name);
		if (stat(path, &fst) || !S_ISREG(fst.st_mode)) {
			s_warn(out, lst_asprintf("%s: not a regular file; skipped", path));
		} else if (fst.st_mode & 022) {
			s_warn(out, lst_asprintf("%s: writable by group or others (mode %04o); "
						 "skipped (chmod go-w it)",
						 path, (unsigned)(fst.st_mode & 07777)));
		} else if (!lst_file_owner_ok(fst.st_uid)) {
			char who[128];

			s_warn(out, lst_asprintf("%s: owned by %s, not by root or uid %u that the "
						 "agent runs as; skipped (chown root it)",
						 path, lst_uid_text(fst.st_uid, who, sizeof(who)),
						 (unsigned)geteuid()));
		} else if (n >= sizeof(out->keys[0].file)) {
			s_warn(out, lst_asprintf("%s: file name too long; skipped", path));
		} else if (lst_auth_load_public(path, pub, &ferr)) {
			s_warn(out, lst_asprintf("%s; skipped", ferr.msg));
		} else {
			struct lst_authkey *k;

			out->keys = lst_realloc(out->keys, (out->n + 1) * sizeof(*out->keys));
			k = &out->keys[out->n++];
			snprintf(k->pub, sizeof(k->pub), "%s", pub);
			snprintf(k->file, sizeof(k->file), "%s", e->d_name);
		}
		free(path);
	}
	closedir(d);
	if (out->n > 1)
		qsort(out->keys, out->n, sizeof(*out->keys), s_cmp_file);
	return 0;
}

const struct lst_authkey *lst_authkeys_find(const lst_authkeys *k, const char *pub)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->keys[i].pub, pub))
			return &k->keys[i];
	return NULL;
}

/* ---------------------------------------------------------------- ZAP */

int lst_auth_zap_enforce(void *zmq_socket, lst_err *err)
{
	int one = 1, v = 0;
	size_t sz = sizeof(v);

	if (zmq_setsockopt(zmq_socket, ZMQ_ZAP_ENFORCE_DOMAIN, &one, sizeof(one)))
		return lst_err_set(err, -ENOTSUP,
				   "this libzmq refuses ZMQ_ZAP_ENFORCE_DOMAIN (%s): without it a "
				   "missing authentication handler would let every client in, so "
				   "CURVE cannot be made safe here",
				   zmq_strerror(zmq_errno()));
	if (zmq_getsockopt(zmq_socket, ZMQ_ZAP_ENFORCE_DOMAIN, &v, &sz) || v != 1)
		return lst_err_set(
			err, -ENOTSUP,
			"ZMQ_ZAP_ENFORCE_DOMAIN did not take (read back %d): without it a "
			"missing authentication handler would let every client in, so "
			"CURVE cannot be made safe here",
			v);
	return 0;
}

bool lst_auth_monitor_event(void *monitor, uint16_t *event, uint32_t *value)
{
	zmq_msg_t a, b;

	*event = 0;
	*value = 0;
	zmq_msg_init(&a);
	if (zmq_msg_recv(&a, monitor, ZMQ_DONTWAIT) < 0) {
		zmq_msg_close(&a);
		return false;
	}
	if (zmq_msg_size(&a) >= 6) {
		memcpy(event, zmq_msg_data(&a), 2);
		memcpy(value, (uint8_t *)zmq_msg_data(&a) + 2, 4);
	}
	if (zmq_msg_more(&a)) {
		zmq_msg_init(&b);
		zmq_msg_recv(&b, monitor, 0);
		zmq_msg_close(&b);
	}
	zmq_msg_close(&a);
	return true;
}
