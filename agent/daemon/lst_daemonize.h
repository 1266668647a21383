/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Daemonizing lockstep-agent: fork and detach with a start-up report to the parent, and the
 * pidfile. Call before any thread or ZeroMQ context exists (neither survives fork).
 */
#ifndef LST_DAEMONIZE_H
#define LST_DAEMONIZE_H

#include "lst_err.h"

/*
 * Detach: fork, setsid, chdir /, stdio to /dev/null. The parent waits on a pipe until the
 * daemon reports that it is listening (byte 0) or failed (byte 1), and exits with that status,
 * so `lockstep-agent` run by hand or by a script still says whether the agent started (log
 * names the log file for the parent's message). Returns the write end of the pipe in the
 * daemon, for lst_daemonize_notify, or -errno.
 */
int lst_daemonize(const char *log);

/* Report the start-up status (0 listening, 1 failed) to the waiting parent and close fd.
 * Nothing happens when fd < 0 (not daemonized, or already reported). */
void lst_daemonize_notify(int fd, char status);

/* Write this process's pid to path, a regular file by lst_file's rule (never through a symlink,
 * a FIFO or a device). Returns 0 or -errno with err naming it. */
int lst_pidfile_write(const char *path, lst_err *err);

/* Remove the pidfile only if it still names this process. */
void lst_pidfile_remove(const char *path);

#endif
