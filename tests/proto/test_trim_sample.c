/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A sample's trim counts. lst_sample_add sums them, lst_sample_check bounds them as a
 * direction's, and a SAMPLE carries them as its optional "trim" map: decoded equal when set,
 * left out of the frame when all zero (so a frame without trims is what it was before).
 */
#include <errno.h>
#include <string.h>

#include "lst_msg.h"
#include "lst_sample.h"
#include "msg_examples.h"
#include "lst_test.h"

static uint8_t *s_encode(const lst_msg *m, size_t *len)
{
	uint8_t *buf = NULL;
	lst_err err;

	if (lst_msg_encode(m, &buf, len, &err))
		T_FAIL("encode failed: %s", err.msg);
	return buf;
}

static bool s_has(const uint8_t *buf, size_t len, const char *key)
{
	return memmem(buf, len, key, strlen(key)) != NULL;
}

static void s_wire(void)
{
	lst_msg *m = lst_example_msg(LST_MSG_SAMPLE, LST_EXAMPLE_TYPICAL), *d = NULL;
	size_t len;
	uint8_t *buf = s_encode(m, &len);
	lst_err err;

	T_ASSERT(!s_has(buf, len, "\xa4trim"));
	free(buf);
	m->u.sample.s.trim = (struct lst_sample_trim){ .ios = 10, .bytes = 36864, .errors = 1 };
	buf = s_encode(m, &len);
	T_ASSERT(s_has(buf, len, "\xa4trim"));
	if (lst_msg_decode(buf, len, &d, &err))
		T_FAIL("decode failed: %s", err.msg);
	T_EQ_U64(d->u.sample.s.trim.ios, 10);
	T_EQ_U64(d->u.sample.s.trim.bytes, 36864);
	T_EQ_U64(d->u.sample.s.trim.errors, 1);
	free(buf);
	lst_msg_destroy(&d);
	lst_msg_destroy(&m);
}

static void s_check_add(void)
{
	lst_sample a, b;
	lst_err err;

	lst_sample_init(&a, 0);
	lst_sample_init(&b, 0);
	a.start_ns = b.start_ns = 0;
	a.end_ns = b.end_ns = 1;
	a.trim = (struct lst_sample_trim){ 3, 3 * 4096, 0 };
	b.trim = (struct lst_sample_trim){ 2, 4096, 1 };
	lst_sample_add(&a, &b);
	T_EQ_U64(a.trim.ios, 5);
	T_EQ_U64(a.trim.bytes, 4 * 4096);
	T_EQ_U64(a.trim.errors, 1);
	T_EQ_INT(lst_sample_check(&a, &err), 0);
	a.trim.errors = 6;
	T_EQ_INT(lst_sample_check(&a, &err), -EBADMSG);
	T_EQ_STR(err.msg, "trim: 6 errors > 5 ios");
	a.trim.errors = 5;
	T_EQ_INT(lst_sample_check(&a, &err), -EBADMSG);
	T_CONTAINS(err.msg, "trim: 16384 bytes from 0 ios without error");
}

int main(void)
{
	s_wire();
	s_check_add();
	return 0;
}
