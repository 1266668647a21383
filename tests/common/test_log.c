/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Logger tests: --debug category lists (and the unknown name that is rejected without changing
 * anything), levels that skip building arguments, and the exact shape of lines written to a
 * file by lst_log_open, with and without timestamps, and to stderr after lst_log_close.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "lst_log.h"
#include "lst_util.h"
#include "lst_test.h"

static char s_dir[64];

static void s_debug_categories(void)
{
	const char *bad = NULL;
	const char *list;

	lst__log_debug = 0;
	T_EQ_INT(lst_log_set_debug("io,net", &bad), 0);
	T_EQ_U64(lst__log_debug, LST_DBG_IO | LST_DBG_NET);
	/* lists add to what is enabled */
	T_EQ_INT(lst_log_set_debug("time", &bad), 0);
	T_EQ_U64(lst__log_debug, LST_DBG_IO | LST_DBG_NET | LST_DBG_TIME);
	lst__log_debug = 0;
	T_EQ_INT(lst_log_set_debug("plan,,proto,", &bad), 0); /* empty names are skipped */
	T_EQ_U64(lst__log_debug, LST_DBG_PLAN | LST_DBG_PROTO);
	lst__log_debug = 0;
	T_EQ_INT(lst_log_set_debug("dev", NULL), 0);
	T_EQ_U64(lst__log_debug, LST_DBG_DEV);
	T_EQ_INT(lst_log_set_debug("", &bad), 0);
	T_EQ_U64(lst__log_debug, LST_DBG_DEV);
	T_EQ_INT(lst_log_set_debug("all", &bad), 0);
	T_EQ_U64(lst__log_debug, LST_DBG_ALL);

	/* an unknown name: -EINVAL, *bad points at it, and the set is unchanged */
	lst__log_debug = LST_DBG_DEV;
	list = "io,bogus,net";
	bad = NULL;
	T_EQ_INT(lst_log_set_debug(list, &bad), -EINVAL);
	T_ASSERT(bad == list + 3);
	T_EQ_U64(lst__log_debug, LST_DBG_DEV);
	/* names match whole and exactly: no prefixes, no case folding, no spaces */
	T_EQ_INT(lst_log_set_debug("i", &bad), -EINVAL);
	T_EQ_INT(lst_log_set_debug("ioo", &bad), -EINVAL);
	T_EQ_INT(lst_log_set_debug("IO", &bad), -EINVAL);
	T_EQ_INT(lst_log_set_debug("io, net", &bad), -EINVAL);
	T_EQ_STR(bad, " net");
	T_EQ_INT(lst_log_set_debug("nope", NULL), -EINVAL);
	T_EQ_U64(lst__log_debug, LST_DBG_DEV);

	/* --help lists every name that parses */
	{
		static const char *names[] = { "io", "net", "time", "plan", "proto", "dev", "all" };

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			T_CONTAINS(lst_log_debug_names(), names[i]);
			T_EQ_INT(lst_log_set_debug(names[i], NULL), 0);
		}
	}
	lst__log_debug = 0;
}

static int s_calls;

static int s_count(void)
{
	return ++s_calls;
}

static char *s_slurp(const char *path)
{
	char *buf = NULL;

	T_EQ_INT(lst_read_file(path, 1 << 20, &buf, NULL), 0);
	return buf;
}

static void s_file_lines(void)
{
	char path[128];
	char *text;

	snprintf(path, sizeof(path), "%s/plain.log", s_dir);
	lst_log_set_ident("test_log");
	lst_log_set_timestamps(false);
	lst_log_set_level(LST_LOG_INFO);
	lst__log_debug = LST_DBG_NET;
	T_EQ_INT(lst_log_open(path, NULL), 0);

	lst_log_error("open(\"%s\") failed: %s (%d)", "/dev/sdb", "Device or resource busy", -16);
	lst_log_warn("agent %s: %d samples late", "b", 3);
	lst_log_info("run %d of %d", 1, 25);
	lst_log_debug(LST_DBG_NET, "heartbeat %d", 42);

	/* disabled lines build no arguments */
	s_calls = 0;
	lst_log_debug(LST_DBG_IO, "batch %d", s_count());
	lst_log_set_level(LST_LOG_WARN);
	lst_log_info("hidden %d", s_count());
	lst_log_set_level(LST_LOG_ERROR);
	lst_log_warn("hidden %d", s_count());
	T_EQ_INT(s_calls, 0);
	lst_log_error("still shown");
	lst_log_set_level(LST_LOG_INFO);
	/* text from the wire cannot forge a line or reach a terminal as an escape sequence */
	lst_log_info("session opened: coordinator %s", "ws1\ntest_log: error: forged\x1b[2J\t.");
	lst_log_close();

	text = s_slurp(path);
	T_EQ_STR(text, "test_log: error: open(\"/dev/sdb\") failed: Device or resource busy (-16)\n"
		       "test_log: warning: agent b: 3 samples late\n"
		       "test_log: run 1 of 25\n"
		       "test_log: debug: heartbeat 42\n"
		       "test_log: error: still shown\n"
		       "test_log: session opened: coordinator ws1?test_log: error: forged?[2J?.\n");
	free(text);

	/* lst_log_open appends */
	T_EQ_INT(lst_log_open(path, NULL), 0);
	lst_log_info("again");
	lst_log_close();
	text = s_slurp(path);
	T_CONTAINS(text, "test_log: run 1 of 25\n");
	T_ASSERT(strlen(text) > strlen("test_log: again\n"));
	T_EQ_STR(text + strlen(text) - strlen("test_log: again\n"), "test_log: again\n");
	free(text);

	/* a line longer than the buffer is cut, and is still one line */
	{
		char *big = malloc(5000);

		memset(big, 'a', 4999);
		big[4999] = '\0';
		snprintf(path, sizeof(path), "%s/long.log", s_dir);
		T_EQ_INT(lst_log_open(path, NULL), 0);
		lst_log_info("%s", big);
		lst_log_info("next");
		lst_log_close();
		text = s_slurp(path);
		T_ASSERT(strchr(text, '\n') != NULL);
		T_ASSERT(strchr(text, '\n') - text < 4999);
		T_EQ_STR(strchr(text, '\n') + 1, "test_log: next\n");
		free(text);
		free(big);
	}

	snprintf(path, sizeof(path), "%s/no/such/dir/x.log", s_dir);
	T_EQ_INT(lst_log_open(path, NULL), -ENOENT);
}

static void s_timestamps(void)
{
	char path[128], pat[256];
	time_t before = time(NULL), after;
	regmatch_t mt[2];
	regex_t re;
	char *text;

	snprintf(path, sizeof(path), "%s/daemon.log", s_dir);
	lst_log_set_ident("lockstep-agent");
	lst_log_set_timestamps(true);
	T_EQ_INT(lst_log_open(path, NULL), 0);
	lst_log_warn("late by %d us", 12);
	lst_log_error("gone");
	lst_log_info("ready");
	lst_log_close();
	lst_log_set_timestamps(false);
	after = time(NULL);

	/* "2026-11-30T04:38:16.123Z lockstep-agent[812] warn: message" */
	snprintf(pat, sizeof(pat),
		 "^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2})\\.[0-9]{3}Z "
		 "lockstep-agent\\[%d\\] warn: late by 12 us\n"
		 "[0-9T:.-]{23}Z lockstep-agent\\[%d\\] error: gone\n"
		 "[0-9T:.-]{23}Z lockstep-agent\\[%d\\] info: ready\n$",
		 (int)getpid(), (int)getpid(), (int)getpid());
	T_EQ_INT(regcomp(&re, pat, REG_EXTENDED), 0);
	text = s_slurp(path);
	if (regexec(&re, text, 2, mt, 0))
		T_FAIL("log lines do not match\n%s\nagainst\n%s", text, pat);
	/* the stamp is UTC now */
	{
		struct tm tm = { 0 };
		time_t t;

		text[mt[1].rm_eo] = '\0';
		T_ASSERT(strptime(text + mt[1].rm_so, "%Y-%m-%dT%H:%M:%S", &tm) != NULL);
		t = timegm(&tm);
		T_ASSERT(t >= before - 1 && t <= after + 1);
	}
	regfree(&re);
	free(text);
}

/* With no file open, lines go to stderr. */
static void s_stderr(void)
{
	char path[128];
	int saved, fd;
	char *text;

	snprintf(path, sizeof(path), "%s/stderr.log", s_dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	T_ASSERT(saved >= 0 && fd >= 0);
	T_EQ_INT(dup2(fd, 2), 2);
	close(fd);
	lst_log_set_ident("lockstep");
	lst_log_warn("to %s", "stderr");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	text = s_slurp(path);
	T_EQ_STR(text, "lockstep: warning: to stderr\n");
	free(text);
}

int main(void)
{
	char cmd[128];

	snprintf(s_dir, sizeof(s_dir), "/tmp/lst_test_log.XXXXXX");
	if (!mkdtemp(s_dir)) {
		fprintf(stderr, "skip: mkdtemp failed\n");
		return LST_TEST_SKIP;
	}
	s_debug_categories();
	s_file_lines();
	s_timestamps();
	s_stderr();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s_dir);
	T_EQ_INT(system(cmd), 0);
	return 0;
}
