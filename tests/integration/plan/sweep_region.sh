#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A region sweep (size x offset: a smaller region as over-provisioning) through the real
# binaries: one agent writes a loop device over a file filled with a known byte beforehand, one
# sequential 2 MiB per point (a 1 MiB region twice over). Expect: each point's label names its
# region (offset=1m size=2m), the block layer counts exactly those bytes written (devstats.csv
# per point, /sys/block/*/stat over the run), every region is rewritten and every byte outside
# them is the known byte still.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd "$PY" losetup

back=$(mk_backing 16M)
"$PY" -c "import sys; open(sys.argv[1], 'r+b').write(b'\xab' * (16 << 20))" "$back"
dev=$(mk_loop "$back")
port=$(free_port)
start_agent a "$port" --allow-write "$dev"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: region
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: t, paths: {a: "$dev"}}
phases:
  - name: op
    workload: {rw: write, bs: 64k, iodepth: 4, pattern: random, interval: 100ms, bytes: 2m}
    sweep: {offset: [1m, 4m, 8m], size: [1m, 2m]}
YAML
before=$(devstat "$dev")
timeout 60 "$LOCKSTEP" run --quiet "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 ||
	fail "run: $(tail -5 "$TMP/run.log")"
after=$(devstat "$dev")
written=$(($(echo "$after" | cut -d' ' -f6) - $(echo "$before" | cut -d' ' -f6)))
# 6 points of 2 MiB, in 512-byte sectors
[ "$written" -eq $((6 * 4096)) ] || fail "the device counted $written sectors written"
ok "the block layer counted exactly the points' 12 MiB written"

"$PY" - "$back" "$TMP/res" <<'PY' || fail "a point wrote outside its region"
import csv, sys
data = open(sys.argv[1], "rb").read()
M = 1 << 20
labels, sectors = {}, {}
for row in csv.DictReader(open(sys.argv[2] + "/summary.csv")):
    if row["phase"] == "op" and row["agent"] == "all":
        labels[int(row["point"])] = row["label"]
for row in csv.DictReader(open(sys.argv[2] + "/devstats.csv")):
    if row["phase"] == "op":
        p = int(row["point"])
        sectors[p] = sectors.get(p, 0) + int(row["write_sectors"])
want = [(o, s) for o in (1, 4, 8) for s in (1, 2)]
assert [labels[i] for i in range(6)] == ["offset=%dm size=%dm" % w for w in want], labels
print("  labels:", ", ".join(labels[i] for i in range(6)))
# each point's own counters: its 2 MiB, no more
for i, (o, s) in enumerate(want):
    assert sectors.get(i) == 2 * M // 512, (labels[i], sectors.get(i))
inside = [False] * (16 * M // 4096)
for o, s in want:
    for b in range(o * M // 4096, (o + s) * M // 4096):
        inside[b] = True
for b, ins in enumerate(inside):
    blk = data[b * 4096:(b + 1) * 4096]
    if ins:
        assert blk != b"\xab" * 4096, ("region block not written", b * 4096)
    else:
        assert blk == b"\xab" * 4096, ("written outside every region", b * 4096)
PY
ok "each point wrote its own region only: devstats.csv per point, the file outside untouched"
