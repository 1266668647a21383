/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's trace folder: where a recording point writes its traces and where a
 * replaying point finds the one it names. Shared by the daemon (config key trace_dir, default
 * LST_CONFIG_DEFAULT_TRACE_DIR) and `lockstep-agent bench` (--trace-dir, default ".").
 *
 * A recording writes DIR/NAME.AGENT.K.lstrace (NAME: write_iolog, AGENT: the agent's name or
 * "bench", K: the job spec's index among the agent's specs of the point). read_iolog is a name
 * of [A-Za-z0-9._-] (LST_OPT_TEXT), never a path: it can only reach files in the folder.
 *
 * Loading a trace for a path checks everything before any I/O: the file reads whole
 * (lst_trace_read), fits the path's logical block size and size (lst_trace_fits), and every
 * refusal is one line naming the file.
 */
#ifndef LST_TRACEDIR_H
#define LST_TRACEDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"
#include "lst_trace.h"

/* Make the trace folder when it is missing (mode 0750, its parents too), and check that it is a
 * folder this process may write and only root or this user may change (lst_dir_check_owned: a
 * stranger's 0777 folder is refused). Returns 0 or -errno with err naming it. */
int lst_tracedir_make(const char *dir, lst_err *err);

/* DIR/NAME.AGENT.K.lstrace into buf (characters of agent outside [A-Za-z0-9._-] become '_'),
 * whose temporary name must be free (lst_trace_write_check). Returns -ENAMETOOLONG (with err)
 * when it does not fit, -EEXIST when a symlink or another file holds the temporary name, else
 * 0. */
int lst_tracedir_record_file(char *buf, size_t size, const char *dir, const char *name,
			     const char *agent, unsigned k, lst_err *err);

/* The logical block size and size in bytes of an open path: BLKSSZGET and BLKGETSIZE64 on a
 * block device, 512 and st_size on a regular file. Returns 0 or -errno with err naming it. */
int lst_tracedir_geometry(int fd, const char *name, uint32_t *lbs, uint64_t *size, lst_err *err);

/* Read trace NAME of the folder DIR into *t (lst_trace_read: a regular file only, its records
 * within mem_max bytes, 0 for no bound), after checking DIR as lst_tracedir_make does. Returns 0
 * or -errno with err, one line naming the file; *t is empty then. */
int lst_tracedir_load(const char *dir, const char *name, uint64_t mem_max, struct lst_trace *t,
		      lst_err *err);

/* Can t (read from DIR/NAME) be replayed on path, of logical block size lbs and size bytes?
 * Returns 0 or -EINVAL with err: "read_iolog DIR/NAME: ... (path PATH)". */
int lst_tracedir_fits(const struct lst_trace *t, const char *dir, const char *name,
		      const char *path, uint32_t lbs, uint64_t size, lst_err *err);

/* The buffer a replay's slot needs: t's largest I/O in whole pages (at least one). */
uint64_t lst_tracedir_slot_bytes(const struct lst_trace *t);

/* How many of t's records write or trim (a replay of it needs write access). */
size_t lst_tracedir_writes(const struct lst_trace *t);

#endif
