#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of live metrics: the same run (null engine, 2 agents on this machine, 100 ms
# intervals) unscraped and with `--metrics` scraped every 500 ms, alternately, REPEATS times
# each. Prints side by side the combined IOPS (mean of timeseries.csv's agent=all rows) and the
# coordinator's CPU time (user + system, from getrusage of the child), medians, and their
# difference, with each run's figures (on a shared machine the spread between runs can exceed the
# difference). Never fails on a figure.
#   bench/metrics.sh [RUNTIME_S=10] [REPEATS=3]
. "$(dirname "$0")/lib.sh"
runtime=${1:-10}
repeats=${2:-3}
LOCKSTEP=$BIN/lockstep
command -v curl >/dev/null || { echo "needs curl" >&2; exit 2; }

read -ra ports <<<"$(free_ports 3)"
truncate -s 64M "$TMP/disk"
for i in 0 1; do
	"$AGENT" --foreground --listen "tcp://127.0.0.1:${ports[i]}" --name "a$i" \
		--allow-write "$TMP/disk" --log "$TMP/agent$i.log" &
	on_exit "kill $!"
done
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: metrics-cost
agents:
  - {name: a0, address: "tcp://127.0.0.1:${ports[0]}"}
  - {name: a1, address: "tcp://127.0.0.1:${ports[1]}"}
targets:
  - {name: t, share: shared, paths: {a0: "$TMP/disk", a1: "$TMP/disk"}}
defaults: {engine: "null", interval: 100ms, rw: randread, bs: 4k, iodepth: 32}
phases:
  - {name: load, workload: {runtime: ${runtime}s}}
YAML
wait_port "${ports[0]}"
wait_port "${ports[1]}"

# one MODE N: a run (MODE off or scraped); appends "IOPS CPU_S" to $TMP/MODE.
one() {
	local scraper=""
	local args=()
	if [ "$1" = scraped ]; then
		args=(--metrics ":${ports[2]}")
		(while sleep 0.5; do curl -s -o /dev/null "http://127.0.0.1:${ports[2]}/metrics" || true; done) &
		scraper=$!
	fi
	python3 - "$LOCKSTEP" run --quiet "${args[@]}" "$TMP/plan.yaml" -o "$TMP/res-$1-$2" <<'PY' >>"$TMP/$1"
import csv, resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
rows = [r for r in csv.DictReader(open(sys.argv[-1] + "/timeseries.csv")) if r["agent"] == "all"]
iops = sum(float(r["read_iops"]) + float(r["write_iops"]) for r in rows) / len(rows)
print(iops, ru.ru_utime + ru.ru_stime)
PY
	[ -z "$scraper" ] || { kill "$scraper" 2>/dev/null || true; wait "$scraper" 2>/dev/null || true; }
}

# Alternate which goes first, so a drift of the machine's load does not favour one.
for n in $(seq "$repeats"); do
	if [ $((n % 2)) = 1 ]; then
		one off "$n"
		one scraped "$n"
	else
		one scraped "$n"
		one off "$n"
	fi
done
iops_off=$(cut -d' ' -f1 "$TMP/off" | median)
iops_on=$(cut -d' ' -f1 "$TMP/scraped" | median)
cpu_off=$(cut -d' ' -f2 "$TMP/off" | median)
cpu_on=$(cut -d' ' -f2 "$TMP/scraped" | median)
printf 'null engine, 2 agents, QD 32, 100 ms intervals, %s s x %s (median)\n' "$runtime" "$repeats"
printf '  %-22s %14s %18s\n' "" "IOPS" "coordinator CPU s"
paste -d' ' "$TMP/off" "$TMP/scraped" | awk '{printf "  run %-18d %14.0f %18.3f   scraped %14.0f %8.3f\n", NR, $1, $2, $3, $4}'

printf '  %-22s %14.0f %18.3f\n' unscraped "$iops_off" "$cpu_off" \
	"scraped every 500 ms" "$iops_on" "$cpu_on"
python3 -c 'import sys
a, b, c, d = map(float, sys.argv[1:])
print("  difference             %+13.2f%% %+17.3f (%+.1f%%)" % ((b - a) / a * 100, d - c, (d - c) / c * 100 if c else 0))' \
	"$iops_off" "$iops_on" "$cpu_off" "$cpu_on"
