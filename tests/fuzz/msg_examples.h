/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Example messages of every type with non-trivial values, shared by the codec's unit test and
 * the fuzz corpus generator, so the fuzzer starts from exactly what the tests round-trip.
 */
#ifndef LST_MSG_EXAMPLES_H
#define LST_MSG_EXAMPLES_H

#include <stdbool.h>

#include "lst_msg.h"

enum lst_example {
	LST_EXAMPLE_TYPICAL, /* values as a real run sends them */
	LST_EXAMPLE_EXTREME, /* every string and array at its bound, integers at their limits */
	LST_EXAMPLE_SMALL,   /* the least a valid message holds (empty strings, one job) */
	LST_EXAMPLE_N,
};

/* A new message of the given type filled with example values; the caller destroys it. */
lst_msg *lst_example_msg(enum lst_msg_type type, enum lst_example variant);

/*
 * A SAMPLE of a point with nparts job specs (1 to LST_MAX_JOBSPECS), as an agent sends it: its
 * "paths" parts add up exactly to it (lst_msg_sample_parts_check passes with njobs = nparts).
 * Each part's histograms are typical, or with wide every bucket used (a worst case, too large
 * for one frame with many parts). The caller destroys it.
 */
lst_msg *lst_example_sample_split(uint32_t nparts, bool wide);

#endif
