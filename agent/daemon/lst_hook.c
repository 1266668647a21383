/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hook runner: posix_spawn with a cleared signal mask, a process group of its own and every
 * descriptor above stderr closed (posix_spawn_file_actions_addclosefrom_np), then one poll loop
 * over the output pipe(s) and a pidfd until the child has exited or its time is up. A timeout
 * sends SIGTERM to the group and SIGKILL 2 s later (and, once the leader is gone, SIGKILL to
 * whatever of its group is left, so a `sleep` grandchild cannot hold the pipe open). Once the
 * leader is gone, lst_hook_tree ends everything else it started, in its group or not; then the
 * pipes are drained for at most S_DRAIN_NS.
 *
 * Jobs: one detached thread per job, which waits for its instant (a condition variable on the
 * monotonic clock until S_COARSE_NS before it, so that a cancel is seen at once, then
 * lst_sleep_until_ns for the last stretch, as a point's jobs wait for t0), runs the command
 * and pokes the eventfd. The job is shared by that thread and its owner (two references, the
 * last one out frees it); started/cancel are decided under the mutex, so a cancelled job never
 * starts its command and a started one always finishes it.
 */
#include "lst_hook.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_hook_tree.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_ERR_TAIL 512			 /* a collector's stderr kept for the text */
#define S_DRAIN_NS (200 * LST_NS_PER_MS) /* output read after the child exited */
#define S_POLL_FALLBACK_MS 10		 /* without a pidfd: waitpid this often */
#define S_COARSE_NS (5 * LST_NS_PER_MS)	 /* cond wait until this before the instant */
#define S_SPIN_NS (200 * LST_NS_PER_US)	 /* then sleep and spin, as jobs do for t0 */
#define S_THREAD_STACK (256 * 1024)

/* ---------------------------------------------------------------- output buffers */

struct s_buf {
	char *b;
	size_t len, max;
	bool tail; /* keep the last max bytes (else the first) */
	uint64_t dropped;
};

static void s_buf_add(struct s_buf *o, const char *p, size_t n)
{
	if (!o->tail) {
		size_t take = LST_MIN(n, o->max - o->len);

		memcpy(o->b + o->len, p, take);
		o->len += take;
		o->dropped += n - take;
		return;
	}
	if (n >= o->max) {
		o->dropped += o->len + n - o->max;
		memcpy(o->b, p + n - o->max, o->max);
		o->len = o->max;
		return;
	}
	if (o->len + n > o->max) {
		size_t drop = o->len + n - o->max;

		memmove(o->b, o->b + drop, o->len - drop);
		o->len -= drop;
		o->dropped += drop;
	}
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

/* Read what fd has into o. Returns false at EOF or on an error (the fd is done). */
static bool s_read_into(int fd, struct s_buf *o)
{
	char chunk[4096];

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n > 0) {
			s_buf_add(o, chunk, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
}

/* ---------------------------------------------------------------- spawning */

struct s_child {
	pid_t pid;
	int out, err;			     /* read ends (err -1 for a hook) */
	int pidfd;			     /* -1 when the kernel has no pidfd_open */
	char token[LST_HOOK_TREE_TOKEN_MAX]; /* LOCKSTEP_HOOK_RUN: finds what it left */
};

#define S_NENV 7

static void s_env(char env[S_NENV][LST_TEXT_MAX], char *envp[S_NENV + 1],
		  const struct lst_hook_spec *s, const char *token)
{
	snprintf(env[0], LST_TEXT_MAX, "PATH=/usr/sbin:/usr/bin:/sbin:/bin");
	snprintf(env[1], LST_TEXT_MAX, "LANG=C");
	snprintf(env[2], LST_TEXT_MAX, "LOCKSTEP_PHASE=%s", s->phase ? s->phase : "");
	snprintf(env[3], LST_TEXT_MAX, "LOCKSTEP_POINT=%s", s->point ? s->point : "");
	snprintf(env[4], LST_TEXT_MAX, "LOCKSTEP_HOOK=%s", s->name ? s->name : "");
	snprintf(env[5], LST_TEXT_MAX, "LOCKSTEP_AGENT=%s", s->agent ? s->agent : "");
	snprintf(env[6], LST_TEXT_MAX, "%s=%s", LST_HOOK_TREE_ENV, token);
	for (int i = 0; i < S_NENV; i++)
		envp[i] = env[i];
	envp[S_NENV] = NULL;
}

/* What lst_hook_tree_spawn starts: posix_spawn with its actions and attributes. */
struct s_spawn_args {
	const char *path;
	const posix_spawn_file_actions_t *fa;
	const posix_spawnattr_t *at;
	char *const *argv, *const *envp;
};

static int s_spawn_leader(void *arg, pid_t *pid)
{
	const struct s_spawn_args *a = arg;

	return -posix_spawn(pid, a->path, a->fa, a->at, a->argv, a->envp);
}

static int s_spawn_attrs(posix_spawnattr_t *at)
{
	sigset_t none, all;

	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_init(at);
	posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					     POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(at, 0);
	posix_spawnattr_setsigmask(at, &none);
	posix_spawnattr_setsigdefault(at, &all);
	return 0;
}

/* Spawn s with its pipes. Returns 0 or -errno (c's fds then closed). */
static int s_spawn(const struct lst_hook_spec *s, struct s_child *c, int64_t *start)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, null = -1, rc;
	char env[S_NENV][LST_TEXT_MAX], *envp[S_NENV + 1];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	struct s_spawn_args args = {
		.path = s->argv[0], .fa = &fa, .at = &at, .argv = s->argv, .envp = envp
	};

	if (pipe2(po, O_CLOEXEC) || (s->kind == LST_HOOK_COLLECTOR && pipe2(pe, O_CLOEXEC)) ||
	    (null = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		rc = -errno;
		goto close_fds;
	}
	lst_hook_tree_init(); /* without it, orphans go to init: fewer found, none missed by group */
	lst_hook_tree_token(c->token, sizeof(c->token));
	s_env(env, envp, s, c->token);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, null, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1] >= 0 ? pe[1] : po[1], 2);
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	posix_spawn_file_actions_addchdir_np(&fa, "/");
	s_spawn_attrs(&at);
	*start = lst_mono_ns();
	rc = lst_hook_tree_spawn(s_spawn_leader, &args, c->token, &c->pid);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (rc)
		goto close_fds;
	close(po[1]);
	if (pe[1] >= 0)
		close(pe[1]);
	close(null);
	c->out = po[0];
	c->err = pe[0];
	fcntl(c->out, F_SETFL, O_NONBLOCK);
	if (c->err >= 0)
		fcntl(c->err, F_SETFL, O_NONBLOCK);
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	return 0;
close_fds:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	if (null >= 0)
		close(null);
	return rc;
}

/* ---------------------------------------------------------------- waiting */

struct s_wait {
	struct s_buf out, err;
	bool out_open, err_open;
	bool exited;
	int status; /* waitpid's */
	int term;   /* 0, SIGTERM or SIGKILL: what the timeout sent */
};

static void s_reap(struct s_child *c, struct s_wait *w, int flags)
{
	pid_t p;

	if (w->exited)
		return;
	do
		p = waitpid(c->pid, &w->status, flags);
	while (p < 0 && errno == EINTR);
	if (p == c->pid || (p < 0 && errno == ECHILD))
		w->exited = true;
}

/* One poll over the pipes and the pidfd, for at most until (ns). */
static void s_poll_once(struct s_child *c, struct s_wait *w, int64_t until)
{
	struct pollfd pf[3];
	int n = 0, ms;
	int64_t left = until - lst_mono_ns();

	if (w->out_open)
		pf[n++] = (struct pollfd){ .fd = c->out, .events = POLLIN };
	if (w->err_open)
		pf[n++] = (struct pollfd){ .fd = c->err, .events = POLLIN };
	if (c->pidfd >= 0 && !w->exited)
		pf[n++] = (struct pollfd){ .fd = c->pidfd, .events = POLLIN };
	ms = left <= 0 ? 0 : (int)((left + LST_NS_PER_MS - 1) / LST_NS_PER_MS);
	if (c->pidfd < 0 && !w->exited)
		ms = LST_MIN(ms, S_POLL_FALLBACK_MS);
	if (poll(pf, (nfds_t)n, ms) < 0 && errno != EINTR)
		return;
	if (w->out_open)
		w->out_open = s_read_into(c->out, &w->out);
	if (w->err_open)
		w->err_open = s_read_into(c->err, &w->err);
	s_reap(c, w, WNOHANG);
}

/* Wait for the child, reading its output; kill its group at the timeout. */
static void s_wait_child(const struct lst_hook_spec *s, struct s_child *c, struct s_wait *w,
			 int64_t start)
{
	int64_t deadline = start + s->timeout, drain_end = 0;

	w->out_open = true;
	w->err_open = c->err >= 0;
	while (!w->exited || ((w->out_open || w->err_open) && lst_mono_ns() < drain_end)) {
		int64_t now = lst_mono_ns();

		if (!w->exited && now >= deadline) {
			w->term = w->term ? SIGKILL : SIGTERM;
			kill(-c->pid, w->term);
			deadline = w->term == SIGTERM ? now + LST_HOOK_KILL_GRACE_NS : INT64_MAX;
		}
		s_poll_once(c, w, w->exited ? drain_end : deadline);
		if (w->exited && !drain_end) {
			if (w->term)
				kill(-c->pid, SIGKILL); /* what is left of its group */
			/* Nothing it started outlives it: its group, setsid children, daemons. */
			lst_hook_tree_end(c->pid, c->token, !w->term);
			drain_end = lst_mono_ns() + S_DRAIN_NS;
		}
	}
}

/* ---------------------------------------------------------------- the result */

/* The last line of a collector's stderr, for the text. */
static void s_last_line(const struct s_buf *e, char *buf, size_t size)
{
	size_t end = e->len, beg;

	while (end && (e->b[end - 1] == '\n' || e->b[end - 1] == ' '))
		end--;
	beg = end;
	while (beg && e->b[beg - 1] != '\n')
		beg--;
	snprintf(buf, size, "%.*s", (int)(end - beg), e->b + beg);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
}

static void s_status(const struct lst_hook_spec *s, const struct s_wait *w,
		     struct lst_hook_result *r)
{
	char line[256] = "";

	if (WIFEXITED(w->status))
		r->status = WEXITSTATUS(w->status);
	else if (WIFSIGNALED(w->status))
		r->status = 128 + WTERMSIG(w->status);
	else
		r->status = -1;
	if (s->kind == LST_HOOK_COLLECTOR)
		s_last_line(&w->err, line, sizeof(line));
	if (w->term)
		snprintf(r->text, sizeof(r->text), "timed out after %.3g s: killed (%s)",
			 (double)s->timeout / 1e9, w->term == SIGTERM ? "SIGTERM" : "SIGKILL");
	else if (WIFSIGNALED(w->status))
		snprintf(r->text, sizeof(r->text), "killed by signal %d (%s)%s%s",
			 WTERMSIG(w->status), strsignal(WTERMSIG(w->status)), line[0] ? ": " : "",
			 line);
	else if (r->status)
		snprintf(r->text, sizeof(r->text), "exit status %d%s%s", r->status,
			 line[0] ? ": " : "", line);
}

/*
 * A NUL byte a program printed becomes '?': the wire's bytes may hold none (the receiver keeps
 * them as a C string), and one refused encoding would lose the whole HOOK_DONE or EVENT.
 */
static void s_no_nul(char *b, size_t len)
{
	for (char *p = memchr(b, '\0', len); p; p = memchr(p, '\0', len - (size_t)(p - b)))
		*p = '?';
}

void lst_hook_result_clear(struct lst_hook_result *r)
{
	free(r->output);
	r->output = NULL;
	r->output_len = 0;
}

int lst_hook_run(const struct lst_hook_spec *s, struct lst_hook_result *r)
{
	struct s_child c = { .pid = -1, .out = -1, .err = -1, .pidfd = -1 };
	bool collector = s->kind == LST_HOOK_COLLECTOR;
	size_t max = collector ? LST_COLLECT_OUTPUT_MAX : LST_HOOK_OUTPUT_MAX;
	struct s_wait w = {
		.out = { .b = lst_malloc(max + 1), .max = max, .tail = !collector },
		.err = { .b = lst_malloc(S_ERR_TAIL), .max = S_ERR_TAIL, .tail = true },
	};
	int64_t start = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = s_spawn(s, &c, &start);
	if (rc) {
		r->status = -1;
		snprintf(r->text, sizeof(r->text), "cannot start %s: %s", s->argv[0],
			 strerror(-rc));
		free(w.out.b);
		free(w.err.b);
		return rc;
	}
	s_wait_child(s, &c, &w, start);
	r->start = start;
	r->end = lst_mono_ns();
	s_status(s, &w, r);
	r->truncated = (uint32_t)LST_MIN(w.out.dropped, UINT32_MAX);
	r->output_len = (uint32_t)w.out.len;
	s_no_nul(w.out.b, w.out.len);
	if (w.out.len) {
		w.out.b[w.out.len] = '\0';
		r->output = w.out.b;
	} else {
		free(w.out.b);
	}
	free(w.err.b);
	close(c.out);
	if (c.err >= 0)
		close(c.err);
	if (c.pidfd >= 0)
		close(c.pidfd);
	return 0;
}

/* ---------------------------------------------------------------- jobs */

struct lst_hook_job {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	_Atomic int refs;
	_Atomic int finished;
	bool cancel, started; /* under mu */
	char why[LST_TEXT_MAX];
	int efd;
	int64_t at;
	char **argv;
	struct lst_hook_spec spec; /* strings below, argv above */
	char name[LST_NAME_MAX], phase[32], point[32], agent[LST_NAME_MAX];
	struct lst_hook_result r;
};

static void s_job_free(lst_hook_job *j)
{
	for (size_t i = 0; j->argv[i]; i++)
		free(j->argv[i]);
	free(j->argv);
	lst_hook_result_clear(&j->r);
	close(j->efd);
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cv);
	free(j);
}

static void s_job_unref(lst_hook_job *j)
{
	if (atomic_fetch_sub(&j->refs, 1) == 1)
		s_job_free(j);
}

/* Wait until the job's instant or a cancel; returns whether to start. */
static bool s_job_wait(lst_hook_job *j)
{
	bool go;

	pthread_mutex_lock(&j->mu);
	while (!j->cancel && lst_mono_ns() < j->at - S_COARSE_NS) {
		int64_t until = j->at - S_COARSE_NS;
		struct timespec ts = { .tv_sec = (time_t)(until / LST_NS_PER_S),
				       .tv_nsec = (long)(until % LST_NS_PER_S) };

		pthread_cond_timedwait(&j->cv, &j->mu, &ts);
	}
	go = !j->cancel;
	pthread_mutex_unlock(&j->mu);
	if (go && lst_mono_ns() < j->at)
		lst_sleep_until_ns(j->at, S_SPIN_NS);
	pthread_mutex_lock(&j->mu);
	go = !j->cancel;
	j->started = go;
	pthread_mutex_unlock(&j->mu);
	return go;
}

static void *s_job_main(void *arg)
{
	lst_hook_job *j = arg;
	uint64_t one = 1;

	if (s_job_wait(j)) {
		lst_hook_run(&j->spec, &j->r);
	} else {
		j->r.status = -1;
		snprintf(j->r.text, sizeof(j->r.text), "not run: %s", j->why);
	}
	atomic_store_explicit(&j->finished, 1, memory_order_release);
	if (write(j->efd, &one, sizeof(one)) < 0) {
		/* an eventfd write fails only on overflow; the reactor reads finished anyway */
	}
	s_job_unref(j);
	return NULL;
}

lst_hook_job *lst_hook_job_new(const struct lst_hook_spec *s, int64_t at, lst_err *err)
{
	lst_hook_job *j = lst_calloc(1, sizeof(*j));
	pthread_condattr_t ca;
	pthread_attr_t ta;
	pthread_t t;
	size_t argc = 0;
	int rc;

	while (s->argv[argc])
		argc++;
	j->argv = lst_calloc(argc + 1, sizeof(char *));
	for (size_t i = 0; i < argc; i++)
		j->argv[i] = lst_strdup(s->argv[i]);
	lst_copy(j->name, sizeof(j->name), s->name ? s->name : "");
	lst_copy(j->phase, sizeof(j->phase), s->phase ? s->phase : "");
	lst_copy(j->point, sizeof(j->point), s->point ? s->point : "");
	lst_copy(j->agent, sizeof(j->agent), s->agent ? s->agent : "");
	j->spec = (struct lst_hook_spec){ .argv = j->argv,
					  .kind = s->kind,
					  .timeout = s->timeout,
					  .name = j->name,
					  .phase = j->phase,
					  .point = j->point,
					  .agent = j->agent };
	j->at = at;
	j->refs = 2;
	pthread_mutex_init(&j->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&j->cv, &ca);
	pthread_condattr_destroy(&ca);
	j->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (j->efd < 0) {
		lst_err_sys(err, -errno, "eventfd");
		j->efd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* for s_job_free's close */
		s_job_free(j);
		return NULL;
	}
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, S_THREAD_STACK);
	pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &ta, s_job_main, j);
	pthread_attr_destroy(&ta);
	if (rc) {
		lst_err_sys(err, -rc, "hook thread");
		s_job_free(j);
		return NULL;
	}
	return j;
}

int lst_hook_job_eventfd(const lst_hook_job *job)
{
	return job->efd;
}

bool lst_hook_job_finished(const lst_hook_job *job)
{
	return atomic_load_explicit(&((lst_hook_job *)job)->finished, memory_order_acquire);
}

bool lst_hook_job_started(const lst_hook_job *job)
{
	lst_hook_job *j = (lst_hook_job *)job;
	bool started;

	pthread_mutex_lock(&j->mu);
	started = j->started;
	pthread_mutex_unlock(&j->mu);
	return started;
}

void lst_hook_job_cancel(lst_hook_job *job, const char *why)
{
	pthread_mutex_lock(&job->mu);
	if (!job->cancel && !job->started) {
		job->cancel = true;
		lst_copy(job->why, sizeof(job->why), why);
		pthread_cond_signal(&job->cv);
	}
	pthread_mutex_unlock(&job->mu);
}

struct lst_hook_result *lst_hook_job_result(lst_hook_job *job)
{
	LST_ASSERT(lst_hook_job_finished(job));
	return &job->r;
}

void lst_hook_job_release(lst_hook_job **p)
{
	lst_hook_job *j = *p;

	if (!j)
		return;
	*p = NULL;
	lst_hook_job_cancel(j, "released");
	s_job_unref(j);
}
