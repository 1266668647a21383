/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Daemonizing lockstep-agent (agent/daemon/lst_daemonize), in real processes: the parent that
 * called lst_daemonize exits only when the daemon reports, with the daemon's status (0
 * listening, 1 failed), and with 1 when the daemon dies without a word; the daemon leads a
 * session of its own, works from / and reads /dev/null. The pidfile names this process, is
 * never written through a symlink, and is removed only while it still names this process.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lst_daemonize.h"
#include "lst_file.h"
#include "lst_scratch.h"
#include "lst_test.h"
#include "lst_util.h"

enum s_end { S_REPORT_OK, S_REPORT_FAILED, S_DIE_SILENT };

/* In the daemon: note what it became into report, then end as `end` says. Never returns. */
static void s_daemon(int fd, const char *report, enum s_end end)
{
	char cwd[PATH_MAX] = "?", in[PATH_MAX] = "?";
	struct stat st, null;
	FILE *f = fopen(report, "w");

	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "?");
	if (!fstat(STDIN_FILENO, &st) && !stat("/dev/null", &null))
		snprintf(in, sizeof(in), "%s", st.st_rdev == null.st_rdev ? "null" : "other");
	if (f) {
		fprintf(f, "%d %d %s %s\n", getsid(0) == getpid(), getpgrp() == getpid(), cwd, in);
		fclose(f);
	}
	if (end != S_DIE_SILENT)
		lst_daemonize_notify(fd, end == S_REPORT_OK ? 0 : 1);
	_exit(0);
}

/* Start a process that daemonizes; the daemon ends as `end` says. Returns the exit status of
 * the process that called lst_daemonize; report gets what the daemon noted. */
static int s_daemonize(enum s_end end, char *report, size_t size)
{
	pid_t pid;
	int status, fd;

	snprintf(report, size, "%s/report-%d", lst_scratch("daemonize"), (int)end);
	pid = fork();
	T_ASSERT(pid >= 0);
	if (!pid) {
		fd = lst_daemonize("agent.log");
		if (fd < 0)
			_exit(99);
		s_daemon(fd, report, end);
	}
	T_EQ_INT(waitpid(pid, &status, 0), pid);
	T_ASSERT(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The daemon's note, waiting for it (it may still be writing when its parent has exited). */
static void s_report(const char *report, char *buf, size_t size)
{
	char *text = NULL;
	size_t len = 0;

	for (int i = 0; i < 500; i++) {
		if (!lst_read_file(report, 4096, &text, &len) && len && text[len - 1] == '\n')
			break;
		free(text);
		text = NULL;
		usleep(10000);
	}
	T_ASSERT(text);
	snprintf(buf, size, "%s", text);
	free(text);
}

static void test_daemonize(void)
{
	char report[256], note[512];

	T_EQ_INT(s_daemonize(S_REPORT_OK, report, sizeof(report)), 0);
	s_report(report, note, sizeof(note));
	T_EQ_STR(note, "1 1 / null\n"); /* session leader, group leader, cwd /, stdin /dev/null */

	T_EQ_INT(s_daemonize(S_REPORT_FAILED, report, sizeof(report)), 1);
	T_EQ_INT(s_daemonize(S_DIE_SILENT, report, sizeof(report)), 1);
	s_report(report, note, sizeof(note)); /* it did run */
	lst_daemonize_notify(-1, 0);	      /* not daemonized: nothing to do */
}

static void test_pidfile(void)
{
	char path[256], link[256], *text = NULL, want[32];
	size_t len;
	lst_err err;
	FILE *f;

	snprintf(path, sizeof(path), "%s/agent.pid", lst_scratch("daemonize"));
	T_EQ_INT(lst_pidfile_write(path, &err), 0);
	T_EQ_INT(lst_read_file(path, 64, &text, &len), 0);
	snprintf(want, sizeof(want), "%d\n", (int)getpid());
	T_EQ_STR(text, want);
	free(text);
	lst_pidfile_remove(path);
	T_ASSERT(access(path, F_OK) && errno == ENOENT);

	/* Another process's pidfile (a second agent took it over) is left alone. */
	f = fopen(path, "w");
	T_ASSERT(f);
	fprintf(f, "1\n");
	fclose(f);
	lst_pidfile_remove(path);
	T_EQ_INT(access(path, F_OK), 0);

	/* A symlink where the pidfile goes: refused, and its target unchanged. */
	snprintf(link, sizeof(link), "%s/link.pid", lst_scratch("daemonize"));
	T_EQ_INT(symlink(path, link), 0);
	T_ASSERT(lst_pidfile_write(link, &err) < 0);
	T_CONTAINS(err.msg, "symlink");
	T_EQ_INT(lst_read_file(path, 64, &text, &len), 0);
	T_EQ_STR(text, "1\n");
	free(text);
}

int main(void)
{
	test_pidfile();
	test_daemonize();
	printf("ok: daemonize\n");
	return 0;
}
