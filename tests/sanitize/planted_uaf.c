/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A unit test with a use-after-free planted in it, the kind of bug a test can pass over: the
 * freed block still holds its bytes, so without AddressSanitizer this program prints them and
 * exits 0 ("passes"). In the sanitizer build (LST_SANITIZE=address,...) the read stops it with
 * a heap-use-after-free report and a non-zero exit, which tests/sanitize/expect_report.sh
 * requires: the proof that `make check`'s sanitizer build fails a test with such a bug.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	/* volatile: the compiler may not fold the read away or move it before the free. */
	char *volatile p = malloc(16);

	if (!p)
		return 1;
	memset(p, 'x', 16);
	free(p);
	printf("read after free: %c\n", p[3]);
	return 0;
}
