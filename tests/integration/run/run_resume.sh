#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lockstep resume: a coordinator killed with SIGKILL in the middle of a WSAT round (after a plain
# sweep phase) is resumed from its folder: the run completes, every point is there once, the
# files of the points kept are byte for byte what they were before the crash, and the WSAT goes
# on with its bytes-written count. Then the refusals: a finished run, another plan, and agents
# serving another coordinator (the folder is left unchanged).
. "$(dirname "$0")/../lib.sh"
back=$(mk_backing 4M)
pa=$(free_port)
pb=$(free_port)
start_agent a "$pa" --allow-write "$back"
start_agent b "$pb" --allow-write "$back"

# plan NAME [EXTRA_PHASE]: a sweep, then a WSAT of 1 s rounds until 1x the 4 MiB target.
plan() {
	cat >"$TMP/$1.yaml" <<-YAML
	lockstep: 1
	name: $1
	lease: 3s
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$pa"}
	  - {name: b, address: "tcp://127.0.0.1:$pb"}
	targets:
	  - {name: t, share: shared, paths: {a: "$back", b: "$back"}}
	defaults: {interval: 100ms, engine: psync, direct: false}
	phases:
	  - {name: sweep, workload: {runtime: 1s, rw: randread}, sweep: {iodepth: [1, 2]}}
	  - name: wsat
	    suite: snia-wsat
	    workload: {jobs: 1, iodepth: 1, rate_iops: 125}
	    round: {duration: 1s}
	    steady: {window: 2, max_rounds: 40}
	    stop: {capacity: 1x}
	${2:-}
	YAML
}

# killed NAME: run plan NAME and SIGKILL the coordinator in the middle of WSAT round 3.
killed() {
	local run n
	"$LOCKSTEP" run --quiet "$TMP/$1.yaml" -o "$TMP/$1" 2>"$TMP/$1.log" &
	run=$!
	on_exit "kill -9 $run"
	for _ in $(seq 300); do
		n=$(grep -c '^wsat,' "$TMP/$1/rounds.csv" 2>/dev/null || true)
		[ "${n:-0}" -ge 2 ] && break
		sleep 0.05
	done
	[ "${n:-0}" -ge 2 ] || fail "$1: the WSAT did not get to round 3: $(tail -3 "$TMP/$1.log")"
	for _ in $(seq 100); do # a few intervals into round 3
		n=$(grep -c '^wsat,2,' "$TMP/$1/timeseries.csv" 2>/dev/null || true)
		[ "${n:-0}" -ge 6 ] && break
		sleep 0.05
	done
	kill -9 $run
	wait $run 2>/dev/null || true
	cp -a "$TMP/$1" "$TMP/$1.before"
}

# --- kill -9 mid-round, resume, complete -------------------------------------------------------
plan r
killed r
rc=0
timeout 120 "$LOCKSTEP" resume "$TMP/r" >"$TMP/resume.log" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "resume: exit $rc: $(tail -5 "$TMP/resume.log")"
grep -q "resuming run .* at phase wsat point 2 (4 points kept)" "$TMP/resume.log" ||
	fail "resume did not say where it resumed: $(cat "$TMP/resume.log")"
"$PY" - "$TMP/r" "$TMP/r.before" <<'EOF' || fail "the resumed run is not right"
import collections, csv, json, sys
d, before = sys.argv[1], sys.argv[2]
run = json.load(open(d + "/run.json"))
assert run["status"] == "complete", (run["status"], run["errors"])
keys = [(p["phase"], p["point"]) for p in run["phases"]]
assert len(keys) == len(set(keys)), keys
for ph in ("sweep", "wsat"):
    pts = [p for f, p in keys if f == ph]
    assert pts == list(range(len(pts))), (ph, pts)
assert len(run["resumes"]) == 1 and run["resumes"][0]["phase"] == "wsat" and \
    run["resumes"][0]["point"] == 2, run["resumes"]
# Every point once in the CSV files too.
for name, key in (("summary.csv", ("phase", "point", "agent")),
                  ("timeseries.csv", ("phase", "point", "interval", "agent"))):
    rows = [tuple(r[k] for k in key) for r in csv.DictReader(open(d + "/" + name))]
    dup = [k for k, n in collections.Counter(rows).items() if n > 1]
    assert not dup, (name, dup[:5])
summ = json.load(open(d + "/summary.json"))
assert len(summ["points"]) == 3 * len(keys), (len(summ["points"]), len(keys))
# The files of the points kept: byte for byte what they were before the crash.
journal = [json.loads(l) for l in open(before + "/points.jsonl")]
sizes = [e for e in journal if "sizes" in e][-1]["sizes"]
assert "samples/a.msgpack" in sizes and "rounds.csv" in sizes, sizes
for name, n in sizes.items():
    a = open(before + "/" + name, "rb").read()
    b = open(d + "/" + name, "rb").read()
    assert len(a) >= n and a[:n] == b[:n], name
# The WSAT went on with its bytes written, to 1x the capacity, and not beyond.
rounds = [r for r in csv.DictReader(open(d + "/rounds.csv")) if r["phase"] == "wsat"]
written = [int(r["bytes_written"]) for r in rounds]
assert [int(r["round"]) for r in rounds] == list(range(1, len(rounds) + 1)), rounds
assert all(x < y for x, y in zip(written, written[1:])), written
assert written[-1] >= 4 << 20 > written[-2], written
assert [p for p in keys if p[0] == "wsat"][-1][1] == len(rounds) - 1
print("  %d points, %d WSAT rounds, %.1f MiB written" % (len(keys), len(rounds), written[-1] / 2**20))
EOF
# The raw samples (cut back, then appended to) still give exactly the merged figures.
if "$PY" -c 'import msgpack' 2>/dev/null; then
	"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/r" >"$TMP/merge.txt" 2>&1 ||
		fail "check_merge.py on the resumed run: $(cat "$TMP/merge.txt")"
fi
"$LOCKSTEP" report --no-plots "$TMP/r" >"$TMP/r.txt" 2>&1 || fail "report: $(cat "$TMP/r.txt")"
grep -q "^status       complete" "$TMP/r.txt" || fail "report: $(head -5 "$TMP/r.txt")"
ok "kill -9 mid-round, then resume: complete, every point once, the kept points byte-identical"

# --- refusals ----------------------------------------------------------------------------------
rc=0
"$LOCKSTEP" resume "$TMP/r" >"$TMP/again.log" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "resume of a finished run: exit $rc, want 2: $(cat "$TMP/again.log")"
grep -q "the run ended (status complete)" "$TMP/again.log" || fail "finished: $(cat "$TMP/again.log")"
ok "a finished run: $(head -1 "$TMP/again.log")"

plan r2
killed r2
plan other "  - {name: extra, workload: {runtime: 1s}}"
rc=0
"$LOCKSTEP" resume --plan "$TMP/other.yaml" "$TMP/r2" >"$TMP/plan.log" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "resume with another plan: exit $rc, want 2: $(cat "$TMP/plan.log")"
grep -q "other.yaml is not the plan run .* started with" "$TMP/plan.log" ||
	fail "another plan: $(cat "$TMP/plan.log")"
# Unchanged but for .lock: the killed run's stale lock, which the resume took, then gave up.
diff -r -x .lock "$TMP/r2" "$TMP/r2.before" >/dev/null || fail "another plan: the folder changed"
ok "another plan: refused, folder unchanged"

# Another coordinator takes the agents (once r2's lease has run out), then r2 is resumed.
cat >"$TMP/busy.yaml" <<YAML
lockstep: 1
name: busy
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: t, share: shared, paths: {a: "$back", b: "$back"}}
defaults: {interval: 100ms, engine: "null"}
phases:
  - {name: long, workload: {runtime: 60s}}
YAML
busy=""
for _ in $(seq 20); do
	rm -rf "$TMP/busy"
	"$LOCKSTEP" run "$TMP/busy.yaml" -o "$TMP/busy" >"$TMP/busy.log" 2>&1 &
	busy=$!
	for _ in $(seq 100); do
		grep -q "^\[1/1 long" "$TMP/busy.log" && break
		kill -0 $busy 2>/dev/null || break
		sleep 0.05
	done
	grep -q "^\[1/1 long" "$TMP/busy.log" && break
	wait $busy 2>/dev/null || true # refused while r2's lease held: try again
	sleep 0.5
done
on_exit "kill -INT $busy"
grep -q "^\[1/1 long" "$TMP/busy.log" || fail "the other run did not start: $(cat "$TMP/busy.log")"
rc=0
timeout 60 "$LOCKSTEP" resume "$TMP/r2" >"$TMP/busy-resume.log" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "resume while agents serve another run: exit $rc, want 1: $(cat "$TMP/busy-resume.log")"
grep -q "agent a serves another coordinator (busy: run .* from coordinator .*): not resuming" \
	"$TMP/busy-resume.log" || fail "busy: $(cat "$TMP/busy-resume.log")"
diff -r -x .lock "$TMP/r2" "$TMP/r2.before" >/dev/null || fail "busy: the folder changed"
kill -INT $busy
wait $busy 2>/dev/null || true
ok "agents serving another coordinator: $(grep -o 'agent a serves.*' "$TMP/busy-resume.log" | head -1)"

# Once they are free again, r2 resumes too.
rc=0
timeout 120 "$LOCKSTEP" resume --quiet "$TMP/r2" >"$TMP/r2-resume.log" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "resume of r2: exit $rc: $(tail -5 "$TMP/r2-resume.log")"
[ "$(json "$TMP/r2/run.json" 'd["status"]')" = complete ] || fail "r2 is not complete"
ok "r2 resumed once the agents were free"
