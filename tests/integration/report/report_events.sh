#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# lockstep report on a folder with events and telemetry (make_results.py --events):
# the text report, --json and the --html page show the hooks (requested -> started, late ms,
# result, a failure's text and last output line), the telemetry deltas with their exact numbers
# (an integer past 2^53 too; 20 lines per agent and collector, then "... and N more") and the
# kernel log excerpt; the timeseries plot script has a dashed line at each event's start; and a
# folder without events has no such line.
. "$(dirname "$0")/../lib.sh"

GEN="$LST_SRC/tests/integration/make_results.py"
CHECK="$LST_SRC/tests/integration/check_report_html.py"
D="$TMP/ev"
P="$TMP/plain"
"$PY" "$GEN" "$D" --events || fail "make_results.py --events failed"
"$PY" "$GEN" "$P" || fail "make_results.py failed"

# --- text ---
"$LOCKSTEP" report --no-plots "$D" >"$TMP/out.txt" 2>"$TMP/err.txt" ||
	fail "report: exit $?: $(cat "$TMP/err.txt")"
has_line "$TMP/out.txt" "  hooks and events:"
has_line "$TMP/out.txt" "    before b resize, 0.500 s: ok"
has_line "$TMP/out.txt" "    point 0 (iodepth=1): b port_down requested 3.000 s -> started 3.001 s (late 1.235 ms), 0.050 s: ok"
has_line "$TMP/out.txt" "    point 0 (iodepth=1): b port_up requested 6.000 s -> started 6.002 s (late 2.000 ms), 0.010 s: failed: exited with status 2; last output: RTNETLINK answers: File exists"
has_line "$TMP/out.txt" "    point 1 (iodepth=4): b port_down requested 3.000 s: not run: the agent was lost"
has_line "$TMP/out.txt" "    after  b resize, 0.250 s: ok"
has_line "$TMP/out.txt" "  telemetry (what changed):"
has_line "$TMP/out.txt" "    b smart: scsi_error_counter_log.read.total_errors_corrected +1,204 (5 -> 1,209)"
has_line "$TMP/out.txt" "    a smart: power_on_ns +1 (9,007,199,254,740,992 -> 9,007,199,254,740,993)"
has_line "$TMP/out.txt" "    a smart: temperature.current +0.75 (30.5 -> 31.25)"
has_line "$TMP/out.txt" "    b smart: ports[18].invalid_dword_count +19 (180 -> 199)"
has_line "$TMP/out.txt" "    b smart: ... and 5 more (telemetry.csv)"
has_line "$TMP/out.txt" "    b kernel log: telemetry/b/randrw-kmsg.txt (2 lines)"
grep -q "ports\[19\]" "$TMP/out.txt" && fail "more than 20 telemetry lines for b smart"
[ "$(grep -c 'hooks and events:' "$TMP/out.txt")" = 1 ] || fail "events shown in another phase"
"$LOCKSTEP" report --no-plots "$P" >"$TMP/plain.txt" || fail "report of the plain folder failed"
grep -q "hooks and events\|telemetry (what" "$TMP/plain.txt" && fail "a folder without events shows some"

# --- a broken events.csv: one warning naming it, the rest of the report as always ---
B="$TMP/broken"
cp -r "$D" "$B"
printf 'phase,point,label\nrandrw,0,"never closed\n' >"$B/events.csv"
"$LOCKSTEP" report --no-plots "$B" >"$TMP/broken.txt" 2>"$TMP/broken.err" ||
	fail "report of a folder with a broken events.csv failed"
[ "$(grep -c "events.csv:2: .*its rows are not shown" "$TMP/broken.err")" = 1 ] ||
	fail "the broken events.csv is not warned about once: $(cat "$TMP/broken.err")"
grep -q "hooks and events" "$TMP/broken.txt" && fail "rows of a broken events.csv are shown"
grep -q "b smart: scsi_error" "$TMP/broken.txt" || fail "telemetry lost with a broken events.csv"

# --- JSON: every event and every delta, numbers exact ---
"$LOCKSTEP" report --no-plots --json "$D" >"$TMP/out.json" || fail "report --json failed"
"$PY" - "$TMP/out.json" "$D" <<'EOF' || fail "report --json is not right"
import csv, json, sys
d = json.load(open(sys.argv[1]), parse_int=int)
ph = {p["phase"]: p for p in d["phases"]}
bad = []
p = ph["randrw"]
for other in ph.values():
    if other is not p and ("events" in other or "telemetry" in other or "kmsg" in other):
        bad.append("phase %s has events" % other["phase"])
ev = p.get("events", [])
rows = list(csv.DictReader(open(sys.argv[2] + "/events.csv")))
if len(ev) != len(rows):
    bad.append("%d events, events.csv has %d" % (len(ev), len(rows)))
for e, r in zip(ev, rows):
    for k in ("kind", "agent", "hook", "result", "on_error", "label"):
        if e[k] != r[k]:
            bad.append("event %s: %s %r, events.csv %r" % (r["hook"], k, e[k], r[k]))
    for k in ("point", "requested_ns", "start_ns", "end_ns", "status"):
        if e[k] != int(r[k]):
            bad.append("event %s: %s %r, events.csv %r" % (r["hook"], k, e[k], r[k]))
    for k in ("t_requested", "t_start", "late_ms", "duration_s"):
        want = float(r[k]) if r[k] else None
        if e[k] != want:
            bad.append("event %s: %s %r, events.csv %r" % (r["hook"], k, e[k], r[k]))
up = ev[2]
if up["output"] != "first line\nRTNETLINK answers: File exists\n" or \
        up["last_output_line"] != "RTNETLINK answers: File exists":
    bad.append("port_up's output: %r / %r" % (up["output"], up["last_output_line"]))
tm = p.get("telemetry", [])
if len(tm) != 27:
    bad.append("%d telemetry rows, not 27" % len(tm))
big = [t for t in tm if t["field"] == "power_on_ns"]
if not big or big[0]["after"] != 9007199254740993 or big[0]["delta"] != 1 or \
        not isinstance(big[0]["delta"], int):
    bad.append("power_on_ns: %r" % big)
corr = [t for t in tm if t["field"].startswith("scsi_error")]
if not corr or (corr[0]["agent"], corr[0]["collector"], corr[0]["before"], corr[0]["after"],
                corr[0]["delta"]) != ("b", "smart", 5, 1209, 1204):
    bad.append("errors corrected: %r" % corr)
if p.get("kmsg") != [{"agent": "b", "file": "telemetry/b/randrw-kmsg.txt", "lines": 2}]:
    bad.append("kmsg: %r" % p.get("kmsg"))
for b in bad:
    print("report --json:", b)
sys.exit(1 if bad else 0)
EOF

# --- HTML: the rows with their data attributes, and the page still checks out ---
"$LOCKSTEP" report --no-plots --html "$D" >/dev/null 2>"$TMP/err.txt" ||
	fail "report --html: $(cat "$TMP/err.txt")"
"$PY" "$CHECK" "$D/report.html" "$D" --plots no || fail "the page with events does not check out"
"$PY" - "$D/report.html" <<'EOF' || fail "the page's events and telemetry are not right"
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.row, self.col, self.text = [], None, None, ""
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and ("data-event" in a or "data-delta" in a):
            self.row = (a, {})
            self.rows.append(self.row)
        elif tag == "td" and self.row is not None and "data-col" in a:
            self.col = a["data-col"]
            self.row[1][self.col] = ""
    def handle_endtag(self, tag):
        if tag == "td":
            self.col = None
        elif tag == "tr":
            self.row = None
    def handle_data(self, data):
        self.text += data
        if self.row is not None and self.col is not None:
            self.row[1][self.col] += data
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
bad = []
ev = [(a, c) for a, c in p.rows if "data-event" in a]
tm = [(a, c) for a, c in p.rows if "data-delta" in a]
down = [c for a, c in ev if a.get("data-hook") == "port_down" and a.get("data-point") == "0"]
if not down or (down[0].get("t_requested"), down[0].get("t_start"), down[0].get("late_ms"),
                down[0].get("result")) != ("3.000", "3.001", "1.235", "ok"):
    bad.append("port_down row: %r" % down)
if len(ev) != 5:
    bad.append("%d event rows, not 5" % len(ev))
corr = [c for a, c in tm if a.get("data-agent") == "b" and
        a.get("data-field") == "scsi_error_counter_log.read.total_errors_corrected"]
if not corr or (corr[0].get("before"), corr[0].get("after"), corr[0].get("delta")) != \
        ("5", "1209", "1204"):
    bad.append("errors corrected row: %r" % corr)
if len(tm) != 22:  # a: 2, b: 20 of 25
    bad.append("%d telemetry rows, not 22" % len(tm))
for want in ("and 5 more", "telemetry/b/randrw-kmsg.txt", "RTNETLINK answers: File exists"):
    if want not in p.text:
        bad.append("the page lacks %r" % want)
for b in bad:
    print("report --html:", b)
sys.exit(1 if bad else 0)
EOF

# --- the timeseries plot: a dashed line and the hook's name at each event's start ---
if command -v gnuplot >/dev/null 2>&1; then
	"$LOCKSTEP" report -o "$TMP/plots" "$D" >/dev/null 2>"$TMP/err.txt" ||
		fail "report with plots: $(cat "$TMP/err.txt")"
	"$LOCKSTEP" report -o "$TMP/plain-plots" "$P" >/dev/null 2>"$TMP/err.txt" ||
		fail "report with plots (plain): $(cat "$TMP/err.txt")"
	GP="$TMP/plots/timeseries_randrw.gp"
	# x = point 0's start (summary.csv t_s) + t_start - the phase's first row (timeseries.csv)
	want=$("$PY" - "$D" <<'EOF'
import csv, sys
d = sys.argv[1]
t_s = [float(r["t_s"]) for r in csv.DictReader(open(d + "/summary.csv"))
       if r["phase"] == "randrw" and r["point"] == "0" and r["agent"] == "all"][0]
t0 = min(float(r["t_s"]) for r in csv.DictReader(open(d + "/timeseries.csv"))
         if r["phase"] == "randrw" and r["agent"] == "all")
print("%.7g %.7g" % (t_s + 3.001 - t0, t_s + 6.002 - t0))
EOF
)
	set -- $want
	grep -qF "set arrow from first $1, graph 0 to first $1, graph 1 nohead front lc rgb \"#b5179e\" dt 2" "$GP" ||
		fail "no dashed line at port_down's start ($1) in $GP"
	grep -qF "set label \"port_down\" at first $1," "$GP" || fail "port_down's line has no label"
	grep -qF "set label \"port_up\" at first $2," "$GP" || fail "port_up's line has no label"
	[ "$(grep -c '#b5179e" dt 2' "$GP")" = 2 ] || fail "not 2 event lines in $GP (point 1's never ran)"
	grep -q '#b5179e" dt 2' "$TMP/plain-plots/timeseries_randrw.gp" &&
		fail "a folder without events has event lines"
	for f in "$TMP"/plots/timeseries_*.gp; do
		n=$(basename "$f")
		[ "$n" = timeseries_randrw.gp ] && continue
		cmp -s <(sed "s|$TMP/plots|X|g; s|$D|Y|g" "$f") \
			<(sed "s|$TMP/plain-plots|X|g; s|$P|Y|g" "$TMP/plain-plots/$n") ||
			fail "$n differs from the plain folder's"
	done
	[ -s "$TMP/plots/timeseries_randrw.svg" ] || fail "the timeseries with events was not drawn"
fi
echo "report_events: ok"
