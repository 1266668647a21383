#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# lockstep report --html: one self-contained page per results folder, a synthetic one
# (make_results.py: suites, steady state, matrix, curves) and a real two-agent run on loop
# devices (the golden demo fixture). Checked by check_report_html.py: nothing refers outside
# the page, and every figure of its summary tables equals summary.csv. Then headless Chromium,
# in a network namespace without interfaces, renders each page to a PNG screenshot and a PDF
# with no console message and no network request (its net log read back). Also --no-plots,
# gnuplot missing (the page says so), --html=FILE, an unwritable FILE; and the comparison of two
# runs (variant b of make_results.py, unfinished) as a page, checked against compare.csv and
# rendered the same way.
. "$(dirname "$0")/../lib.sh"

need_cmd gnuplot chromium unshare
CHECK="$LST_SRC/tests/integration/check_report_html.py"
A="$TMP/synthetic"
D="$TMP/demo"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$A" >/dev/null || fail "make_results.py failed"
cp -r "$LST_SRC/tests/fixtures/golden/demo" "$D"

# render PAGE NAME: NAME.png (1280 px wide) and NAME.pdf by headless Chromium, offline; no
# console message, no request for anything outside the page.
render() {
	local page=$1 name=$2 mode
	local net=(unshare -n)
	unshare -n true 2>/dev/null || net=() # not root: the net log alone must show no request
	for mode in png pdf; do
		local out="$TMP/$name.$mode" log="$TMP/$name.$mode.log" netlog="$TMP/$name.$mode.net"
		local what=(--screenshot="$out" --window-size=1280,4000)
		[ $mode = pdf ] && what=(--print-to-pdf="$out" --no-pdf-header-footer)
		rm -rf "$TMP/chrome"
		timeout 120 "${net[@]}" chromium --headless --no-sandbox --disable-gpu \
			--disable-background-networking --disable-component-update --no-first-run \
			--disable-sync --disable-default-apps --hide-scrollbars \
			--user-data-dir="$TMP/chrome" --enable-logging=stderr --v=0 \
			--log-net-log="$netlog" "${what[@]}" "file://$page" >"$log" 2>&1 ||
			fail "chromium ($mode of $page) failed: $(tail -5 "$log")"
		[ -s "$out" ] || fail "chromium wrote no $out: $(tail -5 "$log")"
		# Chromium's own pages (chrome://) may log; the report must not.
		if grep -E ':CONSOLE[:(]|Failed to load resource|net::ERR_' "$log" |
			grep -v 'source: chrome://'; then
			fail "console messages rendering $page ($mode)"
		fi
		"$PY" "$CHECK" --netlog "$netlog" || fail "$page made a network request ($mode)"
	done
	"$PY" - "$TMP/$name.png" "$TMP/$name.pdf" <<'PYEOF' || fail "the rendering of $page is not right"
import os, re, struct, sys
png, pdf = sys.argv[1:3]
with open(png, "rb") as f:
    head = f.read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", head[16:24])
assert w == 1280 and h == 4000, "PNG is %dx%d" % (w, h)
assert os.path.getsize(png) > 40000, "PNG of %d bytes: a blank page?" % os.path.getsize(png)
data = open(pdf, "rb").read()
assert data[:5] == b"%PDF-", "not a PDF"
pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
assert pages >= 3, "PDF of %d pages" % pages
print("rendered: %s %dx%d, %s %d pages" % (png, w, h, pdf, pages))
PYEOF
}

# One folder, with plots: the page, the report printed as before, its path said.
for dir in "$A" "$D"; do
	"$LOCKSTEP" report --html "$dir" >"$TMP/out.txt" 2>"$TMP/err.txt" ||
		fail "report --html $dir: exit $?: $(cat "$TMP/err.txt")"
	grep -q "^html: $dir/report.html$" "$TMP/out.txt" || fail "the page's path is not printed"
	grep -q "^phase " "$TMP/out.txt" || fail "the text report is not printed with --html"
	"$PY" "$CHECK" "$dir/report.html" "$dir" || fail "the page of $dir is not right"
done
grep -q "PX05SRB040" "$A/report.html" && grep -q "AS0C" "$A/report.html" ||
	fail "the device model or firmware is not in the page"
for s in "Steady state" "IOPS matrix" "Headline figures" "Balance" "Start skew" \
	"Errors and events" "lat-vs-iops" "naa.5000039c18a0b7c1"; do
	grep -q "$s" "$A/report.html" || fail "'$s' is not in the page"
done
render "$A/report.html" synthetic
render "$D/report.html" demo
ok "pages checked and rendered offline"

# --json says where the page is; --html=FILE.
"$LOCKSTEP" report --json --html="$TMP/x.html" "$D" >"$TMP/j.json" 2>"$TMP/err.txt" ||
	fail "report --json --html=FILE: exit $?: $(cat "$TMP/err.txt")"
"$PY" -c "import json,sys; assert json.load(open(sys.argv[1]))['html'] == sys.argv[2]" \
	"$TMP/j.json" "$TMP/x.html" || fail "--json has no html key"
cmp -s "$TMP/x.html" "$D/report.html" || fail "--html=FILE differs from DIR/report.html"

# Without plots, the page says why.
"$LOCKSTEP" report --no-plots --html="$TMP/np.html" "$D" >/dev/null 2>&1 || fail "--no-plots: exit $?"
"$PY" "$CHECK" "$TMP/np.html" "$D" --plots no || fail "the --no-plots page is not right"
rm -rf "$D/plots"
rc=0
PATH=/nonexistent "$LOCKSTEP" report --html="$TMP/ng.html" "$D" >/dev/null 2>"$TMP/err.txt" || rc=$?
[ $rc -eq 0 ] || fail "without gnuplot: exit $rc: $(cat "$TMP/err.txt")"
"$PY" "$CHECK" "$TMP/ng.html" "$D" --plots missing || fail "the page without gnuplot is not right"
ok "--no-plots and no gnuplot said in the page"

# Errors: a file that cannot be written, two folders.
rc=0
"$LOCKSTEP" report --no-plots --html="$TMP/no/such/dir/r.html" "$D" >/dev/null 2>"$TMP/err.txt" || rc=$?
[ $rc -eq 2 ] || fail "unwritable page: exit $rc"
grep -q "cannot create $TMP/no/such/dir/r.html" "$TMP/err.txt" ||
	fail "unwritable page: no clear error: $(cat "$TMP/err.txt")"
"$LOCKSTEP" report --help | grep -- "--html\[=FILE\]" >/dev/null || fail "--help does not give --html"
ok "bad --html use refused"

# Two runs compared: the page has compare.csv's figures, and says run B did not finish.
B="$TMP/after"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$B" --variant b >/dev/null ||
	fail "make_results.py --variant b failed"
"$PY" - "$B/run.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("status", None)
r.pop("finished", None)
json.dump(r, open(sys.argv[1], "w"))
PYEOF
"$LOCKSTEP" report --html "$A" "$B" -o "$TMP/cmp" >"$TMP/out.txt" 2>"$TMP/err.txt" ||
	fail "report --html DIR1 DIR2: exit $?: $(cat "$TMP/err.txt")"
grep -q "^written: .*$TMP/cmp/compare.html" "$TMP/out.txt" || fail "compare.html is not said"
"$PY" "$CHECK" --compare "$TMP/cmp/compare.html" "$TMP/cmp/compare.csv" ||
	fail "the comparison page is not right"
grep -q "did not finish" "$TMP/cmp/compare.html" || fail "the unfinished run B is not warned about"
render "$TMP/cmp/compare.html" compare
ok "comparison page checked and rendered offline"
