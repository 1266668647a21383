#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Per-direction latency with a real agent on a loop device only this test uses: a
# 70/30 random read/write point without ramp, a sweep of two such points (curves.csv) and a
# read-only point, in one `lockstep run`.
#  - the agent's read_ios and write_ios (summary.csv) equal the device's own counters
#    (/sys/block/loopN/stat, I/Os + merges) within what was in flight at the stop;
#  - check_directions.py: every read_/write_ latency column of timeseries.csv, summary.csv and
#    curves.csv equals the percentiles of that direction's histograms merged independently from
#    samples/*.msgpack, read_lat_count + write_lat_count equal the combined count, and lockstep's
#    merged read and write histograms (points.jsonl) add up to the combined one bucket by bucket;
#  - a direction with no I/O has its fields empty; `lockstep report` prints read and write p99
#    under the mixed points only.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup
"$PY" -c 'import msgpack' 2>/dev/null || skip "needs python3-msgpack"

back=$(mk_backing 128M)
dev=$(mk_loop "$back")
port=$(free_port)
start_agent a "$port" --allow-write "/dev/loop*"

plan="$TMP/plan.yaml"
cat >"$plan" <<YAML
lockstep: 1
name: directions
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: drive, paths: {a: "$dev"}}
defaults: {interval: 200ms}
phases:
  - name: mix
    workload: {rw: randrw, rwmixread: 70, bs: 4k, iodepth: 8, jobs: 2}
    stop: {runtime: 2s}
  - name: grid
    workload: {rw: randrw, rwmixread: 70, bs: 4k, jobs: 1}
    sweep: {iodepth: [1, 8]}
    stop: {runtime: 1s}
  - name: reads
    workload: {rw: randread, bs: 4k, iodepth: 8, jobs: 2}
    stop: {runtime: 1s}
YAML
"$LOCKSTEP" validate --quiet "$plan" || fail "plan does not validate"
udevadm settle 2>/dev/null || true
before=$(devstat "$dev")
"$LOCKSTEP" run "$plan" -o "$TMP/res" --quiet || fail "run failed"
after=$(devstat "$dev")

# The agent's counts against the device's: every I/O the agent issued reached the loop device
# as one bio (merged ones count in *_merges); at most jobs x iodepth were in flight at a stop.
"$PY" - "$TMP/res" "$before" "$after" <<'PY' || fail "read/write counts differ from the device's"
import csv, sys
res = sys.argv[1]
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
reads, read_merges, _, writes, write_merges, _ = (x - y for x, y in zip(a, b))
summ = [r for r in csv.DictReader(open(f"{res}/summary.csv")) if r["agent"] == "a"]
assert len(summ) == 4, summ
mine = {d: sum(int(r[d + "_ios"]) for r in summ) for d in ("read", "write")}
dev = {"read": reads + read_merges, "write": writes + write_merges}
inflight = 16 + 8 + 16  # jobs x iodepth of each phase: what a stop may leave uncounted
# Reads: udev may probe the device after the writers close (blkid), never during the run.
print(f"  agent {mine}, device {dev}")
assert 0 <= dev["write"] - mine["write"] <= inflight, (mine, dev)
assert 0 <= dev["read"] - mine["read"] <= inflight + 64, (mine, dev)
mix = next(r for r in summ if r["phase"] == "mix")
total = int(mix["read_ios"]) + int(mix["write_ios"])
assert total > 200, mix
assert 0.6 < int(mix["read_ios"]) / total < 0.8, mix
PY
ok "read_ios and write_ios equal the device's counters"

"$PY" "$LST_SRC/tests/integration/check_directions.py" "$TMP/res" ||
	fail "per-direction columns differ from the samples"
ok "per-direction columns equal the independent merge of each direction"

# A direction without I/O: empty fields, zero count; the combined set keeps its numbers.
"$PY" - "$TMP/res" <<'PY' || fail "read-only point"
import csv, sys
r = next(r for r in csv.DictReader(open(f"{sys.argv[1]}/summary.csv"))
         if r["phase"] == "reads" and r["agent"] == "all")
assert r["write_lat_count"] == "0" and r["read_lat_count"] != "0", r
assert all(r[f"write_lat_{s}_us"] == "" for s in
           ("mean", "p50", "p99", "p99_9", "p99_99", "p99_999", "max")), r
assert r["read_lat_p99_us"] != "" and float(r["lat_p99_us"]) > 0, r
assert r["read_lat_p99_us"] == r["lat_p99_us"], r
PY
ok "a direction without I/O has empty fields"

"$LOCKSTEP" report "$TMP/res" --no-plots >"$TMP/report.txt" 2>&1 || {
	cat "$TMP/report.txt"
	fail "report failed"
}
"$PY" - "$TMP/res" "$TMP/report.txt" <<'PY' || { cat "$TMP/report.txt"; fail "report's read/write p99 lines"; }
import csv, sys
text = open(sys.argv[2]).read()
lines = [l.strip() for l in text.splitlines() if l.strip().startswith("read p99 ")]
want = [f"read p99 {float(r['read_lat_p99_us']):.1f} us, write p99 "
        f"{float(r['write_lat_p99_us']):.1f} us"
        for r in csv.DictReader(open(f"{sys.argv[1]}/summary.csv"))
        if r["agent"] == "all" and r["phase"] != "reads"]
assert lines == want, (lines, want)
print("  " + "\n  ".join(lines))
PY
ok "report prints read and write p99 under the mixed points"
