#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The end of a run as flat as the run: `lockstep report` on the same POINTS points run 10 times
# longer (INTERVALS, then 10 x INTERVALS intervals a point: ten times the timeseries rows) peaks
# no higher, give or take a bound, as text, JSON and HTML (the model keeps no timeseries row),
# and with its plots by under 2.5 times the added rows' bytes (they read one phase's rows at a
# time, as compact rows; the whole file parsed took over 4 times). The plots are written by a gnuplot that draws nothing, so
# the peak is lockstep's own (report_peak.py counts its children too).
. "$(dirname "$0")/../lib.sh"

# Sanitizers' shadow memory and quarantine make RSS say nothing about the code.
! grep -qa __asan_init "$LOCKSTEP" || skip "an address-sanitizer build: RSS is not the code's"
POINTS=${POINTS:-100}
INTERVALS=${INTERVALS:-10}
FLAT_KB=${FLAT_KB:-2048}
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
	echo "$mode: $short kB for $INTERVALS intervals a point, $long kB for $((10 * INTERVALS)) ($ts more bytes of timeseries.csv)"
	if [ $mode = plots ]; then
		[ "$((grow * 1024 * 2))" -lt "$((ts * 5))" ] ||
			fail "plots: $grow kB more for $ts more bytes of timeseries.csv (2.5 times them at most)"
	else
		[ "$grow" -lt "$FLAT_KB" ] ||
			fail "$mode: $grow kB more for a run 10 times longer (under $FLAT_KB kB expected)"
	fi
done
ok "the report's peak stays flat as the run grows 10 times longer; its plots grow by under 2.5 times the rows' bytes"
