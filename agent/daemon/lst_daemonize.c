/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Becoming a daemon the way an init script or a shell expects: detach, and let the parent exit
 * only when the daemon knows whether it started, with that status; a pidfile that names it.
 */
#include "lst_daemonize.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_file.h"
#include "lst_log.h"
#include "lst_util.h"

int lst_daemonize(const char *log)
{
	int p[2], fd;
	pid_t pid;
	char status = 1;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		close(p[1]);
		if (read(p[0], &status, 1) != 1)
			status = 1;
		if (status)
			fprintf(stderr, "lockstep-agent: the daemon failed to start; see %s\n",
				log);
		_exit(status);
	}
	close(p[0]);
	if (setsid() < 0)
		return -errno;
	if (chdir("/"))
		return -errno;
	umask(022);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	return p[1];
}

int lst_pidfile_write(const char *path, lst_err *err)
{
	char buf[32];
	int fd = lst_file_open_write(path, "pid file", LST_FILE_TRUNC, 0644, err);
	int rc, n;

	if (fd < 0)
		return fd;
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	rc = lst_write_all(fd, buf, (size_t)n);
	close(fd);
	return rc ? lst_err_sys(err, rc, "pid file %s: write", path) : 0;
}

void lst_pidfile_remove(const char *path)
{
	char *text = NULL;
	size_t len;

	if (!lst_read_file(path, 64, &text, &len) && atoi(text) == (int)getpid())
		unlink(path);
	free(text);
}

void lst_daemonize_notify(int fd, char status)
{
	if (fd >= 0) {
		if (write(fd, &status, 1) != 1)
			lst_log_warn("cannot report start-up to the parent: %s", strerror(errno));
		close(fd);
	}
}
