/* SPDX-License-Identifier: Apache-2.0 */
/*
 * I/O traces: what a recording job writes and what a replaying job reads.
 *
 * lockstep's own format is binary and little-endian: a 64-byte header, then one 24-byte record
 * per I/O in issue order.
 *
 *   header   magic "LSTTRACE" (8), version u32 (1), lbs u32 (logical block size of the path
 *            recorded), nrec u64, path_size u64 (bytes), duration_ns i64 (last issue time),
 *            reserved to 64 bytes (zeros)
 *   record   t_ns i64 (issue time since the point's t0 on the agent's clock), offset u64
 *            (bytes from the path's start), len u32 (bytes), op u8 (enum lst_trace_op),
 *            3 bytes zero
 *
 * A writer fills the header's nrec last (lst_trace_write writes to NAME.tmp and renames), so a
 * file cut short reads as truncated, never as a shorter trace.
 *
 * lst_trace_read also takes `blkparse` text (blktrace's default output): each line
 *   MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS SECTOR + NSECTORS [PROCESS]
 * whose ACTION is Q (queued) becomes one record: time relative to the first Q, offset
 * SECTOR * 512, length NSECTORS * 512, op from RWBS (D: trim, W: write, R: read; others such
 * as flushes with no sectors are skipped). Only the first device seen is taken. lbs is 512.
 */
#ifndef LST_TRACE_H
#define LST_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"

#define LST_TRACE_MAGIC "LSTTRACE"
#define LST_TRACE_VERSION 1
#define LST_TRACE_HEADER 64
#define LST_TRACE_RECORD 24
#define LST_TRACE_MAX_RECORDS (64u * 1024 * 1024) /* 1.5 GiB of records: refused beyond */

enum lst_trace_op {
	LST_TRACE_READ,
	LST_TRACE_WRITE,
	LST_TRACE_TRIM,
};

struct lst_trace_rec {
	int64_t t_ns;
	uint64_t offset;
	uint32_t len;
	uint8_t op; /* enum lst_trace_op */
};

struct lst_trace {
	struct lst_trace_rec *rec; /* nrec records, issue times non-decreasing */
	size_t nrec;
	uint32_t lbs;	    /* the recorded path's logical block size (512 for blkparse) */
	uint64_t path_size; /* the recorded path's size, bytes (0 = unknown: blkparse) */
	uint64_t span;	    /* max(offset + len) over the records */
	uint64_t max_len;   /* the largest record's len */
	int64_t duration;   /* the last record's t_ns */
	int blkparse;	    /* read from blkparse text */
};

/* Write a trace in lockstep's format, atomically (PATH.tmp, then rename). Returns 0 or -errno
 * with err naming the file. */
int lst_trace_write(const char *path, const struct lst_trace_rec *rec, size_t nrec, uint32_t lbs,
		    uint64_t path_size, lst_err *err);

/* Could lst_trace_write write path? Its temporary name is free (lst_file_name_free: a crash's
 * leftover is removed, a symlink or anything else there refused), so a recording is refused
 * before its I/O rather than after. Returns 0 or -EEXIST / -errno with err naming the file. */
int lst_trace_write_check(const char *path, lst_err *err);

/*
 * Read a trace (lockstep's format by its magic, else blkparse text) into *t. Refuses, with one
 * line naming the file and what is wrong (and for text, the line number): a truncated file, a
 * bad magic or version, a record with len 0 or over LST_BS_MAX, an op out of range, issue
 * times that go backwards, an offset or length not a multiple of lbs, more than
 * LST_TRACE_MAX_RECORDS records, a text file with no Q events, a text line over 4 KiB. The file is opened by lst_file's rule (a
 * FIFO, device or symlink is refused, never waited on), and mem_max (0: no bound) bounds the
 * bytes its records may take: a binary trace is refused from its header, before the array is
 * allocated; a text one as soon as it would grow past it. Returns 0 or -errno; on error *t is
 * empty.
 */
int lst_trace_read(const char *path, uint64_t mem_max, struct lst_trace *t, lst_err *err);

/*
 * Can t be replayed on a path of path_size bytes whose logical block size is lbs? Refuses a
 * trace whose offsets or lengths are not multiples of lbs ("recorded with 512-byte blocks; this
 * path's are 4096") and one that addresses past path_size (an I/O larger than LST_BS_MAX was
 * refused as it was read). Returns 0 or -EINVAL with err.
 */
int lst_trace_fits(const struct lst_trace *t, uint32_t lbs, uint64_t path_size, lst_err *err);

void lst_trace_free(struct lst_trace *t);

#endif
