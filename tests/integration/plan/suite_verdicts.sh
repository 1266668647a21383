#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a suite's outputs say about its figures, from one short real run on two agents driving one
# "dual-port drive" (two loop devices over one file): a snia-iops whose window cannot pass (limits
# of 0.001%, 2 rounds) says NOT steady after 2 rounds (round limit) in matrix.csv, matrix.md, the
# report's text, --json and HTML, and the run's closing table has one row per point, its window
# average, not one per round; a WSAT ended by its capacity stop says so and how many bytes it
# wrote; a purge says how many bytes it discarded (against the block layer's own discard
# counters) instead of a row of zeros, and a precondition what it wrote.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

back=$(mk_backing 64M)
da=$(mk_loop "$back"); db=$(mk_loop "$back")
pa=$(free_port); pb=$(free_port)
start_agent a "$pa" --allow-write "$da"
start_agent b "$pb" --allow-write "$db"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: suite-verdicts
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: drive, paths: {a: "$da", b: "$db"}}
defaults: {interval: 100ms}
phases:
  - name: precondition
    suite: precondition
    workload: {iodepth: 8}
    stop: {capacity: 0.5x}
  - name: purge
    suite: purge
  - name: iops
    suite: snia-iops
    workload: {jobs: 1, iodepth: 4}
    sweep: {rwmixread: [100, 0], bs: [64k, 4k]}
    round: {duration: 200ms}
    steady: {window: 2, max_rounds: 2, data_excursion: 0.001, slope_excursion: 0.001}
  - name: wsat
    suite: snia-wsat
    workload: {jobs: 1, iodepth: 8}
    round: {duration: 300ms}
    steady: {window: 2, max_rounds: 50}
    stop: {capacity: 1x}
YAML
discards() { # sectors discarded through both loop devices (field 14 of the block layer's stat)
	local s=0 d
	for d in "$da" "$db"; do s=$((s + $(awk '{print $14}' "/sys/block/$(basename "$d")/stat"))); done
	echo "$s"
}
disc0=$(discards)
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 ||
	fail "run failed: $(tail -20 "$TMP/run.log")"
disc1=$(discards)
"$LOCKSTEP" report "$TMP/res" --no-plots >"$TMP/report.txt" 2>&1 || fail "report failed"
"$LOCKSTEP" report "$TMP/res" --no-plots --json >"$TMP/report.json" 2>&1 || fail "report --json failed"
"$LOCKSTEP" report "$TMP/res" --no-plots --html="$TMP/report.html" >/dev/null 2>&1 ||
	fail "report --html failed"

"$PY" - "$TMP" "$((disc1 - disc0))" <<'PY' || fail "the outputs do not say what the suites did"
import csv, html, json, os, re, sys
tmp, discarded_sectors = sys.argv[1], int(sys.argv[2])
res = os.path.join(tmp, "res")
cap = 64 << 20
NOT = "NOT steady after 2 rounds (round limit)"
summary = json.load(open(os.path.join(res, "summary.json")))
tests = {t["phase"]: t for t in summary["tests"]}
points = [p for p in summary["points"] if p["agent"] == "all"]

# snia-iops: the verdict and its window in the summary, the matrix files and every report.
t = tests["iops"]
assert t["steady"] is False and t["steady_required"] is True, t
assert t["stop_reason"] == "round_limit" and t["verdict_text"] == NOT, t
assert (t["window_first"], t["window_last"]) == (1, 2), t
m = list(csv.DictReader(open(os.path.join(res, "matrix.csv"))))
assert [r["steady"] for r in m] == ["false", "false"] and {r["window"] for r in m} == {"1-2"}, m
# a cell is its point's window average, the same figure summary.json's test gives
win = {p["label"]: p for p in t["points"]}
for r in m:
    for mix, col in (("100", "100/0"), ("0", "0/100")):
        label = f"bs={'64k' if r['bs'] == '65536' else '4k'} rwmixread={mix}"
        assert abs(float(r[col]) - win[label]["iops"]) <= 0.1, (r, win[label])
md = open(os.path.join(res, "matrix.md")).read()
assert "window average of rounds 1-2: " + NOT in md, md
text = open(os.path.join(tmp, "report.txt")).read()
assert "each cell: window average of rounds 1-2; " + NOT in text, text
assert "LAST ROUND" in text, "the points table's rounds column says which round it shows"
j = json.load(open(os.path.join(tmp, "report.json")))
mx = j["matrices"][0]
assert mx["phase"] == "iops" and mx["steady"] is False and NOT in mx["verdict"], mx
assert (mx["window_first"], mx["window_last"]) == (1, 2), mx
page = html.unescape(open(os.path.join(tmp, "report.html")).read())
assert re.search(r'<p class="verdict bad" data-steady="false">Each cell: window average of '
                 r'rounds 1-2; ' + re.escape(NOT), page), "the HTML matrix has no verdict"

# The run's closing summary: the suite phase gives its verdict and one row per point (window
# averages), no row per round.
log = open(os.path.join(tmp, "run.log")).read()
sec = log[log.rindex("\nphase iops (snia-iops)\n"):].split("\nphase ", 2)[1].splitlines()
assert sec[1] == "  iops: window average of rounds 1-2; " + NOT, sec
head = next(l for l in sec if l.split()[:2] == ["POINT", "IOPS"])
rows = [l for l in sec if l.startswith("      bs=")]
assert len(rows) == 4 and not any("round" in l for l in rows), sec
end = head.index("IOPS") + len("IOPS")  # right edge of the IOPS column, every figure row
for r in rows:
    assert re.match(r"\s*\d+$", r[:end].split("  ")[-1]) and r[end] == " ", (head, r)
    label = r.rsplit(None, 5)[0].strip()
    assert abs(float(r.split()[-5]) - win[label]["iops"]) <= 0.5, (r, win[label])

# WSAT: ended by the capacity stop, and it says so with the bytes.
w = tests["wsat"]
written = sum(p["write"]["bytes"] for p in points if p["phase"] == "wsat")
assert w["stop_reason"] == "capacity" and w["steady_required"] is False, w
assert w["bytes_written"] == written >= cap, (w["bytes_written"], written)
assert abs(w["capacity_multiple"] - written / cap) < 1e-9, w
stop = re.search(r"stopped: (\d+\.\d)x capacity written \(([^)]+)\)", text)
assert stop and abs(float(stop.group(1)) - written / cap) <= 0.05, text
assert f'data-stop="capacity">stopped: {stop.group(1)}x capacity written ({stop.group(2)})' in page
assert j["phases"][3]["tests"][0]["stop_reason"] == "capacity"

# Purge: the bytes it discarded, which the block layer counted too; no row of zeros.
pg = tests["purge"]
assert pg["did"] == "discard" and pg["bytes_discarded"] == cap, pg
assert pg["capacity_multiple"] == 1.0 and pg["seconds"] > 0 and pg["mbps"] > 0, pg
assert discarded_sectors * 512 == cap, (discarded_sectors, cap)
assert "purge: discarded 64 MiB (1.00x capacity) in " in text, text
purge_txt = text[text.index("phase purge"):text.index("phase iops")]
assert "discard " not in purge_txt.split("purge: discarded")[1], purge_txt
assert re.search(r"\nphase purge \(purge\): 1 point\n  purge: discarded 64 MiB \(1\.00x capacity\)",
                 log), log
assert "purge discard: discarded 64.0 MiB (start skew" in log and " 0 IOPS" not in log, log
assert 'data-did="discard"><strong>purge</strong>: discarded 64 MiB (1.00x capacity)' in page
# Precondition: what it wrote and why it stopped.
pc = tests["precondition"]
assert pc["did"] == "write" and pc["bytes_written"] == cap // 2, pc
assert pc["capacity_multiple"] == 0.5 and pc["stop_reason"] == "capacity", pc
assert "wrote 32 MiB (0.50x capacity)" in text and "stopped: capacity limit" in text, text
print(f"  iops: {t['verdict_text']}; wsat: {stop.group(0)}; purge: {pg['bytes_discarded']} bytes")
PY
ok "matrix files, report text, --json, HTML and the closing table say the verdict, the window and why WSAT stopped; purge and precondition say what they did"
