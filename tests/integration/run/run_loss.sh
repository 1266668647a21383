#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An agent killed mid-phase: the run says so in plain words within 5 s, stops (plan says abort)
# or finishes with the others and marks the points partial (plan says continue), and keeps
# everything that was received before the loss.
. "$(dirname "$0")/../lib.sh"
need_root
back=$(mk_backing 128M)

# start_loss NAME <PLAN_TAIL: agents a-NAME and b-NAME on $back, and `lockstep run` in the
# background of a plan over both (its loss policy and phases read from stdin) into
# $TMP/res-NAME, logging to $TMP/run-NAME.log. Returns once b's samples are being written (10 s
# at most). Sets RUN_PID and B_PID.
start_loss() {
	local name=$1 pa pb tail
	tail=$(cat)
	pa=$(free_port); pb=$(free_port)
	start_agent "a-$name" "$pa" --allow-write "$back"
	start_agent "b-$name" "$pb" --allow-write "$back"
	B_PID=$AGENT_PID
	cat >"$TMP/plan-$name.yaml" <<-YAML
	lockstep: 1
	name: loss
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$pa"}
	  - {name: b, address: "tcp://127.0.0.1:$pb"}
	targets:
	  - {name: t, share: shared, paths: {a: "$back", b: "$back"}}
	lease: 2s
	defaults: {interval: 250ms, rw: randread, bs: 4k, iodepth: 4}
	YAML
	printf '%s\n' "$tail" >>"$TMP/plan-$name.yaml"
	"$LOCKSTEP" run "$TMP/plan-$name.yaml" -o "$TMP/res-$name" >"$TMP/run-$name.log" 2>&1 &
	RUN_PID=$!
	on_exit "kill $RUN_PID"
	for _ in $(seq 200); do
		[ -s "$TMP/res-$name/samples/b.msgpack" ] && return 0
		sleep 0.05
	done
	fail "$name: no sample of b after 10 s: $(tail -5 "$TMP/run-$name.log")"
}

# run_with_kill POLICY: run a 2-agent plan, kill agent b 1.5 s into the first phase.
run_with_kill() {
	local policy=$1 res="$TMP/res-$1" log="$TMP/run-$1.log" t_kill t_lost run bpid
	start_loss "$policy" <<-YAML
	on_agent_loss: $policy
	phases:
	  - {name: first, workload: {runtime: 10s}}
	  - {name: second, workload: {runtime: 1s}}
	YAML
	run=$RUN_PID bpid=$B_PID
	sleep 1.5
	kill -9 "$bpid"
	t_kill=$(date +%s.%N)
	while ! grep -q "agent b lost" "$log"; do
		kill -0 $run 2>/dev/null || break
		sleep 0.05
	done
	t_lost=$(date +%s.%N)
	set +e
	wait $run
	local rc=$?
	set -e
	grep -q "agent b lost" "$log" || fail "$policy: the loss was never reported: $(cat "$log")"
	"$PY" -c "import sys; d=float(sys.argv[2])-float(sys.argv[1]); print(f'  reported lost {d:.1f} s after kill -9'); sys.exit(0 if d < 5 else 1)" \
		"$t_kill" "$t_lost" || fail "$policy: loss reported too late"
	grep "agent b lost" "$log" | head -1 | sed 's/^/  /'
	[ $rc -eq 1 ] || fail "$policy: exit $rc, want 1"
	[ -s "$res/samples/b.msgpack" ] || fail "$policy: b's samples were lost"
	"$PY" - "$res" "$policy" <<-'PY'
	import csv, json, sys
	res, policy = sys.argv[1:3]
	run = json.load(open(f"{res}/run.json"))
	rows = list(csv.DictReader(open(f"{res}/timeseries.csv")))
	b_rows = [r for r in rows if r["agent"] == "b" and r["phase"] == "first"]
	assert len(b_rows) >= 4, f"only {len(b_rows)} rows from b before the loss"
	assert any("agent b lost" in e for e in run["errors"]), run["errors"]
	first = run["phases"][0]
	assert first["partial"], first
	if policy == "abort":
	    assert run["status"] == "failed", run["status"]
	    assert len(run["phases"]) == 1, "abort should not run the second phase"
	    assert first["agents"]["a"]["done"] == "stopped", first["agents"]["a"]
	else:
	    assert run["status"] == "partial", run["status"]
	    assert len(run["phases"]) == 2, "continue should run the second phase"
	    assert first["agents"]["a"]["done"] == "complete", first["agents"]["a"]
	    second = run["phases"][1]
	    assert second["partial"] and list(second["agents"]) == ["a"], second
	    a_rows = [r for r in rows if r["agent"] == "a" and r["phase"] == "first"]
	    assert len(a_rows) >= 20, len(a_rows)
	print(f"  {policy}: {len(b_rows)} intervals from b kept; status {run['status']}")
	PY
	ok "on_agent_loss: $policy"
}

run_with_kill abort
run_with_kill continue

# Lost in a phase that says continue, the next phase says abort: it does not start at all.
start_loss next <<YAML
phases:
  - {name: first, workload: {runtime: 3s}, on_agent_loss: continue}
  - {name: second, workload: {runtime: 1s}, on_agent_loss: abort}
YAML
kill -9 "$B_PID"
rc=0
wait $RUN_PID || rc=$?
[ $rc -eq 1 ] || fail "continue then abort: exit $rc, want 1"
[ "$(json "$TMP/res-next/run.json" '[p["phase"] for p in d["phases"]]')" = "['first']" ] ||
	fail "the abort phase started after the loss: $(cat "$TMP/run-next.log")"
grep -q "phase second point 0 does not start" "$TMP/run-next.log" ||
	fail "no word about not starting: $(cat "$TMP/run-next.log")"
ok "lost in a continue phase: the next phase, abort, does not start"
