#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep run` and `lockstep agents` as a user meets them: a bad plan stops before any agent
# is contacted, `agents` shows who is there with clock and rtt, and Ctrl-C stops every agent
# cleanly while keeping what was measured.
. "$(dirname "$0")/../lib.sh"
need_root
back=$(mk_backing 64M)
dev=$(mk_loop "$back")
pa=$(free_port)
start_agent a "$pa" --allow-write "$dev"

# A bad plan: exit 2, FILE:LINE:COL, and the agent never sees a connection (its log is quiet).
cat >"$TMP/bad.yaml" <<YAML
lockstep: 1
name: bad
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - {name: t, paths: {a: "$dev"}}
phases:
  - {name: p, workload: {iodepth: -1, runtime: 1s}}
YAML
set +e
"$LOCKSTEP" run "$TMP/bad.yaml" -o "$TMP/bad-res" 2>"$TMP/bad.err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "bad plan: exit $rc, want 2"
grep -q "bad.yaml:8:35: " "$TMP/bad.err" || fail "no FILE:LINE:COL: $(cat "$TMP/bad.err")"
[ ! -e "$TMP/bad-res" ] || fail "a results folder was made for a bad plan"
ok "bad plan: $(head -1 "$TMP/bad.err")"

# Usage errors: exit 2 and one line that says what is wrong; --help teaches.
for args in "run" "run a.yaml b.yaml" "run --bogus x.yaml" "run x.yaml -o" "agents" \
	"agents --bogus"; do
	rc=0
	# shellcheck disable=SC2086
	"$LOCKSTEP" $args >"$TMP/usage.out" 2>"$TMP/usage.err" || rc=$?
	[ $rc -eq 2 ] || fail "'$args': exit $rc, want 2"
	[ "$(wc -l <"$TMP/usage.err")" -eq 1 ] && grep -q "^lockstep ${args%% *}: .*--help" \
		"$TMP/usage.err" || fail "'$args': not one clear line: $(cat "$TMP/usage.err")"
done
"$LOCKSTEP" run --help | grep "^Exit status: 0 complete" >/dev/null || fail "run --help"
# A results folder that is already there: a usage error, before any agent is contacted.
mkdir "$TMP/full-res"
touch "$TMP/full-res/x"
sed "s/iodepth: -1/iodepth: 1/" "$TMP/bad.yaml" >"$TMP/good.yaml"
rc=0
"$LOCKSTEP" run "$TMP/good.yaml" -o "$TMP/full-res" 2>"$TMP/exists.err" || rc=$?
[ $rc -eq 2 ] && grep -q "already exists and is not empty" "$TMP/exists.err" ||
	fail "existing results folder: exit $rc: $(cat "$TMP/exists.err")"
ok "usage errors: exit 2 with one line"

# Ctrl-C while still connecting (nothing listens there): interrupted, not "no answer in 10 s".
sed "s/127.0.0.1:$pa/127.0.0.1:$(free_port)/" "$TMP/good.yaml" >"$TMP/nobody.yaml"
"$LOCKSTEP" run "$TMP/nobody.yaml" -o "$TMP/nobody-res" 2>"$TMP/nobody.err" &
run=$!
on_exit "kill $run"
sleep 1
kill -INT $run
rc=0
wait $run || rc=$?
[ $rc -eq 130 ] || fail "Ctrl-C while connecting: exit $rc, want 130: $(cat "$TMP/nobody.err")"
! grep -q "no answer" "$TMP/nobody.err" || fail "Ctrl-C reported as a silent agent"
# Nothing was measured: the folder the run made is gone again, and it says so.
[ ! -e "$TMP/nobody-res" ] && grep -q "no point started: removed the results folder" \
	"$TMP/nobody.err" || fail "Ctrl-C while connecting: the run's empty folder stays: $(cat "$TMP/nobody.err")"
ok "Ctrl-C while connecting: exit 130, no folder left"

# lockstep agents
"$LOCKSTEP" agents "tcp://127.0.0.1:$pa" >"$TMP/agents.txt" || fail "agents failed"
grep -q "CLOCK_OFFSET_MS" "$TMP/agents.txt" && grep -q "^a " "$TMP/agents.txt" ||
	fail "agents table: $(cat "$TMP/agents.txt")"
"$LOCKSTEP" agents --json "127.0.0.1:$pa" >"$TMP/agents.json"
"$PY" - "$TMP/agents.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))[0]
assert a["name"] == "a" and a["cores"] >= 1 and a["version"], a
assert abs(a["clock_offset_us"]) < 1000 and 0 < a["rtt_us"] < 100000, a
PY
set +e
"$LOCKSTEP" agents "127.0.0.1:$(free_port)" >"$TMP/none.txt" 2>&1
rc=$?
set -e
[ $rc -eq 1 ] && grep -q unreachable "$TMP/none.txt" || fail "unreachable agent: exit $rc"
ok "agents: $(sed -n 2p "$TMP/agents.txt")"

# Ctrl-C: the agent stops writing, the run exits 130 and keeps the samples.
cat >"$TMP/long.yaml" <<YAML
lockstep: 1
name: long
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - {name: t, paths: {a: "$dev"}}
defaults: {interval: 200ms}
phases:
  - {name: p, workload: {rw: randwrite, bs: 4k, iodepth: 8, runtime: 60s}}
YAML
"$LOCKSTEP" run "$TMP/long.yaml" -o "$TMP/long-res" --quiet &
run=$!
on_exit "kill $run"
sleep 2
kill -INT $run
set +e
wait $run
rc=$?
set -e
[ $rc -eq 130 ] || fail "interrupted run: exit $rc, want 130"
w1=$(devstat "$dev" | awk '{print $4}')
sleep 1
w2=$(devstat "$dev" | awk '{print $4}')
[ "$w1" = "$w2" ] || fail "the agent kept writing after Ctrl-C ($w1 -> $w2)"
"$PY" - "$TMP/long-res" <<'PY'
import csv, json, sys
res = sys.argv[1]
run = json.load(open(f"{res}/run.json"))
assert run["status"] == "interrupted", (run["status"], run["errors"])
assert run["phases"][0]["agents"]["a"]["done"] == "stopped"
rows = [r for r in csv.DictReader(open(f"{res}/timeseries.csv")) if r["agent"] == "all"]
assert len(rows) >= 5, len(rows)
s = [r for r in csv.DictReader(open(f"{res}/summary.csv")) if r["agent"] == "all"]
assert len(s) == 1 and int(s[0]["write_ios"]) > 0
PY
ok "Ctrl-C: agents stopped, exit 130, $(($(wc -l <"$TMP/long-res/timeseries.csv") - 1)) rows kept"
