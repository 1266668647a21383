#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cppcheck (Debian 12's 2.10) on the libraries and programs (common, proto, agent, coordinator)
# finds nothing: each finding is fixed, or, when cppcheck is wrong, suppressed on the line before
# with the reason, `/* cppcheck-suppress ID ; why it is wrong here */`. It checks errors,
# warnings and portability, not style; jansson.cfg beside this script gives it jansson's loop
# macros, without which it stops at every loop over a JSON value. In CI (CI set, as make check
# sets it) a missing cppcheck fails the check; elsewhere it is skipped, saying what to install.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "${LST_SRC:?}"
if ! command -v cppcheck >/dev/null; then
	[ -z "${CI:-}" ] || { echo "FAIL: cppcheck is not installed; CI never skips it"; exit 1; }
	echo "SKIP: needs cppcheck (apt-get install cppcheck)"
	exit 77
fi
libs=(common proto agent coordinator)
mapfile -t incs < <(find "${libs[@]}" -type d -printf '-I%p\n')
out=$(mktemp /tmp/lst-cppcheck.XXXXXX)
trap 'rm -f "$out"' EXIT
rc=0
cppcheck -q -j"$(nproc)" --std=c11 --enable=warning,portability --inline-suppr \
	--library="$here/jansson.cfg" -D_GNU_SOURCE -DLST_VERSION='"0"' "${incs[@]}" \
	--suppress=missingIncludeSystem --error-exitcode=1 \
	--template='{file}:{line}:{column}: {severity}: {message} [{id}]' "${libs[@]}" 2>"$out" || rc=$?
if [ "$rc" -ne 0 ] || [ -s "$out" ]; then
	cat "$out"
	echo "FAIL: cppcheck's findings above (fix each, or suppress it in place with the reason)"
	exit 1
fi
echo "ok: cppcheck $(cppcheck --version | cut -d' ' -f2) finds nothing in ${libs[*]}"
