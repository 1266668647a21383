#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A path that names no device says so through `lockstep run`, before any I/O: a by-id name of a
# drive that is not on the host ("no such device ... on this host", pointing at `lockstep
# inventory`, not a failed realpath), and an unbound loop device ("bound to no file", not "no
# size"). The unbound loop device is one this test adds (LOOP_CTL_ADD) and removes.
. "$(dirname "$0")/../lib.sh"
need_root
[ -c /dev/loop-control ] || skip "needs /dev/loop-control"

# loopctl add|remove N: LOOP_CTL_ADD / LOOP_CTL_REMOVE on /dev/loop-control.
loopctl() {
	"$PY" - "$@" <<'PY'
import fcntl, os, sys
fd = os.open("/dev/loop-control", os.O_RDWR)
fcntl.ioctl(fd, 0x4C80 if sys.argv[1] == "add" else 0x4C81, int(sys.argv[2]))
PY
}
unbound=
for n in $(shuf -i 200-250 -n 20); do
	if loopctl add "$n" 2>/dev/null; then
		unbound=/dev/loop$n
		on_exit "loopctl remove $n"
		break
	fi
done
[ -n "$unbound" ] || skip "could not add a loop device"
for _ in $(seq 50); do [ -b "$unbound" ] && break; sleep 0.05; done
[ -b "$unbound" ] || mknod "$unbound" b 7 "${unbound#/dev/loop}"

port=$(free_port)
start_agent g "$port"
# expect NAME PATH WANT NOT: a read of PATH on agent g is refused with WANT, never saying NOT.
expect() {
	local rc=0
	cat >"$TMP/$1.yaml" <<YAML
lockstep: 1
name: $1
agents:
  - {name: g, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: drive, paths: {g: "$2"}}
defaults: {rw: randread, bs: 4k, iodepth: 1}
phases:
  - {name: p1, workload: {runtime: 1s}}
YAML
	timeout 30 "$LOCKSTEP" run "$TMP/$1.yaml" -o "$TMP/res-$1" >"$TMP/$1.out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "$1: the run did not fail at once (rc $rc)"
	grep -q -- "$3" "$TMP/$1.out" || fail "$1: '$3' not in: $(cat "$TMP/$1.out")"
	grep -q -- "$4" "$TMP/$1.out" && fail "$1: still says '$4': $(cat "$TMP/$1.out")"
	ok "$1: $(grep -- "$3" "$TMP/$1.out" | head -1)"
}
expect byid "/dev/disk/by-id/wwn-0x5000lockstepmissing$$" \
	"agent g.*/dev/disk/by-id/wwn-0x5000lockstepmissing$$: no such device or file on this host; \`lockstep inventory\` lists" \
	"realpath"
expect unbound "$unbound" "agent g.*$unbound: refused (unbound): $unbound is a loop device bound to no file" \
	"reported no size"
