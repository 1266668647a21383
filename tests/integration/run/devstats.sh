#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# devstats.csv against the block layer's own counters: a real agent drives a loop device only
# this test uses, through `lockstep run`, one point without ramp per run (a random write, then a
# random read). The sum of the point's devstats rows for the path equals what
# /sys/block/loopN/stat counted between before and after the run (reads, writes, sectors
# exactly), and equals lockstep's own counts of the agent (summary.csv) within what was in
# flight when the point stopped.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

back=$(mk_backing 128M)
dev=$(mk_loop "$back")
port=$(free_port)
start_agent a "$port" --allow-write "/dev/loop*"

# stat6 DEV: reads read_sectors writes write_sectors read_merges write_merges
stat6() { awk '{print $1, $3, $5, $7, $2, $6}' "/sys/block/$(basename "$1")/stat"; }

run_point() { # NAME RW
	local name=$1 rw=$2 plan="$TMP/$1.yaml" before after
	cat >"$plan" <<YAML
lockstep: 1
name: devstats-$name
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: drive, paths: {a: "$dev"}}
defaults: {interval: 200ms}
phases:
  - name: $name
    workload: {rw: $rw, bs: 4k, iodepth: 8, jobs: 2}
    stop: {runtime: 1s}
YAML
	"$LOCKSTEP" validate --quiet "$plan" || fail "$name: plan does not validate"
	udevadm settle 2>/dev/null || true
	before=$(stat6 "$dev")
	"$LOCKSTEP" run "$plan" -o "$TMP/res-$name" --quiet || fail "$name: run failed"
	after=$(stat6 "$dev")
	"$PY" - "$TMP/res-$name" "$name" "$(basename "$dev")" "$dev" "$before" "$after" <<'PY'
import csv, sys
res, name, devname, path = sys.argv[1:5]
b = list(map(int, sys.argv[5].split())); a = list(map(int, sys.argv[6].split()))
dev = dict(zip(("reads", "read_sectors", "writes", "write_sectors", "read_merges",
                "write_merges"), (x - y for x, y in zip(a, b))))
rows = list(csv.DictReader(open(f"{res}/devstats.csv")))
assert rows, "devstats.csv has no rows"
cols = ("phase,point,label,agent,target,path,device,interval,t_s,reads,read_merges,"
        "read_sectors,read_ms,writes,write_merges,write_sectors,write_ms,in_flight,io_ms,"
        "queue_ms").split(",")
assert list(rows[0].keys()) == cols, list(rows[0].keys())
for r in rows:
    assert (r["phase"], r["point"], r["agent"], r["target"], r["path"], r["device"]) == \
        (name, "0", "a", "drive", path, devname), r
ks = [int(r["interval"]) for r in rows]
assert ks == list(range(len(ks))), ks
ts = [float(r["t_s"]) for r in rows]
assert ts == sorted(ts), ts
s = {k: sum(int(r[k]) for r in rows) for k in dev}
print(f"  {name}: devstats {s}, device {dev}")
# The agent reads the counters before releasing the jobs and after they have all drained, so
# the devstats sum is exactly what the device counted in between. Writes come only from the
# agent; a writer's close may make udev read the device after the run, never during it.
for k in ("writes", "write_sectors", "write_merges"):
    assert s[k] == dev[k], (k, s[k], dev[k])
for k in ("reads", "read_sectors"):
    assert 0 <= dev[k] - s[k] <= (0 if name == "read" else 64 * 8), (k, s[k], dev[k])
assert int(rows[-1]["in_flight"]) == 0, rows[-1]
# lockstep's own count of the agent: the same I/Os (merged ones count once per bio).
summ = [r for r in csv.DictReader(open(f"{res}/summary.csv")) if r["agent"] == "a"]
assert len(summ) == 1, summ
inflight = max(int(r["in_flight"]) for r in rows)
for d in ("read", "write"):
    mine = int(summ[0][d + "_ios"])
    theirs = s[d + "s"] + s[d + "_merges"]
    assert abs(mine - theirs) <= inflight, (d, mine, theirs, inflight)
    assert abs(int(summ[0][d + "_bytes"]) - s[d + "_sectors"] * 512) <= inflight * 4096, \
        (d, summ[0][d + "_bytes"], s[d + "_sectors"])
assert s["writes" if name == "write" else "reads"] > 100, s
PY
	ok "$name: devstats deltas sum to the device's own counters and to lockstep's counts"
}

run_point write randwrite
run_point read randread

# --- devstats.csv across `lockstep resume` ------------------------------------------------------
# A coordinator killed with SIGKILL in the middle of point 1 of a sweep: the resume cuts
# devstats.csv back to the last journaled point with the other files and appends the rest, so
# every point's rows are there once, matching the agent's timeseries rows interval by interval.
cat >"$TMP/r.yaml" <<YAML
lockstep: 1
name: devstats-resume
lease: 3s
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: drive, paths: {a: "$dev"}}
defaults: {interval: 100ms}
phases:
  - {name: s, workload: {rw: randread, bs: 4k, runtime: 1s}, sweep: {iodepth: [1, 2, 4]}}
YAML
"$LOCKSTEP" run --quiet "$TMP/r.yaml" -o "$TMP/r" 2>"$TMP/r.log" &
run=$!
on_exit "kill -9 $run"
for _ in $(seq 200); do
	n=$(grep -c '^s,1,' "$TMP/r/devstats.csv" 2>/dev/null || true)
	[ "${n:-0}" -ge 3 ] && break
	sleep 0.05
done
[ "${n:-0}" -ge 3 ] || fail "resume: point 1 did not get going: $(tail -3 "$TMP/r.log")"
kill -9 $run
wait $run 2>/dev/null || true
cp "$TMP/r/devstats.csv" "$TMP/r.devstats.before"
timeout 60 "$LOCKSTEP" resume "$TMP/r" >"$TMP/resume.log" 2>&1 ||
	fail "resume failed: $(tail -5 "$TMP/resume.log")"
"$PY" - "$TMP/r" "$TMP/r.devstats.before" <<'PY' || fail "devstats.csv is not right after the resume"
import collections, csv, sys
d, before = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(d + "/devstats.csv")))
ts = [r for r in csv.DictReader(open(d + "/timeseries.csv")) if r["agent"] == "a"]
got = collections.Counter((r["point"], r["interval"]) for r in rows)
assert max(got.values()) == 1, [k for k, v in got.items() if v > 1]
assert sorted(got) == sorted((r["point"], r["interval"]) for r in ts), (sorted(got), len(ts))
assert {r["point"] for r in rows} == {"0", "1", "2"}, {r["point"] for r in rows}
# The rows of point 0 (journaled before the kill) are byte for byte what they were.
old = [l for l in open(before) if l.startswith("s,0,")]
new = [l for l in open(d + "/devstats.csv") if l.startswith("s,0,")]
assert old and old == new, (len(old), len(new))
PY
ok "resume: devstats.csv keeps the journaled points' rows and gets every point once"
