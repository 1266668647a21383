#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Errors and stalls with `lockstep-agent bench` on real loop devices:
# - ENOSPC: a 64M sparse file on a 16M tmpfs behind a loop device. on_io_error continue runs to
#   its end with every failed write counted as enospc (and the tmpfs really full); stop ends at
#   the first error with a text naming path, direction, offset and errno.
# - A stall: cgroup v1 blkio throttles the loop device to 2 write IOPS; the intervals show I/Os
#   in flight with the oldest growing, and io_timeout 500ms counts timeouts. At 1 IOPS the end
#   of the point cannot drain in the 5 s bound that io_timeout gives (at least 5 s): the job
#   gives up and names the stuck I/Os instead of hanging.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup lsblk

# --- ENOSPC ----------------------------------------------------------------------------------
mnt="$TMP/mnt"
mkdir -p "$mnt"
mount -t tmpfs -o size=16m lst-health "$mnt" || skip "cannot mount a tmpfs"
on_exit "umount '$mnt'"
truncate -s 64M "$mnt/disk"
dev=$(mk_loop "$mnt/disk")

"$AGENT" bench --filename "$dev" --rw write --bs 64k --iodepth 8 --runtime 2s --interval 500ms \
	--on-io-error continue --json --quiet >"$TMP/continue.json" ||
	fail "on_io_error continue did not run to its end"
"$PY" - "$TMP/continue.json" "$(stat -f -c '%b %f' "$mnt")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
blocks, free = map(int, sys.argv[2].split())
w, h = d["write"], d["health"]
print(f"  writes {w['ios']}, errors {w['errors']}, health {h}, tmpfs free {free}/{blocks} blocks")
assert d.get("error") is None, d.get("error")
assert d["runtime_s"] > 1.9, d["runtime_s"]
assert w["errors"] > 0 and h["errors"]["enospc"] == w["errors"], (w, h)
assert set(h["errors"]) == {"enospc"}, h
assert w["bytes"] >= 15 << 20, "the writes that fit were not counted"
assert free == 0, "the tmpfs is not full: where did the ENOSPC come from?"
# and per interval: classes add up to the errors, and there is a health only where they are
n = 0
for i in d["intervals"]:
    e = i["write"]["errors"]
    if e:
        n += 1
        assert sum(i["health"]["errors"].values()) == e, i
print(f"  {n} intervals with errors")
assert n >= 3
PY
ok "on_io_error continue: ENOSPC counted by class to the end"

set +e
"$AGENT" bench --filename "$dev" --rw randwrite --bs 64k --iodepth 8 --runtime 2s \
	--interval 500ms --json --quiet >"$TMP/stop.json" 2>"$TMP/stop.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "on_io_error stop: exit $rc, expected 1"
grep -E "^lockstep-agent: $dev: write of 65536 bytes at offset [0-9]+ failed \(errno 28\): No space" \
	"$TMP/stop.err" || fail "the error does not name path, direction, offset and errno: $(cat "$TMP/stop.err")"
[ "$(json "$TMP/stop.json" 'd["health"]["errors"]["enospc"] >= 1')" = True ] || fail "stop: no enospc count"
ok "on_io_error stop: ends at the first error, naming it"

# --- a stall ---------------------------------------------------------------------------------
[ -w /sys/fs/cgroup/blkio ] || skip "cgroup v1 blkio is not available (no stall test)"
back=$(mk_backing 64M)
sdev=$(mk_loop "$back")
mm=$(lsblk -dno MAJ:MIN "$sdev" | tr -d ' ')
cg=/sys/fs/cgroup/blkio/lst-health-$$
mkdir "$cg"
on_exit "rmdir '$cg'"
on_exit "echo '$mm 0' >'$cg/blkio.throttle.write_iops_device'"

# bench_in_cg OUT ARGS...: bench on the throttled device from inside the cgroup.
bench_in_cg() {
	local out=$1
	shift
	sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' sh "$cg" "$AGENT" bench \
		--filename "$sdev" --rw randwrite --bs 4k --interval 500ms --io-timeout 500ms \
		--json --quiet "$@" >"$out"
}

echo "$mm 2" >"$cg/blkio.throttle.write_iops_device"
bench_in_cg "$TMP/stall.json" --iodepth 8 --runtime 3s || fail "the throttled run failed"
"$PY" - "$TMP/stall.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iv = [i for i in d["intervals"] if not i["ramp"]]
for i in iv:
    print(f"  interval {i['interval']}: {i['write']['ios']} writes, health {i.get('health')}")
mid = [i.get("health", {}) for i in iv[:-1]]
assert all(h.get("inflight", 0) > 0 for h in mid), "no I/O in flight at a boundary"
ages = [h["oldest_inflight_us"] for h in mid]
assert ages[-1] > ages[0] + 1000000, f"the oldest in flight does not grow: {ages}"
assert d["health"]["timeouts"] >= 8, d["health"]
assert d.get("error") is None, d.get("error")
PY
ok "stall: inflight > 0, the oldest growing, timeouts counted"

# 16 I/Os at 1 IOPS cannot drain in 5 s: the job gives up after runtime + 5 s, naming them.
echo "$mm 1" >"$cg/blkio.throttle.write_iops_device"
start=$(date +%s)
set +e
bench_in_cg "$TMP/stuck.json" --iodepth 16 --runtime 2s 2>"$TMP/stuck.err"
rc=$?
set -e
took=$(($(date +%s) - start))
echo "$mm 0" >"$cg/blkio.throttle.write_iops_device"
cat "$TMP/stuck.err"
[ "$rc" -eq 1 ] || fail "stuck I/O: exit $rc, expected 1"
[ "$took" -le 12 ] || fail "the job took ${took}s to give up (bound: 2 s + 5 s)"
grep -qE "$sdev: [0-9]+ I/Os still in flight after waiting 5000 ms for them at the end, the oldest for [0-9]+ ms" \
	"$TMP/stuck.err" || fail "the error does not name the stuck I/Os"
[ "$(json "$TMP/stuck.json" 'd["intervals"][-1]["health"]["inflight"] > 0')" = True ] ||
	fail "the last interval does not show the stuck I/Os in flight"
ok "stuck I/O: the job gives up after its bound (${took}s) and names the stuck slots"
