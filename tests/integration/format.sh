#!/usr/bin/env bash
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
bad=()
for f in "${files[@]}"; do
	clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
[ ${#bad[@]} -eq 0 ] || { printf 'not clang-formatted (run make format): %s\n' "${bad[@]}"; exit 1; }
echo "ok: ${#files[@]} files in clang-format style"
