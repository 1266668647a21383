#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Agents that are really gone.
# - The coordinator's segfault: two agents, a short phase, then a phase whose PREPARE takes the
#   agents a while (1 MiB writes at iodepth 512); agent b is killed 0.3 s after its first phase
#   ends, while the coordinator waits for PREPARE replies. It used to exit 139 with no status in
#   run.json. Now: abort -> a clean failure (exit 1, status failed); continue -> the phase goes on
#   with a (exit 1, status partial); the default (retry) with b restarted at once -> the point is
#   retried, status complete.
# - A partial point (continue, b killed mid-point): the combined IOPS in summary is all I/Os over
#   the measured time of the `all` rows, never a sum of rates over different times.
# FAULTS_BASELINE=1: the same harness without the kills.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"

fl_keys
fl_two_agents

# restart_b: start agent b again (after a kill) on its address; its old log is kept aside.
restart_b() {
	wait "$B_PID" 2>/dev/null || true
	mv "$TMP/agent-b.log" "$TMP/agent-b.$B_PID.log"
	start_key_agent b "$pb" "$NS_B" "$IP_B" --allow-write "/dev/loop*"
	B_PID=$AGENT_PID
}

# expect_clean_end POLICY WANT_STATUS: the run ended by itself, not by a signal, with a status.
expect_clean_end() {
	local st
	st=$(run_status)
	[ "$RUN_RC" -lt 128 ] || fail "$1: the coordinator died of signal $((RUN_RC - 128)) (exit $RUN_RC), status $st: $(tail -3 "$RUN_LOG")"
	fault_on || { expect_complete "$1 (baseline)"; return 0; }
	[ "$st" = "$2" ] || fail "$1: status $st, want $2; exit $RUN_RC: $(tail -5 "$RUN_LOG")"
	case $2 in
	complete) [ "$RUN_RC" -eq 0 ] || fail "$1: exit $RUN_RC with status complete" ;;
	*) [ "$RUN_RC" -eq 1 ] || fail "$1: exit $RUN_RC, want 1" ;;
	esac
}

# --- the segfault: lost while the coordinator waits for PREPARE ----------------------------------
segv() {
	local policy=$1 want=$2 key=
	# "default": no on_agent_loss key, which means retry.
	[ "$policy" = default ] || key="on_agent_loss: $policy"
	fl_plan "$TMP/segv-$policy.yaml" "segv-$policy" "$ADDR_A" "$ADDR_B" <<-YAML
	$key
	phases:
	  - {name: first, workload: {runtime: 2s}}
	  - {name: big, workload: {runtime: 2s, rate_iops: 0, rw: write, bs: 1m, iodepth: 512}}
	YAML
	start_run "segv-$policy" "$TMP/segv-$policy.yaml"
	wait_for 15 "the end of b's first phase" ts_at first b 9
	sleep 0.3
	if fault_on; then
		kill -9 "$B_PID"
		note "agent b killed 0.3 s after its first phase ended"
		[ "$policy" = default ] && { restart_b; note "agent b restarted"; }
	fi
	wait_run
	expect_clean_end "$policy" "$want"
	if fault_on; then
		log_has "agent b lost" || fail "$policy: no 'agent b lost' in the log"
		if [ "$policy" = default ]; then # retried: a complete run, the retry in "retries"
			json "$RES/run.json" 'len(d["retries"]) > 0 and d["retries"][0]["lost"][0]["agent"] == "b"' |
				grep -q True || fail "$policy: no retry of b in run.json: $(json "$RES/run.json" 'd["retries"]')"
		else
			json "$RES/run.json" 'len(d["errors"]) > 0' | grep -q True || fail "$policy: no errors in run.json"
		fi
	fi
	"$PY" "$CHECK_CONSISTENCY" "$RES" >"$TMP/cc-$policy.out" 2>&1 ||
		fail "$policy: results inconsistent: $(cat "$TMP/cc-$policy.out")"
	ok "b lost while PREPARE is pending, on_agent_loss $policy: exit $RUN_RC, status $(run_status)"
	# b is needed again by the next case.
	if fault_on && [ "$policy" != default ]; then restart_b; fi
}
segv abort failed
segv continue partial
segv default complete

# --- a partial point: the combined rate ------------------------------------------------------------
fl_plan "$TMP/partial.yaml" partial "$ADDR_A" "$ADDR_B" <<'YAML'
on_agent_loss: continue
phases:
  - {name: cut, workload: {runtime: 6s}}
YAML
start_run partial "$TMP/partial.yaml"
wait_for 15 "b's interval 5 of cut" ts_at cut b 5
fault_on && { kill -9 "$B_PID"; note "agent b killed mid-point"; }
wait_run
expect_clean_end "partial point" partial
check_consistent --rate-tol 0.5
"$PY" - "$RES" <<'PY' || fail "the partial point's combined figures"
import csv, sys
rows = [r for r in csv.DictReader(open(f"{sys.argv[1]}/summary.csv")) if r["phase"] == "cut"]
ts = [r for r in csv.DictReader(open(f"{sys.argv[1]}/timeseries.csv"))
      if r["phase"] == "cut" and r["agent"] == "all"]
a = rows[0]
ios = int(a["read_ios"]) + int(a["write_ios"])
iops = float(a["read_iops"]) + float(a["write_iops"])
dur = float(a["duration_s"])
span = len(ts) * 0.2
per = {r["agent"]: float(r["read_iops"]) + float(r["write_iops"]) for r in rows[1:]}
print(f"  all: {ios} I/Os, duration_s {dur}, {len(ts)} `all` rows ({span:.1f} s), IOPS {iops:.1f}; "
      f"per agent {per}, their sum {sum(per.values()):.1f}")
assert abs(dur - span) <= 0.05 * span, f"duration_s {dur} is not the `all` rows' {span:.1f} s"
assert abs(iops - ios / dur) <= 0.005 * iops + 0.01, f"IOPS {iops:.1f} != {ios} / {dur} s"
PY
ok "partial point: combined IOPS = all I/Os / the measured time of the all rows"
