#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep validate` on plans with path lists, per-path roles and a ports sweep, as a user runs
# it: a good plan exits 0 and shows the ports axis in its points; a bad one exits 2 with the four
# errors a port plan can have (a path listed twice, an unknown key in a role, an empty port set, a
# port set naming an unknown agent), each as FILE:LINE:COL: message. Contacts nothing.

LOCKSTEP="${LST_BIN:?LST_BIN must name the folder with the lockstep binary}/lockstep"
[ -x "$LOCKSTEP" ] || { echo "skip: $LOCKSTEP not built"; exit 77; }
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going

cat >"$TMP/good.yaml" <<'PLAN'
lockstep: 1
name: ports-good
agents:
  - {name: a, address: "tcp://127.0.0.1"}
  - {name: b, address: "tcp://127.0.0.1:7271"}
targets:
  - name: ssd0
    paths: {a: [/dev/loop0, /dev/loop1], b: /dev/loop2}
phases:
  - name: scale
    workload: {rw: read, bs: 128k, runtime: 10s}
    paths:
      a: {iodepth: 16}
      "b:/dev/loop2": {iodepth: 1}
    sweep: {ports: [["a:/dev/loop0"], [a], [a, b]], iodepth: [4, 32]}
PLAN

cat >"$TMP/bad.yaml" <<'PLAN'
lockstep: 1
name: ports-bad
agents:
  - {name: a, address: "tcp://127.0.0.1"}
  - {name: b, address: "tcp://127.0.0.1:7271"}
targets:
  - name: ssd0
    paths: {a: [/dev/loop0, /dev/loop0], b: /dev/loop2}
phases:
  - name: p
    workload: {rw: randread, runtime: 10s}
    paths:
      b: {iodpeth: 1}
    sweep: {ports: [[a], [], [c]]}
PLAN

expect_exit 0 "$LOCKSTEP" validate "$TMP/good.yaml"
has_text "$TMP/out" "a: /dev/loop0"
has_text "$TMP/out" "a: /dev/loop1"
has_text "$TMP/out" "6 points (ports x iodepth), first ports=a:/dev/loop0 iodepth=4, last ports=a+b iodepth=32"
[ -s "$TMP/err" ] && fail "a good plan wrote to stderr: $(cat "$TMP/err")"

expect_exit 2 env -C "$TMP" "$LOCKSTEP" validate bad.yaml
has_text "$TMP/err" "bad.yaml:8:29: target ssd0: path /dev/loop0 is listed twice for agent a (first at 8:17)"
has_text "$TMP/err" "bad.yaml:13:11: phase p: unknown key 'iodpeth' in the role of b (did you mean 'iodepth'?)"
has_text "$TMP/err" "bad.yaml:14:26: phase p: sweep: ports: an empty port set"
has_text "$TMP/err" "bad.yaml:14:31: phase p: sweep: ports: unknown agent 'c' (known: a, b)"
has_text "$TMP/err" "4 problems"
[ -s "$TMP/out" ] && fail "a bad plan wrote to stdout: $(cat "$TMP/out")"
bad_lines=$(grep -v '^lockstep: ' "$TMP/err" | grep -cvE '^bad\.yaml:[0-9]+:[0-9]+: ')
[ "$bad_lines" -eq 0 ] || fail "error lines without FILE:LINE:COL:"$'\n'"$(cat "$TMP/err")"

finish "validate_ports: all checks passed"
