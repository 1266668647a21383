/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running a helper program (gnuplot for the plots): find it in PATH, run it with a timeout, keep
 * the tail of what it prints for error messages.
 *
 * The path is resolved before fork (lst_proc_which), so the child only calls async-signal-safe
 * functions before execv; stdin is /dev/null, stdout and stderr go through one pipe, and a child
 * still running at the deadline is killed (SIGKILL) and reaped.
 */
#include "lst_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_time.h"
#include "lst_util.h"

char *lst_proc_which(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (!path || !*path)
		path = "/usr/bin:/bin";
	copy = lst_strdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *f = lst_asprintf("%s/%s", *dir ? dir : ".", name);
		struct stat st;

		if (!stat(f, &st) && S_ISREG(st.st_mode) && !access(f, X_OK))
			found = f;
		else
			free(f);
	}
	free(copy);
	return found;
}

/* Keep the last size - 1 bytes of everything appended. */
static void s_tail(char *out, size_t size, size_t *len, const char *buf, size_t n)
{
	if (n >= size - 1) {
		buf += n - (size - 1);
		n = size - 1;
	}
	if (*len + n > size - 1) {
		size_t drop = *len + n - (size - 1);

		memmove(out, out + drop, *len - drop);
		*len -= drop;
	}
	memcpy(out + *len, buf, n);
	*len += n;
	out[*len] = '\0';
}

int lst_proc_run(const char *dir, const char *const argv[], int timeout_s, char *out, size_t size)
{
	int64_t deadline = lst_mono_ns() + timeout_s * LST_NS_PER_S;
	bool timed_out = false;
	size_t len = 0;
	int fds[2], status, rc;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul < 0 || dup2(nul, 0) < 0 || dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0 ||
		    (dir && chdir(dir)))
			_exit(126);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		int64_t left = deadline - lst_mono_ns();
		char buf[4096];
		ssize_t r;
		int n;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		n = poll(&p, 1, (int)LST_MIN(left / LST_NS_PER_MS + 1, 1000));
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		r = read(fds[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		s_tail(out, size, &len, buf, (size_t)r);
	}
	close(fds[0]);
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (timed_out)
		return -ETIMEDOUT;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

void lst_proc_last_lines(const char *out, char *buf, size_t size)
{
	const char *lines[3] = { NULL, NULL, NULL };
	const char *p = out;
	size_t len = 0;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n && strspn(p, " \t^") < n) {
			lines[0] = lines[1];
			lines[1] = lines[2];
			lines[2] = p;
		}
		p += n + (e ? 1 : 0);
	}
	buf[0] = '\0';
	for (int i = 0; i < 3; i++) {
		size_t n;

		if (!lines[i])
			continue;
		n = strcspn(lines[i], "\n");
		if (len + n + 4 >= size)
			break;
		len += (size_t)snprintf(buf + len, size - len, "%s%.*s", len ? " | " : "", (int)n,
					lines[i]);
	}
	if (!buf[0])
		snprintf(buf, size, "(no output)");
}

pid_t lst_proc_spawn(const char *const argv[])
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);

		if (nul < 0 || dup2(nul, 0) < 0)
			_exit(126);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

int lst_proc_stop(pid_t pid)
{
	int status;

	kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
