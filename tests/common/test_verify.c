/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity core (common/lst_verify.c) against independent truth: crc32c against published
 * vectors and a bit-at-a-time reference, on both the hardware and the table path; the stamp's
 * byte layout and every kind lst_stamp_get tells; the I/O sequence's shape; the verify map
 * against a brute-force model that replays every stream over a plain array of the whole drive;
 * every row of lst_verify_check's rules, table-driven.
 *
 * `test_verify --bench` prints throughputs per second of CPU (crc MB/s per path, stamps/s,
 * replayed I/Os/s) instead of testing: bench/verify_core.sh runs it. Figures are printed, never
 * asserted.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "lst_test.h"
#include "lst_verify.h"

/* Internal to lst_verify.c: the table path whatever the CPU. */
uint32_t lst_crc32c_sw(uint32_t crc, const void *buf, size_t len);

static uint64_t s_state = 0x9e3779b97f4a7c15ull;

static uint64_t s_rand(void)
{
	return lst_rand64(&s_state);
}

/* The bench's clock: this thread's CPU time, so that figures are the CPU cost, even on a busy
 * machine. */
static double s_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- crc32c */

/* Bit at a time, straight from the definition. */
static uint32_t s_crc_ref(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
	}
	return ~crc;
}

static void test_crc_vectors(void)
{
	static const uint8_t zeros[32], ones[32] = { [0 ... 31] = 0xff };
	uint8_t inc[32];

	for (int i = 0; i < 32; i++)
		inc[i] = (uint8_t)i;
	T_EQ_U64(lst_crc32c(0, "123456789", 9), 0xE3069283u);
	T_EQ_U64(lst_crc32c_sw(0, "123456789", 9), 0xE3069283u);
	/* RFC 3720 B.4 */
	T_EQ_U64(lst_crc32c(0, zeros, 32), 0x8A9136AAu);
	T_EQ_U64(lst_crc32c_sw(0, zeros, 32), 0x8A9136AAu);
	T_EQ_U64(lst_crc32c(0, ones, 32), 0x62A8AB43u);
	T_EQ_U64(lst_crc32c_sw(0, ones, 32), 0x62A8AB43u);
	T_EQ_U64(lst_crc32c(0, inc, 32), 0x46DD794Eu);
	T_EQ_U64(lst_crc32c_sw(0, inc, 32), 0x46DD794Eu);
	T_EQ_U64(lst_crc32c(0, "", 0), 0);
	T_EQ_U64(lst_crc32c(0x12345678, "", 0), 0x12345678);
}

static void *s_crc_thread(void *arg)
{
	uint32_t *out = arg;

	*out = lst_crc32c(0, "123456789", 9);
	return NULL;
}

/* The first use may come from several job threads at once: the choice of path and the tables
 * are made once, before any of them computes (run first, under a sanitizer or helgrind). */
static void test_crc_first_use(void)
{
	pthread_t th[4];
	uint32_t out[4];

	for (int i = 0; i < 4; i++)
		T_EQ_INT(pthread_create(&th[i], NULL, s_crc_thread, &out[i]), 0);
	for (int i = 0; i < 4; i++) {
		T_EQ_INT(pthread_join(th[i], NULL), 0);
		T_EQ_U64(out[i], 0xE3069283u);
	}
}

/* Both paths equal the reference at every length and alignment, and continue across calls. */
static void test_crc_paths(void)
{
	/* the hardware path's block edges: 3 x 256 and 3 x 1024 bytes */
	static const size_t edges[] = { 767,  768,  769,  775,	776,  1535, 1536, 3071, 3072,
					3073, 3840, 3848, 4072, 4096, 6144, 6912, 8192 };
	static uint8_t buf[9000];

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)s_rand();

	for (int t = 0; t < 3000; t++) {
		size_t off = s_rand() % 16,
		       len = t < 600 ? (size_t)t : s_rand() % (sizeof(buf) - 16);
		uint32_t seed, ref;
		size_t cut;

		if (t >= 600 && t < 600 + 16 * (int)(sizeof(edges) / sizeof(edges[0]))) {
			len = edges[(t - 600) / 16];
			off = (size_t)(t - 600) % 16;
		}
		seed = t % 3 ? (uint32_t)s_rand() : 0;
		ref = s_crc_ref(seed, buf + off, len);
		cut = len ? s_rand() % (len + 1) : 0;

		if (lst_crc32c(seed, buf + off, len) != ref ||
		    lst_crc32c_sw(seed, buf + off, len) != ref)
			T_FAIL("crc of %zu bytes at +%zu (seed %08x): hw %08x sw %08x ref %08x",
			       len, off, seed, lst_crc32c(seed, buf + off, len),
			       lst_crc32c_sw(seed, buf + off, len), ref);
		T_EQ_U64(lst_crc32c(lst_crc32c(seed, buf + off, cut), buf + off + cut, len - cut),
			 ref);
		T_EQ_U64(
			lst_crc32c_sw(lst_crc32c(seed, buf + off, cut), buf + off + cut, len - cut),
			ref);
	}
#if defined(__x86_64__)
	__builtin_cpu_init();
	printf("crc32c: %s path checked against the table path\n",
	       __builtin_cpu_supports("sse4.2") ? "sse4.2" : "table (no sse4.2)");
#endif
}

/* ---- the stamp */

static void test_target_id(void)
{
	/* FNV-1a 32 published vectors */
	T_EQ_U64(lst_verify_target_id(""), 0x811c9dc5u);
	T_EQ_U64(lst_verify_target_id("a"), 0xe40c292cu);
	T_EQ_U64(lst_verify_target_id("foobar"), 0xbf9cf968u);
	T_ASSERT(lst_verify_target_id("ssd0") != lst_verify_target_id("ssd1"));
}

static struct lst_stamp s_stamp(uint32_t target, uint32_t gen, uint64_t lba)
{
	struct lst_stamp s = {
		.magic = 0, /* set by lst_stamp_put */
		.target = target,
		.agent = 0xA1B2,
		.path = 0xC3D4,
		.gen = gen,
		.crc = 0xdeadbeef, /* ignored */
		.lba = lba,
		.t_ns = -123456789012345ll,
		.seq = 0x0102030405060708ull,
	};
	return s;
}

static void s_fill(uint8_t *u)
{
	for (unsigned i = 0; i < LST_VERIFY_UNIT; i++)
		u[i] = (uint8_t)s_rand();
}

static uint64_t s_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void test_stamp_layout(void)
{
	static uint8_t raw[LST_VERIFY_UNIT + 8], copy[LST_VERIFY_UNIT + 8];
	uint8_t *u = raw + 3; /* unaligned on purpose */
	struct lst_stamp s = s_stamp(0x11223344, 7, 0x99887766554433ull), got;

	s_fill(u);
	memcpy(copy, raw, sizeof(raw));
	lst_stamp_put(u, &s);
	T_ASSERT(!memcmp(u, "TSTVRFY1", 8));
	T_EQ_U64(s_le(u + 8, 4), 0x11223344);
	T_EQ_U64(s_le(u + 12, 2), 0xA1B2);
	T_EQ_U64(s_le(u + 14, 2), 0xC3D4);
	T_EQ_U64(s_le(u + 16, 4), 7);
	T_EQ_U64(s_le(u + 24, 8), 0x99887766554433ull);
	T_EQ_U64(s_le(u + 32, 8), (uint64_t)-123456789012345ll);
	T_EQ_U64(s_le(u + 40, 8), 0x0102030405060708ull);
	/* the crc: over the unit with its field zero */
	{
		uint8_t z[LST_VERIFY_UNIT];

		memcpy(z, u, sizeof(z));
		memset(z + 20, 0, 4);
		T_EQ_U64(s_le(u + 20, 4), s_crc_ref(0, z, sizeof(z)));
	}
	/* nothing outside the stamp changed, and the data past it is the caller's */
	T_ASSERT(!memcmp(raw, copy, 3));
	T_ASSERT(!memcmp(u + LST_STAMP_BYTES, copy + 3 + LST_STAMP_BYTES,
			 sizeof(raw) - 3 - LST_STAMP_BYTES));
	memcpy(copy, raw, sizeof(raw));
	T_EQ_INT(lst_stamp_get(u, 0x99887766554433ull, 0x11223344, &got), LST_STAMP_OK);
	T_ASSERT(!memcmp(raw, copy, sizeof(raw))); /* get is pure */
	T_EQ_U64(got.magic, LST_STAMP_MAGIC);
	T_EQ_U64(got.target, 0x11223344);
	T_EQ_U64(got.agent, 0xA1B2);
	T_EQ_U64(got.path, 0xC3D4);
	T_EQ_U64(got.gen, 7);
	T_EQ_U64(got.crc, s_le(u + 20, 4));
	T_EQ_U64(got.lba, 0x99887766554433ull);
	T_EQ_INT(got.t_ns, -123456789012345ll);
	T_EQ_U64(got.seq, 0x0102030405060708ull);
}

static void test_stamp_kinds(void)
{
	static uint8_t u[LST_VERIFY_UNIT];
	struct lst_stamp s = s_stamp(42, 3, 1000), got;

	for (int t = 0; t < 200; t++) {
		unsigned at = LST_STAMP_BYTES +
			      (unsigned)(s_rand() % (LST_VERIFY_UNIT - LST_STAMP_BYTES));

		s_fill(u);
		lst_stamp_put(u, &s);
		T_EQ_INT(lst_stamp_get(u, 1000, 42, &got), LST_STAMP_OK);
		T_EQ_INT(lst_stamp_get(u, 1001, 42, &got), LST_STAMP_LBA);
		T_EQ_U64(got.lba, 1000);
		T_EQ_INT(lst_stamp_get(u, 1000, 43, &got), LST_STAMP_TARGET);
		T_EQ_U64(got.target, 42);
		T_EQ_INT(lst_stamp_get(u, 1001, 43, &got), LST_STAMP_TARGET);
		/* one flipped bit in the data, then in a stamp field past the magic */
		u[at] ^= (uint8_t)(1u << (s_rand() % 8));
		T_EQ_INT(lst_stamp_get(u, 1000, 42, &got), LST_STAMP_CRC);
		T_EQ_U64(got.gen, 3);
		u[at] = (uint8_t)~u[at];
		lst_stamp_put(u, &s);
		at = 8 + (unsigned)(s_rand() % (LST_STAMP_BYTES - 8));
		u[at] ^= 0x10;
		T_EQ_INT(lst_stamp_get(u, 1000, 42, &got), LST_STAMP_CRC);
	}
	memset(u, 0, sizeof(u));
	got.gen = 9;
	T_EQ_INT(lst_stamp_get(u, 1000, 42, &got), LST_STAMP_NONE);
	T_EQ_U64(got.gen, 0);
	T_EQ_U64(got.magic, 0);
	s_fill(u);
	lst_stamp_put(u, &s);
	u[7] ^= 1; /* the magic itself */
	T_EQ_INT(lst_stamp_get(u, 1000, 42, &got), LST_STAMP_NONE);
}

/* ---- the I/O sequence */

static void test_ioseq(void)
{
	struct lst_stream seq = { .seed = 1, .lo = 8192, .hi = 8192 + 5 * 16384, .bs = 16384 };
	struct lst_stream rnd = {
		.seed = 77, .lo = 4096 * 10, .hi = 4096 * 1010, .bs = 8192, .random = 1
	};
	struct lst_ioseq q;
	uint64_t off, reads;
	uint8_t dir;

	lst_ioseq_init(&q, &seq);
	T_EQ_U64(q.nblocks, 5);
	T_EQ_U64(q.rng, 1);
	for (uint64_t i = 0; i < 23; i++) {
		lst_ioseq_next(&q, &off, &dir);
		T_EQ_U64(off, 8192 + (i % 5) * 16384);
		T_EQ_INT(dir, 1);
		T_EQ_U64(q.index, i + 1);
	}
	/* a region that is not a whole number of I/Os wraps before its tail */
	seq.hi += 4096;
	lst_ioseq_init(&q, &seq);
	for (uint64_t i = 0; i < 12; i++) {
		lst_ioseq_next(&q, &off, &dir);
		T_EQ_U64(off, 8192 + (i % 5) * 16384);
	}
	lst_ioseq_init(&q, &rnd);
	T_EQ_U64(q.rng, 77);
	T_EQ_U64(q.nblocks, 500);
	{
		static uint8_t seen[500];
		unsigned distinct = 0;

		for (int i = 0; i < 20000; i++) {
			lst_ioseq_next(&q, &off, &dir);
			T_ASSERT(off >= rnd.lo && off + rnd.bs <= rnd.hi);
			T_EQ_U64((off - rnd.lo) % rnd.bs, 0);
			T_EQ_INT(dir, 1);
			distinct += !seen[(off - rnd.lo) / rnd.bs]++;
		}
		T_EQ_INT(distinct, 500);
	}
	/* directions: 0 and 100 do not draw, 30 draws ~30% reads; the same seed, the same run */
	rnd.read_pct = 100;
	lst_ioseq_init(&q, &rnd);
	T_ASSERT(q.all_reads && !q.mixed);
	for (int i = 0; i < 100; i++) {
		lst_ioseq_next(&q, &off, &dir);
		T_EQ_INT(dir, 0);
	}
	rnd.read_pct = 30;
	lst_ioseq_init(&q, &rnd);
	T_ASSERT(q.mixed && !q.all_reads);
	T_EQ_U64(q.read_below, 1288490188u);
	reads = 0;
	for (int i = 0; i < 100000; i++) {
		lst_ioseq_next(&q, &off, &dir);
		reads += dir == 0;
	}
	T_NEAR((double)reads / 100000, 0.30, 0.01);
	{
		struct lst_ioseq a, b;
		uint64_t oa, ob;
		uint8_t da, db;

		lst_ioseq_init(&a, &rnd);
		lst_ioseq_init(&b, &rnd);
		for (int i = 0; i < 1000; i++) {
			lst_ioseq_next(&a, &oa, &da);
			lst_ioseq_next(&b, &ob, &db);
			T_EQ_U64(oa, ob);
			T_EQ_INT(da, db);
		}
	}
	seq.read_pct = 50;
	seq.seed = 4; /* even: seed | 1 */
	lst_ioseq_init(&q, &seq);
	T_EQ_U64(q.rng, 5);
	reads = 0;
	for (uint64_t i = 0; i < 10000; i++) {
		lst_ioseq_next(&q, &off, &dir);
		T_EQ_U64(off, 8192 + (i % 5) * 16384);
		reads += dir == 0;
	}
	T_NEAR((double)reads / 10000, 0.50, 0.03);
}

/* ---- the map against a brute-force model */

#define S_DEV_UNITS 2048u

/* Replay every stream over the whole drive, I/O by I/O. */
static void s_model(const struct lst_journal_stream *st, size_t n, uint16_t *exp, uint16_t *pend)
{
	memset(exp, 0, S_DEV_UNITS * sizeof(*exp));
	memset(pend, 0, S_DEV_UNITS * sizeof(*pend));
	for (size_t i = 0; i < n; i++) {
		struct lst_ioseq q;

		lst_ioseq_init(&q, &st[i].s);
		for (uint64_t k = 0; k < st[i].issued; k++) {
			uint64_t off;
			uint8_t dir;
			uint16_t *a = k < st[i].low ? exp : pend;

			lst_ioseq_next(&q, &off, &dir);
			if (!dir)
				continue;
			for (uint64_t u = off / LST_VERIFY_UNIT;
			     u < (off + st[i].s.bs) / LST_VERIFY_UNIT; u++) {
				T_ASSERT(u < S_DEV_UNITS);
				if (a[u] < st[i].gen)
					a[u] = (uint16_t)st[i].gen;
			}
		}
	}
}

static struct lst_journal_stream s_random_stream(int kind, uint32_t gen)
{
	struct lst_journal_stream js = { .gen = gen,
					 .agent = (uint16_t)(s_rand() % 4),
					 .complete = 1 };
	uint64_t lo, span;

	js.s.bs = LST_VERIFY_UNIT * (uint32_t)(1 + s_rand() % 8);
	lo = s_rand() % (S_DEV_UNITS / 2);
	span = js.s.bs / LST_VERIFY_UNIT * (1 + s_rand() % 60);
	if (lo + span > S_DEV_UNITS)
		span = S_DEV_UNITS - lo;
	if (span < js.s.bs / LST_VERIFY_UNIT)
		lo = S_DEV_UNITS - js.s.bs / LST_VERIFY_UNIT, span = js.s.bs / LST_VERIFY_UNIT;
	js.s.lo = lo * LST_VERIFY_UNIT;
	js.s.hi = (lo + span) * LST_VERIFY_UNIT;
	js.s.seed = s_rand();
	js.s.random = kind == 0 || (kind == 2 && s_rand() % 2);
	js.s.read_pct = kind == 2 ? (uint32_t)(s_rand() % 101) : 0;
	js.s.job = (uint32_t)(s_rand() % 8);
	js.issued = s_rand() % 300;
	js.low = js.issued ? s_rand() % (js.issued + 1) : 0;
	if (s_rand() % 3 == 0)
		js.low = js.issued;
	if (s_rand() % 5 == 0)
		js.werr = 1 + s_rand() % 3;
	if (s_rand() % 4 == 0)
		js.complete = 0;
	return js;
}

static void s_compare(const struct lst_journal_stream *st, size_t n, const char *what)
{
	static uint16_t exp[S_DEV_UNITS], pend[S_DEV_UNITS];
	uint8_t flags[65536] = { 0 };
	uint32_t maxgen = 0;

	s_model(st, n, exp, pend);
	for (size_t i = 0; i < n; i++) {
		flags[st[i].gen] |= (st[i].werr ? LST_VERIFY_GEN_WERR : 0) |
				    (st[i].complete ? 0 : LST_VERIFY_GEN_INCOMPLETE);
		if (st[i].gen > maxgen)
			maxgen = st[i].gen;
	}
	for (int w = 0; w < 6; w++) {
		uint64_t first = w == 0 ? 0 : s_rand() % S_DEV_UNITS;
		uint64_t nunits = w == 0 ? S_DEV_UNITS : 1 + s_rand() % (S_DEV_UNITS - first);
		struct lst_verify_map m;
		lst_err err;

		lst_err_clear(&err);
		T_EQ_INT(lst_verify_map_build(&m, first, nunits, st, n, NULL, &err), 0);
		T_EQ_U64(m.first_lba, first);
		T_EQ_U64(m.nunits, nunits);
		T_EQ_U64(m.maxgen, maxgen);
		for (uint32_t g = 0; g <= maxgen; g++)
			if (m.gen_flags[g] != flags[g])
				T_FAIL("%s: gen %u flags %u, model %u", what, g, m.gen_flags[g],
				       flags[g]);
		for (uint64_t u = 0; u < nunits; u++)
			if (m.exp[u] != exp[first + u] || m.pend[u] != pend[first + u])
				T_FAIL("%s: window [%llu,+%llu) unit %llu: exp %u pend %u, model %u %u",
				       what, (unsigned long long)first, (unsigned long long)nunits,
				       (unsigned long long)(first + u), m.exp[u], m.pend[u],
				       exp[first + u], pend[first + u]);
		lst_verify_map_free(&m);
		T_ASSERT(!m.exp && !m.pend && !m.gen_flags);
		lst_verify_map_free(&m); /* safe twice */
	}
}

static void test_map_model(void)
{
	static const char *const kinds[] = { "random", "sequential", "mixed" };
	struct lst_journal_stream st[12];

	for (int kind = 0; kind < 3; kind++)
		for (int t = 0; t < 150; t++) {
			size_t n = 1 + s_rand() % 12;

			for (size_t i = 0; i < n; i++)
				st[i] = s_random_stream(kind, 1 + (uint32_t)(s_rand() % 5));
			s_compare(st, n, kinds[kind]);
		}
	/* sequential streams that wrap many times, with the pending window wrapping too */
	for (int t = 0; t < 200; t++) {
		st[0] = s_random_stream(1, 1);
		st[0].issued = s_rand() % 5000;
		st[0].low = st[0].issued - s_rand() % (st[0].issued + 1) % 40;
		st[1] = s_random_stream(1, 2);
		st[1].issued = s_rand() % 5000;
		st[1].low = st[1].issued ? s_rand() % st[1].issued : 0;
		s_compare(st, 2, "sequential wrapping");
	}
}

/* Hand-made cases: two generations overlapping, a pending window, flags, skipped streams. */
static void test_map_cases(void)
{
	struct lst_journal_stream st[3] = {
		{ .s = { .seed = 1, .lo = 0, .hi = 64 * 4096, .bs = 4096 },
		  .gen = 1,
		  .low = 64,
		  .issued = 64,
		  .complete = 1 },
		{ .s = { .seed = 2, .lo = 16 * 4096, .hi = 48 * 4096, .bs = 8192 },
		  .gen = 2,
		  .low = 4,
		  .issued = 7,
		  .werr = 1,
		  .complete = 0 },
		{ .s = { .seed = 3, .lo = 1000 * 4096, .hi = 2000 * 4096, .bs = 4096, .random = 1 },
		  .gen = 3,
		  .low = 1ull << 40, /* would take hours: must be skipped, its region misses */
		  .issued = 1ull << 40,
		  .complete = 1 },
	};
	struct lst_verify_map m;
	lst_err err;

	T_EQ_INT(lst_verify_map_build(&m, 0, 64, st, 3, NULL, &err), 0);
	T_EQ_U64(lst_verify_map_bytes(64), 256);
	T_EQ_U64(m.maxgen, 3);
	T_EQ_INT(m.gen_flags[1], 0);
	T_EQ_INT(m.gen_flags[2], LST_VERIFY_GEN_WERR | LST_VERIFY_GEN_INCOMPLETE);
	T_EQ_INT(m.gen_flags[3], 0);
	for (unsigned u = 0; u < 64; u++) {
		unsigned e = u >= 16 && u < 24 ? 2 : 1, p = u >= 24 && u < 30 ? 2 : 0;

		T_EQ_INT(m.exp[u], e);
		T_EQ_INT(m.pend[u], p);
	}
	lst_verify_map_free(&m);
	/* an empty map, an empty journal */
	T_EQ_INT(lst_verify_map_build(&m, 5, 0, st, 3, NULL, &err), 0);
	lst_verify_map_free(&m);
	T_EQ_INT(lst_verify_map_build(&m, 0, 10, NULL, 0, NULL, &err), 0);
	T_EQ_U64(m.maxgen, 0);
	for (unsigned u = 0; u < 10; u++)
		T_ASSERT(!m.exp[u] && !m.pend[u]);
	lst_verify_map_free(&m);
}

/* Bad journal streams: -EINVAL naming the stream and saying why, nothing left allocated. */
static void test_map_errors(void)
{
	static const char *const whys[] = {
		"generation not in 1..65535",
		"generation not in 1..65535",
		"bs is not a multiple of 4096",
		"bs is not a multiple of 4096",
		"region not 4096-aligned",
		"region not 4096-aligned",
		"region smaller than one I/O",
		"region smaller than one I/O",
		"read share over 100%",
		"more I/Os completed than issued",
		"more I/Os issued than any run issues",
	};
	struct lst_journal_stream good = {
		.s = { .seed = 1, .lo = 0, .hi = 64 * 4096, .bs = 8192, .job = 5 },
		.gen = 1,
		.agent = 2,
		.low = 3,
		.issued = 5,
		.complete = 1
	};
	struct lst_verify_map m;
	lst_err err;

	for (unsigned r = 0; r < sizeof(whys) / sizeof(whys[0]); r++) {
		struct lst_journal_stream st[2] = { good, good };
		struct lst_journal_stream *j = &st[1];

		switch (r) {
		case 0:
			j->gen = 0;
			break;
		case 1:
			j->gen = 65536;
			break;
		case 2:
			j->s.bs = 512;
			break;
		case 3:
			j->s.bs = 0;
			break;
		case 4:
			j->s.lo = 512;
			break;
		case 5:
			j->s.hi = 64 * 4096 + 512;
			break;
		case 6:
			j->s.hi = j->s.lo;
			break;
		case 7:
			j->s.hi = 4096;
			break;
		case 8:
			j->s.read_pct = 101;
			break;
		case 9:
			j->low = 6;
			break;
		case 10: /* a damaged journal: replaying it would never end */
			j->issued = 1ull << 62;
			break;
		}
		lst_err_clear(&err);
		T_EQ_INT(lst_verify_map_build(&m, 0, 64, st, 2, NULL, &err), -EINVAL);
		T_EQ_INT(err.code, -EINVAL);
		T_CONTAINS(err.msg, "journal stream 1 (agent 2 path 0 job 5");
		T_CONTAINS(err.msg, whys[r]);
		T_ASSERT(!m.exp && !m.pend && !m.gen_flags);
	}
	/* a window past 2^64 bytes */
	T_EQ_INT(lst_verify_map_build(&m, UINT64_MAX / 4096, 2, &good, 1, NULL, &err), -EINVAL);
	T_CONTAINS(err.msg, "past 2^64");
	T_EQ_INT(lst_verify_map_build(&m, UINT64_MAX - 1, 1, &good, 1, NULL, &err), -EINVAL);
	T_EQ_INT(lst_verify_map_build(&m, 1ull << 63, 1, &good, 1, NULL, &err), -EINVAL);
	T_ASSERT(!m.exp && !m.pend && !m.gen_flags);
#if !LST_TEST_ASAN && !defined(__SANITIZE_THREAD__)
	/* more than memory can hold: -ENOMEM, not an abort (sanitizers abort on the size) */
	T_EQ_INT(lst_verify_map_build(&m, 0, (1ull << 52) - 1, &good, 1, NULL, &err), -ENOMEM);
	T_CONTAINS(err.msg, "verify map of");
	T_ASSERT(!m.exp && !m.pend && !m.gen_flags);
#endif
	T_EQ_U64(lst_verify_map_bytes(1000), 4000);
	T_EQ_U64(lst_verify_map_bytes(UINT64_MAX), UINT64_MAX);
}

/* A long replay stops when its worker is cancelled, and leaves nothing allocated. */
static void test_map_cancel(void)
{
	struct lst_journal_stream js = {
		.s = { .seed = 1, .lo = 0, .hi = 1024 * 4096, .bs = 4096, .random = 1 },
		.gen = 1,
		.low = LST_VERIFY_MAX_ISSUED,
		.issued = LST_VERIFY_MAX_ISSUED,
		.complete = 1,
	};
	_Atomic int cancel = 1;
	struct lst_verify_map m;
	lst_err err;

	T_EQ_INT(lst_verify_map_build(&m, 0, 1024, &js, 1, &cancel, &err), -ECANCELED);
	T_CONTAINS(err.msg, "cancelled while replaying journal stream 0");
	T_ASSERT(!m.exp && !m.pend && !m.gen_flags);
}

/* ---- the check, row by row */

enum s_content { C_NONE, C_GOOD, C_CRC, C_LBA, C_TARGET };

struct s_row {
	uint16_t exp, pend;
	uint8_t flags[4]; /* gen_flags of generations 0..3 (maxgen 3) */
	enum s_content c;
	uint32_t gen; /* of the stamp found */
	enum lst_verify_result want;
	enum lst_verify_kind kind;
};

#define W LST_VERIFY_GEN_WERR
#define I LST_VERIFY_GEN_INCOMPLETE
#define R_OK LST_VERIFY_OK, LST_VK_NONE
#define R_PEND LST_VERIFY_PENDING, LST_VK_NONE
#define R_UNW LST_VERIFY_UNWRITTEN, LST_VK_NONE
#define R_BAD(k) LST_VERIFY_BAD, LST_VK_##k

static const struct s_row s_rows[] = {
	/* exp == 0: unwritten, unless a stamp (good or torn) of a generation that may have landed */
	{ 0, 0, { 0 }, C_NONE, 0, R_UNW },
	{ 0, 0, { 0 }, C_GOOD, 1, R_UNW }, /* an earlier run's stamp */
	{ 0, 0, { 0 }, C_LBA, 1, R_UNW },
	{ 0, 0, { 0 }, C_TARGET, 1, R_UNW },
	{ 0, 0, { 0 }, C_CRC, 1, R_UNW },
	{ 0, 2, { 0 }, C_NONE, 0, R_UNW }, /* the pending write did not land */
	{ 0, 2, { 0 }, C_GOOD, 2, R_PEND },
	{ 0, 2, { 0 }, C_GOOD, 1, R_PEND },
	{ 0, 2, { 0 }, C_GOOD, 3, R_UNW },
	{ 0, 2, { 0 }, C_CRC, 2, R_PEND }, /* torn */
	{ 0, 2, { 0 }, C_LBA, 2, R_UNW },
	{ 0, 0, { 0, 0, 0, I }, C_GOOD, 3, R_PEND },
	{ 0, 0, { 0, 0, 0, I }, C_CRC, 3, R_PEND },
	{ 0, 0, { 0, 0, 0, W }, C_GOOD, 3, R_UNW },
	/* a good stamp of gen == exp */
	{ 1, 0, { 0 }, C_GOOD, 1, R_OK },
	{ 2, 3, { 0 }, C_GOOD, 2, R_OK }, /* the pending gen 3 did not land */
	{ 2, 2, { 0, 0, W | I, 0 }, C_GOOD, 2, R_OK },
	/* gen > exp */
	{ 1, 2, { 0 }, C_GOOD, 2, R_PEND },
	{ 1, 3, { 0 }, C_GOOD, 2, R_PEND },
	{ 1, 2, { 0 }, C_GOOD, 3, R_BAD(FUTURE) },
	{ 1, 0, { 0 }, C_GOOD, 2, R_BAD(FUTURE) },
	{ 1, 0, { 0, 0, I, 0 }, C_GOOD, 2, R_PEND },
	{ 1, 0, { 0, 0, W, 0 }, C_GOOD, 2, R_BAD(FUTURE) }, /* the found gen's errors */
	{ 1, 0, { 0, W, 0, 0 }, C_GOOD, 2, R_PEND }, /* gen 1's failed write left a later stamp */
	{ 1, 0, { 0, W, 0, 0 }, C_GOOD, 9, R_PEND },
	{ 1, 0, { 0 }, C_GOOD, 9, R_BAD(FUTURE) }, /* past maxgen: no flags */
	{ 1, 0, { 0 }, C_GOOD, 70000, R_BAD(FUTURE) },
	/* gen < exp */
	{ 2, 0, { 0 }, C_GOOD, 1, R_BAD(STALE) }, /* a lost write */
	{ 3, 0, { 0 }, C_GOOD, 1, R_BAD(STALE) },
	{ 2, 3, { 0 }, C_GOOD, 1, R_BAD(STALE) },
	{ 2, 0, { 0, 0, I, 0 }, C_GOOD, 1, R_BAD(STALE) }, /* exp is known complete */
	{ 2, 0, { 0, W, 0, 0 }, C_GOOD, 1, R_BAD(STALE) }, /* the older gen's errors do not count */
	{ 2, 0, { 0, 0, W, 0 }, C_GOOD, 1, R_PEND },	   /* gen 2's failed write left gen 1 */
	{ 2, 0, { 0 }, C_GOOD, 0, R_BAD(STALE) },
	/* no stamp, bad crc, another LBA or target */
	{ 1, 0, { 0 }, C_NONE, 0, R_BAD(NO_STAMP) },
	{ 1, 0, { 0 }, C_CRC, 1, R_BAD(CHECKSUM) },
	{ 1, 0, { 0 }, C_LBA, 1, R_BAD(WRONG_LBA) },
	{ 1, 0, { 0 }, C_TARGET, 1, R_BAD(WRONG_LBA) },
	{ 2, 1, { 0 }, C_NONE, 0, R_BAD(NO_STAMP) }, /* pend < exp */
	{ 2, 1, { 0 }, C_CRC, 2, R_BAD(CHECKSUM) },
	{ 2, 2, { 0 }, C_NONE, 0, R_PEND }, /* pend >= exp: a write in flight may have torn it */
	{ 2, 3, { 0 }, C_CRC, 3, R_PEND },
	{ 2, 3, { 0 }, C_LBA, 1, R_PEND },
	{ 2, 3, { 0 }, C_TARGET, 1, R_PEND },
	{ 2, 0, { 0, 0, 0, I }, C_CRC, 3, R_PEND }, /* a torn write of an unfinished gen >= exp */
	{ 2, 0, { 0, 0, I, 0 }, C_CRC, 2, R_PEND },
	{ 2, 0, { 0, 0, 0, I }, C_LBA, 3, R_PEND },
	{ 2, 0, { 0, I, 0, 0 }, C_CRC, 1, R_BAD(CHECKSUM) }, /* unfinished, but older than exp */
	{ 2, 0, { 0, 0, 0, I }, C_NONE, 0, R_BAD(NO_STAMP) },
	{ 2, 0, { 0, 0, 0, W }, C_CRC, 3, R_BAD(CHECKSUM) },
	{ 2, 0, { 0, 0, W, 0 }, C_NONE, 0, R_PEND }, /* gen 2's failed write left anything */
	{ 2, 0, { 0, 0, W, 0 }, C_CRC, 2, R_PEND },
};

#undef W
#undef I

/* A unit at lba of target 7 holding content c of generation gen. */
static void s_make(uint8_t *u, enum s_content c, uint32_t gen, uint64_t lba)
{
	struct lst_stamp s = s_stamp(c == C_TARGET ? 8 : 7, gen, c == C_LBA ? lba + 1 : lba);

	s_fill(u);
	if (c == C_NONE)
		return;
	lst_stamp_put(u, &s);
	if (c == C_CRC)
		u[LST_VERIFY_UNIT - 1] ^= 0x40;
}

static void test_check_rows(void)
{
	static uint8_t u[LST_VERIFY_UNIT];
	uint16_t exp[3], pend[3];
	uint8_t flags[4];
	struct lst_verify_map m = { .first_lba = 500,
				    .nunits = 3,
				    .exp = exp,
				    .pend = pend,
				    .maxgen = 3,
				    .gen_flags = flags };

	for (size_t r = 0; r < sizeof(s_rows) / sizeof(s_rows[0]); r++) {
		const struct s_row *row = &s_rows[r];
		enum lst_verify_kind kind = LST_VK_FUTURE;
		enum lst_verify_result got;
		struct lst_stamp found;

		memset(exp, 0, sizeof(exp));
		memset(pend, 0, sizeof(pend));
		exp[1] = row->exp;
		pend[1] = row->pend;
		memcpy(flags, row->flags, sizeof(flags));
		s_make(u, row->c, row->gen, 501);
		got = lst_verify_check(&m, 501, u, 7, &found, &kind);
		if (got != row->want || kind != row->kind)
			T_FAIL("row %zu (exp %u pend %u content %d gen %u): got %d kind %d, want %d "
			       "kind %d",
			       r, row->exp, row->pend, row->c, row->gen, got, kind, row->want,
			       row->kind);
		T_EQ_U64(found.gen, row->c == C_NONE ? 0 : row->gen);
		T_EQ_U64(found.magic, row->c == C_NONE ? 0 : LST_STAMP_MAGIC);
	}
	printf("check: %zu rows\n", sizeof(s_rows) / sizeof(s_rows[0]));
}

/* No journal (m == NULL) and units outside the map: only the stamp itself counts. */
static void test_check_alone(void)
{
	static uint8_t u[LST_VERIFY_UNIT];
	static const struct {
		enum s_content c;
		enum lst_verify_result want;
		enum lst_verify_kind kind;
	} rows[] = {
		{ C_NONE, R_UNW },
		{ C_GOOD, R_OK },
		{ C_CRC, R_BAD(CHECKSUM) },
		{ C_LBA, R_BAD(WRONG_LBA) },
		{ C_TARGET, R_BAD(WRONG_LBA) },
	};
	uint16_t exp[2] = { 5, 5 }, pend[2] = { 0, 0 };
	uint8_t flags[1] = { 0 };
	struct lst_verify_map m = { .first_lba = 100,
				    .nunits = 2,
				    .exp = exp,
				    .pend = pend,
				    .maxgen = 0,
				    .gen_flags = flags };
	static const uint64_t lbas[] = { 0, 99, 102, UINT64_MAX };

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		enum lst_verify_kind kind;
		struct lst_stamp found;

		for (uint32_t gen = 1; gen < 70000; gen += 30000) {
			s_make(u, rows[r].c, gen, 77);
			T_EQ_INT(lst_verify_check(NULL, 77, u, 7, &found, &kind), rows[r].want);
			T_EQ_INT(kind, rows[r].kind);
		}
		for (size_t l = 0; l < sizeof(lbas) / sizeof(lbas[0]); l++) {
			s_make(u, rows[r].c, 1, lbas[l]);
			T_EQ_INT(lst_verify_check(&m, lbas[l], u, 7, &found, &kind), rows[r].want);
			T_EQ_INT(kind, rows[r].kind);
		}
	}
	T_EQ_STR(lst_verify_kind_names[LST_VK_NONE], "");
	T_EQ_STR(lst_verify_kind_names[LST_VK_NO_STAMP], "no stamp");
	T_EQ_STR(lst_verify_kind_names[LST_VK_WRONG_LBA], "wrong lba");
	T_EQ_STR(lst_verify_kind_names[LST_VK_STALE], "stale");
	T_EQ_STR(lst_verify_kind_names[LST_VK_CHECKSUM], "checksum");
	T_EQ_STR(lst_verify_kind_names[LST_VK_FUTURE], "future");
}

/* ---- the map and the check together, over a simulated drive */

static uint8_t s_disk[S_DEV_UNITS][LST_VERIFY_UNIT];

enum s_fate { F_LOST, F_LANDED, F_TORN };

static void s_disk_write(uint64_t u, uint32_t gen, uint16_t agent, uint64_t seq, enum s_fate f)
{
	struct lst_stamp st = s_stamp(7, gen, u);

	if (f == F_LOST)
		return;
	st.agent = agent;
	st.seq = seq;
	memset(s_disk[u], (int)(seq & 0xff), LST_VERIFY_UNIT);
	lst_stamp_put(s_disk[u], &st);
	if (f == F_TORN)
		s_disk[u][LST_STAMP_BYTES + s_rand() % (LST_VERIFY_UNIT - LST_STAMP_BYTES)] ^= 0x5a;
}

/* What happens to I/O k of a stream: a known complete write lands unless it failed (werr);
 * one in flight, or issued after the last mark of a stream that never finished, may land,
 * be torn or be lost. */
static enum s_fate s_fate(const struct lst_journal_stream *js, uint64_t k)
{
	if (k < js->low)
		return js->werr && s_rand() % 4 == 0 ? (enum s_fate)(s_rand() % 2 * 2) : F_LANDED;
	return (enum s_fate)(s_rand() % 3);
}

/* Run the streams in generation order over the drive, as agents would, faults included. */
static void s_disk_run(const struct lst_journal_stream *st, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct lst_journal_stream *js = &st[i];
		uint64_t extra = js->complete ? 0 : s_rand() % 20, off;
		struct lst_ioseq q;
		uint8_t dir;

		lst_ioseq_init(&q, &js->s);
		for (uint64_t k = 0; k < js->issued + extra; k++) {
			enum s_fate f = s_fate(js, k);

			lst_ioseq_next(&q, &off, &dir);
			for (uint64_t u = off / LST_VERIFY_UNIT;
			     dir && u < (off + js->s.bs) / LST_VERIFY_UNIT; u++)
				s_disk_write(u, js->gen, js->agent, k, f);
		}
	}
}

static void s_disk_check(const struct lst_verify_map *m, unsigned *count, const char *what)
{
	for (uint64_t u = 0; u < S_DEV_UNITS; u++) {
		enum lst_verify_kind kind;
		struct lst_stamp found;
		enum lst_verify_result r = lst_verify_check(m, u, s_disk[u], 7, &found, &kind);

		if (r == LST_VERIFY_BAD)
			T_FAIL("%s: unit %llu bad (%s): found gen %u, exp %u pend %u", what,
			       (unsigned long long)u, lst_verify_kind_names[kind], found.gen,
			       m->exp[u], m->pend[u]);
		count[r]++;
	}
}

/* A unit whose expected generation is certain (complete, no write errors, nothing in flight)
 * and that holds it (not a later write of a stream that never finished). */
static uint64_t s_sure_unit(const struct lst_verify_map *m, uint64_t from)
{
	for (uint64_t u = from; u < S_DEV_UNITS; u++) {
		enum lst_verify_kind kind;
		struct lst_stamp found;

		if (m->exp[u] > 1 && m->pend[u] == 0 && m->gen_flags[m->exp[u]] == 0 &&
		    lst_verify_check(m, u, s_disk[u], 7, &found, &kind) == LST_VERIFY_OK)
			return u;
	}
	return UINT64_MAX;
}

/* One fault of each kind on units whose state is certain is found, with its kind. */
static void s_disk_faults(struct lst_verify_map *m)
{
	static uint8_t keep[4][LST_VERIFY_UNIT];
	static const enum lst_verify_kind kinds[4] = { LST_VK_CHECKSUM, LST_VK_STALE,
						       LST_VK_WRONG_LBA, LST_VK_NO_STAMP };
	uint64_t u[4], at = 0;

	for (int i = 0; i < 4; i++) {
		u[i] = s_sure_unit(m, at);
		if (u[i] == UINT64_MAX)
			return; /* this history left too few: the next one will do */
		at = u[i] + 2;
		memcpy(keep[i], s_disk[u[i]], LST_VERIFY_UNIT);
	}
	s_disk[u[0]][100] ^= 1;
	{
		struct lst_stamp old = s_stamp(7, m->exp[u[1]] - 1u, u[1]);

		lst_stamp_put(s_disk[u[1]], &old); /* a lost write: the older generation */
	}
	{
		struct lst_stamp other = s_stamp(7, m->exp[u[2]], u[2] + 1);

		lst_stamp_put(s_disk[u[2]], &other); /* a misdirected write */
	}
	memset(s_disk[u[3]], 0, LST_VERIFY_UNIT);
	for (int i = 0; i < 4; i++) {
		enum lst_verify_kind kind;
		struct lst_stamp found;

		T_EQ_INT(lst_verify_check(m, u[i], s_disk[u[i]], 7, &found, &kind), LST_VERIFY_BAD);
		T_EQ_INT(kind, kinds[i]);
		memcpy(s_disk[u[i]], keep[i], LST_VERIFY_UNIT);
	}
}

/* Histories of several generations with faults (torn and lost in-flight writes, failed writes,
 * streams that never finished), on a drive holding an earlier run's stamps: no unit is bad,
 * and each injected error is found. */
static void test_disk_histories(void)
{
	unsigned count[4] = { 0 }, faulted = 0;
	struct lst_journal_stream st[24];

	for (int t = 0; t < 40; t++) {
		size_t n = 0;
		uint32_t ngen = 2 + (uint32_t)(s_rand() % 6);
		struct lst_verify_map m;
		lst_err err;

		for (uint64_t u = 0; u < S_DEV_UNITS; u++) {
			memset(s_disk[u], 0x33, LST_VERIFY_UNIT);
			if (s_rand() % 4 == 0) /* an earlier run's stamp, any generation */
				s_disk_write(u, 1 + (uint32_t)(s_rand() % 9), 0, 0, F_LANDED);
		}
		for (uint32_t g = 1; g <= ngen; g++)
			for (int k = 1 + (int)(s_rand() % 3); k > 0 && n < 24; k--)
				st[n++] = s_random_stream((int)(s_rand() % 3), g);
		s_disk_run(st, n);
		T_EQ_INT(lst_verify_map_build(&m, 0, S_DEV_UNITS, st, n, NULL, &err), 0);
		s_disk_check(&m, count, "history");
		faulted += s_sure_unit(&m, 0) != UINT64_MAX;
		s_disk_faults(&m);
		lst_verify_map_free(&m);
	}
	printf("histories: %u ok, %u pending, %u unwritten units, none bad; faults in %u\n",
	       count[LST_VERIFY_OK], count[LST_VERIFY_PENDING], count[LST_VERIFY_UNWRITTEN],
	       faulted);
	T_ASSERT(count[LST_VERIFY_OK] && count[LST_VERIFY_PENDING] && count[LST_VERIFY_UNWRITTEN]);
	T_ASSERT(faulted > 10);
}

/* ---- benchmark mode: figures, never asserted */

static void s_bench_crc(const char *name, uint32_t (*fn)(uint32_t, const void *, size_t),
			const uint8_t *buf, size_t len)
{
	double t0 = s_now(), t;
	uint64_t bytes = 0;
	uint32_t c = 0;

	do {
		for (int i = 0; i < 64; i++)
			c = fn(c, buf, len);
		bytes += 64 * len;
		t = s_now() - t0;
	} while (t < 0.5);
	printf("%-28s %10.0f MB/s  (crc %08x)\n", name, (double)bytes / t / 1e6, c);
}

static void s_bench_stamp(uint8_t *u)
{
	struct lst_stamp s = s_stamp(7, 1, 0), got;
	double t0 = s_now(), t;
	uint64_t n = 0, ok = 0;

	do {
		for (int i = 0; i < 1024; i++, n++) {
			s.lba = n;
			lst_stamp_put(u, &s);
			ok += lst_stamp_get(u, n, 7, &got) == LST_STAMP_OK;
		}
		t = s_now() - t0;
	} while (t < 0.5);
	printf("%-28s %10.0f units/s (%.0f MB/s, %llu ok)\n", "stamp put+get 4 KiB", (double)n / t,
	       (double)n * LST_VERIFY_UNIT / t / 1e6, (unsigned long long)ok);
}

static void s_bench_replay(const char *name, struct lst_stream s, uint64_t issued, uint64_t nunits)
{
	struct lst_journal_stream js = {
		.s = s, .gen = 1, .low = issued, .issued = issued, .complete = 1
	};
	struct lst_verify_map m;
	lst_err err;
	double t0 = s_now(), t;

	if (lst_verify_map_build(&m, 0, nunits, &js, 1, NULL, &err))
		T_FAIL("%s", err.msg);
	t = s_now() - t0;
	printf("%-28s %10.1f M I/Os/s (%llu I/Os over a %llu MiB map in %.3f s)\n", name,
	       (double)issued / t / 1e6, (unsigned long long)issued,
	       (unsigned long long)(nunits * LST_VERIFY_UNIT >> 20), t);
	lst_verify_map_free(&m);
}

static void s_bench(void)
{
	static uint8_t buf[1 << 17];
	const uint64_t gib = 1ull << 30;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)s_rand();
	s_bench_crc("crc32c 4 KiB (dispatch)", lst_crc32c, buf, 4096);
	s_bench_crc("crc32c 4 KiB (table)", lst_crc32c_sw, buf, 4096);
	s_bench_crc("crc32c 128 KiB (dispatch)", lst_crc32c, buf, sizeof(buf));
	s_bench_crc("crc32c 128 KiB (table)", lst_crc32c_sw, buf, sizeof(buf));
	s_bench_stamp(buf);
	s_bench_replay("replay random 4k",
		       (struct lst_stream){ .seed = 9, .hi = 16 * gib, .bs = 4096, .random = 1 },
		       20000000, 16 * gib / 4096);
	s_bench_replay("replay random 4k, 1/16 map",
		       (struct lst_stream){ .seed = 9, .hi = 16 * gib, .bs = 4096, .random = 1 },
		       20000000, gib / 4096);
	s_bench_replay("replay random 128k",
		       (struct lst_stream){ .seed = 9, .hi = 16 * gib, .bs = 131072, .random = 1 },
		       4000000, 16 * gib / 4096);
	s_bench_replay("replay mixed 70/30 4k",
		       (struct lst_stream){
			       .seed = 9, .hi = 16 * gib, .bs = 4096, .random = 1, .read_pct = 30 },
		       20000000, 16 * gib / 4096);
	s_bench_replay("replay sequential 4k (runs)",
		       (struct lst_stream){ .seed = 9, .hi = 16 * gib, .bs = 4096 }, 1ull << 32,
		       16 * gib / 4096);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--bench")) {
		s_bench();
		return 0;
	}
	test_crc_first_use();
	test_crc_vectors();
	test_crc_paths();
	test_target_id();
	test_stamp_layout();
	test_stamp_kinds();
	test_ioseq();
	test_map_model();
	test_map_cases();
	test_map_errors();
	test_map_cancel();
	test_check_rows();
	test_check_alone();
	test_disk_histories();
	printf("verify: ok\n");
	return 0;
}
