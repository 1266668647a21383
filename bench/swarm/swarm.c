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
#include <sys/resource.h>
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
		"  --exit-on-bye       exit once every agent that had a session got BYE\n");
}

static int s_parse(int argc, char **argv, struct s_opts *o)
{
	static const struct option longs[] = {
		{ "agents", 1, 0, 'n' },    { "base-port", 1, 0, 'p' },
		{ "port-file", 1, 0, 'f' }, { "name-prefix", 1, 0, 'x' },
		{ "iops", 1, 0, 'i' },	    { "lat-us", 1, 0, 'l' },
		{ "buckets", 1, 0, 'b' },   { "clock-offset-us", 1, 0, 'o' },
		{ "seed", 1, 0, 's' },	    { "truth", 1, 0, 't' },
		{ "vanish", 1, 0, 'v' },    { "exit-on-bye", 0, 0, 'e' },
		{ "help", 0, 0, 'h' },	    { 0, 0, 0, 0 },
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
	    strlen(o->prefix) > 40 || (o->vanish && !strchr(o->vanish, '@')))
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

static void s_agent_init(const struct s_opts *o, struct swarm_agent *a, uint32_t i)
{
	uint64_t x = o->seed * 1000003u + i;
	const char *at = o->vanish ? strrchr(o->vanish, '@') : NULL;

	snprintf(a->name, sizeof(a->name), "%s%u", o->prefix, i);
	a->idx = i;
	a->rng = s_splitmix(&x) | 1;
	a->instance = s_splitmix(&x) | 1;
	a->offset = o->offset_us > 0
			    ? (int64_t)((2.0 * (double)(s_splitmix(&x) >> 11) * 0x1.0p-53 - 1.0) *
					o->offset_us * 1e3)
			    : 0;
	a->first_t0 = INT64_MIN;
	a->vanish_after = -1;
	if (at && (size_t)(at - o->vanish) == strlen(a->name) &&
	    !strncmp(o->vanish, a->name, strlen(a->name)))
		a->vanish_after = (int64_t)(strtod(at + 1, NULL) * 1e9);
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

static int s_bind_all(void *ctx, struct swarm *sw, const struct s_opts *o)
{
	for (uint32_t i = 0; i < sw->n; i++) {
		char ep[64];
		int rc;

		if (o->base_port)
			snprintf(ep, sizeof(ep), "tcp://127.0.0.1:%u", o->base_port + i);
		else
			snprintf(ep, sizeof(ep), "tcp://127.0.0.1:*");
		if ((rc = swarm_agent_bind(ctx, &sw->agents[i], ep))) {
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

/* Poll every socket and run the agents' timers until told to stop. */
static void s_loop(struct swarm *sw, bool exit_on_bye)
{
	zmq_pollitem_t *items = calloc(sw->n, sizeof(*items));

	if (!items) {
		perror("lockstep-swarm");
		exit(1);
	}
	while (!s_stop) {
		int64_t now = lst_mono_ns(), next = INT64_MAX;
		long ms;

		for (uint32_t i = 0; i < sw->n; i++) {
			next = LST_MIN(next, swarm_agent_tick(sw, &sw->agents[i], now));
			items[i].socket = sw->agents[i].sock;
			items[i].fd = -1;
			items[i].events = sw->agents[i].sock ? ZMQ_POLLIN : 0;
			items[i].revents = 0;
		}
		if (exit_on_bye && s_all_done(sw))
			break;
		ms = next == INT64_MAX ? 100 : (long)((next - lst_mono_ns() + 999999) / 1000000);
		ms = LST_MAX(0L, LST_MIN(ms, 100L));
		if (zmq_poll(items, (int)sw->n, ms) < 0 && zmq_errno() != EINTR) {
			perror("lockstep-swarm: zmq_poll");
			break;
		}
		for (uint32_t i = 0; i < sw->n; i++)
			if (items[i].revents & ZMQ_POLLIN)
				swarm_agent_on_readable(sw, &sw->agents[i]);
	}
	free(items);
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
	sw.smsg = lst_msg_new(LST_MSG_SAMPLE);
	sw.omsg = lst_msg_new(LST_MSG_PING);
	if (!sw.agents || !sw.smsg || !sw.omsg) {
		fprintf(stderr, "lockstep-swarm: out of memory\n");
		return 1;
	}
	for (int d = 0; d < LST_DIR_N; d++)
		lst_hist_init(&sw.smsg->u.sample.s.dir[d].lat);
	s_normals(&sw);
	for (uint32_t i = 0; i < sw.n; i++)
		s_agent_init(&o, &sw.agents[i], i);
	ctx = zmq_ctx_new();
	zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, (int)sw.n + 64);
	if (s_bind_all(ctx, &sw, &o) ||
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
	printf("lockstep-swarm: %u agents: %llu SAMPLEs sent, %llu ACKed\n", sw.n,
	       (unsigned long long)sent, (unsigned long long)acked);
	if (o.truth && (rc = swarm_truth_write(&sw, o.truth))) {
		fprintf(stderr, "lockstep-swarm: %s: %s\n", o.truth, strerror(-rc));
		rc = 1;
	}
out:
	for (uint32_t i = 0; i < sw.n; i++) {
		swarm_agent_close(&sw.agents[i]);
		free(sw.agents[i].sent);
	}
	zmq_ctx_term(ctx);
	swarm_truth_free();
	lst_msg_destroy(&sw.smsg);
	lst_msg_destroy(&sw.omsg);
	free(sw.agents);
	return rc;
}
