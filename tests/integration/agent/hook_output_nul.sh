#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A hook whose output holds NUL bytes still reports: its EVENT and its HOOK_DONE reach the
# coordinator (the agent sends each NUL as '?'), events.csv says both ran, and `lockstep run`
# ends as soon as the phase does instead of waiting for the hook's answer until its timeout.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup timeout

dev=$(mk_loop "$(mk_backing 16M)")
cat >"$TMP/nul.sh" <<'SH'
#!/bin/sh
printf 'before\000after\n'
SH
chmod +x "$TMP/nul.sh"
printf 'hooks:\n  nul: ["%s"]\n' "$TMP/nul.sh" >"$TMP/agent.yaml"
port=$(free_port)
start_agent a "$port" --config "$TMP/agent.yaml"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: nul
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: drive, paths: {a: "$dev"}}
defaults: {interval: 200ms, rw: randread, bs: 4k, iodepth: 1, rate_iops: 200}
phases:
  - name: p1
    workload: {runtime: 1s}
    before: [{agent: a, hook: nul}]
    events: [{at: 200ms, agent: a, hook: nul}]
YAML
start=$(date +%s)
rc=0
timeout 30 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.out" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "lockstep run still waited after 30 s: $(tail -5 "$TMP/run.out")"
[ "$rc" -eq 0 ] || fail "the run failed ($rc): $(tail -5 "$TMP/run.out")"
grep -q 'cannot encode' "$TMP/agent-a.log" && fail "the agent could not encode: $(grep encode "$TMP/agent-a.log")"
"$PY" - "$TMP/res/events.csv" <<'PY' || fail "events.csv does not say the hooks ran: $(cat "$TMP/res/events.csv")"
import csv, sys
ev = [(e["kind"], e["hook"], e["result"], e["output"]) for e in csv.DictReader(open(sys.argv[1]))]
print(f"  events.csv: {ev}")
assert [(k, h, r) for k, h, r, _ in ev] == [("before", "nul", "ok"), ("event", "nul", "ok")], ev
assert all(o.startswith("before?after") for *_, o in ev), ev
PY
ok "a hook printing a NUL: HOOK_DONE and EVENT arrive, events.csv says ok, the run took $(($(date +%s) - start)) s"
