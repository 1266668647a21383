#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Flat memory at the end of a run: `lockstep report` (what a run does after its last
# point) on a synthetic folder of many points (make_results.py's randrw phase copied to POINTS
# points of INTERVALS intervals, with a points.jsonl journal as a run leaves it). Checked:
#  - a finished run's journal is never held in memory: the same folder with every journal entry
#    padded by ~16 KB of numbers (about POINTS x 3 x 16 KB more journal, which the report used to
#    parse whole) peaks within 6 MB of the unpadded one;
#  - the peak over an empty-ish folder's stays under 3x the bytes of run.json, summary.json,
#    summary.csv and timeseries.csv (the model keeps the CSV text and pointers into it);
#  - the output is the same with and without the padding, and a journal ahead of summary.json
#    is still read (one point more in the journal than in the files).
# Peaks are the child's ru_maxrss (no GNU time needed).
. "$(dirname "$0")/../lib.sh"

# Sanitizers' shadow memory and quarantine make RSS say nothing about the code.
! grep -qa __asan_init "$LOCKSTEP" || skip "an address-sanitizer build: RSS is not the code's"
POINTS=${POINTS:-1000}
INTERVALS=${INTERVALS:-10}
D="$TMP/r"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$D" >/dev/null || fail "make_results.py failed"
cp -r "$D" "$TMP/small"

# grow DIR PAD BEHIND: randrw's points 0..2 copied to POINTS more points; PAD numbers in each
# journal summary entry; BEHIND=1: summary.json has half the points and no tests, the journal all
# of them (a run killed before summary.json was rewritten).
grow() {
	"$PY" - "$@" "$POINTS" "$INTERVALS" <<'EOF' || fail "growing the folder failed"
import copy, csv, io, json, sys
d, pad, behind, npoints, nint = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4]), int(sys.argv[5])

def rows(name):
    with open(f"{d}/{name}") as f:
        r = list(csv.reader(f))
    return r[0], r[1:]

def write(name, head, body):
    s = io.StringIO()
    w = csv.writer(s, lineterminator="\n")
    w.writerow(head)
    w.writerows(body)
    open(f"{d}/{name}", "w").write(s.getvalue())

th, tb = rows("timeseries.csv")
sh, sb = rows("summary.csv")
run = json.load(open(f"{d}/run.json"))
summ = json.load(open(f"{d}/summary.json"))
ti = {c: i for i, c in enumerate(th)}
si = {c: i for i, c in enumerate(sh)}
t_ts = [r for r in tb if r[ti["phase"]] == "randrw" and r[ti["point"]] == "0"]
t_ts = [r for r in t_ts if r[ti["interval"]] == t_ts[0][ti["interval"]]]  # one interval's rows
t_sum = [r for r in sb if r[si["phase"]] == "randrw" and r[si["point"]] == "0"]
t_run = [p for p in run["phases"] if p["phase"] == "randrw" and p["point"] == 0][0]
t_js = [p for p in summ["points"] if p["phase"] == "randrw" and p["point"] == 0]
t = max(float(r[ti["t_s"]]) for r in tb) + 1
journal = [{"type": "point", "phase": q["phase"], "point": q["point"], "run": q,
            "summary": [o for o in summ["points"]
                        if o["phase"] == q["phase"] and o["point"] == q["point"]]}
           for q in run["phases"]]
for p in range(3, 3 + npoints):
    label = "iodepth=%d" % (p + 30)
    runp = dict(t_run, point=p, label=label, start_t_s=t)
    sums = []
    for o in t_js:
        o = copy.deepcopy(o)
        o.update(point=p, label=label)
        sums.append(o)
    jsums = [dict(o, pad=list(range(pad))) if pad else o for o in sums]
    journal.append({"type": "point", "phase": "randrw", "point": p, "run": runp,
                    "summary": jsums})
    run["phases"].append(runp)
    summ["points"].extend(sums)
    for k in range(nint):
        for r in t_ts:
            r = list(r)
            r[ti["point"]], r[ti["interval"]] = str(p), str(k + 1)
            r[ti["t_s"]] = "%.6f" % (t + k + float(r[ti["t_s"]]) % 1)
            tb.append(r)
    for r in t_sum:
        r = list(r)
        r[si["point"]], r[si["label"]], r[si["t_s"]] = str(p), label, "%.6f" % t
        sb.append(r)
    t += nint + 1
write("timeseries.csv", th, tb)
write("summary.csv", sh, sb)
json.dump(run, open(f"{d}/run.json", "w"))
if behind:
    journal.append({"type": "phase_end", "phase": "randrw", "tests": summ["tests"]})
    summ = {"points": summ["points"][:len(summ["points"]) // 2], "tests": []}
json.dump(summ, open(f"{d}/summary.json", "w"))
with open(f"{d}/points.jsonl", "w") as f:
    for e in journal:
        f.write(json.dumps(e, separators=(",", ":")) + "\n")
EOF
}

# peak DIR OUT: run lockstep report --no-plots on DIR (stdout to OUT); prints the peak RSS in kB.
peak() {
	"$PY" - "$LOCKSTEP" "$1" "$2" <<'EOF'
import resource, subprocess, sys
with open(sys.argv[3], "w") as out:
    rc = subprocess.call([sys.argv[1], "report", "--no-plots", sys.argv[2]], stdout=out)
if rc:
    sys.exit("lockstep report exited %d" % rc)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
}

cp -r "$D" "$TMP/pad"
grow "$D" 0 0
grow "$TMP/pad" 2000 0
base=$(peak "$TMP/small" "$TMP/small.txt") || fail "report on the small folder failed"
plain=$(peak "$D" "$TMP/plain.txt") || fail "report on the grown folder failed"
padded=$(peak "$TMP/pad" "$TMP/pad.txt") || fail "report on the padded folder failed"
jbytes=$(stat -c %s "$TMP/pad/points.jsonl")
echo "peak RSS: small folder $base kB, $POINTS points $plain kB, padded journal ($jbytes bytes) $padded kB"
sed -i "s|$D|DIR|g" "$TMP/plain.txt"
sed -i "s|$TMP/pad|DIR|g" "$TMP/pad.txt"
cmp -s "$TMP/plain.txt" "$TMP/pad.txt" || fail "the report differs with a padded journal"
[ "$((padded - plain))" -lt 6144 ] ||
	fail "a finished run's journal is held in memory: $padded kB with a padded journal, $plain kB without"
bytes=$(cat "$D"/{run.json,summary.json,summary.csv,timeseries.csv} | wc -c)
[ "$(((plain - base) * 1024))" -lt "$((3 * bytes))" ] ||
	fail "the report took $((plain - base)) kB over a small folder's for $bytes bytes of results"
ok "report peaks: $((plain - base)) kB for $bytes bytes; the journal adds $((padded - plain)) kB"

# A journal ahead of summary.json still counts: the same report as from the complete files.
cp -r "$TMP/small" "$TMP/behind"
grow "$TMP/behind" 0 1
"$LOCKSTEP" report --no-plots --json "$D" | sed "s|$D|DIR|g" >"$TMP/full.json" ||
	fail "report --json on the grown folder failed"
"$LOCKSTEP" report --no-plots --json "$TMP/behind" | sed "s|$TMP/behind|DIR|g" >"$TMP/behind.json" ||
	fail "report --json on the folder with summary.json behind failed"
"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert sum(len(p["tests"] or []) for p in d["phases"]) > 5, "no steady-state verdicts"' "$TMP/full.json" ||
	fail "the grown folder's report has no verdicts"
cmp -s "$TMP/full.json" "$TMP/behind.json" ||
	fail "the report differs when summary.json is behind the journal"
ok "a journal ahead of summary.json gives the same report"
