#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The coordinator's ingest CPU: N real agents (null engine) on loopback, one point of
# DURATION at INTERVAL; prints the coordinator's CPU time (utime + stime of the whole process,
# its ZeroMQ I/O thread included, from /proc/PID/stat) per sample merged (run.json: each agent's
# `samples`), so receive, decode, merge, CSV rows and the spool ACK are all in the figure: once
# for the whole run (with its fixed cost: connect, clock bursts, run.json, plots, which a long
# run spreads thin), and once while the point runs (between a fifth and nine tenths of
# timeseries.csv's rows), which is the ingest cost itself. Never gates anything.
#   PERF=1          also record the coordinator with perf for PERF_SECONDS (8) from the point's
#                   first row and print the top of `perf report` (self time)
#   PERF_CG=ARGS    perf's call-graph option (-g; e.g. "--call-graph dwarf,16384")
#   PERF_KEEP=FILE  keep perf.data;  KEEP=DIR  keep the plan, the logs and the results folder
#   OLD=REF|DIR     also measure the previous tree's binaries (a git ref built in build-old/, or
#                   a bin folder) in the same run, and print its figures beside this tree's
#   bench/ingest.sh [AGENTS=32] [INTERVAL=100ms] [DURATION=20s]
# Example: OLD=main bench/ingest.sh 32 100ms 20s; bench/ingest.sh 16 10ms 20s
. "$(dirname "$0")/lib.sh"
n=${1:-32}
interval=${2:-100ms}
duration=${3:-20s}
pids=()
stop_agents() {
	for p in "${pids[@]}"; do kill "$p" && wait "$p"; done 2>/dev/null
	pids=()
}
on_exit stop_agents
[ -z "${KEEP:-}" ] || on_exit "cp -r '$TMP' '$KEEP'"

# measure LABEL BIN: one run with the binaries in BIN (agents and coordinator), its figures
# printed after LABEL.
measure() {
local label=$1 BIN=$2
read -r -a ports < <(python3 -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$n")
truncate -s 64M "$TMP/disk"
# start_agent I: agent aI on ports[I], until it says it listens (a port chosen free may be taken
# by another process before the agent binds it: then a new one).
start_agent() {
	local i=$1 try
	for try in 1 2 3 4 5; do
		"$BIN/lockstep-agent" --foreground --listen "tcp://127.0.0.1:${ports[i]}" \
			--name "a$i" >"$TMP/agent-$i.log" 2>&1 &
		pids[i]=$!
		for _ in $(seq 200); do
			grep -q "listening on" "$TMP/agent-$i.log" && return 0
			kill -0 "${pids[i]}" 2>/dev/null || break
			sleep 0.05
		done
		kill "${pids[i]}" 2>/dev/null && wait "${pids[i]}" 2>/dev/null
		ports[i]=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	done
	echo "agent a$i does not start: $(tail -1 "$TMP/agent-$i.log")" >&2
	exit 2
}
for ((i = 0; i < n; i++)); do start_agent "$i"; done
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
perfpid=
# utime + stime (fields 14 and 15 of /proc/PID/stat, in clock ticks) and the lines of
# timeseries.csv, every 50 ms until the process is gone.
while kill -0 "$run" 2>/dev/null; do
	t=$(awk '{print $14 + $15}' "/proc/$run/stat" 2>/dev/null || true)
	l=$({ wc -l <"$TMP/res/timeseries.csv"; } 2>/dev/null || echo 0)
	[ -z "$t" ] || echo "$t $l"
	if [ "${PERF:-0}" = 1 ] && [ -z "$perfpid" ] && [ "$l" -gt 1 ]; then
		perf record -q ${PERF_CG:--g} -o "$TMP/perf.data" -p "$run" -- sleep "${PERF_SECONDS:-8}" \
			>/dev/null 2>&1 &
		perfpid=$!
	fi
	sleep 0.05
done >"$TMP/cpu"
wait "$run" || { tail -5 "$TMP/run.log"; exit 1; }
python3 - "$TMP/res/run.json" "$TMP/cpu" "$(getconf CLK_TCK)" "$n" "$interval" "$duration" "$label" <<'PY'
import json, sys
run, hz = json.load(open(sys.argv[1])), int(sys.argv[3])
agents = [pt["agents"] for pt in run["phases"]]
samples = sum(a["samples"] for ag in agents for a in (ag.values() if isinstance(ag, dict) else ag))
rows = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
ticks, lines = rows[-1][0], max(l for _, l in rows)
cpu = ticks / hz
print("%s %s agents, %s intervals, %s: %d samples, coordinator CPU %.2f s in all, %.1f us per "
      "sample (run included: connect, clock bursts, run.json, plots)"
      % (sys.argv[7], sys.argv[4], sys.argv[5], sys.argv[6], samples, cpu, cpu / samples * 1e6))
# While the point runs: from when timeseries.csv holds a fifth of its rows to when it holds
# nine tenths, the CPU spent over the samples those rows count.
a = next(r for r in rows if r[1] >= lines * 0.2)
b = [r for r in rows if r[1] <= lines * 0.9][-1]
n = (b[1] - a[1]) * samples / lines
if n > 0:
    c = (b[0] - a[0]) / hz
    print("%s while the point runs: %.0f samples, CPU %.2f s, %.1f us per sample (%.0f samples "
          "per CPU second)" % (sys.argv[7], n, c, c / n * 1e6, n / c if c else 0))
PY
if [ -n "$perfpid" ]; then
	wait "$perfpid" || true
	perf report -i "$TMP/perf.data" --no-children --stdio --percent-limit 0.7 2>/dev/null |
		grep -E '^ +[0-9.]+%' | head -25
	[ -z "${PERF_KEEP:-}" ] || cp "$TMP/perf.data" "$PERF_KEEP"
fi
stop_agents
rm -rf "${TMP:?}/res"
}

measure "this tree:" "$BIN"
[ -z "${OLD:-}" ] || measure "previous:" "$(old_bin "$OLD")"
