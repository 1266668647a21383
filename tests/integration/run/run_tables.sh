#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What `lockstep run` prints at its end, and the HTML page's summary tables, for a real two-agent
# run on loop devices: three loop devices over one file are the ports of one drive, as in the
# demo (the first agent has two of them, the second one), the agents have 20-character names,
# and a 70/30 random mix is swept over one agent's ports and both agents' (a 60-character
# point label).
#
# 1. The run's closing summary has what `demo` and `report` print: under each point its agents'
#    rows and its paths' rows, and the port-scaling table; each figure is summary.csv's.
# 2. Long labels keep the columns: in every table of the run's output and of `lockstep report`,
#    each row's figures end at the offsets of their heads, and no label is cut.
# 3. The HTML page, rendered by headless Chromium: the read and write latency cells read from
#    the rendered DOM (mean and p99 of each direction) equal summary.csv's for every row, with
#    figures for each point that did both; its port-scaling table has summary.csv's IOPS and
#    MB/s and their ratios, its balance rows each agent's and path's share, IOPS and p99; the
#    summary table stays within the page's width.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup chromium

back=$(mk_backing 128M)
p0=$(mk_loop "$back")
p1=$(mk_loop "$back")
p2=$(mk_loop "$back")
A=storage-host-alpha01 # 20 characters each
B=storage-host-bravo02
pa=$(free_port)
start_agent "$A" "$pa" --allow-write "$p0" --allow-write "$p1"
pb=$(free_port)
start_agent "$B" "$pb" --allow-write "$p2"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: run-tables
agents:
  - {name: $A, address: "tcp://127.0.0.1:$pa"}
  - {name: $B, address: "tcp://127.0.0.1:$pb"}
targets:
  - name: drive
    share: split
    paths: {$A: ["$p0", "$p1"], $B: "$p2"}
defaults: {interval: 250ms}
phases:
  - name: mix-70-30
    workload: {rw: randrw, rwmixread: 70, bs: 4k, iodepth: 4, runtime: 1s}
    sweep: {ports: [[$A], [$A, $B]], rwmixread: [70]}
YAML
timeout 60 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/r" >"$TMP/run.out" 2>"$TMP/run.err" ||
	fail "run: exit $?: $(tail -5 "$TMP/run.err")"
cat "$TMP/run.out"
"$LOCKSTEP" report --html "$TMP/r" >"$TMP/report.out" 2>"$TMP/report.err" ||
	fail "report --html: exit $?: $(tail -5 "$TMP/report.err")"

# The run's output and the report's text: rows, figures and columns.
"$PY" - "$TMP/r" "$TMP/run.out" "$TMP/report.out" "$A" "$B" <<'PY' || fail "the tables are not right"
import csv, re, sys

res, run_out, report_out, A, B = sys.argv[1:6]
rows = list(csv.DictReader(open(res + "/summary.csv")))
long = "ports=%s+%s rwmixread=70" % (A, B)
assert len(long) == 60, len(long)
bad = []

SKIP = re.compile(r"^ {4}(read p99|balance:|path balance:|failover:)")

def tables(text):
    """Each table of the text: its head line and its rows (lines ending in a figure)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if re.match(r"^ +(POINT|TEST / POINT|WORKLOAD) ", line):
            body = []
            for l in lines[i + 1:]:
                if SKIP.match(l):
                    continue
                if not re.match(r"^ +\S.* [0-9.-]+$", l):
                    break
                body.append(l)
            yield line, body

def ends(line, n):
    """The offsets where the last n words of a line end (a head's words joined by _ first)."""
    for two in ("x IOPS", "x MB/s", "MEAN us", "P99 us", "P99.99 us"):
        line = line.replace(two, two.replace(" ", "_"))
    return [m.end() for m in re.finditer(r"\S+", line)][-n:]

def check(name, text):
    seen = 0
    for head, body in tables(text):
        seen += 1
        want = ends(head, 5)  # IOPS .. P99.99 us; PATHS .. x MB/s
        for l in body:
            if ends(l, 5) != want:
                bad.append("%s: row %r: figures end at %s, the heads at %s" %
                           (name, l, ends(l, 5), want))
        if not body:
            bad.append("%s: a table with no row under %r" % (name, head))
    if seen < 2:
        bad.append("%s: %d tables, want the points and the port scaling" % (name, seen))

for name, path in (("run", run_out), ("report", report_out)):
    text = open(path).read()
    check(name, text)
    if long not in text:
        bad.append("%s: the 60-character label is not printed whole" % name)
    if "..." in text:
        bad.append("%s: a cut label" % name)
    if "port scaling" not in text:
        bad.append("%s: no port scaling" % name)
    # each row of summary.csv under its name, with its IOPS, MB/s and p99
    for r in rows:
        label = {"all": r["label"], "agent": "agent " + r["agent"], "target": "target " + r["target"],
                 "path": "path %s:%s" % (r["agent"], r["path"])}[r["scope"]]
        iops = float(r["read_iops"]) + float(r["write_iops"])
        mbps = float(r["read_mbps"]) + float(r["write_mbps"])
        line = re.compile(r"^ +%s +%.0f +%.1f +[0-9.]+ +%.1f " % (re.escape(label), iops, mbps, float(r["lat_p99_us"])), re.M)
        if not line.search(text):
            bad.append("%s: no row %r with IOPS %.0f, MB/s %.1f, p99 %s" % (name, label, iops, mbps, r["lat_p99_us"]))

# the report's agents table: every row's host and version under their heads
lines = open(report_out).read().split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("  NAME "))
want = [lines[head].index(" HOST ") + 1, lines[head].index(" VERSION ") + 1]
for l in lines[head + 1:head + 3]:
    got = [m.start() for m in re.finditer(r"\S+", l)][1:3]
    if got != want:
        bad.append("report: agents row %r: host and version at %s, the heads at %s" % (l, got, want))

run = open(run_out).read()
for who in (A, B):
    if not re.search(r"^ +agent %s +[0-9]" % who, run, re.M):
        bad.append("run: no row of agent %s" % who)
    if not re.search(r"^ +path %s:/dev/loop[0-9]+ +[0-9]" % who, run, re.M):
        bad.append("run: no row of %s's path" % who)
if not re.search(r"^ +rwmixread=70 +%s\+%s +3 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" % (A, B), run, re.M):
    bad.append("run: no port-scaling row of both ports")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
ok "the run prints its agents' and paths' rows and the port scaling, in columns that hold 60-character labels"

# The page in headless Chromium: a copy with a script that reads every summary cell's rendered
# text and the tables' extents into the DOM, which --dump-dom then gives back.
sed 's|</body>|<script>\
const o = {rows: [], page: document.body.getBoundingClientRect().right, tables: []};\
for (const tr of document.querySelectorAll("tr[data-phase]")) {\
  const r = {key: ["phase", "point", "scope", "agent", "target", "path"].map(k => tr.dataset[k]), cells: {}};\
  for (const td of tr.querySelectorAll("td[data-col]")) r.cells[td.dataset.col] = [td.innerText, td.getBoundingClientRect().width];\
  r.label = tr.cells[0].innerText;\
  o.rows.push(r);\
}\
o.balance = [...document.querySelectorAll("tr[data-balance]")].map(tr => ({phase: tr.dataset.balance,\
  point: tr.dataset.point, by: tr.dataset.by, cells: Object.fromEntries([...tr.querySelectorAll("td[data-col]")].map(td => [td.dataset.col, td.innerText]))}));\
o.scaling = [...document.querySelectorAll("tr[data-scaling]")].map(tr => ({phase: tr.dataset.scaling,\
  point: tr.dataset.point, cells: Object.fromEntries([...tr.querySelectorAll("td[data-col]")].map(td => [td.dataset.col, td.innerText]))}));\
for (const t of document.querySelectorAll("table.points")) o.tables.push(t.getBoundingClientRect().right);\
const pre = document.createElement("pre"); pre.id = "lst-dom"; pre.textContent = JSON.stringify(o);\
document.body.appendChild(pre);\
</script></body>|' "$TMP/r/report.html" >"$TMP/dom.html"
timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
	--disable-background-networking --disable-component-update --user-data-dir="$TMP/chrome" \
	--window-size=1280,2000 --dump-dom "file://$TMP/dom.html" >"$TMP/dom.out" 2>"$TMP/chrome.log" ||
	fail "chromium --dump-dom: $(tail -5 "$TMP/chrome.log")"
"$PY" - "$TMP/r" "$TMP/dom.out" <<'PY' || fail "the page's read and write latency is not summary.csv's"
import csv, html, json, math, re, sys

res, dom = sys.argv[1:3]
m = re.search(r'<pre id="lst-dom">(.*?)</pre>', open(dom).read(), re.S)
assert m, "the rendered page gave nothing back"
o = json.loads(html.unescape(m.group(1)))
summary = {}
for r in csv.DictReader(open(res + "/summary.csv")):
    summary[(r["phase"], r["point"], r["scope"], r["agent"], r["target"], r["path"])] = r

def num(t):
    t = t.replace("\u2009", "").replace(" ", "").strip()
    return math.nan if t in ("", "\u2013") else float(t)

bad, checked, both = [], 0, 0
cols = ("read_lat_mean_us", "read_lat_p99_us", "write_lat_mean_us", "write_lat_p99_us")
for row in o["rows"]:
    key = tuple(k or "" for k in row["key"])
    r = summary.get(key)
    if r is None:
        bad.append("page row %s: not in summary.csv" % (key,))
        continue
    did_both = float(r["read_iops"]) > 0 and float(r["write_iops"]) > 0
    both += did_both
    for c in cols:
        if c not in row["cells"]:
            bad.append("page row %s: no %s cell" % (key, c))
            continue
        text, width = row["cells"][c]
        want = float(r[c]) if r[c] != "" else math.nan
        got = num(text)
        if did_both and (math.isnan(got) or width <= 0):
            bad.append("page row %s: %s is %r (width %.0f) for a point that did both" % (key, c, text, width))
        elif not (math.isnan(want) and math.isnan(got)) and not abs(got - want) <= 0.05 + 1e-9 * want:
            bad.append("page row %s: %s is %r, summary.csv has %r" % (key, c, text, r[c]))
        checked += 1
if len(o["rows"]) != len(summary):
    bad.append("%d rows in the page, %d in summary.csv" % (len(o["rows"]), len(summary)))
if not both:
    bad.append("no row did both reads and writes")
# the port-scaling table: each point's IOPS and MB/s as summary.csv has them, its paths, and
# its ratio to the one-agent point (point 0: the fewest paths)
alls = {r[1]: r2 for r, r2 in summary.items() if r[2] == "all"}
def tot(r, what):
    return float(r["read_" + what]) + float(r["write_" + what])
if len(o["scaling"]) != 2:
    bad.append("%d port-scaling rows in the page, want 2" % len(o["scaling"]))
for row in o["scaling"]:
    r, base, c = alls[row["point"]], alls["0"], row["cells"]
    want = {"paths": 2 if row["point"] == "0" else 3, "iops": tot(r, "iops"), "mbps": tot(r, "mbps"),
            "iops_ratio": tot(r, "iops") / tot(base, "iops"), "mbps_ratio": tot(r, "mbps") / tot(base, "mbps")}
    for col, w in want.items():
        tol = {"iops": 0.5, "paths": 0, "mbps": 0.05}.get(col, 0.005)
        if col not in c or not abs(num(c[col]) - w) <= tol + 1e-9 * w:
            bad.append("port scaling of point %s: %s is %r, summary.csv gives %r" % (row["point"], col, c.get(col), w))
# the balance table: each agent's (path's) IOPS and p99 are its summary.csv row's, its share
# of I/Os its rate times its time over all of theirs
for row in o["balance"]:
    parts = [r for k, r in summary.items() if k[0] == row["phase"] and k[1] == row["point"] and k[2] == row["by"]]
    ios = [tot(r, "iops") * float(r["duration_s"]) for r in parts]
    c = row["cells"]
    got = {col: [num(re.sub(r"^[^ ]+\xa0", "", v)) for v in c.get(col, "").split(" / ")]
           for col in ("share_pct", "iops", "p99_us")}
    want = {"share_pct": [100 * x / sum(ios) for x in ios], "iops": [tot(r, "iops") for r in parts],
            "p99_us": [float(r["lat_p99_us"]) for r in parts]}
    for col, w in want.items():
        tol = 0.5 if col == "iops" else 0.05
        if len(got[col]) != len(w) or any(not abs(g - x) <= tol + 1e-9 * x for g, x in zip(got[col], w)):
            bad.append("balance of point %s by %s: %s is %r, summary.csv gives %s" % (row["point"], row["by"], col, c.get(col), w))
if len(o["balance"]) < 3:  # by path at the first point; by agent and by path at the second
    bad.append("%d balance rows in the page, want 3" % len(o["balance"]))
for right in o["tables"]:
    if right > o["page"] + 1:
        bad.append("a summary table ends at %.0f px, past the page's %.0f px" % (right, o["page"]))
for b in bad:
    print(b)
print("%d read/write latency cells of %d rows checked against summary.csv" % (checked, len(o["rows"])))
sys.exit(1 if bad else 0)
PY
ok "the rendered page's read and write latency, port scaling and balance are summary.csv's"
