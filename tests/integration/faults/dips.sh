#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A throughput dip is not a failover. Agents a and b drive two loop devices over one file (the
# two ports of one drive); b runs in a cgroup v1 blkio group. While the run goes, the test itself
# (not the plan: no event, no hook) throttles b's device to 500 write IOPS for three intervals,
# about a quarter of b's rate, each time b's rows of a phase pass interval 3, and lifts it three
# intervals later: a slower port with no error, no timeout (io_timeout 2s) and no stalled I/O.
# Expect, in phase `dip`: no failover window anywhere (summary.json, report text, --json and
# HTML), and b's dip in its own section, with the threshold that found it; in phase `quiet`,
# the same slowdown with `failover: {dips: false}`: neither a failover nor a dip. The folder
# passes check_consistency.py and check_merge.py.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup lsblk

back=$(mk_backing 256M)
da=$(mk_loop "$back")
db=$(mk_loop "$back")
mm=$(lsblk -dno MAJ:MIN "$db" | tr -d ' ')
blkio_group dips
on_exit "echo '$mm 0' >'$CG/blkio.throttle.write_iops_device'"
pa=$(free_port)
start_agent a "$pa" --allow-write "/dev/loop*"
pb=$(free_port)
AGENT_WRAP="$CG_WRAP" start_agent b "$pb" --allow-write "/dev/loop*"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: dips
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: drive, paths: {a: "$da", b: "$db"}}
defaults: {interval: 500ms, rw: randwrite, bs: 4k, iodepth: 8, rate_iops: 4000, runtime: 4500ms,
           on_io_error: continue, io_timeout: 2s}
phases:
  - name: dip
  - name: quiet
    failover: {dips: false}
YAML
"$LOCKSTEP" validate --quiet "$TMP/plan.yaml" || fail "the plan does not validate"
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" --quiet >"$TMP/run.out" 2>&1 &
run=$!
on_exit "kill $run 2>/dev/null"

# b_at PHASE K: wait until timeseries.csv has b's row of PHASE for interval K or later.
b_at() {
	for _ in $(seq 400); do
		"$PY" - "$TMP/res/timeseries.csv" "$1" "$2" <<'PY' && return 0
import csv, sys
try:
    rows = list(csv.DictReader(open(sys.argv[1])))
except OSError:
    sys.exit(1)
sys.exit(0 if any(r["phase"] == sys.argv[2] and r["agent"] == "b" and r["scope"] == "agent"
                  and int(r["interval"]) >= int(sys.argv[3]) for r in rows) else 1)
PY
		kill -0 $run 2>/dev/null || fail "the run ended before phase $1 interval $2: $(cat "$TMP/run.out")"
		sleep 0.05
	done
	fail "b never reached interval $2 of phase $1"
}
for ph in dip quiet; do
	b_at $ph 3
	echo "$mm 500" >"$CG/blkio.throttle.write_iops_device"
	b_at $ph 6
	echo "$mm 0" >"$CG/blkio.throttle.write_iops_device"
done
wait $run || fail "the run failed: $(cat "$TMP/run.out")"
"$PY" "$LST_SRC/tests/integration/check_consistency.py" "$TMP/res" >/dev/null || fail "the folder is not consistent"
"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/res" >/dev/null || fail "merged percentiles differ"

"$PY" - "$TMP/res" <<'PY' || fail "summary.json does not tell the dip from a failover"
import csv, json, statistics, sys
res = sys.argv[1]
rows = [r for r in csv.DictReader(open(f"{res}/timeseries.csv"))
        if r["agent"] == "b" and r["scope"] == "agent"]
for ph in ("dip", "quiet"):
    b = [r for r in rows if r["phase"] == ph]
    iops = [round(float(r["write_iops"])) for r in b]
    print(f"  {ph}: b's IOPS {iops}, timeouts {sum(int(r['timeouts'] or 0) for r in b)}, "
          f"oldest in flight {max(float(r['oldest_inflight_us'] or 0) for r in b) / 1e3:.1f} ms")
    # the slowdown happened: b fell below half its own median at least once
    assert min(iops) < 0.5 * statistics.median(iops[:3]), (ph, iops)
pts = json.load(open(f"{res}/summary.json"))["points"]
fo = [(p["phase"], p.get("agent"), p["failover"]) for p in pts if p.get("failover")]
assert not fo, f"a failover window in a run without a fault: {fo}"
dips = [(p["agent"], d) for p in pts if p["phase"] == "dip" for d in p.get("dips") or []]
for who, d in dips:
    print(f"  dip of {who}: {d['start_t_s']:.1f} .. {d['end_t_s']:.1f} s, {d['ios']} I/Os, "
          f"below {d['below_pct']}% of {d['baseline_iops']:.0f} IOPS")
bd = [d for who, d in dips if who == "b"]
assert len(bd) >= 1, dips
assert all(d["below_pct"] == 50 and d["ios"] > 0 and d["lat"]["p99_us"] > 0 for d in bd), bd
assert not any(p.get("dips") for p in pts if p["phase"] == "quiet"), "dips: false kept dips"
PY
"$LOCKSTEP" report --no-plots "$TMP/res" >"$TMP/report.txt" || fail "report failed"
sed -n '/^phase dip/,$p' "$TMP/report.txt"
grep -E "^ +failover:" "$TMP/report.txt" >/dev/null && fail "the report has a failover line: $(grep failover "$TMP/report.txt")"
# the section's heading, then its lines (a's may come first: a can wait behind b's writes)
sed -n '/^phase dip/,/^phase quiet/p' "$TMP/report.txt" |
	awk -v h="  throughput dips (no evidence of a path fault; below 50% of the path's median IOPS before it, for 1 interval or more):" \
		'$0 == h { s = 1; next } s && /^    point / { print; next } { s = 0 }' |
	grep -E "^    point 0: b .* median before [0-9,]+ IOPS$" >/dev/null ||
	fail "phase dip has no section of throughput dips with b's: $(cat "$TMP/report.txt")"
sed -n '/^phase quiet/,$p' "$TMP/report.txt" | grep "throughput dips" >/dev/null &&
	fail "phase quiet reports dips despite dips: false"
"$LOCKSTEP" report --no-plots --json "$TMP/res" >"$TMP/report.json" || fail "report --json failed"
"$PY" - "$TMP/report.json" <<'PY' || fail "report --json does not tell the dip from a failover"
import json, sys
phases = {p["phase"]: p for p in json.load(open(sys.argv[1]))["phases"]}
pts = phases["dip"]["points"]
assert not any("failover" in p for ph in phases.values() for p in ph["points"]), phases
assert any(d["agent"] == "b" for p in pts for d in p.get("dips", [])), pts
PY
html="$TMP/report.html"
"$LOCKSTEP" report --no-plots --html="$html" "$TMP/res" >/dev/null || fail "report --html failed"
grep "Failover windows" "$html" >/dev/null && fail "the HTML page lists a failover window"
sed -n '/<h3>Throughput dips<\/h3>/,/<\/ul>/p' "$html" | grep -E "^<li>b .*median before" >/dev/null ||
	fail "the HTML page has no Throughput dips section with b's"
ok "a slower port without a fault is a throughput dip in its own section, never a failover; dips: false leaves it out"
