#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An agent frozen across the end of a point: agent b, in its own namespace, gets SIGSTOP 3 s
# into a 6 s point and SIGCONT 5 s later, 2 s after the point's end (shorter than the 10 s
# lease: it is unreachable, never lost). Its job wakes past its end and closes every interval
# it slept through, so the run completes with every interval of both agents present, the files
# agree (check_consistency.py, check_merge.py) and each agent's I/Os equal its device's
# counters. Healthy agent a is never called unreachable meanwhile.
# FAULTS_BASELINE=1: the same harness without the SIGSTOP.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

fl_keys
fl_two_agents

fl_plan "$TMP/plan.yaml" frozen-end "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: p6, workload: {runtime: 6s}}
YAML
before_a=$(dev_rw "$PORT_A") before_b=$(dev_rw "$PORT_B")
RUN_TIMEOUT=60 start_run main "$TMP/plan.yaml"
wait_for 15 "b's interval 14 of p6" ts_at p6 b 14
if fault_on; then
	on_exit "kill -CONT $B_PID"
	kill -STOP "$B_PID"
	note "agent b (pid $B_PID) stopped for 5 s"
	sleep 5 # the fault itself: the freeze must span the point's end
	kill -CONT "$B_PID"
	note "agent b continued"
fi
wait_run
[ "$RUN_RC" -ne 124 ] || fail "lockstep run still ran after 60 s: $(tail -5 "$RUN_LOG")"
expect_complete "SIGSTOP across the end"
log_has "agent b lost" && fail "b was declared lost after a 5 s stop: $(grep "agent b" "$RUN_LOG")"
log_has "agent a (unreachable|lost)" && fail "healthy agent a was warned: $(grep "agent a" "$RUN_LOG")"
log_show "agent b (unreachable|reachable again)"
check_consistent --agents a,b \
	--device-ios "a=$(dev_delta "$before_a" "$(dev_rw "$PORT_A")")" \
	--device-ios "b=$(dev_delta "$before_b" "$(dev_rw "$PORT_B")")"
ok "SIGSTOP of 5 s across the end of a 6 s point: complete, every interval, sums = device counters"
