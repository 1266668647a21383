#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep steady` end to end: plain columns from a file and from stdin, CSV with a header and
# --column, fio-style values, bad lines (exit 2 naming FILE:LINE), usage errors, and --json
# parsed by python3. Exit codes: 0 steady, 1 not steady, 2 bad input or usage.

L="${LST_BIN:?LST_BIN must name the bin directory of the build}/lockstep"
[ -x "$L" ] || { echo "skip: $L not built"; exit 77; }
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going
tmp=$TMP

# expect CODE DESCRIPTION -- ARGS...: run `lockstep steady ARGS` with stdin from $IN (default
# /dev/null), stdout to $tmp/out and stderr to $tmp/err, and check the exit code.
expect() {
	local want=$1 what=$2 got
	shift 3
	"$L" steady "$@" <"${IN:-/dev/null}" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" = "$want" ] ||
		fail "$what: exit $got, want $want; out: $(cat "$tmp/out"); err: $(cat "$tmp/err")"
}

# Plain column, settles at round 7 (window 5): 101 100 99 100 101 after two high rounds.
printf '300\n200\n101\n100\n99\n100\n101\n100\n100\n100\n' >"$tmp/plain.txt"
expect 0 "plain file" -- "$tmp/plain.txt"
has_text "$tmp/out" "rounds read:      10"
has_text "$tmp/out" "rounds 6..10"
has_text "$tmp/out" "steady state reached at round 10"
has_text "$tmp/out" "first reached at round 7"

IN="$tmp/plain.txt" expect 0 "plain stdin" --
has_text "$tmp/out" "standard input"
IN="$tmp/plain.txt" expect 0 "plain stdin with -" -- -

# Too few rounds for the window: not steady, and says how many are needed.
head -n 3 "$tmp/plain.txt" >"$tmp/three.txt"
expect 1 "three rounds" -- "$tmp/three.txt"
has_text "$tmp/out" "need 5 rounds, have 3"
expect 1 "no rounds" -- /dev/null
has_text "$tmp/out" "need 5 rounds, have 0"

# Window 4 (the labs') vs 5: the high first round falls out of a 4-round window.
printf '150\n100\n101\n99\n100\n' >"$tmp/w.txt"
expect 1 "window 5 sees the 150" -- "$tmp/w.txt"
has_text "$tmp/out" "data excursion 46.36% > 20%"
expect 0 "window 4 does not" -- --window 4 "$tmp/w.txt"
expect 0 "--window=4 form" -- --window=4 "$tmp/w.txt"

# Limits: 90..110 is exactly 20% and passes; a tighter limit fails it.
printf '90\n110\n100\n100\n100\n' >"$tmp/edge.txt"
expect 0 "on the 20% edge" -- "$tmp/edge.txt"
expect 1 "--data-excursion 15" -- --data-excursion 15 "$tmp/edge.txt"
expect 0 "--data-excursion 25%" -- --data-excursion 25% "$tmp/edge.txt"
printf '38\n39\n40\n41\n42\n' >"$tmp/slope.txt"
expect 0 "on the 10% slope edge" -- "$tmp/slope.txt"
expect 1 "--slope-excursion 9.9" -- --slope-excursion 9.9 "$tmp/slope.txt"
has_text "$tmp/out" "slope excursion 10.00% > 9.9%"

# CSV with a header, comments, blank lines, quotes and CRLF; --column picks IOPS.
{
	printf 'round,iops,lat_us\r\n# warm-up discarded\r\n1,"189000",85\r\n\r\n'
	printf '2,190500,84\r\n3,189900,86\r\n4,190200,85\r\n'
} >"$tmp/r.csv"
expect 0 "csv --column 2 window 4" -- --column 2 --window 4 "$tmp/r.csv"
has_text "$tmp/out" "column 2 (iops)"
has_text "$tmp/out" "rounds read:      4"
# without --column the last number (latency) is judged: 84..86 is steady too, 4 rounds < 5
expect 1 "csv default column, window 5" -- "$tmp/r.csv"
has_text "$tmp/out" "need 5 rounds, have 4"
expect 2 "csv column beyond the line" -- --column 4 "$tmp/r.csv"
has_text "$tmp/err" "r.csv:1: no column 4"

# fio JSON through jq (skipped quietly when jq is absent): one write.iops per round.
if command -v jq >/dev/null; then
	for i in 1 2 3 4 5 6 7 8 9 10; do
		iops=$((200000 - 1000 * (i < 4 ? 40 / i : 0) + (i % 2) * 500))
		printf '{"jobs":[{"write":{"iops":%d.5}}]}\n' "$iops" >"$tmp/round$i.json"
	done
	# shellcheck disable=SC2012
	jq '.jobs[0].write.iops' $(ls -v "$tmp"/round*.json) >"$tmp/fio.txt"
	IN="$tmp/fio.txt" expect 0 "fio iops through jq" -- --window 4
	has_text "$tmp/out" "rounds read:      10"
fi

# Bad input: exit 2 and FILE:LINE with the offending text.
printf '100\n100\nabc\n100\n' >"$tmp/bad.txt"
expect 2 "bad line in a file" -- "$tmp/bad.txt"
has_text "$tmp/err" "$tmp/bad.txt:3: 'abc' is not a number"
IN="$tmp/bad.txt" expect 2 "bad line on stdin" --
has_text "$tmp/err" "<stdin>:3: 'abc' is not a number"
printf 'iops\n100\n1e999\n' >"$tmp/inf.txt"
expect 2 "overflowing number" -- "$tmp/inf.txt"
has_text "$tmp/err" "inf.txt:3: '1e999' is not a number"
printf 'a,b\n1,2\n3,x\n' >"$tmp/badcol.csv"
expect 2 "bad field with --column" -- --column 2 "$tmp/badcol.csv"
has_text "$tmp/err" "badcol.csv:3: 'x' is not a number"

# Usage errors.
expect 2 "missing file" -- "$tmp/nope.txt"
has_text "$tmp/err" "nope.txt"
expect 2 "window 1" -- --window 1 "$tmp/plain.txt"
has_text "$tmp/err" "--window"
expect 2 "window not a number" -- --window=five "$tmp/plain.txt"
expect 2 "negative limit" -- --data-excursion -5 "$tmp/plain.txt"
expect 2 "column 0" -- --column 0 "$tmp/plain.txt"
expect 2 "unknown flag" -- --bogus
expect 2 "flag without value" -- --window
expect 2 "two inputs" -- "$tmp/plain.txt" "$tmp/plain.txt"
expect 0 "--help" -- --help
has_text "$tmp/out" "jq '.jobs[0].write.iops'"
has_text "$tmp/out" "--window N"

# --json: valid JSON with the verdict's fields, on steady and not steady input.
expect 0 "json steady" -- --json "$tmp/plain.txt"
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["steady"] is True, o
assert o["rounds"] == 10 and o["window"] == 5, o
assert o["window_first_round"] == 6 and o["window_last_round"] == 10, o
assert o["reached_at_round"] == 10 and o["first_steady_round"] == 7, o
assert abs(o["average"] - 100.2) < 1e-9, o
assert o["window_values"] == [100, 101, 100, 100, 100], o
assert o["data_ok"] and o["slope_ok"], o
assert o["data_excursion_limit_pct"] == 20 and o["slope_excursion_limit_pct"] == 10, o
' "$tmp/out" || fail "json steady: $(cat "$tmp/out")"

printf '0\n0\n0\n0\n0\n' >"$tmp/zero.txt"
expect 1 "json all zeros" -- --json "$tmp/zero.txt"
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["steady"] is False and o["reached_at_round"] is None, o
assert "average is 0" in o["reason"], o
' "$tmp/out" || fail "json zeros: $(cat "$tmp/out")"

printf -- '-1\n1\n-1\n1\n0\n' >"$tmp/mixed.txt"
expect 1 "json zero average, infinite ratios" -- --json "$tmp/mixed.txt"
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["data_excursion_pct"] is None and o["steady"] is False, o
' "$tmp/out" || fail "json mixed: $(cat "$tmp/out")"

expect 1 "json too few" -- --json "$tmp/three.txt"
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
assert o["enough"] is False and o["reason"] == "need 5 rounds, have 3", o
' "$tmp/out" || fail "json too few: $(cat "$tmp/out")"

finish "steady_cli: all checks passed"
