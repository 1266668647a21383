/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one logger: levels, debug categories, one line per event.
 *
 * The level is checked before any argument is built (the macros test a global first), so a
 * disabled debug line costs one load and one branch. Nothing is logged per I/O. Lines go to
 * stderr unless lst_log_open() names a file; each line is written with a single stdio call, so
 * lines from different threads do not interleave.
 *
 * Format: "2026-11-30T04:38:16.123Z lockstep-agent[812] warn: message" when timestamps are on
 * (daemons), "lockstep: warning: message" otherwise (commands run by a person).
 */
#ifndef LST_LOG_H
#define LST_LOG_H

#include <stdbool.h>
#include <stdio.h>

#include "lst_err.h"

enum lst_log_level {
	LST_LOG_ERROR = 0,
	LST_LOG_WARN = 1,
	LST_LOG_INFO = 2,
	LST_LOG_DEBUG = 3,
};

/* Debug categories, enabled with --debug=io,net,... */
enum lst_dbg {
	LST_DBG_IO = 1u << 0,	 /* engines and jobs (per batch, never per I/O) */
	LST_DBG_NET = 1u << 1,	 /* sockets, connections, heartbeats */
	LST_DBG_TIME = 1u << 2,	 /* clock offsets, start instants */
	LST_DBG_PLAN = 1u << 3,	 /* plan parsing and expansion */
	LST_DBG_PROTO = 1u << 4, /* every message in and out */
	LST_DBG_DEV = 1u << 5,	 /* device checks and identities */
	LST_DBG_ALL = 0xffffffffu,
};

extern int lst__log_level;
extern unsigned lst__log_debug;

void lst__log(int level, unsigned cat, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define lst_log_error(...) lst__log(LST_LOG_ERROR, 0, __VA_ARGS__)
#define lst_log_warn(...)                                                                          \
	do {                                                                                       \
		if (lst__log_level >= LST_LOG_WARN)                                                \
			lst__log(LST_LOG_WARN, 0, __VA_ARGS__);                                    \
	} while (0)
#define lst_log_info(...)                                                                          \
	do {                                                                                       \
		if (lst__log_level >= LST_LOG_INFO)                                                \
			lst__log(LST_LOG_INFO, 0, __VA_ARGS__);                                    \
	} while (0)
#define lst_log_debug(cat, ...)                                                                    \
	do {                                                                                       \
		if (lst__log_debug & (cat))                                                        \
			lst__log(LST_LOG_DEBUG, (cat), __VA_ARGS__);                               \
	} while (0)

/* Program name shown on every line; borrowed, must outlive the logger. */
void lst_log_set_ident(const char *ident);
void lst_log_set_level(int level);
/* Prefix lines with an ISO-8601 UTC timestamp and the pid (daemons). */
void lst_log_set_timestamps(bool on);

/*
 * The categories of a comma-separated list ("io,net", "all") as a mask, without enabling them.
 * Returns 0, or -EINVAL when a name is unknown; *bad then points at it (borrowed).
 */
int lst_log_parse_debug(const char *list, unsigned *mask, const char **bad);

/* Enable the categories of list (lst_log_parse_debug); on -EINVAL the set is left unchanged. */
int lst_log_set_debug(const char *list, const char **bad);

/* Names of the debug categories, for --help. */
const char *lst_log_debug_names(void);

/* Send lines to a file (appending) instead of stderr; the file is opened by lst_file's rule
 * (lst_file_open_write with LST_FILE_STREAM: a symlink, a block device or a FIFO without a
 * reader is refused). Returns 0 or -errno with err (may be NULL) naming the file. */
int lst_log_open(const char *path, lst_err *err);
void lst_log_close(void);

#endif
