#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Data integrity across ports, through `lockstep run` and `lockstep verify`: agents a
# and b drive two loop devices over one backing file (the two ports of one drive).
# 1. Cross-port: each agent fills its half with verify on, then each reads the OTHER agent's half
#    through its own port: zero bad units, and the units checked equal the units written.
# 2. Faults between phases, by the plan's own hooks: one unit of the backing file corrupted with
#    dd conv=notrunc (a checksum error), and an older copy of another unit restored around a
#    rewrite phase (a lost write: stale). Exactly those two offsets are reported, with those
#    kinds; three clean rewrite-and-verify rounds before them give no false positive.
# 3. kill -9 of agent a in the middle of a verified write phase: `lockstep verify DIR --through
#    b` reports pending units only (a's writes after its last reported mark), no bad one.
# 4. A compressible pattern with verify: the data still compresses to the asked percent, within
#    the stamp's documented cost (48 of 4096 bytes).
# 5. Bad input: `lockstep verify` of a folder with a truncated journal, and with the journal of
#    another target: a clear error, exit 2, nothing read.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup dd

MIB=$((1 << 20))
back=$(mk_backing 64M)
da=$(mk_loop "$back")
db=$(mk_loop "$back")
HALF=$((32 * MIB))
cat >"$TMP/corrupt.sh" <<SH
#!/bin/sh
# one byte in the middle of the unit at \$1 (bytes)
printf 'X' | dd of="$back" bs=1 seek=\$((\$1 + 2000)) conv=notrunc status=none
SH
cat >"$TMP/save.sh" <<SH
#!/bin/sh
dd if="$back" of="$TMP/saved" bs=4096 skip=\$((\$1 / 4096)) count=1 status=none
SH
cat >"$TMP/restore.sh" <<SH
#!/bin/sh
dd if="$TMP/saved" of="$back" bs=4096 seek=\$((\$1 / 4096)) count=1 conv=notrunc status=none
SH
chmod +x "$TMP"/*.sh
CORRUPT=$((5 * MIB + 3 * 4096)) # in a's half
LOST=$((40 * MIB + 7 * 4096))   # in b's half
cat >"$TMP/agent-a.yaml" <<YAML
hooks:
  corrupt: ["$TMP/corrupt.sh", "$CORRUPT"]
  save: ["$TMP/save.sh", "$LOST"]
  restore: ["$TMP/restore.sh", "$LOST"]
YAML
pa=$(free_port)
start_agent a "$pa" --allow-write "/dev/loop*" --config "$TMP/agent-a.yaml"
A_PID=$AGENT_PID
pb=$(free_port)
start_agent b "$pb" --allow-write "/dev/loop*"

# plan FILE <PHASES: agents a and b on the drive; share shared: each path does its own role's
# region, one pass of it (bytes)
plan() {
	cat >"$1" <<-YAML
	lockstep: 1
	name: integrity
	on_agent_loss: continue
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$pa"}
	  - {name: b, address: "tcp://127.0.0.1:$pb"}
	targets:
	  - {name: drive, share: shared, paths: {a: "$da", b: "$db"}}
	defaults: {interval: 500ms, bs: 128k, iodepth: 8, verify: true, bytes: 32m}
	YAML
	cat >>"$1"
}
OWN="paths: {a: {offset: 0, size: 32m, bytes: 32m}, b: {offset: 32m, size: 32m, bytes: 32m}}"
CROSS="paths: {a: {offset: 32m, size: 32m, bytes: 32m}, b: {offset: 0, size: 32m, bytes: 32m}}"

# --- 1. cross-port ----------------------------------------------------------------------------
plan "$TMP/cross.yaml" <<YAML
phases:
  - {name: fill, workload: {rw: write}, $OWN}
  - {name: cross, workload: {rw: read}, $CROSS}
YAML
"$LOCKSTEP" validate --quiet "$TMP/cross.yaml" || fail "the cross plan does not validate"
"$LOCKSTEP" run "$TMP/cross.yaml" -o "$TMP/r1" --quiet >"$TMP/r1.out" 2>&1 || fail "cross run: $(tail "$TMP/r1.out")"
read -r ok pend unw bad < <(verify_counts "$TMP/r1" cross)
echo "  cross-port read: ok $ok, pending $pend, unwritten $unw, bad $bad"
[ "$ok" -eq $((64 * MIB / 4096)) ] && [ "$pend$unw$bad" = 000 ] || fail "cross-port verify: $ok $pend $unw $bad"
[ "$(wc -l <"$TMP/r1/integrity.csv")" -eq 1 ] || fail "integrity.csv has rows: $(cat "$TMP/r1/integrity.csv")"
ok "written through a and b, each half read back through the other port: $ok units ok, none bad"

# --- 2. corruption and a lost write, after three clean rounds -----------------------------------
{
	cat <<YAML
phases:
  - {name: fill, workload: {rw: write}, $OWN}
YAML
	for r in 1 2 3; do
		cat <<YAML
  - {name: rewrite$r, workload: {rw: randwrite, bytes: 16m}, $OWN}
  - {name: check$r, workload: {rw: read}, $CROSS}
YAML
	done
	cat <<YAML
  - name: rewrite
    workload: {rw: write}
    $OWN
    before: [{agent: a, hook: save}]
    after: [{agent: a, hook: restore}, {agent: a, hook: corrupt}]
  - {name: final, workload: {rw: read}, $CROSS}
YAML
} | plan "$TMP/faults.yaml"
"$LOCKSTEP" validate --quiet "$TMP/faults.yaml" || fail "the faults plan does not validate"
"$LOCKSTEP" run "$TMP/faults.yaml" -o "$TMP/r2" --quiet >"$TMP/r2.out" 2>&1 || fail "faults run: $(tail "$TMP/r2.out")"
for r in 1 2 3; do
	read -r ok pend unw bad < <(verify_counts "$TMP/r2" check$r)
	echo "  clean round $r: ok $ok, pending $pend, unwritten $unw, bad $bad"
	[ "$bad" -eq 0 ] && [ "$ok" -eq $((64 * MIB / 4096)) ] || fail "round $r: a false positive"
done
"$PY" - "$TMP/r2" "$CORRUPT" "$LOST" <<'PY' || fail "integrity.csv is not the two faults"
import csv, sys
res, corrupt, lost = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = list(csv.DictReader(open(f"{res}/integrity.csv")))
for r in rows:
    print(f"  {r['phase']}: {r['agent']} read {r['offset']}: {r['kind']}, expected gen "
          f"{r['expected_gen']} by {r['expected_agent']}, found {r['found']} gen {r['found_gen']}")
got = sorted((r["phase"], int(r["offset"]), r["kind"]) for r in rows)
assert got == [("final", corrupt, "checksum"), ("final", lost, "stale")], got
st = [r for r in rows if r["kind"] == "stale"][0]
assert int(st["found_gen"]) < int(st["expected_gen"]), st
assert st["agent"] == "a" and st["expected_agent"] == "b", st  # written by b, read through a
PY
ok "a corrupted unit and a lost write: exactly those two offsets, checksum and stale; 3 clean rounds"

# --- 3. kill -9 during a verified write -----------------------------------------------------------
plan "$TMP/kill.yaml" <<YAML
phases:
  - {name: slow, workload: {rw: randwrite, bs: 4k, iodepth: 16, rate_iops: 2000, runtime: 6s}, $OWN}
YAML
"$LOCKSTEP" run "$TMP/kill.yaml" -o "$TMP/r3" --quiet >"$TMP/r3.out" 2>&1 &
run=$!
on_exit "kill $run 2>/dev/null"
for _ in $(seq 200); do
	grep -q '^slow,0,4,.*,a,' "$TMP/r3/timeseries.csv" 2>/dev/null && break
	sleep 0.05
done
kill -9 "$A_PID"
wait "$run" && fail "the run with a killed agent says it completed"
"$LOCKSTEP" verify "$TMP/r3" --through b -o "$TMP/v3" >"$TMP/v3.out" 2>&1 ||
	fail "lockstep verify after the kill found problems: $(tail "$TMP/v3.out")"
read -r ok pend unw bad < <(verify_counts "$TMP/v3" verify)
echo "  verify after kill -9 of a, through b: ok $ok, pending $pend, unwritten $unw, bad $bad"
[ "$bad" -eq 0 ] || fail "bad units after a kill: $(cat "$TMP/v3/integrity.csv")"
[ "$pend" -gt 0 ] || fail "no pending unit: were a's last writes journaled as complete?"
# a wrote at 1000 IOPS (its half of 2000); its marks come every 500 ms: what it wrote after its
# last mark is at most a few intervals' worth, never its whole share
[ "$pend" -le 4000 ] || fail "$pend pending units: more than a's last intervals could write"
grep -q "units ok" "$TMP/v3.out" || fail "no verdict line: $(cat "$TMP/v3.out")"
ok "kill -9 mid-write: verify through the other port reports $pend pending units, none bad"

# --- 4. compressible data with verify -----------------------------------------------------------
pb2=$(free_port)
start_agent c "$pb2" --allow-write "/dev/loop*"
cat >"$TMP/comp.yaml" <<YAML
lockstep: 1
name: comp
agents: [{name: c, address: "tcp://127.0.0.1:$pb2"}]
targets: [{name: drive, paths: {c: "$db"}}]
phases:
  - {name: fill, workload: {rw: write, bs: 128k, pattern: compressible=50, verify: true, size: 8m, bytes: 8m}}
YAML
"$LOCKSTEP" run "$TMP/comp.yaml" -o "$TMP/r4" --quiet >"$TMP/r4.out" 2>&1 || fail "comp run: $(tail "$TMP/r4.out")"
"$PY" - "$back" <<'PY' || fail "verify changes the compressible pattern's ratio beyond its cost"
import sys, zlib
data = open(sys.argv[1], "rb").read(8 << 20)
ratio = len(zlib.compress(data, 6)) / len(data)
print(f"  compressible=50 with verify: compresses to {ratio * 100:.1f}% (without verify: 47-56%)")
assert 0.47 <= ratio <= 0.56 + 48 / 4096 + 0.01, ratio
PY
ok "compressible=50 with verify still compresses to about half"

# --- 5. bad input for lockstep verify -----------------------------------------------------------
before=$(awk '{print $1 + $5}' "/sys/block/$(basename "$db")/stat")
cp -a "$TMP/r1" "$TMP/trunc"
j="$TMP/trunc/integrity/journal.jsonl"
head -c $(($(stat -c %s "$j") - 7)) "$j" >"$j.new" && mv "$j.new" "$j"
rc=0
"$LOCKSTEP" verify "$TMP/trunc" -o "$TMP/v5" >"$TMP/v5.out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || [ "$rc" -eq 1 ] || fail "truncated journal: exit $rc"
grep -q "journal.jsonl:[0-9]*: .*trunc" "$TMP/v5.out" || fail "truncated journal: not said: $(cat "$TMP/v5.out")"
cp -a "$TMP/r1" "$TMP/other"
sed -i 's/"target":"drive"/"target":"other"/g' "$TMP/other/integrity/journal.jsonl"
rc=0
"$LOCKSTEP" verify "$TMP/other" -o "$TMP/v6" >"$TMP/v6.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a journal of another target was accepted"
grep -q "has no target drive" "$TMP/v6.out" || fail "another target: not said: $(cat "$TMP/v6.out")"
after=$(awk '{print $1 + $5}' "/sys/block/$(basename "$db")/stat")
[ "$before" = "$after" ] || fail "the refused verifications read the device"
ok "a truncated journal and another target's journal: refused with the reason, nothing read"
