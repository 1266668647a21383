/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results folder's writer lock (lst_folder_lock): a second taker is refused naming the
 * first (flock conflicts between two open files even in one process), a missing folder is made
 * and said, a released lock leaves no file and can be taken again, a stale lock file (no flock
 * on it) is no obstacle, and a .lock that is not ours (another program's file, a FIFO, a
 * symlink) is refused and left exactly as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_folder_lock.h"
#include "lst_test.h"
#include "lst_util.h"

static char s_top[64];

static char *s_path(const char *name)
{
	return lst_asprintf("%s/%s", s_top, name);
}

static void s_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	T_ASSERT(f);
	fputs(text, f);
	fclose(f);
}

static void s_one_writer(void)
{
	char *dir = s_path("new/run"), *lock = s_path("new/run/.lock"), *text;
	lst_folder_lock *a, *b;
	size_t len;
	lst_err err;
	char want[64];

	a = lst_folder_lock_take(dir, "run", &err);
	T_ASSERT(a);
	T_ASSERT(lst_folder_lock_made(a));
	T_ASSERT(!lst_read_file(lock, 4096, &text, &len));
	snprintf(want, sizeof(want), "lockstep run, pid %ld on host ", (long)getpid());
	T_CONTAINS(text, want);
	free(text);
	b = lst_folder_lock_take(dir, "resume", &err);
	T_ASSERT(!b);
	T_EQ_INT(err.code, -EBUSY);
	T_CONTAINS(err.msg, "is being written by lockstep run, pid");
	lst_folder_lock_release(&a);
	T_ASSERT(!a);
	T_ASSERT(access(lock, F_OK) && errno == ENOENT);
	lst_folder_lock_release(&a); /* twice is safe */
	b = lst_folder_lock_take(dir, "resume", &err);
	T_ASSERT(b);
	T_ASSERT(!lst_folder_lock_made(b));
	lst_folder_lock_release(&b);
	free(dir);
	free(lock);
}

static void s_stale(void)
{
	char *dir = s_path("stale"), *lock = s_path("stale/.lock");
	lst_folder_lock *l;
	lst_err err;

	T_ASSERT(!mkdir(dir, 0755));
	s_write(lock, "lockstep run, pid 1 on host gone, since 2026-01-01T00:00:00Z\n");
	l = lst_folder_lock_take(dir, "resume", &err);
	T_ASSERT(l);
	lst_folder_lock_release(&l);
	free(dir);
	free(lock);
}

static void s_not_ours(void)
{
	char *dir = s_path("home"), *lock = s_path("home/.lock"), *text;
	lst_folder_lock *l;
	size_t len;
	lst_err err;

	T_ASSERT(!mkdir(dir, 0755));
	s_write(lock, "someone else's\n");
	l = lst_folder_lock_take(dir, "run", &err);
	T_ASSERT(!l);
	T_CONTAINS(err.msg, "is not a lockstep lock file");
	T_ASSERT(!lst_read_file(lock, 4096, &text, &len));
	T_EQ_STR(text, "someone else's\n");
	free(text);
	T_ASSERT(!unlink(lock));
	T_ASSERT(!mkfifo(lock, 0644));
	T_ASSERT(!lst_folder_lock_take(dir, "run", &err));
	T_CONTAINS(err.msg, "not a regular file");
	T_ASSERT(!unlink(lock));
	T_ASSERT(!symlink("/etc/passwd", lock));
	T_ASSERT(!lst_folder_lock_take(dir, "run", &err));
	T_EQ_INT(err.code, -ELOOP);
	T_ASSERT(!unlink(lock));
	free(dir);
	free(lock);
}

int main(void)
{
	snprintf(s_top, sizeof(s_top), "/tmp/lst-folder-lock.XXXXXX");
	T_ASSERT(mkdtemp(s_top));
	s_one_writer();
	s_stale();
	s_not_ours();
	{
		char *rm = lst_asprintf("rm -rf '%s'", s_top);

		T_ASSERT(!system(rm));
		free(rm);
	}
	return 0;
}
