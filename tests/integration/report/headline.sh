#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep report` on the hand-made folder of coordinator/present/test_headline.c: the headline figures
# ("IOPS at p99 < 800 us: ...", and a 128 KiB phase's "MB/s: 1,180 ...") printed as text equal
# the phase's "headlines" in --json, for the plan's limit and for --limit; a bad --limit is refused; with gnuplot, the latency-vs-IOPS
# plot marks the limit and the interpolated crossings, and the per-path plot is drawn.
. "$(dirname "$0")/../lib.sh"

D="$TMP/hl"
"$LST_BUILD/tests/test_headline" --write "$D" || fail "test_headline --write failed"

# same_figures ARGS...: text and --json of `report ARGS D` give the same figures.
same_figures() {
	"$LOCKSTEP" report --no-plots "$@" "$D" >"$TMP/text" || fail "report $* failed"
	"$LOCKSTEP" report --no-plots --json "$@" "$D" >"$TMP/json" || fail "report --json $* failed"
	"$PY" - "$TMP/text" "$TMP/json" <<'PYEOF' || fail "text and --json disagree ($*)"
import json, re, sys
text = open(sys.argv[1]).read().split("\n")
doc = json.load(open(sys.argv[2]))
shown = {}
phase = None
for line in text:
    m = re.match(r"phase (\S+?)(?: \(|:)", line)
    if m:
        phase = m.group(1)
    m = re.match(r"    (?:(.+?): )?MB/s: ([\d,]+) \(the highest measured", line)
    if m:
        shown[(phase, m.group(1) or "", "mbps")] = m.group(2)
    m = re.match(r"    (?:(.+?): )?IOPS at (p99) < ([0-9.]+ (?:us|ms)): (.*)", line)
    if not m:
        continue
    curve, rest = m.group(1) or "", "p99: " + m.group(4)
    for part in rest.split("; "):
        stat, fig = part.split(": ", 1)
        shown[(phase, curve, stat)] = fig
n = 0
for ph in doc["phases"]:
    for h in ph.get("headlines", []):
        if "mbps" in h:  # large blocks: the highest MB/s, no latency figure
            fig = shown.pop((ph["phase"], h["curve"], "mbps"))
            assert int(fig.replace(",", "")) == round(h["mbps"]["mbps"]), (fig, h)
            assert "p99" not in h, h
            n += 1
            continue
        for stat in ("p99", "p99.9", "p99.99"):
            fig = shown.pop((ph["phase"], h["curve"], stat))
            j = h[stat]
            if j["iops"] is None:
                assert fig.startswith("none"), (ph["phase"], h["curve"], stat, fig)
            else:
                num = int(fig.split(" ")[0].replace(",", ""))
                assert num == round(j["iops"]), (ph["phase"], h["curve"], stat, fig, j)
                assert ("interpolated between" in fig) == j["interpolated"], (fig, j)
            n += 1
assert not shown, shown
assert n == 13, n
print("figures agree: %d" % n)
PYEOF
}

same_figures
grep -q "headline figures (limit 800 us, the plan's curve limit" "$TMP/text" ||
	fail "the plan's limit is not used: $(cat "$TMP/text")"
grep -q "jobs=2: IOPS at p99 < 800 us: 55,000 (interpolated between QD 4 and QD 8)" "$TMP/text" ||
	fail "jobs=2 p99 figure: $(grep jobs= "$TMP/text")"
grep -q "IOPS at p99 < 1 ms: 25,000 (all points under, the highest measured, QD 2)" "$TMP/text" ||
	fail "phase under: $(grep -A2 'phase under' "$TMP/text")"
same_figures --limit 1ms
grep -q "jobs=1: IOPS at p99 < 1 ms: 31,500 (interpolated between QD 4 and QD 8)" "$TMP/text" ||
	fail "--limit 1ms: $(grep jobs= "$TMP/text")"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); h=d["phases"][0]["headlines"]
assert h[0]["limit_us"] == 1000 and h[0]["limit_from"] == "option", h[0]
assert abs(h[1]["p99.99"]["iops"] - (34000 + 100 * 16000 / 600)) < 1e-3, h[1]' "$TMP/json" ||
	fail "--limit 1ms in --json"
ok "text and --json print the same headline figures"

rc=0
"$LOCKSTEP" report --no-plots --limit 10x "$D" >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" = 2 ] && grep -q -- "--limit" "$TMP/err" || fail "--limit 10x: rc $rc, $(cat "$TMP/err")"
rc=0
"$LOCKSTEP" report --no-plots --limit 0 "$D" >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" = 2 ] || fail "--limit 0: rc $rc"
ok "a bad --limit is refused"

need_cmd gnuplot
"$LOCKSTEP" report "$D" >"$TMP/text" 2>"$TMP/err" || fail "report with plots failed"
! grep -qi "warn\|not drawn" "$TMP/err" || fail "plot warnings: $(cat "$TMP/err")"
for p in lat_vs_iops_lat lat_vs_iops_paths_lat lat_vs_iops_under lat_vs_iops_over; do
	for e in gp svg png; do
		[ -s "$D/plots/$p.$e" ] || fail "no $p.$e"
	done
done
gp="$D/plots/lat_vs_iops_lat.gp"
grep -q 'first 800 nohead' "$gp" || fail "no limit line at 800 us in $gp"
grep -q '^\$x1 << EOD' "$gp" || fail "no crossing block for jobs=2 in $gp"
grep -q '"QD 16"' "$gp" || fail "no queue-depth labels in $gp"
grep -q 't "jobs=2"' "$gp" || fail "no legend entry jobs=2 in $gp"
grep -q 't "a:/dev/sdb"' "$D/plots/lat_vs_iops_paths_lat.gp" || fail "no path curve a:/dev/sdb"
ok "plots: a curve per thread count with queue depths, the limit and its crossings; per path"
