/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan parser tests: good plans come out with every default, inherited value and expansion
 * right; bad plans are refused with every problem at its exact LINE:COL and a message that says
 * what is wrong. Also checks that docs/plan.md is what the schema tables generate and that the
 * plans in examples/ and the docs' worked example validate.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "lst_assert.h"
#include "lst_plan.h"
#include "lst_yaml.h"
#include "lst_test.h"
#include "lst_time.h"
#include "lst_util.h"

static lst_plan *s_parse(const char *text, lst_errlist *errs)
{
	return lst_plan_parse(text, strlen(text), "t.yaml", errs);
}

static void s_dump(const lst_errlist *errs)
{
	fprintf(stderr, "errors (%zu):\n", errs->n);
	lst_errlist_print(errs, stderr);
}

static lst_plan *s_good(int line, const char *text)
{
	lst_errlist errs = { 0 };
	lst_plan *p = s_parse(text, &errs);

	if (!p || errs.n) {
		s_dump(&errs);
		fprintf(stderr, "%s:%d: a good plan was refused\n", __FILE__, line);
		exit(1);
	}
	return p;
}

/*
 * A bad plan: refused with n errors, one of which is "t.yaml:PLACE: ...phrase...". Every
 * error line must carry a place.
 */
static void s_bad(int line, const char *text, size_t n, const char *place, const char *phrase)
{
	lst_errlist errs = { 0 };
	lst_plan *p = s_parse(text, &errs);
	char head[64];
	bool found = false;

	snprintf(head, sizeof(head), "t.yaml:%s: ", place);
	for (size_t i = 0; i < errs.n; i++) {
		int l = 0, c = 0;

		if (sscanf(errs.msg[i], "t.yaml:%d:%d: ", &l, &c) != 2 || l < 1 || c < 1) {
			s_dump(&errs);
			fprintf(stderr, "%s:%d: error without a place: %s\n", __FILE__, line,
				errs.msg[i]);
			exit(1);
		}
		found = found ||
			(!strncmp(errs.msg[i], head, strlen(head)) && strstr(errs.msg[i], phrase));
	}
	if (p || errs.n != n || !found) {
		s_dump(&errs);
		fprintf(stderr, "%s:%d: expected %zu error(s), one at %s containing \"%s\"%s\n",
			__FILE__, line, n, place, phrase, p ? " (but the plan was accepted)" : "");
		exit(1);
	}
	lst_errlist_free(&errs);
}

#define GOOD(text) s_good(__LINE__, (text))
#define BAD(text, place, phrase) s_bad(__LINE__, (text), 1, (place), (phrase))
#define BAD_N(text, n, place, phrase) s_bad(__LINE__, (text), (n), (place), (phrase))

/* Lines 1..8: two agents, one target with a path on each. */
#define HEAD                                                                                       \
	"lockstep: 1\n"                                                                            \
	"name: t\n"                                                                                \
	"agents:\n"                                                                                \
	"  - {name: a, address: \"tcp://127.0.0.1\"}\n"                                            \
	"  - {name: b, address: \"tcp://127.0.0.1:7271\"}\n"                                       \
	"targets:\n"                                                                               \
	"  - name: ssd0\n"                                                                         \
	"    paths: {a: /dev/loop0, b: /dev/loop1}\n"
/* Lines 9..10: one phase named p; its keys start on line 11 at column 5. */
#define PHASE HEAD "phases:\n  - name: p\n"
/* Line 11: a workload whose extra key x starts at column 30. */
#define W(x) PHASE "    workload: {runtime: 10s, " x "}\n"
/* Lines 4..9 for plans that vary the agents (lines 1..3 the same as HEAD). */
#define TOP "lockstep: 1\nname: t\nagents:\n"
#define TAIL                                                                                       \
	"targets:\n"                                                                               \
	"  - name: ssd0\n"                                                                         \
	"    paths: {a: /dev/loop0}\n"                                                             \
	"phases:\n"                                                                                \
	"  - name: p\n"                                                                            \
	"    workload: {runtime: 1s}\n"

/* The full shape from the design brief, every section given. */
static const char s_full[] =
	"lockstep: 1                 # required, must be 1\n"
	"name: px05-dual-port        # required\n"
	"description: \"two ports, two hosts\"\n"
	"lease: 10s\n"
	"on_agent_loss: abort\n"
	"agents:\n"
	"  - {name: a, address: \"tcp://127.0.0.1:7270\", key: keys/a.pub}\n"
	"  - {name: b, address: \"tcp://[::1]\", key: \"/etc/lockstep/b.pub\"}\n"
	"targets:\n"
	"  - name: ssd0\n"
	"    identity: \"naa.5000039c18a0b7c1\"\n"
	"    share: split\n"
	"    paths: {a: /dev/loop0, b: /dev/loop1}\n"
	"defaults: {engine: io_uring, direct: true, interval: 1s}\n"
	"phases:\n"
	"  - name: lat-vs-iops\n"
	"    targets: [ssd0]\n"
	"    suite: snia-iops\n"
	"    workload: {rw: randrw, rwmixread: 70, bs: 4k}\n"
	"    sweep: {jobs: [1, 2, 4], iodepth: [1, 2, 4, 8, 16, 32]}\n"
	"    round: {ramp: 5s, duration: 30s}\n"
	"    steady: {max_rounds: 25, window: 5, track: write_iops, data_excursion: 20, "
	"slope_excursion: 10}\n"
	"    stop: {capacity: 2x, bytes: 10g, runtime: 1h}\n"
	"    curve: {percents: [10, 50, 70, 80, 90, 100], limit_percentile: 99.99, limit: 1ms}\n"
	"    hir: {burst: 5s, gaps: [5s, 10s, 15s, 25s, 50s], repeats: 360, continuous: 1800s}\n"
	"    secure: false\n"
	"    on_agent_loss: continue\n";

static size_t s_opt_index(const char *name)
{
	const struct lst_opt *o = lst_opt_find(lst_workload_opts, name);

	T_ASSERT(o);
	return (size_t)(o - lst_workload_opts);
}

static void test_full(void)
{
	lst_plan *p = s_good(__LINE__, s_full);
	const struct lst_plan_phase *ph = &p->phases[0];
	char *cwd = getcwd(NULL, 0), *key = lst_asprintf("%s/keys/a.pub", cwd);

	T_EQ_INT(p->version, 1);
	T_EQ_STR(p->name, "px05-dual-port");
	T_EQ_STR(p->description, "two ports, two hosts");
	T_EQ_INT(p->lease, 10 * LST_NS_PER_S);
	T_EQ_INT(p->on_agent_loss, LST_ON_LOSS_ABORT);
	T_EQ_INT(p->nagents, 2);
	T_EQ_STR(p->agents[0].address, "tcp://127.0.0.1:7270");
	T_EQ_STR(p->agents[1].address, "tcp://[::1]:7270");
	T_EQ_STR(p->agents[0].key, key);
	T_EQ_STR(p->agents[1].key, "/etc/lockstep/b.pub");
	T_EQ_INT(p->agents[1].mark.line, 8);
	T_EQ_INT(p->ntargets, 1);
	T_EQ_STR(p->targets[0].identity, "naa.5000039c18a0b7c1");
	T_EQ_INT(p->targets[0].share, LST_SHARE_SPLIT);
	T_EQ_INT(p->targets[0].npaths, 2);
	T_EQ_INT(p->targets[0].paths[1].agent, 1);
	T_EQ_STR(p->targets[0].paths[1].path, "/dev/loop1");
	T_EQ_INT(p->targets[0].paths[1].mark.line, 13);
	T_EQ_INT(p->targets[0].paths[1].mark.col, 28);
	T_EQ_INT(p->nphases, 1);
	T_EQ_STR(ph->name, "lat-vs-iops");
	T_EQ_INT(ph->mark.line, 16);
	T_EQ_INT(ph->mark.col, 5);
	T_EQ_INT(ph->suite, LST_SUITE_SNIA_IOPS);
	T_EQ_STR(lst_suite_names[ph->suite], "snia-iops");
	T_EQ_INT(ph->ntargets, 1);
	T_EQ_INT(ph->w.rw, LST_RW_RANDRW);
	T_EQ_INT(ph->w.rwmixread, 70);
	T_EQ_INT(ph->w.interval, LST_NS_PER_S);
	T_EQ_INT(ph->w.engine, LST_ENGINE_IO_URING);
	T_EQ_INT(ph->naxes, 2);
	T_EQ_U64(lst_plan_phase_points(ph), 18);
	T_EQ_INT(ph->round_ramp, 5 * LST_NS_PER_S);
	T_EQ_INT(ph->round_duration, 30 * LST_NS_PER_S);
	T_ASSERT(ph->steady);
	T_EQ_INT(ph->max_rounds, 25);
	T_EQ_INT(ph->window, 5);
	T_EQ_INT(ph->track, LST_TRACK_WRITE_IOPS);
	T_EQ_STR(lst_track_names[ph->track], "write_iops");
	T_NEAR(ph->data_excursion_pct, 20, 0);
	T_NEAR(ph->slope_excursion_pct, 10, 0);
	T_NEAR(ph->stop_capacity, 2, 0);
	T_EQ_INT(ph->stop_bytes, 10LL << 30);
	T_EQ_INT(ph->stop_runtime, 3600 * LST_NS_PER_S);
	T_EQ_INT(ph->ncurve, 6);
	T_NEAR(ph->curve_pcts[5], 100, 0);
	T_NEAR(ph->limit_percentile, 99.99, 1e-9);
	T_EQ_INT(ph->limit_ns, LST_NS_PER_MS);
	T_EQ_INT(ph->hir_burst, 5 * LST_NS_PER_S);
	T_EQ_INT(ph->nhir_gaps, 5);
	T_EQ_INT(ph->hir_gaps[4], 50 * LST_NS_PER_S);
	T_EQ_INT(ph->hir_repeats, 360);
	T_EQ_INT(ph->hir_continuous, 1800 * LST_NS_PER_S);
	T_ASSERT(!ph->secure);
	T_EQ_INT(ph->on_agent_loss, LST_ON_LOSS_CONTINUE);
	T_ASSERT(strstr(p->text, "px05-dual-port"));
	T_EQ_STR(p->file, "t.yaml");
	T_EQ_STR(p->dir, cwd);
	T_EQ_INT(lst_plan_agent_index(p, "b"), 1);
	T_EQ_INT(lst_plan_agent_index(p, "c"), -1);
	T_EQ_INT(lst_plan_target_index(p, "ssd0"), 0);
	T_EQ_INT(lst_plan_target_index(p, "ssd1"), -1);
	lst_plan_destroy(&p);
	T_ASSERT(p == NULL);
	lst_plan_destroy(&p); /* safe twice */
	free(key);
	free(cwd);
}

static void test_defaults(void)
{
	lst_plan *p = GOOD("lockstep: 1\n"
			   "name: d\n"
			   "on_agent_loss: continue\n"
			   "agents: [{name: a, address: \"tcp://h\"}]\n"
			   "targets: [{name: t0, paths: {a: /dev/sdb}},\n"
			   "          {name: t1, paths: {a: /dev/sdc}}]\n"
			   "defaults: {engine: psync, bs: 8k, runtime: 30s}\n"
			   "phases:\n"
			   "  - name: p\n"
			   "    workload: {iodepth: 8}\n"
			   "  - name: q\n"
			   "    on_agent_loss: abort\n"
			   "    steady:\n"
			   "    round: {duration: 1m}\n");
	const struct lst_plan_phase *ph = &p->phases[0], *q = &p->phases[1];

	T_EQ_INT(p->lease, 10 * LST_NS_PER_S);
	T_EQ_INT(p->retry_wait, 60 * LST_NS_PER_S);
	T_EQ_INT(p->retries, 3);
	T_ASSERT(p->description == NULL);
	T_ASSERT(p->agents[0].key == NULL);
	T_EQ_STR(p->agents[0].address, "tcp://h:7270");
	T_EQ_INT(p->targets[0].share, LST_SHARE_SPLIT);
	T_ASSERT(p->targets[0].identity == NULL);
	/* plan defaults over table defaults */
	T_EQ_INT(p->defaults.engine, LST_ENGINE_PSYNC);
	T_EQ_INT(p->defaults.iodepth, 1);
	/* the phase: table defaults, then defaults:, then workload: */
	T_EQ_INT(ph->suite, LST_SUITE_NONE);
	T_EQ_INT(ph->w.engine, LST_ENGINE_PSYNC);
	T_EQ_INT(ph->w.bs, 8192);
	T_EQ_INT(ph->w.runtime, 30 * LST_NS_PER_S);
	T_EQ_INT(ph->w.iodepth, 8);
	T_EQ_INT(ph->w.rw, LST_RW_RANDREAD);
	T_EQ_INT(ph->w.interval, LST_NS_PER_S);
	/* w_set says what the phase's own workload: gave, not what defaults: gave */
	T_ASSERT(ph->w_set[s_opt_index("iodepth")]);
	T_ASSERT(!ph->w_set[s_opt_index("bs")]);
	T_ASSERT(!ph->w_set[s_opt_index("engine")]);
	T_ASSERT(!q->w_set[s_opt_index("iodepth")]);
	/* every target by default */
	T_EQ_INT(ph->ntargets, 2);
	T_EQ_INT(ph->targets[1], 1);
	/* the plan's on_agent_loss unless the phase says otherwise */
	T_EQ_INT(ph->on_agent_loss, LST_ON_LOSS_CONTINUE);
	T_EQ_INT(q->on_agent_loss, LST_ON_LOSS_ABORT);
	/* section defaults */
	T_ASSERT(!ph->steady);
	T_EQ_INT(ph->round_duration, 0);
	T_EQ_INT(ph->max_rounds, 25);
	T_EQ_INT(ph->window, 5);
	T_EQ_INT(ph->track, LST_TRACK_IOPS);
	T_NEAR(ph->data_excursion_pct, 20, 0);
	T_NEAR(ph->slope_excursion_pct, 10, 0);
	T_NEAR(ph->stop_capacity, 0, 0);
	T_EQ_INT(ph->stop_bytes, 0);
	T_EQ_INT(ph->ncurve, 6);
	T_NEAR(ph->curve_pcts[0], 10, 0);
	T_NEAR(ph->curve_pcts[3], 80, 0);
	T_NEAR(ph->limit_percentile, 0, 0);
	T_EQ_INT(ph->hir_burst, 5 * LST_NS_PER_S);
	T_EQ_INT(ph->nhir_gaps, 5);
	T_EQ_INT(ph->hir_gaps[3], 25 * LST_NS_PER_S);
	T_EQ_INT(ph->hir_repeats, 360);
	T_EQ_INT(ph->hir_continuous, 1800 * LST_NS_PER_S);
	T_EQ_INT(ph->naxes, 0);
	T_EQ_U64(lst_plan_phase_points(ph), 1);
	/* an empty steady: turns steady state on with its defaults */
	T_ASSERT(q->steady);
	T_EQ_INT(q->round_duration, 60 * LST_NS_PER_S);
	lst_plan_destroy(&p);
}

static void test_sweep(void)
{
	lst_plan *p = GOOD(PHASE "    workload: {runtime: 10s, iodepth: 16, rw: randrw}\n"
				 "    sweep: {jobs: [1, 2], iodepth: [1, 8], bs: [4k, 512, 1m]}\n");
	const struct lst_plan_phase *ph = &p->phases[0];
	struct lst_workload w;
	char label[128];

	T_EQ_INT(ph->naxes, 3);
	T_EQ_STR(ph->axes[0].opt->name, "jobs");
	T_EQ_STR(ph->axes[1].opt->name, "iodepth");
	T_EQ_INT(ph->axes[2].values[1], 512);
	T_EQ_INT(ph->axes[1].mark.line, 12);
	T_EQ_INT(ph->axes[1].mark.col, 27);
	T_EQ_U64(lst_plan_phase_points(ph), 12);
	/* the first axis is the outermost loop, the last moves fastest */
	lst_plan_phase_point(ph, 0, &w, label, sizeof(label));
	T_EQ_STR(label, "jobs=1 iodepth=1 bs=4k");
	T_EQ_INT(w.jobs, 1);
	T_EQ_INT(w.iodepth, 1);
	T_EQ_INT(w.bs, 4096);
	T_EQ_INT(w.rw, LST_RW_RANDRW);
	T_EQ_INT(w.runtime, 10 * LST_NS_PER_S);
	lst_plan_phase_point(ph, 1, &w, label, sizeof(label));
	T_EQ_STR(label, "jobs=1 iodepth=1 bs=512");
	lst_plan_phase_point(ph, 2, &w, label, sizeof(label));
	T_EQ_STR(label, "jobs=1 iodepth=1 bs=1m");
	lst_plan_phase_point(ph, 3, &w, label, sizeof(label));
	T_EQ_STR(label, "jobs=1 iodepth=8 bs=4k");
	T_EQ_INT(w.iodepth, 8);
	lst_plan_phase_point(ph, 6, &w, label, sizeof(label));
	T_EQ_STR(label, "jobs=2 iodepth=1 bs=4k");
	T_EQ_INT(w.jobs, 2);
	lst_plan_phase_point(ph, 11, &w, NULL, 0);
	T_EQ_INT(w.jobs, 2);
	T_EQ_INT(w.iodepth, 8);
	T_EQ_INT(w.bs, 1024 * 1024);
	/* the phase's own workload is not changed by expanding it */
	T_EQ_INT(ph->w.iodepth, 16);
	/* a short label buffer is cut, not overrun */
	lst_plan_phase_point(ph, 11, &w, label, 8);
	T_EQ_INT(strlen(label), 7);
	lst_plan_destroy(&p);

	/* the order written is the nesting, whatever the table order */
	p = GOOD(PHASE "    round: {duration: 1s}\n"
		       "    sweep: {rwmixread: [0, 70], jobs: [4, 2]}\n");
	lst_plan_phase_point(&p->phases[0], 1, &w, label, sizeof(label));
	T_EQ_STR(label, "rwmixread=0 jobs=2");
	lst_plan_destroy(&p);
}

/* Every workload option but the phase-wide few is an axis: scalar and structured alike. */
static void test_sweep_options(void)
{
	lst_plan *p = GOOD(
		PHASE "    workload: {runtime: 1s, rw: write, bs: 64k}\n"
		      "    sweep: {pattern: [zeros, compressible=50, random], size: [1g, 900m],"
		      " offset: [0, 1m]}\n");
	const struct lst_plan_phase *ph = &p->phases[0];
	struct lst_workload w;
	char label[256], buf[LST_OPT_WIRE_MAX];

	T_EQ_U64(lst_plan_phase_points(ph), 12);
	lst_plan_phase_point(ph, 0, &w, label, sizeof(label));
	T_EQ_STR(label, "pattern=zeros size=1g offset=0");
	T_EQ_INT(w.pattern, 0);
	lst_plan_phase_point(ph, 7, &w, label, sizeof(label));
	T_EQ_STR(label, "pattern=compressible=50 size=900m offset=1m");
	T_EQ_INT(w.pattern, 50);
	T_EQ_INT(w.size, 900LL << 20);
	T_EQ_INT(w.offset, 1 << 20);
	T_EQ_INT(w.bs, 65536);
	lst_plan_destroy(&p);

	p = GOOD(PHASE "    workload: {runtime: 1s, rw: randrw}\n"
		       "    sweep: {random_distribution: [random, \"zipf:1.2\"], bssplit: [none, "
		       "4k/70:64k/30], dedupe_percentage: [0, 50], rw: [randread, randwrite]}\n");
	ph = &p->phases[0];
	T_EQ_U64(lst_plan_phase_points(ph), 16);
	lst_plan_phase_point(ph, 15, &w, label, sizeof(label));
	T_EQ_STR(label, "random_distribution=zipf:1.2 bssplit=4k/70:64k/30 dedupe_percentage=50 "
			"rw=randwrite");
	T_EQ_STR(lst_opt_format(lst_opt_find(lst_workload_opts, "random_distribution"), &w, buf,
				sizeof(buf)),
		 "zipf:1.2");
	T_EQ_INT(w.bssplit.n[0], 2);
	T_EQ_INT(w.dedupe_percentage, 50);
	T_EQ_INT(w.rw, LST_RW_RANDWRITE);
	/* an earlier point keeps the workload's own values of the structured options */
	lst_plan_phase_point(ph, 0, &w, label, sizeof(label));
	T_EQ_STR(label, "random_distribution=random bssplit=none dedupe_percentage=0 rw=randread");
	T_EQ_INT(w.bssplit.n[0], 0);
	T_EQ_INT(w.rw, LST_RW_RANDREAD);
	lst_plan_destroy(&p);
}

static void test_keys(void)
{
	static const char z85[] = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
	lst_plan *p;
	char *text;

	/* a relative key file is made absolute against the plan's folder */
	text = lst_asprintf(TOP "  - {name: a, address: \"tcp://h\", key: keys/a.pub}\n"
				"  - {name: b, address: \"tcp://h2\", key: \"%s\"}\n" TAIL,
			    z85);
	p = lst_plan_parse(text, strlen(text), "/srv/plans/x.yaml", NULL);
	T_ASSERT(p);
	T_EQ_STR(p->dir, "/srv/plans");
	T_EQ_STR(p->agents[0].key, "/srv/plans/keys/a.pub");
	T_EQ_STR(p->agents[1].key, z85); /* Z85 key text is kept as is */
	lst_plan_destroy(&p);
	p = lst_plan_parse(text, strlen(text), "/x.yaml", NULL);
	T_ASSERT(p);
	T_EQ_STR(p->dir, "/");
	lst_plan_destroy(&p);
	p = lst_plan_parse(text, strlen(text), "./sub/x.yaml", NULL);
	T_ASSERT(p);
	T_ASSERT(p->dir[0] == '/');
	T_ASSERT(strstr(p->agents[0].key, "/sub/keys/a.pub"));
	T_ASSERT(!strstr(p->agents[0].key, "/./"));
	lst_plan_destroy(&p);
	free(text);
}

static void test_bad_workload(void)
{
	BAD(W("iodepth: 0"), "11:39", "iodepth must be between 1 and 4096");
	BAD(W("iodepth: -1"), "11:39", "iodepth must be between 1 and 4096");
	BAD(W("iodepth: deep"), "11:39", "iodepth: 'deep' is not a whole number");
	BAD(W("iodepth: {a: 1}"), "11:39", "iodepth must be a single value, not a map");
	BAD(W("iodepth: [1, 2]"), "11:39", "iodepth must be a single value, not a list");
	BAD(W("iodepth: ~"), "11:39", "iodepth needs a value");
	BAD(W("jobs: 1000"), "11:36", "jobs must be between 1 and 256");
	BAD(W("bs: 1000"), "11:34", "bs 1000 is not a multiple of 512 bytes");
	BAD(W("bs: 32m"), "11:34", "bs must be between 512 B and 16 MiB");
	BAD(W("rwmixread: 101"), "11:41", "rwmixread must be between 0 and 100");
	BAD(W("size: 4q"), "11:36", "unknown size suffix 'q'");
	BAD(W("offset: lots"), "11:38", "'lots' is not a size");
	BAD(W("ramp: 5parsecs"), "11:36", "unknown time unit 'parsecs'");
	BAD(W("rw: randrr"), "11:34", "'randrr' is not one of read|write|randread");
	BAD(W("engine: spdk"), "11:38", "'spdk' is not one of io_uring|psync|null");
	BAD(W("pattern: lz4"), "11:39", "is not a data pattern");
	BAD(W("direct: maybe"), "11:38", "is not a boolean");
	BAD(W("iodpeth: 4"), "11:30",
	    "unknown key 'iodpeth' in workload (did you mean 'iodepth'?)");
	BAD(W("colour: red"), "11:30", "unknown key 'colour' in workload (keys: rw, rwmixread");
	BAD(W("jobs: 4, rate_iops: 2"), "11:50", "rate_iops 2 is below one I/O per second per job");
	BAD(PHASE "    workload: {runtime: 0}\n", "11:25",
	    "runtime must be > 0; leave it out to stop by bytes");
	BAD(PHASE "    workload: [runtime]\n", "11:15",
	    "workload must be a map of key: value, not a list");
	BAD(HEAD "defaults: {iodepth: 0}\nphases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "9:21", "iodepth must be between 1 and 4096");
	BAD(HEAD "defaults: {bs: 1000}\nphases:\n  - name: p\n    workload: {runtime: 1s}\n"
		 "  - name: q\n    workload: {runtime: 1s}\n",
	    "9:16", "defaults: bs 1000 is not a multiple of 512 bytes");
	BAD(HEAD "defaults: {runtime: 0}\nphases:\n  - name: p\n", "9:21", "runtime must be > 0");
	BAD(HEAD "defaults: {iodpth: 2}\nphases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "9:12", "unknown key 'iodpth' in defaults (did you mean 'iodepth'?)");
}

static void test_bad_phase(void)
{
	BAD(PHASE "    workload: {bs: 4k}\n", "10:5", "phase p: no stop condition");
	BAD(PHASE "    wrokload: {runtime: 1s}\n    round: {duration: 1s}\n", "11:5",
	    "phase p: unknown key 'wrokload' (did you mean 'workload'?)");
	BAD(PHASE "    round: {duration: 1s}\n    suite: snia-foo\n", "12:12",
	    "suite: 'snia-foo' is not one of none|purge|precondition|snia-iops");
	BAD(PHASE "    targets: [ssd0, ssd9]\n    workload: {runtime: 1s}\n", "11:21",
	    "unknown target 'ssd9' (known: ssd0)");
	BAD(PHASE "    targets: [ssd0, ssd0]\n    workload: {runtime: 1s}\n", "11:21",
	    "target 'ssd0' is listed twice");
	BAD(PHASE "    targets: []\n    workload: {runtime: 1s}\n", "11:14",
	    "targets must list at least one target");
	BAD(PHASE "    targets: ssd0\n    workload: {runtime: 1s}\n", "11:14",
	    "targets must be a list");
	BAD(PHASE "    round: [10s]\n", "11:12", "round must be a map of key: value, not a list");
	BAD(PHASE "    round: {ramp: 5s}\n", "11:12", "missing required key 'duration' in round");
	BAD(PHASE "    round: {duration: 0}\n", "11:23", "round: duration must be between 10 ms");
	BAD(PHASE "    round: {durration: 5s, duration: 5s}\n", "11:13",
	    "unknown key 'durration' in round (did you mean 'duration'?)");
	BAD(PHASE "    round: {duration: 10s}\n    steady: {max_rounds: 4, window: 5}\n", "12:37",
	    "steady: window 5 is more than max_rounds 4");
	BAD(PHASE "    round: {duration: 10s}\n    steady: {window: 1}\n", "12:22",
	    "steady: window must be between 2 and 1000");
	BAD(PHASE "    round: {duration: 10s}\n    steady: {track: latency}\n", "12:21",
	    "'latency' is not one of iops|read_iops|write_iops");
	BAD(PHASE "    round: {duration: 10s}\n    steady: {data_excursion: 0}\n", "12:30",
	    "steady: data_excursion must be > 0 and <= 100");
	BAD(PHASE "    workload: {runtime: 10s}\n    steady: {}\n", "12:5",
	    "steady state repeats rounds");
	BAD(PHASE "    stop: {bytes: 1g, capacity: 0x}\n", "11:33",
	    "stop: capacity must be more than 0");
	BAD(PHASE "    stop: {bytes: 1g, capacity: lots}\n", "11:33",
	    "is not a multiple of the capacity");
	BAD(PHASE "    stop: {bytes: 0, runtime: 1s}\n", "11:19",
	    "stop: bytes must be between 1 B");
	BAD(PHASE "    suite: curve\n    curve: {percents: [10, 70, 50]}\n", "12:32",
	    "curve: percents must go up: 50 after 70");
	BAD(PHASE "    suite: curve\n    curve: {percents: [0, 50]}\n", "12:24",
	    "curve: percents must be > 0 and <= 100");
	BAD(PHASE "    suite: curve\n    curve: {percents: []}\n", "12:23",
	    "curve: percents needs at least one value");
	BAD(PHASE "    suite: curve\n    curve: {limit: 1ms}\n", "12:20",
	    "curve: limit needs limit_percentile");
	BAD(PHASE "    suite: snia-hir\n    hir: {gaps: [5s, 0s]}\n", "12:22",
	    "gaps must be between 100 ms");
	BAD(PHASE "    suite: snia-xsr\n    xsr: {segments: [8h, 6h]}\n", "12:21",
	    "xsr: segments needs exactly three lengths, not 2");
	BAD(PHASE "    suite: snia-dirth\n    dirth: {histogram: 1ms}\n", "12:24",
	    "histogram must be between 100 ms");
	BAD(PHASE "    workload: {runtime: 1s}\n    secure: true\n", "12:5",
	    "secure: true applies only to suite: purge");
	BAD(PHASE "    workload: {runtime: 1s}\n    on_agent_loss: redo\n", "12:20",
	    "'redo' is not one of abort|continue|retry");
	BAD(HEAD "retry_wait: 0s\nphases:\n  - {name: p, workload: {runtime: 1s}}\n", "9:13",
	    "retry_wait must be");
	BAD(HEAD "retries: 101\nphases:\n  - {name: p, workload: {runtime: 1s}}\n", "9:10",
	    "retries must be");
	BAD(HEAD "phases:\n  - name: \"p q\"\n    workload: {runtime: 1s}\n", "10:11",
	    "name 'p q' may only use letters, digits");
	BAD(HEAD "phases:\n  - name: "
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
		 "    workload: {runtime: 1s}\n",
	    "10:11", "at most 63");
	BAD(HEAD "phases:\n  - workload: {runtime: 1s}\n", "10:5",
	    "phase 1: missing required key 'name'");
	BAD(PHASE "    workload: {runtime: 1s}\n  - name: p\n    workload: {runtime: 1s}\n",
	    "12:11", "duplicate phase name 'p' (first at 10:11)");
	BAD(HEAD, "1:1", "missing required key 'phases' in the plan");
	BAD(HEAD "phases: []\n", "9:9", "phases must list at least one phase");
	BAD(HEAD "phases:\n  - just text\n", "10:5", "phase must be a map of key: value, not text");
}

static void test_bad_sweep(void)
{
	lst_plan *p;

	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {jobs: [1], iodepth: []}\n", "12:33",
	    "sweep: iodepth needs at least one value");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {iodepht: [1, 2]}\n", "12:13",
	    "sweep: unknown axis 'iodepht' (did you mean 'iodepth'?)");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {color: [1, 2]}\n", "12:13",
	    "sweep: unknown axis 'color' (axes: any workload option, or ports for sets of paths)");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {runtime: [1s]}\n", "12:13",
	    "sweep: runtime cannot be swept: every point of a phase lasts as long");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {interval: [1s, 2s]}\n", "12:13",
	    "sweep: interval cannot be swept: a phase's samples share one interval");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {read_iolog: [t1, t2]}\n", "12:13",
	    "sweep: read_iolog cannot be swept: a trace is replayed per phase");
	/* every new axis: a bad value refused at its own place, as the workload key would be */
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {pattern: [zeros, compressible=0]}\n",
	    "12:30", "sweep: pattern: 'compressible=0' is not a data pattern");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {pattern: [random, compressible=100]}\n",
	    "12:31", "sweep: pattern value 'compressible=100' is listed twice");
	BAD(PHASE "    workload: {runtime: 1s, bs: 64k}\n    sweep: {size: [1g, 4k]}\n", "12:24",
	    "sweep: size 4096 is smaller than one block");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {offset: [0, 1000]}\n", "12:25",
	    "sweep: offset 1000 is not a multiple of 512 bytes");
	BAD(PHASE
	    "    workload: {runtime: 1s}\n    sweep: {random_distribution: [zipf:1.2, pareto]}\n",
	    "12:45", "sweep: random_distribution:");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {bssplit: [4k/70:64k/20]}\n", "12:23",
	    "sweep: bssplit: shares add to 90, not 100");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {dedupe_percentage: [0, 101]}\n",
	    "12:36", "sweep: dedupe_percentage must be between 0 and 100");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {rw: [randread, randrwx]}\n", "12:28",
	    "did you mean 'randrw'?");
	/* a suite runs its grid once per value of any other axis; a bad value is refused at its
	 * place as in a plain phase, and a purge, with no workload to vary, refuses the axis */
	p = GOOD(PHASE
		 "    suite: snia-iops\n    sweep: {pattern: [zeros, random], size: [8m, 16m]}\n");
	lst_plan_destroy(&p);
	BAD(PHASE "    suite: snia-iops\n    sweep: {pattern: [zeros, compressible=150]}\n",
	    "12:30", "sweep: pattern: 'compressible=150' is not a data pattern");
	BAD(PHASE "    suite: purge\n    sweep: {size: [8m, 16m]}\n", "12:13",
	    "sweep: suite purge runs one discard, not a grid to run again per value of size");
	/* each mix entry gives its own region */
	BAD(PHASE "    workload: {runtime: 1s, mix: [{share: 100, rw: randread}]}\n"
		  "    sweep: {size: [1g, 2g]}\n",
	    "12:5", "sweep over size with a mix");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {iodepth: [1, 5000]}\n", "12:26",
	    "sweep: iodepth must be between 1 and 4096");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {iodepth: 4}\n", "12:22",
	    "iodepth must be a list");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {iodepth: [1, 1]}\n", "12:26",
	    "sweep: iodepth value '1' is listed twice");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {bs: [4k, 1000]}\n", "12:22",
	    "sweep: bs 1000 is not a multiple of 512 bytes");
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {}\n", "12:12",
	    "sweep must name at least one axis");
	/* each value is fine alone; one combination is not */
	BAD(PHASE "    workload: {runtime: 1s}\n    sweep: {jobs: [1, 4], rate_iops: [2, 100]}\n",
	    "12:5", "sweep point 'jobs=4 rate_iops=2': rate_iops 2 is below one I/O");
}

static void test_bad_agents_targets(void)
{
	BAD(TOP "  - {name: a, address: \"tcp://h\", adress: x}\n" TAIL, "4:35",
	    "agent a: unknown key 'adress' (did you mean 'address'?)");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\n  - {name: a, address: \"tcp://h2\"}\n" TAIL,
	    "5:12", "duplicate agent name 'a' (first at 4:12)");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\n  - {address: \"tcp://h2\"}\n" TAIL, "5:5",
	    "agent 2: missing required key 'name'");
	BAD(TOP "  - {name: a}\n" TAIL, "4:5", "agent a: missing required key 'address'");
	BAD(TOP "  - {name: a, address: \"h:7270\"}\n" TAIL, "4:24",
	    "address 'h:7270' must start with tcp://");
	BAD(TOP "  - {name: a, address: \"tcp://h:70000\"}\n" TAIL, "4:24",
	    "port '70000'; a port is a number from 1 to 65535");
	BAD(TOP "  - {name: a, address: \"tcp://h:0\"}\n" TAIL, "4:24", "port '0'");
	BAD(TOP "  - {name: a, address: \"tcp://h:http\"}\n" TAIL, "4:24", "port 'http'");
	BAD(TOP "  - {name: a, address: \"tcp://:7270\"}\n" TAIL, "4:24", "has no host");
	BAD(TOP "  - {name: a, address: \"tcp://[::1\"}\n" TAIL, "4:24", "unclosed");
	BAD(TOP "  - {name: a, address: \"tcp://h\", key: \"\"}\n" TAIL, "4:40",
	    "key must not be empty");
	BAD(TOP "  - {name: a, address: {host: h}}\n" TAIL, "4:24",
	    "address must be a single value, not a map");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\n"
		"  - {name: b, address: \"tcp://h:7270\"}\n" TAIL,
	    "5:24", "address tcp://h:7270 is also agent a's");
	BAD_N(TOP "  []\n" TAIL, 2, "4:3", "agents must list at least one agent");
	BAD_N(TOP "  []\n" TAIL, 2, "7:13",
	      "path for agent 'a', which is not in agents (known: none)");
	BAD_N("lockstep: 1\nname: t\nagents: {name: a}\n" TAIL, 2, "3:9",
	      "agents must be a list (- item, or [a, b]), not a map");
	BAD(HEAD "phases:\n  - name: p\n    workload: {runtime: 1s}\ncolour: red\n", "12:1",
	    "unknown key 'colour' in the plan (keys: lockstep, name");
	BAD_N(HEAD "phsaes:\n  - name: p\n", 2, "9:1",
	      "unknown key 'phsaes' in the plan (did you mean 'phases'?)");
	BAD("lockstep: 1\nname: t\nagents:\n  - {name: a, address: \"tcp://h\"}\n"
	    "  - {name: b, address: \"tcp://h2\"}\n"
	    "targets:\n  - name: ssd0\n    paths: {a: /dev/loop0, c: /dev/sdc}\n"
	    "phases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "8:28", "target ssd0: path for agent 'c', which is not in agents (known: a, b)");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n  - name: ssd0\n    colour: red\n"
		"    paths: {a: /dev/loop0}\nphases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "7:5", "target ssd0: unknown key 'colour' (keys: name, identity, share, paths)");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n  - name: ssd0\n"
		"phases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "6:5", "target ssd0: missing required key 'paths'");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n  - name: ssd0\n    paths: {}\n"
		"phases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "7:12", "paths must map at least one agent");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n  - name: ssd0\n"
		"    paths: {a: dev/sdb}\nphases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "7:16", "path 'dev/sdb' for agent 'a' must be absolute");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n  - name: ssd0\n"
		"    share: splt\n    paths: {a: /dev/sdb}\n"
		"phases:\n  - name: p\n    workload: {runtime: 1s}\n",
	    "7:12", "share: 'splt' is not one of split|shared");
	BAD(TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n"
		"  - {name: t0, paths: {a: /dev/sdb}}\n"
		"  - {name: t1, paths: {a: /dev/sdb}}\nphases:\n  - name: p\n"
		"    workload: {runtime: 1s}\n",
	    "7:24", "target t1: path /dev/sdb on agent a is also a path of target t0");
}

/*
 * Limits that the run relies on are checked here, at a place in the file: no plan that
 * validates fails at run time (after its first phases ran) or is cut short on the wire.
 */
static void test_limits(void)
{
	char *text = lst_malloc(1 << 20), *long_path = lst_malloc(2048);
	lst_plan *p;
	size_t n;

	BAD(PHASE "    suite: snia-hir\n    hir: {repeats: 10001}\n", "12:20",
	    "repeats must be between 1 and 10000");
	p = GOOD(PHASE "    suite: snia-hir\n    hir: {repeats: 10000}\n");
	lst_plan_destroy(&p);

	/* 200 x 100 points: more than a phase may have */
	n = (size_t)sprintf(text, PHASE "    workload: {runtime: 1s}\n    sweep: {jobs: [1");
	for (int j = 2; j <= 200; j++)
		n += (size_t)sprintf(text + n, ", %d", j);
	n += (size_t)sprintf(text + n, "], iodepth: [1");
	for (int q = 2; q <= 100; q++)
		n += (size_t)sprintf(text + n, ", %d", q);
	sprintf(text + n, "]}\n");
	BAD(text, "12:913", "sweep: more than 16384 points");

	/* a path longer than the wire carries */
	memset(long_path, 'x', 1100);
	long_path[0] = '/';
	long_path[1100] = '\0';
	sprintf(text,
		TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n  - name: ssd0\n"
		    "    paths: {a: %s}\nphases:\n  - name: p\n    workload: {runtime: 1s}\n",
		long_path);
	BAD(text, "7:16", "path for agent 'a' is longer than 1023 bytes");
	memset(long_path, 'x', 1100);
	long_path[1100] = '\0';
	sprintf(text, HEAD "    identity: %s\nphases:\n  - name: p\n    workload: {runtime: 1s}\n",
		long_path);
	BAD(text, "9:15", "identity is longer than 1023 bytes");

	/* 65 paths on one agent: more than one message carries */
	n = (size_t)sprintf(text, TOP "  - {name: a, address: \"tcp://h\"}\ntargets:\n");
	for (int t = 0; t < 65; t++)
		n += (size_t)sprintf(text + n, "  - {name: t%d, paths: {a: /dev/loop%d}}\n", t, t);
	sprintf(text + n, "phases:\n  - name: p\n    workload: {runtime: 1s}\n");
	BAD(text, "70:25", "target t64: agent a has more than 64 paths in the plan");
	free(long_path);
	free(text);
}

static void test_bad_top_and_yaml(void)
{
	static const char rest[] = "name: t\nagents: [{name: a, address: \"tcp://h\"}]\n"
				   "targets: [{name: s, paths: {a: /dev/sdb}}]\n"
				   "phases: [{name: p, workload: {runtime: 1s}}]\n";
	char *text;

	text = lst_asprintf("lockstep: 2\n%s", rest);
	BAD(text, "1:11", "lockstep: plan format 2 is not supported; this lockstep reads format 1");
	free(text);
	text = lst_asprintf("lockstep: one\n%s", rest);
	BAD(text, "1:11", "'one' is not a plan format version");
	free(text);
	BAD(rest, "1:1", "missing required key 'lockstep' in the plan");
	text = lst_asprintf("lockstep: 1\nlease: 100ms\n%s", rest);
	BAD(text, "2:8", "lease must be between 1.0 s and 10 m 00 s");
	free(text);
	text = lst_asprintf("lockstep: 1\ndescription: [a]\n%s", rest);
	BAD(text, "2:14", "description must be a single value, not a list");
	free(text);
	/* YAML itself */
	BAD(PHASE "    workload: {runtime: 10s\n", "12:1",
	    "YAML syntax error: did not find expected ',' or '}'");
	BAD(PHASE "    workload: {runtime: 10s}\n   bad: indent\n", "12:4",
	    "YAML syntax error: did not find expected '-' indicator");
	BAD(PHASE "\tworkload: {runtime: 10s}\n", "11:1", "YAML syntax error");
	BAD(PHASE "    workload: {runtime: 10s, runtime: 20s}\n", "11:30",
	    "duplicate key 'runtime' (first at 11:16)");
	BAD(HEAD "name: u\nphases:\n  - name: p\n    workload: {runtime: 1s}\n", "9:1",
	    "duplicate key 'name' (first at 2:1)");
	BAD_N(PHASE "    workload: &w {runtime: 10s}\n  - name: q\n    workload: *w\n", 2, "11:15",
	      "anchor '&w': anchors and aliases are not allowed in plans");
	BAD_N(PHASE "    workload: &w {runtime: 10s}\n  - name: q\n    workload: *w\n", 2, "13:15",
	      "alias '*w': anchors and aliases are not allowed in plans");
	BAD(PHASE "    workload: {runtime: 10s}\n    ? [a]\n    : b\n", "12:7",
	    "a key must be text, not a list");
	BAD(HEAD "phases: [{name: p, workload: {runtime: 1s}}]\n---\nlockstep: 1\n", "10:1",
	    "a plan is one YAML document");
	BAD("", "1:1", "the plan is empty");
	BAD("# only a comment\n", "1:1", "the plan is empty");
	BAD("- lockstep: 1\n", "1:1", "a plan must be a map of key: value at the top, not a list");
	BAD("lockstep: 1\nname: \"\xff\"\n", "2:8", "cannot read the text");
}

/* Several problems in one file: every one reported, in file order, each at its place. */
static void test_many_errors(void)
{
	static const char text[] = "lockstep: 1\n"			     /* 1 */
				   "name: many\n"			     /* 2 */
				   "agents:\n"				     /* 3 */
				   "  - {name: a, address: \"tcp://h:0\"}\n" /* 4 */
				   "  - {name: b, address: \"tcp://h2\"}\n"  /* 5 */
				   "targets:\n"				     /* 6 */
				   "  - name: ssd0\n"			     /* 7 */
				   "    paths: {a: /dev/sdb, c: /dev/sdc}\n" /* 8 */
				   "phases:\n"				     /* 9 */
				   "  - name: p\n"			     /* 10 */
				   "    workload: {iodepth: 0, bs: 1000}\n"  /* 11 */
				   "  - name: q\n"			     /* 12 */
				   "    workload: {runtime: 1s}\n"	     /* 13 */
				   "    sweep: {iodepth: []}\n"		     /* 14 */
				   "    steady: {window: 30}\n";	     /* 15 */
	static const char *const want[] = {
		"t.yaml:4:24: agent a: address 'tcp://h:0' has port '0'",
		("t.yaml:8:26: target ssd0: path for agent 'c', which is not in agents "
		 "(known: a, b)"),
		"t.yaml:11:25: phase p: iodepth must be between 1 and 4096",
		"t.yaml:11:32: phase p: bs 1000 is not a multiple of 512 bytes",
		"t.yaml:14:22: phase q: sweep: iodepth needs at least one value",
		"t.yaml:15:22: phase q: steady: window 30 is more than max_rounds 25",
	};
	lst_errlist errs = { 0 };
	lst_plan *p = s_parse(text, &errs);

	T_ASSERT(p == NULL);
	if (errs.n != LST_ARRAY_SIZE(want))
		s_dump(&errs);
	T_EQ_INT(errs.n, LST_ARRAY_SIZE(want));
	for (size_t i = 0; i < errs.n; i++)
		T_ASSERT(!strncmp(errs.msg[i], want[i], strlen(want[i])) || (s_dump(&errs), 0));
	lst_errlist_free(&errs);
	T_EQ_INT(errs.n, 0);
	/* errs may be NULL: the plan is still refused */
	T_ASSERT(s_parse(text, NULL) == NULL);
}

static void test_load(void)
{
	lst_errlist errs = { 0 };
	lst_plan *p = lst_plan_load("/nonexistent/plan.yaml", &errs);

	T_ASSERT(!p);
	T_EQ_INT(errs.n, 1);
	T_CONTAINS(errs.msg[0], "/nonexistent/plan.yaml: cannot read the plan: No such file");
	lst_errlist_free(&errs);

	static const char *const examples[] = { "examples/dual-port.yaml",
						"examples/lat-vs-iops.yaml",
						"examples/one-port-vs-two-port.yaml" };
	for (size_t i = 0; i < LST_ARRAY_SIZE(examples); i++) {
		char *file = lst_asprintf("%s/%s", LST_SRC_DIR, examples[i]);

		p = lst_plan_load(file, &errs);
		if (!p) {
			s_dump(&errs);
			T_FAIL("%s does not validate", file);
		}
		T_EQ_STR(p->file, file);
		T_ASSERT(p->agents[0].key && p->agents[0].key[0] == '/');
		lst_plan_destroy(&p);
		free(file);
	}
}

/* docs/plan.md is exactly what the tables generate, and its worked example validates. */
static void test_doc(void)
{
	char *want = NULL, *got = NULL, *file = lst_asprintf("%s/docs/plan.md", LST_SRC_DIR);
	size_t want_len = 0, got_len = 0;
	FILE *f = open_memstream(&got, &got_len);
	const char *start, *end;
	lst_errlist errs = { 0 };
	lst_plan *p;
	int rc;

	T_ASSERT(f);
	lst_plan_write_doc(f);
	T_EQ_INT(fclose(f), 0);
	/* every section and every workload option is in it */
	for (const struct lst_opt *o = lst_workload_opts; o->name; o++) {
		char row[64];

		snprintf(row, sizeof(row), "| `%s` |", o->name);
		T_CONTAINS(got, row);
	}
	T_CONTAINS(got, "## agent");
	T_CONTAINS(got, "## hir");
	T_CONTAINS(got, "| `limit_percentile` |");
	T_CONTAINS(got, "--write-doc");
	rc = lst_read_file(file, 1 << 20, &want, &want_len);
	if (rc || want_len != got_len || memcmp(want, got, got_len)) {
		fprintf(stderr,
			"%s differs from the schema tables (%s); regenerate it with\n"
			"  build/bin/lockstep validate --write-doc docs/plan.md\n",
			file, rc ? strerror(-rc) : "contents");
		exit(1);
	}
	start = strstr(got, "```yaml\n");
	T_ASSERT(start);
	start += 8;
	end = strstr(start, "```");
	T_ASSERT(end);
	p = lst_plan_parse(start, (size_t)(end - start), "plan.md", &errs);
	if (!p)
		s_dump(&errs);
	T_ASSERT(p);
	T_EQ_INT(p->nphases, 4);
	T_EQ_U64(lst_plan_phase_points(&p->phases[2]), 18);
	lst_plan_destroy(&p);
	free(want);
	free(got);
	free(file);
}

/*
 * Text a terminal would obey rather than show is refused where it is written: "p\0x" (which
 * libyaml decodes to three bytes and C would read as "p"), escape sequences, C1 controls and
 * direction overrides anywhere; tabs and newlines in names, addresses and paths. Messages that
 * quote such text show '?' instead.
 */
static void test_bad_text(void)
{
	static const char rest[] = "agents: [{name: a, address: \"tcp://h\"}]\n"
				   "targets: [{name: s, paths: {a: /dev/sdb}}]\n"
				   "phases: [{name: p, workload: {runtime: 1s}}]\n";
	char *text;
	lst_plan *p;

	text = lst_asprintf("lockstep: 1\nname: \"p\\0x\"\n%s", rest);
	BAD(text, "2:7",
	    "this text holds a NUL byte (\\0) at byte 2; a plan's text cannot hold one");
	free(text);
	BAD_N(TOP "  - {name: \"a\\0\", address: \"tcp://127.0.0.1\"}\n" TAIL, 2, "4:12",
	      "NUL byte (\\0) at byte 2"); /* and the target's agent 'a' is unknown */
	BAD(PHASE "    workload: {runtime: 10s, bs: \"4k\\0junk\"}\n", "11:34", "NUL byte");
	BAD_N(TOP "  - {name: \"a\\e[2J\", address: \"tcp://127.0.0.1\"}\n" TAIL, 2, "4:12",
	      "the control character 0x1b at byte 2");
	BAD(TOP "  - {name: a, address: \"tcp://h\\u009b31m\"}\n" TAIL, "4:24",
	    "a control or direction-override character at byte 8 (bytes 0xc2...)");
	BAD(HEAD "phases:\n  - name: \"p\\u202egnp\"\n    workload: {runtime: 1s}\n", "10:11",
	    "direction-override character at byte 2");
	BAD(HEAD "description: \"ok\\x07\"\nphases: [{name: p, workload: {runtime: 1s}}]\n", "9:14",
	    "the control character 0x07 at byte 3");
	/* tab and newline: refused by names, addresses and paths themselves */
	BAD_N(TOP "  - {name: \"a\\tb\", address: \"tcp://127.0.0.1\"}\n" TAIL, 2, "4:12",
	      "name 'a?b' may only use letters");
	text = lst_asprintf("%s", TOP "  - {name: a, address: \"tcp://127.0.0.1\"}\n"
				      "targets:\n  - name: ssd0\n    paths: {a: \"/dev/x\\ny\"}\n"
				      "phases: [{name: p, workload: {runtime: 1s}}]\n");
	BAD(text, "7:16", "path '/dev/x?y' for agent 'a' holds a tab or a newline");
	free(text);
	BAD(TOP "  - {name: a, address: \"tcp://h\\n:1\"}\n" TAIL, "4:24", "has a host with");
	/* a message quoting such text shows '?' */
	BAD(HEAD "\"x\\ty\": 1\nphases: [{name: p, workload: {runtime: 1s}}]\n", "9:1",
	    "unknown key 'x?y'");
	/* a description may span lines, and any script is text */
	p = GOOD(HEAD "description: |\n  two\n  lines, caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac\n"
		      "phases: [{name: p, workload: {runtime: 1s}}]\n");
	lst_plan_destroy(&p);
}

/* Lines 1..7 for the tests of paths, roles and port sets: agents a and b, target ssd0 begun. */
#define PP_TOP                                                                                     \
	"lockstep: 1\n"                                                                            \
	"name: t\n"                                                                                \
	"agents:\n"                                                                                \
	"  - {name: a, address: \"tcp://127.0.0.1\"}\n"                                            \
	"  - {name: b, address: \"tcp://127.0.0.1:7271\"}\n"                                       \
	"targets:\n"                                                                               \
	"  - name: ssd0\n"
/* Line 8: ssd0's paths (the value starts at column 12), then a phase p that runs 10s. */
#define PP_TARGET(paths)                                                                           \
	PP_TOP "    paths: " paths "\n"                                                            \
	       "phases:\n  - name: p\n    workload: {runtime: 10s}\n"
/* Lines 1..11: a has two paths, b one; phase p's further keys start on line 12 at column 5. */
#define PP_PHASE                                                                                   \
	PP_TOP "    paths: {a: [/dev/sdb, /dev/sdc], b: /dev/sdd}\n"                               \
	       "phases:\n  - name: p\n"                                                            \
	       "    workload: {rw: randread, iodepth: 8, runtime: 10s}\n"

static void test_path_lists(void)
{
	lst_plan *p = GOOD(PP_PHASE);
	const struct lst_plan_target *t = &p->targets[0];

	/* a list gives several paths, in order; a scalar stays one path */
	T_EQ_INT(t->npaths, 3);
	T_EQ_INT(t->paths[0].agent, 0);
	T_EQ_STR(t->paths[0].path, "/dev/sdb");
	T_EQ_INT(t->paths[0].mark.line, 8);
	T_EQ_INT(t->paths[0].mark.col, 17);
	T_EQ_INT(t->paths[1].agent, 0);
	T_EQ_STR(t->paths[1].path, "/dev/sdc");
	T_EQ_INT(t->paths[1].mark.col, 27);
	T_EQ_INT(t->paths[2].agent, 1);
	T_EQ_STR(t->paths[2].path, "/dev/sdd");
	T_EQ_INT(t->paths[2].mark.col, 38);
	T_EQ_INT(p->phases[0].nroles, 0);
	lst_plan_destroy(&p);
	p = GOOD(PP_TOP "    paths:\n      a:\n        - /dev/sdb\n      b: [/dev/sdc]\n"
			"phases: [{name: p, workload: {runtime: 1s}}]\n");
	T_EQ_INT(p->targets[0].npaths, 2);
	T_EQ_INT(p->targets[0].paths[0].mark.line, 10);
	T_EQ_STR(p->targets[0].paths[1].path, "/dev/sdc");
	lst_plan_destroy(&p);

	BAD(PP_TARGET("{a: [/dev/sdb, /dev/sdb]}"), "8:27",
	    "target ssd0: path /dev/sdb is listed twice for agent a (first at 8:17)");
	BAD(PP_TARGET("{a: [], b: /dev/sdd}"), "8:16",
	    "target ssd0: paths of agent 'a' is an empty list; give at least one path");
	BAD(PP_TARGET("{a: [/dev/sdb, [/dev/sdc]]}"), "8:27",
	    "a path of agent 'a' must be a single value, not a list");
	BAD(PP_TARGET("{a: [/dev/sdb, dev/sdc]}"), "8:27",
	    "path 'dev/sdc' for agent 'a' must be absolute");
	BAD(PP_TARGET("{a: {port1: /dev/sdb}}"), "8:16",
	    "paths of agent 'a' must be a path or a list of paths, not a map");
	/* the same agent and path in two targets, found in lists too */
	BAD(PP_TOP
	    "    paths: {a: /dev/sdb}\n  - name: ssd1\n    paths: {a: [/dev/sdc, /dev/sdb]}\n"
	    "phases: [{name: p, workload: {runtime: 1s}}]\n",
	    "10:27", "target ssd1: path /dev/sdb on agent a is also a path of target ssd0");
}

static void test_roles(void)
{
	lst_plan *p = GOOD(PP_PHASE "    paths:\n"
				    "      a: {rw: randwrite, rate_iops: 500}\n"
				    "      \"b:/dev/sdd\": idle\n");
	const struct lst_plan_phase *ph = &p->phases[0];
	const struct lst_plan_role *r = ph->roles;
	bool set[32] = { false };
	struct lst_workload w = ph->w;

	T_EQ_INT(ph->nroles, 2);
	T_EQ_INT(r[0].sel.agent, 0);
	T_ASSERT(r[0].sel.path == NULL);
	T_ASSERT(!r[0].idle);
	T_EQ_INT(r[0].mark.line, 13);
	T_EQ_INT(r[0].mark.col, 7);
	/* a role starts from the phase's workload; w_set marks only what it gave */
	T_EQ_INT(r[0].w.rw, LST_RW_RANDWRITE);
	T_EQ_INT(r[0].w.rate_iops, 500);
	T_EQ_INT(r[0].w.iodepth, 8);
	T_ASSERT(r[0].w_set[s_opt_index("rw")]);
	T_ASSERT(r[0].w_set[s_opt_index("rate_iops")]);
	T_ASSERT(!r[0].w_set[s_opt_index("iodepth")]);
	T_EQ_INT(r[1].sel.agent, 1);
	T_EQ_STR(r[1].sel.path, "/dev/sdd");
	T_ASSERT(r[1].idle);
	/* every path of a writes at 500 IOPS; b's one path is on standby */
	T_ASSERT(lst_plan_path_role(p, ph, NULL, 0, 1, &w, set));
	T_EQ_INT(w.rw, LST_RW_RANDWRITE);
	T_EQ_INT(w.rate_iops, 500);
	T_EQ_INT(w.iodepth, 8);
	T_ASSERT(set[s_opt_index("rw")] && set[s_opt_index("rate_iops")]);
	T_ASSERT(!set[s_opt_index("iodepth")]);
	w = ph->w;
	T_ASSERT(!lst_plan_path_role(p, ph, NULL, 0, 2, &w, NULL));
	lst_plan_destroy(&p);

	/* a path's role wins over its agent's: only /dev/sdc of a works, at QD 1 */
	p = GOOD(PP_PHASE "    paths:\n"
			  "      a: idle\n"
			  "      \"a:/dev/sdc\": {iodepth: 1}\n"
			  "      b: {bs: 8k}\n");
	ph = &p->phases[0];
	memset(set, 0, sizeof(set));
	w = ph->w;
	T_ASSERT(!lst_plan_path_role(p, ph, NULL, 0, 0, &w, set));
	w = ph->w;
	T_ASSERT(lst_plan_path_role(p, ph, NULL, 0, 1, &w, set));
	T_EQ_INT(w.iodepth, 1);
	T_EQ_INT(w.rw, LST_RW_RANDREAD);
	T_ASSERT(set[s_opt_index("iodepth")] && !set[s_opt_index("bs")]);
	w = ph->w;
	T_ASSERT(lst_plan_path_role(p, ph, NULL, 0, 2, &w, NULL));
	T_EQ_INT(w.bs, 8192);
	T_EQ_INT(w.iodepth, 8);
	lst_plan_destroy(&p);

	/* the agent's options first, then the path's own on top */
	p = GOOD(PP_PHASE "    paths:\n"
			  "      \"a:/dev/sdc\": {iodepth: 4}\n"
			  "      a: {rw: randwrite, iodepth: 2}\n");
	ph = &p->phases[0];
	w = ph->w;
	T_ASSERT(lst_plan_path_role(p, ph, NULL, 0, 1, &w, NULL));
	T_EQ_INT(w.rw, LST_RW_RANDWRITE);
	T_EQ_INT(w.iodepth, 4);
	w = ph->w;
	T_ASSERT(lst_plan_path_role(p, ph, NULL, 0, 0, &w, NULL));
	T_EQ_INT(w.iodepth, 2);
	lst_plan_destroy(&p);
}

static void test_bad_roles(void)
{
	BAD(PP_PHASE "    paths:\n      c: idle\n", "13:7",
	    "phase p: paths: unknown agent 'c' (known: a, b)");
	BAD(PP_PHASE "    paths:\n      \"a:/dev/sdd\": idle\n", "13:7",
	    "phase p: paths: agent a has no path /dev/sdd in this phase's targets (its paths: "
	    "/dev/sdb, /dev/sdc)");
	BAD(PP_PHASE "    paths:\n      \"a:sdb\": idle\n", "13:7",
	    "paths: 'a:sdb' names no device path after the ':'");
	BAD(PP_PHASE "    paths:\n      a: {iodpeth: 1}\n", "13:11",
	    "phase p: unknown key 'iodpeth' in the role of a (did you mean 'iodepth'?)");
	BAD(PP_PHASE "    paths:\n      a: {runtime: 5s}\n", "13:11",
	    "paths: a: runtime cannot differ between paths: an agent's run has one timeline");
	BAD(PP_PHASE "    paths:\n      b: {engine: psync}\n", "13:11",
	    "paths: b: engine cannot differ between paths");
	BAD(PP_PHASE "    paths:\n      a: {iodepth: 0}\n", "13:20",
	    "iodepth must be between 1 and 4096");
	BAD(PP_PHASE "    paths:\n      a: {bs: 1000}\n", "13:7",
	    "phase p: paths: a: bs 1000 is not a multiple of 512");
	BAD(PP_PHASE "    paths:\n      a: busy\n", "13:10",
	    "paths: a: a role is idle or a map of workload keys (like {rw: randwrite}), not "
	    "'busy'");
	BAD(PP_PHASE "    paths:\n      a: [idle]\n", "13:10",
	    "a role is idle or a map of workload keys (like {rw: randwrite}), not a list");
	BAD(PP_PHASE "    paths:\n      a: idle\n      b: idle\n", "12:5",
	    "phase p: every path is idle");
	BAD(PP_PHASE "    paths: {a: idle, b: idle}\n    sweep: {ports: [[a], [b]]}\n", "12:5",
	    "phase p: every path is idle");
	BAD(PP_PHASE "    paths: {}\n", "12:12", "paths must give at least one agent");
	/* a selector given twice is a repeated key, refused once by the YAML reader */
	BAD(PP_PHASE "    paths:\n      a: idle\n      a: {bs: 8k}\n", "14:7",
	    "duplicate key 'a' (first at 13:7)");
	/* a role only for paths the phase drives */
	BAD(PP_TOP "    paths: {a: /dev/sdb}\n  - name: ssd1\n    paths: {b: /dev/sdc}\n"
		   "phases:\n  - name: p\n    targets: [ssd0]\n    workload: {runtime: 1s}\n"
		   "    paths: {b: idle}\n",
	    "15:13", "phase p: paths: agent b has no path in this phase's targets");
}

static void test_ports(void)
{
	lst_plan *p = GOOD(PP_PHASE "    sweep: {ports: [[a], [b], [a, b]], iodepth: [1, 32]}\n");
	const struct lst_plan_phase *ph = &p->phases[0];
	const struct lst_sweep_axis *ax = &ph->axes[0];
	struct lst_workload w;
	char label[128];

	T_EQ_INT(ph->naxes, 2);
	T_ASSERT(ax->opt == NULL && ax->values == NULL);
	T_EQ_INT(ax->n, 3);
	T_EQ_STR(ax->sets[0].label, "a");
	T_EQ_STR(ax->sets[2].label, "a+b");
	T_EQ_INT(ax->sets[2].nsel, 2);
	T_EQ_INT(ax->sets[2].sel[1].agent, 1);
	T_EQ_INT(ax->sets[1].mark.line, 12);
	T_EQ_INT(ax->sets[1].mark.col, 26);
	T_EQ_U64(lst_plan_phase_points(ph), 6);
	lst_plan_phase_point(ph, 0, &w, label, sizeof(label));
	T_EQ_STR(label, "ports=a iodepth=1");
	lst_plan_phase_point(ph, 5, &w, label, sizeof(label));
	T_EQ_STR(label, "ports=a+b iodepth=32");
	T_EQ_INT(w.iodepth, 32);
	T_EQ_INT(w.rw, LST_RW_RANDREAD);
	/* the ports axis is the outer one here: it moves every second point */
	for (size_t i = 0; i < 6; i++)
		T_ASSERT(lst_plan_phase_ports(ph, i) == &ax->sets[i / 2]);
	/* a path outside the point's set is idle */
	w = ph->w;
	T_ASSERT(!lst_plan_path_role(p, ph, &ax->sets[1], 0, 0, &w, NULL));
	T_ASSERT(lst_plan_path_role(p, ph, &ax->sets[1], 0, 2, &w, NULL));
	T_ASSERT(lst_plan_path_role(p, ph, &ax->sets[2], 0, 1, &w, NULL));
	lst_plan_destroy(&p);

	/* second axis, one path of an agent, roles on top of the set */
	p = GOOD(PP_PHASE
		 "    paths: {b: {iodepth: 2}}\n"
		 "    sweep: {iodepth: [1, 8], ports: [[a], [\"b:/dev/sdd\", \"a:/dev/sdb\"]]}\n");
	ph = &p->phases[0];
	ax = &ph->axes[1];
	T_EQ_STR(ax->sets[1].label, "b:/dev/sdd+a:/dev/sdb");
	for (size_t i = 0; i < 4; i++)
		T_ASSERT(lst_plan_phase_ports(ph, i) == &ax->sets[i % 2]);
	lst_plan_phase_point(ph, 3, &w, label, sizeof(label));
	T_EQ_STR(label, "iodepth=8 ports=b:/dev/sdd+a:/dev/sdb");
	T_EQ_INT(w.iodepth, 8);
	T_ASSERT(lst_plan_path_role(p, ph, &ax->sets[1], 0, 0, &w, NULL));
	T_EQ_INT(w.iodepth, 8);
	T_ASSERT(!lst_plan_path_role(p, ph, &ax->sets[1], 0, 1, &w, NULL));
	w = ph->w;
	T_ASSERT(lst_plan_path_role(p, ph, &ax->sets[1], 0, 2, &w, NULL));
	T_EQ_INT(w.iodepth, 2);
	lst_plan_destroy(&p);

	/* no ports axis: no port set, every path takes part */
	p = GOOD(PP_PHASE "    sweep: {iodepth: [1, 8]}\n");
	T_ASSERT(lst_plan_phase_ports(&p->phases[0], 1) == NULL);
	lst_plan_destroy(&p);
}

static void test_bad_ports(void)
{
	BAD(PP_PHASE "    sweep: {ports: [[a], []]}\n", "12:26",
	    "phase p: sweep: ports: an empty port set");
	BAD(PP_PHASE "    sweep: {ports: [[a], [c]]}\n", "12:27",
	    "phase p: sweep: ports: unknown agent 'c' (known: a, b)");
	BAD(PP_PHASE "    sweep: {ports: [[a, a]]}\n", "12:25",
	    "sweep: ports: 'a' is listed twice in a port set");
	BAD(PP_PHASE "    sweep: {ports: [[a, b], [b, a]]}\n", "12:29",
	    "sweep: ports: port set b+a takes the same paths as port set a+b (first at 12:21)");
	BAD(PP_PHASE "    sweep: {ports: [[a], [\"a:/dev/sdb\", \"a:/dev/sdc\"]]}\n", "12:26",
	    "takes the same paths as port set a (first at 12:21)");
	BAD(PP_PHASE "    paths: {b: idle}\n    sweep: {ports: [[a], [b]]}\n", "13:26",
	    "phase p: sweep: ports: port set b leaves no path of this phase's targets at work");
	BAD(PP_PHASE "    sweep: {ports: [[\"b:/dev/sdb\"]]}\n", "12:22",
	    "sweep: ports: agent b has no path /dev/sdb in this phase's targets (its paths: "
	    "/dev/sdd)");
	BAD(PP_TOP "    paths: {a: /dev/sdb}\nphases:\n  - name: p\n    suite: purge\n"
		   "    sweep: {ports: [[a]]}\n",
	    "12:13", "phase p: sweep: a ports sweep is for phases without a suite");
	BAD_N(PP_PHASE "    sweep: {ports: [a, b]}\n", 2, "12:21",
	      "sweep: ports: each value is a set of paths in brackets, like [a] or [a, b], not 'a'");
	BAD(PP_PHASE "    sweep: {ports: []}\n", "12:20",
	    "sweep: ports needs at least one port set");
	BAD(PP_PHASE "    sweep: {iodepth: [[a]]}\n", "12:23",
	    "iodepth must be a single value, not a list");
	BAD(PP_PHASE "    sweep: {ports: [[1]]}\n", "12:22", "sweep: ports: unknown agent '1'");
	BAD(PP_PHASE "    sweep: {prots: [[a]]}\n", "12:13",
	    "sweep: unknown axis 'prots' (did you mean 'ports'?)");
	BAD(PP_PHASE "    sweep: {color: [1]}\n", "12:13",
	    "(axes: any workload option, or ports for sets of paths)");
}

/* failover: {below:} is a percent, 50 by default, written with or without '%'. */
static void test_failover(void)
{
	lst_plan *p = GOOD(PHASE "    workload: {runtime: 1s}\n"
				 "  - name: q\n"
				 "    workload: {runtime: 1s}\n"
				 "    failover: {below: 30%}\n"
				 "  - name: r\n"
				 "    workload: {runtime: 1s}\n"
				 "    failover: {below: 12.5}\n");

	T_NEAR(p->phases[0].failover_below_pct, 50, 0);
	T_NEAR(p->phases[1].failover_below_pct, 30, 0);
	T_NEAR(p->phases[2].failover_below_pct, 12.5, 0);
	lst_plan_destroy(&p);
	BAD(PHASE "    workload: {runtime: 1s}\n    failover: {below: 0}\n", "12:23",
	    "failover: below must be > 0 and <= 100");
	BAD(PHASE "    workload: {runtime: 1s}\n    failover: {below: 150%}\n", "12:23",
	    "failover: below must be > 0 and <= 100");
	BAD(PHASE "    workload: {runtime: 1s}\n    failover: {below: half}\n", "12:23",
	    "failover: below: 'half' is not a number");
	BAD(PHASE "    workload: {runtime: 1s}\n    failover: {belo: 50%}\n", "12:16",
	    "unknown key 'belo' in failover (did you mean 'below'?)");
}

/* A plan built as a tree (lst_plan_build) is read and checked as a file is, and its record is the
 * tree as YAML, which lst_plan_parse reads to the same plan. */
static void test_build(void)
{
	struct lst_yaml_node *root = lst_yaml_new(LST_YAML_MAP, NULL), *a, *t, *ph, *bad;
	lst_errlist errs = { 0 };
	lst_plan *p, *again;

	lst_yaml_put(root, "lockstep", lst_yaml_new(LST_YAML_SCALAR, "1"));
	lst_yaml_put(root, "name", lst_yaml_new(LST_YAML_SCALAR, "built"));
	a = lst_yaml_append(lst_yaml_put(root, "agents", lst_yaml_new(LST_YAML_LIST, NULL)),
			    lst_yaml_new(LST_YAML_MAP, NULL));
	lst_yaml_put(a, "name", lst_yaml_new(LST_YAML_SCALAR, "a"));
	lst_yaml_put(a, "address", lst_yaml_new(LST_YAML_SCALAR, "tcp://127.0.0.1"));
	t = lst_yaml_append(lst_yaml_put(root, "targets", lst_yaml_new(LST_YAML_LIST, NULL)),
			    lst_yaml_new(LST_YAML_MAP, NULL));
	lst_yaml_put(t, "name", lst_yaml_new(LST_YAML_SCALAR, "d"));
	lst_yaml_put(lst_yaml_put(t, "paths", lst_yaml_new(LST_YAML_MAP, NULL)), "a",
		     lst_yaml_new(LST_YAML_SCALAR, "/dev/loop7"));
	ph = lst_yaml_append(lst_yaml_put(root, "phases", lst_yaml_new(LST_YAML_LIST, NULL)),
			     lst_yaml_new(LST_YAML_MAP, NULL));
	lst_yaml_put(ph, "name", lst_yaml_new(LST_YAML_SCALAR, "read"));
	lst_yaml_put(lst_yaml_put(ph, "workload", lst_yaml_new(LST_YAML_MAP, NULL)), "bs",
		     lst_yaml_new(LST_YAML_SCALAR, "128k"));
	lst_yaml_put(lst_yaml_put(ph, "stop", lst_yaml_new(LST_YAML_MAP, NULL)), "capacity",
		     lst_yaml_new(LST_YAML_SCALAR, "1x"));

	p = lst_plan_build(root, "made.yaml", &errs);
	if (!p)
		lst_errlist_print(&errs, stderr);
	T_ASSERT(p != NULL);
	T_EQ_STR(p->name, "built");
	T_EQ_STR(p->agents[0].address, "tcp://127.0.0.1:7270");
	T_EQ_STR(p->targets[0].paths[0].path, "/dev/loop7");
	T_EQ_INT(p->phases[0].w.bs, 128 * 1024);
	T_NEAR(p->phases[0].stop_capacity, 1.0, 1e-9);
	again = lst_plan_parse(p->text, strlen(p->text), "again.yaml", &errs);
	T_ASSERT(again != NULL);
	T_EQ_STR(again->phases[0].name, "read");
	T_EQ_INT(again->phases[0].w.bs, 128 * 1024);
	lst_plan_destroy(&again);
	lst_plan_destroy(&p);

	/* and it is checked: a bad value is refused with the plan's own message */
	bad = lst_yaml_get(lst_yaml_get(ph, "workload", NULL), "bs", NULL);
	free(bad->text);
	bad->text = lst_strdup("1000");
	T_ASSERT(lst_plan_build(root, "made.yaml", &errs) == NULL);
	T_ASSERT(lst_errlist_count(&errs) > 0);
	lst_errlist_free(&errs);
	lst_yaml_free(root);
}

int main(void)
{
	test_build();
	test_full();
	test_defaults();
	test_sweep();
	test_sweep_options();
	test_keys();
	test_bad_workload();
	test_bad_phase();
	test_bad_sweep();
	test_bad_agents_targets();
	test_path_lists();
	test_roles();
	test_bad_roles();
	test_ports();
	test_bad_ports();
	test_limits();
	test_bad_top_and_yaml();
	test_bad_text();
	test_many_errors();
	test_load();
	test_doc();
	test_failover();
	return 0;
}
