#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Independent checks of `lockstep report` on the synthetic folders of make_results.py, for
report/report.sh:

  check_report.py plots DIR NAME...   NAME.gp non-empty, NAME.svg an SVG document with text and
                                      shapes, NAME.png a PNG of a sensible size, and nothing
                                      else drawn in DIR
  check_report.py points A REPORT     the points printed in REPORT are summary.csv's (agent all,
                                      the last round of each point)
  check_report.py json REPORT_JSON    `lockstep report --json` of make_results.py's folder A
  check_report.py compare A B C       C/compare.csv's deltas and compare_matrix-*.csv's ratios,
                                      recomputed from A's and B's summary.json and matrices

Exits 1 (or with a message) on the first difference.
"""
import csv
import json
import math
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

def name(label, test, rnd):
    suffix = " round %d" % rnd
    if rnd <= 0 or not label.endswith(suffix):
        return label
    label = label[: -len(suffix)]
    if test and label.startswith(test + ": ") and len(label) > len(test) + 2:
        return label[len(test) + 2:]
    return "" if label == test else label


def plots(args):
    d, names = args[0], args[1:]
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
    return 1 if bad else 0


def points(args):
    rows = [r for r in csv.DictReader(open(args[0] + "/summary.csv")) if r["agent"] == "all"]
    js = [p for p in json.load(open(args[0] + "/summary.json"))["points"] if p["agent"] == "all"]
    text = open(args[1]).read()
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


def json_report(args):
    d = json.load(open(args[0]))
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


def compare(args):
    a, b, c = args[0:3]

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


if __name__ == "__main__":
    sys.exit({"plots": plots, "points": points, "json": json_report, "compare": compare}[sys.argv[1]](sys.argv[2:]))
