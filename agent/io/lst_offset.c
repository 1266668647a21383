/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The access-distribution generator (lst_offset.h). Zipf follows Hörmann & Derflinger,
 * "Rejection-inversion to generate variates from monotone discrete distributions" (1996), in
 * the form Apache Commons RNG uses: invert the integral H of h(x) = x^-θ, round to the nearest
 * rank, and accept at once when the rank is close enough to the inverse (s), else compare with
 * H(k + 1/2) - h(k). The helpers keep (e^x - 1)/x and log(1 + x)/x accurate near x = 0, so θ
 * close to 1 and regions of billions of blocks stay exact.
 */
#include "lst_offset.h"

#include <math.h>
#include <string.h>

#include "lst_verify.h"

#define S_NORMAL_TRIES 64 /* redraws of a normal draw outside the region before clamping */

/* u in [0, 1), 53 bits. */
static inline double s_unit(uint64_t *rng)
{
	return (double)(lst_rand64(rng) >> 11) * 0x1p-53;
}

/* log(1 + x) / x, accurate near 0. */
static double s_helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

/* (e^x - 1) / x, accurate near 0. */
static double s_helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

/* H(x) = ((x^(1-θ)) - 1) / (1 - θ): an integral of h. */
static double s_hint(const struct lst_offset *o, double x)
{
	double lx = log(x);

	return s_helper2((1 - o->theta) * lx) * lx;
}

static double s_h(const struct lst_offset *o, double x)
{
	return exp(-o->theta * log(x));
}

static double s_hint_inv(const struct lst_offset *o, double x)
{
	double t = x * (1 - o->theta);

	if (t < -1)
		t = -1;
	return exp(s_helper1(t) * x);
}

static void s_zipf_init(struct lst_offset *o, double theta)
{
	o->theta = theta;
	o->h_x1 = s_hint(o, 1.5) - 1;
	o->h_n = s_hint(o, (double)o->nblocks + 0.5);
	o->s = 2 - s_hint_inv(o, s_hint(o, 2.5) - s_h(o, 2));
}

/* A rank in [1, nblocks]. */
static uint64_t s_zipf(const struct lst_offset *o, uint64_t *rng)
{
	for (;;) {
		double u = o->h_n + s_unit(rng) * (o->h_x1 - o->h_n);
		double x = s_hint_inv(o, u);
		double kd = floor(x + 0.5);
		uint64_t k;

		if (kd < 1)
			kd = 1;
		else if (kd > (double)o->nblocks)
			kd = (double)o->nblocks;
		k = (uint64_t)kd;
		if (kd - x <= o->s || u >= s_hint(o, kd + 0.5) - s_h(o, kd))
			return k;
	}
}

static uint64_t s_pareto(const struct lst_offset *o, uint64_t *rng)
{
	uint64_t k = (uint64_t)((double)(o->nblocks - 1) * pow(s_unit(rng), o->pareto_pow));

	return k < o->nblocks ? k : o->nblocks - 1;
}

static double s_gauss(struct lst_offset *o, uint64_t *rng)
{
	double u1, u2, r;

	if (o->have_spare) {
		o->have_spare = false;
		return o->spare;
	}
	u1 = 1.0 - s_unit(rng); /* (0, 1]: log is finite */
	u2 = s_unit(rng);
	r = sqrt(-2.0 * log(u1));
	o->spare = r * sin(2 * M_PI * u2);
	o->have_spare = true;
	return r * cos(2 * M_PI * u2);
}

static uint64_t s_normal(struct lst_offset *o, uint64_t *rng)
{
	double x = 0;

	for (int i = 0; i < S_NORMAL_TRIES; i++) {
		x = o->mean + o->sd * s_gauss(o, rng);
		if (x >= 0 && x < (double)o->nblocks)
			return (uint64_t)x;
	}
	return x < 0 ? 0 : o->nblocks - 1;
}

static void s_zoned_init(struct lst_offset *o, const struct lst_dist *d)
{
	uint64_t access = 0, size = 0;

	o->nzones = (int)(d->nzones < LST_ZONES_MAX ? d->nzones : LST_ZONES_MAX);
	for (int i = 0; i < o->nzones; i++) {
		uint64_t a = o->nblocks * size / 100, b;

		access += (uint64_t)d->zone[i].access_pct;
		size += (uint64_t)d->zone[i].size_pct;
		b = o->nblocks * size / 100;
		if (i == o->nzones - 1)
			b = o->nblocks;
		if (a >= o->nblocks)
			a = o->nblocks - 1;
		o->start[i] = a;
		o->len[i] =
			b > a ? b - a : 1; /* a region too small for the zone: its first block */
		o->below[i] = (access << 32) / 100;
	}
	o->below[o->nzones - 1] = (uint64_t)1 << 32;
}

static uint64_t s_zoned(const struct lst_offset *o, uint64_t *rng)
{
	uint64_t r = lst_rand64(rng);
	uint64_t pick = r >> 32, within = r & 0xffffffffu;
	int i = 0;

	while (i < o->nzones - 1 && pick >= o->below[i])
		i++;
	if (o->len[i] >> 32) /* a zone of 2^32 blocks or more: a fresh 64-bit draw */
		return o->start[i] +
		       (uint64_t)(((unsigned __int128)lst_rand64(rng) * o->len[i]) >> 64);
	return o->start[i] + ((within * o->len[i]) >> 32);
}

void lst_offset_init(struct lst_offset *o, const struct lst_dist *d, uint64_t nblocks, uint64_t lo,
		     uint64_t bs)
{
	memset(o, 0, sizeof(*o));
	o->kind = (int)d->kind;
	o->nblocks = nblocks ? nblocks : 1;
	o->lo = lo;
	o->bs = bs;
	switch (o->kind) {
	case LST_DIST_ZIPF:
		s_zipf_init(o, d->param);
		break;
	case LST_DIST_PARETO:
		o->pareto_pow = log(d->param) / log(1.0 - d->param);
		break;
	case LST_DIST_NORMAL:
		o->mean = (double)o->nblocks / 2;
		o->sd = d->param / 100.0 * (double)o->nblocks;
		break;
	case LST_DIST_ZONED:
		if (d->nzones > 0)
			s_zoned_init(o, d);
		else
			o->kind = LST_DIST_RANDOM;
		break;
	default:
		o->kind = LST_DIST_RANDOM;
		break;
	}
}

uint64_t lst_offset_next(struct lst_offset *o, uint64_t *rng)
{
	switch (o->kind) {
	case LST_DIST_ZIPF:
		return s_zipf(o, rng) - 1;
	case LST_DIST_PARETO:
		return s_pareto(o, rng);
	case LST_DIST_NORMAL:
		return s_normal(o, rng);
	case LST_DIST_ZONED:
		return s_zoned(o, rng);
	default:
		return (uint64_t)(((unsigned __int128)lst_rand64(rng) * o->nblocks) >> 64);
	}
}
