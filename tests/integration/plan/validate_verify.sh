#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep validate` on plans with verify, as a user runs it: a good plan (a
# precondition fill with verify, then verifying reads through the other agent's path by a ports
# sweep and by roles) exits 0 and says what verify does in each phase; a bad one exits 2 with
# each refusal at its FILE:LINE:COL. A plan without verify describes as before (the golden test
# holds those outputs). Contacts nothing.
set -u

LOCKSTEP="${LST_BIN:?LST_BIN must name the folder with the lockstep binary}/lockstep"
FIX="${LST_SRC:?LST_SRC must name the source tree}/tests/fixtures/verify"
[ -x "$LOCKSTEP" ] || { echo "skip: $LOCKSTEP not built"; exit 77; }
# shellcheck source=../count_lib.sh
. "$(dirname "$0")/../count_lib.sh"

# expect RC CMD...: run CMD, keep its stdout/stderr in $dir/out and $dir/err, check its exit code
expect() {
	local want=$1 rc
	shift
	"$@" >"$dir/out" 2>"$dir/err"
	rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(cat "$dir/err")"
}

# has FILE TEXT: FILE contains the fixed string TEXT
has() {
	grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks '$2':"$'\n'"$(cat "$1")"
}

expect 0 "$LOCKSTEP" validate "$FIX/good.yaml"
# each phase's own line, in order: fill writes generation 1, the rewrite generation 2
awk '/^  [0-9]+\. /{ph=$2} /verify:/{print ph $0}' "$dir/out" >"$dir/lines"
has "$dir/lines" "fill:     verify: stamps every 4 KiB unit written (generation 1)"
has "$dir/lines" "cross-read:     verify: checks every unit read against the journal"
has "$dir/lines" "rewrite:     verify: stamps every 4 KiB unit written (generation 2)"
has "$dir/lines" "check-b:     verify: checks every unit read against the journal"
[ "$(wc -l <"$dir/lines")" -eq 4 ] || fail "expected 4 verify lines:"$'\n'"$(cat "$dir/lines")"
[ -s "$dir/err" ] && fail "a good plan wrote to stderr: $(cat "$dir/err")"

# the same plan without verify says nothing of it
sed 's/, verify: true//; s/{verify: true}/{}/' "$FIX/good.yaml" >"$dir/plain.yaml"
expect 0 "$LOCKSTEP" validate "$dir/plain.yaml"
grep -q "verify:" "$dir/out" && fail "a plan without verify mentions it:"$'\n'"$(cat "$dir/out")"

# a sweep of several writing points takes one generation each
cat >"$dir/sweep.yaml" <<'PLAN'
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
expect 0 "$LOCKSTEP" validate "$dir/sweep.yaml"
has "$dir/out" "verify: stamps every 4 KiB unit written (generations 1 to 4, one per point)"
has "$dir/out" "verify: stamps every 4 KiB unit written (generation 5)"
has "$dir/out" "verify: checks every unit read against the journal"

expect 2 env -C "$FIX" "$LOCKSTEP" validate bad.yaml
has "$dir/err" "bad.yaml:13:30: phase early-read: verify on a read-only phase with no journal: no earlier phase writes target dual with verify (a verifying read checks against the writes of this run; to check an earlier run's writes use \`lockstep verify DIR\`)"
has "$dir/err" "bad.yaml:16:28: phase mixed: verify with a mixed workload: randrw with rwmixread 70 mixes reads and writes; a phase either writes or reads under verify"
has "$dir/err" "bad.yaml:19:31: phase small: verify checks 4 KiB units: bs 512 and offset 0 must be multiples of 4096"
has "$dir/err" "bad.yaml:23:16: phase wipe: verify applies to plain phases and suite: precondition, not suite: purge (set verify: false in this phase's workload)"
has "$dir/err" "bad.yaml:28:11: phase fill: paths: b: verify must be the phase's (true) in a role: one journal per point"
has "$dir/err" "bad.yaml:31:16: phase iops: verify applies to plain phases and suite: precondition, not suite: snia-iops (set verify: false in this phase's workload)"
has "$dir/err" "bad.yaml:33:26: phase readback: verify on a read-only phase with no journal: no earlier phase writes target other with verify"
has "$dir/err" "bad.yaml:35:7: phase readback: paths: a: the role writes while the phase reads; a phase either writes or reads under verify"
has "$dir/err" "8 problems"
[ -s "$dir/out" ] && fail "a bad plan wrote to stdout: $(cat "$dir/out")"
bad_lines=$(grep -v '^lockstep: ' "$dir/err" | grep -cvE '^bad\.yaml:[0-9]+:[0-9]+: ')
[ "$bad_lines" -eq 0 ] || fail "error lines without FILE:LINE:COL:"$'\n'"$(cat "$dir/err")"

# a swept rwmixread that mixes, and one that turns a writing phase into a reading one
cat >"$dir/mix.yaml" <<'PLAN'
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
expect 2 env -C "$dir" "$LOCKSTEP" validate mix.yaml
has "$dir/err" "mix.yaml:10:13: phase m: verify with a mixed workload: rwmixread 50 mixes reads and writes; a phase either writes or reads under verify"
has "$dir/err" "mix.yaml:13:13: phase turn: verify with a mixed workload: rwmixread 100 reads where the sweep's first value writes; a phase either writes or reads under verify"
has "$dir/err" "2 problems"

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "validate_verify: all checks passed"
