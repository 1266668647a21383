/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The purge worker (agent/io/lst_purge) on a regular file of its own (a hole punch, the purge
 * of a file): each region is checked before anything runs (within the size, aligned on a block
 * device, secure only on one, at most LST_MAX_JOBSPECS), the worker punches exactly its regions
 * in its own thread, a region over 1 GiB chunk by chunk, and says so on its eventfd; a purge
 * stopped before its start touches nothing; a failure comes back as the worker's error;
 * destroy is safe twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lst_dev.h"
#include "lst_purge.h"
#include "lst_test.h"

#define S_MIB (1u << 20)
#define S_SIZE (4 * S_MIB)

static char s_file[64];

static void s_cleanup(void)
{
	unlink(s_file);
}

/* s_file filled with 0xab; its identity in id; an fd open for writing (flags). */
static int s_fill(struct lst_path_identity *id, int flags)
{
	static unsigned char buf[S_MIB];
	lst_err err;
	int fd = open(s_file, O_RDWR | O_TRUNC);

	T_ASSERT(fd >= 0);
	memset(buf, 0xab, sizeof(buf));
	for (int i = 0; i < 4; i++)
		T_EQ_INT(write(fd, buf, sizeof(buf)), (int)sizeof(buf));
	close(fd);
	if (lst_dev_identify(s_file, id, &err))
		T_FAIL("identify %s: %s", s_file, err.msg);
	fd = open(s_file, flags);
	T_ASSERT(fd >= 0);
	return fd;
}

/* Is MiB k of the file all zeros (punched) or all 0xab (kept)? */
static bool s_mib_is(int k, unsigned char byte)
{
	static unsigned char buf[S_MIB];
	int fd = open(s_file, O_RDONLY);
	bool same = true;

	T_ASSERT(fd >= 0);
	T_EQ_INT(pread(fd, buf, sizeof(buf), (off_t)k * S_MIB), (int)sizeof(buf));
	close(fd);
	for (size_t i = 0; i < sizeof(buf) && same; i++)
		same = buf[i] == byte;
	return same;
}

/* Run pg to its end (its eventfd within 10 s); returns its error. */
static int s_run(lst_purge *pg, lst_err *err)
{
	struct pollfd p;

	T_EQ_INT(lst_purge_arm(pg, err), 0);
	p = (struct pollfd){ .fd = lst_purge_eventfd(pg), .events = POLLIN };
	T_ASSERT(p.fd >= 0);
	T_EQ_INT(lst_purge_start(pg), 0);
	T_ASSERT(lst_purge_launched(pg));
	T_EQ_INT(poll(&p, 1, 10000), 1);
	T_ASSERT(lst_purge_finished(pg));
	return lst_purge_error(pg, err);
}

static void test_punch(void)
{
	struct lst_path_identity id;
	lst_purge *pg = lst_purge_new();
	lst_err err;
	int fd = s_fill(&id, O_RDWR), rc;

	T_EQ_INT(lst_purge_eventfd(pg), -1);
	T_EQ_INT(lst_purge_add(pg, s_file, fd, &id, S_MIB, S_MIB, false, &err), 0);
	T_EQ_INT(lst_purge_add(pg, s_file, fd, &id, 3 * S_MIB, 0, false, &err), 0); /* to the end */
	rc = s_run(pg, &err);
	if (rc == -EOPNOTSUPP) {
		printf("skip: %s\n", err.msg);
		exit(LST_TEST_SKIP);
	}
	T_EQ_INT(rc, 0);
	T_ASSERT(s_mib_is(0, 0xab));
	T_ASSERT(s_mib_is(1, 0));
	T_ASSERT(s_mib_is(2, 0xab));
	T_ASSERT(s_mib_is(3, 0));
	lst_purge_destroy(&pg);
	T_ASSERT(!pg);
	lst_purge_destroy(&pg); /* safe twice */
	close(fd);
}

static void test_stopped_before_start(void)
{
	struct lst_path_identity id;
	lst_purge *pg = lst_purge_new();
	lst_err err;
	int fd = s_fill(&id, O_RDWR);

	T_EQ_INT(lst_purge_add(pg, s_file, fd, &id, 0, 0, false, &err), 0);
	lst_purge_stop(pg);
	T_EQ_INT(s_run(pg, &err), 0);
	for (int k = 0; k < 4; k++)
		T_ASSERT(s_mib_is(k, 0xab));
	lst_purge_destroy(&pg);
	close(fd);
}

/* A region over 1 GiB goes in chunks (the stop flag is read between them): every chunk lands
 * where it belongs. A sparse file, so nothing big is written. */
static void test_chunks(void)
{
	static const uint64_t at[] = { 0, (1ull << 30) + 4096, (2ull << 30) + 8192 };
	unsigned char buf[4096];
	struct lst_path_identity id;
	lst_purge *pg = lst_purge_new();
	lst_err err;
	int fd = open(s_file, O_RDWR | O_TRUNC);

	T_ASSERT(fd >= 0);
	T_EQ_INT(ftruncate(fd, (off_t)(5ull << 29)), 0); /* 2.5 GiB */
	memset(buf, 0xab, sizeof(buf));
	for (size_t i = 0; i < 3; i++)
		T_EQ_INT(pwrite(fd, buf, sizeof(buf), (off_t)at[i]), (int)sizeof(buf));
	if (lst_dev_identify(s_file, &id, &err))
		T_FAIL("identify %s: %s", s_file, err.msg);
	T_EQ_INT(lst_purge_add(pg, s_file, fd, &id, 0, 0, false, &err), 0);
	T_EQ_INT(s_run(pg, &err), 0);
	for (size_t i = 0; i < 3; i++) {
		T_EQ_INT(pread(fd, buf, sizeof(buf), (off_t)at[i]), (int)sizeof(buf));
		for (size_t k = 0; k < sizeof(buf); k++)
			if (buf[k])
				T_FAIL("byte %zu at %llu kept", k, (unsigned long long)at[i]);
	}
	lst_purge_destroy(&pg);
	close(fd);
}

/* An fd open read-only: the worker's error says so, and nothing changed. */
static void test_worker_error(void)
{
	struct lst_path_identity id;
	lst_purge *pg = lst_purge_new();
	lst_err err;
	int fd = s_fill(&id, O_RDONLY);

	T_EQ_INT(lst_purge_add(pg, s_file, fd, &id, 0, S_MIB, false, &err), 0);
	T_EQ_INT(s_run(pg, &err), -EBADF);
	T_CONTAINS(err.msg, "read-only");
	T_ASSERT(s_mib_is(0, 0xab));
	lst_purge_destroy(&pg);
	close(fd);
}

static void test_refusals(void)
{
	struct lst_path_identity id, blk;
	lst_purge *pg = lst_purge_new();
	lst_err err;
	int fd = s_fill(&id, O_RDWR);

	T_EQ_INT(lst_purge_add(pg, "f", fd, &id, S_SIZE + 1, 0, false, &err), -EINVAL);
	T_EQ_STR(err.msg, "f: purge offset 4194305 is beyond the end (4194304 bytes)");
	T_EQ_INT(lst_purge_add(pg, "f", fd, &id, 3 * S_MIB, 2 * S_MIB, false, &err), -EINVAL);
	T_EQ_STR(err.msg, "f: purge region [3145728, 5242880) goes beyond the end (4194304 bytes)");
	T_EQ_INT(lst_purge_add(pg, "f", fd, &id, 0, S_MIB, true, &err), -EOPNOTSUPP);
	T_CONTAINS(err.msg, "secdiscard needs a block device");
	lst_purge_destroy(&pg);

	/* A block device's regions keep to its logical block size. */
	blk = id;
	snprintf(blk.kind, sizeof(blk.kind), "block");
	blk.lbs = 4096;
	pg = lst_purge_new();
	T_EQ_INT(lst_purge_add(pg, "b", fd, &blk, 512, 4096, false, &err), -EINVAL);
	T_CONTAINS(err.msg, "not aligned to the logical block size 4096");
	lst_purge_destroy(&pg);

	pg = lst_purge_new();
	for (int i = 0; i < LST_MAX_JOBSPECS; i++)
		T_EQ_INT(lst_purge_add(pg, "f", fd, &id, 0, 4096, false, &err), 0);
	T_EQ_INT(lst_purge_add(pg, "f", fd, &id, 0, 4096, false, &err), -E2BIG);
	lst_purge_destroy(&pg); /* never started: nothing to join */
	close(fd);
}

int main(void)
{
	int fd;

	snprintf(s_file, sizeof(s_file), "/tmp/lst-test-purge.XXXXXX");
	fd = mkstemp(s_file);
	T_ASSERT(fd >= 0);
	close(fd);
	atexit(s_cleanup);
	test_punch();
	test_stopped_before_start();
	test_chunks();
	test_worker_error();
	test_refusals();
	printf("ok: purge\n");
	return 0;
}
