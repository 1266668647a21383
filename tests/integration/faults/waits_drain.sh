#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A slow healthy device drains at the end of a point: agent b's loop device is throttled to 100
# write IOPS (cgroup v1 blkio, b in the group) and b queues 800 16 KiB writes; by the end of its
# 2 s point some 600 are still in flight, about 6 s of work at that rate, more than the 5 s a
# job used to wait for them at most without io_timeout. The drain bound follows the device (the
# latency and the completion rate seen), so the point completes, every write is counted, and the
# summary's writes equal the block layer's (merged requests count too). `lockstep run` is under
# `timeout`.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup lsblk timeout

back=$(mk_backing 128M)
dev=$(mk_loop "$back")
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
blkio_group drain
on_exit "echo '$mm 0' >'$CG/blkio.throttle.write_iops_device'"
echo "$mm 100" >"$CG/blkio.throttle.write_iops_device"
pb=$(free_port)
AGENT_WRAP="$CG_WRAP" start_agent b "$pb" --allow-write "$dev"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: slow-drain
lease: 30s
agents:
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: t, paths: {b: "$dev"}}
phases:
  - name: deep
    workload: {rw: write, bs: 16k, iodepth: 800, runtime: 2s, interval: 500ms}
YAML
w0=$(awk '{print $5 + $6}' "/sys/block/$(basename "$dev")/stat")
t0=$(date +%s.%N)
rc=0
timeout 60 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 || rc=$?
secs=$("$PY" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" \
	"$(date +%s.%N)")
[ "$rc" -ne 124 ] || fail "lockstep run still ran after 60 s: $(tail -5 "$TMP/run.log")"
[ "$rc" -eq 0 ] || fail "the run failed (exit $rc): $(grep -E 'error|warn' "$TMP/run.log" | head -3)"
[ "$(json "$TMP/res/run.json" 'd["status"]')" = complete ] ||
	fail "status $(json "$TMP/res/run.json" 'd["status"]'), want complete"
w=$(($(awk '{print $5 + $6}' "/sys/block/$(basename "$dev")/stat") - w0))
"$PY" "$(dirname "$0")/../check_consistency.py" "$TMP/res" --device-ios "b=0:$w" >"$TMP/cons.out" 2>&1 ||
	fail "results against the device: $(tail -3 "$TMP/cons.out")"
sed 's/^/  /' "$TMP/cons.out"
# The drain really was longer than the old fixed 5 s: the run took the point plus that.
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) > 7 else 1)" "$secs" ||
	fail "the run took only $secs s: the throttle did not hold the writes back"
ok "600-odd writes in flight at the end of a point, 100 IOPS: drained, complete in $secs s, $w writes"
