/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The swarm's own sums: what every agent sent, per (phase, point, interval) summed over the
 * agents (I/Os and bytes per direction, the histograms of both directions merged bucket by
 * bucket), and per agent the list of samples. A test compares the coordinator's rows with them;
 * the bench takes each interval's end and the instant its last sample left to time the rows.
 * Merging walks only the buckets a sample touched, so accounting costs about what drawing did.
 */
#include "swarm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct s_key {
	uint32_t phase, point;
	int64_t k;
	uint32_t flags;
	uint32_t agents;
	uint64_t ios[LST_DIR_N], bytes[LST_DIR_N];
	int64_t end_host, last_sent;
	lst_hist *h; /* read and write merged */
};

static struct s_key *s_keys;
static size_t s_nkeys, s_capkeys;

/* The key of (phase, point, k), made when new; recent keys are found first. */
static struct s_key *s_key(uint32_t phase, uint32_t point, int64_t k)
{
	struct s_key *e;

	for (size_t i = s_nkeys; i-- > 0;)
		if (s_keys[i].k == k && s_keys[i].point == point && s_keys[i].phase == phase)
			return &s_keys[i];
	if (s_nkeys == s_capkeys) {
		s_capkeys = s_capkeys ? 2 * s_capkeys : 256;
		s_keys = realloc(s_keys, s_capkeys * sizeof(*s_keys));
		if (!s_keys)
			goto oom;
	}
	e = &s_keys[s_nkeys++];
	memset(e, 0, sizeof(*e));
	e->phase = phase;
	e->point = point;
	e->k = k;
	e->end_host = e->last_sent = INT64_MIN;
	e->h = malloc(sizeof(*e->h));
	if (!e->h)
		goto oom;
	lst_hist_init(e->h);
	return e;
oom:
	fprintf(stderr, "lockstep-swarm: out of memory for the truth\n");
	exit(1);
}

/* dst += src over the buckets listed in idx (repeats allowed), and empty src. */
static void s_merge_clear(lst_hist *dst, lst_hist *src, const unsigned *idx, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		dst->buckets[idx[i]] += src->buckets[idx[i]];
		src->buckets[idx[i]] = 0;
	}
	if (!src->count)
		return;
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	src->count = src->overflow = src->max = 0;
	src->min = UINT64_MAX;
	src->sum = src->sumsq = 0;
}

void swarm_truth_add(struct swarm *sw, struct swarm_agent *a, const lst_sample *s, int64_t end_host,
		     int64_t sent_host)
{
	struct s_key *e = s_key(a->phase, a->point, s->interval);
	struct swarm_sent *r;

	e->flags |= s->flags;
	e->agents++;
	if (end_host > e->end_host)
		e->end_host = end_host;
	if (sent_host > e->last_sent)
		e->last_sent = sent_host;
	if (a->nsent == a->capsent) {
		a->capsent = a->capsent ? 2 * a->capsent : 64;
		a->sent = realloc(a->sent, a->capsent * sizeof(*a->sent));
		if (!a->sent) {
			fprintf(stderr, "lockstep-swarm: out of memory for the truth\n");
			exit(1);
		}
	}
	r = &a->sent[a->nsent++];
	r->phase = a->phase;
	r->point = a->point;
	r->k = s->interval;
	r->flags = s->flags;
	for (int d = 0; d < LST_DIR_N; d++) {
		e->ios[d] += s->dir[d].ios;
		e->bytes[d] += s->dir[d].bytes;
		r->ios[d] = s->dir[d].ios;
		r->bytes[d] = s->dir[d].bytes;
		s_merge_clear(e->h, &sw->smsg->u.sample.s.dir[d].lat, sw->touched[d],
			      sw->ntouched[d]);
		sw->ntouched[d] = 0;
	}
}

static void s_write_agent(FILE *f, const struct swarm_agent *a)
{
	fprintf(f,
		"{\"name\": \"%s\", \"samples\": %llu, \"acked\": %llu, \"vanished\": %s, "
		"\"sent\": [",
		a->name, (unsigned long long)a->sent_samples, (unsigned long long)a->acked_samples,
		a->vanished ? "true" : "false");
	for (size_t i = 0; i < a->nsent; i++) {
		const struct swarm_sent *r = &a->sent[i];

		fprintf(f, "%s[%u, %u, %lld, %u, %llu, %llu, %llu, %llu]", i ? ", " : "", r->phase,
			r->point, (long long)r->k, r->flags, (unsigned long long)r->ios[0],
			(unsigned long long)r->ios[1], (unsigned long long)r->bytes[0],
			(unsigned long long)r->bytes[1]);
	}
	fprintf(f, "]}");
}

static void s_write_key(FILE *f, const struct s_key *e)
{
	const lst_hist *h = e->h;

	fprintf(f,
		"{\"phase\": %u, \"point\": %u, \"interval\": %lld, \"ramp\": %s, \"agents\": %u, "
		"\"read_ios\": %llu, \"write_ios\": %llu, \"read_bytes\": %llu, "
		"\"write_bytes\": %llu, \"count\": %llu, \"sum_ns\": %.0f, \"min_ns\": %llu, "
		"\"max_ns\": %llu, \"mean_ns\": %.6f, \"p99_ns\": %llu, \"end_ns\": %lld, "
		"\"last_sent_ns\": %lld}",
		e->phase, e->point, (long long)e->k, e->flags & LST_SAMPLE_RAMP ? "true" : "false",
		e->agents, (unsigned long long)e->ios[0], (unsigned long long)e->ios[1],
		(unsigned long long)e->bytes[0], (unsigned long long)e->bytes[1],
		(unsigned long long)h->count, (double)h->sum,
		(unsigned long long)(h->count ? h->min : 0), (unsigned long long)h->max,
		lst_hist_mean(h), (unsigned long long)lst_hist_percentile(h, 99.0),
		(long long)e->end_host, (long long)e->last_sent);
}

int swarm_truth_write(const struct swarm *sw, const char *path)
{
	uint64_t sent = 0, acked = 0;
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	for (uint32_t i = 0; i < sw->n; i++) {
		sent += sw->agents[i].sent_samples;
		acked += sw->agents[i].acked_samples;
	}
	fprintf(f, "{\"samples\": %llu, \"acked\": %llu, \"agents\": [\n", (unsigned long long)sent,
		(unsigned long long)acked);
	for (uint32_t i = 0; i < sw->n; i++) {
		s_write_agent(f, &sw->agents[i]);
		fprintf(f, "%s\n", i + 1 < sw->n ? "," : "");
	}
	fprintf(f, "], \"intervals\": [\n");
	for (size_t i = 0; i < s_nkeys; i++) {
		s_write_key(f, &s_keys[i]);
		fprintf(f, "%s\n", i + 1 < s_nkeys ? "," : "");
	}
	fprintf(f, "]}\n");
	if (fclose(f))
		return -errno;
	return 0;
}

void swarm_truth_free(void)
{
	for (size_t i = 0; i < s_nkeys; i++)
		free(s_keys[i].h);
	free(s_keys);
	s_keys = NULL;
	s_nkeys = s_capkeys = 0;
}
