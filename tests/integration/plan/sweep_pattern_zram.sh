#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A compressibility sweep on a compressing block device: zram, which keeps what is written
# compressed in memory and says how much it stores (/sys/block/zramN/mm_stat: orig_data_size,
# compr_data_size). One agent writes the same 16 MiB region of a zram device the test adds, once
# per point of `sweep: {pattern: [random, compressible=75, compressible=50, compressible=25],
# iodepth: [1, 4]}`, and a collector of its config reads mm_stat around each point (telemetry
# every: point).
# Expect: the points' labels name the axis (pattern=compressible=50), and so do the report's
# curves (one per value), each point leaves the
# device holding the region's 16 MiB, and the stored (compressed) size falls with N as the
# pattern promises: within 6 points of N% of the data (random: at least 94%).
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd "$PY"
command -v modprobe >/dev/null 2>&1 && modprobe zram 2>/dev/null
[ -w /sys/class/zram-control/hot_add ] || skip "no zram in this kernel (/sys/class/zram-control)"

id=$(cat /sys/class/zram-control/hot_add) || skip "zram: hot_add failed"
dev=/dev/zram$id
on_exit "echo $id >/sys/class/zram-control/hot_remove"
on_exit "echo 1 >/sys/block/zram$id/reset"
echo 32M >"/sys/block/zram$id/disksize" || fail "zram$id: disksize"
udevadm settle 2>/dev/null || true
[ -b "$dev" ] || fail "$dev is not a block device"

cat >"$TMP/mm_stat.sh" <<SH
#!/bin/sh
# orig_data_size and compr_data_size of zram$id, as JSON
read -r orig compr rest </sys/block/zram$id/mm_stat
printf '{"orig": %s, "compr": %s}\n' "\$orig" "\$compr"
SH
chmod +x "$TMP/mm_stat.sh"
printf 'collectors:\n  zram: ["%s"]\n' "$TMP/mm_stat.sh" >"$TMP/agent.yaml"
port=$(free_port)
start_agent a "$port" --allow-write "$dev" --config "$TMP/agent.yaml"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: compressibility
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: z, paths: {a: "$dev"}}
phases:
  - name: comp
    workload: {rw: write, bs: 128k, size: 16m, bytes: 16m, interval: 100ms}
    sweep: {pattern: [random, compressible=75, compressible=50, compressible=25], iodepth: [1, 4]}
    telemetry: {collect: [zram], every: point}
YAML
timeout 60 "$LOCKSTEP" run --quiet "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 ||
	fail "run: $(tail -5 "$TMP/run.log")"

"$PY" - "$TMP/res" <<'PY' || fail "the stored size does not follow the pattern"
import csv, json, sys
res = sys.argv[1]
labels = {int(r["point"]): r["label"] for r in csv.DictReader(open(res + "/summary.csv"))
          if r["phase"] == "comp" and r["agent"] == "all"}
want = [100, 75, 50, 25]
names = ["pattern=random"] + ["pattern=compressible=%d" % n for n in want[1:]]
assert [labels[i] for i in range(8)] == [
    "%s iodepth=%d" % (p, qd) for p in names for qd in (1, 4)], labels
stored = []
for i, n in enumerate(want):  # after the second point of each pattern (iodepth=4)
    st = json.load(open("%s/telemetry/a/comp-p%d-after.json" % (res, 2 * i + 1)))["zram"]
    assert st["orig"] == 16 << 20, (names[i], st)
    pct = 100.0 * st["compr"] / st["orig"]
    print("  %-24s stored %5.1f%% (%d of %d bytes)" % (names[i], pct, st["compr"], st["orig"]))
    assert abs(pct - n) <= 6 or (n == 100 and pct >= 94), (names[i], pct)
    stored.append(st["compr"])
assert all(a > b for a, b in zip(stored, stored[1:])), stored
PY
ok "zram stores less as the pattern compresses more, each point near its N%"

"$LOCKSTEP" report --json --no-plots "$TMP/res" >"$TMP/report.json" 2>"$TMP/report.err" ||
	fail "report: $(cat "$TMP/report.err")"
"$PY" - "$TMP/report.json" <<'PY' || fail "the report's curves do not name the pattern"
import json, sys
ph = json.load(open(sys.argv[1]))["phases"][0]
curves = sorted(h["curve"] for h in ph["headlines"])
print("  curves:", curves)
for n in ("random", "compressible=75", "compressible=50", "compressible=25"):
    assert sum(c.endswith(" pattern=" + n) for c in curves) == 1, (n, curves)
PY
ok "the report's latency-vs-IOPS curves are one per pattern, named by it"
