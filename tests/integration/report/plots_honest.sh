#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Plots that cannot mislead, read from the gnuplot scripts (text: datablocks and plot commands)
# of a real run on loop devices, two agents on the two "ports" (loop devices) of one file, drawn
# by the real gnuplot:
#
# 1. a 128 KiB sequential phase gets a MB/s headline, not "IOPS at p99 < 1 ms" (text and JSON);
# 2. a 70/30 mix draws read and write p99 as lines of their own, from the same numbers as
#    summary.csv, in the latency-vs-IOPS plot and in the time series;
# 3. the latency-vs-IOPS title gives the figure of the percentile whose crossing it circles;
# 4. a sweep over ports [b], [a], [a, b] is drawn as bars with their values, the key naming the
#    sets as the plan does, no tick for the unnamed workload, and no latency-vs-IOPS curve (nor
#    one in a comparison), for the run and for each of its two targets; b's lines in the time series break where b took
#    no part (ports=a);
# 5. the SVGs are drawn at the width the HTML page shows them, with no text under 10 px;
# 6. on a synthetic snia-iops folder (make_results.py): the matrix on a linear axis with a value
#    on every bar and the verdict in its title, and the suite's time series split per test and
#    round.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup gnuplot
# bad WHAT: one check failed; the others still run, so one run names every defect.
failed=""
bad() { echo "BAD: $*" >&2; failed="$failed${failed:+; }$*"; }

back=$(mk_backing 256M)
p0=$(mk_loop "$back")
p1=$(mk_loop "$back")
back2=$(mk_backing 256M)
p2=$(mk_loop "$back2")
p3=$(mk_loop "$back2")
pa=$(free_port)
start_agent a "$pa" --allow-write "/dev/loop*"
pb=$(free_port)
start_agent b "$pb" --allow-write "/dev/loop*"

# Short points with a ramp: 3 rows each, so b's missing rows are no longer than the gaps
# between points that every line bridges.
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: plots-honest
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - name: drive
    paths: {a: "$p0", b: "$p1"}
  - name: drive2
    paths: {a: "$p2", b: "$p3"}
defaults: {interval: 500ms}
phases:
  - name: seq128
    workload: {rw: read, bs: 128k, direct: true}
    sweep: {iodepth: [1, 4]}
    round: {ramp: 500ms, duration: 1s}
  - name: mix
    workload: {rw: randrw, rwmixread: 70, bs: 4k, direct: true}
    sweep: {iodepth: [1, 32]}
    round: {ramp: 500ms, duration: 1s}
  - name: ports
    workload: {rw: randread, bs: 4k, iodepth: 4, direct: true}
    sweep: {ports: [[b], [a], [a, b]]}
    round: {ramp: 500ms, duration: 1500ms}
YAML
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/r" --quiet || fail "run failed"

# A limit between the mix's p99 at QD 1 and at QD 32, so its p99 curve crosses it.
limit=$("$PY" - "$TMP/r/summary.csv" <<'PY'
import csv, math, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["phase"] == "mix" and r["scope"] == "all"]
p99 = sorted(float(r["lat_p99_us"]) for r in rows)
assert len(p99) == 2 and p99[1] > p99[0], p99
print("%dus" % max(int(math.sqrt(p99[0] * p99[1])), int(p99[0]) + 1))
PY
) || fail "the mix's p99 does not rise with depth"
"$LOCKSTEP" report "$TMP/r" -o "$TMP/plots" --limit "$limit" >"$TMP/report.txt" 2>"$TMP/report.err" ||
	fail "report failed: $(cat "$TMP/report.err")"
"$LOCKSTEP" report "$TMP/r" --json >"$TMP/report.json" 2>/dev/null || fail "report --json failed"
[ ! -s "$TMP/report.err" ] || fail "report warned: $(cat "$TMP/report.err")"

echo "1. a 128 KiB sequential phase: a MB/s headline"
"$PY" - "$TMP/report.txt" "$TMP/report.json" "$TMP/r/summary.csv" <<'PY' || bad "seq128's headline"
import csv, json, re, sys
text = open(sys.argv[1]).read()
section = text[text.index("phase seq128"):text.index("phase mix")]
assert "IOPS at" not in section, section
line = [l for l in section.splitlines() if "MB/s:" in l]
assert len(line) == 1, section
best = max(float(r["read_mbps"]) for r in csv.DictReader(open(sys.argv[3]))
           if r["phase"] == "seq128" and r["scope"] == "all")
shown = float(re.search(r"MB/s: ([\d,]+)", line[0]).group(1).replace(",", ""))
assert abs(shown - best) <= 0.5, (shown, best)
(ph,) = [p for p in json.load(open(sys.argv[2]))["phases"] if p["phase"] == "seq128"]
(h,) = ph["headlines"]
assert "p99" not in h and abs(h["mbps"]["mbps"] - best) < 0.01, h
print("  " + line[0].strip())
PY

echo "2. read and write p99 as lines of their own in a 70/30 mix"
"$PY" - "$TMP/plots" "$TMP/r/summary.csv" "$TMP/r/timeseries.csv" <<'PY' || bad "read/write lines"
import csv, re, sys
plots, summary, ts = sys.argv[1:4]
def blocks(path):
    """{name: [row lines]} of a gnuplot script's datablocks, comments dropped."""
    out, cur = {}, None
    for l in open(path).read().splitlines():
        m = re.match(r"^(\$\w+) << EOD$", l)
        if m:
            cur = out.setdefault(m.group(1), [])
        elif l == "EOD":
            cur = None
        elif cur is not None and not l.startswith("#"):
            cur.append(l)
    return out
gp = open(f"{plots}/lat_vs_iops_mix.gp").read()
assert re.search(r"\$g0 u 1:7 w lp", gp) and re.search(r"\$g0 u 1:8 w lp", gp), "no r/w lines"
assert 'title "read p99"' not in gp and 't "read p99"' in gp and 't "write p99"' in gp
rows = [r for r in csv.DictReader(open(summary)) if r["phase"] == "mix" and r["scope"] == "all"]
want = sorted((float(r["read_lat_p99_us"]), float(r["write_lat_p99_us"])) for r in rows)
got = []
for l in blocks(f"{plots}/lat_vs_iops_mix.gp")["$g0"]:
    f = re.findall(r'"[^"]*"|\S+', l)
    assert len(f) == 8, l
    got.append((float(f[6]), float(f[7])))
got.sort()
for (gr, gw), (wr, ww) in zip(got, want):
    assert abs(gr - wr) <= 1e-6 * wr + 1e-3 and abs(gw - ww) <= 1e-6 * ww + 1e-3, (got, want)
print(f"  lat_vs_iops_mix: read/write p99 {got} (summary.csv {want})")
gp = open(f"{plots}/timeseries_mix.gp").read()
assert re.search(r"\$all u 1:8 axes x1y2", gp) and re.search(r"\$all u 1:9 axes x1y2", gp)
ts_rows = [r for r in csv.DictReader(open(ts)) if r["phase"] == "mix" and r["agent"] == "all"]
alls = blocks(f"{plots}/timeseries_mix.gp")["$all"]
alls = [l.split() for l in alls if l.strip()]
assert len(alls) == len(ts_rows), (len(alls), len(ts_rows))
for l, r in zip(alls, ts_rows):
    assert abs(float(l[7]) - float(r["read_lat_p99_us"])) <= 1e-3 * float(r["read_lat_p99_us"]), (l, r)
    assert abs(float(l[8]) - float(r["write_lat_p99_us"])) <= 1e-3 * float(r["write_lat_p99_us"]), (l, r)
print(f"  timeseries_mix: {len(alls)} rows with read and write p99")
PY

echo "3. the title's percentile is the one circled"
"$PY" - "$TMP/plots/lat_vs_iops_mix.gp" <<'PY' || bad "title and crossing differ"
import re, sys
gp = open(sys.argv[1]).read()
title = re.search(r'^set title "[^\n]*IOPS at (p[\d.]+) <', gp, re.M)
assert title, "no headline in the title"
cross = re.search(r"^\$x0 << EOD\n(.*?)^EOD", gp, re.M | re.S)
assert cross, "no crossing circled"
marked = set(re.findall(r'"(p[\d.]+) ', cross.group(1)))
assert marked == {title.group(1)}, (title.group(1), marked)
print(f"  title {title.group(1)}, circled {sorted(marked)}")
PY

echo "4. port sets: bars with values, named sets, b's line broken where it did no I/O"
[ ! -e "$TMP/plots/lat_vs_iops_ports.gp" ] || bad "a ports sweep drawn as a latency-vs-IOPS curve"
[ ! -e "$TMP/plots/lat_vs_iops_paths_ports.gp" ] || bad "a ports sweep drawn as per-path curves"
# a comparison takes two distinct folders: the run and a copy of it
cp -a "$TMP/r" "$TMP/r2" && rm -f "$TMP/r2/.lock"
"$LOCKSTEP" report "$TMP/r" "$TMP/r2" -o "$TMP/cmp" >"$TMP/cmp.log" 2>&1 ||
	fail "report A B failed: $(tail -5 "$TMP/cmp.log")"
! grep -E "^# ports: " "$TMP/cmp/compare_lat_vs_iops.gp" >/dev/null ||
	bad "a ports sweep drawn as a curve in the comparison"
"$PY" - "$TMP/plots" "$TMP/r/summary.csv" <<'PY' || bad "ports plot"
import csv, re, sys
plots, summary = sys.argv[1:3]
rows = [r for r in csv.DictReader(open(summary)) if r["phase"] == "ports"]
for name, scope, target in (("ports_ports", "all", ""), ("ports_ports_drive", "target", "drive"),
                            ("ports_ports_drive2", "target", "drive2")):
    gp = open(f"{plots}/{name}.gp").read()
    assert "w boxes" in gp and "histogram" not in gp, "not bars"
    titles = re.findall(r' w boxes lc rgb "[^"]+" t "([^"]*)"', gp)
    assert titles == ["b", "a", "a+b"], titles
    assert not re.search(r"xtic\(|set xtics \(", gp), "a tick for the unnamed workload"
    assert 'set ylabel "IOPS"' in gp and 'set ylabel "MB/s"' in gp
    iops = {r["label"]: float(r["read_iops"]) for r in rows
            if r["scope"] == scope and r["target"] == target}
    (row,) = [l for l in re.search(r"^\$iops << EOD\n(.*?)^EOD", gp, re.M | re.S).group(1)
              .splitlines() if not l.startswith("#")]
    f = re.findall(r'"[^"]*"|\S+', row)
    vals, labels = [float(x) for x in f[1:4]], [x.strip('"') for x in f[4:7]]
    for v, lab, want in zip(vals, labels, ("ports=b", "ports=a", "ports=a+b")):
        assert abs(v - iops[want]) <= 1e-6 * iops[want] + 0.01, (v, iops)
        k = float(re.match(r"([\d.]+)k", lab).group(1)) * 1e3
        assert abs(k - v) <= 0.01 * v, (lab, v)
    assert re.search(r" x\d\.\d\d$", labels[2]), labels
    assert re.search(r'w labels .*font small', gp)
    print(f"  {name}: bars {titles}, labels {labels}")
gp = open(f"{plots}/timeseries_ports.gp").read()
b = [m for m in re.finditer(r"^(\$a\d) << EOD\n# (?:path|agent) b\b.*?\n(.*?)^EOD", gp, re.M | re.S)]
assert b, "no line of b"
for m in b:
    lines = m.group(2).split("\n")
    assert "" in lines[:-1], "b's line is drawn through ports=a"
    print(f"  b's line {m.group(1)}: {len([l for l in lines if l])} rows, breaks at {lines.index('')}")
PY

echo "5. SVG text legible at A4 width"
"$PY" - "$TMP/plots" <<'PY' || bad "SVG size"
import glob, re, sys
n = 0
for f in glob.glob(sys.argv[1] + "/*.svg"):
    s = open(f).read()
    w = float(re.search(r'<svg[^>]*viewBox="0 0 ([\d.]+) ', s).group(1))
    sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', s)]
    assert w <= 800, (f, w)
    assert sizes and min(sizes) >= 10, (f, min(sizes))
    n += 1
assert n >= 6, n
print(f"  {n} SVGs, 760 px wide, no text under 10 px")
PY

echo "6. the matrix and a suite's time series (synthetic snia-iops folder)"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$TMP/syn" || fail "make_results.py failed"
"$LOCKSTEP" report "$TMP/syn" >/dev/null 2>"$TMP/syn.err" || fail "report failed: $(cat "$TMP/syn.err")"
"$PY" - "$TMP/syn" <<'PY' || bad "matrix or split time series"
import csv, os, re, sys
d = sys.argv[1]
gp = open(f"{d}/plots/matrix_iops.gp").read()
assert "logscale" not in gp and "w boxes" in gp, "not bars on a linear axis"
assert re.search(r'set title "[^\n]*steady in rounds 3-7: ', gp), "no verdict"
m = list(csv.reader(open(f"{d}/matrix.csv")))
body = re.search(r"^\$m << EOD\n(.*?)^EOD", gp, re.M | re.S).group(1)
rows = [re.findall(r'"[^"]*"|\S+', l) for l in body.splitlines() if not l.startswith("#")]
assert len(rows) == len(m) - 1, (len(rows), len(m))
nmix = len(m[0]) - 1
for r in rows:
    for v, lab in zip(r[1:1 + nmix], r[1 + nmix:]):
        v, lab = float(v), lab.strip('"')
        mult = {"k": 1e3, "M": 1e6}.get(lab[-1], 1)
        shown = float(lab.rstrip("kM")) * mult
        assert abs(shown - v) <= 0.01 * v, (v, lab)
print(f"  matrix_iops: {len(rows)} x {nmix} bars, each labelled")
for name in ("timeseries_tput_bs_1m_write", "timeseries_tput_bs_128k_write",
             "timeseries_iops_iops_round_1", "timeseries_iops_iops_round_7"):
    assert os.path.getsize(f"{d}/plots/{name}.svg") > 0, name
gp = open(f"{d}/plots/timeseries_iops_iops_round_3.gp").read()
assert "test iops round 3" in gp
print("  time series per test (tput) and per round (iops)")
PY
[ -z "$failed" ] || fail "$failed"
ok "plots that cannot mislead"
