#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep validate` on plans with verify, as a user runs it: a good plan (a
# precondition fill with verify, then verifying reads through the other agent's path by a ports
# sweep and by roles) exits 0 and says what verify does in each phase; a bad one exits 2 with
# each refusal at its FILE:LINE:COL. A plan without verify describes as before (the golden test
# holds those outputs). Contacts nothing.

LOCKSTEP="${LST_BIN:?LST_BIN must name the folder with the lockstep binary}/lockstep"
FIX="${LST_SRC:?LST_SRC must name the source tree}/tests/fixtures/verify"
[ -x "$LOCKSTEP" ] || { echo "skip: $LOCKSTEP not built"; exit 77; }
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going

expect_exit 0 "$LOCKSTEP" validate "$FIX/good.yaml"
# each phase's own line, in order: fill writes generation 1, the rewrite generation 2
awk '/^  [0-9]+\. /{ph=$2} /verify:/{print ph $0}' "$TMP/out" >"$TMP/lines"
has_text "$TMP/lines" "fill:     verify: stamps every 4 KiB unit written (generation 1)"
has_text "$TMP/lines" "cross-read:     verify: checks every unit read against the journal"
has_text "$TMP/lines" "rewrite:     verify: stamps every 4 KiB unit written (generation 2)"
has_text "$TMP/lines" "check-b:     verify: checks every unit read against the journal"
[ "$(wc -l <"$TMP/lines")" -eq 4 ] || fail "expected 4 verify lines:"$'\n'"$(cat "$TMP/lines")"
[ -s "$TMP/err" ] && fail "a good plan wrote to stderr: $(cat "$TMP/err")"

# the same plan without verify says nothing of it
sed 's/, verify: true//; s/{verify: true}/{}/' "$FIX/good.yaml" >"$TMP/plain.yaml"
expect_exit 0 "$LOCKSTEP" validate "$TMP/plain.yaml"
grep -q "verify:" "$TMP/out" && fail "a plan without verify mentions it:"$'\n'"$(cat "$TMP/out")"

# a sweep of several writing points takes one generation each
cat >"$TMP/sweep.yaml" <<'PLAN'
lockstep: 1
name: verify-sweep
agents:
  - {name: a, address: "tcp://127.0.0.1"}
targets:
  - {name: t, paths: {a: /dev/loop0}}
defaults: {verify: true, runtime: 5s}
phases:
  - {name: w, workload: {rw: randwrite}, sweep: {bs: [4k, 64k], iodepth: [1, 8]}}
  - {name: w2, workload: {rw: write}}
  - {name: r, workload: {rw: randrw, rwmixread: 100}}
PLAN
expect_exit 0 "$LOCKSTEP" validate "$TMP/sweep.yaml"
has_text "$TMP/out" "verify: stamps every 4 KiB unit written (generations 1 to 4, one per point)"
has_text "$TMP/out" "verify: stamps every 4 KiB unit written (generation 5)"
has_text "$TMP/out" "verify: checks every unit read against the journal"

expect_exit 2 env -C "$FIX" "$LOCKSTEP" validate bad.yaml
has_text "$TMP/err" "bad.yaml:13:30: phase early-read: verify on a read-only phase with no journal: no earlier phase writes target dual with verify (a verifying read checks against the writes of this run; to check an earlier run's writes use \`lockstep verify DIR\`)"
has_text "$TMP/err" "bad.yaml:16:28: phase mixed: verify with a mixed workload: randrw with rwmixread 70 mixes reads and writes; a phase either writes or reads under verify"
has_text "$TMP/err" "bad.yaml:19:31: phase small: verify checks 4 KiB units: bs 512 and offset 0 must be multiples of 4096"
has_text "$TMP/err" "bad.yaml:23:16: phase wipe: verify applies to plain phases and suite: precondition, not suite: purge (set verify: false in this phase's workload)"
has_text "$TMP/err" "bad.yaml:28:11: phase fill: paths: b: verify must be the phase's (true) in a role: one journal per point"
has_text "$TMP/err" "bad.yaml:31:16: phase iops: verify applies to plain phases and suite: precondition, not suite: snia-iops (set verify: false in this phase's workload)"
has_text "$TMP/err" "bad.yaml:33:26: phase readback: verify on a read-only phase with no journal: no earlier phase writes target other with verify"
has_text "$TMP/err" "bad.yaml:35:7: phase readback: paths: a: the role writes while the phase reads; a phase either writes or reads under verify"
has_text "$TMP/err" "8 problems"
[ -s "$TMP/out" ] && fail "a bad plan wrote to stdout: $(cat "$TMP/out")"
bad_lines=$(grep -v '^lockstep: ' "$TMP/err" | grep -cvE '^bad\.yaml:[0-9]+:[0-9]+: ')
[ "$bad_lines" -eq 0 ] || fail "error lines without FILE:LINE:COL:"$'\n'"$(cat "$TMP/err")"

# a swept rwmixread that mixes, and one that turns a writing phase into a reading one
cat >"$TMP/mix.yaml" <<'PLAN'
lockstep: 1
name: verify-mix
agents:
  - {name: a, address: "tcp://127.0.0.1"}
targets:
  - {name: t, paths: {a: /dev/loop0}}
phases:
  - name: m
    workload: {rw: randrw, verify: true, runtime: 5s}
    sweep: {rwmixread: [0, 50]}
  - name: turn
    workload: {rw: randrw, verify: true, runtime: 5s}
    sweep: {rwmixread: [0, 100]}
PLAN
expect_exit 2 env -C "$TMP" "$LOCKSTEP" validate mix.yaml
has_text "$TMP/err" "mix.yaml:10:13: phase m: verify with a mixed workload: rwmixread 50 mixes reads and writes; a phase either writes or reads under verify"
has_text "$TMP/err" "mix.yaml:13:13: phase turn: verify with a mixed workload: rwmixread 100 reads where the sweep's first value writes; a phase either writes or reads under verify"
has_text "$TMP/err" "2 problems"

finish "validate_verify: all checks passed"
