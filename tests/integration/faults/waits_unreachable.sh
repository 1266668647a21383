#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A healthy agent is not called unreachable for the coordinator's own stall: agent b, in its
# own namespace, is cut off for 8 s (nftables), and 1 s into that `lockstep run` itself is
# frozen for 4 s, as a descheduled VM or a slow disk between two waits would hold it. Agent a, on loopback, answered all along: its messages waited unread. The coordinator
# does not count the time it did not listen as silence, so a is never warned; b is unreachable
# (its silence is real) and never lost (shorter than the 10 s lease); the run completes with
# consistent results.
# FAULTS_BASELINE=1: the same harness without the cut and the stop.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

[ -w /sys/fs/cgroup/freezer ] || skip "cgroup v1 freezer is not available"
fl_keys
fl_two_agents

fl_plan "$TMP/plan.yaml" deaf "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: p, workload: {runtime: 12s}}
YAML
RUN_TIMEOUT=60 start_run main "$TMP/plan.yaml"
wait_for 15 "b's interval 5 of p" ts_at p b 5
partition "$NS_B" 8
# stall_coordinator SECONDS: freeze every thread of `lockstep run` (cgroup v1 freezer) for
# SECONDS, then thaw its main thread 300 ms before the others (libzmq's I/O threads): what the
# agents sent meanwhile is still unread when the main thread looks at their silence, as happens
# when a frozen or descheduled coordinator resumes, every time instead of now and then.
stall_coordinator() {
	local secs=$1 coord fz=/sys/fs/cgroup/freezer tid
	coord=$(pgrep -P "$RUN_PID" -x lockstep) || fail "no lockstep under timeout ($RUN_PID)"
	mkdir "$fz/lst-deaf-main-$$" "$fz/lst-deaf-io-$$"
	on_exit "rmdir $fz/lst-deaf-main-$$ $fz/lst-deaf-io-$$"
	on_exit "echo THAWED >$fz/lst-deaf-io-$$/freezer.state"
	on_exit "echo THAWED >$fz/lst-deaf-main-$$/freezer.state"
	on_exit "for t in \$(cat $fz/lst-deaf-main-$$/tasks $fz/lst-deaf-io-$$/tasks); do echo \$t >$fz/tasks; done"
	for tid in $(ls "/proc/$coord/task"); do
		if [ "$tid" = "$coord" ]; then
			echo "$tid" >"$fz/lst-deaf-main-$$/tasks"
		else
			echo "$tid" >"$fz/lst-deaf-io-$$/tasks"
		fi
	done
	echo FROZEN >"$fz/lst-deaf-io-$$/freezer.state"
	echo FROZEN >"$fz/lst-deaf-main-$$/freezer.state"
	note "lockstep run (pid $coord) frozen for $secs s"
	sleep "$secs"
	echo THAWED >"$fz/lst-deaf-main-$$/freezer.state"
	sleep 0.3
	echo THAWED >"$fz/lst-deaf-io-$$/freezer.state"
	note "lockstep run thawed (its I/O threads 300 ms after its main thread)"
}

if fault_on; then
	sleep 1 # the fault itself: the coordinator's stall falls inside b's cut
	stall_coordinator 4
fi
wait_run
[ "$RUN_RC" -ne 124 ] || fail "lockstep run still ran after 60 s: $(tail -5 "$RUN_LOG")"
expect_complete "b cut off, the coordinator frozen"
log_has "agent a (unreachable|lost)" &&
	fail "healthy agent a was warned for the coordinator's stall: $(grep "agent a" "$RUN_LOG")"
log_has "agent b lost" && fail "b was lost within its lease: $(grep "agent b" "$RUN_LOG")"
log_show "agent b (unreachable|reachable again)"
check_consistent --agents a,b
ok "b cut off 8 s, lockstep run frozen 4 s meanwhile: a never warned, b not lost, complete"
