#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep report A B` consistent with itself: on two hand-made results folders
# (make_results.py, with snia-iops phases), every shared point's table figure equals its IOPS
# matrix cell, in both runs and in the change; the basis is named; the files written are named
# as written (no literal PHASE); an unfinished run is warned about on stderr and in compare.md.
. "$(dirname "$0")/../lib.sh"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$TMP/a" >/dev/null
"$PY" "$LST_SRC/tests/integration/make_results.py" "$TMP/b" --variant b >/dev/null

"$LOCKSTEP" report "$TMP/a" "$TMP/b" --no-plots -o "$TMP/cmp" >"$TMP/cmp.out" 2>"$TMP/cmp.err" ||
	fail "report A B: exit $?: $(cat "$TMP/cmp.err")"
! grep -q "PHASE\.csv" "$TMP/cmp.out" || fail "a literal PHASE: $(grep PHASE "$TMP/cmp.out")"
grep -q "compare_matrix-iops.csv" "$TMP/cmp.out" || fail "matrix file not named"
[ ! -s "$TMP/cmp.err" ] || fail "warnings for finished runs: $(cat "$TMP/cmp.err")"
"$LOCKSTEP" report "$TMP/a" "$TMP/b" --no-plots --json -o "$TMP/cmp" >"$TMP/cmp.json"
"$PY" - "$TMP" <<'PY'
import csv, json, sys
t = sys.argv[1]
def matrix(path):
    rows = list(csv.reader(open(path)))
    return {(int(r[0]), m): float(v) for r in rows[1:] for m, v in zip(rows[0][1:], r[1:]) if v}
cmp = json.load(open(t + "/cmp.json"))
assert cmp["runs"][0]["finished"] and cmp["runs"][1]["finished"], cmp["runs"]
ratio = {}
for mx in cmp["matrix_ratios"]:
    assert mx["run"] == "B", mx
    for r in mx["rows"]:
        for m, v in zip(mx["mixes"], r["ratio"]):
            ratio[(mx["phase"], int(r["bs"]), m)] = v
checked = 0
for phase, f in (("iops", "matrix.csv"), ("iops-80", "matrix-iops-80.csv")):
    ma, mb = matrix(t + "/a/" + f), matrix(t + "/b/" + f)
    for p in cmp["points"]:
        if p["phase"] != phase or p["match"] != "AB":
            continue
        a, b = p["runs"]
        bs, mix = p["label"].split()
        kib = int(bs[3:-1]) * (1024 if bs.endswith("m") else 1)
        mix = int(mix.split("=")[1])
        key = (kib * 1024, "%d/%d" % (mix, 100 - mix))
        assert p["basis"] == "window" and a["basis"] == b["basis"] == "window", p
        assert abs(a["iops"] - ma[key]) <= 0.06, (p, ma[key])
        assert abs(b["iops"] - mb[key]) <= 0.06, (p, mb[key])
        r = ratio[(phase, key[0], key[1])]
        assert abs((1 + b["iops_change_pct"] / 100) - r) < 1e-3, (p, r)
        checked += 1
assert checked == 49 + 6, checked
# the text table says the same: the 4k 0/100 row of phase iops
line = [l for l in open(t + "/cmp.out") if l.startswith("iops / bs=4k rwmixread=0 ")][0].split()
p = [p for p in cmp["points"] if p["phase"] == "iops" and p["label"] == "bs=4k rwmixread=0"][0]
assert line[4] == "A" and abs(float(line[5]) - p["runs"][0]["iops"]) < 1 and line[-1] == "window", (line, p)
# plain phases and suite tests without a window keep their basis
bases = {p["phase"]: p["basis"] for p in cmp["points"]}
assert bases["randrw"] == "point" and bases["precondition"] in ("point", "last round", "window"), bases
md = open(t + "/cmp/compare.md").read()
assert "| basis |" in md and "Warning" not in md
hdr = open(t + "/cmp/compare.csv").readline().strip().split(",")
assert hdr[-1] == "basis", hdr
print("%d matrix cells agree with the table" % checked)
PY
ok "the table and the matrix agree on every shared point (window averages)"

# An unfinished run: warned on stderr and in compare.md, and "finished": false in JSON.
cp -a "$TMP/a" "$TMP/u"
"$PY" -c "import json,sys; p=sys.argv[1]; d=json.load(open(p)); d.pop('finished', None); d.pop('status', None); json.dump(d, open(p,'w'))" "$TMP/u/run.json"
"$LOCKSTEP" report "$TMP/u" "$TMP/b" --no-plots -o "$TMP/cmpu" >/dev/null 2>"$TMP/u.err" ||
	fail "report with an unfinished run: exit $?"
grep -q "run A ($TMP/u) did not finish" "$TMP/u.err" || fail "no warning on stderr: $(cat "$TMP/u.err")"
grep -q "Warning.*run A.*did not finish" "$TMP/cmpu/compare.md" || fail "no warning in compare.md"
! grep -q "run B" "$TMP/u.err" || fail "B warned about though finished"
"$LOCKSTEP" report "$TMP/b" "$TMP/u" --no-plots --json -o "$TMP/cmpu" 2>/dev/null >"$TMP/u.json"
[ "$(json "$TMP/u.json" 'd["runs"][1]["finished"]')" = False ] || fail "JSON finished not false"
ok "an unfinished run is warned about (stderr, compare.md, JSON)"
