/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Clock offset and drift between two hosts, NTP-style.
 *
 * The coordinator (local) sends t1, the agent (remote) stamps t2 on receipt and t3 on reply, the
 * coordinator stamps t4 on receipt. Then
 *     offset = ((t2 - t1) + (t3 - t4)) / 2      remote clock minus local clock
 *     delay  = (t4 - t1) - (t3 - t2)            round trip minus the agent's own time
 * and the true offset lies within +/- delay/2 of the estimate. Exchanges go in bursts; the one
 * with the lowest delay wins, because queueing only ever adds delay. Bursts repeat during a run;
 * a least-squares line through the winners tracks drift (tens of ppm between crystals).
 *
 * Both clocks are monotonic nanosecond clocks that may differ by any amount (boot times differ
 * by days): all arithmetic is in 64-bit integers, with doubles only for the drift slope.
 */
#ifndef LST_CLOCK_H
#define LST_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "lst_err.h"

struct lst_clock_sample {
	int64_t t1, t2, t3, t4;
};

struct lst_clock_est {
	int64_t offset_ns; /* remote - local */
	int64_t rtt_ns;	   /* the winning exchange's delay; uncertainty is rtt/2 */
	int64_t at_ns;	   /* local time of the estimate (midpoint of t1, t4) */
};

static inline int64_t lst_clock_sample_offset(const struct lst_clock_sample *s)
{
	return ((s->t2 - s->t1) + (s->t3 - s->t4)) / 2;
}

static inline int64_t lst_clock_sample_delay(const struct lst_clock_sample *s)
{
	return (s->t4 - s->t1) - (s->t3 - s->t2);
}

/*
 * The lowest-delay exchange of a burst as an estimate. Samples with t4 < t1, t3 < t2, a negative
 * delay (impossible with two clocks ticking at the same rate, so corrupt) or times so far apart
 * that offset or delay leave 64 bits are skipped. Returns the index used; -ENODATA when n is 0;
 * -EDOM when no sample is usable, with err saying how many were rejected for which reason
 * ("clock exchanges unusable: all 32 replies had a negative round-trip delay; ..."). out is
 * untouched on error. err may be NULL.
 */
int lst_clock_best(const struct lst_clock_sample *s, size_t n, struct lst_clock_est *out,
		   lst_err *err);

#define LST_CLOCK_MODEL_MAX 64

/* Offset as a line over local time, fitted to the most recent estimates. */
typedef struct lst_clock_model {
	size_t n;    /* estimates held (<= LST_CLOCK_MODEL_MAX) */
	size_t next; /* ring position of the next estimate */
	struct lst_clock_est est[LST_CLOCK_MODEL_MAX];
	int64_t base_t, base_offset; /* the line passes through (base_t, base_offset) */
	double slope;		     /* offset change per local ns (drift), 0 until fitted */
	int64_t best_rtt_ns;	     /* lowest rtt seen; the filter for noisy estimates */
} lst_clock_model;

void lst_clock_model_init(lst_clock_model *m);

/*
 * The largest drift the model accepts, in ppm. Crystals drift tens of ppm and NTP slews at most
 * 500 ppm; a clock twice that far off is broken (a VM losing ticks, libfaketime speeding it up),
 * and intervals stamped by it cannot be put on our time line.
 */
#define LST_CLOCK_DRIFT_MAX_PPM 1000

/*
 * Add one burst's estimate and refit. Estimates whose rtt exceeds 4x the best seen plus 50 us
 * (slack for loopback-scale rtts of a few us) are ignored as queueing noise (returns 0). The
 * line is anchored on the newest estimate; its slope is fitted only once the estimates span
 * >= 10 s. A fit whose |slope| exceeds LST_CLOCK_DRIFT_MAX_PPM returns -ERANGE with err naming
 * the drift, and leaves the model as it was before the call. err may be NULL.
 */
int lst_clock_model_add(lst_clock_model *m, const struct lst_clock_est *e, lst_err *err);

/*
 * Estimated offset (remote - local) at local time t. A model with no estimate yet (n == 0)
 * gives 0: callers check that a burst succeeded before relying on the offset.
 */
int64_t lst_clock_model_offset(const lst_clock_model *m, int64_t local_t);

/* Map a remote instant to local time, and back. Results beyond the int64 range saturate at
 * INT64_MIN or INT64_MAX (an instant from the wire may be anything). */
int64_t lst_clock_to_local(const lst_clock_model *m, int64_t remote_t);
int64_t lst_clock_to_remote(const lst_clock_model *m, int64_t local_t);

#endif
