/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Workload mixes (lst_skew.c): the text form parses to the expected entries, format parses back
 * equal (fixed, fio-spelled and random mixes, and the longest legal one fits the wire), each
 * bad text gets one clear error naming the entry and key and leaves an empty mix, and
 * lst_workload_check applies the job's checks to every entry.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lst_mix.h"
#include "lst_opt.h"
#include "lst_workload.h"
#include "lst_test.h"

#define KiB 1024
#define MiB (1024 * 1024)

/* text must parse; format it, parse that, and the two structs must be equal. */
static void s_round_trip(const char *text, const char *want_format)
{
	struct lst_skew a, b;
	char buf[LST_OPT_WIRE_MAX];
	lst_err err;

	if (lst_skew_parse(&a, text, &err))
		T_FAIL("'%s' failed: %s", text, err.msg);
	lst_skew_format(&a, buf, sizeof(buf));
	if (want_format)
		T_EQ_STR(buf, want_format);
	if (lst_skew_parse(&b, buf, &err))
		T_FAIL("format '%s' of '%s' failed: %s", buf, text, err.msg);
	T_ASSERT(!memcmp(&a, &b, sizeof(a)));
}

static void s_bad(const char *text, int code, const char *msg)
{
	struct lst_skew s;
	lst_err err;

	lst_err_clear(&err);
	T_EQ_INT(lst_skew_parse(&s, text, &err), code);
	T_EQ_STR(err.msg, msg);
	T_EQ_INT(s.n, 0);
}

static void s_forms(void)
{
	struct lst_skew s;
	lst_err err;

	T_EQ_INT(lst_skew_parse(&s,
				"share=60 rw=randread bs=8k random_distribution=zoned:100/10:0/90; "
				"share=30 rw=write bs=64k; share=10 rw=randtrim bs=4k",
				&err),
		 0);
	T_EQ_INT(s.n, 3);
	T_EQ_INT(s.e[0].share, 60);
	T_EQ_INT(s.e[0].rw, LST_RW_RANDREAD);
	T_EQ_INT(s.e[0].bs, 8 * KiB);
	T_EQ_INT(s.e[0].dist.kind, LST_DIST_ZONED);
	T_EQ_INT(s.e[0].dist.nzones, 2);
	T_EQ_INT(s.e[1].rw, LST_RW_WRITE);
	T_EQ_INT(s.e[1].bs, 64 * KiB);
	T_EQ_INT(s.e[1].dist.kind, LST_DIST_RANDOM);
	T_EQ_INT(s.e[2].share, 10);
	T_EQ_INT(s.e[2].rw, LST_RW_RANDTRIM);
	/* keys left out take the table's defaults */
	T_EQ_INT(lst_skew_parse(&s, "share=100", &err), 0);
	T_EQ_INT(s.n, 1);
	T_EQ_INT(s.e[0].rw, LST_RW_RANDREAD);
	T_EQ_INT(s.e[0].rwmixread, 50);
	T_EQ_INT(s.e[0].bs, 4 * KiB);
	T_EQ_INT(s.e[0].offset, 0);
	T_EQ_INT(s.e[0].size, 0);
	/* spacing, a trailing ';'-free form, shares as N% */
	T_EQ_INT(lst_skew_parse(&s,
				"  share=50%\trw=randrw rwmixread=70 ;share=50 offset=1m "
				"size=10m rw=read ",
				&err),
		 0);
	T_EQ_INT(s.n, 2);
	T_EQ_INT(s.e[0].rwmixread, 70);
	T_EQ_INT(s.e[1].offset, 1 * MiB);
	T_EQ_INT(s.e[1].size, 10 * MiB);
	T_EQ_INT(lst_skew_parse(&s, "none", &err), 0);
	T_EQ_INT(s.n, 0);
	T_EQ_INT(lst_skew_parse(&s, "", &err), 0);
	T_EQ_INT(s.n, 0);

	s_round_trip("share=60 rw=randread bs=8k random_distribution=zoned:100/10:0/90; "
		     "share=30 rw=write bs=64k; share=10 rw=randtrim bs=4k",
		     "share=60 rw=randread bs=8k random_distribution=zoned:100/10:0/90; share=30 "
		     "rw=write bs=64k; share=10 rw=randtrim bs=4k");
	s_round_trip("share=100", "share=100 rw=randread bs=4k");
	s_round_trip("share=50 rw=randrw rwmixread=70 bs=1536 random_distribution=zipf:1.2; "
		     "share=50 rw=rw offset=1m size=10m",
		     "share=50 rw=randrw rwmixread=70 bs=1536 random_distribution=zipf:1.2; "
		     "share=50 rw=rw bs=4k offset=1m size=10m");
	s_round_trip("share=99 random_distribution=pareto:0.3;share=1 rw=trim bs=16m", NULL);
	s_round_trip("none", "none");
}

/* fio's spellings: the table's aliases of values (rw=readwrite) and the percent form. */
static void s_fio(void)
{
	struct lst_skew s;
	lst_err err;

	T_EQ_INT(lst_skew_parse(&s, "share=40 rw=readwrite; share=60 rw=randwrite", &err), 0);
	T_EQ_INT(s.e[0].rw, LST_RW_RW);
	s_round_trip("share=40 rw=readwrite; share=60% rw=randwrite",
		     "share=40 rw=rw bs=4k; share=60 rw=randwrite bs=4k");
	s_bad("share=100 rw=libaio", -EINVAL,
	      "entry 1: rw: 'libaio' is not one of read|write|randread|randwrite|randrw|rw|trim|"
	      "randtrim");
}

static void s_errors(void)
{
	s_bad("share=60 rw=randread; share=30 rw=write", -EINVAL, "shares add up to 90, not 100");
	s_bad("share=60; share=50", -EINVAL, "shares add up to 110, not 100");
	s_bad("share=60 rw=randread; rw=write", -EINVAL,
	      "entry 2 has no share (every entry gives share=PCT, the entries' adding up to "
	      "100)");
	s_bad("share=60 bz=8k; share=40", -EINVAL,
	      "entry 1: unknown key 'bz' (did you mean 'bs'?)");
	s_bad("share=60; share=40 rwmixred=70", -EINVAL,
	      "entry 2: unknown key 'rwmixred' (did you mean 'rwmixread'?)");
	s_bad("share=60; shar=40", -EINVAL, "entry 2: unknown key 'shar' (did you mean 'share'?)");
	s_bad("share=60; share=40 iodepth=8", -EINVAL,
	      "entry 2: unknown key 'iodepth' (keys: share, rw, rwmixread, bs, offset, size, "
	      "random_distribution)");
	s_bad("share=60; ; share=40", -EINVAL,
	      "entry 2 is empty (give share=PCT and keys, like share=60 rw=randread bs=8k)");
	s_bad("share=100;", -EINVAL,
	      "entry 2 is empty (give share=PCT and keys, like share=60 rw=randread bs=8k)");
	s_bad("share=100 randread", -EINVAL,
	      "entry 1: 'randread' is not KEY=VALUE (like share=60 or bs=8k)");
	s_bad("share=100 =4k", -EINVAL, "entry 1: '=4k' is not KEY=VALUE (like share=60 or bs=8k)");
	s_bad("share=101", -ERANGE, "entry 1: share '101' is not a whole percent 1..100");
	s_bad("share=0; share=100", -ERANGE, "entry 1: share '0' is not a whole percent 1..100");
	s_bad("share=x", -ERANGE, "entry 1: share 'x' is not a whole percent 1..100");
	s_bad("share=50 share=50", -EINVAL, "entry 1: share is given twice");
	s_bad("share=100 bs=4k bs=8k", -EINVAL, "entry 1: bs is given twice");
	s_bad("share=50; share=50 bs=32m", -ERANGE, "entry 2: bs must be between 512 B and 16 MiB");
	s_bad("share=50; share=50 rwmixread=101", -ERANGE,
	      "entry 2: rwmixread must be between 0 and 100");
	s_bad("share=50; share=50 random_distribution=zipf:0", -ERANGE,
	      "entry 2: random_distribution: zipf:θ needs θ > 0 and at most 100, not 1 (got 0)");
	s_bad("share=50 rw=randred; share=50", -EINVAL,
	      "entry 1: rw: 'randred' is not one of read|write|randread|randwrite|randrw|rw|trim|"
	      "randtrim; did you mean 'randread'?");
	s_bad("share=10;share=10;share=10;share=10;share=10;share=10;share=10;share=10;share=20",
	      -EINVAL, "more than 8 entries");
}

/* The longest legal value (LST_SKEW_MAX entries, every key at its longest) fits the wire. */
static void s_longest(void)
{
	struct lst_skew a, b;
	char buf[LST_OPT_WIRE_MAX * 2];
	lst_err err;

	memset(&a, 0, sizeof(a));
	a.n = LST_SKEW_MAX;
	for (int i = 0; i < LST_SKEW_MAX; i++) {
		struct lst_skew_entry *e = &a.e[i];

		e->share = i ? 12 : 16;
		e->rw = LST_RW_RANDTRIM;
		e->rwmixread = 99;
		e->bs = 16 * MiB - 512 - 1;
		e->offset = 64LL * 1024 * 1024 * MiB - 1;
		e->size = 64LL * 1024 * 1024 * MiB - 3;
		e->dist.kind = LST_DIST_ZONED;
		e->dist.nzones = LST_ZONES_MAX;
		for (int z = 0; z < LST_ZONES_MAX; z++) {
			e->dist.zone[z].access_pct = z < 4 ? 10 : (z < 15 ? 5 : 5);
			e->dist.zone[z].size_pct = z < 4 ? 10 : (z < 15 ? 5 : 5);
		}
	}
	lst_skew_format(&a, buf, sizeof(buf));
	T_ASSERT(strlen(buf) < LST_OPT_WIRE_MAX);
	if (lst_skew_parse(&b, buf, &err))
		T_FAIL("'%s' failed: %s", buf, err.msg);
	T_ASSERT(!memcmp(&a, &b, sizeof(a)));
}

/* Random mixes: every one formats to text that parses back equal. */
static void s_random(void)
{
	static const char *const dists[] = { "random", "zipf:1.2", "pareto:0.2", "normal:5",
					     "zoned:70/10:30/90" };

	srand(17);
	for (int t = 0; t < 500; t++) {
		struct lst_skew a, b;
		char buf[LST_OPT_WIRE_MAX];
		int64_t left = 100;
		lst_err err;

		memset(&a, 0, sizeof(a));
		a.n = 1 + rand() % LST_SKEW_MAX;
		for (int64_t i = 0; i < a.n; i++) {
			struct lst_skew_entry *e = &a.e[i];
			int64_t rest = a.n - i - 1;

			e->share = i + 1 == a.n ? left : 1 + rand() % (left - rest);
			left -= e->share;
			e->rw = rand() % 8;
			e->rwmixread = rand() % 101;
			e->bs = (1 + rand() % 64) * 512;
			e->offset = (int64_t)(rand() % 1000) * 4096;
			e->size = (int64_t)(rand() % 3) * MiB;
			T_EQ_INT(lst_dist_parse(&e->dist, dists[rand() % 5], &err), 0);
		}
		lst_skew_format(&a, buf, sizeof(buf));
		if (lst_skew_parse(&b, buf, &err))
			T_FAIL("'%s' failed: %s", buf, err.msg);
		T_ASSERT(!memcmp(&a, &b, sizeof(a)));
	}
}

/* The option as the table carries it: parse, format, equal. */
static void s_option(void)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, "skew");
	struct lst_workload a, b;
	char buf[LST_OPT_WIRE_MAX];
	lst_err err;

	T_ASSERT(o);
	lst_workload_init(&a);
	lst_workload_init(&b);
	T_EQ_INT(lst_opt_parse(o, &a, "share=70 rw=randread bs=8k; share=30 rw=write bs=64k", &err),
		 0);
	lst_opt_format(o, &a, buf, sizeof(buf));
	T_EQ_STR(buf, "share=70 rw=randread bs=8k; share=30 rw=write bs=64k");
	T_ASSERT(!lst_opt_equal(o, &a, &b));
	T_EQ_INT(lst_opt_parse(o, &b, buf, &err), 0);
	T_ASSERT(lst_opt_equal(o, &a, &b));
	T_EQ_INT(lst_opt_parse(o, &b, "share=70", &err), -EINVAL);
	T_EQ_STR(err.msg, "skew: shares add up to 70, not 100");
}

/* Set w's skew from text (which must parse). */
static void s_set(struct lst_workload *w, const char *text)
{
	lst_err err;

	lst_workload_init(w);
	if (lst_skew_parse(&w->skew, text, &err))
		T_FAIL("'%s' failed: %s", text, err.msg);
}

static void s_check_bad(const struct lst_workload *w, uint64_t path_size, const char *msg)
{
	lst_err err;

	lst_err_clear(&err);
	T_EQ_INT(lst_workload_check(w, path_size, &err), -EINVAL);
	T_EQ_STR(err.msg, msg);
}

/* lst_workload_check, lst_workload_bs_max, _writes and _read_pct with a skew. */
static void s_check(void)
{
	struct lst_workload w;
	lst_err err;

	s_set(&w, "share=60 rw=randread bs=8k; share=30 rw=write bs=64k; share=10 rw=randtrim");
	T_EQ_INT(lst_workload_check(&w, 64 * MiB, &err), 0);
	T_EQ_INT(lst_workload_bs_max(&w), 64 * KiB);
	T_ASSERT(lst_workload_writes(&w));
	T_EQ_INT(lst_workload_read_pct(&w), 60);
	s_set(&w, "share=50 rw=randread; share=50 rw=read bs=1m");
	T_ASSERT(!lst_workload_writes(&w));
	T_EQ_INT(lst_workload_read_pct(&w), 100);
	s_set(&w, "share=50 rw=randread; share=50 rw=randrw rwmixread=100");
	T_ASSERT(!lst_workload_writes(&w));
	s_set(&w, "share=50 rw=randread; share=50 rw=randrw rwmixread=99");
	T_ASSERT(lst_workload_writes(&w));
	T_EQ_INT(lst_workload_read_pct(&w), 100); /* 99.5, rounded */
	s_set(&w, "share=75 rw=randread; share=25 rw=trim");
	T_ASSERT(lst_workload_writes(&w));
	T_EQ_INT(lst_workload_read_pct(&w), 75);

	/* every entry as the job's own fields */
	s_set(&w, "share=50; share=50 bs=1000");
	s_check_bad(&w, 0, "skew entry 2: bs 1000 is not a multiple of 512 bytes");
	s_set(&w, "share=50 offset=100; share=50");
	s_check_bad(&w, 0, "skew entry 1: offset 100 is not a multiple of 512 bytes (direct I/O)");
	w.direct = 0;
	T_EQ_INT(lst_workload_check(&w, 0, &err), 0);
	s_set(&w, "share=50 size=4k bs=8k; share=50");
	s_check_bad(&w, 0, "skew entry 1: size 4096 is smaller than one block (bs 8192)");
	s_set(&w, "share=50; share=50 offset=60m size=8m rw=write");
	T_EQ_INT(lst_workload_check(&w, 0, &err), 0); /* the path's size is not known yet */
	s_check_bad(&w, 64 * MiB,
		    "skew entry 2: region offset 62914560 + size 8388608 ends beyond the path "
		    "(67108864 bytes)");
	s_set(&w, "share=50; share=50 offset=64m");
	s_check_bad(&w, 64 * MiB,
		    "skew entry 2: offset 67108864 is beyond the end of the path (67108864 bytes)");
	s_set(&w, "share=50; share=50 rw=write bs=1m size=2m");
	w.jobs = 4;
	s_check_bad(&w, 64 * MiB,
		    "skew entry 2: region of 2097152 bytes is too small for bs 1048576 x 4 jobs");

	/* options that cannot follow a mix of streams */
	s_set(&w, "share=50; share=50 rw=write");
	T_EQ_INT(lst_bssplit_parse(&w.bssplit, "4k/50:8k/50", &err), 0);
	s_check_bad(&w, 0,
		    "skew and bssplit: each skew entry has one bs; give it inside the entries or "
		    "leave skew out (several entries of one rw make a size mix)");
	s_set(&w, "share=50; share=50 rw=randrw");
	w.rwmixtrim = 10;
	s_check_bad(&w, 0,
		    "skew and rwmixtrim: give trims as a skew entry of their own (rw=trim or "
		    "rw=randtrim)");
	s_set(&w, "share=50; share=50 rw=write");
	w.verify = 1;
	s_check_bad(&w, 0,
		    "skew and verify: verify replays one stream of I/Os per job, a skew mixes "
		    "several: use one or the other");
	s_set(&w, "share=50; share=50 rw=write");
	strcpy(w.read_iolog, "t.lstrace");
	s_check_bad(&w, 0,
		    "skew and read_iolog: a trace is recorded or replayed from one workload per "
		    "job: use one or the other");
	s_set(&w, "share=50; share=50 rw=write");
	strcpy(w.write_iolog, "t");
	s_check_bad(&w, 0,
		    "skew and write_iolog: a trace is recorded or replayed from one workload per "
		    "job: use one or the other");
}

int main(void)
{
	s_forms();
	s_fio();
	s_errors();
	s_longest();
	s_random();
	s_option();
	s_check();
	return 0;
}
