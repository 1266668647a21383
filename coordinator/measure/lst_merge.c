/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-point merge. Pending intervals live in a ring of rows, row k at (head + k - base) mod
 * cap; agents run in step, so the window stays a few intervals long, and it grows when one agent
 * runs ahead, up to max_ahead rows: beyond that the oldest rows are emitted without
 * the agents that lag (their samples for them arrive late), so memory stays bounded over a
 * day-long point whatever one agent does.
 *
 * A row keeps each agent's sample packed (s_slot: the counters and the two histograms in their
 * sparse encoding, a few hundred bytes), not as an lst_sample of two 16 KiB histograms: with
 * 1,000 agents and a window of a few rows that is the difference between a few MB and hundreds.
 * Slots keep their buffers when the ring reuses the row. A row is unpacked into one set of
 * nagents samples (reused, cleared sparsely) when it is emitted.
 */
#include "lst_merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_util.h"

/* One agent's sample in a row: lst_sample without its histograms, which are in enc. */
struct s_slot {
	int64_t interval, start_ns, end_ns;
	uint32_t flags;
	uint32_t len[LST_DIR_N]; /* bytes of each histogram's encoding, one after the other */
	uint64_t ios[LST_DIR_N], bytes[LST_DIR_N], errors[LST_DIR_N];
	struct lst_sample_health health;
	struct lst_sample_verify verify;
	struct lst_sample_trim trim;
	uint8_t *enc;
	size_t cap;
};

struct s_row {
	bool used;
	lst_sample all;
	struct s_slot *agent; /* [nagents] */
	bool *have;	      /* [nagents] */
};

struct lst_merge {
	size_t nagents;
	size_t max_ahead;
	lst_merge_fn fn;
	void *arg;
	int64_t base; /* k of the row at head */
	size_t head;  /* index of row `base` in rows */
	size_t cap;
	size_t nused; /* rows holding samples */
	struct s_row *rows;
	int64_t *next_k; /* per agent: next interval it may send */
	bool *done;
	struct lst_merge_totals *tot; /* [nagents + 1] */
	const lst_sample **ptrs;
	lst_sample *out;  /* [nagents]: a row's samples unpacked, for fn */
	lst_sample *tmp;  /* an agent's second sample for one interval (rare) */
	uint8_t *scratch; /* LST_DIR_N * LST_HIST_ENC_MAX: a sample being packed */
};

lst_merge *lst_merge_new(size_t nagents, size_t max_ahead, lst_merge_fn fn, void *arg)
{
	lst_merge *m = lst_calloc(1, sizeof(*m));

	m->nagents = nagents;
	m->max_ahead = max_ahead ? LST_MIN(max_ahead, (size_t)LST_MERGE_AHEAD_LIMIT)
				 : (size_t)LST_MERGE_MAX_AHEAD;
	m->fn = fn;
	m->arg = arg;
	m->next_k = lst_calloc(nagents, sizeof(*m->next_k));
	m->done = lst_calloc(nagents, sizeof(*m->done));
	m->tot = lst_calloc(nagents + 1, sizeof(*m->tot));
	m->ptrs = lst_calloc(nagents, sizeof(*m->ptrs));
	m->out = lst_calloc(nagents, sizeof(*m->out)); /* zero: valid empty samples */
	m->tmp = lst_calloc(1, sizeof(*m->tmp));
	m->scratch = lst_malloc(LST_DIR_N * LST_HIST_ENC_MAX);
	for (size_t a = 0; a <= nagents; a++)
		for (int d = 0; d < LST_DIR_N; d++)
			lst_hist_init(&m->tot[a].dir[d].lat);
	return m;
}

static void s_row_free(struct s_row *r, size_t nagents)
{
	if (r->agent)
		for (size_t a = 0; a < nagents; a++)
			free(r->agent[a].enc);
	free(r->agent);
	free(r->have);
}

/* slot = s, packed; scratch holds LST_DIR_N * LST_HIST_ENC_MAX bytes. */
static void s_pack(struct s_slot *slot, const lst_sample *s, uint8_t *scratch)
{
	size_t n = 0;

	slot->interval = s->interval;
	slot->start_ns = s->start_ns;
	slot->end_ns = s->end_ns;
	slot->flags = s->flags;
	for (int d = 0; d < LST_DIR_N; d++) {
		size_t len = lst_hist_encode_used(&s->dir[d].lat, scratch + n, LST_HIST_ENC_MAX);

		LST_ASSERT(len);
		slot->len[d] = (uint32_t)len;
		n += len;
		slot->ios[d] = s->dir[d].ios;
		slot->bytes[d] = s->dir[d].bytes;
		slot->errors[d] = s->dir[d].errors;
	}
	slot->health = s->health;
	slot->verify = s->verify;
	slot->trim = s->trim;
	if (n > slot->cap) {
		slot->cap = LST_MAX(n, 2 * slot->cap);
		slot->enc = lst_realloc(slot->enc, slot->cap);
	}
	memcpy(slot->enc, scratch, n);
}

/* s = the sample slot holds; s valid (initialized, or all zero): cleared sparsely. */
static void s_unpack(lst_sample *s, const struct s_slot *slot)
{
	size_t n = 0;
	lst_err err;

	s->interval = slot->interval;
	s->start_ns = slot->start_ns;
	s->end_ns = slot->end_ns;
	s->flags = slot->flags;
	for (int d = 0; d < LST_DIR_N; d++) {
		LST_ASSERT(
			!lst_hist_decode_reuse(&s->dir[d].lat, slot->enc + n, slot->len[d], &err));
		n += slot->len[d];
		s->dir[d].ios = slot->ios[d];
		s->dir[d].bytes = slot->bytes[d];
		s->dir[d].errors = slot->errors[d];
	}
	s->health = slot->health;
	s->verify = slot->verify;
	s->trim = slot->trim;
}

void lst_merge_destroy(lst_merge **p)
{
	lst_merge *m = *p;

	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		s_row_free(&m->rows[i], m->nagents);
	free(m->rows);
	free(m->out);
	free(m->tmp);
	free(m->scratch);
	free(m->next_k);
	free(m->done);
	free(m->tot);
	free(m->ptrs);
	free(m);
	*p = NULL;
}

/* The row for interval k (base <= k < base + max_ahead), growing the ring as needed. */
static struct s_row *s_row(lst_merge *m, int64_t k)
{
	size_t i = (size_t)(k - m->base);
	struct s_row *r;

	LST_ASSERT(k >= m->base && i < m->max_ahead);
	if (i >= m->cap) {
		size_t cap = LST_MIN(LST_MAX(i + 1, m->cap * 2), m->max_ahead);
		struct s_row *rows = lst_calloc(cap, sizeof(*rows));

		/* Unroll the ring: row `base` goes first. */
		for (size_t j = 0; j < m->cap; j++)
			rows[j] = m->rows[(m->head + j) % m->cap];
		free(m->rows);
		m->rows = rows;
		m->head = 0;
		m->cap = cap;
	}
	r = &m->rows[(m->head + i) % m->cap];
	if (!r->agent) {
		r->agent = lst_calloc(m->nagents, sizeof(*r->agent));
		r->have = lst_malloc(m->nagents * sizeof(*r->have));
	}
	if (!r->used) {
		r->used = true;
		m->nused++;
		lst_sample_clear(&r->all, k);
		memset(r->have, 0, m->nagents * sizeof(*r->have));
	}
	return r;
}

void lst_merge_health_add(struct lst_sample_health *t, const struct lst_sample_health *h)
{
	for (int c = 0; c < LST_ERRC_N; c++)
		t->err_class[c] += h->err_class[c];
	t->timeouts += h->timeouts;
	t->inflight = LST_MAX(t->inflight, h->inflight);
	t->oldest_inflight_ns = LST_MAX(t->oldest_inflight_ns, h->oldest_inflight_ns);
}

void lst_merge_verify_add(struct lst_sample_verify *t, const struct lst_sample_verify *v)
{
	t->ok += v->ok;
	t->pending += v->pending;
	t->unwritten += v->unwritten;
	t->bad += v->bad;
}

static void s_account(struct lst_merge_totals *t, const lst_sample *s)
{
	for (int d = 0; d < LST_DIR_N; d++) {
		t->dir[d].ios += s->dir[d].ios;
		t->dir[d].bytes += s->dir[d].bytes;
		t->dir[d].errors += s->dir[d].errors;
		lst_hist_add(&t->dir[d].lat, &s->dir[d].lat);
	}
	lst_merge_health_add(&t->health, &s->health);
	lst_merge_verify_add(&t->verify, &s->verify);
	t->trim.ios += s->trim.ios;
	t->trim.bytes += s->trim.bytes;
	t->trim.errors += s->trim.errors;
	if (s->end_ns > s->start_ns) {
		t->seconds += (double)(s->end_ns - s->start_ns) / 1e9;
		if (!t->first_start)
			t->first_start = s->start_ns;
		t->last_end = s->end_ns;
	}
	t->intervals++;
}

static void s_rates_of(struct lst_merge_totals *t)
{
	for (int d = 0; d < LST_DIR_N; d++) {
		t->iops[d] = t->seconds > 0 ? (double)t->dir[d].ios / t->seconds : 0;
		t->mbps[d] = t->seconds > 0 ? (double)t->dir[d].bytes / t->seconds / 1e6 : 0;
	}
	t->trim_iops = t->seconds > 0 ? (double)t->trim.ios / t->seconds : 0;
	t->trim_mbps = t->seconds > 0 ? (double)t->trim.bytes / t->seconds / 1e6 : 0;
}

/*
 * Rates: each agent's over its own measured time; the combined ones over the longest agent's,
 * which is the point's measured time on the shared grid. For agents that all ran the whole point
 * that is the sum of their rates; for a point an agent left early it is what the target saw.
 */
static void s_rates(lst_merge *m)
{
	struct lst_merge_totals *all = &m->tot[m->nagents];

	all->seconds = 0;
	for (size_t a = 0; a < m->nagents; a++) {
		s_rates_of(&m->tot[a]);
		all->seconds = LST_MAX(all->seconds, m->tot[a].seconds);
	}
	s_rates_of(all);
}

/* Emit rows up to and including k; base moves past k. */
static void s_emit_upto(lst_merge *m, int64_t k)
{
	while (m->base <= k && m->nused) {
		struct s_row *r = &m->rows[m->head];

		if (r->used) {
			struct lst_merge_row row = {
				.k = m->base,
				.ramp = r->all.flags & LST_SAMPLE_RAMP,
				.all = &r->all,
				.agent = m->ptrs,
				.nagents = m->nagents,
			};

			for (size_t a = 0; a < m->nagents; a++) {
				m->ptrs[a] = NULL;
				if (r->have[a]) {
					s_unpack(&m->out[a], &r->agent[a]);
					m->ptrs[a] = &m->out[a];
				}
			}
			m->fn(&row, m->arg);
			r->used = false;
			m->nused--;
		}
		m->head = (m->head + 1) % m->cap;
		m->base++;
	}
	/* No row left: jump (interval numbers may have gaps). */
	if (!m->nused && m->base <= k && k < INT64_MAX) {
		m->base = k + 1;
		m->head = 0;
	}
}

/* The highest interval every agent still in the point has passed. */
static int64_t s_ready(const lst_merge *m)
{
	int64_t ready = INT64_MAX;

	for (size_t a = 0; a < m->nagents; a++)
		if (!m->done[a])
			ready = LST_MIN(ready, m->next_k[a] - 1);
	return ready;
}

int lst_merge_check(const lst_merge *m, const lst_sample *s)
{
	if (s->interval < 0 || s->interval > LST_MERGE_MAX_INTERVAL)
		return -ERANGE;
	return s->interval < m->base ? -EALREADY : 0;
}

int lst_merge_add(lst_merge *m, size_t agent, const lst_sample *s)
{
	struct s_row *r;
	bool measured = !(s->flags & LST_SAMPLE_RAMP);
	int rc = lst_merge_check(m, s);

	LST_ASSERT(agent < m->nagents);
	if (rc == -ERANGE)
		return rc;
	/* Bounded window: emit the oldest rows without the agents that lag behind (never past
	 * s's own interval, so lst_merge_check's answer stands). */
	if (s->interval >= m->base + (int64_t)m->max_ahead)
		s_emit_upto(m, s->interval - (int64_t)m->max_ahead);
	/* -EALREADY: its row is out; counted nowhere, so rows and totals agree */
	if (!rc) {
		if (measured) {
			s_account(&m->tot[agent], s);
			s_account(&m->tot[m->nagents], s);
		}
		r = s_row(m, s->interval);
		if (r->have[agent]) { /* a second sample for one interval: add them */
			s_unpack(m->tmp, &r->agent[agent]);
			lst_sample_add(m->tmp, s);
			s_pack(&r->agent[agent], m->tmp, m->scratch);
		} else {
			s_pack(&r->agent[agent], s, m->scratch);
		}
		r->have[agent] = true;
		lst_sample_add(&r->all, s);
	}
	if (s->interval + 1 > m->next_k[agent])
		m->next_k[agent] = s->interval + 1;
	s_emit_upto(m, s_ready(m));
	return rc;
}

void lst_merge_agent_done(lst_merge *m, size_t agent)
{
	m->done[agent] = true;
	s_emit_upto(m, LST_MIN(s_ready(m), m->base + (int64_t)m->cap - 1));
}

void lst_merge_finish(lst_merge *m)
{
	for (size_t a = 0; a < m->nagents; a++)
		m->done[a] = true;
	s_emit_upto(m, m->base + (int64_t)m->cap - 1);
}

size_t lst_merge_window(const lst_merge *m)
{
	return m->cap;
}

const struct lst_merge_totals *lst_merge_totals(lst_merge *m, size_t agent)
{
	LST_ASSERT(agent <= m->nagents);
	s_rates(m);
	return &m->tot[agent];
}
