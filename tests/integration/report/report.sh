#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# lockstep report on synthetic results folders (make_results.py), one scenario per run
# (`report.sh SCENARIO`, registered once per scenario as integration.report.SCENARIO):
#   plots      the printed report, every plot as a parsable SVG and a real PNG with its gnuplot
#              script, which redraws it by hand;
#   json       --json, and -o putting the plots elsewhere;
#   compare    the comparison of two runs (deltas recomputed by check_report.py from
#              summary.json), the matrices' ratios, the overlay plots;
#   quoted     a label with a comma and quotes, a partial point;
#   backquote  text from the folder drawn, never run, by gnuplot;
#   killed     a killed run (no summary.json, a half-written row) still reports;
#   bad        bad input: exit 2, one error naming the file and line;
#   nognuplot  gnuplot missing from PATH: exit 0, a warning, the scripts still written.
. "$(dirname "$0")/../lib.sh"

scenario=${1:?usage: report.sh plots|json|compare|quoted|backquote|killed|bad|nognuplot}
need_cmd gnuplot
GEN="$LST_SRC/tests/integration/make_results.py"
A="$TMP/before"
B="$TMP/after"
CHECK="$LST_SRC/tests/integration/check_report.py"
"$PY" "$GEN" "$A" || fail "make_results.py failed"

# check_plots DIR NAME...: check_report.py plots (the files of each plot, nothing else drawn).
check_plots() { "$PY" "$CHECK" plots "$@" || fail "plots in $1 are not right"; }

PLOTS=(lat_vs_iops_latiops lat_vs_iops_randrw timeseries_precondition timeseries_latiops
	timeseries_iops timeseries_iops-80 timeseries_tput timeseries_wsat timeseries_hir
	timeseries_randrw steady_latiops_lat-vs-iops steady_iops_iops steady_iops-80_iops
	steady_tput_bs_1m_write steady_tput_bs_128k_write steady_wsat_wsat wsat_wsat hir_hir
	matrix_iops matrix_iops-80
	# suite phases of several tests, or of more than 60 points: per test, and per round
	timeseries_tput_bs_1m_write timeseries_tput_bs_128k_write timeseries_hir_gap_5s
	timeseries_hir_gap_10s timeseries_iops_iops_round_{1..7}
	timeseries_latiops_lat-vs-iops_round_{1..6})

# copy_of DIR: a copy of the results folder $A at DIR, without its plots.
copy_of() {
	cp -r "$A" "$1"
	rm -rf "$1/plots"
}

# plots: one folder: the report and every plot
s_plots() {
	"$LOCKSTEP" report "$A" >"$TMP/report.txt" 2>"$TMP/report.err" ||
		fail "report exited $?: $(cat "$TMP/report.err")"
	[ ! -s "$TMP/report.err" ] || fail "report warned: $(cat "$TMP/report.err")"
	for want in "run          20261130T060000Z-a1b2" "plan         px05-pts" "status       complete" \
		"-1234.567" "model PX05SRB040" "phase latiops (lat-vs-iops): 24 points" \
		"phase iops (snia-iops): 49 points" "phase randrw: 3 points" \
		"phase iops-80 (snia-iops): 6 points" "phase hir (snia-hir): 8 points" \
		"test lat-vs-iops (iops): steady in rounds 2-6" \
		"test bs=128k write (mbps): NOT steady after 25 rounds (round limit)" \
		"test wsat (write_iops): NOT steady after 60 rounds (steady state reported, not required)" \
		"IOPS matrix, phase iops (matrix.csv;" "IOPS matrix, phase iops-80 (matrix-iops-80.csv;" \
		"plots: 37 drawn in $A/plots"; do
		grep -qF -- "$want" "$TMP/report.txt" || fail "the report lacks '$want'"
	done
	# The printed points are summary.csv's (agent all; the last round of each point).
	"$PY" "$CHECK" points "$A" "$TMP/report.txt" || fail "printed points differ from summary.csv"
	check_plots "$A/plots" "${PLOTS[@]}"
	grep -q '^[$]g0 << EOD' "$A/plots/lat_vs_iops_latiops.gp" || fail "lat_vs_iops script has no data"
	ok "report prints the run, points, verdicts and matrix; ${#PLOTS[@]} plots drawn"

	# The scripts are enough to redraw: run one by hand.
	rm "$A/plots/matrix_iops.svg" "$A/plots/matrix_iops.png"
	(cd "$A/plots" && gnuplot matrix_iops.gp </dev/null) || fail "matrix_iops.gp does not redraw"
	check_plots "$A/plots" "${PLOTS[@]}"
	ok "a kept script redraws its plot"
}

# json: --json and -o
s_json() {
	"$LOCKSTEP" report --json -o "$TMP/out" "$A" >"$TMP/report.json" ||
		fail "report --json exited $?"
	"$PY" "$CHECK" json "$TMP/report.json" || fail "report --json is not right"
	check_plots "$TMP/out" "${PLOTS[@]}"
	ok "--json prints the same; -o puts the plots elsewhere"
}

# compare: two folders: the comparison, by default into a new folder of the current one
s_compare() {
	"$PY" "$GEN" "$B" --variant b || fail "make_results.py --variant b failed"
	mkdir "$TMP/cwd"
	(cd "$TMP/cwd" && "$LOCKSTEP" report "$A" "$B") >"$TMP/compare.txt" 2>"$TMP/compare.err" ||
		fail "report A B exited $?: $(cat "$TMP/compare.err")"
	C=$(echo "$TMP"/cwd/compare-*)
	[ -d "$C" ] || fail "no ./compare-TIMESTAMP folder: $(ls "$TMP/cwd")"
	! ls -d "$B"/compare* 2>/dev/null || fail "the comparison wrote into run B's folder"
	for f in compare.csv compare.md compare_matrix-iops.csv compare_matrix-iops-80.csv; do
		[ -s "$C/$f" ] || fail "$C/$f missing"
	done
	grep -q "randrw / iodepth=16 (only A)" "$TMP/compare.txt" || fail "unmatched point not printed"
	"$PY" "$CHECK" compare "$A" "$B" "$C" || fail "compare.csv deltas are wrong"
	grep -q '^| phase | point | run | IOPS | change | MB/s |' "$C/compare.md" ||
		fail "compare.md has no table"
	grep -q '^## IOPS matrix of phase iops-80, B / A' "$C/compare.md" ||
		fail "compare.md has no matrix ratio"
	# every run on each chart: the overlay, each shared phase's IOPS over time, WSAT, the matrices
	check_plots "$C" compare_lat_vs_iops compare_wsat_wsat compare_matrix_iops compare_matrix_iops-80 \
		compare_iops_{precondition,latiops,iops,iops-80,tput,wsat,hir,randrw}
	"$LOCKSTEP" report --no-plots -o "$TMP/cmp2" "$A" "$B" >/dev/null || fail "report -o A B failed"
	[ -s "$TMP/cmp2/compare.csv" ] || fail "-o did not place compare.csv"
	ok "compare: matched points, deltas, matrix ratio, overlay plot"
}

# quoted: a quoted label with a comma and quotes; a partial point
s_quoted() {
	Q="$TMP/quoted"
	copy_of "$Q"
	sed -i 's/^randrw,0,"iodepth=1",/randrw,0,"iodepth=1, ""fast""",/' "$Q/summary.csv"
	json_edit "$Q/run.json" \
		'[p.update(partial=True) for p in d["phases"] if (p["phase"], p["point"]) == ("randrw", 1)]'
	"$LOCKSTEP" report --no-plots "$Q" >"$TMP/quoted.txt" || fail "report on a quoted label failed"
	grep -q '^  iodepth=1, "fast"  ' "$TMP/quoted.txt" || fail "the quoted label is not printed right"
	grep -q '^phase randrw: 3 points, partial (an agent was lost)$' "$TMP/quoted.txt" ||
		fail "the partial phase is not marked"
	grep -q '^  iodepth=4 .*  partial$' "$TMP/quoted.txt" || fail "the partial point is not marked"
	ok "quoted CSV fields; partial points marked"
}

# backquote: text from the folder never runs a command: gnuplot expands `...` inside "strings"
s_backquote() {
	X="$TMP/backquote"
	copy_of "$X"
	# shellcheck disable=SC2016
	json_edit "$X/run.json" 'd["plan_name"] = "px05 `touch %s` $(touch %s) `" % (arg, arg)' "$TMP/pwned"
	"$LOCKSTEP" report "$X" >"$TMP/bq.txt" 2>"$TMP/bq.err" || fail "report exited $?: $(cat "$TMP/bq.err")"
	[ ! -e "$TMP/pwned" ] || fail "a backquoted command in run.json ran while drawing the plots"
	grep -q "touch $TMP/pwned" "$X/plots/matrix_iops.svg" || fail "the plan name is not in the title"
	ok "backquotes in run.json are drawn as text, not run"
}

# killed: a killed run: no summary.json nor curves.csv yet, a half-written last row
s_killed() {
	K="$TMP/killed"
	copy_of "$K"
	rm -rf "$K/summary.json" "$K/curves.csv"
	head -c -40 "$A/timeseries.csv" >"$K/timeseries.csv"
	"$LOCKSTEP" report "$K" >"$TMP/killed.txt" 2>"$TMP/killed.err" ||
		fail "report on a killed run exited $?: $(cat "$TMP/killed.err")"
	grep -q "timeseries.csv:[0-9]*: the last line is incomplete" "$TMP/killed.err" ||
		fail "no warning about the incomplete line: $(cat "$TMP/killed.err")"
	grep -q "summary.json: missing" "$TMP/killed.err" || fail "no warning about summary.json"
	[ -s "$K/plots/wsat_wsat.png" ] || fail "no WSAT plot without summary.json (suite from plan.yaml)"
	[ -s "$K/plots/lat_vs_iops_randrw.png" ] || fail "no latency-vs-IOPS plot from the summary points"
	ok "a killed run still reports"
}

# bad: bad input: exit 2, one error naming the file (and line)
s_bad() {
	# bad_case NAME SED_FILE SED_EXPR EXPECTED_STDERR
	bad_case() {
		local d="$TMP/bad-$1" rc=0
		copy_of "$d"
		if [ -n "$3" ]; then sed -i "$3" "$d/$2"; fi
		"$LOCKSTEP" report --no-plots "$d" >"$TMP/bad.out" 2>"$TMP/bad.err" || rc=$?
		[ "$rc" -eq 2 ] || fail "$1: exit $rc, not 2"
		grep -qF -- "$4" "$TMP/bad.err" || fail "$1: stderr lacks '$4': $(cat "$TMP/bad.err")"
		[ "$(wc -l <"$TMP/bad.err")" -eq 1 ] || fail "$1: more than one line: $(cat "$TMP/bad.err")"
	}
	bad_case number summary.csv '7s/^\(\([^,]*,\)\{6\}\)[^,]*/\1x12/' \
		"$TMP/bad-number/summary.csv:7: column read_iops: "
	bad_case fields summary.csv '5s/$/,1/' "$TMP/bad-fields/summary.csv:5: 22 fields, the header has 21"
	bad_case quote curves.csv '3s/^latiops/"latiops/' "$TMP/bad-quote/curves.csv:3: a quoted field"
	bad_case column timeseries.csv '1s/lat_p99_us/lat_p98_us/' \
		"$TMP/bad-column/timeseries.csv:1: no column 'lat_p99_us'"
	bad_case json run.json '3s/,$/,,/' "$TMP/bad-json/run.json:3:"
	bad_case type run.json 's/"rtt_us": 92.5/"rtt_us": "fast"/' \
		"$TMP/bad-type/run.json: agents[0].rtt_us: expected a number"
	bad_case matrix matrix.csv '1s/^bs,/size,/' "$TMP/bad-matrix/matrix.csv:1: the header must be bs"
	bad_case empty summary.csv '1,100000d' "$TMP/bad-empty/summary.csv: empty"
	# A verdict's limit the plots would judge with: refused, not an assertion.
	d="$TMP/bad-limit"
	copy_of "$d"
	json_edit "$d/summary.json" 'd["tests"][0]["data_excursion_limit_pct"] = -5'
	rc=0
	"$LOCKSTEP" report "$d" >"$TMP/bad.out" 2>"$TMP/bad.err" || rc=$?
	[ "$rc" -eq 2 ] || fail "negative limit: exit $rc, not 2: $(cat "$TMP/bad.err")"
	grep -qF "$d/summary.json: tests[0].data_excursion_limit_pct: -5 is not" "$TMP/bad.err" ||
		fail "negative limit: $(cat "$TMP/bad.err")"
	mkdir "$TMP/notresults"
	rc=0
	"$LOCKSTEP" report "$TMP/notresults" 2>"$TMP/bad.err" >/dev/null || rc=$?
	if [ "$rc" -ne 2 ] || ! grep -q "not a results folder (no run.json)" "$TMP/bad.err"; then
		fail "a folder without run.json: exit $rc, $(cat "$TMP/bad.err")"
	fi
	rc=0
	"$LOCKSTEP" report "$TMP/nowhere" 2>"$TMP/bad.err" >/dev/null || rc=$?
	if [ "$rc" -ne 2 ] || ! grep -q "$TMP/nowhere" "$TMP/bad.err"; then
		fail "a missing folder: exit $rc, $(cat "$TMP/bad.err")"
	fi
	rc=0
	"$LOCKSTEP" report "$A" "$TMP/nowhere" 2>"$TMP/bad.err" >/dev/null || rc=$?
	[ "$rc" -eq 2 ] || fail "comparing with a missing folder: exit $rc"
	for args in "" "$A $B $A" "--bogus $A" "-o"; do
		rc=0
		# shellcheck disable=SC2086
		"$LOCKSTEP" report $args >/dev/null 2>&1 || rc=$?
		[ "$rc" -eq 2 ] || fail "'report $args': exit $rc, not 2"
	done
	"$LOCKSTEP" report --help | grep "usage: lockstep report" >/dev/null || fail "no --help"
	ok "bad input: exit 2 with the file and line named"
}

# nognuplot: no gnuplot on PATH: the report still prints, the plots are skipped with a warning
s_nognuplot() {
	N="$TMP/nognuplot"
	copy_of "$N"
	rc=0
	PATH=/nonexistent "$LOCKSTEP" report "$N" >"$TMP/nog.txt" 2>"$TMP/nog.err" || rc=$?
	[ "$rc" -eq 0 ] || fail "without gnuplot: exit $rc: $(cat "$TMP/nog.err")"
	grep -q "plots skipped: gnuplot is not installed" "$TMP/nog.err" ||
		fail "no warning without gnuplot: $(cat "$TMP/nog.err")"
	grep -q "phase latiops" "$TMP/nog.txt" || fail "no report without gnuplot"
	grep -q "plots: 0 drawn" "$TMP/nog.txt" || fail "the report does not say no plot was drawn"
	[ -s "$N/plots/matrix_iops.gp" ] || fail "scripts not written without gnuplot"
	! ls "$N"/plots/*.svg >/dev/null 2>&1 || fail "SVG files without gnuplot?"
	ok "without gnuplot: report printed, plots skipped with a warning"
}

case "$scenario" in
plots | json | compare | quoted | backquote | killed | bad | nognuplot) "s_$scenario" ;;
*) fail "no scenario '$scenario'" ;;
esac
