/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test hook (tests/integration/agent/daemon_hooks.c): appends the CLOCK_MONOTONIC instant it began,
 * in ns, as a line to the file argv[1], prints "stamp NAME" (LOCKSTEP_HOOK) on stdout and exits
 * with the status argv[2] (default 0). A C program, so that the instant is not late by an
 * interpreter's start-up.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts;
	char line[64];
	const char *hook = getenv("LOCKSTEP_HOOK");
	int fd, n;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (argc < 2)
		return 2;
	n = snprintf(line, sizeof(line), "%lld\n",
		     (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, line, (size_t)n) != n)
		return 2;
	close(fd);
	printf("stamp %s\n", hook ? hook : "?");
	return argc > 2 ? atoi(argv[2]) : 0;
}
