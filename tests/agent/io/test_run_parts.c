/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lst_run's sample split by path, from the outside, with the null engine (no device, no root).
 * Three paths with known byte budgets (one reading, one writing with two jobs, one reading for
 * half as long): every interval's parts add up exactly to the whole sample (counts and
 * histograms), carry its interval and flags, and over the run each part counts exactly its
 * path's I/Os and none of the others'; a path whose jobs are over has the span 0/0. A run of
 * one path has no parts.
 */
#include <poll.h>
#include <stdlib.h>

#include "lst_run.h"
#include "lst_test.h"
#include "lst_time.h"

#define S_NPATHS 3
#define S_BS 4096

/* Per path: what it does and how many I/Os its budget allows. */
static const struct {
	int rw;
	int64_t jobs, ios, rate;
} s_path[S_NPATHS] = {
	/* the first two last about 0.6 s; the third, unthrottled, is done in microseconds, so it
	 * sits out every later interval even on a loaded machine */
	{ LST_RW_READ, 1, 300, 500 },
	{ LST_RW_RANDWRITE, 2, 300, 500 },
	{ LST_RW_READ, 1, 50, 0 },
};

struct s_seen {
	const lst_run *run;
	int64_t next_k;
	bool last;
	uint64_t ios[S_NPATHS][LST_DIR_N];
	unsigned idle[S_NPATHS]; /* intervals in which the path had no sample (span 0/0) */
	lst_hist sum;		 /* scratch */
};

static void s_fill(struct lst_run_path *p, int i, const char *name)
{
	*p = (struct lst_run_path){ .fd = -1, .name = name };
	lst_workload_init(&p->w);
	p->w.engine = LST_ENGINE_NULL;
	p->w.rw = s_path[i].rw;
	p->w.bs = S_BS;
	p->w.size = 4 * 1024 * 1024;
	p->w.jobs = s_path[i].jobs;
	p->w.iodepth = 2;
	p->w.bytes = s_path[i].ios * S_BS;
	p->w.rate_iops = s_path[i].rate;
	p->w.interval = 50 * LST_NS_PER_MS;
}

/* The parts of one interval against the whole sample. */
static void s_on_sample(const lst_sample *s, void *arg)
{
	struct s_seen *seen = arg;
	uint32_t n = 99;
	const struct lst_sample_part *parts = lst_run_parts(seen->run, &n);

	T_EQ_INT(s->interval, seen->next_k);
	seen->next_k++;
	seen->last = s->flags & LST_SAMPLE_LAST;
	T_EQ_INT(n, S_NPATHS);
	T_ASSERT(parts);
	for (int d = 0; d < LST_DIR_N; d++) {
		uint64_t ios = 0, bytes = 0, errors = 0;

		lst_hist_init(&seen->sum);
		for (uint32_t i = 0; i < n; i++) {
			const lst_sample *ps = &parts[i].s;

			ios += ps->dir[d].ios;
			bytes += ps->dir[d].bytes;
			errors += ps->dir[d].errors;
			lst_hist_add(&seen->sum, &ps->dir[d].lat);
			seen->ios[i][d] += ps->dir[d].ios;
		}
		T_EQ_U64(ios, s->dir[d].ios);
		T_EQ_U64(bytes, s->dir[d].bytes);
		T_EQ_U64(errors, s->dir[d].errors);
		T_ASSERT(lst_hist_equal(&seen->sum, &s->dir[d].lat));
	}
	for (uint32_t i = 0; i < n; i++) {
		const lst_sample *ps = &parts[i].s;

		T_EQ_U64(parts[i].path, i);
		T_EQ_INT(ps->interval, s->interval);
		T_EQ_U64(ps->flags, s->flags);
		T_ASSERT(ps->end_ns >= ps->start_ns);
		if (!ps->start_ns && !ps->end_ns) {
			T_EQ_U64(ps->dir[LST_DIR_READ].ios + ps->dir[LST_DIR_WRITE].ios, 0);
			seen->idle[i]++;
		} else {
			/* Inside the whole sample's span. */
			T_ASSERT(ps->start_ns >= s->start_ns && ps->end_ns <= s->end_ns);
		}
	}
}

static void s_collect_all(lst_run *run, lst_run_sample_fn fn, void *arg)
{
	int64_t deadline = lst_mono_ns() + 10 * LST_NS_PER_S;

	for (;;) {
		struct pollfd pfd = { .fd = lst_run_eventfd(run), .events = POLLIN };

		if (lst_mono_ns() > deadline)
			T_FAIL("the run did not end within 10 s");
		poll(&pfd, 1, 100);
		if (lst_run_collect(run, fn, arg))
			return;
	}
}

static void test_three_paths(void)
{
	static const char *const names[S_NPATHS] = { "null-a", "null-b", "null-c" };
	struct lst_run_path p[S_NPATHS];
	struct s_seen *seen = calloc(1, sizeof(*seen));
	lst_run *run;
	lst_err err;

	T_ASSERT(seen);
	for (int i = 0; i < S_NPATHS; i++)
		s_fill(&p[i], i, names[i]);
	run = lst_run_new(p, S_NPATHS, &err);
	if (!run)
		T_FAIL("lst_run_new: %s", err.msg);
	seen->run = run;
	T_EQ_INT(lst_run_start(run, lst_mono_ns() + 20 * LST_NS_PER_MS, &err), 0);
	s_collect_all(run, s_on_sample, seen);
	T_ASSERT(seen->last);
	T_EQ_INT(lst_run_error(run, &err), 0);
	/* Each part counted exactly its own path's I/Os, in its own direction. */
	for (int i = 0; i < S_NPATHS; i++) {
		int d = s_path[i].rw == LST_RW_READ ? LST_DIR_READ : LST_DIR_WRITE;

		T_EQ_U64(seen->ios[i][d], (uint64_t)s_path[i].ios);
		T_EQ_U64(seen->ios[i][!d], 0);
	}
	/* The third path was done at once: it sat out the later intervals. */
	T_ASSERT(seen->idle[2] >= 1);
	printf("ok: 3 paths over %lld intervals: parts add up to every sample; each counts its "
	       "own path (%u intervals without path 2)\n",
	       (long long)seen->next_k, seen->idle[2]);
	lst_run_destroy(&run);
	free(seen);
}

static void s_on_sample_one(const lst_sample *s, void *arg)
{
	const lst_run *run = arg;
	uint32_t n = 99;

	(void)s;
	T_ASSERT(lst_run_parts(run, &n) == NULL);
	T_EQ_INT(n, 0);
}

static void test_one_path(void)
{
	struct lst_run_path p;
	lst_run *run;
	lst_err err;

	s_fill(&p, 2, "null");
	run = lst_run_new(&p, 1, &err);
	if (!run)
		T_FAIL("lst_run_new: %s", err.msg);
	T_EQ_INT(lst_run_start(run, lst_mono_ns() + 20 * LST_NS_PER_MS, &err), 0);
	s_collect_all(run, s_on_sample_one, run);
	lst_run_destroy(&run);
	printf("ok: a run of one path has no parts\n");
}

int main(void)
{
	test_three_paths();
	test_one_path();
	return 0;
}
