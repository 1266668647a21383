/* SPDX-License-Identifier: Apache-2.0 */
/*
 * I/O traces (lst_trace.c): a few thousand records written and read back equal; every
 * refusal of a damaged file (truncated by a byte and by a record, bad magic, bad version, a
 * record of length 0, an op out of range, time going backwards, misaligned records, too many
 * records, trailing bytes) with one line naming the file and an empty trace; lst_trace_fits
 * against another block size, a small path and a huge I/O; and blkparse text, from a fixture
 * in blkparse's default format with its summary, and from bad text naming the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lst_trace.h"
#include "lst_util.h"
#include "lst_workload.h"
#include "lst_test.h"

#ifndef LST_TRACE_FIXTURES
#error "LST_TRACE_FIXTURES must name tests/fixtures/trace"
#endif

static char s_dir[] = "/tmp/lst-test-trace.XXXXXX";

static char *s_path(const char *name)
{
	return lst_asprintf("%s/%s", s_dir, name);
}

/* n records, 4 KiB aligned, times non-decreasing, all three ops. */
static struct lst_trace_rec *s_records(size_t n)
{
	struct lst_trace_rec *r = lst_calloc(n, sizeof(*r));
	uint64_t x = 88172645463325252ull;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		r[i].t_ns = (int64_t)(i * 1000 + (i % 3 == 0 ? 0 : 17)) - (i % 3 == 2 ? 17 : 0);
		r[i].offset = (x % 65536) * 4096;
		r[i].len = (uint32_t)(1 + x % 32) * 4096;
		r[i].op = (uint8_t)(i % 3);
	}
	return r;
}

static void s_write(const char *path, const struct lst_trace_rec *r, size_t n, uint32_t lbs)
{
	lst_err err;

	if (lst_trace_write(path, r, n, lbs, 1ull << 30, &err))
		T_FAIL("write %s: %s", path, err.msg);
}

/* Read path; it must fail with code and a message containing want, leaving t empty. */
static void s_refused(const char *path, int code, const char *want)
{
	struct lst_trace t;
	lst_err err;

	lst_err_clear(&err);
	T_EQ_INT(lst_trace_read(path, 0, &t, &err), code);
	T_CONTAINS(err.msg, path);
	T_CONTAINS(err.msg, want);
	T_ASSERT(!strchr(err.msg, '\n'));
	T_ASSERT(t.rec == NULL);
	T_EQ_INT(t.nrec, 0);
}

/* Overwrite len bytes at off in path. */
static void s_patch(const char *path, off_t off, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);

	T_ASSERT(fd >= 0);
	T_EQ_INT(pwrite(fd, buf, len, off), (long long)len);
	close(fd);
}

static void s_round_trip(void)
{
	const size_t n = 5000;
	struct lst_trace_rec *r = s_records(n);
	char *path = s_path("rt.lstrace"), *tmp = lst_asprintf("%s.tmp", path);
	struct lst_trace t;
	uint64_t span = 0, max_len = 0;
	struct stat st;
	lst_err err;

	s_write(path, r, n, 4096);
	T_ASSERT(stat(tmp, &st) && errno == ENOENT);
	T_EQ_INT(stat(path, &st), 0);
	T_EQ_INT(st.st_size, LST_TRACE_HEADER + n * LST_TRACE_RECORD);
	if (lst_trace_read(path, 0, &t, &err))
		T_FAIL("read: %s", err.msg);
	T_EQ_INT(t.nrec, n);
	T_EQ_INT(t.lbs, 4096);
	T_EQ_U64(t.path_size, 1ull << 30);
	T_EQ_INT(t.blkparse, 0);
	for (size_t i = 0; i < n; i++) {
		T_EQ_INT(t.rec[i].t_ns, r[i].t_ns);
		T_EQ_U64(t.rec[i].offset, r[i].offset);
		T_EQ_INT(t.rec[i].len, r[i].len);
		T_EQ_INT(t.rec[i].op, r[i].op);
		if (r[i].offset + r[i].len > span)
			span = r[i].offset + r[i].len;
		if (r[i].len > max_len)
			max_len = r[i].len;
	}
	T_EQ_U64(t.span, span);
	T_EQ_U64(t.max_len, max_len);
	T_EQ_INT(t.duration, r[n - 1].t_ns);
	lst_trace_free(&t);
	lst_trace_free(&t); /* safe twice */

	/* An empty trace is a valid file. */
	s_write(path, r, 0, 512);
	T_EQ_INT(lst_trace_read(path, 0, &t, &err), 0);
	T_EQ_INT(t.nrec, 0);
	T_EQ_INT(t.duration, 0);
	lst_trace_free(&t);
	free(tmp);
	free(path);
	free(r);
}

static void s_refusals(void)
{
	const size_t n = 100;
	struct lst_trace_rec *r = s_records(n);
	char *path = s_path("bad.lstrace");
	const off_t size = LST_TRACE_HEADER + n * LST_TRACE_RECORD;
	unsigned char b[8];

	s_write(path, r, n, 4096);
	T_EQ_INT(truncate(path, size - 1), 0);
	s_refused(path, -EINVAL, "truncated: the header says 100 records");
	T_EQ_INT(truncate(path, size - LST_TRACE_RECORD), 0);
	s_refused(path, -EINVAL, "truncated: the header says 100 records");
	T_EQ_INT(truncate(path, 10), 0);
	s_refused(path, -EINVAL, "truncated");
	T_EQ_INT(truncate(path, 0), 0);
	s_refused(path, -EINVAL, "neither a lockstep trace nor blkparse text");

	s_write(path, r, n, 4096);
	T_EQ_INT(truncate(path, size + 5), 0);
	s_refused(path, -EINVAL, "5 bytes after the 100 records");

	s_write(path, r, n, 4096);
	s_patch(path, 0, "X", 1);
	s_refused(path, -EINVAL, "not a lockstep trace (bad magic)");

	s_write(path, r, n, 4096);
	memset(b, 0, sizeof(b));
	b[0] = 2;
	s_patch(path, 8, b, 4);
	s_refused(path, -EINVAL, "trace format version 2");

	s_write(path, r, n, 4096);
	b[0] = 0, b[1] = 0, b[2] = 0, b[3] = 0x10; /* 256 Mi records > the maximum */
	s_patch(path, 16, b, 4);
	s_refused(path, -EFBIG, "more than a trace holds");

	r[7].len = 0;
	s_write(path, r, n, 4096);
	s_refused(path, -EINVAL, "record 7 has length 0");
	r[7].len = 4096;

	r[9].op = 7;
	s_write(path, r, n, 4096);
	s_refused(path, -EINVAL, "record 9 has op 7");
	r[9].op = LST_TRACE_WRITE;

	r[50].t_ns = r[49].t_ns - 1;
	s_write(path, r, n, 4096);
	s_refused(path, -EINVAL, "record 50 goes back in time");
	r[50].t_ns = r[49].t_ns;

	r[3].offset += 512;
	s_write(path, r, n, 4096);
	s_refused(path, -EINVAL, "record 3 (offset");
	s_refused(path, -EINVAL, "not a multiple of the trace's 4096-byte blocks");
	r[3].offset -= 512;

	s_write(path, r, n, 4096);
	memset(b, 0xff, sizeof(b)); /* duration -1: no longer the last record's time */
	s_patch(path, 32, b, 8);
	s_refused(path, -EINVAL, "the header's duration");

	free(path);
	path = s_path("missing.lstrace");
	s_refused(path, -ENOENT, "cannot open it");
	free(path);
	free(r);
}

/* A FIFO, a symlink or a trace larger than mem_max is refused before it is read: the FIFO's open
 * does not wait for a writer, the records' array is never allocated. */
static void s_refusals_files(void)
{
	const size_t n = 100;
	struct lst_trace_rec *r = s_records(n);
	char *path = s_path("big.lstrace"), *fifo = s_path("fifo.lstrace");
	char *link = s_path("link.lstrace");
	struct lst_trace t;
	lst_err err;

	T_EQ_INT(mkfifo(fifo, 0600), 0);
	s_refused(fifo, -EINVAL, "a FIFO, not a regular file");
	s_write(path, r, n, 4096);
	T_EQ_INT(symlink(path, link), 0);
	s_refused(link, -ELOOP, "a symlink, not a regular file");
	T_EQ_INT(lst_trace_read(path, 1000, &t, &err), -EFBIG);
	T_CONTAINS(err.msg, "100 records need 2.3 KiB of memory, more than the 1000 B it may use");
	T_ASSERT(t.rec == NULL);
	T_EQ_INT(lst_trace_read(path, n * sizeof(struct lst_trace_rec), &t, &err), 0);
	lst_trace_free(&t);
	free(link);
	free(fifo);
	free(path);
	free(r);
}

static void s_fits(void)
{
	struct lst_trace_rec r[3] = {
		{ .t_ns = 0, .offset = 0, .len = 4096, .op = LST_TRACE_READ },
		{ .t_ns = 10, .offset = 1536, .len = 512, .op = LST_TRACE_WRITE },
		{ .t_ns = 20, .offset = 8192, .len = 8192, .op = LST_TRACE_TRIM },
	};
	char *path = s_path("fits.lstrace");
	struct lst_trace t;
	lst_err err;

	s_write(path, r, 3, 512);
	T_EQ_INT(lst_trace_read(path, 0, &t, &err), 0);
	T_EQ_U64(t.span, 16384);
	T_EQ_INT(lst_trace_fits(&t, 512, 16384, &err), 0);
	T_EQ_INT(lst_trace_fits(&t, 4096, 1 << 20, &err), -EINVAL);
	T_CONTAINS(err.msg, "recorded with 512-byte blocks; this path's are 4096");
	T_CONTAINS(err.msg, "record 1");
	T_EQ_INT(lst_trace_fits(&t, 512, 16383, &err), -EINVAL);
	T_CONTAINS(err.msg, "addresses 16384 bytes; this path has 16383");
	lst_trace_free(&t);

	/* 512-byte trace whose records all happen to be 4 KiB aligned: fits 4096. */
	r[1].offset = 4096, r[1].len = 4096;
	s_write(path, r, 3, 512);
	T_EQ_INT(lst_trace_read(path, 0, &t, &err), 0);
	T_EQ_INT(lst_trace_fits(&t, 4096, 1 << 20, &err), 0);
	lst_trace_free(&t);

	r[2].len = LST_BS_MAX + 4096;
	s_write(path, r, 3, 4096);
	T_EQ_INT(lst_trace_read(path, 0, &t, &err), -EINVAL); /* refused as it is read */
	T_CONTAINS(err.msg, "record 2 is a 16781312-byte I/O; lockstep replays at most");
	free(path);
}

/* The hand-written fixture in blkparse's default format, summary included. */
static void s_blkparse(void)
{
	const char *path = LST_TRACE_FIXTURES "/capture.blkparse.txt";
	struct lst_trace t;
	lst_err err;

	if (lst_trace_read(path, 0, &t, &err))
		T_FAIL("read: %s", err.msg);
	T_EQ_INT(t.blkparse, 1);
	T_EQ_INT(t.lbs, 512);
	T_EQ_U64(t.path_size, 0);
	T_EQ_INT(t.nrec, 6); /* the flush and the other device's Q are skipped */
	T_EQ_INT(t.rec[0].t_ns, 0);
	T_EQ_U64(t.rec[0].offset, 80 * 512);
	T_EQ_INT(t.rec[0].len, 4096);
	T_EQ_INT(t.rec[0].op, LST_TRACE_WRITE);
	T_EQ_INT(t.rec[1].t_ns, 180000);
	T_EQ_U64(t.rec[1].offset, 88 * 512);
	T_EQ_INT(t.rec[2].t_ns, 1000000);
	T_EQ_U64(t.rec[2].offset, 48 * 512);
	T_EQ_INT(t.rec[2].len, 8192);
	T_EQ_INT(t.rec[2].op, LST_TRACE_READ);
	T_EQ_INT(t.rec[3].t_ns, 2000000);
	T_EQ_U64(t.rec[3].offset, 1048576);
	T_EQ_INT(t.rec[3].len, 65536);
	T_EQ_INT(t.rec[3].op, LST_TRACE_TRIM);
	T_EQ_INT(t.rec[4].t_ns, 2500123);
	T_EQ_INT(t.rec[4].len, 131072);
	T_EQ_INT(t.rec[4].op, LST_TRACE_READ);
	T_EQ_INT(t.rec[5].t_ns, 3000000);
	T_EQ_U64(t.rec[5].offset, 1280 * 512);
	T_EQ_INT(t.rec[5].len, 65536);
	T_EQ_INT(t.rec[5].op, LST_TRACE_WRITE);
	T_EQ_INT(t.duration, 3000000);
	T_EQ_U64(t.span, 1048576 + 65536); /* the trim */
	T_EQ_INT(lst_trace_fits(&t, 4096, 1 << 30, &err), 0);
	lst_trace_free(&t);
}

static void s_text(const char *name, const char *text)
{
	char *path = s_path(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	T_ASSERT(fd >= 0);
	T_EQ_INT(lst_write_all(fd, text, strlen(text)), 0);
	close(fd);
	free(path);
}

static void s_blkparse_refusals(void)
{
	char *path = s_path("bad.txt");
	char *want = lst_asprintf("%s:3: not a blkparse event", path);

	s_text("bad.txt", "  8,0    0        1     0.000000000   697  Q   W 8 + 8 [a]\n"
			  "\n"
			  "  8,0    0        2     0.000100000   697\n");
	s_refused(path, -EINVAL, want);
	free(want);
	want = lst_asprintf("%s:2: a Q event without 'SECTOR + NSECTORS'", path);
	s_text("bad.txt", "  8,0    0        1     0.000000000   697  Q   W 8 + 8 [a]\n"
			  "  8,0    0        2     0.000100000   697  Q   W 8 - 8 [a]\n");
	s_refused(path, -EINVAL, want);
	free(want);
	s_text("bad.txt", "  8,0    0        1     0.500000000   697  Q   W 8 + 8 [a]\n"
			  "  8,0    0        2     0.400000000   697  Q   R 8 + 8 [a]\n");
	s_refused(path, -EINVAL, "line 2");
	s_text("bad.txt", "  8,0    0        1     0.500000000   697  Q   W 8 + 8 [a]\n"
			  "  8,0    0        2     0.600000000   697  Q   R 8 + 8 [a]\n"
			  "  8,0    0        3     0.550000000   697  Q   R 9 + 8 [a]\n");
	s_refused(path, -EINVAL, "line 3 goes back in time");
	/* Numbers too large say so, rather than that the fields are missing. */
	s_text("bad.txt", "  8,0    0        1     0.500000000   697  Q   W "
			  "100000000000000000000000 + 8 [a]\n");
	s_refused(path, -EINVAL, "sector 100000000000000000000000 is past the 2^64 bytes");
	s_text("bad.txt", "  8,0    0        1     0.500000000   697  Q   W 8 + 8388608 [a]\n");
	s_refused(path, -EINVAL, "8388608 sectors in one I/O is more than a trace record holds");
	s_text("bad.txt", "  8,0    0        1     0.500000000   697  Q   W 8 + 8388607 [a]\n");
	s_refused(path, -EINVAL, "line 1 is a 4294966784-byte I/O; lockstep replays at most");
	s_text("bad.txt", "CPU0 (8,0):\n Reads Queued:           0,        0KiB\n");
	s_refused(path, -EINVAL, "neither a lockstep trace nor blkparse text with Q events");
	free(path);
}

/* The temporary name a recording writes is created new: a symlink planted there is refused and
 * its target left as it was; a leftover of ours is replaced. */
static void s_write_tmp(void)
{
	struct lst_trace_rec *r = s_records(10);
	char *path = s_path("rec.lstrace"), *tmp = s_path("rec.lstrace.tmp");
	char *victim = s_path("victim"), *text = NULL;
	size_t len = 0;
	lst_err err;
	int fd;

	s_text("victim", "precious\n");
	T_EQ_INT(symlink(victim, tmp), 0);
	T_EQ_INT(lst_trace_write(path, r, 10, 512, 0, &err), -EEXIST);
	T_CONTAINS(err.msg, "rec.lstrace.tmp: already exists as a symlink; not written through it");
	T_EQ_INT(lst_read_file(victim, 100, &text, &len), 0);
	T_EQ_STR(text, "precious\n");
	free(text);
	T_EQ_INT(unlink(tmp), 0);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600); /* a crash's leftover */
	T_ASSERT(fd >= 0);
	close(fd);
	T_EQ_INT(lst_trace_write(path, r, 10, 512, 0, &err), 0);
	free(victim);
	free(tmp);
	free(path);
	free(r);
}

/* The scratch folder goes at exit, after a failure too. */
static void s_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", s_dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", s_dir);
}

int main(void)
{
	if (!mkdtemp(s_dir))
		T_FAIL("mkdtemp failed");
	atexit(s_cleanup);
	s_round_trip();
	s_refusals();
	s_refusals_files();
	s_write_tmp();
	s_fits();
	s_blkparse();
	s_blkparse_refusals();
	return 0;
}
