/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run-to-run noise: the t distribution against the published tables (two-sided 95% critical
 * values of Student's t), the interval of known series worked out by hand, and Welch's test on
 * the textbook example (Welch 1947 as Wikipedia's "Welch's t-test" gives it: t = -2.46,
 * df = 24.9, p = 0.021), so the module's own arithmetic is never the oracle.
 */
#include <math.h>

#include "lst_noise.h"
#include "lst_test.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void s_quantiles(void)
{
	static const struct {
		double df, t;
	} table[] = { { 1, 12.7062 }, { 2, 4.3027 },  { 4, 2.7764 },
		      { 10, 2.2281 }, { 30, 2.0423 }, { 1000, 1.9623 } };

	for (size_t i = 0; i < N_OF(table); i++) {
		T_NEAR(lst_noise_t_quantile(0.95, table[i].df), table[i].t, 1e-4);
		T_NEAR(lst_noise_t_p(table[i].t, table[i].df), 0.05, 1e-4);
	}
	/* t = 2 with 5 df: p = 0.1019 (tables); t = 0: p = 1; symmetric */
	T_NEAR(lst_noise_t_p(2, 5), 0.1019, 1e-4);
	T_NEAR(lst_noise_t_p(-2, 5), 0.1019, 1e-4);
	T_NEAR(lst_noise_t_p(0, 3), 1, 1e-12);
	T_ASSERT(isnan(lst_noise_t_p(1, 0)));
}

static void s_interval(void)
{
	/* 10, 12, 14: mean 12, s = 2, half-width 4.3027 * 2 / sqrt(3) = 4.9683 */
	static const double v[] = { 10, 12, 14 };
	static const double one[] = { 5 };
	static const double gaps[] = { NAN, 7, 7, INFINITY };
	struct lst_noise s;

	lst_noise_of(v, N_OF(v), &s);
	T_EQ_INT(s.n, 3);
	T_NEAR(s.mean, 12, 1e-12);
	T_NEAR(s.sd, 2, 1e-12);
	T_NEAR(s.ci_low, 12 - 4.9683, 1e-3);
	T_NEAR(s.ci_high, 12 + 4.9683, 1e-3);
	/* one value: a mean, no estimate of noise */
	lst_noise_of(one, 1, &s);
	T_ASSERT(s.n == 1 && s.mean == 5 && isnan(s.sd) && isnan(s.ci_low) && isnan(s.ci_high));
	/* values that are not numbers are left out; no spread: a zero-width interval */
	lst_noise_of(gaps, N_OF(gaps), &s);
	T_ASSERT(s.n == 2 && s.mean == 7 && s.sd == 0 && s.ci_low == 7 && s.ci_high == 7);
}

static void s_welch(void)
{
	static const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				    21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				    24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	static const double same1[] = { 1000.1, 999.9, 1000.0 },
			    same2[] = { 1000.2, 999.8, 1000.1 };
	/* a tiny spread and a 0.3% offset: significant, but below the 1% a change needs */
	static const double off1[] = { 1000.0, 1000.1, 999.9 }, off2[] = { 1003.0, 1003.1, 1002.9 };
	static const double twice[] = { 2000.3, 1999.8, 2000.1 };
	struct lst_noise na, nb;
	double p;

	lst_noise_of(a, N_OF(a), &na);
	lst_noise_of(b, N_OF(b), &nb);
	T_EQ_INT(lst_noise_welch(&na, &nb, &p), LST_NOISE_CHANGED);
	T_NEAR(p, 0.021, 1e-3);
	lst_noise_of(same1, 3, &na);
	lst_noise_of(same2, 3, &nb);
	T_EQ_INT(lst_noise_welch(&na, &nb, &p), LST_NOISE_WITHIN);
	T_ASSERT(p > 0.5);
	lst_noise_of(off1, 3, &na);
	lst_noise_of(off2, 3, &nb);
	T_EQ_INT(lst_noise_welch(&na, &nb, &p), LST_NOISE_WITHIN);
	T_ASSERT(p < 0.001);
	lst_noise_of(twice, 3, &nb);
	T_EQ_INT(lst_noise_welch(&na, &nb, NULL), LST_NOISE_CHANGED);
	/* one repeat: cannot tell */
	lst_noise_of(twice, 1, &nb);
	T_EQ_INT(lst_noise_welch(&na, &nb, &p), LST_NOISE_CANNOT_TELL);
	T_ASSERT(isnan(p));
	T_EQ_STR(lst_noise_verdict_name(LST_NOISE_CANNOT_TELL), "cannot tell");
	T_EQ_STR(lst_noise_verdict_name(LST_NOISE_WITHIN), "within noise");
	T_EQ_STR(lst_noise_verdict_name(LST_NOISE_CHANGED), "changed");
}

int main(void)
{
	s_quantiles();
	s_interval();
	s_welch();
	return 0;
}
