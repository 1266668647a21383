#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A resumed run verifies against its whole write journal: a run fills the first half of a loop
# device with verify on, is killed (SIGKILL) while it writes the second half, has units of the
# first half corrupted in the backing file (dd conv=notrunc), and is resumed into a verifying read
# of the whole device. The resumed run finds every corrupted unit, as many as `lockstep verify
# DIR` finds on the same folder, and calls none of the first half's units unwritten.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup dd

MIB=$((1 << 20))
N=20 # corrupted units
back=$(mk_backing 16M)
dev=$(mk_loop "$back")
pa=$(free_port)
start_agent a "$pa" --allow-write "$dev"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: resume-verify
lease: 2s
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - {name: t, paths: {a: "$dev"}}
defaults: {interval: 100ms, bs: 64k, iodepth: 4, direct: true, verify: true}
phases:
  - {name: fill, workload: {rw: write, offset: 0, size: 8m, bytes: 8m}}
  - {name: more, workload: {rw: write, offset: 8m, size: 8m, bytes: 8m, rate_iops: 50}}
  - {name: check, workload: {rw: read, bytes: 16m}}
YAML
"$LOCKSTEP" validate --quiet "$TMP/plan.yaml" || fail "the plan does not validate"

killed_run "$TMP/plan.yaml" "$TMP/r" integrity/journal.jsonl '"more"' # the second phase writes
for i in $(seq 0 $((N - 1))); do # one byte in the middle of a unit every 384 KiB of the first half
	printf 'X' | dd of="$back" bs=1 seek=$((i * 384 * 1024 + 2000)) conv=notrunc status=none
done

rc=0
timeout 60 "$LOCKSTEP" resume --quiet "$TMP/r" >"$TMP/resume.log" 2>&1 || rc=$?
read -r ok pend unw bad < <(verify_counts "$TMP/r" check)
echo "  resumed run's check (exit $rc): ok $ok, pending $pend, unwritten $unw, bad $bad"
rc=0
timeout 60 "$LOCKSTEP" verify --quiet "$TMP/r" -o "$TMP/v" >"$TMP/verify.log" 2>&1 || rc=$?
[ $rc -le 1 ] || fail "lockstep verify: exit $rc: $(tail -3 "$TMP/verify.log")"
read -r vok vpend vunw vbad < <(verify_counts "$TMP/v" verify)
echo "  lockstep verify DIR (exit $rc): ok $vok, pending $vpend, unwritten $vunw, bad $vbad"
[ "$bad" -eq "$N" ] || fail "the resumed run found $bad bad units, not the $N corrupted"
[ "$vbad" -eq "$bad" ] || fail "lockstep verify DIR found $vbad bad units, the resumed run $bad"
[ "$unw" -eq 0 ] || fail "the resumed run calls $unw units unwritten"
[ "$((ok + bad))" -eq $((16 * MIB / 4096)) ] || fail "the resumed run checked $ok + $bad units, not all"
rows=$(($(wc -l <"$TMP/r/integrity.csv") - 1))
[ "$rows" -eq "$N" ] || fail "integrity.csv has $rows rows: $(head -3 "$TMP/r/integrity.csv")"
ok "kill -9, $N units corrupted, resume: the verifying read finds $bad bad, as lockstep verify DIR does"
