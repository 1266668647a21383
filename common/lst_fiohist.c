/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's views of lockstep's latency histogram (lst_fiohist.h): the bins' values and the
 * latency_ns/us/ms steps.
 */
#include "lst_fiohist.h"

#define S_STEPS_PER_UNIT 10 /* 2 ... 1000 */

static const unsigned s_steps[S_STEPS_PER_UNIT] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };

const char *const lst_fiohist_unit_keys[LST_FIOHIST_UNITS] = { "latency_ns", "latency_us",
							       "latency_ms" };

#define S_KEYS "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"
const char *const lst_fiohist_step_keys[LST_FIOHIST_UNITS][LST_FIOHIST_STEPS + 1] = {
	{ S_KEYS, NULL },
	{ S_KEYS, NULL },
	{ S_KEYS, "2000", ">=2000", NULL },
};

uint64_t lst_fiohist_bin_value(unsigned idx)
{
	return lst_hist_bucket_low(idx) + lst_hist_bucket_width(idx) / 2;
}

/* The unit and step (pct's indexes) of value v ns. */
static void s_step(uint64_t v, int *unit, int *step)
{
	uint64_t scale = 1;
	int u = 0, s = 0;

	while (u < LST_FIOHIST_UNITS - 1 && v >= 1000 * scale)
		scale *= 1000, u++;
	while (s < S_STEPS_PER_UNIT - 1 && v > s_steps[s] * scale)
		s++;
	if (u == LST_FIOHIST_UNITS - 1 && v > 1000 * scale)
		s = v > 2000 * scale ? S_STEPS_PER_UNIT + 1 : S_STEPS_PER_UNIT;
	*unit = u;
	*step = s;
}

void lst_fiohist_steps(const lst_hist *a, const lst_hist *b,
		       double pct[LST_FIOHIST_UNITS][LST_FIOHIST_STEPS])
{
	double n = (double)(a->count + b->count);
	int u, s;

	for (u = 0; u < LST_FIOHIST_UNITS; u++)
		for (s = 0; s < LST_FIOHIST_STEPS; s++)
			pct[u][s] = 0;
	if (n <= 0)
		return;
	for (unsigned i = 0; i < LST_HIST_NBUCKETS; i++) {
		uint64_t c = a->buckets[i] + b->buckets[i];

		if (!c)
			continue;
		s_step(lst_fiohist_bin_value(i), &u, &s);
		pct[u][s] += 100.0 * (double)c / n;
	}
	pct[LST_FIOHIST_UNITS - 1][LST_FIOHIST_STEPS - 1] +=
		100.0 * (double)(a->overflow + b->overflow) / n;
}
