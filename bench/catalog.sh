#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The run catalog at a lab's scale: N synthetic results folders (tests/integration/catalog/
# make_runs.py: two drive models, three firmware versions, repeats) added to an SQLite catalog,
# then a trend over all of them drawn from the catalog (goal: under 1 s for 1,000 runs), in
# text, JSON and with its gnuplot script, and db ls. Prints wall and CPU time of each, and the
# bare SQL of the trend's figures through the sqlite3 shell as the floor beside it. Never
# gates anything.
#   bench/catalog.sh [N=1000]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${LST_BIN:-$ROOT/build/bin}
n=${1:-1000}
[ -x "$BIN/lockstep" ] || { echo "build first: make build" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
TMP=$(mktemp -d /tmp/lst-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
DB="sqlite:$TMP/runs.db"

# six (model, firmware) pairs, and the two planted runs
python3 "$ROOT/tests/integration/catalog/make_runs.py" "$TMP/runs" --repeats $(((n - 2 + 5) / 6)) \
	>"$TMP/names"
made=$(wc -l <"$TMP/names")

# measure LABEL CMD...: one line of figures for CMD (its output to $TMP/out)
measure() {
	local label=$1 wall user sys kb
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" || true
	# GNU time says "Command exited with non-zero status 1" first when it did (trend: a regression)
	read -r wall user sys kb < <(tail -1 "$TMP/time")
	printf '%-34s %8s %8s %8s %9d\n' "$label" "$wall" "$user" "$sys" "$((kb / 1024))"
}

echo "$made results folders, SQLite catalog $TMP/runs.db"
printf '%-34s %8s %8s %8s %9s\n' what wall_s user_s sys_s peak_MiB
measure "db add (all, one transaction each)" "$BIN/lockstep" db add -q --db "$DB" "$TMP"/runs/*/
measure "db add again (nothing changes)" "$BIN/lockstep" db add -q --db "$DB" "$TMP"/runs/*/
measure "db ls" "$BIN/lockstep" db ls --db "$DB"
measure "db ls --where model firmware" "$BIN/lockstep" db ls --db "$DB" \
	--where 'model=PX05SRB040 firmware>=AS0B'
args=(write_iops --db "$DB" --phase randrw --point iodepth=16 --by firmware)
measure "trend (text)" "$BIN/lockstep" trend "${args[@]}"
measure "trend --json" "$BIN/lockstep" trend "${args[@]}" --json
cp "$TMP/out" "$TMP/trend.json"
measure "trend --plot" "$BIN/lockstep" trend "${args[@]}" --plot "$TMP/trend.gp"
measure "trend --by date --json" "$BIN/lockstep" trend write_iops --db "$DB" --by date --json
if command -v sqlite3 >/dev/null; then
	measure "floor: the bare SQL (sqlite3 shell)" sqlite3 "$TMP/runs.db" "SELECT run_id, \
AVG(write_iops) FROM points WHERE phase = 'randrw' AND name = 'iodepth=16' GROUP BY run_id"
fi
python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))
print("trend --json: %d runs in %d groups, %d flagged" % (len(t["runs"]), len(t["groups"]),
      sum(r["flag"] in ("regression", "improvement") for r in t["runs"])))' "$TMP/trend.json"
