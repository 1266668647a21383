/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hooks on the agent: the config's hooks, collectors and hook_timeout (good files,
 * and every refusal with its FILE:LINE:COL), and the runner (agent/daemon/lst_hook): exit
 * status, a signal, a timeout that kills a child and its grandchildren through the process
 * group, SIGKILL for one that ignores SIGTERM, the output's tail and head bounds, a collector's
 * stderr kept out of its output, no descriptor leaked, the fixed environment, a program that
 * cannot start, and jobs: started on their instant, cancelled before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_config.h"
#include "lst_hook.h"
#include "lst_test.h"
#include "lst_time.h"

/* ---------------------------------------------------------------- config */

static lst_config *s_parse_ok(const char *yaml)
{
	lst_config *cfg = lst_config_new();
	lst_err err;

	if (lst_config_parse(cfg, "t.yaml", yaml, strlen(yaml), &err))
		T_FAIL("'%s' refused: %s", yaml, err.msg);
	return cfg;
}

/* yaml must be refused with exactly want. */
static void s_parse_bad(const char *yaml, const char *want)
{
	lst_config *cfg = lst_config_new();
	lst_err err;

	T_EQ_INT(lst_config_parse(cfg, "t.yaml", yaml, strlen(yaml), &err), -EINVAL);
	T_EQ_STR(err.msg, want);
	lst_config_destroy(&cfg);
}

static void test_config_good(void)
{
	lst_config *cfg = s_parse_ok("hooks:\n"
				     "  port_down: [/bin/sh, -c, \"echo down\"]\n"
				     "  port.up-2_x: [/bin/true]\n"
				     "collectors:\n"
				     "  smart: [/bin/echo, '{\"a\": 1}']\n"
				     "hook_timeout: 30s\n");
	lst_config *flags = lst_config_new(), *dst = lst_config_new();
	const struct lst_config_cmd *c;
	lst_err err;

	T_EQ_INT(cfg->hooks.n, 2);
	T_EQ_INT(cfg->collectors.n, 1);
	T_EQ_INT(cfg->hook_timeout, 30 * LST_NS_PER_S);
	c = lst_config_cmd_find(cfg->hooks.v, cfg->hooks.n, "port_down");
	T_ASSERT(c);
	T_EQ_INT(c->argc, 3);
	T_EQ_STR(c->argv[0], "/bin/sh");
	T_EQ_STR(c->argv[2], "echo down");
	T_ASSERT(c->argv[3] == NULL);
	T_ASSERT(lst_config_cmd_find(cfg->hooks.v, cfg->hooks.n, "port.up-2_x"));
	T_ASSERT(!lst_config_cmd_find(cfg->hooks.v, cfg->hooks.n, "smart"));
	c = lst_config_cmd_find(cfg->collectors.v, cfg->collectors.n, "smart");
	T_ASSERT(c);
	T_EQ_STR(c->argv[1], "{\"a\": 1}");

	/* Override copies the maps (deep) and hook_timeout; flags over the file. */
	lst_config_override(dst, cfg);
	lst_config_destroy(&cfg);
	T_EQ_INT(dst->hooks.n, 2);
	T_EQ_STR(dst->hooks.v[0].argv[2], "echo down");
	T_EQ_STR(dst->collectors.v[0].name, "smart");
	T_EQ_INT(lst_config_set(flags, "hook_timeout", "5m", &err), 0);
	lst_config_override(dst, flags);
	T_EQ_INT(dst->hook_timeout, 300 * LST_NS_PER_S);
	T_EQ_INT(dst->hooks.n, 2);
	T_EQ_INT(lst_config_set(flags, "hooks", "x", &err), -EINVAL);
	T_CONTAINS(err.msg, "config file only");
	lst_config_destroy(&flags);
	lst_config_destroy(&dst);

	cfg = s_parse_ok("hooks:\ncollectors: {}\n");
	T_EQ_INT(cfg->hooks.n, 0);
	T_EQ_INT(cfg->collectors.n, 0);
	T_EQ_INT(cfg->hook_timeout, LST_CONFIG_HOOK_TIMEOUT_DEFAULT); /* the default applies */
	lst_config_destroy(&cfg);
	printf("ok: config: hooks, collectors, hook_timeout read, found, copied\n");
}

static void test_config_bad(void)
{
	char yaml[4096];
	size_t n = 0;

	s_parse_bad("hooks:\n  a: [/bin/true]\n  a: [/bin/false]\n",
		    "t.yaml:3:3: hooks: 'a' is defined twice");
	s_parse_bad("hooks:\n  a: []\n",
		    "t.yaml:2:6: hooks: a: the list is empty: it needs at least the program");
	s_parse_bad("collectors:\n  a: [true]\n",
		    "t.yaml:2:7: collectors: a: 'true' is not an absolute path (no shell, no PATH "
		    "lookup)");
	s_parse_bad("hooks:\n  a: [/bin/true, [x]]\n",
		    "t.yaml:2:18: hooks: a: every entry must be a non-empty string, not a list");
	s_parse_bad("hooks:\n  a: [/bin/true, \"\"]\n",
		    "t.yaml:2:18: hooks: a: every entry must be a non-empty string, not empty");
	s_parse_bad("hooks:\n  a: /bin/true\n",
		    "t.yaml:2:6: hooks: a must be a list [/absolute/program, arguments...], not a "
		    "value");
	s_parse_bad("hooks:\n  a b: [/bin/true]\n",
		    "t.yaml:2:3: hooks: a name must be 1 to 63 of A-Z a-z 0-9 _ . -, not 'a b'");
	s_parse_bad("hooks: [/bin/true]\n",
		    "t.yaml:1:8: hooks must be a map of NAME: [/absolute/program, arguments...], "
		    "not a list");
	s_parse_bad("hooks:\n  a: [/nonexistent/prog]\n",
		    "t.yaml:2:7: hooks: a: /nonexistent/prog: No such file or directory");
	s_parse_bad("hooks:\n  a: [/etc/passwd]\n",
		    "t.yaml:2:7: hooks: a: /etc/passwd is not an executable file");
	s_parse_bad("hooks:\n  a: [/bin]\n",
		    "t.yaml:2:7: hooks: a: /bin is not an executable file");
	s_parse_bad("hook_timeout: 0s\n",
		    "t.yaml:1:15: hook_timeout must be between 1.0 s and 60 m 00 s");
	s_parse_bad("hook_timeout: soon\n",
		    "t.yaml:1:15: hook_timeout: 'soon' is not a duration (examples: 30s, 100ms, "
		    "5m, 2h)");
	n += (size_t)snprintf(yaml, sizeof(yaml), "hooks:\n");
	for (int i = 0; i <= LST_MAX_HOOKS; i++)
		n += (size_t)snprintf(yaml + n, sizeof(yaml) - n, "  h%d: [/bin/true]\n", i);
	s_parse_bad(yaml, "t.yaml:34:3: hooks: more than 32 entries");
	printf("ok: config: every bad hooks/collectors entry refused at FILE:LINE:COL\n");
}

/* ---------------------------------------------------------------- the runner */

static struct lst_hook_result s_run(enum lst_hook_kind kind, int64_t timeout, const char *script)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	struct lst_hook_spec s = { .argv = argv,
				   .kind = kind,
				   .timeout = timeout,
				   .name = "h",
				   .phase = "2",
				   .point = "5",
				   .agent = "ag" };
	struct lst_hook_result r;

	T_EQ_INT(lst_hook_run(&s, &r), 0);
	return r;
}

static void test_status(void)
{
	struct lst_hook_result r = s_run(LST_HOOK_HOOK, LST_NS_PER_S * 10, "echo hi; exit 3");

	T_EQ_INT(r.status, 3);
	T_EQ_STR(r.text, "exit status 3");
	T_EQ_STR(r.output, "hi\n");
	T_ASSERT(r.start > 0 && r.end >= r.start);
	lst_hook_result_clear(&r);

	r = s_run(LST_HOOK_HOOK, LST_NS_PER_S * 10, "echo out; echo err >&2");
	T_EQ_INT(r.status, 0);
	T_EQ_STR(r.text, "");
	T_EQ_STR(r.output, "out\nerr\n"); /* a hook: stdout and stderr together */
	lst_hook_result_clear(&r);

	r = s_run(LST_HOOK_HOOK, LST_NS_PER_S * 10, "kill -USR1 $$");
	T_EQ_INT(r.status, 128 + SIGUSR1);
	T_CONTAINS(r.text, "killed by signal 10");
	lst_hook_result_clear(&r);

	r = s_run(LST_HOOK_HOOK, LST_NS_PER_S * 10, "cat; echo done"); /* stdin is /dev/null */
	T_EQ_STR(r.output, "done\n");
	lst_hook_result_clear(&r);

	{
		char *argv[] = { "/nonexistent/hook", NULL };
		struct lst_hook_spec s = { .argv = argv, .timeout = LST_NS_PER_S };

		T_EQ_INT(lst_hook_run(&s, &r), -ENOENT);
		T_EQ_INT(r.status, -1);
		T_EQ_INT(r.start, 0);
		T_CONTAINS(r.text, "cannot start /nonexistent/hook: No such file");
	}
	printf("ok: runner: exit status, output, a signal, stdin /dev/null, cannot start\n");
}

static bool s_pid_gone(pid_t pid)
{
	char path[64], buf[512];
	FILE *f;
	bool gone;

	for (int i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		f = fopen(path, "r");
		if (!f)
			return true;
		gone = fgets(buf, sizeof(buf), f) && strstr(buf, ") Z ");
		fclose(f);
		if (gone)
			return true;
		lst_sleep_ns(10 * LST_NS_PER_MS);
	}
	return false;
}

static void test_timeout(void)
{
	char script[512], pidfile[] = "/tmp/lst-test-hook-XXXXXX", buf[32] = "";
	int fd = mkstemp(pidfile);
	struct lst_hook_result r;
	int64_t t;
	pid_t grandchild;

	T_ASSERT(fd >= 0);
	snprintf(script, sizeof(script), "sleep 100 & echo $! > %s; echo started; wait", pidfile);
	t = lst_mono_ns();
	r = s_run(LST_HOOK_HOOK, LST_NS_PER_S, script);
	t = lst_mono_ns() - t;
	T_EQ_INT(r.status, 128 + SIGTERM);
	T_EQ_STR(r.text, "timed out after 1 s: killed (SIGTERM)");
	T_EQ_STR(r.output, "started\n");
	if (t < LST_NS_PER_S || t > 1500 * LST_NS_PER_MS)
		T_FAIL("a 1 s timeout took %.3f s", (double)t / 1e9);
	T_ASSERT(pread(fd, buf, sizeof(buf) - 1, 0) > 0);
	grandchild = (pid_t)atoi(buf);
	T_ASSERT(grandchild > 0);
	if (!s_pid_gone(grandchild))
		T_FAIL("the hook's grandchild %d (sleep) outlived the timeout", (int)grandchild);
	lst_hook_result_clear(&r);

	/* SIGTERM ignored: SIGKILL 2 s later. */
	t = lst_mono_ns();
	r = s_run(LST_HOOK_HOOK, LST_NS_PER_S, "trap '' TERM; sleep 100");
	t = lst_mono_ns() - t;
	T_EQ_INT(r.status, 128 + SIGKILL);
	T_EQ_STR(r.text, "timed out after 1 s: killed (SIGKILL)");
	if (t < 3 * LST_NS_PER_S || t > 3500 * LST_NS_PER_MS)
		T_FAIL("SIGTERM ignored: ended after %.3f s, want 3 s", (double)t / 1e9);
	lst_hook_result_clear(&r);
	close(fd);
	unlink(pidfile);
	printf("ok: runner: a timeout kills the process group (grandchild too), SIGKILL 2 s after "
	       "an ignored SIGTERM\n");
}

static void test_bounds(void)
{
	struct lst_hook_result r = s_run(LST_HOOK_HOOK, LST_NS_PER_S * 10,
					 "head -c 10000 /dev/zero | tr '\\0' a; echo END");

	T_EQ_INT(r.output_len, LST_HOOK_OUTPUT_MAX);
	T_EQ_INT(r.truncated, 10004 - LST_HOOK_OUTPUT_MAX);
	T_EQ_INT(strlen(r.output), LST_HOOK_OUTPUT_MAX);
	T_EQ_STR(r.output + LST_HOOK_OUTPUT_MAX - 4, "END\n"); /* the tail is kept */
	lst_hook_result_clear(&r);

	r = s_run(LST_HOOK_COLLECTOR, LST_NS_PER_S * 10,
		  "printf '{'; head -c 200000 /dev/zero | tr '\\0' 1; echo noise >&2");
	T_EQ_INT(r.status, 0);
	T_EQ_INT(r.output_len, LST_COLLECT_OUTPUT_MAX);
	T_EQ_INT(r.truncated, 200001 - LST_COLLECT_OUTPUT_MAX);
	T_ASSERT(r.output[0] == '{'); /* the head is kept */
	T_ASSERT(!strstr(r.output, "noise"));
	lst_hook_result_clear(&r);

	r = s_run(LST_HOOK_COLLECTOR, LST_NS_PER_S * 10,
		  "echo '{\"a\": 1}'; echo 'smartctl: no such device' >&2; exit 2");
	T_EQ_INT(r.status, 2);
	T_EQ_STR(r.output, "{\"a\": 1}\n");
	T_EQ_STR(r.text, "exit status 2: smartctl: no such device");
	lst_hook_result_clear(&r);
	printf("ok: runner: a hook keeps its output's last %d bytes, a collector its stdout's first "
	       "%d, stderr only in the text\n",
	       LST_HOOK_OUTPUT_MAX, LST_COLLECT_OUTPUT_MAX);
}

static void test_fds_env(void)
{
	int leak = open("/dev/null", O_RDONLY); /* no O_CLOEXEC on purpose */
	struct lst_hook_result r;

	T_ASSERT(leak >= 3);
	setenv("LST_TEST_SECRET", "x", 1);
	r = s_run(LST_HOOK_HOOK, LST_NS_PER_S * 10, "ls /proc/self/fd");
	/* ls's own: 0, 1, 2 and the folder it reads (3) */
	T_EQ_STR(r.output, "0\n1\n2\n3\n");
	lst_hook_result_clear(&r);
	{
		char *argv[] = { "/usr/bin/env", NULL };
		struct lst_hook_spec s = { .argv = argv,
					   .timeout = LST_NS_PER_S,
					   .name = "h",
					   .phase = "2",
					   .point = "5",
					   .agent = "ag" };

		T_EQ_INT(lst_hook_run(&s, &r), 0);
	}
	{
		/* and the run's token, by which what it leaves behind is found (lst_hook_tree) */
		char want[512];

		snprintf(want, sizeof(want),
			 "PATH=/usr/sbin:/usr/bin:/sbin:/bin\nLANG=C\nLOCKSTEP_PHASE=2\n"
			 "LOCKSTEP_POINT=5\nLOCKSTEP_HOOK=h\nLOCKSTEP_AGENT=ag\n"
			 "LOCKSTEP_HOOK_RUN=%ld.",
			 (long)getpid());
		T_ASSERT(r.output && !strncmp(r.output, want, strlen(want)));
	}
	lst_hook_result_clear(&r);
	r = s_run(LST_HOOK_HOOK, LST_NS_PER_S * 10, "pwd");
	T_EQ_STR(r.output, "/\n");
	lst_hook_result_clear(&r);
	close(leak);
	printf("ok: runner: no descriptor leaks into the child; the environment is the fixed one, cwd /\n");
}

/* Wait for a job's eventfd (at most ms). */
static void s_wait_job(lst_hook_job *j, int ms)
{
	struct pollfd pf = { .fd = lst_hook_job_eventfd(j), .events = POLLIN };

	T_EQ_INT(poll(&pf, 1, ms), 1);
	T_ASSERT(lst_hook_job_finished(j));
}

static void test_jobs(void)
{
	char *argv[] = { "/bin/true", NULL };
	struct lst_hook_spec s = { .argv = argv, .timeout = LST_NS_PER_S, .name = "t" };
	struct lst_hook_result *r;
	int64_t at = lst_mono_ns() + 200 * LST_NS_PER_MS, t;
	lst_err err;
	lst_hook_job *j = lst_hook_job_new(&s, at, &err);

	T_ASSERT(j);
	T_ASSERT(!lst_hook_job_finished(j));
	s_wait_job(j, 3000);
	r = lst_hook_job_result(j);
	T_EQ_INT(r->status, 0);
	printf("job: started %+.3f ms from its instant\n", (double)(r->start - at) / 1e6);
	T_ASSERT(r->start >= at);
	if (r->start > at + 20 * LST_NS_PER_MS)
		T_FAIL("a job started %.3f ms late", (double)(r->start - at) / 1e6);
	lst_hook_job_release(&j);
	T_ASSERT(!j);

	/* Cancelled before its instant: finishes at once, not run. */
	t = lst_mono_ns();
	j = lst_hook_job_new(&s, t + 10 * LST_NS_PER_S, &err);
	T_ASSERT(j);
	lst_hook_job_cancel(j, "the point ended");
	s_wait_job(j, 1000);
	T_ASSERT(lst_mono_ns() - t < 500 * LST_NS_PER_MS);
	r = lst_hook_job_result(j);
	T_EQ_INT(r->status, -1);
	T_EQ_INT(r->start, 0);
	T_EQ_STR(r->text, "not run: the point ended");
	T_ASSERT(!lst_hook_job_started(j));
	lst_hook_job_release(&j);

	/* Released while waiting: it frees itself, nothing runs. */
	j = lst_hook_job_new(&s, lst_mono_ns() + 10 * LST_NS_PER_S, &err);
	lst_hook_job_release(&j);
	lst_sleep_ns(50 * LST_NS_PER_MS);
	printf("ok: jobs: on their instant, cancelled before it, released\n");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_config_good();
	test_config_bad();
	test_status();
	test_bounds();
	test_fds_env();
	test_jobs();
	test_timeout();
	return 0;
}
