/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A results folder has one writer: `lockstep run`, `resume`, `verify` and `run --overwrite` each
 * hold the folder's lock for their whole life, so a second writer is refused before it touches
 * anything, naming the first one. The lock is flock(2) on DIR/.lock, a file that also says who
 * holds it (pid, host, command, since when) for the refusal to quote. The kernel drops a flock
 * when its holder dies, however it dies, so a .lock left by a coordinator killed with -9 stands
 * in no one's way: the next writer takes it and rewrites the file. Readers (`lockstep report`)
 * take no lock.
 *
 * flock is advisory and local to one host's kernel: two coordinators on two hosts writing one
 * folder over NFS are not kept apart (docs/security.md says so).
 */
#ifndef LST_FOLDER_LOCK_H
#define LST_FOLDER_LOCK_H

#include <stdbool.h>

#include "lst_err.h"

/* The lock file's name in a results folder; every listing of the folder's files skips it. */
#define LST_FOLDER_LOCK_NAME ".lock"

typedef struct lst_folder_lock lst_folder_lock;

/*
 * Take dir's writer lock for cmd ("run", "resume", ...), without waiting: dir and its parents
 * are made when missing (lst_folder_lock_made says so), dir/.lock is opened or created (never
 * through a symbolic link) and locked, then rewritten with our pid, host, cmd and the time.
 * Returns the lock, or NULL with err: -EBUSY when another process holds it ("results folder DIR
 * is being written by lockstep run, pid 4242 on host h1, since ..."), -errno when dir or the
 * file cannot be made. A folder made here is removed again when the lock cannot be taken.
 */
lst_folder_lock *lst_folder_lock_take(const char *dir, const char *cmd, lst_err *err);

/* Whether lst_folder_lock_take made the folder (it did not exist before). */
bool lst_folder_lock_made(const lst_folder_lock *l);

/*
 * Give the lock up: remove dir/.lock, then close it (which releases the flock). NULL-safe, nulls
 * *p. A lock never given up (the process dies) is released by the kernel; its file stays, stale
 * and harmless.
 */
void lst_folder_lock_release(lst_folder_lock **p);

/* Whether name (a file name in a results folder, no slash) is the lock file. */
bool lst_folder_lock_is_file(const char *name);

#endif
