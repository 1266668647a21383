#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The coordinator itself dies (`lockstep resume`): kill -9 of `lockstep run` in the middle
# of a point, then `lockstep resume DIR` reattaches to the run's agents (same run id, same key),
# keeps every completed point, reruns the interrupted one and finishes, appending to DIR:
# status complete, a `resumes` entry in run.json, consistent results, and the rows of every point
# completed before the crash byte-identical to what was there before (timeseries.csv and
# summary.csv as saved after the crash are, up to the interrupted point, prefixes of the final
# files).
# FAULTS_BASELINE=1: the same harness, the run not killed (nothing to resume).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

fl_keys
# The coordinator's default key, so `lockstep resume DIR` needs no --key.
export XDG_CONFIG_HOME="$TMP/xdg"
install -d -m 0700 "$XDG_CONFIG_HOME/lockstep"
install -m 0600 "$KEYS/ctl.key" "$XDG_CONFIG_HOME/lockstep/coordinator.key"
install -m 0644 "$KEYS/ctl.pub" "$XDG_CONFIG_HOME/lockstep/coordinator.pub"
fl_two_agents

fl_plan "$TMP/plan.yaml" resume "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: one, workload: {runtime: 2s}}
  - {name: sweep, sweep: {iodepth: [1, 2, 4]}, workload: {runtime: 2s}}
  - {name: last, workload: {runtime: 2s}}
YAML
start_run main "$TMP/plan.yaml"

# ts_point PHASE POINT K: the `all` row of interval >= K of PHASE's POINT is in timeseries.csv.
ts_point() {
	[ -f "$RES/timeseries.csv" ] &&
		awk -F, -v p="$1" -v n="$2" -v k="$3" \
			'$1 == p && $2 == n && $5 == "all" && $3 + 0 >= k { f = 1 } END { exit !f }' \
			"$RES/timeseries.csv"
}
wait_for 30 "interval 4 of sweep point 1" ts_point sweep 1 4
if ! fault_on; then
	note "baseline: the coordinator is not killed"
	wait_run
	expect_complete "baseline"
	check_consistent --agents a,b
	ok "baseline: the run completes through the harness"
	exit 0
fi
kill -9 "$RUN_PID"
wait_run
note "coordinator killed mid-point (exit $RUN_RC)"
cp "$RES/timeseries.csv" "$TMP/ts.before"
cp "$RES/summary.csv" "$TMP/sum.before"
cp "$RES/run.json" "$TMP/run.before"

# The command must exist: without it there is nothing to test, and that is a failure.
help=$("$LOCKSTEP" resume --help 2>&1 || true)
case $help in
*"unknown command"*)
	fail "'lockstep resume' does not exist in this build ($(echo "$help" | head -1)): the coordinator's crash cannot be resumed" ;;
esac
rc=0
timeout 120 "$LOCKSTEP" resume "$RES" >"$TMP/resume.log" 2>&1 || rc=$?
note "lockstep resume: exit $rc"
RUN_RC=$rc RUN_LOG="$TMP/resume.log"
expect_complete "lockstep resume"
"$PY" - "$RES" "$TMP/ts.before" "$TMP/sum.before" <<'PY' || fail "completed points changed by the resume"
import csv, io, json, sys
res, ts_before, sum_before = sys.argv[1:4]
run = json.load(open(f"{res}/run.json"))
assert run.get("status") == "complete", run.get("status")
assert len(run.get("resumes", [])) == 1, f"run.json resumes: {run.get('resumes')}"
# Completed before the crash: the points with summary rows then.
before = open(sum_before).read()
done = {(r["phase"], r["point"]) for r in csv.DictReader(io.StringIO(before))}
assert ("one", "0") in done and ("sweep", "0") in done, sorted(done)
after = open(f"{res}/summary.csv").read()
assert after.startswith(before), "summary.csv: the rows of completed points differ after resume"
# timeseries.csv: the lines up to the last row of a completed point are a prefix of the final file.
lines = open(ts_before).read().split("\n")
keep = 1
for i, line in enumerate(lines[1:], 1):
    f = line.split(",")
    if len(f) > 4 and (f[0], f[1]) in done:
        keep = i + 1
prefix = "\n".join(lines[:keep]) + "\n"
final = open(f"{res}/timeseries.csv").read()
assert final.startswith(prefix), "timeseries.csv: rows of completed points differ after resume"
pts = [(p["phase"], p["point"]) for p in run["phases"]]
for want in [("sweep", 1), ("sweep", 2), ("last", 0)]:
    assert want in pts, f"{want} not in run.json phases after resume: {pts}"
print(f"  {len(done)} completed points kept byte for byte ({keep} timeseries lines); "
      f"resumes: {run['resumes']}")
PY
check_consistent --agents a,b
ok "coordinator killed mid-point, lockstep resume: complete, completed points unchanged"
