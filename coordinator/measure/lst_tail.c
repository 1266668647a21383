/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tail attribution, the maths (lst_tail.h): the point's thresholds from its merged histogram,
 * each path's exceedances per interval, then shares by path, agent and direction, the paths'
 * hot intervals and whether several paths had them at once. The report reads the samples and
 * prints the results (coordinator/present/lst_report_tail.c).
 */
#include "lst_tail.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_util.h"

/* One path: its agent and its exceedances, [(k - base) * nth + i]. */
struct s_path {
	char name[160];
	char agent[64];
	double *e;
};

struct lst_tail {
	uint64_t limit_ns;
	lst_hist *total; /* pass one's merged histogram, until the thresholds are set */
	bool fixed;	 /* thresholds set */
	size_t nth;
	struct lst_tail_th th[LST_TAIL_MAX_TH];
	double dir_ios[LST_DIR_N][LST_TAIL_MAX_TH];
	size_t npaths;
	struct s_path *paths;
	long base, len; /* the intervals held: [base, base + len) */
	bool any;	/* an interval was added */
};

/* The I/Os of h in bucket i, the overflow values as bucket LST_HIST_NBUCKETS. */
static uint64_t s_bucket(const lst_hist *h, unsigned i)
{
	return i < LST_HIST_NBUCKETS ? h->buckets[i] : h->overflow;
}

struct lst_tail_cut lst_tail_cut_pct(const lst_hist *merged, double pct)
{
	struct lst_tail_cut c = { .ns = lst_hist_percentile(merged, pct) };
	double rank = ceil(pct / 100 * (double)merged->count);
	uint64_t cum = 0;

	rank = rank < 1 ? 1 : rank;
	while (c.bucket < LST_HIST_NBUCKETS && (double)(cum + merged->buckets[c.bucket]) < rank)
		cum += merged->buckets[c.bucket++];
	cum += s_bucket(merged, c.bucket); /* the I/Os up to the cut's bucket, its own included */
	if (s_bucket(merged, c.bucket))
		c.frac = ((double)cum - rank) / (double)s_bucket(merged, c.bucket);
	return c;
}

struct lst_tail_cut lst_tail_cut_at(const lst_hist *merged, uint64_t ns)
{
	struct lst_tail_cut c = { .ns = ns, .bucket = LST_HIST_NBUCKETS };
	uint64_t lo, hi;

	if (ns >= LST_HIST_MAX_NS) {
		c.frac = merged->max > ns;
		return c;
	}
	c.bucket = lst_hist_index(ns);
	lo = lst_hist_bucket_low(c.bucket);
	hi = lo + lst_hist_bucket_width(c.bucket) - 1;
	lo = lo > merged->min ? lo : merged->min;
	hi = hi < merged->max ? hi : merged->max;
	if (lo > ns)
		c.frac = 1;
	else if (hi > ns)
		c.frac = (double)(hi - ns) / (double)(hi - lo + 1);
	return c;
}

double lst_tail_exceed(const lst_hist *h, const struct lst_tail_cut *c)
{
	double n;

	if (!h->count)
		return 0;
	n = c->frac * (double)s_bucket(h, c->bucket);
	if (c->bucket == LST_HIST_NBUCKETS)
		return n;
	n += (double)h->overflow;
	/* no bucket above max's holds anything (lst_hist_add's invariant) */
	for (unsigned i = c->bucket + 1; i < LST_HIST_NBUCKETS && lst_hist_bucket_low(i) <= h->max;
	     i++)
		n += (double)h->buckets[i];
	return n;
}

lst_tail *lst_tail_new(uint64_t limit_ns)
{
	lst_tail *t = lst_calloc(1, sizeof(*t));

	t->limit_ns = limit_ns;
	return t;
}

void lst_tail_destroy(lst_tail **p)
{
	lst_tail *t = *p;

	if (!t)
		return;
	for (size_t i = 0; i < t->npaths; i++)
		free(t->paths[i].e);
	free(t->paths);
	free(t->total);
	for (size_t i = 0; i < t->nth; i++) {
		free(t->th[i].paths);
		free(t->th[i].agents);
	}
	free(t);
	*p = NULL;
}

void lst_tail_add_total(lst_tail *t, const lst_hist *h)
{
	LST_ASSERT(!t->fixed);
	if (!h->count)
		return;
	if (!t->total) { /* allocated at the first I/O: a point without samples costs nothing */
		t->total = lst_malloc(sizeof(*t->total));
		lst_hist_init(t->total);
	}
	lst_hist_add(t->total, h);
}

/* The thresholds from the merged histogram, once (then it is freed): none when it is empty. */
static void s_fix(lst_tail *t)
{
	static const char *const names[] = { "p99", "p99.9", "limit" };

	if (t->fixed)
		return;
	t->fixed = true;
	if (!t->total)
		return;
	t->nth = t->limit_ns ? 3 : 2;
	for (size_t i = 0; i < t->nth; i++)
		t->th[i].name = names[i];
	t->th[0].cut = lst_tail_cut_pct(t->total, 99);
	t->th[1].cut = lst_tail_cut_pct(t->total, 99.9);
	if (t->limit_ns)
		t->th[2].cut = lst_tail_cut_at(t->total, t->limit_ns);
	free(t->total);
	t->total = NULL;
}

/* The path named agent:path, added when new. */
static struct s_path *s_path(lst_tail *t, const char *agent, const char *path)
{
	char name[160];
	struct s_path *p;

	snprintf(name, sizeof(name), "%s%s%s", agent, path ? ":" : "", path ? path : "");
	for (size_t i = 0; i < t->npaths; i++)
		if (!strcmp(t->paths[i].name, name))
			return &t->paths[i];
	t->paths = lst_realloc(t->paths, (t->npaths + 1) * sizeof(*t->paths));
	p = &t->paths[t->npaths++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->agent, sizeof(p->agent), "%s", agent);
	if (t->len)
		p->e = lst_calloc((size_t)t->len * LST_TAIL_MAX_TH, sizeof(double));
	return p;
}

/* Make room for interval k in every path's array. */
static int s_hold(lst_tail *t, long k, lst_err *err)
{
	long base = t->any ? (k < t->base ? k : t->base) : k;
	long end = t->any ? (k >= t->base + t->len ? k + 1 : t->base + t->len) : k + 1;

	if (k < 0)
		return lst_err_set(err, -EINVAL, "interval %ld is negative", k);
	if (end - base > LST_TAIL_SPAN_MAX)
		return lst_err_set(err, -E2BIG,
				   "interval %ld: the point's intervals would span %ld (at most "
				   "%ld)",
				   k, end - base, LST_TAIL_SPAN_MAX);
	if (t->any && base == t->base && end == t->base + t->len)
		return 0;
	for (size_t i = 0; i < t->npaths; i++) {
		double *e = lst_calloc((size_t)(end - base) * LST_TAIL_MAX_TH, sizeof(double));

		if (t->paths[i].e)
			memcpy(e + (t->base - base) * LST_TAIL_MAX_TH, t->paths[i].e,
			       (size_t)t->len * LST_TAIL_MAX_TH * sizeof(double));
		free(t->paths[i].e);
		t->paths[i].e = e;
	}
	t->base = base;
	t->len = end - base;
	t->any = true;
	return 0;
}

int lst_tail_add(lst_tail *t, const char *agent, const char *path, int dir, long k,
		 const lst_hist *h, lst_err *err)
{
	struct s_path *p;
	int rc;

	s_fix(t);
	p = s_path(t, agent, path);
	if ((rc = s_hold(t, k, err)))
		return rc;
	if (!p->e)
		p->e = lst_calloc((size_t)t->len * LST_TAIL_MAX_TH, sizeof(double));
	for (size_t i = 0; i < t->nth; i++) {
		double n = lst_tail_exceed(h, &t->th[i].cut);

		p->e[(k - t->base) * LST_TAIL_MAX_TH + i] += n;
		t->dir_ios[dir == LST_DIR_WRITE][i] += n;
	}
	return 0;
}

static int s_by_ios(const void *a, const void *b)
{
	const struct lst_tail_share *x = a, *y = b;

	if (x->ios != y->ios)
		return x->ios < y->ios ? 1 : -1;
	return strcmp(x->who, y->who);
}

/* Is the (k - base)-th interval hot for path p of threshold i (mean: its mean per interval)? */
static bool s_is_hot(const struct s_path *p, size_t i, long k, double mean)
{
	double e = p->e[k * LST_TAIL_MAX_TH + i];

	return e >= 1 && e >= LST_TAIL_HOT_FACTOR * mean;
}

/* Path p's hot intervals of threshold i into s (its ios set), and what part they hold. */
static void s_hot(const lst_tail *t, size_t i, const struct s_path *p, struct lst_tail_share *s)
{
	double mean = s->ios / (double)t->len, in = 0;
	long run = -2;

	for (long k = 0; k < t->len; k++) {
		if (!s_is_hot(p, i, k, mean))
			continue;
		in += p->e[k * LST_TAIL_MAX_TH + i];
		if (run == k - 1 && s->nranges <= LST_TAIL_RANGES) /* the last run, kept: longer */
			s->ranges[s->nranges - 1].last = t->base + k;
		else if (run != k - 1 && s->nranges++ < LST_TAIL_RANGES)
			s->ranges[s->nranges - 1] =
				(struct lst_tail_range){ t->base + k, t->base + k };
		run = k;
	}
	s->hot_pct = s->ios > 0 ? 100 * in / s->ios : 0;
	if (s->hot_pct < LST_TAIL_CONCENTRATED_PCT)
		s->nranges =
			0; /* a few busier intervals in a tail spread out: noise, not a where */
}

/* Do paths a and b of threshold i both have hot intervals, some of them the same? */
static bool s_overlap(const lst_tail *t, size_t i, const struct s_path *a, double mean_a,
		      const struct s_path *b, double mean_b)
{
	for (long k = 0; k < t->len; k++)
		if (s_is_hot(a, i, k, mean_a) && s_is_hot(b, i, k, mean_b))
			return true;
	return false;
}

/* The "also" of each major path of threshold i (shares in first-sight order) and the verdict. */
static void s_verdict(lst_tail *t, size_t i, struct lst_tail_share *sh)
{
	struct lst_tail_th *th = &t->th[i];
	bool hot = false, shared = false;

	for (size_t a = 0; a < t->npaths; a++) {
		if (sh[a].pct < LST_TAIL_MAJOR_PCT || !sh[a].nranges)
			continue;
		hot = true;
		for (size_t b = 0; b < t->npaths; b++) {
			size_t len = strlen(sh[a].also);

			if (b == a || sh[b].pct < LST_TAIL_MAJOR_PCT || !sh[b].nranges ||
			    !s_overlap(t, i, &t->paths[a], sh[a].ios / (double)t->len, &t->paths[b],
				       sh[b].ios / (double)t->len))
				continue;
			shared = true;
			snprintf(sh[a].also + len, sizeof(sh[a].also) - len, "%s%s",
				 len ? ", " : "", t->paths[b].name);
		}
	}
	th->verdict = th->ios <= 0 ? LST_TAIL_NONE
		      : shared	   ? LST_TAIL_SHARED
		      : hot	   ? LST_TAIL_ALONE
				   : LST_TAIL_SPREAD;
}

/* The agents' shares of threshold i from its paths'. */
static void s_agents(struct lst_tail_th *th, const lst_tail *t, const struct lst_tail_share *sh)
{
	th->agents = lst_calloc(t->npaths + 1, sizeof(*th->agents));
	for (size_t p = 0; p < t->npaths; p++) {
		size_t a;

		for (a = 0; a < th->nagents; a++)
			if (!strcmp(th->agents[a].who, t->paths[p].agent))
				break;
		if (a == th->nagents)
			snprintf(th->agents[th->nagents++].who, sizeof(th->agents[a].who), "%s",
				 t->paths[p].agent);
		th->agents[a].ios += sh[p].ios;
		th->agents[a].pct += sh[p].pct;
	}
	qsort(th->agents, th->nagents, sizeof(*th->agents), s_by_ios);
}

void lst_tail_finish(lst_tail *t)
{
	s_fix(t);
	for (size_t i = 0; i < t->nth; i++) {
		struct lst_tail_th *th = &t->th[i];
		struct lst_tail_share *sh = lst_calloc(t->npaths + 1, sizeof(*sh));

		for (size_t p = 0; p < t->npaths; p++) {
			snprintf(sh[p].who, sizeof(sh[p].who), "%s", t->paths[p].name);
			for (long k = 0; k < t->len; k++)
				sh[p].ios += t->paths[p].e[k * LST_TAIL_MAX_TH + i];
			th->ios += sh[p].ios;
		}
		for (size_t p = 0; p < t->npaths; p++) {
			sh[p].pct = th->ios > 0 ? 100 * sh[p].ios / th->ios : 0;
			s_hot(t, i, &t->paths[p], &sh[p]);
		}
		s_verdict(t, i, sh);
		s_agents(th, t, sh);
		for (int d = 0; d < LST_DIR_N; d++) {
			snprintf(th->dirs[d].who, sizeof(th->dirs[d].who), "%s",
				 d == LST_DIR_READ ? "read" : "write");
			th->dirs[d].ios = t->dir_ios[d][i];
			th->dirs[d].pct = th->ios > 0 ? 100 * t->dir_ios[d][i] / th->ios : 0;
		}
		qsort(th->dirs, LST_DIR_N, sizeof(th->dirs[0]), s_by_ios);
		qsort(sh, t->npaths, sizeof(*sh), s_by_ios);
		th->paths = sh;
		th->npaths = t->npaths;
	}
}

size_t lst_tail_nth(const lst_tail *t)
{
	return t->nth;
}

const struct lst_tail_th *lst_tail_th(const lst_tail *t, size_t i)
{
	return i < t->nth ? &t->th[i] : NULL;
}

bool lst_tail_span(const lst_tail *t, long *first, long *last)
{
	*first = t->base;
	*last = t->base + t->len - 1;
	return t->any;
}

size_t lst_tail_npaths(const lst_tail *t)
{
	return t->npaths;
}

const char *lst_tail_path_name(const lst_tail *t, size_t p)
{
	return p < t->npaths ? t->paths[p].name : NULL;
}

double lst_tail_at(const lst_tail *t, size_t i, size_t p, long k)
{
	if (i >= t->nth || p >= t->npaths || k < t->base || k >= t->base + t->len)
		return 0;
	return t->paths[p].e[(k - t->base) * LST_TAIL_MAX_TH + i];
}

void lst_tail_ranges_text(const struct lst_tail_share *s, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t r = 0; r < s->nranges && r < LST_TAIL_RANGES && len + 1 < size; r++) {
		const struct lst_tail_range *g = &s->ranges[r];

		if (g->first == g->last)
			snprintf(buf + len, size - len, "%s%ld", r ? ", " : "", g->first);
		else
			snprintf(buf + len, size - len, "%s%ld-%ld", r ? ", " : "", g->first,
				 g->last);
		len = strlen(buf);
	}
	if (s->nranges > LST_TAIL_RANGES && len + 1 < size)
		snprintf(buf + len, size - len, ", ...");
}

const char *lst_tail_verdict_name(enum lst_tail_verdict v)
{
	static const char *const names[] = { "none", "spread", "alone", "shared" };

	return names[v];
}
