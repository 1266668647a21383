#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check a `lockstep report --html` page against its results folder.

usage: check_report_html.py PAGE DIR [--plots yes|no|missing]
       check_report_html.py --compare PAGE COMPARE.csv
       check_report_html.py --netlog NETLOG.json

- Self-contained: no script, link, iframe, object, embed, img or base element; every href, src
  and xlink:href an in-page anchor ("#..."); no http:// or https:// anywhere; CSS without
  @import or url() other than url(#...).
- The figures of every summary row in the page (a <tr data-phase=...>, each figure in a
  <td data-col=...>) equal summary.csv's row of the same phase, point, scope, agent, target and
  path, to the page's rounding; every phase of summary.csv has rows in the page, and points
  with agent rows show them.
- Plots: yes, inline <svg> elements (and no note that they were skipped); no, none and the
  --no-plots note; missing, none and the gnuplot-not-found note.
--compare: the page of `report DIR1 DIR2 --html`: self-contained as above, and every row of
compare.csv is in the page (a <tr data-phase data-test data-label>) with the same figures of
both runs and the same changes, to the page's rounding.
--netlog: Chromium's --log-net-log file of the page's rendering holds no request made for the
page (a request whose initiator or isolation key is the file:// page) other than file: and
data: URLs. Chromium's own background requests (component updates, initiator "not an origin")
are not the page's and are left out.
Exit 0, or 1 with every problem printed.
"""
import csv
import html.parser
import json
import math
import re
import sys

BANNED = {"script", "link", "iframe", "object", "embed", "img", "base", "frame", "audio",
          "video", "source", "image"}
URL_ATTRS = {"href", "src", "xlink:href", "action", "poster", "data", "srcset", "formaction"}
# page column -> (summary.csv columns summed, tolerance of the page's format)
COLS = {
    "iops": (("read_iops", "write_iops"), 0.5),
    "read_iops": (("read_iops",), 0.5),
    "write_iops": (("write_iops",), 0.5),
    "mbps": (("read_mbps", "write_mbps"), 0.05),
    "lat_mean_us": (("lat_mean_us",), 0.05),
    "lat_p50_us": (("lat_p50_us",), 0.05),
    "lat_p99_us": (("lat_p99_us",), 0.05),
    "lat_p99_9_us": (("lat_p99_9_us",), 0.05),
    "lat_p99_99_us": (("lat_p99_99_us",), 0.05),
    "lat_max_us": (("lat_max_us",), 0.05),
    "read_lat_mean_us": (("read_lat_mean_us",), 0.05),
    "read_lat_p99_us": (("read_lat_p99_us",), 0.05),
    "write_lat_mean_us": (("write_lat_mean_us",), 0.05),
    "write_lat_p99_us": (("write_lat_p99_us",), 0.05),
}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.bad = []
        self.rows = []  # (attrs of tr, {col: text})
        self.row = None
        self.cell = None
        self.svgs = 0
        self.style = ""
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in BANNED:
            self.bad.append("element <%s> in the page" % tag)
        for k, v in attrs:
            if k in URL_ATTRS and v is not None and not v.startswith("#"):
                self.bad.append("<%s %s=%r>: not an in-page reference" % (tag, k, v))
            if k == "style" and v and re.search(r"url\((?!#)|@import", v):
                self.bad.append("<%s style=%r>: refers outside" % (tag, v))
        if tag == "svg":
            self.svgs += 1
        elif tag == "style":
            self.in_style = True
        elif tag == "tr" and "data-phase" in a:
            self.row = (a, {})
            self.rows.append(self.row)
        elif tag == "td" and self.row is not None and "data-col" in a:
            self.cell = a["data-col"]
            self.row[1][self.cell] = ""

    def handle_endtag(self, tag):
        if tag == "td":
            self.cell = None
        elif tag == "tr":
            self.row = None
        elif tag == "style":
            self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        if self.cell is not None and self.row is not None:
            self.row[1][self.cell] += data


def number(text):
    t = text.replace("\u2009", "").replace("\u00a0", "").replace(" ", "").strip()
    if t in ("", "\u2013", "-"):
        return math.nan
    return float(t)


def csv_num(s):
    return float(s) if s not in (None, "") else math.nan


def netlog(path):
    with open(path) as f:
        d = json.load(f)
    names = {v: k for k, v in d["constants"]["logEventTypes"].items()}
    bad = []
    for e in d["events"]:
        p = e.get("params") or {}
        if names.get(e["type"]) != "URL_REQUEST_START_JOB" or "url" not in p:
            continue
        page = p.get("initiator") != "not an origin" or "file://" in p.get(
            "network_isolation_key", "")
        if page and not re.match(r"(file|data|about|chrome):", p["url"]):
            bad.append(p["url"])
    for u in bad:
        print("check_report_html: %s: the page requested %s" % (path, u))
    print("check_report_html: %s: %s" % (path, "FAILED" if bad else "no network request"))
    return 1 if bad else 0


def self_contained(text, p):
    bad = list(p.bad)
    for m in re.finditer(r"https?://", text):
        bad.append("an URL in the page: %r" % text[m.start():m.start() + 60])
    if re.search(r"@import|url\((?!#)", p.style):
        bad.append("the style sheet refers outside the page")
    if not text.lstrip().lower().startswith("<!doctype html>"):
        bad.append("no <!DOCTYPE html>")
    return bad


def compare(page, path):
    text = open(page, encoding="utf-8").read()
    p = Page()
    p.feed(text)
    bad = self_contained(text, p)
    rows = {}
    for a, cells in p.rows:
        rows[(a.get("data-phase"), a.get("data-test"), a.get("data-label"))] = cells
    checked = 0
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["phase"], r["test"], r["label"])
            cells = rows.pop(key, None)
            if cells is None:
                bad.append("compare.csv row %s: not in the page" % (key,))
                continue
            for col, v in r.items():
                if col in ("phase", "test", "label", "match"):
                    continue
                if col == "basis" or col.startswith("noise_"):  # text: the basis, a verdict
                    if cells.get(col) != v:
                        bad.append("row %s: %s is %r, compare.csv has %r" %
                                   (key, col, cells.get(col), v))
                    checked += 1
                    continue
                tol = 0.5 if col.startswith("iops_") and not col.endswith("pct") else 0.05
                want, got = csv_num(v), number(cells.get(col, "x0"))
                if math.isnan(want) and math.isnan(got):
                    continue
                if math.isnan(want) or math.isnan(got) or abs(got - want) > tol + 1e-9 * abs(want):
                    bad.append("row %s: %s is %r, compare.csv has %r" %
                               (key, col, cells.get(col), v))
                checked += 1
    for key in rows:
        bad.append("page row %s: not in compare.csv" % (key,))
    if p.svgs == 0:
        bad.append("no inline SVG plot")
    for b in bad[:40]:
        print("check_report_html: %s: %s" % (page, b))
    print("check_report_html: %s: %d figures checked against %s, %s" %
          (page, checked, path, "FAILED" if bad else "ok"))
    return 1 if bad else 0


def main():
    if sys.argv[1] == "--netlog":
        return netlog(sys.argv[2])
    if sys.argv[1] == "--compare":
        return compare(sys.argv[2], sys.argv[3])
    page, folder = sys.argv[1], sys.argv[2]
    plots = "yes"
    if "--plots" in sys.argv:
        plots = sys.argv[sys.argv.index("--plots") + 1]
    text = open(page, encoding="utf-8").read()
    p = Page()
    p.feed(text)
    bad = self_contained(text, p)

    summary = {}
    phases = []
    with open(folder + "/summary.csv", newline="") as f:
        for r in csv.DictReader(f):
            scope = r.get("scope") or ("all" if r["agent"] == "all" else "agent")
            key = (r["phase"], r["point"], scope, r["agent"], r.get("target") or "",
                   r.get("path") or "")
            summary[key] = r
            if r["phase"] not in phases:
                phases.append(r["phase"])
    checked = 0
    seen_phases = set()
    subs = 0
    for a, cells in p.rows:
        key = (a.get("data-phase"), a.get("data-point"), a.get("data-scope"),
               a.get("data-agent"), a.get("data-target") or "", a.get("data-path") or "")
        if key not in summary:
            bad.append("page row %s: not in summary.csv" % (key,))
            continue
        seen_phases.add(key[0])
        subs += key[2] != "all"
        r = summary[key]
        for col, (srcs, tol) in COLS.items():
            if col not in cells:
                bad.append("page row %s: no %s" % (key, col))
                continue
            want = sum(csv_num(r.get(s)) for s in srcs)  # older folders lack some
            got = number(cells[col])
            if math.isnan(want) and math.isnan(got):
                continue
            if math.isnan(want) or math.isnan(got) or abs(got - want) > tol + 1e-9 * abs(want):
                bad.append("page row %s: %s is %r, summary.csv has %r" %
                           (key, col, cells[col], want))
            checked += 1
    for ph in phases:
        if ph not in seen_phases:
            bad.append("phase %s of summary.csv has no row in the page" % ph)
    if not subs and any(k[2] != "all" for k in summary):
        bad.append("no agent, target or path rows in the page")

    if plots == "yes":
        if p.svgs == 0:
            bad.append("no inline SVG plot")
        if "Plots were not drawn" in text:
            bad.append("the page says plots were not drawn")
    else:
        if p.svgs:
            bad.append("%d SVG plots, none expected" % p.svgs)
        note = "--no-plots" if plots == "no" else "gnuplot was not found"
        if note not in text:
            bad.append("the page does not say why it has no plots (%r)" % note)

    for b in bad[:40]:
        print("check_report_html: %s: %s" % (page, b))
    if len(bad) > 40:
        print("... %d more" % (len(bad) - 40))
    print("check_report_html: %s: %d rows, %d figures checked, %d plots, %s" %
          (page, len(p.rows), checked, p.svgs, "FAILED" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
