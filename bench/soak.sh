#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Soak: a time-compressed day. 100 ms intervals, several agents on the ports of one
# dual-port "drive" (loop devices over one tmpfs file), a WSAT-shaped plan of hundreds of 1 s
# rounds (rate-limited 4 KiB random writes), and one agent in its own network namespace cut off
# by an nftables partition every few tens of seconds: mostly shorter than the 10 s lease (it must
# come back with nothing lost), every LONG_EVERY-th one longer (the round is retried).
# Prints the coordinator's and the agents' RSS (VmRSS) at the start and at the end, the rate of
# rounds at the start and at the end, what the loss model did (unreachable / lost / retries), the
# run's status and the verdict of tests/integration/check_consistency.py. Not a CI test: run it
# as root on a quiet machine, after a build.
#
#   bench/soak.sh [DURATION_S=600] [AGENTS=4] [PART_EVERY_S=30] [PART_S=5] [LONG_EVERY=4] [LONG_S=14]
#
# LONG_EVERY=0: only short partitions. The run is bounded: its rounds are sized to DURATION_S,
# and it is interrupted (Ctrl-C: status interrupted) if it is still going 120 s after that.
# KEEP=DIR copies the results folder and the logs to DIR.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export LST_BIN=${LST_BIN:-$ROOT/build/bin}
[ -x "$LST_BIN/lockstep-agent" ] || { echo "build first: make build" >&2; exit 2; }
. "$ROOT/tests/integration/lib.sh"
. "$ROOT/tests/integration/faults_lib.sh"

duration=${1:-600}
nagents=${2:-4}
every=${3:-30}
part=${4:-5}
long_every=${5:-4}
long=${6:-14}
[ "$nagents" -ge 2 ] && [ "$nagents" -le 8 ] || { echo "AGENTS: 2 .. 8" >&2; exit 2; }
names=(a b c d e f g h)
victim=${names[nagents - 1]}
rounds=$((duration * 10 / 13)) # 1 s rounds plus about 0.3 s between them
[ "$rounds" -ge 10 ] || rounds=10

fl_keys
back=$(mk_backing 1G)
ports=()
for ((i = 0; i < nagents; i++)); do ports+=("$(mk_loop "$back")"); done
mk_host "$victim"
NS=$HOST_NS
pids=()
{
	echo "lockstep: 1"
	echo "name: soak"
	echo "lease: 10s"
	echo "agents:"
	for ((i = 0; i < nagents; i++)); do
		n=${names[i]}
		port=$(free_port)
		if [ "$n" = "$victim" ]; then
			start_key_agent "$n" "$port" "$NS" "$HOST_IP" --allow-write "/dev/loop*"
		else
			start_key_agent "$n" "$port" "" 127.0.0.1 --allow-write "/dev/loop*"
		fi
		pids+=("$AGENT_PID")
		echo "  - {name: $n, address: \"$AGENT_ADDR\", key: \"$KEYS/$n.pub\"}"
	done
	echo "targets:"
	echo "  - name: drive"
	echo "    paths:"
	for ((i = 0; i < nagents; i++)); do echo "      ${names[i]}: ${ports[i]}"; done
	cat <<-YAML
	defaults: {interval: 100ms}
	phases:
	  - name: wsat
	    suite: snia-wsat
	    workload: {jobs: 1, iodepth: 4, rate_iops: 1500}
	    round: {duration: 1s}
	    steady: {max_rounds: $rounds}
	  - name: after
	    workload: {rw: randrw, bs: 4k, iodepth: 4, rate_iops: 1500, runtime: 5s}
	YAML
} >"$TMP/soak.yaml"
"$LOCKSTEP" validate --quiet "$TMP/soak.yaml" || { cat "$TMP/soak.yaml"; exit 2; }
echo "soak: $nagents agents ($victim in namespace $NS), $rounds rounds of 1 s at 100 ms intervals;"
echo "      a partition of $victim every $every s: $part s, every ${long_every}th $long s (lease 10 s)"

# rss PID: VmRSS in kB (0 once gone).
rss() { awk '/^VmRSS:/ {print $2; f = 1} END {if (!f) print 0}' "/proc/$1/status" 2>/dev/null || echo 0; }
rss_all() { # LABEL
	local line="$1: coordinator $(rss "$RUN_PID") kB; agents"
	for ((i = 0; i < nagents; i++)); do line+=" ${names[i]} $(rss "${pids[i]}")"; done
	echo "$line kB"
}

t_start=$(date +%s)
start_run soak "$TMP/soak.yaml"
wait_for 60 "the first round's rows" ts_at wsat "$victim" 5
rss_first=$(rss_all "RSS at the start")
echo "$rss_first"

# Partitions, and the coordinator's RSS sampled as the run goes (its last sample is the end's).
n=0 next=$(($(date +%s) + every)) deadline=$((t_start + duration + 120)) max_rss=0
while kill -0 "$RUN_PID" 2>/dev/null; do
	now=$(date +%s)
	r=$(rss "$RUN_PID")
	[ "$r" -gt 0 ] && { last_rss=$(rss_all "RSS at the end"); [ "$r" -gt "$max_rss" ] && max_rss=$r; }
	if [ "$now" -ge "$deadline" ]; then
		note "soak: still running at $((now - t_start)) s: interrupting"
		kill -INT "$RUN_PID"
		deadline=$((now + 1000000))
	fi
	if [ "$now" -ge "$next" ]; then
		n=$((n + 1))
		len=$part
		[ "$long_every" -gt 0 ] && [ $((n % long_every)) -eq 0 ] && len=$long
		# One partition at a time: the previous lifter is done (every > len).
		[ -n "${PART_PID:-}" ] && wait "$PART_PID" 2>/dev/null || true
		partition "$NS" "$len" >/dev/null
		echo "  [$(date +%T)] partition $n of $victim: $len s"
		next=$((now + every))
	fi
	sleep 1
done
wait_run
t_end=$(date +%s)
echo "${last_rss:-RSS at the end: none sampled} (coordinator max $max_rss kB)"
agents_end="RSS of the agents after the run:"
for ((i = 0; i < nagents; i++)); do agents_end+=" ${names[i]} $(rss "${pids[i]}")"; done
echo "$agents_end kB"

echo "run: exit $RUN_RC, status $(run_status), $((t_end - t_start)) s, $n partitions"
echo "log: $(grep -c "unreachable" "$RUN_LOG" || true) unreachable, $(grep -c "reachable again" "$RUN_LOG" || true) reachable again, $(grep -c "agent .* lost" "$RUN_LOG" || true) lost, $(grep -c "retrying" "$RUN_LOG" || true) retries"
"$PY" - "$RES" <<'PY' || true
import json, sys
run = json.load(open(f"{sys.argv[1]}/run.json"))
st = [p["start_t_s"] for p in run["phases"] if p["phase"] == "wsat"]
if len(st) > 40:
    # Medians of the gaps between round starts: a partition delays the round it falls in
    # (DONE waits for the link), so means would measure where the partitions fell.
    gaps = [b - a for a, b in zip(st, st[1:])]
    med = lambda g: sorted(g)[len(g) // 2]
    print(f"rounds: {len(st)} run; median {med(gaps[:20]):.3f} s from one round's start to the next "
          f"over the first 20, {med(gaps[-20:]):.3f} s over the last 20")
else:
    print(f"rounds: {len(st)} run")
print(f"errors: {len(run.get('errors', []))}" + "".join(f"\n  {e}" for e in run.get("errors", [])[:5]))
PY
if "$PY" "$CHECK_CONSISTENCY" "$RES" >"$TMP/consistency.out" 2>&1; then
	echo "consistency: $(tail -1 "$TMP/consistency.out")"
else
	echo "consistency: FAILED: $(tail -2 "$TMP/consistency.out")"
fi
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp -r "$RES" "$TMP"/*.log "$TMP/soak.yaml" "$KEEP/"
	echo "kept in $KEEP"
fi
