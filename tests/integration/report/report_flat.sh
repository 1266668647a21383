#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The end of a run as flat as the run: `lockstep report` on the same POINTS points run 10 times
# longer (INTERVALS, then 10 x INTERVALS intervals a point: ten times the timeseries rows, all in
# the one phase randrw) peaks no higher, give or take a bound, as text, JSON, HTML and with its
# plots (the model keeps no timeseries row; a phase's plot reads its rows from the file as it
# writes them, however long the phase), and --json peaks no higher than the text report on the
# same folder (the document is written a point at a time, never built whole). The plots are
# written by a gnuplot that draws nothing, so the peak is lockstep's own (report_peak.py counts
# its children too).
. "$(dirname "$0")/../lib.sh"

# Sanitizers' shadow memory and quarantine make RSS say nothing about the code.
! grep -qa __asan_init "$LOCKSTEP" || skip "an address-sanitizer build: RSS is not the code's"
POINTS=${POINTS:-600}
INTERVALS=${INTERVALS:-3}
FLAT_KB=${FLAT_KB:-2048}
JSON_KB=${JSON_KB:-1024}
"$PY" "$LST_SRC/tests/integration/make_results.py" "$TMP/base" >/dev/null || fail "make_results.py failed"
for k in 1 10; do
	cp -r "$TMP/base" "$TMP/x$k"
	"$PY" "$LST_SRC/tests/integration/grow_results.py" "$TMP/x$k" 0 0 "$POINTS" "$((k * INTERVALS))" ||
		fail "growing the folder failed"
done
mkdir "$TMP/bin"
printf '#!/bin/sh\nexit 0\n' >"$TMP/bin/gnuplot"
chmod +x "$TMP/bin/gnuplot"
ts=$(($(stat -c %s "$TMP/x10/timeseries.csv") - $(stat -c %s "$TMP/x1/timeseries.csv")))

# peak K MODE: the peak RSS (kB) of lockstep report on folder xK, as MODE (report_peak.py).
peak() {
	PATH="$TMP/bin:$PATH" "$PY" "$LST_SRC/tests/integration/report_peak.py" "$LOCKSTEP" "$TMP/x$1" \
		"$TMP/$2-$1.out" "$2" 2>>"$TMP/report.err" || fail "report $2 on folder x$1 failed"
}

for mode in text json html plots; do
	short=$(peak 1 "$mode") || exit 1
	long=$(peak 10 "$mode") || exit 1
	grow=$((long - short))
	eval "peak_$mode=$long"
	echo "$mode: $short kB for $INTERVALS intervals a point, $long kB for $((10 * INTERVALS)) ($ts more bytes of timeseries.csv)"
	[ "$grow" -lt "$FLAT_KB" ] ||
		fail "$mode: $grow kB more for a run 10 times longer (under $FLAT_KB kB expected)"
done
# shellcheck disable=SC2154 # set by eval above
[ "$((peak_json - peak_text))" -lt "$JSON_KB" ] ||
	fail "--json: $((peak_json - peak_text)) kB above the text report on $POINTS points (under $JSON_KB kB expected)"
ok "the report's peak, its plots' and --json's stay flat as the run's one phase grows 10 times longer; --json peaks as the text report does"
