#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A lossy link: 20% of the packets into agent b's namespace are dropped at random
# (nftables numgen) for a whole 20 s phase. TCP retransmits; stalls of a few seconds make b
# unreachable, never lost: the run completes, every interval of both agents is present, the
# files agree and each agent's I/Os equal its device's counters.
# FAULTS_BASELINE=1: the same harness on a clean link.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

fl_keys
fl_two_agents

fl_plan "$TMP/plan.yaml" lossy "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: warm, workload: {runtime: 1s}}
  - {name: lossy, workload: {runtime: 20s}}
  - {name: after, workload: {runtime: 1s}}
YAML
before_a=$(dev_rw "$PORT_A") before_b=$(dev_rw "$PORT_B")
start_run main "$TMP/plan.yaml"
wait_for 15 "b's first interval of warm" ts_at warm b 0
lossy "$NS_B" 20
wait_for 40 "the end of phase lossy" ts_at after a 0
fault_on && { note "dropped $(lossy_dropped "$NS_B") packets into b"; unpartition "$NS_B"; }
wait_run
expect_complete "20% loss"
log_has "agent b lost" && fail "b was declared lost on a lossy link: $(grep "agent b" "$RUN_LOG")"
log_show "agent b (unreachable|reachable again)"
check_consistent --agents a,b \
	--device-ios "a=$(dev_delta "$before_a" "$(dev_rw "$PORT_A")")" \
	--device-ios "b=$(dev_delta "$before_b" "$(dev_rw "$PORT_B")")"
ok "20% random loss on b's link for a 20 s phase: complete, nothing lost, sums = device counters"
