/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One rule for the files lockstep creates and reads on behalf of someone else: the agent's
 * traces, keys and config, and the files a plan names (a key:, a trace it validates). The agent
 * runs as root, and a name in a folder another user can write may be a symlink to a block
 * device or to a root-owned file, or a FIFO whose open() blocks until someone writes to it.
 *
 * - A file read where a regular file is expected is opened with O_NONBLOCK (a FIFO's open does
 *   not wait for a writer), fstat-ed, refused unless it is a regular file, and bounded in size
 *   before anyone allocates for it; O_NONBLOCK is then cleared.
 * - A file created is created new (O_CREAT | O_EXCL | O_NOFOLLOW): nothing is ever written
 *   through a name that already exists as a symlink, a FIFO or another user's file.
 * - The folder that holds them is checked as ssh's StrictModes checks ~/.ssh: owned by root or
 *   by the user the process runs as, not writable by group or others, and so are the folders
 *   above it (a sticky one such as /tmp may be writable by all).
 */
#ifndef LST_FILE_H
#define LST_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lst_err.h"

/* lst_file_open_read and lst_file_open_write flags. */
#define LST_FILE_NOFOLLOW 1u /* refuse a symlink too (a name in a folder others may fill) */
#define LST_FILE_TRUNC 2u    /* write: empty the file once it is known to be a regular one */
/* write: a character device (/dev/null) or a FIFO with a reader will do too (a log); a block
 * device never */
#define LST_FILE_STREAM 4u

/*
 * Open path for reading as a regular file, by the rule above. what names the file's role in
 * errors ("key file", "trace"): "trace /x/y: a FIFO, not a regular file". max bounds its size
 * in bytes (0: no bound): a larger file is refused with -EFBIG before a byte is read. st (may be
 * NULL) gets its fstat. Returns the open descriptor (O_CLOEXEC, blocking) or -errno with err
 * (-EISDIR for a folder, -EINVAL for another kind of file, -ELOOP for a refused symlink).
 */
int lst_file_open_read(const char *path, const char *what, unsigned flags, uint64_t max,
		       struct stat *st, lst_err *err);

/*
 * Read the whole regular file path (lst_file_open_read, up to max bytes) into a NUL-terminated
 * buffer *out the caller frees, its length in *len (may be NULL). Returns 0 or -errno with err
 * (may be NULL): -EFBIG when larger than max (a file of exactly max bytes is fine), -EISDIR
 * for a folder, -EINVAL for anything else that is not a regular file.
 */
int lst_file_read(const char *path, const char *what, size_t max, char **out, size_t *len,
		  lst_err *err);

/*
 * Open path for writing at its end (O_APPEND), created with mode when missing, by the rule
 * above: never through a symlink (O_NOFOLLOW), never waiting on a FIFO (O_NONBLOCK while it
 * opens: a FIFO without a reader is refused), and never a block device or another non-regular
 * file unless flags has LST_FILE_STREAM; LST_FILE_TRUNC empties it after that check. Returns the
 * descriptor (O_CLOEXEC, blocking) or -errno with err naming the file.
 */
int lst_file_open_write(const char *path, const char *what, unsigned flags, mode_t mode,
			lst_err *err);

/*
 * May lst_file_create make path? 0 when nothing is there, or a leftover of ours (a regular file
 * owned by this process's user, one link: a temporary file a crash left), which is removed;
 * anything else there (a symlink, a FIFO, a device, another user's file or a hard link) is
 * -EEXIST with err naming it and what it is. Lets a caller refuse before any work is done.
 */
int lst_file_name_free(const char *path, const char *what, lst_err *err);

/*
 * Create path new for writing with mode (O_CREAT | O_EXCL | O_NOFOLLOW), after
 * lst_file_name_free when the name is taken: nothing is ever written through what was there.
 * Returns the descriptor (O_CLOEXEC) or -errno with err.
 */
int lst_file_create(const char *path, const char *what, mode_t mode, lst_err *err);

/*
 * May what path leads to be trusted as root's own (ssh's StrictModes, as for authorized_keys)?
 * The file or folder it resolves to must be owned by root or geteuid() and not writable by
 * group or others, and so must every folder above it (lst_dir_check_parents). what starts each
 * message ("hooks: port_down", "trace folder"); risk says what another writer could then do
 * ("make the agent run anything as root"). Returns 0, or -EACCES with err naming the file or
 * folder (PATH -> TARGET for a symlink), its owner or mode and the chown or chmod that fixes
 * it, or -errno when path cannot be resolved.
 */
int lst_file_check_owned(const char *path, const char *what, const char *risk, lst_err *err);

/*
 * lst_file_check_owned for a folder: dir must be one (-ENOTDIR otherwise). st is dir's own
 * fstat when the caller holds it open (NULL: stat by name).
 */
int lst_dir_check_owned(const char *dir, const struct stat *st, const char *what, const char *risk,
			lst_err *err);

/*
 * The folders above dir (a file's path will do): each owned by root or geteuid(), and writable
 * by group or others only when sticky (/tmp): otherwise their owner or writers could put another
 * folder in its place. what starts each message. Returns 0 or -EACCES / -errno with err.
 */
int lst_dir_check_parents(const char *dir, const char *what, lst_err *err);

/* May uid own what decides how the agent behaves (root, or the user it runs as)? */
bool lst_file_owner_ok(uid_t uid);

/* "uid 65534 (nobody)", or "uid 1234" when it has no name, into buf. */
const char *lst_uid_text(uid_t uid, char *buf, size_t size);

/* Read a whole small file (up to max bytes) into a NUL-terminated buffer the caller frees, by
 * lst_file's rule (lst_file_read: a FIFO or a device is refused with -EINVAL, never waited on).
 * Returns 0 or -errno (-EFBIG when larger than max; a file of exactly max bytes is fine). */
int lst_read_file(const char *path, size_t max, char **out, size_t *len);

#endif
