/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run-to-run noise (see lst_noise.h): Student t intervals and Welch's t-test, with the t
 * distribution from the regularized incomplete beta function (continued fraction, modified
 * Lentz), as every statistics package computes it: two-sided p = I_{df/(df+t^2)}(df/2, 1/2).
 */
#include "lst_noise.h"

#include <math.h>
#include <stdbool.h>

/* The continued fraction of the incomplete beta function I_x(a, b), x < (a+1)/(a+b+2). */
static double s_betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double aa = m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m)), del;

		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double s_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * s_betacf(a, b, x) / a;
	return 1 - front * s_betacf(b, a, 1 - x) / b;
}

double lst_noise_t_p(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return s_ibeta(df / 2, 0.5, df / (df + t * t));
}

double lst_noise_t_quantile(double level, double df)
{
	double lo = 0, hi = 1e7, alpha = 1 - level;

	if (!(df > 0) || !(level > 0 && level < 1))
		return NAN;
	/* p falls as t grows: bisect to double precision (about 80 halvings of 1e7) */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (lst_noise_t_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void lst_noise_of(const double *v, size_t n, struct lst_noise *out)
{
	double sum = 0, ss = 0, half;

	out->n = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			sum += v[i];
			out->n++;
		}
	out->mean = out->n ? sum / (double)out->n : NAN;
	out->sd = out->ci_low = out->ci_high = NAN;
	if (out->n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->sd = sqrt(ss / (double)(out->n - 1));
	half = lst_noise_t_quantile(LST_NOISE_LEVEL, (double)(out->n - 1)) * out->sd /
	       sqrt((double)out->n);
	out->ci_low = out->mean - half;
	out->ci_high = out->mean + half;
}

enum lst_noise_verdict lst_noise_welch(const struct lst_noise *a, const struct lst_noise *b,
				       double *p)
{
	double va, vb, se2, df, t, pv, base;
	bool big;

	if (p)
		*p = NAN;
	if (a->n < 2 || b->n < 2 || !isfinite(a->sd) || !isfinite(b->sd))
		return LST_NOISE_CANNOT_TELL;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	base = fabs(a->mean) > 0 ? fabs(a->mean) : fabs(b->mean);
	big = base > 0 && fabs(b->mean - a->mean) / base * 100 >= LST_NOISE_MIN_CHANGE_PCT;
	if (se2 == 0) {
		/* no spread at all: any difference is beyond noise */
		pv = a->mean == b->mean ? 1 : 0;
	} else {
		t = (b->mean - a->mean) / sqrt(se2);
		df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
		pv = lst_noise_t_p(t, df);
	}
	if (p)
		*p = pv;
	return pv < 1 - LST_NOISE_LEVEL && big ? LST_NOISE_CHANGED : LST_NOISE_WITHIN;
}

const char *lst_noise_verdict_name(enum lst_noise_verdict v)
{
	switch (v) {
	case LST_NOISE_WITHIN:
		return "within noise";
	case LST_NOISE_CHANGED:
		return "changed";
	default:
		return "cannot tell";
	}
}
