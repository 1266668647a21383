#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check `lockstep export fio DIR -o OUT` against DIR's summary.csv with fio's own tooling.

Every standalone json+ file (OUT/PHASE/BS/jobs/*.json) goes through fio_jsonplus_clat2csv (from
Debian's fio package), which must read it and validate its CSV against it; the percentiles it
computes from the bins (p50, p99, p99.9 of reads and of writes: the first bin whose cumulative
count reaches p% of the total) must equal summary.csv's within one bucket of lockstep's
histogram (1/64 of the value), and its counts must add up to summary.csv's I/Os exactly. Every
client/server file (OUT/PHASE/BS/*.json) must hold one entry per agent of the point, then one
per path of summary.csv's path rows, each with its row's I/Os, then "All clients", whose I/Os are
the sum of the agents'; every entry's per-interval statistics (iops_* and bw_*: min, max, mean,
stddev with n - 1, samples) must be those of its timeseries.csv rows, and it must hold every
key fio-plot's reader looks up in an entry (FIO_PLOT_KEYS, from fio-plot's
get_json_mapping: fio-plot itself is not packaged where the tests run), its latency_ns/us/ms
steps adding up to 100% of its I/Os. Every agent's histogram log
(OUT/PHASE/BS/hist/*_clat_hist.N.log, N its place in run.json's agents from 1) goes through
fio-histo-log-pctiles.py (PCTILES: Debian's copy, unpacked), which must count the agent's I/Os of
the point (summary.csv, both directions) and find its median and p99 within one bucket of them.

usage: check_export_fio.py DIR OUT SCRATCH PCTILES
"""
import re
import csv
import glob
import json
import math
import os
import subprocess
import sys

PCTS = [("p50", 50.0), ("p99", 99.0), ("p99_9", 99.9)]
# What fio-plot reads of each client_stats entry (jsonparsing_support.get_json_mapping), MODE
# the direction it plots; and of the document.
FIO_PLOT_KEYS = [["job options", "iodepth"], ["job options", "numjobs"], ["job options", "bs"],
                 ["job options", "rw"], ["MODE", "bw"], ["MODE", "iops"],
                 ["MODE", "iops_stddev"], ["MODE", "lat_ns", "mean"],
                 ["MODE", "lat_ns", "stddev"], ["latency_ms"], ["latency_us"], ["latency_ns"],
                 ["usr_cpu"], ["sys_cpu"], ["hostname"]]


def check_fio_plot_keys(path, doc, entry):
    if not doc.get("fio version"):
        fail("%s: no \"fio version\" (fio-plot takes a file only with one)" % path)
    for mode in ("read", "write"):
        for key in FIO_PLOT_KEYS:
            o = entry
            for k in key:
                k = mode if k == "MODE" else k
                if not isinstance(o, dict) or k not in o:
                    fail("%s %s: no %s, which fio-plot reads" % (path, entry.get("hostname"),
                                                                 ".".join(key)))
                o = o[k]
    ios = entry["read"]["total_ios"] + entry["write"]["total_ios"]
    total = sum(sum(entry[u].values()) for u in ("latency_ns", "latency_us", "latency_ms"))
    if ios and abs(total - 100.0) > 1e-6:
        fail("%s %s: latency_ns/us/ms add up to %.9f%%, not 100%%" % (path, entry["hostname"], total))


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def summary_rows(folder):
    rows = {}
    with open(os.path.join(folder, "summary.csv")) as f:
        for r in csv.DictReader(f):
            if r["scope"] in ("all", "agent"):
                rows[(r["phase"], int(r["point"]), r["agent"])] = r
            elif r["scope"] == "path":
                rows[(r["phase"], int(r["point"]), r["agent"] + ":" + r["path"])] = r
    return rows


def ts_rates(folder):
    """{(phase, point, name): {ddir: ([iops], [bytes/s])}}, name as summary_rows keys it."""
    out = {}
    with open(os.path.join(folder, "timeseries.csv")) as f:
        for r in csv.DictReader(f):
            if r["scope"] in ("all", "agent"):
                name = r["agent"]
            elif r["scope"] == "path":
                name = r["agent"] + ":" + r["path"]
            else:
                continue
            e = out.setdefault((r["phase"], int(r["point"]), name),
                               {d: ([], []) for d in ("read", "write")})
            for d in ("read", "write"):
                e[d][0].append(float(r["%s_iops" % d]))
                e[d][1].append(float(r["%s_mbps" % d]) * 1e6)
    return out


def rate_stats(v):
    mean = sum(v) / len(v)
    dev = math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0
    return min(v), max(v), mean, dev


def check_rates(path, entry, name, key, ts):
    """entry's fio per-interval statistics against its timeseries.csv rows."""
    rows = ts.get(key)
    if rows is None:
        fail("%s: %s has no timeseries.csv rows" % (path, name))
    for ddir in ("read", "write"):
        d = entry[ddir]
        for kind, vals, scale, dev_key in (("iops", rows[ddir][0], 1.0, "iops_stddev"),
                                           ("bw", rows[ddir][1], 1024.0, "bw_dev")):
            lo, hi, mean, dev = rate_stats([x / scale for x in vals])
            got = (d[kind + "_min"], d[kind + "_max"], d[kind + "_mean"], d[dev_key],
                   d[kind + "_samples"])
            want = (lo, hi, mean, dev, len(vals))
            if (got[4] != want[4] or abs(got[0] - lo) > 1 or abs(got[1] - hi) > 1 or
                    abs(got[2] - mean) > 1e-6 * max(1.0, mean) or
                    abs(got[3] - dev) > 1e-6 * max(1.0, dev)):
                fail("%s %s %s: %s min/max/mean/dev/samples %s, timeseries.csv %s"
                     % (path, name, ddir, kind, got, want))


def csv_percentiles(path, ddir):
    """{p: ns} and the total from fio_jsonplus_clat2csv's CSV for ddir's clat."""
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    cols = [c.strip() for c in lines[0].split(",")]
    ci = cols.index("%s_clat_ns_count" % ddir)
    cum = cols.index("%s_clat_ns_cumulative" % ddir)
    bins = []
    for l in lines[1:]:
        v = [x.strip() for x in l.split(",")]
        if v[ci]:
            bins.append((int(v[0]), int(v[ci]), int(v[cum])))
    total = bins[-1][2] if bins else 0
    out = {}
    for name, p in PCTS:
        rank = max(1, math.ceil(p / 100.0 * total - 1e-9))
        out[name] = next((ns for ns, _, c in bins if c >= rank), 0)
    return out, total, sum(n for _, n, _ in bins)


def near(a, b):
    return abs(a - b) <= max(a, b) / 64.0 + 1


def check_standalone(path, rows, scratch, agent_of):
    doc = json.load(open(path))
    job = doc["jobs"][0]
    phase, point = job["jobname"].split(":")[0], int(job["jobname"].split(":")[1])
    agent = agent_of(path)
    row = rows.get((phase, point, agent))
    if row is None:
        fail("%s: no summary.csv row for %s point %d agent %s" % (path, phase, point, agent))
    dest = os.path.join(scratch, os.path.basename(path)[:-5] + ".csv")
    for extra in ([], ["--validate"]):
        r = subprocess.run(["fio_jsonplus_clat2csv", path, dest] + extra,
                           capture_output=True, text=True)
        if r.returncode:
            fail("fio_jsonplus_clat2csv %s %s: exit %d: %s" % (path, extra, r.returncode, r.stderr))
    got = dest[:-4] + "_job0.csv"
    for ddir in ("read", "write"):
        ios = int(row["%s_ios" % ddir])
        pcts, total, added = csv_percentiles(got, ddir)
        if total != ios or added != ios or job[ddir]["total_ios"] != ios:
            fail("%s %s: fio's tool counts %d I/Os (bins add up to %d, total_ios %d), "
                 "summary.csv %d" % (path, ddir, total, added, job[ddir]["total_ios"], ios))
        for name, _ in PCTS:
            if not ios:
                continue
            mine = float(row["%s_lat_%s_us" % (ddir, name)]) * 1000
            if not near(pcts[name], mine):
                fail("%s %s %s: fio's tool says %d ns, summary.csv %.0f ns: more than one "
                     "bucket apart" % (path, ddir, name, pcts[name], mine))
    return phase, point


def check_clients(path, rows, ts):
    """The number of path entries of the file."""
    doc = json.load(open(path))
    stats = doc["client_stats"]
    if stats[-1]["jobname"] != "All clients":
        fail("%s: the last client_stats entry is %r, not All clients" % (path, stats[-1]["jobname"]))
    phase, point = stats[0]["jobname"].split(":")[:2]
    mine = {k[2]: r for k, r in rows.items() if k[0] == phase and k[1] == int(point)}
    if sorted(s["hostname"] for s in stats[:-1]) != sorted(a for a in mine if a != "all"):
        fail("%s: client_stats hosts %s, summary.csv agents and paths %s"
             % (path, [s["hostname"] for s in stats[:-1]], sorted(mine)))
    for s in stats:
        check_fio_plot_keys(path, doc, s)
        name = "all" if s is stats[-1] else s["hostname"]
        check_rates(path, s, name, (phase, int(point), name), ts)
    for ddir in ("read", "write"):
        agents = [s for s in stats[:-1] if ":" not in s["hostname"]]
        if sum(s[ddir]["total_ios"] for s in agents) != stats[-1][ddir]["total_ios"]:
            fail("%s %s: All clients is not the sum of the agents" % (path, ddir))
        for s in stats[:-1]:
            if s[ddir]["total_ios"] != int(mine[s["hostname"]]["%s_ios" % ddir]):
                fail("%s %s: %s has %d I/Os, summary.csv %s" % (path, ddir, s["hostname"],
                     s[ddir]["total_ios"], mine[s["hostname"]]["%s_ios" % ddir]))
    return sum(1 for s in stats[:-1] if ":" in s["hostname"])


def check_hist_log(path, rows, agents, pctiles):
    stem = os.path.basename(path).split("_clat_hist.")[0]
    doc = json.load(open(os.path.join(os.path.dirname(os.path.dirname(path)), "jobs",
                                      stem + ".all.json")))
    phase, point = doc["jobs"][0]["jobname"].split(":")[:2]
    agent = agents[int(re.search(r"_clat_hist\.(\d+)\.log$", path).group(1)) - 1]
    row = rows[(phase, int(point), agent)]
    r = subprocess.run([sys.executable, pctiles, "--time-quantum", "1000000", "--percentiles",
                        "50", "99", "--", path], capture_output=True, text=True)
    if r.returncode:
        fail("fio-histo-log-pctiles.py %s: exit %d: %s%s" % (path, r.returncode, r.stdout, r.stderr))
    last = [x.strip() for x in r.stdout.strip().splitlines()[-1].split(",")]
    samples, median, p99 = round(float(last[1])), float(last[2]) * 1000, float(last[3]) * 1000
    ios = int(row["read_ios"]) + int(row["write_ios"])
    if samples != ios:
        fail("%s: fio-histo-log-pctiles.py counts %d I/Os, summary.csv %d" % (path, samples, ios))
    for got, col in ((median, "lat_p50_us"), (p99, "lat_p99_us")):
        want = float(row[col]) * 1000
        if not near(got, want):
            fail("%s: fio-histo-log-pctiles.py %.0f ns, summary.csv %s %.0f ns: more than one "
                 "bucket apart" % (path, got, col, want))


def main():
    folder, out, scratch, pctiles = sys.argv[1:5]
    rows = summary_rows(folder)
    seen = set()
    standalone = sorted(glob.glob(os.path.join(out, "*", "*", "jobs", "*.json")))
    clients = sorted(glob.glob(os.path.join(out, "*", "*", "*.json")))
    if not standalone or not clients:
        fail("%s: no json+ files" % out)
    for path in standalone:
        seen.add(check_standalone(path, rows, scratch,
                                  lambda p: os.path.basename(p).split(".")[-2]))
    ts = ts_rates(folder)
    npaths = sum(check_clients(path, rows, ts) for path in clients)
    agents = [a["name"] for a in json.load(open(os.path.join(folder, "run.json")))["agents"]]
    logs = sorted(glob.glob(os.path.join(out, "*", "*", "hist", "*_clat_hist.*.log")))
    for path in logs:
        check_hist_log(path, rows, agents, pctiles)
    nagent = sum(1 for (p, n, a) in rows if a != "all" and ":" not in a)
    if len(logs) != nagent:
        fail("%d histogram logs, %d agent rows in summary.csv" % (len(logs), nagent))
    points = {(p, n) for (p, n, a) in rows}
    if seen != points:
        fail("points exported %s, summary.csv's %s" % (sorted(seen), sorted(points)))
    print("ok: %d standalone and %d client/server json+ files (%d path entries) read by "
          "fio_jsonplus_clat2csv, per-interval statistics those of timeseries.csv, %d histogram logs by fio-histo-log-pctiles.py, %d points, "
          "percentiles within one bucket of summary.csv"
          % (len(standalone), len(clients), npaths, len(logs), len(points)))


main()
