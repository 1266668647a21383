/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Security helpers shared by the coordinator and the agent: CURVE key files, fingerprints, the
 * agent's authorized_keys directory, which endpoints count as loopback, and the socket options
 * that make authentication fail closed.
 *
 * Keys are ZeroMQ CURVE keys (Curve25519), handled as their 40-character Z85 text. A key pair
 * lives in two files made by `lockstep keygen PATH/NAME`:
 *
 *   NAME.key  the secret certificate, mode 0600: both keys. Kept by its owner only.
 *   NAME.pub  the public certificate: the public key only. Copied to the other side: a
 *             coordinator's NAME.pub into every agent's authorized_keys directory, an agent's
 *             NAME.pub next to the plans that name it (`key:` of the agent).
 *
 * Both are czmq certificates (ZPL text, what zcert_save_secret / zcert_save_public write and
 * zcert_load reads): a "metadata" section (name, host, created-by; informational only) and a
 * "curve" section with `public-key = "..."` and, in NAME.key, `secret-key = "..."`. Wherever a
 * public key is read, a file holding nothing but the 40-character Z85 text is accepted too.
 *
 * A key's fingerprint, for logs and messages, is the first 12 characters of its Z85 public key
 * (72 bits): it can be found in a .pub file with `grep -F`, and it is never secret.
 */
#ifndef LST_AUTH_H
#define LST_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_auth_text.h"
#include "lst_err.h"

#define LST_KEY_FP_LEN 12 /* characters of a fingerprint */
#define LST_AUTH_ZAP_DOMAIN "lockstep"
#define LST_AUTH_KEY_MAX_FILE (64 * 1024) /* a key file is a few hundred bytes */

/* A CURVE key pair as Z85 text (secret may be "" when only the public key is known). */
struct lst_keypair {
	char pub[LST_KEY_TEXT];
	char secret[LST_KEY_TEXT];
};

/* The fingerprint of a public key (its first 12 Z85 characters) in buf; returns buf. */
const char *lst_auth_fingerprint(const char *pub, char *buf, size_t size);

/*
 * Generate a key pair and write BASE.key (mode 0600, both keys) and BASE.pub (mode 0644),
 * creating BASE's folder when missing. base is PATH/NAME; a trailing ".key" or ".pub" is
 * dropped. Existing files are kept (-EEXIST) unless force. On success *kp holds the keys and
 * *key_path, *pub_path (may be NULL) the file names, the caller's to free. Returns 0 or -errno
 * with err naming the file.
 */
int lst_auth_keygen(const char *base, bool force, struct lst_keypair *kp, char **key_path,
		    char **pub_path, lst_err *err);

/* The public twin of a secret key file: FILE.key -> FILE.pub, anything else -> FILE.pub
 * appended. The caller frees. */
char *lst_auth_public_twin(const char *file);

/*
 * Load a secret key file (NAME.key). Refused: a file that is not a regular file, one that group
 * or others may read or write (-EACCES, like ssh: "chmod 600 FILE"), one without a valid
 * secret-key, one whose public-key does not belong to its secret-key, and one whose public
 * twin (FILE.pub, or FILE with .key replaced by .pub) exists and holds another key. The public
 * key is derived from the secret when the file does not give it. Returns 0 or -errno with err.
 */
int lst_auth_load_keypair(const char *file, struct lst_keypair *kp, lst_err *err);

/*
 * A public key from the 40-character Z85 text itself, or from a file: a czmq certificate (its
 * curve/public-key) or a file holding only the Z85 text. Returns 0 or -errno with err.
 */
int lst_auth_load_public(const char *file_or_text, char pub[LST_KEY_TEXT], lst_err *err);

/*
 * The coordinator's default secret key: $XDG_CONFIG_HOME/lockstep/coordinator.key, or
 * ~/.config/lockstep/coordinator.key when XDG_CONFIG_HOME is unset. The caller frees it.
 */
char *lst_auth_default_key(void);

/*
 * Does endpoint stay on this host? True for ipc:// and inproc://, and for tcp:// to a loopback
 * address: 127.0.0.0/8 as a dotted quad, [::1] (or an IPv4-mapped 127.x), or "localhost".
 * Everything else, wildcards ("*", 0.0.0.0), interface and host names included, is false.
 */
bool lst_auth_endpoint_is_local(const char *endpoint);

/* One authorized coordinator key: its Z85 public key and the file it came from. */
struct lst_authkey {
	char pub[LST_KEY_TEXT];
	char file[256]; /* base name, e.g. "lab-ws1.pub" */
};

/* The coordinator keys an agent accepts: every *.pub file of one directory. */
typedef struct lst_authkeys {
	size_t n;
	struct lst_authkey *keys;
	size_t nwarn; /* files skipped, one message each ("DIR/x.pub: ...") */
	char **warn;
} lst_authkeys;

/*
 * Read every regular file named *.pub in dir (not hidden ones) into *out (cleared first).
 * Like ssh's StrictModes, refused (-EACCES, err saying what to chown or chmod): a dir that group
 * or others may write (anyone could add a key), a dir owned by anyone but root or this
 * process's euid (that user could authorize any coordinator), and a folder above it owned by
 * anyone else or writable by group or others without the sticky bit (/tmp is fine: its owner
 * is root and it is sticky). A file that is writable by group or others, owned by anyone but
 * root or the euid, or that holds no public key, is skipped with a warning in out->warn.
 * Returns 0 (maybe with no keys), or -errno with err when dir cannot be read.
 */
int lst_authkeys_load(const char *dir, lst_authkeys *out, lst_err *err);

/* The entry for pub, or NULL. */
const struct lst_authkey *lst_authkeys_find(const lst_authkeys *k, const char *pub);

/* Free what lst_authkeys_load allocated; safe twice. */
void lst_authkeys_clear(lst_authkeys *k);

/*
 * Make a missing ZAP handler fail closed on a raw libzmq socket: set ZMQ_ZAP_ENFORCE_DOMAIN
 * (option 93, hidden behind ZMQ_BUILD_DRAFT_API in libzmq 4.3.4's header; czmq 4.2.1's setter
 * for it is compiled as a no-op) and read it back. Without it, libzmq 4.3.4 lets a CURVE client
 * in without asking anyone when no ZAP handler is bound. Returns 0, or -ENOTSUP with err when
 * the library did not take it: the caller must then refuse to run with CURVE.
 */
int lst_auth_zap_enforce(void *zmq_socket, lst_err *err);

/*
 * Read one pending event from a libzmq socket monitor (a PAIR connected to the monitor's
 * inproc endpoint) without waiting: the frame [event u16, value u32], then the endpoint frame,
 * which is dropped. False when none is pending.
 */
bool lst_auth_monitor_event(void *monitor, uint16_t *event, uint32_t *value);

#endif
