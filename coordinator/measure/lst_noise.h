/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run-to-run noise: the mean of a point's repeats with its 95% confidence interval, and whether
 * two sets of repeats differ by more than their noise.
 *
 * A repeated point (`repeat: N` in a plan) gives N values of each figure. Its interval is the
 * Student t interval, mean +- t(0.975, N-1) * s / sqrt(N) with s the sample standard deviation:
 * the textbook interval for the mean of a few values whose spread is not known beforehand. Two
 * runs' repeats are compared with Welch's t-test (unequal variances, Welch-Satterthwaite degrees
 * of freedom) at 95%: a figure has "changed" only when the test rejects equal means AND the means
 * differ by at least LST_NOISE_MIN_CHANGE_PCT, since a rate-limited workload can repeat to within
 * 0.01% and a test on such a tiny spread calls any systematic 0.1% offset significant, which no
 * storage reviewer would call a change. Fewer than two repeats on either side: it cannot tell.
 *
 * Pure arithmetic (libm only): no allocation, no state, thread-safe.
 */
#ifndef LST_NOISE_H
#define LST_NOISE_H

#include <stddef.h>

#define LST_NOISE_LEVEL 0.95	     /* the confidence of every interval and test */
#define LST_NOISE_MIN_CHANGE_PCT 1.0 /* smaller differences are never called a change */

/* The name of the test, for every output that gives a verdict. */
#define LST_NOISE_TEST "Welch's t-test at 95% on the repeats (and a change of at least 1%)"

/* A figure over its repeats. With n < 2 the spread and interval are NAN (one value is no
 * estimate of noise); with n == 0 the mean is NAN too. */
struct lst_noise {
	size_t n;
	double mean, sd;	/* sd: the sample standard deviation (n - 1) */
	double ci_low, ci_high; /* the 95% Student t interval of the mean */
};

/* The mean, spread and 95% interval of the n values v (non-finite values are skipped). */
void lst_noise_of(const double *v, size_t n, struct lst_noise *out);

/* Two-sided p-value of Student's t statistic t with df (> 0, need not be whole) degrees of
 * freedom: the probability of |T| >= |t|. NAN when df is not positive or t is NAN. */
double lst_noise_t_p(double t, double df);

/* The t such that lst_noise_t_p(t, df) == 1 - level (0.95: the 97.5% quantile). NAN when df is
 * not positive. */
double lst_noise_t_quantile(double level, double df);

enum lst_noise_verdict {
	LST_NOISE_CANNOT_TELL, /* fewer than two repeats on a side */
	LST_NOISE_WITHIN,      /* within noise */
	LST_NOISE_CHANGED,     /* changed */
};

/* Welch's t-test of a against b (see the top). *p (may be NULL) gets the p-value, NAN when it
 * cannot tell. */
enum lst_noise_verdict lst_noise_welch(const struct lst_noise *a, const struct lst_noise *b,
				       double *p);

/* "cannot tell", "within noise" or "changed". */
const char *lst_noise_verdict_name(enum lst_noise_verdict v);

#endif
