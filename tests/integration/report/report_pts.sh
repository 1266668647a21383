#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# lockstep report --pts: the SNIA PTS report of a results folder holding every PTS test
# (make_results.py --pts: IOPS twice, throughput, latency, WSAT, HIR, XSR, ECW, DIRTH, from two
# agents on one dual-port drive, and a plan with a report: section). Made offline (in a network
# namespace without interfaces), then pts.html rendered by headless Chromium, offline too, with
# no console message and no network request (its net log read back), and the rendered DOM held
# to the folder by check_pts.py: a section per test with the header (device, platform, the
# plan's fields marked given by the plan), every prescribed plot and table in the spec's order,
# each figure equal to the results files, the deviations box; pts.md with every row, pts.pdf a
# page or more per test. Also: no PTS test in a folder, --pts with two folders, and the plan's
# report: section refused where it is wrong.
. "$(dirname "$0")/../lib.sh"
keep_going

need_cmd gnuplot chromium
D="$TMP/pts"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$D" --pts >/dev/null || fail "make_results.py failed"
net=(unshare -n)
unshare -n true 2>/dev/null || net=() # not root: the net log alone must show no request

expect_exit 0 "${net[@]}" "$LOCKSTEP" report --pts "$D"
has_line "$TMP/out" "pts: $D/pts.html, $D/pts.md, $D/pts.pdf"

# Chromium renders the page offline: its DOM as rendered, console messages and net log.
log="$TMP/chromium.log"
timeout 120 "${net[@]}" chromium --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--disable-default-apps --user-data-dir="$TMP/chrome" --enable-logging=stderr --v=0 \
	--log-net-log="$TMP/net.json" --dump-dom "file://$D/pts.html" >"$TMP/dom.html" 2>"$log" ||
	fail "chromium failed: $(tail -5 "$log")"
if grep -E ':CONSOLE[:(]|Failed to load resource|net::ERR_' "$log" | grep -v 'source: chrome://'; then
	fail "console messages rendering pts.html"
fi
"$PY" "$LST_SRC/tests/integration/check_report_html.py" --netlog "$TMP/net.json" ||
	fail "pts.html made a network request"
if "$PY" "$LST_SRC/tests/integration/check_pts.py" "$TMP/dom.html" "$D"; then
	ok "every test's page rendered offline and equal to its results files"
else
	fail "the PTS pages disagree with the folder"
fi

# No PTS test: said, exit 2; --pts takes one folder.
cp -r "$LST_SRC/tests/fixtures/golden/demo" "$TMP/demo"
expect_exit 2 "$LOCKSTEP" report --pts --no-plots "$TMP/demo"
has_text "$TMP/err" "no SNIA PTS test in the folder"
expect_exit 2 "$LOCKSTEP" report --pts --no-plots "$TMP/demo" "$D"
has_text "$TMP/err" "--pts writes the pages of one results folder"

# The plan's report: section is checked like every other: an empty field, an unknown key.
sed 's/nand: "BiCS4 96-layer TLC"/nand: ""/' "$D/plan.yaml" >"$TMP/empty.yaml"
expect_exit 2 "$LOCKSTEP" validate "$TMP/empty.yaml"
grep -q "empty.yaml:[0-9]*:[0-9]*: .*nand must not be empty" "$TMP/err" ||
	fail "an empty report: field is not refused at its place: $(cat "$TMP/err")"
sed 's/nand: "BiCS4 96-layer TLC"/nand: x, colour: blue/' "$D/plan.yaml" >"$TMP/unknown.yaml"
expect_exit 2 "$LOCKSTEP" validate "$TMP/unknown.yaml"
grep -q "unknown.yaml:[0-9]*:[0-9]*: .*colour" "$TMP/err" ||
	fail "an unknown report: key is not refused at its place: $(cat "$TMP/err")"
ok "bad --pts use and bad report: sections refused"
finish
