#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start skew: 4 agents on this machine, 50 phase points, each started at one instant chosen by
# the coordinator. The skew of a point is the spread of the agents' actual job starts on the
# coordinator's timeline (run.json start_skew_us). Prints the median and p99 in microseconds;
# goal: p99 under 100 us. The null engine keeps the agents' CPUs free of I/O work.
#   bench/start_skew.sh [POINTS=50] [AGENTS=4]
. "$(dirname "$0")/lib.sh"
points=${1:-50}
nagents=${2:-4}
LOCKSTEP=$BIN/lockstep

read -ra ports <<<"$(free_ports "$nagents")"
pids=()
{
	echo "lockstep: 1"
	echo "name: start-skew"
	echo "agents:"
	for i in $(seq "$nagents"); do
		port=${ports[i - 1]}
		truncate -s 64M "$TMP/disk$i"
		"$AGENT" --foreground --listen "tcp://127.0.0.1:$port" --name "a$i" \
			--allow-write "$TMP/disk$i" --log "$TMP/agent$i.log" &
		on_exit "kill $!"
		pids+=($!)
		echo "  - {name: a$i, address: \"tcp://127.0.0.1:$port\"}"
	done
	echo "targets:"
	for i in $(seq "$nagents"); do
		echo "  - {name: t$i, paths: {a$i: \"$TMP/disk$i\"}}"
	done
	echo "defaults: {engine: \"null\", size: 64m, interval: 50ms, rate_iops: 2000}"
	echo "phases:"
	echo "  - name: starts"
	echo "    workload: {rw: randread, bs: 4k}"
	echo "    sweep: {iodepth: [$(seq -s, 1 "$points")]}"
	echo "    round: {duration: 100ms}"
} >"$TMP/plan.yaml"
for port in "${ports[@]}"; do wait_port "$port"; done
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" --quiet
# The agents' CPU time (user + system) over the whole run, before they are stopped: the start
# wait's spin shows as the difference between two builds, per point and agent.
cpu_ticks=0
for pid in "${pids[@]}"; do
	cpu_ticks=$((cpu_ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
done
python3 - "$TMP/res/run.json" "$cpu_ticks" "$(getconf CLK_TCK)" <<'PY'
import json, statistics, sys
run = json.load(open(sys.argv[1]))
cpu_ms = int(sys.argv[2]) * 1000 / int(sys.argv[3])
sk = sorted(p["start_skew_us"] for p in run["phases"])
p99 = sk[min(len(sk) - 1, int(0.99 * len(sk)))]
late = sorted(abs(a["start_late_us"]) for p in run["phases"] for a in p["agents"].values())
# All agents here share one monotonic clock, so the true skew is the spread of their raw start
# instants; the difference to the estimate is the clock-offset estimation error.
true = sorted((max(a["actual_agent_ns"] for a in p["agents"].values()) -
               min(a["actual_agent_ns"] for a in p["agents"].values())) / 1e3 for p in run["phases"])
tp99 = true[min(len(true) - 1, int(0.99 * len(true)))]
print(f"start skew over {len(sk)} points x {len(run['agents'])} agents (coordinator timeline):")
print(f"  median {statistics.median(sk):.1f} us, p99 {p99:.1f} us, max {sk[-1]:.1f} us (goal: p99 < 100 us)")
print(f"  true skew (raw starts on the shared clock): median {statistics.median(true):.1f} us, "
      f"p99 {tp99:.1f} us")
print(f"  agent start vs chosen instant: median {statistics.median(late):.1f} us, max {late[-1]:.1f} us")
worst = max(run["phases"], key=lambda p: p["start_skew_us"])
print(f"  worst point: skew {worst['start_skew_us']:.1f} us; agents late by " +
      ", ".join(f"{n} {a['start_late_us']:.1f}" for n, a in sorted(worst["agents"].items())) + " us")
npts, nag = len(run["phases"]), len(run["agents"])
print(f"  agent CPU: {cpu_ms:.0f} ms in all, {cpu_ms / npts / nag:.2f} ms per point per agent")
print("  rtt/offset per agent: " + ", ".join(f"{a['name']} {a['rtt_us']:.0f}/{a['clock_offset_us']:+.1f} us" for a in run["agents"]))
PY
