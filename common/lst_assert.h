/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Always-on assertions for programming errors.
 *
 * Plain assert() vanishes in release builds; these stay and print the failing expression with
 * its place. Never use them on external input (plans, configs, wire messages): those produce an
 * error value instead.
 */
#ifndef LST_ASSERT_H
#define LST_ASSERT_H

#include <stdlib.h>

void lst__assert_fail(const char *expr, const char *file, int line, const char *func)
	__attribute__((noreturn));

#define LST_ASSERT(expr)                                                                           \
	do {                                                                                       \
		if (__builtin_expect(!(expr), 0))                                                  \
			lst__assert_fail(#expr, __FILE__, __LINE__, __func__);                     \
	} while (0)

#define LST_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define LST_MIN(a, b) ((a) < (b) ? (a) : (b))
#define LST_MAX(a, b) ((a) > (b) ? (a) : (b))

#endif
