/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lockstep-swarm: N simulated agents in one process, for driving the real coordinator at fleet
 * scale. Each agent binds its own ROUTER on a loopback port and speaks protocol 1 with
 * the real codec (proto/lst_msg): HELLO/WELCOME, SYNC replies on a clock shifted by a per-agent
 * offset, PREPARE/PREPARED with the null engine's semantics (any path is accepted and reported
 * as a file that fits the workload), START/STARTED, one SAMPLE per interval with a sparse
 * lognormal histogram drawn from a per-agent seed, DONE, and a spool of SAMPLE and DONE frames
 * kept until an ACK covers them and sent again when the session's coordinator reconnects.
 *
 * One thread: zmq_poll over every agent's socket, and timers computed from the agents' own
 * deadlines, so a thousand agents take a fraction of a core. The swarm counts what it sent
 * (swarm_truth.c), and writes it as JSON at the end so a test can check the coordinator's
 * rows against the swarm's own sums.
 *
 * Not simulated: the lease (a swarm agent never stops its point by itself), capabilities
 * (hooks.v1, verify.v1: WELCOME lists none, so the coordinator sends no HOOK or JOURNAL),
 * devices (INVENTORY answers an empty page), a SAMPLE's per-path parts (one job spec per agent
 * is what the tests use), I/O errors and late intervals.
 *
 * Files: swarm.c (options, the loop), swarm_agent.c (one agent's protocol), swarm_truth.c (the
 * sums and their JSON).
 */
#ifndef LST_SWARM_H
#define LST_SWARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lst_hist.h"
#include "lst_msg.h"

#define SWARM_NORMALS 4096 /* table of standard normals the latencies are drawn from */
#define SWARM_CACHE 64	   /* replies kept per agent for retried commands (PROTOCOL.md 8) */

struct swarm_frame {
	uint64_t seq;
	bool sample; /* a SAMPLE (else DONE) */
	uint8_t *buf;
	size_t len;
};

struct swarm_cached {
	uint64_t id; /* 0 = free */
	bool pending;
	uint8_t *buf;
	size_t len;
};

/* What the swarm sent of one sample (for the truth file). */
struct swarm_sent {
	uint32_t phase, point;
	int64_t k;
	uint32_t flags;
	uint64_t ios[LST_DIR_N], bytes[LST_DIR_N];
};

enum swarm_state {
	SWARM_IDLE,
	SWARM_PREPARED,
	SWARM_WAIT_T0, /* START received, waiting for t0 */
	SWARM_RUNNING,
};

struct swarm;

struct swarm_agent {
	struct swarm *sw;
	char name[LST_NAME_MAX];
	uint32_t idx;
	void *sock;
	int fd; /* its ZMQ_FD */
	char endpoint[64];
	int64_t offset;	      /* agent clock = CLOCK_MONOTONIC + offset */
	uint64_t instance;    /* WELCOME's instance */
	uint64_t rng;	      /* xorshift64* state (per-agent seed) */
	int64_t vanish_after; /* ns after the first t0 at which the agent disappears; <0 never */
	bool vanished;
	int64_t blip_after, blip_len; /* --blip: socket closed blip_after ns after the first t0,
				       * bound again blip_len ns later; <0 never */
	int64_t rebind_at;	      /* host instant to bind again; INT64_MAX none pending */
	bool had_session, byed;
	int64_t due; /* host instant its timers next need a tick */
	bool poke; /* in sw->pokes: its socket may hold frames: its fd fired, or it sent (which can eat the
		    * fd's signal): check ZMQ_EVENTS */
	/* session */
	bool active;
	char run[LST_RUN_ID_MAX];
	uint8_t peer[256];
	size_t peer_len;
	uint64_t seq;
	struct swarm_cached cache[SWARM_CACHE];
	unsigned cache_next;
	struct swarm_frame *spool;
	size_t nspool, capspool;
	/* point */
	enum swarm_state state;
	uint32_t phase, point;
	int64_t iv, t0, first_t0;
	int64_t nramp, nint, next_k;
	uint64_t start_id; /* the START awaiting its STARTED */
	uint64_t samples;
	int64_t last_k;
	int read_pct;
	int64_t bs;
	/* counts */
	uint64_t sent_samples, acked_samples;
	struct swarm_sent *sent;
	size_t nsent, capsent;
};

struct swarm {
	struct swarm_agent *agents;
	uint32_t n;
	double iops; /* per agent */
	unsigned
		buckets; /* distinct latencies drawn per direction per sample (~non-empty buckets) */
	double lat_us;	 /* median latency */
	lst_msg *smsg;	 /* the outgoing SAMPLE, reused: its histograms are kept empty */
	lst_msg *omsg;	 /* every other outgoing message */
	double normals[SWARM_NORMALS]; /* standard normal draws, from a fixed seed */
	unsigned touched[LST_DIR_N][LST_HIST_NBUCKETS];
	unsigned ntouched[LST_DIR_N];
	void *ctx; /* the ZeroMQ context (rebinding after a blip) */
	int epfd;  /* epoll over every socket's ZMQ_FD: a wake-up costs what is ready, not N */
	uint32_t *pokes; /* agents whose sockets to read next (each once: their poke flag); 2n */
	uint32_t npokes;
};

/* Bind agent a's ROUTER on endpoint (tcp://127.0.0.1:PORT, or :* for any) and watch it with
 * sw's epoll; 0 or -errno. The bound endpoint is left in a->endpoint. */
int swarm_agent_bind(struct swarm *sw, struct swarm_agent *a, const char *endpoint);

/* Close a's socket (nothing else): out of sw's epoll, then zmq_close. */
void swarm_agent_unbind(struct swarm *sw, struct swarm_agent *a);

/* Have a's socket read in the next round of the loop. */
static inline void swarm_poke(struct swarm *sw, struct swarm_agent *a)
{
	if (!a->poke) {
		a->poke = true;
		sw->pokes[sw->npokes++] = a->idx;
	}
}

/* Read every frame waiting on a's socket (until ZMQ_EVENTS has no POLLIN) and answer it. */
void swarm_agent_on_readable(struct swarm *sw, struct swarm_agent *a);

/* Do what is due at host time now (STARTED at t0, SAMPLEs, DONE, vanishing); returns the next
 * host instant something is due, or INT64_MAX. */
int64_t swarm_agent_tick(struct swarm *sw, struct swarm_agent *a, int64_t now);

/* Close a's socket and free what it holds (the sent list stays for the truth). */
void swarm_agent_close(struct swarm *sw, struct swarm_agent *a);

/* Account one sample the swarm sent (s: its histograms hold the buckets listed in sw->touched),
 * at host instant end_host (the interval's end) and sent_host, and empty its histograms. */
void swarm_truth_add(struct swarm *sw, struct swarm_agent *a, const lst_sample *s, int64_t end_host,
		     int64_t sent_host);

/* Write the truth JSON to path; 0 or -errno. */
int swarm_truth_write(const struct swarm *sw, const char *path);

void swarm_truth_free(void);

#endif
