/* Clock offset estimation and drift fitting. */
#include "lst_clock.h"

#include <math.h>
#include <stdbool.h>
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

int lst_clock_best(const struct lst_clock_sample *s, size_t n, struct lst_clock_est *out)
{
	int best = -1;
	int64_t best_delay = INT64_MAX, best_offset = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t d, o;

		if (s[i].t4 < s[i].t1 || s[i].t3 < s[i].t2 || !s_eval(&s[i], &o, &d) || d < 0)
			continue;
		if (d < best_delay) {
			best_delay = d;
			best_offset = o;
			best = (int)i;
		}
	}
	if (best < 0)
		return -1;
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

static void s_fit(lst_clock_model *m)
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
		return;
	{
		double den = n * sxx - sx * sx;
		double slope, icpt;

		if (den <= 0)
			return;
		slope = (n * sxy - sx * sy) / den;
		icpt = (sy - slope * sx) / n;
		if (fabs(slope) > 500e-6)
			return;
		m->slope = slope;
		m->base_offset += (int64_t)llround(icpt);
	}
}

void lst_clock_model_add(lst_clock_model *m, const struct lst_clock_est *e)
{
	if (e->rtt_ns < m->best_rtt_ns)
		m->best_rtt_ns = e->rtt_ns;
	if (m->n && e->rtt_ns > 4 * m->best_rtt_ns + 50 * LST_NS_PER_US)
		return;
	m->est[m->next] = *e;
	m->next = (m->next + 1) % LST_CLOCK_MODEL_MAX;
	if (m->n < LST_CLOCK_MODEL_MAX)
		m->n++;
	s_fit(m);
}

int64_t lst_clock_model_offset(const lst_clock_model *m, int64_t local_t)
{
	int64_t dt;
	double drift;

	LST_ASSERT(m->n > 0);
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
