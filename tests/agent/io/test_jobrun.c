/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_run from the outside, with the null engine (no device, no root): a run's samples come out
 * on the grid, and a thread that cannot be created leaves nothing behind: lst_run_start fails,
 * the jobs already running stop, and lst_run_destroy joins every thread made and frees every
 * job. pthread_create is wrapped (-Wl,--wrap) to fail on a chosen call and to count the job
 * threads still alive.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "lst_run.h"
#include "lst_test.h"
#include "lst_time.h"

int __real_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
			  void *arg);
int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
			  void *arg);

static int s_fail_at = -1; /* the call (from 0) that fails with EAGAIN; -1 = none */
static int s_calls;
static atomic_int s_live; /* threads made here whose function has not returned */

struct s_tramp {
	void *(*fn)(void *);
	void *arg;
};

static void *s_trampoline(void *p)
{
	struct s_tramp t = *(struct s_tramp *)p;
	void *r;

	free(p);
	r = t.fn(t.arg);
	atomic_fetch_sub(&s_live, 1);
	return r;
}

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
			  void *arg)
{
	struct s_tramp *t;
	int rc;

	if (s_calls++ == s_fail_at)
		return EAGAIN;
	t = malloc(sizeof(*t));
	T_ASSERT(t);
	t->fn = fn;
	t->arg = arg;
	atomic_fetch_add(&s_live, 1);
	rc = __real_pthread_create(thread, attr, s_trampoline, t);
	if (rc) {
		atomic_fetch_sub(&s_live, 1);
		free(t);
	}
	return rc;
}

static lst_run *s_null_run(int64_t jobs, int64_t runtime)
{
	struct lst_run_path p = { .fd = -1, .name = "null" };
	lst_run *run;
	lst_err err;

	lst_workload_init(&p.w);
	p.w.engine = LST_ENGINE_NULL;
	p.w.size = 1024 * 1024;
	p.w.jobs = jobs;
	p.w.iodepth = 4;
	p.w.runtime = runtime;
	p.w.interval = 100 * LST_NS_PER_MS;
	run = lst_run_new(&p, 1, &err);
	if (!run)
		T_FAIL("lst_run_new: %s", err.msg);
	return run;
}

struct s_seen {
	int64_t next_k;
	uint64_t n, ios;
	bool last;
};

static void s_on_sample(const lst_sample *s, void *arg)
{
	struct s_seen *seen = arg;

	T_EQ_INT(s->interval, seen->next_k);
	T_ASSERT(!seen->last);
	seen->next_k++;
	seen->n++;
	seen->ios += s->dir[LST_DIR_READ].ios;
	seen->last = s->flags & LST_SAMPLE_LAST;
}

static void test_samples(void)
{
	lst_run *run = s_null_run(2, 300 * LST_NS_PER_MS);
	struct s_seen seen = { 0 };
	int64_t deadline = lst_mono_ns() + 5 * LST_NS_PER_S;
	lst_err err;

	T_EQ_INT(lst_run_start(run, lst_mono_ns() + 20 * LST_NS_PER_MS, &err), 0);
	for (;;) {
		struct pollfd pfd = { .fd = lst_run_eventfd(run), .events = POLLIN };

		if (lst_mono_ns() > deadline)
			T_FAIL("the run did not end within 5 s");
		poll(&pfd, 1, 100);
		if (lst_run_collect(run, s_on_sample, &seen))
			break;
	}
	T_ASSERT(seen.last);
	T_ASSERT(seen.n >= 3 && seen.n <= 4);
	T_ASSERT(seen.ios > 0);
	T_EQ_INT(lst_run_error(run, &err), 0);
	lst_run_destroy(&run);
	T_ASSERT(!run);
	T_EQ_INT(atomic_load(&s_live), 0);
	printf("ok: a null run of 2 jobs: %llu samples from k=0, the last flagged; every thread "
	       "joined\n",
	       (unsigned long long)seen.n);
}

static void test_thread_failure(void)
{
	lst_run *run = s_null_run(4, 10 * LST_NS_PER_S);
	lst_err err;

	s_calls = 0;
	s_fail_at = 2;
	T_EQ_INT(lst_run_start(run, lst_mono_ns() + 500 * LST_NS_PER_MS, &err), -EAGAIN);
	T_CONTAINS(err.msg, "pthread_create for job 2");
	s_fail_at = -1;
	T_EQ_INT(s_calls, 3);
	/* Two job threads wait for t0; destroy must stop and join them before it frees them. */
	lst_run_destroy(&run);
	T_EQ_INT(atomic_load(&s_live), 0);
	printf("ok: the third of four job threads cannot be made: start fails, destroy joins the "
	       "two made\n");
}

int main(void)
{
	test_samples();
	test_thread_failure();
	return 0;
}
