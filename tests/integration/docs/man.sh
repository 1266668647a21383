#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The man pages. lockstep(1), lockstep-plan(5) and lockstep-agent(8), written by the
# programs (--write-man), must pass man-db's own checks as a packager runs them (`man --warnings`:
# any groff warning fails; lexgrog reads each NAME line), and must name every flag --help names,
# every plan key of docs/plan.md and every agent config key: they are made from the same tables,
# and this is the check that they stay so. The build's pages (build/man) are the same bytes.

BIN="${LST_BIN:?LST_BIN must name the folder with the binaries}"
LOCKSTEP="$BIN/lockstep"
AGENT="$BIN/lockstep-agent"
for t in "$LOCKSTEP" "$AGENT"; do
	[ -x "$t" ] || { echo "skip: $t not built"; exit 77; }
done
for t in man lexgrog; do
	command -v "$t" >/dev/null || { echo "skip: $t not installed (apt-get install man-db)"; exit 77; }
done
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going

"$LOCKSTEP" --write-man "$TMP" || fail "lockstep --write-man: exit $?"
"$AGENT" --write-man "$TMP/lockstep-agent.8" || fail "lockstep-agent --write-man: exit $?"
"$LOCKSTEP" --write-man "$TMP/no/such/folder" 2>"$TMP/err" && fail "--write-man into a missing folder succeeded"
grep -q "cannot write" "$TMP/err" || fail "--write-man into a missing folder: $(cat "$TMP/err")"

declare -A names=([lockstep.1]=lockstep [lockstep-plan.5]=lockstep-plan [lockstep-agent.8]=lockstep-agent)
for page in lockstep.1 lockstep-plan.5 lockstep-agent.8; do
	p="$TMP/$page"
	[ -s "$p" ] || { fail "$page not written"; continue; }
	# man-db renders it as `man` does; groff's warnings (-ww) go to stderr
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$p" >"$TMP/out" 2>"$TMP/warn"
	[ -s "$TMP/warn" ] && fail "$page: man --warnings says:"$'\n'"$(head -20 "$TMP/warn")"
	[ "$(wc -l <"$TMP/out")" -gt 50 ] || fail "$page renders to $(wc -l <"$TMP/out") lines"
	lexgrog "$p" >"$TMP/lex" 2>&1 || fail "$page: lexgrog: $(cat "$TMP/lex")"
	grep -q "\"${names[$page]} - ." "$TMP/lex" || fail "$page: lexgrog reads $(cat "$TMP/lex")"
	# the text as a reader sees it (overstrike bold and underline taken out), for has() below
	LC_ALL=C.UTF-8 MANWIDTH=200 man -E UTF-8 -l "$p" 2>/dev/null | sed 's/.\x08//g' >"$TMP/$page.txt"
	if [ -n "${LST_BUILD:-}" ] && [ -f "$LST_BUILD/man/$page" ]; then
		cmp -s "$p" "$LST_BUILD/man/$page" || fail "$LST_BUILD/man/$page differs from --write-man's"
	fi
done

# has PAGE WORD WHERE: the rendered PAGE shows WORD as a word
has() {
	grep -qwF -- "$2" "$TMP/$1.txt" || fail "$1 lacks '$2' ($3)"
}

# every command and every long flag of its --help
cmds=$("$LOCKSTEP" --help | sed -n 's/^  \([a-z]*\)  .*/\1/p')
[ "$(echo "$cmds" | wc -w)" -ge 10 ] || fail "lockstep --help lists: $cmds"
for c in $cmds; do
	has lockstep.1 "lockstep $c" "its command"
	for flag in $("$LOCKSTEP" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
		has lockstep.1 "$flag" "lockstep $c --help"
	done
done
# every flag of the agent's --help and every config key
for flag in $("$AGENT" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
	has lockstep-agent.8 "$flag" "lockstep-agent --help"
done
for section in SYNOPSIS OPTIONS SIGNALS "EXIT STATUS" FILES; do
	has lockstep-agent.8 "$section" "a section"
done
if [ -n "${LST_SRC:-}" ]; then
	for key in $(sed -n '/write-doc: keys/,/^<!-- end/s/^| `\([a-z_]*\)`.*/\1/p' "$LST_SRC/docs/agent.md"); do
		has lockstep-agent.8 "$key" "a config key"
	done
	# every plan key of the reference
	for key in $(sed -n 's/^| `\([a-z_]*\)` |.*/\1/p' "$LST_SRC/docs/plan.md" | sort -u); do
		has lockstep-plan.5 "$key" "a key of docs/plan.md"
	done
fi

finish "lockstep(1), lockstep-plan(5), lockstep-agent(8) pass man --warnings and lexgrog and name every flag and key"
