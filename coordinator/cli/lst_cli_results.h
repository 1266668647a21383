/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What `lockstep run` and `lockstep demo` share about the results folder they write: whether a
 * folder given with -o may be used (and, with --overwrite, emptying one that holds an earlier
 * run), and the summary table printed at the end of a run.
 */
#ifndef LST_CLI_RESULTS_H
#define LST_CLI_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

#include "lst_folder_lock.h"

/*
 * Make dir usable as a new results folder, for the command cmd ("run"). A folder that does not
 * exist or is empty is used as it is. One that holds files is refused with one line on stderr
 * that says what to do: `lockstep resume DIR` when it holds a run that can be resumed (its
 * run.json has no status or "interrupted"), --overwrite when it holds a lockstep results
 * folder, another -o in every case. With overwrite, a folder that holds a run.json (a lockstep
 * results folder) is emptied (never following a symbolic link, never crossing into another
 * file system); anything else is left alone and refused. Returns 0, or 2 (the usage exit code)
 * after saying why.
 */
int lst_cli_results_dir(const char *cmd, const char *dir, bool overwrite);

/*
 * Take dir's writer lock for the command cmd ("run", "resume", "verify"), making dir when it is
 * missing: before anything reads, empties or writes the folder. Returns the lock, or NULL after
 * one line on stderr (another lockstep holds it: its pid and host); the caller exits 2.
 */
lst_folder_lock *lst_cli_lock_dir(const char *cmd, const char *dir);

/*
 * For a run that ended before any point started: take back what it wrote into dir, whose lock
 * it still holds, and say so on stderr. The folder goes when the run made it
 * (lst_folder_lock_made); one that existed (empty, or emptied by --overwrite) is left empty.
 */
void lst_cli_unmake_dir(const char *cmd, const char *dir, const lst_folder_lock *lock);

/*
 * Give up dir's lock (lst_folder_lock_release), and remove dir when the lock made it and it is
 * still empty: a command refused before it wrote anything leaves no folder. NULL-safe.
 */
void lst_cli_unlock_dir(lst_folder_lock **lock, const char *dir);

/*
 * The summary of the results folder dir to f, as lst_report_print_summary gives it (the points
 * tables `lockstep report` prints, with the rows per agent, target and path, and the port
 * scaling; a suite's test gives its verdict and its points' window averages instead of a row
 * per round). Prints nothing, not even a header, when the folder has no summary.json (the run
 * ended no point) or no point; one line saying why when the folder cannot be read.
 */
void lst_cli_print_summary(FILE *f, const char *dir);

/* Standard output and standard error line-buffered when they are not a terminal, so a log or a
 * pipe gets whole lines in the order they were written. Call before any output. */
void lst_cli_line_buffered(void);

#endif
