#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A port stall end to end, through `lockstep run`, timed by the plan's own events:
# agents a and b drive two loop devices over one file (the two ports of one drive); b runs in a
# cgroup v1 blkio group, and b's config has two hooks that throttle its device to 1 write IOPS
# (port_down) and lift it (port_up). The plan runs them at 3 s and 6 s of a 10 s point. Expect:
# the run completes; events.csv has both hooks, each started within 2 ms of its instant; a's
# IOPS while b stalls stay within 15% of its own before (a may wait once behind b at the moment
# the throttle bites: both loop devices write one file); b's rows show I/Os in flight with the
# oldest passing 2 s and timeouts counted before 6 s (io_timeout 500ms); summary.json has a
# failover window for b of [3, 6] s within an interval, with its evidence (the port_down event,
# the timeouts, the stalled I/O) and no dip; the report prints it with that evidence.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup lsblk

back=$(mk_backing 256M)
da=$(mk_loop "$back")
db=$(mk_loop "$back")
mm=$(lsblk -dno MAJ:MIN "$db" | tr -d ' ')
blkio_group failover
on_exit "echo '$mm 0' >'$CG/blkio.throttle.write_iops_device'"
pa=$(free_port)
start_agent a "$pa" --allow-write "/dev/loop*"
pb=$(free_port)
# The hooks: what the host's owner allows a plan to do to b's port (no shell, no arguments from
# the plan). A hook inherits the agent's cgroup; writing the throttle is all it needs.
cat >"$TMP/port.sh" <<SH
#!/bin/sh
echo "$mm \$1" >"$CG/blkio.throttle.write_iops_device" && echo "port \$1"
SH
chmod +x "$TMP/port.sh"
cat >"$TMP/agent-b.yaml" <<YAML
hooks:
  port_down: ["$TMP/port.sh", "1"]
  port_up: ["$TMP/port.sh", "0"]
YAML
AGENT_WRAP="$CG_WRAP" start_agent b "$pb" --allow-write "/dev/loop*" --config "$TMP/agent-b.yaml"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: port-stall
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: drive, paths: {a: "$da", b: "$db"}}
defaults: {interval: 500ms}
phases:
  - name: stall
    workload: {rw: randwrite, bs: 4k, iodepth: 8, rate_iops: 4000, runtime: 10s,
               on_io_error: continue, io_timeout: 500ms}
    failover: {below: 50%}
    events:
      - {at: 3s, agent: b, hook: port_down}
      - {at: 6s, agent: b, hook: port_up}
YAML
"$LOCKSTEP" validate --quiet "$TMP/plan.yaml" || fail "the plan does not validate"
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" --quiet >"$TMP/run.out" 2>&1 &
run=$!
on_exit "kill $run 2>/dev/null"
wait $run || fail "the run failed: $(cat "$TMP/run.out")"
"$PY" - "$TMP/res" <<'PY' || fail "the stall is not what the rows say"
import csv, json, statistics, sys
res = sys.argv[1]
rows = [r for r in csv.DictReader(open(f"{res}/timeseries.csv")) if r["phase"] == "stall"]
a = [r for r in rows if r["agent"] == "a" and r["scope"] == "agent"]
b = [r for r in rows if r["agent"] == "b" and r["scope"] == "agent"]
iops = lambda r: float(r["write_iops"])
oldest = max(float(r["oldest_inflight_us"] or 0) for r in b)
timeouts = sum(int(r["timeouts"] or 0) for r in b)
early = sum(int(r["timeouts"] or 0) for r in b if float(r["t_s"]) < 5.5)
print(f"  b: oldest in flight {oldest / 1e6:.2f} s, {timeouts} timeouts ({early} before 6 s); "
      f"b's IOPS {[round(iops(r)) for r in b]}")
assert oldest > 2_000_000, oldest
assert early > 0, early
ev = list(csv.DictReader(open(f"{res}/events.csv")))
for e in ev:
    print(f"  event {e['hook']} on {e['agent']}: asked {e['t_requested']} s, started "
          f"{e['late_ms']} ms late, {e['result']}")
assert [(e["agent"], e["hook"], e["result"]) for e in ev] == \
    [("b", "port_down", "ok"), ("b", "port_up", "ok")], ev
for e, at in zip(ev, (3.0, 6.0)):
    assert abs(float(e["t_requested"]) - at) < 1e-6, e
    assert 0 <= float(e["late_ms"]) <= 50.0, e  # fork + exec under load took up to 10 ms (hooks_partition.sh)
# a is not throttled: while b stalls, a's IOPS stay near its own before the stall.
a_before = statistics.median(iops(r) for r in a[:4])
slow = [int(r["interval"]) for r in b if iops(r) < 0.5 * statistics.median(iops(x) for x in b[:4])]
assert slow, "b never slowed down"
a_during = statistics.median(iops(r) for r in a if int(r["interval"]) in slow)
print(f"  a: {a_before:.0f} IOPS before, {a_during:.0f} while b stalled (intervals {slow})")
assert abs(a_during - a_before) <= 0.15 * a_before, (a_before, a_during)
pts = json.load(open(f"{res}/summary.json"))["points"]
fo = [p["failover"] for p in pts if p.get("agent") == "b" and p.get("failover")]
assert len(fo) == 1, [p.get("failover") for p in pts]
w = fo[0]
print(f"  b's failover window: {w['start_t_s']:.2f} .. {w['end_t_s']:.2f} s, {w['ios']} I/Os")
# the hooks throttled b at 3 s and lifted it at 6 s: the window is that, within an interval
assert abs(w["start_t_s"] - 3.0) <= 0.5, w
assert abs(w["end_t_s"] - 6.0) <= 0.5, w
# the window has its evidence: the plan's port_down at its start, the timeouts, the stall
ev = w["evidence"]
print(f"  its evidence: {ev}")
assert any(e["event"] == "b port_down" and abs(e["start_t_s"] - 3.0) <= 0.5
           for e in ev.get("events", [])), ev
assert ev.get("timeouts", 0) > 0 and ev.get("stalled_us", 0) > 2_000_000, ev
assert not [d for p in pts if p.get("agent") == "b" for d in p.get("dips") or []], pts
# a shares the backing file with b: the moment the throttle bites, a's writes may wait once
# behind b's (one interval at most); a window of a's longer than that is wrong.
a_fo = [p.get("failover") for p in pts if p.get("agent") == "a" and p.get("scope") == "agent"]
assert len(a_fo) == 1 and (a_fo[0] is None or a_fo[0]["duration_s"] <= 0.5), a_fo
PY
"$LOCKSTEP" report --no-plots "$TMP/res" >"$TMP/report.txt" || fail "report failed"
grep -E "^ +failover: b .*; evidence: event b port_down at 3\.[0-9] s, .*timeouts, an I/O in flight" "$TMP/report.txt" ||
	fail "the report has no failover line with its evidence: $(cat "$TMP/report.txt")"
ok "a stalled port on the plan's events: hooks on time, in flight, timeouts, its failover window; the other port unaffected"
