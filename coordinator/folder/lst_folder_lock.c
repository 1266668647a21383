/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The results folder's writer lock (see lst_folder_lock.h): flock(2) on DIR/.lock.
 *
 * Giving the lock up removes the file before closing it, so a finished run leaves no .lock
 * behind. That opens one race, handled in s_lock: a second writer may have opened the old file
 * just before it was removed and then gets the flock of a file no longer in the folder, while a
 * third creates a new one. So a lock only counts when the file locked is still the one at
 * DIR/.lock; otherwise it is taken again on the new file.
 */
#include "lst_folder_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_time.h"
#include "lst_util.h"

struct lst_folder_lock {
	char *path; /* DIR/.lock */
	int fd;
	bool made; /* the folder did not exist before */
};

/* The holder's text, read from the locked file fd, on one line: "pid 4242 on host h1 ..." */
static void s_holder(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '\n' || (unsigned char)*p < ' ')
			*p = ' ';
	n = (ssize_t)strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = 0;
	if (!*buf)
		snprintf(buf, size, "a process that has not said who it is yet");
}

/* Whether fd is still the file at path (not one removed by the holder before us). */
static bool s_current(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !lstat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * Whether fd may be our lock file: a regular file, empty (just made) or in our own format. A
 * .lock of some other program's (in a folder given by mistake) is never rewritten or removed.
 */
static int s_ours(int fd, const char *dir, const char *path, lst_err *err)
{
	static const char magic[] = "lockstep ";
	char head[sizeof(magic) - 1];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st))
		return lst_err_sys(err, -errno, "results folder %s: %s", dir, path);
	if (!S_ISREG(st.st_mode))
		return lst_err_set(err, -EINVAL,
				   "results folder %s: %s is not a regular file, so not a lockstep "
				   "lock file; left alone",
				   dir, path);
	n = pread(fd, head, sizeof(head), 0);
	if (n > 0 && ((size_t)n < sizeof(head) || memcmp(head, magic, sizeof(head))))
		return lst_err_set(err, -EEXIST,
				   "results folder %s: %s is not a lockstep lock file (another "
				   "program's?); left alone: pick another folder",
				   dir, path);
	return 0;
}

/* Open and flock path; the fd, or -errno (-EBUSY: held, said in err). */
static int s_lock(const char *dir, const char *path, lst_err *err)
{
	for (int tries = 0; tries < 100; tries++) {
		int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		char who[512];
		int rc;

		if (fd < 0)
			return lst_err_sys(err, -errno,
					   "results folder %s: cannot open its lock file %s", dir,
					   path);
		if ((rc = s_ours(fd, dir, path, err))) {
			close(fd);
			return rc;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int code = -errno;

			if (code == -EWOULDBLOCK) {
				s_holder(fd, who, sizeof(who));
				close(fd);
				return lst_err_set(
					err, -EBUSY,
					"results folder %s is being written by %s (its lock "
					"%s is held); only one lockstep writes a folder at a "
					"time",
					dir, who, path);
			}
			close(fd);
			return lst_err_sys(err, code, "results folder %s: cannot lock %s", dir,
					   path);
		}
		if (s_current(fd, path))
			return fd;
		close(fd); /* the holder removed it as we took it: take the new one */
	}
	return lst_err_set(err, -EAGAIN, "results folder %s: its lock file %s keeps changing", dir,
			   path);
}

/* Say in the locked file fd who holds it. */
static int s_write_holder(int fd, const char *cmd)
{
	char host[256] = "", now[64], text[512];
	int n;

	gethostname(host, sizeof(host) - 1);
	n = snprintf(text, sizeof(text), "lockstep %s, pid %ld on host %s, since %s\n", cmd,
		     (long)getpid(), host, lst_time_iso8601(lst_real_ns(), now, sizeof(now)));
	if (ftruncate(fd, 0) || pwrite(fd, text, (size_t)n, 0) != n)
		return -errno;
	return 0;
}

lst_folder_lock *lst_folder_lock_take(const char *dir, const char *cmd, lst_err *err)
{
	struct stat st;
	lst_folder_lock *l;
	bool made = lstat(dir, &st) && errno == ENOENT;
	int rc, fd;

	if (made && (rc = lst_mkdir_p(dir)))
		return lst_err_sys(err, rc, "cannot create results folder %s", dir), NULL;
	l = lst_calloc(1, sizeof(*l));
	l->path = lst_asprintf("%s/%s", dir, LST_FOLDER_LOCK_NAME);
	l->made = made;
	fd = s_lock(dir, l->path, err);
	if (fd >= 0 && (rc = s_write_holder(fd, cmd))) {
		lst_err_sys(err, rc, "results folder %s: cannot write its lock file %s", dir,
			    l->path);
		unlink(l->path);
		close(fd);
		fd = rc;
	}
	if (fd < 0) {
		if (made) /* as it was: nothing there */
			rmdir(dir);
		free(l->path);
		free(l);
		return NULL;
	}
	l->fd = fd;
	return l;
}

bool lst_folder_lock_made(const lst_folder_lock *l)
{
	return l->made;
}

void lst_folder_lock_release(lst_folder_lock **p)
{
	lst_folder_lock *l = *p;

	if (!l)
		return;
	unlink(l->path); /* before the close: see the top of the file */
	close(l->fd);
	free(l->path);
	free(l);
	*p = NULL;
}

bool lst_folder_lock_is_file(const char *name)
{
	return !strcmp(name, LST_FOLDER_LOCK_NAME);
}
