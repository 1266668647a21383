#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hold `lockstep report DIR --pts`'s pages to the results folder they come from.

usage: check_pts.py DOM DIR

DOM is pts.html as headless Chromium rendered it (--dump-dom), DIR the results folder. For
every suite phase of a SNIA PTS test (summary.json tests, run.json, plan.yaml) the page must have
a section with the header (the device as run.json gives it, the plan's report: fields marked
"given by the plan"), every prescribed plot (inline SVG) and table of its test in the spec's
order, each table's figures equal to the results files (computed here from summary.json,
rounds.csv, curves.csv, the matrix files, xsr-PHASE.* and dirth-PHASE.json), and a deviations
box. DIR/pts.md must hold every table row of the page, and DIR/pts.pdf be a PDF of a page or
more per test. Exits 1 with what is wrong.
"""
import csv
import json
import math
import os
import re
import sys
from html.parser import HTMLParser

PTS = ("snia-iops", "snia-throughput", "snia-latency", "snia-wsat", "snia-hir", "snia-xsr",
       "snia-ecw", "snia-dirth")
STEADY = ["convergence", "window", "calc"]
# Each test's tables and plots (plot families) in the spec's order; "S" stands for the
# steady-state exhibits of each of its tests.
LAYOUT = {
    "snia-iops": ["S", "V"],
    "snia-throughput": ["S", "throughput", "plot:timeseries"],
    "snia-latency": ["S", "latency", "plot:lat_vs_iops"],
    "snia-wsat": ["plot:wsat", "wsat", "S"],
    "snia-hir": ["plot:hir", "hir"],
    "snia-xsr": ["plot:timeseries", "V"],
    "snia-ecw": ["S", "intensity", "plot:lat_vs_iops"],
    "snia-dirth": ["S", "intensity", "plot:lat_vs_iops", "V"],
}
# What a test shows once per value of a phase run once per value (once without): "V" above.
VALUE_ITEMS = {
    "snia-iops": ["matrix", "plot:matrix"],
    "snia-xsr": ["segments", "recovery", "intervals"],
    "snia-dirth": ["selected", "confidence", "H"],
}


# The axes a suite builds its grid from; any other a suite phase sweeps runs the grid per value.
GRID_AXES = ("bs", "rwmixread", "jobs", "iodepth", "rate_iops")
FAMILIES = ("lat_vs_iops", "timeseries", "steady", "matrix", "wsat", "hir", "dirth")


class Page(HTMLParser):
    """Sections, their header rows, tables (by data-pts) and plots, in document order."""

    def __init__(self):
        super().__init__()
        self.sections, self.sec = {}, None
        self.table = self.row = self.cell = None
        self.key = None
        self.plot = None
        self.dev = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        # self-contained: nothing that loads from elsewhere
        check(tag not in ("script", "link", "img", "iframe", "object", "embed", "base"),
              "the page has a <%s> element" % tag)
        for k, v in attrs:
            check(k not in ("src", "href", "xlink:href") or (v or "").startswith("#"),
                  "the page refers to %s" % v)
        if tag == "section" and "data-phase" in a:
            self.sec = {"suite": a["data-suite"], "order": [], "tables": {}, "plots": {},
                        "header": {}, "dev": None}
            self.sections[a["data-phase"]] = self.sec
        elif tag == "table" and self.sec is not None:
            key = a.get("data-pts", "").split("/", 1)[-1]
            self.table = {"key": key, "heads": [], "rows": []}
            if key != "header":
                self.sec["tables"][key] = self.table
                self.sec["order"].append(key)
        elif tag == "tr" and self.table is not None:
            self.row = []
            self.key = a.get("data-key")
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "figure" and "data-plot" in a:
            self.plot = a["data-plot"]
            self.sec["plots"][self.plot] = False
            self.sec["order"].append("plot:" + self.plot)
        elif tag == "svg" and self.plot:
            self.sec["plots"][self.plot] = True
        elif tag == "div" and "deviations" in a.get("class", ""):
            self.dev = []
            self.sec["dev"] = self.dev
        elif tag == "li" and self.dev is not None:
            self.dev.append("")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            t = self.table
            if t["key"] == "header":
                if self.key:
                    self.sec["header"][self.key] = self.row[-1]
            elif not t["heads"]:
                t["heads"] = self.row
            else:
                t["rows"].append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None
        elif tag == "figure":
            self.plot = None
        elif tag == "div" and self.dev is not None:
            self.dev = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        if self.dev and self.cell is None:
            self.dev[-1] += data


ERRORS = []


def check(cond, what):
    if not cond:
        ERRORS.append(what)
    return cond


def near(cell, want, what):
    try:
        got = float(cell)
    except ValueError:
        return check(False, "%s: '%s' is not a number (want %r)" % (what, cell, want))
    # the page prints each figure at a fixed precision: equal is within half its last digit
    decimals = len(cell.split(".")[1]) if "." in cell else 0
    tol = 0.5 * 10 ** -decimals + 1e-9 * abs(want)
    return check(abs(got - want) <= tol, "%s: %s, want %r" % (what, cell, want))


def rows_equal(table, want, what):
    """table's rows against want (rows of numbers or strings)."""
    check(len(table["rows"]) == len(want),
          "%s: %d rows, want %d" % (what, len(table["rows"]), len(want)))
    for i, (got, exp) in enumerate(zip(table["rows"], want)):
        for j, (g, e) in enumerate(zip(got, exp)):
            where = "%s row %d column %s" % (what, i + 1, table["heads"][j])
            if isinstance(e, str):
                check(g == e, "%s: '%s', want '%s'" % (where, g, e))
            else:
                near(g, e, where)


def csv_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def family(key):
    """A block's key, a plot's as plot:FAMILY (its name is FAMILY_PHASE[_TEST])."""
    if not key.startswith("plot:"):
        return key
    return "plot:" + next((f for f in FAMILIES if key[5:].startswith(f + "_")), key[5:])


def value_files(d, prefix, phase, ext):
    """The files PREFIX-PHASE.EXT, or PREFIX-PHASE-VALUE.EXT of a phase run once per value, as
    (file, label): the label is the value as the page names it ("size=8m pattern=zeros"), read
    back from the file name (docs/results.md: spaces became '-')."""
    out = []
    for f in sorted(os.listdir(d)):
        if f == "%s-%s.%s" % (prefix, phase, ext):
            out.append((f, ""))
        elif f.startswith("%s-%s-" % (prefix, phase)) and f.endswith("." + ext):
            rest = f[len(prefix) + len(phase) + 2:-len(ext) - 1]
            if re.match(r"[a-z_]+=", rest):
                out.append((f, " ".join(re.split(r"-(?=[a-z_]+=)", rest))))
    return out


def in_page_order(sec, key, files):
    """files (value_files) in the order the page shows their table KEY[:LABEL]."""
    pos = {k: i for i, k in enumerate(sec["order"])}
    return sorted(files, key=lambda fl: pos.get(key + (":" + fl[1] if fl[1] else ""), 1e9))


def sfx(label):
    return ":" + label if label else ""


def layout(suite, tests, per_value):
    """The blocks of a test's page in the spec's order; per_value: (label, picks) of each value
    of a test whose own files make tables per value."""
    want = []
    for item in LAYOUT[suite]:
        if item == "S":
            for t in tests:
                want.append("plot:steady")
                want += [k + (":" + t["test"] if len(tests) > 1 else "") for k in STEADY]
        elif item == "V":
            for label, picks in per_value:
                for k in VALUE_ITEMS[suite]:
                    if k == "H":
                        for p in picks:
                            want += ["plot:dirth", "histogram:%s%s" % (p, sfx(label))]
                    elif k.startswith("plot:"):
                        want.append(k)
                    else:
                        want.append(k + sfx(label))
        else:
            want.append(item)
    return want


def check_steady(sec, tests, phase):
    for t in tests:
        sfx = ":" + t["test"] if len(tests) > 1 else ""
        what = "%s %s" % (phase, t["test"])
        vals = t["values"]
        rows_equal(sec["tables"]["convergence" + sfx], [[i + 1, v] for i, v in enumerate(vals)],
                   what + " convergence")
        first, last = t["window_first"], t["window_last"]
        rows_equal(sec["tables"]["window" + sfx],
                   [[k, vals[k - 1]] for k in range(first, last + 1)], what + " window")
        calc = {r[0]: r[1] for r in sec["tables"]["calc" + sfx]["rows"]}
        for name, key in (("Average", "average"), ("Maximum", "max"), ("Minimum", "min"),
                          ("Data excursion (% of average)", "data_excursion_pct"),
                          ("Slope excursion (% of average)", "slope_excursion_pct"),
                          ("Least-squares slope (per round)", "slope")):
            near(calc.get(name, ""), t[key], what + " calc " + name)
        verdict = calc.get("Verdict", "")
        check(verdict.startswith("steady in rounds %d-%d" % (first, last)) == t["steady"],
              "%s verdict '%s' (steady %s)" % (what, verdict, t["steady"]))


def curve_rows(d, phase):
    out = []
    for c in csv_rows(os.path.join(d, "curves.csv")):
        if c["phase"] != phase or c.get("scope", "all") not in ("all", ""):
            continue
        j, q = float(c["jobs"]), float(c["iodepth"])
        out.append([j, q, j * q, float(c["bs"]), float(c["rwmixread"]), float(c["iops"]),
                    float(c["mbps"]), float(c["lat_mean_us"]), float(c["lat_p99_us"]),
                    float(c["lat_p99_9_us"]), float(c["lat_p99_99_us"])])
    return out


def check_matrix(d, phase, t, f, label):
    mrows = csv_rows(os.path.join(d, f))
    mixes = [k for k in mrows[0] if "/" in k]
    key = "matrix" + sfx(label)
    if not check(key in t, "%s: no table %s" % (phase, key)):
        return
    check(t[key]["heads"][1:] == mixes, "%s %s heads %s" % (phase, key, t[key]["heads"]))
    rows_equal(t[key], [[float(r["bs"])] + [float(r[k]) for k in mixes] for r in mrows],
               "%s %s" % (phase, key))


def check_xsr(d, phase, t, label):
    x = sfx(label)
    stem = phase + ("-" + label.replace(" ", "-") if label else "")
    xc = csv_rows(os.path.join(d, "xsr-%s.csv" % stem))
    rows_equal(t["intervals" + x], [[float(r[k]) for k in ("segment", "interval", "t_s", "seconds",
                                                          "iops", "mbps")] for r in xc],
               phase + " xsr intervals" + x)
    xj = json.load(open(os.path.join(d, "xsr-%s.json" % stem)))
    rows_equal(t["segments" + x], [[i + 1, s["name"], s["intervals"], s["mbps"]]
                                   for i, s in enumerate(xj["segments"])], phase + " xsr segments" + x)
    r = t["recovery" + x]["rows"][0]
    near(r[0], xj["baseline_mbps"], phase + " xsr baseline" + x)
    check(r[2] == ("yes" if xj["recovered"] else "no"), phase + " xsr recovered " + r[2])
    if xj["recovered"]:
        near(r[3], xj["recovered_interval"], phase + " xsr recovered interval" + x)
        near(r[4], xj["recovery_s"], phase + " xsr recovery time" + x)


def check_dirth(d, phase, t, dj, label):
    x = sfx(label)
    stem = phase + ("-" + label.replace(" ", "-") if label else "")
    rows_equal(t["selected" + x], [[s["pick"], s["label"], s["jobs"], s["iodepth"], s["grid_iops"],
                                    s["grid_lat_mean_us"], s["iops"], s["ios"], s["seconds"],
                                    s["lat_mean_us"], s["lat_max_us"]] for s in dj["selected"]],
               phase + " dirth selected" + x)
    pc = ("99", "99.9", "99.99", "99.999")
    rows_equal(t["confidence" + x],
               [[s["pick"]] + [s["percentiles_us"][p] for p in pc] +
                [", ".join("p" + p for p in pc if s["supported"][p]) or "none"]
                for s in dj["selected"]], phase + " dirth confidence" + x)
    bins = {}
    for r in csv_rows(os.path.join(d, "dirth-%s.csv" % stem)):
        bins.setdefault(r["pick"], []).append([float(r["lo_us"]), float(r["hi_us"]),
                                               float(r["count"])])
    for s in dj["selected"]:
        key = "histogram:" + s["pick"] + x
        rows_equal(t[key], [b[:3] for b in s["histogram"]], phase + " " + key)
        rows_equal(t[key], bins[s["pick"]], phase + " " + key + " (csv)")


def check_phase(d, phase, suite, sec, tests, rounds):
    files = []
    if suite == "snia-iops":
        files = value_files(d, "matrix", phase, "csv")
        if os.path.exists(os.path.join(d, "matrix.csv")) and \
                not any(lbl == "" for _, lbl in files):
            # matrix.csv: the first snia-iops phase's (its first value's) without a file of its own
            first = [k for k in sec["order"] if k.startswith("matrix")][:1]
            files.insert(0, ("matrix.csv", first[0][7:] if first and ":" in first[0] else ""))
    elif suite == "snia-xsr":
        files = value_files(d, "xsr", phase, "json")
    elif suite == "snia-dirth":
        files = value_files(d, "dirth", phase, "json")
    files = in_page_order(sec, {"snia-iops": "matrix", "snia-xsr": "segments",
                                "snia-dirth": "selected"}.get(suite, ""), files)
    per_value = []
    for f, label in files:
        picks = []
        if suite == "snia-dirth":
            picks = [s["pick"] for s in json.load(open(os.path.join(d, f)))["selected"]]
        per_value.append((label, picks))
    want = layout(suite, tests, per_value)
    got = [family(k) for k in sec["order"]]
    check(got == want, "%s: blocks %s, want the spec's %s" % (phase, got, want))
    for name, drawn in sec["plots"].items():
        check(drawn, "%s: plot %s is not inline" % (phase, name))
    check_steady(sec, tests, phase)
    t = sec["tables"]
    for f, label in files:
        if suite == "snia-iops":
            check_matrix(d, phase, t, f, label)
        elif suite == "snia-xsr":
            check_xsr(d, phase, t, label)
        elif suite == "snia-dirth":
            check_dirth(d, phase, t, json.load(open(os.path.join(d, f))), label)
    if suite == "snia-throughput":
        rows_equal(t["throughput"], [[x["test"], x["average"]] for x in tests], phase + " throughput")
    if suite in ("snia-latency",):
        rows_equal(t["latency"], curve_rows(d, phase), phase + " latency")
    if suite in ("snia-ecw", "snia-dirth"):
        rows_equal(t["intensity"], curve_rows(d, phase), phase + " demand intensity")
    if suite == "snia-wsat":
        rows_equal(t["wsat"], [[float(r["round"]), float(r["t_s"]), float(r["iops"]),
                                float(r["lat_mean_us"]), float(r["lat_max_us"]),
                                float(r["bytes_written"]) / 1e9] for r in rounds if r["phase"] == phase],
                   phase + " wsat")
    if suite == "snia-hir":
        rows_equal(t["hir"], [[r["test"], float(r["round"]), float(r["t_s"]), float(r["iops"]),
                               float(r["lat_mean_us"]), float(r["lat_max_us"])]
                              for r in rounds if r["phase"] == phase], phase + " hir")


def expected_deviations(phase, suite, block, run):
    """What the deviations box must say of a phase, read from its plan.yaml block (the plan's
    settings against the spec's) and run.json (paths, pattern): one regular expression per
    item, the box to have exactly these."""
    want = []
    for t in run["targets"]:
        if len(t["paths"]) > 1:
            want.append(r"target %s is driven through %d paths at once" % (t["name"], len(t["paths"])))
    m = re.search(r"pattern: (\[[^]]*\]|[^,}\s]+)", block)
    pats = [x.strip() for x in m.group(1).strip("[]").split(",")] if m else []
    pats = [x for x in pats if x != "random"]
    if pats:
        want.append(r"^data pattern %s \(spec: random" % re.escape(pats[0]))
    m = re.search(r"round: \{[^}]*duration: (\w+)", block)
    if m and m.group(1) not in ("60s", "1m") and suite != "snia-hir":
        want.append(r"^(rounds|intervals) of .+ \(spec: 1 minute\)")
    m = re.search(r"window: (\d+)", block)
    if m and m.group(1) != "5":
        want.append(r"^steady-state window of %s rounds \(spec: 5\)" % m.group(1))
    m = re.search(r"max_rounds: (\d+)", block)
    if m and m.group(1) != "25" and suite != "snia-wsat":
        want.append(r"^at most %s rounds \(spec: 25\)" % m.group(1))
    sweep = re.findall(r"(\w+): \[([^]]*)\]", block.split("sweep:")[1].split("\n")[0]) \
        if "sweep:" in block else []
    grid = [a for a, _ in sweep if a in GRID_AXES]
    values = [(a, len(v.split(","))) for a, v in sweep if a not in GRID_AXES]
    if values:
        want.append(r"^the test runs %d times, once per value of %s, each with its own"
                    % (math.prod(n for _, n in values), ", ".join(a for a, _ in values)))
    if grid and suite in ("snia-iops", "snia-throughput", "snia-latency", "snia-ecw",
                          "snia-dirth"):
        want.append(r"^the grid is the plan's sweep over %s .*; spec: " % ", ".join(grid))
    elif suite == "snia-iops":
        want.append(r"^the 0\.5 KiB block size is not run")
    elif suite == "snia-latency":
        want.append(r"^mixes 100/0, 70/30 and 0/100")
    m = re.search(r"segments: \[([^]]*)\]", block)
    if m:
        for k, (seg, spec) in enumerate(zip(m.group(1).split(","), (8, 6, 6)), 1):
            if seg.strip() != "%dh" % spec:
                want.append(r"^segment %d of .+ \(spec: %d h\)" % (k, spec))
    m = re.search(r"workload: \{([^}]*)\}", block)
    for k in re.findall(r"(\w+):", m.group(1)) if m else []:
        if k != "pattern":
            want.append(r"^workload %s: .*, set by the plan" % k)
    m = re.search(r"hir: \{([^}]*)\}", block)
    if m:
        hir = dict(re.findall(r"(\w+): (\[[^]]*\]|\w+)", m.group(1)))
        defaults = {"gaps": "[5s, 10s, 15s, 25s, 50s]", "burst": "5s", "repeats": "360",
                    "continuous": "1800s"}
        patterns = {"gaps": r"^\d+ wait states, not the spec's", "burst": r"^bursts of .+ \(spec: 5 s\)",
                    "repeats": r"^\d+ bursts per wait state \(spec: 360\)",
                    "continuous": r"^continuous writes between wait states of .+ \(spec: 1800 s\)"}
        want += [patterns[k] for k in defaults if k in hir and hir[k] != defaults[k]]
    m = re.search(r"histogram: (\w+)", block)
    if m and m.group(1) not in ("10m", "600s"):
        want.append(r"^histogram runs of .+ \(spec: 10 minutes\)")
    return want


def check_deviations(phase, sec, want):
    got = [" ".join(x.split()) for x in sec["dev"] or []]
    for w in want:
        check(any(re.search(w, g) for g in got), "%s deviations: none matches /%s/ in %s" % (phase, w, got))
    check(len(got) == len(want), "%s deviations: %d items %s, want %d" % (phase, len(got), got, len(want)))


def check_header(phase, sec, run, plan_text):
    h = sec["header"]
    ident = run["targets"][0]["identities"][0]
    for key, field in (("Vendor", "vendor"), ("Model", "model"), ("Serial", "serial"),
                       ("Firmware", "firmware")):
        check(h.get(key) == (ident[field] or "not reported by the device"),
              "%s header %s: %r, want %r" % (phase, key, h.get(key), ident[field]))
    check(h.get("Capacity", "").startswith("%d bytes" % run["targets"][0]["size"]),
          "%s header capacity %r" % (phase, h.get("Capacity")))
    for key, yaml_key in (("Test sponsor", "sponsor"), ("NAND type", "nand")):
        m = re.search(r"\b%s: \"?([^,\"}]+)" % yaml_key, plan_text)
        if m:
            check(h.get(key) == m.group(1).strip() + "given by the plan",
                  "%s header %s: %r, want %r marked given by the plan" % (phase, key, h.get(key), m.group(1)))
    hosts = h.get("Hosts", "")
    for a in run["agents"]:
        check(a["host"] in hosts, "%s header: host %s missing from %r" % (phase, a["host"], hosts))
    check(run["versions"]["lockstep"] in h.get("lockstep", ""), "%s header: no lockstep version" % phase)


def main():
    dom, d = sys.argv[1:3]
    page = Page()
    page.feed(open(dom, encoding="utf-8").read())
    run = json.load(open(os.path.join(d, "run.json")))
    summ = json.load(open(os.path.join(d, "summary.json")))
    plan_text = open(os.path.join(d, "plan.yaml")).read()
    rounds = csv_rows(os.path.join(d, "rounds.csv")) if os.path.exists(os.path.join(d, "rounds.csv")) else []
    suites = dict(re.findall(r"- name: (\S+)\n\s+suite: (\S+)", plan_text))
    phases = [p for p in dict.fromkeys(x["phase"] for x in run["phases"]) if suites.get(p) in PTS]
    check(list(page.sections) == phases, "sections %s, want the PTS phases %s" % (list(page.sections), phases))
    for phase in phases:
        sec = page.sections.get(phase)
        if not check(sec is not None, "no section for phase " + phase):
            continue
        check(sec["suite"] == suites[phase], "%s: suite %s" % (phase, sec["suite"]))
        tests = [t for t in summ["tests"] if t["phase"] == phase and "values" in t]
        check_header(phase, sec, run, plan_text)
        check(sec["dev"] is not None, phase + ": no deviations box")
        block = plan_text.split("- name: %s\n" % phase, 1)[1].split("  - name:")[0]
        check_deviations(phase, sec, expected_deviations(phase, suites[phase], block, run))
        check_phase(d, phase, suites[phase], sec, tests, rounds)
    md = open(os.path.join(d, "pts.md"), encoding="utf-8").read()
    for phase, sec in page.sections.items():
        for key, t in sec["tables"].items():
            for r in t["rows"]:
                line = "| " + " | ".join(c.replace("|", "\\|") for c in r) + " |"
                if not check(line in md, "pts.md lacks %s/%s row %s" % (phase, key, line)):
                    break
    pdf = open(os.path.join(d, "pts.pdf"), "rb").read()
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    check(pdf[:5] == b"%PDF-" and pages >= len(phases), "pts.pdf: %d pages for %d tests" % (pages, len(phases)))
    ntab = sum(len(s["tables"]) for s in page.sections.values())
    nplot = sum(len(s["plots"]) for s in page.sections.values())
    if ERRORS:
        print("\n".join(ERRORS[:40]), file=sys.stderr)
        sys.exit(1)
    print("pts: %d tests, %d tables and %d plots equal to the results files; pdf of %d pages"
          % (len(phases), ntab, nplot, pages))


if __name__ == "__main__":
    main()
