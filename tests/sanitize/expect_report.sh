#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# expect_report.sh PROGRAM PATTERN: passes only when PROGRAM, a test with a bug planted in it,
# fails (non-zero exit) AND its stderr holds PATTERN, the sanitizer's report of that bug; so
# the sanitizer build is shown to turn such a bug into a failing test, not into a line nobody
# reads. The report goes to stderr here whatever ASAN_OPTIONS the caller set (make check sends
# the reports of the other tests to files and fails on any), as this one is wanted.
set -u
prog=$1 pattern=$2
log=$(mktemp /tmp/lst-planted.XXXXXX)
trap 'rm -f "$log"' EXIT
rc=0
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 "$prog" >/dev/null 2>"$log" || rc=$?
if [ "$rc" -eq 0 ]; then
	cat "$log" >&2
	echo "FAIL: $(basename "$prog") exited 0: the planted bug did not fail it" \
		"(no sanitizer, or one that reports and carries on)" >&2
	exit 1
fi
if ! grep -qF -- "$pattern" "$log"; then
	cat "$log" >&2
	echo "FAIL: $(basename "$prog") exited $rc without the report '$pattern'" >&2
	exit 1
fi
echo "ok: $(basename "$prog") failed (exit $rc) with '$pattern'"
