#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where the tail comes from. Agents a and b drive two loop devices over one file (the two ports
# of one drive), both in one cgroup v1 blkio group. While the run goes, the test throttles a
# port to 20 write IOPS from interval 3 of a phase to interval 6 (500 ms intervals): in phase
# `one` b's port only, in phase `both` both ports at once. `lockstep report --tail-limit 20ms`
# must then say, from the samples' histograms alone, that the p99.9 and the 20 ms exceedances
# of phase one are b's path's (80% or more), in intervals within 3-8 (an I/O counts in the
# interval it completed in: the throttle holds most until it is lifted), on that path alone; and that those of phase two are shared by both paths, each naming the other, in
# the text, --json, the HTML page and tail.csv alike. The folder passes check_consistency.py
# and check_merge.py.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup lsblk

back=$(mk_backing 64M)
da=$(mk_loop "$back")
db=$(mk_loop "$back")
ma=$(lsblk -dno MAJ:MIN "$da" | tr -d ' ')
mb=$(lsblk -dno MAJ:MIN "$db" | tr -d ' ')
blkio_group tail
on_exit "echo '$ma 0' >'$CG/blkio.throttle.write_iops_device'; echo '$mb 0' >'$CG/blkio.throttle.write_iops_device'"
pa=$(free_port)
AGENT_WRAP="$CG_WRAP" start_agent a "$pa" --allow-write "/dev/loop*"
pb=$(free_port)
AGENT_WRAP="$CG_WRAP" start_agent b "$pb" --allow-write "/dev/loop*"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: tail
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: drive, paths: {a: "$da", b: "$db"}}
defaults: {interval: 500ms, rw: randwrite, bs: 4k, iodepth: 4, rate_iops: 1000, runtime: 5s,
           on_io_error: continue, io_timeout: 10s}
phases:
  - name: one
    failover: {dips: false}
  - name: both
    failover: {dips: false}
YAML
"$LOCKSTEP" validate --quiet "$TMP/plan.yaml" || fail "the plan does not validate"
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" --quiet >"$TMP/run.out" 2>&1 &
run=$!
on_exit "kill $run 2>/dev/null"

# at PHASE K: wait until timeseries.csv has the combined row of PHASE for interval K or later
# (its columns by header name; phase, interval and agent come before any quoted label).
at() {
	for _ in $(seq 400); do
		awk -F, -v ph="$1" -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["phase"] == ph && $c["agent"] == "all" && $c["interval"] + 0 >= k { f = 1 }
			END { exit !f }' "$TMP/res/timeseries.csv" 2>/dev/null && return 0
		kill -0 $run 2>/dev/null || fail "the run ended before phase $1 interval $2: $(cat "$TMP/run.out")"
		sleep 0.05
	done
	fail "the run never reached interval $2 of phase $1"
}
throttle() { for m in "${@:2}"; do echo "$m $1" >"$CG/blkio.throttle.write_iops_device"; done; }
at one 2
throttle 20 "$mb"
at one 5
throttle 0 "$mb"
at both 2
throttle 20 "$ma" "$mb"
at both 5
throttle 0 "$ma" "$mb"
wait $run || fail "the run failed: $(cat "$TMP/run.out")"
"$PY" "$LST_SRC/tests/integration/check_consistency.py" "$TMP/res" >/dev/null || fail "the folder is not consistent"
"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/res" >/dev/null || fail "merged percentiles differ"

"$LOCKSTEP" report --no-plots --tail-limit 20ms --html="$TMP/r.html" "$TMP/res" >"$TMP/report.txt" 2>"$TMP/report.err" ||
	fail "report failed: $(cat "$TMP/report.err")"
grep -E "^ +(p99|p99.9|limit) exceedances" "$TMP/report.txt"
"$LOCKSTEP" report --no-plots --json --tail-limit 20ms "$TMP/res" >"$TMP/report.json" || fail "report --json failed"
[ -s "$TMP/res/tail.csv" ] || fail "report wrote no tail.csv"
grep -qx "tail: $TMP/res/tail.csv" "$TMP/report.txt" || fail "the text does not name tail.csv"

"$PY" - "$TMP/report.json" "$TMP/res/tail.csv" "$TMP/report.txt" "$TMP/r.html" "$da" "$db" <<'PY' || fail "the attribution is wrong"
import csv, json, re, sys
rep, tail_csv, txt, html, da, db = sys.argv[1:]
A, B = "a:" + da, "b:" + db
phases = {p["phase"]: p for p in json.load(open(rep))["phases"]}
rows = list(csv.DictReader(open(tail_csv)))
text, page = open(txt).read(), open(html).read()

def th_of(phase, name):
    (pt,) = phases[phase]["points"]
    return next(t for t in pt["tail"] if t["threshold"] == name)

for name in ("p99.9", "limit"):
    t = th_of("one", name)
    top = t["paths"][0]
    print(f"one {name}: {t['ios']:.1f} I/Os over {t['threshold_us']:.0f} us, {top['who']} "
          f"{top['share_pct']:.1f}% intervals {top['intervals']} also {top['also_on']}, {t['verdict']}")
    assert top["who"] == B and top["share_pct"] >= 80, t
    hot = [k for f, l in top["intervals"] for k in range(f, l + 1)]
    assert hot and min(hot) >= 3 and max(hot) <= 8, t
    assert t["verdict"] == "alone" and not top["also_on"], t
    assert t["agents"][0]["who"] == "b" and t["directions"][0]["who"] == "write", t
    # the same in tail.csv: b's path row, and its intervals' rows add up to it
    r = [x for x in rows if x["phase"] == "one" and x["threshold"] == name and x["by"] == "path"]
    whole = next(x for x in r if x["who"] == B and x["interval"] == "")
    per = sum(float(x["ios"]) for x in r if x["who"] == B and x["interval"] != "")
    assert abs(float(whole["ios"]) - per) < 0.01 and whole["verdict"] == "alone", (whole, per)
    assert abs(float(whole["share_pct"]) - top["share_pct"]) < 0.01, whole
    # and in the text, under phase one
    ph = text.split("phase one")[1].split("phase both")[0]
    line = next(l for l in ph.splitlines() if l.strip().startswith(f"{name} exceedances"))
    assert re.search(re.escape(B) + r" \d+% \(intervals? [0-9, -]+\)", line) and "alone" in line, line

t = th_of("both", "limit")
print(f"both limit: {t['ios']:.1f} I/Os, " + ", ".join(
    f"{p['who']} {p['share_pct']:.1f}% {p['intervals']} also {p['also_on']}" for p in t["paths"]))
assert t["verdict"] == "shared", t
shares = {p["who"]: p for p in t["paths"]}
assert shares[A]["share_pct"] >= 10 and shares[B]["share_pct"] >= 10, t
assert B in shares[A]["also_on"] and A in shares[B]["also_on"], t
ph = text.split("phase both")[1]
line = next(l for l in ph.splitlines() if l.strip().startswith("limit exceedances"))
assert "also on" in line and "shared" in line, line
assert re.search(r'<li data-tail="both" data-point="0" data-threshold="limit" data-verdict="shared">', page), "html"
assert re.search(r'<li data-tail="one" data-point="0" data-threshold="p99.9" data-verdict="alone">', page), "html"
PY
ok "tail attribution names the slowed path and its intervals, alone, and a stall of both ports as shared"
