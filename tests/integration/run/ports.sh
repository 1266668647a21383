#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Ports as first-class, end to end with real agents and loop devices. Two loop devices over one
# backing file stand for the two ports of one dual-port drive.
#
# 1. One agent, two paths of one target (a path list): each path's summary row matches that loop
#    device's own /sys/block counters within what was in flight at the stop; the path rows add up
#    exactly to the agent's row, and the agents' rows to `all` (I/Os, bytes, histogram counts);
#    every interval's path rows add up to the agent's row; each raw SAMPLE's `paths` add up.
# 2. Two agents, a sweep over ports [a], [b], [a, b]: devstats.csv has I/O only on the ports
#    taking part at each point, and the devices counted nothing outside the points that drove
#    them; the report prints the two-port / one-port ratio and draws the ports plot.
# 3. Roles: a writes while b reads, and an idle path: the devices' own counters (devstats.csv)
#    show writes only on a's port, reads only on b's, and the idle path's device did nothing.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

back=$(mk_backing 256M)
p0=$(mk_loop "$back")
p1=$(mk_loop "$back")
spare=$(mk_backing 256M)
p2=$(mk_loop "$spare")
pa=$(free_port)
start_agent a "$pa" --allow-write "/dev/loop*"
pb=$(free_port)
start_agent b "$pb" --allow-write "/dev/loop*"

# stat7 DEV: reads read_merges read_sectors writes write_merges write_sectors in_flight
stat7() { awk '{print $1, $2, $3, $5, $6, $7, $9}' "/sys/block/$(basename "$1")/stat"; }

echo "1. one agent, two paths of one target"
cat >"$TMP/two-paths.yaml" <<YAML
lockstep: 1
name: two-paths
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - name: drive
    paths: {a: ["$p0", "$p1"]}
defaults: {interval: 200ms}
phases:
  - name: mixed
    workload: {rw: randrw, rwmixread: 50, bs: 4k, iodepth: 8}
    stop: {runtime: 1s}
YAML
"$LOCKSTEP" validate --quiet "$TMP/two-paths.yaml" || fail "two-paths: plan does not validate"
udevadm settle 2>/dev/null || true
b0=$(stat7 "$p0")
b1=$(stat7 "$p1")
"$LOCKSTEP" run "$TMP/two-paths.yaml" -o "$TMP/r1" --quiet || fail "two-paths: run failed"
a0=$(stat7 "$p0")
a1=$(stat7 "$p1")
"$PY" - "$TMP/r1" "$p0" "$p1" "$b0" "$a0" "$b1" "$a1" <<'PY' || fail "two-paths: rows do not add up"
import csv, json, sys
res, p0, p1 = sys.argv[1:4]
delta = {}
for path, b, a in ((p0, sys.argv[4], sys.argv[5]), (p1, sys.argv[6], sys.argv[7])):
    b, a = list(map(int, b.split())), list(map(int, a.split()))
    delta[path] = dict(zip(("reads", "read_merges", "read_sectors", "writes", "write_merges",
                            "write_sectors"), (x - y for x, y in zip(a, b))))
rows = list(csv.DictReader(open(f"{res}/summary.csv")))
by = {(r["scope"], r["agent"], r["path"]): r for r in rows}
assert set(by) == {("all", "all", ""), ("agent", "a", ""), ("path", "a", p0),
                   ("path", "a", p1)}, sorted(by)
cols = ("read_ios", "write_ios", "read_bytes", "write_bytes", "errors")
paths = [by[("path", "a", p)] for p in (p0, p1)]
for c in cols:
    assert sum(int(r[c]) for r in paths) == int(by[("agent", "a", "")][c]), c
    assert int(by[("agent", "a", "")][c]) == int(by[("all", "all", "")][c]), c
for r in paths:
    assert r["target"] == "drive", r
    assert int(r["read_ios"]) > 100 and int(r["write_ios"]) > 100, r
# lockstep's count of a path against its device: I/Os the device received (requests plus
# merges), within what was in flight when the point stopped (iodepth 8).
for r in paths:
    d = delta[r["path"]]
    for k in ("read", "write"):
        mine, theirs = int(r[k + "_ios"]), d[k + "s"] + d[k + "_merges"]
        assert abs(mine - theirs) <= 8, (r["path"], k, mine, theirs)
    print(f"  {r['path']}: lockstep {r['read_ios']} reads {r['write_ios']} writes, "
          f"device {delta[r['path']]['reads'] + delta[r['path']]['read_merges']} reads "
          f"{delta[r['path']]['writes'] + delta[r['path']]['write_merges']} writes")
# Histograms: summary.json's per-path latency counts add up to the agent's.
pts = json.load(open(f"{res}/summary.json"))["points"]
count = {(o.get("scope"), o["agent"], o.get("path", "")): o["lat"]["count"] for o in pts}
assert count[("path", "a", p0)] + count[("path", "a", p1)] == count[("agent", "a", "")], count
# Every interval: both paths have a row wherever the agent has one, and but for the last one
# (cut short: each path's rate is over its own span, the agent's over their union) the path
# rows' rates add up to the agent row's within rounding.
ts = list(csv.DictReader(open(f"{res}/timeseries.csv")))
ks = {}
for r in ts:
    ks.setdefault(r["interval"], []).append(r)
assert len(ks) >= 4, len(ks)
for k, rs in ks.items():
    agent = [r for r in rs if r["scope"] == "agent"]
    part = [r for r in rs if r["scope"] == "path"]
    assert len(agent) == 1 and len(part) == 2, (k, rs)
    for c in ("read_iops", "write_iops"):
        if k == max(ks, key=int):
            continue
        s, want = sum(float(r[c]) for r in part), float(agent[0][c])
        assert abs(s - want) <= 0.01 * want + 1, (k, c, s, want)
PY
"$PY" "$(dirname "$0")/../check_parts.py" "$TMP/r1" || fail "two-paths: raw samples' paths"

echo "2. a sweep over ports [a], [b], [a, b]"
cat >"$TMP/sweep.yaml" <<YAML
lockstep: 1
name: port-sweep
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - name: drive
    paths: {a: "$p0", b: "$p1"}
defaults: {interval: 200ms}
phases:
  - name: seq
    workload: {rw: read, bs: 128k, iodepth: 4, direct: true}
    sweep: {ports: [[a], [b], [a, b]]}
    stop: {runtime: 1s}
YAML
"$LOCKSTEP" validate --quiet "$TMP/sweep.yaml" || fail "sweep: plan does not validate"
udevadm settle 2>/dev/null || true
b0=$(stat7 "$p0")
b1=$(stat7 "$p1")
"$LOCKSTEP" run "$TMP/sweep.yaml" -o "$TMP/r2" --quiet || fail "sweep: run failed"
a0=$(stat7 "$p0")
a1=$(stat7 "$p1")
"$PY" - "$TMP/r2" "$(basename "$p0")" "$(basename "$p1")" "$b0" "$a0" "$b1" "$a1" <<'PY' ||
import csv, sys
res, d0, d1 = sys.argv[1:4]
delta = {}
for dev, b, a in ((d0, sys.argv[4], sys.argv[5]), (d1, sys.argv[6], sys.argv[7])):
    delta[dev] = int(a.split()[0]) - int(b.split()[0])
rows = list(csv.DictReader(open(f"{res}/devstats.csv")))
labels = {r["point"]: r["label"] for r in csv.DictReader(open(f"{res}/summary.csv"))}
assert labels == {"0": "ports=a", "1": "ports=b", "2": "ports=a+b"}, labels
want = {"0": {d0}, "1": {d1}, "2": {d0, d1}}
for point, devs in want.items():
    got = {r["device"] for r in rows if r["point"] == point}
    assert got == devs, (point, got, devs)
    for dev in devs:
        reads = sum(int(r["reads"]) for r in rows if r["point"] == point and r["device"] == dev)
        assert reads > 50, (point, dev, reads)
# Each device did nothing beyond what its points' devstats rows say.
for dev in (d0, d1):
    s = sum(int(r["reads"]) for r in rows if r["device"] == dev)
    assert s == delta[dev], (dev, s, delta[dev])
    print(f"  {dev}: {s} reads in its points, device counted {delta[dev]}")
PY
	fail "sweep: device counters"
"$LOCKSTEP" report "$TMP/r2" -o "$TMP/r2-plots" >"$TMP/report.txt" || fail "sweep: report failed"
cat "$TMP/report.txt" | sed -n '/port scaling/,$p'
grep -q "port scaling" "$TMP/report.txt" || fail "sweep: the report has no port scaling"
"$PY" - "$TMP/report.txt" "$TMP/r2" <<'PY' || fail "sweep: the ratio is wrong"
import csv, re, sys
text, res = open(sys.argv[1]).read(), sys.argv[2]
mbps = {r["label"]: float(r["read_mbps"]) for r in csv.DictReader(open(f"{res}/summary.csv"))
        if r["scope"] == "all"}
line = [l for l in text.splitlines() if re.search(r"\ba\+b\s+2\b", l)]
assert len(line) == 1, line
ratio = float(line[0].split()[-1])
want = mbps["ports=a+b"] / mbps["ports=a"]  # the first point with the fewest paths
assert abs(ratio - want) <= 0.01, (ratio, want)
print(f"  two-port / one-port: report {ratio:.2f}, summary.csv {want:.2f}")
PY
[ -s "$TMP/r2-plots/ports_seq.svg" ] || [ ! -x "$(command -v gnuplot)" ] ||
	fail "sweep: no ports plot"
grep "w boxes lc rgb \"[^\"]*\" t \"a+b\"" "$TMP/r2-plots/ports_seq.gp" >/dev/null ||
	fail "sweep: no ports plot script with a bar of a+b"

echo "3. roles: a writes while b reads, and an idle path"
cat >"$TMP/roles.yaml" <<YAML
lockstep: 1
name: roles
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - name: drive
    paths: {a: ["$p0", "$p2"], b: "$p1"}
    share: shared
defaults: {interval: 200ms}
phases:
  - name: write-vs-read
    workload: {rw: randread, bs: 4k, iodepth: 4}
    paths:
      a: {rw: randwrite}
      "a:$p2": idle
    stop: {runtime: 1s}
YAML
"$LOCKSTEP" validate --quiet "$TMP/roles.yaml" || fail "roles: plan does not validate"
udevadm settle 2>/dev/null || true
b2=$(stat7 "$p2")
"$LOCKSTEP" run "$TMP/roles.yaml" -o "$TMP/r3" --quiet || fail "roles: run failed"
a2=$(stat7 "$p2")
[ "$b2" = "$a2" ] || fail "roles: the idle path's device counted I/O ($b2 -> $a2)"
"$PY" - "$TMP/r3" "$(basename "$p0")" "$(basename "$p1")" "$(basename "$p2")" <<'PY' ||
import csv, sys
res, d0, d1, d2 = sys.argv[1:5]
rows = list(csv.DictReader(open(f"{res}/devstats.csv")))
tot = {}
for r in rows:
    t = tot.setdefault(r["device"], {"reads": 0, "writes": 0})
    t["reads"] += int(r["reads"])
    t["writes"] += int(r["writes"])
assert set(tot) == {d0, d1}, tot
assert tot[d0]["writes"] > 100 and tot[d0]["reads"] == 0, tot
assert tot[d1]["reads"] > 100 and tot[d1]["writes"] == 0, tot
summ = {(r["scope"], r["agent"], r["path"]): r for r in csv.DictReader(open(f"{res}/summary.csv"))}
assert int(summ[("agent", "a", "")]["read_ios"]) == 0, summ
assert int(summ[("agent", "b", "")]["write_ios"]) == 0, summ
assert not any(k[0] == "path" and k[2].endswith(d2) for k in summ), sorted(summ)
print(f"  {d0}: {tot[d0]}; {d1}: {tot[d1]}; {d2}: idle")
PY
	fail "roles: device counters"
echo "4. inventory --targets: a drive reached twice from one agent is a path list"
"$LOCKSTEP" inventory --targets -o - "$TMP/two-paths.yaml" >"$TMP/targets.yaml" ||
	fail "inventory --targets failed"
grep -qF "      a: [\"$p0\", \"$p1\"]" "$TMP/targets.yaml" ||
	fail "inventory --targets: no path list for a: $(cat "$TMP/targets.yaml")"
{
	printf 'lockstep: 1\nname: from-inventory\nagents:\n  - {name: a, address: "tcp://127.0.0.1:%s"}\n' "$pa"
	cat "$TMP/targets.yaml"
	printf 'phases:\n  - {name: r, workload: {rw: randread, runtime: 1s}}\n'
} >"$TMP/inv-plan.yaml"
"$LOCKSTEP" validate --quiet "$TMP/inv-plan.yaml" || fail "inventory --targets: does not validate"
echo "ports: ok"
