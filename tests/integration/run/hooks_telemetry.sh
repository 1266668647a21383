#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Hooks around phases, events, collectors and the kernel log through `lockstep run`.
# Two agents drive two loop devices over one file. b's config names hooks (one writes a line to
# /dev/kmsg, one notes that it ran, one fails, one sleeps past hook_timeout) and both agents name
# a collector `counter`: a script printing JSON with a counter that goes up by one at every call.
# - A good plan: phase p1 takes telemetry around the phase (the default), runs a before hook, an
#   event at 1 s (the kernel log line) and an after hook that fails under on_error: continue;
#   phase p2 takes telemetry around each of its 2 points, and its before hook times out
#   (continue). Expect: the run completes; each telemetry file holds the counter's value of that
#   moment (consecutive per agent: p1 before 1, after 2; p2's points 3, 4 and 5, 6);
#   telemetry.csv has the deltas; p1's kernel log excerpt has the line and p2's do not;
#   events.csv has every hook with its result; the report shows the events and the deltas.
# - A plan naming a hook or a collector that b does not define: refused before any I/O
#   (FILE:LINE:COL, the device's counters unchanged).
# - An event that fails under on_error: stop: the run ends failed and says why; what was
#   measured is kept.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup
[ -w /dev/kmsg ] || skip "needs a writable /dev/kmsg"

back=$(mk_backing 64M)
da=$(mk_loop "$back")
db=$(mk_loop "$back")
token="lockstep-hooktest-$$-$RANDOM"
cat >"$TMP/kmsg.sh" <<SH
#!/bin/sh
echo "$token" >/dev/kmsg
SH
cat >"$TMP/mark.sh" <<SH
#!/bin/sh
echo "\$LOCKSTEP_HOOK \$LOCKSTEP_PHASE" >>"$TMP/marks"
SH
cat >"$TMP/counter.sh" <<'SH'
#!/bin/sh
# $1: the state file; prints {"n": N, "nested": {"list": [7, N]}, "name": "counter"}
n=$(( $(cat "$1" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$1"
printf '{"n": %d, "nested": {"list": [7, %d]}, "name": "counter"}\n' "$n" "$n"
SH
chmod +x "$TMP/kmsg.sh" "$TMP/mark.sh" "$TMP/counter.sh"
cat >"$TMP/agent-a.yaml" <<YAML
collectors:
  counter: ["$TMP/counter.sh", "$TMP/count-a"]
YAML
cat >"$TMP/agent-b.yaml" <<YAML
hook_timeout: 2s
hooks:
  kmsg_line: ["$TMP/kmsg.sh"]
  mark: ["$TMP/mark.sh"]
  fail: ["/bin/false"]
  sleeper: ["/bin/sleep", "30"]
collectors:
  counter: ["$TMP/counter.sh", "$TMP/count-b"]
YAML
pa=$(free_port)
start_agent a "$pa" --allow-write "/dev/loop*" --config "$TMP/agent-a.yaml"
pb=$(free_port)
start_agent b "$pb" --allow-write "/dev/loop*" --config "$TMP/agent-b.yaml"

"$LOCKSTEP" agents "127.0.0.1:$pa" "127.0.0.1:$pb" >"$TMP/agents.out" 2>&1 || fail "lockstep agents: $(cat "$TMP/agents.out")"
grep -Eq "^ +hooks: kmsg_line, mark, fail, sleeper; collectors: counter$" "$TMP/agents.out" ||
	fail "lockstep agents does not list b's hooks: $(cat "$TMP/agents.out")"
"$LOCKSTEP" agents --json "127.0.0.1:$pa" >"$TMP/agents.json" || fail "lockstep agents --json"
[ "$(json "$TMP/agents.json" 'd[0]["collectors"]')" = "['counter']" ] || fail "agents --json: $(cat "$TMP/agents.json")"

# plan FILE <PHASES: a plan of agents a and b on the two loop devices.
plan() {
	cat >"$1" <<-YAML
	lockstep: 1
	name: hooks
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$pa"}
	  - {name: b, address: "tcp://127.0.0.1:$pb"}
	targets:
	  - {name: drive, paths: {a: "$da", b: "$db"}}
	defaults: {interval: 500ms, rw: randread, bs: 4k, iodepth: 2, rate_iops: 400}
	YAML
	cat >>"$1"
}
ios() { awk '{print $1 + $5}' "/sys/block/$(basename "$1")/stat"; }

# --- a good plan --------------------------------------------------------------------------------
plan "$TMP/good.yaml" <<'YAML'
phases:
  - name: p1
    workload: {runtime: 3s}
    before: [{agent: b, hook: mark}]
    events: [{at: 1s, agent: b, hook: kmsg_line}]
    after: [{agent: b, hook: fail, on_error: continue}]
  - name: p2
    workload: {runtime: 1s}
    sweep: {iodepth: [1, 2]}
    telemetry: {collect: [counter], every: point}
    before: [{agent: b, hook: sleeper, on_error: continue}]
YAML
"$LOCKSTEP" validate --quiet "$TMP/good.yaml" || fail "the good plan does not validate"
"$LOCKSTEP" run "$TMP/good.yaml" -o "$TMP/res" >"$TMP/run.out" 2>&1 ||
	fail "the good run failed: $(tail -20 "$TMP/run.out")"
grep -qx "mark 0" "$TMP/marks" || fail "the before hook did not run with its environment: $(cat "$TMP/marks" 2>&1)"
"$PY" - "$TMP/res" "$token" <<'PY' || fail "the telemetry and events are not what the hooks did"
import csv, json, os, sys
res, token = sys.argv[1:]
tel = f"{res}/telemetry"
def n(agent, stem, when):
    return json.load(open(f"{tel}/{agent}/{stem}-{when}.json"))["counter"]["n"]
for agent in "ab":
    got = [n(agent, "p1", "before"), n(agent, "p1", "after"),
           n(agent, "p2-p0", "before"), n(agent, "p2-p0", "after"),
           n(agent, "p2-p1", "before"), n(agent, "p2-p1", "after")]
    print(f"  {agent}'s counter: {got}")
    assert got == [1, 2, 3, 4, 5, 6], got
deltas = list(csv.DictReader(open(f"{res}/telemetry.csv")))
mine = sorted((d["phase"], d["point"], d["agent"], d["field"], d["before"], d["after"], d["delta"])
              for d in deltas if d["collector"] == "counter")
print(f"  telemetry.csv: {len(mine)} rows, e.g. {mine[:2]}")
want = []
for agent in "ab":
    want += [("p1", "-1", agent, "n", "1", "2", "1"),
             ("p1", "-1", agent, "nested.list[1]", "1", "2", "1")]
    want += [("p2", str(p), agent, f, str(3 + 2 * p), str(4 + 2 * p), "1")
             for p in (0, 1) for f in ("n", "nested.list[1]")]
assert mine == sorted(want), (mine, sorted(want))
k1 = open(f"{tel}/b/p1-kmsg.txt").read()
assert token in k1, k1[-500:]
for p in (0, 1):
    assert token not in open(f"{tel}/b/p2-p{p}-kmsg.txt").read()
print(f"  b's kernel log in p1: {[l for l in k1.splitlines() if token in l]}")
ev = [(e["phase"], e["kind"], e["agent"], e["hook"], e["result"])
      for e in csv.DictReader(open(f"{res}/events.csv"))]
print(f"  events.csv: {ev}")
assert ev == [("p1", "before", "b", "mark", "ok"), ("p1", "event", "b", "kmsg_line", "ok"),
              ("p1", "after", "b", "fail", "failed"), ("p2", "before", "b", "sleeper", "timeout")], ev
PY
"$LOCKSTEP" report --no-plots "$TMP/res" >"$TMP/report.txt" || fail "report failed"
grep -q "kmsg_line" "$TMP/report.txt" || fail "the report does not show the events: $(cat "$TMP/report.txt")"
grep -Eq "counter.*\+1" "$TMP/report.txt" || fail "the report does not show the deltas: $(cat "$TMP/report.txt")"
ok "telemetry before and after each phase and point, the kernel log excerpt, events and hooks in events.csv and the report"

# --- names the agent does not define: refused before any I/O ------------------------------------
plan "$TMP/nohook.yaml" <<'YAML'
phases:
  - name: p1
    workload: {runtime: 1s}
    events: [{at: 500ms, agent: b, hook: port_dwn}]
YAML
plan "$TMP/nocoll.yaml" <<'YAML'
phases:
  - name: p1
    workload: {runtime: 1s}
    telemetry: {collect: [smart]}
YAML
for p in nohook nocoll; do
	before=$(ios "$db")
	rc=0
	"$LOCKSTEP" run "$TMP/$p.yaml" -o "$TMP/res-$p" >"$TMP/$p.out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || fail "$p: the run did not fail"
	[ "$(ios "$db")" = "$before" ] || fail "$p: I/O reached b's device before the refusal"
	[ "$(cat "$TMP/res-$p/timeseries.csv" 2>/dev/null | wc -l)" -le 1 ] || fail "$p: rows were measured"
	case $p in
	nohook) grep -E "nohook.yaml:12:[0-9]+: .*agent b has no hook 'port_dwn' \(its config defines: kmsg_line, mark, fail, sleeper\)" "$TMP/$p.out" ;;
	nocoll) grep -E "nocoll.yaml:12:[0-9]+: .*agent [ab] has no collector 'smart' \(its config defines: counter\)" "$TMP/$p.out" ;;
	esac || fail "$p: not the refusal expected: $(cat "$TMP/$p.out")"
done
ok "a hook or collector not in the agent's config: refused with its place in the plan, before any I/O"

# --- an event that fails under on_error: stop ---------------------------------------------------
plan "$TMP/stop.yaml" <<'YAML'
phases:
  - name: p1
    workload: {runtime: 4s}
    events: [{at: 1s, agent: b, hook: fail}]
  - name: p2
    workload: {runtime: 1s}
YAML
rc=0
"$LOCKSTEP" run "$TMP/stop.yaml" -o "$TMP/res-stop" >"$TMP/stop.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a failed event under stop did not fail the run"
grep -q "event fail on agent b at 1.000 s failed" "$TMP/stop.out" || fail "no reason given: $(cat "$TMP/stop.out")"
[ "$(json "$TMP/res-stop/run.json" 'd["status"]')" = failed ] || fail "run.json does not say failed"
grep -q '^p1,' "$TMP/res-stop/timeseries.csv" || fail "what was measured before the stop was lost"
grep -q '^p2,' "$TMP/res-stop/timeseries.csv" && fail "the run went on to p2"
ok "a failed event under on_error: stop ends the run, says why, and keeps what was measured"
