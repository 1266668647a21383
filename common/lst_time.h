/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Clocks and durations.
 *
 * Everything that schedules or measures uses CLOCK_MONOTONIC in nanoseconds: it never jumps when
 * NTP steps the wall clock. Wall-clock time is only for labels humans read. Different hosts'
 * monotonic clocks are unrelated (each counts from its own boot); lst_clock.h maps between them.
 */
#ifndef LST_TIME_H
#define LST_TIME_H

#include <stdint.h>

#define LST_NS_PER_US ((int64_t)1000)
#define LST_NS_PER_MS ((int64_t)1000000)
#define LST_NS_PER_S ((int64_t)1000000000)

/* CLOCK_MONOTONIC in ns. */
int64_t lst_mono_ns(void);

/* CLOCK_REALTIME in ns since the epoch. */
int64_t lst_real_ns(void);

/* Sleep for ns (relative, monotonic); EINTR is retried. */
void lst_sleep_ns(int64_t ns);

/*
 * Sleep until the monotonic instant t: a coarse absolute sleep to within spin_ns of t, then a
 * spin on the clock that yields the CPU while more than 5 us remain, so the return is within a
 * few microseconds of t even when several spinners share a core.
 * Returns how late the return was, in ns (>= 0; large when t was already past).
 */
int64_t lst_sleep_until_ns(int64_t t, int64_t spin_ns);

/* Format an epoch-ns instant as ISO-8601 UTC with microseconds into buf (>= 32 bytes). */
const char *lst_time_iso8601(int64_t real_ns, char *buf, unsigned size);

#endif
