/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio's views of lockstep's latency histogram, shared by the two writers of fio's JSON
 * (`lockstep-agent bench --output-format=json`, `lockstep export fio`).
 *
 * lst_hist's buckets are fio's "plat" buckets (lst_hist.h), so a bucket's fio value is fio's
 * plat_idx_to_val(). fio's job-level latency_ns, latency_us and latency_ms maps give the percent
 * of I/Os, reads and writes together, at or under each of a fixed list of steps per unit (fio's
 * stat.c, show_latencies): values are put in the unit where they are below 1000 units, the
 * last step of milliseconds being ">=2000". Readers such as fio-plot look every key up.
 */
#ifndef LST_FIOHIST_H
#define LST_FIOHIST_H

#include <stdint.h>

#include "lst_hist.h"

#define LST_FIOHIST_UNITS 3  /* ns, us, ms */
#define LST_FIOHIST_STEPS 12 /* the most steps of a unit (ms: 10, then 2000 and >=2000) */

/* "latency_ns", "latency_us", "latency_ms". */
extern const char *const lst_fiohist_unit_keys[LST_FIOHIST_UNITS];

/* Each unit's step keys in fio's order ("2", "4", ... "1000"; ms adds "2000", ">=2000"),
 * NULL after the last. */
extern const char *const lst_fiohist_step_keys[LST_FIOHIST_UNITS][LST_FIOHIST_STEPS + 1];

/* fio's value of bucket idx (plat_idx_to_val: the bucket's midpoint), for idx below
 * LST_HIST_NBUCKETS. */
uint64_t lst_fiohist_bin_value(unsigned idx);

/*
 * The percent of the I/Os of a and b together at each step (pct[unit][step], in the order of
 * lst_fiohist_step_keys), each bucket counted at its fio value; all zero when both are empty.
 * The overflow (past lockstep's last bucket) counts as ">=2000" ms.
 */
void lst_fiohist_steps(const lst_hist *a, const lst_hist *b,
		       double pct[LST_FIOHIST_UNITS][LST_FIOHIST_STEPS]);

#endif
