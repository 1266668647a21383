#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep validate` as a user runs it: a good plan exits 0 and says what would run, a bad one
# exits 2 with every problem as FILE:LINE:COL: message on stderr, --quiet prints nothing, and
# the examples in examples/ validate. Contacts nothing, needs no root.

LOCKSTEP="${LST_BIN:?LST_BIN must name the folder with the lockstep binary}/lockstep"
[ -x "$LOCKSTEP" ] || { echo "skip: $LOCKSTEP not built"; exit 77; }
LOCKSTEP="$(cd "$(dirname "$LOCKSTEP")" && pwd)/lockstep"
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going

cat >"$TMP/good.yaml" <<'PLAN'
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

cat >"$TMP/bad.yaml" <<'PLAN'
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

expect_exit 0 "$LOCKSTEP" validate "$TMP/good.yaml"
has_text "$TMP/out" "plan cli-good"
has_text "$TMP/out" "tcp://127.0.0.1:7270"
has_text "$TMP/out" "key $TMP/keys/a.pub"
has_text "$TMP/out" "6 points (jobs x iodepth)"
has_text "$TMP/out" "about 3 m 30 s"
[ -s "$TMP/err" ] && fail "a good plan wrote to stderr: $(cat "$TMP/err")"

expect_exit 0 "$LOCKSTEP" validate --quiet "$TMP/good.yaml"
[ -s "$TMP/out" ] && fail "--quiet printed: $(cat "$TMP/out")"

# run from the plan's folder with a relative name: messages use the name as given
expect_exit 2 env -C "$TMP" "$LOCKSTEP" validate bad.yaml
has_text "$TMP/err" "bad.yaml:4:24: agent a: address 'tcp://127.0.0.1:99999' has port '99999'"
has_text "$TMP/err" "bad.yaml:7:28: target ssd0: path for agent 'c', which is not in agents (known: a)"
has_text "$TMP/err" "bad.yaml:10:16: phase lat: unknown key 'iodpeth' in workload (did you mean 'iodepth'?)"
has_text "$TMP/err" "3 problems"
[ -s "$TMP/out" ] && fail "a bad plan wrote to stdout: $(cat "$TMP/out")"
# every error line starts with FILE:LINE:COL:
bad_lines=$(grep -v '^lockstep: ' "$TMP/err" | grep -cvE '^bad\.yaml:[0-9]+:[0-9]+: ')
[ "$bad_lines" -eq 0 ] || fail "error lines without FILE:LINE:COL:"$'\n'"$(cat "$TMP/err")"

expect_exit 2 "$LOCKSTEP" validate --quiet "$TMP/bad.yaml"
has_text "$TMP/err" "$TMP/bad.yaml:4:24:"

printf 'lockstep: 1\nname: x\n  oops: [\n' >"$TMP/syntax.yaml"
expect_exit 2 "$LOCKSTEP" validate "$TMP/syntax.yaml"
has_text "$TMP/err" "$TMP/syntax.yaml:3:7: YAML syntax error"

expect_exit 2 "$LOCKSTEP" validate "$TMP/missing.yaml"
has_text "$TMP/err" "$TMP/missing.yaml: cannot read the plan"
expect_exit 2 "$LOCKSTEP" validate
has_text "$TMP/err" "usage: lockstep validate"
expect_exit 2 "$LOCKSTEP" validate "$TMP/good.yaml" "$TMP/bad.yaml"
expect_exit 2 "$LOCKSTEP" validate --frobnicate "$TMP/good.yaml"
expect_exit 0 "$LOCKSTEP" validate --help
has_text "$TMP/out" "PLAN.yaml:LINE:COL: message"

# the reference regenerates, and the checked-in one is current
expect_exit 0 "$LOCKSTEP" validate --write-doc "$TMP/plan.md"
has_text "$TMP/plan.md" "# Plan reference"
if [ -n "${LST_SRC:-}" ]; then
	cmp -s "$TMP/plan.md" "$LST_SRC/docs/plan.md" ||
		fail "docs/plan.md is stale: run lockstep validate --write-doc docs/plan.md"
	for plan in "$LST_SRC"/examples/*.yaml; do
		expect_exit 0 "$LOCKSTEP" validate --quiet "$plan"
	done
fi

finish "validate_cli: all checks passed"
