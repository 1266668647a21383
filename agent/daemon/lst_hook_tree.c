/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Finding and ending what a hook started (lst_hook_tree.h): a registry of running hook runs,
 * one /proc walk per round that reads each process's parent, group and state (and, for those
 * not yet known to be a run's, its environment), a closure over the parent links, and a signal
 * round. Rounds repeat every S_ROUND_NS until nothing of the run is left, so a child forked
 * during the kill is found in the next round.
 */
#include "lst_hook_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"

#define S_ROUND_NS (10 * LST_NS_PER_MS)	  /* between two walks */
#define S_KILL_WAIT_NS (2 * LST_NS_PER_S) /* after SIGKILL, at most */
#define S_ENV_MAX (256 * 1024)		  /* bytes of an environment read */

struct s_run {
	pid_t leader;
	char token[LST_HOOK_TREE_TOKEN_MAX];
};

static pthread_mutex_t s_mu = PTHREAD_MUTEX_INITIALIZER;
static struct s_run *s_runs; /* under s_mu */
static size_t s_nruns;
static unsigned long s_seq;
static pthread_once_t s_once = PTHREAD_ONCE_INIT;
static int s_init_rc;

static void s_init(void)
{
	s_init_rc = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) ? -errno : 0;
}

int lst_hook_tree_init(void)
{
	pthread_once(&s_once, s_init);
	return s_init_rc;
}

void lst_hook_tree_token(char *buf, size_t size)
{
	pthread_mutex_lock(&s_mu);
	snprintf(buf, size, "%ld.%lu", (long)getpid(), ++s_seq);
	pthread_mutex_unlock(&s_mu);
}

int lst_hook_tree_spawn(lst_hook_tree_spawn_fn *spawn, void *arg, const char *token, pid_t *leader)
{
	int rc;

	pthread_mutex_lock(&s_mu);
	rc = spawn(arg, leader);
	if (!rc) {
		s_runs = lst_realloc(s_runs, (s_nruns + 1) * sizeof(*s_runs));
		s_runs[s_nruns].leader = *leader;
		lst_copy(s_runs[s_nruns].token, sizeof(s_runs[s_nruns].token), token);
		s_nruns++;
	}
	pthread_mutex_unlock(&s_mu);
	return rc;
}

static void s_forget(pid_t leader)
{
	pthread_mutex_lock(&s_mu);
	for (size_t i = 0; i < s_nruns; i++) {
		if (s_runs[i].leader == leader) {
			s_runs[i] = s_runs[--s_nruns];
			break;
		}
	}
	pthread_mutex_unlock(&s_mu);
}

/* ---------------------------------------------------------------- the walk */

struct s_proc {
	pid_t pid, ppid, pgrp;
	char state;
	bool mine;
};

/* What one run (or, at exit, all of them) is looking for. */
struct s_want {
	pid_t self;
	pid_t leader;	   /* its group; 0 at exit */
	const char *token; /* "NAME=VALUE" as in an environment; at exit a prefix */
	bool at_exit;	   /* every run's: any token of this agent, every leader, every orphan */
	/* per walk, under s_mu: the other runs' leaders, never ours (but at exit) */
	pid_t *others;
	size_t nothers;
	bool orphans; /* the agent's children that lead no run are ours: no other run */
};

/* /proc/PID/stat: state, parent and group, after the command's last ')'. */
static bool s_stat(pid_t pid, struct s_proc *p)
{
	char path[64], buf[1024], *rp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	if (!rp || sscanf(rp + 1, " %c %d %d", &p->state, &p->ppid, &p->pgrp) != 3)
		return false;
	p->pid = pid;
	return true;
}

/* Does pid's environment hold the token (the whole entry, or at exit its prefix)? */
static bool s_env_has(pid_t pid, const struct s_want *w)
{
	size_t tlen = strlen(w->token), len = 0;
	char path[64], *buf;
	bool found = false;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/environ", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	buf = lst_malloc(S_ENV_MAX + 1);
	while (len < S_ENV_MAX && (n = read(fd, buf + len, S_ENV_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	for (size_t i = 0; i < len && !found; i += strlen(buf + i) + 1)
		found = w->at_exit ? !strncmp(buf + i, w->token, tlen) : !strcmp(buf + i, w->token);
	free(buf);
	return found;
}

static bool s_other_leader(const struct s_want *w, pid_t pid)
{
	for (size_t i = 0; i < w->nothers; i++)
		if (w->others[i] == pid)
			return true;
	return false;
}

/* Is p one of ours by itself (before following parents)? The leader is, for its children. */
static bool s_mine(const struct s_want *w, const struct s_proc *p)
{
	if (p->pid == w->self)
		return false;
	if (p->pid == w->leader)
		return true;
	if (s_other_leader(w, p->pid))
		return w->at_exit;
	if (w->leader && p->pgrp == w->leader)
		return true;
	if (w->orphans && p->ppid == w->self)
		return true;
	return p->state != 'Z' && s_env_has(p->pid, w);
}

/* The other runs' leaders into w (under s_mu), and whether the agent's orphans are ours. */
static void s_leaders_but(struct s_want *w)
{
	w->others = lst_realloc(w->others, (s_nruns + 1) * sizeof(*w->others));
	w->nothers = 0;
	for (size_t i = 0; i < s_nruns; i++)
		if (s_runs[i].leader != w->leader)
			w->others[w->nothers++] = s_runs[i].leader;
	w->orphans = w->at_exit || !w->nothers; /* alone: every orphan is this run's */
}

/* Every process, with mine set for the run's. Returns how many; *out is the caller's to free. */
static size_t s_walk(struct s_want *w, struct s_proc **out)
{
	struct s_proc *ps = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	bool more = true;
	DIR *d;

	*out = NULL;
	/* Under the lock, no hook is being spawned: a leader not yet registered is never taken
	 * for an orphan. */
	pthread_mutex_lock(&s_mu);
	s_leaders_but(w);
	d = opendir("/proc");
	while (d && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			ps = lst_realloc(ps, cap * sizeof(*ps));
		}
		if (s_stat((pid_t)pid, &ps[n])) {
			ps[n].mine = s_mine(w, &ps[n]);
			n++;
		}
	}
	if (d)
		closedir(d);
	pthread_mutex_unlock(&s_mu);
	while (more) { /* descendants of ours are ours (setsid keeps the parent) */
		more = false;
		for (size_t i = 0; i < n; i++) {
			if (ps[i].mine || ps[i].pid == w->self || s_other_leader(w, ps[i].pid))
				continue;
			for (size_t j = 0; j < n; j++) {
				if (ps[j].mine && ps[j].pid == ps[i].ppid) {
					ps[i].mine = more = true;
					break;
				}
			}
		}
	}
	*out = ps;
	return n;
}

/*
 * One round: reap ours that died as the agent's children, signal the living (sig 0: none).
 * Returns how many of ours still live.
 */
static size_t s_round(struct s_want *w, int sig, size_t *signalled)
{
	struct s_proc *ps;
	size_t n = s_walk(w, &ps), alive = 0;

	for (size_t i = 0; i < n; i++) {
		if (!ps[i].mine || ps[i].pid == w->leader) /* the caller's to end and reap */
			continue;
		if (ps[i].state == 'Z') {
			if (ps[i].ppid == w->self)
				waitpid(ps[i].pid, NULL, WNOHANG);
			continue;
		}
		alive++;
		if (sig && !kill(ps[i].pid, sig)) {
			(*signalled)++;
			if (sig == SIGTERM)
				kill(ps[i].pid, SIGCONT); /* a stopped one must run to see it */
		}
	}
	free(ps);
	return alive;
}

/* SIGTERM and a grace (when grace), then SIGKILL, each round after a fresh walk. */
static size_t s_end(struct s_want *w, bool grace)
{
	int64_t now = lst_mono_ns(), term_end = now + (grace ? LST_HOOK_TREE_GRACE_NS : 0);
	int64_t kill_end = term_end + S_KILL_WAIT_NS;
	size_t signalled = 0;
	bool termed = false;

	for (;;) {
		int sig = 0;

		now = lst_mono_ns();
		if (grace && !termed)
			sig = SIGTERM;
		else if (now >= term_end)
			sig = SIGKILL;
		termed = true;
		if (!s_round(w, sig, &signalled) || now >= kill_end)
			break;
		lst_sleep_ns(S_ROUND_NS);
	}
	return signalled;
}

size_t lst_hook_tree_end(pid_t leader, const char *token, bool grace)
{
	char entry[sizeof(LST_HOOK_TREE_ENV) + LST_HOOK_TREE_TOKEN_MAX + 1];
	struct s_want w = { .self = getpid(), .leader = leader, .token = entry };
	size_t n;

	snprintf(entry, sizeof(entry), "%s=%s", LST_HOOK_TREE_ENV, token);
	n = s_end(&w, grace);
	free(w.others);
	s_forget(leader);
	return n;
}

size_t lst_hook_tree_end_all(void)
{
	char prefix[sizeof(LST_HOOK_TREE_ENV) + 32];
	struct s_want w = { .self = getpid(), .token = prefix, .at_exit = true };
	size_t n;

	snprintf(prefix, sizeof(prefix), "%s=%ld.", LST_HOOK_TREE_ENV, (long)w.self);
	n = s_end(&w, true);
	free(w.others);
	return n;
}
