/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lockstep-swarm: the command line and the loop (design in swarm.h). Binds every agent, writes
 * the port file, then polls all the sockets in one thread until SIGTERM or SIGINT (or, with
 * --exit-on-bye, until every agent that had a session got its BYE), and writes the truth.
 */
#include "swarm.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zmq.h>

#include "lst_time.h"
#include "lst_assert.h"
#include "lst_text.h"

static volatile sig_atomic_t s_stop;

struct s_opts {
	uint32_t agents;
	unsigned base_port; /* 0: ephemeral ports */
	const char *port_file;
	const char *prefix;
	const char *truth;
	const char *vanish; /* NAME@SECONDS */
	const char *blip;   /* NAME@SECONDS+SECONDS */
	double iops, offset_us, lat_us;
	unsigned buckets;
	uint64_t seed;
	bool exit_on_bye;
};

static void s_usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep-swarm --agents N [--base-port P | --port-file FILE] [options]\n"
		"  N simulated lockstep agents in one process (a test tool; bench/swarm.sh)\n"
		"  --agents N          agents (1..65535)\n"
		"  --base-port P       agent i listens on 127.0.0.1:P+i (default: any free port)\n"
		"  --port-file FILE    write 'NAME tcp://127.0.0.1:PORT' per agent once all listen\n"
		"  --name-prefix S     agent names S0, S1, ... (default 's')\n"
		"  --iops X            I/Os per second per agent (default 10000)\n"
		"  --lat-us X          median latency, us (default 100; each agent within +-20%%)\n"
		"  --buckets B         latencies drawn per direction per sample (default 256)\n"
		"  --clock-offset-us X each agent's clock off by up to +-X us (default 0)\n"
		"  --seed S            random seed (default 1)\n"
		"  --truth FILE        write the swarm's own sums as JSON at the end\n"
		"  --vanish NAME@SEC   agent NAME closes its socket SEC s after its first t0\n"
		"  --blip NAME@SEC+LEN agent NAME closes its socket SEC s after its first t0 and\n"
		"                      binds it again LEN s later (its session and spool go on)\n"
		"  --exit-on-bye       exit once every agent that had a session got BYE\n");
}

static int s_parse(int argc, char **argv, struct s_opts *o)
{
	static const struct option longs[] = {
		{ "agents", 1, 0, 'n' },
		{ "base-port", 1, 0, 'p' },
		{ "port-file", 1, 0, 'f' },
		{ "name-prefix", 1, 0, 'x' },
		{ "iops", 1, 0, 'i' },
		{ "lat-us", 1, 0, 'l' },
		{ "buckets", 1, 0, 'b' },
		{ "clock-offset-us", 1, 0, 'o' },
		{ "seed", 1, 0, 's' },
		{ "truth", 1, 0, 't' },
		{ "vanish", 1, 0, 'v' },
		{ "exit-on-bye", 0, 0, 'e' },
		{ "blip", 1, 0, 'B' },
		{ "help", 0, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;

	*o = (struct s_opts){
		.prefix = "s", .iops = 10000, .lat_us = 100, .buckets = 256, .seed = 1
	};
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'n':
			o->agents = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'p':
			o->base_port = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'f':
			o->port_file = optarg;
			break;
		case 'x':
			o->prefix = optarg;
			break;
		case 'i':
			o->iops = strtod(optarg, NULL);
			break;
		case 'l':
			o->lat_us = strtod(optarg, NULL);
			break;
		case 'b':
			o->buckets = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'o':
			o->offset_us = strtod(optarg, NULL);
			break;
		case 's':
			o->seed = strtoull(optarg, NULL, 10);
			break;
		case 't':
			o->truth = optarg;
			break;
		case 'v':
			o->vanish = optarg;
			break;
		case 'B':
			o->blip = optarg;
			break;
		case 'e':
			o->exit_on_bye = true;
			break;
		case 'h':
			s_usage(stdout);
			exit(0);
		default:
			return -EINVAL;
		}
	}
	if (optind < argc || !o->agents || o->agents > 65535 || o->base_port + o->agents > 65536 ||
	    !(o->iops >= 0 && o->iops <= 1e8) || !o->buckets || o->buckets > 4096 ||
	    !(o->lat_us >= 1 && o->lat_us <= 1e6) || !(o->offset_us >= 0 && o->offset_us < 1e9) ||
	    strlen(o->prefix) > 40 || (o->vanish && !strchr(o->vanish, '@')) ||
	    (o->blip && (!strchr(o->blip, '@') || !strchr(strrchr(o->blip, '@'), '+'))))
		return -EINVAL;
	return 0;
}

static uint64_t s_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* sw's table of standard normals (Box-Muller) from a fixed seed. */
static void s_normals(struct swarm *sw)
{
	uint64_t x = 42;

	for (unsigned i = 0; i < SWARM_NORMALS; i++) {
		double u1 = ((double)(s_splitmix(&x) >> 11) + 1.0) * 0x1.0p-53;
		double u2 = (double)(s_splitmix(&x) >> 11) * 0x1.0p-53;

		sw->normals[i] = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	}
}

/* The seconds after NAME@ in spec (NAME@SEC or NAME@SEC+LEN) when NAME is a's, else -1 (ns). */
static int64_t s_at(const char *spec, const struct swarm_agent *a, double *len)
{
	const char *at = spec ? strrchr(spec, '@') : NULL;
	char *end;
	double sec;

	if (!at || (size_t)(at - spec) != strlen(a->name) ||
	    strncmp(spec, a->name, strlen(a->name)))
		return -1;
	sec = strtod(at + 1, &end);
	if (len)
		*len = *end == '+' ? strtod(end + 1, NULL) : 1.0;
	return sec >= 0 ? (int64_t)(sec * 1e9) : -1;
}

static void s_agent_init(const struct s_opts *o, struct swarm *sw, struct swarm_agent *a,
			 uint32_t i)
{
	double len = 0;
	uint64_t x = o->seed * 1000003u + i;

	snprintf(a->name, sizeof(a->name), "%s%u", o->prefix, i);
	a->idx = i;
	a->sw = sw;
	a->rng = s_splitmix(&x) | 1;
	a->instance = s_splitmix(&x) | 1;
	a->offset = o->offset_us > 0
			    ? (int64_t)((2.0 * (double)(s_splitmix(&x) >> 11) * 0x1.0p-53 - 1.0) *
					o->offset_us * 1e3)
			    : 0;
	a->first_t0 = INT64_MIN;
	a->vanish_after = s_at(o->vanish, a, NULL);
	a->blip_after = s_at(o->blip, a, &len);
	a->blip_len = (int64_t)(len * 1e9);
	a->rebind_at = INT64_MAX;
}

static void s_raise_nofile(uint32_t agents)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return;
	r.rlim_cur = r.rlim_max;
	setrlimit(RLIMIT_NOFILE, &r);
	if (r.rlim_cur < (rlim_t)agents * 4 + 64)
		fprintf(stderr,
			"lockstep-swarm: warning: %llu file descriptors for %u agents "
			"(about 4 each): raise ulimit -n\n",
			(unsigned long long)r.rlim_cur, agents);
}

static int s_bind_all(struct swarm *sw, const struct s_opts *o)
{
	for (uint32_t i = 0; i < sw->n; i++) {
		char ep[64];
		int rc;

		if (o->base_port)
			snprintf(ep, sizeof(ep), "tcp://127.0.0.1:%u", o->base_port + i);
		else
			snprintf(ep, sizeof(ep), "tcp://127.0.0.1:*");
		if ((rc = swarm_agent_bind(sw, &sw->agents[i], ep))) {
			fprintf(stderr, "lockstep-swarm: %s: bind %s failed: %s (%d)\n",
				sw->agents[i].name, ep, zmq_strerror(-rc), rc);
			return rc;
		}
	}
	return 0;
}

static int s_write_ports(const struct swarm *sw, const char *path)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(f = fopen(tmp, "w")))
		return -errno;
	for (uint32_t i = 0; i < sw->n; i++)
		fprintf(f, "%s %s\n", sw->agents[i].name, sw->agents[i].endpoint);
	if (fclose(f) || rename(tmp, path))
		return -errno;
	return 0;
}

static bool s_all_done(const struct swarm *sw)
{
	bool any = false;

	for (uint32_t i = 0; i < sw->n; i++) {
		const struct swarm_agent *a = &sw->agents[i];

		any |= a->had_session;
		if (!a->vanished && a->had_session && !a->byed)
			return false;
	}
	return any;
}

/* Run what is due at now on every agent whose instant has come; the earliest instant left. */
static int64_t s_due(struct swarm *sw, int64_t now)
{
	int64_t min = INT64_MAX;

	for (uint32_t i = 0; i < sw->n; i++) {
		struct swarm_agent *a = &sw->agents[i];

		if (now >= a->due)
			a->due = swarm_agent_tick(sw, a, now);
		min = LST_MIN(min, a->due);
	}
	return min;
}

/* Read the sockets poked so far (pokes made meanwhile wait for the next round); the earliest
 * instant due among them. */
static int64_t s_drain(struct swarm *sw, int64_t now)
{
	uint32_t m = sw->npokes;
	int64_t min = INT64_MAX;

	for (uint32_t j = 0; j < m; j++) {
		struct swarm_agent *a = &sw->agents[sw->pokes[j]];

		a->poke = false;
		swarm_agent_on_readable(sw, a);
		a->due = swarm_agent_tick(sw, a, now); /* a START or a STOP moves it */
		min = LST_MIN(min, a->due);
	}
	memmove(sw->pokes, sw->pokes + m, (sw->npokes - m) * sizeof(*sw->pokes));
	sw->npokes -= m;
	return min;
}

/*
 * Wait for the sockets and run the agents' timers until told to stop. epoll says which sockets'
 * ZMQ_FDs fired; a socket is also read after it sent (a send may consume the signal), and all
 * of them every S_SWEEP_NS as a safety net. Timers run only when the earliest is due, so a
 * wake-up costs what is ready, not N.
 */
#define S_SWEEP_NS (100 * LST_NS_PER_MS)
static void s_loop(struct swarm *sw, bool exit_on_bye)
{
	struct epoll_event ev[256];
	int64_t sweep = 0, due = 0;

	while (!s_stop) {
		int64_t now = lst_mono_ns(), drained;
		long ms;
		int n;

		if (now >= sweep) {
			if (exit_on_bye && s_all_done(sw))
				break;
			for (uint32_t i = 0; i < sw->n; i++)
				swarm_poke(sw, &sw->agents[i]);
			sweep = now + S_SWEEP_NS;
		}
		if (now >= due)
			due = s_due(sw, now);
		drained = s_drain(sw, now); /* not inside LST_MIN, which evaluates twice */
		due = LST_MIN(due, drained);
		ms = sw->npokes ? 0
				: (long)((LST_MIN(due, sweep) - lst_mono_ns() + 999999) / 1000000);
		ms = LST_MAX(0L, LST_MIN(ms, 100L));
		n = epoll_wait(sw->epfd, ev, 256, (int)ms);
		if (n < 0 && errno != EINTR) {
			perror("lockstep-swarm: epoll_wait");
			break;
		}
		for (int i = 0; i < n; i++)
			if (ev[i].data.u32 < sw->n)
				swarm_poke(sw, &sw->agents[ev[i].data.u32]);
	}
}

static void s_on_signal(int sig)
{
	(void)sig;
	s_stop = 1;
}

int main(int argc, char **argv)
{
	struct s_opts o;
	struct swarm sw = { 0 };
	uint64_t sent = 0, acked = 0;
	struct rusage ru;
	void *ctx;
	int rc = 0;

	if (s_parse(argc, argv, &o)) {
		s_usage(stderr);
		return 2;
	}
	signal(SIGTERM, s_on_signal);
	signal(SIGINT, s_on_signal);
	signal(SIGPIPE, SIG_IGN);
	s_raise_nofile(o.agents);
	sw.n = o.agents;
	sw.iops = o.iops;
	sw.lat_us = o.lat_us;
	sw.buckets = o.buckets;
	sw.agents = calloc(sw.n, sizeof(*sw.agents));
	/* 2n: while s_drain reads the first m, up to n more may be poked behind them */
	sw.pokes = calloc(2 * (size_t)sw.n, sizeof(*sw.pokes));
	sw.smsg = lst_msg_new(LST_MSG_SAMPLE);
	sw.omsg = lst_msg_new(LST_MSG_PING);
	if (!sw.agents || !sw.pokes || !sw.smsg || !sw.omsg) {
		fprintf(stderr, "lockstep-swarm: out of memory\n");
		return 1;
	}
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&sw.smsg->u.sample.s.dir[d].lat);
	s_normals(&sw);
	for (uint32_t i = 0; i < sw.n; i++)
		s_agent_init(&o, &sw, &sw.agents[i], i);
	ctx = sw.ctx = zmq_ctx_new();
	sw.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!ctx || sw.epfd < 0) {
		perror("lockstep-swarm: zmq_ctx_new, epoll_create1");
		return 1;
	}
	zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, (int)sw.n + 64);
	if (s_bind_all(&sw, &o) ||
	    (o.port_file && (rc = s_write_ports(&sw, o.port_file)) &&
	     (fprintf(stderr, "lockstep-swarm: %s: %s\n", o.port_file, strerror(-rc)), 1))) {
		rc = 1;
		goto out;
	}
	s_loop(&sw, o.exit_on_bye);
	for (uint32_t i = 0; i < sw.n; i++) {
		sent += sw.agents[i].sent_samples;
		acked += sw.agents[i].acked_samples;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("lockstep-swarm: %u agents: %llu SAMPLEs sent, %llu ACKed; %.3f CPU s\n", sw.n,
	       (unsigned long long)sent, (unsigned long long)acked,
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	if (o.truth && (rc = swarm_truth_write(&sw, o.truth))) {
		fprintf(stderr, "lockstep-swarm: %s: %s\n", o.truth, strerror(-rc));
		rc = 1;
	}
out:
	for (uint32_t i = 0; i < sw.n; i++) {
		swarm_agent_close(&sw, &sw.agents[i]);
		free(sw.agents[i].sent);
	}
	zmq_ctx_term(ctx);
	close(sw.epfd);
	swarm_truth_free();
	lst_msg_destroy(&sw.smsg);
	lst_msg_destroy(&sw.omsg);
	free(sw.agents);
	free(sw.pokes);
	return rc;
}
