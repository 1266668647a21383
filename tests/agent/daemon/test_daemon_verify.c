/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data integrity on the agent daemon's side (agent/daemon/lst_daemon_verify.c), through its
 * private interface on the daemon rig: JOURNAL pages kept per target in order from 0 (a gap
 * refused with STATE, a page over the codec's bound with BAD_MESSAGE, a journal beyond what an
 * agent keeps with REFUSED, a page from 0 starting the target afresh); a PREPARE's verify
 * settings checked before any I/O (a stamp without verify.v1 in the HELLO, verify without a
 * stamp, a mixed phase, a verifying read without its journal, too many verified write jobs);
 * the verifying reads' maps refused when a journal stream lies past the path's end or when they
 * do not fit mem_max, and sized over the job's region otherwise.
 */
#include <errno.h>
#include <string.h>

#include "lst_daemon_rig.h"
#include "lst_test.h"

/* A journal page of target from stream from: n streams, each with gen = from + k + 1 and the
 * region [0, hi). */
static lst_msg *s_page(uint32_t target, uint32_t from, uint32_t n, uint32_t total, uint64_t hi)
{
	lst_msg *m = lst_msg_new(LST_MSG_JOURNAL);
	struct lst_msg_journal *j = &m->u.journal;
	static uint64_t id = 500;

	m->id = ++id;
	j->target = target;
	j->from = from;
	j->total = total;
	j->nstreams = n;
	for (uint32_t k = 0; k < n && k < LST_JOURNAL_PAGE; k++) {
		j->streams[k].gen = from + k + 1;
		j->streams[k].s.hi = hi;
		j->streams[k].s.bs = 4096;
	}
	return m;
}

/* Page m goes to the agent from coordinator 0; its JOURNAL_OK must say have. */
static void s_journal_ok(struct lst_rig *r, lst_msg *m, uint32_t have)
{
	lst_msg *ok;

	lst_daemon__on_journal(&r->d, &r->rid[0], m);
	ok = lst_rig_got(r, 0, LST_MSG_JOURNAL_OK);
	T_EQ_U64(ok->re, m->id);
	T_EQ_INT(ok->u.journal_ok.target, m->u.journal.target);
	T_EQ_INT(ok->u.journal_ok.have, have);
	lst_msg_destroy(&ok);
	lst_msg_destroy(&m);
}

/* Page m is refused with ERROR code, text containing want. */
static void s_journal_refused(struct lst_rig *r, lst_msg *m, int code, const char *want)
{
	lst_daemon__on_journal(&r->d, &r->rid[0], m);
	T_EQ_U64(lst_rig_got_error(r, 0, code, want), m->id);
	lst_msg_destroy(&m);
}

/* The rig with a session of coordinator 0 that listed verify.v1. */
static void s_rig_session(struct lst_rig *r)
{
	lst_rig_init(r);
	r->d.sess.active = r->d.sess.known = true;
	r->d.sess.peer = r->rid[0];
	r->d.sess.verify_cap = true;
	r->d.mem_max = 1 << 30;
}

static const struct lst_daemon__journal *s_journal(const struct lst_rig *r, uint32_t target)
{
	for (size_t i = 0; i < r->d.sess.njournals; i++)
		if (r->d.sess.journals[i].target == target)
			return &r->d.sess.journals[i];
	return NULL;
}

static void test_journal_pages(void)
{
	struct lst_rig r;
	const struct lst_daemon__journal *j;

	s_rig_session(&r);
	s_journal_ok(&r, s_page(7, 0, 100, 300, 1 << 20), 100);
	s_journal_ok(&r, s_page(7, 100, 128, 300, 1 << 20), 228);
	s_journal_ok(&r, s_page(9, 0, 2, 2, 1 << 20), 2); /* another target, apart */
	s_journal_ok(&r, s_page(7, 228, 72, 300, 1 << 20), 300);
	j = s_journal(&r, 7);
	T_ASSERT(j);
	T_EQ_INT(j->n, 300);
	T_EQ_INT(j->total, 300);
	for (uint32_t k = 0; k < 300; k++)
		T_EQ_INT(j->st[k].gen, k + 1); /* in order, none lost or repeated */
	T_EQ_INT(s_journal(&r, 9)->n, 2);

	/* A gap, a page of a target never started, a page too large, a journal too long. */
	s_journal_refused(&r, s_page(7, 301, 1, 302, 1 << 20), LST_PERR_STATE,
			  "from stream 301, but the agent holds 300");
	s_journal_refused(&r, s_page(8, 5, 1, 6, 1 << 20), LST_PERR_STATE, "holds 0");
	s_journal_refused(&r, s_page(7, 300, LST_JOURNAL_PAGE + 1, 1000, 1 << 20),
			  LST_PERR_BAD_MESSAGE, "at most 128");
	s_journal_refused(&r, s_page(7, 0, 1, 65537, 1 << 20), LST_PERR_REFUSED,
			  "an agent keeps at most 65536");
	T_EQ_INT(s_journal(&r, 7)->n, 300); /* refusals change nothing */

	/* From 0 again: the target afresh. */
	s_journal_ok(&r, s_page(7, 0, 3, 3, 1 << 20), 3);
	T_EQ_INT(s_journal(&r, 7)->n, 3);
	lst_daemon__journal_free(&r.d.sess);
	T_EQ_INT(r.d.sess.njournals, 0);
	lst_rig_exit(&r);
}

/* A PREPARE of one job spec: a verified 4 KiB random write or read of target 7. */
static void s_prepare(struct lst_msg_prepare *p, bool write)
{
	struct lst_jobspec *j = &p->jobs[0];

	memset(p, 0, sizeof(*p));
	p->njobs = 1;
	snprintf(p->name, sizeof(p->name), "verify");
	snprintf(j->target, sizeof(j->target), "ssd");
	snprintf(j->path, sizeof(j->path), "/dev/loopX");
	j->action = LST_ACTION_IO;
	j->w.rw = write ? LST_RW_RANDWRITE : LST_RW_RANDREAD;
	j->w.bs = 4096;
	j->w.jobs = 1;
	j->w.verify = 1;
	j->has_stamp = 1;
	j->stamp.target = 7;
	j->stamp.gen = write ? 1 : 0;
}

static void test_verify_check(void)
{
	struct lst_rig r;
	struct lst_msg_prepare p;
	lst_err err;

	s_rig_session(&r);
	s_prepare(&p, true);
	T_EQ_INT(lst_daemon__verify_check(&r.d, &p, &err), 0);

	r.d.sess.verify_cap = false; /* the coordinator's HELLO did not list verify.v1 */
	T_EQ_INT(lst_daemon__verify_check(&r.d, &p, &err), -EINVAL);
	T_CONTAINS(err.msg, "did not list verify.v1");
	r.d.sess.verify_cap = true;

	p.jobs[0].has_stamp = 0;
	T_EQ_INT(lst_daemon__verify_check(&r.d, &p, &err), -EINVAL);
	T_CONTAINS(err.msg, "has verify but no stamp");
	p.jobs[0].has_stamp = 1;

	p.jobs[0].w.rw = LST_RW_RANDRW;
	p.jobs[0].w.rwmixread = 70;
	T_EQ_INT(lst_daemon__verify_check(&r.d, &p, &err), -EINVAL);
	T_CONTAINS(err.msg, "mixes reads and writes");

	p.jobs[0].w.rw = LST_RW_RANDWRITE;
	p.jobs[0].w.jobs = LST_MAX_STREAMS + 1;
	T_EQ_INT(lst_daemon__verify_check(&r.d, &p, &err), -EINVAL);
	T_CONTAINS(err.msg, "257 verified write jobs");

	/* A verifying read needs its target's journal first. */
	s_prepare(&p, false);
	T_EQ_INT(lst_daemon__verify_check(&r.d, &p, &err), -EINVAL);
	T_CONTAINS(err.msg, "no journal for target ssd (id 7)");
	s_journal_ok(&r, s_page(7, 0, 1, 1, 1 << 20), 1);
	T_EQ_INT(lst_daemon__verify_check(&r.d, &p, &err), 0);
	lst_rig_exit(&r);
}

static void test_vmaps(void)
{
	struct lst_rig r;
	struct lst_msg_prepare p;
	struct lst_daemon__vmaps *vm = NULL;
	uint64_t size[LST_MAX_JOBSPECS] = { 8 << 20 };
	lst_err err;

	s_rig_session(&r);
	s_prepare(&p, true);
	T_EQ_INT(lst_daemon__vmaps_new(&r.d, &p, size, 0, &vm, &err), 0);
	T_ASSERT(!vm); /* nothing read, no map */

	s_prepare(&p, false);
	p.jobs[0].w.offset = 1 << 20;
	p.jobs[0].w.size = 4 << 20;
	s_journal_ok(&r, s_page(7, 0, 2, 2, 8 << 20), 2);
	T_EQ_INT(lst_daemon__vmaps_new(&r.d, &p, size, 0, &vm, &err), 0);
	T_ASSERT(vm && vm->spec[0].on && !vm->spec[1].on);
	T_EQ_U64(vm->spec[0].first_lba, (1 << 20) / 4096);
	T_EQ_U64(vm->spec[0].nunits, (4 << 20) / 4096);
	T_EQ_INT(vm->spec[0].nst, 2);
	T_EQ_INT(vm->spec[0].st[1].gen, 2);
	lst_daemon__vmaps_free(&vm);
	T_ASSERT(!vm);
	lst_daemon__vmaps_free(&vm); /* safe twice */

	/* To the path's end when the region has no size. */
	p.jobs[0].w.size = 0;
	T_EQ_INT(lst_daemon__vmaps_new(&r.d, &p, size, 0, &vm, &err), 0);
	T_EQ_U64(vm->spec[0].nunits, (7 << 20) / 4096);
	lst_daemon__vmaps_free(&vm);

	/* The maps count against mem_max with the rest of the point (need). */
	r.d.mem_max = 64 << 20;
	T_EQ_INT(lst_daemon__vmaps_new(&r.d, &p, size, 64 << 20, &vm, &err), -ENOMEM);
	T_ASSERT(!vm);
	T_CONTAINS(err.msg, "mem_max");

	/* A stream past the path's end: the journal is not this target's. */
	r.d.mem_max = 1 << 30;
	s_journal_ok(&r, s_page(7, 0, 2, 2, 16 << 20), 2);
	T_EQ_INT(lst_daemon__vmaps_new(&r.d, &p, size, 0, &vm, &err), -EINVAL);
	T_ASSERT(!vm);
	T_CONTAINS(err.msg, "past the end of /dev/loopX");
	lst_rig_exit(&r);
}

int main(void)
{
	test_journal_pages();
	test_verify_check();
	test_vmaps();
	printf("ok: daemon verify\n");
	return 0;
}
