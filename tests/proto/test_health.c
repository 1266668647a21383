/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A sample's health: errno -> class, the SAMPLE codec's optional `health` map (absent
 * when all zero, so older frames stay byte-identical; unknown classes skipped; values bounded),
 * and lst_sample_check's rule that the classes add up to the errors.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lst_msg.h"
#include "lst_sample.h"
#include "lst_test.h"
#include "msg_examples.h"

static void s_test_classes(void)
{
	T_EQ_INT(lst_err_class_of(-EIO), LST_ERRC_EIO);
	T_EQ_INT(lst_err_class_of(EIO), LST_ERRC_EIO);
	T_EQ_INT(lst_err_class_of(-ENOSPC), LST_ERRC_ENOSPC);
	T_EQ_INT(lst_err_class_of(-ETIMEDOUT), LST_ERRC_ETIMEDOUT);
	T_EQ_INT(lst_err_class_of(-EBADE), LST_ERRC_EBADE);
	T_EQ_INT(lst_err_class_of(-EINVAL), LST_ERRC_OTHER);
	T_EQ_INT(lst_err_class_of(0), LST_ERRC_OTHER);
	T_EQ_STR(lst_err_class_names[LST_ERRC_ENOSPC], "enospc");
	T_EQ_STR(lst_err_class_names[LST_ERRC_OTHER], "other");
}

/* A one-path SAMPLE with errors: 3 reads with 1 error, 5 writes with 2 errors. */
static lst_msg *s_sample(void)
{
	lst_msg *m = lst_msg_new(LST_MSG_SAMPLE);
	lst_sample *s = &m->u.sample.s;

	lst_sample_init(s, 7);
	s->start_ns = 1000;
	s->end_ns = 2000;
	s->dir[LST_DIR_READ].ios = 3;
	s->dir[LST_DIR_READ].errors = 1;
	s->dir[LST_DIR_READ].bytes = 2 * 4096;
	lst_hist_record_n(&s->dir[LST_DIR_READ].lat, 100, 3);
	s->dir[LST_DIR_WRITE].ios = 5;
	s->dir[LST_DIR_WRITE].errors = 2;
	s->dir[LST_DIR_WRITE].bytes = 3 * 4096;
	lst_hist_record_n(&s->dir[LST_DIR_WRITE].lat, 200, 5);
	return m;
}

static lst_msg *s_roundtrip(const lst_msg *m, uint8_t **buf, size_t *len)
{
	lst_msg *back = NULL;
	lst_err err;

	T_EQ_INT(lst_msg_encode(m, buf, len, &err), 0);
	T_EQ_INT(lst_msg_decode(*buf, *len, &back, &err), 0);
	return back;
}

static bool s_has(const uint8_t *buf, size_t len, const char *what)
{
	return memmem(buf, len, what, strlen(what)) != NULL;
}

static void s_test_codec(void)
{
	lst_msg *m = s_sample(), *back;
	struct lst_sample_health *h = &m->u.sample.s.health;
	uint8_t *buf;
	size_t len;
	lst_err err;

	/* all zero: no key at all */
	back = s_roundtrip(m, &buf, &len);
	T_ASSERT(!s_has(buf, len, "health"));
	T_ASSERT(!memcmp(&back->u.sample.s.health, h, sizeof(*h)));
	free(buf);
	lst_msg_destroy(&back);

	h->err_class[LST_ERRC_ENOSPC] = 2;
	h->err_class[LST_ERRC_EIO] = 1;
	h->timeouts = 4;
	h->inflight = 9;
	h->oldest_inflight_ns = 1234567000;
	back = s_roundtrip(m, &buf, &len);
	T_ASSERT(s_has(buf, len, "health") && s_has(buf, len, "enospc"));
	T_ASSERT(!s_has(buf, len, "ebade")); /* only non-zero classes */
	T_ASSERT(!memcmp(&back->u.sample.s.health, h, sizeof(*h)));
	T_EQ_INT(lst_sample_check(&back->u.sample.s, &err), 0);
	lst_msg_destroy(&back);

	/* a class this side does not know is skipped: "enospc" -> "enospx" */
	{
		uint8_t *at = memmem(buf, len, "enospc", 6);

		at[5] = 'x';
		T_EQ_INT(lst_msg_decode(buf, len, &back, &err), 0);
		T_EQ_U64(back->u.sample.s.health.err_class[LST_ERRC_ENOSPC], 0);
		T_EQ_U64(back->u.sample.s.health.err_class[LST_ERRC_EIO], 1);
		/* and then the classes no longer add up to the errors */
		T_EQ_INT(lst_sample_check(&back->u.sample.s, &err), -EBADMSG);
		T_CONTAINS(err.msg, "1 errors by class, 3 read+write errors");
		lst_msg_destroy(&back);
	}
	free(buf);

	/* sub-microsecond ages travel as microseconds */
	h->oldest_inflight_ns = 1999;
	back = s_roundtrip(m, &buf, &len);
	T_EQ_INT(back->u.sample.s.health.oldest_inflight_ns, 1000);
	free(buf);
	lst_msg_destroy(&back);

	/* out of bounds from outside: a huge inflight is refused, not stored */
	h->oldest_inflight_ns = 0;
	h->inflight = UINT64_MAX;
	T_EQ_INT(lst_msg_encode(m, &buf, &len, &err), 0);
	T_ASSERT(lst_msg_decode(buf, len, &back, &err) < 0);
	T_CONTAINS(err.msg, "inflight");
	T_ASSERT(!back);
	free(buf);
	lst_msg_destroy(&m);
}

/* Health travels in each path's part too, and parts are checked on their own. */
static void s_test_parts(void)
{
	lst_msg *m = lst_example_sample_split(2, false), *back;
	struct lst_sample_part *p = &m->u.sample.parts[1];
	uint8_t *buf;
	size_t len;
	lst_err err;

	p->s.health.inflight = 3;
	p->s.health.oldest_inflight_ns = 5000;
	m->u.sample.s.health.inflight = 3;
	m->u.sample.s.health.oldest_inflight_ns = 5000;
	back = s_roundtrip(m, &buf, &len);
	T_EQ_U64(back->u.sample.parts[1].s.health.inflight, 3);
	T_EQ_U64(back->u.sample.parts[0].s.health.inflight, 0);
	T_EQ_U64(back->u.sample.s.health.inflight, 3);
	T_EQ_INT(lst_sample_check(&back->u.sample.parts[1].s, &err), 0);
	free(buf);
	lst_msg_destroy(&back);
	lst_msg_destroy(&m);
}

int main(void)
{
	s_test_classes();
	s_test_codec();
	s_test_parts();
	printf("ok\n");
	return 0;
}
