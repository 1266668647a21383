/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Logger implementation. A global level and category mask, read without locks: they are set at
 * start-up before threads exist, and a stale read only changes whether one line is printed.
 */
#include "lst_log.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_file.h"

int lst__log_level = LST_LOG_INFO;
unsigned lst__log_debug;

static const char *s_ident = "lockstep";
static bool s_timestamps;
static FILE *s_file;

static const struct {
	const char *name;
	unsigned bit;
} s_cats[] = {
	{ "io", LST_DBG_IO },	  { "net", LST_DBG_NET },     { "time", LST_DBG_TIME },
	{ "plan", LST_DBG_PLAN }, { "proto", LST_DBG_PROTO }, { "dev", LST_DBG_DEV },
	{ "all", LST_DBG_ALL },
};

void lst__assert_fail(const char *expr, const char *file, int line, const char *func)
{
	fprintf(stderr, "%s: assertion failed: %s (%s:%d in %s)\n", s_ident, expr, file, line,
		func);
	fflush(stderr);
	abort();
}

void lst_log_set_ident(const char *ident)
{
	s_ident = ident;
}

void lst_log_set_level(int level)
{
	lst__log_level = level;
	if (level >= LST_LOG_DEBUG)
		lst__log_debug = LST_DBG_ALL;
}

void lst_log_set_timestamps(bool on)
{
	s_timestamps = on;
}

int lst_log_parse_debug(const char *list, unsigned *mask, const char **bad)
{
	const char *p = list;

	*mask = 0;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		bool found = false;

		for (size_t i = 0; i < LST_ARRAY_SIZE(s_cats); i++) {
			if (strlen(s_cats[i].name) == n && !strncmp(p, s_cats[i].name, n)) {
				*mask |= s_cats[i].bit;
				found = true;
			}
		}
		if (!found && n) {
			if (bad)
				*bad = p;
			return -EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

int lst_log_set_debug(const char *list, const char **bad)
{
	unsigned mask;
	int rc = lst_log_parse_debug(list, &mask, bad);

	if (!rc)
		lst__log_debug |= mask;
	return rc;
}

const char *lst_log_debug_names(void)
{
	return "io, net, time, plan, proto, dev, all";
}

int lst_log_open(const char *path, lst_err *err)
{
	/* By the file rule: a symlink, a block device or a FIFO nobody reads is refused, and
	 * reopening on SIGHUP never waits on the reactor. /dev/null will do. */
	int fd = lst_file_open_write(path, "log", LST_FILE_STREAM, 0644, err);
	FILE *f;

	if (fd < 0)
		return fd;
	if (!(f = fdopen(fd, "a"))) {
		close(fd);
		return lst_err_sys(err, -errno, "log %s: fdopen", path);
	}
	setvbuf(f, NULL, _IOLBF, 0);
	lst_log_close();
	s_file = f;
	return 0;
}

void lst_log_close(void)
{
	if (s_file)
		fclose(s_file);
	s_file = NULL;
}

static const char *s_level_name(int level, bool terse)
{
	switch (level) {
	case LST_LOG_ERROR:
		return "error";
	case LST_LOG_WARN:
		return terse ? "warn" : "warning";
	case LST_LOG_INFO:
		return "info";
	default:
		return "debug";
	}
}

void lst__log(int level, unsigned cat, const char *fmt, ...)
{
	char line[2048];
	size_t n = 0;
	va_list ap;

	(void)cat;
	if (s_timestamps) {
		struct timespec ts;
		struct tm tm;

		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		n = strftime(line, sizeof(line), "%Y-%m-%dT%H:%M:%S", &tm);
		n += snprintf(line + n, sizeof(line) - n,
			      ".%03ldZ %s[%d] %s: ", ts.tv_nsec / 1000000, s_ident, (int)getpid(),
			      s_level_name(level, true));
	} else if (level == LST_LOG_INFO) {
		n = snprintf(line, sizeof(line), "%s: ", s_ident);
	} else {
		n = snprintf(line, sizeof(line), "%s: %s: ", s_ident, s_level_name(level, false));
	}
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	/* One event, one line: text from outside (a coordinator's name, a run id, a path) must not
	 * start a forged line of its own or send escape sequences to a terminal. */
	for (char *c = line + n; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	fprintf(s_file ? s_file : stderr, "%s\n", line);
}
