#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Flat memory at the end of a run: `lockstep report` (what a run does after its last
# point) on a synthetic folder of many points (make_results.py's randrw phase copied to POINTS
# points of INTERVALS intervals, with a points.jsonl journal as a run leaves it). Checked:
#  - a finished run's journal is never held in memory: the same folder with every journal entry
#    padded by ~16 KB of numbers (about POINTS x 3 x 16 KB more journal, which the report used to
#    parse whole) peaks within 6 MB of the unpadded one;
#  - the peak over an empty-ish folder's stays under 3x the bytes of run.json, summary.json,
#    summary.csv and timeseries.csv (the model keeps the CSV text and pointers into it);
#  - the output is the same with and without the padding, and a journal ahead of summary.json
#    is still read (one point more in the journal than in the files).
# Peaks are the child's ru_maxrss (report_peak.py).
. "$(dirname "$0")/../lib.sh"

# Sanitizers' shadow memory and quarantine make RSS say nothing about the code.
! grep -qa __asan_init "$LOCKSTEP" || skip "an address-sanitizer build: RSS is not the code's"
POINTS=${POINTS:-1000}
INTERVALS=${INTERVALS:-10}
D="$TMP/r"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$D" >/dev/null || fail "make_results.py failed"
cp -r "$D" "$TMP/small"

# grow DIR PAD BEHIND: randrw's points 0..2 copied to POINTS more points; PAD numbers in each
# journal summary entry; BEHIND=1: summary.json has half the points and no tests, the journal all
# of them (a run killed before summary.json was rewritten).
grow() {
	"$PY" "$LST_SRC/tests/integration/grow_results.py" "$@" "$POINTS" "$INTERVALS" ||
		fail "growing the folder failed"
}

# peak DIR OUT: run lockstep report --no-plots on DIR (stdout to OUT); prints the peak RSS in kB.
peak() {
	"$PY" "$LST_SRC/tests/integration/report_peak.py" "$LOCKSTEP" "$1" "$2" text
}

cp -r "$D" "$TMP/pad"
grow "$D" 0 0
grow "$TMP/pad" 2000 0
base=$(peak "$TMP/small" "$TMP/small.txt") || fail "report on the small folder failed"
plain=$(peak "$D" "$TMP/plain.txt") || fail "report on the grown folder failed"
padded=$(peak "$TMP/pad" "$TMP/pad.txt") || fail "report on the padded folder failed"
jbytes=$(stat -c %s "$TMP/pad/points.jsonl")
echo "peak RSS: small folder $base kB, $POINTS points $plain kB, padded journal ($jbytes bytes) $padded kB"
sed -i "s|$D|DIR|g" "$TMP/plain.txt"
sed -i "s|$TMP/pad|DIR|g" "$TMP/pad.txt"
cmp -s "$TMP/plain.txt" "$TMP/pad.txt" || fail "the report differs with a padded journal"
[ "$((padded - plain))" -lt 6144 ] ||
	fail "a finished run's journal is held in memory: $padded kB with a padded journal, $plain kB without"
bytes=$(cat "$D"/{run.json,summary.json,summary.csv,timeseries.csv} | wc -c)
[ "$(((plain - base) * 1024))" -lt "$((3 * bytes))" ] ||
	fail "the report took $((plain - base)) kB over a small folder's for $bytes bytes of results"
ok "report peaks: $((plain - base)) kB for $bytes bytes; the journal adds $((padded - plain)) kB"

# A journal ahead of summary.json still counts: the same report as from the complete files.
cp -r "$TMP/small" "$TMP/behind"
grow "$TMP/behind" 0 1
"$LOCKSTEP" report --no-plots --json "$D" | sed "s|$D|DIR|g" >"$TMP/full.json" ||
	fail "report --json on the grown folder failed"
"$LOCKSTEP" report --no-plots --json "$TMP/behind" | sed "s|$TMP/behind|DIR|g" >"$TMP/behind.json" ||
	fail "report --json on the folder with summary.json behind failed"
"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert sum(len(p["tests"] or []) for p in d["phases"]) > 5, "no steady-state verdicts"' "$TMP/full.json" ||
	fail "the grown folder's report has no verdicts"
cmp -s "$TMP/full.json" "$TMP/behind.json" ||
	fail "the report differs when summary.json is behind the journal"
ok "a journal ahead of summary.json gives the same report"
