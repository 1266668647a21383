/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Minimal test harness: one test = one program, exit 0 pass, 1 fail, 77 skip.
 * Assertions print both sides and the place, libuv style, and stop the program.
 */
#ifndef LST_TEST_H
#define LST_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LST_TEST_SKIP 77

/*
 * LST_TEST_ASAN is 1 when the program runs under AddressSanitizer (the sanitizer build of make
 * check), whose quarantine keeps freed memory resident for a while, so resident-memory bounds
 * mean nothing there, and which aborts on an impossible allocation size where malloc would
 * return NULL. GCC says so with __SANITIZE_ADDRESS__, clang 14 only through __has_feature.
 */
#if defined(__SANITIZE_ADDRESS__)
#define LST_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LST_TEST_ASAN 1
#endif
#endif
#ifndef LST_TEST_ASAN
#define LST_TEST_ASAN 0
#endif

#define T_FAIL(...)                                                                                \
	do {                                                                                       \
		fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                    \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fprintf(stderr, "\n");                                                             \
		exit(1);                                                                           \
	} while (0)

#define T_ASSERT(expr)                                                                             \
	do {                                                                                       \
		if (!(expr))                                                                       \
			T_FAIL("assertion failed: %s", #expr);                                     \
	} while (0)

#define T_EQ_INT(a, b)                                                                             \
	do {                                                                                       \
		long long _a = (long long)(a), _b = (long long)(b);                                \
		if (_a != _b)                                                                      \
			T_FAIL("%s == %s failed: %lld != %lld", #a, #b, _a, _b);                   \
	} while (0)

#define T_EQ_U64(a, b)                                                                             \
	do {                                                                                       \
		unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b);     \
		if (_a != _b)                                                                      \
			T_FAIL("%s == %s failed: %llu != %llu", #a, #b, _a, _b);                   \
	} while (0)

#define T_EQ_STR(a, b)                                                                             \
	do {                                                                                       \
		const char *_a = (a), *_b = (b);                                                   \
		if (!_a || !_b || strcmp(_a, _b))                                                  \
			T_FAIL("%s == %s failed: \"%s\" != \"%s\"", #a, #b, _a ? _a : "(null)",    \
			       _b ? _b : "(null)");                                                \
	} while (0)

#define T_NEAR(a, b, tol)                                                                          \
	do {                                                                                       \
		double _a = (double)(a), _b = (double)(b), _t = (double)(tol);                     \
		if (!(_a - _b <= _t && _b - _a <= _t))                                             \
			T_FAIL("%s ~= %s failed: %.9g vs %.9g (tolerance %.3g)", #a, #b, _a, _b,   \
			       _t);                                                                \
	} while (0)

#define T_CONTAINS(hay, needle)                                                                    \
	do {                                                                                       \
		const char *_h = (hay), *_n = (needle);                                            \
		if (!_h || !strstr(_h, _n))                                                        \
			T_FAIL("\"%s\" does not contain \"%s\"", _h ? _h : "(null)", _n);          \
	} while (0)

#endif
