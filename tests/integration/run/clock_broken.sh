#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An agent whose clock is unusable is refused, never a coordinator abort: agent b runs under
# libfaketime at 1000x (its monotonic clock too), so every clock exchange comes back with a
# negative round-trip delay. `lockstep run` must exit 1 (not 134 from an assert, not 139),
# say which agent and what is wrong with its clock; a run refused before its point takes back the
# folder it made, one whose START was refused keeps run.json with that error.
. "$(dirname "$0")/../lib.sh"
faketime_lib=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
[ -e "$faketime_lib" ] || skip "needs libfaketime (package faketime)"

back=$TMP/disk.img
truncate -s 64M "$back"
pb=$(free_port)
# A wrapper script: FAKETIME holds a space, which AGENT_WRAP's word splitting would break.
cat >"$TMP/fake.sh" <<SH
#!/bin/sh
export LD_PRELOAD=$faketime_lib FAKETIME="+0 x1000" FAKETIME_DISABLE_SHM=1
exec "\$@"
SH
chmod +x "$TMP/fake.sh"
AGENT_WRAP="$TMP/fake.sh" start_agent b "$pb" --allow-write "$back"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: broken-clock
agents:
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: t, paths: {b: "$back"}}
defaults: {interval: 100ms, rw: randread, bs: 4k, iodepth: 4}
phases:
  - {name: p, workload: {runtime: 1s}}
YAML
set +e
timeout 60 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" --quiet 2>"$TMP/run.err"
rc=$?
set -e
cat "$TMP/run.err" >&2
[ $rc -eq 1 ] || fail "lockstep run exited $rc, expected 1"
# Usually every exchange comes back negative; on a loaded machine a few may not, and then the
# agent itself refuses a start time hours away from its clock, or (its lease of seconds passing
# in milliseconds of real time) has already dropped the prepared point when START comes. Each
# refusal names agent b; none is an abort.
why="clock exchanges unusable: all 32 replies had a negative round-trip delay; is the agent's clock running at the normal rate?"
mixup="behind this agent's clock (more than an hour): a clock mix-up?"
dropped="agent b could not start phase p point 0: start: point 0/0 is not prepared"
grep -qF "agent b: $why" "$TMP/run.err" || grep -q "agent b .*$mixup" "$TMP/run.err" ||
	grep -qF "$dropped" "$TMP/run.err" || fail "no message naming agent b and its clock"
if [ -f "$TMP/res/run.json" ]; then
	json "$TMP/res/run.json" "any('agent b' in e and ('clock exchanges unusable' in e or 'clock mix-up' in e or 'is not prepared' in e) for e in d['errors'])" |
		grep -qx True || fail "run.json errors: $(json "$TMP/res/run.json" "d['errors']")"
	st=$(json "$TMP/res/run.json" "d.get('status')")
	[ "$st" = None ] || [ "$st" = failed ] || fail "run.json status $st"
else
	[ ! -e "$TMP/res" ] || fail "the refused run left $(ls "$TMP/res")"
	grep -qF "no point started: removed the results folder" "$TMP/run.err" ||
		fail "no folder and no word of its removal"
fi
ok "an agent whose clock runs 1000x is refused with the reason, exit 1, nothing left that did not run"
