#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every C file is in the project's clang-format style (.clang-format: kernel style, 100 columns).
# 'make format' fixes what this reports. clang-format 14 is Debian 12's; another major version
# formats differently, so the check is skipped rather than failed there.
set -euo pipefail
cd "${LST_SRC:?}"
command -v clang-format >/dev/null || { echo "SKIP: needs clang-format"; exit 77; }
clang-format --version | grep -q "version 14\." ||
	{ echo "SKIP: clang-format 14 formats this tree; found $(clang-format --version)"; exit 77; }
if git rev-parse --git-dir >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files '*.c' '*.h')
else
	mapfile -t files < <(find common proto agent coordinator tests bench -name '*.[ch]')
fi
# One clang-format for all the files (one per file took minutes on a loaded machine); the files
# it complains about are named at the start of its warnings.
if ! out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
	mapfile -t bad < <(printf '%s\n' "$out" | grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' |
		cut -d: -f1 | sort -u)
	[ ${#bad[@]} -gt 0 ] || bad=("(clang-format failed: $(printf '%s' "$out" | head -3))")
	printf 'not clang-formatted (run make format): %s\n' "${bad[@]}"
	exit 1
fi
echo "ok: ${#files[@]} files in clang-format style"
