#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# lockstep report on a folder with verifying reads (make_results.py --integrity): the
# text report, --json and the --html page show, for phase randrw only, the 4 KiB units verified
# ok / pending / unwritten / bad (the agent=all rows of summary.csv, not the agents' too), the
# bad ones by kind, the first 10 rows of integrity.csv and "... and 3 more"; a folder without
# verify shows none of it; a broken integrity.csv is warned about once and the counts stay.
. "$(dirname "$0")/../lib.sh"

GEN="$LST_SRC/tests/integration/make_results.py"
CHECK="$LST_SRC/tests/integration/check_report_html.py"
D="$TMP/iv"
P="$TMP/plain"
"$PY" "$GEN" "$D" --integrity || fail "make_results.py --integrity failed"
"$PY" "$GEN" "$P" || fail "make_results.py failed"

# --- text ---
"$LOCKSTEP" report --no-plots "$D" >"$TMP/out.txt" 2>"$TMP/err.txt" ||
	fail "report: exit $?: $(cat "$TMP/err.txt")"
has_line "$TMP/out.txt" "  integrity: 3,037 units: 3,000 ok, 20 pending, 4 unwritten, 13 bad"
has_line "$TMP/out.txt" "    bad by kind (integrity.csv): stale 5, checksum 4, no stamp 3, wrong lba 1"
has_line "$TMP/out.txt" "    point 0, b:/dev/loop1 offset 409600: stale; expected gen 2 by a:/dev/loop0 (at 12.500 s), found stamp gen 1 by a:/dev/loop0 lba 100 (at 3.250 s)"
has_line "$TMP/out.txt" "    point 0, b:/dev/loop1 offset 466944: no stamp; expected gen 2 by a:/dev/loop0 (at 14.500 s), found no stamp"
has_line "$TMP/out.txt" "    point 1, b:/dev/loop1 offset 667648: wrong lba; expected gen 2 by a:/dev/loop0 (at 21.500 s), found stamp gen 2 by b:/dev/loop1 lba 164 (at 4.000 s)"
has_line "$TMP/out.txt" "    ... and 3 more (integrity.csv)"
[ "$(grep -c '^    point [01], b:/dev/loop1 offset' "$TMP/out.txt")" = 10 ] ||
	fail "not 10 rows of integrity.csv shown"
grep -q "offset 696320" "$TMP/out.txt" && fail "the 11th bad unit is shown"
[ "$(grep -c '^  integrity:' "$TMP/out.txt")" = 1 ] || fail "integrity shown in another phase"
"$LOCKSTEP" report --no-plots "$P" >"$TMP/plain.txt" || fail "report of the plain folder failed"
grep -q "integrity" "$TMP/plain.txt" && fail "a folder without verify shows integrity"

# --- a broken integrity.csv: one warning naming it, the counts as before, no rows ---
B="$TMP/broken"
cp -r "$D" "$B"
printf 'phase,point,kind\nrandrw,0,"never closed\n' >"$B/integrity.csv"
"$LOCKSTEP" report --no-plots "$B" >"$TMP/broken.txt" 2>"$TMP/broken.err" ||
	fail "report of a folder with a broken integrity.csv failed"
[ "$(grep -c "integrity.csv:2: .*its rows are not shown" "$TMP/broken.err")" = 1 ] ||
	fail "the broken integrity.csv is not warned about once: $(cat "$TMP/broken.err")"
grep -qxF "  integrity: 3,037 units: 3,000 ok, 20 pending, 4 unwritten, 13 bad" \
	"$TMP/broken.txt" || fail "the counts are lost with a broken integrity.csv"
grep -q "offset 409600\|bad by kind" "$TMP/broken.txt" && fail "rows of a broken integrity.csv are shown"

# --- JSON ---
"$LOCKSTEP" report --no-plots --json "$D" >"$TMP/out.json" || fail "report --json failed"
"$PY" - "$TMP/out.json" "$D" <<'EOF' || fail "report --json is not right"
import csv, json, sys
d = json.load(open(sys.argv[1]), parse_int=int)
bad = []
ph = {p["phase"]: p for p in d["phases"]}
for other in ph.values():
    if other["phase"] != "randrw" and "integrity" in other:
        bad.append("phase %s has integrity" % other["phase"])
i = ph["randrw"].get("integrity", {})
want = {"ok": 3000, "pending": 20, "unwritten": 4, "bad": 13}
if {k: i.get(k) for k in want} != want:
    bad.append("counts %r" % {k: i.get(k) for k in want})
if i.get("bad_by_kind") != {"stale": 5, "checksum": 4, "no stamp": 3, "wrong lba": 1}:
    bad.append("bad_by_kind %r" % i.get("bad_by_kind"))
if i.get("more") != 3 or len(i.get("rows", [])) != 10:
    bad.append("rows %d, more %r" % (len(i.get("rows", [])), i.get("more")))
rows = list(csv.DictReader(open(sys.argv[2] + "/integrity.csv")))
for got, r in zip(i.get("rows", []), rows):
    for k in ("target", "agent", "path", "kind", "expected_agent", "expected_path", "found"):
        if got[k] != r[k]:
            bad.append("row %s: %s %r, integrity.csv %r" % (r["offset"], k, got[k], r[k]))
    for k in ("point", "offset", "expected_gen", "found_gen", "found_lba"):
        if got[k] != int(r[k]):
            bad.append("row %s: %s %r, integrity.csv %r" % (r["offset"], k, got[k], r[k]))
    for k in ("expected_t_s", "found_t_s"):
        if got[k] != (float(r[k]) if r[k] else None):
            bad.append("row %s: %s %r, integrity.csv %r" % (r["offset"], k, got[k], r[k]))
    if r["found_agent"] == "" and got["found_agent"] is not None:
        bad.append("row %s: found_agent %r, not null" % (r["offset"], got["found_agent"]))
for b in bad:
    print("report --json:", b)
sys.exit(1 if bad else 0)
EOF
"$LOCKSTEP" report --no-plots --json "$P" | grep '"integrity"' >/dev/null &&
	fail "report --json of a folder without verify has integrity"

# --- HTML ---
"$LOCKSTEP" report --no-plots --html "$D" >/dev/null 2>"$TMP/err.txt" ||
	fail "report --html: $(cat "$TMP/err.txt")"
"$PY" "$CHECK" "$D/report.html" "$D" --plots no || fail "the page with integrity does not check out"
"$PY" - "$D/report.html" <<'EOF' || fail "the page's integrity is not right"
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.verify, self.rows, self.cell, self.text = {}, [], None, ""
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "td" and "data-verify" in a:
            self.cell = a["data-verify"]
            self.verify[self.cell] = ""
        elif tag == "tr" and "data-offset" in a:
            self.rows.append(a["data-offset"])
    def handle_endtag(self, tag):
        if tag == "td":
            self.cell = None
    def handle_data(self, data):
        self.text += data
        if self.cell:
            self.verify[self.cell] += data
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
bad = []
if p.verify != {"ok": "3,000", "pending": "20", "unwritten": "4", "bad": "13"}:
    bad.append("counts %r" % p.verify)
if len(p.rows) != 10 or p.rows[0] != "409600":
    bad.append("bad rows %r" % p.rows)
if "and 3 more: see integrity.csv" not in p.text:
    bad.append("no '... and 3 more'")
if "stale 5, checksum 4, no stamp 3, wrong lba 1" not in p.text:
    bad.append("no kinds")
for b in bad:
    print("report --html:", b)
sys.exit(1 if bad else 0)
EOF
"$LOCKSTEP" report --no-plots --html "$P" >/dev/null || fail "report --html of the plain folder failed"
grep -q 'class="integrity' "$P/report.html" && fail "a page without verify has an integrity table"
ok "integrity shown in text, JSON and HTML for the phase that verified, nowhere else"
