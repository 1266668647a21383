/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The purge worker: BLKDISCARD, BLKSECDISCARD or a hole punch over a point's regions, in a
 * thread of its own so that the reactor that asked for it goes on serving.
 *
 * The caller (the agent daemon) adds each region after lst_dev_open has vetted its path, starts
 * the worker at the point's start instant and polls lst_purge_eventfd: the worker writes it
 * once, after the last region or the first error. lst_purge_stop is read between chunks of
 * 1 GiB, so a stopped purge ends within one chunk. Knows nothing of the wire: regions are plain
 * values, so this links without the protocol or ZeroMQ.
 *
 * Threading: every function but the worker's body runs on the owning thread; the worker only
 * writes the result and then the eventfd (release), which lst_purge_finished reads (acquire).
 */
#ifndef LST_PURGE_H
#define LST_PURGE_H

#include <stdbool.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_identity.h"

typedef struct lst_purge lst_purge;

/* A purge with no region yet. Never NULL (out of memory aborts); its eventfd is made by
 * lst_purge_arm. */
lst_purge *lst_purge_new(void);

/*
 * Add a region of the open path fd (identified by id, both borrowed: they must outlive the
 * purge; name is the path as given, for messages): len bytes from offset, len 0 meaning to the
 * end. Checked against id: within the size, aligned to the logical block size on a block
 * device, and secure only on a block device. Returns 0, or -EINVAL/-EOPNOTSUPP with err saying
 * what is wrong; at most LST_MAX_JOBSPECS regions (-E2BIG beyond).
 */
int lst_purge_add(lst_purge *pg, const char *name, int fd, const struct lst_path_identity *id,
		  uint64_t offset, uint64_t len, bool secure, lst_err *err);

/* Make the eventfd the worker will write. Returns 0 or -errno with err. */
int lst_purge_arm(lst_purge *pg, lst_err *err);

/* The eventfd to poll (nonblocking, close-on-exec); -1 before lst_purge_arm. */
int lst_purge_eventfd(const lst_purge *pg);

/*
 * Start the worker. Returns 0, or -errno when the thread cannot be made; the purge is then
 * finished, with that error (lst_purge_error says it).
 */
int lst_purge_start(lst_purge *pg);

/* Was the worker started (is there a thread to join)? */
bool lst_purge_launched(const lst_purge *pg);

/* Ask the worker to stop after its current chunk. Idempotent; safe before the start. */
void lst_purge_stop(lst_purge *pg);

/* Has the worker ended (or failed to start)? Its result may be read then. */
bool lst_purge_finished(const lst_purge *pg);

/* The worker's error: 0 when it completed or was stopped, else -errno with err filled. */
int lst_purge_error(const lst_purge *pg, lst_err *err);

/* Stop the worker, join it, close the eventfd and free. Safe on NULL and twice. */
void lst_purge_destroy(lst_purge **p);

#endif
