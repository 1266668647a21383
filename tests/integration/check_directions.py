#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Independent check of the per-direction latency columns, from a results folder.

Decodes every raw SAMPLE of samples/*.msgpack (check_merge.py's decoder), merges each
direction's histograms apart, per interval and per point's measured window, and checks:

- the headers: every column of before, in its place, then the per-direction block (and only
  columns added later after it);
- timeseries.csv (agent all and each agent) and summary.csv (agent all and each agent): every
  read_/write_ latency column equals that direction's independent merged histogram (empty when
  the direction did no I/O), read_lat_count/write_lat_count equal its counts, and the two
  counts add up to the combined count (and to read_ios + write_ios);
- points.jsonl: lockstep's own merged histograms of each point (result.lat, lat_read,
  lat_write) equal the independent ones bucket by bucket, and lat_read + lat_write == lat;
- curves.csv (scope all): each row's per-direction columns equal its point's summary row.

Prints what it checked; exits non-zero on the first difference.
"""
import collections
import csv
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_merge import Hist, read_samples, run_phases  # noqa: E402

STATS = ("mean", "p50", "p99", "p99_9", "p99_99", "p99_999", "max")
DIR_COLS = [f"{d}_lat_{s}_us" for d in ("read", "write") for s in STATS]
OLD = {
    "timeseries.csv": "phase,point,interval,t_s,agent,read_iops,write_iops,read_mbps,"
    "write_mbps,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us,"
    "scope,target,path",
    "summary.csv": "phase,point,label,agent,t_s,duration_s,read_iops,write_iops,read_mbps,"
    "write_mbps,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us,"
    "read_ios,write_ios,read_bytes,write_bytes,errors,test,round,scope,target,path",
    "curves.csv": "phase,point,jobs,iodepth,bs,rwmixread,iops,mbps,lat_mean_us,lat_p99_us,"
    "lat_p99_9_us,lat_p99_99_us,rate_iops,target_pct,scope,agent,target,path",
}
NEW = {
    "timeseries.csv": DIR_COLS,
    "summary.csv": DIR_COLS + ["read_lat_count", "write_lat_count"],
    "curves.csv": DIR_COLS,
}


def want(h, d):
    """The block of direction d ("read"/"write") of histogram h: "" for each when empty."""
    p = {"p50": 50, "p99": 99, "p99_9": 99.9, "p99_99": 99.99, "p99_999": 99.999}
    out = {}
    for s in STATS:
        col = f"{d}_lat_{s}_us"
        if not h.count:
            out[col] = None
        elif s == "mean":
            out[col] = h.mean() / 1e3
        elif s == "max":
            out[col] = h.max / 1e3
        else:
            out[col] = h.percentile(p[s]) / 1e3
    return out


def compare(what, row, hists):
    for d in ("read", "write"):
        for col, v in want(hists[d], d).items():
            if v is None:
                if row[col] != "":
                    sys.exit(f"{what} {col}: lockstep {row[col]!r}, no {d} I/O: want empty")
            elif row[col] == "" or abs(float(row[col]) - v) > 0.0015:
                sys.exit(f"{what} {col}: lockstep {row[col]!r}, independent {v:.3f}")


def rows(res, name):
    with open(os.path.join(res, name)) as f:
        header = f.readline().rstrip("\n").split(",")
    old = OLD[name].split(",")
    # later columns may follow (docs/results.md: columns are only ever added at the end)
    if header[:len(old) + len(NEW[name])] != old + NEW[name]:
        sys.exit(f"{name}: header {header}, want {old + NEW[name]} first")
    return list(csv.DictReader(open(os.path.join(res, name))))


def from_hex(s):
    return Hist.decode(bytes.fromhex(s))


def same(a, b):
    return (a.count, a.overflow, a.sum, a.min, a.max, +a.buckets) == \
        (b.count, b.overflow, b.sum, b.min, b.max, +b.buckets)


def main(res):
    phase_index = {}
    for ph in run_phases(res):
        phase_index.setdefault(ph["phase"], len(phase_index))
    dd = lambda: {"read": Hist(), "write": Hist()}  # noqa: E731
    ivl = collections.defaultdict(dd)  # (phase, point, k, agent) -> per direction
    pt = collections.defaultdict(dd)   # (phase, point, agent) -> per direction, measured
    for f in glob.glob(os.path.join(res, "samples", "*.msgpack")):
        agent = os.path.basename(f)[: -len(".msgpack")]
        for m in read_samples(f):
            if m["flags"] & 1:
                continue
            for d in ("read", "write"):
                h = Hist.decode(m[d]["hist"])
                for who in (agent, "all"):
                    ivl[(m["phase"], m["point"], m["interval"], who)][d].add(h)
                    pt[(m["phase"], m["point"], who)][d].add(h)
    n_ts = n_sum = n_j = n_curves = 0
    for r in rows(res, "timeseries.csv"):
        if r["scope"] not in ("all", "agent"):
            continue
        key = (phase_index[r["phase"]], int(r["point"]), int(r["interval"]), r["agent"])
        compare(f"timeseries.csv {key}", r, ivl[key])
        n_ts += 1
    summary = {}
    for r in rows(res, "summary.csv"):
        if r["scope"] not in ("all", "agent"):
            continue
        key = (phase_index[r["phase"]], int(r["point"]), r["agent"])
        h = pt[key]
        compare(f"summary.csv {key}", r, h)
        both = Hist()
        both.add(h["read"])
        both.add(h["write"])
        rc, wc = int(r["read_lat_count"]), int(r["write_lat_count"])
        assert (rc, wc) == (h["read"].count, h["write"].count), (key, rc, wc)
        assert rc + wc == both.count == int(r["read_ios"]) + int(r["write_ios"]), (key, r)
        if r["agent"] == "all":
            summary[key[:2]] = r
            print(f"  {r['phase']} point {r['point']}: read p99 {r['read_lat_p99_us'] or '-'} "
                  f"us ({rc} I/Os), write p99 {r['write_lat_p99_us'] or '-'} us ({wc} I/Os), "
                  f"both p99 {r['lat_p99_us']} us")
        n_sum += 1
    for line in open(os.path.join(res, "points.jsonl")):
        e = json.loads(line)
        if e.get("type") != "point":
            continue
        key = (e["phase_index"], e["point"], "all")
        res_ = e["result"]
        lat, rd, wr = (from_hex(res_[k]) for k in ("lat", "lat_read", "lat_write"))
        assert same(rd, pt[key]["read"]), (key, "lat_read differs from the samples' merge")
        assert same(wr, pt[key]["write"]), (key, "lat_write differs from the samples' merge")
        both = Hist()
        both.add(rd)
        both.add(wr)
        assert same(both, lat), (key, "lat_read + lat_write != lat")
        n_j += 1
    if os.path.exists(os.path.join(res, "curves.csv")):
        for r in rows(res, "curves.csv"):
            if r["scope"] != "all":
                continue
            s = summary[(phase_index[r["phase"]], int(r["point"]))]
            for col in DIR_COLS:
                assert r[col] == s[col], (r["phase"], r["point"], col, r[col], s[col])
            n_curves += 1
    print(f"  rows checked: timeseries {n_ts}, summary {n_sum}, journal {n_j}, "
          f"curves {n_curves}")
    assert n_ts > 10 and n_sum and n_j


if __name__ == "__main__":
    main(sys.argv[1])
