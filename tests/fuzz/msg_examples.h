/*
 * Example messages of every type with non-trivial values, shared by the codec's unit test and
 * the fuzz corpus generator, so the fuzzer starts from exactly what the tests round-trip.
 */
#ifndef LST_MSG_EXAMPLES_H
#define LST_MSG_EXAMPLES_H

#include "lst_msg.h"

enum lst_example {
	LST_EXAMPLE_TYPICAL, /* values as a real run sends them */
	LST_EXAMPLE_EXTREME, /* every string and array at its bound, integers at their limits */
	LST_EXAMPLE_SMALL,   /* the least a valid message holds (empty strings, one job) */
	LST_EXAMPLE_N,
};

/* A new message of the given type filled with example values; the caller destroys it. */
lst_msg *lst_example_msg(enum lst_msg_type type, enum lst_example variant);

#endif
