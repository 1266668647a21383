#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adding a flag is one table entry. lockstep-extra-flag is lockstep built with one entry more in
# `lockstep run`'s table (tests/integration/docs/CMakeLists.txt: --extra-probe MODE, slow|fast, default slow) and
# nothing else: its --help, its lockstep(1) and the bash completion must all show the flag, with
# its value, choices and default, and it must parse; lockstep itself must show none of it.
set -u

BIN="${LST_BIN:?LST_BIN must name the folder with the binaries}"
SRC="${LST_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}"
L="$BIN/lockstep"
E="$BIN/lockstep-extra-flag"
for t in "$L" "$E"; do
	[ -x "$t" ] || { echo "skip: $t not built"; exit 77; }
done
command -v man >/dev/null || { echo "skip: man not installed (apt-get install man-db)"; exit 77; }
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going

# --help: the flag's line, and its word in the usage lines
"$E" run --help >"$TMP/help.e" || fail "lockstep-extra-flag run --help: exit $?"
"$L" run --help >"$TMP/help.l" || fail "lockstep run --help: exit $?"
grep -A2 -xF -- "      --extra-probe MODE" "$TMP/help.e" | tr -s ' \n' ' ' >"$TMP/entry"
grep -qF -- "a flag only the flags test's build has (slow|fast; default slow)" "$TMP/entry" ||
	fail "--help has no entry for --extra-probe with its meaning, choices and default: $(cat "$TMP/help.e")"
grep -qF -- "[--extra-probe MODE]" "$TMP/help.e" || fail "the usage lines lack [--extra-probe MODE]"
grep -qF -- "extra-probe" "$TMP/help.l" && fail "lockstep's own --help names --extra-probe"

# lockstep(1), rendered as a reader sees it, and clean for man --warnings
mkdir -p "$TMP/man.e" "$TMP/man.l"
"$E" --write-man "$TMP/man.e" || fail "--write-man: exit $?"
"$L" --write-man "$TMP/man.l" || fail "--write-man: exit $?"
MANWIDTH=100 man -l "$TMP/man.e/lockstep.1" 2>/dev/null >"$TMP/page.e"
MANWIDTH=100 man -l "$TMP/man.l/lockstep.1" 2>/dev/null >"$TMP/page.l"
grep -qF -- "--extra-probe MODE" "$TMP/page.e" || fail "lockstep(1) has no --extra-probe MODE"
grep -qF -- "a flag only the flags test's build has (slow|fast; default slow)" "$TMP/page.e" ||
	fail "lockstep(1) lacks --extra-probe's meaning, choices and default"
grep -qF -- "extra-probe" "$TMP/page.l" && fail "lockstep's own lockstep(1) names --extra-probe"
warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' man --warnings -l "$TMP/man.e/lockstep.1" 2>&1 >/dev/null)
[ -z "$warn" ] || fail "man --warnings: $warn"

# the completion, as bash drives it on Tab
PATH="$BIN:$PATH"
# shellcheck source=/dev/null
source "$SRC/completion/lockstep.bash" || fail "sourcing lockstep.bash"
complete -F _lockstep lockstep-extra-flag
tab() { # tab PROGRAM WORDS...: COMPREPLY for the last word
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_lockstep "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	echo " ${COMPREPLY[*]} "
}
[[ $(tab lockstep-extra-flag run --extra) == " --extra-probe " ]] ||
	fail "completing --extra: [$(tab lockstep-extra-flag run --extra)]"
[[ $(tab lockstep-extra-flag run --extra-probe "") == " slow fast " ]] ||
	fail "completing --extra-probe's value: [$(tab lockstep-extra-flag run --extra-probe "")]"
[[ $(tab lockstep run --extra) == "  " ]] || fail "lockstep completes --extra: [$(tab lockstep run --extra)]"

# and it parses, through the same entry: a bad value is refused as the table says
"$E" run --extra-probe fast 2>"$TMP/err"
grep -qF "which plan?" "$TMP/err" || fail "--extra-probe fast: $(cat "$TMP/err")"
"$E" run --extra-probe=warp x.yaml 2>"$TMP/err"
grep -qF "lockstep run: --extra-probe: 'warp' is not one of slow|fast" "$TMP/err" ||
	fail "--extra-probe=warp: $(cat "$TMP/err")"
"$L" run --extra-probe fast 2>"$TMP/err"
grep -qF "unknown option '--extra-probe'" "$TMP/err" || fail "lockstep took --extra-probe: $(cat "$TMP/err")"

finish
echo "ok: one table entry gave --help, lockstep(1) and the completion a flag, and it parses"
