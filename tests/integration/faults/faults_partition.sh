#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Silence is not loss: agent b, in its own network namespace, is cut off
# by an nftables drop of everything on its link while the other agent runs on.
# - 2 s and 8 s partitions (shorter than the 10 s lease), each mid-phase: the run completes,
#   every interval of both agents is in timeseries.csv, the files agree with each other, and
#   each agent's I/Os equal its own loop device's block counters.
# - a 20 s partition (longer than the lease): b stops its I/O within lease + 1 s (its loop
#   device's counters stop), the point is retried once the link is back, and the run completes
#   with consistent results.
# FAULTS_BASELINE=1 runs the same harness without partitions (the 20 s case then checks only
# what does not depend on the fault).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

fl_keys
fl_two_agents

# --- 2 s and 8 s: nothing is lost --------------------------------------------------------------
fl_plan "$TMP/short.yaml" part-short "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: p2, workload: {runtime: 8s}}
  - {name: p8, workload: {runtime: 14s}}
YAML
"$LOCKSTEP" validate --quiet "$TMP/short.yaml" || fail "plan short does not validate"
before_a=$(dev_rw "$PORT_A") before_b=$(dev_rw "$PORT_B")
start_run short "$TMP/short.yaml"
wait_for 15 "b's interval 5 of p2" ts_at p2 b 5
partition "$NS_B" 2
wait_for 40 "b's interval 5 of p8" ts_at p8 b 5
partition "$NS_B" 8
wait_run
expect_complete "2 s and 8 s partitions"
log_has "agent b lost" && fail "b was declared lost: $(grep "agent b" "$RUN_LOG")"
check_consistent --agents a,b \
	--device-ios "a=$(dev_delta "$before_a" "$(dev_rw "$PORT_A")")" \
	--device-ios "b=$(dev_delta "$before_b" "$(dev_rw "$PORT_B")")"
log_show "agent b (unreachable|reachable again)"
ok "partitions of 2 s and 8 s: complete, every interval of a and b, sums = device counters"

# --- 20 s: b stops within the lease, the point is retried, the run completes ----------------------
fl_plan "$TMP/long.yaml" part-long "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: long, workload: {runtime: 16s}}
  - {name: after, workload: {runtime: 2s}}
YAML
start_run long "$TMP/long.yaml"
wait_for 15 "b's interval 5 of long" ts_at long b 5
partition "$NS_B" 20
# b's own port of the drive: when did its counters last move?
"$PY" - "/sys/block/$(basename "$PORT_B")/stat" "$PART_T0" >"$TMP/stopped.out" <<'PY'
import sys, time
stat, t0 = sys.argv[1], float(sys.argv[2])
def ios():
    f = open(stat).read().split()
    return int(f[0]) + int(f[1]) + int(f[4]) + int(f[5])
last, last_t = ios(), time.time()
while time.time() < t0 + 13:
    time.sleep(0.05)
    n = ios()
    if n != last:
        last, last_t = n, time.time()
print(f"{last_t - t0:.2f}")
PY
stopped=$(cat "$TMP/stopped.out")
note "b's device last moved $stopped s after the partition began"
if fault_on; then
	"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 11 else 1)" "$stopped" ||
		fail "b's I/O went on $stopped s into a 20 s partition (lease 10 s)"
	wait_for 60 "the retry of point 0" log_has "retrying phase .* point 0"
fi
wait_run
expect_complete "20 s partition"
log_show "agent b lost|retrying" 3
check_consistent --agents a,b
ok "partition of 20 s: b stopped its I/O $stopped s in, the point was retried, run complete"
