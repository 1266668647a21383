#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The time series and balance, on a synthetic folder (make_results.py) given path rows
# here (phase randrw: agent a through two paths, b through one, as the ports issue writes them):
# a snia-iops timeseries script has one boundary per round and the rounds named, a suite with
# two tests a solid line and the name of each, a plain phase's as before; the HIR plot one point
# per burst; the path rows drawn as a line per path; the balance lines of the text report and
# --json equal the shares worked out here from summary.csv.
. "$(dirname "$0")/../lib.sh"

need_cmd gnuplot
D="$TMP/r"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$D" >/dev/null || fail "make_results.py failed"

# Path rows for randrw: a's rows split 60/40 over /dev/sdb and /dev/sdc, b's all on /dev/sdd.
"$PY" - "$D" <<'EOF' || fail "adding path rows failed"
import csv, sys
d = sys.argv[1]
SPLIT = {"a": (("/dev/sdb", 0.6), ("/dev/sdc", 0.4)), "b": (("/dev/sdd", 1.0),)}
RATES = ("read_iops", "write_iops", "read_mbps", "write_mbps", "read_ios", "write_ios",
         "read_bytes", "write_bytes")
for name in ("timeseries.csv", "summary.csv"):
    with open(f"{d}/{name}") as f:
        rows = list(csv.DictReader(f))
    cols = list(rows[0].keys()) + ["scope", "target", "path"]
    out = []
    for r in rows:
        r.update(scope="all" if r["agent"] == "all" else "agent", target="", path="")
        out.append(r)
        if r["phase"] != "randrw" or r["agent"] == "all":
            continue
        for path, share in SPLIT[r["agent"]]:
            p = dict(r, scope="path", target="ssd0", path=path)
            for c in RATES:
                if c in p:
                    p[c] = "%.3f" % (float(p[c]) * share)
            out.append(p)
    with open(f"{d}/{name}", "w", newline="") as f:
        w = csv.DictWriter(f, cols, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        w.writeheader()
        for r in out:
            if name == "summary.csv":
                r["label"] = '"%s"' % r["label"]
            w.writerow(r)
    if name == "summary.csv":  # labels are always quoted: undo the writer's doubling
        t = open(f"{d}/{name}").read().replace('"""', '"')
        open(f"{d}/{name}", "w").write(t)
EOF
"$LOCKSTEP" report "$D" >"$TMP/report.txt" 2>"$TMP/report.err" || fail "report failed: $(cat "$TMP/report.err")"
"$LOCKSTEP" report --json --no-plots "$D" >"$TMP/report.json" || fail "report --json failed"
P="$D/plots"

# One boundary per round of the snia-iops test (rounds.csv), each round named.
rounds=$(grep -c '^iops,"iops",' "$D/rounds.csv")
[ "$rounds" -eq 7 ] || fail "make_results.py wrote $rounds iops rounds, not 7"
[ "$(grep -c '^set arrow' "$P/timeseries_iops.gp")" -eq "$rounds" ] ||
	fail "timeseries_iops.gp: $(grep -c '^set arrow' "$P/timeseries_iops.gp") boundaries for $rounds rounds"
for k in $(seq 1 "$rounds"); do
	grep -q "^set label \"round $k\"" "$P/timeseries_iops.gp" || fail "timeseries_iops.gp: no label 'round $k'"
done
ok "timeseries_iops: one boundary per round ($rounds), each named"

# Two tests (6 and 25 rounds): a solid line and the name where each starts, 31 boundaries.
[ "$(grep -c '^set arrow' "$P/timeseries_tput.gp")" -eq 31 ] || fail "timeseries_tput.gp: not 31 boundaries"
[ "$(grep -c '^set arrow.* lw 1.5$' "$P/timeseries_tput.gp")" -eq 2 ] || fail "timeseries_tput.gp: not 2 test lines"
grep -q '^set label "bs=1m write"' "$P/timeseries_tput.gp" || fail "timeseries_tput.gp: first test unnamed"
grep -q '^set label "bs=128k write"' "$P/timeseries_tput.gp" || fail "timeseries_tput.gp: second test unnamed"
# A plain phase of one point has no boundary; one of three points its points' labels.
[ "$(grep -c '^set arrow' "$P/timeseries_precondition.gp")" -eq 0 ] || fail "precondition: boundaries"
grep -q '^set label "iodepth=4"' "$P/timeseries_randrw.gp" || fail "randrw: point labels gone"
ok "timeseries_tput: a line and a name per test; plain phases as before"

# HIR: one point per burst, per test.
"$PY" - "$P/hir_hir.gp" <<'EOF' || fail "hir_hir.gp has not one row per burst"
import re, sys
t = open(sys.argv[1]).read()
blocks = dict(re.findall(r"^(\$b\d+) << EOD\n(.*?)^EOD$", t, re.S | re.M))
rows = {k: [l for l in v.splitlines() if l and not l.startswith("#")] for k, v in blocks.items()}
assert sorted(rows) == ["$b0", "$b1"], rows.keys()
assert [len(v) for v in rows.values()] == [3, 3], rows
assert [l.split()[0] for l in rows["$b0"]] == ["1", "2", "3"], rows
EOF
[ -s "$P/hir_hir.png" ] || fail "no hir_hir.png"
ok "hir_hir: one point per burst of each test"

# Path rows: a line per path in place of the agents'.
for p in a:/dev/sdb a:/dev/sdc b:/dev/sdd; do
	grep -qF "\"IOPS, path $p\"" "$P/timeseries_randrw.gp" || fail "timeseries_randrw.gp: no line for $p"
done
grep -qF '"IOPS, agent a"' "$P/timeseries_randrw.gp" && fail "timeseries_randrw.gp: agents drawn with paths"
grep -qF '"IOPS, agent a"' "$P/timeseries_iops.gp" || fail "timeseries_iops.gp: agents' lines gone"
ok "timeseries_randrw: a line per path"

# Balance: the text and JSON equal the shares of I/Os worked out from summary.csv.
"$PY" - "$D" "$TMP/report.txt" "$TMP/report.json" <<'EOF' || fail "balance lines are wrong"
import csv, json, sys
d, txt, js = sys.argv[1:]
rows = list(csv.DictReader(open(f"{d}/summary.csv")))
text = open(txt).read()
rep = json.load(open(js))
def ios(r):
    return (float(r["read_iops"]) + float(r["write_iops"])) * float(r["duration_s"])
def shares(rs):
    t = sum(ios(r) for r in rs)
    return [100 * ios(r) / t for r in rs]
ph = [p for p in rep["phases"] if p["phase"] == "randrw"][0]
for pt in ph["points"]:
    mine = [r for r in rows if r["phase"] == "randrw" and int(r["point"]) == pt["point"]]
    ag = [r for r in mine if r["scope"] == "agent"]
    pa = [r for r in mine if r["scope"] == "path"]
    want = shares(ag)
    got = [b["share_pct"] for b in pt["balance"]]
    assert [b["who"] for b in pt["balance"]] == ["a", "b"], pt["balance"]
    assert all(abs(x - y) < 1e-6 for x, y in zip(got, want)), (got, want)
    want_p = shares(pa)
    got_p = [b["share_pct"] for b in pt["path_balance"]]
    assert [b["who"] for b in pt["path_balance"]] == ["a:/dev/sdb", "a:/dev/sdc", "b:/dev/sdd"]
    assert all(abs(x - y) < 1e-6 for x, y in zip(got_p, want_p)), (got_p, want_p)
    line = "    balance: a %.1f%% / b %.1f%% of I/Os, p99 " % tuple(want)
    assert line in text, line
    line = "    path balance: a:/dev/sdb %.1f%% / a:/dev/sdc %.1f%% / b:/dev/sdd %.1f%% of I/Os" % tuple(want_p)
    assert line in text, line
# A phase without path rows has agent balance only.
iops = [p for p in rep["phases"] if p["phase"] == "iops"][0]
assert all("balance" in p and "path_balance" not in p for p in iops["points"])
EOF
ok "balance and path balance: text and --json equal the shares from summary.csv"
