/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Suites as small state machines over tests, points and rounds (see lst_suite.h).
 *
 * Building a suite fills a list of tests, each a list of points with their workloads; running it
 * walks test -> round -> point. After the last point of a round the test's tracked value is
 * appended and the round policy decides: once (no rounds), until steady (SNIA PTS verdict over
 * the window, at most max_rounds), or fixed (WSAT: max_rounds or a capacity written). The curve
 * suite builds its rate points only once the max-rate point has been measured.
 *
 * Memory stays flat in the number of rounds: a point keeps its results in a ring of the latest
 * window + 1 rounds, which is all that the verdict, the curves and the matrix ever average (the
 * steady-state window is always the last rounds; the one extra slot covers a round cut short by
 * an interrupted run). What every round adds for good is its tracked value (8 bytes) and its
 * rounds.csv row, written at once. A kept result (struct s_kept) has its three histograms, and
 * those of its parts, in lst_hist_encode's sparse form: a few KB instead of 48 KB each, which is
 * what a phase of many points (a sweep runs each once) keeps until its curves.csv rows. They are
 * decoded (exactly) when a round ends or the phase's results are written.
 */
#include "lst_suite.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_dirth.h"
#include "lst_log.h"
#include "lst_domain.h"
#include "lst_steady.h"
#include "lst_suite_slo.h"
#include "lst_text.h"
#include "lst_time.h"
#include "lst_util.h"
#include "lst_xsr.h"

#define KiB 1024LL

enum s_mode {
	S_ONCE,	  /* every point once, no rounds */
	S_STEADY, /* rounds until steady or max_rounds */
	S_FIXED,  /* rounds until max_rounds or the capacity stop */
};

/* The figures a result and each of its parts have besides histograms. */
struct s_figures {
	double iops[LST_DIR_N];
	double mbps[LST_DIR_N];
	uint64_t ios[LST_DIR_N];
	uint64_t bytes[LST_DIR_N];
	double seconds;
};

/* Copy the s_figures fields between any two structs that have them. */
#define S_FIGURES(to, from)                                                                        \
	do {                                                                                       \
		memcpy((to)->iops, (from)->iops, sizeof((to)->iops));                              \
		memcpy((to)->mbps, (from)->mbps, sizeof((to)->mbps));                              \
		memcpy((to)->ios, (from)->ios, sizeof((to)->ios));                                 \
		memcpy((to)->bytes, (from)->bytes, sizeof((to)->bytes));                           \
		(to)->seconds = (from)->seconds;                                                   \
	} while (0)

/* The three histograms of a result or a part (lat, lat_dir[]), lst_hist_encode'd end to end. */
struct s_hists {
	uint32_t len[1 + LST_DIR_N];
	uint8_t *buf;
};

struct s_kept_part {
	struct lst_row_who who;
	struct s_figures f;
	struct s_hists h;
};

/* A step result as a point keeps it: exact, but its histograms encoded (a few KB, not 48). */
struct s_kept {
	struct s_figures f;
	double t_s;
	bool partial;
	struct s_hists h;
	size_t nparts;
	struct s_kept_part *parts;
};

struct s_point {
	char label[160];
	struct lst_workload w;
	uint32_t action;
	double stop_capacity;
	int64_t idle_after;
	const struct lst_port_set *ports; /* the paths taking part; NULL: all */
	double target_pct;		  /* curve: percent of the max rate, 0 otherwise */
	int pick;			  /* DIRTH histogram runs: enum lst_dirth_pick */
	size_t grid;			  /* DIRTH histogram runs: the grid point it repeats */
	size_t nres;			  /* results received, one per round */
	size_t keep;			  /* how many of the latest res holds (s_keep) */
	struct s_kept *res;		  /* ring: round r at res[r % keep] (s_res) */
};

struct s_test {
	char name[64];
	int mode;
	size_t npoints;
	size_t cap_points; /* points allocated; doubles, so adding n points copies O(n) */
	struct s_point *points;
	ssize_t tracked; /* point whose value is tracked; -1: all points of the round */
	int track;	 /* enum lst_track */
	size_t max_rounds;
	size_t rounds;	  /* rounds completed */
	double *values;	  /* tracked value per round */
	uint64_t written; /* bytes written by the test so far */
	double cap_stop;  /* FIXED: stop once written >= this many bytes; 0 none */
	struct lst_steady verdict;
	bool stopped_early; /* curve: the latency limit was passed */
	bool steady_needed; /* a finding when not reached */
	int stop;	    /* enum lst_stop once the rounds ended, -1 before */
	uint64_t discarded; /* bytes a purge discarded */
	double seconds;	    /* time the points took, together */
};

/* The suite's grid for one value of the phase's value axes (the whole phase without any). */
struct s_run {
	const lst_plan *plan;
	const struct lst_plan_phase *ph;
	size_t phase;
	/* the value (lst_plan_phase_value): what the tests build on and what names them */
	struct lst_workload base;	/* the phase's workload with the value's options set */
	bool set[32];			/* options the phase's workload or the value gives */
	char value[LST_PLAN_VALUE_MAX]; /* "size=8m pattern=zeros"; "" without value axes */
	char tag[LST_PLAN_STEM_MAX]; /* the phase's name, and the value as a file name takes it */
	uint64_t capacity;
	size_t window;
	double data_pct, slope_pct;
	size_t ntests;
	struct s_test *tests;
	/* position */
	size_t t, p;
	size_t ncurve_rows; /* curves.csv rows written for this phase */
	bool started;
	uint64_t phase_written;
	lst_slo *slo; /* suite slo: the search that picks each probe from the last */
};

/* --- results kept ------------------------------------------------------------------------ */

static void s_hists_pack(struct s_hists *out, const lst_hist *lat, const lst_hist *dir)
{
	const lst_hist *h[1 + LST_DIR_N] = { lat, &dir[0], &dir[1] };
	size_t cap = LST_ARRAY_SIZE(h) * LST_HIST_ENC_MAX, at = 0;
	uint8_t *buf = lst_malloc(cap);

	for (size_t i = 0; i < LST_ARRAY_SIZE(h); i++) {
		size_t n = lst_hist_encode(h[i], buf + at, cap - at);

		LST_ASSERT(n);
		out->len[i] = (uint32_t)n;
		at += n;
	}
	out->buf = lst_realloc(buf, at);
}

static void s_hists_unpack(const struct s_hists *in, lst_hist *lat, lst_hist *dir)
{
	lst_hist *h[1 + LST_DIR_N] = { lat, &dir[0], &dir[1] };
	size_t at = 0;
	lst_err err;

	for (size_t i = 0; i < LST_ARRAY_SIZE(h); i++) {
		/* Our own encoding of a valid histogram: it always decodes. */
		LST_ASSERT(!lst_hist_decode(h[i], in->buf + at, in->len[i], &err));
		at += in->len[i];
	}
}

/* Keep r in k (empty or cleared), its parts only when asked (curves.csv wants them). */
static void s_kept_set(struct s_kept *k, const struct lst_step_result *r, bool parts)
{
	S_FIGURES(&k->f, r);
	k->t_s = r->t_s;
	k->partial = r->partial;
	s_hists_pack(&k->h, &r->lat, r->lat_dir);
	k->nparts = parts ? r->nparts : 0;
	k->parts = k->nparts ? lst_calloc(k->nparts, sizeof(*k->parts)) : NULL;
	for (size_t i = 0; i < k->nparts; i++) {
		k->parts[i].who = r->parts[i].who;
		S_FIGURES(&k->parts[i].f, &r->parts[i]);
		s_hists_pack(&k->parts[i].h, &r->parts[i].lat, r->parts[i].lat_dir);
	}
}

static void s_kept_clear(struct s_kept *k)
{
	for (size_t i = 0; i < k->nparts; i++)
		free(k->parts[i].h.buf);
	free(k->parts);
	free(k->h.buf);
	memset(k, 0, sizeof(*k));
}

/* The result k keeps, whole again, on the heap (s_result_free). */
static struct lst_step_result *s_kept_get(const struct s_kept *k)
{
	struct lst_step_result *r = lst_calloc(1, sizeof(*r));

	S_FIGURES(r, &k->f);
	r->t_s = k->t_s;
	r->partial = k->partial;
	s_hists_unpack(&k->h, &r->lat, r->lat_dir);
	r->nparts = k->nparts;
	r->parts = r->nparts ? lst_calloc(r->nparts, sizeof(*r->parts)) : NULL;
	for (size_t i = 0; i < r->nparts; i++) {
		r->parts[i].who = k->parts[i].who;
		S_FIGURES(&r->parts[i], &k->parts[i].f);
		s_hists_unpack(&k->parts[i].h, &r->parts[i].lat, r->parts[i].lat_dir);
	}
	return r;
}

static void s_result_free(struct lst_step_result *r)
{
	if (r)
		free(r->parts);
	free(r);
}

/* --- building ---------------------------------------------------------------------------- */

static const struct lst_opt *s_opt(const char *name)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, name);

	LST_ASSERT(o);
	return o;
}

static size_t s_opt_index(const char *name)
{
	return (size_t)(s_opt(name) - lst_workload_opts);
}

/* Apply a suite's base value unless the phase's `workload:` or the value gave the option. */
static void s_base(const struct s_run *s, struct lst_workload *w, const char *name, int64_t v)
{
	if (!s->set[s_opt_index(name)])
		lst_opt_set_int(s_opt(name), w, v, NULL);
}

/* "a b" into buf, or a alone when b is empty; cut at size. */
static void s_join(char *buf, size_t size, const char *a, const char *b)
{
	size_t n = (size_t)snprintf(buf, size, "%s", a);

	if (*b && n + 1 < size)
		snprintf(buf + n, size - n, " %s", b);
}

/* A test of the run, named with its value ("iops size=8m") so its rows and verdict say it. */
static struct s_test *s_test_add(struct s_run *s, const char *name, int mode)
{
	struct s_test *t;

	s->tests = lst_realloc(s->tests, (s->ntests + 1) * sizeof(*s->tests));
	t = &s->tests[s->ntests++];
	memset(t, 0, sizeof(*t));
	s_join(t->name, sizeof(t->name), name, s->value);
	t->mode = mode;
	t->tracked = -1;
	t->track = LST_TRACK_IOPS;
	t->stop = -1;
	t->max_rounds = mode == S_ONCE ? 1 : (size_t)s->ph->max_rounds;
	return t;
}

static struct s_point *s_point_add(struct s_test *t, const struct lst_workload *w,
				   const char *label)
{
	struct s_point *p;

	if (t->npoints == t->cap_points) {
		t->cap_points = t->cap_points ? 2 * t->cap_points : 8;
		t->points = lst_realloc(t->points, t->cap_points * sizeof(*t->points));
	}
	p = &t->points[t->npoints++];
	memset(p, 0, sizeof(*p));
	p->w = *w;
	snprintf(p->label, sizeof(p->label), "%s", label);
	return p;
}

/* The values of a sweep axis if the phase sweeps `name`, else the defaults given. */
static size_t s_axis(const struct lst_plan_phase *ph, const char *name, const int64_t *def,
		     size_t ndef, const int64_t **out)
{
	for (size_t a = 0; a < ph->naxes; a++) {
		if (ph->axes[a].opt && !strcmp(ph->axes[a].opt->name, name)) {
			*out = ph->axes[a].values;
			return ph->axes[a].n;
		}
	}
	*out = def;
	return ndef;
}

/* "bs=4k rwmixread=70" from the options named, using lst_opt_format. */
static void s_label(char *buf, size_t size, const struct lst_workload *w, const char *const *names)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; names[i] && n < size; i++) {
		char v[64];
		const struct lst_opt *o = s_opt(names[i]);

		n += (size_t)snprintf(buf + n, size - n, "%s%s=%s", n ? " " : "", o->name,
				      lst_opt_format(o, w, v, sizeof(v)));
	}
}

/* Of two limits where 0 means none, the one that comes first. */
static int64_t s_first(int64_t a, int64_t b)
{
	return !a ? b : !b ? a : LST_MIN(a, b);
}

static void s_round_len(const struct lst_plan_phase *ph, struct lst_workload *w, int64_t ramp,
			int64_t duration)
{
	w->ramp = ph->round_duration ? ph->round_ramp : ramp;
	w->runtime = ph->round_duration ? ph->round_duration : duration;
}

/* A plain phase: the sweep points; rounds when `steady:` is given. */
static int s_build_plain(struct s_run *s)
{
	const struct lst_plan_phase *ph = s->ph;
	size_t n = lst_plan_phase_points(ph);
	struct s_test *t = s_test_add(s, "points", ph->steady ? S_STEADY : S_ONCE);

	t->track = (int)ph->track;
	t->steady_needed = ph->steady;
	for (size_t i = 0; i < n; i++) {
		struct lst_workload w;
		char label[160];
		struct s_point *p;

		lst_plan_phase_point(ph, i, &w, label, sizeof(label));
		if (ph->round_duration)
			s_round_len(ph, &w, 0, 0);
		/* stop: limits each point too; whichever comes first ends it */
		w.runtime = s_first(w.runtime, ph->stop_runtime);
		w.bytes = s_first(w.bytes, ph->stop_bytes);
		p = s_point_add(t, &w, label);
		p->stop_capacity = ph->stop_capacity;
		p->ports = lst_plan_phase_ports(ph, i);
	}
	return 0;
}

static int s_build_purge(struct s_run *s)
{
	struct s_test *t = s_test_add(s, "purge", S_ONCE);
	struct s_point *p = s_point_add(t, &s->base, s->ph->secure ? "secure discard" : "discard");

	p->action = s->ph->secure ? LST_ACTION_SECDISCARD : LST_ACTION_DISCARD;
	return 0;
}

static int s_build_precondition(struct s_run *s)
{
	const struct lst_plan_phase *ph = s->ph;
	struct s_test *t = s_test_add(s, "precondition", S_ONCE);
	struct lst_workload w = s->base;
	struct s_point *p;

	s_base(s, &w, "rw", LST_RW_WRITE);
	s_base(s, &w, "bs", 128 * KiB);
	s_base(s, &w, "iodepth", 32);
	s_base(s, &w, "jobs", 1);
	/* The phase's own workload runtime or bytes, and stop:, whichever comes first; the
	 * plan's defaults do not stop a precondition. */
	w.runtime =
		s_first(ph->w_set[s_opt_index("runtime")] ? ph->w.runtime : 0, ph->stop_runtime);
	w.bytes = s_first(ph->w_set[s_opt_index("bytes")] ? ph->w.bytes : 0, ph->stop_bytes);
	p = s_point_add(t, &w, "seq write 128k");
	p->stop_capacity =
		ph->stop_capacity || ph->stop_bytes || ph->stop_runtime ? ph->stop_capacity : 2.0;
	return 0;
}

static const int64_t s_iops_mixes[] = { 100, 95, 65, 50, 35, 5, 0 };
static const int64_t s_iops_bs[] = { 1024 * KiB, 128 * KiB, 64 * KiB, 32 * KiB,
				     16 * KiB,	 8 * KiB,   4 * KiB };

/* snia-iops and snia-latency: a grid of bs x mix points per round, one tracked. */
static int s_build_grid(struct s_run *s, const char *name, const int64_t *defbs, size_t ndefbs,
			const int64_t *defmix, size_t ndefmix, int64_t jobs, int64_t qd, int track)
{
	static const char *const label_keys[] = { "bs", "rwmixread", NULL };
	const struct lst_plan_phase *ph = s->ph;
	struct s_test *t = s_test_add(s, name, S_STEADY);
	const int64_t *bs, *mix;
	size_t nbs = s_axis(ph, "bs", defbs, ndefbs, &bs);
	size_t nmix = s_axis(ph, "rwmixread", defmix, ndefmix, &mix);

	t->track = ph->steady ? (int)ph->track : track;
	t->steady_needed = true;
	/* SNIA order: the outer loop over mixes, the inner over block sizes. */
	for (size_t m = 0; m < nmix; m++) {
		for (size_t b = 0; b < nbs; b++) {
			struct lst_workload w = s->base;
			char label[160];

			s_base(s, &w, "rw", LST_RW_RANDRW);
			s_base(s, &w, "jobs", jobs);
			s_base(s, &w, "iodepth", qd);
			w.bs = bs[b];
			w.rwmixread = mix[m];
			s_round_len(ph, &w, 0, 60 * LST_NS_PER_S);
			s_label(label, sizeof(label), &w, label_keys);
			s_point_add(t, &w, label);
			/* Tracked: 4 KiB all-write, or the last point of the grid without one. */
			if (w.bs == 4 * KiB && w.rwmixread == 0)
				t->tracked = (ssize_t)t->npoints - 1;
		}
	}
	if (t->tracked < 0)
		t->tracked = (ssize_t)t->npoints - 1;
	return 0;
}

static int s_build_throughput(struct s_run *s)
{
	static const int64_t defbs[] = { 1024 * KiB, 128 * KiB };
	const struct lst_plan_phase *ph = s->ph;
	const int64_t *bs;
	size_t nbs = s_axis(ph, "bs", defbs, 2, &bs);

	for (size_t b = 0; b < nbs; b++) {
		for (int dir = 0; dir < 2; dir++) {
			struct lst_workload w = s->base;
			char name[64], bsbuf[32];
			struct s_test *t;

			w.bs = bs[b];
			lst_opt_format(s_opt("bs"), &w, bsbuf, sizeof(bsbuf));
			snprintf(name, sizeof(name), "bs=%s %s", bsbuf, dir ? "read" : "write");
			t = s_test_add(s, name, S_STEADY);
			t->track = LST_TRACK_MBPS;
			t->tracked = 0;
			t->steady_needed = true;
			w.rw = dir ? LST_RW_READ : LST_RW_WRITE;
			s_base(s, &w, "jobs", 1);
			s_base(s, &w, "iodepth", 32);
			s_round_len(ph, &w, 0, 60 * LST_NS_PER_S);
			s_point_add(t, &w, name);
		}
	}
	return 0;
}

static int s_build_wsat(struct s_run *s)
{
	const struct lst_plan_phase *ph = s->ph;
	struct s_test *t = s_test_add(s, "wsat", S_FIXED);
	struct lst_workload w = s->base;

	s_base(s, &w, "rw", LST_RW_RANDWRITE);
	s_base(s, &w, "bs", 4 * KiB);
	s_base(s, &w, "jobs", 4);
	s_base(s, &w, "iodepth", 16);
	s_round_len(ph, &w, 0, 60 * LST_NS_PER_S);
	t->track = LST_TRACK_WRITE_IOPS;
	t->tracked = 0;
	/* The spec's WSAT runs to 4x capacity; max_rounds bounds it in time (default 360). */
	t->max_rounds = ph->steady ? (size_t)ph->max_rounds : 360;
	t->cap_stop = (ph->stop_capacity > 0 ? ph->stop_capacity : 4.0) * (double)s->capacity;
	if (ph->stop_bytes)
		t->cap_stop = (double)ph->stop_bytes;
	s_point_add(t, &w, "randwrite 4k");
	return 0;
}

static int s_build_hir(struct s_run *s)
{
	const struct lst_plan_phase *ph = s->ph;
	struct lst_workload w = s->base;

	s_base(s, &w, "rw", LST_RW_RANDWRITE);
	s_base(s, &w, "bs", 4 * KiB);
	s_base(s, &w, "jobs", 4);
	s_base(s, &w, "iodepth", 16);
	w.ramp = 0;
	for (size_t g = 0; g < ph->nhir_gaps; g++) {
		struct lst_workload burst = w, cont = w;
		char name[64], gap[32];
		struct s_test *t;

		snprintf(gap, sizeof(gap), "%gs", (double)ph->hir_gaps[g] / 1e9);
		snprintf(name, sizeof(name), "gap=%s", gap);
		t = s_test_add(s, name, S_ONCE);
		t->track = LST_TRACK_WRITE_IOPS;
		burst.runtime = ph->hir_burst;
		for (int64_t r = 0; r < ph->hir_repeats; r++) {
			char label[64];
			struct s_point *p;

			snprintf(label, sizeof(label), "burst %" PRId64, r + 1);
			p = s_point_add(t, &burst, label);
			p->idle_after = ph->hir_gaps[g];
		}
		/* Continuous writing between gap sizes, not after the last. */
		if (g + 1 < ph->nhir_gaps && ph->hir_continuous) {
			cont.runtime = ph->hir_continuous;
			s_point_add(t, &cont, "continuous");
		}
	}
	return 0;
}

/*
 * A demand-intensity grid (lat-vs-iops, ECW, DIRTH): one point per jobs x iodepth on the base
 * workload, rounds of the whole grid until the heaviest point's IOPS is steady.
 */
static struct s_test *s_build_toio(struct s_run *s, const char *name,
				   const struct lst_workload *base, const int64_t *defjobs,
				   size_t ndefjobs, const int64_t *defqd, size_t ndefqd,
				   int64_t ramp, int64_t duration)
{
	static const char *const label_keys[] = { "jobs", "iodepth", NULL };
	const struct lst_plan_phase *ph = s->ph;
	struct s_test *t = s_test_add(s, name, S_STEADY);
	const int64_t *jobs, *qd;
	size_t nj = s_axis(ph, "jobs", defjobs, ndefjobs, &jobs);
	size_t nq = s_axis(ph, "iodepth", defqd, ndefqd, &qd);
	int64_t heaviest = -1;

	t->track = ph->steady ? (int)ph->track : LST_TRACK_IOPS;
	t->steady_needed = true;
	for (size_t j = 0; j < nj; j++) {
		for (size_t q = 0; q < nq; q++) {
			struct lst_workload w = *base;
			char label[160];

			w.jobs = jobs[j];
			w.iodepth = qd[q];
			s_round_len(ph, &w, ramp, duration);
			s_label(label, sizeof(label), &w, label_keys);
			s_point_add(t, &w, label);
			if (jobs[j] * qd[q] > heaviest) {
				heaviest = jobs[j] * qd[q];
				t->tracked = (ssize_t)t->npoints - 1;
			}
		}
	}
	return t;
}

static int s_build_lat_vs_iops(struct s_run *s)
{
	static const int64_t defjobs[] = { 1, 2, 4 };
	static const int64_t defqd[] = { 1, 2, 4, 8, 16, 32 };
	struct lst_workload w = s->base;

	s_base(s, &w, "rw", LST_RW_RANDRW);
	s_base(s, &w, "rwmixread", 70);
	s_build_toio(s, "lat-vs-iops", &w, defjobs, 3, defqd, 6, 5 * LST_NS_PER_S,
		     30 * LST_NS_PER_S);
	return 0;
}

/* The spec's thread counts and queue depths for ECW and DIRTH, heaviest first as it runs them. */
static const int64_t s_toio_grid[] = { 32, 16, 8, 6, 4, 2, 1 };

/* Apply a suite's base value given as text (a mix, a distribution) unless `workload:` gave it. */
static void s_base_text(const struct s_run *s, struct lst_workload *w, const char *name,
			const char *text)
{
	lst_err err;

	if (!s->set[s_opt_index(name)])
		LST_ASSERT(!lst_workload_parse(s_opt(name), w, text, &err));
}

/*
 * ECW: the spec's enterprise composite workload, 40/60 read/write, its block-size mix by share of
 * I/Os and its access ranges (half the I/Os to the first 5% of the LBA range, 30% to the next
 * 15%, 20% to the remaining 80%), over the thread count x queue depth grid.
 */
static int s_build_ecw(struct s_run *s)
{
	struct lst_workload w = s->base;

	s_base(s, &w, "rw", LST_RW_RANDRW);
	s_base(s, &w, "rwmixread", 40);
	s_base_text(s, &w, "bssplit",
		    "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3");
	s_base_text(s, &w, "random_distribution", "zoned:50/5:30/15:20/80");
	s_build_toio(s, "ecw", &w, s_toio_grid, LST_ARRAY_SIZE(s_toio_grid), s_toio_grid,
		     LST_ARRAY_SIZE(s_toio_grid), 0, 60 * LST_NS_PER_S);
	return 0;
}

/* DIRTH: the grid, then a histogram run per selected point (added once the grid is steady). */
static int s_build_dirth(struct s_run *s)
{
	struct lst_workload w = s->base;

	s_base(s, &w, "rw", LST_RW_RANDRW);
	s_base(s, &w, "rwmixread", 65);
	s_base(s, &w, "bs", 8 * KiB);
	s_build_toio(s, "dirth", &w, s_toio_grid, LST_ARRAY_SIZE(s_toio_grid), s_toio_grid,
		     LST_ARRAY_SIZE(s_toio_grid), 0, 60 * LST_NS_PER_S);
	s_test_add(s, "histograms", S_ONCE);
	return 0;
}

/*
 * XSR: three tests in time order, each its segment cut into intervals of the round's length
 * (one minute by default), one step and one rounds.csv row per interval.
 */
static int s_build_xsr(struct s_run *s)
{
	static const char *const names[] = { "seq 1024k", "rnd 8k", "seq 1024k again" };
	const struct lst_plan_phase *ph = s->ph;

	/* The plan's check holds the segments to three. */
	for (size_t g = 0; g < LST_MIN(ph->nxsr_segments, 3); g++) {
		struct lst_workload w = s->base;
		struct s_test *t = s_test_add(s, names[g], S_ONCE);
		int64_t len = ph->xsr_segments[g], done = 0;

		s_base(s, &w, "rw", g == 1 ? LST_RW_RANDWRITE : LST_RW_WRITE);
		s_base(s, &w, "bs", g == 1 ? 8 * KiB : 1024 * KiB);
		s_base(s, &w, "jobs", 1);
		s_base(s, &w, "iodepth", 32);
		s_round_len(ph, &w, 0, 60 * LST_NS_PER_S);
		t->track = LST_TRACK_MBPS;
		for (size_t i = 1; done < len; i++) {
			char label[64];

			w.runtime = LST_MIN(w.runtime, len - done);
			done += w.runtime;
			snprintf(label, sizeof(label), "%s interval %zu", names[g], i);
			s_point_add(t, &w, label);
		}
	}
	return 0;
}

static int s_build_curve(struct s_run *s)
{
	const struct lst_plan_phase *ph = s->ph;
	struct s_test *t = s_test_add(s, "max", S_ONCE);
	struct lst_workload w = s->base;

	w.rate_iops = 0;
	s_round_len(ph, &w, 5 * LST_NS_PER_S, 30 * LST_NS_PER_S);
	s_point_add(t, &w, "max rate");
	/* The rate points are added once the max is known (s_curve_points). */
	s_test_add(s, "curve", S_ONCE);
	return 0;
}

/* SLO: the search's next probe as the test's next point, if the search goes on. */
static void s_slo_point(struct s_run *s)
{
	struct lst_workload w;
	char label[64];

	if (lst_slo_next(s->slo, &w, label, sizeof(label)))
		s_point_add(&s->tests[0], &w, label);
}

/* SLO: one test whose points are the probes, each added once the last one's result is in. */
static int s_build_slo(struct s_run *s)
{
	struct lst_workload w = s->ph->w;

	s_test_add(s, "slo", S_ONCE);
	s_round_len(s->ph, &w, 5 * LST_NS_PER_S, 30 * LST_NS_PER_S);
	s->slo = lst_slo_new(s->ph, &w);
	s_slo_point(s);
	return 0;
}

static void s_run_destroy(struct s_run **p);

/* The suite's grid for value `value` of the phase's value axes (lst_plan_phase_value). */
static struct s_run *s_run_new(const lst_plan *plan, size_t phase, uint64_t capacity, size_t value,
			       lst_err *err)
{
	struct s_run *s = lst_calloc(1, sizeof(*s));
	int rc = 0;

	s->plan = plan;
	s->phase = phase;
	s->ph = &plan->phases[phase];
	s->capacity = capacity;
	memcpy(s->set, s->ph->w_set, sizeof(s->set));
	lst_plan_phase_value(s->ph, value, &s->base, s->set, s->value, sizeof(s->value));
	lst_plan_value_stem(s->ph->name, s->value, s->tag, sizeof(s->tag));
	s->window = (size_t)s->ph->window;
	s->data_pct = s->ph->data_excursion_pct;
	s->slope_pct = s->ph->slope_excursion_pct;
	switch (s->ph->suite) {
	case LST_SUITE_NONE:
		rc = s_build_plain(s);
		break;
	case LST_SUITE_PURGE:
		rc = s_build_purge(s);
		break;
	case LST_SUITE_PRECONDITION:
		rc = s_build_precondition(s);
		break;
	case LST_SUITE_SNIA_IOPS:
		rc = s_build_grid(s, "iops", s_iops_bs, LST_ARRAY_SIZE(s_iops_bs), s_iops_mixes,
				  LST_ARRAY_SIZE(s_iops_mixes), 16, 16, LST_TRACK_IOPS);
		break;
	case LST_SUITE_SNIA_THROUGHPUT:
		rc = s_build_throughput(s);
		break;
	case LST_SUITE_SNIA_LATENCY: {
		static const int64_t bs[] = { 4 * KiB, 8 * KiB };
		static const int64_t mix[] = { 100, 70, 0 };

		rc = s_build_grid(s, "latency", bs, 2, mix, 3, 1, 1, LST_TRACK_LAT_MEAN);
		break;
	}
	case LST_SUITE_SNIA_WSAT:
		rc = s_build_wsat(s);
		break;
	case LST_SUITE_SNIA_HIR:
		rc = s_build_hir(s);
		break;
	case LST_SUITE_LAT_VS_IOPS:
		rc = s_build_lat_vs_iops(s);
		break;
	case LST_SUITE_CURVE:
		rc = s_build_curve(s);
		break;
	case LST_SUITE_SNIA_XSR:
		rc = s_build_xsr(s);
		break;
	case LST_SUITE_SNIA_ECW:
		rc = s_build_ecw(s);
		break;
	case LST_SUITE_SNIA_DIRTH:
		rc = s_build_dirth(s);
		break;
	case LST_SUITE_SLO:
		rc = s_build_slo(s);
		break;
	default:
		rc = lst_err_set(err, -EINVAL, "phase %s: unknown suite %" PRId64, s->ph->name,
				 s->ph->suite);
	}
	for (size_t i = 0; !rc && i < s->ntests; i++) {
		struct s_test *t = &s->tests[i];

		/* The plan's limits keep every test within this; a backstop. */
		if (t->npoints > LST_PLAN_MAX_POINTS)
			rc = lst_err_set(err, -EINVAL, "phase %s: test %s has %zu points per round",
					 s->ph->name, t->name, t->npoints);
	}
	if (rc) {
		s_run_destroy(&s);
		return NULL;
	}
	return s;
}

static void s_run_destroy(struct s_run **p)
{
	struct s_run *s = *p;

	if (!s)
		return;
	for (size_t i = 0; i < s->ntests; i++) {
		for (size_t j = 0; j < s->tests[i].npoints; j++) {
			for (size_t k = 0; k < s->tests[i].points[j].keep; k++)
				s_kept_clear(&s->tests[i].points[j].res[k]);
			free(s->tests[i].points[j].res);
		}
		free(s->tests[i].points);
		free(s->tests[i].values);
	}
	free(s->tests);
	lst_slo_destroy(&s->slo);
	free(s);
	*p = NULL;
}

/* --- running ----------------------------------------------------------------------------- */

/* The rounds over which test t's verdict is judged (its steady-state window). */
static size_t s_window(const struct s_run *s, const struct s_test *t)
{
	return LST_MIN(s->window, LST_MAX(t->max_rounds, 2));
}

/* How many results a point of test t keeps: the window and one more, one without rounds. */
static size_t s_keep(const struct s_run *s, const struct s_test *t)
{
	return t->mode == S_ONCE ? 1 : s_window(s, t) + 1;
}

/* Round r of point p as kept; r must be one of the rounds its ring still holds. */
static const struct s_kept *s_kept_of(const struct s_point *p, size_t r)
{
	LST_ASSERT(r < p->nres && r + p->keep >= p->nres);
	return &p->res[r % p->keep];
}

/* Round r's result of point p, whole, on the heap (s_result_free). */
static struct lst_step_result *s_res(const struct s_point *p, size_t r)
{
	return s_kept_get(s_kept_of(p, r));
}

/* Keep r as p's next round, in place of the oldest one kept once the ring is full. */
static void s_res_push(struct s_point *p, size_t keep, const struct lst_step_result *r, bool parts)
{
	struct s_kept *slot;

	if (!p->res) {
		p->keep = keep;
		p->res = lst_calloc(keep, sizeof(*p->res));
	}
	slot = &p->res[p->nres % p->keep];
	s_kept_clear(slot);
	s_kept_set(slot, r, parts);
	p->nres++;
}

static size_t s_run_kept(const struct s_run *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->ntests; i++)
		for (size_t j = 0; j < s->tests[i].npoints; j++)
			n += LST_MIN(s->tests[i].points[j].nres, s->tests[i].points[j].keep);
	return n;
}

static const char *s_suite_name(const struct s_run *s)
{
	return lst_suite_names[s->ph->suite];
}

static bool s_run_next(struct s_run *s, struct lst_step *step)
{
	struct s_test *t;
	struct s_point *p;

	while (s->t < s->ntests &&
	       (s->tests[s->t].npoints == 0 || s->p >= s->tests[s->t].npoints)) {
		/* An empty test (a curve whose max point failed) or one whose rounds are over. */
		s->t++;
		s->p = 0;
	}
	if (s->t >= s->ntests)
		return false;
	t = &s->tests[s->t];
	p = &t->points[s->p];
	memset(step, 0, sizeof(*step));
	snprintf(step->test, sizeof(step->test), "%s", t->name);
	step->round = t->mode == S_ONCE ? 0 : t->rounds + 1;
	step->index = s->p;
	/* the value first, as a plain sweep's label has its axes: "size=8m bs=4k rwmixread=0" */
	if (*s->value)
		s_join(step->label, sizeof(step->label), s->value, p->label);
	else
		lst_copy(step->label, sizeof(step->label), p->label);
	step->w = p->w;
	step->action = p->action;
	step->stop_capacity = p->stop_capacity;
	step->ports = p->ports;
	step->idle_after = p->idle_after;
	return true;
}

static double s_value(int track, const struct lst_step_result *r)
{
	switch (track) {
	case LST_TRACK_READ_IOPS:
		return r->iops[LST_DIR_READ];
	case LST_TRACK_WRITE_IOPS:
		return r->iops[LST_DIR_WRITE];
	case LST_TRACK_MBPS:
		return r->mbps[LST_DIR_READ] + r->mbps[LST_DIR_WRITE];
	case LST_TRACK_LAT_MEAN:
		return lst_hist_mean(&r->lat) / 1e3;
	case LST_TRACK_LAT_P99:
		return (double)lst_hist_percentile(&r->lat, 99) / 1e3;
	default:
		return r->iops[LST_DIR_READ] + r->iops[LST_DIR_WRITE];
	}
}

/* Combine results (add I/Os, bytes, seconds and histograms; rates as totals over time). */
static void s_combine(struct lst_step_result *dst, const struct lst_step_result *src, bool first)
{
	if (first) {
		*dst = *src;
		return;
	}
	for (int d = 0; d < LST_DIR_N; d++) {
		dst->ios[d] += src->ios[d];
		dst->bytes[d] += src->bytes[d];
	}
	dst->seconds += src->seconds;
	lst_hist_add(&dst->lat, &src->lat);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_add(&dst->lat_dir[d], &src->lat_dir[d]);
	for (int d = 0; d < LST_DIR_N; d++) {
		dst->iops[d] = dst->seconds > 0 ? (double)dst->ios[d] / dst->seconds : 0;
		dst->mbps[d] = dst->seconds > 0 ? (double)dst->bytes[d] / dst->seconds / 1e6 : 0;
	}
	dst->partial |= src->partial;
}

/*
 * A point's result over rounds [first, last] (0-based): rates averaged over the rounds (each
 * round weighs the same, as the spec averages rounds), histograms merged.
 */
/*
 * The parts of a point's result over rounds [first, last], as s_window_result combines the
 * whole: rates averaged over the rounds, counts and histograms added. Rounds whose parts differ
 * in number from the first's (an agent lost in one) are left out of the parts.
 */
static void s_window_parts(const struct s_point *p, size_t first, size_t last,
			   struct lst_step_result *out)
{
	const struct s_kept *r0 = s_kept_of(p, first);

	out->nparts = r0->nparts;
	out->parts = out->nparts ? lst_calloc(out->nparts, sizeof(*out->parts)) : NULL;
	for (size_t k = 0; k < out->nparts; k++) {
		struct lst_step_part *o = &out->parts[k];
		size_t n = 0;

		o->who = r0->parts[k].who;
		lst_hist_init(&o->lat);
		for (int d = 0; d < LST_DIR_N; d++)
			lst_hist_init(&o->lat_dir[d]);
		for (size_t r = first; r <= last && r < p->nres; r++) {
			struct lst_step_result *rr;
			const struct lst_step_part *x;

			if (s_kept_of(p, r)->nparts != r0->nparts)
				continue;
			rr = s_res(p, r);
			x = &rr->parts[k];
			for (int d = 0; d < LST_DIR_N; d++) {
				o->ios[d] += x->ios[d];
				o->bytes[d] += x->bytes[d];
				o->iops[d] += x->iops[d];
				o->mbps[d] += x->mbps[d];
			}
			o->seconds += x->seconds;
			lst_hist_add(&o->lat, &x->lat);
			for (int d = 0; d < LST_DIR_N; d++)
				lst_hist_add(&o->lat_dir[d], &x->lat_dir[d]);
			s_result_free(rr);
			n++;
		}
		for (int d = 0; n && d < LST_DIR_N; d++) {
			o->iops[d] /= (double)n;
			o->mbps[d] /= (double)n;
		}
	}
}

static void s_window_result(const struct s_point *p, size_t first, size_t last,
			    struct lst_step_result *out)
{
	double iops[LST_DIR_N] = { 0, 0 }, mbps[LST_DIR_N] = { 0, 0 };
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	lst_hist_init(&out->lat);
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&out->lat_dir[d]);
	for (size_t r = first; r <= last && r < p->nres; r++) {
		struct lst_step_result *rr = s_res(p, r);

		s_combine(out, rr, n == 0);
		for (int d = 0; d < LST_DIR_N; d++) {
			iops[d] += rr->iops[d];
			mbps[d] += rr->mbps[d];
		}
		s_result_free(rr);
		n++;
	}
	for (int d = 0; n && d < LST_DIR_N; d++) {
		out->iops[d] = iops[d] / (double)n;
		out->mbps[d] = mbps[d] / (double)n;
	}
	out->parts = NULL; /* s_combine copied the first round's pointer */
	out->nparts = 0;
	if (first < p->nres)
		s_window_parts(p, first, last, out);
}

static void s_curve_points(struct s_run *s)
{
	const struct lst_plan_phase *ph = s->ph;
	struct s_point *max = &s->tests[0].points[0];
	struct s_test *t = &s->tests[1];
	double top;

	if (!max->nres)
		return;
	top = s_kept_of(max, 0)->f.iops[0] + s_kept_of(max, 0)->f.iops[1];
	if (top < 1) {
		lst_log_warn("phase %s: the max-rate point did no I/O; no curve", ph->name);
		return;
	}
	for (size_t i = 0; i < ph->ncurve; i++) {
		struct lst_workload w = max->w;
		char label[64];
		struct s_point *p;

		w.rate_iops = LST_MAX((int64_t)llround(top * ph->curve_pcts[i] / 100.0), w.jobs);
		snprintf(label, sizeof(label), "%g%% rate_iops=%" PRId64, ph->curve_pcts[i],
			 w.rate_iops);
		p = s_point_add(t, &w, label);
		p->target_pct = ph->curve_pcts[i];
	}
}

static bool s_over_limit(const struct lst_plan_phase *ph, const struct lst_step_result *r)
{
	return ph->limit_ns && ph->limit_percentile > 0 &&
	       lst_hist_percentile(&r->lat, ph->limit_percentile) > (uint64_t)ph->limit_ns;
}

/*
 * DIRTH, once its grid's rounds are over: pick the points from their window averages and add a
 * histogram run of each, the grid point's workload run for the `dirth: {histogram}` length.
 */
static void s_dirth_points(struct s_run *s)
{
	struct s_test *grid = &s->tests[0], *t = &s->tests[1];
	struct lst_dirth_point *dp = lst_calloc(grid->npoints, sizeof(*dp));
	size_t pick[LST_DIRTH_NPICKS];

	for (size_t i = 0; i < grid->npoints; i++) {
		struct lst_step_result r;

		s_window_result(&grid->points[i], grid->verdict.first, grid->verdict.last, &r);
		dp[i].iops = r.iops[0] + r.iops[1];
		dp[i].lat_mean_us = lst_hist_mean(&r.lat) / 1e3;
		free(r.parts);
	}
	lst_dirth_select(dp, grid->npoints, pick);
	free(dp);
	for (int k = 0; k < LST_DIRTH_NPICKS; k++) {
		const struct s_point *g;
		struct lst_workload w;
		struct s_point *p;
		char label[192];

		if (pick[k] == LST_DIRTH_NONE)
			continue;
		g = &grid->points[pick[k]];
		w = g->w;
		w.runtime = s->ph->dirth_histogram;
		snprintf(label, sizeof(label), "%s %s", lst_dirth_pick_names[k], g->label);
		p = s_point_add(t, &w, label);
		p->pick = k;
		p->grid = pick[k];
	}
}

/* End of a round of test t (not S_ONCE): record the tracked value, decide whether to go on. */
static void s_end_round(struct s_run *s, struct s_test *t, lst_results *res)
{
	struct lst_step_result all, *tracked = NULL;
	size_t r = t->rounds;

	memset(&all, 0, sizeof(all));
	for (size_t i = 0; i < t->npoints; i++) {
		struct lst_step_result *x = s_res(&t->points[i], r);

		s_combine(&all, x, i == 0);
		s_result_free(x);
	}
	all.parts = NULL; /* s_combine copied the first point's pointer, freed since */
	all.nparts = 0;
	if (t->tracked >= 0)
		tracked = s_res(&t->points[t->tracked], r);
	t->values = lst_realloc(t->values, (r + 1) * sizeof(*t->values));
	t->values[r] = s_value(t->track, tracked ? tracked : &all);
	s_result_free(tracked);
	t->rounds++;
	lst_results_round(res, &(struct lst_round_row){
				       .phase = s->ph->name,
				       .suite = s_suite_name(s),
				       .test = t->name,
				       .round = t->rounds,
				       .t_s = s_kept_of(&t->points[0], r)->t_s,
				       .value = t->values[r],
				       .tracked = lst_track_names[t->track],
				       .iops = all.iops[0] + all.iops[1],
				       .mbps = all.mbps[0] + all.mbps[1],
				       .lat_mean_us = lst_hist_mean(&all.lat) / 1e3,
				       .lat_max_us = (double)all.lat.max / 1e3,
				       .bytes_written = s->phase_written,
			       });
	lst_steady_eval(t->values, t->rounds, s_window(s, t), s->data_pct, s->slope_pct,
			&t->verdict);
	s->p = 0;
	switch (t->mode) {
	case S_STEADY:
		if (t->verdict.reached)
			t->stop = LST_STOP_STEADY;
		else if (t->rounds >= t->max_rounds)
			t->stop = LST_STOP_ROUND_LIMIT;
		break;
	case S_FIXED:
		/* The bytes first: a round that reaches both ends the test for its bytes. */
		if (t->cap_stop > 0 && (double)t->written >= t->cap_stop)
			t->stop = s->ph->stop_bytes ? LST_STOP_BYTES : LST_STOP_CAPACITY;
		else if (t->rounds >= t->max_rounds)
			t->stop = LST_STOP_ROUND_LIMIT;
		break;
	}
	if (t->stop >= 0)
		s->p = t->npoints;
	if (t->stop >= 0 && s->ph->suite == LST_SUITE_SNIA_DIRTH && t == &s->tests[0])
		s_dirth_points(s);
}

/* Does the phase write curves.csv (lst_suite_finish)? */
static bool s_curves(const struct s_run *s)
{
	return s->ph->suite == LST_SUITE_LAT_VS_IOPS || s->ph->suite == LST_SUITE_CURVE ||
	       (s->ph->suite == LST_SUITE_NONE && s->ph->naxes > 0) ||
	       s->ph->suite == LST_SUITE_SNIA_LATENCY || s->ph->suite == LST_SUITE_SNIA_ECW ||
	       s->ph->suite == LST_SUITE_SNIA_DIRTH || s->ph->suite == LST_SUITE_SLO;
}

static void s_run_result(struct s_run *s, const struct lst_step *step,
			 const struct lst_step_result *r, lst_results *res)
{
	struct s_test *t = &s->tests[s->t];
	struct s_point *p = &t->points[step->index];

	LST_ASSERT(step->index == s->p);
	s_res_push(p, s_keep(s, t), r, s_curves(s));
	t->written += r->bytes[LST_DIR_WRITE];
	t->discarded += r->discarded;
	t->seconds += r->seconds;
	s->phase_written += r->bytes[LST_DIR_WRITE];
	if (t->mode == S_ONCE) {
		/* HIR bursts, curve points and preconditioning: a row each, against time. */
		if (s->ph->suite == LST_SUITE_SNIA_HIR || s->ph->suite == LST_SUITE_CURVE ||
		    s->ph->suite == LST_SUITE_PRECONDITION || s->ph->suite == LST_SUITE_SNIA_XSR ||
		    s->ph->suite == LST_SUITE_SLO)
			lst_results_round(res, &(struct lst_round_row){
						       .phase = s->ph->name,
						       .suite = s_suite_name(s),
						       .test = t->name,
						       .round = step->index + 1,
						       .t_s = r->t_s,
						       .value = s_value(t->track, r),
						       .tracked = lst_track_names[t->track],
						       .iops = r->iops[0] + r->iops[1],
						       .mbps = r->mbps[0] + r->mbps[1],
						       .lat_mean_us = lst_hist_mean(&r->lat) / 1e3,
						       .lat_max_us = (double)r->lat.max / 1e3,
						       .bytes_written = s->phase_written,
					       });
		s->p++;
		if (s->ph->suite == LST_SUITE_CURVE && s->t == 1 && s_over_limit(s->ph, r)) {
			t->stopped_early = true;
			s->p = t->npoints;
		}
		if (s->slo) {
			lst_slo_result(s->slo, r);
			s_slo_point(s);
		}
		if (s->p >= t->npoints) {
			t->rounds = 1;
			if (s->ph->suite == LST_SUITE_CURVE && s->t == 0)
				s_curve_points(s);
		}
		return;
	}
	s->p++;
	if (s->p >= t->npoints)
		s_end_round(s, t, res);
}

/* --- results ----------------------------------------------------------------------------- */

static void s_curve_row(struct s_run *s, lst_results *res, const struct s_point *p,
			const struct lst_step_result *r)
{
	lst_results_curve(res, s->ph->name, s->ncurve_rows++, &p->w, r, p->w.rate_iops,
			  p->target_pct);
}

/* The written bytes as a multiple of the phase's capacity, NAN when the capacity is unknown. */
static double s_multiple(const struct s_run *s, double bytes)
{
	return s->capacity ? bytes / (double)s->capacity : NAN;
}

static void s_matrix(struct s_run *s, struct s_test *t, size_t first, size_t last, lst_results *res)
{
	const int64_t *bs, *mix;
	size_t nbs = s_axis(s->ph, "bs", s_iops_bs, LST_ARRAY_SIZE(s_iops_bs), &bs);
	size_t nmix = s_axis(s->ph, "rwmixread", s_iops_mixes, LST_ARRAY_SIZE(s_iops_mixes), &mix);
	double *iops = lst_calloc(nbs * nmix, sizeof(*iops));
	char phrase[128];

	lst_steady_phrase(t->verdict.reached, (long)t->rounds, (long)first + 1, (long)last + 1,
			  t->stop, s_multiple(s, (double)t->written), phrase, sizeof(phrase));

	/* Points are mix-major (outer loop mixes), as built by s_build_grid. */
	for (size_t m = 0; m < nmix; m++) {
		for (size_t b = 0; b < nbs; b++) {
			struct lst_step_result r;

			s_window_result(&t->points[m * nbs + b], first, last, &r);
			iops[b * nmix + m] = r.iops[0] + r.iops[1];
			free(r.parts);
		}
	}
	lst_results_matrix(res, s->tag, bs, nbs, mix, nmix, iops,
			   &(struct lst_matrix_window){
				   .steady = t->verdict.reached,
				   .first = first + 1,
				   .last = last + 1,
				   .verdict = phrase,
			   });
	free(iops);
}

/* A number for summary.json, null when it is not finite (an unknown capacity). */
static json_t *s_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* One point of test t averaged over rounds [first, last] (0-based), as summary.json has it. */
static json_t *s_window_point(const struct s_point *p, size_t first, size_t last)
{
	struct lst_step_result r;
	json_t *o;

	s_window_result(p, LST_MIN(first, p->nres - 1), LST_MIN(last, p->nres - 1), &r);
	o = json_pack(
		"{s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "label", p->label, "iops",
		r.iops[0] + r.iops[1], "read_iops", r.iops[0], "write_iops", r.iops[1], "mbps",
		r.mbps[0] + r.mbps[1], "lat_mean_us", lst_hist_mean(&r.lat) / 1e3, "lat_p99_us",
		(double)lst_hist_percentile(&r.lat, 99) / 1e3, "lat_p99_99_us",
		(double)lst_hist_percentile(&r.lat, 99.99) / 1e3, "read_lat_p99_us",
		(double)lst_hist_percentile(&r.lat_dir[LST_DIR_READ], 99) / 1e3, "write_lat_p99_us",
		(double)lst_hist_percentile(&r.lat_dir[LST_DIR_WRITE], 99) / 1e3);
	free(r.parts);
	return o;
}

/*
 * The steady-state verdict of test t (not S_ONCE) into summary.json, with why its rounds ended
 * and every point's window average (the one value a report shows for it). "steady" is the
 * verdict on the last window whether or not the test ends on it ("steady_required"). Returns
 * false if required steady state was not reached.
 */
static bool s_verdict(struct s_run *s, struct s_test *t, lst_results *res, FILE *progress)
{
	const struct lst_steady *v = &t->verdict;
	char why[256], phrase[128], stop[128];
	json_t *o, *vals = json_array(), *points = json_array();
	double multiple = s_multiple(s, (double)t->written);

	if (t->stop < 0) /* rounds ended by neither steady state nor a limit */
		t->stop = LST_STOP_INTERRUPTED;
	for (size_t r = 0; r < t->rounds && t->values; r++)
		json_array_append_new(vals, json_real(t->values[r]));
	for (size_t p = 0; p < t->npoints; p++)
		if (t->points[p].nres)
			json_array_append_new(points,
					      s_window_point(&t->points[p], v->first, v->last));
	lst_steady_explain(v, why, sizeof(why));
	lst_steady_phrase(v->reached, (long)t->rounds, (long)v->first + 1, (long)v->last + 1,
			  t->stop, multiple, phrase, sizeof(phrase));
	lst_stop_after_phrase(t->stop, (long)t->rounds, (double)t->written, multiple, stop,
			      sizeof(stop));
	o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:f, "
		      "s:f, s:f, s:f, s:f, s:b, s:b, s:b, s:s, s:o}",
		      "phase", s->ph->name, "test", t->name, "suite", lst_suite_names[s->ph->suite],
		      "tracked", lst_track_names[t->track], "window", (int)s->window, "rounds",
		      (int)t->rounds, "window_first", (int)v->first + 1, "window_last",
		      (int)v->last + 1, "average", v->average, "min", v->min, "max", v->max,
		      "data_excursion_pct", v->data_excursion_pct, "slope_excursion_pct",
		      v->slope_excursion_pct, "data_excursion_limit_pct", s->data_pct,
		      "slope_excursion_limit_pct", s->slope_pct, "slope", v->slope, "intercept",
		      v->intercept, "steady", v->reached, "max_rounds_hit",
		      t->rounds >= t->max_rounds && !v->reached, "steady_required",
		      t->steady_needed, "verdict", why, "values", vals);
	json_object_set_new(o, "verdict_text", json_string(phrase));
	json_object_set_new(o, "stop_reason", json_string(lst_stop_names[t->stop]));
	json_object_set_new(o, "bytes_written", json_integer((json_int_t)t->written));
	json_object_set_new(o, "capacity_bytes", json_integer((json_int_t)s->capacity));
	json_object_set_new(o, "capacity_multiple", s_num(multiple));
	json_object_set_new(o, "points", points);
	if (*s->value)
		json_object_set_new(o, "value", json_string(s->value));
	lst_results_test(res, o);
	if (progress)
		fprintf(progress, "%s: %s: %s: %s%s%s\n", s->ph->name, t->name, phrase, why,
			*stop ? "; " : "", stop);
	return t->mode != S_STEADY || v->reached;
}

/* Why a test without rounds (a precondition, a plain phase with stop:) ended. */
static int s_once_stop(const struct s_run *s, const struct s_test *t)
{
	const struct s_point *p = &t->points[0];
	double cap = p->stop_capacity > 0 ? p->stop_capacity * (double)s->capacity : 0;
	double limit = cap;
	int kind = LST_STOP_CAPACITY;

	if (p->w.bytes && (!limit || (double)p->w.bytes * (double)t->npoints < limit)) {
		limit = (double)p->w.bytes * (double)t->npoints;
		kind = LST_STOP_BYTES;
	}
	/* Each path's share is rounded down to whole blocks: 1% covers that. */
	if (limit > 0 && (double)t->written >= 0.99 * limit)
		return kind;
	if (p->w.runtime)
		return LST_STOP_RUNTIME;
	return LST_STOP_DONE;
}

/* Does test t (without rounds) record what it did: a purge, or a capacity or byte bound? */
static bool s_worked(const struct s_run *s, const struct s_test *t)
{
	return t->mode == S_ONCE && t->npoints &&
	       (s->ph->suite == LST_SUITE_PURGE || s->ph->suite == LST_SUITE_PRECONDITION ||
		(s->ph->suite == LST_SUITE_NONE && (s->ph->stop_capacity || s->ph->stop_bytes)));
}

/*
 * What a purge or a capacity- or byte-bounded test without rounds did, into summary.json's
 * tests (an entry without a verdict): the bytes discarded or written, as a multiple of the
 * capacity, the time and the rate, and why it stopped; one line to progress.
 */
static void s_work(struct s_run *s, const struct s_test *t, lst_results *res, FILE *progress)
{
	bool purge = s->ph->suite == LST_SUITE_PURGE;
	double bytes = (double)(purge ? t->discarded : t->written);
	double multiple = s_multiple(s, bytes),
	       mbps = t->seconds > 0 ? bytes / t->seconds / 1e6 : 0;
	int stop = purge ? LST_STOP_DONE : s_once_stop(s, t);
	char sz[32], dur[32], stoptext[128];
	json_t *o;

	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:o, s:f, s:f}", "phase",
		      s->ph->name, "test", t->name, "suite", lst_suite_names[s->ph->suite], "did",
		      purge ? "discard" : "write", "stop_reason", lst_stop_names[stop],
		      "bytes_written", (json_int_t)t->written, "bytes_discarded",
		      (json_int_t)t->discarded, "capacity_bytes", (json_int_t)s->capacity,
		      "capacity_multiple", s_num(multiple), "seconds", t->seconds, "mbps", mbps);
	if (*s->value)
		json_object_set_new(o, "value", json_string(s->value));
	lst_results_test(res, o);
	if (!progress)
		return;
	lst_fmt_size((uint64_t)bytes, sz, sizeof(sz));
	fprintf(progress, "%s: %s: %s %s", s->ph->name, t->name, purge ? "discarded" : "wrote", sz);
	if (isfinite(multiple))
		fprintf(progress, " (%.2fx capacity)", multiple);
	fprintf(progress, " in %s, %.1f MB/s",
		lst_fmt_duration((int64_t)(t->seconds * 1e9), dur, sizeof(dur)), mbps);
	lst_stop_text(stop, 0, bytes, multiple, stoptext, sizeof(stoptext));
	fprintf(progress, "%s%s\n", *stoptext ? "; " : "", stoptext);
}

/* One DIRTH histogram run into dirth-PHASE.json: its figures, percentiles with their
 * confidence, and the merged histogram's non-empty buckets (also one CSV row each in csv). */
static json_t *s_dirth_run(const struct s_run *s, const struct s_point *p, FILE *csv)
{
	static const double pcts[] = { 99, 99.9, 99.99, 99.999 };
	const struct s_point *g = &s->tests[0].points[p->grid];
	struct lst_step_result *r = s_res(p, 0), grid;
	json_t *o, *pc = json_object(), *ok = json_object(), *bins = json_array();
	uint64_t ios = r->lat.count;

	s_window_result(g, s->tests[0].verdict.first, s->tests[0].verdict.last, &grid);
	for (size_t i = 0; i < LST_ARRAY_SIZE(pcts); i++) {
		char key[16];

		snprintf(key, sizeof(key), "%g", pcts[i]);
		json_object_set_new(pc, key,
				    json_real((double)lst_hist_percentile(&r->lat, pcts[i]) / 1e3));
		json_object_set_new(ok, key, json_boolean(lst_dirth_supported(ios, pcts[i])));
	}
	for (unsigned b = 0; b < LST_HIST_NBUCKETS; b++) {
		double lo = (double)lst_hist_bucket_low(b) / 1e3,
		       hi = (double)(lst_hist_bucket_low(b) + lst_hist_bucket_width(b)) / 1e3;

		if (!r->lat.buckets[b])
			continue;
		json_array_append_new(
			bins, json_pack("[f, f, I]", lo, hi, (json_int_t)r->lat.buckets[b]));
		fprintf(csv, "%s,%s,%" PRId64 ",%" PRId64 ",%.3f,%.3f,%" PRIu64 "\n", s->ph->name,
			lst_dirth_pick_names[p->pick], p->w.jobs, p->w.iodepth, lo, hi,
			r->lat.buckets[b]);
	}
	o = json_pack("{s:s, s:s, s:I, s:I, s:f, s:f, s:f, s:I, s:f, s:f, s:f, s:f, s:o, s:o, "
		      "s:I, s:o}",
		      "pick", lst_dirth_pick_names[p->pick], "label", g->label, "jobs",
		      (json_int_t)p->w.jobs, "iodepth", (json_int_t)p->w.iodepth, "grid_iops",
		      grid.iops[0] + grid.iops[1], "grid_lat_mean_us",
		      lst_hist_mean(&grid.lat) / 1e3, "iops", r->iops[0] + r->iops[1], "ios",
		      (json_int_t)ios, "seconds", r->seconds, "lat_mean_us",
		      lst_hist_mean(&r->lat) / 1e3, "lat_min_us",
		      ios ? (double)r->lat.min / 1e3 : 0.0, "lat_max_us", (double)r->lat.max / 1e3,
		      "percentiles_us", pc, "supported", ok, "overflow",
		      (json_int_t)r->lat.overflow, "histogram", bins);
	free(grid.parts);
	s_result_free(r);
	return o;
}

/*
 * DIRTH's outputs: dirth-PHASE.json (the grid's window averages, the selected points and each
 * one's histogram run) and dirth-PHASE.csv (every histogram bucket with I/Os, one row each).
 */
static void s_dirth_write(struct s_run *s, lst_results *res)
{
	const struct s_test *grid = &s->tests[0], *t = &s->tests[1];
	json_t *doc, *pts = json_array(), *runs = json_array();
	char *csvtext = NULL, *name, *text;
	size_t csvlen = 0;
	FILE *csv = open_memstream(&csvtext, &csvlen);
	lst_err err;

	LST_ASSERT(csv);
	fprintf(csv, "phase,pick,jobs,iodepth,lo_us,hi_us,count\n");
	for (size_t i = 0; i < grid->npoints; i++) {
		if (!grid->points[i].nres)
			continue;
		json_array_append_new(pts, s_window_point(&grid->points[i], grid->verdict.first,
							  grid->verdict.last));
	}
	for (size_t i = 0; i < t->npoints; i++)
		if (t->points[i].nres)
			json_array_append_new(runs, s_dirth_run(s, &t->points[i], csv));
	fclose(csv);
	doc = json_pack("{s:s, s:b, s:i, s:i, s:f, s:I, s:o, s:o}", "phase", s->ph->name, "steady",
			grid->verdict.reached, "window_first", (int)grid->verdict.first + 1,
			"window_last", (int)grid->verdict.last + 1, "resolution_pct",
			100.0 / LST_HIST_SUB, "ios_needed_99_999",
			(json_int_t)lst_dirth_ios_needed(99.999), "grid", pts, "selected", runs);
	if (*s->value)
		json_object_set_new(doc, "value", json_string(s->value));
	text = json_dumps(doc, JSON_INDENT(2));
	name = lst_asprintf("dirth-%s.json", s->tag);
	if (lst_results_write_file(res, name, text, strlen(text), &err))
		lst_log_warn("%s", err.msg);
	free(name);
	name = lst_asprintf("dirth-%s.csv", s->tag);
	if (lst_results_write_file(res, name, csvtext, csvlen, &err))
		lst_log_warn("%s", err.msg);
	free(name);
	free(text);
	free(csvtext);
	json_decref(doc);
}

/*
 * XSR's outputs: xsr-PHASE.csv (every interval of the three segments in time order) and
 * xsr-PHASE.json (the segments' averages, the baseline and the time to recover); not a
 * summary.json test, as its segments have no steady-state verdict.
 */
static void s_xsr_write(struct s_run *s, lst_results *res, FILE *progress)
{
	double *v[3] = { NULL, NULL, NULL }, t3 = 0, base, recovery_s = -1;
	size_t n[3] = { 0, 0, 0 }, at;
	char *csvtext = NULL, *name, *text;
	size_t csvlen = 0;
	FILE *csv = open_memstream(&csvtext, &csvlen);
	json_t *segs = json_array(), *doc;
	lst_err err;

	LST_ASSERT(csv);
	fprintf(csv, "phase,segment,interval,t_s,seconds,iops,mbps\n");
	for (size_t g = 0; g < s->ntests && g < 3; g++) {
		const struct s_test *t = &s->tests[g];
		double sum = 0;

		v[g] = lst_calloc(t->npoints + 1, sizeof(double));
		for (size_t i = 0; i < t->npoints && t->points[i].nres; i++) {
			const struct s_kept *k = s_kept_of(&t->points[i], 0);

			v[g][n[g]++] = k->f.mbps[0] + k->f.mbps[1];
			sum += k->f.mbps[0] + k->f.mbps[1];
			if (g == 2 && i == 0)
				t3 = k->t_s;
			fprintf(csv, "%s,%zu,%zu,%.3f,%.3f,%.1f,%.3f\n", s->ph->name, g + 1, i + 1,
				k->t_s, (double)t->points[i].w.runtime / 1e9,
				k->f.iops[0] + k->f.iops[1], k->f.mbps[0] + k->f.mbps[1]);
		}
		json_array_append_new(segs, json_pack("{s:s, s:I, s:f}", "name", t->name,
						      "intervals", (json_int_t)n[g], "mbps",
						      n[g] ? sum / (double)n[g] : 0.0));
	}
	fclose(csv);
	base = lst_xsr_baseline(v[0], n[0], s->window);
	at = lst_xsr_recovered(base, v[2], n[2], 10);
	if (at < n[2]) {
		const struct s_point *p = &s->tests[2].points[at];

		recovery_s = s_kept_of(p, 0)->t_s + (double)p->w.runtime / 1e9 - t3;
	}
	doc = json_pack("{s:s, s:o, s:f, s:f, s:b, s:I, s:o}", "phase", s->ph->name, "segments",
			segs, "baseline_mbps", base, "tolerance_pct", 10.0, "recovered", at < n[2],
			"recovered_interval", (json_int_t)(at + 1), "recovery_s",
			s_num(recovery_s >= 0 ? recovery_s : NAN));
	if (*s->value)
		json_object_set_new(doc, "value", json_string(s->value));
	text = json_dumps(doc, JSON_INDENT(2));
	name = lst_asprintf("xsr-%s.json", s->tag);
	if (lst_results_write_file(res, name, text, strlen(text), &err))
		lst_log_warn("%s", err.msg);
	free(name);
	free(text);
	json_decref(doc);
	if (progress) {
		if (at < n[2])
			fprintf(progress,
				"%s: xsr%s%s: back within 10%% of %.1f MB/s after %.1f s of "
				"segment 3\n",
				s->ph->name, *s->value ? " " : "", s->value, base, recovery_s);
		else
			fprintf(progress,
				"%s: xsr%s%s: NOT back within 10%% of %.1f MB/s in segment 3\n",
				s->ph->name, *s->value ? " " : "", s->value, base);
	}
	name = lst_asprintf("xsr-%s.csv", s->tag);
	if (lst_results_write_file(res, name, csvtext, csvlen, &err))
		lst_log_warn("%s", err.msg);
	free(name);
	free(csvtext);
	for (int g = 0; g < 3; g++)
		free(v[g]);
}

static bool s_run_finish(struct s_run *s, lst_results *res, FILE *progress)
{
	bool all_ok = true;

	for (size_t i = 0; i < s->ntests; i++) {
		struct s_test *t = &s->tests[i];
		size_t first = 0, last = t->rounds ? t->rounds - 1 : 0;

		if (!t->rounds || !t->npoints)
			continue;
		if (t->stopped_early && progress) {
			size_t run = 0;

			while (run < t->npoints && t->points[run].nres)
				run++;
			fprintf(progress,
				"%s: %s: p%g latency passed the %.0f us limit at point %zu of %zu; "
				"the curve stops there (the last row of curves.csv)\n",
				s->ph->name, t->name, s->ph->limit_percentile,
				(double)s->ph->limit_ns / 1e3, run, t->npoints);
		}
		if (s_worked(s, t))
			s_work(s, t, res, progress);
		if (t->mode != S_ONCE) {
			/* The verdict's window: where it was reached, or the last rounds. */
			first = t->verdict.first;
			last = t->verdict.last;
			if (!s_verdict(s, t, res, progress))
				all_ok = false;
		}
		/* Curves: points averaged over the window (all rounds for fixed tests); DIRTH's
		 * histogram runs are in its own files. */
		if (s_curves(s) && !(s->ph->suite == LST_SUITE_SNIA_DIRTH && t->mode == S_ONCE)) {
			for (size_t p = 0; p < t->npoints; p++) {
				struct lst_step_result r;

				if (!t->points[p].nres)
					continue;
				s_window_result(&t->points[p],
						LST_MIN(first, t->points[p].nres - 1),
						LST_MIN(last, t->points[p].nres - 1), &r);
				s_curve_row(s, res, &t->points[p], &r);
				free(r.parts);
			}
		}
		if (s->ph->suite == LST_SUITE_SNIA_IOPS)
			s_matrix(s, t, first, last, res);
	}
	if (s->ph->suite == LST_SUITE_SNIA_DIRTH && s->ntests == 2 && s->tests[0].rounds)
		s_dirth_write(s, res);
	if (s->ph->suite == LST_SUITE_SNIA_XSR && s->ntests && s->tests[0].rounds)
		s_xsr_write(s, res, progress);
	if (s->slo)
		lst_slo_write(s->slo, res, progress);
	return all_ok;
}

static int64_t s_run_estimate(const struct s_run *s)
{
	int64_t total = 0;

	for (size_t i = 0; i < s->ntests; i++) {
		const struct s_test *t = &s->tests[i];

		for (size_t p = 0; p < t->npoints; p++) {
			const struct lst_workload *w = &t->points[p].w;

			if (!w->runtime)
				return 0;
			total += w->ramp + w->runtime + t->points[p].idle_after;
		}
	}
	/* DIRTH's histogram runs are added once its grid is over: count them from the start. */
	if (s->ph->suite == LST_SUITE_SNIA_DIRTH && s->ntests == 2 && !s->tests[1].npoints)
		total += LST_DIRTH_NPICKS * (s->ph->round_ramp + s->ph->dirth_histogram);
	/* SLO's probes are added one by one: count as many as it may run. */
	if (s->slo && s->tests[0].npoints)
		total = s->ph->slo_max_probes *
			(s->tests[0].points[0].w.ramp + s->tests[0].points[0].w.runtime);
	return total;
}

static bool s_run_has_rounds(const struct s_run *s)
{
	for (size_t i = 0; i < s->ntests; i++)
		if (s->tests[i].mode != S_ONCE)
			return true;
	return false;
}

static uint32_t s_run_access(const struct s_run *s)
{
	uint32_t access = LST_ACCESS_READ;

	for (size_t i = 0; i < s->ntests; i++) {
		for (size_t k = 0; k < s->tests[i].npoints; k++) {
			const struct s_point *p = &s->tests[i].points[k];

			if (p->action == LST_ACTION_DISCARD || p->action == LST_ACTION_SECDISCARD)
				access |= LST_ACCESS_PURGE;
			else if (lst_workload_writes(&p->w))
				access |= LST_ACCESS_WRITE;
		}
	}
	return access;
}

static void s_run_progress(const struct s_run *s, struct lst_suite_progress *out)
{
	const struct s_test *t;

	memset(out, 0, sizeof(*out));
	if (!s->ntests)
		return;
	t = &s->tests[LST_MIN(s->t, s->ntests - 1)];
	lst_copy(out->test, sizeof(out->test), t->name);
	if (t->mode == S_ONCE)
		return;
	out->rounds = t->rounds;
	out->window = s->window;
	out->max_rounds = t->max_rounds;
	out->steady = t->mode == S_STEADY && t->verdict.reached;
}

/* --- the phase: one run of the suite per value ------------------------------------------ */

/* A phase's suite: its grid once per value of the phase's value axes, in order. */
struct lst_suite_run {
	size_t nruns, cur;
	struct s_run **runs;
};

lst_suite_run *lst_suite_new(const lst_plan *plan, size_t phase, uint64_t capacity, lst_err *err)
{
	size_t n = lst_plan_phase_values(&plan->phases[phase]);
	lst_suite_run *s = lst_calloc(1, sizeof(*s));

	s->runs = lst_calloc(n, sizeof(*s->runs));
	for (size_t v = 0; v < n; v++) {
		s->runs[v] = s_run_new(plan, phase, capacity, v, err);
		if (!s->runs[v]) {
			lst_suite_destroy(&s);
			return NULL;
		}
		s->nruns++;
	}
	return s;
}

void lst_suite_destroy(lst_suite_run **p)
{
	lst_suite_run *s = *p;

	if (!s)
		return;
	for (size_t v = 0; v < s->nruns; v++)
		s_run_destroy(&s->runs[v]);
	free(s->runs);
	free(s);
	*p = NULL;
}

bool lst_suite_next(lst_suite_run *s, struct lst_step *step)
{
	for (; s->cur < s->nruns; s->cur++)
		if (s_run_next(s->runs[s->cur], step))
			return true;
	return false;
}

void lst_suite_result(lst_suite_run *s, const struct lst_step *step,
		      const struct lst_step_result *r, lst_results *res)
{
	LST_ASSERT(s->cur < s->nruns);
	s_run_result(s->runs[s->cur], step, r, res);
}

bool lst_suite_finish(lst_suite_run *s, lst_results *res, FILE *progress)
{
	bool all_ok = true;

	for (size_t v = 0; v < s->nruns; v++) {
		/* curves.csv numbers a phase's rows on across its values */
		if (v)
			s->runs[v]->ncurve_rows = s->runs[v - 1]->ncurve_rows;
		all_ok &= s_run_finish(s->runs[v], res, progress);
	}
	return all_ok;
}

int64_t lst_suite_estimate(const lst_suite_run *s)
{
	int64_t total = 0;

	for (size_t v = 0; v < s->nruns; v++) {
		int64_t t = s_run_estimate(s->runs[v]);

		if (!t)
			return 0;
		total += t;
	}
	return total;
}

bool lst_suite_has_rounds(const lst_suite_run *s)
{
	return s->nruns && s_run_has_rounds(s->runs[0]);
}

uint32_t lst_suite_access(const lst_suite_run *s)
{
	uint32_t access = 0;

	for (size_t v = 0; v < s->nruns; v++)
		access |= s_run_access(s->runs[v]);
	return access;
}

size_t lst_suite_kept(const lst_suite_run *s)
{
	size_t n = 0;

	for (size_t v = 0; v < s->nruns; v++)
		n += s_run_kept(s->runs[v]);
	return n;
}

void lst_suite_progress(const lst_suite_run *s, struct lst_suite_progress *out)
{
	memset(out, 0, sizeof(*out));
	if (s->nruns)
		s_run_progress(s->runs[LST_MIN(s->cur, s->nruns - 1)], out);
}
