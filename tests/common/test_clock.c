/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Clock offset tests on synthetic exchanges whose truth is known: a remote clock that runs hours
 * ahead of or behind the local one (and drifts 50 ppm), one-way delays chosen per direction.
 * The NTP formulas are checked against hand arithmetic, lst_clock_best against corrupt samples,
 * and the drift model against the true offset over 10 minutes of bursts.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "lst_clock.h"
#include "lst_time.h"
#include "lst_test.h"

#define US LST_NS_PER_US
#define HOUR (3600 * LST_NS_PER_S)
#define DAY (24 * HOUR)

/* The remote clock: offset0 at local time base, drifting ppm parts per million after it. */
struct s_remote {
	int64_t offset0, base;
	double ppm;
};

static int64_t s_true_offset(const struct s_remote *r, int64_t local)
{
	return r->offset0 + (int64_t)llround(r->ppm * 1e-6 * (double)(local - r->base));
}

static int64_t s_remote_at(const struct s_remote *r, int64_t local)
{
	return local + s_true_offset(r, local);
}

/* One exchange sent at local t1: d_out on the way there, proc at the agent, d_back home. */
static struct lst_clock_sample s_exchange(const struct s_remote *r, int64_t t1, int64_t d_out,
					  int64_t proc, int64_t d_back)
{
	struct lst_clock_sample s;

	s.t1 = t1;
	s.t2 = s_remote_at(r, t1 + d_out);
	s.t3 = s_remote_at(r, t1 + d_out + proc);
	s.t4 = t1 + d_out + proc + d_back;
	return s;
}

static void s_formulas(void)
{
	/* 3 h ahead, 5 days after the local boot; 100 us out, 20 us at the agent, 30 us back */
	struct s_remote ahead = { 3 * HOUR, 0, 0 };
	struct s_remote behind = { -5 * HOUR, 0, 0 };
	struct lst_clock_sample s = s_exchange(&ahead, 5 * DAY, 100 * US, 20 * US, 30 * US);

	T_EQ_INT(s.t2, 5 * DAY + 3 * HOUR + 100 * US);
	T_EQ_INT(s.t4, 5 * DAY + 150 * US);
	/* offset = ((t2 - t1) + (t3 - t4)) / 2 = ((3h + 100us) + (3h - 30us)) / 2 = 3h + 35us */
	T_EQ_INT(lst_clock_sample_offset(&s), 3 * HOUR + 35 * US);
	/* delay = (t4 - t1) - (t3 - t2) = 150us - 20us */
	T_EQ_INT(lst_clock_sample_delay(&s), 130 * US);
	/* the truth lies within delay / 2 of the estimate */
	T_ASSERT(llabs(lst_clock_sample_offset(&s) - 3 * HOUR) <= lst_clock_sample_delay(&s) / 2);

	/* 5 h behind, the asymmetry the other way: 30 us out, 100 us back: -5h - 35us */
	s = s_exchange(&behind, 20 * HOUR, 30 * US, 20 * US, 100 * US);
	T_EQ_INT(lst_clock_sample_offset(&s), -5 * HOUR - 35 * US);
	T_EQ_INT(lst_clock_sample_delay(&s), 130 * US);

	/* symmetric delays: exact, even with the remote clock reading before its own boot */
	s = s_exchange(&behind, 1 * HOUR, 40 * US, 7 * US, 40 * US);
	T_ASSERT(s.t2 < 0);
	T_EQ_INT(lst_clock_sample_offset(&s), -5 * HOUR);
	T_EQ_INT(lst_clock_sample_delay(&s), 80 * US);

	/* clocks far apart (boot times differ by years) stay in 64-bit range */
	{
		struct s_remote far = { 3000 * DAY, 0, 0 };

		s = s_exchange(&far, 4000 * DAY, 1 * US, 1 * US, 3 * US);
		T_EQ_INT(lst_clock_sample_offset(&s), 3000 * DAY - 1 * US);
		T_EQ_INT(lst_clock_sample_delay(&s), 4 * US);
	}
}

static void s_best(void)
{
	struct s_remote r = { 2 * HOUR, 0, 0 };
	int64_t t = 10 * DAY;
	struct lst_clock_sample s[8] = {
		s_exchange(&r, t, 150 * US, 10 * US, 150 * US),		    /* delay 300 */
		s_exchange(&r, t + 1000 * US, 60 * US, 10 * US, 60 * US),   /* 120 */
		s_exchange(&r, t + 2000 * US, 50 * US, 10 * US, 30 * US),   /* 80: the winner */
		s_exchange(&r, t + 3000 * US, 100 * US, 10 * US, 100 * US), /* 200 */
		s_exchange(&r, t + 4000 * US, 45 * US, 10 * US, 45 * US),   /* 90 */
	};
	struct lst_clock_est e = { 0 };

	T_EQ_INT(lst_clock_best(s, 5, &e, NULL), 2);
	T_EQ_INT(e.rtt_ns, 80 * US);
	T_EQ_INT(e.offset_ns, 2 * HOUR + 10 * US); /* (50 - 30) / 2 */
	/* at the midpoint of t1 and t4 */
	T_EQ_INT(e.at_ns, t + 2000 * US + 45 * US);

	/*
	 * Corrupt samples whose "delay" would win: t4 before t1, t3 before t2, and an agent
	 * that claims more time than the whole round trip (negative delay).
	 */
	s[5] = s_exchange(&r, t + 5000 * US, 10 * US, 10 * US, 10 * US);
	s[5].t4 = s[5].t1 - 1;
	s[6] = s_exchange(&r, t + 6000 * US, 10 * US, 10 * US, 10 * US);
	s[6].t3 = s[6].t2 - 5 * US;
	s[7] = s_exchange(&r, t + 7000 * US, 10 * US, 10 * US, 10 * US);
	s[7].t3 = s[7].t2 + 100 * US; /* round trip 30 us, "processing" 100 us */
	T_ASSERT(lst_clock_sample_delay(&s[7]) < 0);
	T_EQ_INT(lst_clock_best(s, 8, &e, NULL), 2);
	T_EQ_INT(e.rtt_ns, 80 * US);

	/*
	 * Agent times so far from ours that offset or delay leave 64 bits (t3 - t2 here): corrupt,
	 * skipped, never an overflow whose wrapped "delay" wins.
	 */
	s[5] = s[2];
	s[5].t2 = INT64_MIN;
	s[5].t3 = INT64_MAX;
	s[6] = s[2];
	s[6].t2 = s[6].t3 = INT64_MAX;
	s[6].t1 = s[6].t4 = INT64_MIN + 1;
	T_EQ_INT(lst_clock_best(s, 7, &e, NULL), 2);
	T_EQ_INT(e.rtt_ns, 80 * US);
	T_EQ_INT(e.offset_ns, 2 * HOUR + 10 * US);

	/* nothing usable */
	s[5] = s_exchange(&r, t + 5000 * US, 10 * US, 10 * US, 10 * US);
	s[5].t4 = s[5].t1 - 1;
	s[6] = s_exchange(&r, t + 6000 * US, 10 * US, 10 * US, 10 * US);
	s[6].t3 = s[6].t2 - 5 * US;
	e.rtt_ns = 12345;
	T_EQ_INT(lst_clock_best(s + 5, 3, &e, NULL), -EDOM);
	T_EQ_INT(lst_clock_best(s, 0, &e, NULL), -ENODATA);
	T_EQ_INT(e.rtt_ns, 12345);
}

/* xorshift64*: deterministic, independent of libc's rand(). */
static uint64_t s_state = 0x853c49e6748fea9bull;

static double s_unit(void)
{
	s_state ^= s_state >> 12;
	s_state ^= s_state << 25;
	s_state ^= s_state >> 27;
	return ((double)((s_state * 2685821657736338717ull) >> 11) + 0.5) / 9007199254740992.0;
}

/* A one-way network delay: 25 us of wire and stack plus exponential queueing, mean 20 us. */
static int64_t s_delay(void)
{
	return 25 * US + (int64_t)(-20e3 * log(s_unit()));
}

/* One burst of 8 exchanges at local time t, reduced to its best estimate. */
static struct lst_clock_est s_burst(const struct s_remote *r, int64_t t)
{
	struct lst_clock_sample s[8];
	struct lst_clock_est e;

	for (int i = 0; i < 8; i++) {
		s[i] = s_exchange(r, t, s_delay(), 5 * US + (int64_t)(s_unit() * 10e3), s_delay());
		t = s[i].t4 + 200 * US;
	}
	T_ASSERT(lst_clock_best(s, 8, &e, NULL) >= 0);
	return e;
}

/* |model - truth| <= tol over [from, to], and to_local / to_remote invert each other. */
static void s_check_model(const lst_clock_model *m, const struct s_remote *r, int64_t from,
			  int64_t to, int64_t tol)
{
	for (int64_t t = from; t <= to; t += 7 * LST_NS_PER_S + 123) {
		int64_t truth = s_true_offset(r, t), rt = s_remote_at(r, t);

		if (llabs(lst_clock_model_offset(m, t) - truth) > tol)
			T_FAIL("at %.3f s: model offset %lld, true %lld (tolerance %lld ns)",
			       (double)(t - from) / 1e9, (long long)lst_clock_model_offset(m, t),
			       (long long)truth, (long long)tol);
		T_ASSERT(llabs(lst_clock_to_remote(m, t) - rt) <= tol);
		T_ASSERT(llabs(lst_clock_to_local(m, rt) - t) <= tol);
		T_ASSERT(llabs(lst_clock_to_local(m, lst_clock_to_remote(m, t)) - t) <= 1);
		T_ASSERT(llabs(lst_clock_to_remote(m, lst_clock_to_local(m, rt)) - rt) <= 1);
	}
}

static void s_drift(void)
{
	/* 50 ppm fast, 7 h behind, 3 days after the local boot; a burst every 10 s for 10 min */
	struct s_remote r = { -7 * HOUR, 3 * DAY, 50 };
	const int64_t t0 = 3 * DAY, period = 10 * LST_NS_PER_S;
	lst_clock_model m;
	int64_t t = t0;

	lst_clock_model_init(&m);
	T_EQ_INT(m.n, 0);
	for (int i = 0; i <= 60; i++, t += period) {
		struct lst_clock_est e = s_burst(&r, t);

		T_EQ_INT(lst_clock_model_add(&m, &e, NULL), 0);
		if (i == 0) {
			/* one estimate: no line yet, and the truth is within rtt / 2 of it */
			T_ASSERT(m.slope == 0);
			T_ASSERT(llabs(lst_clock_model_offset(&m, e.at_ns) -
				       s_true_offset(&r, e.at_ns)) <= e.rtt_ns / 2);
		}
	}
	T_EQ_INT(m.n, 61);
	/* 50 ppm over 10 min is 30 ms of drift; the line follows it to within 0.05 ppm */
	T_NEAR(m.slope, 50e-6, 0.05e-6);
	s_check_model(&m, &r, t0, t - period, 10 * US);
	/* and extrapolates the next 10 s */
	s_check_model(&m, &r, t - period, t, 10 * US);

	/* an estimate 10x slower than the best, and 1 ms wrong, is queueing noise: ignored */
	{
		struct lst_clock_est bad = { s_true_offset(&r, t) + 1000 * US, 10 * m.best_rtt_ns,
					     t };
		int64_t before = lst_clock_model_offset(&m, t);
		size_t n = m.n;

		T_EQ_INT(lst_clock_model_add(&m, &bad, NULL), 0);
		T_EQ_INT(m.n, n);
		T_EQ_INT(lst_clock_model_offset(&m, t), before);
		s_check_model(&m, &r, t0, t, 10 * US);
	}

	/* another 10 min: the ring keeps the newest 64 and the fit still tracks */
	for (int i = 0; i < 60; i++, t += period) {
		struct lst_clock_est e = s_burst(&r, t);

		T_EQ_INT(lst_clock_model_add(&m, &e, NULL), 0);
	}
	T_EQ_INT(m.n, LST_CLOCK_MODEL_MAX);
	T_NEAR(m.slope, 50e-6, 0.05e-6);
	s_check_model(&m, &r, t - 63 * period, t, 10 * US);
}

/*
 * Bursts that give nothing to fit: an agent whose clock runs 1000x (libfaketime "x1000") stamps
 * t3 - t2 a thousand times its real processing time, longer than the round trip: every delay
 * is negative. The error says so, and counts mixed reasons.
 */
static void s_unusable(void)
{
	struct s_remote r = { HOUR, 0, 0 };
	struct lst_clock_sample s[32];
	struct lst_clock_est e = { 1, 2, 3 };
	lst_err err;

	for (int i = 0; i < 32; i++) {
		s[i] = s_exchange(&r, DAY + i * 1000 * US, 40 * US, 20 * US, 40 * US);
		s[i].t3 = s[i].t2 + 1000 * 20 * US; /* 20 us of work, read on a 1000x clock */
		T_ASSERT(lst_clock_sample_delay(&s[i]) < 0);
	}
	T_EQ_INT(lst_clock_best(s, 32, &e, &err), -EDOM);
	T_EQ_STR(err.msg, "clock exchanges unusable: all 32 replies had a negative round-trip "
			  "delay; is the agent's clock running at the normal rate?");
	T_EQ_INT(e.offset_ns, 1); /* untouched */

	/* mixed: 30 negative, one reply stamped before its receipt, one out of range */
	s[3].t3 = s[3].t2 - 1;
	s[7].t2 = INT64_MIN;
	s[7].t3 = INT64_MAX;
	T_EQ_INT(lst_clock_best(s, 32, &e, &err), -EDOM);
	T_CONTAINS(err.msg, "of 32 replies, 1 had the agent's reply stamped before its receipt, 1 "
			    "had times too far from ours for 64 bits, 30 had a negative round-trip "
			    "delay");

	/* one reply, and no reply */
	T_EQ_INT(lst_clock_best(s, 1, &e, &err), -EDOM);
	T_CONTAINS(err.msg, "all 1 reply had a negative");
	T_EQ_INT(lst_clock_best(s, 0, &e, &err), -ENODATA);

	/* a model with no estimate maps instants 1:1 instead of asserting */
	{
		lst_clock_model m;

		lst_clock_model_init(&m);
		T_EQ_INT(lst_clock_model_offset(&m, DAY), 0);
		T_EQ_INT(lst_clock_to_local(&m, 5 * DAY), 5 * DAY);
		T_EQ_INT(lst_clock_to_remote(&m, 5 * DAY), 5 * DAY);
	}
}

static void s_model_edges(void)
{
	struct s_remote r = { 4 * HOUR, DAY, -30 };
	struct lst_clock_est e;
	lst_clock_model m;
	int64_t t = DAY;

	/* before the estimates span 10 s there is no slope: the newest estimate is the offset */
	lst_clock_model_init(&m);
	for (int i = 0; i < 5; i++, t += 2 * LST_NS_PER_S) {
		e = s_burst(&r, t);
		T_EQ_INT(lst_clock_model_add(&m, &e, NULL), 0);
		T_ASSERT(m.slope == 0);
		T_EQ_INT(lst_clock_model_offset(&m, t + 1000 * LST_NS_PER_S), e.offset_ns);
	}

	/* up to LST_CLOCK_DRIFT_MAX_PPM the line follows a fast clock */
	{
		struct s_remote fast = { 0, DAY, 900 };

		lst_clock_model_init(&m);
		for (int i = 0; i < 30; i++) {
			e = s_burst(&fast, DAY + i * 5 * LST_NS_PER_S);
			T_EQ_INT(lst_clock_model_add(&m, &e, NULL), 0);
		}
		T_NEAR(m.slope, 900e-6, 0.05e-6);
	}

	/*
	 * A clock drifting 2000 ppm is broken: refused with the drift named as soon as the
	 * estimates span 10 s, and the model stays what it was before the refused estimate.
	 */
	{
		struct s_remote broken = { 0, DAY, 2000 };
		lst_clock_model before;
		lst_err err;
		int rc = 0, i;

		lst_clock_model_init(&m);
		for (i = 0; i < 30 && rc == 0; i++) {
			e = s_burst(&broken, DAY + i * 5 * LST_NS_PER_S);
			before = m;
			rc = lst_clock_model_add(&m, &e, &err);
		}
		T_EQ_INT(rc, -ERANGE);
		T_ASSERT(i >= 3 && i <= 4); /* once the estimates span 10 s */
		T_CONTAINS(err.msg, "clock drift unusable");
		T_CONTAINS(err.msg, "+2000 ppm");
		T_CONTAINS(err.msg, "normal rate");
		T_EQ_INT(m.n, before.n);
		T_EQ_INT(m.base_offset, before.base_offset);
		T_ASSERT(m.slope == 0);
	}

	/* instants from the wire at the ends of the int64 range saturate instead of overflowing */
	{
		struct lst_clock_est a = { -15 * US, 50 * US, DAY }, b = { 4 * HOUR, 50 * US, DAY };

		lst_clock_model_init(&m);
		T_EQ_INT(lst_clock_model_add(&m, &a, NULL), 0);
		T_EQ_INT(lst_clock_to_local(&m, INT64_MAX), INT64_MAX);
		T_EQ_INT(lst_clock_to_local(&m, INT64_MIN + 10 * US), INT64_MIN + 25 * US);
		T_EQ_INT(lst_clock_to_remote(&m, INT64_MIN), INT64_MIN);
		lst_clock_model_init(&m);
		T_EQ_INT(lst_clock_model_add(&m, &b, NULL), 0);
		T_EQ_INT(lst_clock_to_local(&m, INT64_MIN), INT64_MIN);
		T_EQ_INT(lst_clock_to_remote(&m, INT64_MAX), INT64_MAX);
		T_EQ_INT(lst_clock_to_remote(&m, DAY), DAY + 4 * HOUR);
		m.slope = 400e-6; /* far from base_t, the drift term too */
		T_EQ_INT(lst_clock_to_remote(&m, INT64_MAX), INT64_MAX);
		T_ASSERT(lst_clock_to_local(&m, INT64_MIN) < INT64_MIN / 2);
	}

	/* an estimate 2x slower than the best is kept */
	{
		struct lst_clock_est a = { 100, 50 * US, DAY }, b = { 120, 100 * US, DAY + HOUR };

		lst_clock_model_init(&m);
		T_EQ_INT(lst_clock_model_add(&m, &a, NULL), 0);
		T_EQ_INT(lst_clock_model_add(&m, &b, NULL), 0);
		T_EQ_INT(m.n, 2);
		T_EQ_INT(m.best_rtt_ns, 50 * US);
	}
}

int main(void)
{
	s_formulas();
	s_best();
	s_drift();
	s_model_edges();
	s_unusable();
	return 0;
}
