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
#include "lst_steady.h"
#include "lst_text.h"
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

/* One line of the closing table: a point's figures, or (text set) a sentence about it. */
struct s_row {
	const char *phase;
	char label[192];
	double iops, mbps, mean, p99, p9999;
	char text[256];
};

struct s_table {
	struct s_row *rows;
	size_t n;
};

static struct s_row *s_row_add(struct s_table *tb, const char *phase, const char *label)
{
	struct s_row *row;

	tb->rows = lst_realloc(tb->rows, (tb->n + 1) * sizeof(*tb->rows));
	row = &tb->rows[tb->n++];
	memset(row, 0, sizeof(*row));
	row->phase = phase;
	lst_copy(row->label, sizeof(row->label), label);
	return row;
}

static void s_row_point(struct s_table *tb, const struct lst_rpt_point *p, const char *label)
{
	struct s_row *row = s_row_add(tb, p->phase, label);

	row->iops = p->iops[0] + p->iops[1];
	row->mbps = p->mbps[0] + p->mbps[1];
	row->mean = p->lat_mean;
	row->p99 = p->lat_p99;
	row->p9999 = p->lat_p99_99;
}

/* The rows of a test with a verdict: each point's window average, then the verdict. */
static void s_rows_window(struct s_table *tb, const struct lst_rpt_test *t)
{
	char phrase[128], stop[160];

	for (size_t k = 0; k < t->nwindow; k++) {
		const struct lst_rpt_window *w = &t->win[k];
		struct s_row *row = s_row_add(tb, t->phase, w->label);

		if (strcmp(w->label, t->test))
			snprintf(row->label, sizeof(row->label), "%s: %s", t->test, w->label);
		row->iops = w->iops;
		row->mbps = w->mbps;
		row->mean = w->lat_mean;
		row->p99 = w->lat_p99;
		row->p9999 = w->lat_p99_99;
	}
	lst_steady_phrase(t->steady, t->rounds, t->window_first, t->window_last, t->stop,
			  t->capacity_multiple, phrase, sizeof(phrase));
	snprintf(s_row_add(tb, "", "")->text, sizeof(tb->rows->text), "%s: window average, %s%s%s",
		 t->test, phrase,
		 t->stop == LST_STOP_CAPACITY || t->stop == LST_STOP_BYTES ? "; " : "",
		 t->stop == LST_STOP_CAPACITY || t->stop == LST_STOP_BYTES
			 ? lst_stop_text(t->stop, t->rounds, t->bytes_written, t->capacity_multiple,
					 stop, sizeof(stop))
			 : "");
}

/* What a phase's purge or bounded write did, for point p (NULL when it has no such record). */
static const struct lst_rpt_work *s_work(const lst_report *r, const struct lst_rpt_point *p)
{
	for (size_t i = 0; i < r->nworks; i++)
		if (!strcmp(r->works[i].phase, p->phase) && !strcmp(r->works[i].test, p->test))
			return &r->works[i];
	return NULL;
}

/* The closing table's rows: a point each (a suite's test: its points' window averages and
 * its verdict, not every round), each path's share under its point. */
static void s_rows(const lst_report *r, struct s_table *tb)
{
	const struct lst_rpt_test **done = lst_calloc(r->ntests + 1, sizeof(*done));
	size_t ndone = 0;

	for (size_t i = 0; i < r->npoints; i++) {
		const struct lst_rpt_point *p = &r->points[i];
		const struct lst_rpt_test *t =
			p->round > 0 ? lst_report_test(r, p->phase, p->test) : NULL;
		const struct lst_rpt_work *w = s_work(r, p);
		bool seen = false;

		if (strcmp(p->agent, "all"))
			continue;
		if (t && t->nwindow) {
			for (size_t k = 0; k < ndone; k++)
				seen |= done[k] == t;
			if (!seen) {
				done[ndone++] = t;
				s_rows_window(tb, t);
			}
			continue;
		}
		if (w && !strcmp(w->did, "discard")) {
			/* no I/O to count: what it did, not a row of zeros */
			lst_report_work_text(w, s_row_add(tb, p->phase, p->label)->text,
					     sizeof(tb->rows->text));
			continue;
		}
		s_row_point(tb, p, *p->label ? p->label : "-");
		for (size_t k = 0; k < r->nparts; k++) {
			const struct lst_rpt_point *q = &r->parts[k];
			char who[192];

			if (q->point != p->point || strcmp(q->phase, p->phase) ||
			    strcmp(q->scope, "path"))
				continue;
			snprintf(who, sizeof(who), "  %s:%s", q->agent, q->path);
			s_row_point(tb, q, who);
			tb->rows[tb->n - 1].phase = "";
		}
		if (w)
			lst_report_work_text(w, s_row_add(tb, "", "")->text,
					     sizeof(tb->rows->text));
	}
	free(done);
}

void lst_cli_print_summary(FILE *f, const char *dir)
{
	struct s_table tb = { 0 };
	int wphase = 5, wlabel = 5;
	lst_err err;
	lst_report *r = lst_report_load(dir, NULL, &err);

	if (!r)
		return;
	s_rows(r, &tb);
	for (size_t i = 0; i < tb.n; i++) {
		wphase = LST_MAX(wphase, (int)strlen(tb.rows[i].phase));
		if (!*tb.rows[i].text || *tb.rows[i].label)
			wlabel = LST_MAX(wlabel, (int)strlen(tb.rows[i].label));
	}
	if (tb.n) /* no table without a row */
		fprintf(f, "\n%-*s  %-*s %10s %9s %10s %10s %10s\n", wphase, "phase", wlabel,
			"point", "IOPS", "MB/s", "mean us", "p99 us", "p99.99 us");
	for (size_t i = 0; i < tb.n; i++) {
		const struct s_row *row = &tb.rows[i];

		if (*row->text && !*row->label)
			fprintf(f, "%-*s    %s\n", wphase, row->phase, row->text);
		else if (*row->text)
			fprintf(f, "%-*s  %-*s %s\n", wphase, row->phase, wlabel, row->label,
				row->text);
		else
			fprintf(f, "%-*s  %-*s %10.0f %9.1f %10.1f %10.1f %10.1f\n", wphase,
				row->phase, wlabel, row->label, row->iops, row->mbps, row->mean,
				row->p99, row->p9999);
	}
	free(tb.rows);
	lst_report_destroy(&r);
}

void lst_cli_line_buffered(void)
{
	if (!isatty(fileno(stdout)))
		setvbuf(stdout, NULL, _IOLBF, 0);
	if (!isatty(fileno(stderr)))
		setvbuf(stderr, NULL, _IOLBF, 0);
}
