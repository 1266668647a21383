#!/usr/bin/env bash
# The coordinator's ingest CPU (issue 16): N real agents (null engine) on loopback, one point of
# DURATION at INTERVAL; prints the coordinator's CPU time (utime + stime of the whole process,
# its ZeroMQ I/O thread included, from /proc/PID/stat) per sample merged (run.json: each agent's
# `samples`), so receive, decode, merge, CSV rows and the spool ACK are all in the figure: once
# for the whole run (with its fixed cost: connect, clock bursts, run.json, plots, which a long
# run spreads thin), and once while the point runs (between a fifth and nine tenths of
# timeseries.csv's rows), which is the ingest cost itself. PERF=1 also records the coordinator with `perf record -g` from 5 s to 15 s into the run
# (DURATION 20s or more: the point running) and prints the top of `perf report` (self time); PERF_KEEP=FILE keeps perf.data. Never gates anything.
#   bench/ingest.sh [AGENTS=32] [INTERVAL=100ms] [DURATION=20s]
# Example: bench/ingest.sh 32 100ms 20s; bench/ingest.sh 16 10ms 20s
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${LST_BIN:-$ROOT/build/bin}
[ -x "$BIN/lockstep-agent" ] || { echo "build first: make build" >&2; exit 2; }
n=${1:-32}
interval=${2:-100ms}
duration=${3:-20s}
TMP=$(mktemp -d /tmp/lst-ingest.XXXXXX)
pids=()
cleanup() {
	set +e
	for p in "${pids[@]}"; do kill "$p" && wait "$p"; done 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
read -r -a ports < <(python3 -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$n")
truncate -s 64M "$TMP/disk"
for ((i = 0; i < n; i++)); do
	"$BIN/lockstep-agent" --foreground --listen "tcp://127.0.0.1:${ports[i]}" --name "a$i" \
		>"$TMP/agent-$i.log" 2>&1 &
	pids+=($!)
done
for port in "${ports[@]}"; do
	for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
done
{
	echo "lockstep: 1"
	echo "name: ingest"
	echo "agents:"
	for ((i = 0; i < n; i++)); do echo "  - {name: a$i, address: \"tcp://127.0.0.1:${ports[i]}\"}"; done
	echo "targets:"
	echo "  - name: t"
	echo "    share: shared"
	echo "    paths:"
	for ((i = 0; i < n; i++)); do echo "      a$i: \"$TMP/disk\""; done
	echo "defaults: {interval: $interval, engine: \"null\", rw: randread, bs: 4k, iodepth: 1}"
	echo "phases:"
	echo "  - {name: p, workload: {runtime: $duration}}"
} >"$TMP/plan.yaml"
"$BIN/lockstep" run --quiet "$TMP/plan.yaml" -o "$TMP/res" 2>"$TMP/run.log" &
run=$!
if [ "${PERF:-0}" = 1 ]; then
	(sleep 5 && perf record -q -g -o "$TMP/perf.data" -p "$run" -- sleep 10) >/dev/null 2>&1 &
	perfpid=$!
fi
# utime + stime (fields 14 and 15 of /proc/PID/stat, in clock ticks) and the lines of
# timeseries.csv, every 50 ms until the process is gone.
while kill -0 "$run" 2>/dev/null; do
	t=$(awk '{print $14 + $15}' "/proc/$run/stat" 2>/dev/null || true)
	l=$({ wc -l <"$TMP/res/timeseries.csv"; } 2>/dev/null || echo 0)
	[ -z "$t" ] || echo "$t $l"
	sleep 0.05
done >"$TMP/cpu"
wait "$run" || { tail -5 "$TMP/run.log"; exit 1; }
python3 - "$TMP/res/run.json" "$TMP/cpu" "$(getconf CLK_TCK)" "$n" "$interval" "$duration" <<'PY'
import json, sys
run, hz = json.load(open(sys.argv[1])), int(sys.argv[3])
agents = [pt["agents"] for pt in run["phases"]]
samples = sum(a["samples"] for ag in agents for a in (ag.values() if isinstance(ag, dict) else ag))
rows = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
ticks, lines = rows[-1][0], max(l for _, l in rows)
cpu = ticks / hz
print("%s agents, %s intervals, %s: %d samples, coordinator CPU %.2f s in all, %.1f us per "
      "sample (run included: connect, clock bursts, run.json, plots)"
      % (sys.argv[4], sys.argv[5], sys.argv[6], samples, cpu, cpu / samples * 1e6))
# While the point runs: from when timeseries.csv holds a fifth of its rows to when it holds
# nine tenths, the CPU spent over the samples those rows count.
a = next(r for r in rows if r[1] >= lines * 0.2)
b = [r for r in rows if r[1] <= lines * 0.9][-1]
n = (b[1] - a[1]) * samples / lines
if n > 0:
    c = (b[0] - a[0]) / hz
    print("while the point runs: %.0f samples, CPU %.2f s, %.1f us per sample (%.0f samples "
          "per CPU second)" % (n, c, c / n * 1e6, n / c if c else 0))
PY
if [ "${PERF:-0}" = 1 ]; then
	wait "$perfpid" || true
	perf report -i "$TMP/perf.data" --no-children --stdio --percent-limit 0.7 2>/dev/null |
		grep -E '^ +[0-9.]+%' | head -25
	[ -z "${PERF_KEEP:-}" ] || cp "$TMP/perf.data" "$PERF_KEEP"
fi
