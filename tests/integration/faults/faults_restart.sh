#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An agent restarted mid-run: agent b, in its own namespace, is killed with
# SIGKILL mid-point and started again on the same address at once. The coordinator must see a new
# process (WELCOME instance, or NO_SESSION), not a reconnect: b is lost for the point at once
# (well before its 10 s lease), the point is retried for everyone (retry: the default
# on_agent_loss), and the run completes with consistent results. While the coordinator holds the
# restarted agent, a second `lockstep run` of another plan against it is refused as busy.
# FAULTS_BASELINE=1: the same harness without the kill (and without the busy probe).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

fl_keys
fl_two_agents

fl_plan "$TMP/plan.yaml" restart "$ADDR_A" "$ADDR_B" <<'YAML'
phases:
  - {name: work, workload: {runtime: 6s}}
  - {name: hold, workload: {runtime: 4s}}
YAML
start_run main "$TMP/plan.yaml"
wait_for 15 "b's interval 5 of work" ts_at work b 5
if fault_on; then
	kill -9 "$B_PID"
	wait "$B_PID" 2>/dev/null || true
	mv "$TMP/agent-b.log" "$TMP/agent-b.1.log"
	start_key_agent b "$pb" "$NS_B" "$IP_B" --allow-write "/dev/loop*"
	t_restart=$(mono_s)
	note "agent b killed (pid $B_PID) and restarted (pid $AGENT_PID)"
	wait_for 8 "the loss of the restarted b" log_has "agent b lost"
	lost_after=$("$PY" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" \
		"$t_restart" "$(mono_s)")
	note "b declared lost $lost_after s after its restart: $(grep -m1 "agent b lost" "$RUN_LOG")"
	wait_for 20 "the retry of work point 0" log_has "retrying phase .* point 0"
	# The coordinator holds the new b once it opened a session with it.
	wait_for 15 "a session of the coordinator on the restarted b" \
		grep -q "session .*run " "$TMP/agent-b.log"
	note "restarted b: $(grep -m1 "session .*run " "$TMP/agent-b.log" | cut -c1-120)"

	# A second coordinator, another plan, the same agent: busy.
	cat >"$TMP/other.yaml" <<-YAML
	lockstep: 1
	name: intruder
	agents:
	  - {name: b, address: "$ADDR_B", key: "$KEYS/b.pub"}
	targets:
	  - {name: drive, paths: {b: "$PORT_B"}}
	phases:
	  - {name: w, workload: {rw: randwrite, runtime: 1s, interval: 200ms}}
	YAML
	kill -0 "$RUN_PID" 2>/dev/null || fail "the run ended before the busy probe: $(tail -5 "$RUN_LOG")"
	rc=0
	timeout 30 "$LOCKSTEP" run "$TMP/other.yaml" -o "$TMP/res-other" --key "$KEYS/ctl.key" \
		--quiet >"$TMP/other.log" 2>&1 || rc=$?
	kill -0 "$RUN_PID" 2>/dev/null || note "warning: the main run ended during the busy probe"
	[ $rc -ne 0 ] && grep -qi "busy" "$TMP/other.log" ||
		fail "a second run against the held, restarted b: exit $rc, no 'busy': $(tail -5 "$TMP/other.log")"
	note "second run: exit $rc: $(grep -i -m1 busy "$TMP/other.log" | cut -c1-140)"
fi
wait_run
expect_complete "kill -9 and restart of b"
check_consistent --agents a,b
ok "kill -9 and restart of b: lost at once, point retried, run complete, a second run gets busy"
