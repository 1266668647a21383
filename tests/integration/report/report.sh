#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# lockstep report on synthetic results folders (make_results.py): the printed report, every plot
# as a parsable SVG and a real PNG with its gnuplot script, --json, -o, the comparison of two
# runs (deltas recomputed here from summary.json), a label with a comma and quotes, a killed
# run, bad input (exit 2, the file and line named), and gnuplot missing from PATH (exit 0, a
# warning, the scripts still written).
. "$(dirname "$0")/../lib.sh"

need_cmd gnuplot
GEN="$LST_SRC/tests/integration/make_results.py"
A="$TMP/before"
B="$TMP/after"
"$PY" "$GEN" "$A" || fail "make_results.py failed"
"$PY" "$GEN" "$B" --variant b || fail "make_results.py --variant b failed"

# check_plots DIR NAME...: NAME.gp non-empty, NAME.svg an SVG document with text in it,
# NAME.png a PNG of a sensible size; and nothing else drawn in DIR.
check_plots() {
	"$PY" - "$@" <<'EOF' || fail "plots in $1 are not right"
import os, struct, sys
import xml.etree.ElementTree as ET

d, names = sys.argv[1], sys.argv[2:]
bad = []
for n in names:
    gp, svg, png = (os.path.join(d, n + e) for e in (".gp", ".svg", ".png"))
    for f in (gp, svg, png):
        if not os.path.isfile(f) or os.path.getsize(f) == 0:
            bad.append("%s: missing or empty" % f)
    if bad:
        continue
    try:
        root = ET.parse(svg).getroot()
    except ET.ParseError as e:
        bad.append("%s: not XML: %s" % (svg, e))
        continue
    if not root.tag.endswith("svg"):
        bad.append("%s: root element is %s" % (svg, root.tag))
    texts = [t.text or "" for t in root.iter() if t.tag.endswith("text")]
    if not any(texts):
        bad.append("%s: no text" % svg)
    shapes = [e for e in root.iter() if e.tag.split("}")[-1] in ("path", "polyline", "rect")]
    if len(shapes) < 10:
        bad.append("%s: only %d shapes" % (svg, len(shapes)))
    with open(png, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        bad.append("%s: not a PNG" % png)
        continue
    w, h = struct.unpack(">II", head[16:24])
    if not (1000 <= w <= 2000 and 500 <= h <= 1200):
        bad.append("%s: %dx%d pixels" % (png, w, h))
drawn = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".svg"))
extra = set(drawn) - set(names)
if extra:
    bad.append("unexpected plots: %s" % sorted(extra))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}

PLOTS=(lat_vs_iops_latiops lat_vs_iops_randrw timeseries_precondition timeseries_latiops
	timeseries_iops timeseries_iops-80 timeseries_tput timeseries_wsat timeseries_hir
	timeseries_randrw steady_latiops_lat-vs-iops steady_iops_iops steady_iops-80_iops
	steady_tput_bs_1m_write steady_tput_bs_128k_write steady_wsat_wsat wsat_wsat hir_hir
	matrix_iops matrix_iops-80
	# suite phases of several tests, or of more than 60 points: per test, and per round
	timeseries_tput_bs_1m_write timeseries_tput_bs_128k_write timeseries_hir_gap_5s
	timeseries_hir_gap_10s timeseries_iops_iops_round_{1..7}
	timeseries_latiops_lat-vs-iops_round_{1..6})

# name LABEL TEST ROUND, in Python: a point's label without the test and round the coordinator
# adds to suite steps ("iops: bs=4k rwmixread=0 round 7" is "bs=4k rwmixread=0").
NAME_PY='
def name(label, test, rnd):
    suffix = " round %d" % rnd
    if rnd <= 0 or not label.endswith(suffix):
        return label
    label = label[: -len(suffix)]
    if test and label.startswith(test + ": ") and len(label) > len(test) + 2:
        return label[len(test) + 2:]
    return "" if label == test else label
'
export NAME_PY

# --- one folder: the report and every plot ----------------------------------------------------
"$LOCKSTEP" report "$A" >"$TMP/report.txt" 2>"$TMP/report.err" ||
	fail "report exited $?: $(cat "$TMP/report.err")"
[ ! -s "$TMP/report.err" ] || fail "report warned: $(cat "$TMP/report.err")"
for want in "run          20261130T060000Z-a1b2" "plan         px05-pts" "status       complete" \
	"-1234.567" "model PX05SRB040" "phase latiops (lat-vs-iops): 24 points" \
	"phase iops (snia-iops): 49 points" "phase randrw: 3 points" \
	"phase iops-80 (snia-iops): 6 points" "phase hir (snia-hir): 8 points" \
	"test lat-vs-iops (iops): steady in rounds 2-6" \
	"test bs=128k write (mbps): NOT steady after 25 rounds (round limit)" \
	"test wsat (write_iops): NOT steady after 60 rounds (steady state reported, not required)" \
	"IOPS matrix, phase iops (matrix.csv;" "IOPS matrix, phase iops-80 (matrix-iops-80.csv;" \
	"plots: 37 drawn in $A/plots"; do
	grep -qF -- "$want" "$TMP/report.txt" || fail "the report lacks '$want'"
done
# The printed points are summary.csv's (agent all; the last round of each point).
"$PY" - "$A" "$TMP/report.txt" <<'EOF' || fail "printed points differ from summary.csv"
import csv, json, os, re, sys
exec(os.environ["NAME_PY"])
rows = [r for r in csv.DictReader(open(sys.argv[1] + "/summary.csv")) if r["agent"] == "all"]
js = [p for p in json.load(open(sys.argv[1] + "/summary.json"))["points"] if p["agent"] == "all"]
text = open(sys.argv[2]).read()
last = {}
for r, p in zip(rows, js):
    assert (r["phase"], int(r["point"]), r["label"]) == (p["phase"], p["point"], p["label"])
    last[(r["phase"], name(r["label"], p["test"], p["round"]))] = r
checked = 0
for (phase, label), r in last.items():
    if phase not in ("randrw", "iops", "precondition"):
        continue
    iops = float(r["read_iops"]) + float(r["write_iops"])
    m = re.search(r"^  %s\s+(?:\d+\s+)?(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$"
                  % re.escape(label or "-"), text, re.M)
    if not m:
        sys.exit("no line for %s %s" % (phase, label))
    got = [float(x) for x in m.groups()]
    want = [round(iops), float(r["read_mbps"]) + float(r["write_mbps"]),
            float(r["lat_mean_us"]), float(r["lat_p99_us"]), float(r["lat_p99_99_us"])]
    for g, w in zip(got, want):
        if abs(g - w) > 0.051 * max(1, abs(w) / 1000) + 0.5:
            sys.exit("%s %s: printed %s, summary.csv %s" % (phase, label, got, want))
    checked += 1
if checked != 1 + 49 + 3:
    sys.exit("checked %d points" % checked)
EOF
check_plots "$A/plots" "${PLOTS[@]}"
grep -q '^[$]g0 << EOD' "$A/plots/lat_vs_iops_latiops.gp" || fail "lat_vs_iops script has no data"
ok "report prints the run, points, verdicts and matrix; ${#PLOTS[@]} plots drawn"

# The scripts are enough to redraw: run one by hand.
rm "$A/plots/matrix_iops.svg" "$A/plots/matrix_iops.png"
(cd "$A/plots" && gnuplot matrix_iops.gp </dev/null) || fail "matrix_iops.gp does not redraw"
check_plots "$A/plots" "${PLOTS[@]}"
ok "a kept script redraws its plot"

# --- --json and -o ----------------------------------------------------------------------------
"$LOCKSTEP" report --json -o "$TMP/out" "$A" >"$TMP/report.json" ||
	fail "report --json exited $?"
"$PY" - "$TMP/report.json" <<'EOF' || fail "report --json is not right"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run_id"] == "20261130T060000Z-a1b2", d["run_id"]
assert [a["clock_offset_us"] for a in d["agents"]] == [-1234.567, 8.25]
ph = {p["phase"]: p for p in d["phases"]}
assert list(ph) == ["precondition", "latiops", "iops", "iops-80", "tput", "wsat", "hir",
                    "randrw"], list(ph)
assert len(ph["iops"]["points"]) == 49 and ph["iops"]["rows"] == 343
t = {x["test"]: x for x in ph["tput"]["tests"]}
assert t["bs=1m write"]["steady"] and not t["bs=128k write"]["steady"]
assert t["bs=128k write"]["max_rounds_hit"] and t["bs=128k write"]["rounds"] == 25
assert len(ph["randrw"]["points"][0]["agents"]) == 2
assert [(m["phase"], m["file"]) for m in d["matrices"]] == [
    ("iops", "matrix.csv"), ("iops-80", "matrix-iops-80.csv")], d["matrices"]
assert d["matrices"][0]["mixes"][0] == "100/0" and len(d["matrices"][0]["rows"]) == 7
w = [t for t in ph["wsat"]["tests"]][0]
assert not w["steady_required"] and not w["steady"], w
assert len(d["plots"]["drawn"]) == 37 and d["plots"]["problem"] is None, d["plots"]
EOF
check_plots "$TMP/out" "${PLOTS[@]}"
ok "--json prints the same; -o puts the plots elsewhere"

# --- two folders: the comparison, by default into a new folder of the current one ------------
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$LOCKSTEP" report "$A" "$B") >"$TMP/compare.txt" 2>"$TMP/compare.err" ||
	fail "report A B exited $?: $(cat "$TMP/compare.err")"
C=$(echo "$TMP"/cwd/compare-*)
[ -d "$C" ] || fail "no ./compare-TIMESTAMP folder: $(ls "$TMP/cwd")"
! ls -d "$B"/compare* 2>/dev/null || fail "the comparison wrote into run B's folder"
for f in compare.csv compare.md compare_matrix-iops.csv compare_matrix-iops-80.csv; do
	[ -s "$C/$f" ] || fail "$C/$f missing"
done
grep -q "randrw / iodepth=16 (only A)" "$TMP/compare.txt" || fail "unmatched point not printed"
"$PY" - "$A" "$B" "$C" <<'EOF' || fail "compare.csv deltas are wrong"
import csv, json, math, os, sys
exec(os.environ["NAME_PY"])
a, b, c = sys.argv[1:4]

def last(d):
    # Like with like: a suite point whose test has a steady-state window is compared
    # by the average of its rounds in that window (the IOPS matrix's figure), others by their
    # last round.
    doc = json.load(open(d + "/summary.json"))
    win = {(t["phase"], t["test"]): (t["window_first"], t["window_last"])
           for t in doc.get("tests", []) if t.get("window_first") and t.get("window_last")}
    out, acc = {}, {}
    for p in doc["points"]:
        if p["agent"] == "all":
            key = (p["phase"], p["test"], name(p["label"], p["test"], p["round"]))
            out[key] = p
            w = win.get((p["phase"], p["test"]))
            if w and p["round"] and w[0] <= p["round"] <= w[1]:
                acc.setdefault(key, []).append(p)
    for key, ps in acc.items():
        avg = lambda f: sum(f(p) for p in ps) / len(ps)
        out[key] = {"iops": avg(lambda p: p["iops"]), "mbps": avg(lambda p: p["mbps"]),
                    "lat": {k: avg(lambda p: p["lat"][k])
                            for k in ("mean_us", "p99_us", "p99_99_us")}}
    return out

def stat(p, s):
    if p is None:
        return None
    return {"iops": p["iops"], "mbps": p["mbps"], "lat_mean_us": p["lat"]["mean_us"],
            "lat_p99_us": p["lat"]["p99_us"], "lat_p99_99_us": p["lat"]["p99_99_us"]}[s]

pa, pb = last(a), last(b)
rows = list(csv.DictReader(open(c + "/compare.csv")))
assert len(rows) == len(set(pa) | set(pb)), (len(rows), len(set(pa) | set(pb)))
for r in rows:
    key = (r["phase"], r["test"], r["label"])
    x, y = pa.get(key), pb.get(key)
    want = "AB" if x and y else "A" if x else "B"
    assert r["match"] == want, (key, r["match"], want)
    for s in ("iops", "mbps", "lat_mean_us", "lat_p99_us", "lat_p99_99_us"):
        va, vb = stat(x, s), stat(y, s)
        for col, v in ((s + "_a", va), (s + "_b", vb)):
            if v is None:
                assert r[col] == "", (key, col, r[col])
            else:
                assert abs(float(r[col]) - v) <= 0.0011 + 1e-9 * v, (key, col, r[col], v)
        ch = r[s + "_b_change_pct"]
        if va is None or vb is None or va == 0:
            assert ch == "", (key, s, ch)
        else:
            assert abs(float(ch) - (vb - va) / va * 100) <= 0.0051, (key, s, ch)
only = {r["label"]: r["match"] for r in rows if r["phase"] == "randrw"}
assert only["iodepth=16"] == "A" and only["iodepth=32"] == "B", only
# a resized drive: 4 KiB random writes 25% faster, latency 20% lower
w = [r for r in rows if r["phase"] == "iops" and r["label"] == "bs=4k rwmixread=0"][0]
assert abs(float(w["iops_b_change_pct"]) - 25) < 0.01, w
# the matrix ratios, cell by cell, one file per snia-iops phase
for m, r in (("matrix.csv", "compare_matrix-iops.csv"),
             ("matrix-iops-80.csv", "compare_matrix-iops-80.csv")):
    ma = list(csv.reader(open(os.path.join(a, m))))
    mb = list(csv.reader(open(os.path.join(b, m))))
    mr = list(csv.reader(open(os.path.join(c, r))))
    # a row per later run (here B) and block size
    assert mr[0] == ["run"] + ma[0] and len(mr) == len(ma), (r, mr[0])
    for ra, rb, rr in zip(ma[1:], mb[1:], mr[1:]):
        assert rr[0] == "B" and float(rr[1]) == float(ra[0])
        for x, y, q in zip(ra[1:], rb[1:], rr[2:]):
            assert abs(float(q) - float(y) / float(x)) < 1e-4, (r, rr[0], x, y, q)
EOF
grep -q '^| phase | point | run | IOPS | change | MB/s |' "$C/compare.md" ||
	fail "compare.md has no table"
grep -q '^## IOPS matrix of phase iops-80, B / A' "$C/compare.md" ||
	fail "compare.md has no matrix ratio"
# every run on each chart: the overlay, each shared phase's IOPS over time, WSAT, the matrices
check_plots "$C" compare_lat_vs_iops compare_wsat_wsat compare_matrix_iops compare_matrix_iops-80 \
	compare_iops_{precondition,latiops,iops,iops-80,tput,wsat,hir,randrw}
"$LOCKSTEP" report --no-plots -o "$TMP/cmp2" "$A" "$B" >/dev/null || fail "report -o A B failed"
[ -s "$TMP/cmp2/compare.csv" ] || fail "-o did not place compare.csv"
ok "compare: matched points, deltas, matrix ratio, overlay plot"

# copy_of DIR: a copy of the results folder $A at DIR, without its plots.
copy_of() {
	cp -r "$A" "$1"
	rm -rf "$1/plots"
}

# --- a quoted label with a comma and quotes; a partial point ----------------------------------
Q="$TMP/quoted"
copy_of "$Q"
sed -i 's/^randrw,0,"iodepth=1",/randrw,0,"iodepth=1, ""fast""",/' "$Q/summary.csv"
"$PY" - "$Q/run.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["phases"]:
    if p["phase"] == "randrw" and p["point"] == 1:
        p["partial"] = True
json.dump(d, open(sys.argv[1], "w"))
EOF
"$LOCKSTEP" report --no-plots "$Q" >"$TMP/quoted.txt" || fail "report on a quoted label failed"
grep -q '^  iodepth=1, "fast"  ' "$TMP/quoted.txt" || fail "the quoted label is not printed right"
grep -q '^phase randrw: 3 points, partial (an agent was lost)$' "$TMP/quoted.txt" ||
	fail "the partial phase is not marked"
grep -q '^  iodepth=4 .*  partial$' "$TMP/quoted.txt" || fail "the partial point is not marked"
ok "quoted CSV fields; partial points marked"

# --- text from the folder never runs a command: gnuplot expands `...` inside "strings" --------
X="$TMP/backquote"
copy_of "$X"
"$PY" - "$X/run.json" "$TMP/pwned" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["plan_name"] = "px05 `touch %s` $(touch %s) `" % (sys.argv[2], sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
EOF
"$LOCKSTEP" report "$X" >"$TMP/bq.txt" 2>"$TMP/bq.err" || fail "report exited $?: $(cat "$TMP/bq.err")"
[ ! -e "$TMP/pwned" ] || fail "a backquoted command in run.json ran while drawing the plots"
grep -q "touch $TMP/pwned" "$X/plots/matrix_iops.svg" || fail "the plan name is not in the title"
ok "backquotes in run.json are drawn as text, not run"

# --- a killed run: no summary.json nor curves.csv yet, a half-written last row ----------------
K="$TMP/killed"
copy_of "$K"
rm -rf "$K/summary.json" "$K/curves.csv"
head -c -40 "$A/timeseries.csv" >"$K/timeseries.csv"
"$LOCKSTEP" report "$K" >"$TMP/killed.txt" 2>"$TMP/killed.err" ||
	fail "report on a killed run exited $?: $(cat "$TMP/killed.err")"
grep -q "timeseries.csv:[0-9]*: the last line is incomplete" "$TMP/killed.err" ||
	fail "no warning about the incomplete line: $(cat "$TMP/killed.err")"
grep -q "summary.json: missing" "$TMP/killed.err" || fail "no warning about summary.json"
[ -s "$K/plots/wsat_wsat.png" ] || fail "no WSAT plot without summary.json (suite from plan.yaml)"
[ -s "$K/plots/lat_vs_iops_randrw.png" ] || fail "no latency-vs-IOPS plot from the summary points"
ok "a killed run still reports"

# --- bad input: exit 2, one error naming the file (and line) ----------------------------------
# bad_case NAME SED_FILE SED_EXPR EXPECTED_STDERR
bad_case() {
	local d="$TMP/bad-$1" rc=0
	copy_of "$d"
	if [ -n "$3" ]; then sed -i "$3" "$d/$2"; fi
	"$LOCKSTEP" report --no-plots "$d" >"$TMP/bad.out" 2>"$TMP/bad.err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$1: exit $rc, not 2"
	grep -qF -- "$4" "$TMP/bad.err" || fail "$1: stderr lacks '$4': $(cat "$TMP/bad.err")"
	[ "$(wc -l <"$TMP/bad.err")" -eq 1 ] || fail "$1: more than one line: $(cat "$TMP/bad.err")"
}
bad_case number summary.csv '7s/^\(\([^,]*,\)\{6\}\)[^,]*/\1x12/' \
	"$TMP/bad-number/summary.csv:7: column read_iops: "
bad_case fields summary.csv '5s/$/,1/' "$TMP/bad-fields/summary.csv:5: 22 fields, the header has 21"
bad_case quote curves.csv '3s/^latiops/"latiops/' "$TMP/bad-quote/curves.csv:3: a quoted field"
bad_case column timeseries.csv '1s/lat_p99_us/lat_p98_us/' \
	"$TMP/bad-column/timeseries.csv:1: no column 'lat_p99_us'"
bad_case json run.json '3s/,$/,,/' "$TMP/bad-json/run.json:3:"
bad_case type run.json 's/"rtt_us": 92.5/"rtt_us": "fast"/' \
	"$TMP/bad-type/run.json: agents[0].rtt_us: expected a number"
bad_case matrix matrix.csv '1s/^bs,/size,/' "$TMP/bad-matrix/matrix.csv:1: the header must be bs"
bad_case empty summary.csv '1,100000d' "$TMP/bad-empty/summary.csv: empty"
# A verdict's limit the plots would judge with: refused, not an assertion.
d="$TMP/bad-limit"
copy_of "$d"
"$PY" - "$d/summary.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["tests"][0]["data_excursion_limit_pct"] = -5
json.dump(d, open(sys.argv[1], "w"))
EOF
rc=0
"$LOCKSTEP" report "$d" >"$TMP/bad.out" 2>"$TMP/bad.err" || rc=$?
[ "$rc" -eq 2 ] || fail "negative limit: exit $rc, not 2: $(cat "$TMP/bad.err")"
grep -qF "$d/summary.json: tests[0].data_excursion_limit_pct: -5 is not" "$TMP/bad.err" ||
	fail "negative limit: $(cat "$TMP/bad.err")"
mkdir "$TMP/notresults"
rc=0
"$LOCKSTEP" report "$TMP/notresults" 2>"$TMP/bad.err" >/dev/null || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "not a results folder (no run.json)" "$TMP/bad.err"; then
	fail "a folder without run.json: exit $rc, $(cat "$TMP/bad.err")"
fi
rc=0
"$LOCKSTEP" report "$TMP/nowhere" 2>"$TMP/bad.err" >/dev/null || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "$TMP/nowhere" "$TMP/bad.err"; then
	fail "a missing folder: exit $rc, $(cat "$TMP/bad.err")"
fi
rc=0
"$LOCKSTEP" report "$A" "$TMP/nowhere" 2>"$TMP/bad.err" >/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "comparing with a missing folder: exit $rc"
for args in "" "$A $B $A" "--bogus $A" "-o"; do
	rc=0
	# shellcheck disable=SC2086
	"$LOCKSTEP" report $args >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || fail "'report $args': exit $rc, not 2"
done
"$LOCKSTEP" report --help | grep "usage: lockstep report" >/dev/null || fail "no --help"
ok "bad input: exit 2 with the file and line named"

# --- no gnuplot on PATH: the report still prints, the plots are skipped with a warning --------
N="$TMP/nognuplot"
copy_of "$N"
rc=0
PATH=/nonexistent "$LOCKSTEP" report "$N" >"$TMP/nog.txt" 2>"$TMP/nog.err" || rc=$?
[ "$rc" -eq 0 ] || fail "without gnuplot: exit $rc: $(cat "$TMP/nog.err")"
grep -q "plots skipped: gnuplot is not installed" "$TMP/nog.err" ||
	fail "no warning without gnuplot: $(cat "$TMP/nog.err")"
grep -q "phase latiops" "$TMP/nog.txt" || fail "no report without gnuplot"
grep -q "plots: 0 drawn" "$TMP/nog.txt" || fail "the report does not say no plot was drawn"
[ -s "$N/plots/matrix_iops.gp" ] || fail "scripts not written without gnuplot"
! ls "$N"/plots/*.svg >/dev/null 2>&1 || fail "SVG files without gnuplot?"
ok "without gnuplot: report printed, plots skipped with a warning"
