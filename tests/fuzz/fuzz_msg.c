/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the protocol decoder: any bytes go to lst_msg_decode(), which must return
 * an error or a message, never crash, read out of bounds or leak. Whatever decodes must encode
 * again (a decoded message is always within its own bounds), decode again, and give the same
 * bytes when encoded a second time (the encoding is canonical). A SAMPLE's parts go through
 * lst_msg_sample_parts_check, and every message through lst_msg_dup. Built only with LST_FUZZ=ON and
 * clang; tests/fuzz/fuzz_msg.sh runs it for a bounded time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void s_die(const char *what, const lst_err *err)
{
	fprintf(stderr, "fuzz_msg: %s: %s\n", what, err ? err->msg : "");
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lst_msg *m = NULL, *m2 = NULL;
	uint8_t *b1 = NULL, *b2 = NULL;
	size_t n1 = 0, n2 = 0;
	lst_err err;

	if (lst_msg_decode(data, size, &m, &err)) {
		if (m || err.code >= 0 || !err.msg[0])
			s_die("a failed decode must return no message and an error", &err);
		return 0;
	}
	if (m->type == LST_MSG_SAMPLE) {
		char why[160];

		/* Any parts are checked without harm, for any number of job specs. */
		lst_msg_sample_parts_check(&m->u.sample, m->u.sample.nparts, why, sizeof(why));
		lst_msg_sample_parts_check(&m->u.sample, UINT32_MAX, why, sizeof(why));
	}
	m2 = lst_msg_dup(m); /* a deep copy: destroying both frees nothing twice */
	lst_msg_destroy(&m2);
	if (lst_msg_encode(m, &b1, &n1, &err))
		s_die("a decoded message does not encode", &err);
	if (lst_msg_decode(b1, n1, &m2, &err))
		s_die("an encoded message does not decode", &err);
	if (m2->type != m->type || m2->seq != m->seq || m2->id != m->id || m2->re != m->re)
		s_die("the envelope changed in a round trip", NULL);
	if (lst_msg_encode(m2, &b2, &n2, &err))
		s_die("a re-decoded message does not encode", &err);
	if (n1 != n2 || memcmp(b1, b2, n1))
		s_die("encoding is not stable across a round trip", NULL);
	free(b1);
	free(b2);
	lst_msg_destroy(&m);
	lst_msg_destroy(&m2);
	return 0;
}
