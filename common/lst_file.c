/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opening, creating and placing files by one rule (lst_file.h): regular files only, created
 * new, in folders only root or this user can change.
 */
#include "lst_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_util.h"

/* What a file that is not a regular file is, for errors. */
static const char *s_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISLNK(mode))
		return "a symlink";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISDIR(mode))
		return "a folder";
	return "not a regular file";
}

/*
 * fd, opened with O_NONBLOCK so that a FIFO's open could not wait, once its kind is known: its
 * reads and writes block as usual again. Returns fd, or closes it and returns -errno with err.
 */
static int s_blocking(int fd, const char *what, const char *path, lst_err *err)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		int rc = lst_err_sys(err, -errno, "%s %s: fcntl", what, path);

		close(fd);
		return rc;
	}
	return fd;
}

int lst_file_open_read(const char *path, const char *what, unsigned flags, uint64_t max,
		       struct stat *st, lst_err *err)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	/* cppcheck-suppress uninitvar ; only sb's address is taken here, fstat fills it below */
	struct stat sb, *s = st ? st : &sb;
	int fd, rc;

	if (flags & LST_FILE_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	fd = open(path, oflags);
	if (fd < 0 && errno == ELOOP && (flags & LST_FILE_NOFOLLOW))
		return lst_err_set(err, -ELOOP, "%s %s: a symlink, not a regular file; not read",
				   what, path);
	if (fd < 0)
		return lst_err_sys(err, -errno, "%s %s: cannot open it", what, path);
	if (fstat(fd, s)) {
		rc = lst_err_sys(err, -errno, "%s %s: cannot stat it", what, path);
		goto out_close;
	}
	if (!S_ISREG(s->st_mode)) {
		rc = lst_err_set(err, S_ISDIR(s->st_mode) ? -EISDIR : -EINVAL,
				 "%s %s: %s, not a regular file; not read", what, path,
				 s_kind(s->st_mode));
		goto out_close;
	}
	if (max && (uint64_t)s->st_size > max) {
		rc = lst_err_set(err, -EFBIG,
				 "%s %s: %llu bytes, more than the %llu this reads; not read", what,
				 path, (unsigned long long)s->st_size, (unsigned long long)max);
		goto out_close;
	}
	return s_blocking(fd, what, path, err);

out_close:
	close(fd);
	return rc;
}

int lst_file_read(const char *path, const char *what, size_t max, char **out, size_t *len,
		  lst_err *err)
{
	int fd = lst_file_open_read(path, what, 0, max, NULL, err);
	size_t cap = 4096, n = 0;
	char *buf;
	int rc = 0;

	if (fd < 0)
		return fd;
	buf = lst_malloc(cap + 1);
	/* Read up to max + 1 bytes: one byte past the limit proves the file is too large (a file
	 * of /proc says size 0 and has more). */
	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap *= 2;
			buf = lst_realloc(buf, cap + 1);
		}
		r = read(fd, buf + n, (cap < max + 1 ? cap : max + 1) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = lst_err_sys(err, -errno, "%s %s: read", what, path);
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			rc = lst_err_set(err, -EFBIG, "%s %s: more than the %zu bytes this reads",
					 what, path, max);
			break;
		}
	}
	close(fd);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int lst_file_open_write(const char *path, const char *what, unsigned flags, mode_t mode,
			lst_err *err)
{
	int fd =
		open(path,
		     O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		     mode);
	struct stat st;
	bool stream;
	int rc;

	if (fd < 0 && errno == ELOOP)
		return lst_err_set(err, -ELOOP, "%s %s: a symlink; not written through it", what,
				   path);
	if (fd < 0 && errno == ENXIO)
		return lst_err_set(err, -ENXIO, "%s %s: a FIFO that nobody reads; not written",
				   what, path);
	if (fd < 0)
		return lst_err_sys(err, -errno, "%s %s: cannot open it", what, path);
	if (fstat(fd, &st)) {
		rc = lst_err_sys(err, -errno, "%s %s: cannot stat it", what, path);
		goto out_close;
	}
	stream = (flags & LST_FILE_STREAM) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
	if (!S_ISREG(st.st_mode) && !stream) {
		rc = lst_err_set(err, -EINVAL, "%s %s: %s, not a regular file; not written", what,
				 path, s_kind(st.st_mode));
		goto out_close;
	}
	if ((flags & LST_FILE_TRUNC) && S_ISREG(st.st_mode) && ftruncate(fd, 0)) {
		rc = lst_err_sys(err, -errno, "%s %s: cannot empty it", what, path);
		goto out_close;
	}
	return s_blocking(fd, what, path, err);

out_close:
	close(fd);
	return rc;
}

int lst_file_name_free(const char *path, const char *what, lst_err *err)
{
	struct stat st;
	char who[128];

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : lst_err_sys(err, -errno, "%s %s", what, path);
	/* A leftover of ours: a regular file of this user that no other name shares. */
	if (S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1 && !unlink(path))
		return 0;
	if (S_ISREG(st.st_mode))
		return lst_err_set(err, -EEXIST,
				   "%s %s: already exists, owned by %s with %u link(s); not "
				   "written through it: remove it",
				   what, path, lst_uid_text(st.st_uid, who, sizeof(who)),
				   (unsigned)st.st_nlink);
	return lst_err_set(err, -EEXIST,
			   "%s %s: already exists as %s; not written through it: remove it", what,
			   path, s_kind(st.st_mode));
}

int lst_file_create(const char *path, const char *what, mode_t mode, lst_err *err)
{
	int oflags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;
	int fd = open(path, oflags, mode), rc;

	if (fd < 0 && errno == EEXIST) {
		if ((rc = lst_file_name_free(path, what, err)))
			return rc;
		fd = open(path, oflags, mode); /* a race lost here fails with EEXIST: refused */
	}
	if (fd >= 0)
		return fd;
	if (errno == EEXIST)
		return lst_err_set(err, -EEXIST,
				   "%s %s: something appeared there while it was being created; "
				   "not written",
				   what, path);
	return lst_err_sys(err, -errno, "%s %s: cannot create it", what, path);
}

bool lst_file_owner_ok(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

const char *lst_uid_text(uid_t uid, char *buf, size_t size)
{
	struct passwd pw, *res = NULL;
	char sbuf[1024];

	if (!getpwuid_r(uid, &pw, sbuf, sizeof(sbuf), &res) && res)
		snprintf(buf, size, "uid %u (%s)", (unsigned)uid, res->pw_name);
	else
		snprintf(buf, size, "uid %u", (unsigned)uid);
	return buf;
}

int lst_dir_check_parents(const char *dir, const char *what, lst_err *err)
{
	char real[PATH_MAX], who[128];
	struct stat st;

	if (!realpath(dir, real))
		return lst_err_sys(err, -errno, "%s: cannot resolve %s", what, dir);
	for (char *slash; (slash = strrchr(real, '/'));) {
		slash[slash == real] = 0;
		if (stat(real, &st))
			return lst_err_sys(err, -errno, "%s: cannot stat %s", what, real);
		if (!lst_file_owner_ok(st.st_uid))
			return lst_err_set(
				err, -EACCES,
				"%s: %s, a folder above %s, is owned by %s, "
				"not by root or uid %u that the agent runs as, so that user "
				"could put another folder in its place; chown root %s",
				what, real, dir, lst_uid_text(st.st_uid, who, sizeof(who)),
				(unsigned)geteuid(), real);
		if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))
			return lst_err_set(err, -EACCES,
					   "%s: %s, a folder above %s, is writable by "
					   "group or others (mode %04o), so they could put another "
					   "folder in its place; chmod go-w %s",
					   what, real, dir, (unsigned)(st.st_mode & 07777), real);
		if (slash == real)
			break;
	}
	return 0;
}

int lst_file_check_owned(const char *path, const char *what, const char *risk, lst_err *err)
{
	char real[PATH_MAX], who[128];
	const char *arrow;
	struct stat st;

	if (!realpath(path, real) || stat(real, &st))
		return lst_err_sys(err, -errno, "%s: cannot resolve %s", what, path);
	arrow = strcmp(path, real) ? " -> " : ""; /* a symlink is judged by what it leads to */
	if (st.st_mode & 022)
		return lst_err_set(err, -EACCES,
				   "%s: %s%s%s is writable by group or others (mode %04o), so they "
				   "could %s; chmod go-w %s",
				   what, path, arrow, *arrow ? real : "",
				   (unsigned)(st.st_mode & 07777), risk, real);
	if (!lst_file_owner_ok(st.st_uid))
		return lst_err_set(err, -EACCES,
				   "%s: %s%s%s is owned by %s, not by root or uid %u that the "
				   "agent runs as, so that user could %s; chown root %s",
				   what, path, arrow, *arrow ? real : "",
				   lst_uid_text(st.st_uid, who, sizeof(who)), (unsigned)geteuid(),
				   risk, real);
	return lst_dir_check_parents(real, what, err);
}

int lst_dir_check_owned(const char *dir, const struct stat *st, const char *what, const char *risk,
			lst_err *err)
{
	struct stat sb;

	if (!st) {
		if (stat(dir, &sb))
			return lst_err_sys(err, -errno, "%s: cannot stat %s", what, dir);
		st = &sb;
	}
	if (!S_ISDIR(st->st_mode))
		return lst_err_set(err, -ENOTDIR, "%s: %s is not a folder", what, dir);
	return lst_file_check_owned(dir, what, risk, err);
}

int lst_read_file(const char *path, size_t max, char **out, size_t *len)
{
	return lst_file_read(path, "file", max, out, len, NULL);
}
