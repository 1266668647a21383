#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Three real runs on a loop device compared, and run-to-run noise told from a change:
# 1. `repeat: 3` runs a point three times, each with rows of its own ("LABEL repeat K"), and
#    repeats.csv gives each figure's mean with the Student t interval worked out here from
#    summary.csv (t(0.975, 2) = 4.3027), which contains the repeats' mean;
# 2. `lockstep report A B C` (A and B the same rate-limited plan, C the same at twice the rate)
#    writes its own folder, leaves the three input folders byte for byte as they were, and
#    every cell of compare.csv (IOPS, MB/s, mean, p99, p99.99, read and write p99 of each run,
#    each change from A) equals the runs' own summary.csv: the repeats' mean for the repeated
#    point, the row for the plain one; B is what Welch's test worked out here says (two runs
#    of one plan are called "changed" about 1 time in 20), C "changed", the plain point
#    "cannot tell", and the test is named; the HTML page says the same as compare.csv and the plots
#    (latency against IOPS, IOPS over time) have every run;
# 3. bad input is refused with a clear error: a folder that is not a results folder, a single
#    folder with --label, a folder twice, a run of another plan, -o inside an input folder.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

dev=$(mk_loop "$(mk_backing 64M)")
port=$(free_port)
start_agent a "$port"

# plan NAME RATE: one repeated rate-limited point (rr) and one plain point (seq)
plan() {
	cat >"$TMP/$1.yaml" <<YAML
lockstep: 1
name: $1
agents: [{name: a, address: "tcp://127.0.0.1:$port"}]
targets: [{name: drive, paths: {a: "$dev"}}]
phases:
  - name: rr
    repeat: 3
    workload: {rw: randread, bs: 4k, iodepth: 4, runtime: 1s, rate_iops: $2}
  - name: seq
    workload: {rw: read, bs: 128k, iodepth: 2, runtime: 500ms, rate_iops: 200}
YAML
}
plan cmp 1000
plan cmp2 2000
sed -i 's/^name: cmp2$/name: cmp/' "$TMP/cmp2.yaml"
for r in A:cmp B:cmp C:cmp2; do
	"$LOCKSTEP" run --quiet "$TMP/${r#*:}.yaml" -o "$TMP/${r%%:*}" >"$TMP/${r%%:*}.log" 2>&1 ||
		fail "run ${r%%:*}: $(tail -3 "$TMP/${r%%:*}.log")"
done

# --- 1. repeats ---------------------------------------------------------------------------------
"$PY" - "$TMP/A" <<'PY' || fail "repeats.csv does not hold the repeats' mean and interval"
import csv, json, math, sys
d = sys.argv[1]
rows = [r for r in csv.DictReader(open(d + "/summary.csv")) if r["phase"] == "rr" and r["agent"] == "all"]
assert [r["label"] for r in rows] == ["repeat %d" % k for k in (1, 2, 3)], rows
pts = [p for p in json.load(open(d + "/summary.json"))["points"] if p["phase"] == "rr" and p["agent"] == "all"]
assert [(p["repeat"], p["repeats"]) for p in pts] == [(1, 3), (2, 3), (3, 3)], pts
rep = {r["figure"]: r for r in csv.DictReader(open(d + "/repeats.csv")) if r["phase"] == "rr"}
fig = {"iops": lambda r: float(r["read_iops"]) + float(r["write_iops"]),
       "lat_mean_us": lambda r: float(r["lat_mean_us"]), "lat_p99_us": lambda r: float(r["lat_p99_us"])}
for name, get in fig.items():
    v = [get(r) for r in rows]
    m = sum(v) / 3
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / 2)
    half = 4.3027 * sd / math.sqrt(3)
    r = rep[name]
    assert r["repeats"] == "3", r
    assert abs(float(r["mean"]) - m) < 0.002, (name, r, m)
    assert abs(float(r["ci95_low"]) - (m - half)) < 0.01 + 1e-4 * half, (name, r, m - half)
    assert abs(float(r["ci95_high"]) - (m + half)) < 0.01 + 1e-4 * half, (name, r, m + half)
    assert float(r["ci95_low"]) <= m <= float(r["ci95_high"]), (name, r, m)
print("iops of the repeats:", [round(fig["iops"](r), 1) for r in rows])
PY
ok "repeat: 3 gives three points and intervals that contain their mean"

# A run killed between two repeats of a point resumes after the repeats it kept: each repeat once.
sed -e 's/^name: cmp$/name: killed/' -e 's/runtime: 1s/runtime: 400ms/' "$TMP/cmp.yaml" >"$TMP/killed.yaml"
killed_run "$TMP/killed.yaml" "$TMP/K" summary.csv '"repeat 2",all'
"$LOCKSTEP" resume --quiet "$TMP/K" >"$TMP/K.resume" 2>&1 || fail "resume: $(tail -3 "$TMP/K.resume")"
labels=$(awk -F, '$1 == "rr" && $4 == "all" {print $2, $3}' "$TMP/K/summary.csv" | tr '\n' ';')
[ "$labels" = '0 "repeat 1";1 "repeat 2";2 "repeat 3";' ] || fail "resumed repeats: $labels"
grep -Eq '^rr,points,("")?,3,iops,' "$TMP/K/repeats.csv" || fail "no repeats.csv after the resume"
ok "a run killed between repeats resumes with each repeat once"

# --- 2. three runs compared ---------------------------------------------------------------------
tree() { (cd "$1" && find . -type f ! -name .lock -print0 | sort -z | xargs -0 sha256sum); }
for r in A B C; do tree "$TMP/$r" >"$TMP/$r.before"; done
"$LOCKSTEP" report "$TMP/A" "$TMP/B" "$TMP/C" --label a,b,c -o "$TMP/out" --html \
	>"$TMP/cmp.txt" 2>"$TMP/cmp.err" || fail "report A B C: exit $?: $(cat "$TMP/cmp.err")"
"$LOCKSTEP" report "$TMP/A" "$TMP/B" "$TMP/C" --label a,b,c -o "$TMP/out" --no-plots --json \
	>"$TMP/cmp.json" 2>>"$TMP/cmp.err" || fail "report --json A B C: exit $?"
for r in A B C; do
	tree "$TMP/$r" | diff "$TMP/$r.before" - >&2 || fail "the comparison changed run $r's folder"
done
"$PY" - "$TMP" <<'PY' || fail "compare.csv disagrees with the runs' own files"
import csv, json, math, sys
t = sys.argv[1]
figs = {"iops": ("read_iops", "write_iops"), "mbps": ("read_mbps", "write_mbps"),
        "lat_mean_us": ("lat_mean_us",), "lat_p99_us": ("lat_p99_us",),
        "lat_p99_99_us": ("lat_p99_99_us",), "read_lat_p99_us": ("read_lat_p99_us",),
        "write_lat_p99_us": ("write_lat_p99_us",)}
def own(run, phase):
    rows = [r for r in csv.DictReader(open("%s/%s/summary.csv" % (t, run)))
            if r["phase"] == phase and r["agent"] == "all"]
    out = {}
    for f, cols in figs.items():
        v = [sum(float(r[c]) for c in cols) if all(r[c] != "" for c in cols) else None for r in rows]
        out[f] = None if None in v else sum(v) / len(v)
    return out
rows = {r["phase"]: r for r in csv.DictReader(open(t + "/out/compare.csv"))}
assert set(rows) == {"rr", "seq"}, rows.keys()
cells = 0
for phase, r in rows.items():
    assert r["match"] == "ABC", r
    base = own("A", phase)
    for run in "ABC":
        mine = own(run, phase)
        for f in figs:
            got = r["%s_%s" % (f, run.lower())]
            if mine[f] is None:
                assert got == "", (phase, run, f, got)
                continue
            assert abs(float(got) - mine[f]) <= 0.002 + 1e-9 * mine[f], (phase, run, f, got, mine[f])
            cells += 1
            if run == "A":
                continue
            ch = r["%s_%s_change_pct" % (f, run.lower())]
            want = (mine[f] - base[f]) / base[f] * 100 if base[f] else None
            assert (ch == "") == (want is None), (phase, run, f, ch, want)
            assert want is None or abs(float(ch) - want) <= 0.006, (phase, run, f, ch, want)
rr, seq = rows["rr"], rows["seq"]
assert rr["basis"] == "mean of 3 repeats" and seq["basis"] == "point", (rr["basis"], seq["basis"])
# A and B ran one plan, but a 95% test calls two such runs "changed" about 1 time in 20: B's
# verdict must be what Welch's t-test on the repeats' IOPS (summary.csv) says, worked out here.
def betacf(a, b, x):
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > 1e-300 else 1e-300)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > 1e-300 else 1e-300)
            c = 1 + num / c if abs(1 + num / c) > 1e-300 else 1e-300
            h *= d * c
    return h
def two_sided_p(tv, df):  # P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2)
    x, a, b = df / (df + tv * tv), df / 2, 0.5
    lb = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    return math.exp(lb) * betacf(a, b, x) / a if x < (a + 1) / (a + b + 2) else \
        1 - math.exp(lb) * betacf(b, a, 1 - x) / b
def reps(run):
    return [float(r["read_iops"]) + float(r["write_iops"])
            for r in csv.DictReader(open("%s/%s/summary.csv" % (t, run)))
            if r["phase"] == "rr" and r["agent"] == "all"]
ra, rb = reps("A"), reps("B")
ma, mb = sum(ra) / 3, sum(rb) / 3
va = sum((x - ma) ** 2 for x in ra) / 2 / 3
vb = sum((x - mb) ** 2 for x in rb) / 2 / 3
pv = two_sided_p((mb - ma) / math.sqrt(va + vb), (va + vb) ** 2 / (va * va / 2 + vb * vb / 2))
want = "changed" if pv < 0.05 and abs(mb - ma) / ma * 100 >= 1 else "within noise"
if abs(pv - 0.05) > 1e-3:  # at the threshold itself either verdict is right
    assert rr["noise_b"] == want, ("A against B", want, pv, ra, rb, rr)
print("A against B: %s (Welch p %.3f, here and in compare.csv)" % (rr["noise_b"], pv))
assert rr["noise_c"] == "changed" and abs(float(rr["iops_c_change_pct"]) - 100) < 15, rr
assert seq["noise_b"] == seq["noise_c"] == "cannot tell", seq
# the JSON says the same, with the intervals and the test
d = json.load(open(t + "/cmp.json"))
assert [x["name"] for x in d["runs"]] == ["a", "b", "c"], d["runs"]
assert "Welch" in d["noise_test"], d["noise_test"]
p = [p for p in d["points"] if p["phase"] == "rr"][0]
for side in p["runs"]:
    lo, hi = side["iops_ci95"]
    assert side["repeats"] == 3 and lo <= side["iops"] <= hi, side
assert [s.get("noise") for s in p["runs"]] == [None, rr["noise_b"], "changed"], p
print("%d cells of compare.csv equal the runs' summary.csv" % cells)
PY
grep -q "Welch's t-test at 95% on the repeats" "$TMP/cmp.txt" || fail "the text does not name the test"
noise_b=$("$PY" -c 'import csv, sys
print([r for r in csv.DictReader(open(sys.argv[1])) if r["phase"] == "rr"][0]["noise_b"])' \
	"$TMP/out/compare.csv")
grep -E "^ +B .* $noise_b +mean of 3 repeats$" "$TMP/cmp.txt" >/dev/null ||
	fail "the text has no '$noise_b' row for B: $(cat "$TMP/cmp.txt")"
grep -E "^ +C .* changed +mean of 3 repeats$" "$TMP/cmp.txt" >/dev/null ||
	fail "the text has no 'changed' row for C"
for k in "A: a" "B: b" "C: c"; do
	for p in compare_lat_vs_iops compare_iops_rr compare_iops_seq; do
		grep -q "t \"$k\"" "$TMP/out/$p.gp" || fail "plot $p does not draw run $k"
		[ -s "$TMP/out/$p.svg" ] || fail "plot $p was not drawn"
	done
done
"$PY" "$LST_SRC/tests/integration/check_report_html.py" --compare "$TMP/out/compare.html" \
	"$TMP/out/compare.csv" || fail "compare.html disagrees with compare.csv"
ok "three runs compared cell by cell, within noise and changed told apart, inputs untouched"

# --- 3. bad input ---------------------------------------------------------------------------------
# refused MESSAGE ARGS...: `lockstep report ARGS` exits 2 and says MESSAGE
refused() {
	local msg=$1 rc=0
	shift
	"$LOCKSTEP" report --no-plots "$@" >"$TMP/bad.out" 2>"$TMP/bad.err" || rc=$?
	[ "$rc" -eq 2 ] || fail "report $*: exit $rc, not 2"
	grep -qF -- "$msg" "$TMP/bad.err" || fail "report $*: no '$msg' in: $(cat "$TMP/bad.err")"
}
mkdir "$TMP/empty"
refused "not a results folder" "$TMP/A" "$TMP/empty" -o "$TMP/o1"
refused "give two folders or more" --label x "$TMP/A"
refused "--label gives 2 names for 3 folders" --label x,y "$TMP/A" "$TMP/B" "$TMP/C" -o "$TMP/o1"
refused "is run A's: give each run once" "$TMP/A" "$TMP/B" "$TMP/A/" -o "$TMP/o1"
cat >"$TMP/other.yaml" <<YAML
lockstep: 1
name: other
agents: [{name: a, address: "tcp://127.0.0.1:$port"}]
targets: [{name: drive, paths: {a: "$dev"}}]
phases:
  - {name: elsewhere, workload: {rw: randread, bs: 4k, runtime: 300ms, rate_iops: 500}}
YAML
"$LOCKSTEP" run --quiet "$TMP/other.yaml" -o "$TMP/D" >"$TMP/D.log" 2>&1 || fail "run D: $(tail -3 "$TMP/D.log")"
refused "has no point of run A" "$TMP/A" "$TMP/D" -o "$TMP/o1"
refused "a comparison never writes into an input folder" "$TMP/A" "$TMP/B" -o "$TMP/B/cmp"
if [ -e "$TMP/B/cmp" ] || [ -e "$TMP/o1" ]; then fail "a refused comparison made a folder"; fi
tree "$TMP/B" | diff "$TMP/B.before" - >&2 || fail "a refused comparison changed run B's folder"
ok "bad input refused: not a results folder, one folder, a folder twice, another plan, -o in an input"
