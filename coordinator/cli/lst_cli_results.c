/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results folder as `lockstep run` and `lockstep demo` meet it (see lst_cli_results.h).
 *
 * A folder given with -o must be new or empty, so a run never mixes its files with another's,
 * and is locked (lst_folder_lock) before it is looked at, so no other lockstep writes it
 * meanwhile. A failed run that started a point leaves its folder behind (one that did not takes
 * it back: lst_cli_unmake_dir); rather than only refusing, the refusal reads the folder's
 * run.json and says what to do with it (resume it, replace it, or pick another -o).
 * --overwrite empties a folder only when it holds a run.json: a lockstep results folder, never a
 * home directory given by mistake.
 */
#include "lst_cli_results.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_folder_lock.h"
#include "lst_report.h"
#include "lst_report_plan.h"
#include "lst_report_show.h"
#include "lst_util.h"

/* Whether something is at dir that a new results folder cannot start from: a file, a link, or
 * a folder that is not empty (or cannot be read). */
static bool s_occupied(const char *dir)
{
	struct stat st;
	struct dirent *e;
	bool any = false;
	DIR *d;

	if (lstat(dir, &st))
		return false;
	if (!S_ISDIR(st.st_mode))
		return true;
	d = opendir(dir);
	if (!d)
		return true;
	while (!any && (e = readdir(d)))
		any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		      !lst_folder_lock_is_file(e->d_name); /* our own lock, taken first */
	closedir(d);
	return any;
}

/* dir/run.json read, when dir is a real folder (not a link) that holds one as a regular file:
 * a new reference; an empty object when it does not parse. NULL when dir holds none. */
static json_t *s_run_json(const char *dir)
{
	char *path = lst_asprintf("%s/run.json", dir);
	struct stat st;
	json_t *run = NULL;

	if (!lstat(dir, &st) && S_ISDIR(st.st_mode) && !lstat(path, &st) && S_ISREG(st.st_mode)) {
		run = json_load_file(path, 0, NULL);
		if (!json_is_object(run)) {
			json_decref(run);
			run = json_object();
		}
	}
	free(path);
	return run;
}

static int s_remove(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level == 0) /* the folder itself stays, empty */
		return 0;
	if (ftw->level == 1 && lst_folder_lock_is_file(path + ftw->base))
		return 0; /* the lock we hold while we empty it */
	return remove(path) ? errno : 0;
}

/* Empty dir, depth first, links removed and not followed, on dir's file system only. */
static int s_empty(const char *dir)
{
	int rc = nftw(dir, s_remove, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);

	return rc > 0 ? -rc : rc ? -errno : 0;
}

/* One line on stderr saying why dir is refused and what to do instead. */
static void s_refuse(const char *cmd, const char *dir, const json_t *run)
{
	const char *status = json_string_value(json_object_get(run, "status"));
	const char *id = json_string_value(json_object_get(run, "run_id"));

	if (!run)
		fprintf(stderr,
			"lockstep %s: results folder %s already exists and is not empty, and it is "
			"not a lockstep results folder (no run.json); pick another -o\n",
			cmd, dir);
	else if (id && (!status || !strcmp(status, "interrupted")))
		fprintf(stderr,
			"lockstep %s: results folder %s already exists and is not empty: it holds "
			"run %s, %s; finish it with 'lockstep resume %s', or replace it with "
			"--overwrite, or pick another -o\n",
			cmd, dir, id, status ? "interrupted" : "not finished", dir);
	else
		fprintf(stderr,
			"lockstep %s: results folder %s already exists and is not empty: it holds "
			"run %s (status %s); remove it or replace it with --overwrite, or pick "
			"another -o\n",
			cmd, dir, id ? id : "?", status ? status : "unknown");
}

int lst_cli_results_dir(const char *cmd, const char *dir, bool overwrite)
{
	json_t *run;
	int rc;

	if (!s_occupied(dir))
		return 0;
	run = s_run_json(dir);
	if (!overwrite || !run) {
		if (overwrite)
			fprintf(stderr,
				"lockstep %s: --overwrite: %s is not a lockstep results folder (no "
				"run.json): left as it is; remove it yourself or pick another -o\n",
				cmd, dir);
		else
			s_refuse(cmd, dir, run);
		json_decref(run);
		return 2;
	}
	json_decref(run);
	rc = s_empty(dir);
	if (rc) {
		fprintf(stderr, "lockstep %s: --overwrite: cannot empty %s: %s\n", cmd, dir,
			strerror(-rc));
		return 2;
	}
	return 0;
}

lst_folder_lock *lst_cli_lock_dir(const char *cmd, const char *dir)
{
	lst_folder_lock *l;
	lst_err err;

	l = lst_folder_lock_take(dir, cmd, &err);
	if (!l)
		fprintf(stderr, "lockstep %s: %s\n", cmd, err.msg);
	return l;
}

void lst_cli_unmake_dir(const char *cmd, const char *dir, const lst_folder_lock *lock)
{
	int rc = s_empty(dir);

	if (!rc && lst_folder_lock_made(lock)) {
		/* the lock file goes with the folder; its flock ends at the release */
		char *path = lst_asprintf("%s/%s", dir, LST_FOLDER_LOCK_NAME);

		if (unlink(path) || rmdir(dir))
			rc = -errno;
		free(path);
	}
	if (rc)
		fprintf(stderr, "lockstep %s: no point started, but %s could not be removed: %s\n",
			cmd, dir, strerror(-rc));
	else if (lst_folder_lock_made(lock))
		fprintf(stderr,
			"lockstep %s: no point started: removed the results folder %s this run "
			"made (the errors above say why)\n",
			cmd, dir);
	else
		fprintf(stderr,
			"lockstep %s: no point started: emptied %s again (the errors above say "
			"why)\n",
			cmd, dir);
}

void lst_cli_unlock_dir(lst_folder_lock **lock, const char *dir)
{
	bool made = *lock && lst_folder_lock_made(*lock);

	lst_folder_lock_release(lock);
	if (made)
		rmdir(dir); /* only when empty: a command refused before it wrote anything */
}

void lst_cli_print_summary(FILE *f, const char *dir)
{
	char *path = lst_asprintf("%s/summary.json", dir);
	bool ended = !access(path, F_OK);
	lst_report *r;
	lst_err err;

	free(path);
	/* a run that ended no point has no summary.json: no table, and no word of the reader's
	 * about the missing file (the run has said what went wrong) */
	if (!ended)
		return;
	r = lst_report_load(dir, lst_report_plan_read, &err);
	if (!r) {
		fprintf(f, "\nno summary: %s\n", err.msg);
		return;
	}
	lst_report_print_summary(f, r);
	lst_report_destroy(&r);
}

void lst_cli_line_buffered(void)
{
	if (!isatty(fileno(stdout)))
		setvbuf(stdout, NULL, _IOLBF, 0);
	if (!isatty(fileno(stderr)))
		setvbuf(stderr, NULL, _IOLBF, 0);
}
