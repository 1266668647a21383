#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `record:` and `replay:` on a phase as `lockstep validate` shows them.
#  - a recording phase says where its traces go (NAME.AGENT.K.lstrace, NAME-pP... with several
#    points), a replay phase what it replays and at which scale, and a replay needs no runtime;
#  - each refusal is one FILE:LINE:COL line and a non-zero exit (the unit test plan_trace has
#    every case; these are the ones a user meets first).
. "$(dirname "$0")/../lib.sh"

# plan FILE PHASE-KEYS: a plan whose only phase `p` is line 8, `  - {name: p, PHASE-KEYS}`.
plan() {
	cat >"$1" <<PLAN
lockstep: 1
name: traces
agents:
  - {name: a, address: "tcp://127.0.0.1:5555"}
targets:
  - {name: t, paths: {a: /dev/null}}
phases:
  - {name: p, $2}
PLAN
}

plan "$TMP/rec.yaml" "workload: {rw: randwrite, runtime: 5s}, record: true"
"$LOCKSTEP" validate "$TMP/rec.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
grep -qF "records every I/O to trace p.AGENT.K.lstrace in each agent's trace folder" "$TMP/out" ||
	fail "record: true: $(cat "$TMP/out")"
plan "$TMP/sw.yaml" "workload: {runtime: 5s}, record: wsat, sweep: {iodepth: [1, 4]}"
"$LOCKSTEP" validate "$TMP/sw.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
grep -qF "records every I/O to trace wsat-pP.AGENT.K.lstrace in each agent's trace folder (P: the point, from 0)" \
	"$TMP/out" || fail "record with a sweep: $(cat "$TMP/out")"
ok "record: true and record: NAME with a sweep: validate names the trace files"

plan "$TMP/play.yaml" "replay: {trace: capture.blkparse.txt, scale: 200%}, workload: {iodepth: 16}"
"$LOCKSTEP" validate "$TMP/play.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
grep -qF "replays trace capture.blkparse.txt at 200% (offsets, sizes, directions and times from the trace" \
	"$TMP/out" || fail "replay: $(cat "$TMP/out")"
grep -qF "iodepth 16" "$TMP/out" || fail "replay's iodepth: $(cat "$TMP/out")"
grep -qF "time: as long as the trace, at the scale" "$TMP/out" || fail "replay's time: $(cat "$TMP/out")"
if grep -qF "randread" "$TMP/out"; then fail "a replay shows a generated workload: $(cat "$TMP/out")"; fi
ok "replay at 200% with no runtime: validate says what it replays and that it lasts as long as the trace"

while IFS='|' read -r keys where msg; do
	plan "$TMP/bad.yaml" "$keys"
	if "$LOCKSTEP" validate "$TMP/bad.yaml" >"$TMP/out" 2>"$TMP/err"; then
		fail "validate took '$keys'"
	fi
	grep -qF "$TMP/bad.yaml:$where: phase p: $msg" "$TMP/err" ||
		fail "'$keys': expected $where and '$msg', got: $(cat "$TMP/err")"
	[ "$(grep -c "^$TMP/bad.yaml:" "$TMP/err")" -eq 1 ] ||
		fail "'$keys': more than one FILE:LINE:COL line: $(cat "$TMP/err")"
done <<'BAD'
replay: {trace: x}, workload: {rw: randwrite, iodepth: 4}|8:46|replay: the trace decides rw; leave 'rw' out of workload in a replay phase
replay: {trace: x}, workload: {bs: {4k: 50, 8k: 50}}|8:46|replay: the trace decides bs
replay: {trace: x}, sweep: {rate_iops: [100, 200]}|8:43|replay: a replay phase cannot sweep rate_iops
replay: {trace: x}, workload: {verify: true}|8:46|replay: a replay cannot verify
replay: {trace: x}, record: true|8:15|replay: the phase records (write_iolog 'p') and replays
replay: {trace: ../etc/passwd}|8:31|replay: trace: '../etc/passwd' may not start with a dot
replay: {trace: x, scale: 0%}|8:41|replay: scale must be >= 1 and <= 100000
replay: {trace: x, speed: 2}|8:34|unknown key 'speed' in replay
record: a/b, workload: {runtime: 1s}|8:23|record: 'a/b' has '/' at 2
replay: {trace: x}, workload: {numjobs: 4}|8:55|replay: one job per path replays a trace (its I/Os in the recorded order); 'numjobs' must be 1 in workload of a replay phase
replay: {trace: x}, sweep: {jobs: [1, 2]}|8:43|replay: a replay phase cannot sweep jobs: one job per path replays a trace
BAD
ok "bad record and replay keys: one FILE:LINE:COL line and a non-zero exit each"
