/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a random I/O lands: the generator behind random_distribution. Given a job's
 * distribution (lst_mix.h), its region [lo, lo + nblocks * bs) and its random stream
 * (lst_rand64, the job's I/O sequence), lst_offset_next picks the next block in O(1) and with
 * no per-block table, so a distribution over billions of blocks costs no memory:
 *
 *   zipf:θ     rejection-inversion (Hörmann & Derflinger 1996), any θ > 0 but 1; a few
 *              log/exp per draw, about 1.1 tries on average
 *   pareto:h   inversion, fio's form: block = (n - 1) * u^(log h / log(1 - h)), so the first
 *              h of the blocks take 1 - h of the I/Os
 *   normal:σ   Box-Muller, centred on the region's middle, σ in percent of the region; a draw
 *              outside the region is drawn again (truncated, not piled on the edges)
 *   zoned      the zone by its share of I/Os, then uniform within its slice of the region
 *
 * Hot blocks sit at the region's start: rank 1 of zipf and pareto is the first block, zones go
 * in order from the start. fio scatters zipf/pareto ranks with a hash; we do not, so a hot set
 * is one contiguous band (what an array's tiering and caching see as a hot band, and what a
 * plan's hotband: describes) and tests can check the shares from the offsets alone. Each job's
 * region is its path's region (a split share's slice), so the distribution covers that slice.
 *
 * Deterministic: the same dist, nblocks and random state give the same blocks, on any host
 * with the same libm. A plain struct in the job's memory; not thread-safe (one per job).
 */
#ifndef LST_OFFSET_H
#define LST_OFFSET_H

#include <stdbool.h>
#include <stdint.h>

#include "lst_mix.h"

struct lst_offset {
	int kind;	  /* enum lst_dist_kind */
	uint64_t nblocks; /* blocks in the region, >= 1 */
	uint64_t lo, bs;  /* the region's first byte and the block size */
	/* zipf: θ and the rejection-inversion constants */
	double theta, h_x1, h_n, s;
	/* pareto: the exponent of u */
	double pareto_pow;
	/* normal: mean and deviation in blocks, the spare Box-Muller draw */
	double mean, sd, spare;
	bool have_spare;
	/* zoned: zone i takes draws below below[i] (of 2^32), blocks [start[i], start[i] + len[i]) */
	int nzones;
	uint64_t below[LST_ZONES_MAX];
	uint64_t start[LST_ZONES_MAX], len[LST_ZONES_MAX];
};

/* Set o up for d over nblocks blocks of bs bytes from byte lo. nblocks 0 counts as 1. */
void lst_offset_init(struct lst_offset *o, const struct lst_dist *d, uint64_t nblocks, uint64_t lo,
		     uint64_t bs);

/* Whether o changes anything: false for the uniform distribution (the job's own draw). */
static inline bool lst_offset_active(const struct lst_offset *o)
{
	return o->kind != LST_DIST_RANDOM;
}

/* The next block index in [0, nblocks), drawing from *rng (lst_rand64). */
uint64_t lst_offset_next(struct lst_offset *o, uint64_t *rng);

/* The next I/O's byte offset: lo + lst_offset_next() * bs. */
static inline uint64_t lst_offset_at(struct lst_offset *o, uint64_t *rng)
{
	return o->lo + lst_offset_next(o, rng) * o->bs;
}

#endif
