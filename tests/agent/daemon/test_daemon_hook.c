/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hooks on the agent daemon (agent/daemon/lst_daemon_hook.c), through its private interface on
 * the daemon rig and a real zloop, running real (tiny) shell commands: WELCOME lists hooks.v1
 * and the config's hook and collector names; START's events are refused when they name a hook
 * the config does not define or come before t0, and ignored without hooks.v1; HOOK runs a hook
 * or a collector and answers HOOK_DONE with its output when it ends, holding a pending slot of
 * the reply cache meanwhile, one at a time, and refuses what the config does not define; a
 * started point's events each send one EVENT, those whose instant has not come cancelled when
 * the point's jobs end, so that every EVENT precedes DONE.
 */
#include <czmq.h>
#include <string.h>

#include "lst_daemon_rig.h"
#include "lst_test.h"
#include "lst_time.h"

static char *s_echo[] = { "/bin/sh", "-c", "echo hook ran", NULL };
static char *s_collect[] = { "/bin/sh", "-c", "echo '{\"temp\": 40}'", NULL };
static char *s_slow[] = { "/bin/sh", "-c", "sleep 1", NULL };
static struct lst_config_cmd s_hooks[] = {
	{ .name = "mark", .argv = s_echo, .argc = 3 },
	{ .name = "slow", .argv = s_slow, .argc = 3 },
};
static struct lst_config_cmd s_collectors[] = {
	{ .name = "smart", .argv = s_collect, .argc = 3 },
};

static int s_on_end(zloop_t *loop, int timer_id, void *arg)
{
	(void)loop;
	(void)timer_id;
	(void)arg;
	return -1;
}

static int s_on_frame(zloop_t *loop, zsock_t *sock, void *arg)
{
	(void)loop;
	(void)sock;
	(void)arg;
	return -1; /* leave it to lst_rig_got */
}

/* Run the reactor until coordinator i has a frame waiting (at most 5 s). */
static void s_spin_until_frame(struct lst_rig *r, int i)
{
	int t = zloop_timer(r->d.loop, 5000, 1, s_on_end, NULL);

	T_EQ_INT(zloop_reader(r->d.loop, r->peer[i], s_on_frame, NULL), 0);
	zloop_start(r->d.loop);
	zloop_reader_end(r->d.loop, r->peer[i]);
	zloop_timer_end(r->d.loop, t);
}

static void s_rig_hooks(struct lst_rig *r)
{
	lst_rig_init(r);
	r->d.loop = zloop_new();
	T_ASSERT(r->d.loop);
	r->d.hooks = s_hooks;
	r->d.nhooks = 2;
	r->d.collectors = s_collectors;
	r->d.ncollectors = 1;
	r->d.hook_timeout = 10 * LST_NS_PER_S;
	r->d.sess.active = r->d.sess.known = true;
	r->d.sess.peer = r->rid[0];
	r->d.sess.hooks_cap = true;
}

static void s_rig_hooks_exit(struct lst_rig *r)
{
	lst_daemon__hook_destroy(&r->d);
	zloop_destroy(&r->d.loop);
	lst_rig_exit(r);
}

static void test_welcome(void)
{
	struct lst_rig r;
	struct lst_msg_hello h = { .ncaps = 1 };
	struct lst_msg_welcome w = { 0 };

	s_rig_hooks(&r);
	snprintf(h.caps[0], sizeof(h.caps[0]), "%s", LST_CAP_HOOKS);
	r.d.sess.hooks_cap = false;
	lst_daemon__welcome_hooks(&r.d, &h, &w);
	T_ASSERT(r.d.sess.hooks_cap);
	T_EQ_INT(w.ncaps, 1);
	T_EQ_STR(w.caps[0], LST_CAP_HOOKS);
	T_EQ_INT(w.nhooks, 2);
	T_EQ_STR(w.hooks[1], "slow");
	T_EQ_INT(w.ncollectors, 1);
	T_EQ_STR(w.collectors[0], "smart");

	h.ncaps = 0; /* a coordinator without hooks.v1 */
	lst_daemon__welcome_hooks(&r.d, &h, &w);
	T_ASSERT(!r.d.sess.hooks_cap);
	s_rig_hooks_exit(&r);
}

static lst_msg *s_start(const char *hook, int64_t after)
{
	lst_msg *m = lst_msg_new(LST_MSG_START);

	m->id = 40;
	m->u.start.t0 = lst_mono_ns();
	m->u.start.nevents = 1;
	m->u.start.events[0].id = 1;
	m->u.start.events[0].after = after;
	snprintf(m->u.start.events[0].hook, sizeof(m->u.start.events[0].hook), "%s", hook);
	return m;
}

static void test_events_check(void)
{
	struct lst_rig r;
	lst_msg *m;

	s_rig_hooks(&r);
	m = s_start("mark", 0);
	T_ASSERT(lst_daemon__events_check(&r.d, &r.rid[0], m));
	lst_msg_destroy(&m);

	m = s_start("reboot", 0);
	T_ASSERT(!lst_daemon__events_check(&r.d, &r.rid[0], m));
	lst_rig_got_error(
		&r, 0, LST_PERR_REFUSED,
		"names hook 'reboot', which agent agent-t does not define (its hooks: mark, slow)");

	r.d.sess.hooks_cap = false; /* without hooks.v1, events are ignored, not refused */
	T_ASSERT(lst_daemon__events_check(&r.d, &r.rid[0], m));
	lst_rig_got_nothing(&r, 0);
	lst_msg_destroy(&m);
	r.d.sess.hooks_cap = true;

	m = s_start("mark", -1);
	T_ASSERT(!lst_daemon__events_check(&r.d, &r.rid[0], m));
	lst_rig_got_error(&r, 0, LST_PERR_REFUSED, "before t0");
	lst_msg_destroy(&m);
	s_rig_hooks_exit(&r);
}

static lst_msg *s_hook(uint32_t kind, const char *name, uint64_t id)
{
	lst_msg *m = lst_msg_new(LST_MSG_HOOK);

	m->id = id;
	m->u.hook.kind = kind;
	m->u.hook.phase = 2;
	snprintf(m->u.hook.name, sizeof(m->u.hook.name), "%s", name);
	return m;
}

/* HOOK name of kind from coordinator 0 must be refused with code, text containing want. */
static void s_hook_refused(struct lst_rig *r, uint32_t kind, const char *name, int code,
			   const char *want)
{
	lst_msg *m = s_hook(kind, name, 60);

	lst_daemon__on_hook(&r->d, &r->rid[0], m);
	T_EQ_U64(lst_rig_got_error(r, 0, code, want), 60);
	lst_msg_destroy(&m);
}

static void test_hook_command(void)
{
	struct lst_rig r;
	struct lst_daemon__cached *c;
	lst_msg *m, *done;

	s_rig_hooks(&r);
	m = s_hook(LST_HOOK_HOOK, "mark", 50);
	lst_daemon__on_hook(&r.d, &r.rid[0], m);
	lst_msg_destroy(&m);
	c = lst_daemon__cache_find(&r.d.sess, 50);
	T_ASSERT(c && c->pending); /* a retry meanwhile is not run again */
	s_spin_until_frame(&r, 0);
	done = lst_rig_got(&r, 0, LST_MSG_HOOK_DONE);
	T_EQ_U64(done->re, 50);
	T_EQ_STR(done->u.hook_done.name, "mark");
	T_EQ_INT(done->u.hook_done.r.status, 0);
	T_EQ_STR(done->u.hook_done.r.output, "hook ran\n");
	lst_msg_destroy(&done);
	c = lst_daemon__cache_find(&r.d.sess, 50);
	T_ASSERT(c && !c->pending && c->f.buf); /* HOOK_DONE filled the slot */
	T_ASSERT(!r.d.hc);

	m = s_hook(LST_HOOK_COLLECTOR, "smart", 51);
	lst_daemon__on_hook(&r.d, &r.rid[0], m);
	lst_msg_destroy(&m);
	s_spin_until_frame(&r, 0);
	done = lst_rig_got(&r, 0, LST_MSG_HOOK_DONE);
	T_EQ_INT(done->u.hook_done.kind, LST_HOOK_COLLECTOR);
	T_EQ_STR(done->u.hook_done.r.output, "{\"temp\": 40}\n");
	lst_msg_destroy(&done);

	s_hook_refused(&r, LST_HOOK_HOOK, "smart", LST_PERR_REFUSED,
		       "agent agent-t defines no hook 'smart' (its hooks: mark, slow)");
	s_hook_refused(&r, LST_HOOK_COLLECTOR, "mark", LST_PERR_REFUSED, "(its collectors: smart)");
	s_hook_refused(&r, 7, "mark", LST_PERR_BAD_MESSAGE, "kind 7");

	/* One at a time. */
	m = s_hook(LST_HOOK_HOOK, "slow", 52);
	lst_daemon__on_hook(&r.d, &r.rid[0], m);
	lst_msg_destroy(&m);
	T_ASSERT(r.d.hc);
	s_hook_refused(&r, LST_HOOK_HOOK, "mark", LST_PERR_STATE,
		       "hook 'slow' is still running: one HOOK at a time");
	s_rig_hooks_exit(&r); /* a HOOK still running is let go, not waited for */
}

static void s_finish(lst_daemon *d)
{
	(void)d;
}

/* A started point's events: one EVENT each, through the spool; the one whose instant has not
 * come when the jobs end is cancelled, and says so. */
static void test_point_events(void)
{
	struct lst_rig r;
	struct lst_daemon__point pt = { .state = LST_DAEMON__STARTED, .phase = 3, .point = 4 };
	lst_msg *st = lst_msg_new(LST_MSG_START), *ev;

	s_rig_hooks(&r);
	pt.gen = r.d.sess.gen;
	pt.peer = r.rid[0];
	pt.finish = s_finish;
	pt.t0 = st->u.start.t0 = lst_mono_ns();
	r.d.pt = &pt;
	st->u.start.nevents = 2;
	st->u.start.events[0] = (struct lst_event_req){ .id = 1, .hook = "mark", .after = 0 };
	st->u.start.events[1] =
		(struct lst_event_req){ .id = 2, .hook = "mark", .after = 3600 * LST_NS_PER_S };
	lst_daemon__events_arm(&r.d, &st->u.start);
	T_EQ_INT(pt.nev, 2);
	s_spin_until_frame(&r, 0);
	ev = lst_rig_got(&r, 0, LST_MSG_EVENT);
	T_EQ_INT(ev->u.event.id, 1);
	T_EQ_INT(ev->u.event.phase, 3);
	T_EQ_INT(ev->u.event.r.status, 0);
	lst_msg_destroy(&ev);

	T_ASSERT(lst_daemon__events_pending(&r.d)); /* the jobs end: event 2 is cancelled */
	s_spin_until_frame(&r, 0);
	ev = lst_rig_got(&r, 0, LST_MSG_EVENT);
	T_EQ_INT(ev->u.event.id, 2);
	T_EQ_INT(ev->u.event.r.start, 0); /* never ran */
	T_CONTAINS(ev->u.event.r.text, "before the event's instant t0+3600.000 s");
	lst_msg_destroy(&ev);
	T_ASSERT(!lst_daemon__events_pending(&r.d)); /* DONE may go now */
	T_EQ_INT(pt.events_sent, 2);
	T_EQ_INT(r.d.sess.spool_n, 2); /* EVENTs wait for the ACK like SAMPLEs */
	lst_daemon__events_free(&r.d, &pt);
	r.d.pt = NULL;
	lst_msg_destroy(&st);
	s_rig_hooks_exit(&r);
}

int main(void)
{
	test_welcome();
	test_events_check();
	test_hook_command();
	test_point_events();
	printf("ok: daemon hook\n");
	return 0;
}
