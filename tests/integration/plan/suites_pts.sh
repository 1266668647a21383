#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The SNIA PTS suites XSR, ECW and DIRTH end to end on two agents driving one "dual-port drive"
# (two loop devices over one file) at lengths of a fraction of a second, each output checked
# against the spec's definitions computed again here from what was measured apart from the
# suite: DIRTH's selected points and histogram I/O counts from summary.csv's per-agent rows;
# ECW's read share and block-size mix from the block layer's counters of both loop devices and
# its access ranges from the bios the kernel queued to them (tracefs); XSR's three segments in
# time order, each with its block size, and its recovery from its own intervals.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup
dual_port_agents 256M

plan() { # plan NAME SHARE PHASES: a plan over both ports with the phases given as YAML text
	cat <<YAML
lockstep: 1
name: $1
agents:
  - {name: a, address: "tcp://127.0.0.1:$PA"}
  - {name: b, address: "tcp://127.0.0.1:$PB"}
targets:
  - {name: drive, share: $2, paths: {a: "$DA", b: "$DB"}}
defaults: {interval: 100ms}
phases:
$3
YAML
}

# --- ECW: the device's own counts ------------------------------------------------------------
# Both ports cover the whole range (share: shared), so the spec's access ranges are the drive's.
plan ecw shared "  - name: ecw
    suite: snia-ecw
    sweep: {jobs: [1], iodepth: [4, 1]}
    round: {duration: 200ms}
    steady: {window: 2, max_rounds: 2}" >"$TMP/ecw.yaml"
"$LOCKSTEP" validate --quiet "$TMP/ecw.yaml" || fail "ECW plan does not validate"

# The bios queued to both loop devices, through the block_bio_queue tracepoint.
tr=/sys/kernel/tracing inst=""
if [ ! -d "$tr/events" ] && mount -t tracefs nodev "$tr" 2>/dev/null; then
	on_exit "umount $tr"
fi
if [ -d "$tr/events/block/block_bio_queue" ] && mkdir "$tr/instances/lst-ecw-$$" 2>/dev/null; then
	inst="$tr/instances/lst-ecw-$$"
	on_exit "echo 0 > $inst/events/block/block_bio_queue/enable; rmdir $inst"
	echo 16384 >"$inst/buffer_size_kb"
	devno() { local mm; read -r -a mm < <(stat -c '%t %T' "$1"); echo $(((16#${mm[0]} << 20) | 16#${mm[1]})); }
	echo "dev == $(devno "$DA") || dev == $(devno "$DB")" >"$inst/events/block/block_bio_queue/filter"
	echo 1 >"$inst/events/block/block_bio_queue/enable"
else
	echo "note: no block_bio_queue tracepoint here; ECW's access ranges are not checked"
fi
sa0=$(devstat "$DA"); sb0=$(devstat "$DB")
"$LOCKSTEP" run "$TMP/ecw.yaml" -o "$TMP/res-ecw" >"$TMP/ecw.log" 2>&1 ||
	fail "ECW run failed: $(tail -20 "$TMP/ecw.log")"
sa1=$(devstat "$DA"); sb1=$(devstat "$DB")
if [ -n "$inst" ]; then
	echo 0 >"$inst/events/block/block_bio_queue/enable"
	cp "$inst/trace" "$TMP/ecw.trace"
fi
"$PY" - "$sa0" "$sa1" "$sb0" "$sb1" "$(blockdev --getsize64 "$DA")" "$TMP/ecw.trace" <<'PY' ||
import os, re, sys
d = [list(map(int, b.split())) for b in sys.argv[1:5]]
delta = [a - b for a, b in zip(d[1], d[0])] + []
delta = [x + y for x, y in zip([a - b for a, b in zip(d[1], d[0])], [a - b for a, b in zip(d[3], d[2])])]
reads, rmerge, rsect, writes, wmerge, wsect = delta
rios, wios = reads + rmerge, writes + wmerge
# The spec's mix: 12 sizes by share of I/Os, 40% reads.
mix = {512: 4, 1024: 1, 1536: 1, 2048: 1, 2560: 1, 3072: 1, 3584: 1, 4096: 67, 8192: 10,
       16384: 7, 32768: 3, 65536: 3}
want_mean = sum(bs * p for bs, p in mix.items()) / 100
rshare = rios / (rios + wios)
mean = (rsect + wsect) * 512 / (rios + wios)
print(f"  ECW on the devices: {rios + wios} I/Os, {100 * rshare:.1f}% reads (spec 40%),"
      f" mean size {mean:.0f} B (spec's mix {want_mean:.0f} B)")
assert rios + wios > 5000, delta
assert abs(rshare - 0.40) < 0.03, rshare
assert abs(mean - want_mean) < 0.05 * want_mean, (mean, want_mean)
tr, size = sys.argv[6], int(sys.argv[5])
if os.path.exists(tr):
    ev = re.compile(r"block_bio_queue: \d+,\d+ (\S+) (\d+) \+ (\d+)")
    sizes, zones = {}, [0, 0, 0]
    for line in open(tr):
        m = ev.search(line)
        if not m or not m.group(3) or int(m.group(3)) == 0:
            continue
        off, n = int(m.group(2)) * 512, int(m.group(3)) * 512
        sizes[n] = sizes.get(n, 0) + 1
        zones[0 if off < 0.05 * size else 1 if off < 0.20 * size else 2] += 1
    total = sum(zones)
    share = [100 * z / total for z in zones]
    print(f"  ECW bios queued: {total}, to the first 5% / next 15% / last 80%:"
          f" {share[0]:.1f}% / {share[1]:.1f}% / {share[2]:.1f}% (spec 50/30/20)")
    assert total > 5000, total
    for got, want in zip(share, (50, 30, 20)):
        assert abs(got - want) < 3, (share,)
    # every size of the mix, and only those
    assert set(sizes) == set(mix), sorted(sizes)
    for bs, p in mix.items():
        assert abs(100 * sizes[bs] / total - p) < max(1.0, 0.15 * p), (bs, sizes[bs] / total)
PY
	fail "ECW's mix is not the spec's"
ok "ECW: the devices saw the spec's read share, block-size mix and access ranges"
"$PY" "$(dirname "$0")/../check_consistency.py" "$TMP/res-ecw" >"$TMP/cc.out" 2>&1 ||
	fail "ECW results folder inconsistent: $(tail -5 "$TMP/cc.out")"

# --- XSR and DIRTH ---------------------------------------------------------------------------
plan pts split "  - name: xsr
    suite: snia-xsr
    workload: {iodepth: 8}
    round: {duration: 200ms}
    xsr: {segments: [400ms, 400ms, 400ms]}
  - name: dirth
    suite: snia-dirth
    sweep: {jobs: [1, 2], iodepth: [1, 8]}
    round: {duration: 200ms}
    steady: {window: 2, max_rounds: 3}
    dirth: {histogram: 300ms}" >"$TMP/pts.yaml"
"$LOCKSTEP" validate --quiet "$TMP/pts.yaml" || fail "plan does not validate"
"$LOCKSTEP" run "$TMP/pts.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 ||
	fail "run failed: $(tail -20 "$TMP/run.log")"
grep -E "^(xsr|dirth): " "$TMP/run.log" | sed 's/^/  /'
"$PY" "$(dirname "$0")/../check_consistency.py" "$TMP/res" >"$TMP/cc.out" 2>&1 ||
	fail "XSR and DIRTH results folder inconsistent: $(tail -5 "$TMP/cc.out")"

"$PY" - "$TMP/res" <<'PY' || fail "XSR or DIRTH outputs disagree with the spec's definitions"
import csv, json, os, sys
res = sys.argv[1]
def rows(name):
    return list(csv.DictReader(open(os.path.join(res, name))))
summ = rows("summary.csv")

# XSR: segments 1, 2, 3 in time order; sequential 1 MiB, random 8 KiB, sequential 1 MiB.
x = [r for r in summ if r["phase"] == "xsr" and r["agent"] == "all"]
assert [r["test"] for r in x] == ["seq 1024k"] * 2 + ["rnd 8k"] * 2 + ["seq 1024k again"] * 2, x
assert [(r["rw"], r["bs"]) for r in x] == [("write", "1048576")] * 2 + [("randwrite", "8192")] * 2 + [("write", "1048576")] * 2
t = [float(r["t_s"]) for r in x]
assert all(b > a for a, b in zip(t, t[1:])), t
xc = rows("xsr-xsr.csv")
assert [(r["segment"], r["interval"]) for r in xc] == [("1", "1"), ("1", "2"), ("2", "1"), ("2", "2"), ("3", "1"), ("3", "2")], xc
for a, b in zip(xc, x):
    assert abs(float(a["t_s"]) - float(b["t_s"])) < 1e-3, (a, b)
    mb = float(b["read_mbps"]) + float(b["write_mbps"])
    assert abs(float(a["mbps"]) - mb) <= 1e-3 * mb + 1e-3, (a, b)
# recovery: segment 3's first interval within 10% of segment 1's last window (all of it here)
seg = lambda g: [float(r["mbps"]) for r in xc if r["segment"] == g]
base = sum(seg("1")) / len(seg("1"))
at = next((i for i, v in enumerate(seg("3")) if v >= 0.9 * base), None)
xt = json.load(open(os.path.join(res, "xsr-xsr.json")))
assert abs(xt["baseline_mbps"] - base) < 1e-3 * base, (xt, base)
assert xt["recovered"] == (at is not None), (xt, at)
if at is not None:
    assert xt["recovered_interval"] == at + 1, (xt, at)
print(f"  xsr: MB/s per interval {[round(float(r['mbps'])) for r in xc]}; recovered: {xt['recovered']}")

# DIRTH: the grid's window averages from each agent's own rows, added across agents.
d = json.load(open(os.path.join(res, "dirth-dirth.json")))
first, last = d["window_first"], d["window_last"]
grid = {}
for r in summ:
    if r["phase"] == "dirth" and r["test"] == "dirth" and r["agent"] in ("a", "b") and \
            first <= int(r["round"]) <= last:
        g = grid.setdefault(f"jobs={r['jobs']} iodepth={r['iodepth']}", {"iops": 0.0, "lat": 0.0, "ios": 0})
        ios = int(r["read_ios"]) + int(r["write_ios"])
        g["iops"] += (float(r["read_iops"]) + float(r["write_iops"])) / (last - first + 1)
        g["lat"] += float(r["lat_mean_us"]) * ios
        g["ios"] += ios
assert len(grid) == 4, grid
for g in grid.values():
    g["lat"] /= g["ios"]
mx = max(grid, key=lambda k: grid[k]["iops"])
mn = min(grid, key=lambda k: grid[k]["lat"])
sel = {s["pick"]: s for s in d["selected"]}
assert sel["max"]["label"] == mx, (sel["max"]["label"], mx, grid)
if mn != mx:
    assert sel["min"]["label"] == mn, (sel["min"]["label"], mn, grid)
lo, hi = grid[mn]["iops"], grid[mx]["iops"]
rest = [k for k in grid if k not in (mx, mn)]
near = lambda target, among: min(among, key=lambda k: abs(grid[k]["iops"] - target))
mh = near(lo + (hi - lo) * 2 / 3, rest)
assert sel["mid-high"]["label"] == mh, (sel["mid-high"]["label"], mh, grid)
assert sel["mid-low"]["label"] == near(lo + (hi - lo) / 3, [k for k in rest if k != mh])
# Each histogram: the merged histogram of its run, so its buckets add up to the I/Os both
# agents did in that run, and its percentiles are the all row's (never an average of the two).
hc = rows("dirth-dirth.csv")
hist = [r for r in summ if r["phase"] == "dirth" and r["test"] == "histograms"]
for s in d["selected"]:
    step = [r for r in hist if f"{s['pick']} {s['label']}" in r["label"]]
    all_ = [r for r in step if r["agent"] == "all"][0]
    per = sum(int(r["read_ios"]) + int(r["write_ios"]) for r in step if r["agent"] in ("a", "b"))
    bins = [r for r in hc if r["pick"] == s["pick"]]
    n = sum(int(r["count"]) for r in bins)
    assert n == per == s["ios"], (s["pick"], n, per, s["ios"])
    assert int(all_["jobs"]) == s["jobs"] and int(all_["iodepth"]) == s["iodepth"], (s, all_)
    # p99 from the bins: the bucket holding the ceil(0.99 n)-th I/O
    k, c = -(-99 * n // 100), 0
    for b in bins:
        c += int(b["count"])
        if c >= k:
            break
    p99 = s["percentiles_us"]["99"]
    assert float(b["lo_us"]) - 0.01 <= p99 <= float(b["hi_us"]) + 0.01, (p99, b)
    assert abs(p99 - float(all_["lat_p99_us"])) <= 0.01, (p99, all_["lat_p99_us"])
    for pct, okay in s["supported"].items():
        assert okay == (n * (1 - float(pct) / 100) >= 10 - 1e-6), (pct, okay, n)
print("  dirth: " + ", ".join(f"{s['pick']} {s['label']} {s['iops']:.0f} IOPS p99 {s['percentiles_us']['99']:.0f} us"
                               f" ({s['ios']} I/Os)" for s in d["selected"]))
PY
ok "XSR's segments and recovery, DIRTH's selected points and merged histograms agree with the raw rows"
finish
