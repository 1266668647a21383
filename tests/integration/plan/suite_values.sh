#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A suite phase swept over the region's size (over-provisioning: the same IOPS test on the
# drive's first 8 MiB, then its first 16 MiB) through two agents driving one "dual-port drive"
# (two loop devices over one file filled with a known byte beforehand). Expect: the suite runs
# its grid once per value, each value with its own rounds and verdict (summary.json, rounds.csv),
# its points labelled with the value; the block layer's bios, in the order they were queued,
# are first the 8 MiB value's (as many sectors as its points' device counters say, every one
# below 8 MiB), then the 16 MiB value's (below 16 MiB, some past 8 MiB); and the file past
# 16 MiB still holds the known byte.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd "$PY" losetup

back=$(mk_backing 32M)
"$PY" -c "import sys; open(sys.argv[1], 'r+b').write(b'\xab' * (32 << 20))" "$back"
DA=$(mk_loop "$back")
DB=$(mk_loop "$back")
PA=$(free_port)
PB=$(free_port)
start_agent a "$PA" --allow-write "$DA"
start_agent b "$PB" --allow-write "$DB"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: suite-values
agents:
  - {name: a, address: "tcp://127.0.0.1:$PA"}
  - {name: b, address: "tcp://127.0.0.1:$PB"}
targets:
  - {name: drive, paths: {a: "$DA", b: "$DB"}}
defaults: {interval: 100ms}
phases:
  - name: op
    suite: snia-iops
    workload: {jobs: 1, iodepth: 4}
    sweep: {size: [8m, 16m], bs: [64k], rwmixread: [0]}
    round: {duration: 300ms}
    steady: {window: 2, max_rounds: 2}
YAML
"$LOCKSTEP" validate "$TMP/plan.yaml" >"$TMP/validate.out" 2>&1 ||
	fail "the plan does not validate: $(tail -3 "$TMP/validate.out")"
grep -q "the suite's whole grid once per value: 2 values, first size=8m, last size=16m" \
	"$TMP/validate.out" || fail "validate does not name the values: $(cat "$TMP/validate.out")"

# The bios queued to both loop devices, in order, through the block_bio_queue tracepoint.
tr=/sys/kernel/tracing inst=""
if [ ! -d "$tr/events" ] && mount -t tracefs nodev "$tr" 2>/dev/null; then
	on_exit "umount $tr"
fi
if [ -d "$tr/events/block/block_bio_queue" ] && mkdir "$tr/instances/lst-sv-$$" 2>/dev/null; then
	inst="$tr/instances/lst-sv-$$"
	on_exit "echo 0 > $inst/events/block/block_bio_queue/enable; rmdir $inst"
	echo 8192 >"$inst/buffer_size_kb"
	devno() { local mm; read -r -a mm < <(stat -c '%t %T' "$1"); echo $(((16#${mm[0]} << 20) | 16#${mm[1]})); }
	echo "dev == $(devno "$DA") || dev == $(devno "$DB")" >"$inst/events/block/block_bio_queue/filter"
	echo 1 >"$inst/events/block/block_bio_queue/enable"
else
	echo "note: no block_bio_queue tracepoint here; the order of the values' bios is not checked"
fi
timeout 60 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 ||
	fail "run: $(tail -20 "$TMP/run.log")"
if [ -n "$inst" ]; then
	echo 0 >"$inst/events/block/block_bio_queue/enable"
	cp "$inst/trace" "$TMP/bios.trace"
fi

"$PY" - "$TMP/res" <<'PY' || fail "the values' verdicts, rounds or labels are wrong"
import csv, json, sys
res = sys.argv[1]
tests = [t for t in json.load(open(res + "/summary.json"))["tests"] if t["phase"] == "op"]
assert [t["test"] for t in tests] == ["iops size=8m", "iops size=16m"], tests
assert [t["value"] for t in tests] == ["size=8m", "size=16m"], tests
for t in tests:
    assert t["rounds"] == 2 and t["verdict_text"], t
    print("  %s: %s" % (t["test"], t["verdict_text"]))
rounds = [(r["test"], int(r["round"])) for r in csv.DictReader(open(res + "/rounds.csv"))
          if r["phase"] == "op"]
assert rounds == [("iops size=8m", 1), ("iops size=8m", 2), ("iops size=16m", 1),
                  ("iops size=16m", 2)], rounds
labels = [r["label"] for r in csv.DictReader(open(res + "/summary.csv"))
          if r["phase"] == "op" and r["agent"] == "all"]
assert [l.split(" round")[0].split(": ")[-1] for l in labels] == \
    ["size=8m bs=64k rwmixread=0"] * 2 + ["size=16m bs=64k rwmixread=0"] * 2, labels
# the first value's matrix is the run's matrix.csv, the second's named for its value
for n in ("matrix.csv", "matrix-op-size=16m.csv"):
    assert next(csv.reader(open(res + "/" + n)))[:2] == ["bs", "0/100"], n
PY
ok "one verdict, two rounds rows and labelled points per value, and a matrix each"
"$LOCKSTEP" report "$TMP/res" >"$TMP/report.txt" 2>&1 || fail "report: $(tail -5 "$TMP/report.txt")"
grep -q "test iops size=8m (iops): " "$TMP/report.txt" &&
	grep -q "test iops size=16m (iops): " "$TMP/report.txt" ||
	fail "the report does not give each value's verdict: $(cat "$TMP/report.txt")"

"$PY" - "$TMP/res" "$back" "$TMP/bios.trace" <<'PY' || fail "a value wrote outside its region"
import csv, os, re, sys
res, back, trace = sys.argv[1:4]
M = 1 << 20
# each value's sectors written, by the loop devices' own counters per point (devstats.csv)
labels = {int(r["point"]): r["label"] for r in csv.DictReader(open(res + "/summary.csv"))
          if r["phase"] == "op" and r["agent"] == "all"}
per = {"8m": 0, "16m": 0}
for r in csv.DictReader(open(res + "/devstats.csv")):
    if r["phase"] == "op":
        per[re.search(r"size=(\d+m)", labels[int(r["point"])]).group(1)] += int(r["write_sectors"])
assert per["8m"] > 0 and per["16m"] > 0, per
data = open(back, "rb").read()
assert data[16 * M:] == b"\xab" * (16 * M), "written past the 16 MiB region"
assert data[8 * M:16 * M] != b"\xab" * (8 * M), "nothing written between 8 and 16 MiB"
print("  sectors written: size=8m %d, size=16m %d; the file past 16 MiB untouched" %
      (per["8m"], per["16m"]))
if not os.path.exists(trace):
    sys.exit(0)
ev = re.compile(r"block_bio_queue: \d+,\d+ (\S+) (\d+) \+ (\d+)")
bios = []
for line in open(trace):
    m = ev.search(line)
    if m and "W" in m.group(1) and int(m.group(3)):
        bios.append((int(m.group(2)), int(m.group(3))))
assert sum(n for _, n in bios) == per["8m"] + per["16m"], (sum(n for _, n in bios), per)
done, first = 0, []
while done < per["8m"]:
    first.append(bios[len(first)])
    done += first[-1][1]
assert done == per["8m"], "the 8 MiB value's bios do not end where its sectors do"
rest = bios[len(first):]
assert all((s + n) * 512 <= 8 * M for s, n in first), "the 8 MiB value wrote past 8 MiB"
assert all((s + n) * 512 <= 16 * M for s, n in rest), "the 16 MiB value wrote past 16 MiB"
assert any((s + n) * 512 > 8 * M for s, n in rest), "the 16 MiB value stayed in 8 MiB"
print("  bios in order: %d of the 8 MiB value below 8 MiB, then %d of the 16 MiB value below"
      " 16 MiB" % (len(first), len(rest)))
PY
ok "each value wrote inside its own region only: device counters, queued bios and the file"
"$PY" "$(dirname "$0")/../check_consistency.py" "$TMP/res" >"$TMP/cc.out" 2>&1 ||
	fail "results folder inconsistent: $(tail -5 "$TMP/cc.out")"
finish "a suite's grid runs once per region size, each value with its verdict and its region"
