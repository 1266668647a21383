/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A helper program run as a child process with a timeout, keeping the tail of its output
 * (stdout and stderr together) for error messages. Used by the plots to run gnuplot. Also a
 * long-running child (the demo's agents): started in the background, stopped by its pid.
 */
#ifndef LST_PROC_H
#define LST_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* The executable name (no '/') found in PATH ("/usr/bin:/bin" when unset): a full path the
 * caller frees, or NULL when there is none. */
char *lst_proc_which(const char *name);

/*
 * Run argv (argv[0] a full path, argv NULL-terminated) in dir (NULL: the current folder) with
 * stdin /dev/null; out (size >= 2) receives the last size - 1 bytes of its stdout and stderr,
 * NUL-terminated. Returns its exit status (128 + signal when killed by one), -ETIMEDOUT after
 * timeout_s seconds (it is then killed and reaped), or -errno when it could not be started.
 * Not thread-safe with other code that reaps children by waiting for any pid.
 */
int lst_proc_run(const char *dir, const char *const argv[], int timeout_s, char *out, size_t size);

/* The last three non-empty lines of out (lines of only blanks and '^' skipped), joined with
 * " | ", into buf; "(no output)" when there are none. */
void lst_proc_last_lines(const char *out, char *buf, size_t size);

/*
 * Start argv (argv[0] a full path, argv NULL-terminated) in the background with stdin
 * /dev/null and its stdout and stderr inherited. Returns its pid, or -errno when it could not be
 * forked; an exec that fails makes the child exit 127 with a line on stderr. The caller stops
 * it with lst_proc_stop.
 */
pid_t lst_proc_spawn(const char *const argv[]);

/* Send SIGTERM to pid (> 0) and reap it. Returns its exit status as lst_proc_run does, or
 * -errno when it cannot be waited for. */
int lst_proc_stop(pid_t pid);

#endif
