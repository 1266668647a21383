#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Grow a make_results.py folder into a long run: randrw's point 0 copied to NPOINTS more points
of NINTERVALS intervals each (its timeseries rows, summary rows, run.json and summary.json
entries), with a points.jsonl journal as a run leaves it.

  grow_results.py DIR PAD BEHIND NPOINTS NINTERVALS
PAD: numbers padded into each journal summary entry (a journal the report must not hold);
BEHIND=1: summary.json has half the points and no tests, the journal all of them (a run killed
before summary.json was rewritten)."""
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
