/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_file: the one rule for files read and created for someone else. Regular files only (a
 * FIFO never waited on, a symlink refused where asked), files created new (a planted symlink,
 * a hard link or another kind of file refused and left alone, a leftover of ours replaced),
 * folders only root or this user can change, and the log's looser rule (a character device
 * will do, a FIFO nobody reads will not).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_file.h"
#include "lst_test.h"
#include "lst_util.h"

static char s_dir[] = "/tmp/lst-test-file.XXXXXX";

static char *s_path(const char *name)
{
	return lst_asprintf("%s/%s", s_dir, name);
}

static void s_put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	T_ASSERT(fd >= 0);
	T_EQ_INT(lst_write_all(fd, text, strlen(text)), 0);
	close(fd);
}

static void test_read(void)
{
	char *file = s_path("r.txt"), *fifo = s_path("r.fifo"), *link = s_path("r.link");
	char *text = NULL;
	size_t len = 0;
	lst_err err;
	int fd;

	s_put(file, "hello\n");
	T_EQ_INT(lst_file_read(file, "thing", 100, &text, &len, &err), 0);
	T_EQ_STR(text, "hello\n");
	T_EQ_INT(len, 6);
	free(text);
	T_EQ_INT(lst_file_read(file, "thing", 5, &text, &len, &err), -EFBIG);
	T_CONTAINS(err.msg, "thing ");
	T_EQ_INT(mkfifo(fifo, 0600), 0);
	T_EQ_INT(lst_file_read(fifo, "plan", 100, &text, &len, &err), -EINVAL);
	T_CONTAINS(err.msg, "r.fifo: a FIFO, not a regular file; not read");
	T_EQ_INT(lst_file_read(s_dir, "plan", 100, &text, &len, &err), -EISDIR);
	T_EQ_INT(symlink(file, link), 0);
	fd = lst_file_open_read(link, "trace", 0, 0, NULL, &err); /* followed unless asked */
	T_ASSERT(fd >= 0);
	close(fd);
	T_EQ_INT(lst_file_open_read(link, "trace", LST_FILE_NOFOLLOW, 0, NULL, &err), -ELOOP);
	T_CONTAINS(err.msg, "r.link: a symlink, not a regular file");
	T_EQ_INT(lst_read_file(fifo, 100, &text, &len), -EINVAL); /* the plain reader too */
	free(link);
	free(fifo);
	free(file);
}

static void test_create(void)
{
	char *victim = s_path("victim"), *name = s_path("c.tmp"), *hard = s_path("h.tmp");
	char *text = NULL;
	size_t len;
	lst_err err;
	int fd;

	s_put(victim, "precious");
	T_EQ_INT(symlink(victim, name), 0);
	T_EQ_INT(lst_file_name_free(name, "trace", &err), -EEXIST);
	T_CONTAINS(err.msg, "c.tmp: already exists as a symlink; not written through it");
	T_EQ_INT(lst_file_create(name, "trace", 0600, &err), -EEXIST);
	T_EQ_INT(unlink(name), 0);
	T_EQ_INT(link(victim, hard), 0); /* a hard link to a file of ours: not a leftover */
	T_EQ_INT(lst_file_create(hard, "trace", 0600, &err), -EEXIST);
	T_CONTAINS(err.msg, "with 2 link(s)");
	T_EQ_INT(lst_read_file(victim, 100, &text, &len), 0);
	T_EQ_STR(text, "precious");
	free(text);
	s_put(name, "a crash's leftover");
	fd = lst_file_create(name, "trace", 0600, &err);
	T_ASSERT(fd >= 0);
	close(fd);
	T_EQ_INT(lst_read_file(name, 100, &text, &len), 0);
	T_EQ_INT(len, 0);
	free(text);
	free(hard);
	free(name);
	free(victim);
}

static void test_write(void)
{
	char *log = s_path("w.log"), *fifo = s_path("w.fifo"), *link = s_path("w.link");
	lst_err err;
	int fd;

	fd = lst_file_open_write(log, "log", LST_FILE_STREAM, 0600, &err);
	T_ASSERT(fd >= 0);
	close(fd);
	fd = lst_file_open_write("/dev/null", "log", LST_FILE_STREAM, 0600, &err);
	T_ASSERT(fd >= 0);
	close(fd);
	T_EQ_INT(lst_file_open_write("/dev/null", "pid file", LST_FILE_TRUNC, 0600, &err), -EINVAL);
	T_CONTAINS(err.msg, "a character device, not a regular file");
	T_EQ_INT(mkfifo(fifo, 0600), 0);
	T_EQ_INT(lst_file_open_write(fifo, "log", LST_FILE_STREAM, 0600, &err), -ENXIO);
	T_CONTAINS(err.msg, "a FIFO that nobody reads");
	T_EQ_INT(symlink(log, link), 0);
	T_EQ_INT(lst_file_open_write(link, "pid file", LST_FILE_TRUNC, 0600, &err), -ELOOP);
	T_CONTAINS(err.msg, "w.link: a symlink; not written through it");
	free(link);
	free(fifo);
	free(log);
}

static void test_dir(void)
{
	char *open = s_path("open");
	lst_err err;

	T_EQ_INT(lst_dir_check_owned(s_dir, NULL, "trace folder", "do harm", &err), 0);
	T_EQ_INT(mkdir(open, 0700), 0);
	T_EQ_INT(chmod(open, 0777), 0);
	T_EQ_INT(lst_dir_check_owned(open, NULL, "trace folder", "do harm", &err), -EACCES);
	T_CONTAINS(err.msg, "trace folder: ");
	T_CONTAINS(err.msg, "open is writable by group or others (mode 0777), so they could do "
			    "harm; chmod go-w");
	if (geteuid() == 0) {
		T_EQ_INT(chmod(open, 0755), 0);
		T_EQ_INT(chown(open, 65534, 65534), 0);
		T_EQ_INT(lst_dir_check_owned(open, NULL, "trace folder", "do harm", &err), -EACCES);
		T_CONTAINS(err.msg, "is owned by uid 65534");
	}
	free(open);
}

static void s_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", s_dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", s_dir);
}

int main(void)
{
	if (!mkdtemp(s_dir))
		T_FAIL("mkdtemp failed");
	atexit(s_cleanup);
	test_read();
	test_create();
	test_write();
	test_dir();
	return 0;
}
