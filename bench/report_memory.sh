#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The end of a run's memory: the peak RSS of `lockstep report` as text, --json, --html and with
# its plots, on synthetic folders (make_results.py's randrw point copied to POINTS points of
# INTERVALS intervals each, grow_results.py), for an old binary beside this tree's, with the
# ratio new/old and each one's growth over the first folder. The plots are written by a gnuplot
# that draws nothing, so the figure is lockstep's own. Never gates anything.
#   bench/report_memory.sh OLD_BIN [POINTSxINTERVALS ...]   (default 100x10 100x100 1500x10)
# OLD_BIN is a build/bin folder of the tree to compare with (e.g. main's).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${LST_BIN:-$ROOT/build/bin}
OLD=${1:?usage: bench/report_memory.sh OLD_BIN [POINTSxINTERVALS ...]}
shift
sizes=("$@")
[ $# -gt 0 ] || sizes=(100x10 100x100 1500x10)
for b in "$BIN" "$OLD"; do
	[ -x "$b/lockstep" ] || { echo "$b/lockstep: not found (build first: make build)" >&2; exit 2; }
done
TMP=$(mktemp -d /tmp/lst-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/bin"
printf '#!/bin/sh\nexit 0\n' >"$TMP/bin/gnuplot"
chmod +x "$TMP/bin/gnuplot"
python3 "$ROOT/tests/integration/make_results.py" "$TMP/base" >/dev/null

# peak BIN DIR MODE: the peak RSS (kB) of BIN/lockstep report on a fresh copy of DIR, as MODE
# (text, json, html, plots: report_peak.py).
peak() {
	rm -rf "$TMP/work"
	cp -r "$2" "$TMP/work"
	PATH="$TMP/bin:$PATH" python3 "$ROOT/tests/integration/report_peak.py" "$1/lockstep" \
		"$TMP/work" /dev/null "$3" 2>/dev/null
}

printf '%-14s %10s %10s %-7s %10s %10s %6s %10s %10s\n' folder "ts rows" "MB" mode \
	"old kB" "new kB" ratio "old grow" "new grow"
declare -A first
for size in "${sizes[@]}"; do
	points=${size%x*} intervals=${size#*x}
	d="$TMP/f$size"
	cp -r "$TMP/base" "$d"
	python3 "$ROOT/tests/integration/grow_results.py" "$d" 0 0 "$points" "$intervals"
	rows=$(($(wc -l <"$d/timeseries.csv") - 1))
	mb=$(du -sm --exclude=samples "$d" | cut -f1)
	for mode in text json html plots; do
		old=$(peak "$OLD" "$d" "$mode")
		new=$(peak "$BIN" "$d" "$mode")
		: "${first[old$mode]:=$old}" "${first[new$mode]:=$new}"
		printf '%-14s %10d %10d %-7s %10d %10d %6.2f %10d %10d\n' "$size" "$rows" "$mb" "$mode" \
			"$old" "$new" "$(awk -v a="$new" -v b="$old" 'BEGIN { print a / b }')" "$((old - first[old$mode]))" \
			"$((new - first[new$mode]))"
	done
	rm -rf "$d"
done
