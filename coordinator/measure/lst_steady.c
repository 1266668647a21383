/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SNIA PTS steady-state verdict: data excursion and least-squares slope excursion over the last
 * N rounds. See lst_steady.h for the criteria and the edge rules.
 *
 * The arithmetic is arranged so that exact cases stay exact: the average is min + mean of the
 * differences from min (a flat window averages to exactly its value), and the slope pairs round
 * i with its mirror round N-1-i, so it is built from differences of values (a flat window has a
 * slope of exactly 0, whatever the magnitude of its values).
 */
#include "lst_steady.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "lst_assert.h"
#include "lst_util.h"

/* Ratio of an excursion to the average, in percent; see the header for average <= 0. */
static double s_pct(double excursion, double average)
{
	if (average > 0)
		return excursion / average * 100.0;
	return excursion == 0 ? 0.0 : INFINITY;
}

/* excursion <= pct% of average, with the edge tolerance. */
static bool s_within(double excursion, double average, double pct)
{
	return excursion <= pct * average / 100.0 + LST_STEADY_REL_TOL * fabs(average);
}

void lst_steady_eval(const double *values, size_t n, size_t window, double max_data_pct,
		     double max_slope_pct, struct lst_steady *out)
{
	const double *y;
	double sum = 0, num = 0, change;
	size_t m;

	LST_ASSERT(window >= 2);
	LST_ASSERT(max_data_pct >= 0 && max_slope_pct >= 0);
	memset(out, 0, sizeof(*out));
	out->window = window;
	out->rounds = n;
	out->enough = n >= window;
	out->max_data_pct = max_data_pct;
	out->max_slope_pct = max_slope_pct;
	if (n == 0)
		return;
	LST_ASSERT(values);

	m = n < window ? n : window;
	out->first = n - m;
	out->last = n - 1;
	y = values + out->first;

	out->min = out->max = y[0];
	for (size_t i = 1; i < m; i++) {
		if (y[i] < out->min)
			out->min = y[i];
		if (y[i] > out->max)
			out->max = y[i];
	}
	for (size_t i = 0; i < m; i++)
		sum += y[i] - out->min;
	out->average = out->min + sum / (double)m;

	/*
	 * Least squares with x = 0 .. m-1: slope = sum (x - xm)(y - ym) / sum (x - xm)^2, where
	 * sum (x - xm)^2 = m (m^2 - 1) / 12. Pairing x with m-1-x gives
	 * sum (x - xm) y = 1/2 sum_{i < m/2} (m - 1 - 2i) (y[m-1-i] - y[i]).
	 */
	for (size_t i = 0; i < m / 2; i++)
		num += (double)(m - 1 - 2 * i) * (y[m - 1 - i] - y[i]);
	if (m >= 2)
		out->slope = 6.0 * num / ((double)m * ((double)m * (double)m - 1.0));
	out->intercept = out->average - out->slope * (double)(m - 1) / 2.0;

	change = fabs(out->slope) * (double)(m - 1);
	out->data_excursion_pct = s_pct(out->max - out->min, out->average);
	out->slope_excursion_pct = s_pct(change, out->average);
	out->data_ok = s_within(out->max - out->min, out->average, max_data_pct);
	out->slope_ok = s_within(change, out->average, max_slope_pct);
	out->reached = out->enough && out->average > 0 && out->data_ok && out->slope_ok;
}

long lst_steady_first(const double *values, size_t n, size_t window, double max_data_pct,
		      double max_slope_pct)
{
	struct lst_steady s;

	LST_ASSERT(window >= 2);
	for (size_t i = window - 1; i < n; i++) {
		lst_steady_eval(values, i + 1, window, max_data_pct, max_slope_pct, &s);
		if (s.reached)
			return (long)i;
	}
	return -1;
}

static size_t s_append(char *buf, size_t size, size_t len, const char *what, double pct, bool ok,
		       double limit)
{
	if (len >= size)
		return len;
	return len + (size_t)snprintf(buf + len, size - len, "%s%s excursion %.2f%% %s %g%%",
				      len ? ", " : "", what, pct, ok ? "<=" : ">", limit);
}

const char *lst_steady_explain(const struct lst_steady *s, char *buf, size_t size)
{
	size_t len = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!s->enough) {
		snprintf(buf, size, "need %zu rounds, have %zu", s->window, s->rounds);
		return buf;
	}
	if (!(s->average > 0)) {
		snprintf(buf, size,
			 "the window average is %g; a zero or negative series has no steady state",
			 s->average);
		return buf;
	}
	if (s->reached || !s->data_ok)
		len = s_append(buf, size, len, "data", s->data_excursion_pct, s->data_ok,
			       s->max_data_pct);
	if (s->reached || !s->slope_ok)
		s_append(buf, size, len, "slope", s->slope_excursion_pct, s->slope_ok,
			 s->max_slope_pct);
	return buf;
}

/* --- how a test ended ----------------------------------------------------------------------- */

const char *const lst_stop_names[] = {
	[LST_STOP_STEADY] = "steady",	  [LST_STOP_ROUND_LIMIT] = "round_limit",
	[LST_STOP_CAPACITY] = "capacity", [LST_STOP_BYTES] = "bytes",
	[LST_STOP_RUNTIME] = "runtime",	  [LST_STOP_INTERRUPTED] = "interrupted",
	[LST_STOP_DONE] = "done",
};

int lst_stop_find(const char *name)
{
	for (int i = 0; name && i < LST_STOP_N; i++)
		if (!strcmp(name, lst_stop_names[i]))
			return i;
	return -1;
}

const char *lst_steady_phrase(bool steady, long rounds, long first, long last, int stop,
			      double capacity_multiple, char *buf, size_t size)
{
	if (steady && first > 0 && last >= first) {
		snprintf(buf, size, "steady in rounds %ld-%ld", first, last);
		return buf;
	}
	if (steady) {
		snprintf(buf, size, "steady after %ld round%s", rounds, rounds == 1 ? "" : "s");
		return buf;
	}
	if (rounds == 1 && stop != LST_STOP_ROUND_LIMIT) {
		/* One round cannot be judged: no "after 1 rounds". */
		snprintf(buf, size, "NOT steady: one round");
		if (stop == LST_STOP_CAPACITY && isfinite(capacity_multiple))
			snprintf(buf + strlen(buf), size - strlen(buf),
				 " (stopped at %.1fx capacity)", capacity_multiple);
		else if (stop >= 0 && stop < LST_STOP_N && stop != LST_STOP_DONE)
			snprintf(buf + strlen(buf), size - strlen(buf), " (%s)",
				 stop == LST_STOP_BYTES ? "byte limit" : lst_stop_names[stop]);
		return buf;
	}
	switch (stop) {
	case LST_STOP_ROUND_LIMIT:
		snprintf(buf, size, "NOT steady after %ld rounds (round limit)", rounds);
		break;
	case LST_STOP_CAPACITY:
		if (isfinite(capacity_multiple))
			snprintf(buf, size,
				 "NOT steady after %ld rounds (stopped at %.1fx capacity)", rounds,
				 capacity_multiple);
		else
			snprintf(buf, size, "NOT steady after %ld rounds (capacity limit)", rounds);
		break;
	case LST_STOP_BYTES:
		snprintf(buf, size, "NOT steady after %ld rounds (byte limit)", rounds);
		break;
	case LST_STOP_RUNTIME:
		snprintf(buf, size, "NOT steady after %ld rounds (runtime over)", rounds);
		break;
	case LST_STOP_INTERRUPTED:
		snprintf(buf, size, "NOT steady after %ld rounds (interrupted)", rounds);
		break;
	default:
		snprintf(buf, size, "NOT steady after %ld rounds", rounds);
	}
	return buf;
}

const char *lst_stop_after_phrase(int stop, long rounds, double bytes, double multiple, char *buf,
				  size_t size)
{
	if (stop != LST_STOP_STEADY && stop != LST_STOP_ROUND_LIMIT)
		return lst_stop_text(stop, rounds, bytes, multiple, buf, size);
	if (size)
		*buf = '\0';
	return buf;
}

const char *lst_stop_text(int stop, long rounds, double bytes, double multiple, char *buf,
			  size_t size)
{
	char sz[32] = "";

	if (bytes >= 0)
		lst_fmt_size((uint64_t)bytes, sz, sizeof(sz));
	buf[0] = '\0';
	switch (stop) {
	case LST_STOP_CAPACITY:
		if (isfinite(multiple) && *sz)
			snprintf(buf, size, "stopped: %.1fx capacity written (%s)", multiple, sz);
		else
			snprintf(buf, size, "stopped: capacity limit written");
		break;
	case LST_STOP_BYTES:
		snprintf(buf, size, "stopped: %s written (byte limit)", *sz ? sz : "the bytes");
		break;
	case LST_STOP_ROUND_LIMIT:
		snprintf(buf, size, "stopped: round limit (%ld rounds)", rounds);
		break;
	case LST_STOP_STEADY:
		snprintf(buf, size, "stopped: steady state reached");
		break;
	case LST_STOP_RUNTIME:
		snprintf(buf, size, "stopped: runtime over");
		break;
	case LST_STOP_INTERRUPTED:
		snprintf(buf, size, "stopped: the run was interrupted");
		break;
	}
	return buf;
}
