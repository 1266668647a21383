/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Block-size mixes (lst_bssplit.c): fio's forms parse to the expected entries, format parses
 * back equal (for fixed and random mixes), and bad text gets one clear error and leaves a
 * zeroed mix.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "lst_mix.h"
#include "lst_workload.h"
#include "lst_test.h"

/* text must parse; format it, parse that, and the two structs must be equal. */
static void s_round_trip(const char *text, const char *want_format)
{
	struct lst_bssplit a, b;
	char buf[1024];
	lst_err err;

	if (lst_bssplit_parse(&a, text, &err))
		T_FAIL("'%s' failed: %s", text, err.msg);
	lst_bssplit_format(&a, buf, sizeof(buf));
	if (want_format)
		T_EQ_STR(buf, want_format);
	if (lst_bssplit_parse(&b, buf, &err))
		T_FAIL("format '%s' of '%s' failed: %s", buf, text, err.msg);
	T_ASSERT(!memcmp(&a, &b, sizeof(a)));
}

static void s_bad(const char *text, int code, const char *msg)
{
	struct lst_bssplit b;
	lst_err err;

	lst_err_clear(&err);
	T_EQ_INT(lst_bssplit_parse(&b, text, &err), code);
	T_EQ_STR(err.msg, msg);
	T_EQ_INT(b.n[0], 0);
	T_EQ_INT(b.n[1], 0);
}

static void s_forms(void)
{
	struct lst_bssplit b;
	lst_err err;

	T_EQ_INT(lst_bssplit_parse(&b, "4k/70:64k/25:1m/5", &err), 0);
	T_EQ_INT(b.n[0], 3);
	T_EQ_INT(b.n[1], 3);
	T_EQ_INT(b.e[0][0].bs, 4096);
	T_EQ_INT(b.e[0][0].pct, 70);
	T_EQ_INT(b.e[1][2].bs, 1048576);
	T_EQ_INT(b.e[1][2].pct, 5);
	T_EQ_INT(lst_bssplit_parse(&b, "4k/100,", &err), 0);
	T_EQ_INT(b.n[0], 1);
	T_EQ_INT(b.n[1], 0);
	T_EQ_INT(lst_bssplit_parse(&b, ",8k/50:16k/50", &err), 0);
	T_EQ_INT(b.n[0], 0);
	T_EQ_INT(b.n[1], 2);
	T_EQ_INT(lst_bssplit_parse(&b, "none", &err), 0);
	T_EQ_INT(b.n[0] + b.n[1], 0);
	T_EQ_INT(lst_bssplit_parse(&b, "", &err), 0);
	T_EQ_INT(b.n[0] + b.n[1], 0);

	s_round_trip("4k/70:64k/25:1m/5", "4k/70:64k/25:1m/5");
	s_round_trip("4096/70:65536/30", "4k/70:64k/30");
	s_round_trip("4k/100,", "4k/100,");
	s_round_trip(",1536/100", ",1536/100");
	s_round_trip("4k/50:8k/50,16m/100", "4k/50:8k/50,16m/100");
	s_round_trip("512/0:4k/100", "512/0:4k/100");
	s_round_trip("none", "none");
}

static void s_errors(void)
{
	s_bad("4k/70:64k/25", -EINVAL, "shares add to 95, not 100");
	s_bad("4k/70:64k/25:1m/10", -EINVAL, "shares add to 105, not 100");
	s_bad("1000/100", -EINVAL, "size 1000 is not a multiple of 512 bytes");
	s_bad("256/100", -ERANGE, "size 256 is outside 512..16m");
	s_bad("32m/100", -ERANGE, "size 32m is outside 512..16m");
	s_bad("4k", -EINVAL, "entry '4k' has no share (write SIZE/PCT, e.g. 4k/70)");
	s_bad("4k/70:", -EINVAL, "an empty entry (write SIZE/PCT, e.g. 4k/70)");
	s_bad("4k/x", -EINVAL, "share 'x' of 4k is not a percent 0..100");
	s_bad("4k/101", -EINVAL, "share '101' of 4k is not a percent 0..100");
	s_bad("4k/50:4096/50", -EINVAL, "size 4096 is listed twice");
	s_bad("4k/100,8k/100,", -EINVAL, "more than one ',' (write READS,WRITES)");
	s_bad(",", -EINVAL, "',' alone gives no sizes (write none)");
	s_bad("4q/100", -EINVAL, "'4q': unknown size suffix 'q' (use k, m, g or t)");
	s_bad("4k/10:8k/10:12k/10:16k/10:20k/10:24k/10:28k/10:32k/10:36k/10:40k/10:44k/0:48k/0:"
	      "52k/0:56k/0:60k/0:64k/0:68k/0",
	      -EINVAL, "more than 16 sizes in one direction");
	s_bad("4k/100,8k/90", -EINVAL, "shares add to 90, not 100");
}

/* Random mixes: every one formats to text that parses back equal. */
static void s_random(void)
{
	srand(17);
	for (int t = 0; t < 2000; t++) {
		struct lst_bssplit a, b;
		char buf[1024];
		lst_err err;

		memset(&a, 0, sizeof(a));
		for (int d = 0; d < 2; d++) {
			int64_t left = 100;

			a.n[d] = rand() % (LST_BSSPLIT_MAX + 1);
			for (int64_t i = 0; i < a.n[d]; i++) {
				a.e[d][i].bs = (int64_t)(i + 1) * 512 * (rand() % 2 ? 1 : 64);
				a.e[d][i].pct = i + 1 == a.n[d] ? left : rand() % (left + 1);
				left -= a.e[d][i].pct;
			}
		}
		lst_bssplit_format(&a, buf, sizeof(buf));
		if (lst_bssplit_parse(&b, buf, &err))
			T_FAIL("'%s' failed: %s", buf, err.msg);
		T_ASSERT(!memcmp(&a, &b, sizeof(a)));
	}
}

/* lst_workload_check: a mix with verify, a mix larger than the region. */
static void s_check(void)
{
	struct lst_workload w;
	lst_err err;

	lst_workload_init(&w);
	T_EQ_INT(lst_bssplit_parse(&w.bssplit, "4k/70:64k/25:1m/5", &err), 0);
	T_EQ_INT(lst_workload_bs_max(&w), 1048576);
	T_EQ_INT(lst_workload_check(&w, 64 << 20, &err), 0);
	w.verify = 1;
	T_EQ_INT(lst_workload_check(&w, 64 << 20, &err), -EINVAL);
	T_EQ_STR(err.msg, "bssplit: a block-size mix cannot be verified (verify replays fixed-size "
			  "I/Os): use bs, or verify: false");
	w.verify = 0;
	w.size = 512 << 10;
	T_EQ_INT(lst_workload_check(&w, 64 << 20, &err), -EINVAL);
	T_EQ_STR(err.msg, "bssplit: size 1048576 is larger than the region (size 524288)");
	w.size = 0;
	w.offset = (64 << 20) - (512 << 10);
	T_EQ_INT(lst_workload_check(&w, 64 << 20, &err), -EINVAL);
	T_EQ_STR(err.msg, "bssplit: size 1048576 is larger than the region of 524288 bytes");
}

int main(void)
{
	s_forms();
	s_check();
	s_errors();
	s_random();
	return 0;
}
