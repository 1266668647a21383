#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The key files a plan names are read by the file rule, through `lockstep run` against a real
# CURVE agent:
# 1. an agent's key: naming a FIFO ends the run with one clear error within seconds (lockstep
#    used to block in open() for ever; the run is under `timeout`);
# 2. a missing key: file says how to make one, with `lockstep keygen` and `lockstep-agent keygen`;
# 3. a FIFO as the plan itself (`lockstep verify DIR` reads DIR/plan.yaml) is refused at once.
. "$(dirname "$0")/../lib.sh"

K=$TMP/keys
"$LOCKSTEP" keygen "$K/ctl" >/dev/null || fail "keygen ctl"
"$LOCKSTEP" keygen "$K/agent" >/dev/null || fail "keygen agent"
mkdir -m 0700 "$TMP/auth"
cp "$K/ctl.pub" "$TMP/auth/"
disk=$TMP/disk.img
truncate -s 16M "$disk"
port=$(free_port)
start_agent a "$port" --key "$K/agent.key" --authorized-keys "$TMP/auth"

# plan KEY: a one-phase read plan of $disk on agent a, whose key is KEY
plan() {
	cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: keys
agents:
  - {name: a, address: "tcp://127.0.0.1:$port", key: "$1"}
targets:
  - {name: t, paths: {a: "$disk"}}
phases:
  - {name: read, workload: {rw: randread, bs: 4k, direct: false, runtime: 1s}}
YAML
}
# refused NAME WANT: lockstep run fails within 20 s, its error holding WANT
refused() {
	local rc=0
	timeout 20 "$LOCKSTEP" run "$TMP/plan.yaml" --key "$K/ctl.key" -o "$TMP/r-$1" --quiet \
		>"$TMP/$1.out" 2>&1 || rc=$?
	[ "$rc" -ne 124 ] || fail "$1: lockstep run hung"
	[ "$rc" -ne 0 ] || fail "$1: the run was not refused: $(cat "$TMP/$1.out")"
	grep -qF -- "$2" "$TMP/$1.out" || fail "$1: expected '$2', got: $(cat "$TMP/$1.out")"
	echo "  $1: $(grep -F -- "$2" "$TMP/$1.out")"
}

plan "$K/agent.pub"
"$LOCKSTEP" run "$TMP/plan.yaml" --key "$K/ctl.key" -o "$TMP/r-good" --quiet >"$TMP/good.out" 2>&1 ||
	fail "the run with the right keys failed: $(cat "$TMP/good.out")"

mkfifo "$K/pipe.pub"
plan "$K/pipe.pub"
refused fifo "key file $K/pipe.pub: a FIFO, not a regular file"
ok "a plan key: naming a FIFO ends lockstep run with one error, no hang"

plan "$K/nosuch.pub"
refused missing "key file $K/nosuch.pub: no such file; make one with 'lockstep keygen $K/nosuch' (on a host with only the agent, 'lockstep-agent keygen $K/nosuch')"
ok "a missing key file says how to make one"

# A plan is read by the same rule: `lockstep verify DIR` reads DIR/plan.yaml, and a FIFO there
# (or given to validate) is refused at once.
mkfifo "$TMP/plan.fifo"
rc=0
timeout 20 "$LOCKSTEP" validate "$TMP/plan.fifo" >"$TMP/pfifo.out" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "lockstep validate blocked on a FIFO"
grep -qF "plan $TMP/plan.fifo: a FIFO, not a regular file; not read" "$TMP/pfifo.out" ||
	fail "a FIFO as the plan: exit $rc: $(cat "$TMP/pfifo.out")"
ok "a FIFO as the plan is refused at once"
