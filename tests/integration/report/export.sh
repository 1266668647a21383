#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep export` read by the tools of the formats it writes, on a real two-agent run on three
# ports (loop devices) of one drive, agent a through two: a randrw sweep over iodepth (with a
# ramp) and a sequential write. One scenario per test (argument 1):
# - fio: check_export_fio.py runs fio_jsonplus_clat2csv (Debian's fio package; and its
#   --validate) on every standalone json+ file and finds each direction's I/Os equal to
#   summary.csv's and its p50, p99 and p99.9 within one bucket of them, for all agents and for
#   each, and every client/server file holding one entry per agent, one per path with its
#   summary.csv row's I/Os, and then "All clients", each entry's per-interval iops and bw
#   statistics those of its timeseries.csv rows and every key fio-plot's reader looks up; the
#   layout is fio-plot's (PHASE/BS/RW-iodepth-D-numjobs-N.json); each agent's histogram log
#   of each point read by fio-histo-log-pctiles.py counts its I/Os and finds its median and p99
#   within one bucket of summary.csv; bad input is refused.
# - hdr: check_export_hdr.py decodes every log with HdrHistogram's JavaScript reader
#   (hdr-histogram-js from npm, installed by install-deps.sh --tests, run by node; skipped without it) and finds every
#   interval's count and p99 equal to timeseries.csv's rows within the bucket error, at the
#   rows' times on the run's shared clock, all.hlog the agents' sum and summary.csv's I/Os.
. "$(dirname "$0")/../lib.sh"
need_root
scenario=${1:?usage: export.sh fio|hdr}
case $scenario in
fio)
	need_cmd losetup fio_jsonplus_clat2csv
	pctiles=/usr/share/doc/fio/fio-histo-log-pctiles.py.gz
	[ -f $pctiles ] || skip "no $pctiles (Debian's fio package)"
	zcat $pctiles >"$TMP/pctiles.py"
	;;
hdr)
	need_cmd losetup node
	# installed at set-up by scripts/install-deps.sh --tests (make check), never fetched here
	hdr_js=${LST_HDR_JS:-/usr/local/lib/lockstep-tests/node_modules/hdr-histogram-js}
	[ -d "$hdr_js" ] || skip "no hdr-histogram-js at $hdr_js (scripts/install-deps.sh --tests)"
	;;
*) fail "unknown scenario $scenario" ;;
esac

# agents a and b on three ports of one drive, a through two of them (so points have path rows,
# a's from the samples' per-path parts, b's its whole sample)
back=$(mk_backing 96M)
DA=$(mk_loop "$back")
DA2=$(mk_loop "$back")
DB=$(mk_loop "$back")
PA=$(free_port)
PB=$(free_port)
start_agent a "$PA" --allow-write "$DA" --allow-write "$DA2"
start_agent b "$PB" --allow-write "$DB"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: export
agents:
  - {name: a, address: "tcp://127.0.0.1:$PA"}
  - {name: b, address: "tcp://127.0.0.1:$PB"}
targets: [{name: drive, share: split, paths: {a: ["$DA", "$DA2"], b: "$DB"}}]
defaults: {interval: 250ms}
phases:
  - name: mixed
    workload: {rw: randrw, rwmixread: 70, bs: 4k}
    sweep: {iodepth: [1, 8]}
    round: {ramp: 250ms, duration: 1s}
  - name: seq
    workload: {rw: write, bs: 128k, iodepth: 4, runtime: 1s}
YAML
"$LOCKSTEP" run --quiet "$TMP/plan.yaml" -o "$TMP/r" >"$TMP/run.log" 2>&1 ||
	fail "run: $(tail -3 "$TMP/run.log")"

if [ "$scenario" = hdr ]; then
	"$LOCKSTEP" export hdr "$TMP/r" -o "$TMP/hdr" >"$TMP/export.log" 2>&1 ||
		fail "export: $(cat "$TMP/export.log")"
	"$PY" "$(dirname "$0")/../check_export_hdr.py" "$TMP/r" "$TMP/hdr" \
		"$(dirname "$0")/../hdr_dump.js" "$hdr_js" ||
		fail "HdrHistogram's reader disagrees with timeseries.csv"
	ok "HistogramLogReader reads every interval; counts and p99 equal to lockstep's rows"
	exit 0
fi
"$LOCKSTEP" export fio "$TMP/r" -o "$TMP/fio" >"$TMP/export.log" 2>&1 ||
	fail "export: $(cat "$TMP/export.log")"
for f in mixed/4k/randrw-iodepth-1-numjobs-1.json mixed/4k/randrw-iodepth-8-numjobs-1.json \
	seq/128k/write-iodepth-4-numjobs-1.json seq/128k/jobs/write-iodepth-4-numjobs-1.all.json \
	seq/128k/jobs/write-iodepth-4-numjobs-1.a.json seq/128k/jobs/write-iodepth-4-numjobs-1.b.json; do
	[ -f "$TMP/fio/$f" ] || fail "no $f in the export: $(cd "$TMP/fio" && find . -type f)"
done
mkdir "$TMP/csv"
"$PY" "$(dirname "$0")/../check_export_fio.py" "$TMP/r" "$TMP/fio" "$TMP/csv" "$TMP/pctiles.py" ||
	fail "fio's tooling disagrees with summary.csv"

# the default folder, and bad input: a folder that is not a results folder, an unknown format
"$LOCKSTEP" export fio "$TMP/r" >/dev/null 2>&1 && [ -f "$TMP/r/fio/seq/128k/write-iodepth-4-numjobs-1.json" ] ||
	fail "export without -o did not write DIR/fio"
expect_exit 2 "$LOCKSTEP" export fio "$TMP/csv"
has_text "$TMP/err" "not a results folder"
expect_exit 2 "$LOCKSTEP" export csv "$TMP/r"
has_text "$TMP/err" "give a format (fio or hdr)"
ok "fio_jsonplus_clat2csv reads every json+ file; percentiles within one bucket of summary.csv"
