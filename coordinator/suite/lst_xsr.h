/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XSR's recovery time (SNIA PTS, Cross Stimulus Recovery), as a pure function over per-interval
 * throughput so that it can be checked on made-up series.
 *
 * XSR writes sequentially in large blocks (segment 1), then randomly in small blocks (segment 2),
 * then sequentially again (segment 3), and asks how long the device takes to give back the
 * sequential throughput it had before the random writes: the baseline is the average of segment
 * 1's last intervals (the steady-state window's length), and the device has recovered at the end
 * of segment 3's first interval whose throughput is within the tolerance of that baseline.
 */
#ifndef LST_XSR_H
#define LST_XSR_H

#include <stddef.h>

/* The baseline: the average of the last `window` values of seg1 (all of them when fewer). */
double lst_xsr_baseline(const double *seg1, size_t n1, size_t window);

/*
 * The index in seg3 of the first value >= (1 - tolerance_pct/100) x baseline, or n3 when none
 * is (the device did not recover within segment 3).
 */
size_t lst_xsr_recovered(double baseline, const double *seg3, size_t n3, double tolerance_pct);

#endif
