/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes the fuzz corpus for fuzz_msg: one file per message type and example variant
 * (TYPE-typical.msgpack, TYPE-extreme.msgpack, TYPE-small.msgpack), and a SAMPLE split by
 * path (sample-paths.msgpack) and one with health (sample-health.msgpack), encoded by the
 * codec itself. Usage: gen_msg_corpus DIR [MAXLEN] (frames over MAXLEN bytes are left out, to match
 * the fuzzer's -max_len).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_msg.h"
#include "lst_util.h"
#include "msg_examples.h"

/* Encode m into the file at path. Returns 0, 1 when it is over maxlen (left out), or -1 with
 * the reason printed. */
static int s_write(const lst_msg *m, const char *path, size_t maxlen)
{
	uint8_t *buf;
	size_t len;
	lst_err err;
	int fd, rc;

	if (lst_msg_encode(m, &buf, &len, &err)) {
		fprintf(stderr, "gen_msg_corpus: %s\n", err.msg);
		return -1;
	}
	if (len > maxlen) {
		free(buf);
		return 1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	rc = fd < 0 ? -errno : lst_write_all(fd, buf, len);
	if (fd >= 0 && close(fd) && !rc)
		rc = -errno;
	free(buf);
	if (rc) {
		fprintf(stderr, "gen_msg_corpus: write %s failed: %s\n", path, strerror(-rc));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const variants[LST_EXAMPLE_N] = { "typical", "extreme", "small" };
	size_t maxlen = LST_MSG_MAX_BYTES;
	int written = 0;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s DIR [MAXLEN]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		maxlen = strtoul(argv[2], NULL, 0);
	if (lst_mkdir_p(argv[1])) {
		fprintf(stderr, "gen_msg_corpus: cannot create %s\n", argv[1]);
		return 1;
	}
	for (uint32_t t = 1; t < LST_MSG_TYPE_END; t++) {
		for (int v = 0; v < LST_EXAMPLE_N; v++) {
			lst_msg *m = lst_example_msg(t, v);
			char *path;
			int rc;

			path = lst_asprintf("%s/%s-%s.msgpack", argv[1], lst_msg_type_name(t),
					    variants[v]);
			rc = s_write(m, path, maxlen);
			lst_msg_destroy(&m);
			free(path);
			if (rc < 0)
				return 1;
			written += !rc;
		}
	}
	/* A SAMPLE split over two paths ("paths"), as a point with two job specs sends it. */
	{
		lst_msg *m = lst_example_sample_split(2, false);
		char *path = lst_asprintf("%s/sample-paths.msgpack", argv[1]);

		if (s_write(m, path, maxlen))
			return 1;
		written++;
		free(path);
		lst_msg_destroy(&m);
	}
	/* The same with health: errors by class, timeouts, I/Os stuck in flight. */
	{
		lst_msg *m = lst_example_sample_split(2, false);
		char *path = lst_asprintf("%s/sample-health.msgpack", argv[1]);
		struct lst_sample_health *h = &m->u.sample.parts[1].s.health;

		h->timeouts = 2;
		h->inflight = 5;
		h->oldest_inflight_ns = 2500000000;
		m->u.sample.s.health = *h;
		if (s_write(m, path, maxlen))
			return 1;
		written++;
		free(path);
		lst_msg_destroy(&m);
	}
	printf("gen_msg_corpus: %d messages in %s\n", written, argv[1]);
	return 0;
}
