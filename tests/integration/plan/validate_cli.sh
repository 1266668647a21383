#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep validate` as a user runs it: a good plan exits 0 and says what would run, a bad one
# exits 2 with every problem as FILE:LINE:COL: message on stderr, --quiet prints nothing, and
# the examples in examples/ validate. Contacts nothing, needs no root.
set -u

LOCKSTEP="${LST_BIN:?LST_BIN must name the folder with the lockstep binary}/lockstep"
[ -x "$LOCKSTEP" ] || { echo "skip: $LOCKSTEP not built"; exit 77; }
LOCKSTEP="$(cd "$(dirname "$LOCKSTEP")" && pwd)/lockstep"
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

cat >"$dir/good.yaml" <<'PLAN'
lockstep: 1
name: cli-good
agents:
  - {name: a, address: "tcp://127.0.0.1", key: keys/a.pub}
  - {name: b, address: "tcp://127.0.0.1:7271"}
targets:
  - name: ssd0
    paths: {a: /dev/loop0, b: /dev/loop1}
phases:
  - name: lat
    workload: {rw: randrw, rwmixread: 70, bs: 4k}
    sweep: {jobs: [1, 2], iodepth: [1, 8, 32]}
    round: {ramp: 5s, duration: 30s}
PLAN

cat >"$dir/bad.yaml" <<'PLAN'
lockstep: 1
name: cli-bad
agents:
  - {name: a, address: "tcp://127.0.0.1:99999"}
targets:
  - name: ssd0
    paths: {a: /dev/loop0, c: /dev/loop1}
phases:
  - name: lat
    workload: {iodpeth: 4, runtime: 10s}
PLAN

expect 0 "$LOCKSTEP" validate "$dir/good.yaml"
has "$dir/out" "plan cli-good"
has "$dir/out" "tcp://127.0.0.1:7270"
has "$dir/out" "key $dir/keys/a.pub"
has "$dir/out" "6 points (jobs x iodepth)"
has "$dir/out" "about 3 m 30 s"
[ -s "$dir/err" ] && fail "a good plan wrote to stderr: $(cat "$dir/err")"

expect 0 "$LOCKSTEP" validate --quiet "$dir/good.yaml"
[ -s "$dir/out" ] && fail "--quiet printed: $(cat "$dir/out")"

# run from the plan's folder with a relative name: messages use the name as given
expect 2 env -C "$dir" "$LOCKSTEP" validate bad.yaml
has "$dir/err" "bad.yaml:4:24: agent a: address 'tcp://127.0.0.1:99999' has port '99999'"
has "$dir/err" "bad.yaml:7:28: target ssd0: path for agent 'c', which is not in agents (known: a)"
has "$dir/err" "bad.yaml:10:16: phase lat: unknown key 'iodpeth' in workload (did you mean 'iodepth'?)"
has "$dir/err" "3 problems"
[ -s "$dir/out" ] && fail "a bad plan wrote to stdout: $(cat "$dir/out")"
# every error line starts with FILE:LINE:COL:
bad_lines=$(grep -v '^lockstep: ' "$dir/err" | grep -cvE '^bad\.yaml:[0-9]+:[0-9]+: ')
[ "$bad_lines" -eq 0 ] || fail "error lines without FILE:LINE:COL:"$'\n'"$(cat "$dir/err")"

expect 2 "$LOCKSTEP" validate --quiet "$dir/bad.yaml"
has "$dir/err" "$dir/bad.yaml:4:24:"

printf 'lockstep: 1\nname: x\n  oops: [\n' >"$dir/syntax.yaml"
expect 2 "$LOCKSTEP" validate "$dir/syntax.yaml"
has "$dir/err" "$dir/syntax.yaml:3:7: YAML syntax error"

expect 2 "$LOCKSTEP" validate "$dir/missing.yaml"
has "$dir/err" "$dir/missing.yaml: cannot read the plan"
expect 2 "$LOCKSTEP" validate
has "$dir/err" "usage: lockstep validate"
expect 2 "$LOCKSTEP" validate "$dir/good.yaml" "$dir/bad.yaml"
expect 2 "$LOCKSTEP" validate --frobnicate "$dir/good.yaml"
expect 0 "$LOCKSTEP" validate --help
has "$dir/out" "PLAN.yaml:LINE:COL: message"

# the reference regenerates, and the checked-in one is current
expect 0 "$LOCKSTEP" validate --write-doc "$dir/plan.md"
has "$dir/plan.md" "# Plan reference"
if [ -n "${LST_SRC:-}" ]; then
	cmp -s "$dir/plan.md" "$LST_SRC/docs/plan.md" ||
		fail "docs/plan.md is stale: run lockstep validate --write-doc docs/plan.md"
	for plan in "$LST_SRC"/examples/*.yaml; do
		expect 0 "$LOCKSTEP" validate --quiet "$plan"
	done
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "validate_cli: all checks passed"
