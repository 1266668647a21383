#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The project's license, stated everywhere a user or a packager looks: LICENSE is the standard
# Apache-2.0 text, packaging/copyright (DEP-5, installed in both .deb packages) gives Apache-2.0
# for every file, and every source file we wrote (C, headers, shell, Python, CMake, the gnuplot
# templates, the Makefile and the CI script) carries the SPDX line on its first line, or on its
# second after a shebang, so a file copied out of the tree still says under what terms.
# The golden test's expected outputs are lockstep's output, not sources, and are left out.
# Reads the tree only; needs git for the list of tracked files.
set -u

SRC="${LST_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
SPDX='SPDX-License-Identifier: Apache-2.0'

text=/usr/share/common-licenses/Apache-2.0
[ -f "$SRC/LICENSE" ] || fail "LICENSE is missing"
if [ -f "$text" ]; then
	cmp -s "$SRC/LICENSE" "$text" || fail "LICENSE is not the standard Apache-2.0 text ($text)"
else
	grep -q 'Apache License' "$SRC/LICENSE" || fail "LICENSE is not the Apache License"
fi

cr="$SRC/packaging/copyright"
grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$cr" ||
	fail "packaging/copyright is not in DEP-5 form (no Format: line)"
# The "Files: *" paragraph names Apache-2.0, and a stand-alone paragraph gives its text.
awk '/^Files: \*$/ { f = 1; next } f && /^License:/ { print; exit }' "$cr" |
	grep -qx 'License: Apache-2.0' || fail "packaging/copyright: 'Files: *' is not Apache-2.0"
[ "$(grep -cx 'License: Apache-2.0' "$cr")" -ge 2 ] ||
	fail "packaging/copyright has no stand-alone 'License: Apache-2.0' paragraph"

command -v git >/dev/null || skip "needs git to list the tracked files"
git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1 || skip "$SRC is not a git tree"
missing=$(git -C "$SRC" ls-files -z -- '*.c' '*.h' '*.sh' '*.py' '*.cmake' '*.gp' \
	'CMakeLists.txt' '*/CMakeLists.txt' Makefile .ci/run \
	':(exclude)tests/fixtures/golden/expected' |
	while IFS= read -r -d '' f; do
		[ -f "$SRC/$f" ] || continue
		head=$(head -n 2 "$SRC/$f")
		first=${head%%$'\n'*}
		case "$first" in
		*"$SPDX"*) continue ;;
		'#!'*) case "$head" in *$'\n'*"$SPDX"*) continue ;; esac ;;
		esac
		echo "$f"
	done)
[ -z "$missing" ] || fail "without the line '$SPDX' at the top:"$'\n'"$missing"
echo "ok: LICENSE, packaging/copyright and every source file say Apache-2.0"
