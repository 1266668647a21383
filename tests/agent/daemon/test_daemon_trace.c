/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Trace record and replay on the agent daemon (agent/daemon/lst_daemon_trace.c), through its
 * private interface, on files in a scratch folder: a PREPARE's traces read by name from the
 * trace folder (a missing one refused with its file named, nothing kept), a recording's file
 * named and its folder made; the memory a replay adds (records and slots larger than bs) and a
 * recording's; recordings cut to share what mem_max leaves, or refused when even the minimum
 * does not fit; a replayed trace checked against the opened path's block size and size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lst_daemon_int.h"
#include "lst_scratch.h"
#include "lst_test.h"
#include "lst_tracedir.h"

static char s_dir[128]; /* the trace folder */

/* A PREPARE of two job specs, 4 KiB random writes at iodepth 8; none traced. */
static void s_prepare(struct lst_msg_prepare *p)
{
	memset(p, 0, sizeof(*p));
	p->njobs = 2;
	for (uint32_t i = 0; i < p->njobs; i++) {
		struct lst_jobspec *j = &p->jobs[i];

		snprintf(j->path, sizeof(j->path), "/dev/loop%u", i);
		j->action = LST_ACTION_IO;
		j->w.rw = LST_RW_RANDWRITE;
		j->w.bs = 4096;
		j->w.iodepth = 8;
		j->w.jobs = 1;
	}
}

/* A trace named name in the folder: 10 records, the largest of 64 KiB, over 2 MiB. */
static void s_trace_file(const char *name)
{
	struct lst_trace_rec rec[10];
	char file[256];
	lst_err err;

	for (int k = 0; k < 10; k++)
		rec[k] = (struct lst_trace_rec){ .t_ns = k * 1000,
						 .offset = (uint64_t)k * 4096,
						 .len = k == 3 ? 65536 : 4096,
						 .op = k % 2 ? LST_TRACE_WRITE : LST_TRACE_READ };
	rec[9].offset = (2 << 20) - 4096;
	snprintf(file, sizeof(file), "%s/%s", s_dir, name);
	if (lst_trace_write(file, rec, 10, 4096, 4 << 20, &err))
		T_FAIL("%s", err.msg);
}

static void test_new(void)
{
	struct lst_msg_prepare p;
	struct lst_daemon__traces *tr = (void *)1;
	char want[256];
	lst_err err;

	s_prepare(&p);
	T_ASSERT(!lst_daemon__traces_reads(&p));
	T_EQ_INT(lst_daemon__traces_new(s_dir, "a", 1 << 30, &p, &tr, &err), 0);
	T_ASSERT(!tr); /* nothing traced */
	T_EQ_U64(lst_daemon__traces_mem(NULL, &p), 0);

	snprintf(p.jobs[1].w.read_iolog, sizeof(p.jobs[1].w.read_iolog), "missing");
	T_ASSERT(lst_daemon__traces_reads(&p));
	T_ASSERT(lst_daemon__traces_new(s_dir, "a", 1 << 30, &p, &tr, &err) < 0);
	T_ASSERT(!tr);
	T_CONTAINS(err.msg, "missing");

	s_trace_file("replay");
	snprintf(p.jobs[1].w.read_iolog, sizeof(p.jobs[1].w.read_iolog), "replay");
	snprintf(p.jobs[0].w.write_iolog, sizeof(p.jobs[0].w.write_iolog), "rec");
	T_EQ_INT(lst_daemon__traces_new(s_dir, "agent b", 1 << 30, &p, &tr, &err), 0);
	T_ASSERT(tr);
	T_ASSERT(!tr->spec[0].replay && tr->spec[1].replay);
	T_EQ_INT(tr->spec[1].t.nrec, 10);
	T_EQ_INT(tr->spec[1].writes, 5);
	snprintf(want, sizeof(want), "%s/replay", s_dir);
	T_EQ_STR(tr->spec[1].file, want);
	snprintf(want, sizeof(want), "%s/rec.agent_b.0.lstrace", s_dir);
	T_EQ_STR(tr->spec[0].rec_file, want);
	T_ASSERT(tr->spec[0].rec_max > 0);
	T_EQ_U64(tr->spec[1].rec_max, 0);

	/* A replay adds its records and, per I/O in flight, what its largest I/O (64 KiB)
	 * needs beyond bs; a recording its records. */
	T_EQ_U64(lst_daemon__traces_mem(tr, &p),
		 10 * sizeof(struct lst_trace_rec) + 8 * (65536 - 4096));
	T_EQ_U64(lst_daemon__traces_rec_mem(tr, &p),
		 tr->spec[0].rec_max * sizeof(struct lst_trace_rec));
	lst_daemon__traces_free(&tr);
	T_ASSERT(!tr);
	lst_daemon__traces_free(&tr); /* safe twice */
}

static void test_fit(void)
{
	struct lst_msg_prepare p;
	struct lst_daemon__traces tr;
	const uint64_t r = sizeof(struct lst_trace_rec);
	lst_err err;

	s_prepare(&p);
	memset(&tr, 0, sizeof(tr));
	tr.spec[0].rec_max = 100000;
	tr.spec[1].rec_max = 50000;

	/* Room for all: untouched. */
	T_EQ_INT(lst_daemon__traces_fit(&tr, &p, 1000, 1000 + 150000 * r, &err), 0);
	T_EQ_U64(tr.spec[0].rec_max, 100000);
	T_EQ_U64(tr.spec[1].rec_max, 50000);

	/* Room for 120,000 records: each recording gets at most an equal share, 60,000. */
	T_EQ_INT(lst_daemon__traces_fit(&tr, &p, 1000, 1000 + 120000 * r, &err), 0);
	T_EQ_U64(tr.spec[0].rec_max, 60000);
	T_EQ_U64(tr.spec[1].rec_max, 50000);

	/* Not even the minimum each: refused. */
	T_EQ_INT(lst_daemon__traces_fit(&tr, &p, 1000, 1000 + 2 * (LST_DAEMON__REC_MIN - 1) * r,
					&err),
		 -ENOMEM);
	T_CONTAINS(err.msg, "write_iolog");
	T_EQ_INT(lst_daemon__traces_fit(&tr, &p, 2 << 20, 1 << 20, &err), -ENOMEM);
}

static void test_paths(void)
{
	struct lst_msg_prepare p;
	struct lst_daemon__point pt;
	struct lst_daemon__traces *tr = NULL;
	lst_daemon d;
	lst_err err;

	memset(&d, 0, sizeof(d));
	memset(&pt, 0, sizeof(pt));
	d.trace_dir = s_dir;
	s_prepare(&p);
	snprintf(p.jobs[1].w.read_iolog, sizeof(p.jobs[1].w.read_iolog), "replay");
	T_EQ_INT(lst_daemon__traces_new(s_dir, "a", 1 << 30, &p, &tr, &err), 0);
	pt.tr = tr;
	pt.npaths = 2;
	for (int i = 0; i < 2; i++)
		snprintf(pt.paths[i].path, sizeof(pt.paths[i].path), "/dev/loop%d", i);
	pt.paths[0].id.lbs = 512;
	pt.paths[0].id.size = 1 << 20;
	pt.paths[1].id.lbs = 4096;
	pt.paths[1].id.size = 4 << 20;
	T_EQ_INT(lst_daemon__traces_paths(&d, &pt, &p, &err), 0);
	T_EQ_INT(tr->spec[1].lbs, 4096);
	T_EQ_U64(tr->spec[1].size, 4 << 20);
	T_EQ_INT(tr->spec[0].lbs, 512);

	/* The replayed path is too small for the trace's 2 MiB. */
	pt.paths[1].id.size = 1 << 20;
	T_EQ_INT(lst_daemon__traces_paths(&d, &pt, &p, &err), -EINVAL);
	T_CONTAINS(err.msg, "read_iolog ");
	T_CONTAINS(err.msg, "/replay");
	T_CONTAINS(err.msg, "(path /dev/loop1)");

	/* ... or of 8 KiB blocks. */
	pt.paths[1].id.size = 4 << 20;
	pt.paths[1].id.lbs = 8192;
	T_EQ_INT(lst_daemon__traces_paths(&d, &pt, &p, &err), -EINVAL);
	lst_daemon__traces_free(&tr);
}

int main(void)
{
	lst_err err;

	snprintf(s_dir, sizeof(s_dir), "%s/traces", lst_scratch("dtrace"));
	T_EQ_INT(lst_tracedir_make(s_dir, &err), 0);
	test_new();
	test_fit();
	test_paths();
	printf("ok: daemon trace\n");
	return 0;
}
