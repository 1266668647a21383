/* SPDX-License-Identifier: Apache-2.0 */
/* Clock offset estimation and drift fitting. Every sample and estimate comes from an agent, so
 * nothing here asserts on them: an unusable burst or an impossible drift is an error value. */
#include "lst_clock.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_time.h"

/* a + b and a - b clamped to the int64 range: instants from the wire may be anything. */
static int64_t s_sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t s_sat_sub(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* Offset and delay of one exchange; false when t2, t3 (from the agent) are so far apart from
 * t1, t4 that the formulas leave 64 bits: such an exchange is corrupt. */
static bool s_eval(const struct lst_clock_sample *s, int64_t *offset, int64_t *delay)
{
	int64_t a, b, rtt, busy, sum;

	if (__builtin_sub_overflow(s->t2, s->t1, &a) || __builtin_sub_overflow(s->t3, s->t4, &b) ||
	    __builtin_sub_overflow(s->t4, s->t1, &rtt) ||
	    __builtin_sub_overflow(s->t3, s->t2, &busy) || __builtin_add_overflow(a, b, &sum) ||
	    __builtin_sub_overflow(rtt, busy, delay))
		return false;
	*offset = sum / 2;
	return true;
}

/* Why an exchange is unusable, for the message when a whole burst is. */
enum s_reject { S_OK, S_BACKWARDS_LOCAL, S_BACKWARDS_REMOTE, S_RANGE, S_NEGATIVE, S_NREJECT };

static enum s_reject s_check(const struct lst_clock_sample *s, int64_t *offset, int64_t *delay)
{
	if (s->t4 < s->t1)
		return S_BACKWARDS_LOCAL;
	if (s->t3 < s->t2)
		return S_BACKWARDS_REMOTE;
	if (!s_eval(s, offset, delay))
		return S_RANGE;
	if (*delay < 0)
		return S_NEGATIVE;
	return S_OK;
}

static const char *const s_reject_text[S_NREJECT] = {
	[S_BACKWARDS_LOCAL] = "our receipt stamped before our send",
	[S_BACKWARDS_REMOTE] = "the agent's reply stamped before its receipt",
	[S_RANGE] = "times too far from ours for 64 bits",
	[S_NEGATIVE] = "a negative round-trip delay",
};

/* "all 32 replies had X" or "of 32 replies, 20 had X, 12 had Y". */
static int s_unusable(lst_err *err, size_t n, const size_t count[S_NREJECT])
{
	char why[512] = "";
	size_t len = 0, kinds = 0;

	for (int r = S_OK + 1; r < S_NREJECT; r++)
		kinds += count[r] > 0;
	for (int r = S_OK + 1; r < S_NREJECT && len < sizeof(why); r++) {
		if (!count[r])
			continue;
		if (kinds == 1)
			len += (size_t)snprintf(why + len, sizeof(why) - len, "all %zu %s had %s",
						n, n == 1 ? "reply" : "replies", s_reject_text[r]);
		else
			len += (size_t)snprintf(why + len, sizeof(why) - len, "%s%zu had %s",
						len ? ", " : "", count[r], s_reject_text[r]);
	}
	if (kinds > 1)
		return lst_err_set(err, -EDOM,
				   "clock exchanges unusable: of %zu replies, %s; is the agent's "
				   "clock running at the normal rate?",
				   n, why);
	return lst_err_set(err, -EDOM,
			   "clock exchanges unusable: %s; is the agent's clock running at the "
			   "normal rate?",
			   why);
}

int lst_clock_best(const struct lst_clock_sample *s, size_t n, struct lst_clock_est *out,
		   lst_err *err)
{
	int best = -1;
	int64_t best_delay = INT64_MAX, best_offset = 0;
	size_t count[S_NREJECT] = { 0 };

	if (!n)
		return lst_err_set(err, -ENODATA, "clock exchanges unusable: no reply");
	for (size_t i = 0; i < n; i++) {
		int64_t d = 0, o = 0;
		enum s_reject r = s_check(&s[i], &o, &d);

		count[r]++;
		if (r != S_OK)
			continue;
		if (d < best_delay) {
			best_delay = d;
			best_offset = o;
			best = (int)i;
		}
	}
	if (best < 0)
		return s_unusable(err, n, count);
	out->offset_ns = best_offset;
	out->rtt_ns = best_delay;
	out->at_ns = s[best].t1 + (s[best].t4 - s[best].t1) / 2;
	return best;
}

void lst_clock_model_init(lst_clock_model *m)
{
	memset(m, 0, sizeof(*m));
	m->best_rtt_ns = INT64_MAX;
}

/* Refit the line; -ERANGE (err set) when the slope is beyond LST_CLOCK_DRIFT_MAX_PPM. */
static int s_fit(lst_clock_model *m, lst_err *err)
{
	const struct lst_clock_est *newest =
		&m->est[(m->next + LST_CLOCK_MODEL_MAX - 1) % LST_CLOCK_MODEL_MAX];
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;

	/* Anchor on the newest estimate: it is the best guess for "now" and what follows. */
	m->base_t = newest->at_ns;
	m->base_offset = newest->offset_ns;
	m->slope = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct lst_clock_est *e = &m->est[i];
		double x = (double)(e->at_ns - m->base_t);
		double y = (double)(e->offset_ns - m->base_offset);

		t0 = LST_MIN(t0, e->at_ns);
		t1 = LST_MAX(t1, e->at_ns);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		n += 1;
	}
	if (n < 3 || t1 - t0 < 10 * LST_NS_PER_S)
		return 0;
	{
		double den = n * sxx - sx * sx;
		double slope, icpt;

		if (den <= 0)
			return 0;
		slope = (n * sxy - sx * sy) / den;
		icpt = (sy - slope * sx) / n;
		if (!(fabs(slope) <= LST_CLOCK_DRIFT_MAX_PPM * 1e-6))
			return lst_err_set(
				err, -ERANGE,
				"clock drift unusable: the agent's clock gains %+.0f ppm "
				"on ours over %.0f s (more than %d ppm is a broken clock, "
				"not a crystal); is the agent's clock running at the normal "
				"rate?",
				slope * 1e6, (double)(t1 - t0) / 1e9, LST_CLOCK_DRIFT_MAX_PPM);
		m->slope = slope;
		m->base_offset += (int64_t)llround(icpt);
	}
	return 0;
}

int lst_clock_model_add(lst_clock_model *m, const struct lst_clock_est *e, lst_err *err)
{
	lst_clock_model before = *m;
	int rc;

	if (e->rtt_ns < m->best_rtt_ns)
		m->best_rtt_ns = e->rtt_ns;
	if (m->n && e->rtt_ns > 4 * m->best_rtt_ns + 50 * LST_NS_PER_US)
		return 0;
	m->est[m->next] = *e;
	m->next = (m->next + 1) % LST_CLOCK_MODEL_MAX;
	if (m->n < LST_CLOCK_MODEL_MAX)
		m->n++;
	rc = s_fit(m, err);
	if (rc < 0)
		*m = before;
	return rc;
}

int64_t lst_clock_model_offset(const lst_clock_model *m, int64_t local_t)
{
	int64_t dt;
	double drift;

	if (!m->n)
		return 0;
	/* An instant too far from base_t for 64 bits (only a corrupt one) goes through doubles;
	 * the drift term is clamped so that llround stays defined. */
	if (__builtin_sub_overflow(local_t, m->base_t, &dt))
		drift = m->slope * ((double)local_t - (double)m->base_t);
	else
		drift = m->slope * (double)dt;
	drift = fmax(fmin(drift, 9e18), -9e18);
	return s_sat_add(m->base_offset, (int64_t)llround(drift));
}

int64_t lst_clock_to_local(const lst_clock_model *m, int64_t remote_t)
{
	/* offset depends on local time; one fixed-point step is exact to well under 1 ns for
	 * drifts below 500 ppm. */
	int64_t guess =
		s_sat_sub(remote_t, lst_clock_model_offset(m, s_sat_sub(remote_t, m->base_offset)));

	return s_sat_sub(remote_t, lst_clock_model_offset(m, guess));
}

int64_t lst_clock_to_remote(const lst_clock_model *m, int64_t local_t)
{
	return s_sat_add(local_t, lst_clock_model_offset(m, local_t));
}
