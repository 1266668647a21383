/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Steady-state verdict tests. Every expected number is worked out by hand in the comment next
 * to the series (x = 0 .. N-1 over the window; slope = (N sum xy - sum x sum y) /
 * (N sum x^2 - (sum x)^2)), and random series are checked against a textbook least-squares fit
 * in long double, so the module's own arithmetic is never the oracle.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "lst_steady.h"
#include "lst_test.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static struct lst_steady s_eval(const double *v, size_t n, size_t window)
{
	struct lst_steady s;

	lst_steady_eval(v, n, window, LST_STEADY_DATA_PCT, LST_STEADY_SLOPE_PCT, &s);
	return s;
}

static void s_flat(void)
{
	static const double v[] = { 100, 100, 100, 100, 100 };
	/* 0.1 + 0.1 + ... does not sum to 0.5 exactly; the average must still be 0.1 exactly */
	static const double tenth[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	static const double big[] = { 1e15 + 1, 1e15 + 1, 1e15 + 1, 1e15 + 1 };
	struct lst_steady s = s_eval(v, N_OF(v), 5);

	T_ASSERT(s.reached && s.enough && s.data_ok && s.slope_ok);
	T_EQ_INT(s.rounds, 5);
	T_EQ_INT(s.window, 5);
	T_EQ_INT(s.first, 0);
	T_EQ_INT(s.last, 4);
	T_ASSERT(s.average == 100 && s.min == 100 && s.max == 100);
	T_ASSERT(s.slope == 0 && s.intercept == 100);
	T_ASSERT(s.data_excursion_pct == 0 && s.slope_excursion_pct == 0);
	T_NEAR(s.max_data_pct, 20, 0);
	T_NEAR(s.max_slope_pct, 10, 0);

	s = s_eval(tenth, N_OF(tenth), 5);
	T_ASSERT(s.reached);
	T_EQ_INT(s.first, 2);
	T_EQ_INT(s.last, 6);
	T_ASSERT(s.average == 0.1 && s.slope == 0 && s.data_excursion_pct == 0);

	s = s_eval(big, N_OF(big), 4);
	T_ASSERT(s.reached && s.average == 1e15 + 1 && s.slope == 0);
}

static void s_drift(void)
{
	/*
	 * 100, 103, 106, 109, 112: average 106, range 12 = 11.32% (passes 20%); slope 3, the line
	 * changes 3 x 4 = 12 = 11.32% of 106 (fails 10%). Intercept 100.
	 */
	static const double fail[] = { 100, 103, 106, 109, 112 };
	/* 100, 102, .., 108: average 104, range 8 = 7.69%, slope 2, change 8 = 7.69%: steady */
	static const double pass[] = { 100, 102, 104, 106, 108 };
	struct lst_steady s = s_eval(fail, N_OF(fail), 5);
	char why[256];

	T_ASSERT(!s.reached && s.data_ok && !s.slope_ok);
	T_NEAR(s.average, 106, 1e-12);
	T_NEAR(s.slope, 3, 1e-12);
	T_NEAR(s.intercept, 100, 1e-12);
	T_NEAR(s.data_excursion_pct, 1200.0 / 106, 1e-9);
	T_NEAR(s.slope_excursion_pct, 1200.0 / 106, 1e-9);
	lst_steady_explain(&s, why, sizeof(why));
	T_EQ_STR(why, "slope excursion 11.32% > 10%");

	s = s_eval(pass, N_OF(pass), 5);
	T_ASSERT(s.reached && s.data_ok && s.slope_ok);
	T_NEAR(s.slope, 2, 1e-12);
	T_NEAR(s.intercept, 100, 1e-12);
	T_NEAR(s.slope_excursion_pct, 800.0 / 104, 1e-9);
	lst_steady_explain(&s, why, sizeof(why));
	T_EQ_STR(why, "data excursion 7.69% <= 20%, slope excursion 7.69% <= 10%");

	/* falling drift: same verdict as rising, negative slope */
	{
		static const double down[] = { 112, 109, 106, 103, 100 };

		s = s_eval(down, N_OF(down), 5);
		T_ASSERT(!s.reached && s.data_ok && !s.slope_ok);
		T_NEAR(s.slope, -3, 1e-12);
		T_NEAR(s.intercept, 112, 1e-12);
	}
}

static void s_spike_and_step(void)
{
	/* 100, 100, 130, 100, 100: average 106, range 30 = 28.30%; symmetric, so slope 0 */
	static const double spike[] = { 100, 100, 130, 100, 100 };
	/*
	 * 100, 100, 100, 130, 130: sum y 560, sum xy 0+100+200+390+520 = 1210, sum x 10,
	 * sum x^2 30: slope (5*1210 - 10*560) / (5*30 - 100) = 450 / 50 = 9, intercept
	 * 112 - 9*2 = 94; range 30 = 26.79% of 112, change 36 = 32.14%.
	 */
	static const double step[] = { 100, 100, 100, 130, 130 };
	struct lst_steady s = s_eval(spike, N_OF(spike), 5);
	char why[256];

	T_ASSERT(!s.reached && !s.data_ok && s.slope_ok);
	T_NEAR(s.average, 106, 1e-12);
	T_ASSERT(s.min == 100 && s.max == 130);
	T_ASSERT(s.slope == 0);
	T_NEAR(s.data_excursion_pct, 3000.0 / 106, 1e-9);
	lst_steady_explain(&s, why, sizeof(why));
	T_EQ_STR(why, "data excursion 28.30% > 20%");

	s = s_eval(step, N_OF(step), 5);
	T_ASSERT(!s.reached && !s.data_ok && !s.slope_ok);
	T_NEAR(s.slope, 9, 1e-12);
	T_NEAR(s.intercept, 94, 1e-12);
	T_NEAR(s.data_excursion_pct, 3000.0 / 112, 1e-9);
	T_NEAR(s.slope_excursion_pct, 3600.0 / 112, 1e-9);
	lst_steady_explain(&s, why, sizeof(why));
	T_EQ_STR(why, "data excursion 26.79% > 20%, slope excursion 32.14% > 10%");
}

static void s_data_edge(void)
{
	/*
	 * 90, 110, 100, 100, 100: average 100, range 20 = exactly 20%. Slope: sum xy = 0 + 110 +
	 * 200 + 300 + 400 = 1010, (5*1010 - 10*500) / 50 = 1, change 4 = 4%.
	 */
	static const double edge[] = { 90, 110, 100, 100, 100 };
	/* the same scaled by 1/100: 1.1 - 0.9 is 0.20000000000000007 in binary, still the edge */
	static const double edge_fp[] = { 0.9, 1.1, 1.0, 1.0, 1.0 };
	/* one step over: range 20.001, average 100.0002, limit 20.00004 */
	static const double over[] = { 90, 110.001, 100, 100, 100 };
	static const double over_fp[] = { 0.9, 1.10001, 1.0, 1.0, 1.0 };
	struct lst_steady s = s_eval(edge, N_OF(edge), 5);

	T_ASSERT(1.1 - 0.9 > 0.2); /* the premise of edge_fp */
	T_ASSERT(s.reached && s.data_ok && s.slope_ok);
	T_NEAR(s.data_excursion_pct, 20, 1e-12);
	T_NEAR(s.slope, 1, 1e-12);
	T_NEAR(s.slope_excursion_pct, 4, 1e-12);

	s = s_eval(edge_fp, N_OF(edge_fp), 5);
	T_ASSERT(s.reached && s.data_ok);
	T_NEAR(s.data_excursion_pct, 20, 1e-9);

	s = s_eval(over, N_OF(over), 5);
	T_ASSERT(!s.reached && !s.data_ok && s.slope_ok);
	s = s_eval(over_fp, N_OF(over_fp), 5);
	T_ASSERT(!s.reached && !s.data_ok);

	/* other limits: the same series is at 10% data excursion with a 10% limit... */
	{
		static const double ten[] = { 95, 105, 100, 100, 100 };

		lst_steady_eval(ten, N_OF(ten), 5, 10, 10, &s);
		T_ASSERT(s.reached && s.data_ok);
		lst_steady_eval(ten, N_OF(ten), 5, 9.99, 10, &s);
		T_ASSERT(!s.reached && !s.data_ok);
	}
}

static void s_slope_edge(void)
{
	/*
	 * N = 5, y = a + b x: average a + 2b, change 4b; 4b = 0.1 (a + 2b) when a = 38 b.
	 * 38, 39, 40, 41, 42: slope 1, change 4 = 10% of 40 exactly; range 4 = 10% passes.
	 */
	static const double edge[] = { 38, 39, 40, 41, 42 };
	static const double edge_fp[] = { 3.8, 3.9, 4.0, 4.1, 4.2 };
	/*
	 * Over: 38 .. 41, 42.001: sum y 200.001, sum xy 410.004; slope (2050.02 - 2000.01) / 50 =
	 * 1.0002, change 4.0008 > 10% of 40.0002 = 4.00002.
	 */
	static const double over[] = { 38, 39, 40, 41, 42.001 };
	/* N = 4: change 3b = 0.1 (a + 1.5b) when a = 28.5 b; b = 2: 57, 59, 61, 63, average 60 */
	static const double edge4[] = { 57, 59, 61, 63 };
	static const double over4[] = { 57, 59, 61, 63.001 };
	struct lst_steady s = s_eval(edge, N_OF(edge), 5);

	T_ASSERT(s.reached && s.slope_ok && s.data_ok);
	T_NEAR(s.slope, 1, 1e-12);
	T_NEAR(s.intercept, 38, 1e-12);
	T_NEAR(s.slope_excursion_pct, 10, 1e-12);

	s = s_eval(edge_fp, N_OF(edge_fp), 5);
	T_ASSERT(s.reached && s.slope_ok);
	T_NEAR(s.slope_excursion_pct, 10, 1e-9);

	s = s_eval(over, N_OF(over), 5);
	T_ASSERT(!s.reached && !s.slope_ok && s.data_ok);
	T_NEAR(s.slope, 1.0002, 1e-12);
	T_NEAR(s.slope_excursion_pct, 400.08 / 40.0002, 1e-9);

	s = s_eval(edge4, N_OF(edge4), 4);
	T_ASSERT(s.reached && s.slope_ok);
	T_NEAR(s.slope, 2, 1e-12);
	T_NEAR(s.slope_excursion_pct, 10, 1e-12);
	s = s_eval(over4, N_OF(over4), 4);
	T_ASSERT(!s.reached && !s.slope_ok);
}

static void s_too_few(void)
{
	static const double v[] = { 100, 100, 100 };
	struct lst_steady s = s_eval(v, N_OF(v), 5);
	char why[256];

	T_ASSERT(!s.enough && !s.reached);
	/* the statistics still describe what exists */
	T_ASSERT(s.data_ok && s.slope_ok && s.average == 100);
	T_EQ_INT(s.rounds, 3);
	T_EQ_INT(s.first, 0);
	T_EQ_INT(s.last, 2);
	lst_steady_explain(&s, why, sizeof(why));
	T_EQ_STR(why, "need 5 rounds, have 3");

	s = s_eval(v, 0, 5);
	T_ASSERT(!s.enough && !s.reached);
	T_EQ_INT(s.rounds, 0);
	T_EQ_INT(s.first, 0);
	T_EQ_INT(s.last, 0);
	T_ASSERT(s.average == 0 && s.slope == 0);
	lst_steady_explain(&s, why, sizeof(why));
	T_EQ_STR(why, "need 5 rounds, have 0");
	s = s_eval(NULL, 0, 4);
	T_ASSERT(!s.reached);

	s = s_eval(v, 1, 2);
	T_ASSERT(!s.enough && !s.reached && s.slope == 0 && s.average == 100);
	lst_steady_explain(&s, why, sizeof(why));
	T_EQ_STR(why, "need 2 rounds, have 1");

	/* exactly the window is enough */
	s = s_eval(v, 3, 3);
	T_ASSERT(s.enough && s.reached);
}

static void s_window_4_vs_5(void)
{
	/*
	 * 150, 100, 101, 99, 100. Window 5: average 110, range 51 = 46.36%: fails. Window 4 (the
	 * labs' choice) drops the 150: 100, 101, 99, 100, average 100, range 2 = 2%, sum xy =
	 * 0 + 101 + 198 + 300 = 599, slope (4*599 - 6*400) / (4*14 - 36) = -4/20 = -0.2, change
	 * 0.6 = 0.6%: steady.
	 */
	static const double v[] = { 150, 100, 101, 99, 100 };
	struct lst_steady s5 = s_eval(v, N_OF(v), 5), s4 = s_eval(v, N_OF(v), 4);

	T_ASSERT(!s5.reached && !s5.data_ok);
	T_NEAR(s5.average, 110, 1e-12);
	T_NEAR(s5.data_excursion_pct, 5100.0 / 110, 1e-9);
	T_ASSERT(s4.reached);
	T_EQ_INT(s4.first, 1);
	T_EQ_INT(s4.last, 4);
	T_NEAR(s4.average, 100, 1e-12);
	T_NEAR(s4.slope, -0.2, 1e-12);
	T_NEAR(s4.intercept, 100.3, 1e-12);
	T_NEAR(s4.slope_excursion_pct, 0.6, 1e-12);

	/*
	 * The other way round: 100, 100, 100, 104, 96 is steady over 5 (range 8 = 8%, sum xy =
	 * 0+100+200+312+384 = 996, slope (4980 - 5000)/50 = -0.4, change 1.6%), and over the last
	 * 4 (100, 100, 104, 96: sum xy 0+100+208+288 = 596, slope (2384 - 2400)/20 = -0.8, change
	 * 2.4 = 2.4%) too; tighten the slope limit to 2% and only window 5 passes.
	 */
	{
		static const double w[] = { 100, 100, 100, 104, 96 };

		lst_steady_eval(w, N_OF(w), 5, 20, 2, &s5);
		lst_steady_eval(w, N_OF(w), 4, 20, 2, &s4);
		T_NEAR(s5.slope, -0.4, 1e-12);
		T_NEAR(s4.slope, -0.8, 1e-12);
		T_ASSERT(s5.reached);
		T_ASSERT(!s4.reached && !s4.slope_ok);
	}
}

static void s_first(void)
{
	/*
	 * A write-saturation-like start: two high rounds, then 101, 100, 99, 100, 101, 100...
	 * Windows of 5 ending at indexes 4 and 5 contain 300 or 200; the window ending at index
	 * 6 (round 7) is 101, 100, 99, 100, 101: range 2, symmetric so slope 0: steady.
	 */
	static const double v[] = { 300, 200, 101, 100, 99, 100, 101, 100, 100, 100 };
	/* 10% growth per round never settles */
	static const double grow[] = { 100, 110, 121, 133.1, 146.41, 161.05, 177.16, 194.87 };
	struct lst_steady s;

	T_EQ_INT(lst_steady_first(v, N_OF(v), 5, 20, 10), 6);
	lst_steady_eval(v, 6, 5, 20, 10, &s);
	T_ASSERT(!s.reached);
	lst_steady_eval(v, 7, 5, 20, 10, &s);
	T_ASSERT(s.reached);
	T_EQ_INT(s.first, 2);
	T_EQ_INT(lst_steady_first(v, 6, 5, 20, 10), -1);
	T_EQ_INT(lst_steady_first(v, 7, 5, 20, 10), 6);
	/* window 4: 101, 100, 99, 100 ends at index 5 */
	T_EQ_INT(lst_steady_first(v, N_OF(v), 4, 20, 10), 5);
	T_EQ_INT(lst_steady_first(grow, N_OF(grow), 5, 20, 10), -1);
	T_EQ_INT(lst_steady_first(grow, 0, 5, 20, 10), -1);
	T_EQ_INT(lst_steady_first(v, 3, 5, 20, 10), -1);
}

static void s_zero_and_negative(void)
{
	static const double zero[] = { 0, 0, 0, 0, 0 };
	static const double neg[] = { -5, -5, -5, -5, -5 };
	static const double mixed[] = { -1, 1, -1, 1, 0 };
	struct lst_steady s = s_eval(zero, N_OF(zero), 5);
	char why[256];

	/* the criteria hold literally (0 <= 0) but zero IOPS is not a steady state */
	T_ASSERT(s.enough && !s.reached && s.data_ok && s.slope_ok);
	T_ASSERT(s.data_excursion_pct == 0 && s.slope_excursion_pct == 0);
	lst_steady_explain(&s, why, sizeof(why));
	T_CONTAINS(why, "average is 0");

	s = s_eval(neg, N_OF(neg), 5);
	T_ASSERT(!s.reached && s.average == -5);
	T_ASSERT(s.data_excursion_pct == 0 && s.slope_excursion_pct == 0);
	lst_steady_explain(&s, why, sizeof(why));
	T_CONTAINS(why, "average is -5");

	s = s_eval(mixed, N_OF(mixed), 5);
	T_ASSERT(!s.reached && !s.data_ok);
	T_NEAR(s.average, 0, 0);
	T_ASSERT(isinf(s.data_excursion_pct));
	/* sum xy = 0 + 1 - 2 + 3 + 0 = 2, slope (10 - 0) / 50 = 0.2 */
	T_NEAR(s.slope, 0.2, 1e-12);
	T_ASSERT(isinf(s.slope_excursion_pct));

	/* a NaN (a value that failed to parse upstream) fails both criteria */
	{
		double nan_v[] = { 100, 100, NAN, 100, 100 };

		s = s_eval(nan_v, N_OF(nan_v), 5);
		T_ASSERT(!s.reached && !s.data_ok && !s.slope_ok);
	}
}

/* xorshift64*: deterministic, independent of libc's rand(). */
static uint64_t s_state = 0x2545f4914f6cdd1dull;

static double s_unit(void)
{
	s_state ^= s_state >> 12;
	s_state ^= s_state << 25;
	s_state ^= s_state >> 27;
	return (double)((s_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/*
 * Random windows against the textbook fit in long double. Decisions are compared only when both
 * excursions are clear of their limits by 1e-6, where rounding cannot matter.
 */
static void s_against_reference(void)
{
	double v[40];

	for (int iter = 0; iter < 20000; iter++) {
		size_t n = 1 + (size_t)(s_unit() * 39), window = 2 + (size_t)(s_unit() * 9);
		double base = 1 + s_unit() * 1e6, noise = s_unit() * 0.4, drift = s_unit() * 0.05;
		long double sx = 0, sy = 0, sxx = 0, sxy = 0, m, slope, icpt, avg, lo, hi;
		struct lst_steady s;
		size_t first;

		for (size_t i = 0; i < n; i++)
			v[i] = base * (1 + noise * (s_unit() - 0.5) + drift * (double)i);
		s = s_eval(v, n, window);
		first = n > window ? n - window : 0;
		m = (long double)(n - first);
		lo = hi = v[first];
		for (size_t i = first; i < n; i++) {
			long double x = (long double)(i - first), y = v[i];

			sx += x;
			sy += y;
			sxx += x * x;
			sxy += x * y;
			lo = y < lo ? y : lo;
			hi = y > hi ? y : hi;
		}
		avg = sy / m;
		slope = m > 1 ? (m * sxy - sx * sy) / (m * sxx - sx * sx) : 0;
		icpt = (sy - slope * sx) / m;

		T_EQ_INT(s.first, first);
		T_EQ_INT(s.last, n - 1);
		T_EQ_INT(s.enough, n >= window);
		T_ASSERT(s.min == (double)lo && s.max == (double)hi);
		T_NEAR(s.average, (double)avg, 1e-12 * base);
		T_NEAR(s.slope, (double)slope, 1e-9 * base);
		T_NEAR(s.intercept, (double)icpt, 1e-9 * base);
		{
			double dpct = (double)((hi - lo) / avg * 100);
			double spct = (double)(fabsl(slope) * (m - 1) / avg * 100);
			bool clear = fabs(dpct - 20) > 1e-6 && fabs(spct - 10) > 1e-6;

			T_NEAR(s.data_excursion_pct, dpct, 1e-9);
			T_NEAR(s.slope_excursion_pct, spct, 1e-9);
			if (clear) {
				T_EQ_INT(s.data_ok, dpct <= 20);
				T_EQ_INT(s.slope_ok, spct <= 10);
				T_EQ_INT(s.reached, n >= window && dpct <= 20 && spct <= 10);
			}
		}
	}
}

/* The verdict as one phrase, and why a test stopped, as every output words them. */
static void s_phrases(void)
{
	char b[160];

	T_EQ_STR(lst_steady_phrase(true, 12, 8, 12, LST_STOP_STEADY, NAN, b, sizeof(b)),
		 "steady in rounds 8-12");
	T_EQ_STR(lst_steady_phrase(false, 12, 8, 12, LST_STOP_ROUND_LIMIT, NAN, b, sizeof(b)),
		 "NOT steady after 12 rounds (round limit)");
	T_EQ_STR(lst_steady_phrase(false, 4, 3, 4, LST_STOP_CAPACITY, 4.0, b, sizeof(b)),
		 "NOT steady after 4 rounds (stopped at 4.0x capacity)");
	T_EQ_STR(lst_steady_phrase(false, 1, 1, 1, LST_STOP_INTERRUPTED, NAN, b, sizeof(b)),
		 "NOT steady: one round (interrupted)");
	/* a WSAT whose criteria pass: steady, whatever ended it */
	T_EQ_STR(lst_steady_phrase(true, 4, 3, 4, LST_STOP_CAPACITY, 4.0, b, sizeof(b)),
		 "steady in rounds 3-4");
	T_EQ_STR(lst_stop_text(LST_STOP_CAPACITY, 4, 1073741824.0, 4.0, b, sizeof(b)),
		 "stopped: 4.0x capacity written (1 GiB)");
	T_EQ_STR(lst_stop_text(LST_STOP_ROUND_LIMIT, 12, -1, NAN, b, sizeof(b)),
		 "stopped: round limit (12 rounds)");
	T_EQ_STR(lst_stop_text(LST_STOP_DONE, 1, 0, NAN, b, sizeof(b)), "");
	for (int i = 0; i < LST_STOP_N; i++)
		T_EQ_INT(lst_stop_find(lst_stop_names[i]), i);
	T_EQ_INT(lst_stop_find("later"), -1);
	T_EQ_INT(lst_stop_find(NULL), -1);
}

int main(void)
{
	s_phrases();
	s_flat();
	s_drift();
	s_spike_and_step();
	s_data_edge();
	s_slope_edge();
	s_too_few();
	s_window_4_vs_5();
	s_first();
	s_zero_and_negative();
	s_against_reference();
	return 0;
}
