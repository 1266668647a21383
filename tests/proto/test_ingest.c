/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The coordinator's ingest paths against the plain ones they replace: histograms
 * added, copied and cleared over their span equal the whole-array results; a decoder refuses a
 * histogram with a bucket outside min..max; decoding into one reused message gives the same
 * message as a fresh decode, whatever it held before.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_hist.h"
#include "lst_msg.h"
#include "lst_sample.h"
#include "lst_test.h"

static uint64_t s_state = 0x2545f4914f6cdd1dull;

static uint64_t s_rand(void)
{
	s_state ^= s_state >> 12;
	s_state ^= s_state << 25;
	s_state ^= s_state >> 27;
	return s_state * 2685821657736338717ull;
}

/* n values around base (and an overflow value now and then). */
static void s_fill(lst_hist *h, uint64_t base, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		lst_hist_record(h, i % 97 == 96 ? LST_HIST_MAX_NS + i : base + s_rand() % base);
}

/* Sparse add, copy and clear against the same operations on every bucket. */
static void s_check_sparse(void)
{
	lst_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *sum = malloc(sizeof(*sum));
	lst_hist *copy = malloc(sizeof(*copy));

	lst_hist_init(copy);
	for (unsigned round = 0; round < 50; round++) {
		lst_hist_init(a);
		lst_hist_init(b);
		s_fill(a, 1000 + round * 37, 500);
		s_fill(b, 100000 * (round + 1), 300);
		*sum = *a; /* the plain way: every bucket */
		for (unsigned i = 0; i < LST_HIST_NBUCKETS; i++)
			sum->buckets[i] += b->buckets[i];
		sum->count += b->count;
		sum->overflow += b->overflow;
		sum->sum += b->sum;
		sum->sumsq += b->sumsq;
		sum->min = a->min < b->min ? a->min : b->min;
		sum->max = a->max > b->max ? a->max : b->max;
		lst_hist_copy(copy, a); /* over whatever the last round left */
		T_ASSERT(lst_hist_equal(copy, a));
		lst_hist_add(copy, b);
		T_ASSERT(lst_hist_equal(copy, sum));
	}
	lst_hist_clear(copy);
	lst_hist_init(a);
	T_ASSERT(lst_hist_equal(copy, a));
	free(a);
	free(b);
	free(sum);
	free(copy);
}

/* A bucket outside min..max is refused: adding over the span would lose it. */
static void s_check_decode_span(void)
{
	lst_hist *h = malloc(sizeof(*h)), *g = malloc(sizeof(*g));
	uint8_t buf[LST_HIST_ENC_MAX];
	size_t n;
	lst_err err;

	lst_hist_init(h);
	lst_hist_record(h, 5000);
	lst_hist_record(h, 9000);
	h->min = 6000; /* a bucket below min */
	n = lst_hist_encode(h, buf, sizeof(buf));
	T_ASSERT(n > 0);
	T_EQ_INT(lst_hist_decode(g, buf, n, &err), -EINVAL);
	T_CONTAINS(err.msg, "outside min");
	h->min = 5000;
	h->max = 8000; /* a bucket above max */
	n = lst_hist_encode(h, buf, sizeof(buf));
	T_EQ_INT(lst_hist_decode(g, buf, n, &err), -EINVAL);
	h->max = 9000;
	n = lst_hist_encode(h, buf, sizeof(buf));
	T_EQ_INT(lst_hist_decode(g, buf, n, &err), 0);
	T_ASSERT(lst_hist_equal(g, h));
	free(h);
	free(g);
}

static lst_msg *s_sample(int64_t k, uint64_t base)
{
	lst_msg *m = lst_msg_new(LST_MSG_SAMPLE);
	lst_sample *s = &m->u.sample.s;

	m->seq = (uint64_t)k + 1;
	m->u.sample.phase = 1;
	m->u.sample.point = 2;
	lst_sample_init(s, k);
	s->start_ns = 1000;
	s->end_ns = 2000;
	s_fill(&s->dir[LST_DIR_READ].lat, base, 200);
	s->dir[LST_DIR_READ].ios = s->dir[LST_DIR_READ].lat.count;
	s->dir[LST_DIR_READ].bytes = 4096 * s->dir[LST_DIR_READ].ios;
	return m;
}

/* decode_into a reused message (after other types and after an error) equals a fresh decode. */
static void s_check_decode_into(void)
{
	lst_msg *scratch = lst_msg_new(LST_MSG_BYE), *ping = lst_msg_new(LST_MSG_PING);
	uint8_t *buf;
	size_t len;
	lst_err err;

	ping->u.ping.now = 42;
	for (int k = 0; k < 20; k++) {
		lst_msg *m = k % 3 == 2 ? NULL : s_sample(k, 1000u << (k % 7)), *fresh;
		const lst_msg *src = m ? m : ping;

		T_EQ_INT(lst_msg_encode(src, &buf, &len, &err), 0);
		T_EQ_INT(lst_msg_decode(buf, len, &fresh, &err), 0);
		T_EQ_INT(lst_msg_decode_into(scratch, buf, len, &err), 0);
		T_EQ_INT(scratch->type, fresh->type);
		T_EQ_U64(scratch->seq, fresh->seq);
		if (m) {
			T_EQ_INT(memcmp(&scratch->u.sample, &fresh->u.sample,
					sizeof(scratch->u.sample)),
				 0);
		} else {
			T_EQ_U64(scratch->u.ping.now, 42);
		}
		if (k % 5 == 4) { /* a bad frame leaves no message */
			T_EQ_INT(lst_msg_decode_into(scratch, buf, len - 1, &err) < 0, 1);
			T_EQ_INT(scratch->type, 0);
		}
		free(buf);
		lst_msg_destroy(&fresh);
		lst_msg_destroy(&m);
	}
	lst_msg_destroy(&scratch);
	lst_msg_destroy(&ping);
}

int main(void)
{
	s_check_sparse();
	s_check_decode_span();
	s_check_decode_into();
	printf("ingest: all checks passed\n");
	return 0;
}
