#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every C file is in the project's clang-format style (.clang-format: kernel style, 100 columns).
# 'make format' fixes what this reports. The check is pinned to clang-format 14, Debian 12's
# clang-format-14 (scripts/install-deps.sh installs it): another major version formats
# differently, so it would fail a tree that is in style. CLANG_FORMAT names another binary of
# version 14. In CI (CI set, as .ci/run and make check set it) a missing clang-format 14 fails the
# check; elsewhere it is skipped, saying what to install.
set -euo pipefail
cd "${LST_SRC:?}"
cf=${CLANG_FORMAT:-clang-format-14}
missing() {
	if [ -n "${CI:-}" ]; then
		echo "FAIL: $1; CI never skips the format check (scripts/install-deps.sh --tests installs it)"
		exit 1
	fi
	echo "SKIP: $1 (apt-get install clang-format-14)"
	exit 77
}
command -v "$cf" >/dev/null || missing "the format check needs clang-format 14 ($cf not found)"
"$cf" --version | grep -q "version 14\." ||
	missing "the format check is pinned to clang-format 14; $cf is $("$cf" --version)"
if git rev-parse --git-dir >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files '*.c' '*.h')
else
	mapfile -t files < <(find common proto agent coordinator tests bench -name '*.[ch]')
fi
# One clang-format for all the files (one per file took minutes on a loaded machine); the files
# it complains about are named at the start of its warnings.
if ! out=$("$cf" --dry-run --Werror "${files[@]}" 2>&1); then
	mapfile -t bad < <(printf '%s\n' "$out" | grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' |
		cut -d: -f1 | sort -u)
	[ ${#bad[@]} -gt 0 ] || bad=("($cf failed: $(printf '%s' "$out" | head -3))")
	printf 'not clang-formatted (run make format): %s\n' "${bad[@]}"
	exit 1
fi
echo "ok: ${#files[@]} files in clang-format 14 style"
