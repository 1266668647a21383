/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Option tables and the workload table: defaults, parse -> format -> parse round trips of every
 * workload option (and of random values across each range), errors that start with the option's
 * name, the ENUM / BOOL / PATTERN forms, and lst_workload_check's cross-field errors.
 *
 * One check is a regression test for an over-long pattern value once cut silently.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_opt.h"
#include "lst_time.h"
#include "lst_workload.h"
#include "lst_test.h"

#define KiB 1024LL
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)
#define TiB (1024 * GiB)

static const struct lst_opt *s_opt(const char *name)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, name);

	if (!o)
		T_FAIL("workload option '%s' not found", name);
	return o;
}

/* Parse text into w's option and return the stored value; the parse must succeed. */
static int64_t s_set(struct lst_workload *w, const char *name, const char *text)
{
	const struct lst_opt *o = s_opt(name);
	lst_err err;

	if (lst_opt_parse(o, w, text, &err))
		T_FAIL("%s = '%s' failed: %s", name, text, err.msg);
	return lst_opt_get(o, w);
}

/* The parse must fail with code, leave the field alone, and say msg. */
static void s_bad(const char *name, const char *text, int code, const char *msg)
{
	const struct lst_opt *o = s_opt(name);
	struct lst_workload w;
	int64_t before;
	lst_err err;

	lst_workload_init(&w);
	before = lst_opt_get(o, &w);
	lst_err_clear(&err);
	T_EQ_INT(lst_opt_parse(o, &w, text, &err), code);
	T_EQ_STR(err.msg, msg);
	T_ASSERT(!strncmp(err.msg, name, strlen(name)));
	T_EQ_INT(lst_opt_get(o, &w), before);
}

static void s_defaults(void)
{
	struct lst_workload w;
	bool seen[sizeof(struct lst_workload) / sizeof(int64_t)] = { false };
	size_t n = 0;

	memset(&w, 0x5a, sizeof(w));
	lst_workload_init(&w);
	T_EQ_INT(w.rw, LST_RW_RANDREAD);
	T_EQ_INT(w.rwmixread, 50);
	T_EQ_INT(w.bs, 4096);
	T_EQ_INT(w.iodepth, 1);
	T_EQ_INT(w.jobs, 1);
	T_EQ_INT(w.offset, 0);
	T_EQ_INT(w.size, 0);
	T_EQ_INT(w.runtime, 0);
	T_EQ_INT(w.ramp, 0);
	T_EQ_INT(w.bytes, 0);
	T_EQ_INT(w.rate_iops, 0);
	T_EQ_INT(w.arrivals, LST_ARRIVAL_POISSON);
	T_EQ_INT(w.interval, LST_NS_PER_S);
	T_EQ_INT(w.direct, 1);
	T_EQ_INT(w.engine, LST_ENGINE_IO_URING);
	T_EQ_INT(w.pattern, 100);
	T_EQ_INT(w.seed, 0);

	/* the table covers every byte of the struct, once, each field with help */
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		T_ASSERT(o->help && *o->help);
		T_ASSERT(o->offset % sizeof(int64_t) == 0 && o->offset < sizeof(w));
		T_ASSERT(lst_opt_find(lst_workload_opts, o->name) == o);
		T_ASSERT(!seen[o->offset / sizeof(int64_t)]);
		seen[o->offset / sizeof(int64_t)] = true;
		n += lst_opt_size(o);
	}
	T_EQ_INT(n, sizeof(w));
	T_ASSERT(lst_opt_find(lst_workload_opts, "nope") == NULL);
	T_ASSERT(lst_opt_find(lst_workload_opts, "") == NULL);
	T_ASSERT(lst_opt_find(lst_workload_opts, "BS") == NULL);
}

/* parse(text) then format must give want, and parsing want must give the same value. */
static void s_trip(const char *name, const char *text, int64_t value, const char *want)
{
	const struct lst_opt *o = s_opt(name);
	struct lst_workload w, w2;
	char buf[128];

	lst_workload_init(&w);
	lst_workload_init(&w2);
	T_EQ_INT(s_set(&w, name, text), value);
	T_EQ_STR(lst_opt_format(o, &w, buf, sizeof(buf)), want);
	T_EQ_INT(s_set(&w2, name, buf), value);
}

static void s_round_trip(void)
{
	s_trip("rw", "read", LST_RW_READ, "read");
	s_trip("rw", "write", LST_RW_WRITE, "write");
	s_trip("rw", "randread", LST_RW_RANDREAD, "randread");
	s_trip("rw", "randwrite", LST_RW_RANDWRITE, "randwrite");
	s_trip("rw", "RandRW", LST_RW_RANDRW, "randrw");
	s_trip("rw", "rw", LST_RW_RW, "rw");
	s_trip("rwmixread", "70", 70, "70");
	s_trip("rwmixread", "0", 0, "0");
	s_trip("rwmixread", "100", 100, "100");
	s_trip("bs", "4k", 4096, "4k");
	s_trip("bs", "512", 512, "512");
	s_trip("bs", "1536", 1536, "1536");
	s_trip("bs", "128KiB", 128 * KiB, "128k");
	s_trip("bs", "1m", MiB, "1m");
	s_trip("bs", "16m", 16 * MiB, "16m");
	s_trip("iodepth", "16", 16, "16");
	s_trip("iodepth", "4096", 4096, "4096");
	s_trip("jobs", "8", 8, "8");
	s_trip("offset", "1g", GiB, "1g");
	s_trip("offset", "1.5g", 1536 * MiB, "1536m");
	s_trip("offset", "64t", 64 * TiB, "64t");
	s_trip("size", "400g", 400 * GiB, "400g");
	s_trip("size", "0", 0, "0");
	s_trip("runtime", "60s", 60 * LST_NS_PER_S, "60s");
	s_trip("runtime", "35", 35 * LST_NS_PER_S, "35s");
	s_trip("runtime", "1.5s", 1500 * LST_NS_PER_MS, "1500ms");
	s_trip("runtime", "6h", 6 * 3600 * LST_NS_PER_S, "21600s");
	s_trip("runtime", "30d", 30 * 86400 * LST_NS_PER_S, "2592000s");
	s_trip("ramp", "5s", 5 * LST_NS_PER_S, "5s");
	s_trip("ramp", "250us", 250 * LST_NS_PER_US, "250us");
	s_trip("ramp", "10ns", 10, "10ns");
	s_trip("bytes", "2t", 2 * TiB, "2t");
	s_trip("bytes", "1024t", 1024 * TiB, "1024t");
	s_trip("rate_iops", "100000", 100000, "100000");
	s_trip("arrivals", "uniform", LST_ARRIVAL_UNIFORM, "uniform");
	s_trip("arrivals", "poisson", LST_ARRIVAL_POISSON, "poisson");
	s_trip("interval", "100ms", 100 * LST_NS_PER_MS, "100ms");
	s_trip("interval", "1h", 3600 * LST_NS_PER_S, "3600s");
	s_trip("direct", "false", 0, "false");
	s_trip("direct", "yes", 1, "true");
	s_trip("direct", "off", 0, "false");
	s_trip("direct", "1", 1, "true");
	s_trip("engine", "psync", LST_ENGINE_PSYNC, "psync");
	s_trip("engine", "null", LST_ENGINE_NULL, "null");
	s_trip("engine", "IO_URING", LST_ENGINE_IO_URING, "io_uring");
	s_trip("pattern", "random", 100, "random");
	s_trip("pattern", "Random", 100, "random");
	s_trip("pattern", "zeros", 0, "zeros");
	s_trip("pattern", "zero", 0, "zeros");
	s_trip("pattern", "compressible=80", 80, "compressible=80");
	s_trip("pattern", "80%", 80, "compressible=80");
	s_trip("pattern", "compressible=80%", 80, "compressible=80");
	s_trip("pattern", "COMPRESSIBLE=20", 20, "compressible=20");
	s_trip("pattern", "1%", 1, "compressible=1");
	s_trip("pattern", "100%", 100, "random");
	s_trip("seed", "42", 42, "42");
	s_trip("seed", "9223372036854775807", INT64_MAX, "9223372036854775807");
	s_trip("seed", "0x10", 16, "16");

	/* every option's default formats to text that parses back to the default */
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		struct lst_workload w, w2;
		char buf[128];

		lst_workload_init(&w);
		memset(&w2, 0, sizeof(w2));
		lst_opt_format(o, &w, buf, sizeof(buf));
		s_set(&w2, o->name, buf);
		T_EQ_INT(lst_opt_get(o, &w2), lst_opt_get(o, &w));
	}
}

/* xorshift64*: deterministic, independent of libc's rand(). */
static uint64_t s_state = 0x9e3779b97f4a7c15ull;

static uint64_t s_rand(void)
{
	s_state ^= s_state >> 12;
	s_state ^= s_state << 25;
	s_state ^= s_state >> 27;
	return s_state * 2685821657736338717ull;
}

/*
 * Random values across each range, through the wire path (set_int) and back through text:
 * set_int(v) -> format -> parse gives v, for every option. Sizes and durations favour round
 * multiples, which exercise the suffixes, and odd values, which exercise the plain form.
 */
static void s_random_round_trip(void)
{
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		if (lst_opt_is_struct(o))
			continue; /* text on the wire: their own tests (test_mix.c) */
		for (int i = 0; i < 2000; i++) {
			struct lst_workload w, w2;
			int64_t lo = o->min, hi = o->max, v;
			char buf[128];
			lst_err err;

			if (o->type == LST_OPT_BOOL) {
				lo = 0;
				hi = 1;
			} else if (o->type == LST_OPT_ENUM) {
				lo = 0;
				hi = 0;
				while (o->choices[hi + 1])
					hi++;
			} else if (o->type == LST_OPT_PATTERN) {
				lo = 0;
				hi = 100;
			}
			v = lo + (int64_t)(s_rand() % ((uint64_t)(hi - lo) + 1));
			if (i % 3 == 0 &&
			    (o->type == LST_OPT_SIZE || o->type == LST_OPT_DURATION)) {
				int64_t unit = o->type == LST_OPT_SIZE ? (1LL << (10 * (i % 4)))
								       : LST_NS_PER_MS;

				v -= v % unit;
				if (v < lo)
					v = lo;
			}
			lst_workload_init(&w);
			lst_workload_init(&w2);
			if (lst_opt_set_int(o, &w, v, &err))
				T_FAIL("%s: set_int(%lld) failed: %s", o->name, (long long)v,
				       err.msg);
			lst_opt_format(o, &w, buf, sizeof(buf));
			if (lst_opt_parse(o, &w2, buf, &err))
				T_FAIL("%s: %lld formats as '%s', which does not parse: %s",
				       o->name, (long long)v, buf, err.msg);
			if (lst_opt_get(o, &w2) != v)
				T_FAIL("%s: %lld -> '%s' -> %lld", o->name, (long long)v, buf,
				       (long long)lst_opt_get(o, &w2));
		}
	}
}

static void s_errors(void)
{
	/* range errors name the option and the range in the option's own units */
	s_bad("iodepth", "0", -ERANGE, "iodepth must be between 1 and 4096");
	s_bad("iodepth", "4097", -ERANGE, "iodepth must be between 1 and 4096");
	s_bad("jobs", "257", -ERANGE, "jobs must be between 1 and 256");
	s_bad("rwmixread", "101", -ERANGE, "rwmixread must be between 0 and 100");
	s_bad("rwmixread", "-1", -ERANGE, "rwmixread must be between 0 and 100");
	s_bad("bs", "256", -ERANGE, "bs must be between 512 B and 16 MiB");
	s_bad("bs", "32m", -ERANGE, "bs must be between 512 B and 16 MiB");
	s_bad("offset", "65t", -ERANGE, "offset must be between 0 B and 64 TiB");
	s_bad("interval", "1ms", -ERANGE, "interval must be between 10 ms and 60 m 00 s");
	s_bad("runtime", "31d", -ERANGE, "runtime must be between 0 us and 720 h 00 m");
	s_bad("seed", "-1", -ERANGE, "seed must be at least 0");
	s_bad("rate_iops", "100000001", -ERANGE, "rate_iops must be between 0 and 100000000");

	/* syntax errors: the option's name, then the parser's message */
	s_bad("iodepth", "many", -EINVAL, "iodepth: 'many' is not a whole number");
	s_bad("iodepth", "", -EINVAL, "iodepth: empty value where a number is expected");
	s_bad("bs", "4x", -EINVAL, "bs: '4x': unknown size suffix 'x' (use k, m, g or t)");
	s_bad("bs", "-4k", -EINVAL, "bs: '-4k' is not a size (examples: 4096, 4k, 1m, 2g)");
	s_bad("size", "9000000t", -ERANGE, "size: '9000000t' is too large");
	s_bad("runtime", "soon", -EINVAL,
	      "runtime: 'soon' is not a duration (examples: 30s, 100ms, 5m, 2h)");
	s_bad("direct", "maybe", -EINVAL, "direct: 'maybe' is not a boolean (use true or false)");
	s_bad("rw", "randomwrite", -EINVAL,
	      "rw: 'randomwrite' is not one of read|write|randread|randwrite|randrw|rw|trim|randtrim");
	s_bad("engine", "libaio", -EINVAL, "engine: 'libaio' is not one of io_uring|psync|null");
	s_bad("arrivals", "", -EINVAL, "arrivals: '' is not one of poisson|uniform");

	/* PATTERN forms that are not patterns */
	{
		static const char *bad[] = { "compressible=0",
					     "compressible=101",
					     "0%",
					     "101%",
					     "%",
					     "compressible=",
					     "compressible=abc",
					     "compressible",
					     "80",
					     "randomly",
					     "",
					     "compressible=-5" };

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char msg[256];

			snprintf(msg, sizeof(msg),
				 "pattern: '%s' is not a data pattern (random, zeros, or "
				 "compressible=N where N%% is the size the data compresses to)",
				 bad[i]);
			s_bad("pattern", bad[i], -EINVAL, msg);
		}
	}

	/* a missing value */
	{
		struct lst_workload w;
		lst_err err;

		lst_workload_init(&w);
		T_EQ_INT(lst_opt_parse(s_opt("bs"), &w, NULL, &err), -EINVAL);
		T_EQ_STR(err.msg, "bs needs a value");
	}

	/* Regression: an over-long value was once cut to fit a buffer and accepted. */
	s_bad("pattern", "compressible=50                             junk", -EINVAL,
	      "pattern: 'compressible=50                             junk' is not a data pattern "
	      "(random, zeros, or compressible=N where N% is the size the data compresses to)");
}

static void s_set_int(void)
{
	struct lst_workload w;
	lst_err err;

	lst_workload_init(&w);
	/* the wire carries numbers: the same checks apply */
	T_EQ_INT(lst_opt_set_int(s_opt("iodepth"), &w, 32, &err), 0);
	T_EQ_INT(w.iodepth, 32);
	T_EQ_INT(lst_opt_set_int(s_opt("iodepth"), &w, 0, &err), -ERANGE);
	T_EQ_STR(err.msg, "iodepth must be between 1 and 4096");
	T_EQ_INT(lst_opt_set_int(s_opt("bs"), &w, 100, &err), -ERANGE);
	T_EQ_INT(lst_opt_set_int(s_opt("direct"), &w, 2, &err), -EINVAL);
	T_EQ_STR(err.msg, "direct must be true or false");
	T_EQ_INT(lst_opt_set_int(s_opt("rw"), &w, 8, &err), -EINVAL);
	T_EQ_STR(err.msg, "rw: choice 8 does not exist");
	T_EQ_INT(lst_opt_set_int(s_opt("rw"), &w, -1, &err), -EINVAL);
	T_EQ_INT(lst_opt_set_int(s_opt("pattern"), &w, 101, &err), -EINVAL);
	T_EQ_STR(err.msg, "pattern: compressibility must be 0..100 percent");
	T_EQ_INT(lst_opt_set_int(s_opt("pattern"), &w, 0, &err), 0);
	T_EQ_INT(w.pattern, 0);
	T_EQ_INT(w.iodepth, 32); /* failed sets left it alone */
	T_EQ_INT(w.rw, LST_RW_RANDREAD);
}

static void s_describe(void)
{
	char buf[256];

	T_EQ_STR(lst_opt_describe_range(s_opt("bs"), buf, sizeof(buf)), "512 B .. 16 MiB");
	T_EQ_STR(lst_opt_describe_range(s_opt("iodepth"), buf, sizeof(buf)), "1 .. 4096");
	T_EQ_STR(lst_opt_describe_range(s_opt("interval"), buf, sizeof(buf)), "10 ms .. 60 m 00 s");
	T_EQ_STR(lst_opt_describe_range(s_opt("rw"), buf, sizeof(buf)),
		 "read|write|randread|randwrite|randrw|rw|trim|randtrim");
	T_EQ_STR(lst_opt_describe_range(s_opt("direct"), buf, sizeof(buf)), "true|false");
	T_EQ_STR(lst_opt_describe_range(s_opt("pattern"), buf, sizeof(buf)),
		 "random|zeros|compressible=N");
	/* a short buffer is cut, not overrun */
	memset(buf, '#', sizeof(buf));
	lst_opt_describe_range(s_opt("rw"), buf, 10);
	T_ASSERT(strlen(buf) < 10);
	T_EQ_INT(buf[10], '#');
}

/* A table of one's own: the machinery is not tied to the workload. */
struct s_conf {
	int64_t port, mem, timeout, verbose, mode, fill;
};

static const char *const s_modes[] = { "fast", "safe", NULL };

static const struct lst_opt s_conf_opts[] = {
	{ "port", LST_OPT_INT, offsetof(struct s_conf, port), "5555", 1, 65535, NULL, "port", NULL,
	  NULL },
	{ "mem", LST_OPT_SIZE, offsetof(struct s_conf, mem), "64m", 0, 1LL << 40, NULL, "mem", NULL,
	  NULL },
	{ "timeout", LST_OPT_DURATION, offsetof(struct s_conf, timeout), "2.5s", 0,
	  3600 * LST_NS_PER_S, NULL, "timeout", NULL, NULL },
	{ "verbose", LST_OPT_BOOL, offsetof(struct s_conf, verbose), "off", 0, 1, NULL, "verbose",
	  NULL, NULL },
	{ "mode", LST_OPT_ENUM, offsetof(struct s_conf, mode), "safe", 0, 0, s_modes, "mode", NULL,
	  NULL },
	{ "fill", LST_OPT_PATTERN, offsetof(struct s_conf, fill), "compressible=20", 0, 100, NULL,
	  "fill", NULL, NULL },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

static void s_own_table(void)
{
	struct s_conf c;

	memset(&c, 0xff, sizeof(c));
	lst_opt_defaults(s_conf_opts, &c);
	T_EQ_INT(c.port, 5555);
	T_EQ_INT(c.mem, 64 * MiB);
	T_EQ_INT(c.timeout, 2500 * LST_NS_PER_MS);
	T_EQ_INT(c.verbose, 0);
	T_EQ_INT(c.mode, 1);
	T_EQ_INT(c.fill, 20);
}

static struct lst_workload s_wl(const char *const *kv)
{
	struct lst_workload w;

	lst_workload_init(&w);
	for (; kv && kv[0]; kv += 2)
		s_set(&w, kv[0], kv[1]);
	return w;
}

/* lst_workload_check must fail with a message containing msg. */
static void s_check_bad(const char *const *kv, uint64_t path_size, const char *msg)
{
	struct lst_workload w = s_wl(kv);
	lst_err err;

	lst_err_clear(&err);
	T_EQ_INT(lst_workload_check(&w, path_size, &err), -EINVAL);
	T_EQ_STR(err.msg, msg);
}

static void s_check_ok(const char *const *kv, uint64_t path_size)
{
	struct lst_workload w = s_wl(kv);
	lst_err err;

	if (lst_workload_check(&w, path_size, &err))
		T_FAIL("lst_workload_check: %s", err.msg);
}

static void s_check(void)
{
	const uint64_t disk = 400ull * GiB;

	s_check_ok(NULL, 0);
	s_check_ok(NULL, disk);
	s_check_ok((const char *const[]){ "rw", "randwrite", "bs", "4k", "iodepth", "16", "jobs",
					  "16", "runtime", "60s", "ramp", "5s", NULL },
		   disk);
	s_check_ok((const char *const[]){ "direct", "false", "offset", "100", NULL }, disk);

	s_check_bad((const char *const[]){ "bs", "1000", NULL }, 0,
		    "bs 1000 is not a multiple of 512 bytes");
	s_check_bad((const char *const[]){ "offset", "100", NULL }, 0,
		    "offset 100 is not a multiple of 512 bytes (direct I/O)");
	s_check_bad((const char *const[]){ "size", "1k", "bs", "4k", NULL }, 0,
		    "size 1024 is smaller than one block (bs 4096)");
	s_check_bad((const char *const[]){ "ramp", "500ms", NULL }, 0,
		    "ramp must be 0 or at least one interval");
	s_check_ok((const char *const[]){ "ramp", "500ms", "interval", "100ms", NULL }, 0);
	s_check_bad((const char *const[]){ "rate_iops", "3", "jobs", "4", NULL }, 0,
		    "rate_iops 3 is below one I/O per second per job (4 jobs)");
	s_check_ok((const char *const[]){ "rate_iops", "4", "jobs", "4", NULL }, 0);

	/* against the path's size */
	s_check_bad((const char *const[]){ "offset", "400g", NULL }, disk,
		    "offset 429496729600 is beyond the end of the path (429496729600 bytes)");
	s_check_bad((const char *const[]){ "offset", "300g", "size", "101g", NULL }, disk,
		    "region offset 322122547200 + size 108447924224 ends beyond the path "
		    "(429496729600 bytes)");
	s_check_ok((const char *const[]){ "offset", "300g", "size", "100g", NULL }, disk);
	s_check_bad((const char *const[]){ "rw", "write", "jobs", "4", NULL }, 8192,
		    "region of 8192 bytes is too small for bs 4096 x 4 jobs");
	/* random jobs share the region, so one block is enough */
	s_check_ok((const char *const[]){ "rw", "randwrite", "jobs", "4", NULL }, 8192);
	s_check_bad((const char *const[]){ "rw", "randwrite", NULL }, 2048,
		    "region of 2048 bytes is too small for bs 4096 x 1 jobs");
	/* the null engine does no I/O: the path's size does not matter */
	s_check_ok((const char *const[]){ "engine", "null", "offset", "400g", NULL }, disk);
}

static void s_helpers(void)
{
	struct lst_workload w;

	lst_workload_init(&w);
	T_EQ_INT(lst_workload_read_pct(&w), 100);
	w.rw = LST_RW_RANDWRITE;
	T_EQ_INT(lst_workload_read_pct(&w), 0);
	w.rw = LST_RW_RANDRW;
	w.rwmixread = 65;
	T_EQ_INT(lst_workload_read_pct(&w), 65);
	T_ASSERT(lst_rw_is_random(LST_RW_RANDRW) && !lst_rw_is_random(LST_RW_RW));
	T_ASSERT(lst_rw_writes(LST_RW_RANDRW, 65) && !lst_rw_writes(LST_RW_RANDRW, 100));
	T_ASSERT(lst_rw_writes(LST_RW_WRITE, 100) && !lst_rw_writes(LST_RW_READ, 0));
	T_EQ_STR(lst_dir_names[LST_DIR_WRITE], "write");
	T_ASSERT(lst_dir_names[LST_DIR_N] == NULL);
}

int main(void)
{
	s_defaults();
	s_round_trip();
	s_random_round_trip();
	s_errors();
	s_set_int();
	s_describe();
	s_own_table();
	s_check();
	s_helpers();
	return 0;
}
