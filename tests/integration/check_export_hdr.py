#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check `lockstep export hdr DIR -o OUT` with HdrHistogram's own JavaScript reader.

dump.js (HistogramLogReader of the npm package hdr-histogram-js, run by node) decodes every
interval of OUT/AGENT.hlog and OUT/all.hlog; each must match DIR's timeseries.csv row of its
scope, phase, point and start time (the log's times on the run's shared clock, t_s): p99 within
one bucket of lockstep's histogram (1/64), and an agent's count the row's IOPS x the interval's
length within 0.5% (the row's rate is over the interval's length as the merge took it, the
log's is the agent's own measure of it). Every interval of all.hlog is the agents' intervals added up, exactly, and a
point's counts over its intervals add up to summary.csv's I/Os, exactly.

usage: check_export_hdr.py DIR OUT DUMP_JS HDR_MODULE
"""
import csv
import json
import os
import subprocess
import sys
from collections import defaultdict


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def read_log(path, dump, module):
    base = None
    with open(path) as f:
        for line in f:
            if line.startswith("#[BaseTime:"):
                base = float(line.split()[1])
    if base is None:
        fail("%s: no BaseTime" % path)
    r = subprocess.run(["node", dump, path, module], capture_output=True, text=True)
    if r.returncode:
        fail("HistogramLogReader on %s: exit %d: %s" % (path, r.returncode, r.stderr))
    out = []
    for line in r.stdout.splitlines():
        d = json.loads(line)
        d["phase"], d["point"], d["dir"] = d["tag"].rsplit(":", 2)
        d["t"] = round(d["start_ms"] / 1000.0 - base, 3)
        d["len"] = (d["end_ms"] - d["start_ms"]) / 1000.0
        out.append(d)
    if not out:
        fail("%s: no interval read" % path)
    return out


def main():
    folder, out, dump, module = sys.argv[1:5]
    rows = {}
    with open(os.path.join(folder, "timeseries.csv")) as f:
        for r in csv.DictReader(f):
            if r["scope"] in ("all", "agent"):
                rows.setdefault((r["agent"], r["phase"], r["point"]), []).append(r)
    ios = {}
    with open(os.path.join(folder, "summary.csv")) as f:
        for r in csv.DictReader(f):
            if r["scope"] == "all":
                for d in ("read", "write"):
                    ios[(r["phase"], r["point"], d)] = int(r["%s_ios" % d])
    logs = sorted(p[:-5] for p in os.listdir(out) if p.endswith(".hlog"))
    if "all" not in logs or len(logs) < 3:
        fail("%s holds %s, not all.hlog and one log per agent" % (out, logs))
    sums, totals, n = defaultdict(int), defaultdict(int), 0
    for who in logs:
        for d in read_log(os.path.join(out, who + ".hlog"), dump, module):
            key = (d["phase"], d["point"], d["dir"], d["t"])
            # the row of the same start: the log keeps ms, its reader adds the base in floating
            # point, so the two times may round 1 ms apart
            row = next((r for r in rows.get((who,) + key[:2], [])
                        if abs(float(r["t_s"]) - d["t"]) < 0.0025), None)
            if row is None:
                fail("%s.hlog: %s at %.3f s has no timeseries.csv row" % (who, d["tag"], d["t"]))
            p99 = float(row["%s_lat_p99_us" % d["dir"]] or 0) * 1000
            if abs(d["p99"] - p99) > max(d["p99"], p99) / 64 + 1:
                fail("%s.hlog %s at %.3f s: p99 %d ns, timeseries.csv %.0f ns"
                     % (who, d["tag"], d["t"], d["p99"], p99))
            want = float(row["%s_iops" % d["dir"]]) * d["len"]
            # all.hlog's length is the longest agent's, the row's rate the merge's: its counts
            # are checked as the agents' sum instead
            if who != "all" and abs(d["count"] - want) > max(1, want * 0.005):
                fail("%s.hlog %s at %.3f s: %d I/Os, timeseries.csv %.1f"
                     % (who, d["tag"], d["t"], d["count"], want))
            if who == "all":
                totals[key[:3]] += d["count"]
                sums[key] -= d["count"]
            else:
                sums[key] += d["count"]
            n += 1
    if any(sums.values()):
        fail("all.hlog is not the agents' intervals added up: %s"
             % [k for k, v in sums.items() if v][:5])
    for k, v in totals.items():
        if ios.get(k) != v:
            fail("%s: all.hlog's intervals hold %d I/Os, summary.csv %s" % (k, v, ios.get(k)))
    print("ok: %d intervals of %d logs read by HistogramLogReader, equal to lockstep's rows"
          % (n, len(logs)))


main()
