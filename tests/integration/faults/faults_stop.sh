#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A frozen agent: agent b, in its own namespace, gets SIGSTOP mid-phase.
# - 4 s (longer than the 3 s after which an agent is unreachable, shorter than the 10 s lease):
#   the run completes, nothing is lost, every interval of both agents is present, the files
#   agree, and each agent's I/Os equal its device's counters. (The loss model says 3 s; a 3 s stop sits
#   right on the unreachable threshold and passes or not by a few ms, so 4 s it is.)
# - 15 s (longer than the lease): b is lost once the lease has run out (not before), after
#   SIGCONT the point is retried (retry: the default on_agent_loss), and the run completes with consistent results.
# FAULTS_BASELINE=1: the same harness without the SIGSTOPs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

fl_keys
fl_two_agents

# freeze SECONDS: SIGSTOP agent b now, SIGCONT after SECONDS in the background (and at the end,
# whatever happens). Sets STOP_T0.
freeze() {
	STOP_T0=$(mono_s)
	if ! fault_on; then
		note "baseline: agent b not stopped"
		return 0
	fi
	on_exit "kill -CONT $B_PID"
	kill -STOP "$B_PID"
	note "agent b (pid $B_PID) stopped for $1 s"
	(
		sleep "$1"
		kill -CONT "$B_PID"
		echo "[$(date +%T.%3N)] agent b continued" >>"$TMP/events.log"
	) &
	on_exit "kill $!"
}

# --- 4 s: nothing is lost --------------------------------------------------------------------
fl_plan "$TMP/short.yaml" stop-short "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: s4, workload: {runtime: 8s}}
  - {name: next, workload: {runtime: 1s}}
YAML
before_a=$(dev_rw "$PORT_A") before_b=$(dev_rw "$PORT_B")
start_run short "$TMP/short.yaml"
wait_for 15 "b's interval 5 of s4" ts_at s4 b 5
freeze 4
wait_run
expect_complete "SIGSTOP 4 s"
log_has "agent b lost" && fail "b was declared lost after a 4 s stop: $(grep "agent b" "$RUN_LOG")"
check_consistent --agents a,b \
	--device-ios "a=$(dev_delta "$before_a" "$(dev_rw "$PORT_A")")" \
	--device-ios "b=$(dev_delta "$before_b" "$(dev_rw "$PORT_B")")"
ok "SIGSTOP of 4 s: complete, nothing lost, sums = device counters"

# --- 15 s: lost after the lease, retried after SIGCONT ----------------------------------------------
fl_plan "$TMP/long.yaml" stop-long "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: s15, workload: {runtime: 6s}}
  - {name: next, workload: {runtime: 1s}}
YAML
start_run long "$TMP/long.yaml"
wait_for 15 "b's interval 5 of s15" ts_at s15 b 5
freeze 15
if fault_on; then
	wait_for 20 "the loss of b" log_has "agent b lost"
	lost_after=$("$PY" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" \
		"$STOP_T0" "$(mono_s)")
	note "b declared lost $lost_after s after SIGSTOP"
	"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 9.5 else 1)" "$lost_after" ||
		fail "b declared lost $lost_after s into a SIGSTOP, before its 10 s lease ran out"
	wait_for 30 "the retry of s15 point 0" log_has "retrying phase .* point 0"
fi
wait_run
expect_complete "SIGSTOP 15 s"
check_consistent --agents a,b
ok "SIGSTOP of 15 s: lost after the lease, point retried after SIGCONT, run complete"
