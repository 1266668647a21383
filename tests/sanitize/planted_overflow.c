/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A unit test with undefined behaviour planted in it: a signed integer overflow, which wraps
 * silently without UBSan and lets this program exit 0. The sanitizer build compiles with
 * -fno-sanitize-recover, so UBSan's report ends the program with a non-zero exit instead of a
 * line that a passing test would leave unread; tests/sanitize/expect_report.sh requires both.
 */
#include <limits.h>
#include <stdio.h>

int main(void)
{
	/* volatile: the sum is computed at run time, not folded by the compiler. */
	volatile int big = INT_MAX;
	int sum = big + 1;

	printf("INT_MAX + 1 = %d\n", sum);
	return 0;
}
